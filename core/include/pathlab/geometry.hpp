#pragma once
/// @file geometry.hpp
/// Basic geometric types of the core.
///
/// World coordinates: cell (c, r) of a grid covers [c, c+1) x [r, r+1); x grows to
/// the right and y grows downwards (screen and Moving AI convention). Headings are
/// measured like atan2(dy, dx) in this frame, so 90 degrees points down the map.
/// The core works in radians; degrees appear only at file and command-line
/// boundaries.

#include <cmath>
#include <numbers>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

namespace pathlab {

/// A point or vector in world units. [Units: cells]
using Vec2 = glm::dvec2;

/// Integer cell coordinates: column x, row y.
struct Cell {
  int x = 0;
  int y = 0;
  friend bool operator==(const Cell&, const Cell&) = default;
};

/// A position with a heading. [Units: cells, radians]
struct Pose {
  Vec2 pos{0.0, 0.0};
  double heading = 0.0;
};

inline constexpr double kPi = std::numbers::pi;
inline constexpr double kSqrt2 = std::numbers::sqrt2;

inline constexpr double deg_to_rad(double deg) { return deg * (kPi / 180.0); }
inline constexpr double rad_to_deg(double rad) { return rad * (180.0 / kPi); }

/// The centre of a cell in world coordinates.
inline Vec2 cell_center(Cell c) { return Vec2(c.x + 0.5, c.y + 0.5); }

/// The cell that contains a world point (floor of each coordinate).
inline Cell cell_of(Vec2 p) { return Cell{static_cast<int>(std::floor(p.x)), static_cast<int>(std::floor(p.y))}; }

inline bool is_finite(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

/// The z of the 3D cross product: > 0 when b turns counter-clockwise from a (math sense; with
/// y down it looks clockwise on screen), 0 when they are parallel.
inline double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

/// Octile distance between two cells: the 8-connected shortest length on an empty grid.
inline double octile_distance(Cell a, Cell b) {
  const int dx = std::abs(a.x - b.x);
  const int dy = std::abs(a.y - b.y);
  const int mn = dx < dy ? dx : dy;
  const int mx = dx < dy ? dy : dx;
  return (mx - mn) + kSqrt2 * mn;
}

/// Geometric length of a polyline: the sum of its segment lengths, in order. [Units: cells]
inline double polyline_length(const std::vector<Vec2>& points) {
  double len = 0.0;
  for (size_t i = 1; i < points.size(); ++i) len += glm::length(points[i] - points[i - 1]);
  return len;
}

}  // namespace pathlab
