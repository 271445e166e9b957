// Navmesh construction, corridor search and snapping.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <map>
#include <set>
#include <vector>
#include <string>

#include "pathlab/collision.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "navmesh_test_support.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "visibility_reference.hpp"
#include "test_support.hpp"

using namespace pathlab;
using test::sanitized;

namespace {

double ring_area(std::span<const Vec2> r) {
  double a = 0;
  for (size_t i = 0; i < r.size(); ++i) a += cross(r[i] - r[0], r[(i + 1) % r.size()] - r[0]);
  return 0.5 * a;
}

/// Structural invariants every mesh must satisfy.
void check_mesh(const Navmesh& m) {
  const auto& polys = m.polygons();
  for (size_t id = 0; id < polys.size(); ++id) {
    const auto r = m.ring(static_cast<int>(id));
    REQUIRE(r.size() >= 3);
    CHECK(ring_area(r) > 0.0);
    for (size_t i = 0; i < r.size(); ++i) {  // convex, interior on the left
      const Vec2 a = r[i], b = r[(i + 1) % r.size()], c = r[(i + 2) % r.size()];
      CHECK(cross(b - a, c - b) >= -1e-12);
      CHECK(glm::length(b - a) > 0.0);
    }
  }
  // Portals: both sides list them, the endpoints are ring vertices of both polygons, and the
  // portal is a shared edge with the two polygons on opposite sides.
  for (size_t pid = 0; pid < m.portals().size(); ++pid) {
    const NavPortal& p = m.portals()[pid];
    CHECK(glm::length(p.b - p.a) > 0.0);
    for (const int side : {p.poly_a, p.poly_b}) {
      const NavPolygon& P = polys[side];
      bool listed = false;
      for (int k = P.first_portal; k < P.first_portal + P.portal_count; ++k) listed |= m.polygon_portals()[k] == static_cast<int>(pid);
      CHECK(listed);
    }
    CHECK(cross(p.b - p.a, polys[p.poly_a].centre - p.a) > 0.0);
    CHECK(cross(p.b - p.a, polys[p.poly_b].centre - p.a) < 0.0);
    // The portal is ring edge edge_a of poly_a (a -> b) and edge_b of poly_b (b -> a).
    const auto& rv = m.ring_vertices();
    auto next = [&](int poly, int e) { return e + 1 < polys[poly].first + polys[poly].count ? e + 1 : polys[poly].first; };
    REQUIRE(p.edge_a >= polys[p.poly_a].first);
    REQUIRE(p.edge_a < polys[p.poly_a].first + polys[p.poly_a].count);
    REQUIRE(p.edge_b >= polys[p.poly_b].first);
    REQUIRE(p.edge_b < polys[p.poly_b].first + polys[p.poly_b].count);
    CHECK(rv[p.edge_a] == p.a);
    CHECK(rv[next(p.poly_a, p.edge_a)] == p.b);
    CHECK(rv[p.edge_b] == p.b);
    CHECK(rv[next(p.poly_b, p.edge_b)] == p.a);
    CHECK(m.ring_portals()[p.edge_a] == static_cast<int>(pid));
    CHECK(m.ring_portals()[p.edge_b] == static_cast<int>(pid));
  }
  // Vertex ids: equal exactly for equal points; a vertex on a wall edge is flagged.
  std::map<std::pair<double, double>, int> ids;
  for (size_t i = 0; i < m.ring_vertices().size(); ++i) {
    const Vec2 v = m.ring_vertices()[i];
    const int id = m.ring_vertex_ids()[i];
    REQUIRE(id >= 0);
    REQUIRE(id < m.vertex_id_count());
    auto [it, inserted] = ids.emplace(std::make_pair(v.x, v.y), id);
    if (!inserted) CHECK(it->second == id);
    if (m.ring_neighbors()[i] < 0) CHECK(m.vertex_on_wall()[static_cast<size_t>(id)] == 1);
  }
  std::set<int> distinct;
  for (const auto& [pt, id] : ids) distinct.insert(id);
  CHECK(distinct.size() == ids.size());
}

}  // namespace

TEST_CASE("navmesh: an empty map is one rectangle, bad radii are errors") {
  const Grid g = Grid::create(10, 6).value();
  auto m = Navmesh::build(g);
  REQUIRE(m);
  CHECK(m->polygons().size() == 1);
  CHECK(m->portals().empty());
  CHECK(ring_area(m->ring(0)) == doctest::Approx(60.0));
  NavmeshDef def = default_navmesh_def();
  def.agent_radius = -1;
  CHECK(Navmesh::build(g, def).error().code == StatusCode::invalid_argument);
  def.agent_radius = std::nan("");
  CHECK_FALSE(Navmesh::build(g, def).ok());
  def.agent_radius = kMaxAgentRadius + 1;
  CHECK_FALSE(Navmesh::build(g, def).ok());
  def.agent_radius = 3.5;  // no room anywhere: an empty mesh, not an error
  auto empty = Navmesh::build(g, def);
  REQUIRE(empty);
  CHECK(empty->polygons().empty());
  CHECK(empty->locate(Vec2(5, 3)) == -1);
}

TEST_CASE("navmesh: at radius 0 the polygons tile the free cells exactly") {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const Grid g = test::random_grid(37, 29, 0.3, seed);
    auto m = Navmesh::build(g);
    REQUIRE(m);
    check_mesh(*m);
    double area = 0;
    for (size_t i = 0; i < m->polygons().size(); ++i) area += ring_area(m->ring(static_cast<int>(i)));
    CHECK(area == doctest::Approx(static_cast<double>(g.cell_count() - g.blocked_count())));
    for (int y = 0; y < g.height(); ++y)
      for (int x = 0; x < g.width(); ++x) CHECK((m->locate(Vec2(x + 0.5, y + 0.5)) >= 0) == g.is_free(x, y));
  }
}

TEST_CASE("navmesh: an edge touching several neighbours has one portal per neighbour (T-junctions)") {
  // The wide room at the top touches three separate rooms below along one edge.
  const Grid g = test::grid_from_rows({"..........",
                            "..........",
                            ".#.#.#.#.#",
                            ".#.#.#.#.#"});
  auto m = Navmesh::build(g);
  REQUIRE(m);
  check_mesh(*m);
  const int top = m->locate(Vec2(5, 0.5));
  REQUIRE(top >= 0);
  CHECK(m->polygons()[top].portal_count == 5);
  std::set<int> below;
  for (int k = 0; k < m->polygons()[top].portal_count; ++k) {
    const NavPortal& p = m->portals()[m->polygon_portals()[m->polygons()[top].first_portal + k]];
    CHECK(std::abs(p.a.y - 2.0) < 1e-12);
    CHECK(glm::length(p.b - p.a) == doctest::Approx(1.0));
    below.insert(p.poly_a == top ? p.poly_b : p.poly_a);
  }
  CHECK(below.size() == 5);
}

TEST_CASE("navmesh: the agent radius shrinks the mesh; a one-cell gap closes only when the agent cannot fit") {
  const Grid g = test::grid_from_rows({".....#.....",
                            ".....#.....",
                            "...........",
                            ".....#.....",
                            ".....#....."});
  const Vec2 s(1.0, 2.5), t(10.0, 2.5);
  for (const double a : {0.0, 0.2, 0.49, 0.5, 0.51, 0.8}) {
    CAPTURE(a);
    NavmeshDef def = default_navmesh_def();
    def.agent_radius = a;
    auto m = Navmesh::build(g, def);
    REQUIRE(m);
    check_mesh(*m);
    NavmeshQuery q(*m);
    auto r = q.find_corridor(s, t);
    REQUIRE(r);
    CHECK(r->found == (a <= 0.5));
    // Anywhere on the mesh a disc of radius a is clear of the walls.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (size_t id = 0; id < m->polygons().size(); ++id) {
      const NavPolygon& P = m->polygons()[id];
      for (const Vec2 v : m->ring(static_cast<int>(id))) CHECK(point_clear(g, v, a));
      const auto ring = m->ring(static_cast<int>(id));
      for (int k = 0; k < 8; ++k) {  // a random point of a random triangle of the fan around the centre
        const size_t i = static_cast<size_t>(rng() % ring.size());
        double x = u(rng), y = u(rng);
        if (x + y > 1.0) x = 1.0 - x, y = 1.0 - y;
        const Vec2 p = P.centre + (ring[i] - P.centre) * x + (ring[(i + 1) % ring.size()] - P.centre) * y;
        CHECK(m->contains(static_cast<int>(id), p));
        CHECK(point_clear(g, p, a));
      }
    }
  }
}

TEST_CASE("navmesh: random maps, every radius, both kinds: the mesh keeps the agent clear of walls") {
  const int maps = sanitized() ? 2 : 8;
  for (int k = 0; k < maps; ++k) {
    const Grid g = test::random_grid(40, 30, 0.2, 100u + static_cast<uint32_t>(k));
    for (const double a : {0.0, 0.25, 0.5, 0.75, 1.3})
    for (const bool merge : {true, false}) {
      CAPTURE(a);
      CAPTURE(merge);
      NavmeshDef def = default_navmesh_def();
      def.agent_radius = a;
      def.merge_convex = merge;
      auto m = Navmesh::build(g, def);
      REQUIRE(m);
      check_mesh(*m);
      for (size_t id = 0; id < m->polygons().size(); ++id) {
        const auto r = m->ring(static_cast<int>(id));
        // Ends pulled in a hair: at radius 0 a polygon's corner may be a point where two walls
        // touch diagonally (closed cells), which no path may pass through but which no
        // corridor path reaches either (it is a convex corner of its polygon).
        for (size_t i = 0; i < r.size(); ++i) {
          const Vec2 p0 = r[i], p1 = r[(i + 1) % r.size()];
          CHECK(segment_clear(g, p0 + (p1 - p0) * 1e-7, p1 + (p0 - p1) * 1e-7, a));
        }
        CHECK(point_clear(g, m->polygons()[id].centre, a));
      }
    }
  }
}

TEST_CASE("navmesh: convex merging turns a staircase of slabs into one polygon along the stairs") {
  // A room whose lower-left is cut by a 45-degree staircase wall: rectangles give one slab per
  // step; the merged mesh has the big polygon on the stair line plus the step triangles.
  std::vector<std::string> rows;
  const int n = 16;
  for (int y = 0; y < n; ++y) {
    std::string row(static_cast<size_t>(n), '.');
    for (int x = 0; x < y - 2; ++x) row[static_cast<size_t>(x)] = '#';
    rows.push_back(row);
  }
  auto g = Grid::create(n, n);
  REQUIRE(g);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (rows[static_cast<size_t>(y)][static_cast<size_t>(x)] == '#') g->set_blocked(x, y, true);
  NavmeshDef rect_def = default_navmesh_def();
  rect_def.merge_convex = false;
  auto rects = Navmesh::build(*g, rect_def);
  auto merged = Navmesh::build(*g);
  REQUIRE(rects);
  REQUIRE(merged);
  check_mesh(*merged);
  // Along the stairs, from the top-left to the bottom-right.
  const Vec2 s(1.5, 1.5), t(14.5, 14.5);
  NavmeshQuery qr(*rects), qm(*merged);
  auto a = qr.find_corridor(s, t);
  auto b = qm.find_corridor(s, t);
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(a->found);
  REQUIRE(b->found);
  MESSAGE("staircase: rectangles " << rects->polygons().size() << " polygons, corridor " << a->corridor.polygons.size()
          << "; merged " << merged->polygons().size() << " polygons, corridor " << b->corridor.polygons.size());
  CHECK(b->length == doctest::Approx(a->length).epsilon(1e-12));  // both exact
  CHECK(b->corridor.polygons.size() * 3 <= a->corridor.polygons.size());
  // Every free cell centre is on exactly the polygon locate() says, and locate agrees with contains().
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int id = merged->locate(Vec2(x + 0.5, y + 0.5));
      CHECK((id >= 0) == g->is_free(x, y));
      if (id >= 0) CHECK(merged->contains(id, Vec2(x + 0.5, y + 0.5)));
    }
  CHECK_FALSE(merged->contains(-1, s));
  CHECK_FALSE(merged->contains(static_cast<int>(merged->polygons().size()), s));
  CHECK_FALSE(merged->contains(0, Vec2(std::nan(""), 1.0)));
}

TEST_CASE("navmesh search: ends inside walls or outside are errors; ends in the removed band snap") {
  const Grid g = test::grid_from_rows({"........",
                            "..##....",
                            "..##....",
                            "........"});
  NavmeshDef def = default_navmesh_def();
  def.agent_radius = 0.4;
  auto m = Navmesh::build(g, def);
  REQUIRE(m);
  NavmeshQuery q(*m);
  CHECK(q.find_corridor(Vec2(2.5, 1.5), Vec2(7, 3)).error().code == StatusCode::blocked);
  CHECK(q.find_corridor(Vec2(0.5, 0.5), Vec2(8.5, 3)).error().code == StatusCode::out_of_bounds);
  CHECK(q.find_corridor(Vec2(0.5, 0.5), Vec2(-1, 3)).error().code == StatusCode::out_of_bounds);
  CHECK(q.find_corridor(Vec2(std::nan(""), 0.5), Vec2(7, 3)).error().code == StatusCode::invalid_argument);
  // (1.9, 1.5) is free but 0.1 from the wall: snapped to x = 2 - 0.4.
  auto r = q.find_corridor(Vec2(1.9, 1.5), Vec2(7.8, 3.5));
  REQUIRE(r);
  CHECK(r->found);
  CHECK(r->start_snapped);
  CHECK(r->goal_snapped);  // 0.2 from the map's right edge
  CHECK(r->goal.x == doctest::Approx(7.6).epsilon(1e-6));
  CHECK(r->start.x == doctest::Approx(1.6).epsilon(1e-6));
  CHECK(r->start.y == doctest::Approx(1.5));
  CHECK(point_clear(g, r->start, 0.4 - 1e-9));
  auto plain = q.find_corridor(Vec2(1.0, 1.5), Vec2(7.0, 3.0));
  REQUIRE(plain);
  CHECK_FALSE(plain->start_snapped);
  CHECK_FALSE(plain->goal_snapped);
}

TEST_CASE("navmesh search: trace, corridor consistency, unreachable goals") {
  const Grid g = test::grid_from_rows({"....#....",
                            "....#....",
                            "....#....",
                            "........."});
  auto m = Navmesh::build(g);
  REQUIRE(m);
  NavmeshQuery q(*m);
  NavQueryOptions o = default_nav_query_options();
  o.record_trace = true;
  auto r = q.find_corridor(Vec2(0.5, 0.5), Vec2(8.5, 0.5), o);
  REQUIRE(r);
  REQUIRE(r->found);
  const auto& c = r->corridor;
  CHECK(c.polygons.front() == m->locate(Vec2(0.5, 0.5)));
  CHECK(c.polygons.back() == m->locate(Vec2(8.5, 0.5)));
  REQUIRE(c.portals.size() + 1 == c.polygons.size());
  for (size_t i = 0; i < c.portal_ids.size(); ++i) {
    const NavPortal& p = m->portals()[c.portal_ids[i]];
    CHECK(std::set<int>{p.poly_a, p.poly_b} == std::set<int>{c.polygons[i], c.polygons[i + 1]});
  }
  CHECK_FALSE(r->trace.empty());
  int closes = 0;
  for (const auto& e : r->trace) closes += e.kind == NavTraceEvent::close;
  CHECK(closes >= static_cast<int>(r->expanded));

  const Grid split = test::grid_from_rows({"..#..", "..#..", "..#.."});
  auto ms = Navmesh::build(split);
  REQUIRE(ms);
  NavmeshQuery qs(*ms);
  auto none = qs.find_corridor(Vec2(0.5, 0.5), Vec2(4.5, 2.5));
  REQUIRE(none);
  CHECK_FALSE(none->found);
  CHECK_FALSE(none->reason.empty());
}

TEST_CASE("navmesh search: side rooms that hang off the route by one portal are never searched") {
  // A corridor (row 0) with L-shaped side rooms below, two polygons deep each. From inside
  // the first room to the bottom of the last one, no other room may be opened or expanded.
  const Grid g = test::grid_from_rows({"...............",
                                       "#.###.###.###.#",
                                       "#...#...#...#.#",
                                       "###############"});
  auto m = Navmesh::build(g);
  REQUIRE(m);
  std::set<int> rooms;  // the polygons of the three middle rooms
  for (const Vec2 p : {Vec2(5.5, 1.5), Vec2(6.5, 2.5), Vec2(9.5, 1.5), Vec2(10.5, 2.5), Vec2(11.5, 2.5)}) {
    REQUIRE(m->locate(p) >= 0);
    rooms.insert(m->locate(p));
  }
  CHECK(rooms.size() >= 4);
  NavmeshQuery q(*m);
  const test::VisibilityReference ref(g);
  for (const NavSearchCost cost : {NavSearchCost::exact, NavSearchCost::portal_points}) {
    CAPTURE(static_cast<int>(cost));
    NavQueryOptions o = default_nav_query_options();
    o.cost = cost;
    o.record_trace = true;
    for (const auto& [s, t] : {std::pair{Vec2(3.5, 2.5), Vec2(13.5, 2.5)}, std::pair{Vec2(13.5, 2.5), Vec2(2.5, 2.5)}}) {
      auto r = q.find_corridor(s, t, o);
      REQUIRE(r);
      REQUIRE(r->found);
      for (const auto& e : r->trace) CHECK(rooms.count(e.polygon) == 0);
      const double best = ref.shortest(s, t);
      CHECK(funnel_corridor(*r)->length == doctest::Approx(best).epsilon(1e-9));
    }
    // The goal inside a room: the search goes down into it.
    auto r = q.find_corridor(Vec2(0.5, 0.5), Vec2(11.5, 2.5), o);
    REQUIRE(r);
    REQUIRE(r->found);
    CHECK(r->corridor.polygons.back() == m->locate(Vec2(11.5, 2.5)));
    CHECK(funnel_corridor(*r)->length == doctest::Approx(ref.shortest(Vec2(0.5, 0.5), Vec2(11.5, 2.5))).epsilon(1e-9));
  }
}

TEST_CASE("navmesh: Moving AI maps build and every polygon is clear at the radius") {
  for (const char* name : {"arena.map", "den520d.map"}) {
    auto g = load_movingai_map(test::movingai(name));
    REQUIRE(g);
    for (const double a : {0.0, 0.4}) {
      NavmeshDef def = default_navmesh_def();
      def.agent_radius = a;
      auto m = Navmesh::build(*g, def);
      REQUIRE(m);
      check_mesh(*m);
      MESSAGE(std::string(name) << " radius " << a << ": " << m->polygons().size() << " polygons, " << m->portals().size() << " portals");
    }
  }
}

TEST_CASE("navmesh search: recording the trace does not change the search") {
  const Grid g = test::random_grid(40, 40, 0.2, 77);
  auto m = Navmesh::build(g);
  REQUIRE(m);
  NavmeshQuery q(*m);
  std::mt19937 rng(5);
  NavQueryOptions traced = default_nav_query_options();
  traced.record_trace = true;
  for (int i = 0; i < (sanitized() ? 10 : 60); ++i) {
    const Vec2 s = test::random_free_point(g, rng), t = test::random_free_point(g, rng);
    auto plain = q.find_corridor(s, t);
    auto with_trace = q.find_corridor(s, t, traced);
    REQUIRE(plain);
    REQUIRE(with_trace);
    CHECK(plain->found == with_trace->found);
    CHECK(plain->corridor.polygons == with_trace->corridor.polygons);
    CHECK(plain->expanded == with_trace->expanded);
    CHECK(plain->length == with_trace->length);  // the same f for the open list either way
  }
}
