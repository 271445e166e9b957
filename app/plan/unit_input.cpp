// Edits during a crowd run (unit_input.hpp): doors, sending units, painting with a rebuild.

#include "pathlab/plan/unit_input.hpp"

#include <algorithm>
#include <cmath>

namespace pathlab::plan {

// A truck on from where it is: its route from the nearest leg on (scene_units.hpp).
MovingObstacleDef remaining_route(const MovingObstacleDef& def, const MovingObstacleState& st, double t) {
  MovingObstacleDef out = def;
  if (t < def.start_time) {
    out.start_time = def.start_time - t;
    return out;
  }
  out.start_time = 0.0;
  const std::vector<Vec2>& r = def.route;
  const size_t legs = def.loop ? r.size() : r.size() - 1;
  size_t best = 0;
  double best_d = 1e300;
  for (size_t k = 0; k < legs; ++k) {
    const Vec2 a = r[k], b = r[(k + 1) % r.size()];
    const Vec2 ab = b - a;
    const double s = std::clamp(glm::dot(st.pose.pos - a, ab) / std::max(glm::dot(ab, ab), 1e-12), 0.0, 1.0);
    const double d = glm::length(st.pose.pos - (a + ab * s));
    if (d < best_d) best_d = d, best = k;
  }
  std::vector<Vec2> pts{st.pose.pos};
  auto push = [&](Vec2 q) {
    if (glm::length(q - pts.back()) > 1e-6) pts.push_back(q);
  };
  for (size_t k = best + 1; k < r.size(); ++k) push(r[k]);
  if (def.loop) {
    for (size_t k = 0; k <= best; ++k) push(r[k]);
  }
  if (pts.size() < 2 || st.finished) {
    // At the end of its route: park it there, facing along its last leg.
    const Vec2 end = r.back(), dir = glm::normalize(r.back() - r[r.size() - 2]);
    pts = {end - dir * 1e-3, end};
    out.start_time = 1e12;
  }
  out.route = std::move(pts);
  return out;
}

Status toggle_door(Crowd& crowd, int door) {
  if (door < 0 || door >= crowd.door_count()) return fail(StatusCode::invalid_argument, "no door " + std::to_string(door));
  // A click on a door closing when clear cancels the close.
  return crowd.set_door_open(door, crowd.door_state(door) != DoorState::open);
}

Status send_unit(Crowd& crowd, CrowdAgentId id, Vec2 goal, std::optional<double> heading) {
  if (id < 0 || id >= crowd.agent_count()) return fail(StatusCode::invalid_argument, "no unit " + std::to_string(id));
  const auto fit = fit_goal(crowd.grid(), goal, crowd.agent_def(id).unit.radius);
  if (!fit) return fail(StatusCode::blocked, "no room there");
  return crowd.set_goal(id, *fit, heading);
}

void rebuild_scene_units(SceneUnits& su, const io::Scene& scene) {
  const Crowd& old = *su.crowd;
  const double t = old.time();
  std::vector<DoorDef> doors = scene.doors;
  for (size_t d = 0; d < doors.size() && d < static_cast<size_t>(old.door_count()); ++d) {
    // Carry on from now: its state now (closing when clear goes on closing), the toggles still
    // to come, shifted to the new clock.
    DoorDef& door = doors[d];
    door.open_at_start = old.door_state(static_cast<int>(d)) == DoorState::open;
    std::erase_if(door.toggle_times, [&](double s) { return s <= t; });
    for (double& s : door.toggle_times) s -= t;
  }
  std::vector<MovingObstacleDef> trucks = scene.moving_obstacles;
  for (int k = 0; k < old.moving_obstacle_count() && k < static_cast<int>(trucks.size()); ++k)
    trucks[static_cast<size_t>(k)] = remaining_route(old.moving_obstacle_def(k), old.moving_obstacle(k), t);
  su.routing->settings = scene.settings;
  su.routing->scene_goal = scene.goal;
  auto fresh = make_unit_crowd(scene.grid, su.routing, su.def);
  if (!fresh) return;  // su.def made the first crowd: not reached
  add_scene_dynamic(*fresh, doors, trucks);
  SceneUnits kept;
  for (int i = 0; i < old.agent_count(); ++i) {
    const size_t k = static_cast<size_t>(i);
    const CrowdAgentState& st = old.state(i);
    std::string message;
    // An arrived unit stays where it stands instead of swapping slots with its neighbours.
    const UnitPlacement p{old.agent_def(i).unit, st.pose, su.goals[k], scene.goal, st.arrived, &scene.grid};
    if (!place_unit(*fresh, p, message)) continue;
    kept.presets.push_back(su.presets[k]);
    kept.scene_index.push_back(su.scene_index[k]);
    kept.messages.push_back(std::move(message));
    kept.goals.push_back(su.goals[k]);
  }
  su.step_offset += old.step_count();
  su.presets = std::move(kept.presets);
  su.scene_index = std::move(kept.scene_index);
  su.messages = std::move(kept.messages);
  su.goals = std::move(kept.goals);
  su.crowd.emplace(std::move(*fresh));
}

namespace {

/// A unit spawned during the run: placed as the sandbox places a spawned unit, listed in
/// `scene.units` where it really stands (SceneUnits::scene_index points there).
std::string spawn_scene_unit(SceneUnits& su, io::Scene& scene, const io::SpawnInput& spawn) {
  const auto def = unit_preset(spawn.preset);
  if (!def) return def.error().message;
  std::string message;
  const auto id = place_unit(*su.crowd, UnitPlacement{*def, spawn.pose, spawn.goal, scene.goal, false, &scene.grid}, message);
  if (!id) return spawn.preset + ": " + id.error().message;
  scene.units.push_back(io::UnitData{spawn.preset, su.crowd->state(*id).pose, spawn.goal});
  su.presets.push_back(spawn.preset);
  su.scene_index.push_back(static_cast<int>(scene.units.size()) - 1);
  su.messages.push_back(std::move(message));
  su.goals.push_back(spawn.goal);
  return "";
}

/// The scene's goal moved: every unit without its own goal re-targets to the nearest point
/// where it fits (as the sandbox re-targets them).
std::string move_scene_goal(SceneUnits& su, io::Scene& scene, const Pose& goal) {
  scene.goal = goal;
  su.routing->scene_goal = goal;  // before set_goal re-plans
  Crowd& crowd = *su.crowd;
  std::string first;
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const size_t k = static_cast<size_t>(i);
    if (su.goals[k]) continue;  // has its own goal
    const auto fit = fit_goal(crowd.grid(), goal.pos, crowd.agent_def(i).unit.radius);
    const Status s = fit ? crowd.set_goal(i, *fit) : Status(fail(StatusCode::blocked, "the goal has no room for this unit"));
    su.messages[k] = s ? "" : s.error().message;
    if (!s && first.empty()) first = su.presets[k] + " " + std::to_string(i) + ": " + su.messages[k];
  }
  return first;
}

}  // namespace

std::string apply_unit_input(SceneUnits& su, io::Scene& scene, const UnitInput& input) {
  Crowd& crowd = *su.crowd;
  if (const auto* spawn = std::get_if<io::SpawnInput>(&input.what)) return spawn_scene_unit(su, scene, *spawn);
  if (const auto* goal = std::get_if<io::GoalInput>(&input.what)) return move_scene_goal(su, scene, goal->goal);
  if (const auto* door = std::get_if<io::DoorInput>(&input.what)) {
    const Status s = toggle_door(crowd, door->door);
    return s ? "" : s.error().message;
  }
  if (const auto* send = std::get_if<io::SendInput>(&input.what)) {
    std::string first;
    for (int id : send->units) {
      if (id < 0 || id >= crowd.agent_count()) continue;
      const size_t k = static_cast<size_t>(id);
      su.goals[k] = Pose{send->goal, send->goal_heading.value_or(0.0)};
      const Status s = send_unit(crowd, id, send->goal, send->goal_heading);
      su.messages[k] = s ? "" : s.error().message;
      if (!s && first.empty()) first = su.presets[k] + " " + std::to_string(id) + ": " + su.messages[k];
    }
    return first;
  }
  const auto& paint = std::get<io::PaintInput>(input.what);
  for (const Cell& c : paint.cells) {
    if (c.x < 0 || c.y < 0 || c.x >= scene.grid.width() || c.y >= scene.grid.height()) continue;
    scene.grid.set_cost(c.x, c.y, paint.wall ? kBlocked : 1.0f);
  }
  rebuild_scene_units(su, scene);
  return "";
}

}  // namespace pathlab::plan
