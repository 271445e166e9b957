// The events of a recorded run (run_events.hpp): read off the crowd after each step.

#include "pathlab/plan/run_events.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

namespace pathlab::plan {
namespace {

/// Bodies closer than the sum of their radii by more than this overlap (the core's move check
/// keeps them apart; a rounding hair is not a collision). [Units: cells]
constexpr double kOverlapSlack = 1e-6;
/// Slower than this backwards is not backing up (a car settling on its spot). [Units: cells/s]
constexpr double kBackingSpeed = 1e-3;

enum EditDetail : uint8_t { kPaint = 0, kDoorClick = 1, kSend = 2 };

std::string door_state_name(uint8_t s) { return to_string(static_cast<DoorState>(s)); }

}  // namespace

const char* to_string(RunEventKind kind) noexcept {
  switch (kind) {
    case RunEventKind::replan: return "re-plan";
    case RunEventKind::stuck: return "stuck";
    case RunEventKind::giving_way: return "giving way";
    case RunEventKind::backing_up: return "backing up";
    case RunEventKind::door: return "door";
    case RunEventKind::collision: return "collision";
    case RunEventKind::wall_contact: return "wall contact";
    case RunEventKind::edit: return "edit";
  }
  return "?";
}

std::string describe(const RunEvent& e) {
  switch (e.kind) {
    case RunEventKind::replan: {
      std::string s = to_string(static_cast<CrowdReplanCause>(e.detail));
      if (e.other > 1) s += " (" + std::to_string(e.other) + " re-plans)";
      return s;
    }
    case RunEventKind::stuck: return "no progress";
    case RunEventKind::giving_way: return "steps aside";
    case RunEventKind::backing_up: return "drives backwards";
    case RunEventKind::door:
      return "door " + std::to_string(e.other) + ": " + door_state_name(e.from) + " -> " + door_state_name(e.detail) +
             (e.detail == static_cast<uint8_t>(DoorState::closed) && e.from == static_cast<uint8_t>(DoorState::closing_when_clear)
                  ? " (clear now)"
                  : "");
    case RunEventKind::collision:
      return e.detail == 1 ? "overlaps unit " + std::to_string(e.other) : "move shortened: a unit or truck in the way";
    case RunEventKind::wall_contact: return "move shortened: a wall in the way";
    case RunEventKind::edit:
      if (e.detail == kPaint) return "paint (the crowd is rebuilt)";
      if (e.detail == kDoorClick) return "door " + std::to_string(e.other) + " clicked";
      return "send " + std::to_string(e.other) + " unit(s)";
  }
  return "";
}

Result<CrowdExplanation> explain_unit(const Crowd& crowd, const UnitRouting* routing, CrowdAgentId id) {
  return crowd.explain(id, routing ? unit_route_planner(copy_routing(*routing)) : CrowdRoutePlanner{});
}

Result<CrowdExplanation> explain_unit(const SceneUnits& units, CrowdAgentId id) {
  if (!units.crowd) return fail(StatusCode::invalid_argument, "explain: no crowd");
  return explain_unit(*units.crowd, units.routing.get(), id);
}

size_t RunEvents::dropped() const noexcept {
  size_t n = 0;
  for (const auto& d : dropped_) n += d.second;
  return n;
}

void RunEvents::add(const RunEvent& e) {
  if (events_.size() < cap_) {
    events_.push_back(e);
    return;
  }
  if (!dropped_.empty() && dropped_.back().first == e.step) ++dropped_.back().second;
  else dropped_.emplace_back(e.step, 1u);
}

void RunEvents::observe_now(const Crowd& crowd, int64_t step) {
  seen_step_ = step;
  seen_crowd_step_ = crowd.step_count();
  units_.resize(static_cast<size_t>(crowd.agent_count()));
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const CrowdAgentState& st = crowd.state(i);
    const CrowdAgentMetrics& m = crowd.metrics(i);
    UnitSeen& u = units_[static_cast<size_t>(i)];
    u.replans = m.replans;
    u.wall_contacts = m.wall_contacts;
    u.unit_contacts = m.unit_contacts;
    u.stuck = st.stuck;
    u.yielding = st.yielding;
    u.backing = st.speed < -kBackingSpeed;
  }
  doors_.resize(static_cast<size_t>(crowd.door_count()));
  for (int d = 0; d < crowd.door_count(); ++d) doors_[static_cast<size_t>(d)] = crowd.door_state(d);
}

void RunEvents::observe(const Crowd& crowd, int64_t step) {
  if (seen_step_ == step) return;
  observe_now(crowd, step);
  for (UnitSeen& u : units_) u.wall_touching = u.unit_touching = false;  // a moment seen afresh: no contact run yet
}

RunEvents::Seen RunEvents::seen() const { return Seen{seen_step_, seen_crowd_step_, units_, doors_}; }

void RunEvents::restore(const Seen& s) {
  seen_step_ = s.step;
  seen_crowd_step_ = s.crowd_step;
  units_ = s.units;
  doors_ = s.doors;
}

void RunEvents::detect_unit(const Crowd& crowd, int id, int64_t step, bool keep) {
  const CrowdAgentState& st = crowd.state(id);
  const CrowdAgentMetrics& m = crowd.metrics(id);
  UnitSeen& u = units_[static_cast<size_t>(id)];
  const bool wall_now = m.wall_contacts > u.wall_contacts, unit_now = m.unit_contacts > u.unit_contacts;
  if (!keep) {  // the contact runs only
    u.wall_touching = wall_now;
    u.unit_touching = unit_now;
    return;
  }
  RunEvent e;
  e.step = step;
  e.unit = id;
  if (m.replans > u.replans) {
    e.kind = RunEventKind::replan;
    e.detail = static_cast<uint8_t>(st.replan_cause);
    e.other = m.replans - u.replans;
    add(e);
    e.other = -1;
    e.detail = 0;
  }
  const auto flag = [&](bool now, bool before, RunEventKind kind) {
    if (!now || before) return;
    e.kind = kind;
    add(e);
  };
  flag(st.stuck, u.stuck, RunEventKind::stuck);
  flag(st.yielding, u.yielding, RunEventKind::giving_way);
  flag(st.speed < -kBackingSpeed, u.backing, RunEventKind::backing_up);
  // Contacts: the first step of a run of shortened moves.
  flag(unit_now, u.unit_touching, RunEventKind::collision);
  flag(wall_now, u.wall_touching, RunEventKind::wall_contact);
  u.wall_touching = wall_now;
  u.unit_touching = unit_now;
  // Overlapping bodies (the move check should never allow it): each pair once, by the lower id.
  const double r = crowd.agent_def(id).unit.radius;
  for (int j : st.neighbors) {
    if (j <= id || j >= crowd.agent_count()) continue;
    const Vec2 d = crowd.state(j).pose.pos - st.pose.pos;
    const double reach = std::max(0.0, r + crowd.agent_def(j).unit.radius - kOverlapSlack);
    if (glm::dot(d, d) >= reach * reach) continue;  // squared: no root for the common case
    e.kind = RunEventKind::collision;
    e.detail = 1;
    e.other = j;
    add(e);
    e.detail = 0;
    e.other = -1;
  }
}

void RunEvents::detect(const Crowd& crowd, int64_t step, bool keep) {
  // Comparable only with the state one step before, of the same crowd (a paint rebuilds it: its
  // counters start again, and every unit re-plans on the new map, which the paint's edit event says).
  const bool comparable = seen_step_ == step - 1 && crowd.step_count() == seen_crowd_step_ + 1 &&
                          static_cast<size_t>(crowd.agent_count()) == units_.size();
  if (comparable) {
    for (int i = 0; i < crowd.agent_count(); ++i) detect_unit(crowd, i, step, keep);
  }
  if (keep && static_cast<size_t>(crowd.door_count()) == doors_.size() && seen_step_ == step - 1) {
    for (int d = 0; d < crowd.door_count(); ++d) {
      const DoorState now = crowd.door_state(d), before = doors_[static_cast<size_t>(d)];
      if (now == before) continue;
      RunEvent e;
      e.step = step;
      e.kind = RunEventKind::door;
      e.other = d;
      e.detail = static_cast<uint8_t>(now);
      e.from = static_cast<uint8_t>(before);
      add(e);
    }
  }
  // The contact runs (detect_unit set them) carry across the step; everything else is read afresh.
  observe_now(crowd, step);
  if (!comparable)
    for (UnitSeen& u : units_) u.wall_touching = u.unit_touching = false;
}

void RunEvents::add_input(const io::UnitInput& in) {
  RunEvent e;
  e.step = in.step;
  e.kind = RunEventKind::edit;
  if (const auto* d = std::get_if<io::DoorInput>(&in.what)) {
    e.detail = kDoorClick;
    e.other = d->door;
  } else if (const auto* s = std::get_if<io::SendInput>(&in.what)) {
    e.detail = kSend;
    e.other = static_cast<int32_t>(s->units.size());
    e.unit = s->units.empty() ? -1 : s->units.front();
  } else {
    e.detail = kPaint;
  }
  add(e);
}

void RunEvents::drop_after(int64_t step) {
  std::erase_if(events_, [&](const RunEvent& e) { return e.step > step; });
  std::erase_if(dropped_, [&](const auto& d) { return d.first > step; });
}

}  // namespace pathlab::plan
