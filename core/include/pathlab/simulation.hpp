#pragma once
/// @file simulation.hpp
/// A deterministic fixed-timestep simulation of units following paths on a grid.
///
/// Every step advances every unit by exactly `dt` seconds, in the order they were added, with
/// no reading of clocks: the same units, paths and grid edits give the same trajectories bit
/// for bit, whatever the frame rate. A renderer calls advance(frame_seconds), which runs as
/// many whole steps as the accumulated time allows (scaled by the speed multiplier, none
/// when paused) and keeps the rest for the next frame; step() runs exactly one.
///
/// The grid is read, never copied: edit it between steps (paint a wall) and the units see the
/// new walls at once; give a unit a new plan with set_path(), which starts from its current
/// pose and speed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/follow_path.hpp"
#include "pathlab/follower.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/status.hpp"
#include "pathlab/unit.hpp"

namespace pathlab {

/// Per-run measurements of one unit, accumulated over its steps.
struct RunMetrics {
  bool arrived = false;  ///< As UnitState::arrived (position, goal heading, stopped).
  /// Simulated time at arrival (only a true arrival sets it); none until the unit arrives (and again after set_path()). [Units: s]
  std::optional<double> time_to_goal;
  double distance = 0.0;           ///< Length travelled. [Units: cells]
  double max_deviation = 0.0;      ///< Largest distance from the path. [Units: cells]
  double max_lateral_accel = 0.0;  ///< Largest |speed x heading rate|. [Units: cells/s^2]
  double max_turn_rate = 0.0;      ///< Largest |heading rate|. [Units: rad/s]
  int stops = 0;                   ///< Times the unit came to rest before arriving.
  int blocked_steps = 0;           ///< Steps whose move was refused because of a wall.
  int collisions = 0;              ///< Steps whose move entered a wall (must stay 0).
  int replans = 0;                 ///< set_path() calls.
};

/// Options of the simulation. Start from default_simulation_def().
struct SimulationDef {
  double dt = 1.0 / 60.0;  ///< Fixed step. [Units: s] [Limit: (0, 1]]
  /// advance() runs at most this many steps per call and drops the rest of the time, so a
  /// long frame (a debugger break) cannot freeze the program catching up. [Limit: >= 1]
  int max_steps_per_advance = 16;
};

inline SimulationDef default_simulation_def() { return SimulationDef{}; }

using UnitId = int;

class Simulation {
 public:
  /// Fails on a dt outside (0, 1] or max_steps_per_advance < 1. `grid` must outlive it.
  static Result<Simulation> create(const Grid& grid, const SimulationDef& def = default_simulation_def());

  /// Adds a unit at `start` (default: the path's start pose) at rest. Errors: a bad UnitDef
  /// (naming the field), a start that is not clear of walls for the unit's radius, a track
  /// unit that does not start on its path's start, a damped unit on a path with reverse gear
  /// (track and steer follow those).
  Result<UnitId> add_unit(const UnitDef& def, FollowPath path, std::optional<Pose> start = std::nullopt);

  /// Replaces a unit's path, keeping its pose and speed (no jump). A track unit's new path
  /// must start at its position (build it from the pose, e.g. with splice_start or a
  /// Reeds-Shepp path from the pose). Errors as add_unit, plus an unknown id.
  Status set_path(UnitId id, FollowPath path);

  /// One fixed step of every unit.
  void step();
  /// Adds `real_seconds` x time scale to the accumulator and runs the whole steps it holds
  /// (none while paused). Returns the number of steps run. [Limit: real_seconds >= 0, finite]
  int advance(double real_seconds);
  /// Speed multiplier of advance(). [Limit: >= 0, finite; 0 freezes like pause]
  Status set_time_scale(double scale);
  double time_scale() const noexcept { return time_scale_; }
  void set_paused(bool paused) noexcept { paused_ = paused; }
  bool paused() const noexcept { return paused_; }
  /// Fraction of a step left in the accumulator, in [0, 1): for drawing between two steps.
  double interpolation_alpha() const noexcept { return accumulator_ / def_.dt; }

  double time() const noexcept { return static_cast<double>(steps_) * def_.dt; }  ///< [Units: s]
  int64_t step_count() const noexcept { return steps_; }
  double dt() const noexcept { return def_.dt; }
  int unit_count() const noexcept { return static_cast<int>(units_.size()); }
  bool valid(UnitId id) const noexcept { return id >= 0 && id < unit_count(); }
  bool all_arrived() const noexcept;

  /// Precondition for these: valid(id).
  const UnitState& state(UnitId id) const { return units_[static_cast<size_t>(id)].state; }
  const RunMetrics& metrics(UnitId id) const { return units_[static_cast<size_t>(id)].metrics; }
  const UnitDef& unit_def(UnitId id) const { return units_[static_cast<size_t>(id)].def; }
  const FollowPath& path(UnitId id) const { return units_[static_cast<size_t>(id)].path; }

 private:
  struct Unit {
    UnitDef def;
    FollowPath path;
    UnitState state;
    RunMetrics metrics;
  };
  Simulation(const Grid& grid, const SimulationDef& def) : grid_(&grid), def_(def) {}
  Status check_path(const UnitDef& def, const FollowPath& path, const Pose& start) const;
  void step_one(Unit& u);

  const Grid* grid_;
  SimulationDef def_;
  std::vector<Unit> units_;
  int64_t steps_ = 0;
  double accumulator_ = 0.0;
  double time_scale_ = 1.0;
  bool paused_ = false;
};

/// One sample of a trajectory.
struct TrajectorySample {
  double t = 0.0;      ///< [Units: s]
  Pose pose;           ///< [Units: cells, radians]
  double speed = 0.0;  ///< Signed. [Units: cells/s]
};

struct SingleRun {
  std::vector<TrajectorySample> samples;  ///< t = 0 and after every step.
  RunMetrics metrics;
  /// Why the run ended without arriving before `max_time`: the unit gave up (GiveUp), or it
  /// stalled (kStallSeconds without moving kStallDistance or turning kStallTurn). Empty
  /// when it arrived or ran out of time while still making progress.
  std::string ended_because;
};

/// A single run ends as stalled after this long without progress. [Units: s]
inline constexpr double kStallSeconds = 5.0;
/// Progress: moving this far from where the unit was at the start of the window... [Units: cells]
inline constexpr double kStallDistance = 0.01;
/// ...or turning this far from its heading then. [Units: radians]
inline constexpr double kStallTurn = 0.01;

/// Runs one unit alone until it arrives, gives up, stalls (no unit creeps forever at a
/// near-zero speed) or `max_time` [s] [Limit: > 0, finite] has passed.
Result<SingleRun> simulate_unit(const Grid& grid, const UnitDef& def, FollowPath path, std::optional<Pose> start,
                                const SimulationDef& sim_def, double max_time);

}  // namespace pathlab
