// Crowd::explain: why one unit moves as it does. The decision is worked out on a clone of the
// crowd with the step's own code (its phases before the decisions, then decide() for the one
// unit), so the constraints reported are exactly the ones the next step solves, and the crowd
// asked is not touched.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "crowd/crowd_impl.hpp"

namespace pathlab {
namespace {

constexpr double kBinding = 1e-6;  ///< A constraint binds when the preferred velocity breaks it by more. [Units: cells/s]

std::string fixed(double v, int decimals = 2) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

/// "unit 3, unit 7 and a wall": who holds the preferred velocity back.
std::string binding_sources(const CrowdExplanation& e) {
  std::vector<std::string> who;
  bool wall = false, obstacle = false;
  for (const CrowdOrcaConstraint& c : e.constraints) {
    const crowd::OrcaLine l{c.point, c.direction};
    if (crowd::violation(l, e.preferred_velocity) <= kBinding) continue;
    if (c.source == CrowdOrcaConstraint::Source::unit) who.push_back("unit " + std::to_string(c.other));
    else if (c.source == CrowdOrcaConstraint::Source::wall) wall = true;
    else obstacle = true;
  }
  if (wall) who.emplace_back("a wall");
  if (obstacle) who.emplace_back("a truck");
  std::string s;
  for (size_t k = 0; k < who.size(); ++k) s += (k == 0 ? "" : k + 1 == who.size() ? " and " : ", ") + who[k];
  return s;
}

/// The ORCA part of the decision: the route's wish against what the constraints allow.
std::string avoidance_words(const CrowdExplanation& e) {
  const double pref = glm::length(e.preferred_velocity), chosen = glm::length(e.chosen_velocity);
  if (pref < 1e-9 && chosen < 1e-9) return "stands: its route asks for no motion";
  const std::string held = binding_sources(e);
  if (held.empty()) {
    return "follows its route at " + fixed(chosen) + " cells/s" +
           (e.constraints.empty() ? ": nothing constrains it" : ": " + std::to_string(e.constraints.size()) +
                                                                    " constraint(s), none in the way");
  }
  std::string s = "avoids " + held + ": its route asks " + fixed(pref) + " cells/s, ORCA allows " + fixed(chosen) +
                  " cells/s, " + fixed(glm::length(e.chosen_velocity - e.preferred_velocity)) + " cells/s off";
  if (e.worst_violation > kBinding)
    s += "; the constraints cannot all be met, so it takes the velocity that breaks the worst of them least (by " +
         fixed(e.worst_violation, 3) + " cells/s)";
  return s;
}

}  // namespace

const char* to_string(CrowdReplanCause cause) noexcept {
  switch (cause) {
    case CrowdReplanCause::none: return "none";
    case CrowdReplanCause::new_goal: return "new goal";
    case CrowdReplanCause::door: return "door toggled";
    case CrowdReplanCause::out_of_sight: return "waypoint out of sight";
    case CrowdReplanCause::retry: return "no route: asked again";
    case CrowdReplanCause::stuck: return "stuck: planned afresh";
    case CrowdReplanCause::detour: return "stuck: detour round units";
    case CrowdReplanCause::drive: return "stuck on a turn: drivable detour";
    case CrowdReplanCause::slot: return "held up: another slot";
  }
  return "?";
}

namespace {

/// e.constraints: the clone's lines as decide() made them, labelled: walls, trucks, then the
/// neighbours that constrain, in order; and the worst violation of the chosen velocity.
void label_constraints(const CrowdImpl& c, const crowd::Agent& a, CrowdExplanation& e) {
  const crowd::Scratch& s = c.scratch_.front();
  std::vector<int> owners;
  for (int j : a.st.neighbors)
    if (c.constrains(e.agent, j)) owners.push_back(j);
  for (size_t k = 0; k < s.lines.size(); ++k) {
    CrowdOrcaConstraint oc;
    oc.point = s.lines[k].point;
    oc.direction = s.lines[k].direction;
    const int ki = static_cast<int>(k);
    oc.hard = ki < s.hard_lines;
    oc.source = ki < s.wall_lines ? CrowdOrcaConstraint::Source::wall
                : oc.hard          ? CrowdOrcaConstraint::Source::obstacle
                                   : CrowdOrcaConstraint::Source::unit;
    const size_t u = k - static_cast<size_t>(s.hard_lines);
    if (!oc.hard && u < owners.size()) oc.other = owners[u];
    e.worst_violation = std::max(e.worst_violation, crowd::violation(s.lines[k], e.chosen_velocity));
    e.constraints.push_back(oc);
  }
}

/// e.mode and e.decision: the first of these that holds decides what the unit does this step.
/// `now` is the unit as it stands, `a` after the clone's decision at time `t`.
void describe_mode(const crowd::Agent& now, const crowd::Agent& a, double t, const CrowdDef& def, CrowdExplanation& e) {
  const std::string avoid = avoidance_words(e);
  if (now.gave_up && now.heading_given_up) {
    e.mode = "gave up";
    e.decision = "gave up turning to the goal heading: " + now.st.why;
  } else if (now.gave_up) {  // stuck long in all: it still re-plans (crowd_stuck.cpp)
    e.mode = "held up";
    e.decision = "held up long, still re-planning: " + now.st.why;
  } else if (now.st.waiting) {
    e.mode = "waits";
    e.decision = "waits for a route (asks again when things change): " + now.st.why;
  } else if (now.st.arrived) {
    e.mode = "arrived";
    e.decision = "stands on its spot" + (now.st.note.empty() ? std::string() : " (" + now.st.note + ")");
  } else if (a.st.yielding) {
    e.mode = "gives way";
    e.decision = "gives way to a unit of higher priority (or a truck): steps aside for " + fixed(a.yield_until - t, 1) +
                 " s more; " + avoid;
  } else if (t < a.maneuver_until) {
    e.mode = "backs up";
    e.decision = "backs up to come at its route again (" + fixed(a.maneuver_until - t, 1) + " s more)";
  } else if (now.tracking) {
    e.mode = "drives its route";
    e.decision = "a vehicle on a route it can drive: it tracks the route itself, other units only limit its speed "
                 "along it (" + fixed(now.st.speed) + " cells/s now)";
  } else {
    e.mode = "follows its route";
    e.decision = avoid;
  }
  if (!a.holonomic && e.target_speed < 0.0 && e.mode != "backs up") e.decision += "; it reverses (cannot sidestep)";
  if (now.st.stuck) {
    e.mode = "stuck, " + e.mode;
    const std::string remedies = e.stuck_after < def.stuck_time
                                     ? "asks for way every " + fixed(e.stuck_after, 2) + " s, detours and re-plans every " +
                                           fixed(def.stuck_time, 1) + " s"
                                     : "remedies every " + fixed(def.stuck_time, 1) + " s: give way, detour, re-plan";
    e.decision = "stuck (no progress for " + fixed(e.no_progress_for, 1) + " s; " + remedies + "); " + e.decision;
  }
}

}  // namespace

Result<CrowdExplanation> CrowdImpl::explain(int id, CrowdRoutePlanner planner) const {
  if (id < 0 || id >= static_cast<int>(agents_.size()))
    return fail(StatusCode::invalid_argument, "explain: unknown agent " + std::to_string(id));
  // The step's phases before the decisions (step()), on a copy: a door toggling or a truck
  // moving in that step changes the unit's constraints as it will for real.
  std::unique_ptr<CrowdImpl> c = clone(std::move(planner));
  c->update_doors();
  c->move_obstacles();
  c->make_way_for_movers();
  c->rebuild_buckets();
  c->find_neighbors(id, c->scratch_.front());
  c->decide(id, c->scratch_.front());
  const crowd::Agent& a = c->agents_[static_cast<size_t>(id)];
  const crowd::Agent& now = agents_[static_cast<size_t>(id)];
  CrowdExplanation e;
  e.agent = id;
  e.step = steps_ + 1;
  e.position = a.st.pose.pos;
  e.radius = a.def.unit.radius;
  e.max_speed = a.def.unit.max_speed;
  e.preferred_velocity = a.st.preferred_velocity;
  e.chosen_velocity = a.st.avoidance_velocity;
  e.neighbors = a.st.neighbors;
  e.holonomic = a.holonomic;
  e.target_speed = a.holonomic ? glm::length(a.new_velocity) : a.target_speed;
  label_constraints(*c, a, e);
  e.no_progress_for = std::max(0.0, time() - now.progress_time);
  e.stuck_after = stuck_round(now, remaining_route(now));
  e.stuck_total = now.stuck_total;
  describe_mode(now, a, c->time(), def_, e);
  return e;
}

Result<CrowdExplanation> Crowd::explain(CrowdAgentId id, CrowdRoutePlanner planner) const {
  return impl_->explain(id, std::move(planner));
}

}  // namespace pathlab
