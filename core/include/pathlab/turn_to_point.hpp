#pragma once
/// @file turn_to_point.hpp
/// Turning towards a point (Pinter 2001, "Toward More Realistic Pathfinding"): the shortest
/// forward path from a pose to a point when the final heading is free, for a unit turning on
/// circles of radius r.
///
/// Outside both turning circles the answer is the article's arc-then-line (LS or RS, the
/// shorter of the two). Unlike the article, points inside a turning circle are reachable too:
/// the unit turns away and back, an arc followed by an arc of the other hand (RL or LR).
/// Boissonnat and Bui (1994) showed that the shortest paths to a point with free heading
/// are always of these forms (CS, or CC with a second arc longer than pi), so evaluating
/// the four candidates and keeping the shortest is exact; the tests check it against the
/// best Dubins path over densely sampled goal headings.
///
/// Numerics: like Dubins, a point within kCurveDegenerate (1e-10) radii inside a turning
/// circle counts as on it and is reached by the arc alone (the path then ends within that
/// distance of the computed end and is snapped to the point): such a point is on the circle
/// up to rounding, and the exact answer would be a detour of about 2 pi r.

#include <array>
#include <string>

#include "pathlab/geometry.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

struct TurnToPointSolution {
  std::string word;            ///< "LS", "RS", "LR", "RL", or "" when already at the point.
  std::array<Move, 2> moves{};  ///< In units of the turning radius, all forward.
  int count = 0;               ///< Moves used (0 to 2).
  double length = 0.0;         ///< [Units: cells]
  double final_heading = 0.0;  ///< Heading on arrival. [Units: radians]
};

/// The shortest forward path from `from` to the point `to` with turning radius `radius`
/// [Units: cells] [Limit: > 0, finite]. Error when the radius or a coordinate is not finite.
Result<TurnToPointSolution> turn_to_point(const Pose& from, Vec2 to, double radius);

/// The segments of turn_to_point(), starting exactly at `from` and ending exactly at `to`.
Result<SegmentPath> turn_to_point_path(const Pose& from, Vec2 to, double radius);

}  // namespace pathlab
