// Dynamic obstacles of the crowd: doors (cells that open and close on a schedule or on
// request, never on a unit) and boxes driving along routes (never into a unit).

#include <algorithm>
#include <cmath>
#include <string>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {

double crowd::box_distance(const Pose& box, Vec2 half, Vec2 p, Vec2* closest) {
  const Vec2 h = heading_dir(box.heading);
  const double c = h.x, s = h.y;
  const Vec2 d = p - box.pos;
  const Vec2 local(c * d.x + s * d.y, -s * d.x + c * d.y);
  const Vec2 q(std::clamp(local.x, -half.x, half.x), std::clamp(local.y, -half.y, half.y));
  if (closest != nullptr) *closest = box.pos + Vec2(c * q.x - s * q.y, s * q.x + c * q.y);
  return glm::length(local - q);
}

namespace {

Vec2 leg_start(const MovingObstacleDef& d, size_t leg) { return d.route[leg % d.route.size()]; }
Vec2 leg_end(const MovingObstacleDef& d, size_t leg) { return d.route[(leg + 1) % d.route.size()]; }
size_t leg_count(const MovingObstacleDef& d) { return d.loop ? d.route.size() : d.route.size() - 1; }

constexpr double kBackOffAfter = 2.0;     ///< A truck blocked this long backs off. [Units: s]
constexpr double kBackOffDistance = 2.0;  ///< ... this far at most, until it has driven on past that spot again. [Units: cells]
constexpr double kBackOffSpeed = 0.5;     ///< ... at this fraction of its speed,
constexpr double kBackOffPause = 1.5;     ///< ... and then waits this long before it comes on again. [Units: s]

Pose pose_on_leg(const MovingObstacleDef& d, size_t leg, double along) {
  const Vec2 a = leg_start(d, leg), b = leg_end(d, leg);
  const Vec2 dir = (b - a) / glm::length(b - a);
  return Pose{a + dir * along, dmath::atan2(dir.y, dir.x)};
}

}  // namespace

Result<int> CrowdImpl::add_door(const DoorDef& door) {
  const std::string who = "door " + std::to_string(doors_.size());
  if (!grid_.in_bounds(door.lo) || !grid_.in_bounds(door.hi) || door.hi.x < door.lo.x || door.hi.y < door.lo.y) {
    return fail(StatusCode::out_of_bounds, who + ": cells must lie in the map with lo <= hi");
  }
  double prev = -1.0;
  for (double t : door.toggle_times) {
    if (!std::isfinite(t) || t < 0.0 || t <= prev) {
      return fail(StatusCode::invalid_argument, who + ": toggle times must be finite, >= 0 and increasing");
    }
    prev = t;
  }
  crowd::Door d;
  d.def = door;
  d.open = true;
  d.want_open = door.open_at_start;
  doors_.push_back(d);
  if (!d.want_open && !door_overlaps_units(doors_.back())) {
    doors_.back().open = false;
    apply_door(doors_.back());
    finder_.reset(grid_);
    for (size_t i = 0; i < agents_.size(); ++i) {
      agents_[i].st.replan_cause = CrowdReplanCause::door;
      plan_route(static_cast<int>(i));
    }
  }
  return static_cast<int>(doors_.size()) - 1;
}

Status CrowdImpl::set_door_open(int door, bool open) {
  if (door < 0 || door >= static_cast<int>(doors_.size())) {
    return fail(StatusCode::invalid_argument, "unknown door " + std::to_string(door));
  }
  doors_[static_cast<size_t>(door)].want_open = open;
  return ok_status();
}

bool CrowdImpl::door_overlaps_units(const crowd::Door& d) const {
  const Vec2 lo(d.def.lo.x, d.def.lo.y), hi(d.def.hi.x + 1.0, d.def.hi.y + 1.0);
  for (const auto& a : agents_) {
    const Vec2 p = a.st.pose.pos;
    const Vec2 q(std::clamp(p.x, lo.x, hi.x), std::clamp(p.y, lo.y, hi.y));
    if (glm::length(p - q) < a.def.unit.radius) return true;
  }
  return false;
}

void CrowdImpl::reopen_doors_under(Vec2 p, double r) {
  // A unit added where a closed door stands (a crowd rebuilt with a door that was waiting for
  // it to pass): the door opens again and waits, closing when clear, as it did before.
  bool changed = false;
  for (crowd::Door& d : doors_) {
    const Vec2 lo(d.def.lo.x, d.def.lo.y), hi(d.def.hi.x + 1.0, d.def.hi.y + 1.0);
    const Vec2 q(std::clamp(p.x, lo.x, hi.x), std::clamp(p.y, lo.y, hi.y));
    if (d.open || glm::length(p - q) >= r) continue;
    d.open = true;
    apply_door(d);
    changed = true;
  }
  if (changed) finder_.reset(grid_);
}

void CrowdImpl::apply_door(const crowd::Door& d) {
  wall_edges_stale_ = true;  // index_wall_edges() again before the next wall lines
  wall_room_stale_ = true;   // and index_wall_room() before the next clearance costs
  for (int y = d.def.lo.y; y <= d.def.hi.y; ++y) {
    for (int x = d.def.lo.x; x <= d.def.hi.x; ++x) grid_.set_cost(x, y, d.open ? base_.cost(x, y) : kBlocked);
  }
}

void CrowdImpl::update_doors() {
  const double t = time();
  bool changed = false;
  for (crowd::Door& d : doors_) {
    while (d.next_toggle < d.def.toggle_times.size() && d.def.toggle_times[d.next_toggle] <= t) {
      d.want_open = !d.want_open;
      ++d.next_toggle;
    }
    if (d.want_open == d.open) continue;
    if (!d.want_open && door_overlaps_units(d)) continue;  // never close on a unit: wait
    d.open = d.want_open;
    apply_door(d);
    changed = true;
  }
  if (!changed) return;
  finder_.reset(grid_);
  for (size_t i = 0; i < agents_.size(); ++i) {
    if (agents_[i].st.reached) continue;
    agents_[i].st.replan_cause = CrowdReplanCause::door;
    plan_route(static_cast<int>(i));
  }
}

Result<int> CrowdImpl::add_moving_obstacle(const MovingObstacleDef& o) {
  const std::string who = "moving obstacle " + std::to_string(movers_.size());
  if (o.route.size() < 2) return fail(StatusCode::invalid_argument, who + ": the route needs at least 2 points");
  if (!std::isfinite(o.speed) || !(o.speed > 0.0)) return fail(StatusCode::invalid_argument, who + ": speed must be finite and > 0");
  if (!std::isfinite(o.start_time) || o.start_time < 0.0) return fail(StatusCode::invalid_argument, who + ": start time must be >= 0");
  if (!is_finite(o.half_extents) || !(o.half_extents.x > 0.0) || !(o.half_extents.y > 0.0) ||
      o.half_extents.x > kMaxAgentRadius || o.half_extents.y > kMaxAgentRadius) {
    return fail(StatusCode::invalid_argument, who + ": half extents must be in (0, 64]");
  }
  for (size_t k = 0; k < o.route.size(); ++k) {
    if (!is_finite(o.route[k]) || !grid_.contains(o.route[k])) {
      return fail(StatusCode::out_of_bounds, who + ": route point " + std::to_string(k) + " is outside the map");
    }
  }
  for (size_t k = 0; k < leg_count(o); ++k) {
    if (glm::length(leg_end(o, k) - leg_start(o, k)) < 1e-9) {
      return fail(StatusCode::invalid_argument, who + ": route leg " + std::to_string(k) + " has zero length");
    }
  }
  crowd::Mover m;
  m.def = o;
  m.st.pose = pose_on_leg(o, 0, 0.0);
  movers_.push_back(m);
  return static_cast<int>(movers_.size()) - 1;
}

bool CrowdImpl::back_off(crowd::Mover& m) {
  // Back along the route at half speed (to the start of a route that does not loop at most),
  // never into a unit: the units pinned in front of it get room to step off its route.
  size_t leg = m.leg;
  double along = m.along - kBackOffSpeed * m.def.speed * def_.dt;
  while (along < 0.0) {
    if (leg == 0 && !m.def.loop) return false;
    leg = leg == 0 ? leg_count(m.def) - 1 : leg - 1;
    along += glm::length(leg_end(m.def, leg) - leg_start(m.def, leg));
  }
  Pose back = pose_on_leg(m.def, leg, along);
  back.heading = m.st.pose.heading;  // it reverses: it still faces the way it drives
  for (const auto& a : agents_) {
    if (crowd::box_distance(back, m.def.half_extents, a.st.pose.pos) < a.def.unit.radius) return false;
  }
  const double moved = glm::length(back.pos - m.st.pose.pos);
  m.velocity = (back.pos - m.st.pose.pos) / def_.dt;
  m.st.pose = back;
  m.leg = leg;
  m.along = along;
  m.backed += moved;
  m.odometer -= moved;
  return true;
}

void CrowdImpl::move_obstacles() {
  const double t = time();
  for (crowd::Mover& m : movers_) {
    m.velocity = Vec2(0.0);
    if (m.st.finished || t < m.def.start_time) continue;
    if (m.st.backing) {
      // Once it backs off it backs the whole distance (or until it cannot), then pauses: a
      // truck that crept forward again after every step back stood in one spot for 30 s.
      if (m.backed < kBackOffDistance && back_off(m)) continue;
      m.st.backing = false;
      m.pause_until = t + kBackOffPause;
    }
    if (t < m.pause_until) continue;
    size_t leg = m.leg;
    double along = m.along + m.def.speed * def_.dt;
    bool finished = false;
    while (!finished) {
      const double len = glm::length(leg_end(m.def, leg) - leg_start(m.def, leg));
      if (along <= len) break;
      if (leg + 1 < leg_count(m.def)) {
        along -= len;
        ++leg;
      } else if (m.def.loop) {
        along -= len;
        leg = 0;
      } else {
        along = len;
        finished = true;
      }
    }
    const Pose next = pose_on_leg(m.def, leg, along);
    bool blocked = false;
    for (const auto& a : agents_) {
      if (crowd::box_distance(next, m.def.half_extents, a.st.pose.pos) < a.def.unit.radius) {
        blocked = true;
        break;
      }
    }
    m.st.waiting = blocked;
    if (blocked) {  // a driver never runs a unit over: it waits, and then backs off a little
      if (m.blocked_since < 0.0) m.blocked_since = t;
      if (t - m.blocked_since >= kBackOffAfter && m.backed < 0.5 * kBackOffDistance && back_off(m)) {
        m.st.backing = true;
        m.blocked_since = -1.0;
      }
      continue;
    }
    m.blocked_since = -1.0;
    if (m.backed > 0.0) m.backed = std::max(0.0, m.backed - m.def.speed * def_.dt);  // driven back up to where it stood
    m.velocity = (next.pos - m.st.pose.pos) / def_.dt;
    m.odometer += glm::length(next.pos - m.st.pose.pos);
    m.st.pose = next;
    m.leg = leg;
    m.along = along;
    m.st.finished = finished;
  }
}

}  // namespace pathlab
