// The clearance field of collision.hpp: distances from every half cell to the walls, and the checks
// that answer from them when the bounds decide and ask the referee (collision.cpp) otherwise.
// Sphere tracing along a segment (a disc known clear covers the stretch of the segment inside
// it) is Hart's "Sphere Tracing: A Geometric Method for the Antialiased Ray Tracing of Implicit
// Surfaces" (The Visual Computer, 1996), here with a conservative distance bound.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "grid/field_look.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {

namespace {

/// Samples a wall box can be the nearest wall of, per axis on either side of its centre's
/// sample: every sample farther than this is at least kReach + 0.5 cells from the box.
/// [Units: samples, half cells]
constexpr int kSampleReach = 2 * ClearanceField::kReach + 1;
constexpr int kSide = 2 * kSampleReach + 1;
/// Sphere tracing stops (and the referee decides) where the clear disc ahead is shorter than
/// this: near a wall a handful of exact box tests are cheaper than many tiny steps. [Units: cells]
constexpr double kMinStride = 0.02;
/// Slack of the referee itself (kClearanceTolerance) plus float rounding of positions.
constexpr double kRefereeSlack = 1e-9;
/// Stored for a sample whose half-cell square lies inside walls: every point that looks it up
/// is in the closed box of a blocked cell (or outside the map).
constexpr float kInside = -1.0f;

/// Distance from sample (2 bx + 1 + i, 2 by + 1 + j), i / 2 and j / 2 cells from the centre of
/// cell (bx, by), to that cell's closed box. [Units: cells]
std::array<float, kSide * kSide> offset_distances() {
  std::array<float, kSide * kSide> out{};
  for (int j = -kSampleReach; j <= kSampleReach; ++j)
    for (int i = -kSampleReach; i <= kSampleReach; ++i) {
      const double dx = std::max(0.5 * std::abs(i) - 0.5, 0.0), dy = std::max(0.5 * std::abs(j) - 0.5, 0.0);
      out[static_cast<size_t>((j + kSampleReach) * kSide + i + kSampleReach)] = static_cast<float>(std::sqrt(dx * dx + dy * dy));
    }
  return out;
}

/// True when a blocked cell has a free 4-neighbour. Only such cells can be the nearest wall of
/// a point in free space: the nearest point of any other blocked box is shared with a blocked
/// neighbour box on the side facing the point, and following those neighbours ends at one with
/// a free neighbour.
bool is_wall_face(const Grid& g, int x, int y) {
  return g.is_free(x + 1, y) || g.is_free(x - 1, y) || g.is_free(x, y + 1) || g.is_free(x, y - 1);
}

/// The cells whose closed boxes hold sample coordinate `s` (at s / 2 cells) along one axis: one
/// for a cell centre (odd s), the two either side of a cell edge (even s).
std::pair<int, int> cells_at(int s) { return s % 2 != 0 ? std::pair{s / 2, s / 2} : std::pair{s / 2 - 1, s / 2}; }

/// What a sample touching a blocked cell holds: kInside when every cell whose closed box holds
/// the sample's half-cell square is blocked or outside, else 0.
float sample_at_wall(const Grid& g, int sx, int sy) {
  const auto [x0, x1] = cells_at(sx);
  const auto [y0, y1] = cells_at(sy);
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (g.is_free(x, y)) return 0.0f;
  return kInside;
}

/// For row j of the table: the samples i of it within [-reach, reach] are nearer than `cap` to
/// the box, the others cannot lower a stored distance (none is above the cap).
std::array<int, kSide> row_reaches(const std::array<float, kSide * kSide>& table, double cap) {
  std::array<int, kSide> out{};
  for (int j = 0; j < kSide; ++j) {
    int reach = -1;
    for (int i = 0; i <= kSampleReach; ++i)
      if (table[static_cast<size_t>(j * kSide + kSampleReach + i)] < cap) reach = i;
    out[static_cast<size_t>(j)] = reach;
  }
  return out;
}

}  // namespace

ClearanceField::ClearanceField(const Grid& grid) : width_(grid.width()), height_(grid.height()) {
  const int sw = 2 * width_ + 1, sh = 2 * height_ + 1;
  dist_.assign(static_cast<size_t>(sw) * static_cast<size_t>(sh), 0.0f);
  fill(grid, 0, 0, sw - 1, sh - 1);
}

Status ClearanceField::update(const Grid& grid, const CellRect& changed) {
  if (!fits(grid))
    return fail(StatusCode::invalid_argument, "the grid is " + std::to_string(grid.width()) + "x" + std::to_string(grid.height()) +
                                                  ", the clearance field was built for " + std::to_string(width_) + "x" +
                                                  std::to_string(height_));
  if (changed.max.x < changed.min.x || changed.max.y < changed.min.y)
    return fail(StatusCode::invalid_argument, "changed rectangle is empty (max below min)");
  const int x0 = std::max(changed.min.x, 0), y0 = std::max(changed.min.y, 0);
  const int x1 = std::min(changed.max.x, width_ - 1), y1 = std::min(changed.max.y, height_ - 1);
  if (x0 > x1 || y0 > y1) return fail(StatusCode::out_of_bounds, "changed rectangle lies outside the map");
  // A changed cell changes the samples touching the cells around it (sample_at_wall) and the
  // wall faces of its 4-neighbours, whose boxes reach kSampleReach samples from their centres.
  const int sw = 2 * width_ + 1, sh = 2 * height_ + 1;
  fill(grid, std::max(2 * (x0 - 1) + 1 - kSampleReach, 0), std::max(2 * (y0 - 1) + 1 - kSampleReach, 0),
       std::min(2 * (x1 + 1) + 1 + kSampleReach, sw - 1), std::min(2 * (y1 + 1) + 1 + kSampleReach, sh - 1));
  return ok_status();
}

void ClearanceField::fill(const Grid& grid, int sx0, int sy0, int sx1, int sy1) {
  const int sw = 2 * width_ + 1;
  const double cap = kReach + 0.5;  // a wall more than kSampleReach samples away is at least this far
  auto at = [&](int sx, int sy) -> float& { return dist_[static_cast<size_t>(sy) * static_cast<size_t>(sw) + static_cast<size_t>(sx)]; };
  // Every sample starts at its distance to the map's outside (capped); those touching a blocked
  // cell at 0 or kInside.
  for (int sy = sy0; sy <= sy1; ++sy) {
    const double y = 0.5 * sy, across = std::min({cap, y, height_ - y});
    for (int sx = sx0; sx <= sx1; ++sx) at(sx, sy) = static_cast<float>(std::min({across, 0.5 * sx, width_ - 0.5 * sx}));
  }
  // The cells whose samples (2 b .. 2 b + 2) or whose box reach (2 b + 1 +- kSampleReach) meet
  // the window.
  const int bx0 = std::max((sx0 - 1 - kSampleReach) / 2 - 1, 0), bx1 = std::min((sx1 + kSampleReach) / 2 + 1, width_ - 1);
  const int by0 = std::max((sy0 - 1 - kSampleReach) / 2 - 1, 0), by1 = std::min((sy1 + kSampleReach) / 2 + 1, height_ - 1);
  for (int by = by0; by <= by1; ++by)
    for (int bx = bx0; bx <= bx1; ++bx) {
      if (grid.is_free(bx, by)) continue;
      for (int sy = std::max(2 * by, sy0); sy <= std::min(2 * by + 2, sy1); ++sy)
        for (int sx = std::max(2 * bx, sx0); sx <= std::min(2 * bx + 2, sx1); ++sx) at(sx, sy) = sample_at_wall(grid, sx, sy);
    }
  // Each wall face lowers the samples around it to their distance from its box (kInside stays:
  // it is below every distance), a row at a time and only where that is below the cap. min()
  // does not care about the order, so a window filled again equals the whole map filled.
  static const std::array<float, kSide * kSide> table = offset_distances();
  static const std::array<int, kSide> reaches = row_reaches(table, cap);
  for (int by = by0; by <= by1; ++by)
    for (int bx = bx0; bx <= bx1; ++bx) {
      if (grid.is_free(bx, by) || !is_wall_face(grid, bx, by)) continue;
      const int cx = 2 * bx + 1, cy = 2 * by + 1;  // the sample at the cell's centre
      for (int j = std::max(-kSampleReach, sy0 - cy); j <= std::min(kSampleReach, sy1 - cy); ++j) {
        const int reach = reaches[static_cast<size_t>(j + kSampleReach)];
        const int i0 = std::max(-reach, sx0 - cx), i1 = std::min(reach, sx1 - cx);
        float* row = dist_.data() + static_cast<size_t>(cy + j) * static_cast<size_t>(sw) + cx;
        const float* box = table.data() + (j + kSampleReach) * kSide + kSampleReach;
        for (int i = i0; i <= i1; ++i) row[i] = std::min(row[i], box[i]);
      }
    }
}

namespace {

/// The sample nearest to p and the distance of p from it; false outside the map (NaN too).
/// For p inside, truncating 2 p + 1/2 rounds to the nearest sample with one conversion per
/// axis (these lookups are the inner loop of the planners' and the smoother's checks).
bool locate(Vec2 p, int width, int height, size_t& k, double& offset) {
  if (!(p.x >= 0.0 && p.y >= 0.0 && p.x < width && p.y < height)) return false;
  const int sx = static_cast<int>(2.0 * p.x + 0.5), sy = static_cast<int>(2.0 * p.y + 0.5);
  k = static_cast<size_t>(sy) * static_cast<size_t>(2 * width + 1) + static_cast<size_t>(sx);
  offset = glm::length(p - Vec2(0.5 * sx, 0.5 * sy));
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
  // The upper bound: kMargin inside walls (p is in the closed box of a blocked cell), none where
  // the field is capped.
  const double upper = stored < 0.0 ? kMargin : stored >= kReach + 0.5 - 1e-3 ? inf : stored + off + kMargin;
  return Bounds{stored - off - kMargin, upper};
}

double ClearanceField::fine_lower_bound(Vec2 p) const {
  if (width_ <= 0 || !(p.x >= 0.0 && p.y >= 0.0 && p.x < width_ && p.y < height_)) return -1.0;
  // The half-cell square holding p; its corners are samples (p.x < width_: sx + 1 <= 2 width_).
  const int sx = static_cast<int>(2.0 * p.x), sy = static_cast<int>(2.0 * p.y);
  const size_t row = static_cast<size_t>(2 * width_ + 1);
  const float* near = dist_.data() + static_cast<size_t>(sy) * row + static_cast<size_t>(sx);
  const float* far = near + row;
  // p's offsets from the corners: fx, fy from the lower ones (in [0, 0.5)), gx, gy from the upper.
  // Each difference is exact (Sterbenz), so the nearest sample's term is bounds().lower bit for
  // bit and this bound never falls below it.
  const double fx = p.x - 0.5 * sx, fy = p.y - 0.5 * sy, gx = 0.5 - fx, gy = 0.5 - fy;
  const double fx2 = fx * fx, fy2 = fy * fy, gx2 = gx * gx, gy2 = gy * gy;
  const double a = near[0] - std::sqrt(fx2 + fy2), b = near[1] - std::sqrt(gx2 + fy2);
  const double c = far[0] - std::sqrt(fx2 + gy2), d = far[1] - std::sqrt(gx2 + gy2);
  const double ab = a > b ? a : b, cd = c > d ? c : d;
  return (ab > cd ? ab : cd) - kMargin;
}

double ClearanceField::lower_bound_for(Vec2 p, double want) const {
  const double lower = lower_bound(p);
  return lower >= want ? lower : std::max(lower, fine_lower_bound(p));
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

namespace {

/// segment_clear() with the field, `lower(q, want)` a lower bound of q's distance to the walls
/// (it need not look further once it has found `want`).
template <class Lower>
bool traced_segment_clear(const Grid& grid, const ClearanceField& field, Vec2 a, Vec2 b, double radius, Lower&& lower) {
  if (!field.fits(grid) || !(radius > 0.0) || !std::isfinite(radius) || !is_finite(a) || !is_finite(b))
    return segment_clear(grid, a, b, radius);
  // An end's disc overlapping a wall makes the capsule overlap it.
  if (field.upper_bound(a) < radius - kRefereeSlack || field.upper_bound(b) < radius - kRefereeSlack) return false;
  const Vec2 d = b - a;
  const double len = glm::length(d);
  double t = 0.0;  // distance from a covered so far [cells]
  for (;;) {
    const Vec2 q = len > 0.0 ? a + d * (t / len) : a;
    const double room = lower(q, radius + kMinStride) - radius;  // every point within room of q is clear
    if (room < kMinStride) break;
    t += room;
    if (t >= len) return true;
  }
  return segment_clear(grid, a, b, radius);
}

}  // namespace

bool segment_clear(const Grid& grid, const ClearanceField& field, Vec2 a, Vec2 b, double radius) {
  return traced_segment_clear(grid, field, a, b, radius, [&](Vec2 q, double) { return field.lower_bound(q); });
}

bool segment_clear_fine(const Grid& grid, const ClearanceField& field, Vec2 a, Vec2 b, double radius) {
  return traced_segment_clear(grid, field, a, b, radius, [&](Vec2 q, double want) { return field.lower_bound_for(q, want); });
}

namespace detail {

bool segment_clear_fine(const Grid& grid, const ClearanceField& field, FieldLook& a, FieldLook& b, double radius) {
  // traced_segment_clear() step for step, its first lookups at the ends answered from the looks.
  if (!field.fits(grid) || !(radius > 0.0) || !std::isfinite(radius) || !is_finite(a.p) || !is_finite(b.p))
    return segment_clear(grid, a.p, b.p, radius);
  if (a.bounds.upper < radius - kRefereeSlack || b.bounds.upper < radius - kRefereeSlack) return false;
  const Vec2 d = b.p - a.p;
  const double len = glm::length(d);
  double t = 0.0;
  for (;;) {
    // (At t = 0 the point is a itself: a + d * 0 is a, but for the sign of a zero.)
    const double lower = t == 0.0 ? a.lower_for(field, radius + kMinStride)
                                  : field.lower_bound_for(len > 0.0 ? a.p + d * (t / len) : a.p, radius + kMinStride);
    const double room = lower - radius;
    if (room < kMinStride) break;
    t += room;
    if (t >= len) return true;
  }
  return segment_clear(grid, a.p, b.p, radius);
}

}  // namespace detail

}  // namespace pathlab
