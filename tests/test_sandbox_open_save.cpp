// Opening starts clean and saving keeps what was typed (issue 23): an imported map starts with
// no doors, trucks or units and default poses whatever scene was open before; the recent-files
// list names each file once; a message about the previous scene goes when another is opened;
// a value typed into a slider (0.45) is saved as typed, not widened from a float.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "canvas/crowd_ui.hpp"
#include "inspect/inspector.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;
using test::file_bytes;
using test::SandboxUi;
using test::ScratchDir;
using test::small_scene;
namespace fs = std::filesystem;

namespace {

/// A scene as a user leaves it after working with doors, trucks and units: a door, a truck on
/// a route, a unit, moved poses and changed settings.
io::Scene worked_scene() {
  io::Scene s = small_scene("worked");
  s.start = Pose{Vec2(5.5, 3.5), 1.0};
  s.goal = Pose{Vec2(20.5, 12.5), -2.0};
  s.settings.planner = "theta";
  s.settings.agent_radius = 0.3;
  s.doors.push_back(DoorDef{Cell{14, 0}, Cell{14, 15}, false, {2.0}});
  MovingObstacleDef truck;
  truck.route = {Vec2(3.5, 13.5), Vec2(25.5, 13.5)};
  s.moving_obstacles.push_back(truck);
  io::UnitData unit;
  unit.preset = "person";
  unit.pose = Pose{Vec2(4.5, 4.5), 0.0};
  s.units.push_back(unit);
  s.sim_speed = 2.5;
  return s;
}

/// Scrolls the side panel with the mouse wheel until `widget` is inside the window.
void scroll_panel_to(SandboxUi& ui, const std::string& widget) {
  for (int i = 0; i < 40 && ui.sb().widget_rect(widget).second.y > static_cast<float>(ui.host->height()) - 20; ++i) {
    ui.host->frame([](ImGuiIO& io) {
      io.MousePos = ImVec2(io.DisplaySize.x - 40, io.DisplaySize.y * 0.5f);  // over the side panel
      for (bool& b : io.MouseDown) b = false;
      io.MouseWheel = -2.0f;
    });
  }
}

/// Ctrl+click on a slider the sandbox remembered (which turns it into a text field), type
/// `text`, press Enter: how a user types an exact value.
void type_into_slider(SandboxUi& ui, const std::string& widget, const char* text) {
  scroll_panel_to(ui, widget);
  const auto [lo, hi] = ui.sb().widget_rect(widget);
  REQUIRE_MESSAGE(hi.x > lo.x, "control not on screen: " << widget);
  const ImVec2 at((lo.x + hi.x) / 2, (lo.y + hi.y) / 2);
  auto frame = [&](bool ctrl, bool down, const char* chars, bool enter) {
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = at;
      for (bool& b : io.MouseDown) b = false;
      io.MouseDown[0] = down;
      io.KeyCtrl = ctrl;
      io.KeysDown[ImGui::GetKeyIndex(ImGuiKey_Enter)] = enter;
      if (chars) io.AddInputCharactersUTF8(chars);
    });
  };
  frame(true, false, nullptr, false);
  frame(true, true, nullptr, false);
  frame(false, false, nullptr, false);
  frame(false, false, text, false);
  frame(false, false, nullptr, true);
  frame(false, false, nullptr, false);
  ui.idle(1);
}

}  // namespace

TEST_CASE("open-save: an import after a scene with doors, trucks and units starts with none, and Ctrl+S writes none") {
  ScratchDir tmp("import_fresh");
  for (const char* map : {"den520d.map", "Berlin_0_256.map"}) {
    CAPTURE(map);
    const std::string path = tmp / map;
    fs::copy_file(std::string(PATHLAB_MOVINGAI_DIR) + "/" + map, path);
    SandboxUi ui(worked_scene(), 2);
    ui.sb().crowd_ui().overlays.trucks = true;  // routes on show, as in the report
    REQUIRE(ui.sb().scene().doors.size() == 1);
    REQUIRE(ui.sb().units().crowd().moving_obstacle_count() == 1);
    const float ui_scale = 1.5f;
    ui.sb().set_ui_scale(ui_scale);  // a UI preference: it stays
    REQUIRE(ui.sb().open(path));
    ui.idle(2);
    const io::Scene& s = ui.sb().scene();
    CHECK(s.doors.empty());
    CHECK(s.moving_obstacles.empty());
    CHECK(s.units.empty());
    CHECK(ui.sb().units().count() == 0);
    CHECK(ui.sb().units().crowd().moving_obstacle_count() == 0);  // no truck drives (or is drawn) on the new map
    CHECK(ui.sb().units().crowd().door_count() == 0);
    CHECK(s.settings == io::PlanSettingsData{});
    CHECK(s.sim_speed == io::Scene{}.sim_speed);
    io::Scene fresh;
    fresh.grid = s.grid;
    place_default_poses(fresh);
    CHECK(s.start.pos == fresh.start.pos);
    CHECK(s.goal.pos == fresh.goal.pos);
    CHECK(s.start.heading == 0.0);
    CHECK(ui.sb().ui_scale() == ui_scale);
    ui.key(SDL_SCANCODE_S, true);
    const std::string saved = tmp / (fs::path(map).stem().string() + ".json");
    REQUIRE(is_pathlab_scene_file(saved));
    auto back = io::load_scene(saved);
    REQUIRE(back.ok());
    CHECK(back->doors.empty());
    CHECK(back->moving_obstacles.empty());
    CHECK(back->units.empty());
    CHECK(back->grid.width() == s.grid.width());
  }
}

TEST_CASE("open-save: the recent-files list names each file once, however it was spelled") {
  ScratchDir tmp("recent");
  const std::string mine = tmp / "mylevel.json";
  REQUIRE(io::save_scene(small_scene("mine"), mine).ok());
  fs::create_directories(tmp / "sub");
  fs::create_symlink(mine, tmp / "link.json");
  SandboxUi ui(small_scene("start"), 2);
  ui.sb().set_state_dir(tmp / "state");
  const fs::path cwd = fs::current_path();
  fs::current_path(tmp.path);
  const bool opened = ui.sb().open("mylevel.json") && ui.sb().open("./mylevel.json") &&
                      ui.sb().open(tmp / "sub/../mylevel.json") && ui.sb().open(tmp / "link.json");
  fs::current_path(cwd);
  REQUIRE(opened);
  REQUIRE(ui.sb().recent_files().size() == 1);
  CHECK(ui.sb().recent_files()[0] == fs::canonical(mine).string());
  // A list written before (with a file twice) reads back with each file once.
  {
    std::ofstream out(tmp / "state/recent.txt");
    out << mine << "\n" << (tmp / "sub/../mylevel.json") << "\n" << (tmp / "./link.json") << "\n";
  }
  ui.sb().set_state_dir(tmp / "state");
  CHECK(ui.sb().recent_files().size() == 1);
}

TEST_CASE("open-save: a message about the previous scene goes when another scene is opened") {
  ScratchDir tmp("messages");
  const std::string a = tmp / "a.json", b = tmp / "b.json";
  REQUIRE(io::save_scene(small_scene("a"), a).ok());
  REQUIRE(io::save_scene(small_scene("b"), b).ok());
  SandboxUi ui(small_scene("a"), 2, a);
  CHECK_FALSE(ui.sb().save(tmp / "a.txt"));  // refused: an error toast about scene a
  REQUIRE(ui.sb().status_is_error());
  REQUIRE(ui.sb().status().find("a.txt") != std::string::npos);
  ui.sb().inspector().show_tab(Inspector::Tab::export_);
  ui.idle(2);
  const auto [lo, hi] = ui.sb().inspector().widget("copy_scene");  // writes no file
  REQUIRE(hi.x > lo.x);
  ui.click(ImVec2((lo.x + hi.x) / 2, (lo.y + hi.y) / 2));
  REQUIRE_FALSE(ui.sb().inspector().message().empty());  // "scene JSON copied": scene a's
  REQUIRE(ui.sb().open(b));
  ui.idle(2);
  CHECK_FALSE(ui.sb().status_is_error());
  CHECK(ui.sb().status().find("a.txt") == std::string::npos);
  CHECK(ui.sb().inspector().message().empty());
}

TEST_CASE("units panel: the crowd threads slider sets the threads the crowd steps on (2 at first)") {
  SandboxUi ui(small_scene("threads"), 2);
  CHECK(ui.sb().units().threads() == 2);
  type_into_slider(ui, "crowd threads", "1");
  CHECK(ui.sb().units().threads() == 1);
  CHECK(ui.sb().units().crowd().threads() == 1);
  type_into_slider(ui, "crowd threads", "4");
  CHECK(ui.sb().units().crowd().threads() == 4);
}

TEST_CASE("open-save: a value typed into a slider is saved as typed (0.45 stays 0.45)") {
  ScratchDir tmp("typed");
  const std::string path = tmp / "typed.json";
  io::Scene scene = small_scene("typed");
  MovingObstacleDef truck;
  truck.route = {Vec2(3.5, 13.5), Vec2(25.5, 13.5)};
  scene.moving_obstacles.push_back(truck);
  REQUIRE(io::save_scene(scene, path).ok());
  SandboxUi ui(scene, 2, path);
  type_into_slider(ui, "agent radius", "0.45");
  type_into_slider(ui, "turning radius", "2.35");
  type_into_slider(ui, "sim speed", "1.3");
  ui.sb().dynamic_edit().truck = 0;  // the truck selected, as a click on it does
  ui.idle(2);
  type_into_slider(ui, "truck speed", "2.3");
  // Exact: the point is that nothing widened or rounded the value on the way.
  CHECK(ui.sb().scene().settings.agent_radius == 0.45);
  CHECK(ui.sb().scene().settings.turning_radius == 2.35);
  CHECK(ui.sb().units().speed() == 1.3);
  CHECK(ui.sb().scene().moving_obstacles[0].speed == 2.3);
  ui.key(SDL_SCANCODE_S, true);
  REQUIRE_FALSE(ui.sb().unsaved());
  const std::string text = file_bytes(path);
  CHECK(text.find("\"agent_radius\": 0.45,") != std::string::npos);
  CHECK(text.find("\"turning_radius\": 2.35,") != std::string::npos);
  CHECK(text.find("\"speed\": 1.3") != std::string::npos);
  CHECK(text.find("\"speed\": 2.3") != std::string::npos);
  CHECK(text.find("0.4499999") == std::string::npos);
  auto back = io::load_scene(path);
  REQUIRE(back.ok());
  CHECK(back->settings.agent_radius == 0.45);
}

TEST_CASE("open-save: a terrain cost painted as 3.3 is saved as 3.3 (the grid's float, not its widening)") {
  io::Scene scene = small_scene("terrain");
  scene.grid.set_cost(4, 4, 3.3f);
  const std::string text = io::scene_to_json(scene);
  CHECK(text.find(" 3.3\n") != std::string::npos);
  CHECK(text.find("3.2999") == std::string::npos);
  auto back = io::parse_scene(text, "terrain.json", ".");
  REQUIRE(back.ok());
  CHECK(back->grid.cost(4, 4) == 3.3f);  // the same float back
  CHECK(io::scene_to_json(*back) == text);  // byte-stable
}
