// The clearance field of collision.hpp: distances from cell centres to the walls, and the checks
// that answer from them when the bounds decide and ask the referee (collision.cpp) otherwise.
// Sphere tracing along a segment (a disc known clear covers the stretch of the segment inside
// it) is Hart's "Sphere Tracing: A Geometric Method for the Antialiased Ray Tracing of Implicit
// Surfaces" (The Visual Computer, 1996), here with a conservative distance bound.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "pathlab/collision.hpp"

namespace pathlab {

namespace {

constexpr int kSide = 2 * ClearanceField::kReach + 1;
/// Sphere tracing stops (and the referee decides) where the clear disc ahead is shorter than
/// this: near a wall a handful of exact box tests are cheaper than many tiny steps. [Units: cells]
constexpr double kMinStride = 0.02;
/// Slack of the referee itself (kClearanceTolerance) plus float rounding of positions.
constexpr double kRefereeSlack = 1e-9;

/// Distance from a cell centre to the closed box of the cell at offset (i, j). [Units: cells]
std::array<double, kSide * kSide> offset_distances() {
  std::array<double, kSide * kSide> out{};
  for (int j = -ClearanceField::kReach; j <= ClearanceField::kReach; ++j)
    for (int i = -ClearanceField::kReach; i <= ClearanceField::kReach; ++i) {
      const double dx = std::max(std::abs(i) - 0.5, 0.0), dy = std::max(std::abs(j) - 0.5, 0.0);
      out[static_cast<size_t>((j + ClearanceField::kReach) * kSide + i + ClearanceField::kReach)] = std::sqrt(dx * dx + dy * dy);
    }
  return out;
}

/// True when a blocked cell has a free 4-neighbour. Only such cells can be the nearest wall of
/// a free cell: the nearest point of any other blocked box is shared with a blocked neighbour
/// box on the side facing the free cell, and following those neighbours ends at one with a free
/// neighbour.
bool is_wall_face(const Grid& g, int x, int y) {
  return g.is_free(x + 1, y) || g.is_free(x - 1, y) || g.is_free(x, y + 1) || g.is_free(x, y - 1);
}

}  // namespace

ClearanceField::ClearanceField(const Grid& grid) : width_(grid.width()), height_(grid.height()) {
  const int w = width_, h = height_;
  const double cap = kReach + 0.5;  // a wall more than kReach cells away is at least this far
  dist_.assign(static_cast<size_t>(w) * static_cast<size_t>(h), 0.0f);
  std::vector<double> d(dist_.size(), 0.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (grid.is_free(x, y))  // the map's outside: the distance to the nearest edge
        d[static_cast<size_t>(grid.index(x, y))] = std::min({cap, x + 0.5, y + 0.5, w - x - 0.5, h - y - 0.5});
  static const std::array<double, kSide * kSide> table = offset_distances();
  for (int by = 0; by < h; ++by)
    for (int bx = 0; bx < w; ++bx) {
      if (grid.is_free(bx, by) || !is_wall_face(grid, bx, by)) continue;
      for (int j = std::max(-kReach, -by); j <= std::min(kReach, h - 1 - by); ++j)
        for (int i = std::max(-kReach, -bx); i <= std::min(kReach, w - 1 - bx); ++i) {
          double& v = d[static_cast<size_t>(grid.index(bx + i, by + j))];
          v = std::min(v, table[static_cast<size_t>((j + kReach) * kSide + i + kReach)]);
        }
    }
  for (size_t k = 0; k < d.size(); ++k) dist_[k] = static_cast<float>(d[k]);
}

namespace {

/// The cell holding p and the offset of p from its centre; false outside the map (NaN too).
/// For p inside, truncation is floor(): one conversion instead of a rounding sequence per axis
/// (these lookups are the inner loop of the planners' and the smoother's checks).
bool locate(Vec2 p, int width, int height, size_t& k, double& offset) {
  if (!(p.x >= 0.0 && p.y >= 0.0 && p.x < width && p.y < height)) return false;
  const int cx = static_cast<int>(p.x), cy = static_cast<int>(p.y);
  k = static_cast<size_t>(cy) * static_cast<size_t>(width) + static_cast<size_t>(cx);
  offset = glm::length(p - Vec2(cx + 0.5, cy + 0.5));
  return true;
}

}  // namespace

double ClearanceField::lower_bound(Vec2 p) const { return bounds(p).lower; }

double ClearanceField::upper_bound(Vec2 p) const { return bounds(p).upper; }

ClearanceField::Bounds ClearanceField::bounds(Vec2 p) const {
  constexpr double inf = std::numeric_limits<double>::infinity();
  size_t k = 0;
  double off = 0.0;
  if (width_ <= 0 || !locate(p, width_, height_, k, off)) return Bounds{-1.0, inf};
  const double stored = dist_[k];
  // The upper bound: kMargin in the closed box of a blocked cell, none where the field is capped.
  const double upper = stored <= 0.0 ? kMargin : stored >= kReach + 0.5 - 1e-3 ? inf : stored + off + kMargin;
  return Bounds{stored - off - kMargin, upper};
}

bool point_clear(const Grid& grid, const ClearanceField& field, Vec2 p, double radius) {
  if (field.fits(grid) && std::isfinite(radius) && radius >= 0.0) {
    // Above: the true distance exceeds radius, so the point is strictly inside free space
    // (for radius 0 too). Below: the disc overlaps a wall by more than the referee's slack.
    const ClearanceField::Bounds b = field.bounds(p);
    if (b.lower > radius) return true;
    if (b.upper < radius - kRefereeSlack) return false;
  }
  return point_clear(grid, p, radius);
}

bool segment_clear(const Grid& grid, const ClearanceField& field, Vec2 a, Vec2 b, double radius) {
  if (!field.fits(grid) || !(radius > 0.0) || !std::isfinite(radius) || !is_finite(a) || !is_finite(b))
    return segment_clear(grid, a, b, radius);
  // An end's disc overlapping a wall makes the capsule overlap it.
  if (field.upper_bound(a) < radius - kRefereeSlack || field.upper_bound(b) < radius - kRefereeSlack) return false;
  const Vec2 d = b - a;
  const double len = glm::length(d);
  double t = 0.0;  // distance from a covered so far [cells]
  for (;;) {
    const Vec2 q = len > 0.0 ? a + d * (t / len) : a;
    const double room = field.lower_bound(q) - radius;  // every point within room of q is clear
    if (room < kMinStride) break;
    t += room;
    if (t >= len) return true;
  }
  return segment_clear(grid, a, b, radius);
}

}  // namespace pathlab
