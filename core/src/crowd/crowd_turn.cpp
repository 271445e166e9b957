// A vehicle that cannot turn on the spot (a car) facing away from its route turns round: arcs at
// full lock, forward while there is room ahead on the arc and in reverse while there is not (a
// K-turn), until it faces along the route. Left to the speed sampler instead, such a car backed
// along its route for good: a smoothed route's next point is always near, so "the route is close
// behind: back up to it" held at every step, and bench512's cars drove 100 cells and more in
// reverse at 2 cells/s (top speed 8) until a doorway's corner stopped them (car 41: 40 s in
// reverse, then 22.6 s against the corner facing away from the doorway it had to go through).
// From crowd10 (unmerged), with a turn that stops making progress given up (kTurnGiveUp).

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

/// The angle in [-pi, pi] (a remainder, not a loop: a start heading of 1e300 must not hang).
double wrap_angle(double a) { return std::remainder(a, 2.0 * kPi); }

constexpr double kArcStep = 0.1;      ///< Spacing of the points checked along an arc. [Units: cells]
constexpr double kMinArc = 0.3;       ///< Less room than this on an arc: drive the other gear. [Units: cells]
constexpr double kTurnSpeed = 4.0;    ///< Forward speed while turning round (full lock of a car at about 120 deg/s). [Units: cells/s]
constexpr double kArcMargin = 0.5;    ///< Room beyond the arc still to drive before the forward gear is taken again. [Units: cells]
constexpr double kTurnDone = 0.2;     ///< Facing the route within this, the turn is done. [Units: radians]
constexpr double kTurnProgress = 0.05;///< Facing this much closer to the route is progress (not stuck). [Units: radians]
constexpr double kTurnGiveUp = 3.0;   ///< A turn round with no progress for this long is given up ... [Units: s]
constexpr double kTurnRest = 10.0;    ///< ... and not tried again for this long. [Units: s]

constexpr double kReverseFor = 3.0;   ///< A car in reverse this long ... [Units: s]
constexpr double kTurnAngle = 0.7;    ///< ... facing its route's leg more than this off turns round. [Units: radians]
constexpr double kTurnOffset = 3.0;   ///< ... when this near the leg's line. [Units: cells]
constexpr double kCrossGain = 2.0;    ///< The heading it turns to closes an offset as crowd_track.cpp steers ... [Units: 1/s]
constexpr double kCrossSoft = 0.5;    ///< ... softened at low speed by this. [Units: cells/s]

}  // namespace

bool CrowdImpl::turn_round_to_route(crowd::Agent& a, int gear) const {
  // Only a car that has backed along its route a while (the cause above), or is turning
  // round already: turning round whenever it faced 40 degrees off its route (crowd10) jammed
  // cars in bench512's doorways and starting corner instead (locks of 11-31 s over 300 s).
  // And only with no other unit near, as a lone car drives a grid route leg by leg
  // (crowd_track.cpp): among units the give-way rules back it up on purpose (a car turning
  // round in the 2 x 40 doorway counterflow of test_crowd_flow never reached its goal).
  if (gear == 0 && (a.reverse_since < 0.0 || time() - a.reverse_since < kReverseFor || !alone(a))) return false;
  const auto& route = a.st.route;
  const Vec2 pos = a.st.pose.pos;
  // The leg it is on: the one whose end is the first still ahead of it (as crowd_track.cpp).
  size_t leg = static_cast<size_t>(std::max(1, a.st.next_waypoint));
  while (leg > 1 && glm::dot(pos - route[leg - 1], route[leg] - route[leg - 1]) < 0.0) --leg;
  while (leg + 1 < route.size() && glm::dot(pos - route[leg], route[leg + 1] - route[leg]) > 0.0) ++leg;
  const Vec2 from = route[leg - 1], to = route[leg];
  const double len = glm::length(to - from);
  if (len < 1e-9) return false;
  const Vec2 dir = (to - from) / len;
  const double cross = glm::dot(pos - from, Vec2(-dir.y, dir.x));  // signed offset from the leg's line [cells]
  const double heading_off = std::abs(wrap_angle(dmath::atan2(dir.y, dir.x) - a.st.pose.heading));
  if (std::abs(cross) > kTurnOffset || (gear == 0 && heading_off <= kTurnAngle)) return false;
  // It turns to the heading that steers it back onto the leg's line (as track_route steers).
  const double want = dmath::atan2(dir.y, dir.x) - dmath::atan2(kCrossGain * cross, std::abs(a.st.speed) + kCrossSoft);
  const double room = std::max(0.0, glm::dot(to - pos, dir)) + (a.route_tail.size() == route.size() ? a.route_tail[leg] : 0.0);
  a.turn_gear = gear;
  return turn_around(a, crowd::heading_dir(want), room);
}

double CrowdImpl::free_arc(const crowd::Agent& a, int gear, double side, double reach, bool units) const {
  const UnitDef& u = a.def.unit;
  const double r = u.radius;
  Vec2 p = a.st.pose.pos;
  double h = a.st.pose.heading;
  for (double s = kArcStep; s <= reach; s += kArcStep) {
    h += side * kArcStep / u.turning_radius;
    p += static_cast<double>(gear) * kArcStep * crowd::heading_dir(h);
    if (!grid_.contains(p) || !point_clear(grid_, p, r)) return s - kArcStep;
    for (int j : a.st.neighbors) {
      if (!units) break;
      const crowd::Agent& b = agents_[static_cast<size_t>(j)];
      const double need = r + b.def.unit.radius;
      const Vec2 d = b.st.pose.pos - p;
      if (glm::dot(d, d) < need * need) return s - kArcStep;
    }
  }
  return reach;
}

bool CrowdImpl::turn_around(crowd::Agent& a, Vec2 dir, double room) const {
  const UnitDef& u = a.def.unit;
  const int gear_before = a.turn_gear;
  a.turn_gear = 0;
  const double t = time();
  if (t < a.turn_off_until) return false;
  // Only a car with room to turn round before its route ends: near the end it backs onto it.
  if (u.pivot_turn_rate > 0.0 || !(u.turning_radius > 0.0) || room <= 2.0 * u.turning_radius) return false;
  const double err = wrap_angle(dmath::atan2(dir.y, dir.x) - a.st.pose.heading);
  if (std::abs(err) <= kTurnDone) return false;  // turned round: it drives on
  const double side = err >= 0.0 ? 1.0 : -1.0;
  const double need = u.turning_radius * std::abs(err);  // arc length to face along the route [cells]
  const double ahead = free_arc(a, 1, side, need + kArcMargin, true);
  const double behind = u.can_reverse ? free_arc(a, -1, side, need + kArcMargin, true) : 0.0;
  int gear = gear_before;
  if (gear == 0) gear = ahead >= kMinArc ? 1 : -1;
  else if (gear > 0 && ahead < kMinArc) gear = -1;
  else if (gear < 0 && (behind < kMinArc || ahead >= need + kArcMargin)) gear = 1;  // back until the turn fits ahead
  if ((gear > 0 ? ahead : behind) < kMinArc) return false;  // no room to turn: the sampler's (it backs along)
  if (gear_before == 0 || std::abs(err) < a.turn_best - kTurnProgress) {
    // Facing closer to the route is progress: the stuck remedies (re-plans, backing up) would
    // break off the turn.
    if (gear_before != 0) a.progress_time = t;
    a.turn_best = std::abs(err);
    a.turn_progress = t;
  } else if (t - a.turn_progress > kTurnGiveUp) {
    // Shunting without coming round (a car beside a wall's end held 40 s so): the sampler and
    // the stuck remedies take it for a while.
    a.turn_off_until = t + kTurnRest;
    return false;
  }
  const double free = (gear > 0 ? ahead : behind) - 0.5 * kMinArc;
  const double top = gear > 0 ? std::min(u.max_speed, kTurnSpeed) : u.max_reverse_speed;
  a.turn_gear = gear;
  a.target_speed = static_cast<double>(gear) * std::min({top, std::sqrt(u.braking * std::max(0.0, free)), free / def_.dt});
  a.target_turn = side * u.max_turn_rate;  // move() holds it to the turning radius
  return true;
}

}  // namespace pathlab
