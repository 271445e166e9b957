// Issue 17 (hostile input): every reproducer of the fuzzing report, as a test. Each failed
// before the fix (crash, hang, huge allocation, undefined behaviour or a multi-line message)
// and must now give one clear error or a bounded answer.

#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <string>

#include "cli_support.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/sample_limit.hpp"

using namespace pathlab;
using test::check_usage_error;
using test::run_cli;

namespace {

const std::string kDemoMap = std::string(PATHLAB_ASSETS_DIR) + "/maps/demo.map";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("sample limit: one helper, counts in double, checked before any cast") {
  const std::vector<Vec2> line{Vec2(0, 0), Vec2(10, 0)};
  auto ok = resample_polyline(line, 0.5);
  REQUIRE(ok.ok());
  CHECK(ok->size() == 21);
  for (size_t i = 1; i < ok->size(); ++i) CHECK(glm::length((*ok)[i] - (*ok)[i - 1]) <= 0.5 + 1e-12);
  for (double step : {1e-9, 1e-300, 5e-324}) {
    CAPTURE(step);
    auto r = resample_polyline(line, step);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == StatusCode::too_large);
    CHECK(contains(r.error().message, "more than the limit of 10000000"));
  }
  for (double step : {0.0, -1.0, std::nan(""), static_cast<double>(INFINITY)}) CHECK_FALSE(resample_polyline(line, step).ok());
  CHECK_FALSE(checked_piece_count(1e300, 1e-300).ok());
  CHECK(checked_piece_count(2.0, 0.5).value() == 4);
  CHECK(checked_piece_count(0.0, 0.5).value() == 1);
  CHECK(check_sample_count(kMaxSamples, 1.0).ok());
  CHECK_FALSE(check_sample_count(kMaxSamples + 1, 1.0).ok());
  CHECK_FALSE(check_sample_count(std::nan(""), 1.0).ok());
}

TEST_CASE("plan --sample-step: 1e-9 and 1e-300 are refused at once with the shared message") {
  // Before: 1e-9 grew memory for about 50 s until bad_alloc; 1e-300 overflowed an int cast
  // and printed points 1.4 cells apart with exit 0.
  for (const char* step : {"1e-9", "1e-300"}) {
    const std::string args = "plan --map " + kDemoMap + " --from 2.5,2.5 --to 36.5,2.5 --json --sample-step " + step;
    check_usage_error(args, "--sample-step: sampling every");
    check_usage_error(args, "more than the limit of 10000000");
  }
  // A sane step keeps every point at most S apart.
  const auto r = run_cli("plan --map " + kDemoMap + " --from 2.5,2.5 --to 36.5,2.5 --json --sample-step 0.3");
  REQUIRE(r.status == 0);
  const auto pts = test::points_of(nlohmann::json::parse(r.out));
  REQUIRE(pts.size() > 100);
  for (size_t i = 1; i < pts.size(); ++i) CHECK(glm::length(pts[i] - pts[i - 1]) <= 0.3 + 1e-9);
}

TEST_CASE("curve: radius and headings are validated against the poses, naming the argument") {
  for (const char* type : {"dubins", "reeds-shepp"}) {
    const std::string base = std::string("curve --type ") + type + " --from 0,0,0 --to 10,5,90";
    // Before: "Dubins word LSL does not exist here" or an end pose with 300 digits.
    check_usage_error(base + " --radius 1e-300", "--radius: turning radius 1e-300 is too small for poses");
    check_usage_error(base + " --radius 1e300", "--radius: turning radius 1e+300 is above the limit");
    check_usage_error(std::string("curve --type ") + type + " --from 1e300,0,0 --to 10,5,90 --radius 2",
                      "--from: start position");
    check_usage_error(std::string("curve --type ") + type + " --from 0,0,0 --to 10,-1e12,90 --radius 2",
                      "--to: goal position");
    // Headings of 1e308 degrees are headings like any other: wrapped exactly.
    const auto big = run_cli(std::string("curve --type ") + type + " --from 0,0,1e308 --to 10,5,-1e308 --radius 2 --json");
    const auto same = run_cli(std::string("curve --type ") + type + " --from 0,0," +
                              std::to_string(std::remainder(1e308, 360.0)) + " --to 10,5," +
                              std::to_string(std::remainder(-1e308, 360.0)) + " --radius 2 --json");
    REQUIRE_MESSAGE(big.status == 0, big.err);
    REQUIRE(same.status == 0);
    const auto jb = nlohmann::json::parse(big.out), js = nlohmann::json::parse(same.out);
    CHECK(jb["length"].get<double>() == doctest::Approx(js["length"].get<double>()).epsilon(1e-9));
  }
  check_usage_error("curve --type turn-to-point --from 0,0,0 --to 10,5 --radius 1e-300", "--radius: turning radius");
  // A start far out and a goal at the origin still meet their end pose (rounding at 1e9).
  const auto far = run_cli("curve --type dubins --from 1e9,0,0 --to 0,0,90 --radius 1 --sample-step 1e8 --json");
  CHECK_MESSAGE(far.status == 0, far.err);
  // A query line gets the same checks, prefixed by FILE:LINE.
  const std::string q = test::write_temp("hostile_curve_queries.txt", "0 0 0 10 5 90\n0 0 1e308 1e300 5 90\n");
  check_usage_error("curve --type dubins --radius 2 --queries " + q, "hostile_curve_queries.txt:2: goal position");
}

TEST_CASE("curve and smooth: output is capped, naming the argument") {
  // Before: radius 556262 sampled every 0.25 cells wrote 208 MB (3.5 million points).
  check_usage_error("curve --type reeds-shepp --from 0,0,0 --to 10,5,90 --radius 556262 --sample-step 0.25",
                    "--sample-step: 0.25 cells along");
  check_usage_error("curve --type dubins --from 0,0,0 --to 10,5,90 --radius 556262 --sample-step 0.25",
                    "more than 1000000 points of output");
  // The default step (a tenth of the radius) keeps the same query small.
  const auto ok = run_cli("curve --type reeds-shepp --from 0,0,0 --to 10,5,90 --radius 556262 --json");
  REQUIRE_MESSAGE(ok.status == 0, ok.err);
  CHECK(ok.out.size() < 10000);
  // Many queries together: the limit is on the whole output.
  std::string lines;
  for (int i = 0; i < 30; ++i) lines += "0 0 0 1000 0 0\n";
  const std::string q = test::write_temp("hostile_curve_many.txt", lines);
  check_usage_error("curve --type dubins --radius 2 --sample-step 0.025 --queries " + q, "with the earlier queries");
  // smooth: 400 points x 4096 subdivisions (before: 309 MB of output), and a long curve per cell.
  std::string pts;
  for (int i = 0; i < 400; ++i) pts += std::to_string(i) + "," + std::to_string(i % 7) + " ";
  check_usage_error("smooth --method catmull-rom --subdivisions 4096 --points '" + pts + "'",
                    "--subdivisions: the curve would be sampled at");
  check_usage_error("smooth --method centripetal --points-per-cell 1000 --points '0,0 1e6,0'",
                    "--points-per-cell: the curve would be sampled at");
  CHECK(run_cli("smooth --method catmull-rom --subdivisions 8 --points '" + pts + "'").status == 0);
}

TEST_CASE("scen: a bad problem after a mismatch gives one error line and nothing else") {
  const std::string arena = std::string(PATHLAB_ASSETS_DIR) + "/maps/arena.map";
  // Line 2 is a mismatch (wrong length), line 3 starts inside a wall, line 4 is for another
  // map size. Before: the mismatch was printed, then "error:" on a second line, exit 2.
  const std::string wall = test::write_temp(
      "hostile_wall.map.scen",
      "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t2\n0\tarena.map\t49\t49\t0\t0\t1\t12\t1\n");
  const auto r = run_cli("scen " + wall + " --map " + arena);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK_MESSAGE(r.err.rfind("error: " + wall + ":3: start (0,0) is inside a wall", 0) == 0, r.err);
  CHECK(r.err.find('\n') == r.err.size() - 1);
  const std::string size = test::write_temp(
      "hostile_size.map.scen",
      "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t2\n0\tarena.map\t50\t49\t1\t11\t1\t12\t1\n");
  check_usage_error("scen " + size + " --map " + arena, "hostile_size.map.scen:3: scenario is for a 50x49 map");
  const std::string outside = test::write_temp(
      "hostile_outside.map.scen", "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t2\n0\tarena.map\t49\t49\t1\t11\t1\t99\t1\n");
  check_usage_error("scen " + outside + " --map " + arena, "goal (1,99) is outside the map");
  // The mismatch alone still reports as before: exit 1, named on stderr.
  const std::string one = test::write_temp("hostile_one.map.scen", "version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t2\n");
  const auto m = run_cli("scen " + one + " --map " + arena);
  CHECK(m.status == 1);
  CHECK(contains(m.err, "hostile_one.map.scen:2: mismatch: (1,11)->(1,12) expected 2.00000000, got 1.000000"));
}

TEST_CASE("grid searches: memory cap, JPS falling back to A*, time and cancel budgets") {
  Grid g = Grid::create(200, 100).value();
  for (int y = 10; y < 90; ++y) g.set_blocked(100, y, true);
  const Cell a{1, 50}, b{198, 50};
  GridPathfinder pf(g);
  const double optimal = pf.find_path(GridPlanner::astar, a, b).value().length;
  const double padded = 202.0 * 102.0;
  for (GridPlanner p : {GridPlanner::astar, GridPlanner::dijkstra, GridPlanner::jps, GridPlanner::theta}) {
    CAPTURE(to_string(p));
    GridSearchOptions o;
    o.max_memory_bytes = static_cast<int64_t>(padded * 25.0) - 1;  // below the plain search's need
    auto r = pf.find_path(p, a, b, o);
    REQUIRE(r.ok());
    CHECK_FALSE(r->found);
    CHECK((r->details & kDetailBudgetExhausted) != 0);
    CHECK((r->details & kDetailMemoryCap) != 0);
    CHECK(contains(r->reason, "above the memory budget"));
    CHECK(r->expanded == 0);
  }
  // Turn penalties need 9 states a cell: refused at a cap the plain search fits in.
  GridSearchOptions turns;
  turns.turn_penalty = 0.5;
  turns.max_memory_bytes = static_cast<int64_t>(padded * 30.0);
  CHECK((pf.find_path(GridPlanner::astar, a, b, turns)->details & kDetailMemoryCap) != 0);
  // Terrain costs keep a float multiplier a cell too (29 bytes): refused at the uniform map's
  // 25, on a fresh pathfinder (it scans the map) and on one built already (it knows the count).
  Grid hills = g;
  hills.set_cost(150, 20, 3.0f);
  GridSearchOptions tight;
  tight.max_memory_bytes = static_cast<int64_t>(padded * 27.0);
  CHECK(pf.find_path(GridPlanner::astar, a, b, tight)->found);  // the uniform map fits
  GridPathfinder on_hills(hills);
  CHECK((on_hills.find_path(GridPlanner::astar, a, b, tight)->details & kDetailMemoryCap) != 0);
  REQUIRE(on_hills.find_path(GridPlanner::astar, a, b)->found);
  CHECK((on_hills.find_path(GridPlanner::astar, a, b, tight)->details & kDetailMemoryCap) != 0);
  // JPS's tables (8 bytes a cell) do not fit: by default JPS jumps by blocks and never builds
  // them; asked for the tables, A* answers instead. The same length, and the latter says so.
  GridSearchOptions small;
  small.max_memory_bytes = static_cast<int64_t>(padded * 30.0);  // the search's 25, not the tables' 33
  GridPathfinder fresh(g);
  GridPathfinder uncapped(g);
  int queries = 0;
  while (!uncapped.jump_tables_built() && queries < 100000) {  // until the tables pay off, uncapped
    REQUIRE(uncapped.find_path(GridPlanner::jps, a, b).ok());
    auto j = fresh.find_path(GridPlanner::jps, a, b, small);
    REQUIRE(j.ok());
    REQUIRE(j->found);
    REQUIRE(j->details == 0);
    REQUIRE(j->length == doctest::Approx(optimal).epsilon(1e-12));
    ++queries;
  }
  CHECK(uncapped.jump_tables_built());
  CHECK_FALSE(fresh.jump_tables_built());
  small.jps_jumps = JpsJumps::tables;
  auto j = fresh.find_path(GridPlanner::jps, a, b, small);
  REQUIRE(j.ok());
  CHECK(j->found);
  CHECK((j->details & kDetailJpsAsAstar) != 0);
  CHECK(j->length == doctest::Approx(optimal).epsilon(1e-12));
  // A raised cancel flag stops the search at its first check and says why.
  std::atomic<bool> cancel{true};
  GridSearchOptions c;
  c.budget.cancel = &cancel;
  for (GridPlanner p : {GridPlanner::astar, GridPlanner::dijkstra, GridPlanner::jps, GridPlanner::theta}) {
    auto r = fresh.find_path(p, a, b, c);
    REQUIRE(r.ok());
    CHECK_FALSE(r->found);
    CHECK(r->stopped == BudgetStop::cancelled);
    CHECK((r->details & kDetailBudgetExhausted) != 0);
    CHECK(contains(r->reason, "cancelled"));
  }
  // budget.max_expansions and the older max_expansions: the smaller one wins.
  GridSearchOptions e;
  e.budget.max_expansions = 7;
  e.max_expansions = 50;
  auto r = fresh.find_path(GridPlanner::dijkstra, a, b, e);
  CHECK(r->expanded == 7);
  CHECK(r->stopped == BudgetStop::expansions);
  // An end inside a wall is refused before anything is built (an error, not a budget).
  Grid walls = Grid::create(64, 64).value();
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) walls.set_blocked(x, y, true);
  auto w = find_grid_path(walls, GridPlanner::jps, Cell{1, 1}, Cell{5, 5});
  REQUIRE_FALSE(w.ok());
  CHECK(w.error().code == StatusCode::blocked);
}

TEST_CASE("cli: errors quoting arguments or file text are one printable line") {
  // A newline and a control byte inside a number argument, an option name and a query line.
  const auto r = run_cli("curve --type dubins --from \"$(printf '0,0\\n,0')\" --to 1,1,0 --radius 2");
  CHECK(r.status == 2);
  CHECK(r.err.rfind("error:", 0) == 0);
  CHECK_MESSAGE(r.err.find('\n') == r.err.size() - 1, r.err);
  CHECK(contains(r.err, "\\x0A"));
  check_usage_error("plan --map " + kDemoMap + " --from 1,1 --to 2,2 \"$(printf -- '--bad\\001name')\" 1", "\\x01");
  const std::string q = test::write_temp("hostile_ctrl_queries.txt", std::string("0 0 0 1\x01\x1b[2J 1 0\n"));
  check_usage_error("curve --type dubins --radius 2 --queries " + q, "\\x01\\x1B[2J");
}
