// Compare mode: rows from the registry, their validity from the plan results, and a ranking that
// never calls an invalid row best. The ranking is tested as the pure function it is, then in the
// real sandbox (headless, like tests/test_sandbox_views.cpp) on a scene where the Dubins curve is
// the shortest path and runs through a wall. Set PATHLAB_SCREENSHOT_DIR to keep a PNG of it.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "host/host.hpp"
#include "inspect/compare_rows.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/registry.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

/// A row as the worker would leave it: planned, found or not, with the numbers that matter.
CompareRun row(const char* planner, bool found, double length) {
  CompareRun r;
  r.planner = planner;
  r.enabled = true;
  r.view.valid = true;
  r.view.result.found = found;
  r.view.result.length = length;
  if (found) r.view.result.points = {Vec2(0.5, 0.5), Vec2(0.5 + length, 0.5)};
  return r;
}

CompareRun exact(const char* planner, double length, double max_curvature) {
  CompareRun r = row(planner, true, length);
  r.view.result.curvature_exact = true;
  r.view.result.max_curvature = max_curvature;
  return r;
}

size_t index_of(const std::vector<CompareRun>& rows, const std::string& planner) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].planner == planner) return i;
  FAIL("no row " << planner);
  return 0;
}

}  // namespace

TEST_CASE("compare ranking: the shortest row through a wall is never best") {
  std::vector<CompareRun> rows;
  rows.push_back(exact("dubins", 30.0, 0.0));  // the shortest, and blocked
  rows.back().view.result.curve_blocked_at = 13.6;
  rows.push_back(row("astar", true, 36.0));
  rows.push_back(exact("hybrid", 34.0, 0.5));  // radius 2: exactly the limit
  rows.push_back(row("theta", true, 33.0));
  rows.back().view.result.blocked_segment = 1;  // a polyline the referee says overlaps a wall
  rows.push_back(row("jps", false, 0.0));
  rows.back().view.result.reason = "no path: the goal is walled in";
  rows.push_back(row("dijkstra", true, 20.0));
  rows.back().enabled = false;  // not ticked: not ranked, whatever it holds
  rows.push_back(row("navmesh", true, 10.0));
  rows.back().view.valid = false;  // still on the worker
  const CompareRanking k = rank_rows(rows, CompareRules{2.0, false});
  REQUIRE(k.best.has_value());
  CHECK(*k.best == 2);  // hybrid: the shortest valid one
  CHECK(k.checks[0].verdict == RowVerdict::through_wall);
  CHECK(k.checks[0].reason.find("wall") != std::string::npos);
  CHECK(k.checks[3].verdict == RowVerdict::through_wall);
  CHECK(k.checks[4].verdict == RowVerdict::no_path);
  CHECK(k.checks[4].reason == "no path: the goal is walled in");
  CHECK(k.checks[5].verdict == RowVerdict::off);
  CHECK(k.checks[6].verdict == RowVerdict::pending);
  CHECK(k.checks[1].note == "ignores the turning radius");  // a polyline: a note, not invalid
  // Valid by length, then invalid, pending and off, each in registry order.
  CHECK(k.order == std::vector<size_t>{2, 1, 0, 3, 4, 6, 5});
  CHECK(k.rank == std::vector<int>{0, 2, 1, 0, 0, 0, 0});
}

TEST_CASE("compare ranking: no valid row, no best") {
  std::vector<CompareRun> rows;
  rows.push_back(exact("dubins", 30.0, 0.0));
  rows.back().view.result.curve_blocked_at = 2.0;
  rows.push_back(exact("cc-dubins", 31.0, 1.0));  // radius 1 < 2: too tight
  rows.push_back(row("astar", false, 0.0));
  rows.back().view.error = "search: start cell (1,1) is inside a wall";
  const CompareRanking k = rank_rows(rows, CompareRules{2.0, false});
  CHECK_FALSE(k.best.has_value());
  CHECK(k.checks[1].verdict == RowVerdict::too_tight);
  CHECK(k.checks[1].reason.find("1.00 < 2.00") != std::string::npos);
  CHECK(k.checks[2].verdict == RowVerdict::no_path);
  CHECK(k.checks[2].reason == "search: start cell (1,1) is inside a wall");
  CHECK(k.order == std::vector<size_t>{0, 1, 2});
  CHECK(rank_rows({}, CompareRules{}).order.empty());
}

TEST_CASE("compare ranking: the turning radius, its tolerance and vehicle rules") {
  const double R = 2.0;
  std::vector<CompareRun> rows;
  rows.push_back(exact("hybrid", 40.0, 1.0 / R * (1 + 1e-7)));  // within the stated tolerance
  rows.push_back(exact("directional", 39.0, 1.0 / R * (1 + 1e-5)));  // beyond it
  rows.push_back(row("astar", true, 35.0));
  rows.push_back(row("navmesh", true, 35.0));  // a tie: registry order decides
  const CompareRanking plain = rank_rows(rows, CompareRules{R, false});
  CHECK(plain.checks[0].valid());
  CHECK(plain.checks[1].verdict == RowVerdict::too_tight);
  REQUIRE(plain.best.has_value());
  CHECK(*plain.best == 2);
  CHECK(plain.order == std::vector<size_t>{2, 3, 0, 1});
  // Vehicle rules: the polylines ignore headings and the turning radius, so they are invalid.
  const CompareRanking vehicle = rank_rows(rows, CompareRules{R, true});
  CHECK(vehicle.checks[2].verdict == RowVerdict::ignores_turning);
  CHECK(vehicle.checks[3].verdict == RowVerdict::ignores_turning);
  REQUIRE(vehicle.best.has_value());
  CHECK(*vehicle.best == 0);
  // A failed turning smoother leaves the raw polyline: not drivable.
  rows[0].view.result.smoother_error = "no turn fits at (3, 4)";
  const CompareRanking failed = rank_rows(rows, CompareRules{R, true});
  CHECK(failed.checks[0].verdict == RowVerdict::smoother_failed);
  CHECK_FALSE(failed.best.has_value());
}

TEST_CASE("compare rows: one per registry planner, with the scene's smoother only for its kind") {
  const std::vector<CompareRun> rows = compare_rows_from_registry();
  REQUIRE(rows.size() == plan::planners().size());
  std::set<ImU32> colours;
  for (size_t i = 0; i < rows.size(); ++i) {
    CHECK(rows[i].planner == plan::planners()[i].name);
    colours.insert(rows[i].colour);
  }
  CHECK(colours.size() == rows.size());
  CHECK(rows[index_of(rows, plan::planner_name(plan::PlannerId::hybrid))].enabled);
  CHECK(rows[index_of(rows, plan::planner_name(plan::PlannerId::directional))].enabled);
  CHECK(rows[index_of(rows, plan::planner_name(plan::PlannerId::dubins))].enabled);
  CHECK_FALSE(rows[index_of(rows, plan::planner_name(plan::PlannerId::dijkstra))].enabled);

  io::PlanSettingsData scene;
  scene.planner = plan::planner_name(plan::PlannerId::astar);
  scene.smoother = plan::smoother_name(plan::SmootherId::los);
  CompareRun theta = rows[index_of(rows, plan::planner_name(plan::PlannerId::theta))];
  CompareRun nav = rows[index_of(rows, plan::planner_name(plan::PlannerId::navmesh))];
  CompareRun hybrid = rows[index_of(rows, plan::planner_name(plan::PlannerId::hybrid))];
  CHECK(row_smoother(theta, scene) == plan::smoother_name(plan::SmootherId::los));  // a grid row
  // los follows a navmesh too, but the scene chose it for a grid planner: the navmesh's default.
  CHECK(row_smoother(nav, scene) == plan::smoothers_for(plan::PlannerFamily::navmesh).front().name);
  CHECK(row_smoother(hybrid, scene) == plan::smoothers_for(plan::PlannerFamily::heading).front().name);
  nav.smoother_pick = plan::smoother_name(plan::SmootherId::edge_shift);
  CHECK(row_smoother(nav, scene) == plan::smoother_name(plan::SmootherId::edge_shift));
  hybrid.smoother_pick = plan::smoother_name(plan::SmootherId::funnel);  // not for a heading planner
  CHECK(row_smoother(hybrid, scene) == plan::smoothers_for(plan::PlannerFamily::heading).front().name);
}

namespace {

// A room split by a wall with a gap at the bottom; start and goal face each other across it on
// one line, so the Dubins curve is the straight line: the shortest of all, through the wall.
io::Scene dubins_wall_scene() {
  io::Scene s;
  s.name = "compare test";
  s.grid = Grid::create(40, 24).value();
  for (int y = 0; y <= 14; ++y) s.grid.set_cost(20, y, kBlocked);
  s.start = Pose{Vec2(5.5, 8.5), 0.0};
  s.goal = Pose{Vec2(35.5, 8.5), 0.0};
  s.settings.agent_radius = 0.4;
  s.settings.turning_radius = 2.0;
  return s;
}

}  // namespace

TEST_CASE("compare in the sandbox: dubins through a wall is the shortest and not best") {
  test::SandboxUi ui(dubins_wall_scene(), 3);
  Inspector& in = ui.sb().inspector();
  in.show_tab(Inspector::Tab::compare);
  ui.idle(2);
  REQUIRE(in.tab() == Inspector::Tab::compare);
  const std::pair<ImVec2, ImVec2> a_b = in.widget("compare_show");  // no structured binding: lambdas capture these (clang 14)
  const ImVec2 a = a_b.first, b = a_b.second;
  REQUIRE(b.x > a.x);
  ui.click(ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f));
  for (int i = 0; i < 100 && in.compare_busy(); ++i) ui.idle(1);
  REQUIRE_FALSE(in.compare_busy());
  REQUIRE(in.compare_shown());
  ui.idle(1);  // the table drawn with every result

  // Every registry planner is a row the user can tick.
  const std::vector<CompareRun>& rows = in.compare_runs();
  REQUIRE(rows.size() == plan::planners().size());
  for (const plan::PlannerInfo& p : plan::planners()) {
    INFO(p.name);
    CHECK(rows[index_of(rows, p.name)].planner == p.name);
    const std::pair<ImVec2, ImVec2> lo_hi = in.widget(std::string("compare:") + p.name);  // no structured binding: lambdas capture these (clang 14)
    const ImVec2 lo = lo_hi.first, hi = lo_hi.second;
    CHECK(hi.x > lo.x);
  }
  const CompareRanking k = in.compare_ranking();
  const size_t dubins = index_of(rows, plan::planner_name(plan::PlannerId::dubins));
  const size_t hybrid = index_of(rows, plan::planner_name(plan::PlannerId::hybrid));
  const size_t directional = index_of(rows, plan::planner_name(plan::PlannerId::directional));
  // Planned with the scene's poses, radius and turning radius.
  for (size_t i : {hybrid, directional}) {
    const plan::PlanResult& r = rows[i].view.result;
    INFO(rows[i].planner << ": " << rows[i].view.error << r.reason);
    REQUIRE(r.found);
    CHECK(k.checks[i].valid());
    CHECK(r.max_curvature <= 1.0 / 2.0 * (1 + plan::kTurningRadiusTolerance));
    CHECK(std::abs(wrap_angle(r.headings.front() - 0.0)) < 1e-6);
    CHECK(std::abs(wrap_angle(r.headings.back() - 0.0)) < 1e-6);
    CHECK(glm::length(r.points.back() - Vec2(35.5, 8.5)) < 1e-6);
  }
  // The premise: the Dubins row is the shortest found path of all, and it meets the wall.
  const plan::PlanResult& d = rows[dubins].view.result;
  REQUIRE(d.found);
  REQUIRE(d.curve_blocked_at.has_value());
  CHECK(d.length == doctest::Approx(30.0));
  for (const CompareRun& r : rows)
    if (r.enabled && r.view.result.found) CHECK(d.length <= r.view.result.length + 1e-9);
  // It is not best, it says why, and it is listed after every valid row.
  REQUIRE(k.best.has_value());
  CHECK(*k.best != dubins);
  CHECK(k.checks[*k.best].valid());
  CHECK(k.checks[dubins].verdict == RowVerdict::through_wall);
  CHECK(k.checks[dubins].reason.find("through a wall") != std::string::npos);
  const std::pair<ImVec2, ImVec2> rlo_rhi = in.widget("compare_reason:dubins");  // no structured binding: lambdas capture these (clang 14)
  const ImVec2 rlo = rlo_rhi.first, rhi = rlo_rhi.second;
  CHECK(rhi.x > rlo.x);  // the reason is in the table
  bool seen_invalid = false;
  for (size_t i : k.order) {
    if (k.checks[i].invalid()) seen_invalid = true;
    if (k.checks[i].valid()) CHECK_FALSE(seen_invalid);
    if (k.checks[i].valid()) CHECK(rows[*k.best].view.result.length <= rows[i].view.result.length);
  }
  CHECK(seen_invalid);

  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  if (const char* dir = std::getenv("PATHLAB_SCREENSHOT_DIR"))
    (void)save_capture(std::string(dir) + "/compare-dubins-wall.png", ui.host->width(), ui.host->height(), px);

  // Unticking a row takes it out of the ranking; ticking it again plans it again.
  auto tick = [&](const char* planner) {
    const std::pair<ImVec2, ImVec2> lo_hi = in.widget(std::string("compare:") + planner);  // no structured binding: lambdas capture these (clang 14)
    const ImVec2 lo = lo_hi.first, hi = lo_hi.second;
    REQUIRE(hi.x > lo.x);
    ui.click(ImVec2(lo.x + (hi.x - lo.x) * 0.1f, (lo.y + hi.y) * 0.5f));
  };
  tick("dubins");
  CHECK_FALSE(rows[dubins].enabled);
  CHECK(in.compare_ranking().checks[dubins].verdict == RowVerdict::off);
  // An unticked row is listed last, below the table's fold: scroll down to it.
  const std::pair<ImVec2, ImVec2> slo_shi = in.widget("compare:astar");  // no structured binding: lambdas capture these (clang 14)
  const ImVec2 slo = slo_shi.first, shi = slo_shi.second;
  ui.host->frame([&](ImGuiIO& io) {
    io.MousePos = ImVec2((slo.x + shi.x) * 0.5f, (slo.y + shi.y) * 0.5f);
    io.MouseWheel = -20.0f;
  });
  ui.idle(1);
  tick("dubins");
  for (int i = 0; i < 100 && in.compare_busy(); ++i) ui.idle(1);
  CHECK(rows[dubins].enabled);
  CHECK(in.compare_ranking().checks[dubins].verdict == RowVerdict::through_wall);
}
