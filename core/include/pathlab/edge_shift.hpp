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
/// Passes: `passes` N >= 1 runs exactly N passes of the post's step (N = 1 is its method as
/// described). 0, the default, repeats passes until no node moves more than `tolerance` in a
/// pass (at most kEdgeShiftMaxPasses), with one correction that makes each step the shortest
/// choice for its node: when the previous node and the node after next lie on the same side
/// of the edge, the line to the mirror image of the latter is used (Heron's reflection; the
/// post's line would meet the edge's line outside the two and pull the node to a wrong end).
/// Each step then never lengthens the path, and the passes converge on the shortest path
/// through the edges (coordinate descent on a convex length): the funnel's path, up to the
/// margin and the tolerance.
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
  /// Passes over the nodes; 0 = until converged (see `tolerance`). [Limit: 0 .. 64]
  int passes = 0;
  /// With passes == 0: stop after the first pass in which no node moved more than this.
  /// [Units: cells] [Limit: > 0, finite]
  double tolerance = 1e-3;
};

/// Most passes of the "until converged" mode (a bound on the work for any input; corridors of
/// real maps settle in far fewer, see the README).
inline constexpr int kEdgeShiftMaxPasses = 100000;

/// What edge_shift() did.
struct EdgeShiftReport {
  int passes = 0;          ///< Passes run.
  double last_move = 0.0;  ///< Largest node move of the last pass. [Units: cells]
  bool converged = false;  ///< passes == 0: the last pass moved no node more than the tolerance.
};

inline EdgeShiftDef default_edge_shift_def() { return EdgeShiftDef{}; }

/// A crossed edge. [Units: cells]
struct EdgeSegment {
  Vec2 a{0, 0};
  Vec2 b{0, 0};
};

/// Moves nodes[1 .. N-2] onto their crossed edges as described above; nodes[0] and nodes[N-1]
/// stay. Needs exactly N - 2 edges (edge i is crossed by the leg nodes[i] -> nodes[i+1]).
/// Errors: a count mismatch, a non-finite point, a margin, tolerance or pass count out of
/// range. `report`, when given, says how many passes ran.
Result<std::vector<Vec2>> edge_shift(std::span<const Vec2> nodes, std::span<const EdgeSegment> edges,
                                     const EdgeShiftDef& def = default_edge_shift_def(),
                                     EdgeShiftReport* report = nullptr);

}  // namespace pathlab
