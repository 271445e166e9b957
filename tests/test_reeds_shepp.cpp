// Reeds-Shepp paths: lengths against OMPL's ReedsSheppStateSpace on random pose pairs, the
// hard cases (coincident and nearly coincident poses, straight behind, the in-place U-turn
// that needs a three-point turn, goals on the turning circle), symmetry, far poses, and the
// sampled path with its cusps.

#include <doctest/doctest.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <random>
#include <set>
#include <string>

#include <ompl/base/spaces/ReedsSheppStateSpace.h>

#include "curve_support.hpp"
#include "ompl_support.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"

using namespace pathlab;
using namespace pathlab::test;
namespace ob = ompl::base;

namespace {

int cusps(const SegmentPath& path) {
  int n = 0;
  const auto segs = path.segments();
  for (size_t i = 1; i < segs.size(); ++i) n += segs[i].gear != segs[i - 1].gear ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("reeds-shepp: lengths agree with OMPL's ReedsSheppStateSpace on random pose pairs") {
  const int n = sanitized() ? 10000 : 120000;
  const double radii[4] = {0.5, 1.0, 7.25, 300.0};
  std::mt19937_64 rng(424242);
  int mismatches = 0, paths_checked = 0;
  std::set<std::string> words;
  for (const double r : radii) {
    const ob::ReedsSheppStateSpace space(r);
    for (int i = 0; i < n / 4; ++i) {
      // Near pairs exercise the CCCC and CCSCC words; far ones stay within 1e3 r (OMPL
      // asserts beyond).
      const double span = (i % 3 == 0 ? 2.0 : i % 3 == 1 ? 20.0 : 1000.0) * r;
      const Pose a = random_pose(rng, span), b = random_pose(rng, span);
      const double ours = reeds_shepp_length(a, b, r).value();
      const double theirs = ompl_distance(space, a, b);
      const auto sol = reeds_shepp_shortest(a, b, r).value();
      if (!agree(ours, theirs, r) || ours != sol.length) {
        ++mismatches;
        if (mismatches <= 5) {
          INFO("pair " << i << " r=" << r << ": ours " << ours << " / " << sol.length << " (" << sol.word()
                       << "), OMPL " << theirs);
          CHECK(false);
        }
      }
      words.insert(sol.word());
      if (i % 97 == 0) {
        auto path = reeds_shepp_to_path(a, b, r, sol);
        REQUIRE(path.ok());
        CHECK(std::abs(path->length() - ours) <= 1e-9 * std::max(ours, r));
        check_sampled(*path, a, b, r, 0.25 * r);
        ++paths_checked;
      }
    }
  }
  CHECK(mismatches == 0);
  CHECK(paths_checked > 100);
  // Every family shows up as an optimum: the 48 words give this many distinct strings once
  // empty parts are dropped; random pairs hit nearly all of them.
  MESSAGE("distinct optimal words: " << words.size());
  CHECK(words.size() >= 40);
}

TEST_CASE("reeds-shepp: symmetric, never longer than Dubins, at least the distance") {
  // Driving a path backwards in time (swapping the gears) goes from the goal to the start,
  // so the Reeds-Shepp length is symmetric; forward-only paths are one of its options.
  std::mt19937_64 rng(5);
  const int n = sanitized() ? 3000 : 30000;
  for (int i = 0; i < n; ++i) {
    const double r = 1.0 + (i % 5);
    const Pose a = random_pose(rng, (i % 2 == 0 ? 3.0 : 40.0) * r), b = random_pose(rng, 3.0 * r);
    const double ab = reeds_shepp_length(a, b, r).value();
    const double ba = reeds_shepp_length(b, a, r).value();
    CHECK(std::abs(ab - ba) <= 1e-9 * std::max(ab, r));
    CHECK(ab <= dubins_length(a, b, r).value() * (1.0 + 1e-12) + 1e-12);
    CHECK(ab >= glm::length(b.pos - a.pos) * (1.0 - 1e-12));
  }
}

TEST_CASE("reeds-shepp: hard cases") {
  const double r = 2.0;
  const ob::ReedsSheppStateSpace space(r);
  SUBCASE("coincident poses: length 0, no segments, empty word") {
    const Pose p{{1.0, 2.0}, 0.3};
    const auto sol = reeds_shepp_shortest(p, p, r).value();
    CHECK(sol.length == 0.0);
    CHECK(sol.word().empty());
    auto path = reeds_shepp_path(p, p, r);
    REQUIRE(path.ok());
    CHECK(path->segments().empty());
  }
  SUBCASE("straight ahead and straight behind are lines (reversing costs nothing extra)") {
    for (double h = -kPi; h < kPi; h += 0.0173) {
      const Pose a{{0.37, -1.9}, h};
      const Vec2 dir(std::cos(h), std::sin(h));
      for (const double d : {7.0, -7.0, 0.25, -0.25}) {
        const Pose b{a.pos + d * dir, h};
        const auto sol = reeds_shepp_shortest(a, b, r).value();
        CHECK(std::abs(sol.length - std::abs(d)) <= 1e-9);
        CHECK(sol.word() == (d > 0 ? "S+" : "S-"));
        CHECK(agree(sol.length, ompl_distance(space, a, b), r));
      }
    }
  }
  SUBCASE("U-turn on the spot: a three-point turn (Pinter 2001, figure 7)") {
    const Pose a{{0.0, 0.0}, 0.0}, b{{0.0, 0.0}, kPi};
    const auto sol = reeds_shepp_shortest(a, b, r).value();
    CHECK(std::abs(sol.length - kPi * r) <= 1e-12);  // three arcs of 60 degrees
    CHECK(agree(sol.length, ompl_distance(space, a, b), r));
    auto path = reeds_shepp_to_path(a, b, r, sol);
    REQUIRE(path.ok());
    CHECK(cusps(*path) == 2);  // forward, reverse, forward
    CHECK(sol.length < dubins_length(a, b, r).value() / 2.0);
    check_sampled(*path, a, b, r, 0.1);
  }
  SUBCASE("a goal exactly on the turning circle is that arc, driven the short way") {
    for (double h = -kPi; h < kPi; h += 0.0219) {
      for (const double turn : {kPi / 2, 0.9 * kPi, 0.01, -0.5, -kPi / 2}) {
        const Pose a{{0.37, -1.9}, h};
        const Vec2 c = a.pos + r * Vec2(-std::sin(h), std::cos(h));
        const Pose b{c + r * Vec2(std::sin(h + turn), -std::cos(h + turn)), h + turn};
        const double len = reeds_shepp_length(a, b, r).value();
        CHECK(std::abs(len - r * std::abs(turn)) <= 1e-9);
        CHECK(agree(len, ompl_distance(space, a, b), r));
        auto path = reeds_shepp_path(a, b, r);
        REQUIRE(path.ok());
        check_sampled(*path, a, b, r, 0.3);
      }
    }
  }
  SUBCASE("nearly coincident poses give short paths that still end at the goal") {
    // Unlike Dubins, Reeds-Shepp lengths are continuous: a goal a hair away in any direction
    // or heading is reached by a short manoeuvre, never by a loop.
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (const double eps : {1e-12, 1e-9, 1e-6, 1e-3}) {
      for (int i = 0; i < 200; ++i) {
        const Pose a = random_pose(rng, 10.0);
        const Pose b{a.pos + eps * r * Vec2(unit(rng), unit(rng)), a.heading + eps * unit(rng)};
        const double len = reeds_shepp_length(a, b, r).value();
        // Sideways motion costs about 4 sqrt(2 eps) r (a parallel-parking wiggle); 10 sqrt(eps) r bounds it.
        CHECK(len <= 10.0 * std::sqrt(eps) * r);
        {
          const double theirs = ompl_distance(space, a, b);
          INFO(std::setprecision(17) << "eps " << eps << " ours " << len << " OMPL " << theirs << " word " << reeds_shepp_shortest(a, b, r).value().word()
                      << " a " << a.pos.x << "," << a.pos.y << "," << a.heading << " b " << b.pos.x << "," << b.pos.y << "," << b.heading);
          CHECK(agree(len, theirs, r));
        }
        auto path = reeds_shepp_path(a, b, r);
        REQUIRE(path.ok());
        CHECK(std::abs(path->length() - len) <= 1e-9 * r);
      }
    }
  }
}

TEST_CASE("reeds-shepp: far poses (beyond where OMPL's assertions abort)") {
  std::mt19937_64 rng(99);
  for (const double span : {1e4, 1e5, 1e6, 1e7}) {
    for (int i = 0; i < 200; ++i) {
      const double r = 1.5;
      const Pose a = random_pose(rng, span * r), b = random_pose(rng, span * r);
      const double d = glm::length(b.pos - a.pos);
      const double len = reeds_shepp_length(a, b, r).value();
      CHECK(len >= d * (1.0 - 1e-12));
      CHECK(len <= d + (2.0 + 2.0 * kPi) * r);  // turn towards the goal, drive, turn to its heading
      CHECK(len <= dubins_length(a, b, r).value() * (1.0 + 1e-12));
      CHECK(reeds_shepp_path(a, b, r).ok());  // ends at the goal within tolerance
    }
  }
}

TEST_CASE("reeds-shepp: bad input is an error naming the argument, never NaN") {
  const Pose a{{0, 0}, 0}, b{{5, 5}, 1};
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const double r : {0.0, -1.0, nan, inf, -inf}) {
    auto res = reeds_shepp_length(a, b, r);
    REQUIRE_FALSE(res.ok());
    CHECK(res.error().message.find("radius") != std::string::npos);
    CHECK_FALSE(reeds_shepp_path(a, b, r).ok());
    CHECK_FALSE(reeds_shepp_shortest(a, b, r).ok());
  }
  auto bad_start = reeds_shepp_length(Pose{{nan, 0}, 0}, b, 1.0);
  REQUIRE_FALSE(bad_start.ok());
  CHECK(bad_start.error().message.find("start") != std::string::npos);
  auto bad_goal = reeds_shepp_length(a, Pose{{0, 0}, inf}, 1.0);
  REQUIRE_FALSE(bad_goal.ok());
  CHECK(bad_goal.error().message.find("goal") != std::string::npos);
}
