#include "pathlab/quadrature.hpp"

#include <algorithm>
#include <cmath>

namespace pathlab {
namespace {

// 8-point Gauss-Legendre rule on [-1, 1]: exact for polynomials up to degree 15, and the
// speed of a cubic is the square root of a quartic, smooth away from stops.
constexpr double kNodes[4] = {0.1834346424956498049, 0.5255324099163289858, 0.7966664774136267396,
                              0.9602898564975362317};
constexpr double kWeights[4] = {0.3626837833783619830, 0.3137066458778872873, 0.2223810344533744706,
                                0.1012285362903762591};

double gl8(const std::function<Vec2(double)>& f, double a, double b) {
  const double half = 0.5 * (b - a), mid = 0.5 * (a + b);
  double sum = 0.0;
  for (int i = 0; i < 4; ++i) {
    const double dx = half * kNodes[i];
    sum += kWeights[i] * (glm::length(f(mid - dx)) + glm::length(f(mid + dx)));
  }
  return sum * half;
}

double adaptive(const std::function<Vec2(double)>& f, double a, double b, double whole, double abs_tol, int depth) {
  const double m = 0.5 * (a + b);
  const double left = gl8(f, a, m), right = gl8(f, m, b);
  const double both = left + right;
  // A kink (the curve stops and turns) converges slowly; everything else stops at once.
  // Rounding noise of the sums themselves must never force a split.
  const double tol = std::max(abs_tol, 8.0 * 2.2e-16 * std::abs(both));
  if (depth <= 0 || std::abs(both - whole) <= tol || !std::isfinite(both)) return both;
  return adaptive(f, a, m, left, abs_tol, depth - 1) + adaptive(f, m, b, right, abs_tol, depth - 1);
}

}  // namespace

double gauss_legendre_length(const std::function<Vec2(double)>& derivative, double a, double b, double rel_tol) {
  if (!(a != b)) return 0.0;
  if (b < a) return -gauss_legendre_length(derivative, b, a, rel_tol);
  const double whole = gl8(derivative, a, b);
  // The tolerance is absolute, taken from the first estimate, so short flat pieces do not
  // have to reach a relative accuracy that rounding cannot give them.
  const double abs_tol = std::max(std::abs(whole) * rel_tol, 1e-300);
  return adaptive(derivative, a, b, whole, abs_tol, 30);
}

}  // namespace pathlab
