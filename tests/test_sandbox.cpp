// Scripted UI tests: the real sandbox, driven headless through ImGui input
// (SDL dummy video driver, software renderer).

#include <doctest/doctest.h>

#include <cmath>
#include <array>
#include <cstdlib>
#include <filesystem>

#include "host.hpp"
#include "scene_file.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

io::Scene corridor_scene() {
  io::Scene s;
  s.name = "test corridor";
  s.grid = Grid::create(40, 20).value();
  s.start.pos = Vec2(2.5, 10.5);
  s.goal.pos = Vec2(37.5, 10.5);
  return s;
}

struct Ui {
  std::unique_ptr<Host> host;
  Ui() {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    setenv("SDL_RENDER_DRIVER", "software", 1);
    auto h = Host::create(1280, 800, true);
    REQUIRE_MESSAGE(h.ok(), (h.ok() ? "" : h.error().message));
    host = std::move(*h);
    host->set_sandbox(std::make_unique<Sandbox>(host->renderer(), corridor_scene(), ""));
    idle(2);
  }
  Sandbox& sb() { return host->sandbox(); }
  /// Frames with the mouse at a world point, button held or not.
  void mouse(Vec2 world, bool down, int frames = 1, int button = 0) {
    const ImVec2 p = sb().world_to_screen(world);
    for (int i = 0; i < frames; ++i) {
      host->frame([&](ImGuiIO& io) {
        io.MousePos = p;
        for (bool& b : io.MouseDown) b = false;
        io.MouseDown[button] = down;
      });
    }
  }
  void idle(int frames) {
    for (int i = 0; i < frames; ++i)
      host->frame([](ImGuiIO& io) {
        io.MousePos = ImVec2(-1, -1);
        for (bool& b : io.MouseDown) b = false;
      });
  }
  void drag(Vec2 from, Vec2 to, int steps = 8, int button = 0) {
    mouse(from, false, 1, button);
    mouse(from, true, 1, button);
    for (int i = 1; i <= steps; ++i) mouse(from + (to - from) * (static_cast<double>(i) / steps), true, 1, button);
    mouse(to, false, 1, button);
  }
  void key_ctrl(int imgui_key) {
    host->frame([&](ImGuiIO& io) {
      io.KeyCtrl = true;
      io.KeysDown[ImGui::GetKeyIndex(imgui_key)] = true;
    });
    host->frame([&](ImGuiIO& io) {
      io.KeyCtrl = false;
      io.KeysDown[ImGui::GetKeyIndex(imgui_key)] = false;
    });
  }
};

bool crosses_column(const std::vector<Vec2>& pts, double x, double y0, double y1) {
  for (size_t i = 1; i < pts.size(); ++i) {
    const Vec2 a = pts[i - 1], b = pts[i];
    if ((a.x - x) * (b.x - x) > 0 || a.x == b.x) continue;
    const double y = a.y + (x - a.x) / (b.x - a.x) * (b.y - a.y);
    if (y >= y0 && y <= y1) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("sandbox: painting a wall across the path re-plans around it, undo restores it") {
  Ui ui;
  const PlanView before = ui.sb().plan();
  REQUIRE(before.found);
  CHECK(before.length == doctest::Approx(35.0));
  // Paint a wall across the corridor at x = 20 from the top down to row 16.
  ui.sb().set_tool(Tool::paint);
  ui.drag(Vec2(20.5, 0.5), Vec2(20.5, 16.5), 32);
  ui.idle(1);
  const Grid& g = ui.sb().scene().grid;
  for (int y = 0; y <= 16; ++y) CHECK(g.is_blocked(20, y));
  CHECK(g.is_free(20, 18));
  const PlanView& after = ui.sb().plan();
  REQUIRE(after.found);
  CHECK(after.plans > before.plans);
  CHECK(after.length > before.length + 5.0);  // it has to go round the wall's end
  CHECK_FALSE(crosses_column(after.points, 20.5, 0.0, 17.0));
  // Ctrl+Z takes the whole stroke back in one step.
  ui.key_ctrl(ImGuiKey_Z);
  ui.idle(1);
  for (int y = 0; y <= 16; ++y) CHECK(ui.sb().scene().grid.is_free(20, y));
  CHECK(ui.sb().plan().length == doctest::Approx(35.0));
  ui.key_ctrl(ImGuiKey_Y);
  ui.idle(1);
  CHECK(ui.sb().scene().grid.is_blocked(20, 5));
}

TEST_CASE("sandbox: start and goal are placed by press-and-drag and stay draggable") {
  Ui ui;
  // Drag the goal marker to a new cell: the path follows.
  ui.drag(Vec2(37.5, 10.5), Vec2(30.5, 3.5));
  ui.idle(1);
  CHECK(cell_of(ui.sb().scene().goal.pos) == Cell{30, 3});
  REQUIRE(ui.sb().plan().found);
  CHECK(cell_of(ui.sb().plan().points.back()) == Cell{30, 3});
  // The goal tool: press sets the position, dragging sets the heading (down the map = 90 deg).
  ui.sb().set_tool(Tool::goal);
  ui.drag(Vec2(10.5, 5.5), Vec2(10.5, 12.5));
  ui.idle(1);
  CHECK(cell_of(ui.sb().scene().goal.pos) == Cell{10, 5});
  CHECK(rad_to_deg(ui.sb().scene().goal.heading) == doctest::Approx(90.0).epsilon(0.02));
  // Drag the heading handle (the arrow's tip) of the start to point left.
  const Pose st = ui.sb().scene().start;
  const ImVec2 tip = ui.sb().world_to_screen(st.pos + Vec2(std::cos(st.heading), std::sin(st.heading)) *
                                                         (28.0 / (ui.sb().world_to_screen(Vec2(1, 0)).x -
                                                                  ui.sb().world_to_screen(Vec2(0, 0)).x)));
  ui.sb().set_tool(Tool::paint);
  const Vec2 tip_world = ui.sb().screen_to_world(tip.x, tip.y);
  ui.drag(tip_world, st.pos + Vec2(-3, 0));
  ui.idle(1);
  CHECK(std::abs(std::abs(rad_to_deg(ui.sb().scene().start.heading)) - 180.0) < 2.0);
  CHECK(ui.sb().scene().grid.blocked_count() == 0);  // dragging handles never paints
}

TEST_CASE("sandbox: a wall that closes the map says why there is no path") {
  Ui ui;
  ui.sb().set_tool(Tool::rect);
  ui.drag(Vec2(20.5, 0.5), Vec2(21.5, 19.5));
  ui.idle(1);
  CHECK(ui.sb().scene().grid.is_blocked(21, 19));
  CHECK_FALSE(ui.sb().plan().found);
  CHECK_FALSE(ui.sb().plan().reason.empty());
}

TEST_CASE("sandbox: save and reopen a scene gives the same scene") {
  const std::string path = (std::filesystem::temp_directory_path() / "pathlab_test_scene.json").string();
  io::Scene saved;
  double length = 0;
  {
    Ui ui;
    ui.sb().set_tool(Tool::swamp);
    ui.drag(Vec2(10.5, 8.5), Vec2(14.5, 8.5));
    ui.sb().set_tool(Tool::paint);
    ui.drag(Vec2(25.5, 2.5), Vec2(25.5, 15.5));
    ui.sb().scene().settings.planner = "theta";
    ui.sb().scene().settings.agent_radius = 0.3;
    ui.sb().replan_now();
    ui.idle(1);
    REQUIRE(ui.sb().save(path));
    saved = ui.sb().scene();
    length = ui.sb().plan().length;
    CHECK(saved.grid.cost(12, 8) == doctest::Approx(3.0));
  }
  Ui other;  // a fresh sandbox (ImGui has one context at a time)
  REQUIRE(other.sb().open(path));
  other.idle(1);
  const io::Scene& back = other.sb().scene();
  CHECK(back.grid.width() == saved.grid.width());
  for (int y = 0; y < saved.grid.height(); ++y)
    for (int x = 0; x < saved.grid.width(); ++x) CHECK(back.grid.cost(x, y) == saved.grid.cost(x, y));
  CHECK(back.start.pos == saved.start.pos);
  CHECK(back.goal.pos == saved.goal.pos);
  CHECK(back.settings.planner == "theta");
  CHECK(back.settings.agent_radius == 0.3);
  CHECK(other.sb().plan().length == length);
  // A broken scene file leaves the current scene untouched and says what is wrong.
  const std::string bad = (std::filesystem::temp_directory_path() / "pathlab_test_bad.json").string();
  REQUIRE(io::write_file_atomic(bad, "{\"pathlab_scene\": 1, \"map\": {\"width\": 3}}").ok());
  CHECK_FALSE(other.sb().open(bad));
  CHECK(other.sb().status().find(bad) != std::string::npos);
  CHECK(other.sb().scene().settings.planner == "theta");
  std::filesystem::remove(path);
  std::filesystem::remove(bad);
}

TEST_CASE("sandbox: the screen shows the map, the path and the panel") {
  Ui ui;
  std::vector<uint8_t> px;
  ui.host->frame({}, &px);
  REQUIRE(px.size() == static_cast<size_t>(ui.host->width()) * ui.host->height() * 4);
  auto at = [&](ImVec2 p) {
    const size_t i = (static_cast<size_t>(p.y) * static_cast<size_t>(ui.host->width()) + static_cast<size_t>(p.x)) * 4;
    return std::array<int, 3>{px[i], px[i + 1], px[i + 2]};
  };
  // A path pixel (red line on row 10.5) and a free map pixel away from it.
  const auto on_path = at(ui.sb().world_to_screen(Vec2(20.0, 10.5)));
  CHECK(on_path[0] > 150);
  CHECK(on_path[1] < 100);
  const auto floor = at(ui.sb().world_to_screen(Vec2(20.5, 18.5)));
  CHECK(floor[0] > 200);
  CHECK(floor[1] > 200);
}
