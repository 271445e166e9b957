// Scripted UI tests of the "seeing inside" views (issue 9): search replay, compare mode, export,
// the preset gallery and the help window. The real sandbox runs headless (SDL dummy video
// driver, software renderer) and is driven through ImGui input, like tests/test_sandbox.cpp.
// Set PATHLAB_SCREENSHOT_DIR to keep a PNG of every preset scene for people to look at.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "document/export.hpp"
#include "document/gallery.hpp"
#include "host/host.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/collision.hpp"
#include "planning/replay.hpp"
#include "sandbox_ui.hpp"
#include "pathlab/io/scene_file.hpp"
#include "test_support.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

// A room split by a wall with a gap at the bottom: A* has to spread out before it finds the way
// round, so early and late expansions are far apart on the screen.
io::Scene wall_scene() {
  io::Scene s;
  s.name = "views test";
  s.grid = Grid::create(40, 20).value();
  for (int y = 0; y <= 15; ++y) s.grid.set_cost(20, y, kBlocked);
  s.start.pos = Vec2(5.5, 5.5);
  s.goal.pos = Vec2(35.5, 5.5);
  return s;
}

struct Ui : test::SandboxUi {
  explicit Ui(io::Scene scene = wall_scene()) : SandboxUi(std::move(scene), 3) {}
  Inspector& in() { return sb().inspector(); }
  /// Hover, press and release at a screen point (a click ImGui sees as one).
  void click(ImVec2 p) {
    for (int down : {0, 1, 0})
      host->frame([&](ImGuiIO& io) {
        io.MousePos = p;
        for (bool& b : io.MouseDown) b = false;
        io.MouseDown[0] = down == 1;
      });
  }
  /// Clicks a control the inspector drew, at a fraction of its width.
  void click_widget(const std::string& name, float fx = 0.5f) {
    const auto [a, b] = in().widget(name);
    REQUIRE_MESSAGE(b.x > a.x, "control not drawn: " << name);
    click(ImVec2(a.x + (b.x - a.x) * fx, (a.y + b.y) * 0.5f));
  }
  void key(int index, bool shift = false) {
    host->frame([&](ImGuiIO& io) {
      io.MousePos = ImVec2(-1, -1);
      io.KeyShift = shift;
      io.KeysDown[index] = true;
    });
    host->frame([&](ImGuiIO& io) {
      io.KeyShift = false;
      io.KeysDown[index] = false;
    });
  }
  void show(Inspector::Tab t) {
    in().show_tab(t);
    idle(2);
    REQUIRE(in().tab() == t);
  }
  std::vector<uint8_t> capture() {
    std::vector<uint8_t> px;
    host->frame(
        [](ImGuiIO& io) {
          io.MousePos = ImVec2(-1, -1);
          for (bool& b : io.MouseDown) b = false;
        },
        &px);
    return px;
  }
  std::array<int, 3> pixel(const std::vector<uint8_t>& px, ImVec2 p) {
    const size_t i = (static_cast<size_t>(p.y) * static_cast<size_t>(host->width()) + static_cast<size_t>(p.x)) * 4;
    return {px[i], px[i + 1], px[i + 2]};
  }
};

}  // namespace

TEST_CASE("replay: scrubbing to step k shows exactly k expansions") {
  Ui ui;
  ui.show(Inspector::Tab::replay);
  const PlanView& plan = ui.sb().plan();
  REQUIRE(plan.result.found);
  REQUIRE(!plan.result.trace.empty());
  ReplayModel& r = ui.in().replay();
  REQUIRE(r.source() == ReplayModel::Source::grid);
  // The whole search is loaded: one step per close event of the trace. That is the planner's
  // expansion count plus the last step, which takes the goal off the open list.
  const auto closes = std::count_if(plan.result.trace.begin(), plan.result.trace.end(), [](const TraceEvent& e) { return e.kind == TraceEvent::close; });
  CHECK(r.steps() == closes);
  CHECK(r.steps() == plan.result.expanded + 1);
  CHECK(r.step() == r.steps());  // a fresh search opens finished

  // Click the scrub slider at 30% of its width, the way a person scrubs.
  ui.click_widget("scrub", 0.3f);
  ui.idle(1);
  const int64_t k = r.step();
  INFO("scrubbed to step " << k << " of " << r.steps());
  CHECK(k > r.steps() / 10);
  CHECK(k < r.steps() / 2);

  // Exactly k expansions shown: k close events applied, and (plain A*: each cell closes once)
  // exactly the first k closed cells of the trace are closed on screen.
  CHECK(r.expansions_shown() == k);
  std::vector<Cell> order;
  for (const TraceEvent& e : plan.result.trace)
    if (e.kind == TraceEvent::close) order.push_back(e.cell);
  const Grid& g = ui.sb().scene().grid;
  int64_t closed = 0;
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) closed += r.state(static_cast<int>(g.index(x, y))) == ReplayModel::closed;
  CHECK(closed == k);
  for (int64_t i = 0; i < k; ++i)
    CHECK(r.state(static_cast<int>(g.index(order[static_cast<size_t>(i)].x, order[static_cast<size_t>(i)].y))) == ReplayModel::closed);
  const Cell cur = order[static_cast<size_t>(k - 1)];
  CHECK(r.current() == static_cast<int>(g.index(cur.x, cur.y)));
  // The frontier at step k is non-empty (the search is not over) and nothing closed later is closed yet.
  CHECK(r.open_count() > 0);
  for (size_t i = static_cast<size_t>(k); i < order.size(); ++i)
    CHECK(r.state(static_cast<int>(g.index(order[i].x, order[i].y))) != ReplayModel::closed);

  // On screen: a cell expanded within the first k is tinted blue; one first reached much later
  // shows the bare floor. Cells near the path or the markers are skipped (drawn over).
  const auto px = ui.capture();
  auto clear_of_drawing = [&](Cell c) {
    const Vec2 p = cell_center(c);
    return test::distance_to_polyline(p, plan.result.points) > 1.5 && glm::length(p - ui.sb().scene().start.pos) > 3 &&
           glm::length(p - ui.sb().scene().goal.pos) > 3;
  };
  int checked_closed = 0, checked_unseen = 0;
  for (int64_t i = 0; i < k && checked_closed < 5; ++i) {
    const Cell c = order[static_cast<size_t>(i)];
    if (!clear_of_drawing(c) || i + 1 == k) continue;
    const auto rgb = ui.pixel(px, ui.sb().world_to_screen(cell_center(c)));
    CHECK_MESSAGE(rgb[2] > rgb[0] + 30, "cell (" << c.x << "," << c.y << ") closed at step " << i + 1);
    ++checked_closed;
  }
  for (size_t i = order.size() - 1; i > static_cast<size_t>(k) && checked_unseen < 5; --i) {
    const Cell c = order[i];
    if (!clear_of_drawing(c) || r.state(static_cast<int>(g.index(c.x, c.y))) != ReplayModel::unseen) continue;
    const auto rgb = ui.pixel(px, ui.sb().world_to_screen(cell_center(c)));
    CHECK_MESSAGE(rgb[0] > 200, "cell (" << c.x << "," << c.y << ") not reached at step " << k);
    CHECK(std::abs(rgb[0] - rgb[2]) < 20);
    ++checked_unseen;
  }
  CHECK(checked_closed == 5);
  CHECK(checked_unseen == 5);

  // Scrubbing back to the start shows no expansions, only the start on the frontier.
  ui.click_widget("scrub", 0.0f);
  ui.idle(1);
  CHECK(r.step() == 0);
  CHECK(r.expansions_shown() == 0);
  CHECK(r.closed_count() == 0);
  CHECK(r.open_count() == 1);
}

TEST_CASE("replay: step buttons, keys and playback move one expansion at a time") {
  Ui ui;
  ui.show(Inspector::Tab::replay);
  ReplayModel& r = ui.in().replay();
  ui.click_widget("first");
  CHECK(r.step() == 0);
  for (int i = 0; i < 3; ++i) ui.click_widget("step");
  CHECK(r.step() == 3);
  CHECK(r.expansions_shown() == 3);
  ui.click_widget("back");
  CHECK(r.step() == 2);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow));
  CHECK(r.step() == 3);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_RightArrow), true);
  CHECK(r.step() == 13);
  ui.key(ImGui::GetKeyIndex(ImGuiKey_End));
  CHECK(r.step() == r.steps());
  ui.key(ImGui::GetKeyIndex(ImGuiKey_Home));
  CHECK(r.step() == 0);
  // Play: the step advances with time and stops at the end by itself.
  r.speed = 20000.0f;
  ui.click_widget("play");
  CHECK(r.playing);
  ui.idle(3);
  CHECK(r.step() > 0);
  for (int i = 0; i < 200 && r.playing; ++i) ui.idle(1);
  CHECK_FALSE(r.playing);
  CHECK(r.step() == r.steps());
  // A new plan (the goal moves) reloads the replay with the new search.
  const int64_t before = r.steps();
  ui.sb().scene().goal.pos = Vec2(35.5, 18.5);
  ui.sb().replan_now();
  ui.idle(2);
  CHECK(r.steps() == ui.sb().plan().result.expanded + 1);
  CHECK(r.steps() != before);
}

TEST_CASE("replay: the costs shown on hover come from the trace") {
  Ui ui;
  ReplayModel& r = ui.in().replay();
  const Grid& g = ui.sb().scene().grid;
  // After the finished search the start's neighbour (6, 5) is closed, one step from the start.
  const int n = static_cast<int>(g.index(6, 5));
  REQUIRE(r.state(n) == ReplayModel::closed);
  CHECK(r.g(n) == doctest::Approx(1.0));
  CHECK(r.f(n) >= r.g(n));
}

TEST_CASE("compare mode: the registry's planners on one scene, with legend and table") {
  Ui ui;
  ui.show(Inspector::Tab::compare);
  ui.click_widget("compare_show");
  ui.idle(1);
  REQUIRE(ui.in().compare_shown());
  REQUIRE_FALSE(ui.in().compare_busy());  // the tests' long plan wait lets every row finish at once
  auto& runs = ui.in().compare_runs();
  REQUIRE(runs.size() >= 5);
  auto find = [&](const std::string& p) -> CompareRun& {
    for (CompareRun& c : runs)
      if (c.planner == p) return c;
    FAIL("no compare row " << p);
    return runs.front();
  };
  CompareRun& astar = find("astar");
  CompareRun& theta = find("theta");
  CompareRun& nav = find("navmesh");
  // The scene's own smoother for grid rows, each other kind its default.
  CHECK(astar.smoother == "none");
  CHECK(theta.smoother == "none");
  CHECK(nav.smoother == "funnel");
  for (CompareRun* c : {&astar, &theta, &nav}) {
    REQUIRE(c->enabled);
    REQUIRE(c->view.result.found);
    CHECK(c->view.result.length > 30.0);
    CHECK(polyline_clear(ui.sb().scene().grid, c->view.result.points));
  }
  // The same A* as the main plan; any-angle paths and the funnel are never longer.
  CHECK(astar.view.result.length == doctest::Approx(ui.sb().plan().result.length));
  CHECK(theta.view.result.length <= astar.view.result.length + 1e-9);
  CHECK(nav.view.result.length <= astar.view.result.length + 1e-9);
  CHECK(astar.view.result.expanded > 0);
  CHECK(astar.view.result.max_curvature > 0.0);
  // Clearance: the wall at x = 20 is passed round its end at (20..21, 16); a path touching a
  // corner has clearance 0, none can be more than the gap below the wall allows.
  for (CompareRun* c : {&astar, &theta, &nav}) {
    CHECK(c->clearance >= 0.0);
    CHECK(c->clearance <= 2.0);
  }

  // Untick a row in the table: it disappears from the runs and the legend.
  ui.click_widget("compare:theta", 0.1f);
  ui.idle(1);
  CHECK_FALSE(theta.enabled);
  CHECK_FALSE(theta.view.valid);

  // The paths are drawn in their colours, each shifted by a few pixels so coinciding paths stay
  // visible: the navmesh's (valid, so solid) shows along its length, within 3 pixels of its points.
  const auto px = ui.capture();
  const ImU32 col = nav.colour;
  const int cr = static_cast<int>(col & 0xFF), cg = static_cast<int>((col >> 8) & 0xFF), cb = static_cast<int>((col >> 16) & 0xFF);
  int hits = 0, probes = 0;
  for (size_t i = 1; i < nav.view.result.points.size(); ++i) {
    for (double t = 0.2; t < 0.8; t += 0.1, ++probes) {
      const Vec2 p = nav.view.result.points[i - 1] + (nav.view.result.points[i] - nav.view.result.points[i - 1]) * t;
      const ImVec2 q = ui.sb().world_to_screen(p);
      bool hit = false;
      for (int dy = -3; dy <= 3 && !hit; ++dy)
        for (int dx = -3; dx <= 3 && !hit; ++dx) {
          const auto rgb = ui.pixel(px, ImVec2(q.x + static_cast<float>(dx), q.y + static_cast<float>(dy)));
          hit = std::abs(rgb[0] - cr) < 40 && std::abs(rgb[1] - cg) < 40 && std::abs(rgb[2] - cb) < 40;
        }
      hits += hit;
    }
  }
  CHECK(hits > probes / 2);
  // The legend box (white) sits beside the map, not over it.
  const ImVec2 at = ui.in().legend_at();
  const ImVec2 map_right = ui.sb().world_to_screen(Vec2(ui.sb().scene().grid.width(), 0));
  CHECK(at.x >= map_right.x);
  const auto legend = ui.pixel(px, ImVec2(at.x + 4, at.y + 4));
  CHECK(legend[0] > 230);
  CHECK(legend[1] > 230);
}

TEST_CASE("export: path CSV and JSON round-trip through the Export tab's buttons") {
  Ui ui;
  const std::string dir = (std::filesystem::temp_directory_path() / "pathlab_views_export").string();
  std::filesystem::create_directories(dir);
  ui.in().set_export_dir(dir);
  ui.sb().scene().settings.smoother = "centripetal";  // curved, so curvature is not all zero
  ui.sb().replan_now();
  ui.show(Inspector::Tab::export_);
  const PlanView& plan = ui.sb().plan();
  REQUIRE(plan.result.found);
  REQUIRE(plan.result.points.size() > 10);

  ui.click_widget("export_csv");
  REQUIRE(ui.in().last_export() == dir + "/path.csv");
  ui.click_widget("export_json");
  REQUIRE(ui.in().last_export() == dir + "/path.json");
  auto read = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  auto csv = parse_path_csv(read(dir + "/path.csv"));
  auto json = parse_path_json(read(dir + "/path.json"));
  REQUIRE(csv.ok());
  REQUIRE(json.ok());
  for (const ExportedPath* e : {&*csv, &*json}) {
    REQUIRE(e->points.size() == plan.result.points.size());
    for (size_t i = 0; i < plan.result.points.size(); ++i) CHECK(e->points[i] == plan.result.points[i]);  // bit for bit
    REQUIRE(e->curvature.size() == plan.result.curvature.size());
    for (size_t i = 0; i < plan.result.curvature.size(); ++i) CHECK(e->curvature[i] == plan.result.curvature[i]);
    CHECK(e->length == doctest::Approx(plan.result.length).epsilon(1e-9));
  }
  CHECK(json->planner == "astar");
  CHECK(json->smoother == "centripetal");
  // Broken input is an error that says where.
  auto bad = parse_path_csv("index,x,y\n0,1,2\n1,oops,3\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("line 3") != std::string::npos);

  // Copy scene: the clipboard holds scene JSON that loads back to the same scene.
  ui.click_widget("copy_scene");
  char* clip = SDL_GetClipboardText();
  REQUIRE(clip != nullptr);
  const std::string text = clip;
  SDL_free(clip);
  if (text.empty()) {
    // The dummy video driver may keep no clipboard; the text is still what the button copies.
    MESSAGE("clipboard unavailable under this video driver; checking the scene JSON directly");
  }
  const std::string scene_json = text.empty() ? io::scene_to_json(ui.sb().scene()) : text;
  auto back = io::parse_scene(scene_json, "clipboard", ".");
  REQUIRE(back.ok());
  CHECK(back->grid.width() == 40);
  CHECK(back->grid.is_blocked(20, 3));
  CHECK(back->settings.smoother == "centripetal");
  std::filesystem::remove_all(dir);
}

TEST_CASE("gallery: every preset scene parses, plans, and opens in one click with its views") {
  const std::string scenes = std::string(PATHLAB_ASSETS_DIR) + "/scenes";
  const auto entries = scan_gallery(scenes);
  REQUIRE(entries.size() >= 10);
  std::set<std::string> categories;
  for (const GalleryEntry& e : entries) categories.insert(e.category);
  CHECK(categories.count("articles") == 1);
  CHECK(categories.count("maps") == 1);
  CHECK(categories.count("issues") == 1);

  // Every scene file loads and plans with the pipeline the sandbox uses.
  PlanPipeline pipeline;
  int with_path = 0;
  for (const auto& f : std::filesystem::recursive_directory_iterator(scenes)) {
    if (f.path().extension() != ".json") continue;
    INFO(f.path().string());
    auto sc = io::load_scene(f.path().string());
    REQUIRE_MESSAGE(sc.ok(), (sc.ok() ? "" : sc.error().message));
    pipeline.map_changed();
    const PlanView v = pipeline.plan(*sc, false);
    CHECK_MESSAGE(v.error.empty(), v.error);
    with_path += v.result.found;
    if (f.path().filename() == "radius-closes-the-door.json") {
      CHECK_FALSE(v.result.found);  // the bug it reproduces: no path, and a reason
      CHECK_FALSE(v.result.reason.empty());
    } else {
      CHECK(v.result.found);
    }
  }
  CHECK(with_path >= 10);

  // The source-article presets (scenes/articles/) are faithful to their articles.
  auto entry = [&](const std::string& stem) -> const GalleryEntry& {
    for (const GalleryEntry& e : entries)
      if (std::filesystem::path(e.path).stem() == stem) return e;
    FAIL("no preset " << stem);
    return entries.front();
  };
  {
    auto sc = io::load_scene(entry("catmull-rom-route").path);
    REQUIRE(sc.ok());
    CHECK(sc->settings.subdivisions == 5);
    pipeline.map_changed();
    const PlanView v = pipeline.plan(*sc, false);
    CHECK(v.result.raw_points.size() == 13);  // "this 13 point route"
    CHECK(v.result.points.size() == 61);      // (13 - 1) * 5 + 1
    CHECK(entry("catmull-rom-route").teaches.find("2.171875") != std::string::npos);
    CHECK(entry("catmull-rom-route").teaches.find("2.09375") != std::string::npos);
  }

  // One click in the Gallery tab opens a preset and switches on its views.
  Ui ui;
  ui.show(Inspector::Tab::gallery);
  ui.click_widget("gallery:tower22-quad-corridor", 0.3f);
  ui.idle(2);
  CHECK(ui.sb().scene().settings.planner == "navmesh");
  CHECK(ui.in().overlays().navmesh);
  CHECK(ui.in().compare_shown());
  CHECK(ui.in().tab() == Inspector::Tab::overlays);
  CHECK(ui.in().replay().source() == ReplayModel::Source::navmesh);
  CHECK(ui.in().replay().steps() == ui.sb().plan().result.expanded + 1);  // + the goal's pop

  // A screenshot of each preset, as opened from the gallery: the path (or the search) shows.
  const char* shots = std::getenv("PATHLAB_SCREENSHOT_DIR");
  for (const GalleryEntry& e : entries) {
    INFO(e.path);
    REQUIRE(ui.in().open_preset(ui.sb(), e));
    ui.idle(3);
    const auto px = ui.capture();
    if (shots) (void)save_capture(std::string(shots) + "/" + std::filesystem::path(e.path).stem().string() + ".png",
                                  ui.host->width(), ui.host->height(), px);
    const PlanView& v = ui.sb().plan();
    if (!v.result.found) continue;
    // Some pixel along the path is drawn in a strong colour (the path, a compare path or the ramp).
    int coloured = 0;
    // Points about a cell apart along each segment: JPS's waypoints can be few and far apart.
    for (size_t i = 1; i < v.result.points.size(); ++i) {
      const int n = std::max(1, static_cast<int>(glm::length(v.result.points[i] - v.result.points[i - 1])));
      for (int k = 0; k < n; ++k) {
        const Vec2 p = v.result.points[i - 1] + (v.result.points[i] - v.result.points[i - 1]) * ((k + 0.5) / n);
        const ImVec2 s = ui.sb().world_to_screen(p);
        if (s.x < 0 || s.y < 0 || s.x >= static_cast<float>(ui.host->width()) || s.y >= 560) continue;
        const auto rgb = ui.pixel(px, s);
        if (std::max({rgb[0], rgb[1], rgb[2]}) - std::min({rgb[0], rgb[1], rgb[2]}) > 80) ++coloured;
      }
    }
    CHECK(coloured > 0);
  }
}

TEST_CASE("help: F1 opens the shortcut list") {
  Ui ui;
  CHECK_FALSE(ui.in().help_open());
  ui.key(SDL_SCANCODE_F1);
  CHECK(ui.in().help_open());
  ui.idle(1);
  ui.key(SDL_SCANCODE_F1);
  CHECK_FALSE(ui.in().help_open());
}

TEST_CASE("speed profile: starts and ends at rest, slows in bends, never exceeds the top speed") {
  const std::vector<Vec2> pts = {{0, 0}, {10, 0}, {20, 0}, {20, 10}, {30, 10}};
  std::vector<double> k = {0, 0, 1.0, 0, 0};
  const SpeedProfile p = plan_speed_profile(pts, k, 10.0, 2.0, 3.0, 4.0);
  REQUIRE(p.speed.size() == 5);
  CHECK(p.speed.front() == 0.0);
  CHECK(p.speed.back() == 0.0);
  CHECK(p.speed[2] == doctest::Approx(2.0));  // sqrt(4 / 1)
  for (double v : p.speed) CHECK(v <= 10.0);
  CHECK(p.speed[1] == doctest::Approx(std::sqrt(2 * 2.0 * 10)));  // accelerating from rest over 10 cells
  CHECK(p.s.back() == doctest::Approx(40.0));
}

TEST_CASE("clearance: distance to the nearest wall or map edge") {
  Grid g = Grid::create(10, 10).value();
  g.set_cost(5, 5, kBlocked);
  CHECK(path_clearance(g, {{0.5, 0.5}, {9.5, 0.5}}, 10) == doctest::Approx(0.5));  // the map edge
  CHECK(path_clearance(g, {{2.0, 5.5}, {4.0, 5.5}}, 10) == doctest::Approx(1.0));  // the wall cell
  CHECK(path_clearance(g, {{5.5, 3.0}, {5.5, 3.0}}, 10) == doctest::Approx(2.0));
}

TEST_CASE("plots: hovering a plot probes a distance along the path; leaving it hides the probe") {
  Ui ui;
  ui.show(Inspector::Tab::plots);
  const auto [a, b] = ui.in().widget("plot_speed");
  REQUIRE(b.x > a.x);
  const ImVec2 mid((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
  ui.host->frame([&](ImGuiIO& io) { io.MousePos = mid; });
  ui.host->frame([&](ImGuiIO& io) { io.MousePos = mid; });
  const double len = ui.sb().plan().result.length;
  CHECK(ui.in().probe() > 0.2 * len);
  CHECK(ui.in().probe() < 0.8 * len);
  ui.idle(1);
  CHECK(ui.in().probe() < 0.0);
}

TEST_CASE("plots: the steering angle ramps on a CC-Dubins curve and jumps on a Dubins one (issue 16)") {
  // The gallery's CC-Dubins preset (turning radius 3): its steering plot changes by a few
  // degrees between samples; the same scene with the plain Dubins curve jumps from straight
  // to full lock, atan(wheelbase / radius) = 18.4 degrees for the plot's 1-cell wheelbase.
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/vehicles/cc-dubins-steering.json");
  REQUIRE(scene.ok());
  REQUIRE(scene->settings.planner == "cc-dubins");
  const double full_lock = rad_to_deg(std::atan(1.0 / scene->settings.turning_radius));
  const auto largest_step = [](const std::vector<float>& v) {
    double worst = 0.0;
    for (size_t i = 1; i < v.size(); ++i) worst = std::max(worst, static_cast<double>(std::abs(v[i] - v[i - 1])));
    return worst;
  };
  double steps[2] = {0.0, 0.0};
  for (int k = 0; k < 2; ++k) {
    io::Scene sc = *scene;
    if (k == 1) sc.settings.planner = "dubins";
    Ui ui(std::move(sc));
    ui.show(Inspector::Tab::plots);
    REQUIRE(ui.sb().plan().result.found);
    CHECK(ui.sb().plan().result.violations.empty());  // the preset's curve misses the parked block
    const auto [a, b] = ui.in().widget("plot_steering");
    CHECK(b.x > a.x);
    const std::vector<float>& steer = ui.in().steering_plot();
    REQUIRE(steer.size() > 100);
    const auto [lo, hi] = std::minmax_element(steer.begin(), steer.end());
    CHECK(std::max(std::abs(*lo), std::abs(*hi)) == doctest::Approx(full_lock).epsilon(1e-3));  // full lock reached
    steps[k] = largest_step(steer);
  }
  CHECK(steps[0] < 0.25 * full_lock);
  CHECK(steps[1] > 0.9 * full_lock);
}
