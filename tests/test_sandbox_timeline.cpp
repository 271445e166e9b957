// The sandbox's timeline (issue 25): the units run under a recording from Reset; the strip
// under the canvas seeks it, steps it back and forward, and the canvas shows the recorded run
// bit for bit as a fresh, unrecorded run of the same scene and inputs.

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/io/map_files.hpp"
#include "pathlab/plan/unit_input.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using sandbox::UnitSwarm;

namespace {

constexpr int kSteps = 120;
constexpr int kDoorAt = 60;  // the door click, half way

/// Every unit's pose after each step 0..kSteps of the scene's units run without a recording
/// (the planning layer's model alone), the door clicked after kDoorAt steps.
std::vector<std::vector<Pose>> fresh_run(const io::Scene& scene) {
  auto su = plan::build_scene_units(scene);
  REQUIRE(su.ok());
  std::vector<std::vector<Pose>> out;
  auto poses = [&] {
    std::vector<Pose> p;
    for (int i = 0; i < su->crowd->agent_count(); ++i) p.push_back(su->crowd->state(i).pose);
    out.push_back(p);
  };
  poses();
  for (int s = 0; s < kSteps; ++s) {
    if (s == kDoorAt) REQUIRE(plan::toggle_door(*su->crowd, 0).ok());
    su->crowd->step();
    poses();
  }
  return out;
}

/// Bit for bit: the same doubles.
bool same_poses(const Crowd& c, const std::vector<Pose>& want) {
  if (c.agent_count() != static_cast<int>(want.size())) return false;
  for (int i = 0; i < c.agent_count(); ++i) {
    const Pose& p = c.state(i).pose;
    const Pose& w = want[static_cast<size_t>(i)];
    if (p.pos.x != w.pos.x || p.pos.y != w.pos.y || p.heading != w.heading) return false;
  }
  return true;
}

void shot(test::SandboxUi& ui, const std::string& name) {
  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
    (void)io::write_png_rgba(std::string(dir) + "/" + name + ".png", ui.host->width(), ui.host->height(), px.data());
}

}  // namespace

TEST_CASE("timeline: the recorded run seeks and steps to exactly a fresh run's states, a past edit branches") {
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/door-closing.json");
  REQUIRE(scene.ok());
  REQUIRE(!scene->doors.empty());
  const auto want = fresh_run(*scene);
  test::SandboxUi ui(*scene, 0);
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  ui.idle(2);
  REQUIRE(u.count() > 1);
  CHECK(u.recording() == nullptr);  // it starts with the first step
  for (int s = 0; s < kSteps; ++s) {
    if (s == kDoorAt) u.toggle_door(0);
    u.step(ui.sb().scene());
  }
  const plan::Recording* rec = u.recording();
  REQUIRE_MESSAGE(rec != nullptr, u.recording_note());
  CHECK(rec->recorded_until() == kSteps);
  REQUIRE(rec->inputs().size() == 1);
  CHECK(rec->inputs()[0].step == kDoorAt);
  CHECK(same_poses(u.crowd(), want[kSteps]));  // recording changed nothing

  // One step back with the strip's button.
  ui.idle(1);
  ui.click_widget("timeline back");
  CHECK(rec->step_index() == kSteps - 1);
  CHECK(same_poses(u.crowd(), want[kSteps - 1]));
  // Seek to before the door click, then one step forward with the button.
  REQUIRE(u.seek(45).ok());
  CHECK(same_poses(u.crowd(), want[45]));
  ui.click_widget("timeline forward");
  CHECK(rec->step_index() == 46);
  CHECK(same_poses(u.crowd(), want[46]));
  CHECK(rec->recorded_until() == kSteps);  // re-simulated, the future kept
  // The slider dragged to its left end shows step 0; |< too.
  const auto lo_hi = ui.sb().widget_rect("timeline");
  REQUIRE(lo_hi.second.x > lo_hi.first.x);
  const float y = (lo_hi.first.y + lo_hi.second.y) / 2;
  ui.mouse_at(ImVec2((lo_hi.first.x + lo_hi.second.x) / 2, y), false);
  ui.mouse_at(ImVec2((lo_hi.first.x + lo_hi.second.x) / 2, y), true);
  CHECK(rec->step_index() > 0);
  CHECK(rec->step_index() < kSteps);
  CHECK(same_poses(u.crowd(), want[static_cast<size_t>(rec->step_index())]));
  ui.mouse_at(ImVec2(lo_hi.first.x - 50, y), true);
  ui.mouse_at(ImVec2(lo_hi.first.x - 50, y), false);
  CHECK(rec->step_index() == 0);
  CHECK(same_poses(u.crowd(), want[0]));
  // Playing from there replays the recorded run, door click included.
  REQUIRE(u.seek(kSteps - 10).ok());
  for (int s = 0; s < 10; ++s) u.step(ui.sb().scene());
  CHECK(same_poses(u.crowd(), want[kSteps]));

  SUBCASE("a door click at a past moment drops the recorded future") {
    REQUIRE(u.seek(30).ok());
    u.toggle_door(0);
    CHECK(rec->recorded_until() == 30);
    REQUIRE(rec->inputs().size() == 1);
    CHECK(rec->inputs()[0].step == 30);
  }
  SUBCASE("the strip at 100% and 200% UI scale") {
    REQUIRE(u.seek(90).ok());
    for (float scale : {1.0f, 2.0f}) {
      ui.sb().set_ui_scale(scale);
      ui.idle(2);
      const auto r = ui.sb().widget_rect("timeline");
      CHECK(r.second.x - r.first.x > 200.0f * scale);  // the slider keeps room to scrub
      CHECK(r.second.y <= static_cast<float>(ui.host->height()));
      shot(ui, scale > 1.5f ? "timeline_200" : "timeline_100");
    }
    ui.sb().set_ui_scale(1.0f);
  }
}

TEST_CASE("timeline: an edit the recording cannot hold ends it; Reset records again") {
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/doorway.json");
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 0);
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  for (int s = 0; s < 10; ++s) u.step(ui.sb().scene());
  REQUIRE(u.recording() != nullptr);
  const Pose before = u.crowd().state(0).pose;
  ui.sb().scene().settings.turn_penalty += 0.5;  // a setting: a recording holds the ones it started with
  u.request_replan();
  u.update(ui.sb().scene(), 0.0);
  CHECK(u.recording() == nullptr);
  CHECK(u.recording_note().find("not recorded since") != std::string::npos);
  CHECK(u.crowd().state(0).pose.pos == before.pos);  // carried on from where it was
  u.step(ui.sb().scene());
  CHECK(u.recording() == nullptr);
  u.reset(ui.sb().scene());
  u.step(ui.sb().scene());
  REQUIRE(u.recording() != nullptr);
  CHECK(u.recording()->crowd().agent_count() == u.count());
}

TEST_CASE("timeline: Save repro writes the run with the moment shown; opening it shows that moment again") {
  test::ScratchDir dir("timeline_repro");
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/door-closing.json");
  REQUIRE(scene.ok());
  const auto want = fresh_run(*scene);
  test::SandboxUi ui(*scene, 0);
  ui.sb().set_work_dir(dir.path.string());
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  for (int s = 0; s < kSteps; ++s) {
    if (s == kDoorAt) u.toggle_door(0);
    u.step(ui.sb().scene());
  }
  REQUIRE(u.seek(75).ok());
  // A user's file where the repro would go is left alone: the repro takes the next name.
  const std::string mine = dir / "untitled.repro.json";
  std::ofstream(mine) << "my notes\n";
  ui.idle(1);
  ui.click_widget("Save repro");
  const std::string path = dir / "untitled-2.repro.json";
  REQUIRE_MESSAGE(std::filesystem::exists(path), ui.sb().status());
  CHECK(test::file_bytes(mine) == "my notes\n");
  auto r = io::load_repro(path);
  REQUIRE(r.ok());
  CHECK(r->inputs == u.recording()->inputs());
  REQUIRE(r->inputs.size() == 1);
  CHECK(r->inputs[0].step == kDoorAt);
  CHECK(r->moment == std::optional<int64_t>(75));
  CHECK(r->until_step == kSteps);

  // Opened after the units are gone (one host per test: SDL has one video backend): the
  // scene, the run replayed, the timeline at the moment.
  u.clear(ui.sb().scene());
  ui.sb().scene().doors.clear();
  ui.idle(1);
  REQUIRE(u.recording() == nullptr);
  test::SandboxUi& other = ui;
  REQUIRE_MESSAGE(other.sb().open(path), other.sb().status());
  other.idle(1);
  CHECK(other.sb().scene().doors.size() == scene->doors.size());
  const plan::Recording* rec = other.sb().units().recording();
  REQUIRE(rec != nullptr);
  CHECK(rec->step_index() == 75);
  CHECK(rec->recorded_until() == kSteps);
  CHECK(rec->step_hashes() == r->step_hashes);
  CHECK(same_poses(other.sb().units().crowd(), want[75]));
  CHECK(other.sb().document().save_path().find(".repro.json") == std::string::npos);  // Save writes a scene elsewhere
  CHECK_FALSE(other.sb().units().playing());
}

TEST_CASE("timeline: door clicks, sends and scheduled door toggles are marked on the slider") {
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/door-closing.json");
  REQUIRE(scene.ok());
  REQUIRE(scene->doors.size() == 1);
  REQUIRE(scene->doors[0].toggle_times == std::vector<double>{1.5});
  test::SandboxUi ui(*scene, 0);
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  for (int s = 0; s < kSteps; ++s) {
    if (s == kDoorAt) u.toggle_door(0);
    if (s == 100) CHECK(u.send({0}, Vec2(3.5, 3.5), std::nullopt).empty());
    u.step(ui.sb().scene());
  }
  const auto marks = u.timeline_marks();
  REQUIRE(marks.size() == 3);
  CHECK(marks[0].step == kDoorAt);
  CHECK(marks[0].kind == sandbox::TimelineMark::Kind::door_click);
  CHECK(marks[1].step == 90);  // 1.5 s at 60 steps a second
  CHECK(marks[1].kind == sandbox::TimelineMark::Kind::door_schedule);
  CHECK(marks[2].step == 100);
  CHECK(marks[2].kind == sandbox::TimelineMark::Kind::send);
  // Drawn where the slider's grab stands at that step: the send's blue over the slider's top edge.
  REQUIRE(u.seek(0).ok());
  ui.idle(2);
  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
    (void)io::write_png_rgba(std::string(dir) + "/timeline_marks.png", ui.host->width(), ui.host->height(), px.data());
  const auto r = ui.sb().widget_rect("timeline");
  const float slider = r.second.x - r.first.x - 4.0f;
  const float grab = std::max(slider / static_cast<float>(kSteps + 1), ImGui::GetStyle().GrabMinSize);
  const float x = r.first.x + 2.0f + grab * 0.5f + (slider - grab) * 100.0f / kSteps;
  const size_t i = (static_cast<size_t>(r.first.y + 2.0f) * static_cast<size_t>(ui.host->width()) + static_cast<size_t>(x)) * 4;
  REQUIRE(i + 2 < px.size());
  CHECK(px[i + 2] > 200);  // blue
  CHECK(px[i] < 150);
}
