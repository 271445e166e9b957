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

}  // namespace pathlab::test
