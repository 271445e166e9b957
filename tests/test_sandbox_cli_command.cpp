// The Export tab's "Copy CLI command": the pathlab-cli command that reproduces what the sandbox
// shows. The real sandbox runs headless; each command it builds is run with the built CLI and
// must print exactly the points of the sandbox's PlanView (bit for bit), after edits of the
// poses, the settings and the map, without writing over any file it did not create.
// Set PATHLAB_SCREENSHOT_DIR to keep a PNG of the Export tab showing a command.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_plan_check.hpp"
#include "cli_support.hpp"
#include "document/export.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"
#include "planning/plan_pipeline.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

const std::string kScenes = std::string(PATHLAB_ASSETS_DIR) + "/scenes/";

/// Runs a command the sandbox built ("pathlab-cli plan ...") with the built CLI, --json added.
nlohmann::json run_command(const std::string& command) {
  const std::string prefix = "pathlab-cli ";
  REQUIRE(command.rfind(prefix, 0) == 0);
  const auto r = test::run_cli(command.substr(prefix.size()) + " --json");
  INFO(command);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

/// The CLI printed the plan the sandbox shows, bit for bit (headings where the command's poses
/// carry them).
void check_same_points(const nlohmann::json& j, const PlanView& view) {
  REQUIRE(view.error.empty());
  REQUIRE(view.result.found);
  const auto& points = j.at("points");
  test::check_cli_prints_plan(j, view.result, !points.empty() && points[0].size() == 3);
}

/// Clicks Export's "Copy CLI command" as a hand would (the tab shown first).
void click_copy_cli(test::SandboxUi& ui) {
  Inspector& in = ui.sb().inspector();
  in.show_tab(Inspector::Tab::export_);
  ui.idle(2);
  const auto [lo, hi] = in.widget("copy_cli");
  REQUIRE(hi.x > lo.x);
  ui.click(ImVec2((lo.x + hi.x) / 2, (lo.y + hi.y) / 2));
  ui.idle(1);
}

}  // namespace

TEST_CASE("copy CLI command: a bundled scene, then its start pose and a setting edited, plan the same in the CLI") {
  const std::string file = kScenes + "pinter_tank_turn.json";  // directional A*: headings count
  const std::string bytes = test::file_bytes(file);
  test::SandboxUi ui(plan::load_scene(file).value(), 3, file);
  Inspector& in = ui.sb().inspector();
  ui.sb().replan_now();

  // As opened: the scene file alone.
  CliCommand cmd = in.cli_command(ui.sb());
  CHECK(cmd.command == "pathlab-cli plan --scene " + file);
  CHECK(cmd.written.empty());
  check_same_points(run_command(cmd.command), ui.sb().plan());

  // The start moved and turned by a drag (a heading no degree value reads back to exactly),
  // and the turning radius changed: options for exactly those, nothing written.
  io::Scene& scene = ui.sb().scene();
  const Pose old_start = scene.start;
  scene.start = Pose{old_start.pos + Vec2(2.0, 0.0), std::atan2(0.30, 0.71)};
  scene.settings.turning_radius = 1.5;
  ui.sb().replan_now();
  REQUIRE(ui.sb().plan().result.found);
  cmd = in.cli_command(ui.sb());
  INFO(cmd.command);
  CHECK(cmd.command.rfind("pathlab-cli plan --scene " + file + " --from ", 0) == 0);
  CHECK(cmd.command.find(" --radius 1.5") != std::string::npos);
  CHECK(cmd.command.find("rad --radius") != std::string::npos);  // atan2(0.30, 0.71) has no exact degrees
  CHECK(cmd.command.find(" --to ") == std::string::npos);       // the goal was not edited
  CHECK(cmd.command.find(" --planner ") == std::string::npos);  // nor the planner
  CHECK(cmd.written.empty());
  check_same_points(run_command(cmd.command), ui.sb().plan());

  // Through the button: the same command, shown in the tab.
  click_copy_cli(ui);
  CHECK(in.last_cli_command().command == cmd.command);
  CHECK(in.message().find("CLI command copied") == 0);
  CHECK(in.widget("cli_command").second.x > in.widget("cli_command").first.x);  // shown to read and select
  if (const char* shots = std::getenv("PATHLAB_SCREENSHOT_DIR")) {
    std::vector<uint8_t> px;
    ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
    CHECK(save_capture(std::string(shots) + "/export_cli_command.png", ui.host->width(), ui.host->height(), px).ok());
  }
  CHECK(test::file_bytes(file) == bytes);  // the bundled file is never written
}

TEST_CASE("copy CLI command: an edited map goes to a new file in the temporary folder, never over the scene") {
  const std::string file = kScenes + "demo.json";
  const std::string bytes = test::file_bytes(file);
  test::SandboxUi ui(plan::load_scene(file).value(), 3, file);
  io::Scene& scene = ui.sb().scene();
  scene.settings.smoother = "centripetal";
  scene.settings.insert_min_chord = 3.0;  // no CLI option sets it: the new file carries it
  const PlanView before = ui.sb().plan();
  REQUIRE(before.result.found);
  const Vec2 mid = before.result.points[before.result.points.size() / 2];
  scene.grid.set_blocked(static_cast<int>(mid.x), static_cast<int>(mid.y), true);  // a wall painted on the path
  ui.sb().map_changed();
  ui.sb().replan_now();
  REQUIRE(ui.sb().plan().result.found);
  const CliCommand cmd = ui.sb().inspector().cli_command(ui.sb());
  INFO(cmd.command);
  REQUIRE_FALSE(cmd.written.empty());
  CHECK(cmd.written != file);
  CHECK(cmd.command.rfind("pathlab-cli plan --scene " + cmd.written, 0) == 0);
  CHECK(cmd.note.find("new file") != std::string::npos);
  check_same_points(run_command(cmd.command), ui.sb().plan());
  // The same state again: the file written before is used again, not another one.
  const CliCommand again = ui.sb().inspector().cli_command(ui.sb());
  CHECK(again.command == cmd.command);
  CHECK(test::file_bytes(file) == bytes);
  std::filesystem::remove(cmd.written);
}

TEST_CASE("copy CLI command in the web page: the scene it reads is handed over as a download, named by its file name") {
  const std::string file = kScenes + "pinter_tank_turn.json";
  const std::string bytes = test::file_bytes(file);
  test::SandboxUi ui(plan::load_scene(file).value(), 3, file);
  std::vector<std::string> handed;
  std::string what, shared;
  ui.sb().set_file_handoff([&handed](const std::string& path) { handed.push_back(path); });
  ui.sb().set_text_sharer([&what, &shared](const std::string& kind, const std::string& text) {
    what = kind;
    shared = text;
    return std::string("in the page's box");
  });
  ui.sb().replan_now();
  click_copy_cli(ui);
  Inspector& in = ui.sb().inspector();
  const CliCommand& cmd = in.last_cli_command();
  INFO(cmd.command);
  // The bundled file is the page's, not the user's: a copy is written and handed over, even
  // with nothing edited, and the command names it as the download will be named.
  REQUIRE(handed.size() == 1);
  CHECK(handed[0] == cmd.written);
  const std::string name = std::filesystem::path(cmd.written).filename().string();
  CHECK(cmd.command == "pathlab-cli plan --scene " + name);
  CHECK(what == "CLI command");
  CHECK(shared == cmd.command);
  CHECK(in.message().rfind("in the page's box: the scene it reads was handed to the browser as a download, " + name, 0) == 0);
  // Run where the download went: the plan shown, bit for bit.
  check_same_points(run_command("pathlab-cli plan --scene " + cmd.written), ui.sb().plan());
  CHECK(test::file_bytes(file) == bytes);
  std::filesystem::remove(cmd.written);
}

TEST_CASE("copy CLI command: the units' run is pathlab-cli crowd --scene FILE") {
  const std::string file = kScenes + "crowds/doorway.json";
  test::SandboxUi ui(plan::load_scene(file).value(), 2, file);
  ui.sb().inspector().set_cli_units(true);
  const CliCommand cmd = ui.sb().inspector().cli_command(ui.sb());
  CHECK(cmd.command == "pathlab-cli crowd --scene " + file);
  CHECK(cmd.written.empty());
  const auto r = test::run_cli(cmd.command.substr(std::string("pathlab-cli ").size()) + " --max-time 1");
  INFO(r.err);
  CHECK(r.status == 0);
  // A scene without a file of its own: a new file holds the units.
  io::Scene units = test::small_scene("units");
  units.units.push_back(io::UnitData{"person", Pose{{2.5, 8.5}, 0.0}, std::nullopt});
  const CliCommand untitled = crowd_cli_command(units, "", false, std::filesystem::temp_directory_path().string());
  REQUIRE_FALSE(untitled.written.empty());
  CHECK(untitled.command == "pathlab-cli crowd --scene " + shell_word(untitled.written));
  CHECK(plan::load_scene(untitled.written).value().units.size() == 1);
  // Units that have run: the command stops at the same simulated time.
  const CliCommand ran = crowd_cli_command(units, "", false, std::filesystem::temp_directory_path().string(),
                                           untitled.written, 12.5);
  CHECK(ran.written == untitled.written);  // the same bytes: the file written before
  CHECK(ran.command == untitled.command + " --max-time 12.5");
  std::filesystem::remove(untitled.written);
  CHECK(shell_word("a b'c") == "'a b'\\''c'");
}

TEST_CASE("copy CLI command: every bundled scene, as opened and with its agent radius edited, plans in the CLI as in the sandbox") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kScenes))
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  const std::string tmp = std::filesystem::temp_directory_path().string();
  int compared = 0;
  for (const std::string& file : files) {
    CAPTURE(file);
    io::Scene scene = plan::load_scene(file).value();
    for (int edit = 0; edit < 2; ++edit) {
      if (edit == 1) scene.settings.agent_radius += 0.125;  // every planner takes it: an option
      const Grid grid = plan::scene_grid(scene);
      PlanPipeline pipeline;  // what the sandbox plans (its worker adds a time budget and a trace)
      const PlanView view = pipeline.plan(grid, scene.start, scene.goal, scene.settings, false);
      const CliCommand cmd = plan_cli_command(scene, grid, file, tmp);
      INFO(cmd.command);
      INFO(cmd.note);
      if (cmd.command.empty()) {  // a curve planner: the `curve` verb's, said so
        CHECK(plan::find_planner(scene.settings.planner)->family == plan::PlannerFamily::curve);
        CHECK(cmd.note.find("settings.planner") != std::string::npos);
        continue;
      }
      CHECK(cmd.written.empty());  // the bundled file plus options: nothing to write
      CHECK((edit == 1) == (cmd.command.find(" --agent-radius ") != std::string::npos));
      const auto j = run_command(cmd.command);
      REQUIRE(j.at("found").get<bool>() == view.result.found);
      if (view.result.found) check_same_points(j, view);
      ++compared;
    }
  }
  CHECK(compared >= 40);
}
