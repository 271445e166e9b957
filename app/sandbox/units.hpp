#pragma once
// The units of the sandbox (the model; no SDL, no ImGui): the core's Simulation with the
// core's presets, each unit planning its own route from where it stands to the scene's goal
// with the scene's settings and its own size and turning radius. When the map, the goal or a
// setting changes every unit re-plans from its current pose, except units already at the goal,
// which stay; the re-plans are spread over frames within a time budget so painting stays
// smooth with 50 units. Drawing is units_draw.hpp, the panel units_panel.cpp (update apart
// from draw).

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/simulation.hpp"
#include "plan_pipeline.hpp"
#include "scene_file.hpp"

namespace pathlab::sandbox {

/// The presets the core offers, in menu order.
const std::vector<std::string>& unit_preset_names();

/// A unit this close to the scene's goal is at the goal: grid routes end at the centre of the
/// goal's cell, up to sqrt(2)/2 cells away. [Units: cells]
inline constexpr double kAtGoalDistance = 0.75;
/// Wall-clock budget of one unit's re-plan (units plan on the UI thread, several per frame
/// at most): a search that needs longer gives up with budget_exhausted. [Units: ms]
inline constexpr double kUnitPlanBudgetMs = 12.0;

/// The settings a unit of `def` plans with: the scene's, with at least the unit's own radius
/// and the unit's own turning radius (when it has one; a unit that turns on the spot keeps the
/// scene's for the planners that need one).
io::PlanSettingsData unit_plan_settings(const io::PlanSettingsData& scene_settings, const UnitDef& def);

class UnitSwarm {
 public:
  explicit UnitSwarm(const Grid& grid);

  /// Adds a unit of `preset` at `pose` and plans its route. Returns "" or why it could not.
  std::string spawn(const io::Scene& scene, const std::string& preset, const Pose& pose);
  /// Removes every unit (the spawn list too).
  void clear();
  /// Puts every unit back where it was spawned, at rest.
  void reset(const io::Scene& scene);
  /// Replaces the units by the scene's list (after opening a scene). Returns the first error or "".
  std::string load(const io::Scene& scene);
  /// The spawn list, as the scene file stores it.
  std::vector<io::UnitData> spawn_list() const;

  /// Every unit plans again (the map, the goal or a setting changed); units at the goal stay.
  void request_replan();
  /// Runs queued re-plans for at most `budget_ms` (always at least one), then advances the
  /// simulation by `real_seconds` times the speed (nothing while paused).
  void update(const io::Scene& scene, double real_seconds, double budget_ms);
  /// Runs the pending re-plans and exactly one fixed step (the Step button; tests).
  void step(const io::Scene& scene);

  void set_playing(bool playing) { sim_.set_paused(!playing); }
  bool playing() const { return !sim_.paused(); }
  void set_speed(double speed) { (void)sim_.set_time_scale(speed); }
  double speed() const { return sim_.time_scale(); }
  int count() const { return sim_.unit_count(); }
  /// Units stopped at the goal they planned for. A unit whose plan failed is not arrived.
  int arrived() const;
  /// True when unit `id` has stopped at the goal of its route.
  bool at_goal(int id) const;
  int pending_replans() const { return static_cast<int>(queue_.size()); }
  double time() const { return sim_.time(); }
  const Simulation& simulation() const { return sim_; }
  /// The preset a unit was spawned as.
  const std::string& preset_of(int id) const { return units_[static_cast<size_t>(id)].preset; }
  /// Why the last plan of a unit failed, or "" (for the panel).
  const std::string& unit_message(int id) const { return units_[static_cast<size_t>(id)].message; }

 private:
  struct Unit {
    std::string preset;
    Pose spawn;
    std::string message;
    std::optional<Vec2> goal;  ///< the goal of the route it follows; none when its plan failed
  };
  bool plan_unit(const io::Scene& scene, int id);
  FollowPath route_for(const io::Scene& scene, const UnitDef& def, const Pose& from, std::string& message);
  PlanPipeline& pipeline(const std::string& preset);
  void run_queue(const io::Scene& scene, double budget_ms);

  const Grid* grid_;
  Simulation sim_;
  std::vector<Unit> units_;
  std::deque<int> queue_;
  double plan_ms_ = 0.0;  // recent time of one unit's plan [ms], to keep re-plans within the budget
  // One pipeline per preset: presets differ in radius and turning radius, and the heading
  // planners' tables are built per turning radius.
  std::map<std::string, std::unique_ptr<PlanPipeline>> pipelines_;
};

}  // namespace pathlab::sandbox
