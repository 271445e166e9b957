// det_math.hpp: accuracy against the C library (within a few units in the last place), the
// special values (signed zeros, infinities, NaN, quadrant edges), and a checksum of the bits of
// every function on fixed arguments, so a build whose arithmetic differs (a fused multiply-add,
// another evaluation order) fails here instead of planning other paths than pathlab-cli.

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "pathlab/det_math.hpp"

using namespace pathlab;

namespace {

/// Distance in units in the last place between two finite doubles of the same sign region.
int64_t ulps(double a, double b) {
  auto key = [](double v) {
    const auto i = std::bit_cast<int64_t>(v);
    return i < 0 ? std::numeric_limits<int64_t>::min() - i : i;  // monotonic over the reals
  };
  const int64_t d = key(a) - key(b);
  return d < 0 ? -d : d;
}

/// Arguments from raw 64-bit draws by fixed arithmetic (not std::uniform_real_distribution,
/// whose algorithm differs between standard libraries): the same numbers on every platform.
double draw(std::mt19937_64& rng, double lo, double hi) {
  const double unit = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1), exact
  return lo + (hi - lo) * unit;
}

template <class F, class G>
int64_t worst_ulps(F ours, G theirs, double lo, double hi, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int64_t worst = 0;
  for (int i = 0; i < count; ++i) {
    const double x = draw(rng, lo, hi);
    const int64_t u = ulps(ours(x), theirs(x));
    if (u > worst) worst = u;
  }
  return worst;
}

}  // namespace

TEST_CASE("det_math: sin, cos, tan within 2 ulps of the C library where the result is not tiny") {
  // Near a multiple of pi the result is tiny and both are judged in absolute terms below.
  CHECK(worst_ulps([](double x) { return dmath::sin(x); }, [](double x) { return std::sin(x); }, -0.78, 0.78, 200000, 1) <= 2);
  CHECK(worst_ulps([](double x) { return dmath::cos(x); }, [](double x) { return std::cos(x); }, -0.78, 0.78, 200000, 2) <= 2);
  CHECK(worst_ulps([](double x) { return dmath::tan(x); }, [](double x) { return std::tan(x); }, -0.78, 0.78, 200000, 3) <= 4);
  std::mt19937_64 rng(4);
  double worst_abs = 0.0;
  for (int i = 0; i < 200000; ++i) {
    const double x = draw(rng, -1000.0, 1000.0);
    worst_abs = std::max({worst_abs, std::fabs(dmath::sin(x) - std::sin(x)), std::fabs(dmath::cos(x) - std::cos(x))});
    double s = 0.0, c = 0.0;
    dmath::sincos(x, s, c);
    REQUIRE(std::bit_cast<uint64_t>(s) == std::bit_cast<uint64_t>(dmath::sin(x)));
    REQUIRE(std::bit_cast<uint64_t>(c) == std::bit_cast<uint64_t>(dmath::cos(x)));
  }
  CHECK(worst_abs <= 3e-16);  // results in [-1, 1]: a few units of 2^-53 at most
}

TEST_CASE("det_math: sincos gives exactly sin's and cos's bits, special values and quadrant edges too") {
  // The planners call sincos where they once called sin and cos: one different bit would
  // plan another path. Arguments: every scale from 1e-300 to 1e5, both signs, the points where
  // the reduction's quadrant changes and their neighbours, zeros, infinities and NaN.
  const auto bits = [](double v) { return std::bit_cast<uint64_t>(v); };
  std::vector<double> args = {0.0, -0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min(), 1e-300, 1e5};
  std::mt19937_64 rng(31);
  for (int i = 0; i < 200000; ++i) {
    const double x = draw(rng, 1.0, 2.0) * std::ldexp(1.0, static_cast<int>(rng() % 1014) - 997);  // 2^-997 .. 2^17
    args.push_back(i % 2 == 0 ? x : -x);
  }
  for (int k = -4000; k <= 4000; ++k) {
    const double edge = (k + 0.5) * 1.5707963267948966;  // quarter-turn midpoints: k rounds there
    args.insert(args.end(), {edge, std::nextafter(edge, -1e9), std::nextafter(edge, 1e9), k * 1.5707963267948966});
  }
  int mismatches = 0;
  for (const double x : args) {
    double s = 0.0, c = 0.0;
    dmath::sincos(x, s, c);
    const auto [s2, c2] = dmath::sincos(x);
    const bool same = bits(s) == bits(dmath::sin(x)) && bits(c) == bits(dmath::cos(x)) && bits(s2) == bits(s) && bits(c2) == bits(c);
    if (!same && ++mismatches <= 5) MESSAGE("sincos differs at x = " << x);
  }
  CHECK(mismatches == 0);
  CHECK(args.size() > 230000);
}

TEST_CASE("det_math: sin and cos stay within [-1, 1] for huge finite angles") {
  // A fuzzed start heading of 1.1e23 rad gave sin near 1e100 and sent Hybrid A*'s poses to
  // 1.5e100 cells (UBSan: outside the range of int in cell_of).
  for (double x : {1e9 + 0.5, 3e12, 1.1e23, -7.7e150, 1.7e308}) {
    CAPTURE(x);
    const auto [s, c] = dmath::sincos(x);
    CHECK(std::abs(s) <= 1.0);
    CHECK(std::abs(c) <= 1.0);
    CHECK(std::abs(s * s + c * c - 1.0) < 1e-12);
    CHECK(dmath::sin(x) == s);
  }
}

TEST_CASE("det_math: atan2, atan, acos within 2 ulps of the C library, asin within 3") {
  std::mt19937_64 rng(5);
  int64_t worst = 0;
  for (int i = 0; i < 200000; ++i) {
    const double y = draw(rng, -100.0, 100.0), x = draw(rng, -100.0, 100.0);
    worst = std::max(worst, ulps(dmath::atan2(y, x), std::atan2(y, x)));
  }
  CHECK(worst <= 2);
  CHECK(worst_ulps([](double x) { return dmath::atan(x); }, [](double x) { return std::atan(x); }, -50.0, 50.0, 200000, 6) <= 2);
  CHECK(worst_ulps([](double x) { return dmath::acos(x); }, [](double x) { return std::acos(x); }, -1.0, 1.0, 200000, 7) <= 2);
  CHECK(worst_ulps([](double x) { return dmath::asin(x); }, [](double x) { return std::asin(x); }, -0.99, 0.99, 200000, 8) <= 3);
}

TEST_CASE("det_math: exp, log, pow, hypot within 2 ulps of the C library") {
  CHECK(worst_ulps([](double x) { return dmath::exp(x); }, [](double x) { return std::exp(x); }, -700.0, 700.0, 200000, 9) <= 2);
  CHECK(worst_ulps([](double x) { return dmath::log(x); }, [](double x) { return std::log(x); }, 1e-6, 1e6, 200000, 10) <= 2);
  CHECK(worst_ulps([](double x) { return dmath::pow(x, 0.37); }, [](double x) { return std::pow(x, 0.37); }, 1e-3, 1e3, 200000, 11) <= 4);
  CHECK(dmath::pow(7.0, 0.5) == std::sqrt(7.0));
  CHECK(worst_ulps([](double x) { return dmath::hypot(x, 3.0 - x); }, [](double x) { return std::hypot(x, 3.0 - x); }, -1e3, 1e3, 200000, 12) <= 1);
}

TEST_CASE("det_math: special values as the C library gives them") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::signbit(dmath::sin(-0.0)));
  CHECK(dmath::cos(0.0) == 1.0);
  CHECK(std::isnan(dmath::sin(inf)));
  CHECK(std::isnan(dmath::cos(nan)));
  CHECK(dmath::atan2(0.0, 1.0) == 0.0);
  CHECK(std::signbit(dmath::atan2(-0.0, 1.0)));
  CHECK(dmath::atan2(0.0, -1.0) == std::atan2(0.0, -1.0));
  CHECK(dmath::atan2(-0.0, -1.0) == std::atan2(-0.0, -1.0));
  CHECK(dmath::atan2(0.0, -0.0) == std::atan2(0.0, -0.0));
  CHECK(dmath::atan2(1.0, 0.0) == std::atan2(1.0, 0.0));
  CHECK(dmath::atan2(-1.0, -0.0) == std::atan2(-1.0, -0.0));
  CHECK(dmath::atan2(inf, inf) == doctest::Approx(std::atan2(inf, inf)).epsilon(1e-15));
  CHECK(dmath::atan2(-inf, -inf) == doctest::Approx(std::atan2(-inf, -inf)).epsilon(1e-15));
  CHECK(dmath::atan2(1.0, inf) == 0.0);
  CHECK(dmath::atan2(1.0, -inf) == std::atan2(1.0, -inf));
  CHECK(std::isnan(dmath::atan2(nan, 1.0)));
  CHECK(dmath::acos(1.0) == 0.0);
  CHECK(dmath::acos(-1.0) == std::acos(-1.0));
  CHECK(std::isnan(dmath::acos(1.0000001)));
  CHECK(dmath::exp(0.0) == 1.0);
  CHECK(dmath::exp(-800.0) == 0.0);
  CHECK(std::isinf(dmath::exp(800.0)));
  CHECK(dmath::log(1.0) == 0.0);
  CHECK(std::isnan(dmath::log(-1.0)));
  // Quadrant edges: the reduction's k changes there.
  for (int k = -8; k <= 8; ++k) {
    const double x = k * 0.7853981633974483;
    CHECK(std::fabs(dmath::sin(x) - std::sin(x)) <= 2e-16);
    CHECK(std::fabs(dmath::cos(x) - std::cos(x)) <= 2e-16);
  }
}

TEST_CASE("det_math: the same bits on every build (checksum of fixed arguments)") {
  // FNV-1a over the bits of every function at 4,000 fixed arguments. The expected value was
  // taken from the x86-64 GCC build; a build that rounds any step differently changes it.
  std::mt19937_64 rng(2029);
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](double v) {
    uint64_t b = std::bit_cast<uint64_t>(v);
    for (int i = 0; i < 8; ++i, b >>= 8) h = (h ^ (b & 0xffu)) * 1099511628211ull;
  };
  for (int i = 0; i < 4000; ++i) {
    const double x = draw(rng, -20.0, 20.0), y = draw(rng, -20.0, 20.0), u = draw(rng, -1.0, 1.0);
    mix(dmath::sin(x)), mix(dmath::cos(x)), mix(dmath::tan(x)), mix(dmath::atan2(y, x)), mix(dmath::atan(x));
    mix(dmath::acos(u)), mix(dmath::asin(u)), mix(dmath::exp(x)), mix(dmath::log(std::fabs(x) + 1e-3));
    mix(dmath::pow(std::fabs(y) + 0.5, u)), mix(dmath::hypot(x, y));
  }
  MESSAGE("det_math checksum " << h);
  CHECK(h == 5580222768741604259ull);
}
