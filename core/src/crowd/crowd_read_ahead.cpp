// The progress pass's read-ahead (CrowdImpl::prepare_progress): what track_progress()
// (crowd_stuck.cpp) may ask of the map alone, asked on the worker threads after the moves.

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {

void CrowdImpl::prepare_progress(int id) {
  // What track_progress() may ask that only the unit itself and the map answer, worked out on
  // the worker threads: at 10,000 units the sight checks and the routes of re-plans made the
  // serial progress pass as long as the whole parallel phase. The serial pass takes an answer
  // only when its question is the same (the same waypoint, the same route query), so the
  // bytes are those of asking there.
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const double t = time();
  a.sight = -1;
  a.flow_spec = crowd::FlowSpec{};
  if (t >= a.next_visibility_check && !a.st.waiting && a.st.route.size() >= 2) {
    a.sight_point = waypoint_noted(a) ? a.waypoint : a.st.route[static_cast<size_t>(a.st.next_waypoint)];
    a.sight = segment_clear(grid_, a.st.pose.pos, a.sight_point, a.def.unit.radius) ? 1 : 0;
  }
  // A unit about to re-plan (its waypoint out of sight, or its round of stuck remedies due):
  // its flow-field route, which plan_flow_route takes when it asks the same.
  const bool resolving = t - a.progress_time >= def_.stuck_time && t >= a.next_resolve && !a.at_spot;
  if (a.sight == 0 || resolving) speculate_flow_route(a);
  // Its corners kept right too (plan_flow_route takes them while the traffic answers the same),
  // for a unit whose waypoint is out of sight only: it re-plans for sure, where a stuck unit
  // mostly detours round the units in the way instead (the probes for every stuck unit cost
  // the read-ahead about as much as they saved the progress pass).
  crowd::FlowSpec& spec = a.flow_spec;
  if (a.sight == 0 && spec.valid && spec.route.size() >= 2 && spec.route.back() == spec.to) {
    spec.kept = spec.route;
    keep_right_in_passages(spec.kept, a.def.unit.radius, &spec.reads);
  }
  // The route left, which the pass reads for every unit (its route's points and lengths are
  // two cache misses a unit, most of a millisecond at 10,000): it takes this while the route
  // and its next waypoint are the same (route_version: index_route()).
  a.remaining_version = 0;
  if (a.st.route.size() >= 2 && a.route_version != 0) {
    a.remaining_ahead = remaining_route(a);
    a.remaining_version = a.route_version;
    a.remaining_next = a.st.next_waypoint;
  }
}

}  // namespace pathlab
