// Presentation mode and lessons in the sandbox (issue 26, "Teaching on a projector"), headless:
// F5 hides the side panel and the map takes the window; units wait for Play; Right/Left and a
// clicker's PageDown/PageUp step through a lesson; every step of every shipped lesson opens its
// scene, plans it and has its views on, and at 200% its caption is whole under a map that keeps
// most of the window; a lesson saved from the sandbox never goes over another file.
//
// PATHLAB_LESSON_SHOTS=DIR saves a PNG of every step at 200% into DIR, to look at.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "document/gallery.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/io/lesson_file.hpp"
#include "pathlab/plan/scene.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;
namespace fs = std::filesystem;

namespace {

const std::string kAssets = PATHLAB_ASSETS_DIR;

std::vector<std::string> shipped_lessons() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kAssets + "/lessons"))
    if (io::is_lesson_name(e.path().string())) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The sandbox opened on a bundled scene (as the gallery opens it).
test::SandboxUi open_scene(const std::string& rel) {
  const std::string path = kAssets + "/scenes/" + rel;
  return test::SandboxUi(plan::load_scene(path).value(), 3, path);
}

/// Screen x of the middle of the map as fitted [pixels].
float map_centre_x(test::SandboxUi& ui) {
  const Grid& g = ui.sb().scene().grid;
  return (ui.sb().world_to_screen(Vec2(0, 0)).x + ui.sb().world_to_screen(Vec2(g.width(), g.height())).x) * 0.5f;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

std::vector<Vec2> unit_positions(test::SandboxUi& ui) {
  std::vector<Vec2> out;
  for (int i = 0; i < ui.sb().units().crowd().agent_count(); ++i) out.push_back(ui.sb().units().crowd().state(i).pose.pos);
  return out;
}

}  // namespace

TEST_CASE("presentation: F5 hides the side panel, the map takes the window, units wait for Play (Space)") {
  test::SandboxUi ui = open_scene("crowds/circle-swap.json");
  REQUIRE(ui.sb().units().count() == 12);
  const float centre_with_panel = map_centre_x(ui);
  CHECK(centre_with_panel < 640.0f - 100.0f);  // the panel takes the right of the window
  ui.key(SDL_SCANCODE_F5);
  REQUIRE(ui.sb().presenting());
  ui.idle(2);
  CHECK(map_centre_x(ui) == doctest::Approx(640.0f).epsilon(0.01));  // the canvas is the whole width
  CHECK(ui.sb().widget_rect("present:exit").second.x > 0.0f);       // the caption bar's buttons
  CHECK(ui.sb().widget_rect("present").second.x == 0.0f);           // no side panel drawn
  // Units stand still until Play.
  CHECK_FALSE(ui.sb().units().playing());
  const std::vector<Vec2> before = unit_positions(ui);
  ui.idle(60);
  CHECK(unit_positions(ui) == before);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Space));
  CHECK(ui.sb().units().playing());
  ui.idle(30);
  CHECK(unit_positions(ui) != before);
  // Esc leaves: the panel is back, the map moves back left of the panel.
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Escape));
  CHECK_FALSE(ui.sb().presenting());
  ui.idle(2);
  CHECK(map_centre_x(ui) == doctest::Approx(centre_with_panel).epsilon(0.01));
}

TEST_CASE("presentation: no \"opened ...\" banner and no hover labels on the projector") {
  test::SandboxUi ui = open_scene("crowds/circle-swap.json");
  ui.key(SDL_SCANCODE_F5);
  REQUIRE(ui.sb().open(kAssets + "/scenes/crowds/doorway.json"));
  CHECK(ui.sb().status().rfind("opened ", 0) == 0);  // said, but not shown:
  CHECK_FALSE(ui.sb().units().playing());            // a scene opened while presenting waits too
  std::vector<uint8_t> shown, hidden;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &shown);
  // The same frame with the mouse on a unit: nothing changes (a label would be drawn there).
  const ImVec2 on_unit = ui.sb().world_to_screen(ui.sb().units().crowd().state(0).pose.pos);
  ui.mouse_at(on_unit, false);
  ui.host->frame([&](ImGuiIO& io) { io.MousePos = on_unit; }, &hidden);
  size_t differ = 0;
  for (size_t i = 0; i < shown.size(); ++i) differ += shown[i] != hidden[i];
  CHECK(differ == 0);
}

TEST_CASE("lessons: Right/Left and PageDown/PageUp step through a lesson opened like a scene") {
  const std::string lesson = kAssets + "/lessons/1-why-astar-paths-look-drunk.lesson.json";
  test::SandboxUi ui(test::small_scene("before the lesson"), 2);
  REQUIRE(ui.sb().open(lesson));  // Open... or `pathlab FILE.lesson.json`
  ui.idle(2);
  REQUIRE(ui.sb().presenting());
  REQUIRE(ui.sb().lesson().count() == 5);
  CHECK(ui.sb().lesson().step == 0);
  const io::Lesson& l = ui.sb().lesson().lesson;
  auto shows = [&](int step) {
    return ui.sb().lesson().step == step && same_file(ui.sb().document().source(), step_scene_file(lesson, l.steps[static_cast<size_t>(step)]));
  };
  CHECK(shows(0));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  CHECK(shows(1));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_PageDown));  // a clicker's "next"
  CHECK(shows(2));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_LeftArrow));
  CHECK(shows(1));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_PageUp));
  CHECK(shows(0));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_PageUp));  // no step before the first
  CHECK(shows(0));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_End));
  CHECK(shows(4));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));  // none after the last
  CHECK(shows(4));
  ui.click_widget("present:back");  // the caption's buttons do the same
  CHECK(shows(3));
  // The replay's keys are the lesson's now: Right did not step the replay of step 1.
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Home));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  ui.idle(2);
  CHECK(ui.sb().view_on("replay"));
  CHECK(ui.sb().inspector().replay().step() == 0);
  CHECK(ui.sb().inspector().hides_path());  // the path waits for the replay (Space)
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Space));
  CHECK(ui.sb().inspector().replay().playing);
}

TEST_CASE("lessons: every step of every shipped lesson opens its scene, plans it, has its views on; at 200% the caption is whole") {
  const char* shots = std::getenv("PATHLAB_LESSON_SHOTS");
  test::SandboxUi ui(test::small_scene("lessons"), 2);
  ui.sb().set_ui_scale(2.0f);
  ui.idle(2);
  for (const std::string& file : shipped_lessons()) {
    INFO(file);
    REQUIRE(ui.sb().open_lesson(file));
    const io::Lesson l = ui.sb().lesson().lesson;
    for (int k = 0; k < static_cast<int>(l.steps.size()); ++k) {
      const io::LessonStep& step = l.steps[static_cast<size_t>(k)];
      INFO("step " << k + 1 << ": " << step.preset);
      if (k > 0) ui.key(ImGui::GetKeyIndex(ImGuiKey_PageDown));
      ui.idle(3);
      REQUIRE(ui.sb().lesson().step == k);
      CHECK(same_file(ui.sb().document().source(), step_scene_file(file, step)));
      CHECK_MESSAGE(ui.sb().status_is_error() == false, ui.sb().status());
      CHECK(ui.sb().plan().error.empty());
      CHECK(ui.sb().plan().result.found);
      CHECK_FALSE(ui.sb().units().playing());
      for (const std::string& v : step.views) CHECK_MESSAGE(ui.sb().view_on(v), v);
      // The caption is whole, below the map, inside the window; the map keeps most of the window.
      const auto caption = ui.sb().widget_rect("present:caption");
      CHECK(caption.second.y > caption.first.y);
      CHECK(caption.second.y <= 800.0f);
      const Grid& g = ui.sb().scene().grid;
      const ImVec2 lo = ui.sb().world_to_screen(Vec2(0, 0)), hi = ui.sb().world_to_screen(Vec2(g.width(), g.height()));
      CHECK(hi.y <= caption.first.y + 1.0f);  // the map ends above the caption
      const float map_share = std::max((hi.x - lo.x) / 1280.0f, (hi.y - lo.y) / 800.0f);
      CHECK_MESSAGE(map_share >= 0.5f, "the map fills " << map_share * 100 << "% of the window's width or height");
      if (shots) {
        std::vector<uint8_t> px;
        ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
        const std::string name = fs::path(file).stem().stem().string() + "-step" + std::to_string(k + 1) + ".png";
        REQUIRE(save_capture((fs::path(shots) / name).string(), ui.host->width(), ui.host->height(), px).ok());
      }
    }
  }
}

TEST_CASE("lessons: \"Add this view\" and \"Save lesson\" write a new lesson, never over another file") {
  test::ScratchDir dir("lesson_save");
  test::SandboxUi ui = open_scene("articles/guesgen-4-smoothed.json");
  ui.sb().set_work_dir(dir.path.string());
  // A file of the user's where the first name would go: kept, the lesson takes the next name.
  { std::ofstream(dir / "my-lesson.lesson.json") << "my notes"; }
  ui.sb().apply_view("navmesh");
  CHECK(ui.sb().add_view_to_lesson("first step").empty());
  // A scene of the user's, saved, is a step by its file.
  REQUIRE(ui.sb().save(dir / "level.json"));
  ui.sb().apply_view("raw_path");
  CHECK(ui.sb().add_view_to_lesson("my level").empty());
  // An unsaved edit is refused: the lesson would open something else.
  ui.sb().scene().goal.pos.x -= 1.0;
  ui.sb().map_changed();
  CHECK_FALSE(ui.sb().add_view_to_lesson("edited").empty());
  CHECK(ui.sb().lesson_draft().count() == 2);
  const std::string saved = ui.sb().save_lesson_draft();
  CHECK(saved == dir / "my-lesson-2.lesson.json");
  CHECK(test::file_bytes(dir / "my-lesson.lesson.json") == "my notes");
  auto l = io::load_lesson(saved);
  REQUIRE_MESSAGE(l.ok(), (l.ok() ? "" : l.error().message));
  REQUIRE(l->steps.size() == 2);
  CHECK(l->steps[0].preset == "articles/guesgen-4-smoothed");
  CHECK(l->steps[0].caption == "first step");
  CHECK(std::find(l->steps[0].views.begin(), l->steps[0].views.end(), "navmesh") != l->steps[0].views.end());
  CHECK(l->steps[1].scene == "level.json");  // relative to the lesson: the folder can move
  CHECK(std::find(l->steps[1].views.begin(), l->steps[1].views.end(), "raw_path") != l->steps[1].views.end());
  // Saving again goes back to the file it created; one put there by hand since is kept.
  REQUIRE(ui.sb().save());  // the edit saved into level.json: the step opens what is shown
  CHECK(ui.sb().add_view_to_lesson("third").empty());
  CHECK(ui.sb().save_lesson_draft() == saved);
  CHECK(io::load_lesson(saved)->steps.size() == 3);
  { std::ofstream(saved) << "replaced by hand"; }
  CHECK(ui.sb().save_lesson_draft().empty());
  CHECK(ui.sb().status_is_error());
  CHECK(test::file_bytes(saved) == "replaced by hand");
  // The lesson saved opens presented, its scene step from its own folder.
  { std::ofstream(dir / "open.lesson.json") << io::lesson_to_json(*l); }
  REQUIRE(ui.sb().open(dir / "open.lesson.json"));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  CHECK(ui.sb().lesson().step == 1);
  CHECK(same_file(ui.sb().document().source(), dir / "level.json"));
  CHECK(ui.sb().view_on("raw_path"));
}

TEST_CASE("lessons: a lesson that cannot be read changes nothing and says why") {
  test::ScratchDir dir("lesson_bad");
  { std::ofstream(dir / "bad.lesson.json") << "{\"pathlab_lesson\": 1, \"title\": \"t\",\n \"steps\": [{\"preset\": \"x\", \"caption\": \"c\", \"views\": [\"xray\"]}]}"; }
  test::SandboxUi ui(test::small_scene("kept"), 2);
  CHECK_FALSE(ui.sb().open(dir / "bad.lesson.json"));
  CHECK(ui.sb().status().find("bad.lesson.json:2: steps[0].views[0] 'xray' is not a view") != std::string::npos);
  CHECK_FALSE(ui.sb().presenting());
  CHECK(ui.sb().scene().name == "kept");
  // A step whose preset is gone: the lesson opens, the step says so, Right moves past it.
  { std::ofstream(dir / "gone.lesson.json") << "{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"articles/gone\", \"caption\": \"c\"}, {\"preset\": \"articles/guesgen-1-zigzag\", \"caption\": \"d\"}]}"; }
  REQUIRE(ui.sb().open(dir / "gone.lesson.json"));
  CHECK(ui.sb().status_is_error());
  CHECK(ui.sb().status().rfind("step 1: ", 0) == 0);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  CHECK(ui.sb().lesson().step == 1);
  CHECK(ui.sb().scene().grid.width() > 0);
}

TEST_CASE("lessons: a lesson written before the presets were renamed opens the renamed presets") {
  test::ScratchDir dir("lesson_renamed");
  // The ids the presets had when they were numbered after the source documents (seeds/...).
  { std::ofstream(dir / "old.lesson.json") << "{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"seeds/003a-zigzag\", \"caption\": \"c\"}, {\"preset\": \"seed004_tank_turn\", \"caption\": \"d\"}]}"; }
  test::SandboxUi ui(test::small_scene("before"), 2);
  REQUIRE(ui.sb().open(dir / "old.lesson.json"));
  CHECK_FALSE(ui.sb().status_is_error());
  CHECK(same_file(ui.sb().document().source(), kAssets + "/scenes/articles/guesgen-1-zigzag.json"));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  CHECK(ui.sb().lesson().step == 1);
  CHECK_FALSE(ui.sb().status_is_error());
  CHECK(same_file(ui.sb().document().source(), kAssets + "/scenes/pinter_tank_turn.json"));
  CHECK(sandbox::current_preset_id("articles/guesgen-1-zigzag") == "articles/guesgen-1-zigzag");
}

TEST_CASE("lessons: Space plays a step's rewound replay first, the units after it") {
  const std::string lesson = kAssets + "/lessons/4-turning-radius.lesson.json";
  test::SandboxUi ui(test::small_scene("before"), 2);
  REQUIRE(ui.sb().open(lesson));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  ui.idle(2);
  REQUIRE(ui.sb().lesson().step == 2);  // Directional A*'s search, replayed; the tank stands at the start
  REQUIRE(ui.sb().units().count() == 1);
  REQUIRE(ui.sb().inspector().hides_path());
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Space));
  CHECK(ui.sb().inspector().replay().playing);
  CHECK_FALSE(ui.sb().units().playing());
  ReplayModel& r = ui.sb().inspector().replay();
  r.playing = false;
  r.set_step(r.steps());  // the replay has shown the path: Space is the tank's now
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Space));
  CHECK(ui.sb().units().playing());
  CHECK_FALSE(r.playing);
}
