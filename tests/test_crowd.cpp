// The crowd (crowd.hpp) on the scenarios: no two bodies closer than 0.95 x the sum of
// their radii in any step, no wall overlap, no unit under a moving obstacle, every unit
// arrives, and the same bytes twice.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "crowd_support.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

void check_scenario(const CrowdScenario& sc) {
  CAPTURE(sc.name);
  const CrowdOutcome a = run_crowd(sc);
  for (size_t i = 0; i < a.why.size(); ++i) {
    CAPTURE(i);
    CHECK(a.why[i] == "");
  }
  CHECK(a.all_arrived);
  CHECK(a.worst_ratio >= 0.95);
  CHECK(a.worst_wall == 0.0);
  CHECK(a.worst_mover >= 0.0);
  CHECK(a.metrics.min_separation_ratio >= 0.95);
  MESSAGE(sc.name << ": t " << a.time << " ratio " << a.worst_ratio << " stuck " << a.metrics.stuck_steps
                  << " replans " << a.metrics.replans << " wall contacts " << a.metrics.wall_contacts);
  const CrowdOutcome b = run_crowd(sc);
  CHECK(a.bytes == b.bytes);
}

}  // namespace

TEST_CASE("crowd: two units head-on in the open") { check_scenario(head_on_open()); }
TEST_CASE("crowd: head-on in a corridor") { check_scenario(head_on_corridor()); }
TEST_CASE("crowd: crossing at right angles, people and vehicles") { check_scenario(crossing()); }
TEST_CASE("crowd: a doorway with a queue to a shared goal") { check_scenario(doorway_queue()); }
TEST_CASE("crowd: circle swap of ten mixed units") { check_scenario(circle_swap(10)); }
TEST_CASE("crowd: a door closing in front of a unit") { check_scenario(door_closes()); }
TEST_CASE("crowd: a truck crossing a crowd") { check_scenario(truck_crossing()); }

TEST_CASE("crowd: a car backs out of a corridor to give way, then drives in") {
  const CrowdScenario sc = car_gives_way();
  check_scenario(sc);
  const CrowdOutcome o = run_crowd(sc);
  CHECK(o.min_speed[1] < -0.5);  // the car reversed
  CHECK(o.min_speed[0] >= 0.0);  // a person never does
}

TEST_CASE("crowd: a door closes in front of a unit and opens again: it waits") {
  const CrowdScenario sc = door_closes_and_opens();
  check_scenario(sc);
  const CrowdOutcome o = run_crowd(sc);
  CHECK(o.time > 6.0);  // nobody got through the closed door
  CHECK(o.metrics.replans >= 2);
}

TEST_CASE("crowd: a unit whose goal is occupied still gets there") { check_scenario(goal_occupied()); }

TEST_CASE("crowd: a unit that cannot arrive says why") {
  Grid g = Grid::create(10, 5).value();
  for (int y = 0; y < 5; ++y) g.set_blocked(5, y, true);
  Crowd crowd = Crowd::create(g).value();
  REQUIRE(crowd.add_agent(crowd_agent("person", 1.5, 2.5, 0, 8.5, 2.5)));
  for (int k = 0; k < 120; ++k) crowd.step();
  CHECK_FALSE(crowd.all_arrived());
  CHECK(crowd.state(0).waiting);
  CHECK(crowd.state(0).why.find("no route") != std::string::npos);
  CHECK(glm::length(crowd.state(0).pose.pos - Vec2(1.5, 2.5)) < 1e-12);  // it does not wander
}

TEST_CASE("crowd: set_goal re-plans and the unit goes to the new goal") {
  Crowd crowd = Crowd::create(Grid::create(12, 12).value()).value();
  REQUIRE(crowd.add_agent(crowd_agent("person", 2.5, 2.5, 0, 9.5, 2.5)));
  for (int k = 0; k < 60; ++k) crowd.step();
  REQUIRE(crowd.set_goal(0, Vec2(2.5, 9.5)));
  for (int k = 0; k < 60 * 15 && !crowd.all_arrived(); ++k) crowd.step();
  CHECK(crowd.all_arrived());
  CHECK(glm::length(crowd.state(0).pose.pos - Vec2(2.5, 9.5)) < 0.1);
  CHECK_FALSE(crowd.set_goal(3, Vec2(1.0, 1.0)));
  CHECK_FALSE(crowd.set_goal(0, Vec2(-1.0, 1.0)));
}

TEST_CASE("crowd: bad input is refused naming the field") {
  const Grid g = Grid::create(10, 10).value();
  CrowdDef def;
  def.dt = 0.0;
  CHECK(Crowd::create(g, def).error().message.find("crowd.dt") != std::string::npos);
  def = default_crowd_def();
  def.time_horizon = std::nan("");
  CHECK(Crowd::create(g, def).error().message.find("time_horizon") != std::string::npos);
  def = default_crowd_def();
  def.max_neighbors = 0;
  CHECK(Crowd::create(g, def).error().message.find("max_neighbors") != std::string::npos);
  Crowd crowd = Crowd::create(g).value();
  CrowdAgentDef a = crowd_agent("person", 1.5, 1.5, 0, 8.5, 8.5);
  a.unit.max_speed = -1.0;
  CHECK(crowd.add_agent(a).error().message.find("max_speed") != std::string::npos);
  CHECK(crowd.add_agent(crowd_agent("person", 11.0, 1.5, 0, 8.5, 8.5)).error().code == StatusCode::out_of_bounds);
  CHECK(crowd.add_agent(crowd_agent("person", 1.5, 1.5, 0, 8.5, 8.5)));
  CHECK(crowd.add_agent(crowd_agent("person", 1.7, 1.5, 0, 8.5, 8.5)).error().message.find("overlaps agent 0") !=
        std::string::npos);
  CHECK_FALSE(crowd.add_door(DoorDef{Cell{3, 3}, Cell{2, 3}, true, {}}));
  CHECK_FALSE(crowd.add_door(DoorDef{Cell{3, 3}, Cell{3, 3}, true, {2.0, 1.0}}));
  MovingObstacleDef m;
  m.route = {Vec2(5.0, 5.0)};
  CHECK_FALSE(crowd.add_moving_obstacle(m));
  m.route = {Vec2(5.0, 5.0), Vec2(5.0, 5.0)};
  CHECK_FALSE(crowd.add_moving_obstacle(m));
  m.route = {Vec2(5.0, 5.0), Vec2(50.0, 5.0)};
  CHECK_FALSE(crowd.add_moving_obstacle(m));
  m.route = {Vec2(5.0, 5.0), Vec2(8.0, 5.0)};
  m.speed = 0.0;
  CHECK_FALSE(crowd.add_moving_obstacle(m));
  CHECK_FALSE(crowd.set_door_open(0, false));
}

TEST_CASE("crowd: a unit that can pivot turns to its goal heading after arriving") {
  Crowd crowd = Crowd::create(Grid::create(12, 12).value()).value();
  CrowdAgentDef a = crowd_agent("tank", 2.5, 2.5, 0, 8.5, 2.5);
  a.goal_heading = deg_to_rad(90.0);
  REQUIRE(crowd.add_agent(a));
  for (int k = 0; k < 60 * 20; ++k) crowd.step();
  CHECK(crowd.metrics(0).arrived);
  CHECK(std::abs(crowd.state(0).pose.heading - deg_to_rad(90.0)) < 1e-6);
}
