#include "curves/cc_clothoid.hpp"

#include <algorithm>
#include <cmath>
#include "pathlab/det_math.hpp"

namespace pathlab::detail {
namespace {

// Gauss-Legendre 8-point nodes and weights on [-1, 1] (Abramowitz & Stegun, table 25.4).
constexpr double kNodes[4] = {0.1834346424956498049, 0.5255324099163289858, 0.7966664774136267396,
                              0.9602898564975362317};
constexpr double kWeights[4] = {0.3626837833783619830, 0.3137066458778872873, 0.2223810344533744706,
                                0.1012285362903762591};
// Largest heading change over one piece. [Units: radians]
constexpr double kPieceTurn = 0.75;
// Most pieces: beyond it the clothoid turns more than about 7.5e5 rad (callers stay far below).
constexpr double kMaxPieces = 1e6;

}  // namespace

Vec2 clothoid_local(double k0, double dk, double s) {
  if (!(s > 0.0)) return Vec2(0.0, 0.0);
  // A bound on the heading change over [0, s]: |k0| s + |dk| s^2 / 2, doubled for margin.
  const double turn = std::abs(k0) * s + std::abs(dk) * s * s;
  const double pieces = std::clamp(std::ceil(turn / kPieceTurn), 1.0, kMaxPieces);
  const int n = static_cast<int>(pieces);
  const double h = s / n;
  double x = 0.0, y = 0.0;
  for (int p = 0; p < n; ++p) {
    const double mid = (p + 0.5) * h;
    double px = 0.0, py = 0.0;
    for (int k = 0; k < 4; ++k) {
      for (const double side : {-1.0, 1.0}) {
        const double u = mid + side * kNodes[k] * 0.5 * h;
        const double th = u * (k0 + 0.5 * dk * u);
        const auto [st, ct] = dmath::sincos(th);
        px += kWeights[k] * ct;
        py += kWeights[k] * st;
      }
    }
    x += px;
    y += py;
  }
  return Vec2(x * 0.5 * h, y * 0.5 * h);
}

}  // namespace pathlab::detail
