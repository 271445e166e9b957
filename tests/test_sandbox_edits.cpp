// Edits during a recorded run in the sandbox (issue 25): painting walls, spawning a unit and
// moving the goal are recorded inputs like door clicks and sends; an edit at a past moment
// starts a branch whose dropped future "Undo branch" brings back exactly; after a seek the
// spawn list shows the goals of the moment shown; an edit a recording cannot hold ends it with
// a note naming it. The proof of the issue: a run with a wall painted, a door clicked and a
// group sent mid-run, saved, reopened and scrubbed to the middle equals a fresh simulation to
// that step, and `pathlab-cli replay --check` passes on the file and names the step and unit on
// a copy with one input moved by one step.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cli_support.hpp"
#include "pathlab/io/map_files.hpp"
#include "pathlab/io/repro_file.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/unit_input.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using sandbox::UnitSwarm;

namespace {

const std::string kDoorway = std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/doorway.json";

/// A fresh, unrecorded simulation of `repro`'s scene and inputs (the planning layer alone) to
/// `steps`: its crowd's state hash, and the map then.
std::pair<uint64_t, Grid> fresh_to(const io::Repro& repro, int64_t steps) {
  io::Scene scene = repro.scene;
  auto su = plan::build_scene_units(scene);
  REQUIRE(su.ok());
  size_t next = 0;
  for (int64_t s = 0; s < steps; ++s) {
    for (; next < repro.inputs.size() && repro.inputs[next].step == s; ++next)
      (void)plan::apply_unit_input(*su, scene, repro.inputs[next]);
    su->crowd->step();
  }
  return {plan::crowd_state_hash(*su->crowd), scene.grid};
}

void shot(test::SandboxUi& ui, const std::string& name) {
  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
    (void)io::write_png_rgba(std::string(dir) + "/" + name + ".png", ui.host->width(), ui.host->height(), px.data());
}

/// The units of `ui`, paused at their Reset: the recorded run starts here.
UnitSwarm& paused_at_reset(test::SandboxUi& ui) {
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  return u;
}

/// 200 recorded steps of the doorway scene with its door clicked at step 120.
void record_door_click_run(test::SandboxUi& ui, UnitSwarm& u) {
  for (int s = 0; s < 200; ++s) {
    if (s == 120) u.toggle_door(0);
    u.step(ui.sb().scene());
  }
}

/// A brush stroke with the paint tool along row `y` from cell x0 to x1, then one idle frame
/// (the stroke's rebuild waits for its end).
void paint_row(test::SandboxUi& ui, int y, int x0, int x1) {
  ui.sb().set_tool(sandbox::Tool::paint);
  ui.sb().set_brush(0);
  const ImVec2 a = ui.sb().world_to_screen(Vec2(x0 + 0.5, y + 0.5)), b = ui.sb().world_to_screen(Vec2(x1 + 0.5, y + 0.5));
  ui.mouse_at(a, false);
  ui.mouse_at(a, true);
  ui.mouse_at(b, true);
  ui.mouse_at(b, false);
  ui.idle(1);
}

}  // namespace

TEST_CASE("proof: wall, door, send mid-run; saved, reopened, scrubbed to the middle: a fresh simulation; replay --check") {
  test::ScratchDir dir("sandbox_edits_proof");
  auto scene = io::load_scene(kDoorway);
  REQUIRE(scene.ok());
  REQUIRE(!scene->doors.empty());
  test::SandboxUi ui(*scene, 2);
  ui.sb().set_work_dir(dir.path.string());
  UnitSwarm& u = paused_at_reset(ui);
  ui.idle(1);
  REQUIRE(u.count() > 2);
  const int64_t blocked_before = ui.sb().scene().grid.blocked_count();
  for (int s = 0; s < 240; ++s) {
    if (s == 60) paint_row(ui, 10, 5, 7);  // through the paint tool, as a user paints
    if (s == 120) u.toggle_door(0);
    if (s == 180) CHECK(u.send({0, 1}, Vec2(3.5, 12.5), std::nullopt).empty());
    u.step(ui.sb().scene());
  }
  const plan::Recording* rec = u.recording();
  REQUIRE_MESSAGE(rec != nullptr, u.recording_note());  // painting no longer ends the recording
  REQUIRE(rec->inputs().size() == 3);
  CHECK(std::holds_alternative<io::PaintInput>(rec->inputs()[0].what));
  CHECK(rec->inputs()[0].step == 60);
  CHECK(ui.sb().scene().grid.blocked_count() > blocked_before);

  REQUIRE(u.seek(150).ok());
  ui.idle(1);
  ui.click_widget("Save repro");
  const std::string path = dir / "untitled.repro.json";
  REQUIRE_MESSAGE(std::filesystem::exists(path), ui.sb().status());
  auto saved = io::load_repro(path, plan::scene_read_options());
  REQUIRE(saved.ok());
  CHECK(saved->moment == std::optional<int64_t>(150));
  CHECK(saved->until_step == 240);

  // Reopened: the timeline at the moment; scrubbed to the middle (after the paint and the door).
  REQUIRE_MESSAGE(ui.sb().open(path), ui.sb().status());
  ui.idle(1);
  UnitSwarm& v = ui.sb().units();
  REQUIRE(v.recording() != nullptr);
  CHECK(v.recording()->step_index() == 150);
  REQUIRE(v.seek(130).ok());
  ui.idle(1);
  const auto [hash, grid] = fresh_to(*saved, 130);
  CHECK(plan::crowd_state_hash(v.crowd()) == hash);
  CHECK(ui.sb().scene().grid == grid);  // the canvas shows the wall painted by then
  REQUIRE(v.seek(30).ok());
  ui.idle(1);
  CHECK(ui.sb().scene().grid.blocked_count() == blocked_before);  // before the paint: no wall
  CHECK(plan::crowd_state_hash(v.crowd()) == fresh_to(*saved, 30).first);

  auto r = test::run_cli("replay " + path + " --check");
  CHECK_MESSAGE(r.status == 0, r.err);
  std::string moved = test::file_bytes(path);
  const size_t at = moved.find("{\"step\":180,\"send\"");
  REQUIRE(at != std::string::npos);
  moved.replace(at, 11, "{\"step\":181");
  const std::string bad = dir / "moved.repro.json";
  std::ofstream(bad, std::ios::binary) << moved;
  r = test::run_cli("replay " + bad + " --check");
  CHECK(r.status == 1);
  CHECK_MESSAGE(r.err.find("diverges at step 181") != std::string::npos, r.err);
  CHECK_MESSAGE(r.err.find(": unit 0 (") != std::string::npos, r.err);
}

TEST_CASE("sandbox edits: a spawn and a goal move are recorded; a seek shows the goals and units of that moment") {
  auto scene = io::load_scene(kDoorway);
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 2);
  UnitSwarm& u = paused_at_reset(ui);
  const int n = u.count();
  for (int s = 0; s < 120; ++s) {
    if (s == 30) CHECK(u.send({0}, Vec2(3.5, 12.5), std::nullopt).empty());
    if (s == 60) CHECK(u.spawn(ui.sb().scene(), "person", ui.sb().scene().start).empty());
    if (s == 90) {
      ui.sb().scene().goal.pos += Vec2(-1.0, 0.0);
      u.request_replan();
    }
    u.step(ui.sb().scene());
  }
  REQUIRE_MESSAGE(u.recording() != nullptr, u.recording_note());
  CHECK(u.recording()->inputs().size() == 3);
  CHECK(u.count() == n + 1);
  CHECK(u.spawn_list().size() == static_cast<size_t>(n + 1));
  REQUIRE(u.spawn_list()[0].goal.has_value());
  CHECK(u.spawn_list()[0].goal->pos == Vec2(3.5, 12.5));
  REQUIRE(scene->units[0].goal.has_value());
  const Vec2 own = scene->units[0].goal->pos;

  // Back before the send: unit 0 goes to its own goal again, the spawned unit is not there.
  REQUIRE(u.seek(20).ok());
  ui.idle(1);
  CHECK(u.count() == n);
  REQUIRE(u.spawn_list()[0].goal.has_value());
  CHECK(u.spawn_list()[0].goal->pos == own);  // not the later send's goal
  CHECK(u.goal_of(0, ui.sb().scene()).pos == own);
  CHECK(ui.sb().scene().goal.pos == scene->goal.pos);  // the goal where it was then
  REQUIRE(u.seek(100).ok());
  ui.idle(1);
  CHECK(u.count() == n + 1);
  CHECK(ui.sb().scene().goal.pos == scene->goal.pos + Vec2(-1.0, 0.0));
}

TEST_CASE("sandbox edits: an edit at a past moment branches; Undo branch restores the old future bit for bit") {
  auto scene = io::load_scene(kDoorway);
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 2);
  UnitSwarm& u = paused_at_reset(ui);
  record_door_click_run(ui, u);
  const plan::Recording* rec = u.recording();
  REQUIRE(rec != nullptr);
  const auto inputs = rec->inputs();
  const auto steps = rec->step_hashes();
  const auto hashes = rec->hashes();
  REQUIRE(u.seek(80).ok());
  ui.idle(1);
  CHECK(ui.sb().widget_rect("Undo branch").second.x <= 0.0f);  // nothing to undo yet
  paint_row(ui, 10, 5, 7);  // an edit in the past: a new branch from step 80
  REQUIRE(u.recording() == rec);
  CHECK(rec->recorded_until() == 80);
  CHECK(rec->can_undo_branch());
  for (int s = 0; s < 30; ++s) u.step(ui.sb().scene());
  ui.idle(1);
  shot(ui, "timeline_branch");
  ui.click_widget("Undo branch");
  ui.idle(1);
  CHECK_FALSE(rec->can_undo_branch());
  CHECK(rec->step_index() == 80);
  CHECK(rec->inputs() == inputs);
  CHECK(rec->step_hashes() == steps);
  CHECK(rec->hashes() == hashes);
  CHECK(plan::crowd_state_hash(u.crowd()) == steps[79]);
  CHECK(ui.sb().scene().grid == scene->grid);  // the branch's wall is gone from the canvas
  for (int s = 80; s < 200; ++s) u.step(ui.sb().scene());
  CHECK(plan::crowd_state_hash(u.crowd()) == steps[199]);  // the old future, re-simulated
}

TEST_CASE("sandbox edits: an edit a recording cannot hold ends it, naming the edit") {
  auto scene = io::load_scene(kDoorway);
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 2);
  UnitSwarm& u = paused_at_reset(ui);
  for (int s = 0; s < 10; ++s) u.step(ui.sb().scene());
  REQUIRE(u.recording() != nullptr);
  ui.sb().scene().settings.turn_penalty += 0.5;
  u.request_replan();
  u.update(ui.sb().scene(), 0.0);
  CHECK(u.recording() == nullptr);
  CHECK(u.recording_note().find("not recorded since t = 0.17 s: a planner setting was changed") == 0);
}

/// 300 people on an open 60x60 map, stepped 130 steps (recorded): one frame of re-simulation
/// is kScrubUnitSteps / 300 = 50 steps.
io::Scene open_scene() {
  io::Scene scene;
  scene.name = "scrub";
  scene.grid = Grid::create(60, 60).value();
  scene.start = Pose{Vec2(5.5, 5.5), 0.0};
  scene.goal = Pose{Vec2(54.5, 54.5), 0.0};
  scene.settings.planner = "astar";
  scene.settings.smoother = "los";
  return scene;
}

/// What the canvas draws (the trail's frame) against the crowd simulated to that step: equal
/// within the trail's quanta (1/1024 cell, 2 pi / 65536 rad), flags and doors exactly.
void check_drawn_is_simulated(const plan::TrailFrame& f, const Crowd& c) {
  REQUIRE(static_cast<int>(f.units.size()) == c.agent_count());
  for (int i = 0; i < c.agent_count(); ++i) {
    const plan::TrailUnit& t = f.units[static_cast<size_t>(i)];
    const CrowdAgentState& st = c.state(i);
    CAPTURE(i);
    CHECK(std::abs(t.pos.x - st.pose.pos.x) <= plan::Trail::kPosQuantum / 2 + 1e-12);
    CHECK(std::abs(t.pos.y - st.pose.pos.y) <= plan::Trail::kPosQuantum / 2 + 1e-12);
    CHECK(std::abs(std::remainder(t.heading - st.pose.heading, 2.0 * kPi)) <= plan::Trail::kHeadingQuantum / 2 + 1e-12);
    CHECK(t.arrived == st.arrived);
    CHECK(t.stuck == st.stuck);
    CHECK(t.waiting == st.waiting);
  }
  for (int d = 0; d < c.door_count(); ++d) CHECK(f.doors[static_cast<size_t>(d)] == c.door_state(d));
}

TEST_CASE("sandbox edits: a scrub far from a keyframe draws the trail at once, the state simulated there; let go, the crowd follows") {
  const io::Scene scene = open_scene();
  UnitSwarm u(scene.grid);
  u.set_playing(false);
  CHECK(u.spawn_area(scene, 300, {1, 0, 0, 0}, Vec2(1.0, 1.0), Vec2(40.0, 40.0)).empty());
  REQUIRE(u.count() == 300);
  REQUIRE(sandbox::kScrubUnitSteps / 300 == 50);
  for (int s = 0; s < 130; ++s) u.step(scene);
  const plan::Recording* rec = u.recording();
  REQUIRE(rec != nullptr);
  REQUIRE(rec->keyframe_before(119) == 60);  // the timeline's keyframes: every simulated second
  const uint64_t want = rec->step_hashes()[118];

  REQUIRE(u.scrub(119, true).ok());  // 59 steps past its keyframe: more than a frame's work
  CHECK(rec->step_index() == 130);   // nothing re-simulated while the handle is held
  REQUIRE(u.shown_frame() != nullptr);
  CHECK(u.shown_frame()->step == 119);
  CHECK(u.scrub_target() == std::optional<int64_t>(119));
  u.update(scene, 1.0 / 60.0);
  CHECK(rec->step_index() == 130);
  const plan::TrailFrame drawn = *u.shown_frame();
  REQUIRE(u.scrub(119, false).ok());  // let go: the crowd closes in, a frame's work at a time
  CHECK(u.shown_frame() != nullptr);
  u.update(scene, 1.0 / 60.0);
  CHECK(rec->step_index() == 110);  // the keyframe at 60 and 50 steps
  CHECK(u.shown_frame() != nullptr);
  u.update(scene, 1.0 / 60.0);
  CHECK(rec->step_index() == 119);
  CHECK(u.shown_frame() == nullptr);
  CHECK_FALSE(u.scrub_target().has_value());
  CHECK(plan::crowd_state_hash(u.crowd()) == want);
  check_drawn_is_simulated(drawn, u.crowd());  // what was drawn is what is simulated there

  REQUIRE(u.scrub(20, true).ok());  // within a frame's work of its keyframe: exact at once
  CHECK(rec->step_index() == 20);
  CHECK(u.shown_frame() == nullptr);
  REQUIRE(u.scrub(119, true).ok());
  CHECK(rec->step_index() == 20);
  u.set_playing(true);  // playing needs the crowd there: it is brought there at once
  u.update(scene, 0.0);
  CHECK(rec->step_index() == 119);
  CHECK(u.shown_frame() == nullptr);
  CHECK(plan::crowd_state_hash(u.crowd()) == want);
  u.set_playing(false);
  for (int64_t s : {0, 37, 60, 99, 129}) {  // any step drawn from the trail is the simulated one
    CAPTURE(s);
    REQUIRE(u.scrub(130, true).ok());
    REQUIRE(u.scrub(s, true).ok());
    const plan::TrailFrame f = u.shown_frame() ? *u.shown_frame() : rec->trail().frame(s);
    REQUIRE(u.seek(s).ok());
    check_drawn_is_simulated(f, u.crowd());
  }
}

TEST_CASE("sandbox edits: the timeline draws a far moment from the trail, then the crowd there (screenshots)") {
  test::SandboxUi ui(open_scene(), 2);
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  CHECK(u.spawn_area(ui.sb().scene(), 300, {3, 1, 1, 1}, Vec2(1.0, 1.0), Vec2(40.0, 40.0)).empty());
  u.reset(ui.sb().scene());  // the warm-up frames ran the clock: the run starts here
  for (int s = 0; s < 240; ++s) u.step(ui.sb().scene());
  REQUIRE_MESSAGE(u.recording() != nullptr, u.recording_note());
  REQUIRE(u.scrub(179, true).ok());  // as a held handle asks (59 steps past a keyframe)
  ui.idle(2);  // the handle is not really held here: the frames do not re-simulate
  REQUIRE(u.shown_frame() != nullptr);
  shot(ui, "timeline_trail");
  REQUIRE(u.scrub(179, false).ok());
  for (int k = 0; k < 4 && u.shown_frame(); ++k) ui.idle(1);
  CHECK(u.shown_frame() == nullptr);
  CHECK(u.recording()->step_index() == 179);
  shot(ui, "timeline_trail_settled");
}

TEST_CASE("sandbox edits: Ctrl+Z after scrubbing back and editing undoes the branch, like Undo branch") {
  auto scene = io::load_scene(kDoorway);
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 2);
  UnitSwarm& u = paused_at_reset(ui);
  record_door_click_run(ui, u);
  const plan::Recording* rec = u.recording();
  REQUIRE(rec != nullptr);
  const auto inputs = rec->inputs();
  const auto steps = rec->step_hashes();
  REQUIRE(u.seek(80).ok());
  ui.idle(1);
  paint_row(ui, 10, 5, 7);  // scrub back and edit: a branch from step 80
  REQUIRE(rec->can_undo_branch());
  for (int s = 0; s < 30; ++s) u.step(ui.sb().scene());
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Z), true);
  ui.idle(1);
  CHECK_FALSE(rec->can_undo_branch());
  CHECK(rec->step_index() == 80);
  CHECK(rec->inputs() == inputs);
  CHECK(rec->step_hashes() == steps);
  CHECK(ui.sb().scene().grid == scene->grid);  // the branch's wall is gone
  CHECK_FALSE(ui.sb().history().can_undo());  // and so is its undo step: the paint went with the branch
  CHECK(ui.sb().history().can_redo());
  // Ctrl+Y paints it again: a branch from the same moment once more; Ctrl+Z takes it back.
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Y), true);
  ui.idle(1);
  CHECK(ui.sb().scene().grid != scene->grid);
  CHECK(rec->can_undo_branch());
  CHECK(rec->recorded_until() == 80);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Z), true);
  ui.idle(1);
  CHECK(ui.sb().scene().grid == scene->grid);
  CHECK(rec->inputs() == inputs);
  for (int s = 80; s < 200; ++s) u.step(ui.sb().scene());
  CHECK(plan::crowd_state_hash(u.crowd()) == steps[199]);  // the old future, re-simulated

  // An edit after the branch is what Ctrl+Z undoes first; the branch stays undoable.
  REQUIRE(u.seek(60).ok());
  ui.idle(1);
  paint_row(ui, 10, 5, 7);
  REQUIRE(rec->can_undo_branch());
  paint_row(ui, 12, 2, 3);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Z), true);
  ui.idle(1);
  CHECK(rec->can_undo_branch());
}

TEST_CASE("sandbox edits: dragging the goal records one input, on release; a replay of the file is the live run") {
  auto scene = io::load_scene(kDoorway);
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 2);
  UnitSwarm& u = ui.sb().units();
  u.reset(ui.sb().scene());
  u.set_playing(true);
  ui.idle(20);  // one fixed step a frame (the test host's fixed frame time)
  const plan::Recording* rec = u.recording();
  REQUIRE(rec != nullptr);
  const Vec2 from = ui.sb().scene().goal.pos;
  ui.mouse_at(ui.sb().world_to_screen(from), false);
  ui.mouse_at(ui.sb().world_to_screen(from), true);
  for (int k = 1; k <= 6; ++k) ui.mouse_at(ui.sb().world_to_screen(from + Vec2(-0.7 * k, 0.4 * k)), true);
  ui.mouse_at(ui.sb().world_to_screen(from + Vec2(-4.2, 2.4)), false);
  ui.idle(40);
  int goals = 0;
  for (const io::UnitInput& in : rec->inputs()) {
    const auto* g = std::get_if<io::GoalInput>(&in.what);
    if (!g) continue;
    ++goals;
    CHECK(g->goal.pos == ui.sb().scene().goal.pos);  // where the drag ended
  }
  CHECK(goals == 1);
  CHECK(ui.sb().scene().goal.pos != from);
  const io::Repro repro = rec->repro();
  auto replay = plan::Recording::replay(repro);
  REQUIRE(replay.ok());
  while (replay->recorded_until() < repro.until_step) replay->step();
  CHECK(replay->step_hashes() == repro.step_hashes);
}

TEST_CASE("sandbox edits: the metrics after a seek are those the run had then, a paint's rebuild included") {
  auto scene = io::load_scene(kDoorway);
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 2);
  UnitSwarm& u = paused_at_reset(ui);
  struct Seen {
    sandbox::SwarmMetrics m;
    std::vector<int> replans;
  };
  auto seen = [&u] {
    Seen s{u.metrics(), {}};
    for (int i = 0; i < u.count(); ++i) s.replans.push_back(u.replans(i));
    return s;
  };
  std::vector<std::pair<int64_t, Seen>> live;
  for (int s = 0; s < 200; ++s) {
    if (s == 30 || s == 100 || s == 150) live.emplace_back(s, seen());
    if (s == 60) paint_row(ui, 10, 5, 7);  // rebuilds the crowd: its own metrics count from 0
    u.step(ui.sb().scene());
  }
  REQUIRE(u.recording() != nullptr);
  for (const auto& [step, then] : live) {
    CAPTURE(step);
    REQUIRE(u.seek(199).ok());
    REQUIRE(u.seek(step).ok());
    const Seen now = seen();
    CHECK(now.m.min_separation == then.m.min_separation);
    CHECK(now.m.stuck_steps == then.m.stuck_steps);
    CHECK(now.m.wall_contacts == then.m.wall_contacts);
    CHECK(now.m.replans == then.m.replans);
    CHECK(now.m.arrived == then.m.arrived);
    CHECK(now.replans == then.replans);
  }
}

TEST_CASE("sandbox edits: the fuzz seed of a version 2 repro (spawn and goal inputs) reads and writes back") {
  const std::string seed = std::string(PATHLAB_ASSETS_DIR) + "/../fuzz/corpus/fuzz_repro_file/edits_v2.json";
  auto r = io::load_repro(seed, plan::scene_read_options());
  REQUIRE_MESSAGE(r.ok(), r.error().message);
  int spawns = 0, goals = 0;
  for (const io::UnitInput& in : r->inputs) {
    spawns += std::holds_alternative<io::SpawnInput>(in.what) ? 1 : 0;
    goals += std::holds_alternative<io::GoalInput>(in.what) ? 1 : 0;
  }
  CHECK(spawns == 2);
  CHECK(goals == 1);
  auto back = io::parse_repro(io::repro_to_json(*r), "again.json", ".", plan::scene_read_options());
  REQUIRE(back.ok());
  CHECK(back->inputs == r->inputs);
}

TEST_CASE("sandbox edits: a paint while paused mid-run draws the truck where it is, not a second one at its route's start") {
  // The paint rebuilds the crowd, whose own clock starts again at 0; the canvas took that for
  // "not started" and drew the scene's truck at its route's start beside the running one.
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/garbage-truck.json");
  REQUIRE(scene.ok());
  REQUIRE(scene->moving_obstacles.size() == 1);
  test::SandboxUi ui(*scene, 2);
  UnitSwarm& u = paused_at_reset(ui);
  for (int s = 0; s < 600; ++s) u.step(ui.sb().scene());  // 10 s: the truck is at its route's end
  // Dark brown pixels (the cab band, drawn (90, 50, 10) at alpha 230 over the map) where a
  // truck at the route's start has its cab (3 x 1.5 cells, heading +y: its front 0.825-1.5
  // cells ahead of the start; the route's start marker, ringed in the same brown, is behind).
  const Vec2 start = scene->moving_obstacles[0].route[0];
  int shots_taken = 0;
  const auto cab_pixels_at_start = [&] {
    std::vector<uint8_t> px;
    ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
    if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
      (void)io::write_png_rgba(std::string(dir) + "/truck_start_" + std::to_string(shots_taken++) + ".png", ui.host->width(), ui.host->height(), px.data());
    const ImVec2 a = ui.sb().world_to_screen(start + Vec2(-0.6, 0.9)), b = ui.sb().world_to_screen(start + Vec2(0.6, 1.45));
    const int w = ui.host->width(), h = ui.host->height();
    int n = 0;
    for (int y = std::max(0, static_cast<int>(std::min(a.y, b.y))); y < std::min(h, static_cast<int>(std::max(a.y, b.y))); ++y)
      for (int x = std::max(0, static_cast<int>(std::min(a.x, b.x))); x < std::min(w, static_cast<int>(std::max(a.x, b.x))); ++x) {
        const uint8_t* p = &px[(static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)) * 4];
        n += (p[0] >= 80 && p[0] <= 130 && p[1] >= 40 && p[1] <= 85 && p[2] <= 45) ? 1 : 0;
      }
    return n;
  };
  CHECK(cab_pixels_at_start() == 0);
  paint_row(ui, 20, 25, 27);  // far from everyone: the crowd is rebuilt from where it stands
  CHECK(u.time() > 9.9);
  CHECK(cab_pixels_at_start() == 0);
}
