// Routes of the crowd's units: planning with each unit's own radius, free slots around a
// shared goal, and the preferred velocity along the route (crowd_stuck.cpp: no progress).

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"
#include "pathlab/follow_path.hpp"
#include "pathlab/shortcut.hpp"

namespace pathlab {
namespace {

constexpr size_t kSpareSlots = 6;         ///< Free slots beyond one per unit, to move to when one is blocked.
constexpr double kLookahead = 0.75;       ///< Pursuit distance along the route. [Units: cells]
constexpr double kKeepRight = 0.3;        ///< Bias to the right near others. [Units: radians]
constexpr int kWindowMargin = 16;         ///< Planning window beyond start and goal. [Units: cells]
constexpr double kOnSpotDistance = 0.25;  ///< An arrived unit this close to its target is on its spot. [Units: cells]
constexpr double kKeepRightRange = 3.0;   ///< Gap within which the bias applies. [Units: cells]
constexpr double kDetourReach = 16.0;     ///< A detour round units rejoins the route this far along it (detour_rest). [Units: cells]
constexpr double kDetourFar = 96.0;       ///< ... when more than this much route is left; nearer, it goes to the target. [Units: cells]
constexpr double kJoinReach = 1.5;        ///< A re-planned unit joins its route within this much of its start. [Units: cells]

}  // namespace

Status CrowdImpl::check_goal(const UnitDef& unit, Vec2 goal, const std::string& what) const {
  if (!is_finite(goal)) return fail(StatusCode::invalid_argument, what + " is not finite");
  if (!grid_.contains(goal)) return fail(StatusCode::out_of_bounds, what + " is outside the map");
  if (!point_clear(base_, goal, unit.radius)) {
    return fail(StatusCode::blocked, what + " is not clear of walls for radius " + std::to_string(unit.radius).substr(0, 4));
  }
  return ok_status();
}

void CrowdImpl::join_group(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  for (size_t g = 0; g < groups_.size(); ++g) {
    if (glm::length(groups_[g].goal - a.def.goal) < 0.5) {
      groups_[g].members.push_back(id);
      a.group = static_cast<int>(g);
      return;
    }
  }
  crowd::GoalGroup g;
  g.goal = a.def.goal;
  g.members.push_back(id);
  a.group = static_cast<int>(groups_.size());
  groups_.push_back(std::move(g));
}

Result<GridPath> CrowdImpl::search_cells(Cell start, Cell goal, double radius, const std::vector<Cell>& extra) {
  // Plan in a window around start and goal first: the grid search prepares its whole grid per
  // query, which on a large map costs far more than the search itself. Only when the window
  // has no path is the whole map searched, and never for a detour round units (`extra`): one
  // that leaves the window is no detour, and at 10,000 units the whole-map searches of units
  // hemmed in at a door were most of the slowest steps (bench_crowd_scale).
  GridSearchOptions opt;
  opt.agent_radius = radius;
  opt.max_expansions = def_.plan_expansions;
  mark_settled();
  // Traffic costs for the direction of the whole trip (crowd_flow.cpp).
  Vec2 dir(goal.x - start.x, goal.y - start.y);
  const double dlen = glm::length(dir);
  dir = dlen > 0.0 ? dir / dlen : Vec2(0.0);
  const int margin = kWindowMargin + std::max(std::abs(start.x - goal.x), std::abs(start.y - goal.y)) / 2;
  const Cell lo{std::max(0, std::min(start.x, goal.x) - margin), std::max(0, std::min(start.y, goal.y) - margin)};
  const Cell hi{std::min(grid_.width() - 1, std::max(start.x, goal.x) + margin),
                std::min(grid_.height() - 1, std::max(start.y, goal.y) + margin)};
  const int w = hi.x - lo.x + 1, h = hi.y - lo.y + 1;
  if (2 * static_cast<int64_t>(w) * h < grid_.cell_count()) {
    if (local_grid_.width() != w || local_grid_.height() != h) local_grid_ = Grid::create(w, h).value();
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) local_grid_.set_cost(x, y, traffic_cost(lo.x + x, lo.y + y, dir));
    }
    add_clearance_costs(local_grid_, lo, radius);  // a wide unit keeps off the walls (crowd_clearance.cpp)
    for (const Cell& c : extra) {
      if (c.x >= lo.x && c.y >= lo.y && c.x <= hi.x && c.y <= hi.y) local_grid_.set_blocked(c.x - lo.x, c.y - lo.y, true);
    }
    local_finder_.reset(local_grid_);
    auto path = local_finder_.find_path(GridPlanner::astar, Cell{start.x - lo.x, start.y - lo.y},
                                        Cell{goal.x - lo.x, goal.y - lo.y}, opt);
    if (path && path->found) {
      window_origin_ = lo;
      window_used_ = true;
      return path;
    }
    if (!extra.empty()) return path;
  }
  window_origin_ = Cell{0, 0};
  window_used_ = false;
  avoid_grid_ = grid_;  // copied into the same storage
  fill_traffic_grid(-1, dir, radius);
  for (const Cell& c : extra) avoid_grid_.set_blocked(c.x, c.y, true);
  avoid_finder_.reset(avoid_grid_);
  return avoid_finder_.find_path(GridPlanner::astar, start, goal, opt);
}

void CrowdImpl::plan_route(int id, const std::vector<Cell>& extra_blocked) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const bool avoiding = !extra_blocked.empty();
  const double r = a.def.unit.radius;
  const Vec2 pos = a.st.pose.pos;
  const Vec2 target = a.st.target;
  // A detour round units standing in the way goes to the route a few cells on, not to the
  // target, and the route goes on from there as before (detour_rejoin).
  const std::vector<Vec2> rest = avoiding && !def_.route_planner ? detour_rest(a) : std::vector<Vec2>{};
  ++a.m.replans;
  a.st.next_waypoint = 1;
  if (def_.route_planner) {
    plan_provided_route(id, extra_blocked);
    return;
  }
  if (!avoiding && segment_clear(grid_, pos, target, r) && !straight_way_busy(pos, target)) {
    a.st.route = {pos, target};
    a.st.route_source = CrowdRouteSource::straight;
    a.st.waiting = false;
    if (!a.gave_up) a.st.why.clear();
    index_route(a);
    a.best_remaining = remaining_route(a);
    mark_flow(id);
    return;
  }
  if (!avoiding && plan_flow_route(id)) return;  // a large group's shared flow field (flow_field_crowd.cpp)
  auto path = search_cells(cell_of(pos), cell_of(avoiding && !rest.empty() ? rest.front() : target), r, extra_blocked);
  if (!path || !path->found) {
    if (avoiding) return;  // the caller falls back to the plain map
    a.st.route = {pos};
    a.st.route_source = CrowdRouteSource::none;
    a.st.next_waypoint = 0;
    a.st.waiting = true;
    a.route_tail.clear();
    a.st.why = "no route to the goal: " + (path ? path->reason : path.error().message);
    mark_flow(id);
    return;
  }
  if (avoiding) {
    // A detour around units: the raw cells (shortcuts on the map would cut through them).
    std::vector<Vec2> detour = path->points;
    for (Vec2& q : detour) q += Vec2(window_origin_.x, window_origin_.y);
    detour.front() = pos;
    if (rest.empty()) {
      if (segment_clear(grid_, detour.back(), target, r)) detour.push_back(target);
    } else {
      // The detour ends at the centre of the rejoin point's cell: the route goes on only from
      // where that point is in sight (else the caller plans afresh, as for no detour).
      if (!segment_clear(grid_, detour.back(), rest.front(), r)) return;
      detour.insert(detour.end(), rest.begin(), rest.end());
    }
    a.st.route = std::move(detour);
    a.st.route_source = CrowdRouteSource::detour;
  } else {
    // Smoothed on the grid the path was found on (the window: the shortcut pass also reads
    // its whole grid), then moved back to map coordinates.
    const Grid& g = window_used_ ? local_grid_ : avoid_grid_;  // with the traffic costs the search saw
    const Vec2 off(window_origin_.x, window_origin_.y);
    std::vector<Vec2> pts = splice_start(g, pos - off, path->points, r);
    if (pts.back() != target - off && segment_clear(g, pts.back(), target - off, r)) pts.push_back(target - off);
    auto cut = los_shortcut(g, pts, r);
    a.st.route = cut ? std::move(cut->points) : std::move(pts);
    for (Vec2& q : a.st.route) q += off;
    keep_right_in_passages(a.st.route, r);
    a.st.route_source = CrowdRouteSource::search;
  }
  if (a.st.route.size() < 2) a.st.next_waypoint = 0;
  a.st.waiting = false;
  if (!a.gave_up) a.st.why.clear();
  // Progress is measured on the new route from here on; a unit that was stuck stays stuck
  // until the new route shows progress.
  advance_waypoints(a);  // as the next step will: skipping a waypoint is not progress
  index_route(a);
  a.best_remaining = remaining_route(a);
  mark_flow(id);
}

void CrowdImpl::plan_provided_route(int id, const std::vector<Cell>& extra_blocked) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const Vec2 pos = a.st.pose.pos;
  const Vec2 target = a.st.target;
  // A detour round units standing in the way: the planner sees them as walls (only the crowd
  // knows them), without traffic costs, as the built-in detour.
  std::optional<Grid> blocked;
  if (!extra_blocked.empty()) {
    blocked = grid_;
    for (const Cell& c : extra_blocked) blocked->set_blocked(c.x, c.y, true);
    add_clearance_costs(*blocked, Cell{0, 0}, a.def.unit.radius);  // a detour keeps off the walls too
  }
  CrowdRouteQuery query{blocked ? *blocked : grid_, a.st.pose, target, a.def.goal_heading, a.def.unit, id};
  if (!blocked && fill_traffic_grid(id, target - pos, a.def.unit.radius)) query.traffic = &avoid_grid_;
  query.goal = a.def.goal;
  query.flow_group = !blocked && def_.flow_field_units > 0 && a.holonomic && a.slot < 0 && flow_group_large(a);
  bool field_read = false;  // whether the planner reads the group's field (then the crowd keeps it up to date)
  if (query.flow_group) {
    query.group_field = [this, &a, &field_read]() {
      field_read = true;
      return group_field(a);
    };
  }
  Result<std::vector<Vec2>> got = def_.route_planner(query);
  a.field_query = field_read;
  std::string why;
  if (!got) why = got.error().message;
  else if (got->empty()) why = "the route planner returned no points";
  else if (!std::all_of(got->begin(), got->end(), [](Vec2 q) { return is_finite(q); })) {
    why = "the route planner returned a point that is not finite";
  }
  if (!why.empty() && blocked) return;  // no detour: the caller re-plans on the plain map
  if (!why.empty()) {
    a.st.route = {pos};
    a.st.route_source = CrowdRouteSource::none;
    a.st.next_waypoint = 0;
    a.st.waiting = true;
    a.route_tail.clear();
    a.st.why = "no route to the goal: " + why;
    mark_flow(id);
    return;
  }
  std::vector<Vec2>& route = a.st.route;
  route = std::move(*got);
  // The route starts where the unit is and ends at its target: a grid planner starts and ends
  // at cell centres, an end point less than a cell off is moved when the way stays clear
  // (not added: a car would loop back for a step of a tenth of a cell).
  const double r = a.def.unit.radius;
  if (glm::length(route.front() - pos) > 1e-9) {
    if (route.size() >= 2 && glm::length(route.front() - pos) < 1.0 && segment_clear(grid_, pos, route[1], r)) {
      route.front() = pos;
    } else {
      route.insert(route.begin(), pos);
    }
  }
  if (glm::length(route.back() - target) > 1e-9) {
    const size_t n = route.size();
    if (n >= 2 && glm::length(route.back() - target) < 1.0 && segment_clear(grid_, route[n - 2], target, r)) {
      route.back() = target;
    } else if (segment_clear(grid_, route.back(), target, r)) {
      route.push_back(target);
    }
  }
  join_route_ahead(route, r);
  keep_right_in_passages(route, r);
  a.st.route_source = CrowdRouteSource::planner;
  a.st.next_waypoint = route.size() < 2 ? 0 : 1;
  a.st.waiting = false;
  if (!a.gave_up) a.st.why.clear();
  advance_waypoints(a);  // as the next step will: skipping a waypoint is not progress
  index_route(a);
  a.best_remaining = remaining_route(a);
  mark_flow(id);
}

std::vector<Vec2> CrowdImpl::detour_rest(const crowd::Agent& a) const {
  // The first route point at least kDetourReach along the route from the unit: a detour
  // searched to the far target crossed the whole map with its traffic costs for every unit
  // hemmed in at a door (20 ms each at 10,000 units); the units in the way stand within a
  // couple of cells, so a detour round them rejoins the route a little beyond.
  //
  // Only on a long way: nearer the target a detour to it may take another doorway (the
  // 2,000 persons through three doorways took 200 s instead of 181 with every detour
  // rejoining its route), and its search is cheap there.
  const std::vector<Vec2>& route = a.st.route;
  if (route.size() < 2 || a.st.waiting || remaining_route(a) <= kDetourFar) return {};
  size_t k = static_cast<size_t>(std::max(1, a.st.next_waypoint));
  double along = glm::length(route[k] - a.st.pose.pos);
  while (k + 1 < route.size() && along < kDetourReach) {
    along += glm::length(route[k + 1] - route[k]);
    ++k;
  }
  return std::vector<Vec2>(route.begin() + static_cast<std::ptrdiff_t>(k), route.end());
}

void CrowdImpl::join_route_ahead(std::vector<Vec2>& route, double radius) const {
  // A planner starts its route at the centre of the unit's cell: a unit re-planning from
  // beside that centre was sent back to it first. A heading unit then turned round, drove a
  // fraction of a cell back and turned round again; a bear hemmed in at a block's corner of
  // bench512 re-planned every 2 s and turned between the two for 15 s. The unit joins its
  // route at the route's point nearest to it within the first kJoinReach of the route, in
  // straight reach.
  // Only a route that starts by going back: a vehicle planner's route whose first leg is
  // sideways is the one it drives (a shortcut there would make a corner it cannot take).
  if (route.size() < 3) return;
  const Vec2 pos = route.front();
  auto backwards = [&](size_t k) { return k + 1 < route.size() && glm::dot(route[k] - pos, route[k + 1] - route[k]) < 0.0; };
  if (!backwards(1)) return;
  size_t best = 1;
  double best_d = glm::length(route[1] - pos);
  double arc = 0.0;
  for (size_t k = 2; k < route.size(); ++k) {
    arc += glm::length(route[k - 1] - route[k - 2]);
    if (arc > kJoinReach) break;
    const double d = glm::length(route[k] - pos);
    if (d < best_d && !backwards(k) && segment_clear(grid_, pos, route[k], radius)) {
      best_d = d;
      best = k;
    }
  }
  if (best > 1) route.erase(route.begin() + 1, route.begin() + static_cast<std::ptrdiff_t>(best));
}

bool CrowdImpl::slot_blocked_by_other_group(int id, Vec2 p) const {
  // Goals a little apart make slot rings that overlap: a slot where a unit of another group
  // has settled, or is bound for (its slot, or its own goal), can never be reached (a bear
  // waited a minute 0.25 cells from a slot 0.55 cells from another bear's). Units with goals of
  // their own count too: in a doorway scene (28 persons, 21 sent to one goal, the rest to goals
  // of their own 2 cells apart) a slot 0.29 cells from a person's own goal was handed out, and
  // the two pushed each other off for over a minute (5 of 27 not arrived at 200 s).
  const crowd::Agent& a = agents_[static_cast<size_t>(id)];
  for (size_t j = 0; j < agents_.size(); ++j) {
    const crowd::Agent& o = agents_[j];
    if (static_cast<int>(j) == id || o.group == a.group) continue;
    const double clear = a.def.unit.radius + o.def.unit.radius + 0.05;
    if (o.st.reached && glm::length(o.st.pose.pos - p) < clear) return true;
    if (glm::length(o.st.target - p) < clear) return true;
  }
  return false;
}

void CrowdImpl::link_slots(std::vector<Vec2>& slots, std::vector<Vec2>& unlinked, Vec2 goal, double spacing, double radius) const {
  // Before, a slot had to be in straight sight of the goal. Where walls cut into the rings,
  // that left out slots a step round a corner and grew the rings outward instead: on
  // Berlin_0_512 group 0's 125 persons had 70 slots within the 7.46 cells the bench judges
  // (102 clear of walls there) and stood out to 10.2 cells; linked through neighbours, the
  // 125th slot is on the 9th ring (7.65 cells), not the 11th. A step to a neighbour (within
  // kSlotLink spacings, on the same ring or the one inside) clear of walls: no slot behind a
  // wall, reached only the long way round.
  constexpr double kSlotLink = 1.2;
  bool linked = true;
  while (linked) {
    linked = false;
    for (size_t k = 0; k < unlinked.size();) {
      const Vec2 p = unlinked[k];
      bool near = slots.empty() && glm::length(p - goal) < 1e-9;
      for (size_t q = slots.size(); !near && q-- > 0;) {  // the newest first: most neighbours are
        near = glm::length(slots[q] - p) <= kSlotLink * spacing && segment_clear(base_, slots[q], p, radius);
      }
      if (!near) {
        ++k;
        continue;
      }
      slots.push_back(p);
      unlinked.erase(unlinked.begin() + static_cast<std::ptrdiff_t>(k));
      linked = true;
    }
  }
}

void CrowdImpl::claim_slot(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  crowd::GoalGroup& g = groups_[static_cast<size_t>(a.group)];
  if (a.slot >= 0 || g.members.size() < 2) return;
  if (g.max_radius_step != steps_) {
    // Once per step, not per member: members join only between steps, and at 1,250 members a
    // group this walk per member was 40% of the step (bench_flow_field).
    g.max_radius = 0.0;
    g.holonomic = true;
    for (int m : g.members) {
      g.max_radius = std::max(g.max_radius, agents_[static_cast<size_t>(m)].def.unit.radius);
      g.holonomic = g.holonomic && agents_[static_cast<size_t>(m)].holonomic;
    }
    g.max_radius_step = steps_;
  }
  const double rmax = g.max_radius;
  const double spacing = 2.0 * rmax + 0.25;
  g.spacing = spacing;
  const double reach = spacing * (1.0 + std::sqrt(static_cast<double>(g.members.size()))) + 2.0;
  if (glm::length(a.st.pose.pos - g.goal) > reach) return;
  const size_t wanted = g.members.size() + kSpareSlots;
  if (g.slots.size() < wanted) {
    // Units that step any way: the nearest points of a hexagonal lattice round the goal
    // (lattice_slots, crowd_slots.cpp); a group with units that turn to drive: rings.
    g.slots = g.holonomic ? lattice_slots(g.goal, wanted, spacing, rmax) : ring_slots(g.goal, wanted, spacing, rmax);
    g.claimed_by.assign(g.slots.size(), -1);
    for (int m : g.members) {
      const crowd::Agent& o = agents_[static_cast<size_t>(m)];
      if (o.slot >= 0 && static_cast<size_t>(o.slot) < g.slots.size()) g.claimed_by[static_cast<size_t>(o.slot)] = m;
    }
  }
  for (size_t s = 0; s < g.slots.size(); ++s) {
    if (g.claimed_by[s] >= 0 || slot_blocked_by_other_group(id, g.slots[s])) continue;
    g.claimed_by[s] = id;
    a.slot = static_cast<int>(s);
    a.st.target = g.slots[s];
    const int replans = a.m.replans;
    plan_route(id);
    a.m.replans = replans;  // settling into a slot is not a re-plan
    update_parked(id);
    return;
  }
}

Vec2 CrowdImpl::lookahead_point(const crowd::Agent& a, const crowd::RouteWindow* w) const {
  // Pure pursuit of the route line: the point a little ahead of the unit's projection on its
  // current leg, so a unit pushed off the line comes back to it before a narrow passage
  // instead of cutting at the passage's corner.
  const auto& route = a.st.route;
  const size_t next = static_cast<size_t>(a.st.next_waypoint);
  const Vec2 pos = a.st.pose.pos;
  if (next == 0) return route_point(a, w, 0);
  const Vec2 from = route_point(a, w, next - 1), to = route_point(a, w, next);
  const Vec2 leg = to - from;
  const double len2 = glm::dot(leg, leg);
  const double t = len2 > 1e-12 ? std::clamp(glm::dot(pos - from, leg) / len2, 0.0, 1.0) : 1.0;
  Vec2 q = from + t * leg;
  double ahead = std::max(kLookahead, 2.0 * a.def.unit.radius);
  for (size_t k = next; k < route.size(); ++k) {
    const Vec2 p = route_point(a, w, k);
    const double rest = glm::length(p - q);
    if (rest >= ahead) return q + (p - q) * (ahead / rest);
    ahead -= rest;
    q = p;
  }
  return route_end(a, w);
}

Vec2 CrowdImpl::preferred_velocity(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const Vec2 pos = a.st.pose.pos;
  const double vmax = a.def.unit.max_speed;
  a.route_dir = Vec2(0.0);
  auto& route = a.st.route;
  const int last = static_cast<int>(route.size()) - 1;
  double dist = 0.0;
  Vec2 d(0.0);
  // The route's points from the unit's own record (window_route): the route's heap block is
  // read only when the route or the waypoint changed.
  const crowd::RouteWindow* w = nullptr;
  if (!a.st.waiting && last >= 1) {
    advance_waypoints(a, window_route(a));
    w = window_route(a);
    note_waypoint(a, w);
    // Towards an intermediate waypoint (a corner, a passage) pursue the route line; the last
    // leg goes straight for the target (an open-field detour should not swing back).
    Vec2 aim = a.st.next_waypoint < last ? lookahead_point(a, w) : route_point(a, w, static_cast<size_t>(last));
    // The pursuit point lies past a corner: when the straight way to it is not clear (it cuts
    // the corner through the wall), aim at the corner itself. A tank steering its nose at such a
    // point stood frozen in a gap for two minutes, every move along its nose blocked.
    const Vec2 corner = route_point(a, w, static_cast<size_t>(a.st.next_waypoint));
    const double ahead = std::max(kLookahead, 2.0 * a.def.unit.radius);
    if (aim != corner && glm::length(corner - pos) < 1.5 * ahead && !segment_clear(grid_, pos, aim, a.def.unit.radius)) {
      aim = corner;  // (only a point past the corner can be behind its wall)
    }
    d = aim - pos;
    dist = glm::length(d);
    if (dist > 1e-6) a.route_dir = d / dist;
  }
  a.st.yielding = time() < a.yield_until;
  if (a.st.yielding) return a.yield_dir * (0.5 * vmax);
  if (time() < a.maneuver_until) {
    // Back straight up; the heading sampler steers the nose towards the route meanwhile.
    return -a.def.unit.max_reverse_speed * crowd::heading_dir(a.st.pose.heading);
  }
  if (dist < 1e-6) return Vec2(0.0);
  double speed = vmax;
  const Vec2 end = route_end(a, w);
  const double to_end = glm::length(end - pos);
  if (a.st.next_waypoint == last && to_end < 2.0 * kLookahead + vmax * vmax / a.def.unit.braking) {
    // Brake to arrive: the speed from which half the braking stops the unit at the target.
    speed = std::min(vmax, std::sqrt(a.def.unit.braking * to_end));
    if (to_end < 0.02) speed = 0.0;
    d = end - pos;
    dist = std::max(to_end, 1e-9);
  }
  // An arrived unit pushed off its spot (it gave way) comes back; on the spot it turns to its
  // goal heading instead (crowd_move.cpp).
  const bool on_spot = a.st.reached && to_end < kOnSpotDistance;
  if (!a.holonomic && !on_spot && a.st.next_waypoint == last) speed = std::min(speed, turn_limited_speed(a, d, dist));
  Vec2 v = d * (speed / dist);
  if (!a.st.neighbors.empty() && dist > 1.0) {
    // Keep right: with others around, aim slightly to the right of the waypoint (y down, so
    // "right" is a positive rotation). It breaks the symmetry of units meeting exactly head-on,
    // which reciprocal avoidance alone resolves slowly (the circle swap).
    // The neighbour's position and radius from the step's arrays (the same values): its
    // kilobyte of state was a cache miss per unit.
    const size_t b = static_cast<size_t>(a.st.neighbors.front());
    if (glm::length(pos_[b] - pos) < a.def.unit.radius + radius_[b] + kKeepRightRange) {
      static const Vec2 kTurn = crowd::heading_dir(kKeepRight);  // a constant: computed once
      const double c = kTurn.x, s = kTurn.y;
      v = Vec2(c * v.x - s * v.y, s * v.x + c * v.y);
    }
  }
  return v;
}

void CrowdImpl::advance_waypoints(crowd::Agent& a, const crowd::RouteWindow* w) const {
  // A waypoint within reach is passed when the one after it is in sight: a bear squeezed
  // 0.3 cells past a corner point, aiming at the next corner behind a wall, stood still.
  const auto& route = a.st.route;
  const int last = static_cast<int>(route.size()) - 1;
  const Vec2 pos = a.st.pose.pos;
  const double pass = std::max(0.35, a.def.unit.radius);
  while (a.st.next_waypoint < last && glm::length(route_point(a, w, static_cast<size_t>(a.st.next_waypoint)) - pos) < pass &&
         segment_clear(grid_, pos, route_point(a, w, static_cast<size_t>(a.st.next_waypoint) + 1), a.def.unit.radius)) {
    ++a.st.next_waypoint;
  }
}

double CrowdImpl::turn_limited_speed(const crowd::Agent& a, Vec2 d, double dist) const {
  // A unit that turns at a limited rate circles a target that lies inside its turning circle
  // (a tank 0.4 cells beside its goal orbited it for a minute). The circle through the target
  // tangent to the heading has radius dist / (2 sin(bearing)): no faster than the turn rate
  // allows on it, and a target behind is turned to on the spot first. A unit that cannot turn
  // on the spot (a car) is left alone: it backs up instead (crowd_stuck.cpp).
  if (a.def.unit.pivot_turn_rate <= 0.0) return std::numeric_limits<double>::infinity();
  const double bearing = std::remainder(dmath::atan2(d.y, d.x) - a.st.pose.heading, 2.0 * kPi);
  const Vec2 cs = crowd::heading_dir(bearing);
  if (cs.x <= 0.0) return 0.0;
  const double sin_b = std::abs(cs.y);
  if (sin_b <= 1e-9) return std::numeric_limits<double>::infinity();
  return max_heading_rate(a.def.unit, 0.0) * dist / (2.0 * sin_b);
}

double CrowdImpl::remaining_route(const crowd::Agent& a) const {
  const auto& route = a.st.route;
  const Vec2 pos = a.st.pose.pos;
  if (route.size() < 2) return glm::length(a.st.target - pos);
  const size_t next = static_cast<size_t>(a.st.next_waypoint);
  if (waypoint_noted(a)) return glm::length(a.waypoint - pos) + a.waypoint_tail;
  double rem = glm::length(route[next] - pos);
  if (a.route_tail.size() == route.size()) return rem + a.route_tail[next];
  for (size_t k = next; k + 1 < route.size(); ++k) rem += glm::length(route[k + 1] - route[k]);
  return rem;
}

void CrowdImpl::note_waypoint(crowd::Agent& a, const crowd::RouteWindow* w) const {
  // The read-ahead after the moves loaded every unit's waypoint again (remaining_route and the
  // sight check: a cache miss a unit, with the route's tail a tenth of the step at 10,000
  // units in a profile).
  const auto& route = a.st.route;
  const size_t next = static_cast<size_t>(a.st.next_waypoint);
  a.waypoint_version = 0;
  if (a.route_version == 0 || next >= route.size() || a.route_tail.size() != route.size()) return;
  // The route's tail too, now that the window has it in the unit's record (loaded from the
  // route_tail block here, it was a miss moved from the read-ahead to the decision).
  a.waypoint = route_point(a, w, next);
  a.waypoint_tail = route_tail_at(a, w, next);
  a.waypoint_next = a.st.next_waypoint;
  a.waypoint_version = a.route_version;
}

void CrowdImpl::index_route(crowd::Agent& a) const {
  // Summed over the whole route every step, the distance left was a third of bench512's run
  // time (a smoothed route across a 512-cell map has thousands of points).
  const auto& route = a.st.route;
  ++a.route_version;
  a.route_tail.assign(route.size(), 0.0);
  for (size_t k = route.size(); k-- > 1;) a.route_tail[k - 1] = a.route_tail[k] + glm::length(route[k] - route[k - 1]);
}

}  // namespace pathlab
