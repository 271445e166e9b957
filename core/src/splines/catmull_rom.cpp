#include "pathlab/catmull_rom.hpp"

#include <cmath>
#include <string>

#include <glm/geometric.hpp>
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

constexpr double kMaxCoordinate = 1e15;  // beyond this, squared lengths overflow

double distance(double a, double b) { return std::abs(b - a); }
template <class V>
double distance(const V& a, const V& b) {
  return glm::length(b - a);
}

bool usable(double v) { return std::isfinite(v) && std::abs(v) <= kMaxCoordinate; }
bool usable(const Vec2& v) { return usable(v.x) && usable(v.y); }
bool usable(const glm::dvec3& v) { return usable(v.x) && usable(v.y) && usable(v.z); }

/// Knot interval |b - a|^alpha, with fast paths for the three named kinds.
double knot_interval(double d, double alpha) {
  if (alpha == 0.5) return std::sqrt(d);
  if (alpha == 1.0) return d;
  return dmath::pow(d, alpha);
}

/// Tangents (per unit t) at p1 and p2 of the segment p1 -> p2, Barry-Goldman form rewritten
/// as a Hermite segment. A zero-length knot interval would divide by zero; the doubled ends
/// make that the normal case at both ends of every path, so it is handled here.
template <class V>
void tangents(const V& p0, const V& p1, const V& p2, const V& p3, const CatmullRomDef& def, V& m1, V& m2) {
  const double k = def.tangent_scale;
  if (def.alpha == 0.0) {
    m1 = (p2 - p0) * (0.5 * k);
    m2 = (p3 - p1) * (0.5 * k);
    return;
  }
  const double dt1 = knot_interval(distance(p1, p2), def.alpha);
  if (!(dt1 > 0.0)) {
    // p1 == p2: the segment stays put (uniform would loop out and back instead).
    m1 = p1 * 0.0;
    m2 = p1 * 0.0;
    return;
  }
  double dt0 = knot_interval(distance(p0, p1), def.alpha);
  double dt2 = knot_interval(distance(p2, p3), def.alpha);
  // A repeated neighbour carries no direction: give it the middle interval, so the term
  // (p1 - p0) / dt0 vanishes and the end behaves like the uniform doubled end.
  if (!(dt0 > 0.0)) dt0 = dt1;
  if (!(dt2 > 0.0)) dt2 = dt1;
  m1 = ((p2 - p1) + ((p1 - p0) / dt0 - (p2 - p0) / (dt0 + dt1)) * dt1) * k;
  m2 = ((p2 - p1) + ((p3 - p2) / dt2 - (p3 - p1) / (dt1 + dt2)) * dt1) * k;
}

/// Cubic coefficients of one segment: P(t) = a + t (b + t (c + t d)).
template <class V>
struct Cubic {
  V a, b, c, d;
  V at(double t) const { return a + t * (b + t * (c + t * d)); }
};

template <class V>
Cubic<V> cubic(const V& p0, const V& p1, const V& p2, const V& p3, const CatmullRomDef& def) {
  if (def.alpha == 0.0 && def.tangent_scale == 1.0) {
    // The formula of the Catmull-Rom blog post and Guesgen's lecture, term by term.
    return Cubic<V>{p1, 0.5 * (p2 - p0), 0.5 * (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3),
                    0.5 * (3.0 * p1 - p0 - 3.0 * p2 + p3)};
  }
  V m1, m2;
  tangents(p0, p1, p2, p3, def, m1, m2);
  return Cubic<V>{p1, m1, 3.0 * (p2 - p1) - 2.0 * m1 - m2, 2.0 * (p1 - p2) + m1 + m2};
}

Status check_def(const CatmullRomDef& def) {
  if (!(def.alpha >= 0.0 && def.alpha <= 1.0)) {
    return fail(StatusCode::invalid_argument, "alpha must be in [0, 1] (0 uniform, 0.5 centripetal, 1 chordal)");
  }
  if (!(def.tangent_scale >= 0.0 && def.tangent_scale <= 1.0)) {
    return fail(StatusCode::invalid_argument, "tangent_scale must be in [0, 1]");
  }
  return ok_status();
}

template <class V>
Status check_points(std::span<const V> points) {
  if (points.empty()) return fail(StatusCode::invalid_argument, "points: none given");
  for (size_t i = 0; i < points.size(); ++i) {
    if (!usable(points[i])) {
      return fail(StatusCode::invalid_argument,
                  "points[" + std::to_string(i) + "] is not finite or exceeds 1e15 in size");
    }
  }
  return ok_status();
}

template <class V>
Result<std::vector<V>> subdivide(std::span<const V> points, int subdivisions, const CatmullRomDef& def) {
  if (auto st = check_def(def); !st) return st.error();
  if (subdivisions < 1 || subdivisions > kMaxSubdivisions) {
    return fail(StatusCode::invalid_argument, "subdivisions must be in [1, " + std::to_string(kMaxSubdivisions) +
                                                  "], got " + std::to_string(subdivisions));
  }
  if (auto st = check_points(points); !st) return st.error();
  const size_t n = points.size();
  const long long count = static_cast<long long>(n - 1) * subdivisions + 1;
  if (count > kMaxSplineSamples) {
    return fail(StatusCode::too_large, "subdivisions: " + std::to_string(count) + " output points exceed the limit of " +
                                           std::to_string(kMaxSplineSamples));
  }
  std::vector<V> out(static_cast<size_t>(count));
  const double step = 1.0 / subdivisions;
  size_t o = 0;
  for (size_t i = 0; i + 1 < n; ++i) {
    const V& p0 = i == 0 ? points[i] : points[i - 1];
    const V& p3 = i + 2 == n ? points[i + 1] : points[i + 2];
    const Cubic<V> c = cubic(p0, points[i], points[i + 1], p3, def);
    out[o++] = points[i];  // waypoints exactly, not the cubic's rounding of them
    for (int j = 1; j < subdivisions; ++j) out[o++] = c.at(j * step);
  }
  out[o] = points[n - 1];
  return out;
}

}  // namespace

double catmull_rom_alpha(CatmullRomKind kind) noexcept {
  switch (kind) {
    case CatmullRomKind::uniform: return 0.0;
    case CatmullRomKind::centripetal: return 0.5;
    case CatmullRomKind::chordal: return 1.0;
  }
  return 0.0;
}

Result<CatmullRomKind> parse_catmull_rom_kind(const std::string& name) {
  if (name == "uniform" || name == "catmull-rom") return CatmullRomKind::uniform;
  if (name == "centripetal") return CatmullRomKind::centripetal;
  if (name == "chordal") return CatmullRomKind::chordal;
  return fail(StatusCode::invalid_argument, "unknown Catmull-Rom kind '" + name + "' (uniform, centripetal, chordal)");
}

const char* to_string(CatmullRomKind kind) noexcept {
  switch (kind) {
    case CatmullRomKind::uniform: return "uniform";
    case CatmullRomKind::centripetal: return "centripetal";
    case CatmullRomKind::chordal: return "chordal";
  }
  return "?";
}

double catmull_rom_point(double p0, double p1, double p2, double p3, double t, const CatmullRomDef& def) {
  return cubic(p0, p1, p2, p3, def).at(t);
}

Vec2 catmull_rom_point(Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3, double t, const CatmullRomDef& def) {
  return cubic(p0, p1, p2, p3, def).at(t);
}

glm::dvec3 catmull_rom_point(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& p2, const glm::dvec3& p3,
                             double t, const CatmullRomDef& def) {
  return cubic(p0, p1, p2, p3, def).at(t);
}

HermiteSegment catmull_rom_segment(Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3, const CatmullRomDef& def) {
  HermiteSegment s{p1, p2, Vec2(0.0), Vec2(0.0)};
  tangents(p0, p1, p2, p3, def, s.start_tangent, s.end_tangent);
  return s;
}

Result<std::vector<double>> catmull_rom_subdivide(std::span<const double> points, int subdivisions,
                                                  const CatmullRomDef& def) {
  return subdivide(points, subdivisions, def);
}

Result<std::vector<Vec2>> catmull_rom_subdivide(std::span<const Vec2> points, int subdivisions,
                                                const CatmullRomDef& def) {
  return subdivide(points, subdivisions, def);
}

Result<std::vector<glm::dvec3>> catmull_rom_subdivide(std::span<const glm::dvec3> points, int subdivisions,
                                                      const CatmullRomDef& def) {
  return subdivide(points, subdivisions, def);
}

Result<HermiteCurve> catmull_rom_curve(std::span<const Vec2> points, const CatmullRomDef& def) {
  if (auto st = check_def(def); !st) return st.error();
  if (auto st = check_points(points); !st) return st.error();
  HermiteCurve c;
  const size_t n = points.size();
  if (n == 1) {
    c.segments.push_back(HermiteSegment{points[0], points[0], Vec2(0.0), Vec2(0.0)});
    return c;
  }
  c.segments.reserve(n - 1);
  for (size_t i = 0; i + 1 < n; ++i) {
    const Vec2 p0 = i == 0 ? points[i] : points[i - 1];
    const Vec2 p3 = i + 2 == n ? points[i + 1] : points[i + 2];
    c.segments.push_back(catmull_rom_segment(p0, points[i], points[i + 1], p3, def));
  }
  return c;
}

}  // namespace pathlab
