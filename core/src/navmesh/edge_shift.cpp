#include "pathlab/edge_shift.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pathlab {
namespace {

/// Parameter along e1 -> e2 where the infinite lines e1-e2 and p1-p2 meet; false when parallel.
bool line_intersection_param(Vec2 e1, Vec2 e2, Vec2 p1, Vec2 p2, double& t) {
  const Vec2 e = e2 - e1, p = p2 - p1;
  const double den = cross(e, p);
  const double scale = glm::length(e) * glm::length(p);
  if (!(std::abs(den) > 1e-12 * scale)) return false;
  t = cross(p1 - e1, p) / den;
  return std::isfinite(t);
}

/// The point at parameter t on e1 -> e2, pulled back inside the edge to at least `margin` from
/// each end (the Tower22 post's lineShiftPointBetweenEnds).
Vec2 shift_between_ends(double t, Vec2 e1, Vec2 e2, double margin) {
  const double len = glm::length(e2 - e1);
  if (len <= 2.0 * margin) return 0.5 * (e1 + e2);
  const double m = margin / len;
  return e1 + (e2 - e1) * std::clamp(t, m, 1.0 - m);
}

}  // namespace

Result<std::vector<Vec2>> edge_shift(std::span<const Vec2> nodes, std::span<const EdgeSegment> edges,
                                     const EdgeShiftDef& def) {
  if (!(def.margin >= 0.0) || !std::isfinite(def.margin)) {
    return fail(StatusCode::invalid_argument, "edge-shift margin must be finite and >= 0");
  }
  if (def.passes < 0 || def.passes > 64) {
    return fail(StatusCode::invalid_argument, "edge-shift passes must be in [0, 64], got " + std::to_string(def.passes));
  }
  if (nodes.size() < 2) return fail(StatusCode::invalid_argument, "edge-shift needs at least 2 nodes");
  if (edges.size() != nodes.size() - 2) {
    return fail(StatusCode::invalid_argument, "edge-shift needs " + std::to_string(nodes.size() - 2) +
                                                  " crossed edges for " + std::to_string(nodes.size()) +
                                                  " nodes, got " + std::to_string(edges.size()));
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!is_finite(nodes[i])) return fail(StatusCode::invalid_argument, "edge-shift node " + std::to_string(i) + " is not finite");
  for (size_t i = 0; i < edges.size(); ++i)
    if (!is_finite(edges[i].a) || !is_finite(edges[i].b))
      return fail(StatusCode::invalid_argument, "edge-shift edge " + std::to_string(i) + " is not finite");

  std::vector<Vec2> n(nodes.begin(), nodes.end());
  for (int pass = 0; pass < def.passes; ++pass) {
    for (size_t i = 0; i + 2 < n.size(); ++i) {
      const Vec2 e1 = edges[i].a, e2 = edges[i].b;
      double t;
      if (!line_intersection_param(e1, e2, n[i], n[i + 2], t)) {
        const Vec2 e = e2 - e1;
        const double l2 = glm::dot(e, e);
        t = l2 > 0 ? glm::dot(n[i + 1] - e1, e) / l2 : 0.5;
      }
      n[i + 1] = shift_between_ends(t, e1, e2, def.margin);
    }
  }
  return n;
}

}  // namespace pathlab
