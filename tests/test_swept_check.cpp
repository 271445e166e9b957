// Swept-disc checks of segment paths against the grid: hand-made cases (arcs grazing and
// cutting walls, the agent radius, the map border), and on random maps agreement with a
// dense sampling of the path (a clear answer is never wrong; a blocked one is never further
// off than the sagitta allowance).

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "curve_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/swept_check.hpp"
#include "test_support.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

/// The clearance field's check gives the referee's answer on `path`: the same verdict, first
/// blocked piece and place along the path (exactly: it checks the very same chords). Counts the
/// referee's clear and blocked answers so callers can require both kinds.
void expect_field_agrees(const Grid& g, const ClearanceField& field, const SegmentPath& path, const SweptCheckDef& def,
                         int& clear, int& blocked) {
  const auto ref = check_swept_path(g, path, def);
  const auto fast = check_swept_path(g, path, def, field);
  REQUIRE(ref);
  REQUIRE(fast);
  CHECK(fast->clear == ref->clear);
  CHECK(fast->first_blocked_segment == ref->first_blocked_segment);
  CHECK(fast->blocked_at_s == ref->blocked_at_s);
  clear += ref->clear;
  blocked += !ref->clear;
}

}  // namespace

TEST_CASE("swept check: a quarter circle past a wall, for several agent radii") {
  // 12 x 12 open map with one blocked cell (6, 3): x in [6, 7), y in [3, 4).
  Grid grid = Grid::create(12, 12).value();
  grid.set_blocked(6, 3, true);
  // From (2, 9) heading +x, a right turn of radius 4.5 round (2, 4.5) up to (6.5, 4.5)
  // heading -y, then half a cell straight up to (6.5, 4): the middle of the cell's bottom edge.
  const double r = 4.5;
  const Pose from{{2.0, 9.0}, 0.0};
  const Move moves[2] = {{-1, kPi / 2}, {0, 0.5 / r}};
  auto path = path_from_moves(from, r, moves);
  REQUIRE(path.ok());
  CHECK(glm::length(path->end().pos - Vec2(6.5, 4.0)) <= 1e-12);
  // Touching the wall is allowed.
  CHECK(check_swept_path(grid, *path).value().clear);
  SweptCheckDef def;
  def.agent_radius = 0.3;  // the arc stays 0.5 away, the straight's end disc overlaps the cell
  auto res = check_swept_path(grid, *path, def).value();
  CHECK_FALSE(res.clear);
  CHECK(res.first_blocked_segment == 1);
  CHECK(res.blocked_at_s <= path->length());
  CHECK(res.blocked_at_s >= path->segments()[0].length - 1e-9);
  def.agent_radius = 0.49;  // the arc alone still fits
  const Move arc_only[1] = {{-1, kPi / 2}};
  CHECK(check_swept_path(grid, path_from_moves(from, r, arc_only).value(), def).value().clear);
  // Half a cell further enters the cell itself.
  const Move through[2] = {{-1, kPi / 2}, {0, 1.0 / r}};
  auto longer = path_from_moves(from, r, through).value();
  auto r0 = check_swept_path(grid, longer).value();
  CHECK_FALSE(r0.clear);
  CHECK(r0.first_blocked_segment == 1);
}

TEST_CASE("swept check: the map's outside is a wall and an empty path checks its start") {
  Grid grid = Grid::create(8, 8).value();
  const Pose from{{1.0, 4.0}, kPi};  // heading -x, towards the border at x = 0
  auto path = path_from_moves(from, 1.0, std::vector<Move>{{0, 2.0}}).value();
  CHECK_FALSE(check_swept_path(grid, path).value().clear);
  CHECK(check_swept_path(grid, SegmentPath(from)).value().clear);
  SweptCheckDef def;
  def.agent_radius = 1.5;  // the disc at (1, 4) crosses x = 0
  const auto r = check_swept_path(grid, SegmentPath(from), def).value();
  CHECK_FALSE(r.clear);
  // Reversing away from the border is fine.
  auto back = path_from_moves(from, 1.0, std::vector<Move>{{1, -1.0}, {0, -2.0}}).value();
  CHECK(check_swept_path(grid, back).value().clear);
}

TEST_CASE("swept check: agrees with dense sampling on random maps") {
  std::mt19937_64 rng(1234);
  const int maps = sanitized() ? 6 : 40;
  const int per_map = sanitized() ? 10 : 40;
  int clear_count = 0, blocked_count = 0;
  for (int m = 0; m < maps; ++m) {
    const Grid grid = random_grid(40, 40, 0.06, static_cast<uint32_t>(m + 1));
    std::uniform_real_distribution<double> coord(4.0, 36.0), heading(-kPi, kPi);
    for (int q = 0; q < per_map; ++q) {
      const Pose a{{coord(rng), coord(rng)}, heading(rng)}, b{{coord(rng), coord(rng)}, heading(rng)};
      const double r = 1.0 + (q % 3);
      auto path = (q % 2 == 0 ? dubins_path(a, b, r) : reeds_shepp_path(a, b, r)).value();
      SweptCheckDef def;
      def.agent_radius = (q % 4) * 0.15;
      def.max_sagitta = 1e-3;
      const auto res = check_swept_path(grid, path, def).value();
      // Dense samples: a point between two samples is within step / 2 of one of them.
      const double step = 0.01;
      const auto samples = path.sample(step).value();
      bool any_blocked_exact = false, any_blocked_loose = false;
      for (const PathSample& s : samples) {
        any_blocked_exact = any_blocked_exact || !point_clear(grid, s.state.pos, def.agent_radius);
        any_blocked_loose = any_blocked_loose ||
                            !point_clear(grid, s.state.pos, def.agent_radius + def.max_sagitta + step / 2 + 1e-9);
      }
      if (res.clear) {
        ++clear_count;
        CHECK_FALSE(any_blocked_exact);  // never clear through a wall
      } else {
        ++blocked_count;
        // Blocked means the disc grown by the allowance meets a wall somewhere; at radius 0
        // that includes passing exactly between two diagonal blocked cells, which the
        // grown disc also sees.
        CHECK(any_blocked_loose);
        CHECK(res.first_blocked_segment >= 0);
        CHECK(res.first_blocked_segment < static_cast<int>(std::max<size_t>(1, path.segments().size())));
        // Everything before the reported place is clear.
        const auto before = path.sample(step).value();
        for (const PathSample& s : before)
          if (s.s < res.blocked_at_s - 1e-9) CHECK(point_clear(grid, s.state.pos, def.agent_radius));
      }
    }
  }
  CHECK(clear_count > 0);
  CHECK(blocked_count > 0);
}

TEST_CASE("swept check: bad input is an error naming the argument") {
  Grid grid = Grid::create(4, 4).value();
  const SegmentPath path(Pose{{2.0, 2.0}, 0.0});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double a : {-0.1, nan, kMaxAgentRadius + 1.0}) {
    SweptCheckDef def;
    def.agent_radius = a;
    auto r = check_swept_path(grid, path, def);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("agent radius") != std::string::npos);
  }
  for (const double s : {0.0, -1.0, nan, std::numeric_limits<double>::infinity()}) {
    SweptCheckDef def;
    def.max_sagitta = s;
    auto r = check_swept_path(grid, path, def);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("max_sagitta") != std::string::npos);
  }
}

TEST_CASE("swept check with a clearance field: the same answer and the same first blocked piece as the referee") {
  int clear = 0, blocked = 0;
  for (uint32_t seed = 21; seed <= 26; ++seed) {
    Grid g = Grid::create(30, 30).value();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0), up(1.0, 29.0), ang(-kPi, kPi), ur(0.0, 1.2);
    for (int y = 0; y < 30; ++y)
      for (int x = 0; x < 30; ++x) g.set_blocked(x, y, u(rng) < 0.02 * (seed - 20));
    const ClearanceField field(g);
    for (int i = 0; i < 250; ++i) {
      const Pose a{Vec2(up(rng), up(rng)), ang(rng)}, b{Vec2(up(rng), up(rng)), ang(rng)};
      auto path = i % 2 ? reeds_shepp_path(a, b, 1.0 + 2.0 * u(rng)) : dubins_path(a, b, 1.0 + 2.0 * u(rng));
      REQUIRE(path);
      SweptCheckDef def = default_swept_check_def();
      def.agent_radius = i % 7 == 0 ? 0.0 : ur(rng);
      expect_field_agrees(g, field, *path, def, clear, blocked);
    }
  }
  CHECK(clear > 100);
  CHECK(blocked > 100);
}

TEST_CASE("swept check with a clearance field: arcs passed over in the open give the referee's answer, tiny arcs too") {
  // Long arcs in the open are where the field's check passes over many chords at once; arcs of
  // 1e-11 cells hold many chords' lengths of room per chord (an int count of them overflowed).
  Grid g = Grid::create(40, 40).value();
  for (int y = 18; y < 22; ++y) g.set_blocked(20, y, true);  // a short wall in the middle
  const ClearanceField field(g);
  std::mt19937 rng(2424);
  std::uniform_real_distribution<double> u(0.0, 1.0), ang(-kPi, kPi);
  int clear = 0, blocked = 0;
  for (int i = 0; i < 400; ++i) {
    const double radius = 0.5 + 6.0 * u(rng);
    const Pose from{Vec2(8.0 + 24.0 * u(rng), 8.0 + 24.0 * u(rng)), ang(rng)};
    const double length = i % 5 == 0 ? 1e-11 * (1.0 + u(rng)) : radius * 2.0 * kPi * u(rng);
    SegmentPath path(from);
    REQUIRE(path.append(arc_from_pose(from, radius, i % 2 ? 1 : -1, length)));
    const Pose mid = path.end();
    REQUIRE(path.append(arc_from_pose(mid, radius, i % 2 ? -1 : 1, 0.5 * length)));
    SweptCheckDef def = default_swept_check_def();
    def.agent_radius = 0.1 + 0.5 * u(rng);
    def.max_sagitta = i % 3 == 0 ? 1e-4 : 1e-3;
    expect_field_agrees(g, field, path, def, clear, blocked);
  }
  CHECK(clear > 100);
  CHECK(blocked > 20);
}
