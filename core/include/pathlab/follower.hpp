#pragma once
/// @file follower.hpp
/// One fixed time step of one unit along its FollowPath: the three followers of unit.hpp
/// (track, steer, damped). The Simulation (simulation.hpp) calls this for every unit; it is
/// public so tools can drive a single unit or inspect what a follower decided.
///
/// The state is plain data meant to be drawn: the pose, the signed speed, the look-ahead
/// point the unit chases, the speed it aims for and why it stopped.

#include <limits>

#include "pathlab/follow_path.hpp"
#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/unit.hpp"

namespace pathlab {

/// Everything a follower knows about its unit between steps.
struct UnitState {
  Pose pose;                  ///< [Units: cells, radians]
  double speed = 0.0;         ///< Signed: < 0 when reversing. [Units: cells/s]
  double turn_rate = 0.0;     ///< Heading change over the last step / dt. [Units: rad/s]
  double s = 0.0;             ///< Progress along the path. [Units: cells]
  double deviation = 0.0;     ///< Distance from the path after the last step. [Units: cells]
  Vec2 lookahead{0.0, 0.0};   ///< The point chased (track: the pose itself). [Units: cells]
  double target_speed = 0.0;  ///< The speed aimed for in the last step. [Units: cells/s]
  double path_curvature = 0.0;///< Path curvature at s. [Units: 1/cells]
  Gear gear = Gear::forward;
  bool rotating = false;      ///< Steer: stopped (or stopping) to rotate towards the path.
  bool backing_up = false;    ///< Steer, units that cannot pivot: reversing to turn (a three-point turn).
  /// Units that cannot pivot: distance driven in the current leg of a three-point turn
  /// (infinite outside one). [Units: cells]
  double maneuver_distance = std::numeric_limits<double>::infinity();
  bool blocked = false;       ///< The last move was refused because it would enter a wall.
  bool arrived = false;       ///< At the end of the path, stopped.
};

/// The state of a unit placed at `start` on `path` at rest, progress at the path's start.
UnitState initial_unit_state(const FollowPath& path, const Pose& start);

/// Advances one unit by `dt` [s] [Limit: > 0, finite] following def.follower.kind. Steer and
/// damped never move the unit into a wall of `grid` (a refused move stops it: `blocked`).
/// Deterministic: the same inputs give the same state bit for bit.
void step_unit(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& state, double dt);

}  // namespace pathlab
