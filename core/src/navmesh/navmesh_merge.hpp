#pragma once
// Internal: turning the rectangle mesh into fewer, larger convex polygons.

#include <cstdint>
#include <vector>

#include "pathlab/geometry.hpp"

namespace pathlab::detail {

/// Polygon rings back to back: ring k is verts[first[k] .. first[k + 1]), vertex ids in the
/// order that keeps the interior on the left (positive shoelace area).
struct RingSet {
  std::vector<int> first{0};
  std::vector<int> verts;
};

/// The rectangles to merge, with per ring edge (vertex i -> i + 1) whether it faces a wall.
/// Adjacent rectangles meet edge to edge: an edge u -> w of one is w -> u of the other.
struct RectRings {
  RingSet rings;
  std::vector<uint8_t> wall;
};

struct ConvexPieces {
  RingSet rings;
  std::vector<int> across;  ///< Per ring edge: the polygon on its other side, or -1 for a wall.
  /// Per input rectangle: the polygons covering part of it, rect_polys[rect_first[r] .. rect_first[r + 1]).
  std::vector<int> rect_first, rect_polys;
};

/// Cuts the step triangles off each rectangle at the wall corners in the middle of its sides
/// (where a staircase of rectangles has its reflex corners), then removes shared edges
/// greedily wherever the union of the two sides stays convex (Hertel and Mehlhorn 1983). A
/// staircase of thin slabs becomes one convex polygon along the stair line plus the step
/// triangles under it, which hang off it as dead ends. Neighbours share exactly one edge.
/// `pos` maps a vertex id to its point; `on_wall` flags vertex ids where a wall edge ends.
ConvexPieces merge_convex(const RectRings& rects, const std::vector<Vec2>& pos, const std::vector<uint8_t>& on_wall);

/// Convex rings with, per ring edge (vertex i -> i + 1), the ring holding the reverse edge or
/// -1 (a wall): what the triangulation knows already and the merge would otherwise find again.
struct LinkedRings {
  RingSet rings;
  std::vector<int> twin;
};

/// Removes shared edges of convex rings (triangles, say) greedily, longest first, wherever the
/// union stays convex (Hertel and Mehlhorn 1983): every vertex stays a vertex. rect_first and
/// rect_polys map each input ring to the polygon it became part of.
ConvexPieces merge_convex_rings(const RingSet& rings, const std::vector<Vec2>& pos);
/// The same for rings whose twins are known (the same pieces as from their RingSet alone).
ConvexPieces merge_convex_rings(const LinkedRings& rings, const std::vector<Vec2>& pos);

}  // namespace pathlab::detail
