// Fast failure of goal poses that cannot be entered (issue 16): Hybrid A* looks at the goal's
// pocket before it searches, so such a query costs about what a successful one does instead
// of a search over every pose of the map. Checked by expansions, never by time.

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "heading_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

/// A w x h room with two dead ends along its right half: a 1-cell corridor on row h - 2 and a
/// 3-cell one on rows 11..13, both closed by the map's right edge.
Grid pockets(int w, int h) {
  Grid g = test::dead_end_room(w, h);
  for (int x = w / 2; x < w; ++x) {
    g.set_blocked(x, 10, true);
    g.set_blocked(x, 14, true);
  }
  return g;
}

HybridAStarOptions options(bool reverse) {
  HybridAStarOptions o = default_hybrid_astar_options();
  o.turning_radius = 2.0;
  o.agent_radius = 0.3;
  o.allow_reverse = reverse;
  return o;
}

}  // namespace

TEST_CASE("fast failure: a goal facing out of a dead end fails before any expansion") {
  const Grid grid = pockets(128, 128);
  auto planner = HybridAStar::create(grid, options(false));
  REQUIRE(planner.ok());
  const Pose s{Vec2(4.5, 60.5), 0.0};
  // The closed end of the 1-cell corridor, and 1.5 cells into the 3-cell one (inside the
  // turning circle), both facing out (heading pi: towards the room).
  for (const Pose g : {Pose{Vec2(127.5, 126.5), kPi}, Pose{Vec2(126.5, 12.5), kPi}, Pose{Vec2(125.5, 11.6), kPi}}) {
    CAPTURE(g.pos.x);
    CAPTURE(g.pos.y);
    auto r = planner->plan(s, g);
    REQUIRE(r.ok());
    CHECK_FALSE(r->found);
    CHECK_FALSE(r->partial);
    CHECK(r->failure == HeadingFailure::unreachable);
    CHECK(r->expanded == 0);
    CHECK(r->reason.find("cannot be entered with turning radius 2 driving forward") != std::string::npos);
  }
}

TEST_CASE("fast failure: the same goals facing in, or entered in reverse, are planned as before") {
  const Grid grid = pockets(64, 64);
  const Pose s{Vec2(4.5, 30.5), 0.0};
  const Pose in_narrow{Vec2(62.5, 62.5), 0.0}, out_wide{Vec2(62.5, 12.5), kPi};
  auto forward = HybridAStar::create(grid, options(false));
  REQUIRE(forward.ok());
  auto a = forward->plan(s, in_narrow);  // driving into the dead end is fine
  REQUIRE(a.ok());
  CHECK(a->found);
  test::check_legal(grid, *a, 2.0, 0.3, s, in_narrow);
  auto reverse = HybridAStar::create(grid, options(true));
  REQUIRE(reverse.ok());
  auto b = reverse->plan(s, out_wide);  // backing in, it faces out at the end
  REQUIRE(b.ok());
  CHECK(b->found);
  test::check_legal(grid, *b, 2.0, 0.3, s, out_wide);
}

TEST_CASE("fast failure: goals with room around them are never refused; refusals expand nothing") {
  // An open room: every goal has open space within reach, so the check never refuses one.
  // Sparse random maps: a goal facing away from a pillar just behind it cannot be entered
  // (every curve of radius 2 into it passes through the pillar), so a few are refused; those
  // cost no expansion at all.
  int found = 0, refused = 0, queries = 0;
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const bool open = seed <= 2;
    Grid grid = open ? Grid::create(48, 48).value() : test::random_grid(48, 48, 0.04, seed);
    auto planner = HybridAStar::create(grid, options(seed % 2 == 0));
    REQUIRE(planner.ok());
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(2.0, 46.0), h(-kPi, kPi);
    for (int i = 0; i < 12; ++i) {
      const Pose s{Vec2(u(rng), u(rng)), h(rng)}, g{Vec2(u(rng), u(rng)), h(rng)};
      if (!point_clear(grid, s.pos, 0.3) || !point_clear(grid, g.pos, 0.3)) continue;
      auto r = planner->plan(s, g);
      REQUIRE(r.ok());
      ++queries;
      const bool refused_here = r->reason.find("cannot be entered") != std::string::npos;
      CAPTURE(seed);
      if (open) CHECK_FALSE(refused_here);
      if (refused_here) CHECK(r->expanded == 0);
      refused += refused_here ? 1 : 0;
      found += r->found ? 1 : 0;
    }
  }
  MESSAGE(refused << " of " << queries << " goals refused by the check, " << found << " found");
  CHECK(refused * 4 < queries);
  CHECK(found + refused >= queries - 2);
}
