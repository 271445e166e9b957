// Issue 13, the scene side of crowds: the gallery's crowd presets run on the core Crowd, and
// the sandbox's door and truck tools edit, undo and save them.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "crowd_support.hpp"
#include "canvas/door_tools.hpp"
#include "sandbox_ui.hpp"
#include "document/gallery.hpp"
#include "pathlab/io/scene_file.hpp"

using namespace pathlab;

namespace {

const std::string kCrowdPresets = std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds";

test::CrowdScenario scenario_of(const io::Scene& s, double max_time) {
  test::CrowdScenario sc{s.name, s.grid, io::crowd_agents(s).value(), s.doors, s.moving_obstacles, max_time};
  return sc;
}

}  // namespace

TEST_CASE("crowd presets: the gallery lists the five, and each runs on the core Crowd") {
  const auto gallery = sandbox::scan_gallery(std::string(PATHLAB_ASSETS_DIR) + "/scenes");
  std::vector<std::string> titles;
  for (const auto& e : gallery)
    if (e.category == "crowds") titles.push_back(e.title);
  CHECK(titles == std::vector<std::string>{"circle swap", "doorway", "corridor head-on", "door closing", "garbage truck"});

  for (const char* file : {"circle-swap.json", "doorway.json", "corridor-head-on.json", "door-closing.json", "garbage-truck.json"}) {
    CAPTURE(file);
    auto scene = io::load_scene(kCrowdPresets + "/" + file);
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    REQUIRE(scene->units.size() >= 2);
    for (const auto& u : scene->units) CHECK(u.goal.has_value());  // each unit has its own goal
    REQUIRE(io::build_crowd(*scene).ok());
    const test::CrowdScenario sc = scenario_of(*scene, 90.0);
    const test::CrowdOutcome a = test::run_crowd(sc);
    CHECK_MESSAGE(a.all_arrived, file << ": arrived " << a.metrics.arrived << " of " << sc.agents.size() << " by "
                                      << a.time << " s");
    CHECK(a.worst_ratio >= 0.95);  // no pair closer than 0.95 x the sum of their radii, any step
    CHECK(a.worst_wall == 0.0);
    CHECK(a.worst_mover >= -1e-9);
    const test::CrowdOutcome b = test::run_crowd(sc, false);
    CHECK(a.bytes == b.bytes);  // deterministic: the same bytes twice
    // Nothing that wants to move stays within 0.5 cells of one spot for more than 10 s, over a
    // whole minute (after everyone has arrived too: a truck may still be driving).
    Crowd c = io::build_crowd(*scene).value();
    while (c.time() < 60.0) c.step();
    CHECK(c.run_metrics().longest_lock <= 10.0);
    MESSAGE(std::string(file) << ": longest lock " << c.run_metrics().longest_lock << " s");
  }
}

TEST_CASE("crowd presets: the door closes and the truck drives, as the scenes say") {
  auto door = io::load_scene(kCrowdPresets + "/door-closing.json").value();
  REQUIRE(door.doors.size() == 1);
  Crowd c = io::build_crowd(door).value();
  CHECK(c.door_open(0));
  while (c.time() < 2.0) c.step();
  CHECK_FALSE(c.door_open(0));  // closed at 1.5 s, in front of the units
  auto truck = io::load_scene(kCrowdPresets + "/garbage-truck.json").value();
  REQUIRE(truck.moving_obstacles.size() == 1);
  Crowd t = io::build_crowd(truck).value();
  const Vec2 from = t.moving_obstacle(0).pose.pos;
  while (t.time() < 2.0) t.step();
  CHECK(glm::length(t.moving_obstacle(0).pose.pos - from) > 1.0);
}

TEST_CASE("build_crowd: errors name the scene entry") {
  io::Scene s;
  s.grid = Grid::create(10, 10).value();
  s.goal = Pose{Vec2(8.5, 8.5), 0.0};
  s.units = {io::UnitData{"person", Pose{Vec2(1.5, 1.5), 0.0}, std::nullopt},
             io::UnitData{"dragon", Pose{Vec2(3.5, 1.5), 0.0}, std::nullopt}};
  auto bad = io::build_crowd(s);
  REQUIRE_FALSE(bad.ok());
  CHECK_MESSAGE(bad.error().message.find("units[1]") != std::string::npos, bad.error().message);
  s.units.pop_back();
  s.units.push_back(io::UnitData{"person", Pose{Vec2(1.6, 1.5), 0.0}, std::nullopt});  // on top of unit 0
  auto overlap = io::build_crowd(s);
  REQUIRE_FALSE(overlap.ok());
  CHECK_MESSAGE(overlap.error().message.find("units[1]") != std::string::npos, overlap.error().message);
  // No goal of its own: the scene's goal.
  s.units.pop_back();
  auto agents = io::crowd_agents(s).value();
  REQUIRE(agents.size() == 1);
  CHECK(agents[0].goal == Vec2(8.5, 8.5));
}

namespace {

io::Scene open_room(int w, int h) {
  io::Scene s;
  s.name = "room";
  s.grid = Grid::create(w, h).value();
  s.start = Pose{Vec2(1.5, 1.5), 0.0};
  s.goal = Pose{Vec2(w - 1.5, h - 1.5), 0.0};
  return s;
}

/// A drag on the canvas from one world point to another, the left button held.
void drag(test::SandboxUi& ui, Vec2 a, Vec2 b) {
  ui.mouse_at(ui.sb().world_to_screen(a), false);
  ui.mouse_at(ui.sb().world_to_screen(a), true);
  ui.mouse_at(ui.sb().world_to_screen((a + b) * 0.5), true);
  ui.mouse_at(ui.sb().world_to_screen(b), true);
  ui.mouse_at(ui.sb().world_to_screen(b), false);
}

}  // namespace

TEST_CASE("door tool: drag a door, select it, edit it, undo, redo, delete") {
  test::SandboxUi ui(open_room(30, 20), 2);
  auto& sb = ui.sb();
  ui.click_widget("door tool");
  CHECK(sb.tool() == sandbox::Tool::door);
  drag(ui, Vec2(10.5, 3.5), Vec2(11.5, 8.5));
  ui.idle(1);
  REQUIRE(sb.scene().doors.size() == 1);
  CHECK(sb.scene().doors[0].lo == Cell{10, 3});
  CHECK(sb.scene().doors[0].hi == Cell{11, 8});
  CHECK(sb.scene().doors[0].open_at_start);
  CHECK(sb.dynamic_edit().door == 0);
  CHECK(sb.unsaved());
  // Panel fields: closed at the start, toggling at 2 and 5.5 s.
  ui.click_widget("door open");
  ui.idle(1);
  CHECK_FALSE(sb.scene().doors[0].open_at_start);
  std::vector<double> times;
  CHECK(sandbox::parse_toggle_times("2, 5.5", times).empty());
  sb.scene().doors[0].toggle_times = times;
  ui.idle(1);
  // Each is one undo step, in order.
  sb.undo();
  CHECK(sb.scene().doors[0].toggle_times.empty());
  sb.undo();
  CHECK(sb.scene().doors[0].open_at_start);
  sb.undo();
  CHECK(sb.scene().doors.empty());
  CHECK(sb.dynamic_edit().door == -1);  // the selection went with the door
  sb.redo();
  REQUIRE(sb.scene().doors.size() == 1);
  // A press on a door selects it and adds nothing; Delete removes it.
  sb.dynamic_edit().door = -1;
  ui.click(sb.world_to_screen(Vec2(11.5, 5.5)));
  ui.idle(1);
  CHECK(sb.scene().doors.size() == 1);
  CHECK(sb.dynamic_edit().door == 0);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Delete));
  ui.idle(1);
  CHECK(sb.scene().doors.empty());
  sb.undo();
  CHECK(sb.scene().doors.size() == 1);
}

TEST_CASE("truck tool: click a route, Enter ends it; panel fields; saved with the scene") {
  test::ScratchDir tmp("truck_tool");
  test::SandboxUi ui(open_room(30, 20), 2);
  auto& sb = ui.sb();
  ui.click_widget("truck tool");
  CHECK(sb.tool() == sandbox::Tool::truck);
  for (const Vec2 p : {Vec2(3.5, 10.5), Vec2(25.5, 10.5), Vec2(25.5, 17.5)}) {
    ui.click(sb.world_to_screen(p));
    ui.idle(1);  // no double-click
    ui.idle(30);
  }
  CHECK(sb.dynamic_edit().draft.size() == 3);
  CHECK(sb.scene().moving_obstacles.empty());
  ui.key(SDL_SCANCODE_RETURN);
  ui.idle(1);
  REQUIRE(sb.scene().moving_obstacles.size() == 1);
  const MovingObstacleDef& m = sb.scene().moving_obstacles[0];
  REQUIRE(m.route.size() == 3);
  CHECK(glm::length(m.route[0] - Vec2(3.5, 10.5)) < 0.2);
  CHECK(glm::length(m.route[2] - Vec2(25.5, 17.5)) < 0.2);
  CHECK(sb.dynamic_edit().truck == 0);
  CHECK(sb.dynamic_edit().draft.empty());
  ui.click_widget("truck loop");
  ui.idle(1);
  CHECK(sb.scene().moving_obstacles[0].loop);
  // Clicking the truck's box with no route started selects it, and adds no point.
  sb.dynamic_edit().truck = -1;
  ui.click(sb.world_to_screen(Vec2(3.5, 10.5)));
  ui.idle(1);
  CHECK(sb.dynamic_edit().truck == 0);
  CHECK(sb.dynamic_edit().draft.empty());
  // One point is not a route.
  ui.click(sb.world_to_screen(Vec2(5.5, 3.5)));
  ui.idle(1);
  ui.key(SDL_SCANCODE_RETURN);
  CHECK(sb.scene().moving_obstacles.size() == 1);
  CHECK_FALSE(sb.dynamic_edit().error.empty());
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Escape));
  CHECK(sb.dynamic_edit().draft.empty());
  // Saved (Ctrl+S path) and read back the same; saving again gives the same bytes.
  REQUIRE(sb.save(tmp / "trucks.json"));
  CHECK_FALSE(sb.unsaved());
  auto back = io::load_scene(tmp / "trucks.json");
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  REQUIRE(back->moving_obstacles.size() == 1);
  CHECK(back->moving_obstacles[0].route == sb.scene().moving_obstacles[0].route);
  CHECK(back->moving_obstacles[0].loop);
  CHECK(io::scene_to_json(*back) == test::file_bytes(tmp / "trucks.json"));
  CHECK(io::build_crowd(*back).ok());  // what the tools make, the core accepts
}

TEST_CASE("truck tool: a double-click ends the route") {
  test::SandboxUi ui(open_room(30, 20), 2);
  auto& sb = ui.sb();
  sb.set_tool(sandbox::Tool::truck);
  ui.click(sb.world_to_screen(Vec2(3.5, 4.5)));
  ui.idle(30);
  ui.click(sb.world_to_screen(Vec2(20.5, 4.5)));
  ui.click(sb.world_to_screen(Vec2(20.5, 4.5)));  // the second click of a double-click
  ui.idle(1);
  REQUIRE(sb.scene().moving_obstacles.size() == 1);
  CHECK(sb.scene().moving_obstacles[0].route.size() == 2);
}

TEST_CASE("toggle times: parsed, increasing, finite, capped") {
  std::vector<double> t{9.0};
  CHECK(sandbox::parse_toggle_times("", t).empty());
  CHECK(t.empty());
  CHECK(sandbox::parse_toggle_times(" 1, 2.5;4 ", t).empty());
  CHECK(t == std::vector<double>{1.0, 2.5, 4.0});
  CHECK_FALSE(sandbox::parse_toggle_times("3, 2", t).empty());
  CHECK_FALSE(sandbox::parse_toggle_times("-1", t).empty());
  CHECK_FALSE(sandbox::parse_toggle_times("1, x", t).empty());
  CHECK_FALSE(sandbox::parse_toggle_times("inf", t).empty());
  CHECK(t == std::vector<double>{1.0, 2.5, 4.0});  // unchanged on error
  std::string many;
  for (int i = 0; i < 65; ++i) many += std::to_string(i) + ",";
  CHECK_FALSE(sandbox::parse_toggle_times(many, t).empty());
}

TEST_CASE("the start -> goal plan treats a shut door as a wall, and re-plans when it opens") {
  // A wall across the room at row 10 with two gaps: a door at x = 4 on the straight line from
  // start to goal, and an open gap at x = 25 far to the right.
  io::Scene s = open_room(30, 20);
  s.start = Pose{Vec2(4.5, 2.5), 0.0};
  s.goal = Pose{Vec2(4.5, 17.5), 0.0};
  for (int x = 0; x < 30; ++x)
    if (x != 4 && x != 25) s.grid.set_blocked(x, 10, true);
  DoorDef door;
  door.lo = door.hi = Cell{4, 10};
  door.open_at_start = false;
  s.doors.push_back(door);
  // Paused before the first frame: "open at start" is the door's state only until the crowd's
  // clock starts (then the live crowd's door decides), and a frame longer than one fixed step,
  // as on a loaded machine, would start it.
  test::SandboxUi ui(s, 0);
  auto& sb = ui.sb();
  sb.units().set_playing(false);
  ui.idle(2);
  const auto has_note = [&] {
    for (const std::string& n : sb.plan().result.notes)
      if (n.find("shut door(s) count as walls") != std::string::npos) return true;
    return false;
  };
  REQUIRE(sb.plan().result.found);
  CHECK(sb.plan().result.length > 30.0);  // round through the gap at x = 25
  CHECK(has_note());
  // The door opens (the panel's "open at start"): the next frame plans straight through it.
  sb.scene().doors[0].open_at_start = true;
  ui.idle(2);
  REQUIRE(sb.plan().result.found);
  CHECK(sb.plan().result.length == doctest::Approx(15.0).epsilon(1e-9));
  CHECK_FALSE(has_note());
  // The scene's map itself never holds the door as a wall.
  CHECK(sb.scene().grid.is_free(4, 10));
  // A goal in the doorway of a shut door: the error says why the free-looking cell is a wall.
  sb.scene().doors[0].open_at_start = false;
  sb.scene().goal.pos = Vec2(4.5, 10.5);
  ui.idle(2);
  CHECK_FALSE(sb.plan().result.found);
  CHECK_MESSAGE(sb.plan().error.find("shut door(s) count as walls") != std::string::npos, sb.plan().error);
}

namespace {

/// Clicks into a text field the sandbox remembered, selects all, types `text` and presses Enter.
void type_into_field(test::SandboxUi& ui, const std::string& widget, const char* text) {
  const auto [lo, hi] = ui.sb().widget_rect(widget);
  REQUIRE_MESSAGE(hi.x > lo.x, "control not on screen: " << widget);
  const ImVec2 at((lo.x + hi.x) / 2, (lo.y + hi.y) / 2);
  auto frame = [&](bool down, bool ctrl, int key, const char* chars) {
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = at;
      for (bool& b : io.MouseDown) b = false;
      io.MouseDown[0] = down;
      io.KeyCtrl = ctrl;
      for (bool& k : io.KeysDown) k = false;  // keys held last frame are released
      if (key >= 0) io.KeysDown[key] = true;
      if (chars) io.AddInputCharactersUTF8(chars);
    });
  };
  frame(false, false, -1, nullptr);
  frame(true, false, -1, nullptr);
  frame(false, false, -1, nullptr);
  frame(false, true, ImGui::GetKeyIndex(ImGuiKey_A), nullptr);  // select all
  frame(false, false, -1, text);
  frame(false, false, ImGui::GetKeyIndex(ImGuiKey_Enter), nullptr);
  frame(false, false, -1, nullptr);
  ui.idle(1);
}

}  // namespace

TEST_CASE("door panel: the clock since Reset is shown, a toggle time already past is refused and the scene is unchanged") {
  io::Scene scene = open_room(30, 20);
  scene.doors.push_back(DoorDef{Cell{10, 3}, Cell{11, 8}, true, {8.0}});
  test::SandboxUi ui(scene, 2);
  auto& sb = ui.sb();
  sb.units().set_playing(false);
  sb.dynamic_edit().door = 0;
  ui.idle(1);
  const auto [clo, chi] = sb.widget_rect("door clock");
  CHECK(chi.x > clo.x);  // "t = ... s (since Reset)" is drawn under the schedule
  for (int s = 0; s < 360; ++s) sb.units().step(sb.scene());  // 6 s of the crowd's clock
  REQUIRE(sb.units().time() >= 6.0);  // (a frame before the pause may have run one step more)
  REQUIRE(sb.units().time() < 6.05);
  const bool unsaved = sb.unsaved();
  type_into_field(ui, "door toggles", "2, 8");
  CHECK(sb.scene().doors[0].toggle_times == std::vector<double>{8.0});  // unchanged
  CHECK(sb.unsaved() == unsaved);
  CHECK_MESSAGE(sb.dynamic_edit().error.find("toggle time 2 s is already past: t = 6.0 s since Reset") == 0,
                sb.dynamic_edit().error);
  // A time still ahead is taken, and the message goes.
  ImGui::GetIO().MouseClickedTime[0] = -1e9;  // not a double click on the field
  type_into_field(ui, "door toggles", "8, 9.5");
  CHECK(sb.scene().doors[0].toggle_times == std::vector<double>{8.0, 9.5});
  CHECK_MESSAGE(sb.dynamic_edit().error.empty(), sb.dynamic_edit().error);
  // The times the door already had may stay, though past: only an added one is refused.
  CHECK(sandbox::check_added_toggle_times({1.0, 8.0}, {1.0, 8.0, 12.0}, 6.0).empty());
  CHECK_FALSE(sandbox::check_added_toggle_times({1.0, 8.0}, {1.0, 5.0, 8.0}, 6.0).empty());
}

TEST_CASE("door panel: a door told to close with a unit in it is 'closing when clear' in the panel and on the map") {
  io::Scene scene = open_room(30, 20);
  scene.doors.push_back(DoorDef{Cell{10, 3}, Cell{11, 8}, true, {}});
  test::SandboxUi ui(scene, 2);
  auto& sb = ui.sb();
  sb.units().set_playing(false);
  REQUIRE(sb.units().spawn(sb.scene(), "person", Pose{Vec2(10.9, 5.5), 0.0}, Pose{Vec2(10.9, 5.5), 0.0}).empty());
  sb.units().step(sb.scene());
  sb.units().toggle_door(0);  // a click: close, with the unit standing in it
  sb.units().step(sb.scene());
  REQUIRE(sb.units().crowd().door_state(0) == DoorState::closing_when_clear);
  CHECK(sb.units().crowd().door_open(0));
  sb.dynamic_edit().door = 0;
  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  // The door's border on the map is amber (255, 170, 0): some pixels of that colour are drawn.
  int amber = 0;
  for (size_t i = 0; i + 3 < px.size(); i += 4) amber += (px[i] > 240 && px[i + 1] > 150 && px[i + 1] < 190 && px[i + 2] < 30) ? 1 : 0;
  CHECK(amber > 20);
  if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
    (void)sandbox::save_capture(std::string(dir) + "/door_closing_when_clear.png", ui.host->width(), ui.host->height(), px);
  // A map edit rebuilds the crowd: the door is still closing, not open for good.
  sb.scene().grid.set_blocked(25, 15, true);
  sb.units().request_replan();
  sb.units().step(sb.scene());
  CHECK(sb.units().crowd().door_state(0) == DoorState::closing_when_clear);
  // A second click cancels the close.
  sb.units().toggle_door(0);
  sb.units().step(sb.scene());
  CHECK(sb.units().crowd().door_state(0) == DoorState::open);
}
