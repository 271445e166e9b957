// The planning service's flow fields: one distance field per group goal for the units of a
// scene sent there together (issue 27), answering their route questions instead of a search
// each where the field plans the routes the scene's planner would (flow_field_reproduces).
// The registry decides which settings those are; the core builds and reads the field
// (flow_field.hpp: Emerson, "Crowd Pathfinding and Steering Using Flow Field Tiles", Game AI
// Pro, 2013).

#include <algorithm>
#include <string>

#include "plan_internal.hpp"

namespace pathlab::plan {
namespace {

/// At most this many group fields are kept per service (the oldest makes room): a sandbox
/// with a few groups on their way keeps theirs.
constexpr size_t kMaxFields = 16;

}  // namespace

bool flow_field_reproduces(const io::PlanSettingsData& s) {
  const PlannerInfo* p = find_planner(s.planner);
  if (!p || (p->id != PlannerId::astar && p->id != PlannerId::dijkstra)) return false;
  const SmootherInfo* sm = find_smoother(s.smoother, PlannerFamily::grid);
  return sm && sm->id == SmootherId::los && s.connectivity == 8 && s.turn_penalty == 0.0;
}

const FlowField* PlanService::Cache::field_for(const Grid& g, Cell goal, double radius, std::string& error) {
  if (!(fields_grid == g)) {
    fields.clear();
    fields_grid = g;
  }
  for (size_t k = 0; k < fields.size(); ++k) {
    if (!(fields[k].goal == goal) || fields[k].radius != radius) continue;
    std::rotate(fields.begin() + static_cast<std::ptrdiff_t>(k), fields.begin() + static_cast<std::ptrdiff_t>(k) + 1, fields.end());
    return &fields.back().field;  // the most recently used last
  }
  FlowFieldDef def = default_flow_field_def();
  def.agent_radius = radius;
  const Cell one[] = {goal};
  auto built = FlowField::build(g, one, def);
  if (!built) {
    error = built.error().message;
    return nullptr;
  }
  if (fields.size() >= kMaxFields) fields.erase(fields.begin());
  fields.push_back(FieldEntry{goal, radius, std::move(*built)});
  return &fields.back().field;
}

Result<std::vector<Vec2>> flow_field_route_on(const FlowField& field, const Grid& grid, const PlanRequest& request) {
  const io::PlanSettingsData& s = request.settings;
  if (!flow_field_reproduces(s))
    return fail(StatusCode::invalid_argument, "a flow field does not plan the routes of " + s.planner + " + " + s.smoother);
  std::vector<Vec2> route = field.route(grid, request.start.pos, request.goal.pos, s.agent_radius);
  if (route.size() < 2) return fail(StatusCode::blocked, "no way down the group's flow field from " + point_text(request.start.pos, 2));
  return route;
}

Result<std::vector<Vec2>> PlanService::flow_field_route(const Grid& grid, const PlanRequest& request, Vec2 field_goal) {
  const io::PlanSettingsData& s = request.settings;
  if (!flow_field_reproduces(s))
    return fail(StatusCode::invalid_argument, "a flow field does not plan the routes of " + s.planner + " + " + s.smoother);
  std::string error;
  const FlowField* field = cache_->field_for(grid, cell_of(field_goal), s.agent_radius, error);
  if (!field) return fail(StatusCode::invalid_argument, "flow field: " + error);
  return flow_field_route_on(*field, grid, request);
}

}  // namespace pathlab::plan
