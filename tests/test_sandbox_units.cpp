// The sandbox's units (issues 14 and 15): each unit plans with its own preset's size and
// turning radius; arrived means at the goal; units at the goal stay when the scene changes.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "registry.hpp"
#include "sandbox_ui.hpp"
#include "units.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

io::Scene open_scene(const char* planner) {
  io::Scene s;
  s.name = "units";
  s.grid = Grid::create(48, 32).value();
  s.start = Pose{Vec2(6.5, 16.5), 0.0};
  s.goal = Pose{Vec2(40.5, 16.5), 0.0};
  s.settings.planner = planner;
  s.settings.smoother = plan::smoother_name(plan::SmootherId::none);
  s.settings.turning_radius = 4.0;  // the scene's: no unit below may plan with it
  return s;
}

/// Largest |steering curvature| along a unit's route. [1/cells]
double route_max_curvature(const UnitSwarm& units, int id) {
  double k = 0.0;
  for (const FollowSample& s : units.simulation().path(id).samples()) k = std::max(k, std::abs(s.curvature));
  return k;
}

/// Steps until every unit is at the goal (or `max_steps`); returns the steps taken.
int run_until_arrived(UnitSwarm& units, const io::Scene& scene, int max_steps) {
  int steps = 0;
  while (units.arrived() < units.count() && steps < max_steps) {
    units.step(scene);
    ++steps;
  }
  return steps;
}

}  // namespace

TEST_CASE("sandbox units: a car and a bear spawned in one scene plan with their own turning radii") {
  // A goal behind the start: the Dubins route is all turns, at the unit's own radius.
  io::Scene scene = open_scene(plan::planner_name(plan::PlannerId::dubins));
  scene.goal = Pose{Vec2(12.5, 20.5), kPi};
  test::SandboxUi ui(scene, 2);
  UnitSwarm& units = ui.sb().units();
  const double car_radius = unit_preset("car")->turning_radius, bear_radius = unit_preset("bear")->turning_radius;
  REQUIRE(car_radius != bear_radius);
  REQUIRE(units.spawn(ui.sb().scene(), "car", ui.sb().scene().start).empty());
  REQUIRE(units.spawn(ui.sb().scene(), "bear", ui.sb().scene().start).empty());
  REQUIRE(units.count() == 2);
  CHECK(route_max_curvature(units, 0) == doctest::Approx(1.0 / car_radius).epsilon(1e-6));
  CHECK(route_max_curvature(units, 1) == doctest::Approx(1.0 / bear_radius).epsilon(1e-6));
  // A re-plan (a setting changed) keeps each unit's own radius.
  ui.sb().scene().settings.turning_radius = 6.0;
  units.request_replan();
  units.step(ui.sb().scene());
  CHECK(route_max_curvature(units, 0) == doctest::Approx(1.0 / car_radius).epsilon(1e-3));
  CHECK(route_max_curvature(units, 1) == doctest::Approx(1.0 / bear_radius).epsilon(1e-3));
}

TEST_CASE("sandbox units: the settings a unit plans with are the scene's with its own size and turning radius") {
  io::PlanSettingsData scene;
  scene.agent_radius = 0.2;
  scene.turning_radius = 5.0;
  const UnitDef car = unit_preset("car").value(), person = unit_preset("person").value();
  const io::PlanSettingsData for_car = unit_plan_settings(scene, car);
  CHECK(for_car.agent_radius == car.radius);
  CHECK(for_car.turning_radius == car.turning_radius);
  scene.agent_radius = 1.0;  // more clearance than the unit needs is kept
  CHECK(unit_plan_settings(scene, car).agent_radius == 1.0);
  // A person turns on the spot: the planners that need a radius keep the scene's.
  CHECK(unit_plan_settings(scene, person).turning_radius == 5.0);
}

TEST_CASE("sandbox units: a unit whose re-plan fails is not counted as arrived") {
  io::Scene scene = open_scene(plan::planner_name(plan::PlannerId::astar));
  UnitSwarm units(scene.grid);
  REQUIRE(units.spawn(scene, "person", scene.start).empty());
  // Wall the goal in: the re-plan finds no path and the unit is left on a one-point route.
  for (int y = 13; y <= 19; ++y)
    for (int x = 37; x <= 44; ++x)
      if (x == 37 || x == 44 || y == 13 || y == 19) scene.grid.set_blocked(x, y, true);
  units.request_replan();
  for (int i = 0; i < 5; ++i) units.step(scene);
  CHECK(!units.unit_message(0).empty());
  CHECK(units.simulation().state(0).arrived);  // at the end of its (one-point) route...
  CHECK(!units.at_goal(0));                   // ...which is not the goal
  CHECK(units.arrived() == 0);
}

TEST_CASE("sandbox units: units at the goal stay there when the scene changes") {
  io::Scene scene = open_scene(plan::planner_name(plan::PlannerId::dubins));
  UnitSwarm units(scene.grid);
  REQUIRE(units.spawn(scene, "car", scene.start).empty());
  REQUIRE(units.spawn(scene, "bear", Pose{Vec2(10.5, 16.5), 0.0}).empty());
  units.set_playing(false);
  run_until_arrived(units, scene, 60 * 120);
  REQUIRE(units.arrived() == 2);
  // An edit elsewhere (a wall far away) or an undo: every unit is asked to re-plan.
  scene.grid.set_blocked(2, 2, true);
  units.request_replan();
  double farthest = 0.0;
  for (int i = 0; i < 600; ++i) {
    units.step(scene);
    for (int id = 0; id < units.count(); ++id)
      farthest = std::max(farthest, glm::length(units.simulation().state(id).pose.pos - scene.goal.pos));
  }
  CHECK(farthest <= kAtGoalDistance);
  CHECK(units.arrived() == 2);
  // Moving the goal sends them on again.
  scene.goal.pos = Vec2(40.5, 24.5);
  scene.goal.heading = kPi / 2;
  units.request_replan();
  units.step(scene);
  CHECK(units.arrived() == 0);
  run_until_arrived(units, scene, 60 * 120);
  CHECK(units.arrived() == 2);
}

TEST_CASE("sandbox: a scene naming an unknown planner is refused with the key, the open scene kept") {
  io::Scene scene = open_scene(plan::planner_name(plan::PlannerId::theta));
  test::SandboxUi ui(scene, 2);
  const std::string path = (std::filesystem::temp_directory_path() / "pathlab_warp_drive.json").string();
  std::ofstream(path) << R"({"pathlab_scene": 2, "map": {"width": 3, "height": 2, "rows": ["...", "..."]},
    "start": [0.5, 0.5, 0], "goal": [2.5, 1.5, 0], "settings": {"planner": "warp-drive"}})";
  CHECK(!ui.sb().open(path));
  CHECK(ui.sb().status().find("settings.planner: unknown planner 'warp-drive'") != std::string::npos);
  CHECK(ui.sb().scene().settings.planner == plan::planner_name(plan::PlannerId::theta));
  CHECK(ui.sb().scene().grid.width() == 48);
  std::filesystem::remove(path);
}
