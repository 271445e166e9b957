// Vehicles tracking their routes in the crowd. A unit whose heading is not free (a car, a tank,
// a bear) cannot sidestep: steering it by the avoidance velocity (the sampler of
// crowd_avoid.cpp) makes it leave the route its planner drew, and a vehicle planner's route is
// the one place it is known to fit (a tank on a Directional A* route looped near its goal for
// 60 s, 62 wall contacts). So on a route it can drive it follows the route's legs as the
// single-unit follower does, and the other units are a speed limit along the route: it brakes
// to stop short of any of them, waits, and the crowd's stuck handling (giving way by priority,
// a detour round the units in the way) does the rest. Persons keep ORCA.

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "crowd/crowd_impl.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

/// The angle in [-pi, pi] (a remainder, not a loop: a start heading of 1e300 must not hang).
double wrap_angle(double a) { return std::remainder(a, 2.0 * kPi); }

constexpr double kCrossGain = 2.0;     ///< Its heading corrects an offset from the route's line at this rate ... [Units: 1/s]
constexpr double kCrossSoft = 0.5;     ///< ... softened at low speed by this. [Units: cells/s]
constexpr double kHeadingTime = 0.25;  ///< It turns a heading error away over about this. [Units: s]
constexpr double kRideOffset = 0.15;   ///< Closer to the route's line than this ... [Units: cells]
constexpr double kRideAngle = 0.35;    ///< ... and facing along it within this, it rides the route. [Units: radians]
constexpr double kPatience = 4.0;     ///< Stuck this long, a vehicle leaves its route to the sampler until it gets on. [Units: s]
constexpr double kCreep = 0.05;       ///< Slower than this is stopped. [Units: cells/s]
constexpr double kEndSlack = 0.02;     ///< Closer to the route's end than this is on it. [Units: cells]
constexpr double kOnRouteAngle = 0.7;   ///< A vehicle facing its route's leg within this ... [Units: radians]
constexpr double kOnRouteOffset = 0.5;  ///< ... and this near its line follows it. [Units: cells]
constexpr double kMaxCorner = 0.35;  ///< A route corner sharper than this is not one a vehicle drives as it is. [Units: radians]
constexpr double kClearance = 0.1;   ///< Gap kept to other units moving ahead on the route. [Units: cells]
constexpr double kTouch = 1e-3;      ///< ... and to units standing beside it. [Units: cells]
constexpr double kApproach = 0.02;   ///< A unit within reach blocks where the route comes this much closer to it. [Units: cells]
constexpr double kStandingSpeed = 0.05;  ///< Slower than this is standing. [Units: cells/s]
constexpr double kScanStep = 0.1;    ///< Spacing of the points of the route ahead checked against other units. [Units: cells]
constexpr double kCornerReach = 0.05; ///< A vehicle this near a sharp corner it stopped at turns to the next leg. [Units: cells]
constexpr double kAloneGap = 2.0;    ///< No other unit within this gap: it may stop and pivot at sharp corners. [Units: cells]
constexpr double kScanExtra = 1.0;   ///< Route checked ahead: the braking distance at top speed plus this. [Units: cells]
constexpr double kRejoin = 2.0;      ///< The route ahead is checked as driven: the unit's offset from its leg's line gone over this. [Units: cells] [Limit: > 0]
/// Among other units, a unit that pivots steers when slow for its leg's line this far ahead,
/// not kCrossSoft / kCrossGain (0.25 cells): a tank 0.28 cells beside its leg in bench512's
/// starting patch turned on the spot to 93 degrees for a 45-degree leg, 1.5 s, then back.
constexpr double kPivotAim = 0.75;  ///< [Units: cells] [Limit: > 0]
/// The longest cycle of waits (each unit held by the next on its route ahead, the last by the
/// first) the right of way looks for: the walk along who waits for whom stops there, so it
/// costs at most this many steps per unit in reach. [Units: units] [Limit: >= 1]
constexpr int kWaitCycle = 8;

/// The route leg (index of its end point, >= 1) a unit at `pos` is on: next_waypoint passes
/// points up to a radius ahead of it (crowd_route.cpp), so look back from it first, then on to
/// the first leg whose end is still ahead of the unit.
size_t current_leg(const std::vector<Vec2>& route, int next_waypoint, Vec2 pos) {
  size_t leg = static_cast<size_t>(std::max(1, next_waypoint));
  while (leg > 1 && glm::dot(pos - route[leg - 1], route[leg] - route[leg - 1]) < 0.0) --leg;
  while (leg + 1 < route.size() && glm::dot(pos - route[leg], route[leg + 1] - route[leg]) > 0.0) ++leg;
  return leg;
}

/// The turn at route[k] from the leg before to the leg after (0 at a repeated point). [Units: radians]
double corner_at(const std::vector<Vec2>& route, size_t k) {
  const Vec2 l0 = route[k] - route[k - 1], l1 = route[k + 1] - route[k];
  if (glm::length(l0) <= 1e-9 || glm::length(l1) <= 1e-9) return 0.0;
  return wrap_angle(dmath::atan2(l1.y, l1.x) - dmath::atan2(l0.y, l0.x));
}

/// The first route point at or after `leg` where the route turns more than kMaxCorner (the
/// route's last point if none).
size_t next_sharp_corner(const std::vector<Vec2>& route, size_t leg) {
  for (size_t k = leg; k + 1 < route.size(); ++k) {
    if (std::abs(corner_at(route, k)) > kMaxCorner) return k;
  }
  return route.size() - 1;
}

/// Distance from p to the segment a-b. [Units: cells]
double segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 1e-18 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + t * ab));
}

/// Distance left along `route` from `pos` on leg `leg` (direction `dir`) to the point `stop`
/// [cells], signed on the last leg (negative: past the end), summed only until it exceeds `reach`,
/// as far as it matters to braking: summed over the whole route every step, a smoothed 512-cell
/// crowd ran three times slower.
double distance_left(const std::vector<Vec2>& route, size_t leg, size_t stop, Vec2 pos, Vec2 dir, double reach) {
  double rem = glm::dot(route[leg] - pos, dir);
  if (leg < stop) rem = std::max(rem, 0.0);
  for (size_t k = leg; k < stop && rem <= reach; ++k) rem += glm::length(route[k + 1] - route[k]);
  return rem;
}

}  // namespace

bool CrowdImpl::alone(const crowd::Agent& a) const {
  for (int j : a.st.neighbors) {
    const crowd::Agent& b = agents_[static_cast<size_t>(j)];
    if (glm::length(b.st.pose.pos - a.st.pose.pos) < a.def.unit.radius + b.def.unit.radius + kAloneGap) return false;
  }
  return true;
}

int CrowdImpl::last_sharp_corner(crowd::Agent& a) const {
  // Cached per route (its size and ends say when it changed): the check costs an atan2 per
  // point, and a smoothed route of a 512-cell map has thousands.
  const auto& route = a.st.route;
  if (route.size() != a.sharp_key_size || route.front() != a.sharp_key_front || route.back() != a.sharp_key_back) {
    a.sharp_key_size = route.size();
    a.sharp_key_front = route.front();
    a.sharp_key_back = route.back();
    a.sharp_last = -1;
    for (size_t k = 1; k + 1 < route.size(); ++k) {
      if (std::abs(corner_at(route, k)) > kMaxCorner) a.sharp_last = static_cast<int>(k);
    }
  }
  return a.sharp_last;
}

bool CrowdImpl::track_route(crowd::Agent& a) const {
  // The sampled (speed, turn) pairs are too coarse to follow a curve or stop on a point, and
  // the preferred velocity cuts a route's bends. A vehicle on a route it can drive follows the
  // route's legs to the end (whose last one is the goal heading for a vehicle planner's route)
  // and brakes along the distance left.
  const UnitDef& u = a.def.unit;
  const auto& route = a.st.route;
  const int turn_gear = std::exchange(a.turn_gear, 0);  // kept only while it goes on turning round
  if (a.holonomic || route.size() < 2 || time() < a.maneuver_until) return false;
  // Backing along its route, a car turns round instead (crowd_turn.cpp).
  if (u.pivot_turn_rate <= 0.0 && turn_round_to_route(a, turn_gear)) return true;
  // Waiting has not helped for a while (a unit stands where the route passes, itself hemmed in,
  // and a detour round it is the same route): the sampler may squeeze past or back out, as it
  // did before (50 units starting in one corner of bench512 held two vehicles 88 s otherwise).
  if (a.st.stuck && time() - a.progress_time > kPatience) return false;
  const Vec2 pos = a.st.pose.pos;
  const bool pivots = u.pivot_turn_rate > 0.0;
  size_t leg = current_leg(route, a.st.next_waypoint, pos);
  // Only a route it can drive: a grid route's corners (45 or 90 degrees, in clutter) are the
  // sampler's and the drivable detour's (crowd_drive.cpp) to round, backing up where it must.
  // (Units that can pivot stopping to turn at such corners instead made a counterflow of 2 x 40
  // units through doorways worse: 3 of 80 not arrived in 120 s, locks of 60 s, against none.)
  // (Checking only the next few cells instead made that counterflow worse again: 79 of 80
  // arrived, a lock of 26 s.)
  // A unit that can pivot and has no other unit near drives a grid route's legs one by one,
  // stopping at each sharp corner to turn on the spot (the sampler cut the figure-8 corners:
  // 24 wall contacts in a corridor one cell wide). Among other units it stays the sampler's,
  // as above.
  size_t stop = route.size() - 1;  // where it brakes to a stop: the route's end, or a sharp corner
  if (static_cast<int>(leg) <= last_sharp_corner(a)) {
    if (!pivots || !alone(a)) return false;
    stop = next_sharp_corner(route, leg);
    if (stop == leg && glm::length(pos - route[leg]) <= kCornerReach) stop = next_sharp_corner(route, ++leg);
  }
  const Vec2 from = route[leg - 1], to = route[leg];
  const double len = glm::length(to - from);
  if (len < 1e-9) return false;
  const Vec2 dir = (to - from) / len;
  const double rem = distance_left(route, leg, stop, pos, dir, u.max_speed * u.max_speed / u.braking + kEndSlack);
  // Steer along the leg's direction, back onto its line (Stanley: Thrun et al. 2006, "Stanley:
  // the robot that won the DARPA Grand Challenge"), plus the bend to the next leg. Pure pursuit
  // of a point ahead lagged a route's final bend: cars parked 11 degrees off the goal heading.
  const Vec2 normal(-dir.y, dir.x);
  const double cross = glm::dot(pos - from, normal);  // signed offset from the leg's line [cells]
  const double speed_now = std::abs(a.st.speed);
  // (kPivotAim: a pivot among other units, slow, aims further ahead than 0.25 cells.)
  const double soft = pivots && !alone(a) ? std::max(speed_now + kCrossSoft, kCrossGain * kPivotAim) : speed_now + kCrossSoft;
  const double want = dmath::atan2(dir.y, dir.x) - dmath::atan2(kCrossGain * cross, soft);
  const double err = wrap_angle(want - a.st.pose.heading);
  const double heading_off = std::abs(wrap_angle(dmath::atan2(dir.y, dir.x) - a.st.pose.heading));
  if (std::abs(cross) > kOnRouteOffset) return false;  // pushed off it: the sampler's, which may back up to line up
  // Facing away from the route: one that cannot turn on the spot is the sampler's, which backs
  // up. One that can stops and turns to the steering heading (not the leg's: a tank 0.18 cells
  // beside its route faced the steering heading, 36 degrees off the leg, and stood 100 s waiting
  // to face the leg); once stopped, it turns to within kRideAngle before it drives.
  if (!pivots && heading_off > kOnRouteAngle) return false;
  if (pivots && (std::abs(err) > kOnRouteAngle || (speed_now < kCreep && std::abs(err) > kRideAngle))) {
    if (rem <= kEndSlack) return false;
    a.target_speed = 0.0;
    a.target_turn = std::clamp(err / def_.dt, -u.pivot_turn_rate, u.pivot_turn_rate);
    return true;
  }
  // On the line and facing along it: drive along the route exactly (as the track follower does).
  // A vehicle planner's route bends at the turning radius itself, so steering that lags it by
  // a step can never catch up: cars parked 11-23 degrees off the goal heading.
  a.ride = std::abs(cross) < kRideOffset && heading_off < kRideAngle;
  a.ride_stop = stop;
  double bend = 0.0;  // curvature of the route here [1/cells]
  if (leg < stop) {
    const double next_len = glm::length(route[leg + 1] - to);
    if (next_len > 1e-9) bend = corner_at(route, leg) / (0.5 * (len + next_len));
  }
  // Brake so that half the braking stops it at the end (the preferred velocity's profile), and
  // never more than the distance left in one step: no overshoot. Past the end: stop, never back.
  double speed = rem <= kEndSlack ? 0.0 : std::min({u.max_speed, std::sqrt(u.braking * rem), rem / def_.dt});
  speed = std::min(speed, route_speed_limit(a, leg, a.blocked_by));
  a.target_speed = speed;
  a.target_turn = bend * speed + err / kHeadingTime;  // move() holds it to the turning radius
  return true;
}

bool CrowdImpl::has_right_of_way(const crowd::Agent& a, const crowd::Agent& b) const {
  const double ra = remaining_route(a), rb = remaining_route(b);
  return ra < rb || (ra == rb && &a < &b);  // agents_ is in id order
}

bool CrowdImpl::first_in_wait_cycle(const crowd::Agent& a, int j) const {
  // Who waits for whom is a graph, and units that wait for each other round a cycle of it are
  // deadlocked (the circular wait of Coffman, Elphick and Shoshani, "System Deadlocks", 1971):
  // one of them has to go first. Two holding each other was the only cycle looked for; in
  // bench512's merge north of the wall block at (15-17, 21-23) three and more stood round one
  // (dt 1/65: bear 47 held by bear 46, 46 by 49, 49 by 47, tank 2 behind them 11.3 s).
  const int self = static_cast<int>(&a - agents_.data());
  int k = j;
  for (int len = 1; len <= kWaitCycle; ++len) {
    const crowd::Agent& c = agents_[static_cast<size_t>(k)];
    if (!c.tracking || c.blocked_by < 0) return false;  // waits for no one, or is not tracking: no cycle here
    if (c.blocked_by != self) {
      k = c.blocked_by;
      continue;
    }
    // The cycle a -> j -> ... -> c -> a: a goes first if it has the right of way over each.
    for (int m = j, n = 0; n < len; ++n) {
      const crowd::Agent& d = agents_[static_cast<size_t>(m)];
      if (!has_right_of_way(a, d)) return false;
      m = d.blocked_by;
    }
    return true;
  }
  return false;
}

double CrowdImpl::route_speed_limit(const crowd::Agent& a, size_t leg, int& blocker) const {
  const UnitDef& u = a.def.unit;
  const auto& route = a.st.route;
  const Vec2 pos = a.st.pose.pos;
  // The other units as their stretch of travel over the ORCA horizon (a unit crossing the route
  // is in the way before it reaches it). One already within reach counts only where the route
  // comes closer to it still: a bear stood for a minute beside a car touching it, its route
  // running along the car (the move check keeps the bodies apart).
  struct Other {
    Vec2 p0, p1, velocity;
    double reach;
    int id;
  };
  Other others[64];
  int n = 0;
  blocker = -1;
  for (int j : a.st.neighbors) {
    if (n == 64) break;
    const crowd::Agent& b = agents_[static_cast<size_t>(j)];
    // Right of way where units hold each other round a cycle (where their routes merge, each
    // one's route ahead runs within reach of the next standing there): the one with less of
    // its route left drives on, the others still wait. All waited until the stuck remedies moved
    // them aside, off their routes, with the units behind them: in bench512 (units 0-19 left
    // out in turn) the knots of 6-10 units north of the wall block at (15-17, 21-23) held units
    // 11-19 s. (blocked_by is from each unit's last move: the moves run in index order, serially.)
    if (first_in_wait_cycle(a, j)) continue;
    // A gap to a moving unit; one standing may be passed as closely as bodies go (the move
    // check's rule): a tank kept a gap from a person settled beside its route and stood 48 s.
    const bool moving = glm::dot(b.st.velocity, b.st.velocity) > kStandingSpeed * kStandingSpeed;
    const Other o{b.st.pose.pos, b.st.pose.pos + b.st.velocity * def_.time_horizon, b.st.velocity,
                  u.radius + b.def.unit.radius + (moving ? kClearance : kTouch), j};
    others[n] = o;
    others[n++].reach = std::min(o.reach, segment_distance(pos, o.p0, o.p1) - kApproach);
  }
  // Walk the route ahead to the braking distance: stop before the first point within reach of
  // another unit (plus its speed along the route: following a unit that drives on is fine), and
  // be slow enough at each bend to take it (the turn rate, the sideways acceleration).
  double limit = u.max_speed;
  const double scan = u.max_speed * u.max_speed / u.braking + kScanExtra;
  double s = 0.0;  // distance along the route from the unit [cells]
  // The route ahead as the unit drives it: from where it stands, its offset from the leg's
  // line shrinking to nothing over kRejoin (it steers back gradually). The line itself ran
  // through the unit beside it wherever a unit stood off its cell's centre line, so in
  // bench512's starting patch of 50 units 0.05 cells apart the front vehicles stood 2-6 s
  // for neighbours they were not driving into (tank 45 with unit 1 left out: 5 s).
  Vec2 off(0.0);
  {
    const Vec2 la = route[leg - 1], ld = route[leg] - la;
    const double ll = glm::dot(ld, ld);
    if (ll > 1e-18) off = (pos - la) - ld * (glm::dot(pos - la, ld) / ll);
  }
  Vec2 p = pos - off;
  for (size_t k = leg; k < route.size() && s < scan; ++k) {
    const Vec2 end = route[k];
    const double l = glm::length(end - p);
    const Vec2 d = l > 1e-9 ? (end - p) / l : Vec2(0.0);
    for (double t = 0.0; n > 0 && t < l && s + t < scan; t += kScanStep) {
      const Vec2 q = p + t * d + off * std::max(0.0, 1.0 - (s + t) / kRejoin);
      for (int i = 0; i < n; ++i) {
        if (segment_distance(q, others[i].p0, others[i].p1) >= others[i].reach) continue;
        const double gap = std::max(0.0, s + t - kScanStep);
        const double lead = std::max(0.0, glm::dot(others[i].velocity, d));
        blocker = others[i].id;
        return std::min(limit, lead + std::min(std::sqrt(u.braking * gap), gap / def_.dt));
      }
    }
    s += l;
    if (k + 1 < route.size()) {
      const double next = glm::length(route[k + 1] - end);
      const double kappa = next > 1e-9 && l > 1e-9 ? std::abs(corner_at(route, k)) / (0.5 * (l + next)) : 0.0;
      if (kappa > 1e-9) {
        const double v_bend = std::min(u.max_turn_rate / kappa, std::sqrt(u.max_lateral_accel / kappa));
        limit = std::min(limit, std::sqrt(v_bend * v_bend + u.braking * s));
      }
    }
    p = end;
  }
  return limit;
}

Vec2 CrowdImpl::ride_velocity(Vec2 pos, const Pose& on, double speed, double top) const {
  // Forward by at most the speed's step, closing a sideways offset no faster than driving at
  // kRideAngle to the route would. (Going to the point itself moved units 0.15 cells sideways in
  // a step, and a tank pushed past its route's end one cell back: 60 cells/s.)
  const double dt = def_.dt;
  const Vec2 ahead(crowd::heading_dir(on.heading));
  const Vec2 step = on.pos - pos;
  const double along = std::clamp(glm::dot(step, ahead), 0.0, std::max(0.0, speed) * dt);
  Vec2 side = step - glm::dot(step, ahead) * ahead;
  const double side_len = glm::length(side), side_max = along * dmath::tan(kRideAngle);
  if (side_len > side_max) side *= side_max / side_len;
  // Never over the top speed, sideways part included (bench512's vehicles rode up to 6.5% over
  // it while closing an offset at full speed): the whole step is scaled down to it.
  const Vec2 v = (along * ahead + side) / dt;
  const double len = glm::length(v);
  return len > top ? v * (top / len) : v;
}

Pose CrowdImpl::ride_pose(const crowd::Agent& a, double ds) const {
  const auto& route = a.st.route;
  const Vec2 pos = a.st.pose.pos;
  size_t leg = current_leg(route, a.st.next_waypoint, pos);
  Vec2 from = route[leg - 1];
  double len = glm::length(route[leg] - from);
  // Behind the route's start (it moved since the plan) it rides the first leg's line from
  // there: clamping to the start jumped a tank 0.09 cells and a car 0.66 cells in one step.
  double along = len > 1e-9 ? std::clamp(glm::dot(pos - from, (route[leg] - from) / len),
                                         leg == 1 ? -std::numeric_limits<double>::infinity() : 0.0, len) + ds
                            : 0.0;
  const size_t stop = std::min(a.ride_stop, route.size() - 1);  // not past a sharp corner it stops at
  while (along > len && leg < stop) {  // on into the next legs
    along -= len;
    from = route[leg];
    ++leg;
    len = glm::length(route[leg] - from);
  }
  along = std::min(along, len);  // never past the end
  const Vec2 dir = len > 1e-9 ? (route[leg] - from) / len : crowd::heading_dir(a.st.pose.heading);
  double heading = dmath::atan2(dir.y, dir.x);
  const double off = a.def.goal_heading ? wrap_angle(*a.def.goal_heading - heading) : 0.0;
  if (leg + 1 == route.size() && len > 1e-9 && std::abs(off) < crowd::kChordTurn) {
    // The last chord of a bend is half a chord's turn short of the goal heading: turn to it
    // along that chord (only that little: a car never crabs onto a heading its route lacks).
    heading += off * (along / len);
  }
  return Pose{from + along * dir, wrap_angle(heading)};
}

}  // namespace pathlab
