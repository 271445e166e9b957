// When a unit of the crowd has arrived, and how long anything that wants to move has been
// locked in place (CrowdMetrics::longest_lock).
//
// Arrived is the single-unit simulation's rule (follower.cpp, arrive_or_face_goal): at the
// target within the arrive distance, facing the goal heading within kGoalHeadingTolerance where
// one was given, and stopped. Before, a crowd unit counted as arrived for good once it had
// come near its target, even when it was pushed off it later or still turning.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "crowd/crowd_impl.hpp"
#include "pathlab/follower.hpp"

namespace pathlab {
namespace {

constexpr double kArriveDistance = 0.1;  ///< A unit this close to its target is on its spot (or its preset's arrive_distance, if larger). [Units: cells]
constexpr double kSettleFraction = 0.5;  ///< A stuck unit this close to its target (in radii) is on its spot; an arrived unit stays on it until pushed farther.
constexpr double kStoppedSpeed = 0.05;   ///< Slower than this is stopped. [Units: cells/s]
constexpr double kSettleTime = 1.0;      ///< A unit held in one place this long within `hold` of its spot is on it. [Units: s]

std::string fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

void CrowdImpl::update_arrival(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const double t = time();
  const double d = glm::length(a.st.target - a.st.pose.pos);
  // A car parks near the spot (its preset says how near): landing on a point takes manoeuvres.
  // A unit stuck (or held in one place for a second) within half its radius of the spot is on
  // it too: a bear 0.13 cells from its slot, hemmed in by a person it would have to turn into,
  // waited there for a minute; another stood 0.2 cells off for a minute, never flagged stuck. The
  // same half radius is how far a unit on its spot may be nudged before it is off it again,
  // so a neighbour's brush does not make it flicker between arrived and not.
  const double arrive = std::max(kArriveDistance, a.def.unit.follower.arrive_distance);
  const double hold = std::max(arrive, kSettleFraction * a.def.unit.radius);
  // Hemmed in: stuck, or standing within lock_distance of one place for kSettleTime.
  const bool hemmed = a.st.stuck || (!a.st.waiting && t - a.lock_since >= kSettleTime);
  if (d < (hemmed ? hold : arrive)) {
    a.at_spot = true;
    if (!a.st.reached) {
      a.st.reached = true;
      mark_flow(id);  // a unit on its spot is no longer traffic
    }
  } else if (d > hold) {
    a.at_spot = false;
  }
  const bool stopped = std::abs(a.st.speed) < kStoppedSpeed;
  double off = 0.0;
  if (a.def.goal_heading) off = std::abs(std::remainder(*a.def.goal_heading - a.st.pose.heading, 2.0 * kPi));
  const bool facing = off <= kGoalHeadingTolerance;
  if (a.at_spot && stopped && !facing && a.def.unit.pivot_turn_rate <= 0.0 && !a.heading_given_up) {
    // It cannot turn on the spot, and creeping about the goal would not turn it: say so.
    a.heading_given_up = true;
    a.gave_up = true;  // keeps `why` over re-plans
    a.st.why = "at its goal facing " + fixed1(rad_to_deg(off)) + " degrees off the goal heading: it cannot turn on the spot";
  }
  const bool now = a.at_spot && stopped && facing;
  if (now && !a.m.arrived) a.m.time_to_goal = t;
  if (!now) a.m.time_to_goal.reset();
  a.m.arrived = now;
  a.st.arrived = now;
}

void CrowdImpl::track_locks() {
  const double t = time();
  const double reach = def_.lock_distance;
  // The units on the worker threads (each writes only its own lock state); the longest lock is
  // the first unit in index order with the longest, as a serial pass finds it: each thread keeps
  // its longest and the lowest index with it, whatever chunks it ran.
  struct Longest {
    double locked = -1.0;
    int agent = -1;
  };
  const int n = static_cast<int>(agents_.size());
  std::vector<Longest> parts(static_cast<size_t>(pool_.parts(n)));
  parallel_phase("locks", n, [&](int begin, int end, int part) {
    Longest& best = parts[static_cast<size_t>(part)];
    for (int i = begin; i < end; ++i) {
      crowd::Agent& a = agents_[static_cast<size_t>(i)];
      // Wants to move: not arrived, has a route (a unit waiting for a door to open has none),
      // and has not given up on a goal heading it cannot turn to.
      const bool wants = !a.m.arrived && !a.st.waiting && !a.heading_given_up;
      if (!wants || glm::length(a.st.pose.pos - a.lock_anchor) >= reach) {
        a.lock_anchor = a.st.pose.pos;
        a.lock_since = t;
        continue;
      }
      const double locked = t - a.lock_since;
      a.m.longest_lock = std::max(a.m.longest_lock, locked);
      if (locked > best.locked || (locked == best.locked && i < best.agent)) best = Longest{locked, i};
    }
  });
  double& worst = longest_lock_;
  Longest best;
  for (const Longest& p : parts) {
    if (p.agent >= 0 && (p.locked > best.locked || (p.locked == best.locked && p.agent < best.agent))) best = p;
  }
  if (best.agent >= 0 && best.locked > worst) {
    worst = best.locked;
    longest_lock_agent_ = best.agent;
    longest_lock_obstacle_ = -1;
  }
  for (size_t k = 0; k < movers_.size(); ++k) {
    crowd::Mover& m = movers_[k];
    const bool wants = !m.st.finished && t >= m.def.start_time;
    // Progress is net distance along the route: backing off and coming back to the same unit
    // is no progress.
    if (!wants || m.odometer - m.lock_odometer >= reach) {
      m.lock_odometer = m.odometer;
      m.lock_since = t;
      continue;
    }
    const double locked = t - m.lock_since;
    m.st.longest_lock = std::max(m.st.longest_lock, locked);
    if (locked > worst) {
      worst = locked;
      longest_lock_agent_ = -1;
      longest_lock_obstacle_ = static_cast<int>(k);
    }
  }
}

}  // namespace pathlab
