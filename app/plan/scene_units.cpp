// A scene's units as a crowd routed through the planning service: the crowd, placing units
// (goal fitted to the unit, start nudged off others), the scene's doors and trucks.

#include <algorithm>
#include <cmath>

#include "pathlab/collision.hpp"
#include "pathlab/plan/scene_units.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::plan {

std::optional<Vec2> nearest_fit(Vec2 p, double step, int rings, const std::function<bool(Vec2)>& fits) {
  if (fits(p)) return p;
  for (int k = 1; k <= rings; ++k) {
    const int n = 6 * k;
    for (int j = 0; j < n; ++j) {
      const double a = 2.0 * kPi * j / n;
      const auto [s, c] = dmath::sincos(a);
      const Vec2 q = p + Vec2(c, s) * (step * k);
      if (fits(q)) return q;
    }
  }
  return std::nullopt;
}

std::optional<Vec2> fit_goal(const Grid& g, Vec2 p, double radius) {
  auto clear = [&](Vec2 q) { return g.contains(q) && point_clear(g, q, radius); };
  return nearest_fit(p, std::max(0.25, radius), 12, clear);
}

CrowdRoutePlanner unit_route_planner(const std::shared_ptr<UnitRouting>& routing) {
  return [routing](const CrowdRouteQuery& q) { return plan_unit_route(*routing, q); };
}

std::shared_ptr<UnitRouting> copy_routing(const UnitRouting& r) {
  auto out = std::make_shared<UnitRouting>();
  out->settings = r.settings;
  out->scene_goal = r.scene_goal;
  out->planned_on = r.planned_on;
  out->grid_version = r.grid_version;
  out->records = r.records;
  out->failed_on = r.failed_on;
  return out;
}

Result<Crowd> make_unit_crowd(const Grid& grid, const std::shared_ptr<UnitRouting>& routing, CrowdDef def) {
  // Units plan through the planning service like everything else in the app.
  def.route_planner = unit_route_planner(routing);
  routing->records.clear();  // per agent id of the crowd being replaced
  routing->failed_on.clear();
  return Crowd::create(grid, def);
}

Result<CrowdAgentId> place_unit(Crowd& crowd, const UnitPlacement& p, std::string& message) {
  const Grid& g = crowd.grid();
  const double r = p.unit.radius;
  CrowdAgentDef a;
  a.unit = p.unit;
  const Pose goal = p.goal ? *p.goal : p.scene_goal;
  a.goal_heading = p.goal ? std::optional<double>(goal.heading) : std::nullopt;
  // A goal a big unit does not fit at (or outside the map): the nearest point where it fits.
  const Grid& start_map = p.start_map ? *p.start_map : g;
  auto clear = [&](Vec2 q) { return start_map.contains(q) && point_clear(start_map, q, r); };
  const auto goal_fit = fit_goal(g, goal.pos, r);
  a.goal = p.stay ? p.at.pos : goal_fit.value_or(p.at.pos);
  message = !goal_fit && !p.stay ? "the goal has no room for this unit: it stays" : "";
  // The start: the nearest spot clear of walls, units and trucks (the core refuses overlaps).
  Result<CrowdAgentId> id =
      fail(StatusCode::blocked, "no free spot near " + std::to_string(p.at.pos.x) + ", " + std::to_string(p.at.pos.y));
  (void)nearest_fit(p.at.pos, 2.0 * r + 0.05, 14, [&](Vec2 q) {
    if (!clear(q)) return false;
    a.start = Pose{q, p.at.heading};
    id = crowd.add_agent(a);
    return id.ok();
  });
  return id;
}

void add_scene_dynamic(Crowd& crowd, const std::vector<DoorDef>& doors, const std::vector<MovingObstacleDef>& trucks) {
  for (const DoorDef& d : doors) (void)crowd.add_door(d);  // the scene file checked it; a bad one is skipped
  for (const MovingObstacleDef& m : trucks) (void)crowd.add_moving_obstacle(m);
}

Result<SceneUnits> build_scene_units(const io::Scene& scene, const CrowdDef& def) {
  SceneUnits out;
  out.routing = std::make_shared<UnitRouting>();
  out.routing->settings = scene.settings;  // the route planner plans with the scene's settings
  out.routing->scene_goal = scene.goal;
  out.def = def;
  out.def.route_planner = nullptr;
  auto crowd = make_unit_crowd(scene.grid, out.routing, def);
  if (!crowd) return crowd.error();
  out.crowd.emplace(std::move(*crowd));
  add_scene_dynamic(*out.crowd, scene.doors, scene.moving_obstacles);
  for (size_t k = 0; k < scene.units.size(); ++k) {
    const io::UnitData& u = scene.units[k];
    const std::string where = "units[" + std::to_string(k) + "]: ";
    auto unit = io::scene_unit_def(u);
    if (!unit) {
      out.skipped.push_back(where + unit.error().message);
      continue;
    }
    // A unit standing in a wall or off the map is a mistake in the file: nudging (below) is for
    // units standing close to others or to a wall, as spawned ones do.
    if (!is_finite(u.pose.pos) || !scene.grid.contains(u.pose.pos) ||
        scene.grid.is_blocked(cell_of(u.pose.pos).x, cell_of(u.pose.pos).y)) {
      out.skipped.push_back(where + u.preset + ": start (" + std::to_string(u.pose.pos.x) + ", " +
                            std::to_string(u.pose.pos.y) + ") is inside a wall or outside the map");
      continue;
    }
    std::string message;
    auto id = place_unit(*out.crowd, UnitPlacement{*unit, u.pose, u.goal, scene.goal, false, &scene.grid}, message);
    if (!id) {
      out.skipped.push_back(where + u.preset + ": " + id.error().message);
      continue;
    }
    out.presets.push_back(u.preset);
    out.scene_index.push_back(static_cast<int>(k));
    out.messages.push_back(std::move(message));
    out.goals.push_back(u.goal);
  }
  return out;
}

}  // namespace pathlab::plan
