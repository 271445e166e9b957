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

/// `b` mirrored across the line e1-e2 when it lies on the same side as `a` (strictly), else `b`.
/// The shortest way from a to b touching the line then crosses it where a -> mirrored b does
/// (Heron's reflection), which is where a -> b does when they are on opposite sides.
Vec2 mirror_if_same_side(Vec2 e1, Vec2 e2, Vec2 a, Vec2 b) {
  const Vec2 e = e2 - e1;
  const double sa = cross(e, a - e1), sb = cross(e, b - e1);
  const double l2 = glm::dot(e, e);
  if (!(l2 > 0.0) || !(sa * sb > 0.0)) return b;
  return b - (2.0 * sb / l2) * Vec2(-e.y, e.x);
}

/// True when p lies on the infinite line e1-e2 (to rounding).
bool on_line(Vec2 e1, Vec2 e2, Vec2 p) {
  const Vec2 e = e2 - e1;
  return std::abs(cross(e, p - e1)) <= 1e-9 * glm::dot(e, e);
}

/// One pass over the inner nodes, in order; returns the largest distance a node moved.
/// `exact`: each node goes to the point of its edge that makes its two legs shortest (the
/// post's step, plus the reflection when both neighbours are on one side of the edge).
double shift_pass(std::vector<Vec2>& n, std::span<const EdgeSegment> edges, double margin, bool exact) {
  double moved = 0.0;
  for (size_t i = 0; i + 2 < n.size(); ++i) {
    const Vec2 e1 = edges[i].a, e2 = edges[i].b;
    // Exact: a node after next that lies on this edge's line (collinear portals of a sliver
    // polygon) would pin the node to itself; the first later node off the line is the target,
    // so nodes on one line move together.
    size_t k = i + 2;
    if (exact)
      while (k + 1 < n.size() && on_line(e1, e2, n[k])) ++k;
    const Vec2 next = exact ? mirror_if_same_side(e1, e2, n[i], n[k]) : n[k];
    double t;
    if (!line_intersection_param(e1, e2, n[i], next, t)) {
      const Vec2 e = e2 - e1;
      const double l2 = glm::dot(e, e);
      t = l2 > 0 ? glm::dot(n[i + 1] - e1, e) / l2 : 0.5;
    }
    const Vec2 to = shift_between_ends(t, e1, e2, margin);
    moved = std::max(moved, glm::length(to - n[i + 1]));
    n[i + 1] = to;
  }
  return moved;
}

}  // namespace

Result<std::vector<Vec2>> edge_shift(std::span<const Vec2> nodes, std::span<const EdgeSegment> edges,
                                     const EdgeShiftDef& def, EdgeShiftReport* report) {
  if (!(def.margin >= 0.0) || !std::isfinite(def.margin)) {
    return fail(StatusCode::invalid_argument, "edge-shift margin must be finite and >= 0");
  }
  if (def.passes < 0 || def.passes > 64) {
    return fail(StatusCode::invalid_argument,
                "edge-shift passes must be in [0, 64] (0 = until converged), got " + std::to_string(def.passes));
  }
  if (!(def.tolerance > 0.0) || !std::isfinite(def.tolerance))
    return fail(StatusCode::invalid_argument, "edge-shift tolerance must be finite and > 0");
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
  EdgeShiftReport rep;
  const bool until_converged = def.passes == 0;
  const int max_passes = until_converged ? kEdgeShiftMaxPasses : def.passes;
  while (rep.passes < max_passes) {
    rep.last_move = shift_pass(n, edges, def.margin, until_converged);
    ++rep.passes;
    if (until_converged && rep.last_move <= def.tolerance) {
      rep.converged = true;
      break;
    }
  }
  if (report) *report = rep;
  return n;
}

}  // namespace pathlab
