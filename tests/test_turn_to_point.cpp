// Turn-to-point: Pinter's (2001) arc-then-line outside the turning circles, the turn-away-and-back
// inside them (the article wrongly calls those points unreachable), optimality against Dubins
// paths over sampled goal headings, the sampled path, and bad input.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "curve_support.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/turn_to_point.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

// Pinter's right-turn formula, written out as the article gives it (y down does not matter: it
// is plane geometry), for a destination outside the right turning circle.
double seed_right_turn_length(const Pose& from, Vec2 dest, double r) {
  const double to_p = from.heading - kPi / 2;
  const Vec2 p = from.pos + r * Vec2(std::cos(to_p), std::sin(to_p));
  const Vec2 dv = dest - p;
  const double h = glm::length(dv);
  const double d = std::sqrt(h * h - r * r);
  const double theta = std::acos(r / h);
  const double phi = std::atan2(dv.y, dv.x);
  const double q_angle = phi + theta;  // where the unit leaves the circle, seen from P
  // The arc runs clockwise (in math axes) from the start's angle on the circle to Q's.
  double sweep = std::remainder(to_p + kPi - q_angle, 2.0 * kPi);
  if (sweep < 0.0) sweep += 2.0 * kPi;
  return r * sweep + d;
}

}  // namespace

TEST_CASE("turn-to-point: outside the circles it is Pinter's arc and line, the shorter side") {
  const double r = 2.0;
  const Pose from{{0.0, 0.0}, 0.0};
  // A point ahead and to the right (negative y in math axes is the R side): RS.
  const Vec2 dest(6.0, -5.0);
  const auto sol = turn_to_point(from, dest, r).value();
  CHECK(sol.word == "RS");
  CHECK(std::abs(sol.length - seed_right_turn_length(from, dest, r)) <= 1e-12);
  // The mirror image takes the left turn.
  CHECK(turn_to_point(from, Vec2(6.0, 5.0), r).value().word == "LS");
  // Straight ahead: no turn at all.
  const auto ahead = turn_to_point(from, Vec2(9.0, 0.0), r).value();
  CHECK(std::abs(ahead.length - 9.0) <= 1e-12);
  CHECK(std::abs(ahead.final_heading) <= 1e-12);
}

TEST_CASE("turn-to-point: points inside a turning circle are reached by turning away and back") {
  const double r = 2.0;
  const Pose from{{0.0, 0.0}, 0.0};
  // (0.5, 1) is inside the left circle (centre (0, 2)): the article gives up, we do not.
  const Vec2 dest(0.5, 1.0);
  const auto sol = turn_to_point(from, dest, r).value();
  CHECK((sol.word == "RL" || sol.word == "LR"));
  auto path = turn_to_point_path(from, dest, r);
  REQUIRE(path.ok());
  CHECK(path->end().pos == dest);
  CHECK(std::abs(path->length() - sol.length) <= 1e-12);
  check_sampled(*path, from, Pose{dest, sol.final_heading}, r, 0.05, false);
  // The centre of the circle and a point a hair inside its rim work too.
  for (const Vec2 p : {Vec2(0.0, 2.0), Vec2(0.0, 4.0 - 1e-9), Vec2(1e-9, 1e-9), Vec2(-0.5, 0.0)}) {
    CAPTURE(p.x);
    CAPTURE(p.y);
    auto pp = turn_to_point_path(from, p, r);
    REQUIRE(pp.ok());
    CHECK(pp->end().pos == p);
  }
  // Already there: nothing to drive.
  const auto here = turn_to_point(from, from.pos, r).value();
  CHECK(here.length == 0.0);
  CHECK(turn_to_point_path(from, from.pos, r).value().segments().empty());
}

TEST_CASE("turn-to-point: never longer than the best Dubins path over sampled goal headings") {
  std::mt19937_64 rng(11);
  const int n = sanitized() ? 60 : 600;
  const int headings = sanitized() ? 180 : 720;
  int inside = 0;
  for (int i = 0; i < n; ++i) {
    const double r = 0.5 + (i % 4);
    const Pose from = random_pose(rng, 10.0);
    // Half the targets within about r (often inside a turning circle), half anywhere.
    const Pose target = random_pose(rng, 10.0);
    const Vec2 to = i % 2 == 0 ? from.pos + (target.pos - from.pos) * (0.3 * r / 10.0) : target.pos;
    const auto sol = turn_to_point(from, to, r).value();
    inside += sol.count == 2 && sol.moves[1].steer != 0 ? 1 : 0;  // arc then arc: RL or LR
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < headings; ++k) {
      const double h = -kPi + 2.0 * kPi * k / headings;
      best = std::min(best, dubins_length(from, Pose{to, h}, r).value());
    }
    CHECK(sol.length <= best + 1e-9 * std::max(best, r));
    // And it is a real path: the Dubins path to the heading it arrives with is as long.
    const double same = dubins_length(from, Pose{to, sol.final_heading}, r).value();
    CHECK(std::abs(same - sol.length) <= 1e-9 * std::max(same, r));
    auto path = turn_to_point_path(from, to, r);
    REQUIRE(path.ok());
    check_sampled(*path, from, Pose{to, sol.final_heading}, r, 0.2 * r, false);
  }
  CHECK(inside > n / 20);  // the turn-away-and-back case was exercised
}

TEST_CASE("turn-to-point: bad input is an error naming the argument") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Pose from{{0.0, 0.0}, 0.0};
  for (const double r : {0.0, -1.0, nan, inf}) {
    auto res = turn_to_point(from, Vec2(3.0, 3.0), r);
    REQUIRE_FALSE(res.ok());
    CHECK(res.error().message.find("radius") != std::string::npos);
    CHECK_FALSE(turn_to_point_path(from, Vec2(3.0, 3.0), r).ok());
  }
  CHECK(turn_to_point(Pose{{0.0, 0.0}, nan}, Vec2(3.0, 3.0), 1.0).error().message.find("start") != std::string::npos);
  CHECK(turn_to_point(from, Vec2(inf, 3.0), 1.0).error().message.find("goal") != std::string::npos);
}

TEST_CASE("curves: radii from 1e-3 to 1e5 cells, goals on and a hair off the turning circle") {
  // Near a turning circle the closed forms lose accuracy (a square root of a near-zero
  // difference); every builder must still end exactly at the goal, at any scale.
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> heading(-kPi, kPi), tiny(-1e-9, 1e-9);
  const int n = sanitized() ? 300 : 3000;
  for (const double r : {1e-3, 1.0, 1e3, 1e5}) {
    std::uniform_real_distribution<double> coord(-3.0 * r, 3.0 * r);
    int failures = 0;
    for (int i = 0; i < n; ++i) {
      const Pose a{{coord(rng) + 1e3, coord(rng)}, heading(rng)};
      Pose b{{coord(rng), coord(rng)}, heading(rng)};
      if (i % 2 == 0) {
        const Vec2 c = a.pos + r * Vec2(-std::sin(a.heading), std::cos(a.heading));
        b.pos = c + r * Vec2(std::sin(b.heading), -std::cos(b.heading)) + r * Vec2(tiny(rng), tiny(rng));
      }
      const auto d = dubins_path(a, b, r);
      const auto rs = reeds_shepp_path(a, b, r);
      const auto tp = turn_to_point_path(a, b.pos, r);
      failures += d.ok() && rs.ok() && tp.ok() ? 0 : 1;
      // Dubins counts a goal within 1e-10 r of the circle as on it; Reeds-Shepp is exact there
      // and may need a wiggle of up to 4 sqrt(2e-10) r (6e-5 r) that Dubins skipped.
      const double slack = i % 2 == 0 ? 6e-5 * r : 1e-9 * r;
      if (d.ok() && rs.ok()) CHECK(rs->length() <= d->length() * (1.0 + 1e-9) + slack);
      if (d.ok() && tp.ok()) CHECK(tp->length() <= d->length() * (1.0 + 1e-9) + 1e-9 * r);
    }
    CAPTURE(r);
    CHECK(failures == 0);
  }
}
