#pragma once
// Clothoid points: the integral of exp(i theta(u)) for a heading theta(u) quadratic in the
// distance u, which is what the Fresnel integrals give in closed form. Not installed.

#include "pathlab/geometry.hpp"

namespace pathlab::detail {

/// The end point of a clothoid in its start frame (start at the origin, heading +x, driving
/// forward): integral over [0, s] of (cos, sin)(k0 u + dk u^2 / 2) du.
/// [Units: k0 1/cells, dk 1/cells^2, s cells] [Limit: finite, |k0| s + |dk| s^2 <= 1e6 rad]
/// Composite 8-point Gauss-Legendre: the pieces turn at most 0.75 rad each, where the rule is
/// exact to rounding (its error for exp(i a x) on [-1, 1] is about a^16 / 16!, below 1e-17
/// for a = 0.4); no series / asymptotic switch-over, so no loss of accuracy near the switch.
Vec2 clothoid_local(double k0, double dk, double s);

}  // namespace pathlab::detail
