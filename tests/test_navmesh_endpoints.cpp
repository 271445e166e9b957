// Query end points for every planner of the core (issue 19): start == goal, pinch points (the
// wall rule, NavmeshDef::pinch_points_are_wall; the default convention: test_navmesh_pinch), and a
// property test with ends on lattice points, edge midpoints and mesh vertices.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "navmesh_test_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "pathlab/swept_check.hpp"
#include "test_support.hpp"
#include "visibility_reference.hpp"

using namespace pathlab;

namespace {

constexpr GridPlanner kGridPlanners[] = {GridPlanner::astar, GridPlanner::dijkstra, GridPlanner::jps, GridPlanner::theta};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("start == goal: grid planners give the one cell, length 0") {
  const Grid g = test::random_grid(20, 20, 0.2, 3);
  GridPathfinder f(g);
  const Cell c{7, 9};
  REQUIRE(g.is_free(c.x, c.y));
  for (const GridPlanner p : kGridPlanners) {
    CAPTURE(static_cast<int>(p));
    auto r = f.find_path(p, c, c);
    REQUIRE(r);
    CHECK(r->found);
    REQUIRE(r->points.size() == 1);
    CHECK(r->points[0] == Vec2(7.5, 9.5));
    CHECK(r->cells.size() == 1);
    CHECK(r->length == 0.0);
    CHECK(r->expanded == 0);
  }
  GridSearchOptions four = default_grid_search_options();
  four.connectivity = Connectivity::four;
  four.turn_penalty = 0.5;
  auto r = f.find_path(GridPlanner::astar, c, c, four);
  REQUIRE(r);
  CHECK(r->found);
  CHECK(r->points.size() == 1);
  CHECK(r->length == 0.0);
}

TEST_CASE("start == goal: the navmesh planner and its smoothers give the one point, length 0") {
  const Grid g = test::grid_from_rows({"........", "..#.....", "........", ".....#.."});
  for (const double radius : {0.0, 0.4}) {
    NavmeshDef def = default_navmesh_def();
    def.agent_radius = radius;
    auto m = Navmesh::build(g, def);
    REQUIRE(m);
    NavmeshQuery q(*m);
    // Inside a polygon, on a vertex where polygons meet, on a wall corner, in the band the
    // radius removes (snapped: both ends snap to the same point).
    for (const Vec2 p : {Vec2(4.5, 1.5), Vec2(2, 1), Vec2(3, 2), Vec2(0.1, 0.1)}) {
      for (const NavSearchCost cost : {NavSearchCost::exact, NavSearchCost::portal_points}) {
        CAPTURE(radius);
        CAPTURE(p.x);
        CAPTURE(p.y);
        NavQueryOptions o = default_nav_query_options();
        o.cost = cost;
        auto r = q.find_corridor(p, p, o);
        REQUIRE(r);
        REQUIRE(r->found);
        CHECK(r->length == 0.0);
        CHECK(r->expanded == 0);
        CHECK(r->corridor.polygons.size() == 1);
        CHECK(r->corridor.portals.empty());
        CHECK(r->start == r->goal);
        auto f = funnel_corridor(*r);
        REQUIRE(f);
        CHECK(f->points == std::vector<Vec2>{r->start});
        CHECK(f->length == 0.0);
        CHECK(edge_shift_corridor(*m, *r).value() == std::vector<Vec2>{r->start});
        CHECK(los_corridor(*m, *r).value() == std::vector<Vec2>{r->start});
        CHECK(corridor_midpoints(*r) == std::vector<Vec2>{r->start});
      }
    }
  }
}

TEST_CASE("start == goal: Directional A* and Hybrid A* give the one pose, length 0") {
  Grid g = Grid::create(20, 20).value();
  g.set_blocked(11, 10, true);
  const Pose p{Vec2(10.5, 11.5), deg_to_rad(45.0)};
  REQUIRE(point_clear(g, p.pos, 0.5));
  DirectionalAStarOptions dopt = default_directional_astar_options();
  dopt.turning_radius = 2.0;
  auto d = DirectionalAStar::create(g, dopt);
  REQUIRE(d);
  auto dr = d->plan(p, p);
  REQUIRE(dr);
  CHECK(dr->found);
  CHECK(dr->length == 0.0);
  CHECK(dr->path.segments().empty());
  CHECK(dr->path.start().pos == p.pos);
  CHECK(dr->path.sample(0.25).value().size() == 1);

  HybridAStarOptions hopt = default_hybrid_astar_options();
  hopt.turning_radius = 2.0;
  for (const bool reverse : {false, true}) {
    hopt.allow_reverse = reverse;
    auto h = HybridAStar::create(g, hopt);
    REQUIRE(h);
    const Pose q{Vec2(10.3, 11.7), 0.3};
    auto hr = h->plan(q, q);
    REQUIRE(hr);
    CHECK(hr->found);
    CHECK(hr->length == 0.0);
    CHECK(hr->path.segments().empty());
    CHECK(hr->path.start().pos == q.pos);
    CHECK(hr->path.end().heading == q.heading);
    CHECK(hr->path.sample(0.25).value().size() == 1);
  }
}

TEST_CASE("pinch points with pinch_points_are_wall: where two blocked cells touch only at their corners is wall, and the error says so") {
  // (2,2) is a pinch point of the two '#' on the diagonal; (5,1) touches one blocked cell.
  const Grid g = test::grid_from_rows({"........",
                                       ".#...#..",
                                       "..#.....",
                                       "........"});
  // The referee's reason: no segment may leave the pinch point into either free cell.
  CHECK_FALSE(point_clear(g, Vec2(2, 2)));
  CHECK_FALSE(segment_clear(g, Vec2(2, 2), Vec2(2.5, 1.5)));
  CHECK_FALSE(segment_clear(g, Vec2(2, 2), Vec2(1.5, 2.5)));
  NavmeshDef wall_rule = default_navmesh_def();
  wall_rule.pinch_points_are_wall = true;
  auto m = Navmesh::build(g, wall_rule);
  REQUIRE(m);
  NavmeshQuery q(*m);
  for (const auto& [s, t, who] : {std::tuple{Vec2(2, 2), Vec2(7.5, 3.5), "start"}, std::tuple{Vec2(7.5, 3.5), Vec2(2, 2), "goal"}}) {
    auto r = q.find_corridor(s, t);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == StatusCode::blocked);
    CHECK(contains(r.error().message, std::string(who) + " (2.000000,2.000000) is a pinch point"));
  }
  // Inside a blocked cell: the plain message.
  auto inside = q.find_corridor(Vec2(1.5, 1.5), Vec2(7.5, 3.5));
  REQUIRE_FALSE(inside);
  CHECK(contains(inside.error().message, "is inside a wall"));
  CHECK_FALSE(contains(inside.error().message, "pinch"));
  // A corner of a single blocked cell, and the far corner of the pinch pair, are ordinary.
  const test::VisibilityReference ref(g);
  for (const Vec2 s : {Vec2(5, 1), Vec2(6, 2), Vec2(1, 1), Vec2(3, 3)}) {
    auto r = q.find_corridor(s, Vec2(0.5, 3.5));
    REQUIRE(r);
    REQUIRE(r->found);
    auto f = funnel_corridor(*r);
    CHECK(polyline_clear(g, f->points));
    CHECK(f->length == doctest::Approx(ref.shortest(s, Vec2(0.5, 3.5))).epsilon(1e-9));
  }
}

namespace {

/// Query points on a map: random lattice points, random edge midpoints and mesh vertices.
std::vector<Vec2> end_points(const Grid& g, const Navmesh& m, std::mt19937& rng, int n) {
  std::vector<Vec2> out;
  std::uniform_int_distribution<int> x(0, g.width()), y(0, g.height()), kind(0, 2);
  std::uniform_int_distribution<size_t> v(0, m.ring_vertices().size() - 1);
  for (int i = 0; i < n; ++i) {
    switch (kind(rng)) {
      case 0: out.emplace_back(x(rng), y(rng)); break;
      case 1: out.push_back(kind(rng) == 0 ? Vec2(x(rng) + 0.5, y(rng)) : Vec2(x(rng), y(rng) + 0.5)); break;
      default: out.push_back(m.ring_vertices()[v(rng)]); break;
    }
  }
  return out;
}

/// The error of a refused end is one of the documented ones, and names the end.
void check_refusal(const Error& e) {
  CHECK((e.code == StatusCode::blocked || e.code == StatusCode::out_of_bounds));
  CHECK((contains(e.message, "start") || contains(e.message, "goal")));
}

/// Navmesh: exact cost, the funnel path is legal and as long as the visibility-graph optimum.
void check_navmesh(NavmeshQuery& q, const Grid& g, const test::VisibilityReference& ref, Vec2 s, Vec2 t,
                   int64_t cap) {
  for (const NavSearchCost cost : {NavSearchCost::exact, NavSearchCost::portal_points}) {
    NavQueryOptions o = default_nav_query_options();
    o.cost = cost;
    auto r = q.find_corridor(s, t, o);
    if (!r) {
      check_refusal(r.error());
      CHECK(!(point_clear(g, s) && point_clear(g, t)));  // refused only for a reason
      return;
    }
    CHECK_FALSE(r->budget_exhausted);
    CHECK(r->generated <= cap);
    const double best = ref.shortest(s, t);
    if (!r->found) {
      CHECK_FALSE(std::isfinite(best));
      CHECK(contains(r->reason, "not reachable"));
      continue;
    }
    auto f = funnel_corridor(*r);
    REQUIRE(f);
    CHECK(polyline_clear(g, f->points));
    CHECK(f->points.front() == s);
    CHECK(f->points.back() == t);
    // Tolerance: 1e-9 relative (the reference sums the same legs in another order).
    if (cost == NavSearchCost::exact) {
      CHECK(f->length == doctest::Approx(best).epsilon(1e-9));
      CHECK(r->length == doctest::Approx(best).epsilon(1e-9));
    } else {
      CHECK(f->length >= best * (1.0 - 1e-9));
    }
  }
}

/// Grid planners from the cells holding the points.
void check_grid(GridPathfinder& f, const Grid& g, Vec2 s, Vec2 t) {
  const Cell a{static_cast<int>(std::floor(s.x)), static_cast<int>(std::floor(s.y))};
  const Cell b{static_cast<int>(std::floor(t.x)), static_cast<int>(std::floor(t.y))};
  const int64_t bound = 64 * static_cast<int64_t>(g.cell_count());
  for (const GridPlanner p : kGridPlanners) {
    GridSearchOptions o = default_grid_search_options();
    o.max_expansions = bound;
    auto r = f.find_path(p, a, b, o);
    if (!r) {
      CHECK((r.error().code == StatusCode::blocked || r.error().code == StatusCode::out_of_bounds));
      CHECK_FALSE(r.error().message.empty());
      continue;
    }
    CHECK(r->expanded <= bound);
    CHECK((r->details & kDetailBudgetExhausted) == 0);
    if (r->found) {
      CHECK(polyline_clear(g, r->points));
    } else {
      CHECK_FALSE(r->reason.empty());
    }
  }
}

/// A heading planner's answer: a legal swept path between the poses it reports, or a failure.
void check_heading(const Result<HeadingPath>& r, const Grid& g, int64_t bound) {
  if (!r) {
    CHECK((r.error().code == StatusCode::out_of_bounds || r.error().code == StatusCode::invalid_argument));
    return;
  }
  CHECK(r->expanded <= bound);
  if (!r->found) {
    CHECK(r->failure != HeadingFailure::none);
    CHECK_FALSE(r->reason.empty());
    return;
  }
  auto clear = check_swept_path(g, r->path);
  REQUIRE(clear);
  CHECK(clear->clear);
}

}  // namespace

TEST_CASE("property: ends on lattice points, edge midpoints and vertices; every planner ends legal or refuses") {
  const int maps = test::sanitized() ? 3 : 10;
  int navmesh_found = 0, heading_checked = 0;
  for (int seed = 1; seed <= maps; ++seed) {
    CAPTURE(seed);
    const Grid g = test::random_grid(24, 20, 0.22, static_cast<uint32_t>(100 + seed));
    // The referee's rule for pinch points, which the visibility reference follows (the
    // competition's convention is tested in test_navmesh_pinch).
    NavmeshDef wall_rule = default_navmesh_def();
    wall_rule.pinch_points_are_wall = true;
    auto m = Navmesh::build(g, wall_rule);
    REQUIRE(m);
    NavmeshQuery q(*m);
    GridPathfinder f(g);
    const test::VisibilityReference ref(g);
    const int64_t cap = kNavNodesPerPortalEdge * 2 * static_cast<int64_t>(m->portals().size()) + kNavMinNodeCap;
    std::mt19937 rng(static_cast<uint32_t>(seed));
    const std::vector<Vec2> pts = end_points(g, *m, rng, 2 * 40);
    for (size_t i = 0; i + 1 < pts.size(); i += 2) {
      const Vec2 s = pts[i], t = pts[i + 1];
      CAPTURE(s.x);
      CAPTURE(s.y);
      CAPTURE(t.x);
      CAPTURE(t.y);
      check_navmesh(q, g, ref, s, t, cap);
      if (auto r = q.find_corridor(s, t); r && r->found) ++navmesh_found;
      if (s.x < g.width() && s.y < g.height() && t.x < g.width() && t.y < g.height()) check_grid(f, g, s, t);
    }
    // Heading planners: fewer queries (each costs up to their budgets), poses on the points.
    DirectionalAStarOptions dopt = default_directional_astar_options();
    dopt.turning_radius = 1.0;
    dopt.max_expansions = 20000;
    auto d = DirectionalAStar::create(g, dopt);
    REQUIRE(d);
    HybridAStarOptions hopt = default_hybrid_astar_options();
    hopt.turning_radius = 1.0;
    hopt.max_expansions = 4000;
    auto h = HybridAStar::create(g, hopt);
    REQUIRE(h);
    for (size_t i = 0; i + 1 < std::min<size_t>(pts.size(), 8); i += 2) {
      const Pose a{pts[i], 0.0}, b{pts[i + 1], kPi / 2};
      check_heading(d->plan(a, b), g, dopt.max_expansions);
      check_heading(h->plan(a, b), g, hopt.max_expansions);
      heading_checked += 2;
    }
  }
  CHECK(navmesh_found > 20 * maps);  // the maps are connected enough for the test to mean something
  CHECK(heading_checked == 8 * maps);
}
