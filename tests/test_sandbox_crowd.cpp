// The crowd on the sandbox's canvas (issue 13): the spawn-area and select tools, the
// right-click command, doors toggled by a click, the hover label, bodies drawn at their true
// size in their preset's colour, undo. Set PATHLAB_TEST_SHOTS=DIR to keep the PNGs.

#include <doctest/doctest.h>

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

#include "canvas/crowd_ui.hpp"
#include "pathlab/io/map_files.hpp"
#include "sandbox_ui.hpp"
#include "canvas/units_draw.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

io::Scene door_scene() {
  io::Scene s;
  s.name = "crowd ui";
  s.grid = Grid::create(40, 20).value();
  for (int y = 0; y < 20; ++y)
    if (y < 8 || y > 11) s.grid.set_blocked(26, y, true);
  DoorDef door;
  door.lo = Cell{26, 8};
  door.hi = Cell{26, 11};
  s.doors.push_back(door);
  MovingObstacleDef truck;
  truck.route = {Vec2(33.0, 2.0), Vec2(33.0, 18.0)};
  truck.speed = 1.0;
  s.moving_obstacles.push_back(truck);
  s.start.pos = Vec2(2.5, 10.5);
  s.goal.pos = Vec2(37.5, 10.5);
  return s;
}

struct CrowdUiTest : test::SandboxUi {
  CrowdUiTest() : SandboxUi(door_scene(), 2) {}
  ImVec2 at(Vec2 w) { return sb().world_to_screen(w); }
  /// One frame with the mouse at world `w`, `button` held or not, shift or not.
  void mouse(Vec2 w, int button, bool down, bool shift = false) {
    host->frame([&](ImGuiIO& io) {
      io.MousePos = at(w);
      io.KeyShift = shift;
      for (bool& b : io.MouseDown) b = false;
      io.MouseDown[button] = down;
    });
  }
  void drag(Vec2 a, Vec2 b, int button = 0, bool shift = false) {
    mouse(a, button, false, shift);
    mouse(a, button, true, shift);
    for (int i = 1; i <= 4; ++i) mouse(a + (b - a) * (i / 4.0), button, true, shift);
    mouse(b, button, false, shift);
    mouse(b, button, false, false);
  }
  /// Zooms in `clicks` wheel notches about world `w`.
  void zoom(Vec2 w, int clicks) {
    for (int i = 0; i < clicks; ++i)
      host->frame([&](ImGuiIO& io) {
        io.MousePos = at(w);
        io.MouseWheel = 1.0f;
      });
  }
  void shot(const std::string& name, std::vector<uint8_t>& px) {
    host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
    if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
      (void)io::write_png_rgba(std::string(dir) + "/" + name + ".png", host->width(), host->height(), px.data());
  }
};

}  // namespace

TEST_CASE("crowd ui: spawn area, box select with shift, right-click sends the selection with a heading") {
  CrowdUiTest ui;
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  ui.sb().crowd_ui().spawn_count = 12;
  ui.sb().crowd_ui().mix = {1, 0, 0, 1};
  ui.sb().set_tool(Tool::spawn_area);  // the Units panel's radio (below the fold at 1280x800)
  ui.drag(Vec2(2, 4), Vec2(14, 16));
  REQUIRE(u.count() == 12);
  // Undo takes the whole spawn back, redo brings it again.
  ui.sb().undo();
  ui.idle(1);
  CHECK(u.count() == 0);
  ui.sb().redo();
  ui.idle(1);
  REQUIRE(u.count() == 12);
  ui.sb().set_tool(Tool::select);
  ui.drag(Vec2(1, 3), Vec2(6, 17));
  const size_t first = u.selection().size();
  CHECK(first > 0);
  CHECK(first < 12);
  ui.drag(Vec2(6, 3), Vec2(15, 17), 0, true);  // shift adds
  CHECK(u.selection().size() == 12);
  // Right-drag from the target point to the south: the goal heading is +90 degrees.
  ui.drag(Vec2(20.5, 10.5), Vec2(20.5, 15.5), 1);
  for (int id : u.selection()) {
    REQUIRE(u.spawn_list()[static_cast<size_t>(id)].goal.has_value());
    CHECK(glm::length(u.goal_of(id, ui.sb().scene()).pos - Vec2(20.5, 10.5)) < 0.1);  // a pixel's rounding
    CHECK(u.crowd().agent_def(id).goal_heading.value_or(0.0) == doctest::Approx(kPi / 2).epsilon(1e-9));
  }
  // A click on empty floor clears the selection; then right-drag pans instead.
  ui.drag(Vec2(20.5, 2.5), Vec2(20.5, 2.5));
  CHECK(u.selection().empty());
  const ImVec2 before = ui.at(Vec2(0, 0));
  ui.drag(Vec2(20.5, 10.5), Vec2(22.5, 10.5), 1);
  CHECK(ui.at(Vec2(0, 0)).x > before.x + 1.0f);
}

TEST_CASE("crowd ui: a click on a door with the select tool opens and shuts it; hovering a unit labels it") {
  CrowdUiTest ui;
  UnitSwarm& u = ui.sb().units();
  REQUIRE(u.crowd().door_count() == 1);
  REQUIRE(u.crowd().moving_obstacle_count() == 1);
  CHECK(u.crowd().door_open(0));
  ui.sb().set_tool(Tool::select);
  ui.drag(Vec2(26.5, 9.5), Vec2(26.5, 9.5));
  u.step(ui.sb().scene());  // the crowd closes it on its next step
  CHECK_FALSE(u.crowd().door_open(0));
  ui.drag(Vec2(26.5, 9.5), Vec2(26.5, 9.5));
  u.step(ui.sb().scene());
  CHECK(u.crowd().door_open(0));
  REQUIRE(u.spawn(ui.sb().scene(), "tank", Pose{Vec2(10.5, 10.5), 0.0}).empty());
  u.set_playing(false);
  ui.mouse(Vec2(10.5, 10.5), 0, false);
  ui.mouse(Vec2(10.5, 10.5), 0, false);
  CHECK(ui.sb().crowd_ui().hovered() == 0);
  ui.mouse(Vec2(18.5, 10.5), 0, false);
  CHECK(ui.sb().crowd_ui().hovered() == -1);
}

TEST_CASE("crowd ui: bodies are drawn at their true size in their preset's colour, at 100% and 200% UI scale") {
  CrowdUiTest ui;
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  const char* presets[] = {"person", "car", "tank", "bear"};
  for (int k = 0; k < 4; ++k) REQUIRE(u.spawn(ui.sb().scene(), presets[k], Pose{Vec2(10.5 + 2.0 * k, 10.5), 0.3}).empty());
  ui.sb().crowd_ui().overlays.velocities = true;
  ui.sb().crowd_ui().overlays.legend = false;  // it would cover the first unit at 200%
  for (int s = 0; s < 12; ++s) u.step(ui.sb().scene());
  u.select(1, true);
  for (float scale : {1.0f, 2.0f}) {
    ui.sb().set_ui_scale(scale);
    ui.idle(2);
    ui.zoom(Vec2(13.5, 10.5), scale > 1.5f ? 5 : 3);  // 200%: past the 48-pixel sprites
    std::vector<uint8_t> px;
    ui.shot(scale > 1.5f ? "crowd_ui_200" : "crowd_ui_100", px);
    const float zoom = ui.sb().scale();
    for (int k = 0; k < 4; ++k) {
      const Pose p = u.crowd().state(k).pose;
      const double r = u.crowd().agent_def(k).unit.radius;
      // Off the heading (where the shape's white lines are not): inside the body its colour,
      // just outside the body something else.
      const Vec2 side(-std::sin(p.heading), std::cos(p.heading));
      auto colour_at = [&](double dist) {
        const ImVec2 q = ui.at(p.pos + side * dist);
        const size_t i = (static_cast<size_t>(q.y) * static_cast<size_t>(ui.host->width()) + static_cast<size_t>(q.x)) * 4;
        return IM_COL32(px[i], px[i + 1], px[i + 2], 255);
      };
      CAPTURE(presets[k]);
      CAPTURE(zoom);
      REQUIRE(r * zoom > 8.0);  // big enough for the check to mean something
      CHECK(colour_at(r * 0.85) == preset_colour(presets[k]));
      CHECK(colour_at(r + 4.0 / zoom) != preset_colour(presets[k]));
    }
  }
  // A tall window shows the whole panel: the Units section with the crowd tools and metrics.
  ui.sb().set_ui_scale(1.0f);
  SDL_SetWindowSize(ui.host->window(), 1280, 1500);
  ui.idle(2);
  std::vector<uint8_t> px;
  ui.shot("crowd_panel", px);
  const auto [lo, hi] = ui.sb().widget_rect("spawn area");
  CHECK(hi.x > lo.x);
  CHECK(hi.y < 1500.0f);
}

TEST_CASE("crowd ui: the neighbour and velocity overlays draw between and ahead of the units") {
  CrowdUiTest ui;
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  REQUIRE(u.spawn_area(ui.sb().scene(), 12, {1, 0, 1, 0}, Vec2(8, 6), Vec2(16, 14)).empty());
  REQUIRE(u.select_box(Vec2(0, 0), Vec2(12, 20), false) > 0);
  REQUIRE(u.send(u.selection(), Vec2(20.5, 10.5), std::nullopt).empty());  // through the others
  for (int s = 0; s < 30; ++s) u.step(ui.sb().scene());
  ui.zoom(Vec2(12.5, 10.5), 3);
  CrowdOverlays& o = ui.sb().crowd_ui().overlays;
  std::vector<uint8_t> on, off;
  o.neighbours = o.velocities = true;
  ui.shot("crowd_overlays_on", on);
  o.neighbours = o.velocities = false;
  ui.shot("crowd_overlays_off", off);
  int changed = 0;
  for (size_t i = 0; i < on.size(); i += 4) changed += (on[i] != off[i] || on[i + 1] != off[i + 1]) ? 1 : 0;
  CHECK(changed > 200);  // lines and arrows, not a few stray pixels
}

TEST_CASE("crowd ui: a unit parked on the goal is drawn above the goal marker") {
  CrowdUiTest ui;
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  const Pose goal = ui.sb().scene().goal;  // (37.5, 10.5), heading 0
  REQUIRE(u.spawn_area(ui.sb().scene(), 1, {1, 0, 0, 0}, Vec2(30, 9), Vec2(32, 12)).empty());
  REQUIRE(u.select_box(Vec2(29, 8), Vec2(33, 13), false) == 1);
  REQUIRE(u.send(u.selection(), goal.pos, std::nullopt).empty());
  for (int s = 0; s < 1200 && !u.at_goal(0); ++s) u.step(ui.sb().scene());
  REQUIRE(u.at_goal(0));
  REQUIRE(glm::length(u.crowd().state(0).pose.pos - goal.pos) < 0.25);  // on the marker's disc [Units: cells]
  ui.zoom(goal.pos, 3);
  std::vector<uint8_t> px;
  ui.shot("crowd_unit_on_goal", px);
  auto rgb_at = [&](Vec2 w) {
    const ImVec2 s = ui.at(w);
    const size_t i = (static_cast<size_t>(s.y) * static_cast<size_t>(ui.host->width()) + static_cast<size_t>(s.x)) * 4;
    return std::array<int, 3>{px[i], px[i + 1], px[i + 2]};
  };
  const std::array<int, 3> marker{200, 60, 160};  // the goal marker's colour (draw_poses)
  // The marker's disc is 7 px at this UI scale, the person's body 0.3 cells (about 18 px zoomed):
  // the pixel where both lie shows the unit.
  CHECK(rgb_at(u.crowd().state(0).pose.pos) != marker);
}
