#pragma once
/// @file follower.hpp
/// One fixed time step of one unit along its FollowPath: the three followers of unit.hpp
/// (track, steer, damped). The Simulation (simulation.hpp) calls this for every unit; it is
/// public so tools can drive a single unit or inspect what a follower decided.
///
/// The state is plain data meant to be drawn: the pose, the signed speed, the look-ahead
/// point the unit chases, the speed it aims for and why it stopped.

#include <cstdint>
#include <limits>

#include "pathlab/follow_path.hpp"
#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/unit.hpp"

namespace pathlab {

/// How far from the goal heading a unit may face and still have arrived, when its path has
/// one (FollowPath::goal_heading). Units that pivot turn to the goal heading exactly (to
/// 1e-9 rad); this bounds units that cannot pivot (the car), which arrive only if they
/// end this close to it (a car driving straight in ends a few degrees off). [Units: radians]
/// (5 degrees)
inline constexpr double kGoalHeadingTolerance = kPi / 36.0;

/// Why a unit stopped for good short of arriving (it will not move again on this path).
enum class GiveUp : uint8_t {
  none,
  /// At the goal position, stopped, facing more than kGoalHeadingTolerance away from the
  /// goal heading, and it cannot turn on the spot (pivot_turn_rate 0).
  heading_unreachable,
};
const char* to_string(GiveUp g) noexcept;

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
  /// Arrived: within follower.arrive_distance of the path's end (and at its end along the
  /// path), at the goal heading when the path has one (within kGoalHeadingTolerance; a steer
  /// unit on a segment path without one: the path's end heading), and stopped. Track units
  /// arrive at the path's end with the path's own heading, at rest.
  bool arrived = false;
  GiveUp gave_up = GiveUp::none;  ///< Set once, instead of arriving; the unit then stands still.
};

/// The state of a unit placed at `start` on `path` at rest, progress at the path's start.
UnitState initial_unit_state(const FollowPath& path, const Pose& start);

/// Advances one unit by `dt` [s] [Limit: > 0, finite] following def.follower.kind. Steer and
/// damped never move the unit into a wall of `grid` (a refused move stops it: `blocked`; the
/// steer tracker of a segment path, within 0.05 cells of it, takes the path's own next pose
/// instead when that move is clear, since the planner checked the path).
/// Deterministic: the same inputs give the same state bit for bit.
void step_unit(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& state, double dt);

}  // namespace pathlab
