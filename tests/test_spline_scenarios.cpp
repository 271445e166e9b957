// The spline smoothers on the Moving AI benchmark maps: for a spread of each map's scenario
// queries and several agent radii, the A* path smoothed by every method must stay clear of
// the walls for that radius, both as the sampled polyline (what `plan --smoother` prints) and
// as the continuous curve. The sanitizer build checks fewer queries per map.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "pathlab/collision.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/spline_smoother.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

constexpr SplineMethod kMethods[] = {SplineMethod::catmull_rom, SplineMethod::centripetal, SplineMethod::chordal,
                                     SplineMethod::hermite};

/// Points on the continuous curve, each checked with its disc: independent of the smoother's
/// own chord-based proof.
bool curve_points_clear(const Grid& g, const HermiteCurve& c, double r, int per_segment) {
  for (const HermiteSegment& s : c.segments)
    for (int j = 0; j <= per_segment; ++j)
      if (!point_clear(g, s.point_at(static_cast<double>(j) / per_segment), r)) return false;
  return true;
}

struct Tally {
  int smoothed = 0, repaired_paths = 0, not_found = 0;  // not_found: no path for that radius
};

void check_map(const std::string& name, int queries, Tally& tally) {
  auto grid = load_movingai_map(test::movingai(name + ".map"));
  REQUIRE(grid);
  auto scen = load_scenarios(test::movingai(name + ".map.scen"));
  REQUIRE(scen);
  REQUIRE_FALSE(scen->empty());
  GridPathfinder finder(*grid);
  // Evenly spread over the file (sorted by bucket), so short and long problems both count.
  for (int q = 0; q < queries; ++q) {
    const size_t i = scen->size() * static_cast<size_t>(q + 1) / static_cast<size_t>(queries + 1);
    const Scenario& sc = (*scen)[i];
    for (const double r : {0.0, 0.5, 1.0}) {
      GridSearchOptions opt;
      opt.agent_radius = r;
      auto path = finder.find_path(GridPlanner::astar, sc.start, sc.goal, opt);
      // A wide agent may not fit at the start or goal (an error) or through narrow gaps.
      if (!path && path.error().code == StatusCode::blocked) {
        ++tally.not_found;
        continue;
      }
      REQUIRE(path);
      if (!path->found) {
        ++tally.not_found;
        continue;
      }
      for (const SplineMethod m : kMethods) {
        CAPTURE(name);
        CAPTURE(sc.line);
        CAPTURE(r);
        CAPTURE(to_string(m));
        SplineSmoothDef def = default_spline_smooth_def();
        def.method = m;
        def.agent_radius = r;
        def.sampling.per_segment = 4;
        auto s = smooth_path(*grid, path->points, def);
        // Never `blocked`: A* paths are clear for the radius they were planned with, so
        // `plan --smoother` never falls back to the raw path.
        REQUIRE(s);
        CHECK(s->points.front() == path->points.front());
        CHECK(s->points.back() == path->points.back());
        CHECK(polyline_clear(*grid, s->points, r));
        CHECK(curve_points_clear(*grid, s->curve, r, 12));
        ++tally.smoothed;
        if (!s->repairs.empty()) ++tally.repaired_paths;
      }
    }
  }
}

}  // namespace

TEST_CASE("spline scenarios: smoothed A* paths are collision-free on every Moving AI map") {
  const bool sanitized = std::getenv("PATHLAB_SANITIZED") != nullptr;
  Tally tally;
  for (const char* name : {"arena", "arena2", "lak303d", "den520d", "brc202d", "Berlin_0_256", "Berlin_0_512",
                           "Archipelago", "maze512-1-0", "random512-10-0", "8room_000"}) {
    check_map(name, sanitized ? 1 : 12, tally);
  }
  MESSAGE(tally.smoothed << " smoothed paths, " << tally.repaired_paths << " needed repairs, " << tally.not_found
                         << " queries with no path for the radius");
  // Not vacuous: many paths were smoothed and the raw splines did need repairs on these maps.
  CHECK(tally.smoothed >= (sanitized ? 30 : 400));
  CHECK(tally.repaired_paths > 0);
}
