#include "pathlab/collision.hpp"

#include "grid/center_line_walk.hpp"
#include "grid/grid_search_internal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace pathlab {

Status check_agent_radius(double radius) {
  if (radius >= 0.0 && radius <= kMaxAgentRadius) return ok_status();
  return fail(StatusCode::invalid_argument, "agent radius must be in [0, " +
                                                std::to_string(static_cast<int>(kMaxAgentRadius)) +
                                                "] cells, got " + std::to_string(radius));
}

namespace {

constexpr double kLatticeEps = 1e-9;  // how close to a grid line counts as "on" it [Units: cells]

/// The columns (or rows) of closed cells that contain coordinate v: one, or two on a grid line.
int covering_range(double v, int& lo) {
  const double r = std::round(v);
  if (std::abs(v - r) <= kLatticeEps) {
    lo = static_cast<int>(r) - 1;
    return 2;
  }
  lo = static_cast<int>(std::floor(v));
  return 1;
}

/// Radius-0 admissibility of one point: it lies in some free closed cell, and it is not a
/// corner where the free cells around it are exactly one diagonal pair (a pinch point).
bool point_admissible(const Grid& g, Vec2 p) {
  int cx, cy;
  const int nx = covering_range(p.x, cx);
  const int ny = covering_range(p.y, cy);
  if (nx == 2 && ny == 2) {
    const bool a = g.is_free(cx, cy), b = g.is_free(cx + 1, cy);
    const bool c = g.is_free(cx, cy + 1), d = g.is_free(cx + 1, cy + 1);
    const int n = a + b + c + d;
    if (n == 0) return false;
    if (n == 2 && ((a && d) || (b && c))) return false;  // two blocked cells touch only here
    return true;
  }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if (g.is_free(cx + i, cy + j)) return true;
  return false;
}

/// Cheapest cost multiplier among the free closed cells containing p (inf if none).
double point_cost(const Grid& g, Vec2 p) {
  int cx, cy;
  const int nx = covering_range(p.x, cx);
  const int ny = covering_range(p.y, cy);
  double best = std::numeric_limits<double>::infinity();
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if (g.is_free(cx + i, cy + j)) best = std::min(best, static_cast<double>(g.cost(cx + i, cy + j)));
  return best;
}

/// Walks the parameters t in (0, 1) where segment a-b crosses grid lines, in increasing order,
/// by merging the x and y crossings (no sorting, so callers can stop early). Crossings closer
/// than kLatticeEps (in length) to the previous one or to an end are merged away.
class CrossingWalker {
 public:
  CrossingWalker(Vec2 a, Vec2 b) {
    const Vec2 d = b - a;
    const double len = glm::length(d);
    eps_ = len > 0 ? kLatticeEps / len : 1.0;
    for (int axis = 0; axis < 2; ++axis) {
      const double p0 = a[axis], dp = d[axis];
      if (dp == 0.0) {
        next_[axis] = 2.0;
        continue;
      }
      // First grid line strictly beyond p0 in the direction of travel.
      k_[axis] = dp > 0 ? std::floor(p0) + 1.0 : std::ceil(p0) - 1.0;
      step_[axis] = dp > 0 ? 1.0 : -1.0;
      p0_[axis] = p0;
      dp_[axis] = dp;
      next_[axis] = (k_[axis] - p0) / dp;
    }
  }
  /// Next crossing parameter, or 1.0 when there are no more.
  double next() {
    for (;;) {
      const int axis = next_[0] <= next_[1] ? 0 : 1;
      const double t = next_[axis];
      if (t >= 1.0 - eps_) return 1.0;
      k_[axis] += step_[axis];
      next_[axis] = (k_[axis] - p0_[axis]) / dp_[axis];
      if (t > eps_ && t - last_ > eps_) {
        last_ = t;
        return t;
      }
    }
  }

 private:
  double eps_ = 0, last_ = 0;
  double next_[2] = {2.0, 2.0}, k_[2] = {0, 0}, step_[2] = {0, 0}, p0_[2] = {0, 0}, dp_[2] = {1, 1};
};

bool segment_clear_point_agent(const Grid& g, Vec2 a, Vec2 b) {
  if (!point_admissible(g, a)) return false;
  CrossingWalker walk(a, b);
  const Vec2 d = b - a;
  double t0 = 0.0;
  for (;;) {
    const double t1 = walk.next();
    if (!point_admissible(g, a + d * (0.5 * (t0 + t1)))) return false;
    if (!point_admissible(g, t1 == 1.0 ? b : a + d * t1)) return false;
    if (t1 == 1.0) return true;
    t0 = t1;
  }
}

bool blocked_or_outside(const Grid& g, int x, int y) { return !g.is_free(x, y); }

bool segment_clear_disc(const Grid& g, Vec2 a, Vec2 b, double r) {
  // The map's outside is a wall: the capsule must stay inside the map.
  const double lim = r - kClearanceTolerance;
  if (std::min(a.x, b.x) < lim || std::min(a.y, b.y) < lim || std::max(a.x, b.x) > g.width() - lim ||
      std::max(a.y, b.y) > g.height() - lim) {
    return false;
  }
  // Sweep the columns the capsule overlaps; in each, only the rows near the segment.
  const double xmin = std::min(a.x, b.x), xmax = std::max(a.x, b.x);
  const int c0 = static_cast<int>(std::floor(xmin - r)), c1 = static_cast<int>(std::floor(xmax + r));
  const Vec2 d = b - a;
  for (int c = c0; c <= c1; ++c) {
    double ylo, yhi;
    if (d.x == 0.0) {
      ylo = std::min(a.y, b.y);
      yhi = std::max(a.y, b.y);
    } else {
      const double xa = std::clamp(static_cast<double>(c) - r, xmin, xmax);
      const double xb = std::clamp(static_cast<double>(c + 1) + r, xmin, xmax);
      const double ya = a.y + (xa - a.x) / d.x * d.y, yb = a.y + (xb - a.x) / d.x * d.y;
      ylo = std::min(ya, yb);
      yhi = std::max(ya, yb);
    }
    const int r0 = static_cast<int>(std::floor(ylo - r)), r1 = static_cast<int>(std::floor(yhi + r));
    for (int row = r0; row <= r1; ++row) {
      if (!blocked_or_outside(g, c, row)) continue;
      if (segment_box_distance(a, b, Vec2(c, row), Vec2(c + 1, row + 1)) < lim) return false;
    }
  }
  return true;
}

double point_segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double l2 = glm::dot(d, d);
  double t = l2 > 0 ? glm::dot(p - a, d) / l2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  return glm::length(p - (a + d * t));
}

double point_box_distance(Vec2 p, Vec2 lo, Vec2 hi) {
  const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
  const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
  return std::sqrt(dx * dx + dy * dy);
}

/// segment_clear_disc(g, p, p, r), the same answer, about four times faster: the same cells
/// (the capsule's columns and rows for a = b), each judged by its distance to p, which is what
/// segment_box_distance() gives for a segment of zero length (the point's own distance is one
/// of the candidates it takes the least of, and no corner is nearer). The smoother's word
/// tracing asks this near every wall it passes.
bool disc_clear(const Grid& g, Vec2 p, double r) {
  const double lim = r - kClearanceTolerance;
  if (p.x < lim || p.y < lim || p.x > g.width() - lim || p.y > g.height() - lim) return false;
  const int c0 = static_cast<int>(std::floor(p.x - r)), c1 = static_cast<int>(std::floor(p.x + r));
  const int r0 = static_cast<int>(std::floor(p.y - r)), r1 = static_cast<int>(std::floor(p.y + r));
  for (int c = c0; c <= c1; ++c)
    for (int row = r0; row <= r1; ++row)
      if (blocked_or_outside(g, c, row) && point_box_distance(p, Vec2(c, row), Vec2(c + 1, row + 1)) < lim)
        return false;
  return true;
}

}  // namespace

double segment_box_distance(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
  // Liang-Barsky clip: if any part of the segment lies in the box, the distance is 0.
  double t0 = 0.0, t1 = 1.0;
  const Vec2 d = b - a;
  bool meets = true;
  for (int axis = 0; axis < 2 && meets; ++axis) {
    const double p0 = a[axis], dp = d[axis];
    if (dp == 0.0) {
      if (p0 < lo[axis] || p0 > hi[axis]) meets = false;
    } else {
      double ta = (lo[axis] - p0) / dp, tb = (hi[axis] - p0) / dp;
      if (ta > tb) std::swap(ta, tb);
      t0 = std::max(t0, ta);
      t1 = std::min(t1, tb);
      if (t0 > t1) meets = false;
    }
  }
  if (meets) return 0.0;
  // Disjoint convex sets: the closest pair has a vertex of one of them.
  double best = std::min(point_box_distance(a, lo, hi), point_box_distance(b, lo, hi));
  const Vec2 corners[4] = {lo, Vec2(hi.x, lo.y), hi, Vec2(lo.x, hi.y)};
  for (const Vec2& c : corners) best = std::min(best, point_segment_distance(c, a, b));
  return best;
}

bool point_clear(const Grid& grid, Vec2 p, double radius) {
  if (!is_finite(p) || !std::isfinite(radius) || radius < 0) return false;
  if (radius <= 0.0) return grid.contains(p) && point_admissible(grid, p);
  return disc_clear(grid, p, radius);
}

bool segment_clear(const Grid& grid, Vec2 a, Vec2 b, double radius) {
  if (!is_finite(a) || !is_finite(b) || !std::isfinite(radius) || radius < 0) return false;
  if (radius > 0.0) return segment_clear_disc(grid, a, b, radius);
  if (!grid.contains(a) || !grid.contains(b)) return false;
  return segment_clear_point_agent(grid, a, b);
}

int first_blocked_segment(const Grid& grid, std::span<const Vec2> points, double radius) {
  if (points.size() == 1) return point_clear(grid, points[0], radius) ? -1 : 0;
  for (size_t i = 0; i + 1 < points.size(); ++i)
    if (!segment_clear(grid, points[i], points[i + 1], radius)) return static_cast<int>(i);
  return -1;
}

bool polyline_clear(const Grid& grid, std::span<const Vec2> points, double radius) {
  return first_blocked_segment(grid, points, radius) < 0;
}

double segment_cost(const Grid& grid, Vec2 a, Vec2 b) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (!segment_clear(grid, a, b, 0.0)) return inf;
  CrossingWalker walk(a, b);
  const Vec2 d = b - a;
  const double len = glm::length(d);
  double total = 0.0, t0 = 0.0;
  for (;;) {
    const double t1 = walk.next();
    total += (t1 - t0) * len * point_cost(grid, a + d * (0.5 * (t0 + t1)));
    if (t1 == 1.0) return total;
    t0 = t1;
  }
}

double center_line_cost(const Grid& grid, Cell a, Cell b) {
  if (!grid.is_free(a) || !grid.is_free(b)) return -1.0;
  // The cell the walk stands on, looked up with the grid's bounds checks.
  struct GridCursor {
    const Grid& grid;
    int x, y;
    double cost() const { return grid.cost(x, y); }
    bool free() const { return grid.is_free(x, y); }
    bool free_at(int dx, int dy) const { return grid.is_free(x + dx, y + dy); }
    void move(int dx, int dy) { x += dx, y += dy; }
  } at{grid, a.x, a.y};
  return detail::walk_center_line(a, b, at);
}

namespace detail {

bool cell_passable(const Grid& grid, int x, int y, double radius) {
  if (!grid.is_free(x, y)) return false;
  if (!(radius > 0.5)) return true;
  const int w = grid.width(), h = grid.height();
  const double lim = radius - kClearanceTolerance;
  const int reach = static_cast<int>(std::ceil(radius));
  const Vec2 c(x + 0.5, y + 0.5);
  if (c.x < lim || c.y < lim || c.x > w - lim || c.y > h - lim) return false;
  for (int j = -reach; j <= reach; ++j) {
    for (int i = -reach; i <= reach; ++i) {
      if (grid.is_free(x + i, y + j)) continue;
      if (point_box_distance(c, Vec2(x + i, y + j), Vec2(x + i + 1, y + j + 1)) < lim) return false;
    }
  }
  return true;
}

}  // namespace detail

std::vector<uint8_t> passable_cells(const Grid& grid, double radius) {
  const int w = grid.width(), h = grid.height();
  std::vector<uint8_t> out(static_cast<size_t>(grid.cell_count()), 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out[static_cast<size_t>(grid.index(x, y))] = detail::cell_passable(grid, x, y, radius);
  return out;
}

}  // namespace pathlab
