// Units' routes through the planning service (the crowd's route_planner): the scene's planner
// and smoother with each unit's radius and turning radius.

#include <algorithm>
#include <cmath>

#include "units/units.hpp"

namespace pathlab::sandbox {
namespace {

constexpr double kUnitCurveStep = 0.25;  ///< Spacing of sampled curve points. [Units: cells]

std::string failure_of(const plan::PlanResult& r) {
  if (!r.error.empty()) return r.error;
  return r.reason.empty() ? "no path" : r.reason;
}

}  // namespace

io::PlanSettingsData unit_plan_settings(const io::PlanSettingsData& scene_settings, const UnitDef& def) {
  io::PlanSettingsData s = scene_settings;
  s.agent_radius = std::max(s.agent_radius, def.radius);  // a bigger unit needs its own clearance
  if (def.turning_radius > 0.0) s.turning_radius = def.turning_radius;  // a car and a bear turn differently
  return s;
}

plan::PlanRequest unit_plan_request(const io::PlanSettingsData& scene_settings, const CrowdRouteQuery& q) {
  plan::PlanRequest req;
  req.start = q.from;
  const Vec2 d = q.to - q.from.pos;
  // Pose planners need a goal heading: the unit's own, else the way from here to there.
  const double toward = glm::length(d) > 1e-9 ? std::atan2(d.y, d.x) : q.from.heading;
  req.goal = Pose{q.to, q.goal_heading.value_or(toward)};
  req.goal_has_heading = q.goal_heading.has_value();
  req.settings = unit_plan_settings(scene_settings, q.unit);
  req.curve_step = kUnitCurveStep;
  req.keep_internals = false;
  req.analyse = false;
  req.budget.time_ms = kUnitPlanBudgetMs;
  return req;
}

Result<std::vector<Vec2>> plan_unit_route(UnitRouting& routing, const CrowdRouteQuery& q) {
  std::string* note = nullptr;
  if (q.agent >= 0) {
    const size_t i = static_cast<size_t>(q.agent);
    if (i >= routing.notes.size()) routing.notes.resize(i + 1);
    note = &routing.notes[i];
    note->clear();
  }
  plan::PlanRequest req = unit_plan_request(routing.settings, q);
  // Grid searches honour terrain costs, so they plan on the crowd's traffic grid: routes then
  // spread over the doorways instead of meeting the oncoming stream (crowd.hpp). A navmesh or
  // a pose planner ignores costs (and the navmesh would be rebuilt for every unit).
  const plan::PlannerInfo* planner = plan::find_planner(req.settings.planner);
  const bool costs_count = planner && planner->family == plan::PlannerFamily::grid;
  const Grid& grid = q.traffic && costs_count ? *q.traffic : q.grid;
  // The service keeps preprocessing per grid object; doors edit the crowd's grid in place.
  if (!(routing.planned_on == grid)) {
    routing.service.map_changed();
    routing.planned_on = grid;
  }
  plan::PlanResult res = routing.service.plan(grid, req);
  // Curve planners ignore walls: a curve into one is no route for a unit.
  if (res.found && res.curve_blocked_at) {
    res.found = false;
    res.reason = "the curve runs into a wall";
  }
  if (res.found && !res.points.empty()) return std::move(res.points);
  const std::string why = failure_of(res);
  if (res.family != plan::PlannerFamily::heading && res.family != plan::PlannerFamily::curve) {
    return fail(StatusCode::blocked, why);
  }
  // A pose planner that cannot route this unit (a curve through a wall, the budget): the grid
  // search of the same service, said in the unit's hover text.
  req.settings.planner = "astar";
  req.settings.smoother = "los";
  (void)plan::normalize_settings(req.settings);
  res = routing.service.plan(q.grid, req);
  if (!res.found || res.points.empty()) return fail(StatusCode::blocked, why + "; grid A* too: " + failure_of(res));
  if (note) *note = routing.settings.planner + " cannot route this unit (" + why + "): grid A* instead";
  return std::move(res.points);
}

}  // namespace pathlab::sandbox
