#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "pathlab/collision.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/shortcut.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

/// Every consecutive pair of an A*/Dijkstra path is one legal 8-connected step.
void check_steps(const Grid& g, const GridPath& p, Connectivity conn) {
  for (size_t i = 1; i < p.cells.size(); ++i) {
    const int dx = p.cells[i].x - p.cells[i - 1].x, dy = p.cells[i].y - p.cells[i - 1].y;
    REQUIRE(std::max(std::abs(dx), std::abs(dy)) == 1);
    if (conn == Connectivity::four) REQUIRE(std::abs(dx) + std::abs(dy) == 1);
    if (dx && dy) {
      REQUIRE(g.is_free(p.cells[i - 1].x + dx, p.cells[i - 1].y));
      REQUIRE(g.is_free(p.cells[i - 1].x, p.cells[i - 1].y + dy));
    }
    REQUIRE(g.is_free(p.cells[i]));
  }
}

int turns(const std::vector<Cell>& cells) {
  int n = 0;
  for (size_t i = 2; i < cells.size(); ++i) {
    const int dx0 = cells[i - 1].x - cells[i - 2].x, dy0 = cells[i - 1].y - cells[i - 2].y;
    const int dx1 = cells[i].x - cells[i - 1].x, dy1 = cells[i].y - cells[i - 1].y;
    n += (dx0 != dx1 || dy0 != dy1);
  }
  return n;
}

struct Query {
  Cell s, t;
};

std::vector<Query> random_queries(const Grid& g, int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Query> out;
  while (static_cast<int>(out.size()) < n) {
    const Cell a{static_cast<int>(rng() % g.width()), static_cast<int>(rng() % g.height())};
    const Cell b{static_cast<int>(rng() % g.width()), static_cast<int>(rng() % g.height())};
    if (g.is_free(a) && g.is_free(b)) out.push_back({a, b});
  }
  return out;
}

}  // namespace

TEST_CASE("grid search: A* and JPS lengths equal Dijkstra's on random grids") {
  const int maps = sanitized() ? 12 : 60;
  for (int m = 0; m < maps; ++m) {
    const double density = 0.1 + 0.3 * (m % 4) / 3.0;
    const Grid g = test::random_grid(40 + m % 7, 30 + m % 5, density, static_cast<uint32_t>(m));
    GridPathfinder pf(g);
    for (const Query& q : random_queries(g, 20, static_cast<uint32_t>(1000 + m))) {
      auto d = pf.find_path(GridPlanner::dijkstra, q.s, q.t);
      auto a = pf.find_path(GridPlanner::astar, q.s, q.t);
      auto j = pf.find_path(GridPlanner::jps, q.s, q.t);
      REQUIRE(d.ok());
      REQUIRE(a.ok());
      REQUIRE(j.ok());
      REQUIRE(a->found == d->found);
      REQUIRE(j->found == d->found);
      if (!d->found) continue;
      CHECK(a->length == doctest::Approx(d->length).epsilon(1e-12));
      CHECK(j->length == doctest::Approx(d->length).epsilon(1e-12));
      CHECK(a->expanded <= d->expanded);
      check_steps(g, *a, Connectivity::eight);
      CHECK(a->cells.front() == q.s);
      CHECK(a->cells.back() == q.t);
      CHECK(j->cells.front() == q.s);
      CHECK(j->cells.back() == q.t);
      // JPS waypoints are joined by straight or 45-degree runs through free cells.
      CHECK(polyline_clear(g, j->points));
    }
  }
}

TEST_CASE("grid search: JPS's long diagonal walks keep A*'s lengths and straight or 45-degree links") {
  // Pillars at x % 4 == 1, y % 4 == 3 leave every x == y + c diagonal with c % 4 == 0 free and
  // give each straight scan a jump point within a few cells, so one diagonal walk of JPS passes
  // dozens of stop cells (more successors than one batch holds) whose scans all find jump points.
  Grid g = Grid::create(160, 150).value();
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      if (x % 4 == 1 && y % 4 == 3) g.set_blocked(x, y, true);
  GridPathfinder pf(g);
  std::vector<Query> queries = random_queries(g, sanitized() ? 10 : 40, 18);
  queries.push_back({Cell{0, 0}, Cell{149, 149}});
  queries.push_back({Cell{0, 0}, Cell{159, 120}});
  queries.push_back({Cell{159, 0}, Cell{0, 140}});
  for (const Query& q : queries) {
    CAPTURE(q.s.x);
    CAPTURE(q.s.y);
    CAPTURE(q.t.x);
    CAPTURE(q.t.y);
    auto a = pf.find_path(GridPlanner::astar, q.s, q.t);
    auto j = pf.find_path(GridPlanner::jps, q.s, q.t);
    REQUIRE(a.ok());
    REQUIRE(j.ok());
    REQUIRE(a->found);
    REQUIRE(j->found);
    CHECK(j->length == doctest::Approx(a->length).epsilon(1e-12));
    CHECK(j->expanded <= a->expanded);
    CHECK(j->cells.front() == q.s);
    CHECK(j->cells.back() == q.t);
    for (size_t i = 1; i < j->cells.size(); ++i) {
      const int dx = std::abs(j->cells[i].x - j->cells[i - 1].x), dy = std::abs(j->cells[i].y - j->cells[i - 1].y);
      CHECK((dx == 0 || dy == 0 || dx == dy));
      CHECK((dx | dy) != 0);
    }
    CHECK(polyline_clear(g, j->points));
  }
}

TEST_CASE("grid search: 4-connected A* equals 4-connected Dijkstra") {
  const Grid g = test::random_grid(35, 35, 0.3, 77);
  GridPathfinder pf(g);
  GridSearchOptions opt;
  opt.connectivity = Connectivity::four;
  for (const Query& q : random_queries(g, 40, 5)) {
    auto d = pf.find_path(GridPlanner::dijkstra, q.s, q.t, opt);
    auto a = pf.find_path(GridPlanner::astar, q.s, q.t, opt);
    REQUIRE(a->found == d->found);
    if (!a->found) continue;
    CHECK(a->length == doctest::Approx(d->length).epsilon(1e-12));
    CHECK(a->length == doctest::Approx(static_cast<double>(a->cells.size() - 1)));
    check_steps(g, *a, Connectivity::four);
  }
  CHECK(pf.find_path(GridPlanner::jps, Cell{0, 0}, Cell{1, 1}, opt).error().code == StatusCode::unsupported);
}

TEST_CASE("grid search: Theta* and los paths are clear and never longer than the octile optimum") {
  const int maps = sanitized() ? 6 : 30;
  double ratio_sum = 0;
  int n = 0;
  for (int m = 0; m < maps; ++m) {
    const Grid g = test::random_grid(45, 40, 0.15 + 0.05 * (m % 4), static_cast<uint32_t>(500 + m));
    GridPathfinder pf(g);
    for (const Query& q : random_queries(g, 15, static_cast<uint32_t>(m))) {
      auto a = pf.find_path(GridPlanner::astar, q.s, q.t);
      auto th = pf.find_path(GridPlanner::theta, q.s, q.t);
      REQUIRE(th->found == a->found);
      if (!a->found) continue;
      CHECK(th->length <= a->length + 1e-9);
      CHECK(polyline_clear(g, th->points));
      auto cut = los_shortcut(g, a->points);
      REQUIRE(cut.ok());
      CHECK(cut->length <= a->length + 1e-9);
      CHECK(polyline_clear(g, cut->points));
      CHECK(cut->points.front() == a->points.front());
      CHECK(cut->points.back() == a->points.back());
      if (a->length > 0) {
        ratio_sum += th->length / a->length;
        ++n;
      }
    }
  }
  REQUIRE(n > 0);
  MESSAGE("Theta*/octile mean length ratio: " << ratio_sum / n);
  CHECK(ratio_sum / n < 0.99);  // any-angle paths are visibly shorter on these maps
}

TEST_CASE("grid search: Theta*'s cost is its waypoints' line costs, summed in path order") {
  // Theta* walks its lines of sight on its padded copy of the map; this pins that walk to
  // center_line_cost(): bit for bit on plain ground (the same sums in the same order; a
  // one-cell step is exact there too), within rounding on weighted ground (a step's cost is
  // rounded once there, a line's once per cell).
  for (const bool weighted : {false, true}) {
    Grid g = test::random_grid(60, 50, 0.15, 9191);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> x(0, 59), y(0, 49), c(1, 4);
    for (int i = 0; weighted && i < 600; ++i) {
      const int cx = x(rng), cy = y(rng);
      if (g.is_free(cx, cy)) g.set_cost(cx, cy, static_cast<float>(c(rng)));
    }
    GridPathfinder pf(g);
    int found = 0;
    for (const Query& q : random_queries(g, 40, 11)) {
      auto th = pf.find_path(GridPlanner::theta, q.s, q.t);
      REQUIRE(th.ok());
      if (!th->found) continue;
      ++found;
      double sum = 0.0;
      for (size_t i = 1; i < th->cells.size(); ++i) sum += center_line_cost(g, th->cells[i - 1], th->cells[i]);
      CAPTURE(weighted);
      if (weighted) CHECK(th->cost == doctest::Approx(sum).epsilon(1e-12));
      else CHECK(th->cost == sum);
    }
    CHECK(found > 20);
  }
}

TEST_CASE("grid search: Theta* tells a walled-in goal at once, under a budget too") {
  // A 3x3 pocket closed by a ring of walls in a 200x200 open map: the regions answer (the
  // ends lie in different ones), where the search would expand the 39,975 cells outside it.
  Grid g = Grid::create(200, 200).value();
  for (int i = 0; i < 5; ++i) {
    g.set_blocked(150 + i, 150, true);
    g.set_blocked(150 + i, 154, true);
    g.set_blocked(150, 150 + i, true);
    g.set_blocked(154, 150 + i, true);
  }
  GridPathfinder pf(g);
  for (const bool goal_inside : {true, false}) {
    const Cell in{152, 152}, out{10, 20};
    auto th = pf.find_path(GridPlanner::theta, goal_inside ? out : in, goal_inside ? in : out);
    REQUIRE(th.ok());
    CHECK_FALSE(th->found);
    CHECK(th->reason == "the goal cannot be reached from the start");
    CHECK(th->expanded == 0);  // no search
    GridSearchOptions traced;
    traced.record_trace = true;
    auto tr = pf.find_path(GridPlanner::theta, goal_inside ? out : in, goal_inside ? in : out, traced);
    REQUIRE(tr.ok());
    CHECK_FALSE(tr->found);  // traced: the search runs, for its replay
    CHECK(tr->trace.size() == static_cast<size_t>(tr->expanded + tr->generated));
    CHECK(tr->expanded >= 9);
  }
  // Inside the pocket start and goal share a region, and the search runs.
  auto inside = pf.find_path(GridPlanner::theta, Cell{151, 151}, Cell{153, 151});
  REQUIRE(inside->found);
  CHECK(inside->length == doctest::Approx(2.0).epsilon(1e-12));
  // Under a budget the regions answer too: exact, and no expansion spent.
  GridSearchOptions opt;
  opt.max_expansions = 5000;
  auto limited = pf.find_path(GridPlanner::theta, Cell{10, 20}, Cell{152, 152}, opt);
  REQUIRE(limited.ok());
  CHECK_FALSE(limited->found);
  CHECK(limited->stopped == BudgetStop::none);
  CHECK(limited->expanded == 0);
  // Two halves of the map: answered the same way, whatever their size.
  Grid big = Grid::create(200, 200).value();
  for (int i = 0; i < 200; ++i) big.set_blocked(i, 100, true);
  GridPathfinder pf_big(big);
  auto apart = pf_big.find_path(GridPlanner::theta, Cell{5, 5}, Cell{150, 150});
  REQUIRE(apart.ok());
  CHECK_FALSE(apart->found);
  CHECK(apart->expanded == 0);
}

TEST_CASE("grid search: agent radius keeps every path clear of walls") {
  for (double radius : {0.3, 0.7, 1.2}) {
    const Grid g = test::random_grid(50, 40, 0.06, static_cast<uint32_t>(radius * 100));
    GridPathfinder pf(g);
    GridSearchOptions opt;
    opt.agent_radius = radius;
    const auto pass = passable_cells(g, radius);
    int found = 0;
    for (const Query& q : random_queries(g, 60, 3)) {
      if (!pass[static_cast<size_t>(g.index(q.s.x, q.s.y))] || !pass[static_cast<size_t>(g.index(q.t.x, q.t.y))]) {
        auto r = pf.find_path(GridPlanner::astar, q.s, q.t, opt);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().code == StatusCode::blocked);
        continue;
      }
      for (GridPlanner p : {GridPlanner::astar, GridPlanner::jps, GridPlanner::theta}) {
        auto r = pf.find_path(p, q.s, q.t, opt);
        REQUIRE(r.ok());
        if (!r->found) continue;
        ++found;
        CAPTURE(radius);
        CHECK(polyline_clear(g, r->points, radius));
        if (p == GridPlanner::astar) {
          auto cut = los_shortcut(g, r->points, radius);
          REQUIRE(cut.ok());
          CHECK(polyline_clear(g, cut->points, radius));
        }
      }
    }
    CHECK(found > 0);
  }
}

TEST_CASE("grid search: weighted terrain") {
  // A swamp band across the middle, with a dry detour around its end.
  Grid g = Grid::create(21, 11).value();
  for (int x = 0; x < 18; ++x)
    for (int y = 4; y < 7; ++y) g.set_cost(x, y, 50.0f);
  GridPathfinder pf(g);
  auto d = pf.find_path(GridPlanner::dijkstra, Cell{2, 1}, Cell{2, 9});
  auto a = pf.find_path(GridPlanner::astar, Cell{2, 1}, Cell{2, 9});
  REQUIRE(a->found);
  CHECK(a->cost == doctest::Approx(d->cost).epsilon(1e-12));
  CHECK(a->length > 8.0 + 1e-9);  // longer than straight through...
  CHECK(a->cost < 3 * 50.0);      // ...but cheaper than wading the swamp
  auto j = pf.find_path(GridPlanner::jps, Cell{2, 1}, Cell{2, 9});
  REQUIRE(j->found);
  CHECK((j->details & kDetailCostsIgnored) != 0);
  CHECK(j->length == doctest::Approx(8.0));
  auto th = pf.find_path(GridPlanner::theta, Cell{2, 1}, Cell{2, 9});
  REQUIRE(th->found);
  CHECK(th->cost <= a->cost + 1e-9);
  auto cut = los_shortcut(g, a->points);
  REQUIRE(cut.ok());
  double cut_cost = 0;
  for (size_t i = 1; i < cut->points.size(); ++i) cut_cost += segment_cost(g, cut->points[i - 1], cut->points[i]);
  CHECK(cut_cost <= a->cost + 1e-9);  // shortcuts never wade into costlier ground
}

TEST_CASE("grid search: turn penalty gives straighter paths at a price") {
  const Grid g = test::random_grid(60, 60, 0.12, 4242);
  GridPathfinder pf(g);
  int fewer = 0, total = 0;
  for (const Query& q : random_queries(g, 25, 8)) {
    auto plain = pf.find_path(GridPlanner::astar, q.s, q.t);
    GridSearchOptions opt;
    opt.turn_penalty = 0.5;
    auto straight = pf.find_path(GridPlanner::astar, q.s, q.t, opt);
    auto dj = pf.find_path(GridPlanner::dijkstra, q.s, q.t, opt);
    REQUIRE(plain->found == straight->found);
    if (!plain->found) continue;
    ++total;
    check_steps(g, *straight, Connectivity::eight);
    CHECK(straight->cost == doctest::Approx(dj->cost).epsilon(1e-12));  // optimal for the penalised cost
    CHECK(straight->length >= plain->length - 1e-9);
    CHECK(turns(straight->cells) <= turns(plain->cells));
    fewer += turns(straight->cells) < turns(plain->cells);
    // The penalised cost is the length plus 0.5 * (cost of each step that turned).
    CHECK(straight->cost >= straight->length - 1e-9);
  }
  CHECK(total > 10);
  CHECK(fewer > 0);
}

TEST_CASE("grid search: trace records every open and close, in order") {
  const Grid g = test::random_grid(30, 30, 0.2, 99);
  GridPathfinder pf(g);
  GridSearchOptions opt;
  opt.record_trace = true;
  const auto qs = random_queries(g, 5, 1);
  for (GridPlanner p : {GridPlanner::astar, GridPlanner::jps, GridPlanner::theta, GridPlanner::dijkstra}) {
    for (const Query& q : qs) {
      auto r = pf.find_path(p, q.s, q.t, opt);
      REQUIRE(r.ok());
      int64_t closes = 0, opens = 0;
      for (const TraceEvent& e : r->trace) (e.kind == TraceEvent::close ? closes : opens)++;
      CHECK(opens == r->generated);
      CHECK(closes == r->expanded + (r->found ? 1 : 0));  // the goal is closed, not expanded
      CHECK(r->trace.front().cell == q.s);
      if (r->found) CHECK(r->trace.back().cell == q.t);
      auto quiet = pf.find_path(p, q.s, q.t);
      CHECK(quiet->trace.empty());
      CHECK(quiet->length == r->length);  // tracing does not change the search
    }
  }
}

TEST_CASE("grid search: deterministic") {
  const Grid g = test::random_grid(64, 64, 0.25, 7);
  for (GridPlanner p : {GridPlanner::astar, GridPlanner::jps, GridPlanner::theta}) {
    auto a = find_grid_path(g, p, Cell{1, 1}, Cell{60, 62});
    GridPathfinder pf(g);
    pf.find_path(p, Cell{5, 5}, Cell{30, 40});  // a different query first must not matter
    auto b = pf.find_path(p, Cell{1, 1}, Cell{60, 62});
    REQUIRE(a->found == b->found);
    CHECK(a->cells.size() == b->cells.size());
    for (size_t i = 0; i < a->cells.size() && i < b->cells.size(); ++i) CHECK(a->cells[i] == b->cells[i]);
  }
}

TEST_CASE("grid search: bad queries are errors, no path is not") {
  Grid g = Grid::create(10, 10).value();
  for (int y = 0; y < 10; ++y) g.set_blocked(5, y, true);
  GridPathfinder pf(g);
  auto r = pf.find_path(GridPlanner::astar, Cell{1, 1}, Cell{8, 8});
  REQUIRE(r.ok());
  CHECK_FALSE(r->found);
  CHECK_FALSE(r->reason.empty());
  CHECK(pf.find_path(GridPlanner::jps, Cell{1, 1}, Cell{8, 8})->found == false);
  CHECK(pf.find_path(GridPlanner::astar, Cell{-1, 1}, Cell{8, 8}).error().code == StatusCode::out_of_bounds);
  CHECK(pf.find_path(GridPlanner::astar, Cell{1, 1}, Cell{10, 8}).error().code == StatusCode::out_of_bounds);
  CHECK(pf.find_path(GridPlanner::astar, Cell{5, 1}, Cell{8, 8}).error().code == StatusCode::blocked);
  GridSearchOptions opt;
  opt.agent_radius = std::nan("");
  CHECK(pf.find_path(GridPlanner::astar, Cell{1, 1}, Cell{2, 2}, opt).error().code == StatusCode::invalid_argument);
  opt = GridSearchOptions{};
  opt.turn_penalty = -1;
  CHECK(pf.find_path(GridPlanner::astar, Cell{1, 1}, Cell{2, 2}, opt).error().code == StatusCode::invalid_argument);
  opt.turn_penalty = 0.5;
  CHECK(pf.find_path(GridPlanner::theta, Cell{1, 1}, Cell{2, 2}, opt).error().code == StatusCode::unsupported);
  opt = GridSearchOptions{};
  opt.max_expansions = 3;
  auto budget = pf.find_path(GridPlanner::astar, Cell{0, 0}, Cell{4, 9}, opt);
  REQUIRE(budget.ok());
  CHECK_FALSE(budget->found);
  CHECK((budget->details & kDetailBudgetExhausted) != 0);
  auto same = pf.find_path(GridPlanner::jps, Cell{2, 2}, Cell{2, 2});
  REQUIRE(same->found);
  CHECK(same->length == 0.0);
  CHECK(same->cells.size() == 1);
}

TEST_CASE("grid search: the pathfinder follows grid edits after reset") {
  Grid g = Grid::create(10, 3).value();
  GridPathfinder pf(g);
  CHECK(pf.find_path(GridPlanner::astar, Cell{0, 1}, Cell{9, 1})->length == doctest::Approx(9.0));
  for (int y = 0; y < 3; ++y) g.set_blocked(4, y, y != 0);
  pf.reset(g);
  auto r = pf.find_path(GridPlanner::astar, Cell{0, 1}, Cell{9, 1});
  REQUIRE(r->found);
  CHECK(r->length == doctest::Approx(7.0 + 2.0 * std::sqrt(2.0)));
}

TEST_CASE("grid search: JPS's block-based jumping and its jump tables give identical searches") {
  // Widths around the 64-bit word size (a scan crossing words, rows ending inside a word),
  // densities from open to cluttered, and a wide agent; every query once per jump source.
  const int sizes[][2] = {{62, 40}, {63, 70}, {64, 64}, {65, 33}, {127, 90}, {130, 129}, {200, 50}};
  const int maps = sanitized() ? 7 : 28;
  for (int m = 0; m < maps; ++m) {
    const double density = 0.02 + 0.33 * (m % 4) / 3.0;
    const Grid g = test::random_grid(sizes[m % 7][0], sizes[m % 7][1], density, static_cast<uint32_t>(500 + m));
    GridSearchOptions blocks, tables;
    blocks.jps_jumps = JpsJumps::blocks;
    tables.jps_jumps = JpsJumps::tables;
    blocks.agent_radius = tables.agent_radius = (m % 5 == 4) ? 1.0 : 0.0;
    GridPathfinder pb(g), pt(g);
    for (const Query& q : random_queries(g, sanitized() ? 15 : 40, static_cast<uint32_t>(2000 + m))) {
      CAPTURE(m);
      CAPTURE(q.s.x);
      CAPTURE(q.s.y);
      CAPTURE(q.t.x);
      CAPTURE(q.t.y);
      auto b = pb.find_path(GridPlanner::jps, q.s, q.t, blocks);
      auto t = pt.find_path(GridPlanner::jps, q.s, q.t, tables);
      REQUIRE(b.ok() == t.ok());  // both refuse an end too close to a wall for the agent
      if (!b.ok()) continue;
      REQUIRE(b->found == t->found);
      CHECK(b->cells == t->cells);
      CHECK(b->length == t->length);  // the same runs summed in the same order: bit for bit
      CHECK(b->expanded == t->expanded);
      CHECK(b->generated == t->generated);
    }
  }
}

TEST_CASE("grid search: JPS builds its jump tables only once block jumping has expanded enough") {
  const Grid g = test::random_grid(96, 96, 0.2, 77);
  GridPathfinder pf(g);
  const std::vector<Query> queries = random_queries(g, 400, 78);
  int64_t expanded = 0;
  bool built = false;
  for (const Query& q : queries) {
    auto j = pf.find_path(GridPlanner::jps, q.s, q.t);
    REQUIRE(j.ok());
    expanded += j->expanded;
    if (pf.jump_tables_built()) {
      built = true;
      break;
    }
  }
  // The first query never builds them; a few hundred queries on a small map do.
  CHECK(built);
  CHECK(expanded > 0);
  GridPathfinder first(g);
  REQUIRE(first.find_path(GridPlanner::jps, queries[0].s, queries[0].t).ok());
  CHECK_FALSE(first.jump_tables_built());
}
