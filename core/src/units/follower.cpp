#include "pathlab/follower.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "pathlab/collision.hpp"
#include "units/follower_internal.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// How far behind its last progress a unit is still looked for on the path. [Units: cells]
constexpr double kProjectBack = 0.25;
/// Extra window ahead of the distance it can cover in a step. [Units: cells]
constexpr double kProjectAhead = 0.5;
/// A rotation in place ends when the unit faces its target this closely. [Units: radians]
constexpr double kFacingTolerance = 0.05;

double heading_of(Vec2 d) { return dmath::atan2(d.y, d.x); }
Vec2 direction(double heading) { return angle_dir(heading); }

/// Radius of the tightest bend at sample `smp`: its curvature, and for a polyline corner the
/// round-off that cuts it by at most `cut` (distance from the vertex to an arc of radius r
/// through a corner of angle c is r (1 / cos(c/2) - 1)).
double bend_radius(const FollowSample& smp, double cut) {
  double r = kInf;
  if (std::abs(smp.curvature) > 1e-12) r = 1.0 / std::abs(smp.curvature);
  if (std::abs(smp.corner) > 1e-12) {
    const double c = dmath::cos(0.5 * std::abs(smp.corner));
    r = std::min(r, c > 1e-9 ? cut / (1.0 / c - 1.0) : 0.0);
  }
  return r;
}

struct Target {
  Vec2 point;
  double dist = 0.0;    // from the unit to the point
  bool at_end = false;  // the point is the path's end
};

/// The point the unit chases: `reach` ahead along the path, no further than the next corner
/// it must stop at, pulled back towards the unit until the unit sees it.
Target pick_target(const Grid& grid, const UnitDef& def, const FollowPath& path, const UnitState& st, bool stop_corners) {
  const FollowerDef& f = def.follower;
  const double len = path.length();
  const double reach = std::max(f.lookahead_min, std::abs(st.speed) * f.lookahead_time);
  double s_target = std::min(len, st.s + reach);
  if (stop_corners) {
    const auto smp = path.samples();
    for (size_t j = path.index_at(st.s) + 1; j < smp.size() && smp[j].s < s_target; ++j) {
      if (std::abs(smp[j].corner) > f.stop_turn_angle && smp[j].s > st.s + f.arrive_distance) {
        s_target = smp[j].s;
        break;
      }
    }
  }
  const Vec2 pos = st.pose.pos;
  Vec2 point = path.state_at(s_target).pos;
  if (!segment_clear(grid, pos, point, def.radius)) {
    bool seen = false;
    for (int k = 1; k <= 3 && !seen; ++k) {
      point = path.state_at(st.s + (s_target - st.s) * std::ldexp(1.0, -k)).pos;
      seen = segment_clear(grid, pos, point, def.radius);
    }
    if (!seen) point = path.state_at(st.s).pos;
  }
  return Target{point, glm::length(point - pos), s_target >= len};
}

/// Highest speed that still lets the unit slow down for every bend (and stop corner) ahead.
double bend_speed_limit(const UnitDef& def, const FollowPath& path, const UnitState& st, bool stop_corners) {
  const FollowerDef& f = def.follower;
  const auto smp = path.samples();
  const double horizon = st.speed * st.speed / (2.0 * def.braking) + std::max(f.lookahead_min, def.max_speed * f.lookahead_time) + 0.5;
  double limit = kInf;
  for (size_t j = path.index_at(st.s); j < smp.size() && smp[j].s <= st.s + horizon; ++j) {
    double vlim;
    if (stop_corners && std::abs(smp[j].corner) > f.stop_turn_angle && smp[j].s > st.s + f.arrive_distance) {
      vlim = 0.0;
    } else {
      const double r = bend_radius(smp[j], f.corner_cut);
      if (r == kInf) continue;
      // Lateral acceleration v^2 / r and heading rate v / r, both within the unit's limits.
      vlim = std::min(std::sqrt(def.max_lateral_accel * r), def.max_turn_rate * r);
    }
    const double ahead = std::max(0.0, smp[j].s - st.s);
    limit = std::min(limit, std::sqrt(vlim * vlim + 2.0 * def.braking * ahead));
  }
  return limit;
}

/// Steer follower: whether to stop and turn (rotating), and for a unit that cannot pivot,
/// whether to back up (a three-point turn). `err` is the heading error to the target.
void update_maneuver(const UnitDef& def, const Target& target, double err, UnitState& st) {
  const FollowerDef& f = def.follower;
  const bool can_pivot = def.pivot_turn_rate > 0.0;
  // A unit that cannot pivot drives each leg of a three-point turn at least this far, or it
  // would swap between forward and reverse on the spot. [Units: cells]
  const double min_leg = 0.5 * def.turning_radius + 0.25;
  const bool committed = st.maneuver_distance < min_leg;
  if (st.rotating && !committed && std::abs(err) <= std::min(0.25 * f.stop_turn_angle, kFacingTolerance)) {
    st.rotating = false;
    st.backing_up = false;
  } else if (!st.rotating && std::abs(err) > f.stop_turn_angle) {
    st.rotating = true;
    st.maneuver_distance = kInf;
  }
  if (!(st.rotating && !can_pivot && def.can_reverse && def.turning_radius > 0.0 && !committed)) return;
  // A target inside the circle the unit would turn on can never be faced by driving
  // forward: back up on the other lock first (a three-point turn), until it is well outside.
  const Vec2 pos = st.pose.pos;
  const double heading = st.pose.heading;
  const double side = err >= 0.0 ? 1.0 : -1.0;
  const Vec2 ahead = direction(heading);
  const Vec2 centre = pos + Vec2(-ahead.y, ahead.x) * (side * def.turning_radius);
  const double gap = glm::length(target.point - centre);
  if (!st.backing_up && gap < def.turning_radius) {
    st.backing_up = true;
    st.maneuver_distance = 0.0;
  } else if (st.backing_up && (gap > 1.2 * def.turning_radius || st.maneuver_distance > 2.0 * def.turning_radius + 1.0)) {
    st.backing_up = false;
    st.maneuver_distance = 0.0;
  }
}

/// The speed the follower aims for this step. [Units: cells/s]
double wanted_speed(const UnitDef& def, const FollowPath& path, const UnitState& st, const Target& target, double err,
                    bool damped, bool stop_corners) {
  const bool can_pivot = def.pivot_turn_rate > 0.0;
  const double goal_room = std::max(path.length() - st.s, glm::length(path.end_point() - st.pose.pos));
  if (!damped && st.rotating) {
    if (can_pivot) return 0.0;
    if (st.backing_up) return -0.5 * def.max_reverse_speed;
    return std::min(def.max_speed, 0.5 * def.max_turn_rate * std::max(def.turning_radius, 0.5));
  }
  double want = std::min(def.max_speed, std::sqrt(2.0 * def.braking * goal_room));
  if (!damped) {
    want = std::min(want, bend_speed_limit(def, path, st, stop_corners));
    // Off heading, slow down so that the turn happens near the line, not after it.
    want *= std::max(0.0, dmath::cos(err));
    if (can_pivot && std::abs(err) > 1e-6) {
      // Turning err at the pivot rate takes |err| / rate seconds, in which the unit drifts about
      // v t sin|err| / 2 sideways: keep that within corner_cut (a unit set off facing away from
      // its path would otherwise swing half a cell wide before it faces along it).
      const double drift = std::abs(err) * dmath::sin(std::min(std::abs(err), 0.5 * kPi));
      want = std::min(want, 2.0 * def.follower.corner_cut * def.pivot_turn_rate / drift);
    }
  } else if (target.at_end) {
    // Dampening alone never lands on a point (it orbits it): pull up on the final approach.
    want *= std::max(0.0, dmath::cos(err));
  }
  return want;
}

/// The heading rate the follower aims for at speed v1, before the unit's limits. [Units: rad/s]
double wanted_turn_rate(const FollowerDef& f, const UnitState& st, const Target& target, double err, double v1,
                        double dt, bool damped) {
  if (damped) return err * (1.0 - dmath::exp(-dt / f.damping_time)) / dt;
  if (st.rotating) return err / dt;
  // Pure pursuit: the arc through the target tangent to the heading has curvature 2 sin(err) / d.
  const double w_want = 2.0 * v1 * dmath::sin(err) / std::max(target.dist, 1e-6);
  return std::clamp(w_want, -std::abs(err) / dt, std::abs(err) / dt);
}

/// The new pose, speed and heading rate after one step, and where it now is on the path.
void commit_step(const FollowPath& path, Vec2 p1, double h1, double v1, double w, double want, double dt, UnitState& st) {
  st.maneuver_distance += std::abs(v1) * dt;
  st.pose = Pose{p1, wrap_angle(h1)};
  st.speed = v1;
  st.turn_rate = w;
  st.target_speed = want;
  st.gear = v1 < 0.0 ? Gear::reverse : Gear::forward;
  const PathProjection pr = path.project(p1, st.s - kProjectBack, st.s + std::abs(v1) * dt + kProjectAhead);
  st.s = std::max(st.s, pr.s);
  st.deviation = pr.distance;
  st.path_curvature = path.state_at(st.s).curvature;
  if (path.source() == FollowPath::Source::polyline && path.samples().size() > 1) {
    st.path_curvature = path.samples()[path.index_at(st.s)].curvature;
  }
}

/// The steer and damped followers: pick a target on the path, decide speed and heading rate
/// within the unit's limits, and never move into a wall.
void step_chase(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& st, double dt, bool damped) {
  if (detail::arrive_or_face_goal(def, path, st, dt)) return;
  const Vec2 pos = st.pose.pos;
  const double heading = st.pose.heading;
  const bool can_pivot = def.pivot_turn_rate > 0.0;
  const bool stop_corners = !damped && can_pivot;
  const Target target = pick_target(grid, def, path, st, stop_corners);
  st.lookahead = target.point;
  const double err = target.dist > 1e-9 ? wrap_angle(heading_of(target.point - pos) - heading) : 0.0;
  if (!damped) update_maneuver(def, target, err, st);

  const double want = wanted_speed(def, path, st, target, err, damped, stop_corners);
  double v1 = detail::approach_speed(def, st.speed, want, dt);
  const double w_want = wanted_turn_rate(def.follower, st, target, err, v1, dt, damped);
  double w_max = max_heading_rate(def, v1);
  // Steer also keeps the sideways acceleration |v| * w within the unit's limit.
  if (!damped && v1 != 0.0) w_max = std::min(w_max, def.max_lateral_accel / std::abs(v1));
  double w = std::clamp(w_want, -w_max, w_max);
  double h1 = heading + w * dt;
  Vec2 p1 = pos + direction(heading + 0.5 * w * dt) * (v1 * dt);

  st.blocked = false;
  if (p1 != pos && !segment_clear(grid, pos, p1, def.radius)) {
    // Never into a wall: stop here and turn in place if the unit can.
    st.blocked = true;
    const bool was_backing = st.backing_up;
    v1 = 0.0;
    p1 = pos;
    w_max = max_heading_rate(def, 0.0);
    w = std::clamp(w_want, -w_max, w_max);
    h1 = heading + w * dt;
    if (!damped) {
      st.rotating = true;
      if (!can_pivot && def.can_reverse) {
        // Blocked going forward: back up; blocked backing up: go forward again.
        st.backing_up = !was_backing;
        st.maneuver_distance = 0.0;
      }
    }
  }
  commit_step(path, p1, h1, v1, w, want, dt, st);
}

}  // namespace

double detail::approach_speed(const UnitDef& def, double v, double want, double dt) {
  const double dv = want - v;
  const bool speeding_up = (v >= 0.0) ? dv > 0.0 : dv < 0.0;
  const double lim = (speeding_up ? def.acceleration : def.braking) * dt;
  return v + std::clamp(dv, -lim, lim);
}

std::optional<double> detail::end_heading(const FollowPath& path) {
  if (path.goal_heading()) return path.goal_heading();
  if (path.source() == FollowPath::Source::segments && path.length() > 0.0) return path.end_pose().heading;
  return std::nullopt;
}

/// At the goal: face the requested heading first when the unit can turn on the spot, then
/// stand still. Returns true when this step is done (turning on the spot or arrived).
bool detail::arrive_or_face_goal(const UnitDef& def, const FollowPath& path, UnitState& st, double dt) {
  if (st.gave_up != GiveUp::none) return true;
  const FollowerDef& f = def.follower;
  const double heading = st.pose.heading;
  const double to_end = glm::length(path.end_point() - st.pose.pos);
  if (!st.arrived && path.length() - st.s <= f.arrive_distance && to_end <= f.arrive_distance &&
      std::abs(st.speed) <= def.braking * dt) {
    const std::optional<double> goal = detail::end_heading(path);
    const double turn = goal ? wrap_angle(*goal - heading) : 0.0;
    if (def.pivot_turn_rate <= 0.0 && std::abs(turn) > kGoalHeadingTolerance) {
      // It cannot turn on the spot, and creeping about the goal would not turn it: say so.
      st.gave_up = GiveUp::heading_unreachable;
      st.speed = st.turn_rate = st.target_speed = 0.0;
      st.rotating = st.backing_up = st.blocked = false;
      return true;
    }
    if (turn != 0.0 && def.pivot_turn_rate > 0.0 && std::abs(turn) > 1e-9) {
      const double w = std::clamp(turn / dt, -def.pivot_turn_rate, def.pivot_turn_rate);
      st.pose.heading = wrap_angle(std::abs(w * dt) >= std::abs(turn) ? *goal : heading + w * dt);
      st.speed = st.target_speed = 0.0;
      st.turn_rate = w;
      st.rotating = true;
      st.lookahead = path.end_point();
      return true;
    }
    st.arrived = true;
  }
  if (!st.arrived) return false;
  st.speed = st.turn_rate = st.target_speed = 0.0;
  st.rotating = st.backing_up = st.blocked = false;
  return true;
}

const char* to_string(GiveUp g) noexcept {
  switch (g) {
    case GiveUp::none: return "none";
    case GiveUp::heading_unreachable: return "at the goal but off its heading, and the unit cannot turn on the spot";
  }
  return "none";
}

UnitState initial_unit_state(const FollowPath& path, const Pose& start) {
  UnitState st;
  st.pose = start;
  st.lookahead = start.pos;
  const PathProjection pr = path.project(start.pos, 0.0, std::min(path.length(), 1.0));
  st.s = pr.s;
  st.deviation = pr.distance;
  return st;
}

void step_unit(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& st, double dt) {
  switch (def.follower.kind) {
    case FollowerKind::track: detail::step_track(grid, def, path, st, dt); return;
    case FollowerKind::steer:
      // An exact segment path (a vehicle plan, maybe with cusps) is tracked; polylines are chased.
      if (path.source() == FollowPath::Source::segments) detail::step_vehicle(grid, def, path, st, dt);
      else step_chase(grid, def, path, st, dt, false);
      return;
    case FollowerKind::damped: step_chase(grid, def, path, st, dt, true); return;
  }
}

}  // namespace pathlab
