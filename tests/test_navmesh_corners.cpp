// The wall-corner mesh (NavmeshDef::corners_only): legal everywhere, consistent adjacency,
// only wall corners as vertices, and the exact search's lengths unchanged.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "navmesh_test_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "test_support.hpp"
#include "visibility_reference.hpp"

using namespace pathlab;
using test::sanitized;

namespace {

NavmeshDef corners_def(double radius) {
  NavmeshDef def = default_navmesh_def();
  def.agent_radius = radius;
  def.corners_only = true;
  return def;
}

double mesh_area(const Navmesh& m) {
  double total = 0.0;
  for (size_t id = 0; id < m.polygons().size(); ++id) {
    const auto r = m.ring(static_cast<int>(id));
    for (size_t i = 0; i < r.size(); ++i) total += 0.5 * cross(r[i] - r[0], r[(i + 1) % r.size()] - r[0]);
  }
  return total;
}

/// Convex rings, portals listed by both sides as the same edge run both ways, every vertex a
/// wall corner (no T-junction, no point along a straight wall), and every ring edge clear of
/// the walls at the radius.
void check_corner_mesh(const Grid& g, const Navmesh& m, double radius) {
  const auto& polys = m.polygons();
  const auto& rv = m.ring_vertices();
  for (size_t id = 0; id < polys.size(); ++id) {
    const auto r = m.ring(static_cast<int>(id));
    REQUIRE(r.size() >= 3);
    for (size_t i = 0; i < r.size(); ++i) {
      const Vec2 a = r[i], b = r[(i + 1) % r.size()], c = r[(i + 2) % r.size()];
      CHECK(cross(b - a, c - b) >= -1e-12);  // convex, interior on the left
      CHECK(glm::length(b - a) > 0.0);
      CHECK(segment_clear(g, a + (b - a) * 1e-7, b + (a - b) * 1e-7, radius));
    }
    CHECK(point_clear(g, polys[id].centre, radius));
  }
  for (size_t pid = 0; pid < m.portals().size(); ++pid) {
    const NavPortal& p = m.portals()[pid];
    REQUIRE(p.edge_a >= 0);
    REQUIRE(p.edge_b >= 0);
    CHECK(rv[static_cast<size_t>(p.edge_a)] == p.a);
    CHECK(rv[static_cast<size_t>(p.edge_b)] == p.b);
    CHECK(m.ring_neighbors()[static_cast<size_t>(p.edge_a)] == p.poly_b);
    CHECK(m.ring_neighbors()[static_cast<size_t>(p.edge_b)] == p.poly_a);
    CHECK(cross(p.b - p.a, polys[static_cast<size_t>(p.poly_a)].centre - p.a) > 0.0);
    CHECK(cross(p.b - p.a, polys[static_cast<size_t>(p.poly_b)].centre - p.a) < 0.0);
  }
  // Every vertex is where a wall turns: it ends wall edges, and not just one coming in and one
  // going on in the same direction (a point along a straight wall).
  std::map<int, std::vector<Vec2>> wall_in, wall_out;  // per vertex id: unit directions
  for (size_t id = 0; id < polys.size(); ++id) {
    const NavPolygon& P = polys[id];
    for (int e = P.first; e < P.first + P.count; ++e) {
      const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
      if (m.ring_neighbors()[static_cast<size_t>(e)] >= 0) continue;
      const Vec2 d = glm::normalize(rv[static_cast<size_t>(e1)] - rv[static_cast<size_t>(e)]);
      wall_out[m.ring_vertex_ids()[static_cast<size_t>(e)]].push_back(d);
      wall_in[m.ring_vertex_ids()[static_cast<size_t>(e1)]].push_back(d);
    }
  }
  for (size_t i = 0; i < m.ring_vertex_ids().size(); ++i) {
    const int v = m.ring_vertex_ids()[i];
    CHECK(m.vertex_on_wall()[static_cast<size_t>(v)] == 1);
    const auto& in = wall_in[v];
    const auto& out = wall_out[v];
    REQUIRE(in.size() >= 1);
    REQUIRE(out.size() >= 1);
    const bool straight = in.size() == 1 && out.size() == 1 && std::abs(cross(in[0], out[0])) < 1e-12 && glm::dot(in[0], out[0]) > 0;
    CHECK_FALSE(straight);
  }
}

}  // namespace

TEST_CASE("navmesh corners: random maps, every radius: legal, consistent, the same area as the convex mesh") {
  const int maps = sanitized() ? 2 : 8;
  for (int k = 0; k < maps; ++k) {
    const Grid g = test::random_grid(40, 30, 0.2, 300u + static_cast<uint32_t>(k));
    for (const double a : {0.0, 0.25, 0.5, 0.75, 1.3}) {
      CAPTURE(k);
      CAPTURE(a);
      auto m = Navmesh::build(g, corners_def(a));
      NavmeshDef convex = default_navmesh_def();
      convex.agent_radius = a;
      auto c = Navmesh::build(g, convex);
      REQUIRE(m);
      REQUIRE(c);
      check_corner_mesh(g, *m, a);
      // The same free area, cut differently. [Units: cells^2]
      CHECK(mesh_area(*m) == doctest::Approx(mesh_area(*c)).epsilon(1e-12));
      CHECK(m->polygons().size() <= c->polygons().size() + c->polygons().size() / 2);
      // locate agrees with contains, and finds what the convex mesh finds.
      for (int y = 0; y < g.height(); ++y)
        for (int x = 0; x < g.width(); ++x)
          for (const Vec2 p : {Vec2(x + 0.5, y + 0.5), Vec2(x, y), Vec2(x + 0.5, y)}) {
            const int id = m->locate(p);
            CHECK((id >= 0) == (c->locate(p) >= 0));
            if (id >= 0) CHECK(m->contains(id, p));
          }
    }
  }
}

TEST_CASE("navmesh corners: exact lengths equal the visibility-graph optimum, and the convex mesh's at radius > 0") {
  const int maps = sanitized() ? 2 : 10;
  std::mt19937 rng(77);
  int compared = 0;
  for (int k = 0; k < maps; ++k) {
    const Grid g = test::random_grid(40, 40, 0.25, 500u + static_cast<uint32_t>(k));
    const test::VisibilityReference ref(g);
    auto m = Navmesh::build(g, corners_def(0.0));
    REQUIRE(m);
    NavmeshQuery q(*m);
    for (int i = 0; i < 40; ++i) {
      const Vec2 s = test::random_free_point(g, rng), t = test::random_free_point(g, rng);
      const double best = ref.shortest(s, t);
      auto r = q.find_corridor(s, t);
      REQUIRE(r);
      CHECK(r->found == std::isfinite(best));
      if (!r->found) continue;
      auto f = funnel_corridor(*r);
      REQUIRE(f);
      CHECK(r->length == doctest::Approx(best).epsilon(1e-9));
      CHECK(f->length == doctest::Approx(best).epsilon(1e-9));
      ++compared;
    }
    for (const double a : {0.3, 0.5, 0.9}) {
      CAPTURE(a);
      auto mc = Navmesh::build(g, corners_def(a));
      NavmeshDef convex = default_navmesh_def();
      convex.agent_radius = a;
      auto mv = Navmesh::build(g, convex);
      REQUIRE(mc);
      REQUIRE(mv);
      NavmeshQuery qc(*mc), qv(*mv);
      for (int i = 0; i < 15; ++i) {
        const Vec2 s = test::random_free_point(g, rng), t = test::random_free_point(g, rng);
        auto rc = qc.find_corridor(s, t);
        auto rv = qv.find_corridor(s, t);
        REQUIRE(static_cast<bool>(rc) == static_cast<bool>(rv));
        if (!rc) continue;
        REQUIRE(rc->found == rv->found);
        if (!rc->found) continue;
        CHECK(rc->start == rv->start);  // snapped alike
        CHECK(rc->goal == rv->goal);
        CHECK(rc->length == doctest::Approx(rv->length).epsilon(1e-9));
        auto f = funnel_corridor(*rc);
        REQUIRE(f);
        CHECK(f->length == doctest::Approx(rv->length).epsilon(1e-9));
        for (size_t j = 0; j + 1 < f->points.size(); ++j) CHECK(segment_clear(g, f->points[j], f->points[j + 1], a - 1e-6));
        ++compared;
      }
    }
  }
  CHECK(compared > maps * 40);
}

TEST_CASE("navmesh corners: a Moving AI map crosses fewer polygons than on the convex mesh, at the same length") {
  auto g = load_movingai_map(test::movingai("den520d.map"));
  REQUIRE(g);
  auto m = Navmesh::build(*g, corners_def(0.0));
  auto c = Navmesh::build(*g);
  REQUIRE(m);
  REQUIRE(c);
  check_corner_mesh(*g, *m, 0.0);
  NavmeshQuery qm(*m), qc(*c);
  std::mt19937 rng(5);
  int64_t exp_m = 0, exp_c = 0;
  for (int i = 0; i < (sanitized() ? 20 : 200); ++i) {
    const Vec2 s = test::random_free_point(*g, rng), t = test::random_free_point(*g, rng);
    auto a = qm.find_corridor(s, t);
    auto b = qc.find_corridor(s, t);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(a->found == b->found);
    if (!a->found) continue;
    CHECK(a->length == doctest::Approx(b->length).epsilon(1e-9));
    exp_m += a->expanded;
    exp_c += b->expanded;
  }
  MESSAGE("den520d: corners " << m->polygons().size() << " polygons, " << exp_m << " expansions; convex "
                              << c->polygons().size() << " polygons, " << exp_c << " expansions");
  CHECK(exp_m * 2 < exp_c);  // 105 against 433 per query on the speed check's 10,000
}
