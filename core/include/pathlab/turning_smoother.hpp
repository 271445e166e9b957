#pragma once
/// @file turning_smoother.hpp
/// Legal turns, the basic methods of Pinter (2001): post-processing a grid or any-angle path for
/// a unit with a turning radius. Every corner of the path is rounded by a circular arc of
/// the turning radius tangent to both legs (a fillet). Where that arc does not fit (the legs
/// are too short or it would cross a wall) a fallback is applied, in this order, each one
/// only when enabled:
///  1. shrink: the largest radius down to `min_radius` that fits (the unit cheats on its
///     turning radius, figure 7a);
///  2. three_point: stop at the corner and turn on the spot with the shortest Reeds-Shepp
///     manoeuvre at the full radius (forward and reverse, figure 7b);
///  3. rotate: stop at the corner and rotate in place (a tank; no curve exists, so the path
///     is split into pieces there).
/// Every turn reports which method it used. Collinear waypoints are merged first.
/// Optional start and goal headings are met with the same spot turns (three-point or rotate).

#include <cstdint>
#include <span>
#include <vector>

#include "pathlab/grid.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

enum class TurnMethod : uint8_t {
  fillet = 0,   ///< An arc of the full turning radius.
  shrink,       ///< An arc of a smaller radius (TurnReport::radius).
  three_point,  ///< A Reeds-Shepp manoeuvre on the spot.
  rotate,       ///< Rotation in place.
};

/// "fillet", "shrink", "three_point", "rotate".
const char* to_string(TurnMethod method) noexcept;

struct TurningSmoothDef {
  double turning_radius = 2.0;  ///< [Units: cells] [Limit: > 0, <= 1000]
  double agent_radius = 0.0;    ///< [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  double min_radius = 0.25;     ///< Floor of the shrink fallback. [Units: cells] [Limit: (0, turning_radius]]
  bool allow_shrink = true;
  bool allow_three_point = true;
  bool allow_rotate = true;
  bool has_start_heading = false;
  double start_heading = 0.0;  ///< Heading at the first point when has_start_heading. [Units: radians]
  bool has_goal_heading = false;
  double goal_heading = 0.0;   ///< Heading wanted at the last point when has_goal_heading. [Units: radians]
};

inline TurningSmoothDef default_turning_smooth_def() { return TurningSmoothDef{}; }

/// How one corner (or the start / goal heading change) was made.
struct TurnReport {
  int waypoint = 0;         ///< Index into the input points.
  TurnMethod method = TurnMethod::fillet;
  double angle = 0.0;       ///< Signed heading change. [Units: radians]
  double radius = 0.0;      ///< Radius of the arc or manoeuvre; 0 for rotate. [Units: cells]
};

struct TurningResult {
  /// Drivable pieces; a new piece starts after every rotation in place. Together they run
  /// from the first to the last input point.
  std::vector<SegmentPath> pieces;
  std::vector<TurnReport> turns;  ///< One per corner and per spot turn, in path order.
  double length = 0.0;            ///< Distance travelled. [Units: cells]
  int count(TurnMethod method) const;
};

/// Fits turning-radius curves through `points` (at least 1). Errors: bad definition
/// (invalid_argument, naming the field), non-finite points, the input polyline not clear
/// for the agent radius (blocked), or a corner no enabled method can make (blocked, naming
/// the waypoint).
Result<TurningResult> turning_smooth(const Grid& grid, std::span<const Vec2> points,
                                     const TurningSmoothDef& def = default_turning_smooth_def());

}  // namespace pathlab
