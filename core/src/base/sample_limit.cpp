#include "pathlab/sample_limit.hpp"

#include <cmath>
#include <cstdio>

namespace pathlab {
namespace {

std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

Status check_sample_count(double count, double step) {
  if (count <= kMaxSamples) return ok_status();
  return fail(StatusCode::too_large, "sampling every " + short_number(step) + " cells gives " + short_number(count) +
                                         " points, more than the limit of " +
                                         std::to_string(static_cast<long long>(kMaxSamples)) +
                                         "; use a larger step");
}

Result<long long> checked_piece_count(double length, double step) {
  if (!(step > 0.0) || !std::isfinite(step))
    return fail(StatusCode::invalid_argument, "sample step must be a positive finite number, got " + short_number(step));
  if (!(length >= 0.0) || !std::isfinite(length))
    return fail(StatusCode::invalid_argument, "length to sample must be finite and >= 0, got " + short_number(length));
  // The 1e-12 keeps an exact multiple (length 2, step 0.5) from gaining a piece to rounding.
  const double pieces = std::max(1.0, std::ceil(length / step - 1e-12));
  if (Status st = check_sample_count(pieces, step); !st) return st.error();
  return static_cast<long long>(pieces);
}

Result<std::vector<Vec2>> resample_polyline(std::span<const Vec2> points, double step) {
  if (!(step > 0.0) || !std::isfinite(step))
    return fail(StatusCode::invalid_argument, "sample step must be a positive finite number, got " + short_number(step));
  if (points.size() < 2) return std::vector<Vec2>(points.begin(), points.end());
  double total = 1.0;
  for (size_t i = 1; i < points.size(); ++i) {
    const double len = glm::length(points[i] - points[i - 1]);
    if (!std::isfinite(len)) return fail(StatusCode::invalid_argument, "path point " + std::to_string(i) + " is not finite");
    total += std::max(1.0, std::ceil(len / step - 1e-12));
  }
  if (Status st = check_sample_count(total, step); !st) return st.error();
  std::vector<Vec2> out;
  out.reserve(static_cast<size_t>(total));
  out.push_back(points[0]);
  for (size_t i = 1; i < points.size(); ++i) {
    const Vec2 a = points[i - 1], b = points[i];
    const long long n = checked_piece_count(glm::length(b - a), step).value();
    for (long long k = 1; k < n; ++k) out.push_back(a + (b - a) * (static_cast<double>(k) / static_cast<double>(n)));
    out.push_back(b);
  }
  return out;
}

}  // namespace pathlab
