// The sandbox never loses the user's work (issue 14): imports and bundled presets are never
// written, Save never writes over a file that is not a pathlab scene, a failed open changes
// nothing, unsaved edits are asked about before they are replaced or closed, and crash copies
// are offered and never overwritten before the user has answered; every file written for the
// user (never a crash copy) is handed to Sandbox::set_file_handoff's taker, which the web page
// turns into a download (issue 29). Every file lives in a
// scratch folder; the bundled assets are copied there first.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "document/gallery.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/io/map_files.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;
using test::file_bytes;
using test::SandboxUi;
using test::ScratchDir;
using test::small_scene;
namespace fs = std::filesystem;

namespace {

/// Paints one wall cell through the canvas, as a user would (an unsaved edit).
void paint_a_wall(SandboxUi& ui, Vec2 at) {
  ui.sb().set_tool(Tool::paint);
  ui.click(ui.sb().world_to_screen(at));
}

/// A copy of the bundled assets' scenes in the scratch folder, used as the assets folder.
struct ScratchAssets {
  std::string dir;
  explicit ScratchAssets(const ScratchDir& s) : dir(s / "assets") {
    fs::create_directories(dir + "/scenes");
    fs::copy_file(std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json", dir + "/scenes/demo.json");
    fs::copy_file(std::string(PATHLAB_ASSETS_DIR) + "/maps/arena.map", dir + "/arena.map");
    set_assets_dir(dir);
  }
  ~ScratchAssets() { set_assets_dir(PATHLAB_ASSETS_DIR); }
};

/// small_scene(name) with a person spawned at each of `spots`.
io::Scene scene_with_persons(const std::string& name, std::initializer_list<Vec2> spots) {
  io::Scene scene = small_scene(name);
  for (Vec2 at : spots) {
    io::UnitData person;
    person.pose = Pose{at, 0.0};
    scene.units.push_back(person);
  }
  return scene;
}

/// A session on the user's file `mine` (holding `scene`) whose units walk off their spawn spots,
/// then walls painted over the spots (5.5, 5.5) and (6.5, 5.5), its unsaved work autosaved in
/// tmp's state folder; the window then goes away.
void leave_work_with_spots_walled(const ScratchDir& tmp, const io::Scene& scene, const std::string& mine) {
  SandboxUi ui(scene, 2, mine);
  ui.sb().set_state_dir(tmp / "state");
  ui.idle(30);
  paint_a_wall(ui, Vec2(5.5, 5.5));
  paint_a_wall(ui, Vec2(6.5, 5.5));
  REQUIRE(ui.sb().autosave_now());
}

/// The next start: opens `mine` and presses Restore on the offer of the unsaved work.
void open_and_restore(SandboxUi& ui, const ScratchDir& tmp, const std::string& mine) {
  ui.sb().set_state_dir(tmp / "state");
  REQUIRE(ui.sb().open(mine));
  REQUIRE_FALSE(ui.sb().restore_offer().empty());
  ui.idle(2);
  ui.click_widget("modal:restore");
  ui.idle(1);
}

}  // namespace

TEST_CASE("files: importing a .map and pressing Ctrl+S writes a new scene; the .map stays byte-identical") {
  ScratchDir tmp("import");
  const std::string map = tmp / "arena.map";
  fs::copy_file(std::string(PATHLAB_ASSETS_DIR) + "/maps/arena.map", map);
  const std::string before = file_bytes(map);
  SandboxUi ui(small_scene("start"), 2);
  REQUIRE(ui.sb().open(map));
  CHECK(ui.sb().document().origin() == Origin::import);
  paint_a_wall(ui, Vec2(10.5, 10.5));
  ui.key(SDL_SCANCODE_S, true);
  CHECK(file_bytes(map) == before);
  CHECK(is_pathlab_scene_file(tmp / "arena.json"));
  CHECK(ui.sb().document().save_path() == tmp / "arena.json");
  CHECK_FALSE(ui.sb().unsaved());
  CHECK_FALSE(ui.sb().status_is_error());
  // The scene reads back as the imported map with the edit.
  auto back = io::load_scene(tmp / "arena.json");
  REQUIRE(back.ok());
  CHECK(back->grid.width() == ui.sb().scene().grid.width());
  // A second Ctrl+S writes the same scene file again, never the map, never a third file.
  paint_a_wall(ui, Vec2(12.5, 10.5));
  ui.key(SDL_SCANCODE_S, true);
  CHECK(file_bytes(map) == before);
  CHECK_FALSE(fs::exists(tmp / "arena-2.json"));
}

TEST_CASE("files: an import whose derived name is taken gets a free name instead") {
  ScratchDir tmp("taken");
  const std::string map = tmp / "arena.map";
  fs::copy_file(std::string(PATHLAB_ASSETS_DIR) + "/maps/arena.map", map);
  io::write_file_atomic(tmp / "arena.json", "my notes, not a scene");
  SandboxUi ui(small_scene("start"), 2);
  REQUIRE(ui.sb().open(map));
  REQUIRE(ui.sb().save());
  CHECK(file_bytes(tmp / "arena.json") == "my notes, not a scene");
  CHECK(is_pathlab_scene_file(tmp / "arena-2.json"));
}

TEST_CASE("files: Save as never writes over a file that is not a pathlab scene") {
  ScratchDir tmp("saveas");
  const std::string notes = tmp / "notes.json";
  io::write_file_atomic(notes, "{\"not\": \"a scene\"}");
  SandboxUi ui(small_scene("mine"), 2);
  CHECK_FALSE(ui.sb().save(notes));
  CHECK(ui.sb().status_is_error());
  CHECK(ui.sb().status().find("not a pathlab scene") != std::string::npos);
  CHECK(file_bytes(notes) == "{\"not\": \"a scene\"}");
  // A map name is refused too, whether or not the file exists.
  CHECK_FALSE(ui.sb().save(tmp / "new.map"));
  CHECK_FALSE(fs::exists(tmp / "new.map"));
  // An existing pathlab scene may be replaced (the user chose the name).
  REQUIRE(ui.sb().save(tmp / "a.json"));
  REQUIRE(ui.sb().save(tmp / "a.json"));
}

TEST_CASE("files: a failed open changes neither the scene nor its save path") {
  ScratchDir tmp("failedopen");
  const std::string mine = tmp / "mine.json";
  REQUIRE(io::save_scene(small_scene("mine"), mine).ok());
  SandboxUi ui(small_scene("mine"), 2, mine);
  io::write_file_atomic(tmp / "broken.json", "{ this is not json");
  io::write_file_atomic(tmp / "broken.map", "type octile\nheight x\n");
  for (const std::string& bad : {tmp / "missing.json", tmp / "broken.json", tmp / "broken.map"}) {
    const std::string bytes = file_bytes(bad);
    CHECK_FALSE(ui.sb().open(bad));
    CHECK(ui.sb().status_is_error());
    CHECK(ui.sb().document().save_path() == mine);
    CHECK(ui.sb().scene().name == "mine");
    paint_a_wall(ui, Vec2(5.5, 5.5));
    ui.key(SDL_SCANCODE_S, true);
    CHECK(file_bytes(bad) == bytes);  // missing stays missing ("" both times)
    CHECK(fs::exists(mine));
  }
  CHECK_FALSE(fs::exists(tmp / "missing.json"));
  auto back = io::load_scene(mine);
  REQUIRE(back.ok());
  CHECK(back->grid.blocked_count() == 1);
}

TEST_CASE("files: a bundled preset is never written; Save makes a copy in the work folder") {
  ScratchDir tmp("bundled");
  ScratchAssets assets(tmp);
  fs::create_directories(tmp / "work");
  const std::string demo = assets.dir + "/scenes/demo.json";
  const std::string before = file_bytes(demo);
  SandboxUi ui(small_scene("start"), 2);
  ui.sb().set_work_dir(tmp / "work");
  REQUIRE(ui.sb().open(demo));
  CHECK(ui.sb().document().origin() == Origin::bundled);
  paint_a_wall(ui, Vec2(30.5, 30.5));
  ui.key(SDL_SCANCODE_S, true);
  CHECK(file_bytes(demo) == before);
  CHECK(is_pathlab_scene_file(tmp / "work/demo.json"));
  // Save as into the assets folder is refused as well.
  CHECK_FALSE(ui.sb().save(assets.dir + "/scenes/other.json"));
  CHECK_FALSE(fs::exists(assets.dir + "/scenes/other.json"));
  CHECK_FALSE(ui.sb().save(assets.dir + "/scenes/../scenes/demo.json"));
  CHECK(file_bytes(demo) == before);
}

TEST_CASE("files: opening another file with unsaved edits asks; cancel keeps, discard opens") {
  ScratchDir tmp("ask");
  const std::string other = tmp / "other.json";
  REQUIRE(io::save_scene(small_scene("other"), other).ok());
  SandboxUi ui(small_scene("mine"), 2);
  paint_a_wall(ui, Vec2(5.5, 5.5));
  REQUIRE(ui.sb().unsaved());
  ui.sb().request_open(other);
  ui.idle(2);
  CHECK(ui.sb().scene().name == "mine");
  ui.click_widget("modal:cancel");
  ui.idle(1);
  CHECK(ui.sb().scene().name == "mine");
  CHECK(ui.sb().pending().kind == PendingAction::Kind::none);
  CHECK(ui.sb().scene().grid.blocked_count() == 1);
  ui.sb().request_open(other);
  ui.idle(2);
  ui.click_widget("modal:discard");
  ui.idle(1);
  CHECK(ui.sb().scene().name == "other");
  CHECK(ui.sb().document().save_path() == other);
}

TEST_CASE("files: a gallery preset over unsaved edits asks, and Save there keeps the edits") {
  ScratchDir tmp("preset");
  ScratchAssets assets(tmp);
  const std::string mine = tmp / "mine.json";
  REQUIRE(io::save_scene(small_scene("mine"), mine).ok());
  SandboxUi ui(small_scene("mine"), 2, mine);
  paint_a_wall(ui, Vec2(5.5, 5.5));
  auto gallery = scan_gallery(assets.dir + "/scenes");
  REQUIRE(gallery.size() == 1);
  ui.sb().request_preset(gallery[0]);
  ui.idle(2);
  CHECK(ui.sb().scene().name == "mine");
  ui.click_widget("modal:save");
  ui.idle(1);
  CHECK(ui.sb().document().source() == gallery[0].path);
  CHECK(ui.sb().document().origin() == Origin::bundled);
  auto back = io::load_scene(mine);
  REQUIRE(back.ok());
  CHECK(back->grid.blocked_count() == 1);
}

TEST_CASE("files: closing the window with unsaved edits asks, and the autosave stays until the answer") {
  ScratchDir tmp("quit");
  const std::string mine = tmp / "mine.json";
  REQUIRE(io::save_scene(small_scene("mine"), mine).ok());
  SDL_Event quit{};
  quit.type = SDL_QUIT;
  {  // Nothing unsaved: closing quits at once.
    SandboxUi clean(small_scene("clean"), 2);
    SDL_PushEvent(&quit);
    CHECK_FALSE(clean.host->pump_events());
  }
  SandboxUi ui(small_scene("mine"), 2, mine);
  ui.sb().set_state_dir(tmp / "state");
  paint_a_wall(ui, Vec2(5.5, 5.5));
  REQUIRE(ui.sb().autosave_now());
  const std::string copy = ui.sb().autosave_path();
  REQUIRE(fs::exists(copy));
  SDL_PushEvent(&quit);
  CHECK(ui.host->pump_events());  // not yet: the dialog asks first
  ui.idle(2);
  CHECK(fs::exists(copy));
  ui.click_widget("modal:cancel");
  CHECK(ui.host->pump_events());
  CHECK(fs::exists(copy));
  SDL_PushEvent(&quit);
  ui.host->pump_events();
  ui.idle(2);
  ui.click_widget("modal:discard");
  CHECK_FALSE(ui.host->pump_events());
  ui.sb().finish();
  CHECK_FALSE(fs::exists(copy));
}

TEST_CASE("files: a crash copy newer than the scene is offered on open and never overwritten first") {
  ScratchDir tmp("restore");
  const std::string mine = tmp / "mine.json";
  REQUIRE(io::save_scene(small_scene("mine"), mine).ok());
  std::string copy;
  {  // A session edits the scene and "crashes" (its autosave is left behind).
    SandboxUi ui(small_scene("mine"), 2, mine);
    ui.sb().set_state_dir(tmp / "state");
    paint_a_wall(ui, Vec2(5.5, 5.5));
    paint_a_wall(ui, Vec2(6.5, 5.5));
    REQUIRE(ui.sb().autosave_now());
    copy = ui.sb().autosave_path();
  }
  REQUIRE(fs::exists(copy));
  const std::string crash_bytes = file_bytes(copy);
  // Reopening the scene file (not only a start without arguments) offers the copy.
  SandboxUi ui(small_scene("start"), 2);
  ui.sb().set_state_dir(tmp / "state");
  REQUIRE(ui.sb().open(mine));
  CHECK(ui.sb().restore_offer() == copy);
  // Edits before the answer never overwrite the copy.
  ui.sb().scene().grid.set_cost(1, 1, kBlocked);
  ui.sb().map_changed();
  CHECK_FALSE(ui.sb().autosave_now());
  ui.idle(2);
  CHECK(file_bytes(copy) == crash_bytes);
  ui.click_widget("modal:restore");
  ui.idle(1);
  CHECK(ui.sb().restore_offer().empty());
  CHECK(ui.sb().scene().grid.blocked_count() == 2);
  CHECK(ui.sb().unsaved());
  CHECK(ui.sb().document().save_path() == mine);  // the restored work still belongs to mine.json
  ui.key(SDL_SCANCODE_S, true);
  auto back = io::load_scene(mine);
  REQUIRE(back.ok());
  CHECK(back->grid.blocked_count() == 2);
  CHECK_FALSE(fs::exists(copy));  // saved: the copy has served its purpose
}

TEST_CASE("files: units stand still while the restore question is open, and run once it is answered") {
  ScratchDir tmp("restore_units");
  const std::string mine = tmp / "mine.json";
  const io::Scene with_unit = scene_with_persons("mine", {Vec2(2.5, 8.5)});
  REQUIRE(io::save_scene(with_unit, mine).ok());
  {  // A session edits the scene and leaves its crash copy behind.
    SandboxUi ui(with_unit, 2, mine);
    ui.sb().set_state_dir(tmp / "state");
    paint_a_wall(ui, Vec2(5.5, 5.5));
    REQUIRE(ui.sb().autosave_now());
  }
  SandboxUi ui(small_scene("start"), 2);
  ui.sb().set_state_dir(tmp / "state");
  REQUIRE(ui.sb().open(mine));
  REQUIRE_FALSE(ui.sb().restore_offer().empty());
  REQUIRE(ui.sb().units().count() == 1);
  ui.idle(30);
  CHECK(ui.sb().units().time() == 0.0);  // exactly: not one step was taken behind the dialog
  ui.click_widget("modal:drop");
  ui.idle(30);
  CHECK(ui.sb().restore_offer().empty());
  CHECK(ui.sb().units().time() > 0.0);
}

TEST_CASE("files: a restored scene that cannot place a unit says so beside \"restored\"") {
  // Found driving the sandbox: a wall painted over a unit's spawn spot, the window closed, the
  // work restored: the unit was dropped (its start is in a wall) and the status line said only
  // "restored unsaved work from ...".
  ScratchDir tmp("restore_unit_in_wall");
  const std::string mine = tmp / "mine.json";
  const io::Scene with_units = scene_with_persons("mine", {Vec2(2.5, 8.5), Vec2(5.5, 5.5), Vec2(6.5, 5.5)});
  REQUIRE(io::save_scene(with_units, mine).ok());
  leave_work_with_spots_walled(tmp, with_units, mine);
  SandboxUi ui(small_scene("start"), 2);
  open_and_restore(ui, tmp, mine);
  CHECK(ui.sb().scene().grid.blocked_count() == 2);
  CHECK(ui.sb().units().count() == 1);
  CHECK(ui.sb().status().find("restored unsaved work") != std::string::npos);
  CHECK_MESSAGE(ui.sb().status().find("inside a wall") != std::string::npos, ui.sb().status());
  CHECK_MESSAGE(ui.sb().status().find("and 1 more not placed") != std::string::npos, ui.sb().status());
  CHECK(ui.sb().status_is_error());
}

namespace {

/// Every field of every unit, in order (exactly: the file keeps the numbers it was given).
void check_same_units(const std::vector<io::UnitData>& got, const std::vector<io::UnitData>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i].preset == want[i].preset);
    CHECK(got[i].pose.pos == want[i].pose.pos);
    CHECK(got[i].pose.heading == want[i].pose.heading);
    REQUIRE(got[i].goal.has_value() == want[i].goal.has_value());
    if (want[i].goal) CHECK(got[i].goal->pos == want[i].goal->pos);
    if (want[i].goal) CHECK(got[i].goal->heading == want[i].goal->heading);
    CHECK(got[i].turning_radius == want[i].turning_radius);
  }
}

/// Three units, the first and the last on spots walled over later, each field set differently.
io::Scene scene_with_walled_units(const std::string& name) {
  io::Scene s = scene_with_persons(name, {Vec2(5.5, 5.5), Vec2(2.5, 8.5), Vec2(6.5, 5.5)});
  s.units[0].pose.heading = 1.25;
  s.units[0].goal = Pose{Vec2(20.5, 3.5), 0.5};
  s.units[2].preset = "car";
  s.units[2].turning_radius = 2.5;
  return s;
}

/// scene_with_walled_units with its first and last units' spawn cells already walls.
io::Scene scene_with_units_in_walls() {
  io::Scene s = scene_with_walled_units("walled");
  s.grid.set_blocked(5, 5, true);
  s.grid.set_blocked(6, 5, true);
  return s;
}

}  // namespace

TEST_CASE("files: units a restored scene cannot place are kept: Save writes every unit back, in its place") {
  // Found driving the sandbox: 25 of 28 units came back after a restore, and the next Save (and
  // the autosave) held 25: the three whose spawn spots a wall covered were lost.
  ScratchDir tmp("keep_unplaced");
  const std::string mine = tmp / "mine.json";
  const io::Scene with_units = scene_with_walled_units("mine");
  REQUIRE(io::save_scene(with_units, mine).ok());
  leave_work_with_spots_walled(tmp, with_units, mine);
  SandboxUi ui(small_scene("start"), 2);
  open_and_restore(ui, tmp, mine);
  ui.idle(9);
  const UnitSwarm& u = ui.sb().units();
  CHECK(u.count() == 1);
  REQUIRE(u.unplaced().size() == 2);
  CHECK(u.unplaced()[0].index == 0);
  CHECK(u.unplaced()[1].index == 2);
  CHECK(u.unplaced()[1].reason.find("inside a wall") != std::string::npos);
  CHECK(u.list_index(0) == 1);  // the unit placed is units[1], as in the file
  check_same_units(u.spawn_list(), with_units.units);
  // Save to a new file (never over the user's) and the autosave: every unit, as it was.
  const std::string copy = tmp / "copy.json";
  REQUIRE(ui.sb().save(copy));
  auto back = io::load_scene(copy);
  REQUIRE(back.ok());
  check_same_units(back->units, with_units.units);
  ui.idle(3);
  CHECK_FALSE(ui.sb().unsaved());  // the units kept are no edit
  paint_a_wall(ui, Vec2(12.5, 12.5));  // unsaved work again
  REQUIRE(ui.sb().autosave_now());
  auto autosaved = io::load_scene(ui.sb().autosave_path());
  REQUIRE(autosaved.ok());
  check_same_units(autosaved->units, with_units.units);
  CHECK(io::load_scene(mine)->units.size() == 3);  // the user's file untouched
}

TEST_CASE("files: units not placed are placed again at Reset once the wall is erased, with no duplicate") {
  ScratchDir tmp("replace_unplaced");
  const io::Scene walled = scene_with_units_in_walls();
  SandboxUi ui(walled, 2);
  ui.idle(10);
  REQUIRE(ui.sb().units().count() == 1);
  REQUIRE(ui.sb().units().unplaced().size() == 2);
  ui.sb().set_tool(Tool::erase);
  ui.click(ui.sb().world_to_screen(Vec2(5.5, 5.5)));
  ui.click(ui.sb().world_to_screen(Vec2(6.5, 5.5)));
  ui.idle(2);
  REQUIRE(ui.sb().scene().grid.blocked_count() == 0);
  ui.sb().units().reset(ui.sb().scene());
  ui.idle(1);
  const UnitSwarm& u = ui.sb().units();
  CHECK(u.count() == 3);
  CHECK(u.unplaced().empty());
  check_same_units(u.spawn_list(), walled.units);  // in the file's order, each once
  CHECK(u.preset_of(2) == "car");
  ui.sb().units().reset(ui.sb().scene());  // a second Reset: still three
  CHECK(ui.sb().units().count() == 3);
  CHECK(ui.sb().units().spawn_list().size() == 3);
}

TEST_CASE("files: a unit not placed can be deleted from the Units panel, and Ctrl+Z brings it back") {
  const io::Scene walled = scene_with_units_in_walls();
  SandboxUi ui(walled, 2);
  ui.idle(3);
  REQUIRE(ui.sb().units().unplaced().size() == 2);
  for (int i = 0; i < 60; ++i) {  // the side panel scrolled down to the Units section's end
    const std::pair<ImVec2, ImVec2> r = ui.sb().widget_rect("remove not placed");
    const ImVec2 lo = r.first;
    if (r.second.x > lo.x && lo.y > 20.0f && r.second.y < 780.0f) break;
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = ImVec2(lo.x, 400.0f);
      io.MouseWheel = -1.0f;
    });
  }
  ui.click_widget("remove not placed");  // the first: units[0]
  ui.idle(2);
  const std::vector<io::UnitData> left = ui.sb().units().spawn_list();
  REQUIRE(left.size() == 2);
  CHECK(left[0].pose.pos == walled.units[1].pose.pos);
  CHECK(left[1].preset == "car");
  REQUIRE(ui.sb().units().unplaced().size() == 1);
  CHECK(ui.sb().units().unplaced()[0].index == 1);  // the list closed up
  CHECK(ui.sb().unsaved());
  ui.key(SDL_SCANCODE_Z, true);
  ui.idle(2);
  check_same_units(ui.sb().units().spawn_list(), walled.units);
}

TEST_CASE("files: each scene has its own autosave") {
  ScratchDir tmp("slots");
  const std::string a = tmp / "a.json", b = tmp / "b.json";
  REQUIRE(io::save_scene(small_scene("a"), a).ok());
  REQUIRE(io::save_scene(small_scene("b"), b).ok());
  SceneDocument da, db, untitled;
  da.reset(a, true);
  db.reset(b, true);
  CHECK(da.autosave_path(tmp / "state") != db.autosave_path(tmp / "state"));
  CHECK(untitled.autosave_path(tmp / "state") != da.autosave_path(tmp / "state"));
  CHECK(da.autosave_path("").empty());
}

TEST_CASE("files: discarding for a file that then fails to open keeps the edits and their crash copy") {
  ScratchDir tmp("discardfail");
  const std::string mine = tmp / "mine.json";
  REQUIRE(io::save_scene(small_scene("mine"), mine).ok());
  SandboxUi ui(small_scene("mine"), 2, mine);
  ui.sb().set_state_dir(tmp / "state");
  paint_a_wall(ui, Vec2(5.5, 5.5));
  REQUIRE(ui.sb().autosave_now());
  const std::string copy = ui.sb().autosave_path();
  ui.sb().request_open(tmp / "missing.json");
  ui.idle(2);
  ui.click_widget("modal:discard");
  ui.idle(1);
  CHECK(ui.sb().status_is_error());
  CHECK(ui.sb().unsaved());
  CHECK(ui.sb().scene().grid.blocked_count() == 1);
  CHECK(fs::exists(copy));
}

TEST_CASE("files: every file written for the user is handed on (the web page's downloads), never an autosave") {
  ScratchDir tmp("handoff");
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/doorway.json");
  REQUIRE(scene.ok());
  SandboxUi ui(*scene, 2);
  Sandbox& sb = ui.sb();
  std::vector<std::string> handed;
  sb.set_file_handoff([&](const std::string& path) { handed.push_back(path); });
  sb.set_work_dir(tmp.path.string());
  sb.set_state_dir(tmp / "state");
  paint_a_wall(ui, Vec2(1.5, 1.5));
  REQUIRE(sb.autosave_now());
  CHECK(handed.empty());  // the crash copy is the sandbox's own file
  REQUIRE(sb.save(tmp / "mine.json"));
  REQUIRE(handed == std::vector<std::string>{tmp / "mine.json"});
  // Save repro: the units' recorded run.
  UnitSwarm& u = sb.units();
  u.set_playing(false);
  u.reset(sb.scene());
  for (int s = 0; s < 5; ++s) u.step(sb.scene());
  const std::string repro = sb.save_repro();
  REQUIRE_MESSAGE(!repro.empty(), sb.status());
  REQUIRE(handed.size() == 2);
  CHECK(handed[1] == repro);
  // Save lesson.
  CHECK(sb.add_view_to_lesson("this").empty());
  const std::string lesson = sb.save_lesson_draft();
  REQUIRE_MESSAGE(!lesson.empty(), sb.status());
  REQUIRE(handed.size() == 3);
  CHECK(handed[2] == lesson);
  // Export's Save path CSV, through its button.
  sb.inspector().set_export_dir(tmp.path.string());
  sb.inspector().show_tab(Inspector::Tab::export_);
  ui.idle(2);
  const auto [lo, hi] = sb.inspector().widget("export_csv");
  REQUIRE(hi.x > lo.x);
  ui.click(ImVec2((lo.x + hi.x) / 2, (lo.y + hi.y) / 2));
  REQUIRE(handed.size() == 4);
  CHECK(handed[3] == tmp / "path.csv");
  // Nothing refused is handed on: a file that is not a scene is never written over.
  { std::ofstream(tmp / "notes.json") << "my notes"; }
  CHECK_FALSE(sb.save(tmp / "notes.json"));
  CHECK(handed.size() == 4);
}
