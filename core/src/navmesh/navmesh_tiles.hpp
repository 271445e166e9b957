#pragma once
// Internal: the sub-grid arithmetic navmesh.cpp and navmesh_tiles.cpp share.

#include <cstdint>
#include <utility>
#include <vector>

#include "pathlab/navmesh.hpp"

namespace pathlab::detail {

/// Sorted, distinct sub-grid line coordinates along one axis of length n: the edges of every
/// wall grown by s, clipped to the band [s, n - s] the map's own border leaves free, plus the
/// tile borders k * tile inside that band (none for tile 0). [Units: cells]
std::vector<double> sub_lines(int n, double s, int tile);

/// For each sub-interval of `lines`, the range of grid columns (or rows) whose grown wall
/// [c - s, c + 1 + s] covers the interval's midpoint, clamped to [0, n).
void covering_cells(const std::vector<double>& lines, int n, double s, std::vector<int>& lo, std::vector<int>& hi);

/// Each line of sub_lines(n, s, tile) as k + sigma * s (sigma 0 for a tile border), found by
/// redoing sub_lines' own arithmetic, so that the corner triangulation can test orientations
/// exactly.
std::vector<std::pair<int32_t, int8_t>> line_tags(const std::vector<double>& lines, double s);

/// Sets P.lo, P.hi and P.centre (the area centroid) from P's ring `ring[0 .. P.count)`; the
/// centroid is summed relative to the first vertex for precision. A degenerate ring (zero area)
/// gets its first vertex as centre. [Units: cells]
void set_polygon_box_and_centre(NavPolygon& P, const Vec2* ring);

/// A new Navmesh::revision(), unique in the process (thread-safe).
uint64_t next_navmesh_revision();

}  // namespace pathlab::detail
