#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "pathlab/arc_length.hpp"
#include "pathlab/catmull_rom.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/shortcut.hpp"
#include "pathlab/spline_smoother.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

/// The continuous curve checked independently of the smoother's proof: many points on it,
/// each with a disc of the radius in free space.
bool curve_points_clear(const Grid& g, const HermiteCurve& c, double r, int per_segment) {
  for (size_t k = 0; k < c.segments.size(); ++k)
    for (int j = 0; j <= per_segment; ++j)
      if (!point_clear(g, c.segments[k].point_at(static_cast<double>(j) / per_segment), r)) return false;
  return true;
}

constexpr SplineMethod kMethods[] = {SplineMethod::catmull_rom, SplineMethod::centripetal, SplineMethod::chordal,
                                     SplineMethod::hermite};

}  // namespace

TEST_CASE("spline smoother: a corridor corner makes the raw spline hit the wall; the repair does not") {
  const Grid g = test::grid_from_rows({"#######",
                                       "#.....#",
                                       "#####.#",
                                       "#####.#",
                                       "#######"});
  auto path = find_grid_path(g, GridPlanner::astar, Cell{1, 1}, Cell{5, 3});
  REQUIRE(path);
  REQUIRE(path->found);
  const double r = 0.5;
  REQUIRE(polyline_clear(g, path->points, r));
  for (SplineMethod m : kMethods) {
    CAPTURE(to_string(m));
    auto raw = sample_per_segment(spline_curve(m, path->points).value(), 8);
    REQUIRE(raw);
    CHECK_FALSE(polyline_clear(g, *raw, r));  // the unrepaired spline swings into the wall at the corner
    SplineSmoothDef def = default_spline_smooth_def();
    def.method = m;
    def.agent_radius = r;
    auto s = smooth_path(g, path->points, def);
    REQUIRE(s);
    CHECK(polyline_clear(g, s->points, r));
    CHECK(curve_points_clear(g, s->curve, r, 64));
    CHECK(s->points.front() == path->points.front());
    CHECK(s->points.back() == path->points.back());
    REQUIRE_FALSE(s->repairs.empty());
    // The repairs are around the corner (waypoint 4 at (5.5, 1.5)), not along the straight parts.
    for (const auto& rep : s->repairs) {
      CHECK(rep.span >= 2);
      CHECK(rep.span <= 5);
      CHECK(rep.tangent_scale < 1.0);
    }
    // Every waypoint given twice: the same curve, and repairs name spans that move.
    std::vector<Vec2> doubled;
    for (const Vec2& p : path->points) doubled.insert(doubled.end(), {p, p});
    auto d = smooth_path(g, doubled, def);
    REQUIRE(d);
    CHECK(d->duplicates_removed == static_cast<int>(path->points.size()));
    REQUIRE(d->points.size() == s->points.size());
    for (size_t i = 0; i < d->points.size(); ++i) CHECK(d->points[i] == s->points[i]);
    REQUIRE(d->repairs.size() == s->repairs.size());
    for (const auto& rep : d->repairs) {
      REQUIRE(rep.span + 1 < static_cast<int>(doubled.size()));
      CHECK(doubled[static_cast<size_t>(rep.span)] != doubled[static_cast<size_t>(rep.span) + 1]);
    }
  }
}

TEST_CASE("spline smoother: in the open nothing is repaired and the curve is the plain spline") {
  const Grid g = Grid::create(30, 30).value();
  const std::vector<Vec2> pts{{2.5, 2.5}, {10.5, 4.5}, {15.5, 15.5}, {25.5, 20.5}};
  for (SplineMethod m : kMethods) {
    SplineSmoothDef def;
    def.method = m;
    def.agent_radius = 0.5;
    def.sampling.per_segment = 6;
    auto s = smooth_path(g, pts, def);
    REQUIRE(s);
    CHECK(s->repairs.empty());
    CHECK(s->points_inserted == 0);
    CHECK(s->extra_samples == 0);
    auto plain = sample_per_segment(spline_curve(m, pts).value(), 6);
    REQUIRE(plain->size() == s->points.size());
    for (size_t i = 0; i < plain->size(); ++i) CHECK(glm::length((*plain)[i] - s->points[i]) < 1e-12);
    CHECK(s->length == doctest::Approx(spline_curve(m, pts)->length()).epsilon(1e-12));
  }
  // Catmull-Rom through the smoother equals catmull_rom_subdivide in the open.
  auto cr = catmull_rom_subdivide(std::span<const Vec2>(pts), 6, catmull_rom_def(CatmullRomKind::centripetal));
  SplineSmoothDef def;
  def.sampling.per_segment = 6;
  auto s = smooth_path(g, pts, def);
  REQUIRE(s);
  for (size_t i = 0; i < cr->size(); ++i) CHECK(glm::length((*cr)[i] - s->points[i]) < 1e-12);
}

TEST_CASE("spline smoother: points per cell place samples by distance") {
  const Grid g = Grid::create(30, 30).value();
  const std::vector<Vec2> pts{{2.5, 2.5}, {10.5, 4.5}, {15.5, 15.5}, {25.5, 20.5}};
  SplineSmoothDef def;
  def.sampling.per_cell = 4.0;
  auto s = smooth_path(g, pts, def);
  REQUIRE(s);
  const auto table = ArcLengthTable::build(s->curve).value();
  CHECK(s->length == doctest::Approx(table.length()).epsilon(1e-12));
  CHECK(s->points.size() == static_cast<size_t>(std::floor(s->length * 4.0)) + 2);
  for (size_t i = 1; i + 1 < s->points.size(); ++i) {
    const double chord = glm::length(s->points[i] - s->points[i - 1]);
    CHECK(chord <= 0.25 + 1e-9);
    CHECK(chord > 0.24);  // gentle curve: chords are nearly the arc spacing
  }
  CHECK(glm::length(s->points.back() - pts.back()) < 1e-12);
}

TEST_CASE("spline smoother: property - every smoothed A* path on random grids is collision-free") {
  const int paths = sanitized() ? 30 : 300;
  std::mt19937 rng(12345);
  int raw_hits = 0, tightened = 0, straightened = 0, inserted = 0, runs = 0;
  for (int i = 0; i < paths; ++i) {
    const double density = 0.1 + 0.25 * (i % 5) / 4.0;
    const Grid g = test::random_grid(32, 32, density, static_cast<uint32_t>(1000 + i));
    std::uniform_int_distribution<int> cell(0, 31);
    for (const double r : {0.0, 0.3, 0.5, 0.75}) {
      const std::vector<uint8_t> ok = passable_cells(g, r);
      Cell a{cell(rng), cell(rng)}, b{cell(rng), cell(rng)};
      int tries = 0;
      while ((!ok[g.index(a.x, a.y)] || !ok[g.index(b.x, b.y)]) && ++tries < 200) {
        a = Cell{cell(rng), cell(rng)};
        b = Cell{cell(rng), cell(rng)};
      }
      if (tries >= 200) continue;
      GridSearchOptions opt;
      opt.agent_radius = r;
      auto path = find_grid_path(g, GridPlanner::astar, a, b, opt);
      REQUIRE(path);
      if (!path->found) continue;
      REQUIRE(polyline_clear(g, path->points, r));
      for (const bool shortcut : {false, true}) {
        std::vector<Vec2> wp = path->points;
        if (shortcut) wp = los_shortcut(g, wp, r).value().points;
        for (SplineMethod m : kMethods) {
          SplineSmoothDef def;
          def.method = m;
          def.agent_radius = r;
          if ((i + static_cast<int>(m)) % 3 == 0) def.sampling.per_cell = 3.0;
          else def.sampling.per_segment = 1 + (i + static_cast<int>(m)) % 8;
          auto s = smooth_path(g, wp, def);
          REQUIRE(s);
          ++runs;
          CAPTURE(i);
          CAPTURE(r);
          CAPTURE(to_string(m));
          CAPTURE(shortcut);
          CHECK(polyline_clear(g, s->points, r));
          CHECK(curve_points_clear(g, s->curve, r, 16));
          CHECK(s->points.front() == wp.front());
          CHECK(s->points.back() == wp.back());
          auto raw = sample_per_segment(spline_curve(m, wp).value(), 16);
          if (!polyline_clear(g, *raw, r)) ++raw_hits;
          for (const auto& rep : s->repairs) {
            CHECK(rep.span >= 0);
            CHECK(rep.span + 1 < static_cast<int>(wp.size()));
            if (rep.kind == SplineRepairKind::tightened) ++tightened;
            if (rep.kind == SplineRepairKind::straightened) ++straightened;
            if (rep.points_inserted > 0) ++inserted;
          }
        }
      }
    }
  }
  MESSAGE("runs " << runs << ", raw spline hit a wall " << raw_hits << ", tightened " << tightened
                  << ", straightened " << straightened << ", spans with inserted points " << inserted);
  // Not vacuous: the raw splines do hit walls, and every kind of repair is used.
  CHECK(runs > 100);
  CHECK(raw_hits > 0);
  CHECK(tightened > 0);
  CHECK(straightened > 0);
  CHECK(inserted > 0);
}

TEST_CASE("spline smoother: a Moving AI map path at several radii") {
  auto grid = load_movingai_map(test::movingai("arena.map"));
  REQUIRE(grid);
  for (const double r : {0.0, 0.5, 1.0}) {
    GridSearchOptions opt;
    opt.agent_radius = r;
    auto path = find_grid_path(*grid, GridPlanner::astar, Cell{3, 3}, Cell{45, 40}, opt);
    REQUIRE(path);
    if (!path->found) continue;
    for (SplineMethod m : kMethods) {
      SplineSmoothDef def;
      def.method = m;
      def.agent_radius = r;
      auto s = smooth_path(*grid, path->points, def);
      REQUIRE(s);
      CHECK(polyline_clear(*grid, s->points, r));
      CHECK(curve_points_clear(*grid, s->curve, r, 16));
    }
  }
}

TEST_CASE("spline smoother: degenerate and bad input") {
  const Grid g = test::grid_from_rows({"....",
                                       ".#..",
                                       "...."});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Vec2> none;
  auto e = smooth_path(g, none);
  REQUIRE_FALSE(e);
  CHECK(e.error().message.find("waypoints") != std::string::npos);
  const std::vector<Vec2> with_nan{{0.5, 0.5}, {nan, 0.5}};
  e = smooth_path(g, with_nan);
  REQUIRE_FALSE(e);
  CHECK(e.error().message.find("waypoints[1]") != std::string::npos);
  const std::vector<Vec2> ok{{0.5, 0.5}, {3.5, 0.5}, {3.5, 2.5}};
  SplineSmoothDef def;
  def.agent_radius = -1;
  e = smooth_path(g, ok, def);
  REQUIRE_FALSE(e);
  CHECK(e.error().message.find("agent_radius") != std::string::npos);
  def = SplineSmoothDef{};
  def.sampling.per_segment = 0;
  CHECK(smooth_path(g, ok, def).error().message.find("per_segment") != std::string::npos);
  def = SplineSmoothDef{};
  def.sampling.per_cell = 1e6;
  CHECK(smooth_path(g, ok, def).error().message.find("per_cell") != std::string::npos);
  def = SplineSmoothDef{};
  def.max_deviation = 0;
  CHECK_FALSE(smooth_path(g, ok, def));
  def = SplineSmoothDef{};
  def.insert_min_chord = 0.5;
  CHECK_FALSE(smooth_path(g, ok, def));
  // A path through the wall cannot be repaired: an error, not a wrong answer.
  const std::vector<Vec2> through{{0.5, 1.5}, {3.5, 1.5}};
  auto b = smooth_path(g, through);
  REQUIRE_FALSE(b);
  CHECK(b.error().code == StatusCode::blocked);
  CHECK(b.error().message.find("waypoints") != std::string::npos);
  // Repeats are dropped and counted; one point gives one point.
  const std::vector<Vec2> rep{{0.5, 0.5}, {0.5, 0.5}, {3.5, 0.5}, {3.5, 0.5}, {3.5, 2.5}};
  auto r = smooth_path(g, rep);
  REQUIRE(r);
  CHECK(r->duplicates_removed == 2);
  CHECK(r->control_points.size() == 3u);
  for (const Vec2& p : r->points) CHECK(is_finite(p));
  CHECK(polyline_clear(g, r->points, 0.0));
  const std::vector<Vec2> one{{2.5, 2.5}};
  auto o = smooth_path(g, one);
  REQUIRE(o);
  REQUIRE(o->points.size() == 1u);
  CHECK(o->points[0] == one[0]);
  CHECK(parse_spline_method("hermite").value() == SplineMethod::hermite);
  CHECK_FALSE(parse_spline_method("bezier"));
}
