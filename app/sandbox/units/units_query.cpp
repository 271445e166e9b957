// The unit model's questions: what a unit is doing, metrics across rebuilds, hit tests and
// the selection. No drawing.

#include <algorithm>
#include <cmath>

#include "units/units.hpp"

namespace pathlab::sandbox {

int UnitSwarm::arrived() const {
  int n = 0;
  for (int i = 0; i < count(); ++i) n += at_goal(i) ? 1 : 0;
  return n;
}

UnitActivity UnitSwarm::activity(int id) const {
  const CrowdAgentState& st = cur().state(id);
  // The crowd's own rule (at the spot, facing the goal heading, stopped), as at_goal() and the
  // panel's count: a unit pushed off its spot is not arrived there either.
  if (st.arrived) return UnitActivity::arrived;
  if (st.waiting) return UnitActivity::waiting;
  if (st.stuck) return UnitActivity::stuck;
  if (st.yielding) return UnitActivity::yielding;
  return UnitActivity::moving;
}

const std::string& UnitSwarm::unit_message(int id) const {
  const std::string& why = cur().state(id).why;  // e.g. "no route to the goal: directional: ..."
  if (!why.empty()) return why;
  const std::string& note = cur().state(id).note;  // e.g. parked far from a shared goal
  if (!note.empty()) return note;
  return units_[static_cast<size_t>(id)].message;
}

bool UnitSwarm::plan_failed(int id) const {
  const CrowdAgentState& st = cur().state(id);
  return st.waiting && st.route_source == CrowdRouteSource::none;
}

Pose UnitSwarm::goal_of(int id, const io::Scene& scene) const {
  // While recording, the recording's goals: a seek may go back to before a send.
  const auto& g = rec_ ? rec_->units().goals[static_cast<size_t>(id)] : units_[static_cast<size_t>(id)].goal;
  return g ? *g : scene.goal;
}

int UnitSwarm::replans(int id) const {
  // While recording, the recording's count: exact at any moment shown (it carries rebuilds).
  if (rec_) return rec_->unit_metrics(id).replans;
  return units_[static_cast<size_t>(id)].replans_before + cur().metrics(id).replans;
}

SwarmMetrics UnitSwarm::metrics() const {
  SwarmMetrics out;
  out.arrived = arrived();
  for (int i = 0; i < count(); ++i) out.stuck += cur().state(i).stuck ? 1 : 0;
  if (rec_) {  // the recording's: restored with its keyframes, so exact after a seek
    const CrowdMetrics m = rec_->run_metrics();
    out.min_separation = m.min_separation;
    out.stuck_steps = m.stuck_steps;
    out.wall_contacts = m.wall_contacts;
  } else {
    const CrowdMetrics m = cur().run_metrics();
    out.min_separation = std::min(carried_.min_separation, m.min_separation);
    out.stuck_steps = carried_.stuck_steps + m.stuck_steps;
    out.wall_contacts = carried_.wall_contacts + m.wall_contacts;
  }
  out.replans = 0;
  for (int i = 0; i < count(); ++i) out.replans += replans(i);
  return out;
}

int UnitSwarm::unit_at(Vec2 p, double slack) const {
  int best = -1;
  double best_d = 1e300;
  for (int i = 0; i < count(); ++i) {
    const double d = glm::length(cur().state(i).pose.pos - p);
    if (d <= units_[static_cast<size_t>(i)].def.radius + slack && d < best_d) best_d = d, best = i;
  }
  return best;
}

void UnitSwarm::select_none() {
  for (Unit& u : units_) u.selected = false;
}

int UnitSwarm::select_box(Vec2 a, Vec2 b, bool add) {
  const Vec2 lo = glm::min(a, b), hi = glm::max(a, b);
  int n = 0;
  for (int i = 0; i < count(); ++i) {
    const Vec2 p = cur().state(i).pose.pos;
    const bool in = p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
    Unit& u = units_[static_cast<size_t>(i)];
    u.selected = in || (add && u.selected);
    n += u.selected ? 1 : 0;
  }
  return n;
}

std::vector<int> UnitSwarm::selection() const {
  std::vector<int> out;
  for (int i = 0; i < count(); ++i)
    if (units_[static_cast<size_t>(i)].selected) out.push_back(i);
  return out;
}

}  // namespace pathlab::sandbox
