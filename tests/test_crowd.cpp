// The crowd (crowd.hpp) on the scenarios: no two bodies closer than 0.95 x the sum of
// their radii in any step, no wall overlap, no unit under a moving obstacle, every unit
// arrives, and the same bytes twice.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

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

TEST_CASE("crowd: a route_planner's route is followed (a detour via a waypoint)") {
  // Open 20x20: the built-in search would walk straight; the provider sends the unit via
  // (10.5, 15.5), and it passes near there on its way.
  const Vec2 via(10.5, 15.5);
  CrowdDef def;
  int calls = 0;
  def.route_planner = [&](const CrowdRouteQuery& q) -> Result<std::vector<Vec2>> {
    ++calls;
    CHECK(q.grid.width() == 20);
    CHECK(q.unit.radius > 0.0);
    CHECK(q.agent == 0);
    return std::vector<Vec2>{q.from.pos, via, q.to};
  };
  Crowd crowd = Crowd::create(Grid::create(20, 20).value(), def).value();
  REQUIRE(crowd.add_agent(crowd_agent("person", 2.5, 5.5, 0, 17.5, 5.5)));
  CHECK(calls == 1);
  REQUIRE(crowd.state(0).route.size() == 3);
  CHECK(crowd.state(0).route[1] == via);
  double nearest = 1e300;
  for (int k = 0; k < 60 * 30 && !crowd.all_arrived(); ++k) {
    crowd.step();
    nearest = std::min(nearest, glm::length(crowd.state(0).pose.pos - via));
  }
  CHECK(crowd.all_arrived());
  CHECK(nearest < 1.0);
  CHECK(crowd.state(0).why == "");
}

TEST_CASE("crowd: a failing route_planner makes the unit wait and say why") {
  CrowdDef def;
  def.route_planner = [](const CrowdRouteQuery&) -> Result<std::vector<Vec2>> {
    return fail(StatusCode::blocked, "the planner is out of ideas");
  };
  Crowd crowd = Crowd::create(Grid::create(12, 12).value(), def).value();
  REQUIRE(crowd.add_agent(crowd_agent("person", 2.5, 2.5, 0, 9.5, 2.5)));
  for (int k = 0; k < 120; ++k) crowd.step();
  CHECK_FALSE(crowd.all_arrived());
  CHECK(crowd.state(0).waiting);
  CHECK(crowd.state(0).why == "no route to the goal: the planner is out of ideas");
  CHECK(glm::length(crowd.state(0).pose.pos - Vec2(2.5, 2.5)) < 1e-12);  // it does not wander

  // No points at all is "no route" too.
  CrowdDef empty;
  empty.route_planner = [](const CrowdRouteQuery&) -> Result<std::vector<Vec2>> { return std::vector<Vec2>{}; };
  Crowd c2 = Crowd::create(Grid::create(12, 12).value(), empty).value();
  REQUIRE(c2.add_agent(crowd_agent("person", 2.5, 2.5, 0, 9.5, 2.5)));
  c2.step();
  CHECK(c2.state(0).waiting);
  CHECK(c2.state(0).why.find("no route") != std::string::npos);
}

TEST_CASE("crowd: a door asked to close while a unit is in it is 'closing when clear', then closes") {
  // A doorway in a wall; the door is told to close at 0.5 s while a unit walks through it.
  Grid g = Grid::create(12, 12).value();
  for (int x = 0; x < 12; ++x)
    if (x != 6) g.set_blocked(x, 6, true);
  Crowd c = Crowd::create(g).value();
  (void)c.add_door(DoorDef{Cell{6, 6}, Cell{6, 6}, true, {}}).value();
  (void)c.add_agent(crowd_agent("person", 6.5, 4.8, 90, 6.5, 10.5)).value();
  CHECK(c.door_state(0) == DoorState::open);
  // Walk until the unit overlaps the door's cell, then ask it to close.
  while (c.time() < 5.0 && glm::length(c.state(0).pose.pos - Vec2(6.5, 6.5)) > 0.6) c.step();
  REQUIRE(c.set_door_open(0, false).ok());
  c.step();
  CHECK(c.door_state(0) == DoorState::closing_when_clear);
  CHECK(c.door_open(0));  // never on a unit
  CHECK(std::string(to_string(c.door_state(0))) == "closing when clear");
  while (c.time() < 10.0 && c.door_state(0) == DoorState::closing_when_clear) c.step();
  CHECK(c.door_state(0) == DoorState::closed);
  CHECK_FALSE(c.door_open(0));
  CHECK(c.state(0).pose.pos.y > 7.0 + 0.3 - 1e-9);  // it had passed when the door closed
}

TEST_CASE("crowd: a unit added on a closed door's cells opens it again, closing when clear") {
  // As a rebuilt crowd does with a door that was waiting for a unit to pass.
  Grid g = Grid::create(12, 12).value();
  for (int x = 0; x < 12; ++x)
    if (x != 6) g.set_blocked(x, 6, true);
  Crowd c = Crowd::create(g).value();
  (void)c.add_door(DoorDef{Cell{6, 6}, Cell{6, 6}, false, {}}).value();
  CHECK(c.door_state(0) == DoorState::closed);
  REQUIRE(c.add_agent(crowd_agent("person", 6.5, 6.5, 90, 6.5, 10.5)).ok());
  CHECK(c.door_state(0) == DoorState::closing_when_clear);
  while (c.time() < 10.0 && c.door_state(0) != DoorState::closed) c.step();
  CHECK(c.door_state(0) == DoorState::closed);
  CHECK(c.state(0).pose.pos.y >= 7.0 + 0.3 - 1e-9);
  // A start inside a wall is still refused.
  CHECK_FALSE(c.add_agent(crowd_agent("person", 3.5, 6.5, 90, 3.5, 10.5)).ok());
}

TEST_CASE("crowd: a lone car brakes onto its goal without overshoot or reversing, then stands still") {
  Crowd crowd = Crowd::create(Grid::create(30, 12).value()).value();
  REQUIRE(crowd.add_agent(crowd_agent("car", 2.5, 6.0, 0, 24.5, 6.0)));
  double max_x = 0.0, min_speed = 0.0;
  std::optional<double> arrived_at;
  while (crowd.time() < 20.0) {
    crowd.step();
    max_x = std::max(max_x, crowd.state(0).pose.pos.x);
    min_speed = std::min(min_speed, crowd.state(0).speed);
    if (crowd.state(0).arrived && !arrived_at) arrived_at = crowd.time();
  }
  REQUIRE(arrived_at.has_value());
  CHECK(*arrived_at < 8.0);  // 22 cells at up to 8 cells/s, accelerating at 3 and braking at 6 cells/s^2
  CHECK(max_x < 24.5 + 0.05);  // no overshoot (tolerance 0.05 cells)
  CHECK(min_speed > -0.05);    // never backed up
  const Vec2 rest = crowd.state(0).pose.pos;
  const int replans = crowd.metrics(0).replans;
  for (int k = 0; k < 600; ++k) crowd.step();  // 10 s more
  CHECK(crowd.state(0).arrived);
  CHECK(glm::length(crowd.state(0).pose.pos - rest) < 1e-9);
  CHECK(crowd.metrics(0).replans == replans);
}

TEST_CASE("crowd: units with no route stand still (the speed sampler offers exactly zero)") {
  Grid g = Grid::create(14, 10).value();
  for (int y = 0; y < 10; ++y) g.set_blocked(7, y, true);
  Crowd crowd = Crowd::create(g).value();
  for (const char* preset : {"car", "tank", "bear"}) {
    REQUIRE(crowd.add_agent(crowd_agent(preset, 2.5, 2.0 + 2.5 * crowd.agent_count(), 30, 11.5, 5.0)));
  }
  std::vector<Vec2> before;
  for (int i = 0; i < crowd.agent_count(); ++i) before.push_back(crowd.state(i).pose.pos);
  for (int k = 0; k < 600; ++k) crowd.step();  // 10 s
  for (int i = 0; i < crowd.agent_count(); ++i) {
    CAPTURE(crowd.agent_def(i).unit.name);
    CHECK(crowd.state(i).waiting);
    CHECK(glm::length(crowd.state(i).pose.pos - before[static_cast<size_t>(i)]) < 0.01);
  }
}

TEST_CASE("crowd: a unit held long says why while held, and stops saying it once it moves on") {
  // A planner that knows no doors sends the unit straight at a shut door: no way through, no
  // progress, stuck. With give_up_time 3 s the held unit says why; the door opens at 12 s and
  // the unit walks on: the report of its holds ends there (it said "gave up" with its old
  // blocker to a unit walking at full speed, 1,000 persons over 600 s).
  Grid g = Grid::create(20, 5).value();
  for (int y = 0; y < 5; ++y) g.set_blocked(10, y, y != 2);
  CrowdDef def;
  def.give_up_time = 3.0;
  def.route_planner = [](const CrowdRouteQuery& q) -> Result<std::vector<Vec2>> { return std::vector<Vec2>{q.from.pos, q.to}; };
  Crowd crowd = Crowd::create(g, def).value();
  DoorDef door;
  door.lo = door.hi = Cell{10, 2};
  door.open_at_start = false;
  door.toggle_times = {12.0};
  REQUIRE(crowd.add_door(door).ok());
  REQUIRE(crowd.add_agent(crowd_agent("person", 3.5, 2.5, 0, 16.5, 2.5)));
  while (crowd.time() < 11.0) crowd.step();
  CHECK(crowd.state(0).pose.pos.x < 10.0);
  CHECK(crowd.state(0).why.find("s in all") != std::string::npos);  // e.g. "stuck 5 s in all: blocked"
  CHECK(crowd.explain(0).value().mode == "stuck, held up");  // not "gave up": it still re-plans
  while (crowd.time() < 14.0) crowd.step();
  CHECK(crowd.state(0).pose.pos.x > 10.5);  // through the door
  CHECK(crowd.state(0).why == "");
  CHECK(crowd.explain(0).value().mode.find("held up") == std::string::npos);
  for (int k = 0; k < 60 * 30 && !crowd.all_arrived(); ++k) crowd.step();
  CHECK(crowd.all_arrived());
  CHECK(crowd.state(0).why == "");
}
