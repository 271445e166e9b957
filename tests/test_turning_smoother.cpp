// The `turning` smoother (Pinter's 2001 basic methods): fillets of the turning radius, and the
// stated fallbacks shrink, three-point turn and rotate in place, each reported per turn.

#include <doctest/doctest.h>

#include "pathlab/collision.hpp"
#include "pathlab/swept_check.hpp"
#include "pathlab/turning_smoother.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

/// Every piece is swept clear and its arcs are no tighter than `min_radius`.
void check_pieces(const Grid& grid, const TurningResult& r, double agent, double min_radius) {
  double total = 0.0;
  for (const SegmentPath& p : r.pieces) {
    SweptCheckDef def;
    def.agent_radius = agent;
    auto swept = check_swept_path(grid, p, def);
    REQUIRE(swept.ok());
    CHECK(swept->clear);
    for (const Segment& s : p.segments())
      if (s.kind == SegmentKind::arc) CHECK(s.radius >= min_radius * (1 - 1e-12));
    total += p.length();
  }
  CHECK(r.length == doctest::Approx(total).epsilon(1e-12));
}

}  // namespace

TEST_CASE("turning smoother: an open corner gets a fillet of the full radius") {
  const Grid grid = Grid::create(20, 20).value();
  const std::vector<Vec2> pts{{2.5, 2.5}, {6.5, 2.5}, {10.5, 2.5}, {10.5, 15.5}};  // one collinear point
  TurningSmoothDef def;
  def.turning_radius = 3.0;
  auto r = turning_smooth(grid, pts, def);
  REQUIRE(r.ok());
  REQUIRE(r->turns.size() == 1);
  CHECK(r->turns[0].waypoint == 2);
  CHECK(r->turns[0].method == TurnMethod::fillet);
  CHECK(r->turns[0].radius == 3.0);
  CHECK(r->turns[0].angle == doctest::Approx(kPi / 2));
  REQUIRE(r->pieces.size() == 1);
  check_pieces(grid, *r, 0.0, 3.0);
  // The fillet replaces 2 t = 6 of the corner by a quarter circle of radius 3.
  CHECK(r->length == doctest::Approx(8.0 + 13.0 - 6.0 + 1.5 * kPi).epsilon(1e-9));
  const Pose end = r->pieces.back().end();
  CHECK(glm::length(end.pos - pts.back()) < 1e-9);
  CHECK(std::abs(wrap_angle(end.heading - kPi / 2)) < 1e-9);
}

TEST_CASE("turning smoother: short legs shrink the radius, down to the floor") {
  const Grid grid = Grid::create(20, 20).value();
  const std::vector<Vec2> pts{{2.5, 2.5}, {3.5, 2.5}, {3.5, 3.5}, {4.5, 3.5}, {4.5, 10.5}};
  TurningSmoothDef def;
  def.turning_radius = 3.0;
  def.min_radius = 0.5;
  auto r = turning_smooth(grid, pts, def);
  REQUIRE(r.ok());
  REQUIRE(r->turns.size() == 3);
  for (const TurnReport& t : r->turns) {
    CHECK(t.method == TurnMethod::shrink);
    CHECK(t.radius < 3.0);
    CHECK(t.radius >= 0.5);
  }
  check_pieces(grid, *r, 0.0, 0.5);
  // With no shrinking allowed the same corners need a three-point turn.
  def.allow_shrink = false;
  auto three = turning_smooth(grid, pts, def);
  REQUIRE(three.ok());
  CHECK(three->count(TurnMethod::three_point) == 3);
  bool reverse = false;
  for (const Segment& s : three->pieces[0].segments()) reverse |= s.gear == Gear::reverse;
  CHECK(reverse);
  check_pieces(grid, *three, 0.0, 3.0);
}

TEST_CASE("turning smoother: in a 1-wide corridor the tank rotates in place") {
  const Grid grid = test::grid_from_rows({
      "##########",
      "#.....####",
      "#####.####",
      "#####.####",
      "##########",
  });
  const std::vector<Vec2> pts{{1.5, 1.5}, {5.5, 1.5}, {5.5, 3.5}};
  TurningSmoothDef def;
  def.turning_radius = 2.0;
  // (A point unit could round this corner at radius 1.6, cutting through the corner cell.)
  def.min_radius = 1.8;
  auto r = turning_smooth(grid, pts, def);
  REQUIRE(r.ok());
  REQUIRE(r->turns.size() == 1);
  CHECK(r->turns[0].method == TurnMethod::rotate);
  CHECK(r->turns[0].radius == 0.0);
  REQUIRE(r->pieces.size() == 2);
  CHECK(r->pieces[1].start().pos == Vec2(5.5, 1.5));
  check_pieces(grid, *r, 0.0, 1.8);
  def.allow_rotate = false;
  auto none = turning_smooth(grid, pts, def);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().code == StatusCode::blocked);
  CHECK(none.error().message.find("waypoint 1") != std::string::npos);
}

TEST_CASE("turning smoother: start and goal headings are met on the spot") {
  const Grid grid = Grid::create(30, 30).value();
  const std::vector<Vec2> pts{{10.5, 10.5}, {20.5, 10.5}};
  TurningSmoothDef def;
  def.turning_radius = 2.0;
  def.has_start_heading = true;
  def.start_heading = kPi / 2;
  def.has_goal_heading = true;
  def.goal_heading = kPi;
  auto r = turning_smooth(grid, pts, def);
  REQUIRE(r.ok());
  REQUIRE(r->turns.size() == 2);
  CHECK(r->turns[0].waypoint == 0);
  CHECK(r->turns[0].method == TurnMethod::three_point);
  CHECK(r->turns[1].waypoint == 1);
  CHECK(r->pieces.front().start().heading == kPi / 2);
  CHECK(std::abs(wrap_angle(r->pieces.back().end().heading - kPi)) < 1e-9);
  CHECK(glm::length(r->pieces.back().end().pos - pts.back()) < 1e-9);
  check_pieces(grid, *r, 0.0, 2.0);
}

TEST_CASE("turning smoother: bad input is an error naming it") {
  const Grid grid = test::grid_from_rows({"....", ".##.", "...."});
  TurningSmoothDef def;
  def.min_radius = 5.0;
  auto r = turning_smooth(grid, std::vector<Vec2>{{0.5, 0.5}, {3.5, 0.5}}, def);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("min_radius") != std::string::npos);
  def = default_turning_smooth_def();
  r = turning_smooth(grid, std::vector<Vec2>{{0.5, 1.5}, {3.5, 1.5}}, def);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == StatusCode::blocked);
  r = turning_smooth(grid, std::vector<Vec2>{}, def);
  REQUIRE_FALSE(r.ok());
  r = turning_smooth(grid, std::vector<Vec2>{{0.5, 0.5}, {std::nan(""), 0.5}}, def);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("point 1") != std::string::npos);
}
