// Arrival near a shared goal: slots are claimed nearest first and an outer ring is used only
// when the inner ones are full, so the slots are as near as hexagonal packing allows; a unit
// parked far from the goal says so; and "arrived" means at the spot, facing the goal heading,
// stopped (the single-unit simulation's rule).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

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
