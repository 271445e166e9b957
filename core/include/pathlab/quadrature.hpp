#pragma once
/// @file quadrature.hpp
/// Arc length of a parametric curve by numerical integration of its speed. Shared by the
/// Hermite curves (hermite.hpp) and the arc-length tables (arc_length.hpp); it depends on
/// neither, so the two do not include each other.

#include <functional>

#include "pathlab/geometry.hpp"

namespace pathlab {

/// Integral of |f(u)| over [a, b] (f is a curve's derivative, so this is its arc length),
/// by 8-point Gauss-Legendre rules, halving the interval until the halves agree to
/// `rel_tol` (at most 30 levels deep). Returns 0 for a == b, a negated length for b < a.
double gauss_legendre_length(const std::function<Vec2(double)>& derivative, double a, double b,
                             double rel_tol = 1e-13);

}  // namespace pathlab
