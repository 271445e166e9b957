// Moving the crowd's units: each unit's chosen motion within its acceleration and turn limits,
// then the final check that no body overlaps a wall, another unit or a moving obstacle (the
// move is shortened instead), and the run's separation measurements.

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {
namespace {

constexpr int kBucketSide = 4;  // as in crowd_avoid.cpp

/// The angle in [-pi, pi] (a remainder, not a loop: a start heading of 1e300 must not hang).
double wrap_angle(double a) { return std::remainder(a, 2.0 * kPi); }

double approach(double from, double to, double step) {
  return from < to ? std::min(to, from + step) : std::max(to, from - step);
}

/// Speeds below this are "stopped" for the final approach. [Units: cells/s]
constexpr double kCreep = 0.05;
constexpr double kPushed = 0.5;  ///< ORCA's velocity this far from the preferred one: the unit is asked to make way. [Units: cells/s]
constexpr double kApproachDistance = 2.0;  ///< A unit that can pivot this close to its target drives straight at it. [Units: cells]
constexpr double kApproachCone = 0.17;      ///< ... after turning on the spot to within this of it (about 10 degrees). [Units: radians]
/// A unit that cannot pivot follows its route's legs itself over its last braking distance plus
/// this much. [Units: cells]
constexpr double kVehicleApproach = 3.0;
constexpr double kCrossGain = 2.0;     ///< Its heading corrects an offset from the route's line at this rate ... [Units: 1/s]
constexpr double kCrossSoft = 0.5;     ///< ... softened at low speed by this. [Units: cells/s]
constexpr double kHeadingTime = 0.25;  ///< It turns a heading error away over about this. [Units: s]
constexpr double kRideOffset = 0.15;   ///< Closer to the route's line than this ... [Units: cells]
constexpr double kRideAngle = 0.35;    ///< ... and facing along it within this, it rides the route. [Units: radians]
constexpr double kEndSlack = 0.02;     ///< Closer to the route's end than this is on it. [Units: cells]
/// The turn between two chords of a route a car can drive: a vehicle planner's curve sampled
/// every 0.25 cells at a turning radius of 2 turns 0.125 rad per chord. [Units: radians]
constexpr double kChordTurn = 0.15;
constexpr double kOnRouteAngle = 0.7;   ///< A car facing its route's leg within this ... [Units: radians]
constexpr double kOnRouteOffset = 0.5;  ///< ... and this near its line follows it to the end. [Units: cells]
constexpr double kMaxCorner = 0.35;  ///< A route corner sharper than this is not one a car drives as it is. [Units: radians]

/// The route leg (index of its end point, >= 1) a unit at `pos` is on: next_waypoint passes
/// points up to a radius ahead of it (crowd_route.cpp), so look back from it first, then on to
/// the first leg whose end is still ahead of the unit.
size_t current_leg(const std::vector<Vec2>& route, int next_waypoint, Vec2 pos) {
  size_t leg = static_cast<size_t>(std::max(1, next_waypoint));
  while (leg > 1 && glm::dot(pos - route[leg - 1], route[leg] - route[leg - 1]) < 0.0) --leg;
  while (leg + 1 < route.size() && glm::dot(pos - route[leg], route[leg + 1] - route[leg]) > 0.0) ++leg;
  return leg;
}

}  // namespace

void CrowdImpl::final_approach(crowd::Agent& a) const {
  // A unit that cannot sidestep chooses among sampled (speed, turn) pairs (crowd_avoid.cpp),
  // too coarse for the last cell: a bear 0.26 cells from its slot circled it for a minute and a
  // car on its spot rocked back and forth. On its spot it stops (and turns to the goal heading
  // in move()); a unit that can pivot, near its target on the route's last leg, turns to face
  // it and drives straight in, braking to stop on it (as the single-unit follower does).
  const UnitDef& u = a.def.unit;
  // Avoidance asks it to move out of someone's way (a car settled next to a tank blocked a
  // car behind them for 80 s when both stood firm): the sampled motion decides.
  // (Only when it asks for real motion: hemmed in, ORCA says "stand", and a bear that let the
  // sampler decide then turned away from its goal heading as fast as it turned to it, 135 s.)
  // A unit that cannot pivot is pushed by other units only: walls do not push a car on its
  // route's points (ORCA's wall lines clip the straight line at the goal that the preferred
  // velocity aims along, and the sampler then cut straight down into a parking bay).
  const bool pushed = glm::length(a.st.avoidance_velocity - a.st.preferred_velocity) > kPushed &&
                      glm::length(a.st.avoidance_velocity) > kPushed;
  if (pushed && (a.near_units || u.pivot_turn_rate > 0.0)) return;
  // A car near its spot, not yet facing the goal heading, lines up by driving the rest of its
  // route (it ends at that heading) rather than stopping where the spot begins (0.25 cells short).
  if (a.at_spot && !a.st.arrived && !a.heading_given_up && vehicle_approach(a)) return;
  if (a.at_spot || a.st.waiting || a.st.route.size() < 2) {
    // On its spot, or no route to follow: stand still. The sampler would keep it creeping (a car
    // with no route drifted 0.4 cells in 10 s), and a car on its spot would rock round it.
    a.target_speed = 0.0;
    a.target_turn = 0.0;
    return;
  }
  if (vehicle_approach(a)) return;
  const Vec2 d = a.st.target - a.st.pose.pos;
  const double dist = glm::length(d);
  const int last = static_cast<int>(a.st.route.size()) - 1;
  if (u.pivot_turn_rate <= 0.0 || a.st.waiting || dist > kApproachDistance || a.st.next_waypoint < last || dist < 1e-9) return;
  const double err = wrap_angle(std::atan2(d.y, d.x) - a.st.pose.heading);
  const double dt = def_.dt;
  a.target_turn = std::clamp(err / dt, -u.pivot_turn_rate, u.pivot_turn_rate);
  a.target_speed = std::abs(err) > kApproachCone && std::abs(a.st.speed) < kCreep
                       ? 0.0
                       : std::min({u.max_speed, std::sqrt(u.braking * dist), dist / dt}) * std::max(0.0, std::cos(err));
}

bool CrowdImpl::vehicle_approach(crowd::Agent& a) const {
  // A car near the end of its route: the sampled (speed, turn) pairs are too coarse to stop on
  // a point, and its preferred velocity aims straight at the end. A lone car rocked back and
  // forth beside its goal for a minute, and one cut straight down into a parking bay. Instead
  // it follows the route's legs to the end (whose last one is the goal heading for a vehicle
  // planner's route) and brakes along the distance left.
  const UnitDef& u = a.def.unit;
  const auto& route = a.st.route;
  if (a.holonomic || u.pivot_turn_rate > 0.0 || route.size() < 2 || time() < a.maneuver_until) return false;
  // Among other units the sampler follows ORCA, as before (cars following their routes here
  // among 80 units made one 30 s late: it pressed on where ORCA asked it to wait).
  if (a.near_units) return false;
  const Vec2 pos = a.st.pose.pos;
  const size_t leg = current_leg(route, a.st.next_waypoint, pos);
  const Vec2 from = route[leg - 1], to = route[leg];
  const double len = glm::length(to - from);
  if (len < 1e-9) return false;
  const Vec2 dir = (to - from) / len;
  // Distance left along the route, signed on the last leg (negative: past the end).
  double rem = glm::dot(to - pos, dir);
  if (leg + 1 < route.size()) rem = std::max(rem, 0.0);
  for (size_t k = leg; k + 1 < route.size(); ++k) rem += glm::length(route[k + 1] - route[k]);
  if (rem > u.max_speed * u.max_speed / u.braking + kVehicleApproach) return false;
  // Only a route it can drive: a grid route's corners (45 or 90 degrees, in clutter) are the
  // sampler's and the drivable detour's (crowd_drive.cpp) to round, backing up where it must.
  for (size_t k = leg; k + 1 < route.size(); ++k) {
    const Vec2 l0 = route[k] - route[k - 1], l1 = route[k + 1] - route[k];
    if (glm::length(l0) > 1e-9 && glm::length(l1) > 1e-9 &&
        std::abs(wrap_angle(std::atan2(l1.y, l1.x) - std::atan2(l0.y, l0.x))) > kMaxCorner) {
      return false;
    }
  }
  // Steer along the leg's direction, back onto its line (Stanley: Thrun et al. 2006, "Stanley:
  // the robot that won the DARPA Grand Challenge"), plus the bend to the next leg. Pure pursuit
  // of a point ahead lagged a route's final bend: cars parked 11 degrees off the goal heading.
  const Vec2 normal(-dir.y, dir.x);
  const double cross = glm::dot(pos - from, normal);  // signed offset from the leg's line [cells]
  const double speed_now = std::abs(a.st.speed);
  const double want = std::atan2(dir.y, dir.x) - std::atan2(kCrossGain * cross, speed_now + kCrossSoft);
  const double err = wrap_angle(want - a.st.pose.heading);
  // Off its route (pushed aside, or a straight re-plan to a goal beside it): the sampler's, which
  // may back up to line up; steering here would drive past the end and stop beside it.
  const double heading_off = std::abs(wrap_angle(std::atan2(dir.y, dir.x) - a.st.pose.heading));
  if (heading_off > kOnRouteAngle || std::abs(cross) > kOnRouteOffset) return false;
  // On the line and facing along it: drive along the route exactly (as the track follower does).
  // A vehicle planner's route bends at the turning radius itself, so steering that lags it by
  // a step can never catch up: cars parked 11-23 degrees off the goal heading.
  a.ride = std::abs(cross) < kRideOffset && heading_off < kRideAngle;
  double bend = 0.0;  // curvature of the route here [1/cells]
  if (leg + 1 < route.size()) {
    const Vec2 next = route[leg + 1] - to;
    const double next_len = glm::length(next);
    if (next_len > 1e-9) {
      bend = wrap_angle(std::atan2(next.y, next.x) - std::atan2(dir.y, dir.x)) / (0.5 * (len + next_len));
    }
  }
  // Brake so that half the braking stops it at the end (the preferred velocity's profile), and
  // never more than the distance left in one step: no overshoot. Past the end: stop, never back.
  const double speed = rem <= kEndSlack ? 0.0 : std::min({u.max_speed, std::sqrt(u.braking * rem), rem / def_.dt});
  a.target_speed = speed;
  a.target_turn = bend * speed + err / kHeadingTime;  // move() holds it to the turning radius
  return true;
}

Pose CrowdImpl::ride_pose(const crowd::Agent& a, double ds) const {
  const auto& route = a.st.route;
  const Vec2 pos = a.st.pose.pos;
  size_t leg = current_leg(route, a.st.next_waypoint, pos);
  Vec2 from = route[leg - 1];
  double len = glm::length(route[leg] - from);
  double along = len > 1e-9 ? std::clamp(glm::dot(pos - from, (route[leg] - from) / len), 0.0, len) + ds : 0.0;
  while (along > len && leg + 1 < route.size()) {  // on into the next legs
    along -= len;
    from = route[leg];
    ++leg;
    len = glm::length(route[leg] - from);
  }
  along = std::min(along, len);  // never past the end
  const Vec2 dir = len > 1e-9 ? (route[leg] - from) / len : Vec2(std::cos(a.st.pose.heading), std::sin(a.st.pose.heading));
  double heading = std::atan2(dir.y, dir.x);
  const double off = a.def.goal_heading ? wrap_angle(*a.def.goal_heading - heading) : 0.0;
  if (leg + 1 == route.size() && len > 1e-9 && std::abs(off) < kChordTurn) {
    // The last chord of a bend is half a chord's turn short of the goal heading: turn to it
    // along that chord (only that little: a car never crabs onto a heading its route lacks).
    heading += off * (along / len);
  }
  return Pose{from + along * dir, wrap_angle(heading)};
}

bool CrowdImpl::place_ok(int id, Vec2 p, bool& wall_hit, bool& unit_hit) const {
  const crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const double r = a.def.unit.radius;
  if (!segment_clear(grid_, a.st.pose.pos, p, r)) {
    wall_hit = true;
    return false;
  }
  const double range = r + max_radius_ + 1.0 + 2.0 * max_speed_ * def_.dt;  // buckets hold last step's positions
  const int bx0 = std::max(0, static_cast<int>(std::floor((p.x - range) / kBucketSide)));
  const int by0 = std::max(0, static_cast<int>(std::floor((p.y - range) / kBucketSide)));
  const int bx1 = std::min(bucket_w_ - 1, static_cast<int>(std::floor((p.x + range) / kBucketSide)));
  const int by1 = std::min(bucket_h_ - 1, static_cast<int>(std::floor((p.y + range) / kBucketSide)));
  for (int by = by0; by <= by1; ++by) {
    for (int bx = bx0; bx <= bx1; ++bx) {
      const size_t b = static_cast<size_t>(by) * static_cast<size_t>(bucket_w_) + static_cast<size_t>(bx);
      for (int k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
        const int j = bucket_ids_[static_cast<size_t>(k)];
        if (j == id) continue;
        const crowd::Agent& o = agents_[static_cast<size_t>(j)];
        const double need = r + o.def.unit.radius;
        const Vec2 d = o.st.pose.pos - p;
        if (glm::dot(d, d) < need * need) {
          unit_hit = true;
          return false;
        }
      }
    }
  }
  for (const crowd::Mover& m : movers_) {
    if (crowd::box_distance(m.st.pose, m.def.half_extents, p) < r) {
      unit_hit = true;
      return false;
    }
  }
  return true;
}

void CrowdImpl::move(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const UnitDef& u = a.def.unit;
  const double dt = def_.dt;
  Pose& pose = a.st.pose;
  Vec2 v;
  if (a.holonomic) {
    Vec2 dv = a.new_velocity - a.st.velocity;
    const double max_dv = std::max(u.acceleration, u.braking) * dt;
    const double l = glm::length(dv);
    if (l > max_dv) dv *= max_dv / l;
    v = a.st.velocity + dv;
    if (glm::length(v) > 1e-3) {
      const double err = wrap_angle(std::atan2(v.y, v.x) - pose.heading);
      pose.heading += std::clamp(err, -u.max_turn_rate * dt, u.max_turn_rate * dt);
    }
  } else {
    a.ride = false;
    if (time() >= a.yield_until) final_approach(a);
    const bool speeding_up = std::abs(a.target_speed) > std::abs(a.st.speed) && a.target_speed * a.st.speed >= 0.0;
    Pose on = pose;
    const double ride_speed = approach(a.st.speed, a.target_speed, (speeding_up ? u.acceleration : u.braking) * dt);
    if (a.ride) on = ride_pose(a, std::max(0.0, ride_speed) * dt);
    // A corner sharper than a drivable chord is steered round, not jumped.
    if (a.ride && std::abs(wrap_angle(on.heading - pose.heading)) <= max_heading_rate(u, ride_speed) * dt + kChordTurn) {
      // Riding its route: the step goes to the route's point a speed's step on, facing along it.
      a.st.speed = ride_speed;
      pose.heading = on.heading;
      v = (on.pos - pose.pos) / dt;
    } else {
      const double wmax = max_heading_rate(u, a.st.speed);
      pose.heading += std::clamp(a.target_turn, -wmax, wmax) * dt;
      a.st.speed = approach(a.st.speed, a.target_speed, (speeding_up ? u.acceleration : u.braking) * dt);
      v = a.st.speed * Vec2(std::cos(pose.heading), std::sin(pose.heading));
    }
  }
  if (a.at_spot && a.def.goal_heading && u.pivot_turn_rate > 0.0 && glm::length(v) < 0.05 * u.max_speed) {
    // Settled: turn on the spot to the goal heading.
    const double err = wrap_angle(*a.def.goal_heading - pose.heading);
    pose.heading += std::clamp(err, -u.pivot_turn_rate * dt, u.pivot_turn_rate * dt);
  }
  pose.heading = wrap_angle(pose.heading);
  const Vec2 p0 = pose.pos;
  const Vec2 step = v * dt;
  const Vec2 tries[] = {p0 + step, p0 + 0.5 * step, p0 + 0.25 * step, p0 + Vec2(step.x, 0.0), p0 + Vec2(0.0, step.y)};
  bool wall_hit = false, unit_hit = false;
  Vec2 p1 = p0;
  for (const Vec2& t : tries) {
    if (place_ok(id, t, wall_hit, unit_hit)) {
      p1 = t;
      break;
    }
  }
  if (wall_hit) ++a.m.wall_contacts;
  const double t = time();
  if (wall_hit && !a.holonomic && u.pivot_turn_rate == 0.0 && u.can_reverse && glm::length(p1 - p0) < 0.01 * u.max_speed * dt &&
      t >= a.maneuver_until) {
    a.maneuver_until = t + 1.0;  // cannot turn here: back up a little (a three-point turn)
  }
  if (unit_hit) ++a.m.unit_contacts;
  const Vec2 moved = p1 - p0;
  pose.pos = p1;
  a.st.velocity = moved / dt;
  a.m.distance += glm::length(moved);
  if (a.holonomic) {
    a.st.speed = glm::length(a.st.velocity);
  } else {
    a.st.speed = glm::dot(a.st.velocity, Vec2(std::cos(pose.heading), std::sin(pose.heading)));
  }
}

void CrowdImpl::measure() {
  for (size_t i = 0; i < agents_.size(); ++i) {
    const crowd::Agent& a = agents_[i];
    for (int j : a.st.neighbors) {
      if (static_cast<size_t>(j) < i) continue;
      const crowd::Agent& b = agents_[static_cast<size_t>(j)];
      const double d = glm::length(a.st.pose.pos - b.st.pose.pos);
      const double sum = a.def.unit.radius + b.def.unit.radius;
      min_separation_ = std::min(min_separation_, d - sum);
      min_ratio_ = std::min(min_ratio_, d / sum);
    }
    for (const crowd::Mover& m : movers_) {
      const double gap = crowd::box_distance(m.st.pose, m.def.half_extents, a.st.pose.pos) - a.def.unit.radius;
      min_obstacle_gap_ = std::min(min_obstacle_gap_, gap);
    }
  }
}

}  // namespace pathlab
