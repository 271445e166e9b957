#include "pathlab/hermite.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pathlab/quadrature.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

double clamp_unit(double t) noexcept {
  if (!(t > 0.0)) return 0.0;  // NaN lands here too
  return t < 1.0 ? t : 1.0;
}

std::string index_name(const char* what, size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

/// Coordinates beyond this would overflow when squared inside lengths, giving inf or NaN.
constexpr double kMaxCoordinate = 1e15;

bool usable(Vec2 p) { return is_finite(p) && std::abs(p.x) <= kMaxCoordinate && std::abs(p.y) <= kMaxCoordinate; }

}  // namespace

Vec2 HermiteSegment::point_at(double t) const noexcept {
  t = clamp_unit(t);
  double h[4];
  hermite_basis(t, h);
  return h[0] * start + h[1] * end + h[2] * start_tangent + h[3] * end_tangent;
}

Vec2 HermiteSegment::tangent_at(double t) const noexcept {
  t = clamp_unit(t);
  const double t2 = t * t;
  const double d1 = 6.0 * t2 - 6.0 * t;
  const double d2 = -6.0 * t2 + 6.0 * t;
  const double d3 = 3.0 * t2 - 4.0 * t + 1.0;
  const double d4 = 3.0 * t2 - 2.0 * t;
  return d1 * start + d2 * end + d3 * start_tangent + d4 * end_tangent;
}

Vec2 HermiteSegment::second_derivative_at(double t) const noexcept {
  t = clamp_unit(t);
  const double e1 = 12.0 * t - 6.0;
  const double e3 = 6.0 * t - 4.0;
  const double e4 = 6.0 * t - 2.0;
  return e1 * (start - end) + e3 * start_tangent + e4 * end_tangent;
}

double HermiteSegment::length() const noexcept { return distance_forwards(0.0); }

double HermiteSegment::distance_forwards(double t) const noexcept {
  const HermiteSegment s = *this;
  return gauss_legendre_length([s](double x) { return s.tangent_at(x); }, clamp_unit(t), 1.0);
}

double HermiteSegment::distance_backwards(double t) const noexcept {
  const HermiteSegment s = *this;
  return gauss_legendre_length([s](double x) { return s.tangent_at(x); }, 0.0, clamp_unit(t));
}

Result<HermiteSegment> make_hermite(Vec2 start, Vec2 end, Vec2 start_tangent, Vec2 end_tangent) {
  if (!usable(start)) return fail(StatusCode::invalid_argument, "start is not a finite point of sane size");
  if (!usable(end)) return fail(StatusCode::invalid_argument, "end is not a finite point of sane size");
  if (!usable(start_tangent)) return fail(StatusCode::invalid_argument, "start_tangent is not a finite vector of sane size");
  if (!usable(end_tangent)) return fail(StatusCode::invalid_argument, "end_tangent is not a finite vector of sane size");
  return HermiteSegment{start, end, start_tangent, end_tangent};
}

int HermiteCurve::locate(double u, double& t) const noexcept {
  const int n = static_cast<int>(segments.size());
  if (n == 0 || !(u > 0.0)) {
    t = 0.0;
    return 0;
  }
  if (u >= static_cast<double>(n)) {
    t = 1.0;
    return n - 1;
  }
  const double f = std::floor(u);
  t = u - f;
  return static_cast<int>(f);
}

Vec2 HermiteCurve::point_at(double u) const noexcept {
  if (segments.empty()) return Vec2(0.0, 0.0);
  double t;
  const int i = locate(u, t);
  return segments[i].point_at(t);
}

Vec2 HermiteCurve::tangent_at(double u) const noexcept {
  if (segments.empty()) return Vec2(0.0, 0.0);
  double t;
  const int i = locate(u, t);
  return segments[i].tangent_at(t);
}

Vec2 HermiteCurve::second_derivative_at(double u) const noexcept {
  if (segments.empty()) return Vec2(0.0, 0.0);
  double t;
  const int i = locate(u, t);
  return segments[i].second_derivative_at(t);
}

double HermiteCurve::length() const noexcept {
  double total = 0.0;
  for (const auto& s : segments) total += s.length();
  return total;
}

Result<std::vector<Vec2>> sample_per_segment(const HermiteCurve& curve, int subdivisions) {
  if (curve.empty()) return fail(StatusCode::invalid_argument, "curve: it has no segments");
  if (subdivisions < 1 || subdivisions > kMaxSubdivisions) {
    return fail(StatusCode::invalid_argument,
                "subdivisions must be in [1, " + std::to_string(kMaxSubdivisions) + "], got " + std::to_string(subdivisions));
  }
  const long long count = static_cast<long long>(curve.segments.size()) * subdivisions + 1;
  if (count > kMaxSplineSamples) {
    return fail(StatusCode::too_large, "subdivisions: " + std::to_string(count) + " points exceed the limit of " +
                                           std::to_string(kMaxSplineSamples));
  }
  std::vector<Vec2> out;
  out.reserve(static_cast<size_t>(count));
  const double step = 1.0 / subdivisions;
  for (const auto& s : curve.segments) {
    out.push_back(s.start);
    for (int j = 1; j < subdivisions; ++j) out.push_back(s.point_at(j * step));
  }
  out.push_back(curve.segments.back().end);
  return out;
}

Result<HermiteCurve> hermite_chain(std::span<const Vec2> points, std::span<const Vec2> tangents) {
  if (points.empty()) return fail(StatusCode::invalid_argument, "points: the path is empty");
  if (tangents.size() != points.size()) {
    return fail(StatusCode::invalid_argument, "tangents: " + std::to_string(tangents.size()) + " given for " +
                                                  std::to_string(points.size()) + " points");
  }
  for (size_t i = 0; i < points.size(); ++i) {
    if (!usable(points[i])) return fail(StatusCode::invalid_argument, index_name("points", i) + " is not a finite point of sane size");
    if (!usable(tangents[i])) return fail(StatusCode::invalid_argument, index_name("tangents", i) + " is not a finite vector of sane size");
  }
  HermiteCurve c;
  if (points.size() == 1) {
    // One point: a segment that stays put, so the curve still has a place to be.
    c.segments.push_back(HermiteSegment{points[0], points[0], Vec2(0.0), Vec2(0.0)});
    return c;
  }
  c.segments.reserve(points.size() - 1);
  for (size_t i = 0; i + 1 < points.size(); ++i) {
    c.segments.push_back(HermiteSegment{points[i], points[i + 1], tangents[i], tangents[i + 1]});
  }
  return c;
}

std::vector<Vec2> hermite_auto_tangents(std::span<const Vec2> points, const HermiteChainDef& def) {
  const size_t n = points.size();
  std::vector<Vec2> m(n, Vec2(0.0));
  if (n < 2) return m;
  const double k = def.tangent_scale;
  for (size_t i = 1; i + 1 < n; ++i) {
    const Vec2 a = points[i] - points[i - 1];
    const Vec2 b = points[i + 1] - points[i];
    const double la = glm::length(a), lb = glm::length(b);
    // A repeated point must stay put, which needs zero tangents on both sides of it.
    if (!(la > 0.0) || !(lb > 0.0)) continue;
    const Vec2 bis = a / la + b / lb;
    const double lbis = glm::length(bis);
    if (lbis < 1e-12) continue;  // the path doubles back: stop, turn, go
    m[i] = bis / lbis * (std::min(la, lb) * k);
  }
  const Vec2 first = points[1] - points[0];
  const Vec2 last = points[n - 1] - points[n - 2];
  m[0] = first * k;
  m[n - 1] = last * k;
  if (def.start_heading && glm::length(first) > 0.0) {
    m[0] = angle_dir(*def.start_heading) * (glm::length(first) * k);
  }
  if (def.end_heading && glm::length(last) > 0.0) {
    m[n - 1] = angle_dir(*def.end_heading) * (glm::length(last) * k);
  }
  // Repeated points at the ends: same rule as inside.
  if (n >= 2 && !(glm::length(first) > 0.0)) m[0] = m[1] = Vec2(0.0);
  if (n >= 2 && !(glm::length(last) > 0.0)) m[n - 1] = m[n - 2] = Vec2(0.0);
  return m;
}

Result<HermiteCurve> hermite_chain(std::span<const Vec2> points, const HermiteChainDef& def) {
  if (!(def.tangent_scale >= 0.0 && def.tangent_scale <= 2.0)) {
    return fail(StatusCode::invalid_argument, "tangent_scale must be in [0, 2]");
  }
  if (def.start_heading && !std::isfinite(*def.start_heading)) return fail(StatusCode::invalid_argument, "start_heading is not finite");
  if (def.end_heading && !std::isfinite(*def.end_heading)) return fail(StatusCode::invalid_argument, "end_heading is not finite");
  if (points.empty()) return fail(StatusCode::invalid_argument, "points: the path is empty");
  for (size_t i = 0; i < points.size(); ++i) {
    if (!usable(points[i])) return fail(StatusCode::invalid_argument, index_name("points", i) + " is not a finite point of sane size");
  }
  const std::vector<Vec2> m = hermite_auto_tangents(points, def);
  return hermite_chain(points, std::span<const Vec2>(m));
}

}  // namespace pathlab
