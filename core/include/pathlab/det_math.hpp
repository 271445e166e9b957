#pragma once
/// @file det_math.hpp
/// Transcendental functions that give the same bits on every platform pathlab is built for.
///
/// Why: the C library's sin, cos, atan2, acos, exp... are accurate to about one unit in the
/// last place, but *which* neighbouring double they return differs between libraries: the
/// browser build's (musl, under Emscripten) and the desktop's (glibc) disagree in the last bit
/// on about 3% of sines and cosines and 17% of arc tangents. A Hybrid A* search compares costs
/// built from them, so one bit reordered its open list and the page planned another path than
/// `pathlab-cli` on the same scene (issue 29). These functions use only +, -, *, / and sqrt,
/// which IEEE 754 rounds the same everywhere, evaluated in a fixed order (the core is built
/// with `-ffp-contract=off`, so no compiler fuses a multiply and an add on one platform only).
///
/// Method: Cody and Waite's argument reduction (W. J. Cody and W. Waite, "Software Manual for
/// the Elementary Functions", 1980) to a small interval, then the Taylor series of the function
/// there, cut where the next term is below 1e-18 of the result; arc tangents reduce by
/// atan(t) = atan(c) + atan((t - c) / (1 + t c)) around a few centres c. Accuracy: within 2
/// units in the last place (3 for asin) of the C library's results on the tested ranges
/// (tests/test_det_math.cpp); |x| up to 1e5 radians for sin and cos (beyond, still the same
/// bits everywhere, but the reduction loses accuracy).
#include <cmath>
#include <cstdint>
#include <cstring>

namespace pathlab::dmath {

namespace detail {

// pi / 2 in three parts; the first two have 33 significant bits, so k * part is exact for
// |k| < 2^20 and x - k * part loses nothing.
inline constexpr double kPio2Hi = 1.5707963267341256;      // 0x1.921fb544p+0
inline constexpr double kPio2Mid = 6.077100506303966e-11;  // 0x1.0b4611a6p-34
inline constexpr double kPio2Lo = 2.0222662487959506e-21;  // 0x1.3198a2e037073p-69
inline constexpr double kTwoOverPi = 0.6366197723675814;
inline constexpr double kPi = 3.141592653589793;
inline constexpr double kPiLo = 1.2246467991473532e-16;  // pi - kPi
inline constexpr double kPio2 = 1.5707963267948966;
inline constexpr double kPio2Tail = 6.123233995736766e-17;  // pi / 2 - kPio2
// ln 2 in two parts for exp and log; the first has 29 significant bits, so k * kLn2Hi is exact
// for |k| < 2^21.
inline constexpr double kLn2Hi = 0.6931471806019545;  // 0x1.62e42ffp-1
inline constexpr double kLn2Lo = -4.2009150726810846e-11;
inline constexpr double kInvLn2 = 1.4426950408889634;

/// sin(r) for |r| <= pi / 4 (Taylor to r^17; the next term is below 1e-19 of the result).
inline double sin_kernel(double r) {
  const double z = r * r;
  const double p = -1.0 / 6.0 + z * (1.0 / 120.0 + z * (-1.0 / 5040.0 + z * (1.0 / 362880.0 + z * (-1.0 / 39916800.0 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 + z * (1.0 / 355687428096000.0)))))));
  return r + r * z * p;
}

/// cos(r) for |r| <= pi / 4 (Taylor to r^18).
inline double cos_kernel(double r) {
  const double z = r * r;
  const double p = 1.0 / 24.0 + z * (-1.0 / 720.0 + z * (1.0 / 40320.0 + z * (-1.0 / 3628800.0 + z * (1.0 / 479001600.0 + z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0))))));
  return (1.0 - 0.5 * z) + z * z * p;
}

/// x = k pi/2 + r with |r| <= pi / 4 (a hair more at the rounding points); returns k mod 4.
/// Beyond 1e9 the three-part pi/2 no longer cancels x (at 1.1e23 r came out near 1e7 and sin
/// near 1e100: a fuzzed start heading sent Hybrid A*'s poses to 1.5e100 cells), so x is first
/// brought into [-pi, pi] by an exact remainder: bounded, the same on every machine, and no
/// value up to 1e9 changes.
inline int reduce_quadrant(double x, double& r) {
  if (std::abs(x) > 1e9) x = std::remainder(x, 2.0 * 3.141592653589793);
  const double k = std::floor(x * kTwoOverPi + 0.5);
  r = ((x - k * kPio2Hi) - k * kPio2Mid) - k * kPio2Lo;
  const double k4 = k - 4.0 * std::floor(k * 0.25);  // k mod 4, exact, also for negative k
  return static_cast<int>(k4);
}

/// sin(q pi/2 + r) for |r| <= pi / 4: the sine kernel for even q, the cosine kernel for odd q,
/// negated for q mod 4 in {2, 3}. cos(x) is this with q + 1, so sin, cos and sincos share it.
inline double quadrant_sin(int q, double r) {
  const double v = (q & 1) != 0 ? cos_kernel(r) : sin_kernel(r);
  return (q & 2) != 0 ? -v : v;
}

/// atan(u) for |u| <= 0.25 (series to u^29; the next term is below 1e-18 of the result).
inline double atan_kernel(double u) {
  const double z = u * u;
  double p = 1.0 / 29.0;
  p = -1.0 / 27.0 + z * p;
  p = 1.0 / 25.0 + z * p;
  p = -1.0 / 23.0 + z * p;
  p = 1.0 / 21.0 + z * p;
  p = -1.0 / 19.0 + z * p;
  p = 1.0 / 17.0 + z * p;
  p = -1.0 / 15.0 + z * p;
  p = 1.0 / 13.0 + z * p;
  p = -1.0 / 11.0 + z * p;
  p = 1.0 / 9.0 + z * p;
  p = -1.0 / 7.0 + z * p;
  p = 1.0 / 5.0 + z * p;
  p = -1.0 / 3.0 + z * p;
  return u + u * z * p;
}

/// atan(t) for t >= 0 (t may be infinite).
inline double atan_positive(double t) {
  // Centres c with atan(c) as a double and its remainder; |(t - c) / (1 + t c)| <= 0.25.
  if (t <= 0.25) return atan_kernel(t);
  if (t <= 0.75) return 0.4636476090008061 + (2.2698777452961687e-17 + atan_kernel((t - 0.5) / (1.0 + 0.5 * t)));
  if (t <= 1.3) return 0.7853981633974483 + (3.061616997868383e-17 + atan_kernel((t - 1.0) / (1.0 + t)));
  if (t <= 2.5) return 0.982793723247329 + (1.3903311031230998e-17 + atan_kernel((t - 1.5) / (1.0 + 1.5 * t)));
  if (t <= 5.0) return 1.2490457723982544 + (-2.196203799612311e-18 + atan_kernel((t - 3.0) / (1.0 + 3.0 * t)));
  return kPio2 + (kPio2Tail - atan_kernel(1.0 / t));  // atan(t) = pi/2 - atan(1/t); 1/inf = 0
}

}  // namespace detail

/// sin(x) [Units: radians] [Limit: accurate for |x| <= 1e5]; NaN for NaN or infinite x.
inline double sin(double x) {
  if (!std::isfinite(x)) return x - x;
  if (x == 0.0) return x;  // keeps the sign of -0 (the kernel would give +0)
  double r = 0.0;
  const int q = detail::reduce_quadrant(x, r);
  return detail::quadrant_sin(q, r);
}

/// cos(x) [Units: radians] [Limit: accurate for |x| <= 1e5]; NaN for NaN or infinite x.
inline double cos(double x) {
  if (!std::isfinite(x)) return x - x;
  double r = 0.0;
  const int q = detail::reduce_quadrant(x, r);
  return detail::quadrant_sin(q + 1, r);  // cos(x) = sin(x + pi/2)
}

/// Both at once, one reduction: the same bits as sin(x) and cos(x) (each kernel runs once).
inline void sincos(double x, double& s, double& c) {
  if (!std::isfinite(x)) {
    s = c = x - x;
    return;
  }
  double r = 0.0;
  const int q = detail::reduce_quadrant(x, r);
  s = x == 0.0 ? x : detail::quadrant_sin(q, r);
  c = detail::quadrant_sin(q + 1, r);
}

/// sincos() for use in an expression: `const auto [s, c] = dmath::sincos(x);`.
struct SinCos {
  double sin = 0.0;
  double cos = 0.0;
};
inline SinCos sincos(double x) {
  SinCos sc;
  sincos(x, sc.sin, sc.cos);
  return sc;
}

/// tan(x) = sin(x) / cos(x) [Units: radians].
inline double tan(double x) {
  double s = 0.0, c = 0.0;
  sincos(x, s, c);
  return s / c;
}

/// atan2(y, x) in [-pi, pi], with the C library's signed zeros and infinities.
inline double atan2(double y, double x) {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  const bool x_neg = std::signbit(x);
  double a = 0.0;
  if (std::isinf(x) && std::isinf(y)) {
    a = x_neg ? 3.0 * (detail::kPio2 * 0.5) : detail::kPio2 * 0.5;  // 3 pi/4 or pi/4
  } else if (y == 0.0) {
    a = x_neg ? detail::kPi : 0.0;
  } else if (x == 0.0 || std::isinf(y)) {
    a = detail::kPio2;
  } else if (std::isinf(x)) {
    a = x_neg ? detail::kPi : 0.0;
  } else {
    const double t = std::fabs(y) / std::fabs(x);  // may round to 0 or inf: still exact-ish
    a = detail::atan_positive(t);
    if (x_neg) a = detail::kPi - a + detail::kPiLo;
  }
  return std::signbit(y) ? -a : a;
}

/// atan(x) in [-pi/2, pi/2].
inline double atan(double x) {
  if (std::isnan(x)) return x;
  const double a = detail::atan_positive(std::fabs(x));
  return std::signbit(x) ? -a : a;
}

/// acos(x) for x in [-1, 1], NaN outside.
inline double acos(double x) {
  if (!(x >= -1.0 && x <= 1.0)) return std::nan("");
  return atan2(std::sqrt((1.0 - x) * (1.0 + x)), x);
}

/// asin(x) for x in [-1, 1], NaN outside.
inline double asin(double x) {
  if (!(x >= -1.0 && x <= 1.0)) return std::nan("");
  return atan2(x, std::sqrt((1.0 - x) * (1.0 + x)));
}

/// exp(x); 0 below -745, infinity above 709.8.
inline double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.78) return HUGE_VAL;
  if (x < -745.2) return 0.0;
  using detail::kLn2Hi, detail::kLn2Lo;
  const double k = std::floor(x * detail::kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;  // |r| <= ln 2 / 2
  // Taylor to r^16 / 16!: the next term is below 1e-18 of the result for |r| <= 0.35.
  double p = 1.0 / 20922789888000.0;
  const double inv_fact[] = {1.0 / 1307674368000.0, 1.0 / 87178291200.0, 1.0 / 6227020800.0, 1.0 / 479001600.0,
                             1.0 / 39916800.0,      1.0 / 3628800.0,     1.0 / 362880.0,     1.0 / 40320.0,
                             1.0 / 5040.0,          1.0 / 720.0,         1.0 / 120.0,        1.0 / 24.0,
                             1.0 / 6.0,             0.5};
  for (double f : inv_fact) p = f + r * p;
  const double e = 1.0 + (r + r * r * p);
  return std::ldexp(e, static_cast<int>(k));  // ldexp is exact (or a correctly rounded subnormal)
}

/// log(x) for x > 0; -infinity at 0, NaN below.
inline double log(double x) {
  if (std::isnan(x) || x < 0.0) return std::nan("");
  if (x == 0.0) return -HUGE_VAL;
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1): exact
  if (m < 0.70710678118654752) m *= 2.0, --e;  // m in [sqrt(1/2), sqrt(2))
  const double s = (m - 1.0) / (m + 1.0), z = s * s;  // |s| <= 0.1716
  // log(m) = 2 atanh(s) = 2 (s + s^3/3 + ...), to s^23 (next term below 1e-18 of the result).
  double p = 1.0 / 23.0;
  for (int k = 21; k >= 3; k -= 2) p = 1.0 / k + z * p;
  const double log_m = 2.0 * s + 2.0 * s * z * p;
  return (e * detail::kLn2Hi + log_m) + e * detail::kLn2Lo;
}

/// pow(x, y) for x > 0 as exp(y log x); exact for y = 0, 1, 0.5 (sqrt), 2.
inline double pow(double x, double y) {
  if (y == 0.0) return 1.0;
  if (y == 1.0) return x;
  if (y == 2.0) return x * x;
  if (y == 0.5 && x >= 0.0) return std::sqrt(x);
  if (x == 0.0) return y > 0.0 ? 0.0 : HUGE_VAL;
  return exp(y * log(x));
}

/// sqrt(x * x + y * y): IEEE rounds each step alike everywhere (std::hypot's last bit does not).
inline double hypot(double x, double y) { return std::sqrt(x * x + y * y); }

}  // namespace pathlab::dmath
