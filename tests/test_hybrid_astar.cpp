// Hybrid A*: exact legality of every path (curvature, clearance, end poses), lower bounds,
// reversing, failure reasons, and the Moving AI maps.

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>

#include "heading_support.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "test_support.hpp"
#include "visibility_reference.hpp"

using namespace pathlab;

namespace {

bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

struct Tally {
  int tried = 0, found = 0;
  double ratio_sum = 0.0, ratio_max = 0.0;
};

/// Plans random free poses on `grid` and checks every found path; lower bound from the exact
/// Euclidean shortest path (when `reference`) and the obstacle-free curve length.
void plan_random_queries(const Grid& grid, const HybridAStarOptions& o, int queries, uint32_t seed,
                         const test::VisibilityReference* reference, Tally& t) {
  auto planner = HybridAStar::create(grid, o);
  REQUIRE(planner.ok());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(0.0, grid.width()), uy(0.0, grid.height()), uh(-kPi, kPi);
  int done = 0;
  for (int guard = 0; done < queries && guard < queries * 50; ++guard) {
    const Pose s{Vec2(ux(rng), uy(rng)), uh(rng)}, g{Vec2(ux(rng), uy(rng)), uh(rng)};
    if (!point_clear(grid, s.pos, o.agent_radius + 0.5) || !point_clear(grid, g.pos, o.agent_radius + 0.5)) continue;
    ++done;
    auto out = planner->plan(s, g);
    REQUIRE(out.ok());
    ++t.tried;
    if (!out->found) {
      CHECK(out->failure != HeadingFailure::none);
      CHECK_FALSE(out->reason.empty());
      continue;
    }
    ++t.found;
    test::check_legal(grid, *out, o.turning_radius, o.agent_radius, s, g);
    const double curve = o.allow_reverse ? reeds_shepp_length(s, g, o.turning_radius).value()
                                         : dubins_length(s, g, o.turning_radius).value();
    double bound = curve;
    if (reference) bound = std::max(bound, reference->shortest(s.pos, g.pos));
    CHECK(out->length >= bound - 1e-9);
    CHECK(out->cost >= out->length - 1e-9);
    const double ratio = bound > 0 ? out->length / bound : 1.0;
    t.ratio_sum += ratio;
    t.ratio_max = std::max(t.ratio_max, ratio);
  }
}

}  // namespace

TEST_CASE("hybrid A*: bad options and poses are errors that name the argument") {
  const Grid grid = Grid::create(16, 16).value();
  HybridAStarOptions o;
  o.heading_bins = 3;
  auto bad = HybridAStar::create(grid, o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("heading_bins") != std::string::npos);
  o = default_hybrid_astar_options();
  o.reverse_penalty = 0.5;
  bad = HybridAStar::create(grid, o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("reverse_penalty") != std::string::npos);
  o = default_hybrid_astar_options();
  o.turning_radius = std::nan("");
  CHECK_FALSE(HybridAStar::create(grid, o).ok());

  auto planner = HybridAStar::create(grid, default_hybrid_astar_options());
  REQUIRE(planner.ok());
  auto out = planner->plan(Pose{Vec2(1, 1), 0}, Pose{Vec2(1, -3), 0});
  REQUIRE_FALSE(out.ok());
  CHECK(out.error().code == StatusCode::out_of_bounds);
  CHECK(out.error().message.find("goal") != std::string::npos);
}

TEST_CASE("hybrid A*: primitives turn by whole heading bins and leave their cell") {
  const Grid grid = Grid::create(16, 16).value();
  for (const double r : {0.5, 2.0, 4.0, 10.0}) {
    HybridAStarOptions o;
    o.turning_radius = r;
    auto planner = HybridAStar::create(grid, o);
    REQUIRE(planner.ok());
    const double bins = planner->primitive_turn() / (2 * kPi / o.heading_bins);
    CHECK(std::abs(bins - std::round(bins)) < 1e-9);
    CHECK(planner->primitive_length() == doctest::Approx(r * planner->primitive_turn()).epsilon(1e-12));
    if (r >= 2.0) CHECK(2 * r * std::sin(planner->primitive_turn() / 2) >= 1.5);
  }
}

TEST_CASE("hybrid A*: in the open the analytic expansion finishes at once with the Dubins curve") {
  const Grid grid = Grid::create(40, 40).value();
  auto planner = HybridAStar::create(grid, default_hybrid_astar_options());
  REQUIRE(planner.ok());
  const Pose s{Vec2(5.3, 6.1), 0.3}, g{Vec2(30.2, 28.7), -2.0};
  auto out = planner->plan(s, g);
  REQUIRE(out.ok());
  test::check_legal(grid, *out, 4.0, 0.0, s, g);
  CHECK(out->expanded == 1);
  CHECK(out->length == doctest::Approx(dubins_length(s, g, 4.0).value()).epsilon(1e-12));
}

TEST_CASE("hybrid A*: with reverse, the finish is the cheapest curve, not the shortest one") {
  // The goal 12 cells straight behind the start, same heading: the shortest Reeds-Shepp curve
  // is a 12-cell straight reverse. At reverse_penalty 3 it costs 36, while the forward Dubins
  // loop (about 12 + 2 pi r = 24.6 cells at r = 2) costs about 25: the search must drive forward.
  const Grid grid = Grid::create(40, 40).value();
  const Pose s{Vec2(20.5, 20.5), 0.0}, g{Vec2(8.5, 20.5), 0.0};
  HybridAStarOptions o = default_hybrid_astar_options();
  o.turning_radius = 2.0;
  o.allow_reverse = true;
  o.reverse_penalty = 3.0;
  const auto reversed_length = [](const SegmentPath& p) {
    double l = 0.0;
    for (const Segment& seg : p.segments()) l += seg.gear == Gear::reverse ? seg.length : 0.0;
    return l;
  };
  auto planner = HybridAStar::create(grid, o);
  REQUIRE(planner.ok());
  auto out = planner->plan(s, g);
  REQUIRE(out.ok());
  REQUIRE(out->found);
  test::check_legal(grid, *out, o.turning_radius, o.agent_radius, s, g);
  CHECK(reversed_length(out->path) == 0.0);
  CHECK(out->cost < 3.0 * 12.0 - 5.0);
  CHECK(out->cost == doctest::Approx(out->length).epsilon(1e-12));  // forward only: cost is length
  // Cheap reversing (penalty 1, no gear change): the straight reverse is the cheapest finish.
  o.reverse_penalty = 1.0;
  auto cheap = HybridAStar::create(grid, o);
  REQUIRE(cheap.ok());
  auto back = cheap->plan(s, g);
  REQUIRE(back.ok());
  REQUIRE(back->found);
  CHECK(back->length == doctest::Approx(12.0).epsilon(1e-12));
  CHECK(reversed_length(back->path) == doctest::Approx(12.0).epsilon(1e-12));
  CHECK(back->expanded == 1);
}

namespace {

/// Lengths of the gear runs of a path, in order. [cells]
std::vector<double> gear_run_lengths(const SegmentPath& p) {
  std::vector<double> runs;
  Gear gear = Gear::forward;
  for (const Segment& seg : p.segments()) {
    if (seg.length <= 0.0) continue;
    if (runs.empty() || seg.gear != gear) runs.push_back(0.0);
    gear = seg.gear;
    runs.back() += seg.length;
  }
  return runs;
}

}  // namespace

TEST_CASE("hybrid A*: with reverse, no gear segment shorter than min_gear_length where the gear changes") {
  // Short manoeuvres in an open lot: the shortest Reeds-Shepp curve between such poses often
  // holds a gear segment of a few tenths of a cell (a 0.3-cell reversal); the search passes
  // over finishing curves like that.
  const Grid grid = Grid::create(40, 40).value();
  HybridAStarOptions o = default_hybrid_astar_options();
  o.turning_radius = 2.0;
  o.allow_reverse = true;
  o.reverse_penalty = 1.0;  // reversing is cheap: the search would take every short reversal
  o.gear_change_penalty = 0.0;
  auto planner = HybridAStar::create(grid, o);
  REQUIRE(planner.ok());
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> off(-4.0, 4.0), uh(-kPi, kPi);
  int short_in_rs = 0, with_cusps = 0;
  for (int q = 0; q < 150; ++q) {
    const Pose s{Vec2(20.0, 20.0), uh(rng)}, g{Vec2(20.0 + off(rng), 20.0 + off(rng)), uh(rng)};
    const std::vector<double> rs = gear_run_lengths(reeds_shepp_path(s, g, o.turning_radius).value());
    short_in_rs += rs.size() > 1 && *std::min_element(rs.begin(), rs.end()) < o.min_gear_length;
    auto out = planner->plan(s, g);
    REQUIRE(out.ok());
    REQUIRE(out->found);
    test::check_legal(grid, *out, o.turning_radius, o.agent_radius, s, g);
    const std::vector<double> runs = gear_run_lengths(out->path);
    CAPTURE(q);
    if (runs.size() > 1) {
      ++with_cusps;
      for (double run : runs) CHECK(run >= o.min_gear_length - 1e-9);
    }
  }
  MESSAGE(short_in_rs, " of 150 shortest Reeds-Shepp curves had a gear segment under 1 cell; ", with_cusps,
          " planned paths change gear");
  CHECK(short_in_rs >= 10);  // the case really comes up
  CHECK(with_cusps >= 10);
  // min_gear_length 0 lets the search finish with the shortest curve again, short runs and all.
  o.min_gear_length = 0.0;
  auto any = HybridAStar::create(grid, o);
  REQUIRE(any.ok());
  std::mt19937 again(21);
  int short_runs = 0;
  for (int q = 0; q < 150; ++q) {
    const Pose s{Vec2(20.0, 20.0), uh(again)}, g{Vec2(20.0 + off(again), 20.0 + off(again)), uh(again)};
    auto out = any->plan(s, g);
    REQUIRE(out.ok());
    const std::vector<double> runs = gear_run_lengths(out->path);
    short_runs += runs.size() > 1 && *std::min_element(runs.begin(), runs.end()) < 1.0;
  }
  CHECK(short_runs >= 10);
  o.min_gear_length = -1.0;
  auto bad = HybridAStar::create(grid, o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("min_gear_length") != std::string::npos);
}

TEST_CASE("hybrid A*: failure reasons") {
  const Grid grid = test::grid_from_rows({
      "......#.........",
      "......#.........",
      "......#.........",
      "......#.........",
      "......#.........",
      "......#.........",
  });
  HybridAStarOptions o;
  o.turning_radius = 1.0;
  o.agent_radius = 0.3;
  o.record_trace = true;
  auto planner = HybridAStar::create(grid, o);
  REQUIRE(planner.ok());
  auto walled = planner->plan(Pose{Vec2(2.5, 2.5), 0}, Pose{Vec2(10.5, 2.5), 0});
  REQUIRE(walled.ok());
  CHECK(walled->failure == HeadingFailure::unreachable);
  CHECK(walled->expanded == 0);
  auto goal_wall = planner->plan(Pose{Vec2(2.5, 2.5), 0}, Pose{Vec2(5.9, 2.5), 0});
  REQUIRE(goal_wall.ok());
  CHECK(goal_wall->failure == HeadingFailure::goal_in_collision);
  CHECK(goal_wall->reason.find("goal") != std::string::npos);
  auto start_wall = planner->plan(Pose{Vec2(6.5, 2.5), 0}, Pose{Vec2(2.5, 2.5), 0});
  REQUIRE(start_wall.ok());
  CHECK(start_wall->failure == HeadingFailure::start_in_collision);

  Grid maze = test::random_grid(64, 64, 0.3, 5);
  for (int y = 50; y < 64; ++y)  // room round the goal: it can be entered, the search runs
    for (int x = 50; x < 64; ++x) maze.set_blocked(x, y, false);
  o.max_expansions = 10;
  o.turning_radius = 3.0;
  o.agent_radius = 0.0;
  auto small = HybridAStar::create(maze, o);
  REQUIRE(small.ok());
  int budget_hits = 0;
  for (int y = 0; y < 64 && budget_hits == 0; ++y) {
    if (!maze.is_free(1, y)) continue;
    auto r = small->plan(Pose{Vec2(1.5, y + 0.5), 0}, Pose{Vec2(62.5, 62.5), 0});
    REQUIRE(r.ok());
    if (r->failure == HeadingFailure::budget_exhausted) {
      ++budget_hits;
      CHECK(r->expanded == 10);
      CHECK(r->trace.size() == 10);
      // The reason names the option to raise and what running out may mean.
      CHECK(r->reason.find("max_expansions = 10") != std::string::npos);
      CHECK(r->reason.find("turning radius 3") != std::string::npos);
    }
  }
  CHECK(budget_hits == 1);
}

TEST_CASE("hybrid A*: reversing gets out of a dead end that forward driving cannot") {
  // The unit faces the closed end of a 2-cell-wide pocket; the goal is behind it, facing out.
  const Grid grid = test::grid_from_rows({
      "################",
      "#..............#",
      "#..............#",
      "#..............#",
      "#..............#",
      "#..............#",
      "#######..#######",
      "#######..#######",
      "#######..#######",
      "#######..#######",
      "#######..#######",
      "#######..#######",
      "################",
  });
  const Pose s{Vec2(8.0, 10.0), kPi / 2}, g{Vec2(3.5, 3.0), kPi};
  HybridAStarOptions o;
  o.turning_radius = 2.0;
  o.agent_radius = 0.45;
  auto forward = HybridAStar::create(grid, o);
  REQUIRE(forward.ok());
  auto f = forward->plan(s, g);
  REQUIRE(f.ok());
  CHECK_FALSE(f->found);
  CHECK(f->failure == HeadingFailure::unreachable);
  o.allow_reverse = true;
  auto reverse = HybridAStar::create(grid, o);
  REQUIRE(reverse.ok());
  auto r = reverse->plan(s, g);
  REQUIRE(r.ok());
  test::check_legal(grid, *r, o.turning_radius, o.agent_radius, s, g);
  bool reversed = false;
  for (const Segment& seg : r->path.segments()) reversed |= seg.gear == Gear::reverse;
  CHECK(reversed);
  CHECK(r->cost > r->length);  // the reverse penalty was paid
}

TEST_CASE("hybrid A*: every path on random maps is legal and above the lower bounds") {
  const int maps = sanitized() ? 2 : 8;
  Tally fwd, rev;
  for (int m = 0; m < maps; ++m) {
    const Grid grid = test::random_grid(40, 40, 0.05 + 0.02 * (m % 4), 900u + static_cast<uint32_t>(m));
    const test::VisibilityReference reference(grid);
    HybridAStarOptions o;
    o.turning_radius = 1.5 + 0.5 * (m % 3);
    o.agent_radius = m % 2 ? 0.3 : 0.0;
    plan_random_queries(grid, o, 6, 40u + static_cast<uint32_t>(m), &reference, fwd);
    o.allow_reverse = true;
    plan_random_queries(grid, o, 3, 80u + static_cast<uint32_t>(m), &reference, rev);
  }
  MESSAGE("hybrid A* forward: ", fwd.found, "/", fwd.tried, " found, length / lower bound mean ",
          fwd.found ? fwd.ratio_sum / fwd.found : 0.0, " max ", fwd.ratio_max);
  MESSAGE("hybrid A* reverse: ", rev.found, "/", rev.tried, " found, length / lower bound mean ",
          rev.found ? rev.ratio_sum / rev.found : 0.0, " max ", rev.ratio_max);
  CHECK(fwd.found >= fwd.tried / 2);
  CHECK(rev.found >= rev.tried / 2);
}

TEST_CASE("hybrid A*: in a maze, wide units pass close to the walls only where the referee agrees") {
  // Corridors 6 wide and agents up to 1.4 cells: most primitives pass near a wall, where the
  // planner's arc check answers from the clearance field alone (three points) or walks its
  // chords; a path it finds must still pass the referee (check_legal: swept disc, curvature).
  Grid grid = Grid::create(64, 64).value();
  generate_maze(grid, 6, 2420u);
  Tally t;
  for (const double agent : {0.3, 0.8, 1.4}) {
    HybridAStarOptions o;
    o.turning_radius = 2.0;
    o.agent_radius = agent;
    o.max_expansions = sanitized() ? 20000 : 60000;
    plan_random_queries(grid, o, sanitized() ? 2 : 5, 7u + static_cast<uint32_t>(10 * agent), nullptr, t);
  }
  MESSAGE("hybrid A* in a 64 x 64 maze: ", t.found, "/", t.tried, " found");
  CHECK(t.found >= t.tried / 3);
}

TEST_CASE("hybrid A*: Moving AI maps") {
  const char* maps[] = {"arena.map", "lak303d.map", "Berlin_0_256.map", "den520d.map"};
  const int per_map = sanitized() ? 2 : 8;
  Tally all;
  for (const char* name : maps) {
    auto grid = load_movingai_map(test::movingai(name));
    REQUIRE(grid.ok());
    // Exact Euclidean bound only where the visibility graph is small enough.
    std::unique_ptr<test::VisibilityReference> reference;
    if (grid->cell_count() <= 50 * 50) reference = std::make_unique<test::VisibilityReference>(*grid);
    HybridAStarOptions o;
    o.turning_radius = 2.0;
    o.agent_radius = 0.25;
    plan_random_queries(*grid, o, per_map, 7u, reference.get(), all);
  }
  MESSAGE("hybrid A* on Moving AI maps: ", all.found, "/", all.tried, " found, length / lower bound mean ",
          all.found ? all.ratio_sum / all.found : 0.0, " max ", all.ratio_max);
  CHECK(all.found >= all.tried / 2);
}

TEST_CASE("hybrid A*: a time budget stops a failing query early with a legal partial path") {
  // The goal faces out of a one-cell dead end: no forward path exists, and without a budget
  // the search floods the whole room's pose space before it says so.
  const Grid grid = test::dead_end_room(96, 96);
  // Facing out, 35 cells into the dead end: too deep for the fast goal check (which looks only
  // near the goal), so the search floods the room until the budget stops it.
  const Pose s{Vec2(4.5, 4.5), 0.0}, g{Vec2(60.5, 94.5), kPi};
  HybridAStarOptions o;
  o.turning_radius = 2.0;
  o.max_expansions = 0;  // only the time limit below
  o.budget.time_ms = 20.0;
  auto planner = HybridAStar::create(grid, o);
  REQUIRE(planner.ok());
  const auto t0 = std::chrono::steady_clock::now();
  auto r = planner->plan(s, g);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(r.ok());
  MESSAGE("hybrid A* with a 20 ms time budget returned after ", ms, " ms, ", r->expanded, " expansions");
  CHECK(r->budget_stop == BudgetStop::time);
  CHECK(r->reason.find("time budget") != std::string::npos);
  // Generous bound for a loaded machine (the target is 1.5 x 20 ms: measured by bench_budget).
  CHECK(ms < 500.0);
  test::check_partial_legal(grid, *r, o.turning_radius, o.agent_radius, s);
  // How far it got depends on the machine (on a loaded one the setup alone may use the
  // budget), so only the expansion-budget case below checks that the path moves.
}

TEST_CASE("hybrid A*: an expansion budget gives the same partial path every time, ending at the best pose") {
  const Grid grid = test::dead_end_room(48, 48);
  const Pose s{Vec2(4.5, 4.5), 0.0}, g{Vec2(30.5, 46.5), kPi};  // 17 cells deep: see above
  HybridAStarOptions o;
  o.turning_radius = 2.0;
  o.agent_radius = 0.3;
  o.max_expansions = 0;
  o.budget.max_expansions = 500;
  o.record_trace = true;
  auto planner = HybridAStar::create(grid, o);
  REQUIRE(planner.ok());
  auto a = planner->plan(s, g);
  auto b = planner->plan(s, g);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->budget_stop == BudgetStop::expansions);
  CHECK(a->expanded == 500);
  CHECK(a->reason.find("max_expansions = 500") != std::string::npos);
  test::check_partial_legal(grid, *a, o.turning_radius, o.agent_radius, s);
  // Deterministic: the same end pose, bit for bit.
  CHECK(a->path.end().pos == b->path.end().pos);
  CHECK(a->path.end().heading == b->path.end().heading);
  // The end is one of the expanded poses, and nearer the goal than the start.
  bool expanded = false;
  for (const Pose& q : a->trace) expanded |= q.pos == a->path.end().pos;
  CHECK(expanded);
  CHECK(glm::length(a->path.end().pos - g.pos) < glm::length(s.pos - g.pos));
  // The smaller of the two expansion limits wins.
  o.max_expansions = 100;
  auto capped = HybridAStar::create(grid, o);
  REQUIRE(capped.ok());
  auto c = capped->plan(s, g);
  REQUIRE(c.ok());
  CHECK(c->expanded == 100);
  CHECK(c->budget_stop == BudgetStop::expansions);
}

TEST_CASE("hybrid A*: a raised cancel flag stops the search with a partial path") {
  const Grid grid = test::dead_end_room(48, 48);
  const Pose s{Vec2(4.5, 4.5), 0.0}, g{Vec2(30.5, 46.5), kPi};  // 17 cells deep: see above
  std::atomic<bool> cancel{true};
  HybridAStarOptions o;
  o.turning_radius = 2.0;
  o.budget.cancel = &cancel;
  auto planner = HybridAStar::create(grid, o);
  REQUIRE(planner.ok());
  auto r = planner->plan(s, g);
  REQUIRE(r.ok());
  CHECK(r->budget_stop == BudgetStop::cancelled);
  // The flag is read with the clock, every BudgetMeter::kCheckEvery expansions at the latest.
  CHECK(r->expanded <= BudgetMeter::kCheckEvery);
  test::check_partial_legal(grid, *r, o.turning_radius, o.agent_radius, s);
  o.budget.time_ms = -1.0;
  CHECK_FALSE(HybridAStar::create(grid, o).ok());
}

TEST_CASE("heading planners: a budget spent before the search begins stops the query there") {
  // A 160 x 160 room cut in two by a wall, the goal on the far side: the goal's distance field
  // (the fixed cost of a query, 2-5 ms on 256 x 256, that a small time budget used to overrun
  // by) would find the goal unreachable, but it reads the clock every 4096 cells, so a cancel
  // flag raised beforehand stops the query inside it: no verdict, no expansion, the start alone
  // as the partial path.
  Grid grid = Grid::create(160, 160).value();
  for (int y = 0; y < 160; ++y) grid.set_blocked(80, y, true);
  const Pose s{Vec2(10.5, 10.5), 0.0}, g{Vec2(150.5, 150.5), kPi};
  std::atomic<bool> cancel{true};
  HybridAStarOptions h;
  h.turning_radius = 2.0;
  h.budget.cancel = &cancel;
  DirectionalAStarOptions d;
  d.turning_radius = 2.0;
  d.budget.cancel = &cancel;
  auto hybrid = HybridAStar::create(grid, h);
  auto directional = DirectionalAStar::create(grid, d);
  REQUIRE(hybrid.ok());
  REQUIRE(directional.ok());
  for (auto r : {hybrid->plan(s, g), directional->plan(s, g)}) {
    REQUIRE(r.ok());
    CHECK(r->budget_stop == BudgetStop::cancelled);
    CHECK(r->expanded == 0);
    CHECK(r->path.segments().empty());
    CHECK(r->length == 0.0);
    test::check_partial_legal(grid, *r, 2.0, 0.0, s);
  }
  // Lowered again: the field completes and says the goal cannot be reached, still before any
  // expansion.
  cancel = false;
  for (auto r : {hybrid->plan(s, g), directional->plan(s, g)}) {
    REQUIRE(r.ok());
    CHECK(r->failure == HeadingFailure::unreachable);
    CHECK(r->budget_stop == BudgetStop::none);
    CHECK(r->expanded == 0);
  }
}

namespace {

/// True when two paths have the same segments, bit for bit.
bool same_segments(const SegmentPath& a, const SegmentPath& b) {
  const auto sa = a.segments(), sb = b.segments();
  if (sa.size() != sb.size()) return false;
  for (size_t k = 0; k < sa.size(); ++k)
    if (sa[k].kind != sb[k].kind || sa[k].gear != sb[k].gear || sa[k].length != sb[k].length ||
        sa[k].start != sb[k].start || sa[k].center != sb[k].center || sa[k].sweep != sb[k].sweep)
      return false;
  return true;
}

}  // namespace

TEST_CASE("heading planners: a re-plan to the same goal (distances kept) equals a plan by a fresh planner") {
  Grid g = Grid::create(80, 80).value();
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int y = 0; y < 80; ++y)
    for (int x = 0; x < 80; ++x) g.set_blocked(x, y, u(rng) < 0.08);
  const Pose goal{Vec2(70.5, 70.5), 0.5};
  std::vector<Pose> starts;
  for (int i = 0; i < 20 && starts.size() < 4; ++i) {
    const Pose s{Vec2(5.0 + 60.0 * u(rng), 5.0 + 20.0 * u(rng)), 6.0 * u(rng)};
    if (point_clear(g, s.pos, 1.0)) starts.push_back(s);
  }
  for (int y = 68; y <= 72; ++y)
    for (int x = 66; x <= 75; ++x) g.set_blocked(x, y, false);  // room at the goal
  REQUIRE(starts.size() >= 3);
  HybridAStarOptions o = default_hybrid_astar_options();
  o.turning_radius = 2.0;
  o.agent_radius = 0.3;
  auto kept = HybridAStar::create(g, o);
  REQUIRE(kept);
  DirectionalAStarOptions d = default_directional_astar_options();
  d.turning_radius = 2.0;
  d.agent_radius = 0.3;
  auto kept_d = DirectionalAStar::create(g, d);
  REQUIRE(kept_d);
  int found = 0;
  for (const Pose& s : starts) {
    auto again = kept->plan(s, goal);
    auto fresh_planner = HybridAStar::create(g, o);
    REQUIRE(fresh_planner);
    auto fresh = fresh_planner->plan(s, goal);
    REQUIRE(again);
    REQUIRE(fresh);
    CHECK(again->found == fresh->found);
    CHECK(again->expanded == fresh->expanded);
    CHECK(same_segments(again->path, fresh->path));
    found += fresh->found;
    auto again_d = kept_d->plan(s, goal);
    auto fresh_d = DirectionalAStar::create(g, d)->plan(s, goal);
    REQUIRE(again_d);
    REQUIRE(fresh_d);
    CHECK(again_d->expanded == fresh_d->expanded);
    CHECK(same_segments(again_d->path, fresh_d->path));
  }
  CHECK(found >= 2);
}
