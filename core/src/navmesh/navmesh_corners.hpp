#pragma once
// Internal: the mesh whose vertices are wall corners only (NavmeshDef::corners_only). The
// rectangles are triangulated, every vertex that is not a wall corner (the T-junctions inside
// the free area, the points where a straight wall passes from one rectangle to the next) is
// removed, the triangles are made Delaunay by edge flips, and then merged into convex polygons.

#include <cstdint>
#include <vector>

#include "navmesh/navmesh_merge.hpp"
#include "pathlab/geometry.hpp"

namespace pathlab::detail {

/// A vertex's coordinates as k + sigma * s exactly, where s is the mesh's shrink (every sub-grid
/// line is an integer plus or minus s): orientation tests on these are exact, so collinear wall
/// corners (a diagonal staircase's) are seen as collinear whatever the rounding of k +- s.
struct ExactCoord {
  int32_t kx = 0, ky = 0;
  int8_t sx = 0, sy = 0;  ///< [Limit: -1, 0, 1]
};

/// Triangles (rings of 3 vertex ids, counter-clockwise) covering the union of the rectangle
/// rings, with every vertex that is not a wall corner removed: an interior vertex (no wall
/// edge ends there) or a straight wall vertex (one wall edge in, one out, collinear). The
/// triangles are constrained Delaunay (the walls are the constraints) within the rounding of
/// the in-circle test. A vertex whose removal cannot be done (never seen on grid maps) stays.
/// `pos` and `exact` map a vertex id to its point; `s` is the shrink. [Units: cells]
/// Each triangle's edge i comes with the triangle across it (its index in the output) or -1.
LinkedRings corner_triangles(const RectRings& rects, const std::vector<Vec2>& pos, const std::vector<ExactCoord>& exact,
                             double s);

}  // namespace pathlab::detail
