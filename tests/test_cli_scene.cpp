// `--scene FILE` on the verbs that take a map: a scene becomes one request (plan::scene_request,
// what the sandbox plans) and the options given override it one by one. Every bundled scene is
// planned by `pathlab-cli plan --scene` exactly as the planning service plans its request; a
// --planner keeps the scene's headings (the user's report: hybrid turned a goal heading of 180
// into 0 and answered "unreachable"); simulate and scen read scenes; bad scene files give one
// line naming the file.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_plan_check.hpp"
#include "cli_support.hpp"
#include "pathlab/follower.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/scene.hpp"
#include "test_support.hpp"

using namespace pathlab;
using pathlab::test::check_usage_error;
using pathlab::test::run_cli;
using pathlab::test::write_temp;

namespace {

/// A 16x10 room with a pillar, as scene JSON: `settings` and `extra` keys go in verbatim.
std::string room_scene(const std::string& start, const std::string& goal, const std::string& settings,
                       const std::string& extra = "") {
  std::string rows;
  for (int y = 0; y < 10; ++y) {
    std::string row(16, '.');
    if (y >= 3 && y <= 6) row[7] = row[8] = '@';
    rows += std::string(y ? ", " : "") + "\"" + row + "\"";
  }
  return "{\"pathlab_scene\": 3, \"map\": {\"width\": 16, \"height\": 10, \"rows\": [" + rows + "]},\n \"start\": " +
         start + ", \"goal\": " + goal + ",\n \"settings\": {" + settings + "}" + extra + "}\n";
}

/// The service's plan of `request` on the scene's grid, as `plan --scene` must print it.
plan::PlanResult service_plan(const io::Scene& scene, const plan::PlanRequest& request) {
  plan::PlanService service;
  return service.plan(plan::scene_grid(scene), request);
}

double wrapped_deg(double deg) { return std::remainder(deg, 360.0); }

}  // namespace

TEST_CASE("plan --scene: every bundled scene is planned exactly as the service plans scene_request") {
  int planned = 0, refused = 0;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(PATHLAB_ASSETS_DIR) + "/scenes"))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  for (const std::string& file : files) {
    CAPTURE(file);
    auto scene = plan::load_scene(file);
    REQUIRE(scene.ok());
    const auto cli = run_cli("plan --scene " + file + " --json");
    auto request = plan::scene_request(*scene);
    if (!request) {  // the CLI refuses it too, naming the file and the setting
      CHECK(cli.status == 2);
      CHECK(cli.err == "error: " + file + ": " + request.error().message + "\n");
      ++refused;
      continue;
    }
    INFO(cli.err);
    REQUIRE(cli.status == 0);
    test::check_cli_prints_plan(nlohmann::json::parse(cli.out), service_plan(*scene, *request), request->start_has_heading);
    // --map SCENE.json is the same command.
    auto alias = nlohmann::json::parse(run_cli("plan --map " + file + " --json").out);
    auto direct = nlohmann::json::parse(cli.out);
    alias.erase("time_us");
    direct.erase("time_us");
    CHECK(alias == direct);
    ++planned;
  }
  CHECK(planned >= 18);
  CHECK(refused >= 1);  // vehicles/cc-dubins-steering.json: a curve planner, the `curve` verb's
  MESSAGE(planned << " scenes planned as the service plans them, " << refused << " refused");
}

TEST_CASE("plan --scene --planner hybrid keeps the scene's goal heading of 180 (the user's report)") {
  // Start facing east, goal facing west beyond the pillar: a heading of 0 at the goal would
  // mean a different (or no) path; the scene says 180.
  const std::string file = write_temp("scene_goal_180.json",
                                      room_scene("[2.5, 4.5, 0]", "[13.5, 4.5, 180]",
                                                 "\"planner\": \"astar\", \"smoother\": \"los\", \"turning_radius\": 1.5"));
  const auto r = run_cli("plan --scene " + file + " --planner hybrid --json");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.at("found").get<bool>());
  CHECK(j.at("points").front().at(2).get<double>() == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(std::abs(wrapped_deg(j.at("points").back().at(2).get<double>() - 180.0)) < 1e-9);
  // Exactly the scene's request with the planner (and, as los does not follow hybrid, its
  // default smoother) replaced: poses, headings and the turning radius kept.
  auto scene = plan::load_scene(file).value();
  scene.settings.planner = "hybrid";
  scene.settings.smoother = plan::smoothers_for(plan::PlannerFamily::heading).front().name;
  const auto request = plan::scene_request(scene).value();
  CHECK(request.goal.heading == doctest::Approx(deg_to_rad(180.0)).epsilon(1e-15));
  CHECK(request.settings.turning_radius == 1.5);
  test::check_cli_prints_plan(j, service_plan(scene, request), true);
  std::filesystem::remove(file);
}

TEST_CASE("plan --scene: each option given overrides only itself") {
  const std::string file = write_temp(
      "scene_override.json",
      room_scene("[2.5, 2.5, 90]", "[13.5, 7.5, 270]",
                 "\"planner\": \"hybrid\", \"smoother\": \"vehicle\", \"turning_radius\": 2, \"headings\": 36, "
                 "\"reverse\": true, \"reverse_penalty\": 3, \"agent_radius\": 0.3"));
  const io::Scene scene = plan::load_scene(file).value();
  const plan::PlanRequest base = plan::scene_request(scene).value();
  auto plan_with = [&](const std::string& flags, auto&& edit) {
    CAPTURE(flags);
    const auto r = run_cli("plan --scene " + file + " " + flags + " --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    plan::PlanRequest request = base;
    edit(request);
    const auto j = nlohmann::json::parse(r.out);
    test::check_cli_prints_plan(j, service_plan(scene, request), true);
    return j;
  };
  const auto plain = plan_with("", [](plan::PlanRequest&) {});
  const auto radius = plan_with("--radius 1.5", [](plan::PlanRequest& q) { q.settings.turning_radius = 1.5; });
  CHECK(radius.at("points") != plain.at("points"));  // the option did something
  plan_with("--heading-bins 72", [](plan::PlanRequest& q) { q.settings.headings = 72; });
  plan_with("--agent-radius 0.6", [](plan::PlanRequest& q) { q.settings.agent_radius = 0.6; });
  plan_with("--smoother none", [](plan::PlanRequest& q) { q.settings.smoother = "none"; });
  plan_with("--sample-step 0.5", [](plan::PlanRequest& q) { q.curve_step = 0.5; });
  const auto from = plan_with("--from 2.5,7.5,0", [](plan::PlanRequest& q) { q.start = Pose{{2.5, 7.5}, 0.0}; });
  CHECK(std::abs(wrapped_deg(from.at("points").back().at(2).get<double>() - 270.0)) < 1e-9);  // the scene's goal
  // An option that does not apply to the planner is refused, as without a scene.
  check_usage_error("plan --scene " + file + " --turn-penalty 1", "--turn-penalty");
  check_usage_error("plan --scene " + file + " --planner warp", "--planner");
  std::filesystem::remove(file);
}

TEST_CASE("simulate --scene: the scene's map, poses with headings, planner and first unit") {
  const std::string settings = "\"planner\": \"astar\", \"smoother\": \"los\"";
  const std::string units = ", \"units\": [{\"preset\": \"tank\", \"pose\": [2.5, 4.5, 0]}]";
  const std::string file =
      write_temp("scene_simulate.json", room_scene("[2.5, 4.5, 90]", "[13.5, 4.5, 180]", settings, units));
  const auto r = run_cli("simulate --scene " + file + " --json --every 1000");
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("unit") == "tank");
  CHECK(j.at("unit_from") == "units[0] of the scene");
  CHECK(j.at("planner") == "astar");
  const auto& first = j.at("samples").front();
  CHECK(first.at(3).get<double>() == doctest::Approx(90.0).epsilon(1e-12));  // the scene's start heading
  REQUIRE(j.at("metrics").at("arrived").get<bool>());
  CHECK(std::abs(wrapped_deg(j.at("samples").back().at(3).get<double>() - 180.0)) <= rad_to_deg(kGoalHeadingTolerance));
  // The same run as typing the scene out on a map file; --unit overrides the scene's unit.
  std::string map = "type octile\nheight 10\nwidth 16\nmap\n";
  for (int y = 0; y < 10; ++y) {
    std::string row(16, '.');
    if (y >= 3 && y <= 6) row[7] = row[8] = '@';
    map += row + "\n";
  }
  const std::string map_file = write_temp("scene_simulate.map", map);
  const auto typed = run_cli("simulate --map " + map_file +
                             " --from 2.5,4.5,90 --to 13.5,4.5,180 --unit tank --smoother los --json --every 1000");
  REQUIRE(typed.status == 0);
  j.erase("unit_from");
  CHECK(j == nlohmann::json::parse(typed.out));
  const auto person = nlohmann::json::parse(run_cli("simulate --map " + file + " --unit person --json --every 1000").out);
  CHECK(person.at("unit") == "person");
  CHECK(person.at("unit_from") == "--unit");
  const auto human = run_cli("simulate --scene " + file + " --every 1000");
  CHECK(human.out.find("unit: tank\nunit_from: units[0] of the scene\n") != std::string::npos);
  std::filesystem::remove(file);
  std::filesystem::remove(map_file);
}

TEST_CASE("scen --scene: the scene's map and planner with the scenario file's problems") {
  const std::string scene = std::string(PATHLAB_ASSETS_DIR) + "/scenes/maps/arena-movingai.json";
  const std::string scen = test::movingai("arena.map.scen");
  const auto r = run_cli("scen " + scen + " --scene " + scene);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find(" scenarios, 0 mismatches, mean ") != std::string::npos);
  // A heading planner or an agent radius cannot replay optimal grid lengths: refused by name.
  const std::string hybrid = write_temp("scen_hybrid.json", room_scene("[2.5, 4.5, 0]", "[13.5, 4.5, 0]",
                                                                       "\"planner\": \"hybrid\", \"smoother\": \"none\""));
  check_usage_error("scen " + scen + " --scene " + hybrid, hybrid + ": settings.planner: scen replays grid searches");
  const std::string radius = write_temp("scen_radius.json", room_scene("[2.5, 4.5, 0]", "[13.5, 4.5, 0]",
                                                                       "\"agent_radius\": 0.5"));
  check_usage_error("scen " + scen + " --scene " + radius, radius + ": settings.agent_radius");
  // The map size is checked against the problems, naming the scene.
  const std::string room = write_temp("scen_room.json", room_scene("[2.5, 4.5, 0]", "[13.5, 4.5, 0]", "\"planner\": \"jps\""));
  check_usage_error("scen " + scen + " --scene " + room, "but " + room + " is 16x10");
  for (const auto& f : {hybrid, radius, room}) std::filesystem::remove(f);
}

TEST_CASE("--scene: bad scene files give one line naming the file") {
  const std::string missing = (std::filesystem::temp_directory_path() / "pathlab_no_such_scene.json").string();
  const std::string garbage = write_temp("scene_garbage.json", "{\"pathlab_scene\": 3, \"map\": ");
  const std::string map = write_temp("scene_not_a_scene.map", "type octile\nheight 1\nwidth 2\nmap\n..\n");
  for (const std::string verb : {"plan", "simulate"}) {
    for (const std::string& file : {missing, garbage, map}) check_usage_error(verb + " --scene " + file, file);
  }
  check_usage_error("scen x.map.scen --scene " + garbage, garbage);
  const std::string good = std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json";
  check_usage_error("plan --scene " + good + " --map " + map, "either --scene or --map");
  // A curve planner is the `curve` verb's: the scene is refused naming the file and key.
  const std::string cc = std::string(PATHLAB_ASSETS_DIR) + "/scenes/vehicles/cc-dubins-steering.json";
  check_usage_error("plan --scene " + cc, cc + ": settings.planner");
  for (const auto& f : {garbage, map}) std::filesystem::remove(f);
}

TEST_CASE("plan --scene: a door shut at t = 0 is a wall, as the sandbox draws the plan") {
  // Start and goal above the pillar: the straight way runs through the door's cells.
  const std::string shut = write_temp("scene_door_shut.json",
                                      room_scene("[2.5, 1.5, 0]", "[13.5, 1.5, 0]", "\"planner\": \"astar\"",
                                                 ", \"doors\": [{\"cells\": [7, 0, 8, 2], \"open\": false}]"));
  const auto r = run_cli("plan --scene " + shut + " --json");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.at("found").get<bool>());
  double lowest = 0.0;  // the largest y: the path goes round below the pillar, not through the door
  for (const auto& p : j.at("points")) lowest = std::max(lowest, p.at(1).get<double>());
  CHECK(lowest > 6.0);
  CHECK(j.at("length").get<double>() > 15.0);  // the way through the door is 11
  const io::Scene scene = plan::load_scene(shut).value();
  test::check_cli_prints_plan(j, service_plan(scene, plan::scene_request(scene).value()), false);
  std::filesystem::remove(shut);
}
