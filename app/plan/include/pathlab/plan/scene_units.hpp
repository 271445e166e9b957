#pragma once
/// @file scene_units.hpp
/// A scene's units as one model for every app: a core Crowd (crowd.hpp) whose routes are
/// planned through the planning service with the scene's planner and smoother and each unit's
/// own radius and turning radius, built from an io::Scene (its units with presets and goals,
/// its doors and trucks) the way the sandbox loads it. `pathlab-cli crowd --scene` and the
/// sandbox's units (app/sandbox/units) both run it, so the same scene gives the same
/// trajectories bit for bit in both.
///
/// A unit drives exactly the plan of its own planner: there is no fallback to another planner.
/// A plan that fails leaves the unit waiting with the reason (CrowdAgentState::why) and the
/// crowd asks again later; the same failing question is not planned twice (the answer would be
/// the same). Budgets are counted in expansions, never in milliseconds, so the motion does not
/// depend on the machine's speed.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/crowd.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/status.hpp"

namespace pathlab::plan {

/// Expansion budget of one unit's (re-)plan, for every planner family (SearchBudget::
/// max_expansions), instead of the 12 ms wall-clock budget units had: that one made the motion
/// depend on the machine (on the 2-core CI machine Directional A* for Pinter's tank took
/// about 28 ms, mostly building its tables, which expansions do not count, so the tank drove a
/// grid A* route instead). Measured with tests/test_scene_units.cpp (it prints them):
/// Pinter's tank with Directional A* needs 112 expansions (articles/pinter-tank-figure-8.json, planner
/// "directional", turning radius 3) and 36 (pinter_tank_turn.json); the largest unit plan
/// of any bundled scene is a grid A* route on bench512.json, 34,825. 400,000 is more than a
/// grid search can expand on a 512 x 512 map (262,144 cells), so on maps that size only a
/// heading search with no way into its goal stops on it, after a bounded, machine-independent
/// amount of work (their own defaults: 4,000,000 for Directional A*). [Limit: > 0]
inline constexpr int64_t kUnitPlanExpansions = 400000;

/// Spacing of the points sampled from a unit's curved route. [Units: cells]
inline constexpr double kUnitCurveStep = 0.25;

/// The scene's settings for one unit: its own radius as clearance when larger, its own
/// turning radius when it has one (a car and a bear turn differently).
io::PlanSettingsData unit_plan_settings(const io::PlanSettingsData& scene_settings, const UnitDef& def);

/// The planning service request for one crowd route question: the unit's pose to its target
/// with unit_plan_settings, the expansion budget kUnitPlanExpansions, curves sampled every
/// kUnitCurveStep, no trace, no internals, no analysis. The goal heading: the unit's own; else
/// the scene goal's when the target is the scene's goal (`scene_goal`: the plan the canvas
/// draws from there, so a unit at the start drives exactly it); else the heading from start
/// to target (not binding: goal_has_heading false).
PlanRequest unit_plan_request(const io::PlanSettingsData& scene_settings, const CrowdRouteQuery& q,
                              const std::optional<Pose>& scene_goal = std::nullopt);

/// The last route question of one unit and what its planner answered.
struct UnitRouteRecord {
  std::string planner;   ///< the planner that was asked (the scene's)
  std::string smoother;  ///< the smoother that was asked
  bool found = false;    ///< it returned a route (then `points`), else `why`
  std::string why;       ///< why it returned none
  int64_t expanded = 0;  ///< expansions of the search [Limit: <= kUnitPlanExpansions]
  int routes = 0;        ///< routes this planner returned for the unit so far
  int asked = 0;         ///< questions the unit asked (a repeated failing one counts, though not planned)
  int searched = 0;      ///< questions planned by the service (a repeated failing one is not)
  PlanRequest request;   ///< the question
  std::vector<Vec2> points;  ///< the route returned, as the service returned it [Units: cells]
  /// The route came from the group's flow field (PlanService::flow_field_route), not a search
  /// of its own: the unit is one of a large group bound for one goal (CrowdRouteQuery::
  /// flow_group) and the scene's planner plans what a field plans (flow_field_reproduces).
  bool from_flow_field = false;
};

/// How a scene's crowd plans units' routes: through the planning service with the scene's
/// planner and smoother (the project rule: the registry is the one place that knows each
/// planner). Shared by the crowd's route_planner and whoever shows the units.
struct UnitRouting {
  io::PlanSettingsData settings;  ///< the scene's, as last given
  std::optional<Pose> scene_goal; ///< the scene's goal, as last given (unit_plan_request)
  PlanService service;
  Grid planned_on;                ///< the grid the service's cache was built for (doors edit the crowd's)
  int64_t grid_version = 0;       ///< counts changes of planned_on (a failed question is kept per version)
  std::vector<UnitRouteRecord> records;  ///< per crowd agent id
  /// Per crowd agent id: the grid version of its last failed question (-1: none).
  std::vector<int64_t> failed_on;
};

/// Plans one crowd route through `routing.service` with the unit's own planner and returns the
/// path's points; records the question and the answer in routing.records[q.agent]. A unit of a
/// large group (q.flow_group) whose planner a flow field reproduces reads the group's shared
/// field instead: the crowd's own (q.group_field, flow_field_route_on), the one the overlay
/// draws, or else the service's (PlanService::flow_field_route, on q.grid: the traffic costs
/// would make a field per unit); where the field has no way from the unit, the search
/// answers. A planner that finds nothing (no path, the expansion budget, a curve into a wall) is an error: the
/// crowd makes the unit wait and shows the reason. The same question on the same grid as a
/// failed one gets the same error without planning again.
Result<std::vector<Vec2>> plan_unit_route(UnitRouting& routing, const CrowdRouteQuery& q);

/// The nearest point to `p` where a disc of `radius` fits on `grid` (rings `radius` apart, at
/// least 0.25 cells, up to 12 rings); none when there is no room nearby. [Units: cells]
std::optional<Vec2> fit_goal(const Grid& grid, Vec2 p, double radius);

/// The nearest point to `p` (rings of candidates `step` apart, at most `rings` rings, ring by
/// ring, by angle: a fixed order) where `fits` holds; none when no candidate does.
std::optional<Vec2> nearest_fit(Vec2 p, double step, int rings, const std::function<bool(Vec2)>& fits);

/// The route planner of a unit crowd: plan_unit_route with `routing` (make_unit_crowd's, and a
/// copy's: Crowd::clone with a copy of the routing, copy_routing).
CrowdRoutePlanner unit_route_planner(const std::shared_ptr<UnitRouting>& routing);

/// A copy of `routing` whose answers are the same: its settings, records and failed questions,
/// with a new planning service (the service only caches what it builds for a grid).
std::shared_ptr<UnitRouting> copy_routing(const UnitRouting& routing);

/// A core Crowd on `grid` (copied) whose route_planner is plan_unit_route with `routing`;
/// `def`'s other fields (dt, ...) are kept. Clears routing's records (they are per agent id).
/// Errors: a bad `def` (naming the field).
Result<Crowd> make_unit_crowd(const Grid& grid, const std::shared_ptr<UnitRouting>& routing,
                              CrowdDef def = default_crowd_def());

/// One unit to add to a unit crowd.
struct UnitPlacement {
  UnitDef unit;                     ///< its preset's
  Pose at;                          ///< where it should stand [Units: cells, radians]
  std::optional<Pose> goal;         ///< its own goal; none: `scene_goal` (then no goal heading)
  Pose scene_goal;                  ///< the scene's goal
  bool stay = false;                ///< it had arrived: it stays where it stands
  /// The map without doors, for the start's check (none: the crowd's grid, doors shut in it).
  /// A rebuilt crowd must not move a unit out of a door that is closing when clear.
  const Grid* start_map = nullptr;
};

/// Adds a unit: its goal moved to the nearest point where it fits (fit_goal; none: it stays
/// and `message` says so), its start the nearest spot clear of walls, units and trucks (rings
/// 2 radii apart). Returns its id or why there is no free spot; `message` gets a note or "".
Result<CrowdAgentId> place_unit(Crowd& crowd, const UnitPlacement& p, std::string& message);

/// The scene's doors and trucks added to the crowd in order (ones the core refuses are
/// skipped: the scene reader checked them).
void add_scene_dynamic(Crowd& crowd, const std::vector<DoorDef>& doors, const std::vector<MovingObstacleDef>& trucks);

/// A scene's units, doors and trucks as one crowd (what the sandbox shows after opening the
/// scene and `pathlab-cli crowd --scene` runs).
struct SceneUnits {
  std::shared_ptr<UnitRouting> routing;
  std::optional<Crowd> crowd;
  std::vector<std::string> presets;   ///< per crowd agent: its preset's name
  std::vector<int> scene_index;       ///< per crowd agent: its index in scene.units
  std::vector<std::string> messages;  ///< per crowd agent: a note from placing it, or ""
  /// Units that could not be placed (skipped, as the sandbox skips them): "units[3]: tank: ...".
  std::vector<std::string> skipped;
  /// Per crowd agent: its own goal (a scene unit's, or where it was sent); none: the scene's.
  std::vector<std::optional<Pose>> goals;
  /// Steps run by the crowds before the last rebuild (a map edit rebuilds the crowd, whose
  /// clock starts again at 0): the run's step is step_offset + crowd->step_count().
  int64_t step_offset = 0;
  CrowdDef def;  ///< the crowd's tuning (its route_planner empty: make_unit_crowd sets it)
};

/// A truck's route from where it is now (`st` at crowd time `t`), so a rebuilt crowd drives it
/// on from there; one at the end of its route is parked there. [Units: cells, s]
MovingObstacleDef remaining_route(const MovingObstacleDef& def, const MovingObstacleState& st, double t);

/// Builds the crowd of `scene` with make_unit_crowd (routing with the scene's settings), its
/// doors and trucks (add_scene_dynamic), then its units in order (place_unit with the unit's
/// preset, pose and own goal). Errors: a bad `def`; an unknown preset, a unit whose start cell
/// is a wall or off the map, or one without room nearby is skipped and listed in `skipped`.
Result<SceneUnits> build_scene_units(const io::Scene& scene, const CrowdDef& def = default_crowd_def());

}  // namespace pathlab::plan
