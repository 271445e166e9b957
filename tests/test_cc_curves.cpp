// Continuous-curvature curves (Fraichard & Scheuer 2004): the clothoid segment kind, then
// CC-Dubins and CC-Reeds-Shepp on random pose pairs: curvature bounded by 1/r, its change
// between samples by sharpness x ds, exact ends, lengths against Dubins / Reeds-Shepp, and a
// tracked unit's curvature changing at a bounded rate where plain Dubins jumps.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "curve_support.hpp"
#include "pathlab/cc_curves.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/follow_path.hpp"
#include "pathlab/follower.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/simulation.hpp"
#include "pathlab/swept_check.hpp"
#include "pathlab/unit.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

/// The integral of (cos, sin)(k0 u + dk u^2 / 2) over [0, s] by the composite Simpson rule
/// with n (even) panels: an independent reference for the clothoid segment.
Vec2 simpson_clothoid(double k0, double dk, double s, int n) {
  const double h = s / n;
  Vec2 sum(0.0, 0.0);
  for (int i = 0; i <= n; ++i) {
    const double u = i * h;
    const double w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    const double th = u * (k0 + 0.5 * dk * u);
    sum += w * Vec2(std::cos(th), std::sin(th));
  }
  return sum * (h / 3.0);
}

/// The curve checks of the issue: curvature <= 1/r (+1e-9), its change between consecutive
/// samples <= sharpness x ds (+1e-6), headings continuous, exact ends.
void check_cc_samples(const SegmentPath& path, const Pose& from, const Pose& to, double radius, double sharpness,
                      double step) {
  auto samples = path.sample(step);
  REQUIRE(samples.ok());
  const auto& s = *samples;
  CHECK(s.front().state.pos.x == from.pos.x);
  CHECK(s.front().state.pos.y == from.pos.y);
  CHECK(s.back().state.pos.x == to.pos.x);
  CHECK(s.back().state.pos.y == to.pos.y);
  CHECK(s.back().state.heading == to.heading);
  CHECK(s.front().state.curvature == 0.0);
  CHECK(std::abs(s.back().state.curvature) <= 1e-9);
  double worst_k = 0.0, worst_dk = 0.0;
  for (size_t i = 0; i < s.size(); ++i) {
    worst_k = std::max(worst_k, std::abs(s[i].state.curvature) - 1.0 / radius);
    if (i == 0) continue;
    const double ds = s[i].s - s[i - 1].s;
    worst_dk = std::max(worst_dk, std::abs(s[i].state.curvature - s[i - 1].state.curvature) - sharpness * ds);
    // Consecutive samples: the position moves by at most ds, the heading by at most ds / r.
    CHECK(glm::length(s[i].state.pos - s[i - 1].state.pos) <= ds + 1e-9);
    CHECK(std::abs(wrap_angle(s[i].state.heading - s[i - 1].state.heading)) <= ds / radius + 1e-9);
  }
  CHECK(worst_k <= 1e-9);
  CHECK(worst_dk <= 1e-6);
}

}  // namespace

TEST_CASE("clothoid segment: points against Fresnel values and Simpson, both gears") {
  // Fresnel integrals C(1), S(1) (Abramowitz & Stegun table 7.7): sharpness pi, length 1.
  const Segment f = make_clothoid(Pose{{0, 0}, 0}, 0.0, kPi, 1.0);
  const PathState end = segment_state(f, 1.0);
  CHECK(std::abs(end.pos.x - 0.7798934003768228) <= 1e-13);
  CHECK(std::abs(end.pos.y - 0.4382591473903548) <= 1e-13);
  CHECK(std::abs(end.heading - kPi / 2) <= 1e-15);
  CHECK(std::abs(end.curvature - kPi) <= 1e-15);
  // A long one that turns many times, against Simpson with fine panels.
  const Pose at{{3.0, -2.0}, 0.7};
  for (const Gear gear : {Gear::forward, Gear::reverse}) {
    const Segment c = make_clothoid(at, 0.3, -0.8, 9.0, gear);
    for (const double s : {0.0, 0.5, 4.0, 9.0}) {
      const Vec2 ref = simpson_clothoid(0.3, -0.8, s, 200000);
      const double g = gear == Gear::reverse ? -1.0 : 1.0;
      const Vec2 local(g * ref.x, ref.y);  // reverse mirrors, then drives backwards
      const Vec2 want = at.pos + Vec2(std::cos(at.heading) * local.x - std::sin(at.heading) * local.y,
                                      std::sin(at.heading) * local.x + std::cos(at.heading) * local.y);
      const PathState st = segment_state(c, s);
      CHECK(glm::length(st.pos - want) <= 1e-10);
      CHECK(std::abs(st.curvature - (0.3 - 0.8 * s)) <= 1e-15);
      // Position derivative along the travel direction of the heading (finite differences).
      if (s > 0.0 && s < 9.0) {
        const double h = 1e-5;
        const Vec2 d = segment_state(c, s + h).pos - segment_state(c, s - h).pos;
        const double travel = st.heading + (gear == Gear::reverse ? kPi : 0.0);
        CHECK(std::abs(wrap_angle(std::atan2(d.y, d.x) - travel)) <= 1e-8);
        const double dh = segment_state(c, s + h).heading - segment_state(c, s - h).heading;
        CHECK(std::abs(dh / (2 * h) * g - st.curvature) <= 1e-7);  // steering curvature sign convention
      }
    }
  }
  // Arc-like bounds: the tightest radius and twice the length in radii.
  const Segment b = make_clothoid(at, 0.0, 0.25, 2.0);
  CHECK(std::abs(b.radius - 2.0) <= 1e-15);
  CHECK(std::abs(b.sweep - 2.0) <= 1e-15);
  // Refused: a clothoid that is a line, non-finite fields, an absurd turn.
  SegmentPath p(at);
  CHECK_FALSE(p.append(make_clothoid(at, 0.0, 0.0, 1.0)).ok());
  CHECK_FALSE(p.append(make_clothoid(at, 0.0, std::nan(""), 1.0)).ok());
  CHECK_FALSE(p.append(make_clothoid(at, 0.0, 1e6, 1e3)).ok());
  CHECK(p.append(make_clothoid(at, 0.0, 1.0, 1.0)).ok());
}

TEST_CASE("cc-dubins: curvature, its rate, exact ends, never shorter than Dubins") {
  std::mt19937_64 rng(7001);
  const int n = sanitized() ? 60 : 600;
  for (int i = 0; i < n; ++i) {
    const double radius = std::uniform_real_distribution<double>(0.5, 4.0)(rng);
    const double sharp = min_cc_sharpness(radius) * std::exp(std::uniform_real_distribution<double>(0.0, 6.0)(rng));
    const Pose a = random_pose(rng, 10.0), b = random_pose(rng, 10.0);
    CAPTURE(i);
    auto cc = cc_dubins(a, b, radius, sharp);
    REQUIRE(cc.ok());
    const double dub = dubins_length(a, b, radius).value();
    CHECK(cc->length >= dub - 1e-9);
    CHECK(cc->length == doctest::Approx(cc_dubins_length(a, b, radius, sharp).value()).epsilon(1e-12));
    for (const Segment& s : cc->path.segments()) CHECK(s.gear == Gear::forward);
    check_cc_samples(cc->path, a, b, radius, sharp, 0.05);
  }
}

TEST_CASE("cc-dubins: tends to the Dubins length as the sharpness grows") {
  std::mt19937_64 rng(7002);
  for (int i = 0; i < 300; ++i) {
    const Pose a = random_pose(rng, 10.0), b = random_pose(rng, 10.0);
    const double dub = dubins_length(a, b, 2.0).value();
    double prev = std::numeric_limits<double>::infinity();
    for (const double sharp : {1.0, 100.0, 1e6}) {
      const double len = cc_dubins_length(a, b, 2.0, sharp).value();
      CHECK(len >= dub - 1e-9);
      if (sharp == 1e6) CHECK(len - dub <= 1e-4);
      prev = len;
    }
    CHECK(std::isfinite(prev));
  }
}

TEST_CASE("cc-reeds-shepp: curvature, its rate, cusps, never shorter than Reeds-Shepp") {
  std::mt19937_64 rng(7003);
  const int n = sanitized() ? 60 : 600;
  int reversing = 0;
  for (int i = 0; i < n; ++i) {
    const double radius = std::uniform_real_distribution<double>(0.5, 4.0)(rng);
    const double sharp = min_cc_sharpness(radius) * std::exp(std::uniform_real_distribution<double>(0.0, 6.0)(rng));
    const Pose a = random_pose(rng, 6.0), b = random_pose(rng, 6.0);
    CAPTURE(i);
    auto cc = cc_reeds_shepp(a, b, radius, sharp);
    REQUIRE(cc.ok());
    CHECK(cc->length >= reeds_shepp_length(a, b, radius).value() - 1e-9);
    CHECK(cc->length <= cc_dubins_length(a, b, radius, sharp).value() + 1e-9);
    bool rev = false;
    for (const Segment& s : cc->path.segments()) rev |= s.gear == Gear::reverse;
    reversing += rev;
    check_cc_samples(cc->path, a, b, radius, sharp, 0.05);
  }
  CHECK(reversing > n / 10);
  // Large sharpness: within 3% of Reeds-Shepp (the four- and five-turn words are missing).
  const Pose a{{0, 0}, 0}, b{{0.5, 1.0}, kPi};
  CHECK(cc_reeds_shepp_length(a, b, 1.0, 1e6).value() >= reeds_shepp_length(a, b, 1.0).value() - 1e-9);
}

TEST_CASE("cc curves: straight, coincident and single-turn queries") {
  const Pose a{{1, 1}, 0.3};
  const Pose ahead{a.pos + 5.0 * Vec2(std::cos(0.3), std::sin(0.3)), 0.3};
  auto s = cc_dubins(a, ahead, 2.0, 0.5);
  REQUIRE(s.ok());
  CHECK(s->word == "S+");
  CHECK(std::abs(s->length - 5.0) <= 1e-12);
  auto behind = cc_reeds_shepp(ahead, a, 2.0, 0.5);
  REQUIRE(behind.ok());
  CHECK(behind->word == "S-");
  auto same = cc_dubins(a, a, 2.0, 0.5);
  REQUIRE(same.ok());
  CHECK(same->length == 0.0);
  CHECK(same->word.empty());
  // The end of one CC turn (a quarter turn left) is reached by that turn alone.
  SegmentPath turn(a);
  REQUIRE(turn.append(make_clothoid(a, 0.0, 0.5, 1.0)).ok());
  REQUIRE(turn.append(arc_from_pose(turn.end(), 2.0, 1, 2.0 * (kPi / 2 - 0.5))).ok());
  REQUIRE(turn.append(make_clothoid(turn.end(), 0.5, -0.5, 1.0)).ok());
  auto one = cc_dubins(a, turn.end(), 2.0, 0.5);
  REQUIRE(one.ok());
  CHECK(one->word == "L+");
  CHECK(std::abs(one->length - turn.length()) <= 1e-9);
}

TEST_CASE("cc curves: bad sharpness and poses get clear errors") {
  const Pose a{{0, 0}, 0}, b{{5, 3}, 1.0};
  for (const double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity(), 1e10}) {
    auto r = cc_dubins(a, b, 2.0, bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.rfind("sharpness", 0) == 0);
  }
  auto low = cc_reeds_shepp(a, b, 2.0, 0.5 * min_cc_sharpness(2.0));
  REQUIRE_FALSE(low.ok());
  CHECK(low.error().message.find("1 / (pi radius^2)") != std::string::npos);
  auto rad = cc_dubins(a, b, -1.0, 1.0);
  REQUIRE_FALSE(rad.ok());
  CHECK(rad.error().message.rfind("turning radius", 0) == 0);
  auto pose = cc_dubins(Pose{{std::nan(""), 0}, 0}, b, 2.0, 1.0);
  REQUIRE_FALSE(pose.ok());
  CHECK(pose.error().message.rfind("start", 0) == 0);
}

namespace {

/// Largest |d curvature / ds| along a simulated trace: the curvature of each step is its
/// heading change over the distance moved (the mean curvature over the step), compared
/// between consecutive moving steps over the distance between their middles.
double trace_curvature_rate(const SingleRun& run) {
  double worst = 0.0, prev_k = 0.0, prev_ds = 0.0;
  bool have_prev = false;
  for (size_t k = 1; k < run.samples.size(); ++k) {
    const auto& a = run.samples[k - 1];
    const auto& b = run.samples[k];
    const double ds = glm::length(b.pose.pos - a.pose.pos);
    if (ds < 1e-6) {
      have_prev = false;
      continue;
    }
    const double kap = wrap_angle(b.pose.heading - a.pose.heading) / ds;
    if (have_prev) worst = std::max(worst, std::abs(kap - prev_k) / (0.5 * (ds + prev_ds)));
    prev_k = kap;
    prev_ds = ds;
    have_prev = true;
  }
  return worst;
}

SingleRun follow(const SegmentPath& path, FollowerKind kind) {
  UnitDef def = car_unit_def();
  def.follower.kind = kind;
  const Grid grid = Grid::create(60, 60).value();
  auto fp = FollowPath::from_segment_path(path);
  REQUIRE(fp.ok());
  auto run = simulate_unit(grid, def, *fp, std::nullopt, default_simulation_def(), 60.0);
  REQUIRE(run.ok());
  CHECK(run->metrics.arrived);
  return *run;
}

}  // namespace

TEST_CASE("track rides a CC path with a bounded curvature rate; on Dubins it jumps at arc joins") {
  const double sharp = 0.2;  // the car (radius 2) reaches full lock over 2.5 cells
  const Pose a{{10, 10}, 0.0};
  for (const Pose& b : {Pose{{30, 22}, kPi / 2}, Pose{{14, 30}, kPi}, Pose{{40, 9}, -0.4}}) {
    auto cc = cc_dubins(a, b, 2.0, sharp);
    REQUIRE(cc.ok());
    auto dub = dubins_path(a, b, 2.0);
    REQUIRE(dub.ok());
    const double cc_rate = trace_curvature_rate(follow(cc->path, FollowerKind::track));
    const double dub_rate = trace_curvature_rate(follow(*dub, FollowerKind::track));
    CAPTURE(cc->word);
    // Averages over neighbouring steps of a curvature with slope <= sharp differ by <= sharp ds.
    CHECK(cc_rate <= sharp * (1.0 + 1e-3));  // chords are shorter than arcs by ~(k ds)^2 / 24
    // Dubins: curvature 0 -> 1/2 within one step of 8/60 cells.
    CHECK(dub_rate > 10.0 * sharp);
  }
}

TEST_CASE("steer rides CC paths to the goal within its lateral acceleration") {
  // Steer's pure pursuit sets its own curvature (turn-rate limited), so its trace is not as
  // smooth as the path; it must still arrive and keep v^2 k within the car's limit.
  const Pose a{{10, 10}, 0.0};
  const UnitDef def = car_unit_def();
  for (const Pose& b : {Pose{{30, 22}, kPi / 2}, Pose{{14, 30}, kPi}}) {
    auto cc = cc_dubins(a, b, 2.0, 0.2);
    REQUIRE(cc.ok());
    const SingleRun run = follow(cc->path, FollowerKind::steer);
    double lat = 0.0;
    for (size_t k = 1; k < run.samples.size(); ++k) {
      const auto& p = run.samples[k - 1];
      const auto& q = run.samples[k];
      const double ds = glm::length(q.pose.pos - p.pose.pos);
      if (ds > 1e-6) lat = std::max(lat, std::abs(wrap_angle(q.pose.heading - p.pose.heading)) / ds * q.speed * q.speed);
    }
    CHECK(lat <= def.max_lateral_accel * 1.02);  // chords vs arcs, one step of speed change
    CHECK(run.metrics.max_deviation < 0.5);
  }
}

TEST_CASE("hybrid A* finishes with a CC curve when cc_sharpness is set") {
  const Grid grid = Grid::create(40, 40).value();
  for (const bool reverse : {false, true}) {
    HybridAStarOptions o = default_hybrid_astar_options();
    o.turning_radius = 2.0;
    o.allow_reverse = reverse;
    o.cc_sharpness = 0.3;
    auto planner = HybridAStar::create(grid, o);
    REQUIRE(planner.ok());
    const Pose a{{5.5, 5.5}, 0.0}, b{{30.5, 20.5}, kPi / 2};
    auto out = planner->plan(a, b);
    REQUIRE(out.ok());
    REQUIRE(out->found);
    int clothoids = 0;
    for (const Segment& s : out->path.segments()) clothoids += s.kind == SegmentKind::clothoid;
    CHECK(clothoids >= 2);
    // The finishing curve ends at the goal with curvature 0, reached at a bounded rate.
    CHECK(std::abs(out->path.at_distance(out->path.length()).value().curvature) <= 1e-9);
    const Pose end = out->path.end();
    CHECK(end.pos.x == b.pos.x);
    CHECK(end.heading == b.heading);
  }
  HybridAStarOptions bad = default_hybrid_astar_options();
  bad.turning_radius = 2.0;
  bad.cc_sharpness = -1.0;
  auto refused = HybridAStar::create(grid, bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.rfind("cc_sharpness", 0) == 0);
}

TEST_CASE("cc curves: small turns use gentler elementary clothoids; far and tiny-radius queries") {
  // A lane change: both turns deflect less than kappa^2 / sigma, so each is two clothoids of a
  // lower sharpness that never reach full lock.
  const double radius = 2.0, sharp = 0.25;
  const Pose a{{0, 0}, 0}, b{{20, 1}, 0};
  auto lane = cc_dubins(a, b, radius, sharp);
  REQUIRE(lane.ok());
  int clothoids = 0;
  for (const Segment& s : lane->path.segments()) {
    CHECK(s.kind != SegmentKind::arc);
    if (s.kind != SegmentKind::clothoid) continue;
    ++clothoids;
    CHECK(std::abs(s.sharpness) < sharp);
    CHECK(std::abs(s.curvature + s.sharpness * s.length) < 1.0 / radius);
  }
  CHECK(clothoids == 4);
  check_cc_samples(lane->path, a, b, radius, sharp, 0.05);
  // Far apart and a tiny radius: still exact at the ends.
  const Pose far{{1e6, -3e5}, 2.0};
  auto f = cc_reeds_shepp(a, far, 1.5, 1.0);
  REQUIRE(f.ok());
  CHECK(f->path.end().pos == far.pos);
  CHECK(f->length >= glm::length(far.pos));
  auto tiny = cc_dubins(a, Pose{{3, 2}, 1.0}, 1e-3, 1e6);
  REQUIRE(tiny.ok());
  CHECK(tiny->length >= dubins_length(a, Pose{{3, 2}, 1.0}, 1e-3).value() - 1e-12);
}

TEST_CASE("swept check on clothoids: every sample's disc is clear when the check says clear") {
  // Random CC paths on a map with random walls: when the check says clear, no sample of the
  // path (every 0.02 cells) has the disc touching a wall (the clothoid chord bound is safe).
  std::mt19937_64 rng(7004);
  Grid grid = Grid::create(30, 30).value();
  std::uniform_int_distribution<int> cell(0, 29);
  for (int i = 0; i < 60; ++i) grid.set_cost(cell(rng), cell(rng), kBlocked);
  SweptCheckDef def = default_swept_check_def();
  def.agent_radius = 0.3;
  int clear = 0, blocked = 0;
  auto pose = [&] {
    Pose p = random_pose(rng, 8.0);
    p.pos += Vec2(15.0, 15.0);
    return p;
  };
  for (int i = 0; i < 200; ++i) {
    const Pose a = pose(), b = pose();
    auto cc = cc_reeds_shepp(a, b, 1.5, 0.5);
    REQUIRE(cc.ok());
    auto res = check_swept_path(grid, cc->path, def);
    REQUIRE(res.ok());
    if (!res->clear) {
      ++blocked;
      continue;
    }
    ++clear;
    auto samples = cc->path.sample(0.02);
    REQUIRE(samples.ok());
    for (const PathSample& s : *samples) CHECK(point_clear(grid, s.state.pos, def.agent_radius));
  }
  CHECK(clear > 10);
  CHECK(blocked > 10);
}
