// Room beside walls for the crowd's wide units (issues 24 and 27). A grid route runs through
// cell centres; one along a wall or round a doorway's jamb passes 0.5 cells from the wall, which
// leaves a car or a tank (radius 0.45) 0.05 cells. Pushed off that line by the units round it,
// its forward move was clipped by the corner and the units behind kept it from backing off:
// bench512's longest locks (16-26 s) were such units pinned at wall corners. Two remedies:
//
// - The route search of a unit whose radius leaves little room at a cell beside a wall pays
//   extra for such cells, the more the less room (a clearance cost, after the clearance idea of
//   Harabor and Botea, "Hierarchical Path Planning for Multi-Size Agents in Heterogeneous
//   Environments", 2008). Where the passage is wide enough its route keeps a cell off the walls;
//   every re-plan (search, planner, detour) searches on those costs, so none puts it back.
// - A vehicle whose move is clipped by a wall or a corner slides along the wall's tangent there
//   instead of stopping (wall_slide), as the axis-aligned tries already do at a straight wall.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "crowd/crowd_impl.hpp"

namespace pathlab {
namespace {

/// A unit with less room than this beside a wall at a cell's centre (0.5 cells less its radius)
/// is a wide one: it gets the clearance cost. Persons (radius 0.3, 0.2 cells of room) do not,
/// so their routes and the large crowds' costs stay as they were. [Units: cells]
constexpr double kTightRoom = 0.15;
/// The clearance cost starts below this much room between the unit's disc at a cell's centre
/// and the nearest wall. [Units: cells]
constexpr double kRoomMargin = 0.6;
/// Added to the cost multiplier of a cell with no room at all, falling linearly to 0 at
/// kRoomMargin: a car (radius 0.45) pays +1.83 next to a wall (0.05 room) and +1.14 at a
/// corner's diagonal cell (0.26 room), a bear (0.4) +1.67 and +0.98, so a route along a wall
/// or round a corner moves a cell off it wherever the way is two cells wide or more. A way one
/// cell wide costs up to 2.8 times its length: a detour up to that much longer is taken instead.
/// (Measured on bench512 over six 300 s runs: +1.0 and a margin of 0.35 left longest locks of
/// 9-28 s, +2.0 and 0.6 7.7-12 s; +3.0 and 0.35 9.5-12.6 s.)
constexpr double kRoomCost = 2.0;
/// Room is measured up to this far: beyond, a cell is in the open for every unit. [Units: cells]
constexpr int kRoomReach = 1;
/// A blocked step slides along the wall when at least this share of it runs along the wall's
/// tangent (about 15 degrees off straight at the wall).
constexpr double kSlideAlong = 0.25;
/// A vehicle this close to a wall (its disc's gap) and held within lock_distance this long
/// plans its motion as sliding along the wall (slide_normal). [Units: cells, s]
constexpr double kSlideTouch = 0.05;
constexpr double kSlideAfter = 1.0;

}  // namespace

bool CrowdImpl::needs_clearance(double radius) { return 0.5 - radius < kTightRoom; }

void CrowdImpl::index_wall_room() {
  // Per cell, the distance from its centre to the nearest blocked cell (or the map's outside)
  // within kRoomReach cells, capped there: cells farther from walls never pay.
  const int w = grid_.width(), h = grid_.height();
  wall_room_.assign(static_cast<size_t>(w) * static_cast<size_t>(h), static_cast<float>(kRoomReach + 0.5));
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (!grid_.is_free(x, y)) continue;
      double best = kRoomReach + 0.5;
      for (int dy = -kRoomReach; dy <= kRoomReach; ++dy) {
        for (int dx = -kRoomReach; dx <= kRoomReach; ++dx) {
          if ((dx == 0 && dy == 0) || grid_.is_free(x + dx, y + dy)) continue;
          // From the centre to the blocked cell's box: 0.5 beside it, sqrt(0.5) at its corner.
          const double ex = std::max(0.0, std::abs(dx) - 0.5), ey = std::max(0.0, std::abs(dy) - 0.5);
          best = std::min(best, std::sqrt(ex * ex + ey * ey));
        }
      }
      wall_room_[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)] = static_cast<float>(best);
    }
  }
  wall_room_stale_ = false;
}

float CrowdImpl::clearance_cost(int x, int y, double radius) const {
  const double room = wall_room_[static_cast<size_t>(y) * static_cast<size_t>(grid_.width()) + static_cast<size_t>(x)] - radius;
  if (room >= kRoomMargin) return 0.0f;
  return static_cast<float>(kRoomCost * std::clamp((kRoomMargin - room) / kRoomMargin, 0.0, 1.0));
}

bool CrowdImpl::prepare_clearance(double radius) {
  if (!needs_clearance(radius)) return false;
  if (wall_room_stale_ || wall_room_.size() != grid_.costs().size()) index_wall_room();
  return true;
}

void CrowdImpl::add_clearance_costs(Grid& g, Cell origin, double radius) {
  if (!prepare_clearance(radius)) return;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const float c = g.cost(x, y);
      if (c == kBlocked) continue;
      const float extra = clearance_cost(origin.x + x, origin.y + y, radius);
      if (extra > 0.0f) g.set_cost(x, y, c + extra);
    }
  }
}

std::optional<Vec2> CrowdImpl::nearest_wall_point(Vec2 p, double reach) const {
  // The nearest point of a blocked cell (or of the map's outside) to p within `reach`.
  std::optional<Vec2> best;
  // Not finite: no cell to name (UBSan: NaN to int in the cell range below).
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(reach)) return best;
  double best_d = reach;
  const int x0 = static_cast<int>(std::floor(p.x - reach)), x1 = static_cast<int>(std::floor(p.x + reach));
  const int y0 = static_cast<int>(std::floor(p.y - reach)), y1 = static_cast<int>(std::floor(p.y + reach));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (grid_.is_free(x, y)) continue;
      const Vec2 q(std::clamp(p.x, static_cast<double>(x), x + 1.0), std::clamp(p.y, static_cast<double>(y), y + 1.0));
      const double d = glm::length(q - p);
      if (d < best_d) {
        best_d = d;
        best = q;
      }
    }
  }
  return best;
}

std::optional<Vec2> CrowdImpl::wall_slide(int id, Vec2 step) const {
  // The step's part along the tangent of the wall point nearest to the unit (a corner's, or a
  // straight wall's): the body keeps its distance from that point to first order and moves on
  // round the corner, where a car pinned there with units behind it stood for 16 s. The heading
  // is the one the move turned to within its turn rate, and the slide is no longer than the
  // step: no faster than the unit's speed. Only a step at least kSlideAlong along the tangent:
  // one nearly straight at the wall backs up instead (move()).
  const crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const Vec2 p0 = a.st.pose.pos;
  const double len = glm::length(step);
  // NaN too (a motion worked out from an absurd heading, 1e300 degrees); an infinite step or a
  // position that is not finite finds no wall (nearest_wall_point), so no slide either.
  if (!(len >= 1e-9)) return std::nullopt;
  const std::optional<Vec2> wall = nearest_wall_point(p0, a.def.unit.radius + len + 0.05);
  if (!wall) return std::nullopt;
  const Vec2 away = p0 - *wall;
  const double d = glm::length(away);
  if (d < 1e-9) return std::nullopt;
  const Vec2 tangent(-away.y / d, away.x / d);
  const double along = glm::dot(step, tangent);
  if (std::abs(along) < kSlideAlong * len) return std::nullopt;
  for (const double part : {1.0, 0.5}) {
    const Vec2 p = p0 + tangent * (along * part);
    bool wall_hit = false, unit_hit = false;
    if (place_ok(id, p, wall_hit, unit_hit)) return p;
  }
  return std::nullopt;
}

Vec2 CrowdImpl::slide_normal(const crowd::Agent& a) const {
  // Only a vehicle held a while: one driving freely keeps avoiding walls as before.
  if (a.holonomic || time() - a.lock_since < kSlideAfter) return Vec2(0.0);
  const double r = a.def.unit.radius;
  const std::optional<Vec2> wall = nearest_wall_point(a.st.pose.pos, r + kSlideTouch);
  if (!wall) return Vec2(0.0);
  const Vec2 away = a.st.pose.pos - *wall;
  const double d = glm::length(away);
  return d > 1e-9 ? away / d : Vec2(0.0);
}

}  // namespace pathlab
