// Scene links in the sandbox (issue 29), headless: Sandbox::open_link (what `pathlab --link`
// and the web build's page address use) shows the same plan as opening the scene's file; the
// scene opens untitled and Save asks for a name instead of writing anywhere; a bad link changes
// nothing; a lesson link presents its step; Export's "Copy link" copies a link that reads back
// to the scene shown.
//
// PATHLAB_LINK_SHOT=FILE.png saves the Export tab with its "Copy link" button, to look at.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "host/host.hpp"
#include "inspect/inspector.hpp"
#include "panels/file_dialog.hpp"
#include "pathlab/io/lesson_file.hpp"
#include "pathlab/io/scene_link.hpp"
#include "pathlab/plan/scene.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;
using test::SandboxUi;
using test::ScratchDir;
namespace fs = std::filesystem;

namespace {

const std::string kAssets = PATHLAB_ASSETS_DIR;

std::string g_clipboard;  // what ImGui::SetClipboardText was given (the dummy driver keeps none)

void capture_clipboard() {
  ImGui::GetIO().SetClipboardTextFn = [](void*, const char* text) { g_clipboard = text; };
}

/// The files in `dir`, recursively.
size_t file_count(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) ++n;
  return n;
}

}  // namespace

TEST_CASE("sandbox link: opening a scene's link shows the same plan as opening its file, untitled and unsaved") {
  for (const char* rel : {"demo.json", "crowds/doorway.json", "articles/pinter-tank-figure-8.json"}) {
    INFO(rel);
    const std::string path = kAssets + "/scenes/" + rel;
    plan::PlanResult from_file;  // one sandbox at a time (one ImGui context)
    int file_units = 0;
    {
      SandboxUi ui(plan::load_scene(path).value(), 3, path);
      from_file = ui.sb().plan().result;
      file_units = ui.sb().units().count();
    }
    const std::string link = "index.html#" + io::scene_link(plan::load_scene(path).value());
    SandboxUi from_link(test::small_scene("before"), 2);
    const Status opened = from_link.sb().open_link(link);
    REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
    from_link.idle(3);
    const plan::PlanResult& b = from_link.sb().plan().result;
    REQUIRE(from_file.found);
    REQUIRE(b.found);
    CHECK(b.length == from_file.length);  // the same plan, bit for bit
    CHECK(b.points == from_file.points);
    CHECK(b.expanded == from_file.expanded);
    CHECK(from_link.sb().units().count() == file_units);
    CHECK(from_link.sb().document().origin() == Origin::untitled);
    CHECK(from_link.sb().document().from_link());
    CHECK_FALSE(from_link.sb().status_is_error());
    CHECK(from_link.sb().status().find("opened a link") == 0);
  }
}

TEST_CASE("sandbox link: Save on a scene from a link asks for a file name and writes nothing by itself") {
  ScratchDir tmp("link_save");
  SandboxUi ui(test::small_scene("before"), 2);
  ui.sb().set_work_dir(tmp.path.string());
  REQUIRE(ui.sb().open_link(io::scene_link(plan::load_scene(kAssets + "/scenes/demo.json").value())).ok());
  ui.idle(2);
  CHECK_FALSE(ui.sb().save());  // Ctrl+S and the Save button call this
  ui.idle(2);
  CHECK(ui.sb().file_dialog().is_open());
  CHECK(ui.sb().file_dialog().mode() == BrowseMode::save_as);
  CHECK(file_count(tmp.path.string()) == 0);
  // A name chosen: the scene is that file now, and Save writes back to it.
  REQUIRE(ui.sb().save(tmp / "shared-bug.json"));
  CHECK_FALSE(ui.sb().document().from_link());
  CHECK(ui.sb().document().origin() == Origin::scene);
  CHECK(io::scene_to_json(plan::load_scene(tmp / "shared-bug.json").value()) ==
        io::scene_to_json(plan::load_scene(kAssets + "/scenes/demo.json").value()));
}

TEST_CASE("sandbox link: a bad link changes nothing and says why") {
  SandboxUi ui(test::small_scene("kept", 24, 16), 2);
  const std::string before = io::scene_to_json(ui.sb().scene());
  for (const std::string& bad : {std::string("index.html#scene=AAAA"), std::string("index.html#zoom=2"),
                                 io::encode_link(io::LinkKind::scene, "{\"pathlab_scene\": 3}")}) {
    CAPTURE(bad);
    const Status st = ui.sb().open_link(bad);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().message.rfind("link", 0) == 0);
    CHECK(ui.sb().status_is_error());
    CHECK(ui.sb().status() == st.error().message);
    CHECK(io::scene_to_json(ui.sb().scene()) == before);
    CHECK_FALSE(ui.sb().document().from_link());
  }
}

TEST_CASE("sandbox link: a lesson link presents the lesson at its step") {
  const std::string file = kAssets + "/lessons/4-turning-radius.lesson.json";
  const io::Lesson lesson = io::load_lesson(file).value();
  REQUIRE(lesson.steps.size() >= 3);
  SandboxUi ui(test::small_scene("before"), 2);
  REQUIRE(ui.sb().open_link("index.html#" + io::lesson_link(lesson, 3).value()).ok());
  ui.idle(3);
  CHECK(ui.sb().presenting());
  CHECK(ui.sb().lesson().step == 2);
  CHECK(ui.sb().lesson().lesson == lesson);
  // Step 3's preset is the scene shown.
  const std::string preset = kAssets + "/scenes/" + lesson.steps[2].preset + ".json";
  CHECK(ui.sb().document().source() == preset);
  CHECK(ui.sb().plan().result.found);
}

TEST_CASE("sandbox link: Export's Copy link copies a link that opens the scene shown, units included") {
  const std::string path = kAssets + "/scenes/crowds/doorway.json";
  SandboxUi ui(plan::load_scene(path).value(), 3, path);
  capture_clipboard();
  g_clipboard.clear();
  ui.sb().inspector().show_tab(Inspector::Tab::export_);
  ui.idle(2);
  const auto [lo, hi] = ui.sb().inspector().widget("copy_link");
  REQUIRE(hi.x > lo.x);
  ui.click(ImVec2((lo.x + hi.x) / 2, (lo.y + hi.y) / 2));
  REQUIRE(g_clipboard.rfind("index.html#scene=", 0) == 0);
  CHECK(g_clipboard == ui.sb().scene_link_url());
  CHECK(ui.sb().inspector().message().find("link copied") == 0);
  auto link = io::decode_link(g_clipboard);
  REQUIRE(link.ok());
  auto scene = io::read_link_scene(*link, plan::scene_read_options());
  REQUIRE(scene.ok());
  CHECK(scene->units.size() == ui.sb().units().spawn_list().size());
  CHECK(scene->units.size() > 0);
  CHECK(io::scene_to_json(*scene) == io::scene_to_json(plan::load_scene(path).value()));
  if (const char* shot = std::getenv("PATHLAB_LINK_SHOT")) {
    std::vector<uint8_t> pixels;
    ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &pixels);
    REQUIRE(save_capture(shot, ui.host->width(), ui.host->height(), pixels).ok());
  }
}

TEST_CASE("sandbox link: a link never replaces unsaved edits (the web page opens every link put into its address)") {
  SandboxUi ui(test::small_scene("mine"), 2);
  ui.sb().set_tool(Tool::paint);
  ui.click(ui.sb().world_to_screen(Vec2(5.5, 5.5)));
  REQUIRE(ui.sb().unsaved());
  const std::string before = io::scene_to_json(ui.sb().scene());
  const Status st = ui.sb().open_link(io::scene_link(plan::load_scene(kAssets + "/scenes/demo.json").value()));
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().message.find("unsaved edits") != std::string::npos);
  CHECK(ui.sb().status_is_error());
  CHECK(io::scene_to_json(ui.sb().scene()) == before);
  CHECK(ui.sb().unsaved());
  CHECK_FALSE(ui.sb().document().from_link());
}

TEST_CASE("sandbox link: with a text sharer (the web page), Copy link hands it the page's address and says its words") {
  const std::string path = kAssets + "/scenes/demo.json";
  SandboxUi ui(plan::load_scene(path).value(), 3, path);
  capture_clipboard();
  g_clipboard.clear();
  std::string shared;
  ui.sb().set_link_base("https://example.org/pathlab/index.html");
  std::string what;
  ui.sb().set_text_sharer([&shared, &what](const std::string& kind, const std::string& text) {
    what = kind;
    shared = text;
    return std::string("shared by the page");
  });
  ui.sb().inspector().show_tab(Inspector::Tab::export_);
  ui.idle(2);
  const auto [lo, hi] = ui.sb().inspector().widget("copy_link");
  REQUIRE(hi.x > lo.x);
  ui.click(ImVec2((lo.x + hi.x) / 2, (lo.y + hi.y) / 2));
  CHECK(shared.rfind("https://example.org/pathlab/index.html#scene=", 0) == 0);
  CHECK(shared == ui.sb().scene_link_url());
  CHECK(what == "link");
  CHECK(g_clipboard.empty());  // the page's clipboard, not SDL's
  CHECK(ui.sb().inspector().message() == "shared by the page");
}
