// Issue 27 in the sandbox: the flow field overlay of a selected group (a colour ramp of the
// distance under the units, arrows down the field), units drawn as dots when zoomed out too
// far for their shape, and the spawn control's cap of 10,000 units. Set PATHLAB_TEST_SHOTS=DIR
// to keep the PNGs.

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "canvas/crowd_ui.hpp"
#include "canvas/units_draw.hpp"
#include "pathlab/crowd_flow_field.hpp"
#include "pathlab/io/map_files.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

/// 48 x 24 cells, a wall at x = 30 with a 4-cell gap (rows 10..13) and a door in it.
io::Scene wall_scene() {
  io::Scene s;
  s.name = "flow field overlay";
  s.grid = Grid::create(48, 24).value();
  for (int y = 0; y < 24; ++y)
    if (y < 10 || y > 13) s.grid.set_blocked(30, y, true);
  DoorDef door;
  door.lo = Cell{30, 10};
  door.hi = Cell{30, 13};
  s.doors.push_back(door);
  s.start.pos = Vec2(2.5, 12.5);
  s.goal.pos = Vec2(44.5, 12.5);
  return s;
}

struct FlowUi : test::SandboxUi {
  explicit FlowUi(io::Scene s) : SandboxUi(std::move(s), 2) {}
  ImVec2 at(Vec2 w) { return sb().world_to_screen(w); }
  void shot(const std::string& name, std::vector<uint8_t>& px) {
    host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
    if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
      (void)io::write_png_rgba(std::string(dir) + "/" + name + ".png", host->width(), host->height(), px.data());
  }
  /// The pixel at the centre of world cell `c` in `px`, as IM_COL32 (alpha 255).
  ImU32 pixel(const std::vector<uint8_t>& px, Cell c) {
    const ImVec2 q = at(Vec2(c.x + 0.5, c.y + 0.5));
    const size_t i = (static_cast<size_t>(q.y) * static_cast<size_t>(host->width()) + static_cast<size_t>(q.x)) * 4;
    return IM_COL32(px[i], px[i + 1], px[i + 2], 255);
  }
};

int channel(ImU32 c, int shift) { return static_cast<int>((c >> shift) & 0xFFu); }

}  // namespace

TEST_CASE("flow field overlay: a sent group's field is a ramp from the goal with arrows, kept between frames") {
  FlowUi ui(wall_scene());
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  REQUIRE(u.spawn_area(ui.sb().scene(), 12, {1, 0, 0, 0}, Vec2(4, 6), Vec2(12, 18)).empty());
  REQUIRE(u.select_box(Vec2(0, 0), Vec2(20, 24), false) == 12);
  const Vec2 goal(40.5, 12.5);
  REQUIRE(u.send(u.selection(), goal, std::nullopt).empty());
  ui.sb().crowd_ui().overlays.legend = false;
  CrowdOverlays& o = ui.sb().crowd_ui().overlays;
  std::vector<uint8_t> off, on;
  ui.shot("flow_field_off", off);
  o.flow_field = true;
  for (float scale : {1.0f, 2.0f}) {
    CAPTURE(scale);
    ui.sb().set_ui_scale(scale);
    ui.idle(2);
    ui.shot(scale > 1.5f ? "flow_field_200" : "flow_field_100", on);
    const FlowFieldOverlay& ov = ui.sb().crowd_ui().flow_field();
    REQUIRE(ov.error().empty());
    REQUIRE(ov.field() != nullptr);
    const FlowField& f = *ov.field();
    // The group's field: towards the goal's cell, for a person's radius class.
    CHECK(f.goals() == std::vector<Cell>{Cell{40, 12}});
    CHECK(f.def().agent_radius == doctest::Approx(0.5));
    // Every unit of the group stands where the field leads to the goal.
    for (int id : u.selection()) CHECK(f.reachable(cell_of(u.crowd().state(id).pose.pos)));
    CHECK(f.distance(Cell{40, 12}) == 0.0);
    CHECK(f.distance(Cell{2, 2}) > f.distance(Cell{36, 12}));
  }
  ui.sb().set_ui_scale(1.0f);
  ui.idle(2);
  ui.shot("flow_field_100", on);
  o.flow_field = false;
  ui.shot("flow_field_off", off);
  // Near the goal the ramp is yellow (much more green than blue), far away purple (more blue
  // than green); a wall cell is not tinted.
  const Cell near_goal{38, 4}, far_cell{2, 22}, wall{30, 4};
  CHECK(ui.pixel(on, near_goal) != ui.pixel(off, near_goal));
  CHECK(channel(ui.pixel(on, near_goal), IM_COL32_G_SHIFT) - channel(ui.pixel(on, near_goal), IM_COL32_B_SHIFT) >
        channel(ui.pixel(on, far_cell), IM_COL32_G_SHIFT) - channel(ui.pixel(on, far_cell), IM_COL32_B_SHIFT) + 60);
  CHECK(ui.pixel(on, wall) == ui.pixel(off, wall));
  // Arrows: dark pixels the ramp alone does not have, spread over the map.
  int dark = 0;
  for (size_t i = 0; i < on.size(); i += 4)
    dark += (on[i] < 40 && on[i + 1] < 40 && on[i + 2] < 50 && !(off[i] < 40 && off[i + 1] < 40 && off[i + 2] < 50)) ? 1 : 0;
  CHECK(dark > 300);
  // Kept while nothing changes; a door shut is a new grid: built again.
  o.flow_field = true;
  ui.idle(3);
  const int builds = ui.sb().crowd_ui().flow_field().builds();
  ui.idle(3);
  CHECK(ui.sb().crowd_ui().flow_field().builds() == builds);
  REQUIRE(u.crowd().door_open(0));
  u.toggle_door(0);  // as a click on it: shut (no unit stands in it)
  u.step(ui.sb().scene());
  REQUIRE_FALSE(u.crowd().door_open(0));
  ui.idle(1);
  CHECK(ui.sb().crowd_ui().flow_field().builds() == builds + 1);
  const FlowField* shut = ui.sb().crowd_ui().flow_field().field();
  REQUIRE(shut != nullptr);
  CHECK_FALSE(shut->reachable(Cell{2, 2}));  // the door was the only way
}

TEST_CASE("flow field overlay: the arrow stride keeps arrows about 28 pixels apart at any zoom") {
  CHECK(FlowFieldOverlay::arrow_stride(30.0f, 1.0f) == 1);
  CHECK(FlowFieldOverlay::arrow_stride(3.0f, 1.0f) == 10);
  CHECK(FlowFieldOverlay::arrow_stride(3.0f, 2.0f) == 19);
  CHECK(FlowFieldOverlay::arrow_stride(0.0f, 1.0f) >= 1);  // never a zero stride
}

TEST_CASE("units zoomed out below 3 pixels are dots of their preset's colour; zoomed in, their shape") {
  io::Scene s;
  s.name = "big map";
  s.grid = Grid::create(256, 256).value();
  s.start.pos = Vec2(10.5, 10.5);
  s.goal.pos = Vec2(240.5, 240.5);
  FlowUi ui(std::move(s));
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  ui.sb().crowd_ui().overlays.legend = false;
  REQUIRE(u.spawn(ui.sb().scene(), "person", Pose{Vec2(128.5, 128.5), 0.0}).empty());
  ui.idle(1);
  std::vector<uint8_t> px;
  ui.shot("units_dot", px);
  REQUIRE(0.3f * ui.sb().scale() < 1.5f);  // the whole map on the canvas: a person is under 3 pixels
  const ImVec2 c = ui.at(u.crowd().state(0).pose.pos);
  auto colour = [&](float dx, float dy) {
    const size_t i = (static_cast<size_t>(c.y + dy) * static_cast<size_t>(ui.host->width()) + static_cast<size_t>(c.x + dx)) * 4;
    return IM_COL32(px[i], px[i + 1], px[i + 2], 255);
  };
  // The dot (4 pixels at 100%) in the person's colour, no white heading line out of it.
  CHECK(colour(0, 0) == preset_colour("person"));
  CHECK(colour(1, 0) == preset_colour("person"));
  CHECK(colour(3, 0) != IM_COL32(255, 255, 255, 255));
  CHECK(colour(4, 0) != preset_colour("person"));
}

TEST_CASE("spawn: up to 10,000 units; beyond, a clear message and nothing spawned") {
  FlowUi ui(wall_scene());
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  const std::string over = u.spawn_area(ui.sb().scene(), kMaxUnits + 1, {1, 0, 0, 0}, Vec2(2, 2), Vec2(28, 22));
  CHECK(over.find("10000") != std::string::npos);
  CHECK(u.count() == 0);
  CHECK(u.spawn_area(ui.sb().scene(), 0, {1, 0, 0, 0}, Vec2(2, 2), Vec2(28, 22)).find("out of range") != std::string::npos);
  CHECK(u.count() == 0);
  // The spawn tool with a typed count beyond the cap says so in the status line.
  ui.sb().crowd_ui().spawn_count = 20000;
  ui.sb().set_tool(Tool::spawn_area);
  const ImVec2 p = ui.at(Vec2(10.5, 12.5));
  ui.click(p);
  CHECK(u.count() == 0);
  CHECK(ui.sb().status().find("20000") != std::string::npos);
  // Within the cap: as many as fit (the area is the limit here, not the cap).
  ui.sb().crowd_ui().spawn_count = 30;
  ui.click(p);
  CHECK(u.count() == 30);
}
