// Reading a flow field (flow_field.hpp): the direction a unit goes where it stands, and its
// whole way to the goal, both smoothed by line of sight so that units do not zig-zag along the
// field's eight directions (Emerson 2013 smooths the same way with a line-of-sight pass).

#include <algorithm>
#include <cmath>
#include <limits>

#include "crowd/flow_field_steps.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/flow_field.hpp"

namespace pathlab {

using namespace flow_field_detail;

float FlowField::highest_cost_on(Vec2 p, Vec2 q) const noexcept {
  // The cells the segment runs through, in order (Amanatides and Woo, "A Fast Voxel Traversal
  // Algorithm for Ray Tracing", 1987); cells outside the map are skipped.
  Cell c = cell_of(p);
  const Cell end = cell_of(q);
  const Vec2 d = q - p;
  const int sx = d.x > 0.0 ? 1 : -1, sy = d.y > 0.0 ? 1 : -1;
  const double inf = std::numeric_limits<double>::infinity();
  const double dx = d.x != 0.0 ? std::abs(1.0 / d.x) : inf, dy = d.y != 0.0 ? std::abs(1.0 / d.y) : inf;
  double tx = d.x != 0.0 ? ((sx > 0 ? c.x + 1.0 : static_cast<double>(c.x)) - p.x) / d.x : inf;
  double ty = d.y != 0.0 ? ((sy > 0 ? c.y + 1.0 : static_cast<double>(c.y)) - p.y) / d.y : inf;
  float high = 0.0f;
  const int cap = std::abs(end.x - c.x) + std::abs(end.y - c.y) + 1;
  for (int k = 0; k <= cap; ++k) {
    if (in_bounds(c)) high = std::max(high, cost_[static_cast<size_t>(index(c))]);
    if (c == end) break;
    if (tx < ty) {
      c.x += sx;
      tx += dx;
    } else {
      c.y += sy;
      ty += dy;
    }
  }
  return high;
}

bool FlowField::in_sight(const Grid& grid, Vec2 p, Vec2 q, double radius) const {
  if (!segment_clear(grid, p, q, radius)) return false;
  if (!def_.sight_within_costs) return true;
  auto cost_at = [&](Vec2 v) { return in_bounds(cell_of(v)) ? cost_[static_cast<size_t>(index(cell_of(v)))] : 0.0f; };
  return highest_cost_on(p, q) <= std::max(cost_at(p), cost_at(q));
}

size_t FlowField::farthest_in_sight(const Grid& grid, Vec2 p, const std::vector<Vec2>& way, size_t first,
                                    double radius) const {
  // Sight along a way downhill is lost once and rarely regained, so gallop (1, 2, 4, ... points
  // on) while the points are in sight, then halve the gap to the first one that is not: a few
  // checks per corner instead of one per cell. Any point returned is in sight (or `first`).
  if (first >= way.size() || !in_sight(grid, p, way[first], radius)) return first;
  size_t seen = first, hidden = way.size();
  for (size_t stride = 1; seen + stride < hidden; stride *= 2) {
    if (!in_sight(grid, p, way[seen + stride], radius)) {
      hidden = seen + stride;
      break;
    }
    seen += stride;
  }
  while (hidden - seen > 1) {
    const size_t mid = seen + (hidden - seen) / 2;
    if (in_sight(grid, p, way[mid], radius)) seen = mid;
    else hidden = mid;
  }
  return seen;
}

Cell FlowField::entry_cell(const Grid& grid, Vec2 p, double radius) const {
  const Cell c = cell_of(p);
  if (reachable(c)) return c;
  // A unit narrower than the field's radius may stand in a cell too tight for that radius.
  Cell best = c;
  double best_cost = kUnreached;
  for (int k = 0; k < 8; ++k) {
    const Cell m{c.x + kDx[k], c.y + kDy[k]};
    const double d = distance(m);
    if (d < best_cost && segment_clear(grid, p, cell_center(m), radius)) {
      best = m;
      best_cost = d;
    }
  }
  return best;
}

Vec2 FlowField::direction(const Grid& grid, Vec2 p, double radius) const {
  const Cell start = entry_cell(grid, p, radius);
  if (!reachable(start) || is_goal_[static_cast<size_t>(index(start))]) return Vec2(0.0);
  // The way downhill within sight_range, then the farthest of its cells in sight.
  std::vector<Vec2> way{cell_center(start)};
  double along = 0.0;
  for (Cell c = start; along < def_.sight_range;) {
    const Cell n = next_cell(c);
    if (n == c) break;
    along += glm::length(cell_center(n) - cell_center(c));
    way.push_back(cell_center(n));
    c = n;
  }
  const size_t j = farthest_in_sight(grid, p, way, 1, radius);
  Vec2 aim = way[j];
  // Not even the next cell in sight (p by a corner, off its cell's centre): back to the centre
  // first, which a disc of radius <= 0.5 always fits round in a free cell.
  if (j == 1 && glm::length(p - way[0]) > 1e-9 && !segment_clear(grid, p, way[1], radius) &&
      segment_clear(grid, p, way[0], radius)) {
    aim = way[0];
  }
  const Vec2 d = aim - p;
  const double len = glm::length(d);
  return len > 1e-12 ? d / len : Vec2(0.0);
}

std::vector<Vec2> FlowField::route(const Grid& grid, Vec2 from, Vec2 to, double radius) const {
  const Cell start = entry_cell(grid, from, radius);
  if (!reachable(start)) return {};
  const std::vector<Cell> cells = descent(start);
  std::vector<Vec2> way;
  way.reserve(cells.size() + 1);
  way.push_back(from);
  for (const Cell& c : cells) way.push_back(cell_center(c));
  // String pulling along the way: from each corner, the farthest point of the way in sight.
  std::vector<Vec2> out{from};
  for (size_t i = 0; i + 1 < way.size();) {
    const size_t j = farthest_in_sight(grid, way[i], way, i + 1, radius);
    out.push_back(way[j]);
    i = j;
  }
  // Then to `to`, from the earliest corner at the end that sees it (as the corners see: a
  // straight leg to `to` must not undo what sight_within_costs kept).
  while (out.size() >= 2 && in_sight(grid, out[out.size() - 2], to, radius)) out.pop_back();
  if (out.back() != to && segment_clear(grid, out.back(), to, radius)) out.push_back(to);
  return out;
}

}  // namespace pathlab
