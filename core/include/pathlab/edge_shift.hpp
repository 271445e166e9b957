#pragma once
/// @file edge_shift.hpp
/// The string pulling of Tower22's "Walk the line; Smooth this time" (2016): slide each node
/// along the edge its path crosses, towards the node after next, kept a little off the edge's
/// ends.
///
/// Nodes n[0..N-1] start one per corridor polygon; the leg n[i] -> n[i+1] crosses edge i. One
/// pass runs i = 0 .. N-3: the infinite line n[i] -> n[i+2] is intersected with the infinite
/// line of edge i (the intersection may lie beyond the edge's ends); the point is then pulled
/// back between the ends, at least `margin` from each, and stored as n[i+1], so the next step
/// already starts from the moved node. Further passes repeat that on the moved nodes.
///
/// Where the two lines are parallel the post leaves the node where it was; here it goes to the
/// point of the edge nearest to it, so that every node always ends on its edge and each leg
/// stays inside its (convex) polygon.

#include <span>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Parameters of edge_shift(). Start from default_edge_shift_def().
struct EdgeShiftDef {
  /// Distance kept from each end of a crossed edge; on an edge shorter than twice this the node
  /// goes to the edge's middle. [Units: cells] [Limit: >= 0, finite]
  double margin = 0.01;
  /// Passes over the nodes; 0 returns them unchanged. [Limit: 0 .. 64]
  int passes = 1;
};

inline EdgeShiftDef default_edge_shift_def() { return EdgeShiftDef{}; }

/// A crossed edge. [Units: cells]
struct EdgeSegment {
  Vec2 a{0, 0};
  Vec2 b{0, 0};
};

/// Moves nodes[1 .. N-2] onto their crossed edges as described above; nodes[0] and nodes[N-1]
/// stay. Needs exactly N - 2 edges (edge i is crossed by the leg nodes[i] -> nodes[i+1]).
/// Errors: a count mismatch, a non-finite point, a margin or pass count out of range.
Result<std::vector<Vec2>> edge_shift(std::span<const Vec2> nodes, std::span<const EdgeSegment> edges,
                                     const EdgeShiftDef& def = default_edge_shift_def());

}  // namespace pathlab
