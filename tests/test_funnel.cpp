// The funnel (exact shortest path in a corridor), checked against hand-made corridors and,
// on random maps, against the exact visibility-graph reference.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "pathlab/collision.hpp"
#include "pathlab/funnel.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "navmesh_test_support.hpp"
#include "test_support.hpp"
#include "visibility_reference.hpp"

using namespace pathlab;
using test::random_free_point;
using test::sanitized;

TEST_CASE("funnel: no portals is the straight segment; bad input is an error") {
  auto r = funnel_path(Vec2(0, 0), Vec2(3, 4), {});
  REQUIRE(r);
  CHECK(r->points.size() == 2);
  CHECK(r->length == doctest::Approx(5.0));
  const FunnelPortal bad[] = {{Vec2(std::nan(""), 0), Vec2(1, 1)}};
  CHECK(funnel_path(Vec2(0, 0), Vec2(3, 4), bad).error().code == StatusCode::invalid_argument);
  CHECK_FALSE(funnel_path(Vec2(INFINITY, 0), Vec2(3, 4), {}).ok());
}

TEST_CASE("funnel: an L-shaped corridor bends once, at the inner corner") {
  // Going right along y in [0,1], then down through x in [4,5]. Travel is +x into the portal
  // x = 4 (math-left is +y... i.e. (4,1)), then +y through y = 1 (math-left is -x: (4,1)).
  const FunnelPortal p[] = {{Vec2(4, 1), Vec2(4, 0)}, {Vec2(4, 1), Vec2(5, 1)}};
  auto r = funnel_path(Vec2(0.5, 0.5), Vec2(4.5, 5.0), p, true);
  REQUIRE(r);
  REQUIRE(r->points.size() == 3);
  CHECK(r->points[1] == Vec2(4, 1));
  CHECK(r->length == doctest::Approx(glm::length(Vec2(3.5, 0.5)) + glm::length(Vec2(0.5, 4.0))));
  CHECK_FALSE(r->events.empty());
}

TEST_CASE("funnel: zero-width portals and collinear legs") {
  // A chain of pinholes on one line: the path is the straight segment through them.
  const FunnelPortal holes[] = {{Vec2(1, 1), Vec2(1, 1)}, {Vec2(2, 2), Vec2(2, 2)}, {Vec2(3, 3), Vec2(3, 3)}};
  auto r = funnel_path(Vec2(0, 0), Vec2(4, 4), holes);
  REQUIRE(r);
  CHECK(r->length == doctest::Approx(4 * std::sqrt(2.0)));
  // A pinhole off the line forces a bend there.
  const FunnelPortal off[] = {{Vec2(2, 0), Vec2(2, 0)}};
  auto b = funnel_path(Vec2(0, 1), Vec2(4, 1), off);
  REQUIRE(b);
  REQUIRE(b->points.size() == 3);
  CHECK(b->points[1] == Vec2(2, 0));
  // Portals whose ends all lie on the travel line's neighbours, collinear with the start.
  const FunnelPortal col[] = {{Vec2(1, 1), Vec2(1, 0)}, {Vec2(2, 1), Vec2(2, 0)}, {Vec2(3, 1), Vec2(3, 0)}};
  auto c = funnel_path(Vec2(0, 1), Vec2(4, 1), col);
  REQUIRE(c);
  CHECK(c->points.size() == 2);
  CHECK(c->length == doctest::Approx(4.0));
  auto d = funnel_path(Vec2(0, 0), Vec2(4, 0), col);
  REQUIRE(d);
  CHECK(d->length == doctest::Approx(4.0));
}

TEST_CASE("funnel vs the exact visibility-graph reference on random maps (point agent)") {
  const int maps = sanitized() ? 2 : 10;
  const int queries = sanitized() ? 10 : 40;
  // Per cost model: sum and worst of funnel length / exact optimum, and exact hits.
  struct Stats {
    double sum = 0, worst = 1;
    int n = 0, exact = 0;
  } stats[2];
  for (int k = 0; k < maps; ++k) {
    const double density = 0.1 + 0.03 * (k % 5);
    const Grid g = test::random_grid(40, 40, density, 500u + static_cast<uint32_t>(k));
    const test::VisibilityReference ref(g);
    auto m = Navmesh::build(g);
    REQUIRE(m);
    NavmeshQuery q(*m);
    std::mt19937 rng(42u + static_cast<uint32_t>(k));
    for (int i = 0; i < queries; ++i) {
      const Vec2 s = random_free_point(g, rng), t = random_free_point(g, rng);
      const double best = ref.shortest(s, t);
      for (const NavSearchCost cost : {NavSearchCost::exact, NavSearchCost::portal_points}) {
        CAPTURE(static_cast<int>(cost));
        NavQueryOptions o = default_nav_query_options();
        o.cost = cost;
        auto r = q.find_corridor(s, t, o);
        REQUIRE(r);
        CHECK(r->found == std::isfinite(best));
        if (!r->found) continue;
        auto f = funnel_corridor(*r);
        REQUIRE(f);
        CHECK(polyline_clear(g, f->points));
        CHECK(f->length >= best - 1e-9);  // shorter would mean it cut a wall
        // The funnel is the exact shortest path of its corridor (independent DP reference).
        CHECK(f->length == doctest::Approx(test::corridor_shortest(r->start, r->goal, r->corridor.portals)).epsilon(1e-9));
        if (cost == NavSearchCost::exact) {
          // The exact search's corridor is a shortest path's: the funnel is the optimum.
          CHECK(f->length == doctest::Approx(best).epsilon(1e-9));
          CHECK(r->length == doctest::Approx(f->length).epsilon(1e-9));
        }
        Stats& st = stats[static_cast<int>(cost)];
        const double ratio = best > 0 ? f->length / best : 1.0;
        st.sum += ratio;
        st.worst = std::max(st.worst, ratio);
        st.exact += ratio < 1 + 1e-9;
        ++st.n;
      }
    }
  }
  for (const NavSearchCost cost : {NavSearchCost::exact, NavSearchCost::portal_points}) {
    const Stats& st = stats[static_cast<int>(cost)];
    REQUIRE(st.n > 0);
    const double mean = st.sum / st.n;
    MESSAGE(std::string(cost == NavSearchCost::exact ? "exact" : "portal_points")
            << " cost: funnel / exact optimum over " << st.n << " queries: mean " << mean << ", worst " << st.worst
            << ", optimal in " << st.exact << " (" << 100.0 * st.exact / st.n << "%)");
    CHECK(mean <= 1.01);
  }
  CHECK(stats[0].worst <= 1 + 1e-9);
}

TEST_CASE("funnel: events show the funnel being pulled tight; restarts produce the corners") {
  // A zig-zag: down through a gap on the right, then through a gap on the left.
  const FunnelPortal p[] = {{Vec2(4, 1), Vec2(4, 0)}, {Vec2(3, 4), Vec2(4, 4)}, {Vec2(0, 5), Vec2(0, 6)}};
  auto r = funnel_path(Vec2(0.5, 0.5), Vec2(-3, 5.5), p, true);
  REQUIRE(r);
  CHECK(r->length == doctest::Approx(test::corridor_shortest(Vec2(0.5, 0.5), Vec2(-3, 5.5), p)).epsilon(1e-12));
  int corners = 0;
  for (const FunnelEvent& e : r->events) corners += e.kind == FunnelEvent::corner_left || e.kind == FunnelEvent::corner_right;
  CHECK(corners == static_cast<int>(r->points.size()) - 2);
}
