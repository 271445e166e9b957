// Navmesh search with query points on mesh vertices and edges (issue 19), and its budgets.

#include <doctest/doctest.h>

#include <atomic>
#include <string>

#include "navmesh_test_support.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "test_support.hpp"
#include "visibility_reference.hpp"

using namespace pathlab;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("navmesh search: the issue-19 reproducer (a start on a cell corner) answers, optimally") {
  // pathlab-cli plan --map arena2.map --from 15,108 --to 245,169 --planner navmesh ran until
  // memory ran out: the start sits on a vertex inside the free area, where four polygons meet.
  auto g = load_movingai_map(test::movingai("arena2.map"));
  REQUIRE(g);
  const test::VisibilityReference ref(*g);
  const Vec2 a(15, 108), b(245, 169);
  const double best = ref.shortest(a, b);
  REQUIRE(std::isfinite(best));
  for (const bool merge : {true, false}) {
    NavmeshDef def = default_navmesh_def();
    def.merge_convex = merge;
    auto m = Navmesh::build(*g, def);
    REQUIRE(m);
    NavmeshQuery q(*m);
    for (const auto& ends : {std::pair{a, b}, std::pair{b, a}}) {
      const Vec2 s = ends.first, t = ends.second;  // not a structured binding: CAPTURE's lambda (clang 14)
      CAPTURE(merge);
      CAPTURE(s.x);
      auto r = q.find_corridor(s, t);
      REQUIRE(r);
      REQUIRE(r->found);
      CHECK_FALSE(r->budget_exhausted);
      // 1,302 and 348 expansions on the convex mesh; the hang expanded millions.
      CHECK(r->expanded < 5000);
      CHECK(r->length == doctest::Approx(best).epsilon(1e-9));
      auto f = funnel_corridor(*r);
      REQUIRE(f);
      CHECK(f->length == doctest::Approx(best).epsilon(1e-9));
      CHECK(f->points.front() == s);
      CHECK(f->points.back() == t);
      for (const auto& e : {NavSearchCost::portal_points}) {
        NavQueryOptions o = default_nav_query_options();
        o.cost = e;
        auto p = q.find_corridor(s, t, o);
        REQUIRE(p);
        CHECK(p->found);
      }
    }
  }
}

TEST_CASE("navmesh search: starts and goals on every vertex and edge of a mesh give the optimum") {
  // Every lattice point of a small room with pillars (interior vertices where four polygons
  // meet, T-junctions, wall corners) to a few goals, and back.
  const Grid g = test::grid_from_rows({"..........",
                                       "..#....#..",
                                       "..........",
                                       "....##....",
                                       "..........",
                                       "..#....#.."});
  auto m = Navmesh::build(g);
  REQUIRE(m);
  NavmeshQuery q(*m);
  const test::VisibilityReference ref(g);
  int checked = 0;
  for (int y = 0; y <= g.height(); ++y) {
    for (int x = 0; x <= g.width(); ++x) {
      const Vec2 p(x, y);
      if (!q.resolve(p, "p")) continue;
      for (const Vec2 t : {Vec2(9.5, 5.5), Vec2(5, 3), Vec2(0, 0), Vec2(4.5, 4)}) {
        for (const auto& ends : {std::pair{p, t}, std::pair{t, p}}) {
          const Vec2 s = ends.first, e = ends.second;  // not a structured binding: CAPTURE's lambda (clang 14)
          CAPTURE(s.x);
          CAPTURE(s.y);
          CAPTURE(e.x);
          CAPTURE(e.y);
          auto r = q.find_corridor(s, e);
          REQUIRE(r);
          REQUIRE(r->found);
          const double best = ref.shortest(s, e);
          CHECK(r->length == doctest::Approx(best).epsilon(1e-9));
          CHECK(funnel_corridor(*r)->length == doctest::Approx(best).epsilon(1e-9));
          CHECK(r->expanded < 200);
          ++checked;
        }
      }
    }
  }
  CHECK(checked > 400);
}

TEST_CASE("navmesh search: a start a hair off a vertex, on an edge or on a T-junction is no special case") {
  const Grid g = test::grid_from_rows({"........",
                                       "...#....",
                                       "........",
                                       "......#."});
  auto m = Navmesh::build(g);
  REQUIRE(m);
  NavmeshQuery q(*m);
  const test::VisibilityReference ref(g);
  for (const double eps : {0.0, 1e-15, 1e-13, 1e-11, 1e-9}) {
    for (const Vec2 base : {Vec2(3, 3), Vec2(4, 2), Vec2(2.5, 2), Vec2(3, 1.5)}) {
      for (const Vec2 d : {Vec2(1, 0), Vec2(0, 1), Vec2(-1, -1), Vec2(1, -1)}) {
        const Vec2 s = base + d * eps;
        CAPTURE(s.x);
        CAPTURE(s.y);
        auto r = q.find_corridor(s, Vec2(7.5, 0.5));
        if (!r) {  // pushed into a wall by more than the referee's tolerance
          CHECK(eps > 0.0);
          CHECK(r.error().code == StatusCode::blocked);
          continue;
        }
        REQUIRE(r->found);
        // Within eps of the unmoved point's optimum (the reference itself refuses points a
        // hair inside a wall that the referee's tolerance lets through).
        CHECK(funnel_corridor(*r)->length == doctest::Approx(ref.shortest(base, Vec2(7.5, 0.5))).epsilon(1e-8));
        CHECK(r->expanded < 100);
      }
    }
  }
}

TEST_CASE("navmesh search: budgets stop it and say which limit") {
  auto g = load_movingai_map(test::movingai("arena2.map"));
  REQUIRE(g);
  auto m = Navmesh::build(*g);
  REQUIRE(m);
  NavmeshQuery q(*m);
  const Vec2 s(15.5, 108.5), t(245.5, 169.5);
  for (const NavSearchCost cost : {NavSearchCost::exact, NavSearchCost::portal_points}) {
    CAPTURE(static_cast<int>(cost));
    NavQueryOptions o = default_nav_query_options();
    o.cost = cost;
    auto full = q.find_corridor(s, t, o);
    REQUIRE(full);
    REQUIRE(full->found);
    REQUIRE(full->expanded > BudgetMeter::kCheckEvery);  // the clock is read every 256 expansions
    CHECK_FALSE(full->budget_exhausted);
    CHECK(full->reason.empty());

    SUBCASE("expansions, through the budget or the older field: the smaller applies") {
      for (const auto& [budget, legacy] : {std::pair<int64_t, int64_t>{50, 0}, {0, 50}, {50, 400}, {400, 50}}) {
        NavQueryOptions b = o;
        b.budget.max_expansions = budget;
        b.max_expansions = legacy;
        auto r = q.find_corridor(s, t, b);
        REQUIRE(r);
        CHECK_FALSE(r->found);
        CHECK(r->budget_exhausted);
        CHECK(r->budget_stop == BudgetStop::expansions);
        CHECK_FALSE(r->node_cap_reached);
        CHECK(r->expanded == 51);
        CHECK(r->reason == "budget_exhausted: expansions (gave up after 50 expansions)");
      }
      NavQueryOptions enough = o;
      enough.budget.max_expansions = full->expanded;
      CHECK(q.find_corridor(s, t, enough)->found);
    }
    SUBCASE("time") {
      NavQueryOptions b = o;
      b.budget.time_ms = 1e-9;
      auto r = q.find_corridor(s, t, b);
      REQUIRE(r);
      CHECK_FALSE(r->found);
      CHECK(r->budget_stop == BudgetStop::time);
      CHECK(r->expanded == BudgetMeter::kCheckEvery);
      CHECK(starts_with(r->reason, "budget_exhausted: time"));
    }
    SUBCASE("cancel flag") {
      std::atomic<bool> cancel{true};
      NavQueryOptions b = o;
      b.budget.cancel = &cancel;
      auto r = q.find_corridor(s, t, b);
      REQUIRE(r);
      CHECK_FALSE(r->found);
      CHECK(r->budget_stop == BudgetStop::cancelled);
      CHECK(r->reason == "budget_exhausted: cancelled");
      cancel = false;
      CHECK(q.find_corridor(s, t, b)->found);
    }
    SUBCASE("node cap") {
      NavQueryOptions b = o;
      b.max_nodes = 100;
      auto r = q.find_corridor(s, t, b);
      REQUIRE(r);
      CHECK_FALSE(r->found);
      CHECK(r->budget_exhausted);
      CHECK(r->node_cap_reached);
      CHECK(r->budget_stop == BudgetStop::none);
      CHECK(r->generated > 100);
      CHECK(r->generated < 200);  // stops within one expansion of the cap
      CHECK(starts_with(r->reason, "budget_exhausted: nodes"));
    }
    SUBCASE("bad limits are errors naming the field") {
      NavQueryOptions b = o;
      b.budget.max_expansions = -1;
      auto r = q.find_corridor(s, t, b);
      REQUIRE_FALSE(r);
      CHECK(r.error().code == StatusCode::invalid_argument);
      CHECK(r.error().message.find("budget.max_expansions") != std::string::npos);
      b = o;
      b.budget.time_ms = std::nan("");
      CHECK(q.find_corridor(s, t, b).error().message.find("budget.time_ms") != std::string::npos);
      b = o;
      b.max_nodes = -5;
      CHECK(q.find_corridor(s, t, b).error().message.find("max_nodes") != std::string::npos);
      b = o;
      b.max_expansions = -5;
      CHECK(q.find_corridor(s, t, b).error().message.find("max_expansions") != std::string::npos);
    }
  }
}

namespace {

/// A field of one-cell pillars (every third cell) split by a wall down the middle, open at
/// the bottom when `gap`: the exact search's hardest kind of map (every pillar corner a root).
Grid pillar_field(int n, bool gap) {
  Grid g = Grid::create(n, n).value();
  for (int y = 0; y < n - (gap ? 2 : 0); ++y) g.set_blocked(n / 2, y, true);
  for (int y = 0; y < n; y += 3)
    for (int x = 0; x < n; x += 3)
      if (x != n / 2) g.set_blocked(x, y, true);
  return g;
}

}  // namespace

TEST_CASE("navmesh search: an unreachable goal is answered from the components, without a search") {
  const Grid g = pillar_field(120, false);
  auto m = Navmesh::build(g);
  REQUIRE(m);
  NavmeshQuery q(*m);
  for (const NavSearchCost cost : {NavSearchCost::exact, NavSearchCost::portal_points}) {
    NavQueryOptions o = default_nav_query_options();
    o.cost = cost;
    auto r = q.find_corridor(Vec2(1.5, 1.5), Vec2(118.5, 118.5), o);
    REQUIRE(r);
    CHECK_FALSE(r->found);
    CHECK_FALSE(r->budget_exhausted);
    CHECK(r->reason == "the goal is not reachable from the start for agent radius 0.000000");
    CHECK(r->expanded == 0);
  }
}

TEST_CASE("navmesh search: the default node cap grows with the mesh and stops the pathological detour") {
  // Start and goal side by side across the wall: the path goes round its end at the bottom,
  // and the search roots at every pillar corner on the way. On 120x120 that is 230k nodes,
  // 37 per portal edge: inside the default cap; on 240x240 107 per portal edge: stopped.
  const Grid g = pillar_field(120, true);
  auto m = Navmesh::build(g);
  REQUIRE(m);
  NavmeshQuery q(*m);
  const int64_t cap = kNavNodesPerPortalEdge * 2 * static_cast<int64_t>(m->portals().size()) + kNavMinNodeCap;
  auto full = q.find_corridor(Vec2(58.5, 1.5), Vec2(61.5, 1.5));
  REQUIRE(full);
  REQUIRE(full->found);
  CHECK(full->generated <= cap);
  // Down the free columns 58-59 to the wall's end (60, 118), one cell across, back up.
  const double best = std::hypot(1.5, 116.5) + 1.0 + std::hypot(0.5, 116.5);
  CHECK(full->length == doctest::Approx(best).epsilon(1e-12));
  NavQueryOptions less = default_nav_query_options();
  less.max_nodes = cap / 4;
  auto r = q.find_corridor(Vec2(58.5, 1.5), Vec2(61.5, 1.5), less);
  REQUIRE(r);
  CHECK_FALSE(r->found);
  CHECK(r->node_cap_reached);
  CHECK(r->generated > cap / 4);
  CHECK(r->generated < cap / 4 + 1000);  // stops within one expansion of the cap
  if (test::sanitized()) return;  // about a second optimised
  const Grid big = pillar_field(240, true);
  auto mb = Navmesh::build(big);
  REQUIRE(mb);
  NavmeshQuery qb(*mb);
  const int64_t cap_big = kNavNodesPerPortalEdge * 2 * static_cast<int64_t>(mb->portals().size()) + kNavMinNodeCap;
  auto rb = qb.find_corridor(Vec2(118.5, 1.5), Vec2(121.5, 1.5));
  REQUIRE(rb);
  CHECK_FALSE(rb->found);
  CHECK(rb->budget_exhausted);
  CHECK(rb->node_cap_reached);
  CHECK(rb->generated > cap_big);
  CHECK(rb->generated < cap_big + 1000);
}
