// Scripted UI tests: the real sandbox, driven headless through ImGui input
// (SDL dummy video driver, software renderer).

#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>

#include "host/host.hpp"
#include "sandbox_ui.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/io/scene_file.hpp"

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

struct Ui : test::SandboxUi {
  Ui() : SandboxUi(corridor_scene(), 2) {}
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
  REQUIRE(before.result.found);
  CHECK(before.result.length == doctest::Approx(35.0));
  // Paint a wall across the corridor at x = 20 from the top down to row 16.
  ui.sb().set_tool(Tool::paint);
  ui.drag(Vec2(20.5, 0.5), Vec2(20.5, 16.5), 32);
  ui.idle(1);
  const Grid& g = ui.sb().scene().grid;
  for (int y = 0; y <= 16; ++y) CHECK(g.is_blocked(20, y));
  CHECK(g.is_free(20, 18));
  const PlanView& after = ui.sb().plan();
  REQUIRE(after.result.found);
  CHECK(after.plans > before.plans);
  CHECK(after.result.length > before.result.length + 5.0);  // it has to go round the wall's end
  CHECK_FALSE(crosses_column(after.result.points, 20.5, 0.0, 17.0));
  // Ctrl+Z takes the whole stroke back in one step.
  ui.key_ctrl(ImGuiKey_Z);
  ui.idle(1);
  for (int y = 0; y <= 16; ++y) CHECK(ui.sb().scene().grid.is_free(20, y));
  CHECK(ui.sb().plan().result.length == doctest::Approx(35.0));
  ui.key_ctrl(ImGuiKey_Y);
  ui.idle(1);
  CHECK(ui.sb().scene().grid.is_blocked(20, 5));
}

TEST_CASE("sandbox: the free-hand terrain brush at the slider's cost re-routes the path, Ctrl+Z restores it") {
  Ui ui;
  REQUIRE(ui.sb().plan().result.found);
  const std::vector<Vec2> before = ui.sb().plan().result.points;
  CHECK(ui.sb().plan().result.length == doctest::Approx(35.0));
  // Set the cost with the panel's slider, as a person would: press at its left end, drag past
  // the right end (the dearest terrain, 20x).
  const std::pair<ImVec2, ImVec2> lo_hi = ui.sb().widget_rect("terrain cost");  // no structured binding: lambdas capture these (clang 14)
  const ImVec2 lo = lo_hi.first, hi = lo_hi.second;
  REQUIRE(hi.x > lo.x);
  const float y = (lo.y + hi.y) / 2;
  for (int i = 0; i <= 8; ++i)
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = ImVec2(lo.x + 2 + (hi.x + 40 - lo.x) * static_cast<float>(i) / 8, y);
      for (bool& b : io.MouseDown) b = false;
      io.MouseDown[0] = i > 0;
    });
  ui.idle(1);
  CHECK(ui.sb().terrain_cost() == doctest::Approx(20.0f));
  // A free-hand stroke with a 5-cell brush (radius 2) across the path, from the top edge down
  // to row 15, slightly wavy: cells (18..22, 0..17) become terrain, rows 18 and 19 stay open.
  ui.sb().set_tool(Tool::terrain);
  ui.sb().set_brush(3);
  const Vec2 from(20.5, 0.5);
  ui.mouse(from, false);
  ui.mouse(from, true);
  for (int i = 1; i <= 30; ++i) ui.mouse(Vec2(20.5 + 0.4 * std::sin(i * 0.7), 0.5 + 15.0 * i / 30.0), true);
  ui.mouse(Vec2(20.5, 15.5), false);
  ui.idle(1);
  const Grid& g = ui.sb().scene().grid;
  CHECK(g.cost(20, 10) == doctest::Approx(20.0));
  CHECK(g.cost(18, 5) == doctest::Approx(20.0));
  CHECK(g.cost(20, 19) == doctest::Approx(1.0));
  CHECK(g.blocked_count() == 0);  // terrain, not walls
  // Crossing five cells at 20x costs far more than the detour through the open rows: the path
  // changes and goes round the painted band's end.
  const PlanView& after = ui.sb().plan();
  REQUIRE(after.result.found);
  CHECK(after.result.points != before);
  CHECK(after.result.length > 35.0 + 5.0);
  for (const Vec2& p : after.result.points) CHECK(g.cost(cell_of(p).x, cell_of(p).y) == doctest::Approx(1.0));
  CHECK_FALSE(crosses_column(after.result.points, 20.5, 0.0, 17.0));
  // Ctrl+Z takes the whole stroke back in one step, and with it the old path.
  ui.key_ctrl(ImGuiKey_Z);
  ui.idle(1);
  for (int yy = 0; yy < g.height(); ++yy)
    for (int x = 0; x < g.width(); ++x) CHECK(g.cost(x, yy) == doctest::Approx(1.0));
  CHECK(ui.sb().plan().result.points == before);
}

TEST_CASE("sandbox: start and goal are placed by press-and-drag and stay draggable") {
  Ui ui;
  // Drag the goal marker to a new cell: the path follows.
  ui.drag(Vec2(37.5, 10.5), Vec2(30.5, 3.5));
  ui.idle(1);
  CHECK(cell_of(ui.sb().scene().goal.pos) == Cell{30, 3});
  REQUIRE(ui.sb().plan().result.found);
  CHECK(cell_of(ui.sb().plan().result.points.back()) == Cell{30, 3});
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
  CHECK_FALSE(ui.sb().plan().result.found);
  CHECK_FALSE(ui.sb().plan().result.reason.empty());
}

TEST_CASE("sandbox: save and reopen a scene gives the same scene") {
  const std::string path = (std::filesystem::temp_directory_path() / "pathlab_test_scene.json").string();
  io::Scene saved;
  double length = 0;
  {
    Ui ui;
    ui.sb().set_tool(Tool::terrain);
    ui.drag(Vec2(10.5, 8.5), Vec2(14.5, 8.5));
    ui.sb().set_tool(Tool::paint);
    ui.drag(Vec2(25.5, 2.5), Vec2(25.5, 15.5));
    ui.sb().scene().settings.planner = "theta";
    ui.sb().scene().settings.agent_radius = 0.3;
    ui.sb().replan_now();
    ui.idle(1);
    REQUIRE(ui.sb().save(path));
    saved = ui.sb().scene();
    length = ui.sb().plan().result.length;
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
  CHECK(other.sb().plan().result.length == length);
  // A broken scene file leaves the current scene untouched and says what is wrong.
  const std::string bad = (std::filesystem::temp_directory_path() / "pathlab_test_bad.json").string();
  REQUIRE(io::write_file_atomic(bad, "{\"pathlab_scene\": 1, \"map\": {\"width\": 3}}").ok());
  CHECK_FALSE(other.sb().open(bad));
  CHECK(other.sb().status().find(bad) != std::string::npos);
  CHECK(other.sb().scene().settings.planner == "theta");
  // So do a malformed Moving AI map and a file that only claims to be a PNG.
  const std::string bad_map = (std::filesystem::temp_directory_path() / "pathlab_test_bad.map").string();
  REQUIRE(io::write_file_atomic(bad_map, "type octile\nheight 2\nwidth 3\nmap\n...\n.X\n").ok());
  CHECK_FALSE(other.sb().open(bad_map));
  CHECK(other.sb().status().find(bad_map) != std::string::npos);
  const std::string bad_png = (std::filesystem::temp_directory_path() / "pathlab_test_bad.png").string();
  REQUIRE(io::write_file_atomic(bad_png, "\x89PNG not really").ok());
  CHECK_FALSE(other.sb().open(bad_png));
  CHECK(other.sb().status().find(bad_png) != std::string::npos);
  other.idle(2);  // and the app keeps running on the scene it had
  CHECK(other.sb().scene().grid.width() == saved.grid.width());
  CHECK(other.sb().plan().result.length == length);
  std::filesystem::remove(path);
  std::filesystem::remove(bad);
  std::filesystem::remove(bad_map);
  std::filesystem::remove(bad_png);
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

TEST_CASE("sandbox: dragging the subdivisions slider re-plans with more spline points") {
  Ui ui;
  ui.sb().scene().settings.smoother = "centripetal";
  ui.sb().scene().settings.subdivisions = 2;
  // A wall in the middle gives the spline corners to bend round.
  ui.sb().set_tool(Tool::rect);
  ui.drag(Vec2(20.5, 4.5), Vec2(21.5, 19.5));
  ui.sb().replan_now();
  ui.idle(2);
  REQUIRE(ui.sb().plan().result.found);
  const size_t before = ui.sb().plan().result.points.size();
  const std::pair<ImVec2, ImVec2> lo_hi = ui.sb().widget_rect("subdivisions");  // no structured binding: lambdas capture these (clang 14)
  const ImVec2 lo = lo_hi.first, hi = lo_hi.second;
  REQUIRE(hi.x > lo.x);
  // Press on the slider and drag to its right end: 64 subdivisions.
  const ImVec2 a(lo.x + 4, (lo.y + hi.y) / 2), b(hi.x + 40, (lo.y + hi.y) / 2);
  auto at = [&](ImVec2 p, bool down) {
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = p;
      for (bool& d : io.MouseDown) d = false;
      io.MouseDown[0] = down;
    });
  };
  at(a, false);
  at(a, true);
  for (int i = 1; i <= 6; ++i) at(ImVec2(a.x + (b.x - a.x) * static_cast<float>(i) / 6, a.y), true);
  at(b, false);
  ui.idle(1);
  CHECK(ui.sb().scene().settings.subdivisions == 64);
  REQUIRE(ui.sb().plan().result.found);
  CHECK(ui.sb().plan().result.points.size() > before * 8);
  CHECK(ui.sb().plan().result.blocked_segment < 0);  // the repaired spline never cuts the wall
  CHECK(ui.sb().plan().result.curvature_exact);
  CHECK(ui.sb().plan().result.max_curvature > 0.0);
  // Undo covers settings too: the first takes the slider back, the second the wall; the spline
  // then runs straight again.
  ui.key_ctrl(ImGuiKey_Z);
  ui.idle(1);
  CHECK(ui.sb().scene().settings.subdivisions == 2);
  CHECK(ui.sb().scene().grid.blocked_count() == 32);
  ui.key_ctrl(ImGuiKey_Z);
  ui.idle(1);
  CHECK(ui.sb().scene().grid.blocked_count() == 0);
  CHECK(ui.sb().plan().result.length == doctest::Approx(35.0));
}

TEST_CASE("sandbox: every planner and smoother runs through the pipeline and is measured") {
  io::Scene s = corridor_scene();
  for (int y = 0; y < 15; ++y) s.grid.set_blocked(20, y, true);
  PlanPipeline pipe;
  int runs = 0;
  for (const MethodInfo& p : planner_methods()) {
    for (const MethodInfo& sm : smoother_methods(p.name)) {
      s.settings.planner = p.name;
      s.settings.smoother = sm.name;
      s.settings.turning_radius = 1.5;
      const std::string what = std::string(p.name) + " + " + sm.name;
      CAPTURE(what);
      const PlanView v = pipe.plan(s);
      ++runs;
      CHECK(v.error.empty());
      REQUIRE(v.result.found);
      CHECK(v.result.length >= 35.0 - 1e-9);
      CHECK(v.result.time_ms >= 0.0);
      if (planner_family(p.name) == PlannerFamily::curve) {
        // Curve planners go straight through the wall, and say so.
        CHECK_FALSE(v.result.violations.empty());
      } else {
        // Walls are never crossed; a spline may turn tighter than the turning radius (and says so).
        CHECK(v.result.blocked_segment < 0);
        for (const std::string& why : v.result.violations) {
          CAPTURE(why);
          CHECK(why.find("turning radius") != std::string::npos);
          // Splines may bend too tightly; the turning smoother may shrink a fillet that does not fit.
          CHECK((is_spline_smoother(sm.name) || std::string(sm.name) == "turning" || std::string(sm.name) == "vehicle"));
        }
      }
      if (std::string(sm.name) == "turning") {
        // Arcs, measured on the curve: the corners round the wall's end are fillets of the radius.
        CHECK(v.result.curvature_exact);
        CHECK(v.result.curvature.size() == v.result.points.size());
        CHECK(v.result.max_curvature > 0.0);
        CHECK(v.result.max_curvature <= 1.0 / 1.5 + 1e-6);
        // Grid paths leave room for fillets; the navmesh funnel path touches the wall's end, where
        // only spot turns fit.
        const char* kind = planner_family(p.name) == PlannerFamily::grid ? "fillet" : "turns:";
        CHECK(std::any_of(v.result.notes.begin(), v.result.notes.end(),
                          [&](const std::string& n) { return n.find(kind) != std::string::npos; }));
      }
    }
  }
  CHECK(runs >= 16);
  // No path: a closed wall gives a reason, not an error.
  for (int y = 0; y < 20; ++y) s.grid.set_blocked(20, y, true);
  pipe.map_changed();
  for (const char* p : {"astar", "jps", "theta", "navmesh", "hybrid", "directional"}) {
    s.settings.planner = p;
    s.settings.smoother = "none";
    CAPTURE(p);
    const PlanView v = pipe.plan(s);
    CHECK(v.error.empty());
    CHECK_FALSE(v.result.found);
    CHECK_FALSE(v.result.reason.empty());
  }
}

TEST_CASE("sandbox: units follow the path, and re-plan when a wall is painted under them") {
  const std::string path = (std::filesystem::temp_directory_path() / "pathlab_test_units.json").string();
  {
    Ui ui;
    UnitSwarm& units = ui.sb().units();
    CHECK(units.spawn(ui.sb().scene(), "person", ui.sb().scene().start).empty());
    CHECK(units.spawn(ui.sb().scene(), "tank", ui.sb().scene().start).empty());
    CHECK_FALSE(units.spawn(ui.sb().scene(), "dragon", ui.sb().scene().start).empty());
    REQUIRE(units.count() == 2);
    // Paused: the frames below (the wall drag) must not step the crowd by the wall clock, so
    // the run is the same every time; the test steps it by hand.
    units.set_playing(false);
    for (int i = 0; i < 60; ++i) units.step(ui.sb().scene());
    const Vec2 p1 = units.crowd().state(0).pose.pos;
    CHECK(p1.x > 3.0);  // walking towards the goal
    // A wall ahead of the units, leaving a gap at the bottom: they re-plan round it.
    ui.sb().set_tool(Tool::rect);
    ui.drag(Vec2(20.5, 0.5), Vec2(20.5, 17.5));
    ui.idle(2);
    for (int i = 0; i < 60 * 40 && !units.crowd().all_arrived(); ++i) units.step(ui.sb().scene());
    CHECK(units.replans(0) >= 1);
    CHECK(units.arrived() == 2);
    CHECK(units.metrics().min_separation >= 0.0);  // the bodies never overlapped
    for (int u = 0; u < 2; ++u) {
      // Two units share the goal: they settle next to it (in the first or second ring of
      // slots, 1.15 and 2.3 cells out: a tank that cannot line up with its slot takes another).
      CHECK(glm::length(units.crowd().state(u).pose.pos - ui.sb().scene().goal.pos) < 2.5);
    }
    const double apart = glm::length(units.crowd().state(0).pose.pos - units.crowd().state(1).pose.pos);
    CHECK(apart >= units.crowd().agent_def(0).unit.radius + units.crowd().agent_def(1).unit.radius);  // not on one point
    // The units are saved with the scene and come back from it.
    REQUIRE(ui.sb().save(path));
  }
  Ui other;  // one ImGui context at a time
  REQUIRE(other.sb().open(path));
  CHECK(other.sb().units().count() == 2);
  CHECK(other.sb().scene().units.at(1).preset == "tank");
  std::filesystem::remove(path);
}

TEST_CASE("sandbox: the steer-point overlay draws the waypoint the unit heads for") {
  Ui ui;
  // A wall with a gap at the bottom: the route bends, so its next waypoint is not the goal.
  for (int y = 0; y < 15; ++y) ui.sb().scene().grid.set_blocked(20, y, true);
  ui.sb().map_changed();
  ui.idle(2);
  UnitSwarm& units = ui.sb().units();
  REQUIRE(units.spawn(ui.sb().scene(), "car", ui.sb().scene().start).empty());
  units.set_playing(false);  // frames draw the state; only step() moves it
  for (int i = 0; i < 40; ++i) units.step(ui.sb().scene());
  const CrowdAgentState& st = units.crowd().state(0);
  REQUIRE_FALSE(st.arrived);
  REQUIRE(st.route.size() >= 3);
  const Vec2 la = st.route[static_cast<size_t>(st.next_waypoint)];
  REQUIRE(glm::length(la - st.pose.pos) > 0.5);  // the crowd's own waypoint, ahead of the unit
  auto pixel_at_lookahead = [&](bool on) {
    ui.sb().inspector().overlays().lookahead = on;
    std::vector<uint8_t> px;
    ui.host->frame({}, &px);
    const ImVec2 p = ui.sb().world_to_screen(la);
    const size_t i = (static_cast<size_t>(p.y) * static_cast<size_t>(ui.host->width()) + static_cast<size_t>(p.x)) * 4;
    return std::array<int, 3>{px[i], px[i + 1], px[i + 2]};
  };
  const auto on = pixel_at_lookahead(true);
  CHECK(on[0] > 200);  // orange (255, 140, 0)
  CHECK(on[1] > 100);
  CHECK(on[1] < 180);
  CHECK(on[2] < 60);
  const auto off = pixel_at_lookahead(false);
  CHECK_FALSE((off[0] > 200 && off[1] > 100 && off[1] < 180 && off[2] < 60));
}

TEST_CASE("sandbox: pathlab-cli plan --map scene.json plans the same scene headless") {
  const std::string path = (std::filesystem::temp_directory_path() / "pathlab_test_cli_scene.json").string();
  io::Scene s = corridor_scene();
  for (int y = 3; y < 20; ++y) s.grid.set_blocked(15, y, true);
  s.settings.planner = "theta";
  s.settings.smoother = "centripetal";
  s.settings.subdivisions = 5;
  s.settings.agent_radius = 0.25;
  REQUIRE(io::save_scene(s, path).ok());
  PlanPipeline pipe;
  const PlanView v = pipe.plan(s);
  REQUIRE(v.result.found);
  const std::string out = (std::filesystem::temp_directory_path() / "pathlab_test_cli_scene.out").string();
  const std::string cmd = std::string(PATHLAB_CLI) + " plan --map " + path + " --json > " + out;
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto pos = text.find("\"length\":");
  REQUIRE(pos != std::string::npos);
  CHECK(std::stod(text.substr(pos + 9)) == doctest::Approx(v.result.length).epsilon(1e-12));
  // A broken scene is an error with the file's name, exit status 2.
  REQUIRE(io::write_file_atomic(path, "{\"pathlab_scene\": 2, \"map\": 3}").ok());
  const std::string bad = std::string(PATHLAB_CLI) + " plan --map " + path + " 2> " + out;
  CHECK(WEXITSTATUS(std::system(bad.c_str())) == 2);
  std::ifstream err(out);
  std::string etext((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  CHECK(etext.rfind("error: ", 0) == 0);
  CHECK(etext.find(path) != std::string::npos);
  std::filesystem::remove(path);
  std::filesystem::remove(out);
}

TEST_CASE("sandbox: the 'convex polygons' checkbox switches the navmesh to rectangles, same path") {
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/maps/navmesh-convex-round-room.json");
  REQUIRE(scene.ok());
  test::SandboxUi ui(std::move(*scene), 2);
  REQUIRE(ui.sb().plan().result.found);
  REQUIRE(ui.sb().scene().settings.navmesh_convex);
  const double length = ui.sb().plan().result.length;
  const size_t convex_corridor = corridor_rings(ui.sb().plan().result).size();
  const std::pair<ImVec2, ImVec2> lo_hi = ui.sb().widget_rect("convex polygons");  // no structured binding: lambdas capture these (clang 14)
  const ImVec2 lo = lo_hi.first, hi = lo_hi.second;
  REQUIRE(hi.x > lo.x);
  const ImVec2 box(lo.x + 6, (lo.y + hi.y) / 2);
  for (const bool down : {false, true, false}) {
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = box;
      for (bool& d : io.MouseDown) d = false;
      io.MouseDown[0] = down;
    });
  }
  ui.idle(2);
  CHECK_FALSE(ui.sb().scene().settings.navmesh_convex);
  REQUIRE(ui.sb().plan().result.found);
  CHECK(ui.sb().plan().result.length == doctest::Approx(length).epsilon(1e-9));  // exact on either mesh
  MESSAGE("corridor polygons: convex " << convex_corridor << ", rectangles " << corridor_rings(ui.sb().plan().result).size());
  CHECK(corridor_rings(ui.sb().plan().result).size() >= 2 * convex_corridor);
}
