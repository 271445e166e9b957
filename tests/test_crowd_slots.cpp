// Arrival near a shared goal: slots are claimed nearest first and farther slots are used only
// when the nearer ones are full, so the slots are as near as hexagonal packing allows (for
// persons by a wall too, within bench_crowd_scale's packed radius); a unit parked far from the
// goal says so; "arrived" means at the spot, facing the goal heading, stopped (the single-unit
// simulation's rule); and 100 mixed units sent to one goal all settle, none locked in place for
// more than 10 s (issue 24); a slot left free nearer the goal is taken by a unit from outside
// (issue 27); no slot is handed out on another unit's own goal (issue 24).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "crowd_support.hpp"
#include "pathlab/follower.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

/// The fewest hexagonal rings (0 = the centre) that hold n slots: 1 + 3K(K+1) >= n.
int rings_for(int n) {
  int k = 0;
  while (1 + 3 * k * (k + 1) < n) ++k;
  return k;
}

/// A 60x60 map with 14 blocks of wall (none within 6 cells of the centre) and 100 mixed units
/// (55 persons, 15 cars, 15 tanks, 15 bears) starting outside the middle 24x24 cells, all sent to
/// the centre. Deterministic: a fixed generator, the same scene for the same seed.
CrowdScenario dense_shared_goal(uint64_t seed) {
  uint64_t state = seed * 7919u + 17u;
  auto next = [&state](int lo, int hi) {  // uniform integer in [lo, hi]
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + static_cast<int>((state >> 33) % static_cast<uint64_t>(hi - lo + 1));
  };
  Grid g = Grid::create(60, 60).value();
  for (int k = 0; k < 14; ++k) {
    const int x0 = next(3, 52), y0 = next(3, 52), w = next(2, 5), h = next(2, 5);
    for (int y = y0; y < y0 + h; ++y)
      for (int x = x0; x < x0 + w; ++x)
        if (std::abs(x - 30) > 6 || std::abs(y - 30) > 6) g.set_blocked(x, y, true);
  }
  CrowdScenario sc{"100 units, one goal", g, {}, {}, {}, 200.0};
  static const char* const kMix[20] = {"person", "car",  "person", "tank",   "person", "bear",   "person",
                                       "person", "car",  "person", "tank",   "person", "bear",   "person",
                                       "person", "car",  "person", "tank",   "bear",   "person"};
  while (sc.agents.size() < 100) {
    const double x = 0.01 * next(150, 5850);  // (two statements: argument order is unspecified)
    const double y = 0.01 * next(150, 5850);
    const Vec2 p(x, y);
    if (std::abs(p.x - 30.0) < 12.0 && std::abs(p.y - 30.0) < 12.0) continue;
    bool free = point_clear(g, p, 1.0);
    for (const auto& a : sc.agents) free = free && glm::length(a.start.pos - p) > 1.2;
    if (free) sc.agents.push_back(crowd_agent(kMix[sc.agents.size() % 20], p.x, p.y, next(0, 359), 30.5, 30.5));
  }
  return sc;
}

}  // namespace

TEST_CASE("crowd slots: 40 units sharing a goal park as near as packing allows, and far ones say so") {
  constexpr int kUnits = 40;
  const Vec2 goal(30.5, 30.5);
  Crowd c = Crowd::create(Grid::create(60, 60).value()).value();
  for (int i = 0; i < kUnits; ++i) {
    (void)c.add_agent(crowd_agent(i % 5 == 3 ? "tank" : "person", 3.0 + 2.0 * (i % 10), 5.0 + 2.0 * (i / 10), 0, goal.x, goal.y)).value();
  }
  while (!c.all_arrived() && c.time() < 150.0) c.step();
  REQUIRE(c.all_arrived());
  // Ring spacing: the largest body's diameter + 0.25 (tank radius 0.45: 1.15 cells). With open
  // ground round the goal, 40 slots need rings 0..4, so no slot is farther than 4 spacings.
  const double spacing = 2.0 * 0.45 + 0.25;
  const double bound = rings_for(kUnits) * spacing + 1e-9;
  CHECK(rings_for(kUnits) == 4);
  double worst = 0.0;
  int far = 0;
  for (int i = 0; i < kUnits; ++i) {
    CAPTURE(i);
    const CrowdAgentState& s = c.state(i);
    const double d = glm::length(s.target - goal);
    worst = std::max(worst, d);
    CHECK(d <= bound);
    CHECK(glm::length(s.pose.pos - s.target) <= 0.5 * c.agent_def(i).unit.radius);  // arrived is at the slot
    const bool should = d > 3.0 * c.agent_def(i).unit.radius + spacing;
    CHECK(s.parked_far == should);
    if (should) {
      ++far;
      CHECK(s.note.find("parked ") == 0);
      CHECK(s.note.find("cells from the goal: nearer slots are taken") != std::string::npos);
    } else {
      CHECK(s.note.empty());
    }
  }
  CHECK(worst < 10.0);
  CHECK(far > 0);  // 40 units do not fit within 3 radii + one ring: some are told why
  MESSAGE("40 units: farthest slot " << worst << " cells (bound " << bound << "), " << far << " parked far");
}

TEST_CASE("crowd slots: a slot left free nearer the goal is taken by the unit beside it, from farther out") {
  // Issue 27: on bench_crowd_scale every person outside the judge's radius stood on a slot
  // beyond those that hold its group while slots inside stayed free. 8 persons to one goal:
  // persons settle on a hexagonal lattice, 7 slots within one spacing (the goal and its 6
  // neighbours), so one settles farther out; then a unit one spacing out beside it is sent
  // away, and it steps into the free slot (move_in, crowd_slots.cpp).
  constexpr int kUnits = 8;
  const Vec2 goal(30.5, 30.5);
  const double spacing = 2.0 * 0.3 + 0.25;  // persons: radius 0.3
  Crowd c = Crowd::create(Grid::create(60, 60).value()).value();
  for (int i = 0; i < kUnits; ++i) (void)c.add_agent(crowd_agent("person", 10.0 + 2.0 * i, 10.0, 0, goal.x, goal.y)).value();
  while (!c.all_arrived() && c.time() < 60.0) c.step();
  REQUIRE(c.all_arrived());
  const double settled = c.time();
  while (c.time() < settled + 10.0) c.step();  // a slot left free inside while they came in is taken now
  int outer = -1;
  for (int i = 0; i < kUnits; ++i) {
    if (glm::length(c.state(i).target - goal) > spacing + 0.1) outer = i;
  }
  REQUIRE(outer >= 0);
  auto beyond_one_spacing = [&](int leaver) {
    int n = 0;
    for (int i = 0; i < kUnits; ++i) n += i != leaver && glm::length(c.state(i).target - goal) > spacing + 1e-9;
    return n;
  };
  // Each unit farther out stands beside a free slot within one spacing, or none is free (8
  // persons, 7 slots): a free slot with no unit farther out beside it stays free (here one came
  // in from the side away from the others), none walks round the rim to it.
  const int before = beyond_one_spacing(-1);
  CHECK(before >= 1);
  // On the lattice's next shells: sqrt(3) or 2 spacings out.
  const double out = glm::length(c.state(outer).target - goal) / spacing;
  CHECK((out == doctest::Approx(std::sqrt(3.0)).epsilon(1e-9) || out == doctest::Approx(2.0).epsilon(1e-9)));
  // Its nearest neighbour one spacing out leaves (one spacing away: lattice neighbours).
  int leaver = -1;
  double nearest = 1e9;
  for (int i = 0; i < kUnits; ++i) {
    const double d = glm::length(c.state(i).target - c.state(outer).target);
    const double ring = glm::length(c.state(i).target - goal) / spacing;
    if (ring > 0.5 && ring < 1.5 && d < nearest) nearest = d, leaver = i;
  }
  REQUIRE(leaver >= 0);
  CHECK(nearest == doctest::Approx(spacing).epsilon(1e-9));
  const Vec2 freed = c.state(leaver).target;
  REQUIRE(c.set_goal(leaver, Vec2(5.5, 55.5)));
  while (c.time() < settled + 40.0) c.step();
  const CrowdAgentState& s = c.state(outer);
  MESSAGE("the unit from " << out << " spacings out now " << glm::length(s.target - goal) << " cells from the goal");
  CHECK(glm::length(s.target - freed) < 1e-9);  // it took the freed slot
  CHECK(s.arrived);
  CHECK(beyond_one_spacing(leaver) == before - 1);
  for (int i = 0; i < kUnits; ++i) {
    CAPTURE(i);
    if (i != leaver) CHECK(c.state(i).arrived);
  }
  CHECK(c.run_metrics().min_separation_ratio >= 1.0 - 1e-9);
}

/// bench_crowd_scale's judge (Judge::packed_radius): the radius of a packing of k persons round
/// `goal`, K ring spacings for the 1 + 3K(K+1) >= k slots of K hexagonal rings, widened where
/// walls cut into that disc until the ground a centre can stand on (4 x 4 points a free cell,
/// clear of walls by `radius`) holds the disc's area, + 0.25. Every free cell of `g` is taken
/// as reachable (true of the map it is used on). [Units: cells]
double packed_radius(const Grid& g, Vec2 goal, int k, double radius) {
  const double open = rings_for(k) * (2.0 * radius + 0.25);
  const double area = kPi * open * open;
  constexpr int kSub = 4;
  std::vector<double> dist;
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      for (int i = 0; g.is_free(x, y) && i < kSub * kSub; ++i) {
        const Vec2 p(x + (i % kSub + 0.5) / kSub, y + (i / kSub + 0.5) / kSub);
        if (point_clear(g, p, radius)) dist.push_back(glm::length(p - goal));
      }
  std::sort(dist.begin(), dist.end());
  const size_t need = static_cast<size_t>(std::ceil(area * kSub * kSub));
  return std::max(open, dist.at(need - 1)) + 0.25;
}

TEST_CASE("crowd slots: 80 persons by a wall get slots within the judge's packed radius, and settle there") {
  // Issue 27: round goals among walls the hexagonal rings dropped the slots not clear of walls
  // and reached out beyond the radius a packing of the ground needs (Berlin_0_512's groups 2
  // and 7). Here a wall 2 cells from the goal (x < 25): the rings' 80th slot lay 5.10 cells out,
  // the judge's radius is 5.02; the lattice's 86 slots (80 + 6 spare) lie within 4.50.
  constexpr int kUnits = 80;
  Grid g = Grid::create(60, 60).value();
  for (int y = 0; y < 60; ++y)
    for (int x = 0; x < 25; ++x) g.set_blocked(x, y, true);
  const Vec2 goal(27.5, 30.5);
  const double judge = packed_radius(g, goal, kUnits, 0.3);
  CHECK(judge == doctest::Approx(5.023).epsilon(1e-3));
  Crowd c = Crowd::create(g).value();
  for (int i = 0; i < kUnits; ++i) {  // 8 x 10 persons 2 cells apart, 12-30 cells right of the goal
    (void)c.add_agent(crowd_agent("person", 40.0 + 2.0 * (i % 8), 21.5 + 2.0 * (i / 8), 180, goal.x, goal.y)).value();
  }
  while (c.time() < 30.0) c.step();  // all have come near enough to claim their slots
  double farthest = 0.0;
  for (int i = 0; i < kUnits; ++i) farthest = std::max(farthest, glm::length(c.state(i).target - goal));
  MESSAGE("80 persons by a wall: farthest slot " << farthest << " cells, judge's radius " << judge);
  CHECK(farthest <= judge);
  while (!c.all_arrived() && c.time() < 120.0) c.step();
  CHECK(c.all_arrived());  // (rings: at 63.4 s, 17 of them beyond the judge's radius)
  int within = 0;
  for (int i = 0; i < kUnits; ++i) within += glm::length(c.state(i).pose.pos - goal) <= judge;
  CHECK(within == kUnits);  // (rings: 63)
  CHECK(c.run_metrics().min_separation_ratio >= 1.0 - 1e-9);
  MESSAGE("80 persons by a wall: all settled at " << c.time() << " s, " << within << " within the judge's radius");
}

TEST_CASE("crowd slots: no slot is handed out on another unit's own goal; both settle") {
  // In a doorway scene (28 persons, 21 sent to one goal, 7 to goals of their own 2 cells
  // apart) the shared goal's slot rings reached a person's own goal: a slot 0.29 cells from it
  // was handed out, and the two pushed each other off for over a minute (5 of 27 not arrived
  // at 200 s; bench_doorway, the run without unit 27). Here 12 persons share a goal and one
  // person has its own 1.2 cells from it, reached after theirs: the 12 need two rings of slots
  // (0.85 cells apart), which reach past the lone goal.
  constexpr int kGroup = 12;
  const Vec2 shared(20.5, 10.5), own(21.7, 10.5);
  const double clear = 0.3 + 0.3;  // two persons' radii
  Crowd c = Crowd::create(Grid::create(40, 20).value()).value();
  for (int i = 0; i < kGroup; ++i) (void)c.add_agent(crowd_agent("person", 4.0 + (i % 4), 6.0 + 2.0 * (i / 4), 0, shared.x, shared.y)).value();
  const int lone = c.add_agent(crowd_agent("person", 1.0, 10.5, 0, own.x, own.y)).value();
  bool slot_on_own = false;
  while (!c.all_arrived() && c.time() < 60.0) {
    c.step();
    for (int i = 0; i < kGroup; ++i) slot_on_own = slot_on_own || glm::length(c.state(i).target - own) < clear;
  }
  CHECK_FALSE(slot_on_own);
  CHECK(c.all_arrived());
  CHECK(c.state(lone).arrived);
  CHECK(glm::length(c.state(lone).pose.pos - own) < 0.25);
  MESSAGE("all arrived at " << c.time() << " s");
}

TEST_CASE("crowd arrival: arrived means at the spot, facing the goal heading and stopped; time_to_goal follows it") {
  Crowd c = Crowd::create(Grid::create(20, 10).value()).value();
  CrowdAgentDef tank = crowd_agent("tank", 2.5, 5.0, 0, 12.5, 5.0);
  tank.goal_heading = deg_to_rad(90.0);  // it must turn on the spot after reaching the goal
  (void)c.add_agent(tank).value();
  bool reached_before_arrived = false;
  while (!c.state(0).arrived && c.time() < 30.0) {
    c.step();
    const CrowdAgentState& s = c.state(0);
    if (s.reached && !s.arrived) reached_before_arrived = true;
    CHECK(c.metrics(0).time_to_goal.has_value() == s.arrived);
  }
  const CrowdAgentState& s = c.state(0);
  REQUIRE(s.arrived);
  CHECK(reached_before_arrived);  // the turn to 90 degrees came after reaching the spot
  CHECK(std::abs(std::remainder(s.pose.heading - deg_to_rad(90.0), 2.0 * kPi)) <= kGoalHeadingTolerance);
  CHECK(std::abs(s.speed) < 0.05);
  CHECK(glm::length(s.pose.pos - Vec2(12.5, 5.0)) <= 0.1);
  REQUIRE(c.metrics(0).time_to_goal.has_value());
  CHECK(*c.metrics(0).time_to_goal == doctest::Approx(c.time()).epsilon(1e-12));
  CHECK(c.run_metrics().arrived == 1);
  // A new goal: not arrived, no time to goal, until it is there again.
  REQUIRE(c.set_goal(0, Vec2(5.5, 5.0)).ok());
  CHECK_FALSE(c.state(0).arrived);
  CHECK_FALSE(c.state(0).reached);
  CHECK_FALSE(c.metrics(0).time_to_goal.has_value());
  CHECK(c.run_metrics().arrived == 0);
}

TEST_CASE("crowd arrival: a car that cannot face its goal heading is not arrived and says why") {
  Crowd c = Crowd::create(Grid::create(24, 12).value()).value();
  CrowdAgentDef car = crowd_agent("car", 2.5, 6.0, 0, 16.5, 6.0);
  car.goal_heading = deg_to_rad(180.0);  // reversed: a car cannot turn on the spot
  (void)c.add_agent(car).value();
  while (c.time() < 25.0) c.step();
  const CrowdAgentState& s = c.state(0);
  // It drives straight in, stops on the spot facing 0 degrees: 180 degrees off.
  CHECK(glm::length(s.pose.pos - s.target) < 0.25);
  CHECK(std::abs(std::remainder(s.pose.heading - kPi, 2.0 * kPi)) > kGoalHeadingTolerance);
  CHECK_FALSE(s.arrived);
  CHECK_FALSE(c.all_arrived());
  CHECK(s.why == "at its goal facing 180.0 degrees off the goal heading: it cannot turn on the spot");
  CHECK(c.run_metrics().longest_lock < 1.0);  // given up at its goal, it does not want to move: not locked
  CHECK(s.reached);
}

TEST_CASE("crowd slots: 100 mixed units sent to one goal all settle, none locked more than 10 s, none faster than its top speed") {
  // Issue 24: such a crowd had units locked for 2 minutes (a person walled off from its inner
  // slot by the units settled round it, gave up; a tank 0.26 cells from its slot among its
  // neighbours) and 5-7 of 100 never arrived (this scene, seeds 1 and 2: locks of 192 s and
  // 133 s, 93 and 95 arrived). A unit held 7 s among the slots now takes a nearer free slot or
  // parks where it stands. About 2-4 s each optimised; one seed under the sanitizers.
  const int seeds = std::getenv("PATHLAB_SANITIZED") ? 1 : 2;
  for (int seed = 1; seed <= seeds; ++seed) {
    CAPTURE(seed);
    const CrowdScenario sc = dense_shared_goal(static_cast<uint64_t>(seed));
    Crowd c = Crowd::create(sc.grid).value();
    for (const auto& a : sc.agents) (void)c.add_agent(a).value();
    double worst_speed = 0.0;  // |speed| / top speed, any unit, any step
    while (!c.all_arrived() && c.time() < sc.max_time) {  // (200 s)
      c.step();
      for (int i = 0; i < c.agent_count(); ++i) {
        worst_speed = std::max(worst_speed, std::abs(c.state(i).speed) / c.agent_def(i).unit.max_speed);
      }
    }
    const CrowdMetrics m = c.run_metrics();
    CAPTURE(m.longest_lock_agent);
    // Nearly all settle (a unit or two may still be jostled off its spot, never locked); before,
    // 93 and 95 of 100.
    CHECK(m.arrived >= 98);
    CHECK(m.longest_lock <= 10.0);
    CHECK(m.min_separation_ratio >= 1.0 - 1e-9);  // bodies never overlap
    CHECK(worst_speed <= 1.0 + 1e-9);  // riding a route never jumps (it moved units 30x their top speed)
    MESSAGE("100 units, one goal, seed " << seed << ": " << m.arrived << " settled at t " << c.time() << " s, longest lock " << m.longest_lock
                                         << " s, " << m.wall_contacts << " wall contacts");
  }
}
