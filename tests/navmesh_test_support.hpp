#pragma once
// Helpers shared by the navmesh, funnel and edge-shift tests (and bench_navmesh): random query
// points, point-to-segment distance and an exact, independent reference for the shortest path
// through a corridor of portals.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "pathlab/funnel.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/navmesh.hpp"

namespace pathlab::test {

/// True under the ASan+UBSan pass, where heavy loops are scaled down.
inline bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

/// A uniformly random point well inside a random free cell (never on an edge or pinch point).
inline Vec2 random_free_point(const Grid& g, std::mt19937& rng) {
  std::uniform_int_distribution<int> cx(0, g.width() - 1), cy(0, g.height() - 1);
  std::uniform_real_distribution<double> u(0.05, 0.95);
  for (;;) {
    const int x = cx(rng), y = cy(rng);
    if (g.is_free(x, y)) return Vec2(x + u(rng), y + u(rng));
  }
}

inline double dist_to_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double l2 = glm::dot(d, d);
  const double t = l2 > 0 ? std::clamp(glm::dot(p - a, d) / l2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + d * t));
}

/// Exact shortest path length from `start` through `portals` in order to `goal`, by dynamic
/// programming instead of a funnel: the path bends only at portal endpoints, and a straight leg
/// from a point on portal i to a point on portal j is inside the corridor exactly when it meets
/// every portal strictly between them (consecutive crossings lie in one convex polygon). O(n^3)
/// in the number of portals: for tests only.
inline double corridor_shortest(Vec2 start, Vec2 goal, std::span<const FunnelPortal> portals) {
  struct Node {
    Vec2 p;
    int portal;  // -1 the start, n the goal
  };
  const int n = static_cast<int>(portals.size());
  std::vector<Node> nodes{{start, -1}};
  for (int i = 0; i < n; ++i) {
    nodes.push_back({portals[static_cast<size_t>(i)].left, i});
    nodes.push_back({portals[static_cast<size_t>(i)].right, i});
  }
  nodes.push_back({goal, n});
  auto cross = [](Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; };
  // Does segment p-q meet portal k? (Both ends of the portal on one side strictly = no.)
  auto meets = [&](Vec2 p, Vec2 q, const FunnelPortal& k) {
    constexpr double eps = 1e-9;
    const Vec2 d = q - p;
    const double sl = cross(d, k.left - p), sr = cross(d, k.right - p);
    const double scale = std::max(1.0, glm::length(d) * glm::length(k.left - k.right));
    if ((sl > eps * scale && sr > eps * scale) || (sl < -eps * scale && sr < -eps * scale)) return false;
    // The portal's line must separate p and q (or touch them).
    const Vec2 e = k.left - k.right;
    const double sp = cross(e, p - k.right), sq = cross(e, q - k.right);
    const double s2 = std::max(1.0, glm::length(e) * glm::length(d));
    return !((sp > eps * s2 && sq > eps * s2) || (sp < -eps * s2 && sq < -eps * s2));
  };
  constexpr double inf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(nodes.size(), inf);
  dist[0] = 0;
  // Nodes are in portal order, so one sweep over the DAG suffices.
  for (size_t u = 0; u < nodes.size(); ++u) {
    if (!std::isfinite(dist[u])) continue;
    for (size_t v = u + 1; v < nodes.size(); ++v) {
      if (nodes[v].portal <= nodes[u].portal) continue;
      bool ok = true;
      for (int k = nodes[u].portal + 1; k < nodes[v].portal && ok; ++k)
        ok = meets(nodes[u].p, nodes[v].p, portals[static_cast<size_t>(k)]);
      if (ok) dist[v] = std::min(dist[v], dist[u] + glm::length(nodes[v].p - nodes[u].p));
    }
  }
  return dist.back();
}


/// A mesh's arrays with its unused numbers (a tiled mesh's spare room after an update(): see
/// Navmesh::tile_polygon_first()) left out and every polygon, ring edge, portal and portal
/// list entry numbered back to back in the mesh's order: a build's arrays as they are. An
/// entry that refers to an unused number (or a gap entry that is not cleared) shows as -2, so
/// that two meshes compare equal only when their live arrays and references do.
struct CanonicalMesh {
  std::vector<NavPolygon> polygons;
  std::vector<NavPortal> portals;
  std::vector<Vec2> ring_v;
  std::vector<int> ring_vid, ring_n, ring_p, listed, tile_first;
  std::vector<uint8_t> on_wall;
  int unused_not_cleared = 0;  // unused polygons with a ring or portals, unused portals with polygons
};

inline CanonicalMesh canonical(const Navmesh& m) {
  CanonicalMesh c;
  const auto& polys = m.polygons();
  std::vector<int> poly_of(polys.size(), -2), edge_of(m.ring_vertices().size(), -2), portal_of(m.portals().size(), -2);
  for (size_t p = 0, next = 0, edge = 0; p < polys.size(); ++p) {
    if (polys[p].unused()) {
      c.unused_not_cleared += polys[p].portal_count != 0 ? 1 : 0;
      continue;
    }
    poly_of[p] = static_cast<int>(next++);
    for (int e = polys[p].first; e < polys[p].first + polys[p].count; ++e) edge_of[static_cast<size_t>(e)] = static_cast<int>(edge++);
  }
  for (size_t i = 0, next = 0; i < m.portals().size(); ++i) {
    const NavPortal& pt = m.portals()[i];
    if (pt.unused()) {
      c.unused_not_cleared += pt.poly_b != -1 || pt.edge_a != -1 || pt.edge_b != -1 ? 1 : 0;
      continue;
    }
    portal_of[i] = static_cast<int>(next++);
  }
  auto map = [](const std::vector<int>& to, int v) { return v < 0 ? v : v >= static_cast<int>(to.size()) ? -2 : to[static_cast<size_t>(v)]; };
  for (size_t p = 0; p < polys.size(); ++p) {
    if (poly_of[p] < 0) continue;
    NavPolygon P = polys[p];
    P.first = static_cast<int>(c.ring_v.size());
    P.first_portal = static_cast<int>(c.listed.size());
    for (int e = polys[p].first; e < polys[p].first + polys[p].count; ++e) {
      const size_t i = static_cast<size_t>(e);
      c.ring_v.push_back(m.ring_vertices()[i]);
      c.ring_vid.push_back(m.ring_vertex_ids()[i]);
      c.ring_n.push_back(map(poly_of, m.ring_neighbors()[i]));
      c.ring_p.push_back(map(portal_of, m.ring_portals()[i]));
    }
    for (int k = polys[p].first_portal; k < polys[p].first_portal + polys[p].portal_count; ++k)
      c.listed.push_back(map(portal_of, m.polygon_portals()[static_cast<size_t>(k)]));
    c.polygons.push_back(P);
  }
  for (size_t i = 0; i < m.portals().size(); ++i) {
    if (portal_of[i] < 0) continue;
    NavPortal pt = m.portals()[i];
    pt.poly_a = map(poly_of, pt.poly_a), pt.poly_b = map(poly_of, pt.poly_b);
    pt.edge_a = map(edge_of, pt.edge_a), pt.edge_b = map(edge_of, pt.edge_b);
    c.portals.push_back(pt);
  }
  const auto& tf = m.tile_polygon_first();
  if (!tf.empty()) {
    c.tile_first.push_back(0);
    for (size_t t = 0; t + 1 < tf.size(); ++t) {
      int live = 0;
      for (int p = tf[t]; p < tf[t + 1]; ++p) live += poly_of[static_cast<size_t>(p)] >= 0 ? 1 : 0;
      c.tile_first.push_back(c.tile_first.back() + live);
    }
  }
  c.on_wall = m.vertex_on_wall();
  return c;
}

/// Per polygon number of `m`, its number in test::canonical(m) (-1 for an unused one).
inline std::vector<int> canonical_polygon_numbers(const Navmesh& m) {
  std::vector<int> out(m.polygons().size(), -1);
  int next = 0;
  for (size_t p = 0; p < out.size(); ++p)
    if (!m.polygons()[p].unused()) out[p] = next++;
  return out;
}

}  // namespace pathlab::test
