#pragma once
/// @file curve_input.hpp
/// The limits every pose-to-pose curve (Dubins, Reeds-Shepp, turn-to-point) accepts, and the
/// one check of a query against them, shared by the curve builders and the CLI so a bad radius
/// or pose gets the same message wherever it comes from.

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Largest |x| or |y| of a curve's poses: double rounding at larger coordinates exceeds the
/// end-pose tolerance. [Units: cells]
inline constexpr double kMaxCurveCoordinate = 1e9;
/// Largest turning radius. [Units: cells]
inline constexpr double kMaxCurveRadius = 1e9;
/// Largest distance between the poses in turning radii (the problem is solved in radii: a
/// radius of 1e-300 for poses 11 cells apart would overflow). Checked up to 1e7 in the tests.
inline constexpr double kMaxCurveSpanInRadii = 1e9;
/// Largest |heading|: headings are angles, so callers wrap them first. [Units: radians]
inline constexpr double kMaxCurveHeading = 1e6;

/// Checks a radius and two poses for the curve builders: finite, within the limits above.
/// The message names what is wrong ("turning radius", "start", "goal") with its value.
Status check_curve_input(const Pose& from, const Vec2& to, double to_heading, double radius);

}  // namespace pathlab
