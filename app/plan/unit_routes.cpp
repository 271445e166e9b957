// Units' routes through the planning service (the crowd's route_planner of a scene's units):
// the scene's planner and smoother with each unit's radius and turning radius, an expansion
// budget, and no other planner when it finds nothing.

#include <algorithm>
#include <cmath>

#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene_units.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::plan {
namespace {

std::string failure_of(const PlanResult& r) {
  if (!r.error.empty()) return r.error;
  return r.reason.empty() ? "no path" : r.reason;
}

/// The same question: a deterministic planner on the same grid gives the same answer.
bool same_question(const PlanRequest& a, const PlanRequest& b) {
  return a.start.pos == b.start.pos && a.start.heading == b.start.heading && a.goal.pos == b.goal.pos &&
         a.goal.heading == b.goal.heading && a.goal_has_heading == b.goal_has_heading && a.settings == b.settings;
}

}  // namespace

io::PlanSettingsData unit_plan_settings(const io::PlanSettingsData& scene_settings, const UnitDef& def) {
  io::PlanSettingsData s = scene_settings;
  s.agent_radius = std::max(s.agent_radius, def.radius);  // a bigger unit needs its own clearance
  if (def.turning_radius > 0.0) s.turning_radius = def.turning_radius;  // a car and a bear turn differently
  return s;
}

PlanRequest unit_plan_request(const io::PlanSettingsData& scene_settings, const CrowdRouteQuery& q,
                              const std::optional<Pose>& scene_goal) {
  PlanRequest req;
  req.start = q.from;
  const Vec2 d = q.to - q.from.pos;
  // Pose planners need a goal heading: the unit's own; at the scene's goal the scene's (the
  // canvas plans with it: Pinter's tank must enter its slot facing down, as drawn); else the
  // way from here to there.
  const double toward = glm::length(d) > 1e-9 ? dmath::atan2(d.y, d.x) : q.from.heading;
  std::optional<double> heading = q.goal_heading;
  if (!heading && scene_goal && scene_goal->pos == q.to) heading = scene_goal->heading;
  req.goal = Pose{q.to, heading.value_or(toward)};
  req.goal_has_heading = heading.has_value();
  req.settings = unit_plan_settings(scene_settings, q.unit);
  req.curve_step = kUnitCurveStep;
  req.keep_internals = false;
  req.analyse = false;
  req.budget.max_expansions = kUnitPlanExpansions;
  return req;
}

Result<std::vector<Vec2>> plan_unit_route(UnitRouting& routing, const CrowdRouteQuery& q) {
  PlanRequest req = unit_plan_request(routing.settings, q, routing.scene_goal);
  // Grid searches honour terrain costs, so they plan on the crowd's traffic grid: routes then
  // spread over the doorways instead of meeting the oncoming stream (crowd.hpp). A navmesh or
  // a pose planner ignores costs (and the navmesh would be rebuilt for every unit).
  const PlannerInfo* planner = find_planner(req.settings.planner);
  const bool costs_count = planner && planner->family == PlannerFamily::grid;
  const Grid& grid = q.traffic && costs_count ? *q.traffic : q.grid;
  // The service keeps preprocessing per grid object; doors edit the crowd's grid in place.
  if (!(routing.planned_on == grid)) {
    routing.service.map_changed();
    routing.planned_on = grid;
    ++routing.grid_version;
  }
  const size_t i = static_cast<size_t>(std::max(0, q.agent));
  if (i >= routing.records.size()) {
    routing.records.resize(i + 1);
    routing.failed_on.resize(i + 1, -1);
  }
  UnitRouteRecord& rec = routing.records[i];
  ++rec.asked;
  // A waiting unit asks again every few seconds; the same question on the same map would fail
  // the same way, so it is answered from the record (no search: a failing one uses its whole
  // budget). A moved goal, an edited map or an opened door is a new question.
  if (routing.failed_on[i] == routing.grid_version && same_question(rec.request, req)) {
    return fail(StatusCode::blocked, rec.why);
  }
  rec.planner = req.settings.planner;
  rec.smoother = req.settings.smoother;
  rec.request = req;
  rec.from_flow_field = false;
  if (q.flow_group && flow_field_reproduces(req.settings)) {
    // The crowd's own field for the group (its costs: walls' band, queues, the other groups'
    // routes and crowds), the one the flow field overlay draws; the service's only when the
    // crowd has none.
    const FlowField* kept = q.group_field ? q.group_field() : nullptr;
    auto field_route = kept ? flow_field_route_on(*kept, q.grid, req) : routing.service.flow_field_route(q.grid, req, q.goal);
    if (field_route) {
      rec.found = true;
      rec.from_flow_field = true;
      rec.why.clear();
      rec.expanded = 0;
      rec.points = *field_route;
      ++rec.routes;
      routing.failed_on[i] = -1;
      return std::move(*field_route);
    }
  }
  ++rec.searched;
  PlanResult res = routing.service.plan(grid, req);
  rec.expanded = res.expanded;
  // Curve planners ignore walls: a curve into one is no route for a unit.
  if (res.found && res.curve_blocked_at) {
    res.found = false;
    res.reason = "the curve runs into a wall";
  }
  if (res.found && !res.points.empty()) {
    rec.found = true;
    rec.why.clear();
    rec.points = res.points;
    ++rec.routes;
    routing.failed_on[i] = -1;
    return std::move(res.points);
  }
  // No other planner: the unit waits and says why (a silent grid A* route would drive turns
  // the unit's own planner refused).
  rec.found = false;
  rec.points.clear();
  rec.why = req.settings.planner + ": " + failure_of(res);
  routing.failed_on[i] = routing.grid_version;
  return fail(StatusCode::blocked, rec.why);
}

}  // namespace pathlab::plan
