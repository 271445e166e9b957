// Moving the crowd's units: each unit's chosen motion within its acceleration and turn limits,
// then the final check that no body overlaps a wall, another unit or a moving obstacle (the
// move is shortened instead), and the run's separation measurements.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

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

}  // namespace

void CrowdImpl::final_approach(crowd::Agent& a) const {
  // A unit that cannot sidestep chooses among sampled (speed, turn) pairs (crowd_avoid.cpp),
  // too coarse for the last cell: a bear 0.26 cells from its slot circled it for a minute and a
  // car on its spot rocked back and forth. On its spot it stops (and turns to the goal heading
  // in move()); a unit that can pivot, near its target on the route's last leg, turns to face
  // it and drives straight in, braking to stop on it (as the single-unit follower does).
  const UnitDef& u = a.def.unit;
  // A vehicle on a route it can drive tracks it, among other units too: they only slow it down
  // along the route (track_route). The sampler steered a tank round a Directional A* route's
  // turns by its preferred velocity: it looped near its goal for 60 s against the walls.
  a.blocked_by = -1;  // until track_route's route_speed_limit finds a unit on its route ahead
  a.tracking = !a.at_spot && !a.st.waiting && track_route(a);
  if (a.tracking) return;
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
  // (One that can pivot turns to it on the spot instead, in move().)
  if (a.at_spot && !a.st.arrived && !a.heading_given_up && u.pivot_turn_rate <= 0.0 && track_route(a)) return;
  if (a.at_spot || a.st.waiting || a.st.route.size() < 2) {
    // On its spot, or no route to follow: stand still. The sampler would keep it creeping (a car
    // with no route drifted 0.4 cells in 10 s), and a car on its spot would rock round it.
    a.target_speed = 0.0;
    a.target_turn = 0.0;
    return;
  }
  const Vec2 d = a.st.target - a.st.pose.pos;
  const double dist = glm::length(d);
  const int last = static_cast<int>(a.st.route.size()) - 1;
  if (u.pivot_turn_rate <= 0.0 || a.st.waiting || dist > kApproachDistance || a.st.next_waypoint < last || dist < 1e-9) return;
  const double err = wrap_angle(dmath::atan2(d.y, d.x) - a.st.pose.heading);
  const double dt = def_.dt;
  a.target_turn = std::clamp(err / dt, -u.pivot_turn_rate, u.pivot_turn_rate);
  a.target_speed = std::abs(err) > kApproachCone && std::abs(a.st.speed) < kCreep
                       ? 0.0
                       : std::min({u.max_speed, std::sqrt(u.braking * dist), dist / dt}) * std::max(0.0, dmath::cos(err));
}

bool CrowdImpl::place_ok(int id, Vec2 p, bool& wall_hit, bool& unit_hit) const {
  const crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const double r = a.def.unit.radius;
  if (!segment_clear(grid_, a.st.pose.pos, p, r)) {
    wall_hit = true;
    return false;
  }
  if (unit_at(id, p) || mover_at(p, r)) {
    unit_hit = true;
    return false;
  }
  return true;
}

bool CrowdImpl::unit_at(int id, Vec2 p) const {
  const double r = radius_[static_cast<size_t>(id)];
  const double range = r + max_radius_ + 1.0 + 2.0 * max_speed_ * def_.dt;  // buckets hold last step's positions
  // Any order: the answer is whether one is in the way. pos_ and radius_, not the units: move()
  // keeps pos_ up to date, and the arrays are a few cache lines where the units are a kilobyte
  // each (at 10,000 units this loop was the serial move pass's cache misses).
  return any_in_buckets(p - Vec2(range), p + Vec2(range), [&](int j) {
    if (j == id) return false;
    const size_t k = static_cast<size_t>(j);
    const double need = r + radius_[k];
    const Vec2 d = pos_[k] - p;
    return glm::dot(d, d) < need * need;
  });
}

bool CrowdImpl::mover_at(Vec2 p, double r) const {
  for (const crowd::Mover& m : movers_) {
    if (crowd::box_distance(m.st.pose, m.def.half_extents, p) < r) return true;
  }
  return false;
}

std::array<Vec2, 5> CrowdImpl::move_tries(Vec2 p0, Vec2 v) const {
  const Vec2 step = v * def_.dt;
  return {p0 + step, p0 + 0.5 * step, p0 + 0.25 * step, p0 + Vec2(step.x, 0.0), p0 + Vec2(0.0, step.y)};
}

Vec2 CrowdImpl::holonomic_motion(const crowd::Agent& a, double& heading) const {
  const UnitDef& u = a.def.unit;
  const double dt = def_.dt;
  Vec2 dv = a.new_velocity - a.st.velocity;
  const double max_dv = std::max(u.acceleration, u.braking) * dt;
  const double l = glm::length(dv);
  if (l > max_dv) dv *= max_dv / l;
  const Vec2 v = a.st.velocity + dv;
  if (glm::length(v) > 1e-3) {
    const double err = wrap_angle(dmath::atan2(v.y, v.x) - heading);
    heading += std::clamp(err, -u.max_turn_rate * dt, u.max_turn_rate * dt);
  }
  settle_heading(a, v, heading);
  return v;
}

void CrowdImpl::settle_heading(const crowd::Agent& a, Vec2 v, double& heading) const {
  const UnitDef& u = a.def.unit;
  if (a.at_spot && a.def.goal_heading && u.pivot_turn_rate > 0.0 && glm::length(v) < 0.05 * u.max_speed) {
    // Settled: turn on the spot to the goal heading.
    const double err = wrap_angle(*a.def.goal_heading - heading);
    heading += std::clamp(err, -u.pivot_turn_rate * def_.dt, u.pivot_turn_rate * def_.dt);
  }
  heading = wrap_angle(heading);
}

void CrowdImpl::plan_move(int id) {
  // A person's motion and what its tries meet apart from other units (walls, moving
  // obstacles), worked out on the worker threads after its decision: they depend on the unit
  // alone, and were about a fifth of the serial move pass at 10,000 units. Written to fields no
  // other unit's move reads; move() takes them in index order and checks only the units.
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  a.move_planned = a.holonomic;
  if (!a.move_planned) return;
  double heading = a.st.pose.heading;
  a.move_v = holonomic_motion(a, heading);
  a.move_heading = heading;
  a.move_clear = 0;
  const double r = a.def.unit.radius;
  const std::array<Vec2, 5> tries = move_tries(a.st.pose.pos, a.move_v);
  // Up to the first try clear of both: the tries after it are asked only when a unit stands
  // there, and then on the spot (3: not asked here).
  for (size_t k = 0; k < tries.size(); ++k) {
    if (!segment_clear(grid_, a.st.pose.pos, tries[k], r)) continue;
    const bool mover = mover_at(tries[k], r);
    a.move_clear = static_cast<uint16_t>(a.move_clear | (mover ? 2u : 1u) << (2 * k));
    if (!mover) {
      for (size_t after = k + 1; after < tries.size(); ++after) a.move_clear = static_cast<uint16_t>(a.move_clear | 3u << (2 * after));
      return;
    }
  }
}

Vec2 CrowdImpl::vehicle_motion(crowd::Agent& a) const {
  const UnitDef& u = a.def.unit;
  const double dt = def_.dt;
  Pose& pose = a.st.pose;
  Vec2 v;
  a.ride = false;
  a.tracking = false;
  if (time() >= a.yield_until) final_approach(a);
  const bool speeding_up = std::abs(a.target_speed) > std::abs(a.st.speed) && a.target_speed * a.st.speed >= 0.0;
  Pose on = pose;
  const double ride_speed = approach(a.st.speed, a.target_speed, (speeding_up ? u.acceleration : u.braking) * dt);
  // (Not while it still backs up from before: riding a route is driving forward.)
  const bool ride = a.ride && ride_speed >= 0.0;
  if (ride) on = ride_pose(a, ride_speed * dt);
  // A corner sharper than a drivable chord is steered round, not jumped.
  if (ride && std::abs(wrap_angle(on.heading - pose.heading)) <= max_heading_rate(u, ride_speed) * dt + crowd::kChordTurn) {
    // Riding its route: towards the route's point a speed's step on, facing along it.
    v = ride_velocity(pose.pos, on, ride_speed, u.max_speed);
    a.st.speed = ride_speed;
    pose.heading = on.heading;
  } else {
    const double wmax = max_heading_rate(u, a.st.speed);
    pose.heading += std::clamp(a.target_turn, -wmax, wmax) * dt;
    a.st.speed = approach(a.st.speed, a.target_speed, (speeding_up ? u.acceleration : u.braking) * dt);
    v = a.st.speed * crowd::heading_dir(pose.heading);
  }
  settle_heading(a, v, pose.heading);
  return v;
}

void CrowdImpl::move(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const UnitDef& u = a.def.unit;
  const double dt = def_.dt;
  Pose& pose = a.st.pose;
  Vec2 v;
  if (a.move_planned) {
    v = a.move_v;  // plan_move(): a person's motion, computed as holonomic_motion() here would
    pose.heading = a.move_heading;
  } else if (a.holonomic) {
    v = holonomic_motion(a, pose.heading);
  } else {
    v = vehicle_motion(a);
  }
  const Vec2 p0 = pose.pos;
  const std::array<Vec2, 5> tries = move_tries(p0, v);
  bool wall_hit = false, unit_hit = false;
  Vec2 p1 = p0;
  for (size_t k = 0; k < tries.size(); ++k) {
    bool ok = false;
    const unsigned planned = a.move_planned ? (a.move_clear >> (2 * k)) & 3u : 3u;  // plan_move()'s answer for try k
    if (planned == 3u) {
      ok = place_ok(id, tries[k], wall_hit, unit_hit);
    } else if (planned == 0u) {
      wall_hit = true;  // as place_ok: the wall first, then the units, then the moving obstacles
    } else if (unit_at(id, tries[k]) || (planned & 2u) != 0) {
      unit_hit = true;
    } else {
      ok = true;
    }
    if (ok) {
      p1 = tries[k];
      break;
    }
  }
  a.move_planned = false;
  // A vehicle against a wall or a corner slides along it rather than stopping (crowd_clearance.cpp).
  if (p1 == p0 && wall_hit && !a.holonomic) p1 = wall_slide(id, tries[0] - p0).value_or(p0);
  if (wall_hit) ++a.m.wall_contacts;
  const double t = time();
  if (wall_hit && !a.holonomic && u.pivot_turn_rate == 0.0 && u.can_reverse && glm::length(p1 - p0) < 0.01 * u.max_speed * dt &&
      t >= a.maneuver_until) {
    a.maneuver_until = t + 1.0;  // cannot turn here: back up a little (a three-point turn)
  }
  if (unit_hit) ++a.m.unit_contacts;
  const Vec2 moved = p1 - p0;
  pose.pos = p1;
  pos_[static_cast<size_t>(id)] = p1;  // the later moves of this step see it here (place_ok)
  a.st.velocity = moved / dt;
  vel_[static_cast<size_t>(id)] = a.st.velocity;  // for the next step's decisions (read only there)
  tracking_[static_cast<size_t>(id)] = a.tracking ? 1 : 0;
  a.m.distance += glm::length(moved);
  if (a.holonomic) {
    a.st.speed = glm::length(a.st.velocity);
  } else {
    a.st.speed = glm::dot(a.st.velocity, crowd::heading_dir(pose.heading));
  }
}

void CrowdImpl::measure_after_moves() {
  // On the worker threads: each thread keeps its own minima, and a minimum does not depend on
  // the order its values come in, so the result is the same bytes with any split. The same
  // run reads ahead for the progress pass (prepare_progress: one wake-up of the pool, not two).
  const int n = static_cast<int>(agents_.size());
  struct Minima {
    double separation, ratio, gap;
  };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Minima> parts(static_cast<size_t>(pool_.parts(n)), Minima{inf, inf, inf});
  parallel_phase("measures, read-ahead", n, [&](int begin, int end, int part) {
    Minima& m = parts[static_cast<size_t>(part)];
    for (int i = begin; i < end; ++i) {
      measure_unit(i, m.separation, m.ratio, m.gap);
      prepare_progress(i);
    }
  });
  for (const Minima& m : parts) {
    min_separation_ = std::min(min_separation_, m.separation);
    min_ratio_ = std::min(min_ratio_, m.ratio);
    min_obstacle_gap_ = std::min(min_obstacle_gap_, m.gap);
  }
}

void CrowdImpl::measure_unit(int id, double& separation, double& ratio, double& gap) const {
  const size_t i = static_cast<size_t>(id);
  const Vec2 p = pos_[i];  // (pos_ is up to date after the moves)
  for (int j : agents_[i].st.neighbors) {
    const size_t k = static_cast<size_t>(j);
    if (k < i) continue;
    const double d = glm::length(p - pos_[k]);
    const double sum = radius_[i] + radius_[k];
    separation = std::min(separation, d - sum);
    ratio = std::min(ratio, d / sum);
  }
  for (const crowd::Mover& m : movers_) {
    gap = std::min(gap, crowd::box_distance(m.st.pose, m.def.half_extents, p) - radius_[i]);
  }
}

}  // namespace pathlab
