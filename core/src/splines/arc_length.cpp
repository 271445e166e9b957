#include "pathlab/arc_length.hpp"

#include "pathlab/sample_limit.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "pathlab/quadrature.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

/// Second derivative by a central difference of the first, kept inside [lo, hi].
Vec2 numeric_second(const ParametricCurve& c, double u, double lo, double hi) {
  const double h = 1e-5 * (hi - lo);
  const double a = std::max(lo, u - h), b = std::min(hi, u + h);
  if (!(b > a)) return Vec2(0.0);
  return (c.derivative(b) - c.derivative(a)) / (b - a);
}

/// Index k of the knot interval [knots[k], knots[k+1]] containing u (u already clamped).
size_t knot_piece(const std::vector<double>& knots, double u) {
  const auto it = std::upper_bound(knots.begin(), knots.end(), u);
  size_t k = static_cast<size_t>(it - knots.begin());
  k = k == 0 ? 0 : k - 1;
  return std::min(k, knots.size() - 2);
}

double clamp_param(double u, double lo, double hi) {
  if (!(u > lo)) return lo;  // NaN lands here too
  return u < hi ? u : hi;
}

}  // namespace

ParametricCurve parametric(const HermiteCurve& curve) {
  auto c = std::make_shared<const HermiteCurve>(curve);
  ParametricCurve p;
  p.point = [c](double u) { return c->point_at(u); };
  p.derivative = [c](double u) { return c->tangent_at(u); };
  p.second_derivative = [c](double u) { return c->second_derivative_at(u); };
  p.knots.resize(curve.segments.size() + 1);
  for (size_t i = 0; i < p.knots.size(); ++i) p.knots[i] = static_cast<double>(i);
  return p;
}

Result<ArcLengthTable> ArcLengthTable::build(ParametricCurve curve, const ArcLengthDef& def) {
  if (!curve.point || !curve.derivative) {
    return fail(StatusCode::invalid_argument, "curve: point and derivative functions are required");
  }
  if (curve.knots.size() < 2) return fail(StatusCode::invalid_argument, "curve.knots: at least 2 are required");
  for (size_t i = 0; i < curve.knots.size(); ++i) {
    if (!std::isfinite(curve.knots[i])) {
      return fail(StatusCode::invalid_argument, "curve.knots[" + std::to_string(i) + "] is not finite");
    }
    if (i > 0 && !(curve.knots[i] > curve.knots[i - 1])) {
      return fail(StatusCode::invalid_argument, "curve.knots[" + std::to_string(i) + "] does not increase");
    }
  }
  if (def.entries_per_span < 1 || def.entries_per_span > 1024) {
    return fail(StatusCode::invalid_argument, "entries_per_span must be in [1, 1024]");
  }
  const long long entries = static_cast<long long>(curve.knots.size() - 1) * def.entries_per_span + 1;
  if (entries > kMaxSplineSamples) return fail(StatusCode::too_large, "curve: too many knots for an arc-length table");
  ArcLengthTable t;
  t.u_.reserve(static_cast<size_t>(entries));
  t.s_.reserve(static_cast<size_t>(entries));
  t.u_.push_back(curve.knots[0]);
  t.s_.push_back(0.0);
  for (size_t k = 0; k + 1 < curve.knots.size(); ++k) {
    const double a = curve.knots[k], b = curve.knots[k + 1];
    double prev = a;
    for (int e = 1; e <= def.entries_per_span; ++e) {
      const double u = e == def.entries_per_span ? b : a + (b - a) * e / def.entries_per_span;
      t.s_.push_back(t.s_.back() + gauss_legendre_length(curve.derivative, prev, u));
      t.u_.push_back(u);
      prev = u;
    }
  }
  if (!std::isfinite(t.s_.back())) return fail(StatusCode::invalid_argument, "curve: its length is not finite");
  t.curve_ = std::move(curve);
  return t;
}

Result<ArcLengthTable> ArcLengthTable::build(const HermiteCurve& curve, const ArcLengthDef& def) {
  if (curve.empty()) return fail(StatusCode::invalid_argument, "curve: it has no segments");
  return build(parametric(curve), def);
}

double ArcLengthTable::distance_at(double u) const {
  if (u_.empty()) return 0.0;
  u = clamp_param(u, u_.front(), u_.back());
  const size_t k = knot_piece(u_, u);
  return s_[k] + gauss_legendre_length(curve_.derivative, u_[k], u);
}

double ArcLengthTable::parameter_at(double s) const {
  if (u_.empty()) return 0.0;
  const double total = length();
  if (!(s > 0.0)) return u_.front();
  if (s >= total) return u_.back();
  // Last entry whose distance is <= s; s < total guarantees a next entry.
  const auto it = std::upper_bound(s_.begin(), s_.end(), s);
  const size_t k = static_cast<size_t>(it - s_.begin()) - 1;
  const double ua = u_[k], ub = u_[k + 1];
  const double target = s - s_[k];
  const double span = s_[k + 1] - s_[k];
  double lo = ua, hi = ub;
  double u = ua + (ub - ua) * (span > 0.0 ? target / span : 0.5);
  const double tol = 1e-14 * std::max(total, 1.0);
  // Newton on F(u) = length(ua, u) - target, F increasing; bisection whenever Newton leaves
  // the bracket or the curve stands still.
  for (int iter = 0; iter < 100; ++iter) {
    const double f = gauss_legendre_length(curve_.derivative, ua, u) - target;
    if (std::abs(f) <= tol) break;
    if (f < 0.0) lo = u;
    else hi = u;
    if (!(hi - lo > 1e-15 * std::max(1.0, std::abs(u)))) break;
    const double speed = glm::length(curve_.derivative(u));
    double next = speed > 0.0 ? u - f / speed : lo - 1.0;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    u = next;
  }
  return u;
}

Vec2 ArcLengthTable::point_at_distance(double s) const {
  if (u_.empty()) return Vec2(0.0);
  return curve_.point(parameter_at(s));
}

Vec2 ArcLengthTable::direction_at_distance(double s) const {
  if (u_.empty()) return Vec2(0.0);
  return direction_at_parameter(parameter_at(s));
}

Vec2 ArcLengthTable::direction_at_parameter(double u) const {
  Vec2 d = curve_.derivative(u);
  double len = glm::length(d);
  if (!(len > 0.0)) {
    // A stop: the direction the curve leaves it in (or arrives in, at the very end).
    const size_t k = knot_piece(curve_.knots, u);
    const double lo = curve_.knots[k], hi = curve_.knots[k + 1];
    const double h = 1e-6 * (hi - lo);
    d = curve_.derivative(u + h <= hi ? u + h : u - h);
    len = glm::length(d);
    if (!(len > 0.0)) return Vec2(0.0);
  }
  return d / len;
}

double ArcLengthTable::curvature_at_distance(double s) const {
  if (u_.empty()) return 0.0;
  return curvature_at(curve_, parameter_at(s));
}

CurveState ArcLengthTable::at_distance(double s) const {
  CurveState st;
  if (u_.empty()) return st;
  st.distance = !(s > 0.0) ? 0.0 : std::min(s, length());
  st.parameter = parameter_at(st.distance);
  st.pos = curve_.point(st.parameter);
  st.direction = direction_at_parameter(st.parameter);
  if (st.direction != Vec2(0.0)) st.heading = dmath::atan2(st.direction.y, st.direction.x);
  st.curvature = curvature_at(curve_, st.parameter);
  return st;
}

double curvature_at(const ParametricCurve& curve, double u) {
  if (!curve.derivative || curve.knots.size() < 2) return 0.0;
  u = clamp_param(u, curve.knots.front(), curve.knots.back());
  const size_t k = knot_piece(curve.knots, u);
  const double lo = curve.knots[k], hi = curve.knots[k + 1];
  auto second = [&](double x) { return curve.second_derivative ? curve.second_derivative(x) : numeric_second(curve, x, lo, hi); };
  Vec2 d1 = curve.derivative(u);
  Vec2 d2 = second(u);
  double speed = glm::length(d1);
  if (!(speed > 1e-9 * std::max(1.0, glm::length(d2)))) {
    // At a stop the formula is 0/0; the value just beside it describes the bend there.
    const double h = 1e-6 * (hi - lo);
    const double v = u + h <= hi ? u + h : u - h;
    d1 = curve.derivative(v);
    d2 = second(v);
    speed = glm::length(d1);
    if (!(speed > 0.0)) return 0.0;
  }
  const double kappa = cross(d1, d2) / (speed * speed * speed);
  return std::isfinite(kappa) ? kappa : 0.0;
}

namespace {

/// Distances 0, spacing, 2 spacing, ... below the length, then the length itself.
Result<std::vector<double>> spaced_distances(double length, double spacing) {
  if (!(spacing > 0.0) || !std::isfinite(spacing)) {
    return fail(StatusCode::invalid_argument, "spacing must be a finite number > 0");
  }
  const double count = std::floor(length / spacing) + 2.0;
  if (Status st = check_sample_count(count, spacing); !st) return st.error();
  std::vector<double> s;
  s.reserve(static_cast<size_t>(count));
  s.push_back(0.0);
  if (!(length > 0.0)) return s;
  // The last regular step is dropped when it falls within a hair of the end.
  for (long long i = 1;; ++i) {
    const double d = static_cast<double>(i) * spacing;
    if (d >= length - 1e-9 * spacing) break;
    s.push_back(d);
  }
  s.push_back(length);
  return s;
}

}  // namespace

Result<std::vector<Vec2>> sample_by_spacing(const ArcLengthTable& table, double spacing) {
  auto s = spaced_distances(table.length(), spacing);
  if (!s) return s.error();
  std::vector<Vec2> out;
  out.reserve(s->size());
  for (double d : *s) out.push_back(table.point_at_distance(d));
  return out;
}

Result<std::vector<Vec2>> sample_evenly(const ArcLengthTable& table, long long count) {
  if (count < 2 || count > kMaxSplineSamples) {
    return fail(StatusCode::invalid_argument, "count must be in [2, " + std::to_string(kMaxSplineSamples) + "]");
  }
  std::vector<Vec2> out;
  out.reserve(static_cast<size_t>(count));
  const double total = table.length();
  for (long long i = 0; i < count; ++i) {
    const double d = i + 1 == count ? total : total * static_cast<double>(i) / static_cast<double>(count - 1);
    out.push_back(table.point_at_distance(d));
  }
  return out;
}

Result<std::vector<CurvatureSample>> curvature_profile(const ArcLengthTable& table, double spacing) {
  auto s = spaced_distances(table.length(), spacing);
  if (!s) return s.error();
  std::vector<CurvatureSample> out;
  out.reserve(s->size());
  for (double d : *s) {
    const double u = table.parameter_at(d);
    out.push_back(CurvatureSample{d, u, curvature_at(table.curve(), u)});
  }
  return out;
}

}  // namespace pathlab
