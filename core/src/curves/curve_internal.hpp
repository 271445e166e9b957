#pragma once
// Shared by the curve builders (Dubins, Reeds-Shepp, turn-to-point): the goal expressed in
// the start's frame in units of the turning radius, and angle helpers. Not installed.

#include <cmath>

#include "pathlab/curve_input.hpp"
#include "pathlab/geometry.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::detail {

inline constexpr double kTwoPi = 2.0 * kPi;

/// Angle in [-pi, pi] for arguments within a few turns of zero (cheaper than remainder).
inline double wrap_pi(double a) {
  while (a > kPi) a -= kTwoPi;
  while (a < -kPi) a += kTwoPi;
  return a;
}

/// Goal relative to the start: position (x, y) in radii in the start's frame (x along the
/// start heading), heading change phi in (-pi, pi] and its sine and cosine.
struct LocalGoal {
  double x = 0.0, y = 0.0, phi = 0.0, s = 0.0, c = 1.0;
};

/// local_goal() with the cosine and sine of from.heading given (c1, s1: those very values).
inline LocalGoal local_goal(const Pose& from, double c1, double s1, const Pose& to, double radius) {
  const double dx = to.pos.x - from.pos.x, dy = to.pos.y - from.pos.y;
  LocalGoal g;
  const double inv = 1.0 / radius;
  g.x = (c1 * dx + s1 * dy) * inv;
  g.y = (c1 * dy - s1 * dx) * inv;
  const double dphi = to.heading - from.heading;
  dmath::sincos(dphi, g.s, g.c);
  // Headings are usually within a turn or two of each other; remainder() handles the rest.
  g.phi = std::abs(dphi) < 8.0 * kPi ? wrap_pi(dphi) : std::remainder(dphi, kTwoPi);
  return g;
}

inline LocalGoal local_goal(const Pose& from, const Pose& to, double radius) {
  const auto [s1, c1] = dmath::sincos(from.heading);
  return local_goal(from, c1, s1, to, radius);
}

/// dubins_length() of a goal local_goal() gave, for callers that check the input once and
/// work out many goals' sines and cosines once (Directional A*'s heuristic): the same bits.
/// [Units: cells]
double dubins_length_local(const LocalGoal& g, double radius);

/// Angle in [0, 2 pi); values within kCurveAngleSnap below 2 pi (rounding of a zero arc) give 0.
/// Meant for sums of a few angles (|a| < 6 pi), as the builders produce; larger values still
/// work, just slower.
inline double mod2pi(double a) {
  while (a < 0.0) a += kTwoPi;
  while (a >= kTwoPi) a -= kTwoPi;
  if (a >= kTwoPi - kCurveAngleSnap) a = 0.0;
  return a;
}

}  // namespace pathlab::detail
