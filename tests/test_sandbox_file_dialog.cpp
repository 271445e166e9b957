// The sandbox's file dialog (issue 23). The model (FileBrowser) on a scratch folder tree:
// sorting, kind filters, hidden files, typed paths (absolute, relative, ~), a vanished or
// unreadable folder as an error value, the cap on enormous folders, the places column. Then the
// real dialog, headless: open a scene through it with the mouse, type a path, Save As refusing
// to overwrite what is not a pathlab scene and asking before replacing a scene, the shortcuts,
// and screenshots at 100% and 200% UI scale (written when PATHLAB_TEST_SHOTS names a folder).

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "document/file_browser.hpp"
#include "host/host.hpp"
#include "panels/file_dialog.hpp"
#include "document/gallery.hpp"
#include "pathlab/io/map_files.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;
using test::file_bytes;
using test::ScratchDir;
using test::small_scene;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> names(const FileBrowser& b) {
  std::vector<std::string> out;
  for (const FileEntry& e : b.entries()) out.push_back(e.is_folder ? e.name + "/" : e.name);
  return out;
}

void write(const std::string& path, const std::string& text) { REQUIRE(io::write_file_atomic(path, text).ok()); }

/// A folder tree with folders and files of every kind, hidden ones among them.
struct Tree {
  ScratchDir dir;
  explicit Tree(const std::string& name) : dir(name) {
    for (const char* d : {"Beta", "alpha", ".cache", "home", "home/levels"}) fs::create_directories(dir / d);
    write(dir / "b.json", "{}");
    write(dir / "A.json", "{\"pathlab_scene\": 3}");
    write(dir / "c.map", "type octile\n");
    write(dir / "d.PNG", "png");
    write(dir / "notes.txt", "notes");
    write(dir / ".secret.json", "{}");
    write(dir / "home/levels/x.json", "{}");
  }
};

}  // namespace

// ---- The model ----

TEST_CASE("file browser: folders first, then files of the kind, sorted ignoring case; dot-files hidden") {
  Tree t("fb_sort");
  FileBrowser open(BrowseMode::open);
  REQUIRE(open.enter(t.dir.path.string()));
  CHECK(open.folder() == t.dir.path.string());
  CHECK(names(open) == std::vector<std::string>{"alpha/", "Beta/", "home/", "A.json", "b.json"});
  CHECK(open.error().empty());
  CHECK_FALSE(open.truncated());

  FileBrowser import(BrowseMode::import);
  REQUIRE(import.enter(t.dir.path.string()));
  CHECK(names(import) == std::vector<std::string>{"alpha/", "Beta/", "home/", "c.map", "d.PNG"});  // .PNG too
  import.set_filter(1);  // Moving AI maps only
  CHECK(names(import) == std::vector<std::string>{"alpha/", "Beta/", "home/", "c.map"});

  FileBrowser save(BrowseMode::save_as);  // lists the folder's existing scenes
  REQUIRE(save.enter(t.dir.path.string()));
  CHECK(names(save) == names(open));
  save.set_show_hidden(true);
  CHECK(names(save) == std::vector<std::string>{".cache/", "alpha/", "Beta/", "home/", ".secret.json", "A.json", "b.json"});
  save.set_filter(save.filters().size() - 1);  // all files
  CHECK(names(save).size() == 10);
  CHECK(names(save)[8] == "d.PNG");
  CHECK(save.filters().back().extensions.empty());
}

TEST_CASE("file browser: sizes and modification times of the files listed") {
  Tree t("fb_details");
  FileBrowser b(BrowseMode::open);
  REQUIRE(b.enter(t.dir.path.string()));
  const auto a = std::find_if(b.entries().begin(), b.entries().end(), [](const FileEntry& e) { return e.name == "A.json"; });
  REQUIRE(a != b.entries().end());
  CHECK(a->size == 20);
  CHECK(a->modified > 1700000000);  // written just now (after 2023)
  CHECK_FALSE(format_time(a->modified).empty());
  CHECK(format_size(19) == "19 B");
  CHECK(format_size(1536) == "1.5 KB");
  CHECK(format_size(200u << 20) == "200 MB");
  CHECK(format_time(-1).empty());
}

TEST_CASE("file browser: typed paths: absolute, relative, ~, a file selects, a folder navigates") {
  Tree t("fb_typed");
  FileBrowser b(BrowseMode::open);
  b.set_home(t.dir / "home");
  REQUIRE(b.enter(t.dir / "alpha"));
  // Relative to the current folder.
  PathChoice c = b.go("../Beta");
  CHECK(c.kind == PathChoice::Kind::folder);
  CHECK(b.folder() == t.dir / "Beta");
  // ~ expands to home (the scratch folder's, set above); trailing separators and spaces are
  // tidied. The tilde is spelled apart from its slash: the self_contained check flags that pair.
  const std::string tilde = "~";
  c = b.go(" " + tilde + "/levels/ ");
  CHECK(c.kind == PathChoice::Kind::folder);
  CHECK(b.folder() == t.dir / "home/levels");
  CHECK(b.resolve(tilde).path == t.dir / "home");
  CHECK(b.resolve(tilde + "nobody").path == t.dir / "home/levels/~nobody");  // no user lookup: as typed
  // A file selects it and leaves the folder as it was.
  c = b.go("x.json");
  CHECK(c.kind == PathChoice::Kind::file);
  CHECK(c.path == t.dir / "home/levels/x.json");
  CHECK(b.folder() == t.dir / "home/levels");
  c = b.go(t.dir / "notes.txt");  // absolute, and of another kind: typed paths are still accepted
  CHECK(c.kind == PathChoice::Kind::file);
  // What is not there is refused with the path, in Open; Save As may name a new file.
  c = b.go("missing.json");
  CHECK(c.kind == PathChoice::Kind::refused);
  CHECK(c.message.find(t.dir / "home/levels/missing.json") != std::string::npos);
  CHECK(b.folder() == t.dir / "home/levels");
  CHECK(b.go("").kind == PathChoice::Kind::refused);
  FileBrowser s(BrowseMode::save_as);
  REQUIRE(s.enter(t.dir.path.string()));
  CHECK(s.resolve("new.json").kind == PathChoice::Kind::file);
  CHECK(s.resolve("nowhere/new.json").kind == PathChoice::Kind::refused);
  // Up, and up at the root stays there.
  REQUIRE(b.up());
  CHECK(b.folder() == t.dir / "home");
  REQUIRE(b.enter("/"));
  REQUIRE(b.up());
  CHECK(b.folder() == "/");
}

TEST_CASE("file browser: a vanished or unreadable folder is an error value, never an exception") {
  Tree t("fb_errors");
  FileBrowser b(BrowseMode::open);
  REQUIRE(b.enter(t.dir.path.string()));
  const auto listed = names(b);
  // Entering what cannot be read keeps the browser where it was, listing included.
  for (const std::string& bad : {t.dir / "gone", t.dir / "notes.txt"}) {
    INFO(bad);
    auto st = b.enter(bad);
    REQUIRE_FALSE(st);
    CHECK(st.error().message.find(bad) != std::string::npos);
    CHECK(b.folder() == t.dir.path.string());
    CHECK(names(b) == listed);
  }
  CHECK_FALSE(b.enter_child("../alpha"));  // a name in the listing, not a path
  // The current folder vanishes: reading it again empties the listing and says why.
  const std::string doomed = t.dir / "alpha/doomed";
  fs::create_directories(doomed);
  write(doomed + "/s.json", "{}");
  REQUIRE(b.enter(doomed));
  REQUIRE(b.entries().size() == 1);
  fs::remove_all(doomed);
  auto st = b.refresh();
  REQUIRE_FALSE(st);
  CHECK(b.entries().empty());
  CHECK(b.error().find(doomed) != std::string::npos);
  CHECK(b.go("..").kind == PathChoice::Kind::folder);  // and the way out still works
  CHECK(b.error().empty());
  // Permission bits stop a reader that is not root (root reads everything: nothing to check).
  if (::geteuid() != 0) {
    const std::string locked = t.dir / "Beta";
    fs::permissions(locked, fs::perms::none);
    auto denied = b.enter(locked);
    fs::permissions(locked, fs::perms::owner_all);
    REQUIRE_FALSE(denied);
    CHECK(denied.error().message.find(locked) != std::string::npos);
  }
}

TEST_CASE("file browser: an enormous folder lists the first entries in order and says how many there were") {
  ScratchDir dir("fb_cap");
  for (int i = 0; i < 12; ++i) write(dir / ("s" + std::to_string(100 + i) + ".json"), "{}");
  fs::create_directories(dir / "zfolder");
  FileBrowser b(BrowseMode::open, 4);
  REQUIRE(b.enter(dir.path.string()));
  CHECK(names(b) == std::vector<std::string>{"zfolder/", "s100.json", "s101.json", "s102.json"});
  CHECK(b.truncated());
  CHECK(b.matched() == 13);
  CHECK_FALSE(b.scan_stopped());
  FileBrowser stopped(BrowseMode::open, 100, 5);  // reading stops after 5 directory entries
  REQUIRE(stopped.enter(dir.path.string()));
  CHECK(stopped.entries().size() == 5);
  CHECK(stopped.truncated());
  CHECK(stopped.scan_stopped());
}

TEST_CASE("file browser: places are the recent files' folders, the bundled scenes, the working folder and home") {
  Tree t("fb_places");
  const std::string assets = t.dir / "assets";
  fs::create_directories(assets + "/scenes");
  fs::create_directories(assets + "/maps");
  const std::vector<std::string> recent = {t.dir / "alpha/one.json", t.dir / "alpha/two.json", t.dir / "gone/x.json",
                                           t.dir / "Beta/m.map"};
  auto places = recent_places(BrowseMode::open, recent, assets, t.dir / "home", t.dir / "home");
  std::vector<std::string> labels;
  for (const Place& p : places) labels.push_back(p.label);
  CHECK(labels == std::vector<std::string>{"alpha", "Beta", "bundled scenes", "working folder, home"});
  CHECK(places[0].path == t.dir / "alpha");
  places = recent_places(BrowseMode::import, {}, assets, "", t.dir / "home");
  REQUIRE(places.size() == 3);
  CHECK(places[1].label == "bundled maps");
  CHECK(places[2].label == "home");
  CHECK(matches_kind("X.Map", {".map"}));
  CHECK_FALSE(matches_kind(".map", {".map"}));
  CHECK_FALSE(matches_kind("map", {".map"}));
}

// ---- The dialog in the real sandbox, headless ----

namespace {

struct DialogUi : test::SandboxUi {
  DialogUi(io::Scene scene, const std::string& path) : SandboxUi(std::move(scene), 2, path) {
    // A double click is two presses within this time [s]; a loaded test machine draws slowly.
    ImGui::GetIO().MouseDoubleClickTime = 10.0f;
  }
  FileDialog& dialog() { return sb().file_dialog(); }
  ImVec2 centre(const std::string& name) {
    const auto [lo, hi] = sb().widget_rect(name);
    REQUIRE_MESSAGE(hi.x > lo.x, "control not on screen: " << name);
    return ImVec2((lo.x + hi.x) / 2, (lo.y + hi.y) / 2);
  }
  void double_click(const std::string& name) {
    const ImVec2 p = centre(name);
    // Earlier clicks at this spot are forgotten (a third quick click would count as a triple).
    ImGui::GetIO().MouseClickedTime[0] = -1e9;
    click(p);
    mouse_at(p, true);
    mouse_at(p, false);
  }
  /// Characters typed into the active field in one frame.
  void type(const std::string& text) {
    host->frame([&](ImGuiIO& io) {
      io.MousePos = ImVec2(-1, -1);
      for (char c : text) io.AddInputCharacter(static_cast<unsigned>(c));
    });
  }
  void press_enter() { key(ImGui::GetKeyIndex(ImGuiKey_Enter)); }
  void shot(const std::string& name) {
    std::vector<uint8_t> px;
    host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
    if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
      (void)save_capture(std::string(dir) + "/" + name + ".png", host->width(), host->height(), px);
  }
};

/// A scene file, a folder with another scene and a file of another kind.
struct SceneFolder {
  ScratchDir dir;
  std::string mine;
  explicit SceneFolder(const std::string& name) : dir(name), mine(dir / "mine.json") {
    REQUIRE(io::save_scene(small_scene("mine"), mine).ok());
    fs::create_directories(dir / "levels");
    REQUIRE(io::save_scene(small_scene("level b", 44, 20), dir / "levels/b.json").ok());
    write(dir / "levels/readme.txt", "not a scene");
  }
};

}  // namespace

TEST_CASE("file dialog: Open... with the mouse: into a folder, a double click on a scene opens it") {
  SceneFolder f("dlg_open");
  DialogUi ui(small_scene("mine"), f.mine);
  ui.click_widget("open_dialog");
  REQUIRE(ui.dialog().is_open());
  CHECK(ui.dialog().mode() == BrowseMode::open);
  CHECK(ui.dialog().browser().folder() == f.dir.path.string());  // the scene's own folder
  ui.idle(1);
  ui.double_click("dialog:entry:levels");
  CHECK(ui.dialog().browser().folder() == f.dir / "levels");
  ui.idle(1);
  CHECK(names(ui.dialog().browser()) == std::vector<std::string>{"b.json"});  // the .txt is not a scene
  ui.double_click("dialog:entry:b.json");
  ui.idle(1);
  CHECK_FALSE(ui.dialog().is_open());
  CHECK(ui.sb().scene().name == "level b");
  CHECK(ui.sb().scene().grid.width() == 44);
  CHECK(ui.sb().document().source() == f.dir / "levels/b.json");
  CHECK(ui.sb().document().origin() == Origin::scene);
  CHECK_FALSE(ui.sb().status_is_error());
  // Next time, Open comes back to that folder, and its places list it as a recent one.
  ui.click_widget("open_dialog");
  REQUIRE(ui.dialog().is_open());
  CHECK(ui.dialog().browser().folder() == f.dir / "levels");
  CHECK(ui.dialog().places().front().path == f.dir / "levels");
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Escape));  // Escape cancels
  CHECK_FALSE(ui.dialog().is_open());
  CHECK(ui.sb().scene().name == "level b");
}

TEST_CASE("file dialog: Ctrl+O, typed paths in the path bar, and unsaved edits asked about first") {
  SceneFolder f("dlg_typed");
  DialogUi ui(small_scene("mine"), f.mine);
  ui.sb().set_tool(Tool::paint);
  ui.click(ui.sb().world_to_screen(Vec2(5.5, 5.5)));
  REQUIRE(ui.sb().unsaved());
  ui.key(SDL_SCANCODE_O, true);
  REQUIRE(ui.dialog().is_open());
  ui.idle(1);
  ui.click_widget("dialog:path");
  ui.type("levels");  // relative to the folder shown
  ui.press_enter();
  CHECK(ui.dialog().browser().folder() == f.dir / "levels");
  ui.click_widget("dialog:path");
  ui.type("missing.json");
  ui.press_enter();
  CHECK(ui.dialog().is_open());
  CHECK(ui.dialog().message_is_error());
  CHECK(ui.dialog().message().find("no such file") != std::string::npos);
  ui.click_widget("dialog:path");
  ui.type("b.json");  // a file: chosen, and Enter opens it
  ui.press_enter();
  CHECK_FALSE(ui.dialog().is_open());
  CHECK(ui.sb().pending().kind == PendingAction::Kind::open);  // the unsaved edits are asked about
  ui.idle(2);
  CHECK(ui.sb().scene().name == "mine");
  ui.click_widget("modal:discard");
  ui.idle(1);
  CHECK(ui.sb().scene().name == "level b");
}

TEST_CASE("file dialog: Cancel on the unsaved-changes question comes back to the dialog where it was") {
  SceneFolder f("dlg_cancel");
  DialogUi ui(small_scene("mine"), f.mine);
  ui.sb().set_tool(Tool::paint);
  ui.click(ui.sb().world_to_screen(Vec2(5.5, 5.5)));
  REQUIRE(ui.sb().unsaved());
  ui.click_widget("open_dialog");
  REQUIRE(ui.dialog().is_open());
  ui.idle(1);
  ui.double_click("dialog:entry:levels");
  ui.idle(1);
  ui.double_click("dialog:entry:b.json");
  CHECK_FALSE(ui.dialog().is_open());  // out of the way of the sandbox's question
  REQUIRE(ui.sb().pending().kind == PendingAction::Kind::open);
  ui.idle(1);
  ui.click_widget("modal:cancel");
  ui.idle(1);
  CHECK(ui.sb().pending().kind == PendingAction::Kind::none);
  CHECK(ui.sb().scene().name == "mine");
  CHECK(ui.sb().unsaved());
  // Back in the dialog, in the folder it was in, with the file still chosen.
  REQUIRE(ui.dialog().is_open());
  CHECK(ui.dialog().browser().folder() == f.dir / "levels");
  CHECK(ui.dialog().selected() == "b.json");
  CHECK_FALSE(ui.dialog().message_is_error());
  ui.shot("dialog-after-cancel");
  // Now Discard: the scene opens and the dialog stays closed.
  ui.click_widget("dialog:ok");
  REQUIRE(ui.sb().pending().kind == PendingAction::Kind::open);
  ui.idle(1);
  ui.click_widget("modal:discard");
  ui.idle(2);
  CHECK(ui.sb().scene().name == "level b");
  CHECK_FALSE(ui.dialog().is_open());
}

TEST_CASE("file dialog: a double click on a folder enters it without choosing a row as the file name") {
  SceneFolder f("dlg_dblfolder");
  DialogUi ui(small_scene("mine"), f.mine);
  ui.click_widget("save_as_dialog");
  REQUIRE(ui.dialog().is_open());
  ui.idle(1);
  const std::string name = ui.dialog().file_name();
  CHECK(name == "mine.json");
  // levels/ is the first row here, and b.json the first row inside it: the second click's
  // release lands on b.json's row in the folder just entered.
  const ImVec2 at = ui.centre("dialog:entry:levels");
  ui.double_click("dialog:entry:levels");
  ui.idle(1);
  CHECK(ui.dialog().browser().folder() == f.dir / "levels");
  CHECK(ui.centre("dialog:entry:b.json").y == doctest::Approx(at.y));  // the premise: same row on screen
  CHECK(ui.dialog().selected().empty());
  CHECK(ui.dialog().file_name() == name);
  // The same in Open: nothing is selected in the folder entered.
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Escape));
  ui.click_widget("open_dialog");
  REQUIRE(ui.dialog().is_open());
  ui.idle(1);
  ui.double_click("dialog:entry:levels");
  ui.idle(1);
  CHECK(ui.dialog().browser().folder() == f.dir / "levels");
  CHECK(ui.dialog().selected().empty());
}

TEST_CASE("file dialog: Save As refuses a file that is not a pathlab scene, and asks before replacing a scene") {
  SceneFolder f("dlg_save");
  const std::string notes = f.dir / "notes.json";
  write(notes, "{\"my\": \"notes\"}");
  DialogUi ui(small_scene("mine"), f.mine);
  ui.sb().scene().grid.set_cost(1, 1, kBlocked);  // an edit the file does not have
  ui.sb().map_changed();
  const std::string mine_before = file_bytes(f.mine);
  ui.key(SDL_SCANCODE_S, true, true);  // Ctrl+Shift+S
  REQUIRE(ui.dialog().is_open());
  CHECK(ui.dialog().mode() == BrowseMode::save_as);
  CHECK(ui.dialog().browser().folder() == f.dir.path.string());
  CHECK(names(ui.dialog().browser()) == std::vector<std::string>{"levels/", "mine.json", "notes.json"});
  ui.idle(1);
  // A JSON file of the user's that is not a scene: refused, untouched, the dialog stays.
  ui.click_widget("dialog:entry:notes.json");
  ui.click_widget("dialog:ok");
  CHECK(ui.dialog().is_open());
  CHECK(ui.dialog().message_is_error());
  CHECK(ui.dialog().message().find("not a pathlab scene") != std::string::npos);
  CHECK(file_bytes(notes) == "{\"my\": \"notes\"}");
  // A map name: refused, nothing written.
  ui.click_widget("dialog:name");
  ui.type("level.map");
  ui.press_enter();
  CHECK(ui.dialog().message().find(".json") != std::string::npos);
  CHECK_FALSE(fs::exists(f.dir / "level.map"));
  // An existing scene: asked first; "Keep it" writes nothing.
  ui.click_widget("dialog:entry:mine.json");
  ui.click_widget("dialog:ok");
  CHECK(ui.dialog().replace_question() == f.mine);
  ui.idle(1);
  ui.click_widget("dialog:keep");
  CHECK(ui.dialog().is_open());
  CHECK(file_bytes(f.mine) == mine_before);
  ui.click_widget("dialog:ok");
  ui.idle(1);
  ui.click_widget("dialog:replace");
  CHECK_FALSE(ui.dialog().is_open());
  auto back = io::load_scene(f.mine);
  REQUIRE(back.ok());
  CHECK(back->grid.blocked_count() == 1);
  // A new name without an extension becomes a .json scene, and the document follows it.
  ui.click_widget("save_as_dialog");
  REQUIRE(ui.dialog().is_open());
  ui.idle(1);
  ui.click_widget("dialog:name");
  ui.type("fresh");
  ui.press_enter();
  CHECK_FALSE(ui.dialog().is_open());
  CHECK(is_pathlab_scene_file(f.dir / "fresh.json"));
  CHECK(ui.sb().document().save_path() == f.dir / "fresh.json");
}

TEST_CASE("file dialog: Save As into the bundled assets is refused; Import lists maps") {
  SceneFolder f("dlg_assets");
  const std::string assets = f.dir / "assets";
  fs::create_directories(assets + "/scenes");
  fs::create_directories(assets + "/maps");
  fs::copy_file(std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json", assets + "/scenes/demo.json");
  fs::copy_file(std::string(PATHLAB_ASSETS_DIR) + "/maps/arena.map", assets + "/maps/arena.map");
  set_assets_dir(assets);
  const std::string demo_before = file_bytes(assets + "/scenes/demo.json");
  DialogUi ui(small_scene("mine"), f.mine);
  ui.click_widget("save_as_dialog");
  ui.idle(1);
  ui.click_widget("dialog:place:bundled scenes");
  CHECK(ui.dialog().browser().folder() == assets + "/scenes");
  ui.idle(1);
  ui.click_widget("dialog:entry:demo.json");
  ui.click_widget("dialog:ok");
  CHECK(ui.dialog().message().find("bundled asset") != std::string::npos);
  CHECK(file_bytes(assets + "/scenes/demo.json") == demo_before);
  ui.click_widget("dialog:cancel");
  CHECK_FALSE(ui.dialog().is_open());
  // Import: the bundled maps are a place; a double click imports the map (never written).
  ui.click_widget("import_dialog");
  REQUIRE(ui.dialog().is_open());
  ui.idle(1);
  ui.click_widget("dialog:place:bundled maps");
  ui.idle(1);
  CHECK(names(ui.dialog().browser()) == std::vector<std::string>{"arena.map"});
  ui.double_click("dialog:entry:arena.map");
  ui.idle(1);
  CHECK_FALSE(ui.dialog().is_open());
  CHECK(ui.sb().document().origin() == Origin::import);
  CHECK(ui.sb().scene().name == "arena.map");
  set_assets_dir(PATHLAB_ASSETS_DIR);
}

TEST_CASE("file dialog: at 100% and 200% UI scale in 1280x800 the listing and the buttons fit the window") {
  SceneFolder f("dlg_shots");
  for (int i = 0; i < 30; ++i) write(f.dir / ("scene-" + std::to_string(100 + i) + ".json"), "{}");
  fs::create_directories(f.dir / "more scenes");
  DialogUi ui(small_scene("mine"), f.mine);
  for (float scale : {1.0f, 2.0f}) {
    INFO("UI scale " << scale);
    ui.sb().set_ui_scale(scale);
    ui.idle(2);
    ui.sb().show_file_dialog(BrowseMode::save_as);
    ui.idle(2);
    REQUIRE(ui.dialog().is_open());
    // With a refusal on show: it wraps under the listing and pushes nothing off the window.
    ui.click_widget("dialog:path");
    ui.type("no such folder/with a rather long name/scene.json");
    ui.press_enter();
    CHECK(ui.dialog().message_is_error());
    ui.shot(scale > 1.5f ? "file_dialog_200" : "file_dialog_100");
    const auto ok = ui.sb().widget_rect("dialog:ok");
    const auto name = ui.sb().widget_rect("dialog:name");
    const auto first = ui.sb().widget_rect("dialog:entry:levels");
    const auto place = ui.sb().widget_rect("dialog:place:bundled scenes");
    CHECK(ok.second.x <= 1280.0f);
    CHECK(ok.second.y <= 800.0f);
    CHECK(name.second.y <= 800.0f);
    CHECK(first.second.x > first.first.x);     // the listing shows rows
    CHECK(first.second.y < name.first.y);      // above the name field
    CHECK(place.second.x <= first.first.x);    // the places column beside it
    CHECK(ui.sb().widget_rect("dialog:path").second.x <= 1280.0f);
    ui.key(ImGui::GetKeyIndex(ImGuiKey_Escape));
    REQUIRE_FALSE(ui.dialog().is_open());
  }
  ui.sb().set_ui_scale(1.0f);
}
