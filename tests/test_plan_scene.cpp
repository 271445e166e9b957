// Scenes through the planning layer (pathlab/plan/scene.hpp): the reader below it (app/io) knows
// no planner names and checks them only when asked; plan::load_scene asks with the registry's
// check, refusing unknown names at the key's line; scene_request plans a scene exactly as
// `pathlab-cli plan --map SCENE.json` does.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "cli_plan_check.hpp"
#include "cli_support.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/pose_smoother.hpp"
#include "pathlab/swept_check.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/scene.hpp"

using namespace pathlab;
using pathlab::test::run_cli;
using pathlab::test::write_temp;

namespace {

// Line 4 holds the planner, line 5 the smoother.
std::string scene_text(const std::string& planner, const std::string& smoother) {
  return "{\"pathlab_scene\": 3,\n \"map\": {\"width\": 4, \"height\": 2, \"rows\": [\"....\", \"....\"]},\n"
         " \"start\": [0.5, 0.5, 0], \"goal\": [3.5, 1.5, 0],\n"
         " \"settings\": {\"planner\": \"" + planner + "\",\n"
         "              \"smoother\": \"" + smoother + "\"}}\n";
}

/// Every bundled scene up to 128x128 (the bench maps are too slow for a test), once with
/// Directional and once with Hybrid A* and `smoother` (turning radius 2 where it has none):
/// `visit(scene, path)` for each.
template <class Visit>
void for_each_heading_scene(const char* smoother, Visit visit) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(PATHLAB_ASSETS_DIR) + "/scenes")) {
    if (entry.path().extension() != ".json") continue;
    auto scene = plan::load_scene(entry.path().string());
    REQUIRE(scene.ok());
    if (scene->grid.width() > 128 || scene->grid.height() > 128) continue;
    for (const char* planner : {"directional", "hybrid"}) {
      CAPTURE(entry.path().string());
      CAPTURE(planner);
      io::Scene s = *scene;
      s.settings.planner = planner;
      s.settings.smoother = smoother;
      if (!(s.settings.turning_radius > 0)) s.settings.turning_radius = 2.0;
      visit(s);
    }
  }
}

}  // namespace

TEST_CASE("plan::parse_scene refuses unknown planner and smoother names at the key's line; io alone reads them") {
  auto planner = plan::parse_scene(scene_text("warp-drive", "none"), "w.json", ".");
  REQUIRE_FALSE(planner.ok());
  CHECK(planner.error().message.rfind("w.json:4: settings.planner: unknown planner 'warp-drive' (astar, ", 0) == 0);
  auto smoother = plan::parse_scene(scene_text("astar", "butter"), "b.json", ".");
  REQUIRE_FALSE(smoother.ok());
  CHECK(smoother.error().message.rfind("b.json:5: settings.smoother: unknown smoother 'butter' (", 0) == 0);
  // Hostile bytes in a name stay one printable line.
  auto hostile = plan::parse_scene(scene_text("a\\u0001b", "none"), "h.json", ".");
  REQUIRE_FALSE(hostile.ok());
  CHECK(hostile.error().message.find('\x01') == std::string::npos);
  CHECK(hostile.error().message.find("\\x01") != std::string::npos);
  // Known names load; io without a check reads any name (the service refuses it when it plans).
  CHECK(plan::parse_scene(scene_text("jps", "los"), "ok.json", ".").ok());
  auto unchecked = io::parse_scene(scene_text("warp-drive", "none"), "w.json", ".");
  REQUIRE(unchecked.ok());
  CHECK(unchecked->settings.planner == "warp-drive");
  // Files and crowds go through the same check.
  const std::string path = write_temp("plan_scene_warp.json", scene_text("warp-drive", "none"));
  auto loaded = plan::load_scene(path);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.error().message.rfind(path + ":4: settings.planner: unknown planner", 0) == 0);
  auto crowd = plan::load_scene_crowd(path, default_crowd_def());
  REQUIRE_FALSE(crowd.ok());
  CHECK(crowd.error().message == loaded.error().message);
  std::filesystem::remove(path);
}

TEST_CASE("scene_request plans every bundled scene exactly as pathlab-cli plan --map SCENE.json") {
  int planned = 0, refused = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(PATHLAB_ASSETS_DIR) + "/scenes")) {
    if (entry.path().extension() != ".json") continue;
    const std::string file = entry.path().string();
    CAPTURE(file);
    auto scene = plan::load_scene(file);
    REQUIRE(scene.ok());
    const auto cli = run_cli("plan --map " + file + " --json");
    auto request = plan::scene_request(*scene);
    if (!request) {  // the CLI refuses it too (a curve planner, a turning smoother without --radius)
      CHECK(cli.status == 2);
      ++refused;
      continue;
    }
    REQUIRE(cli.status == 0);
    const auto json = nlohmann::json::parse(cli.out);
    plan::PlanService service;
    const plan::PlanResult r = service.plan(scene->grid, *request);
    REQUIRE(r.error.empty());
    REQUIRE(json.at("found").get<bool>() == r.found);
    if (!r.found) continue;
    test::check_cli_prints_plan(json, r, request->start_has_heading);
    ++planned;
  }
  CHECK(planned >= 15);  // assets/scenes holds 22 scenes, most of them planned by `plan`
  MESSAGE(planned << " scenes planned alike, " << refused << " refused by both");
}

TEST_CASE("scene_request: the sandbox's request, headings where a turning radius is driven") {
  io::Scene scene;
  scene.grid = Grid::create(8, 8).value();
  scene.start = Pose{{0.5, 0.5}, 0.3};
  scene.goal = Pose{{7.5, 7.5}, 1.2};
  scene.settings.planner = "jps";
  scene.settings.connectivity = 4;  // JPS searches 8-connected: reset, as the sandbox does
  scene.settings.turn_penalty = 0.5;  // JPS takes none: reset (the service would not use it)
  scene.settings.headings = 36;     // Hybrid A*'s: kept, unused by JPS, as in the sandbox
  auto grid = plan::scene_request(scene);
  REQUIRE(grid.ok());
  CHECK(grid->settings.connectivity == 8);
  CHECK(grid->settings.turn_penalty == 0.0);
  CHECK(grid->settings.headings == 36);
  CHECK_FALSE(grid->start_has_heading);
  CHECK(grid->start.heading == 0.0);
  CHECK_FALSE(grid->curve_step.has_value());  // the service's default step, as the sandbox samples
  scene.settings.smoother = "turning";  // a grid path driven with the scene's turning radius
  auto turning = plan::scene_request(scene);
  REQUIRE(turning.ok());
  CHECK(turning->start_has_heading);
  CHECK(turning->goal.heading == 1.2);
  scene.settings.smoother = "none";
  scene.settings.planner = "hybrid";
  scene.settings.turning_radius = 3.0;
  auto heading = plan::scene_request(scene);
  REQUIRE(heading.ok());
  CHECK(heading->start_has_heading);
  CHECK(heading->start.heading == 0.3);  // exactly the scene's radians
  CHECK(heading->settings.turning_radius == 3.0);
  CHECK(heading->settings.headings == 36);
  scene.settings.turning_radius = 0.0;
  auto zero = plan::scene_request(scene);
  REQUIRE_FALSE(zero.ok());
  CHECK(zero.error().message.find("settings.turning_radius") == 0);
  scene.settings.planner = "dubins";  // the `curve` verb's, not `plan`'s
  auto curve = plan::scene_request(scene);
  REQUIRE_FALSE(curve.ok());
  CHECK(curve.error().message.find("settings.planner") == 0);
  scene.settings.planner = "astar";
  scene.settings.smoother = "funnel";  // a navmesh smoother after a grid planner
  auto mismatch = plan::scene_request(scene);
  REQUIRE_FALSE(mismatch.ok());
  CHECK(mismatch.error().message.find("settings.smoother") == 0);
}

TEST_CASE("scene_grid: doors shut at t = 0 are walls; exact_degrees reads back exactly") {
  io::Scene scene;
  scene.grid = Grid::create(6, 4).value();
  scene.doors.push_back(DoorDef{{2, 0}, {2, 3}, false, {}});
  scene.doors.push_back(DoorDef{{4, 1}, {4, 2}, true, {}});
  const Grid g = plan::scene_grid(scene);
  for (int y = 0; y < 4; ++y) {
    CHECK_FALSE(g.is_free(2, y));
    CHECK(g.is_free(4, y));
    CHECK(scene.grid.is_free(2, y));  // the scene's own map is not touched
  }
  // Every heading read from degrees (a scene file, a command line) is written back exactly.
  for (int i = 0; i < 2000; ++i) {
    const double rad = deg_to_rad(0.37 * i - 300.0 + 1e-11 * i);
    CHECK(deg_to_rad(plan::exact_degrees(rad)) == rad);
  }
  // Arbitrary radians (a drag in the sandbox): most have degrees that convert back to them; the
  // rest (about 1 in 10) keep the nearest degrees, which is why the CLI also takes RADrad.
  int exact = 0;
  for (int i = 0; i < 2000; ++i) {
    const double rad = deg_to_rad(0.37 * i - 300.0) + 1e-13 * i;
    const double deg = plan::exact_degrees(rad);
    CHECK(std::abs(deg - rad_to_deg(rad)) <= 1e-9);
    exact += deg_to_rad(deg) == rad;
  }
  CHECK(exact >= 1600);
  CHECK(exact < 2000);
  MESSAGE(exact << " of 2000 arbitrary headings read back exactly");
}

TEST_CASE("every bundled scene, planned with Directional and Hybrid A* and the vehicle smoother, passes the referee") {
  // The smoother checks each shortcut alone; the plan's analysis checks the whole path with
  // check_swept_path() (Compare marks a failing row "through a wall"). On the JPS pillar field
  // at agent radius 0 a smoothed Directional A* path once grazed a corner by 0.00095 cells,
  // under the referee's 1e-3 sagitta, after its round cut the kept arcs at new poses.
  int planned = 0;
  for_each_heading_scene("vehicle", [&](const io::Scene& s) {
    auto request = plan::scene_request(s);
    if (!request) return;
    request->analyse = true;
    plan::PlanService service;
    const plan::PlanResult r = service.plan(plan::scene_grid(s), *request);
    if (!r.found) return;
    CHECK_FALSE(r.curve_blocked_at.has_value());
    ++planned;
  });
  CHECK(planned >= 20);
  MESSAGE(planned << " smoothed heading plans passed the referee");
}

TEST_CASE("the vehicle smoother keeps the rounds up to the first one the referee refuses") {
  // The smoother checks only the last round's whole path, and each round in order when that
  // fails: the result must be the path before the first refused round, as when every round was
  // checked as it ended, and it must pass the referee.
  int smoothed = 0, refused = 0;
  for_each_heading_scene("none", [&](const io::Scene& s) {
    auto request = plan::scene_request(s);
    if (!request) return;
    plan::PlanService service;
    const Grid grid = plan::scene_grid(s);
    const plan::PlanResult r = service.plan(grid, *request);
    if (!r.found || !r.segments) return;
    PoseSmoothDef def = default_pose_smooth_def();
    def.turning_radius = s.settings.turning_radius;
    def.agent_radius = s.settings.agent_radius;
    auto out = smooth_pose_path(grid, *r.segments, def);
    REQUIRE(out.ok());
    ++smoothed;
    SweptCheckDef check = default_swept_check_def();
    check.agent_radius = def.agent_radius;
    check.max_sagitta = def.max_sagitta;
    auto swept = check_swept_path(grid, out->path, check);
    REQUIRE(swept.ok());
    CHECK(swept->clear);
    if (out->refused_rounds == 0) return;
    ++refused;
    // The same rounds stopped before the refused one give the same path.
    def.max_rounds = std::max(1, out->rounds - 1);
    auto before = smooth_pose_path(grid, *r.segments, def);
    REQUIRE(before.ok());
    const SegmentPath& expect = out->rounds > 1 ? before->path : *r.segments;
    CHECK(out->path.length() == expect.length());
    CHECK(out->path.segments().size() == expect.segments().size());
  });
  CHECK(smoothed >= 20);
  CHECK(refused >= 1);  // the JPS pillar field at agent radius 0 (see the test above)
  MESSAGE(smoothed << " heading plans smoothed, " << refused << " with a refused round");
}
