#pragma once
// Internal: turning the rectangle mesh into fewer, larger convex polygons.

#include <cstdint>
#include <vector>

#include "pathlab/geometry.hpp"

namespace pathlab::detail {

/// Polygons as rings of mesh-wide vertex ids, interior on the left (positive shoelace area).
/// Adjacent polygons meet edge to edge: an edge u -> w of one is w -> u of the other.
struct ConvexPieces {
  std::vector<std::vector<int>> rings;
  /// Per ring edge (vertex i -> i + 1): the polygon across it, or -1 for a wall.
  std::vector<std::vector<int>> across;
  /// Per input rectangle: the output polygons that cover part of it.
  std::vector<std::vector<int>> of_rect;
};

/// Cuts the step triangles off each rectangle at the wall corners in the middle of its sides
/// (where a staircase of rectangles has its reflex corners), then removes
/// shared edges greedily wherever the union of the two sides stays convex (Hertel and
/// Mehlhorn). A staircase of thin slabs becomes one convex polygon along the stair line plus
/// the step triangles under it, which hang off it as dead ends.
/// `rect_walls[r][i]` is 1 when edge i of rectangle r faces a wall; `pos` maps a vertex id to
/// its point; `on_wall` flags vertex ids where a wall edge ends.
ConvexPieces merge_convex(const std::vector<std::vector<int>>& rects, const std::vector<std::vector<uint8_t>>& rect_walls,
                          const std::vector<Vec2>& pos, const std::vector<uint8_t>& on_wall);

}  // namespace pathlab::detail
