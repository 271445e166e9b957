// SearchBudget / BudgetMeter: the one budget every search takes.
#include <doctest/doctest.h>

#include <thread>

#include "pathlab/search_budget.hpp"

using pathlab::BudgetMeter;
using pathlab::BudgetStop;
using pathlab::SearchBudget;

TEST_CASE("an empty budget never stops a search") {
  BudgetMeter meter(SearchBudget{});
  for (int i = 0; i < 10000; ++i) REQUIRE(meter.on_expansion() == BudgetStop::none);
  CHECK(meter.stopped() == BudgetStop::none);
  CHECK(meter.expansions() == 10000);
}

TEST_CASE("max_expansions allows exactly that many expansions") {
  SearchBudget budget;
  budget.max_expansions = 5;
  BudgetMeter meter(budget);
  for (int i = 0; i < 5; ++i) REQUIRE(meter.on_expansion() == BudgetStop::none);
  CHECK(meter.on_expansion() == BudgetStop::expansions);
  CHECK(meter.stopped() == BudgetStop::expansions);
  CHECK(std::string(pathlab::to_string(meter.stopped())) == "expansions");
}

TEST_CASE("a raised cancel flag stops the search at the next clock check") {
  std::atomic<bool> cancel{false};
  SearchBudget budget;
  budget.cancel = &cancel;
  BudgetMeter meter(budget);
  for (int64_t i = 0; i < 2 * BudgetMeter::kCheckEvery; ++i) REQUIRE(meter.on_expansion() == BudgetStop::none);
  cancel = true;
  BudgetStop stop = BudgetStop::none;
  int64_t steps = 0;
  while (stop == BudgetStop::none && steps <= BudgetMeter::kCheckEvery) {
    stop = meter.on_expansion();
    ++steps;
  }
  CHECK(stop == BudgetStop::cancelled);
  CHECK(steps <= BudgetMeter::kCheckEvery);
}

TEST_CASE("the time budget stops a search once the time has passed") {
  SearchBudget budget;
  budget.time_ms = 50.0;
  BudgetMeter meter(budget);
  CHECK(meter.check_clock() == BudgetStop::none);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  CHECK(meter.check_clock() == BudgetStop::time);
  CHECK(meter.elapsed_ms() >= 50.0);
}

// ---- The budget through the planning service and the CLI (issue 16: partial results). ----
// No timed tests: the service is driven by expansion budgets; the CLI's --time-budget-ms by
// a budget far below any search's cost (the format, not the time, is checked).

#include "cli_support.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "test_support.hpp"

namespace {

using namespace pathlab;

/// A 120 x 24 room with a wall across the middle and a gap at its bottom: the goal is far down
/// the room, in reach, and no single curve reaches it from the start.
Grid long_room() {
  Grid g = Grid::create(120, 24).value();
  for (int y = 0; y < 17; ++y) g.set_blocked(60, y, true);
  return g;
}

Grid berlin() { return load_movingai_map(test::movingai("Berlin_0_256.map")).value(); }

plan::PlanRequest budget_request(const char* planner, int64_t max_expansions) {
  plan::PlanRequest r;
  r.start = Pose{Vec2(10.5, 10.5), 0.0};
  r.goal = Pose{Vec2(110.5, 12.5), -kPi / 2};
  r.settings.planner = planner;
  r.settings.smoother = plan::smoother_name(plan::SmootherId::none);
  r.settings.turning_radius = 3.0;
  r.budget.max_expansions = max_expansions;
  r.analyse = false;
  return r;
}

}  // namespace

TEST_CASE("plan service: a heading planner stopped by its budget returns a partial path closer to the goal") {
  const Grid grid = long_room();
  for (const char* name : {"hybrid", "directional"}) {
    CAPTURE(name);
    plan::PlanService service;
    const plan::PlanResult full = service.plan(grid, budget_request(name, 0));
    REQUIRE(full.found);
    REQUIRE(full.expanded > 100);
    const int64_t budget = full.expanded / 2;  // half the search: stopped, well under way
    const plan::PlanRequest req = budget_request(name, budget);
    const plan::PlanResult r = service.plan(grid, req);
    REQUIRE(r.error.empty());
    CHECK_FALSE(r.found);
    CHECK(r.partial);
    CHECK(r.budget_stop == BudgetStop::expansions);
    CHECK(r.expanded <= budget);
    REQUIRE(r.points.size() >= 2);
    CHECK(glm::length(r.points.front() - req.start.pos) < 0.75);  // directional snaps to the cell centre
    const double d_start = glm::length(req.goal.pos - req.start.pos);
    const double d_end = glm::length(req.goal.pos - r.points.back());
    CHECK(d_end < d_start - 20.0);
    CHECK(r.length > 0.0);
    CHECK(r.reason.find("budget") != std::string::npos);
    // The same budget gives the same partial path (expansion budgets are deterministic).
    const plan::PlanResult again = service.plan(grid, req);
    CHECK(again.points == r.points);
  }
}

TEST_CASE("plan service: a grid or navmesh search stopped by its budget says so, without a partial path") {
  const Grid grid = berlin();
  for (const char* name : {"astar", "navmesh"}) {
    CAPTURE(name);
    plan::PlanService service;
    plan::PlanRequest req = budget_request(name, 3);
    req.start = Pose{Vec2(10, 10), 0.0};
    req.goal = Pose{Vec2(240, 240), 0.0};
    req.settings.smoother = name == std::string("astar") ? "none" : "funnel";
    const plan::PlanResult r = service.plan(grid, req);
    REQUIRE(r.error.empty());
    CHECK_FALSE(r.found);
    CHECK_FALSE(r.partial);
    CHECK(r.budget_stop == BudgetStop::expansions);
    CHECK(r.points.empty());
  }
}

TEST_CASE("plan service: an unlimited budget changes nothing") {
  const Grid grid = long_room();
  plan::PlanService service;
  const plan::PlanResult r = service.plan(grid, budget_request("hybrid", 0));
  CHECK(r.found);
  CHECK_FALSE(r.partial);
  CHECK(r.budget_stop == BudgetStop::none);
}

TEST_CASE("cli: --time-budget-ms reports a stopped search with partial and stopped fields") {
  const std::string map = test::movingai("Berlin_0_256.map");
  // 1 microsecond: every search stops at its first look at the clock.
  const std::string common = "plan --map " + map + " --json --time-budget-ms 0.001 ";
  SUBCASE("hybrid: the best partial path, starting at the start") {
    const test::CliRun r = test::run_cli(common + "--planner hybrid --radius 3 --from 10,10,0 --to 240,240,90");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("found") == false);
    CHECK(j.at("partial") == true);
    CHECK(j.at("stopped") == "time");
    CHECK(j.at("reason").get<std::string>().find("time budget") != std::string::npos);
    const auto pts = test::points_of(j);
    REQUIRE_FALSE(pts.empty());
    CHECK(glm::length(pts.front() - Vec2(10, 10)) < 1e-9);
    CHECK(j.contains("length"));
  }
  SUBCASE("astar: stopped, no partial path") {
    const test::CliRun r = test::run_cli(common + "--planner astar --from 10,10 --to 240,240");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("found") == false);
    CHECK(j.at("partial") == false);
    CHECK(j.at("stopped") == "time");
    CHECK_FALSE(j.contains("points"));
  }
  SUBCASE("text output names the stop") {
    const test::CliRun r = test::run_cli("plan --map " + map +
                                         " --time-budget-ms 0.001 --planner hybrid --radius 3 --from 10,10,0 --to 240,240,90");
    REQUIRE(r.status == 0);
    CHECK(r.out.find("found: no (") == 0);
    CHECK(r.out.find("\npartial: yes\nstopped: time\nlength: ") != std::string::npos);
  }
}

TEST_CASE("cli: without --time-budget-ms a failed query has no budget fields") {
  const std::string map = test::write_temp("budget_wall.map", "type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n");
  const test::CliRun r = test::run_cli("plan --map " + map + " --json --from 0,0 --to 4,2");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("found") == false);
  CHECK_FALSE(j.contains("partial"));
  CHECK_FALSE(j.contains("stopped"));
}

TEST_CASE("cli: a bad --time-budget-ms is a usage error naming it") {
  const std::string map = test::movingai("Berlin_0_256.map");
  for (const char* v : {"0", "-5", "nan", "abc", "1e12"})
    test::check_usage_error("plan --map " + map + " --from 1,1 --to 5,5 --time-budget-ms " + std::string(v), "--time-budget-ms");
  test::check_usage_error("scen " + test::movingai("Berlin_0_256.map.scen") + " --time-budget-ms 0", "--time-budget-ms");
}
