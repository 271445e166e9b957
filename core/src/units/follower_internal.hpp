#pragma once
/// @file follower_internal.hpp
/// Pieces shared by the followers (follower.cpp: steer and damped on polylines and curves;
/// follower_vehicle.cpp: track, and steer on an exact segment path with gear changes).
/// Internal to the units area, never installed.

#include "pathlab/follow_path.hpp"
#include "pathlab/follower.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/unit.hpp"

namespace pathlab::detail {

/// Signed speed after one step towards `want`, within the unit's acceleration and braking.
/// [Units: cells/s]
double approach_speed(const UnitDef& def, double v, double want, double dt);

/// Highest speed from which braking at `braking` [cells/s^2] in whole steps of `dt` [s] still
/// ends at rest within `room` [cells]: v dt + v^2 / (2 braking) <= room. The step in which the
/// unit moves before braking is counted, so a fixed-step unit stops at the mark instead of
/// one step beyond it (no overshoot at a cusp or at the goal). [Units: cells/s] [Limit: >= 0]
double stop_speed(double braking, double room, double dt);

/// Gear of the path's chord leaving distance s (at a cusp: the new gear).
Gear gear_at(const FollowPath& path, double s);

/// Highest speed at distance s [cells] that still lets the unit slow to every bend of the
/// path before `s_end` [cells] in time: a bend of curvature k is taken at most at
/// min(max_turn_rate / k, sqrt(max_lateral_accel / k)), so the heading rate v k stays within
/// the unit's limits. [Units: cells/s]
double bend_speed_ahead(const UnitDef& def, const FollowPath& path, double s, double s_end, double v, double dt);

/// The heading a unit must end with on `path`: its goal heading if it has one, else the end
/// heading of an exact segment path, else none (a polyline's last edge does not say).
std::optional<double> end_heading(const FollowPath& path);

/// At the goal: face the goal heading first when the unit can turn on the spot, then stand
/// still (or give up when it cannot pivot and faces too far off). Returns true when this step
/// is done (turning on the spot, arrived or given up).
bool arrive_or_face_goal(const UnitDef& def, const FollowPath& path, UnitState& st, double dt);

/// The track follower: rides the exact path by arc length with a speed profile (see unit.hpp).
/// A step whose straight move would cut a wall corner the path itself clears is shortened.
void step_track(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& st, double dt);

/// The steer follower on an exact segment path (vehicle plans, Reeds-Shepp cusps).
void step_vehicle(const Grid& grid, const UnitDef& def, const FollowPath& path, UnitState& st, double dt);

}  // namespace pathlab::detail
