#pragma once
/// @file unit.hpp
/// What a moving unit is: its size, how fast it goes, how fast it speeds up and brakes,
/// how tightly it turns, and which follower drives it along a path (Pinter 2001 contrasts a
/// person, a car, a tank and a bear by exactly these numbers).
///
/// Units are discs in the grid's world units (1 cell ~ 1 metre) and seconds. A unit turns
/// with a heading rate limited three ways: never above `max_turn_rate`; while moving, never
/// tighter than `turning_radius` (rate <= |speed| / radius); and when (nearly) stopped, at
/// `pivot_turn_rate`, which is 0 for units that cannot turn on the spot (a car).

#include <cstdint>
#include <string>

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// How a unit follows its path.
enum class FollowerKind : uint8_t {
  /// Exact following by arc length (the fix "In love with splines" skips): the pose is the
  /// path's pose at the distance driven. The speed follows a profile along the path: at most
  /// the gear's top speed, slow enough in bends that the heading rate stays within the unit's
  /// limits (max_heading_rate), braking along the remaining arc length to rest at every gear
  /// change (cusp) of a segment path and at the end. On a polyline a unit that can pivot stops
  /// at each corner and turns on the spot (and to the goal heading at the end); for one that
  /// cannot (a car) the heading jumps at polyline corners, as the path itself does.
  track,
  /// On a polyline or curve, the Tower22 post's "physics": chase a look-ahead point with a
  /// limited turn rate, slow down ahead of sharp turns, stop and rotate when the turn is beyond
  /// a threshold. Leaves the line a little, never enters a wall. On an exact segment path (a
  /// vehicle plan, possibly with cusps): a path tracker with track's speed profile that steers
  /// by the path's curvature plus a cross-track correction, stopping at each cusp.
  steer,
  /// Guesgen's (2004) rotational dampening: the heading lags behind the direction to the next
  /// waypoint (first-order), which masks the turns but swings wide. For comparison.
  damped,
};

/// Parses "track", "steer", "damped".
Result<FollowerKind> parse_follower_kind(const std::string& name);
const char* to_string(FollowerKind kind) noexcept;

/// Tuning of the followers. Start from default_follower_def().
struct FollowerDef {
  FollowerKind kind = FollowerKind::steer;
  /// Steer/damped: the look-ahead point lies max(lookahead_min, |speed| * lookahead_time)
  /// ahead along the path. [Units: cells] [Limit: > 0, finite]
  double lookahead_min = 0.75;
  double lookahead_time = 0.4;  ///< [Units: s] [Limit: >= 0, finite]
  /// Steer: a heading error to the look-ahead point above this stops the unit to rotate
  /// (when it can pivot; otherwise it turns at full lock, backing up if it may reverse).
  /// Polyline corners sharper than this are approached to a stop. [Units: radians] [Limit: (0, pi]]
  double stop_turn_angle = deg_to_rad(75.0);
  /// Steer: how far the unit may cut a polyline corner; sets the speed it takes the corner
  /// at. [Units: cells] [Limit: > 0, finite]
  double corner_cut = 0.15;
  /// Damped: time constant of the heading lag. [Units: s] [Limit: > 0, finite]
  double damping_time = 0.35;
  /// Steer/damped: the unit has arrived when it is this close to the path's end.
  /// [Units: cells] [Limit: > 0, finite]
  double arrive_distance = 0.05;
};

inline FollowerDef default_follower_def() { return FollowerDef{}; }

/// A unit's body and engine. Start from default_unit_def() or a preset.
struct UnitDef {
  std::string name = "unit";     ///< For messages and output only.
  double radius = 0.3;           ///< Disc radius. [Units: cells] [Limit: 0..kMaxAgentRadius]
  double max_speed = 2.0;        ///< [Units: cells/s] [Limit: > 0, finite]
  double max_reverse_speed = 0;  ///< Used only when can_reverse. [Units: cells/s] [Limit: >= 0, finite; > 0 if can_reverse]
  double acceleration = 4.0;     ///< [Units: cells/s^2] [Limit: > 0, finite]
  double braking = 6.0;          ///< Deceleration. [Units: cells/s^2] [Limit: > 0, finite]
  /// Tightest circle while moving; 0 = no limit besides max_turn_rate. [Units: cells] [Limit: >= 0, finite]
  double turning_radius = 0.0;
  double max_turn_rate = deg_to_rad(360.0);  ///< [Units: rad/s] [Limit: > 0, finite]
  /// Rotation rate when stopped; 0 = cannot turn on the spot. [Units: rad/s] [Limit: 0..max_turn_rate]
  double pivot_turn_rate = deg_to_rad(360.0);
  /// Steer: the largest sideways acceleration it accepts in a bend; sets bend speeds.
  /// [Units: cells/s^2] [Limit: > 0, finite]
  double max_lateral_accel = 6.0;
  bool can_reverse = false;
  FollowerDef follower = default_follower_def();
};

inline UnitDef default_unit_def() { return UnitDef{}; }

/// Presets, in cells (~metres) and seconds. See unit.cpp for the numbers and why.
UnitDef person_unit_def();
UnitDef car_unit_def();
UnitDef tank_unit_def();
UnitDef bear_unit_def();

/// Preset by name: "person", "car", "tank", "bear".
Result<UnitDef> unit_preset(const std::string& name);

/// Checks every field; the error names the field, e.g. "unit.max_speed must be > 0 (got -1)".
Status validate_unit_def(const UnitDef& def);

/// Largest heading rate at signed `speed` [cells/s]: min(max_turn_rate, |speed| / turning_radius),
/// but never below pivot_turn_rate. [Units: rad/s]
double max_heading_rate(const UnitDef& def, double speed) noexcept;

}  // namespace pathlab
