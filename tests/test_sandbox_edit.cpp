// Editing that feels right and a UI that never stalls (issue 14): planning runs on a worker so
// a slow, failing search never blocks a frame; fast strokes leave no gap; undo covers every
// edit; the view fits the map on demand and on resize unless the user zoomed; the idle app
// knows it may sleep; a replay hides the final path until it reaches the end.

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>

#include "canvas/canvas_tools.hpp"
#include "planning/plan_worker.hpp"
#include "inspect/inspector.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;
using test::SandboxUi;

namespace {

io::Scene open_scene(int w, int h) {
  io::Scene s;
  s.name = "open floor";
  s.grid = Grid::create(w, h).value();
  s.start.pos = Vec2(2.5, h / 2 + 0.5);
  s.goal.pos = Vec2(w - 2.5, h / 2 + 0.5);
  return s;
}

}  // namespace

TEST_CASE("worker: a failing Hybrid A* never blocks a frame longer than 16 ms") {
  // The goal sits 36 cells deep in a dead-end slot one cell wide, facing out of it: no unit
  // with a turning radius of 12 can arrive so, and Hybrid A* searches until its expansion
  // budget is spent (the fast goal check looks only about 29 cells back from the goal).
  io::Scene s = open_scene(60, 40);
  for (int y = 0; y < 39; ++y) {
    s.grid.set_cost(29, y, kBlocked);
    s.grid.set_cost(31, y, kBlocked);
  }
  s.goal = Pose{Vec2(30.5, 36.5), kPi / 2};
  s.settings.planner = "hybrid";
  s.settings.smoother = "none";
  s.settings.turning_radius = 12.0;
  SandboxUi ui(s, 0);
  ui.sb().set_plan_wait_ms(0);  // as the app does: never wait for the worker
  double worst_ui_ms = 0.0;
  int frames = 0, frames_planning = 0, worst_frame = -1;
  auto frame = [&] {
    SDL_Delay(4);  // a frame's pace, as vsync gives: the worker gets the CPU the UI leaves
    ui.idle(1);
    if (ui.host->last_times().build > worst_ui_ms) worst_ui_ms = ui.host->last_times().build, worst_frame = frames;
    ++frames;
    if (ui.sb().planning()) ++frames_planning;
  };
  frame();  // the first frame asks for the plan
  const int deadline = 100000;
  while (ui.sb().planning() && frames < deadline) frame();
  REQUIRE_FALSE(ui.sb().planning());
  const PlanView& p = ui.sb().plan();
  CHECK_FALSE(p.result.found);
  CHECK(p.error.empty());
  MESSAGE("failing plan took " << p.result.time_ms << " ms on the worker; slowest UI frame " << worst_ui_ms << " ms CPU (frame " << worst_frame << ") over "
                               << frames << " frames, " << frames_planning << " of them showing planning...");
  CHECK(p.result.time_ms > 16.0);        // on the UI thread it would have blocked
  // The UI thread's own work per frame (its CPU time). The 16 ms frame budget is for the
  // optimised build; a sanitizer or debug build is many times slower at everything, so there
  // the check is that no frame did a share of the search's work.
#if defined(NDEBUG)
  const bool optimised = std::getenv("PATHLAB_SANITIZED") == nullptr;
#else
  const bool optimised = false;
#endif
  if (optimised) CHECK(worst_ui_ms < 16.0);
  CHECK(worst_ui_ms < p.result.time_ms / 10.0);
  CHECK(frames_planning >= 2);    // frames kept coming while the worker searched
  CHECK(ui.sb().plan().plans >= 1);
}

TEST_CASE("worker: a newer request supersedes older ones; only its result is returned") {
  PlanWorker w;
  io::Scene s = open_scene(40, 20);
  std::vector<std::shared_ptr<std::atomic<bool>>> flags;
  uint64_t last = 0;
  for (int i = 0; i < 4; ++i) {
    WorkerRequest r;
    r.scene = s;
    r.scene.goal.pos = Vec2(10.5 + i * 5, 10.5);
    flags.push_back(r.cancel);
    last = w.submit(std::move(r));
  }
  REQUIRE(w.wait(60000));
  auto res = w.take();
  REQUIRE(res.has_value());
  CHECK(res->serial == last);
  CHECK(res->view.result.length == doctest::Approx(23.0));  // (2.5, 10.5) to (25.5, 10.5)
  for (size_t i = 0; i + 1 < flags.size(); ++i) CHECK(flags[i]->load());  // the older ones were told to stop
  CHECK_FALSE(flags.back()->load());
  CHECK_FALSE(w.take().has_value());  // once
  CHECK_FALSE(w.busy());
}

TEST_CASE("worker: the last result stays drawn while a newer plan runs") {
  SandboxUi ui(open_scene(40, 20), 2);
  REQUIRE(ui.sb().plan().result.found);
  const double before = ui.sb().plan().result.length;
  ui.sb().set_plan_wait_ms(0);
  ui.sb().scene().goal.pos = Vec2(30.5, 10.5);
  ui.sb().map_changed();
  ui.idle(1);
  // Either the new plan already arrived or the old one is still shown: never an empty result.
  CHECK(ui.sb().plan().result.found);
  ui.sb().replan_now();
  CHECK(ui.sb().plan().result.length < before);
}

TEST_CASE("edit: a fast stroke paints every cell between two mouse samples") {
  SandboxUi ui(open_scene(60, 30), 2);
  ui.sb().set_tool(Tool::paint);
  ui.sb().set_brush(1);
  const Vec2 a(0.2, 0.3), b(59.8, 29.6);  // corner to corner in one jump between two frames
  ui.mouse_at(ui.sb().world_to_screen(a), false);
  ui.mouse_at(ui.sb().world_to_screen(a), true);
  ui.mouse_at(ui.sb().world_to_screen(b), true);
  ui.mouse_at(ui.sb().world_to_screen(b), false);
  const Grid& g = ui.sb().scene().grid;
  int gaps = 0;
  for (double t = 0; t <= 1.0; t += 0.001) {
    const Cell c = cell_of(a + (b - a) * t);
    if (g.is_free(c.x, c.y)) ++gaps;
  }
  CHECK(gaps == 0);
  // One stroke is one undo step.
  const int64_t painted = g.blocked_count();
  ui.sb().undo();
  CHECK(g.blocked_count() == 0);
  ui.sb().redo();
  CHECK(g.blocked_count() == painted);
  // The stroke is one wall with no diagonal leak: no path from above it to below it.
  ui.sb().scene().start.pos = Vec2(50.5, 3.5);
  ui.sb().scene().goal.pos = Vec2(4.5, 26.5);
  ui.sb().scene().settings.planner = "astar";
  ui.sb().replan_now();
  CHECK_FALSE(ui.sb().plan().result.found);
}

TEST_CASE("edit: paint_segment covers every cell the segment enters, with the brush disc") {
  Grid g = Grid::create(20, 20).value();
  EditHistory h;
  h.begin();
  paint_segment(g, h, Vec2(1.5, 1.5), Vec2(18.5, 7.5), 2, kBlocked);
  CHECK(h.commit());
  for (double t = 0; t <= 1.0; t += 0.0005) {
    const Vec2 p = Vec2(1.5, 1.5) + (Vec2(18.5, 7.5) - Vec2(1.5, 1.5)) * t;
    const Cell c = cell_of(p);
    CHECK_FALSE(g.is_free(c.x, c.y));
    CHECK_FALSE(g.is_free(c.x, c.y + 1));  // the radius-2 disc reaches the neighbours
    CHECK_FALSE(g.is_free(c.x, c.y - 1));
  }
}

TEST_CASE("undo: restores a moved goal, its heading, a setting and spawned units") {
  SandboxUi ui(open_scene(40, 20), 2);
  const Pose goal = ui.sb().scene().goal;
  // Drag the goal marker to a new place.
  const ImVec2 from = ui.sb().world_to_screen(goal.pos);
  const Vec2 to_world(20.5, 4.5);
  ui.mouse_at(from, false);
  ui.mouse_at(from, true);
  for (int i = 1; i <= 5; ++i) {
    const Vec2 w = goal.pos + (to_world - goal.pos) * (i / 5.0);
    ui.mouse_at(ui.sb().world_to_screen(w), true);
  }
  ui.mouse_at(ui.sb().world_to_screen(to_world), false);
  ui.idle(1);
  REQUIRE(ui.sb().scene().goal.pos != goal.pos);
  const Pose moved = ui.sb().scene().goal;
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Z), true);
  CHECK(ui.sb().scene().goal.pos == goal.pos);
  CHECK(ui.sb().plan().result.length == doctest::Approx(35.0));
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Y), true);
  CHECK(ui.sb().scene().goal.pos == moved.pos);
  // A heading and a setting are steps of their own.
  ui.sb().scene().goal.heading = 1.0;
  ui.idle(1);
  ui.sb().scene().settings.planner = "theta";
  ui.idle(1);
  ui.sb().undo();
  CHECK(ui.sb().scene().settings.planner == "astar");
  CHECK(ui.sb().scene().goal.heading == 1.0);
  ui.sb().undo();
  CHECK(ui.sb().scene().goal.heading == moved.heading);
  // Spawned units.
  REQUIRE(ui.sb().units().spawn(ui.sb().scene(), "car", ui.sb().scene().start).empty());
  ui.idle(1);
  CHECK(ui.sb().units().count() == 1);
  ui.sb().undo();
  ui.idle(1);
  CHECK(ui.sb().units().count() == 0);
  ui.sb().redo();
  ui.idle(1);
  CHECK(ui.sb().units().count() == 1);
}

TEST_CASE("view: F fits the map; a resize re-fits unless the user zoomed") {
  SandboxUi ui(open_scene(40, 20), 2);
  const float fitted = ui.sb().scale();
  // Zoom in with the wheel over the canvas.
  const ImVec2 centre = ui.sb().world_to_screen(Vec2(20, 10));
  ui.host->frame([&](ImGuiIO& io) {
    io.MousePos = centre;
    io.MouseWheel = 1.0f;
  });
  ui.idle(1);
  CHECK(ui.sb().scale() > fitted * 1.1f);
  CHECK(ui.sb().user_zoomed());
  SDL_SetWindowSize(ui.host->window(), 1000, 700);
  ui.idle(2);
  CHECK(ui.sb().scale() > fitted * 1.1f);  // the user's zoom is kept
  ui.key(SDL_SCANCODE_F);
  ui.idle(1);
  CHECK_FALSE(ui.sb().user_zoomed());
  const float fitted_small = ui.sb().scale();
  CHECK(fitted_small < fitted);  // the smaller window fits the map smaller
  SDL_SetWindowSize(ui.host->window(), 1280, 800);
  ui.idle(2);
  CHECK(ui.sb().scale() == doctest::Approx(fitted));
}

TEST_CASE("idle: nothing to animate lets the app sleep; playing units keep it awake") {
  SandboxUi ui(open_scene(40, 20), 3);
  CHECK_FALSE(ui.sb().animating());
  REQUIRE(ui.sb().units().spawn(ui.sb().scene(), "person", ui.sb().scene().start).empty());
  ui.sb().units().set_playing(true);
  ui.idle(1);
  CHECK(ui.sb().animating());
  ui.sb().units().set_playing(false);
  ui.idle(2);
  CHECK_FALSE(ui.sb().animating());
}

TEST_CASE("replay: the final path is hidden until the replay reaches the end") {
  SandboxUi ui(open_scene(40, 20), 2);
  ReplayModel& r = ui.sb().inspector().replay();
  REQUIRE_FALSE(r.empty());
  CHECK_FALSE(ui.sb().inspector().hides_path());
  r.set_step(0);
  ui.idle(1);
  CHECK(ui.sb().inspector().hides_path());
  // The path's red is nowhere on the canvas while hidden.
  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  auto red_pixels = [&] {
    int n = 0;
    const int w = ui.host->width();
    for (int y = 0; y < 500; ++y)
      for (int x = 0; x < 900; ++x) {
        const uint8_t* c = &px[(static_cast<size_t>(y) * w + x) * 4];
        if (c[0] == 220 && c[1] == 50 && c[2] == 50) ++n;
      }
    return n;
  };
  CHECK(red_pixels() == 0);
  r.set_step(r.steps());
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  CHECK_FALSE(ui.sb().inspector().hides_path());
  CHECK(red_pixels() > 50);
}

TEST_CASE("replay: a navmesh plan's corridor and funnel are hidden with its path until the replay ends") {
  io::Scene scene = open_scene(40, 20);
  for (int y = 4; y < 16; ++y) scene.grid.set_cost(20, y, kBlocked);  // a wall to walk round: a funnel corner
  scene.settings.planner = "navmesh";
  scene.settings.smoother = "funnel";
  SandboxUi ui(std::move(scene), 2);
  REQUIRE(ui.sb().plan().result.found);
  REQUIRE(ui.sb().inspector().apply_preset_view("funnel"));
  REQUIRE(ui.sb().inspector().apply_preset_view("corridor"));
  ui.idle(2);
  ReplayModel& r = ui.sb().inspector().replay();
  REQUIRE_FALSE(r.empty());
  std::vector<uint8_t> px;
  // The funnel's corners and apex (overlays.cpp: 120, 30, 160, opaque).
  auto count = [&](uint8_t cr, uint8_t cg, uint8_t cb) {
    int n = 0;
    const int w = ui.host->width();
    for (int y = 0; y < 500; ++y)
      for (int x = 0; x < 900; ++x) {
        const uint8_t* c = &px[(static_cast<size_t>(y) * w + x) * 4];
        if (c[0] == cr && c[1] == cg && c[2] == cb) ++n;
      }
    return n;
  };
  r.set_step(0);
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  REQUIRE(ui.sb().inspector().hides_path());
  CHECK(count(120, 30, 160) == 0);
  r.set_step(r.steps());
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  CHECK_FALSE(ui.sb().inspector().hides_path());
  CHECK(count(120, 30, 160) > 20);
}

TEST_CASE("gallery: Pinter's figure-8 preset opens with its tank spawned and driving") {
  SandboxUi ui(open_scene(20, 10), 1);
  ui.sb().inspector().scan();
  const GalleryEntry* tank = nullptr;
  for (const GalleryEntry& e : ui.sb().inspector().gallery())
    if (e.path.find("pinter-tank-figure") != std::string::npos) tank = &e;
  REQUIRE(tank != nullptr);
  ui.sb().request_preset(*tank);  // nothing unsaved: opens at once
  ui.idle(2);
  REQUIRE(ui.sb().units().count() == 1);
  CHECK(ui.sb().units().playing());
  // Driving: two simulated seconds of fixed steps (independent of the frame clock) move it.
  const Pose spawn = ui.sb().units().crowd().state(0).pose;
  for (int i = 0; i < 120; ++i) ui.sb().units().step(ui.sb().scene());
  CHECK(glm::length(ui.sb().units().crowd().state(0).pose.pos - spawn.pos) > 0.2);
  CHECK(ui.sb().document().origin() == Origin::bundled);
}
