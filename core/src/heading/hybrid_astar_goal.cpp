// Fast failure for goal poses that cannot be entered (issue 16): a goal at the closed end of a
// corridor narrower than the turning circle, facing out of it, is reachable for a unit that
// turns on the spot, so the 2D check passes and Hybrid A* used to expand every pose of the map
// (0.4-2.5 s on 256 x 256) before giving up. A small backward flood from the goal tells first.

#include <cmath>
#include <queue>
#include <set>
#include <vector>

#include "heading/heading_internal.hpp"

namespace pathlab::detail {
namespace {

struct FloodState {
  Pose pose;
  int32_t room;  // Chebyshev clearance of the pose's cell (SegmentChecker::rings)
  int32_t order;
  bool operator<(const FloodState& b) const { return room != b.room ? room < b.room : order > b.order; }
};

}  // namespace

GoalPocket goal_pocket(const Grid& grid, const SegmentChecker& checker, const Pose& goal, const PocketDef& def) {
  GoalPocket out;
  const int bins = 72;
  const double bin = 2.0 * kPi / bins;
  // Quarter cells: a step may be shorter than a cell, and must not land in its own bin.
  const int64_t qw = 4 * static_cast<int64_t>(grid.width());
  auto key = [&](const Pose& q) {
    int b = static_cast<int>(std::lround(wrap_angle(q.heading) / bin)) % bins;
    if (b < 0) b += bins;
    const auto qx = static_cast<int64_t>(std::floor(4.0 * q.pos.x)), qy = static_cast<int64_t>(std::floor(4.0 * q.pos.y));
    return (qy * qw + qx) * bins + b;
  };
  auto room = [&](const Pose& q) {
    const Cell c = cell_of(q.pos);
    return checker.rings(grid.index(c.x, c.y));
  };
  // Open space: a cell whose clearance holds the whole turning circle and the unit around it.
  const double open_room = 2.0 * def.turning_radius + checker.agent_radius() + 2.0;
  // Far from the goal: the flood left the goal's pocket (the check is about pockets, not about
  // the whole map, where one step length cannot stand for every curve a search may use).
  const double far = 2.0 * def.turning_radius + 4.0 * def.step + 1.0;
  const Cell start_cell = cell_of(def.start);
  std::set<int64_t> seen{key(goal)};
  std::priority_queue<FloodState> open;  // most room first: the flood heads for open space
  int32_t order = 0;
  open.push({goal, room(goal), order++});
  while (!open.empty()) {
    const FloodState s = open.top();
    open.pop();
    ++out.states;
    if (def.meter != nullptr && out.states % 256 == 0 && def.meter->check_clock() != BudgetStop::none) {
      out.stopped = true;
      return out;
    }
    if (s.room >= open_room || glm::length(s.pose.pos - goal.pos) > far || cell_of(s.pose.pos) == start_cell ||
        out.states > def.max_states)
      return out;
    // Predecessors: the poses from which one step driven forward (or, with reverse, backward)
    // ends at this one: drive it the other way from here, with each steering.
    for (int gear = -1; gear <= (def.allow_reverse ? 1 : -1); gear += 2) {
      const Gear g = gear > 0 ? Gear::forward : Gear::reverse;
      for (int steer = -1; steer <= 1; ++steer) {
        const Segment seg = steer == 0 ? line_from_pose(s.pose, def.step, g)
                                       : arc_from_pose(s.pose, def.turning_radius, steer, def.step, g);
        const Pose to = segment_end(seg);
        if (!grid.contains(to.pos) || to.pos.x >= grid.width() || to.pos.y >= grid.height()) continue;
        if (seen.count(key(to)) != 0 || !checker.clear(seg)) continue;
        seen.insert(key(to));
        open.push({to, room(to), order++});
      }
    }
  }
  out.boxed_in = true;  // every way into the goal ends within a few steps, away from open space
  return out;
}

}  // namespace pathlab::detail
