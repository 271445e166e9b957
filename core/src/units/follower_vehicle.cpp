// The followers of an exact path with gears: `track` (rides the path itself) and `steer` on a
// segment path (a path-parameter tracker). Both run the same speed profile along the path:
// never faster than the gear allows, slow enough for every bend ahead (so the heading rate
// stays within the unit's limits) and braking along the remaining arc length to rest at each
// cusp and at the end, then the other gear from rest.
//
// The steer tracker keeps one progress value s that only grows and never passes the next cusp
// (a self-crossing path or the other branch of a cusp is never jumped to), steers with the
// path's own curvature (feed-forward) plus a correction of the cross-track and heading errors
// (the linearised kinematic-car law behind Stanley: Hoffmann, Tomlin, Montemerlo, Thrun 2007,
// "Autonomous Automobile Trajectory Tracking for Off-Road Driving"; here on a unicycle with
// gains scaled by speed, so the error decays over distance whichever the gear).

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "pathlab/collision.hpp"
#include "units/follower_internal.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::detail {

namespace {

/// Correction gain of the tracker: the cross-track error decays like exp(-kGain s) along the
/// path, critically damped. [Units: 1/cells]
constexpr double kGain = 1.5;
/// Within this of a cusp or the end (along the path) the tracker counts it as reached.
/// [Units: cells]
constexpr double kReach = 0.01;
/// How far ahead of its progress the tracker looks for itself on the path, beyond the step.
/// [Units: cells]
constexpr double kProjectAhead = 0.25;
/// A unit that can pivot stops and turns on the spot when it faces further than this from
/// the path (a start heading off the plan's). [Units: radians]
constexpr double kPivotError = kPi / 6.0;
/// When the tracked move would touch a wall but the unit is this close to the path, it takes
/// the path's own next pose (which the planner checked) instead of stopping. [Units: cells]
constexpr double kSnapDeviation = 0.05;

Vec2 direction(double heading) { return angle_dir(heading); }

double sign_of(Gear g) { return g == Gear::reverse ? -1.0 : 1.0; }

/// Top speed in a gear. [Units: cells/s]
double gear_speed(const UnitDef& def, Gear g) {
  return g == Gear::reverse && def.max_reverse_speed > 0.0 ? def.max_reverse_speed : def.max_speed;
}

/// The speed magnitude aimed for at s in the current gear, to rest at `s_stop`. [Units: cells/s]
double profile_speed(const UnitDef& def, const FollowPath& path, double s, double s_stop, Gear gear, double v,
                     double dt) {
  double want = std::min(gear_speed(def, gear), stop_speed(def.braking, std::max(0.0, s_stop - s), dt));
  return std::min(want, bend_speed_ahead(def, path, s, s_stop, v, dt));
}

/// Progress after moving to `p`: the closest point of the path between s and the next stop.
PathProjection progress_at(const FollowPath& path, Vec2 p, double s, double s_stop, double moved) {
  PathProjection pr = path.project(p, s, std::min(s_stop, s + moved + kProjectAhead));
  pr.s = std::max(s, pr.s);
  if (s_stop - pr.s <= kReach) pr.s = s_stop;
  return pr;
}

/// Heading rate the tracker wants at signed speed v: feed-forward v k plus the correction of
/// cross-track error e (left of the path's nose direction) and heading error eh. With
/// de/dt = v eh and d(eh)/dt = w - v k, this gives e'' = -2 kGain |v| e' - kGain^2 v^2 e.
double tracking_rate(double v, double curvature, double e, double eh) {
  return v * curvature - 2.0 * kGain * std::abs(v) * eh - kGain * kGain * v * e;
}

/// A polyline vertex that turns the path by more than this is a corner a pivoting track unit
/// stops at and turns on the spot. [Units: radians]
constexpr double kCornerAngle = 1e-6;

/// How many times a step along the path may be halved to keep its chord clear of walls.
constexpr int kMaxHalvings = 8;

/// The farthest of s1, then halfway back towards s0 (kMaxHalvings times), whose straight
/// move from `from` to the path's point there is clear of walls for the unit. A path that
/// grazes a wall corner is clear along its arc while the chord of a long step cuts the corner
/// by its sagitta (step^2 / (8 radius)); a shorter step keeps to the arc, as the referee
/// (collision.hpp, on the chord between poses) needs. s1 itself when no shorter step is clear
/// either (the path is not clear there: the referee then counts it). [Units: cells]
double clear_advance(const Grid& grid, const FollowPath& path, Vec2 from, double s0, double s1, double radius) {
  double s = s1;
  for (int k = 0; k <= kMaxHalvings; ++k, s = 0.5 * (s0 + s)) {
    const Vec2 to = path.state_at(s).pos;
    if (to == from || segment_clear(grid, from, to, radius)) return s;
  }
  return s1;
}

/// Distance of the first polyline vertex strictly after s where the path turns, else the
/// path's length. [Units: cells]
double next_corner_after(const FollowPath& path, double s) {
  const auto smp = path.samples();
  for (size_t j = path.index_at(s) + 1; j + 1 < smp.size(); ++j)
    if (smp[j].s > s && std::abs(smp[j].corner) > kCornerAngle) return smp[j].s;
  return path.length();
}

/// Track, a unit that can pivot on a polyline: at a vertex (or the end) facing away from the
/// way on (or the goal heading), first come to rest, then turn on the spot at the pivot rate.
/// True when this step was spent so.
bool turn_at_vertex(const UnitDef& def, const FollowPath& path, UnitState& st, double dt) {
  const bool at_end = st.s >= path.length();
  const std::optional<double> face = at_end ? end_heading(path) : std::optional<double>(path.state_at(st.s).heading);
  if (!face) return false;
  const double turn = wrap_angle(*face - st.pose.heading);
  if (std::abs(turn) <= 1e-9) return false;
  st.target_speed = 0.0;
  if (st.speed != 0.0) {
    // The profile stopped at the vertex; the last of its speed (under a step of braking) goes.
    st.speed = st.turn_rate = 0.0;
    return true;
  }
  const double w = std::clamp(turn / dt, -def.pivot_turn_rate, def.pivot_turn_rate);
  st.pose.heading = std::abs(w * dt) >= std::abs(turn) ? wrap_angle(*face) : wrap_angle(st.pose.heading + w * dt);
  st.turn_rate = w;
  st.rotating = true;
  return true;
}

}  // namespace

double stop_speed(double braking, double room, double dt) {
  if (!(room > 0.0)) return 0.0;
  const double bt = braking * dt;
  return std::max(0.0, -bt + std::sqrt(bt * bt + 2.0 * braking * room));
}

Gear gear_at(const FollowPath& path, double s) {
  const auto smp = path.samples();
  return smp.size() > 1 ? smp[path.index_at(s)].gear : Gear::forward;
}

double bend_speed_ahead(const UnitDef& def, const FollowPath& path, double s, double s_end, double v, double dt) {
  const auto smp = path.samples();
  if (smp.size() < 2) return 0.0;
  const double bt = def.braking * dt;
  const double horizon = v * v / (2.0 * def.braking) + def.max_speed * dt + 1.0;
  double limit = std::numeric_limits<double>::infinity();
  for (size_t j = path.index_at(s); j < smp.size() && smp[j].s < s_end && smp[j].s <= s + horizon; ++j) {
    const double k = std::abs(smp[j].curvature);
    if (k <= 1e-12) continue;
    const double vlim = std::min(def.max_turn_rate / k, std::sqrt(def.max_lateral_accel / k));
    const double ahead = std::max(0.0, smp[j].s - s);
    limit = std::min(limit, -bt + std::sqrt(bt * bt + vlim * vlim + 2.0 * def.braking * ahead));
  }
  return limit;
}

void step_track(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& st, double dt) {
  const double len = path.length();
  st.blocked = false;
  // A unit that can pivot turns at polyline corners (and to the goal heading at the end) on the
  // spot, at rest, instead of letting its heading jump with the path's.
  const bool pivots = def.pivot_turn_rate > 0.0 && path.source() == FollowPath::Source::polyline;
  if (!st.arrived && pivots && turn_at_vertex(def, path, st, dt)) return;
  if (st.arrived || (st.s >= len && std::abs(st.speed) <= def.braking * dt)) {
    // At the end, rolling no faster than one step of braking stops: at rest, arrived.
    st.arrived = true;
    st.speed = st.turn_rate = st.target_speed = 0.0;
    return;
  }
  const double s0 = st.s;
  const double s_stop = std::min(path.next_cusp_after(s0), pivots ? next_corner_after(path, s0) : len);
  const Gear gear = gear_at(path, s0);
  if (st.speed * sign_of(gear) < 0.0) {
    // Just reached a cusp still rolling the old way (slower than a step of braking): stop
    // there for one step, then drive the new gear from rest.
    st.speed = st.turn_rate = st.target_speed = 0.0;
    return;
  }
  const double want = profile_speed(def, path, s0, s_stop, gear, st.speed, dt);
  const double v1 = std::max(0.0, approach_speed(def, std::abs(st.speed), want, dt));
  double s1 = std::min(s_stop, s0 + v1 * dt);
  if (s_stop - s1 <= 1e-9) s1 = s_stop;
  s1 = clear_advance(grid, path, st.pose.pos, s0, s1, def.radius);
  const PathState ps = path.state_at(s1);
  // A pivoting unit keeps the heading of the edge it drove until it turns at the vertex.
  const double heading = pivots && s1 > s0 ? path.samples()[path.index_at(0.5 * (s0 + s1))].heading : ps.heading;
  st.turn_rate = wrap_angle(heading - st.pose.heading) / dt;
  st.pose = Pose{ps.pos, heading};
  st.s = s1;
  st.gear = gear;
  st.speed = sign_of(gear) * (s1 - s0) / dt;
  st.target_speed = sign_of(gear) * want;
  st.lookahead = ps.pos;
  st.path_curvature = ps.curvature;
  st.deviation = 0.0;
  st.rotating = false;
}

void step_vehicle(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& st, double dt) {
  if (arrive_or_face_goal(def, path, st, dt)) return;
  const double s_stop = path.next_cusp_after(st.s);
  const Gear gear = gear_at(path, st.s);
  const double g = sign_of(gear);
  const PathState here = path.state_at(st.s);
  const Vec2 t = direction(here.heading);
  const Vec2 off = st.pose.pos - here.pos;
  const double e = t.x * off.y - t.y * off.x;
  const double eh = wrap_angle(st.pose.heading - here.heading);
  const bool can_pivot = def.pivot_turn_rate > 0.0;
  const bool pivot = can_pivot && std::abs(eh) > kPivotError;

  // Speed: finish stopping in the old gear at a cusp, stop to pivot, else the profile.
  double want = 0.0;
  if (st.speed * g >= 0.0 && !pivot) want = g * profile_speed(def, path, st.s, s_stop, gear, std::abs(st.speed), dt);
  double v1 = approach_speed(def, st.speed, want, dt);
  if (v1 * st.speed < 0.0) v1 = 0.0;  // through zero only via a step at rest
  const double s_mid = std::min(s_stop, st.s + 0.5 * std::abs(v1) * dt);
  double w_want = tracking_rate(v1, path.state_at(s_mid).curvature, e, eh);
  if (pivot && v1 == 0.0) w_want = -eh / dt;
  const double w_max = max_heading_rate(def, v1);
  const double w = std::clamp(w_want, -w_max, w_max);
  double h1 = st.pose.heading + w * dt;
  Vec2 p1 = st.pose.pos + direction(st.pose.heading + 0.5 * w * dt) * (v1 * dt);

  st.blocked = false;
  if (p1 != st.pose.pos && !segment_clear(grid, st.pose.pos, p1, def.radius)) {
    const double s_next = std::min(s_stop, st.s + std::abs(v1) * dt);
    const PathState next = path.state_at(clear_advance(grid, path, st.pose.pos, st.s, s_next, def.radius));
    if (st.deviation <= kSnapDeviation && segment_clear(grid, st.pose.pos, next.pos, def.radius)) {
      p1 = next.pos;
      h1 = st.pose.heading + std::clamp(wrap_angle(next.heading - st.pose.heading), -w_max * dt, w_max * dt);
    } else {
      st.blocked = true;
      v1 = 0.0;
      p1 = st.pose.pos;
      h1 = st.pose.heading;
    }
  }
  const PathProjection pr = progress_at(path, p1, st.s, s_stop, std::abs(v1) * dt);
  st.turn_rate = wrap_angle(h1 - st.pose.heading) / dt;
  st.pose = Pose{p1, wrap_angle(h1)};
  st.speed = v1;
  st.target_speed = want;
  st.gear = v1 < 0.0 ? Gear::reverse : (v1 > 0.0 ? Gear::forward : st.gear);
  st.s = pr.s;
  st.deviation = pr.distance;
  st.lookahead = pr.point;
  st.path_curvature = path.state_at(st.s).curvature;
  st.rotating = pivot;
  st.backing_up = false;
}

}  // namespace pathlab::detail
