// Drivable detours for units that cannot pivot (cars). When such a unit makes no progress with
// no unit near it, its route has a turn it cannot make in the room there: the crowd's route
// search knows the unit's radius, not its turning radius. The stretch of route ahead is then
// re-planned with Hybrid A* (Dolgov, Thrun, Montemerlo and Diebel 2008), reversing where the
// preset may, in a window of the map around the unit. Only for the built-in routes: a crowd
// with a route_planner drives that planner's routes alone (a unit's own planner, which knows
// its turning radius; the stuck unit asks it again from where it stands instead).

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"
#include "pathlab/det_math.hpp"
#include "pathlab/hybrid_astar.hpp"

namespace pathlab {
namespace {

constexpr double kDriveReach = 20.0;    ///< The detour ends at the last route waypoint this near. [Units: cells]
constexpr int kDriveMargin = 10;        ///< Window beyond the unit and that waypoint. [Units: cells]
constexpr double kRadiusSlack = 1.05;   ///< Planned turns this much wider than the tightest, to follow them. [Limit: >= 1]
constexpr double kDriveAlone = 2.0;     ///< No other unit within this gap. [Units: cells]
constexpr double kDriveSpacing = 0.5;   ///< Simulated time between two such plans in the crowd. [Units: s]
constexpr double kDriveRetry = 8.0;     ///< A unit whose plan found nothing tries again after this. [Units: s]
constexpr int64_t kDriveExpansions = 4000;
constexpr double kSampleStep = 0.5;     ///< Spacing of the detour's waypoints. [Units: cells]

double heading_of(Vec2 from, Vec2 to) { return dmath::atan2(to.y - from.y, to.x - from.x); }

/// The blocked cells of `grid` in the rectangle lo..hi, as a grid of its own.
Result<Grid> window_of(const Grid& grid, Cell lo, Cell hi) {
  auto window = Grid::create(hi.x - lo.x + 1, hi.y - lo.y + 1);
  if (!window) return window.error();
  for (int y = lo.y; y <= hi.y; ++y)
    for (int x = lo.x; x <= hi.x; ++x)
      if (grid.is_blocked(x, y)) window->set_blocked(x - lo.x, y - lo.y, true);
  return window;
}

}  // namespace

bool CrowdImpl::may_plan_drivable_route(const crowd::Agent& a) const {
  if (def_.route_planner) return false;  // every route comes from the unit's own planner
  const UnitDef& u = a.def.unit;
  if (a.holonomic || u.pivot_turn_rate > 0.0 || !(u.turning_radius > 0.0) || a.st.route.size() < 2) return false;
  // At most one such plan per kDriveSpacing of simulated time in the whole crowd, and none for
  // a while by a unit whose last one found nothing: a plan costs 5-30 ms, and a jammed crowd
  // of cars would run dozens in one step.
  const double t = time();
  if (t < next_drive_plan_ || t < a.next_drive) return false;
  // Only where walls alone hold it: among other units the usual remedies (giving way, detours
  // round them, traffic costs) know about them, and this plan would not.
  for (int j : a.st.neighbors) {
    const crowd::Agent& b = agents_[static_cast<size_t>(j)];
    if (glm::length(b.st.pose.pos - a.st.pose.pos) < u.radius + b.def.unit.radius + kDriveAlone) return false;
  }
  return static_cast<size_t>(std::max(1, a.st.next_waypoint)) < a.st.route.size();
}

bool CrowdImpl::plan_drivable_route(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  if (!may_plan_drivable_route(a)) return false;
  const UnitDef& u = a.def.unit;
  const Vec2 pos = a.st.pose.pos;
  const std::vector<Vec2>& old = a.st.route;
  // The detour ends at the last waypoint within reach, heading along the route's next leg (or
  // the goal heading at the route's end).
  size_t k = static_cast<size_t>(std::max(1, a.st.next_waypoint));
  while (k + 1 < old.size() && glm::length(old[k + 1] - pos) <= kDriveReach) ++k;
  const Vec2 end = old[k];
  double end_heading = k + 1 < old.size() ? heading_of(end, old[k + 1]) : heading_of(old[k - 1], end);
  if (k + 1 == old.size() && a.def.goal_heading) end_heading = *a.def.goal_heading;
  const Cell c0 = cell_of(pos), c1 = cell_of(end);
  const Cell lo{std::max(0, std::min(c0.x, c1.x) - kDriveMargin), std::max(0, std::min(c0.y, c1.y) - kDriveMargin)};
  const Cell hi{std::min(grid_.width() - 1, std::max(c0.x, c1.x) + kDriveMargin),
                std::min(grid_.height() - 1, std::max(c0.y, c1.y) + kDriveMargin)};
  auto window = window_of(grid_, lo, hi);  // closed doors are walls in grid_
  if (!window) return false;
  HybridAStarOptions o = default_hybrid_astar_options();
  o.turning_radius = u.turning_radius * kRadiusSlack;
  o.agent_radius = u.radius;
  o.allow_reverse = u.can_reverse;
  o.max_expansions = kDriveExpansions;
  auto planner = HybridAStar::create(*window, o);
  if (!planner) return false;
  next_drive_plan_ = time() + kDriveSpacing;
  // One heading at the end, the route's: trying two more there (+-0.5 rad) arrived no more
  // cars in the measurements and tripled the cost (most of a plan is fixed: the goal-entry
  // check and the distance field).
  const Vec2 off(lo.x, lo.y);
  auto path = planner->plan(Pose{pos - off, a.st.pose.heading}, Pose{end - off, end_heading});
  auto samples = path && path->found ? path->path.sample(kSampleStep) : Result<std::vector<PathSample>>(Error{});
  if (!samples || samples->size() < 2) {
    a.next_drive = time() + kDriveRetry;
    return false;
  }
  std::vector<Vec2> route;
  for (const PathSample& s : *samples) route.push_back(s.state.pos + off);
  route.front() = pos;
  route.back() = end;
  route.insert(route.end(), old.begin() + static_cast<std::ptrdiff_t>(k) + 1, old.end());
  a.st.route = std::move(route);
  a.st.route_source = CrowdRouteSource::drive;
  a.st.next_waypoint = 1;
  ++a.m.replans;
  a.st.replan_cause = CrowdReplanCause::drive;
  index_route(a);
  a.best_remaining = remaining_route(a);
  mark_flow(id);
  return true;
}

}  // namespace pathlab
