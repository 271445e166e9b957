// The Moving AI competition's corner convention for the navmesh planner (issue 28): a pinch
// point (a lattice point where two blocked cells touch only at their corners) is a valid start
// or goal when the path leaves through a free cell beside it; start == goal there is length 0;
// no path passes through it. Lengths are checked against the visibility-graph reference from
// points a hair inside each free cell, and the 30 pinch-point problems of the Moving AI
// scenario files against the same search from such nudged points on the other mesh kind.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "test_support.hpp"
#include "visibility_reference.hpp"

using namespace pathlab;

namespace {

constexpr double kNudge = 1e-7;  // how far inside a free cell the reference starts [Units: cells]

bool is_pinch(const Grid& g, int x, int y) {
  if (x <= 0 || y <= 0 || x >= g.width() || y >= g.height()) return false;
  const bool b00 = !g.is_free(x - 1, y - 1), b10 = !g.is_free(x, y - 1);
  const bool b01 = !g.is_free(x - 1, y), b11 = !g.is_free(x, y);
  return (b00 && b11 && !b10 && !b01) || (b10 && b01 && !b00 && !b11);
}

/// p itself, or when p is a pinch point the points a hair inside each free cell beside it.
std::vector<Vec2> exits(const Grid& g, Vec2 p) {
  const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
  if (p.x != x || p.y != y || !is_pinch(g, x, y)) return {p};
  std::vector<Vec2> out;
  for (const int dy : {-1, 0})
    for (const int dx : {-1, 0})
      if (g.is_free(x + dx, y + dy)) out.push_back(p + kNudge * Vec2(dx == 0 ? 1.0 : -1.0, dy == 0 ? 1.0 : -1.0));
  return out;
}

/// The convention's length from s to t by `shortest` between nudged ends: the best over the
/// free cells each pinch end may be left or entered through (infinity when none connects).
template <class F>
double nudged_best(const Grid& g, Vec2 s, Vec2 t, F&& shortest) {
  double best = std::numeric_limits<double>::infinity();
  for (const Vec2 a : exits(g, s))
    for (const Vec2 b : exits(g, t)) best = std::min(best, shortest(a, b));
  return best;
}

NavmeshDef def_of(bool corners, int tile) {
  NavmeshDef d = default_navmesh_def();
  d.corners_only = corners;
  d.tile_size = tile;
  return d;
}

}  // namespace

TEST_CASE("pinch points by the competition's convention: valid ends, left through a free cell, never passed through") {
  // Region B (x >= 4, y <= 2) meets the rest only at the pinch point (4,3).
  const Grid g = test::grid_from_rows({"...#....",
                                       "...#....",
                                       "...#....",
                                       "....####",
                                       "........",
                                       "........"});
  REQUIRE(is_pinch(g, 4, 3));
  const test::VisibilityReference ref(g);
  auto reference = [&](Vec2 a, Vec2 b) { return ref.shortest(a, b); };
  for (const bool corners : {false, true}) {
    for (const int tile : {0, 8}) {
      CAPTURE(corners);
      CAPTURE(tile);
      const Navmesh m = Navmesh::build(g, def_of(corners, tile)).value();
      CHECK_FALSE(m.def().pinch_points_are_wall);  // the default
      NavmeshQuery q(m);
      const Vec2 pinch(4, 3), in_b(6.5, 1.5), in_a(0.5, 4.5), far_a(7.5, 5.5);
      for (const auto& [s, t] : {std::pair{pinch, in_b}, std::pair{in_b, pinch}, std::pair{pinch, in_a},
                                 std::pair{far_a, pinch}, std::pair{pinch, Vec2(0.5, 0.5)}}) {
        CAPTURE(s.x);
        CAPTURE(s.y);
        CAPTURE(t.x);
        CAPTURE(t.y);
        auto r = q.find_corridor(s, t);
        REQUIRE(r);
        REQUIRE(r->found);
        const double best = nudged_best(g, s, t, reference);
        REQUIRE(std::isfinite(best));
        CHECK(std::abs(r->length - best) <= 1e-6);
      }
      // Through the point is through a wall: B and the rest stay apart.
      auto apart = q.find_corridor(in_b, in_a);
      REQUIRE(apart);
      CHECK_FALSE(apart->found);
      // start == goal on the pinch point: found at once, length 0.
      auto same = q.find_corridor(pinch, pinch);
      REQUIRE(same);
      CHECK(same->found);
      CHECK(same->length == 0.0);
    }
  }
  // The wall rule, kept as an option, refuses it.
  NavmeshDef wall_rule = default_navmesh_def();
  wall_rule.pinch_points_are_wall = true;
  const Navmesh m = Navmesh::build(g, wall_rule).value();
  NavmeshQuery q(m);
  auto refused = q.find_corridor(Vec2(4, 3), Vec2(6.5, 1.5));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("is a pinch point") != std::string::npos);
}

TEST_CASE("pinch points with an agent radius snap from inside a free cell beside them") {
  const Grid g = test::grid_from_rows({"........",
                                       ".#......",
                                       "..#.....",
                                       "........",
                                       "........"});
  NavmeshDef d = default_navmesh_def();
  d.agent_radius = 0.3;
  const Navmesh m = Navmesh::build(g, d).value();
  NavmeshQuery q(m);
  auto r = q.find_corridor(Vec2(2, 2), Vec2(6.5, 3.5));
  REQUIRE(r);
  CHECK(r->found);
  CHECK(r->start_snapped);
  CHECK(glm::length(r->start - Vec2(2, 2)) <= 0.3 * std::sqrt(2.0) + 1e-9);
}

// Every problem of the 11 Moving AI scenario files, ends on the top-left corners of their cells
// (the competition's convention), whose start or goal is a pinch point: 30 problems, refused
// before issue 28. Each is answered on the wall-corner mesh (the CLI's default) with the length
// the exact search on the convex mesh gives between points a hair inside the free cells.
TEST_CASE("the 30 pinch-point problems of the Moving AI scenarios are answered with the right lengths") {
  const char* maps[] = {"arena", "arena2", "brc202d", "den520d", "lak303d", "Berlin_0_256", "Berlin_0_512",
                        "Archipelago", "8room_000", "maze512-1-0", "random512-10-0"};
  int pinch_problems = 0, answered = 0;
  for (const char* name : maps) {
    CAPTURE(name);
    const std::string dir = std::string(PATHLAB_MOVINGAI_DIR) + "/";
    const Grid g = load_movingai_map(dir + name + ".map").value();
    std::ifstream in(dir + name + ".map.scen");
    REQUIRE(in);
    std::vector<std::pair<Vec2, Vec2>> problems;
    std::string line;
    std::getline(in, line);  // "version 1"
    while (std::getline(in, line)) {
      std::istringstream ss(line);
      int bucket = 0, w = 0, h = 0, sx = 0, sy = 0, gx = 0, gy = 0;
      std::string map;
      if (!(ss >> bucket >> map >> w >> h >> sx >> sy >> gx >> gy)) continue;
      if (is_pinch(g, sx, sy) || is_pinch(g, gx, gy)) problems.emplace_back(Vec2(sx, sy), Vec2(gx, gy));
    }
    if (problems.empty()) continue;
    const Navmesh corners = Navmesh::build(g, def_of(true, 0)).value();
    const Navmesh convex = Navmesh::build(g, def_of(false, 0)).value();
    NavmeshQuery qc(corners), qv(convex);
    auto convex_length = [&](Vec2 a, Vec2 b) {
      auto r = qv.find_corridor(a, b);
      return r && r->found ? r->length : std::numeric_limits<double>::infinity();
    };
    for (const auto& [s, t] : problems) {
      CAPTURE(s.x);
      CAPTURE(s.y);
      CAPTURE(t.x);
      CAPTURE(t.y);
      ++pinch_problems;
      auto r = qc.find_corridor(s, t);
      REQUIRE(r);
      REQUIRE(r->found);
      ++answered;
      CHECK(std::abs(r->length - nudged_best(g, s, t, convex_length)) <= 1e-6);
    }
  }
  CHECK(pinch_problems == 30);
  CHECK(answered == 30);
}
