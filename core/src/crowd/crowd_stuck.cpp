// Units that make no progress: detecting it, and resolving it (give way by priority, re-plan
// around the units in the way, back up, take another slot) or saying why a unit cannot arrive.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {
namespace {

constexpr double kArriveDistance = 0.1;  ///< As in crowd_arrive.cpp: this close to its target, a unit is not stuck. [Units: cells]
constexpr double kYieldTime = 1.5;       ///< How long a unit gives way. [Units: s]
constexpr double kVisibilityPeriod = 0.5;///< How often a unit checks it still sees its waypoint. [Units: s]
constexpr double kBlockerGap = 0.5;       ///< Bodies this close count as "in the way". [Units: cells]
constexpr double kLockedFirst = 5.0;  ///< A unit held in one place this long goes first, whatever its rank. [Units: s]
constexpr double kDriveAfter = 10.0;  ///< Stuck this long with nothing in the way: a car plans a drivable detour. [Units: s]
constexpr double kReverseSpeed = 0.2; ///< Slower than this in reverse is not driving in reverse. [Units: cells/s]
/// A unit with a free heading farther than kOnTheWay along its route from its target counts as
/// stuck after this long without progress, and asks the unit in its way to give way this often
/// (stuck_round). [Units: s]
constexpr double kGiveWayRound = 0.75;
constexpr double kOnTheWay = 3.0;  ///< [Units: cells]

}  // namespace

void CrowdImpl::track_progress(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const double t = time();
  const Vec2 pos = a.st.pose.pos;
  update_arrival(id);
  if (a.group >= 0) {
    claim_slot(id);
    park_if_held(id);
  }
  const double arrive = std::max(kArriveDistance, a.def.unit.follower.arrive_distance);
  // On its spot (turning to the goal heading, or nudged within half its radius) is not stuck.
  if (a.at_spot || (a.st.route.size() >= 2 && glm::length(a.st.target - pos) < arrive)) {
    a.st.stuck = false;
    a.progress_time = t;
    // At its target the rest of a detour is moot: a person 0.08 cells from its slot kept
    // pursuing the detour's next corner, pressed against its neighbours for 22 s, never stopped.
    if (a.st.route.size() >= 2) a.st.next_waypoint = static_cast<int>(a.st.route.size()) - 1;
    return;
  }
  note_reversing(a);
  // Read ahead by prepare_progress() while the route and its next waypoint are the same.
  const bool ahead = a.remaining_version != 0 && a.remaining_version == a.route_version &&
                     a.remaining_next == a.st.next_waypoint && a.st.route.size() >= 2;
  const double rem = ahead ? a.remaining_ahead : remaining_route(a);
  if (rem < a.best_remaining - def_.progress_distance) {
    a.best_remaining = rem;
    a.progress_time = t;
    a.st.stuck = false;
    a.next_resolve = 0.0;
    // Moving again: the report of its holds is over (it kept re-planning all along). It said
    // "gave up" with its old blocker to a unit walking at full speed (1,000 persons, 600 s).
    if (a.gave_up && !a.heading_given_up) {
      a.gave_up = false;
      a.st.why.clear();
    }
  } else if (const double round = stuck_round(a, rem); t - a.progress_time >= round) {
    a.st.stuck = !a.st.waiting;
    if (a.st.stuck) {
      ++a.m.stuck_steps;
      a.stuck_total += def_.dt;
    }
    if (t >= a.next_resolve) {
      a.next_resolve = t + round;
      if (a.st.waiting) {
        a.st.replan_cause = CrowdReplanCause::retry;
        plan_route(id);
      } else {
        // Detours and re-plans keep CrowdDef::stuck_time's round; only the give-way may come
        // sooner (stuck_round).
        const bool full = t - a.progress_time >= def_.stuck_time && t >= a.next_full_resolve;
        if (full) a.next_full_resolve = t + def_.stuck_time;
        resolve_deadlock(id, full);
      }
    }
  }
  if (t >= a.next_visibility_check && !a.st.waiting && a.st.route.size() >= 2) {
    a.next_visibility_check = t + kVisibilityPeriod;
    // The waypoint as noted in the decision, while it is the route's (no load of the route's block).
    const Vec2 q = waypoint_noted(a) ? a.waypoint : a.st.route[static_cast<size_t>(a.st.next_waypoint)];
    // prepare_progress() answered it on a worker thread, unless the route changed since.
    const bool seen = a.sight >= 0 && a.sight_point == q ? a.sight == 1 : segment_clear(grid_, pos, q, a.def.unit.radius);
    if (!seen) {
      a.st.replan_cause = CrowdReplanCause::out_of_sight;
      plan_route(id);
    }
  }
}

double CrowdImpl::stuck_round(const crowd::Agent& a, double rem) const {
  // A person jammed in the mouth of a door one wide waits for the units round it to give way,
  // and they give way for kYieldTime when asked. Asked every 2 s (CrowdDef::stuck_time), the
  // door of a doorway scene with 28 persons (bench_doorway, 36 runs with one unit left out or
  // another step) stood unused over 10 s in 18 runs while persons waited for it, the longest
  // wait over 10 s in 29 runs (54.7 s); asked every 0.75 s, 4 and 15 runs (16.1 s); bench512's
  // 28 runs to 300 s, locks over 10 s 4 -> 1, arrivals 266 -> 288. Detours and re-plans keep
  // the 2 s round (sooner, a counterflow of 2 x 40 units churned and did not all arrive). Near
  // its target a unit keeps the calm round (settling needs no haste, and sooner give-ways
  // pushed units off their slots), and so does one of a large group on its shared flow field,
  // whose queues the field's costs spread already: 40 persons through a doorway 4 cells wide
  // (test_scene_units) were 28 through after 20 s, 18 with every unit on the short round, 23
  // with these kept off it; they settle a little later still (15 runs with one unit left out or
  // another step: median 56 -> 60 s, the last 69 -> 84 s).
  if (!a.holonomic || a.st.waiting || crowd::on_group_field(a) || rem <= kOnTheWay) return def_.stuck_time;
  if (a.group >= 0) {
    // Among the units settling round a shared goal: as far out as its rings of slots reach.
    const crowd::GoalGroup& g = groups_[static_cast<size_t>(a.group)];
    int rings = 0;
    while (1 + 3 * rings * (rings + 1) < static_cast<int>(g.members.size())) ++rings;
    const double spacing = g.spacing > 0.0 ? g.spacing : 2.0 * a.def.unit.radius + 0.25;
    if (glm::length(a.st.pose.pos - g.goal) <= rings * spacing + kOnTheWay) return def_.stuck_time;
  }
  return std::min(def_.stuck_time, kGiveWayRound);
}

void CrowdImpl::note_reversing(crowd::Agent& a) const {
  if (a.st.speed > -kReverseSpeed) a.reverse_since = -1.0;
  else if (a.reverse_since < 0.0) a.reverse_since = time();
}

void CrowdImpl::resolve_deadlock(int id, bool full) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const Vec2 pos = a.st.pose.pos;
  const double t = time();
  int nearest = -1;
  double nearest_gap = kBlockerGap;
  std::vector<Cell> blockers;
  for (int j : a.st.neighbors) {
    const crowd::Agent& b = agents_[static_cast<size_t>(j)];
    const double gap = glm::length(b.st.pose.pos - pos) - a.def.unit.radius - b.def.unit.radius;
    if (gap >= kBlockerGap) continue;
    if (gap < nearest_gap) {
      nearest_gap = gap;
      nearest = j;
    }
    if (!full || std::abs(b.st.speed) > 0.2 * b.def.unit.max_speed) continue;  // (no detour this round)
    // A unit standing in the way is a wall for the detour: the cells its disc overlaps.
    const Vec2 c = b.st.pose.pos;
    const double rb = b.def.unit.radius;
    for (int y = static_cast<int>(std::floor(c.y - rb)); y <= static_cast<int>(std::floor(c.y + rb)); ++y) {
      for (int x = static_cast<int>(std::floor(c.x - rb)); x <= static_cast<int>(std::floor(c.x + rb)); ++x) {
        const Cell cell{x, y};
        if (!grid_.in_bounds(cell) || cell == cell_of(pos) || cell == cell_of(a.st.target)) continue;
        blockers.push_back(cell);
      }
    }
  }
  if (nearest >= 0) {
    crowd::Agent& b = agents_[static_cast<size_t>(nearest)];
    // Priority: the unit added first goes first; a unit that has arrived always gives way.
    bool other_yields = b.st.reached || (!a.st.reached && nearest > id);
    // The unit held in one place longer goes first once either has been held a while: by rank
    // alone a car wedged between a wall and a car of higher rank behind it was asked to back
    // into that car, and both stood 15 s (50 units leaving one corner of bench512).
    const double a_held = t - a.lock_since, b_held = t - b.lock_since;
    if (!a.st.reached && !b.st.reached && std::max(a_held, b_held) >= kLockedFirst) other_yields = a_held >= b_held;
    crowd::Agent& yielder = other_yields ? b : a;
    const Vec2 from = other_yields ? pos : b.st.pose.pos;
    Vec2 away = yielder.st.pose.pos - from;
    const double len = glm::length(away);
    away = len > 1e-9 ? away / len : Vec2(1.0, 0.0);
    const UnitDef& yu = yielder.def.unit;
    if (!yielder.holonomic && yu.pivot_turn_rate <= 0.0 && yu.can_reverse && !yielder.at_spot) {
      // A car cannot step aside: asked to, it pushed sideways into the unit beside it, two cars
      // side by side at a wall corner stood for 3 minutes. It backs up and comes at it again.
      yielder.maneuver_until = t + 1.0;
    } else {
      yielder.yield_dir = away;
      yielder.yield_until = t + kYieldTime;
    }
  }
  if (!full) return;  // only the give-way this round (stuck_round)
  if (a.slot >= 0) resettle(id);
  const std::vector<Vec2> old = a.st.route;
  const int replans = a.m.replans;
  const bool other_way = flow_way_changed(id);
  if (other_way) plan_route(id);  // its group's field leads round the queue now (crowd_queue.cpp)
  else if (!blockers.empty()) plan_route(id, blockers);
  if (a.m.replans != replans) {
    a.st.replan_cause = a.st.route != old && !other_way ? CrowdReplanCause::detour : CrowdReplanCause::stuck;
  }
  // Nothing in the way and still stuck after a round of the usual remedies: a car's route
  // has a turn it cannot make there; drive a detour it can (crowd_drive.cpp).
  const bool drove = nearest < 0 && a.stuck_total >= kDriveAfter && plan_drivable_route(id);
  if (!drove && a.st.route == old) {
    a.st.replan_cause = CrowdReplanCause::stuck;
    plan_route(id);
  }
  const UnitDef& u = a.def.unit;
  if (!a.holonomic && u.pivot_turn_rate == 0.0 && u.can_reverse && nearest < 0) {
    a.maneuver_until = t + 1.0;  // cannot turn on the spot: back up and come at it again
  }
  if (a.stuck_total > def_.give_up_time && !a.gave_up) {
    a.gave_up = true;
    a.st.why = "stuck " + std::to_string(static_cast<int>(a.stuck_total)) + " s in all" +
               (nearest >= 0 ? ": blocked by agent " + std::to_string(nearest) : ": blocked");
  }
}

}  // namespace pathlab
