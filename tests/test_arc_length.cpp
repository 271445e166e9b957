#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "pathlab/arc_length.hpp"
#include "pathlab/catmull_rom.hpp"
#include "pathlab/quadrature.hpp"

using namespace pathlab;

namespace {

ParametricCurve circle(double radius) {
  ParametricCurve c;
  c.point = [radius](double u) { return Vec2(radius * std::cos(u), radius * std::sin(u)); };
  c.derivative = [radius](double u) { return Vec2(-radius * std::sin(u), radius * std::cos(u)); };
  c.knots = {0.0, kPi, 2 * kPi};
  return c;  // no second derivative: curvature falls back to differences
}

/// Arc length between two parameters of a HermiteCurve by a dense chord sum (independent of
/// the quadrature under test); converges like 1/n^2, so 20000 chords per unit give ~1e-9.
double reference_length(const HermiteCurve& c, double ua, double ub) {
  const int n = std::max(1, static_cast<int>(std::ceil((ub - ua) * 20000)));
  double len = 0;
  Vec2 prev = c.point_at(ua);
  for (int i = 1; i <= n; ++i) {
    const Vec2 p = c.point_at(ua + (ub - ua) * i / n);
    len += glm::length(p - prev);
    prev = p;
  }
  return len;
}

HermiteCurve sample_curve() {
  const std::vector<Vec2> pts{{0, 0}, {4, 0}, {4.5, 0.3}, {6, 5}, {2, 7}, {2.1, 7.05}, {9, 9}};
  return catmull_rom_curve(pts, catmull_rom_def(CatmullRomKind::uniform)).value();
}

}  // namespace

TEST_CASE("arc length: Gauss-Legendre quadrature on known curves") {
  const ParametricCurve c = circle(3.0);
  CHECK(gauss_legendre_length(c.derivative, 0, 2 * kPi) == doctest::Approx(6 * kPi).epsilon(1e-13));
  // Parabola (u, u^2) on [0, 1]: sqrt(5)/2 + asinh(2)/4.
  auto d = [](double u) { return Vec2(1.0, 2.0 * u); };
  CHECK(gauss_legendre_length(d, 0, 1) == doctest::Approx(std::sqrt(5.0) / 2 + std::asinh(2.0) / 4).epsilon(1e-13));
  CHECK(gauss_legendre_length(d, 1, 0) == doctest::Approx(-(std::sqrt(5.0) / 2 + std::asinh(2.0) / 4)).epsilon(1e-13));
  CHECK(gauss_legendre_length(d, 0.3, 0.3) == 0.0);
  // A stop inside the interval (speed |2u - 1|): converges anyway.
  auto kink = [](double u) { return Vec2(2 * u - 1, 0); };
  CHECK(gauss_legendre_length(kink, 0, 1) == doctest::Approx(0.5).epsilon(1e-12));
}

TEST_CASE("arc length: table of a circle answers distances both ways") {
  auto t = ArcLengthTable::build(circle(2.0));
  REQUIRE(t);
  CHECK(t->length() == doctest::Approx(4 * kPi).epsilon(1e-13));
  for (double s = 0; s <= t->length(); s += 0.37) {
    const double u = t->parameter_at(s);
    CHECK(u == doctest::Approx(s / 2.0).epsilon(1e-12));
    CHECK(t->distance_at(u) == doctest::Approx(s).epsilon(1e-12));
    CHECK(t->curvature_at_distance(s) == doctest::Approx(0.5).epsilon(1e-6));  // 1 / radius, counter-clockwise in x,y
  }
  CHECK(t->parameter_at(-5) == 0.0);
  CHECK(t->parameter_at(1e9) == doctest::Approx(2 * kPi));
  CHECK(t->parameter_at(std::numeric_limits<double>::quiet_NaN()) == 0.0);
}

TEST_CASE("arc length: points at equal distances are equally spaced along the curve") {
  const HermiteCurve c = sample_curve();
  auto t = ArcLengthTable::build(c);
  REQUIRE(t);
  const double len = t->length();
  CHECK(len == doctest::Approx(reference_length(c, 0, c.parameter_end())).epsilon(1e-8));
  CHECK(len == doctest::Approx(c.length()).epsilon(1e-12));
  const int n = 41;
  std::vector<double> us;
  for (int i = 0; i < n; ++i) us.push_back(t->parameter_at(len * i / (n - 1)));
  CHECK(us.front() == 0.0);
  CHECK(us.back() == c.parameter_end());
  for (int i = 1; i < n; ++i) {
    const double step = reference_length(c, us[i - 1], us[i]);
    CHECK(std::abs(step - len / (n - 1)) < 1e-6 * len);
  }
  auto pts = sample_evenly(*t, n);
  REQUIRE(pts);
  REQUIRE(pts->size() == static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) CHECK(glm::length((*pts)[i] - c.point_at(us[i])) < 1e-9);
}

TEST_CASE("arc length: sampling at a fixed spacing") {
  const HermiteCurve c = sample_curve();
  auto t = ArcLengthTable::build(c);
  REQUIRE(t);
  const double spacing = 0.25;
  auto pts = sample_by_spacing(*t, spacing);
  REQUIRE(pts);
  const size_t expect = static_cast<size_t>(std::floor(t->length() / spacing)) + 2;
  CHECK(pts->size() == expect);
  CHECK(pts->front() == c.point_at(0));
  CHECK(glm::length(pts->back() - c.segments.back().end) < 1e-12);
  // Every regular step spans the same arc length; the curve bends, so chords are a bit shorter.
  for (size_t i = 1; i + 1 < pts->size(); ++i) {
    const double chord = glm::length((*pts)[i] - (*pts)[i - 1]);
    CHECK(chord <= spacing + 1e-9);
    CHECK(chord > 0.5 * spacing);  // tight bends shorten chords, never by half at this spacing
  }
  CHECK_FALSE(sample_by_spacing(*t, 0.0));
  CHECK_FALSE(sample_by_spacing(*t, -1.0));
  CHECK_FALSE(sample_by_spacing(*t, std::numeric_limits<double>::quiet_NaN()));
  auto tiny = sample_by_spacing(*t, 1e-12);
  REQUIRE_FALSE(tiny);
  CHECK(tiny.error().code == StatusCode::too_large);
  CHECK_FALSE(sample_evenly(*t, 1));
}

TEST_CASE("arc length: curvature of lines, circles-ish arcs and its sign") {
  const std::vector<Vec2> line{{0, 0}, {1, 1}, {2, 2}, {3, 3}};
  auto lt = ArcLengthTable::build(catmull_rom_curve(line).value());
  REQUIRE(lt);
  for (double s = 0; s <= lt->length(); s += 0.3) CHECK(std::abs(lt->curvature_at_distance(s)) < 1e-9);
  // A Hermite quarter circle of radius 5 (tangent length 5 * 4 (sqrt 2 - 1) * ... ~ 0.5523 * 5 * ...):
  // the classic cubic approximation is within 0.03% in radius, so the curvature is ~1/5.
  const double k = 4.0 / 3.0 * (std::sqrt(2.0) - 1.0) * 3.0;  // Bezier handle -> Hermite tangent (x3)
  const HermiteSegment q{Vec2(5, 0), Vec2(0, 5), Vec2(0, 5 * k), Vec2(-5 * k, 0)};
  HermiteCurve qc;
  qc.segments.push_back(q);
  auto qt = ArcLengthTable::build(qc);
  REQUIRE(qt);
  CHECK(qt->length() == doctest::Approx(5 * kPi / 2).epsilon(1e-3));
  for (double s = 0; s <= qt->length(); s += 0.5) CHECK(qt->curvature_at_distance(s) == doctest::Approx(0.2).epsilon(0.01));
  // Sign: turning from +x towards +y is positive, the mirror image negative.
  HermiteCurve mirrored;
  mirrored.segments.push_back(HermiteSegment{Vec2(5, 0), Vec2(0, -5), Vec2(0, -5 * k), Vec2(-5 * k, 0)});
  CHECK(curvature_at(parametric(mirrored), 0.5) == doctest::Approx(-curvature_at(parametric(qc), 0.5)));
  auto prof = curvature_profile(*qt, 0.1);
  REQUIRE(prof);
  CHECK(prof->size() == static_cast<size_t>(std::floor(qt->length() / 0.1)) + 2);
  for (const auto& p : *prof) CHECK(p.curvature > 0.19);
}

TEST_CASE("arc length: stops, zero-length curves and bad curves never give NaN") {
  // Zero tangents at both ends: the curve starts and ends at rest.
  HermiteCurve c;
  c.segments.push_back(HermiteSegment{Vec2(0, 0), Vec2(3, 0), Vec2(0), Vec2(0)});
  c.segments.push_back(HermiteSegment{Vec2(3, 0), Vec2(3, 3), Vec2(0), Vec2(0)});
  auto t = ArcLengthTable::build(c);
  REQUIRE(t);
  CHECK(t->length() == doctest::Approx(6.0).epsilon(1e-12));
  for (double s = 0; s <= 6.0; s += 0.25) {
    CHECK(is_finite(t->point_at_distance(s)));
    CHECK(std::isfinite(t->curvature_at_distance(s)));
    const Vec2 d = t->direction_at_distance(s);
    CHECK(glm::length(d) == doctest::Approx(1.0));
  }
  CHECK(glm::length(t->point_at_distance(3.0) - Vec2(3, 0)) < 1e-9);
  CHECK(glm::length(t->point_at_distance(4.5) - Vec2(3, 1.5)) < 1e-9);
  // A curve that does not move at all.
  HermiteCurve still;
  still.segments.push_back(HermiteSegment{Vec2(2, 2), Vec2(2, 2), Vec2(0), Vec2(0)});
  auto st = ArcLengthTable::build(still);
  REQUIRE(st);
  CHECK(st->length() == 0.0);
  CHECK(st->point_at_distance(1.0) == Vec2(2, 2));
  CHECK(st->curvature_at_distance(0.0) == 0.0);
  CHECK(st->direction_at_distance(0.0) == Vec2(0, 0));
  auto one = sample_by_spacing(*st, 0.5);
  REQUIRE(one);
  CHECK(one->size() == 1u);
  // Bad curves.
  CHECK_FALSE(ArcLengthTable::build(HermiteCurve{}));
  ParametricCurve pc = circle(1.0);
  pc.knots = {0.0};
  CHECK_FALSE(ArcLengthTable::build(pc));
  pc.knots = {0.0, 2.0, 1.0};
  auto dec = ArcLengthTable::build(pc);
  REQUIRE_FALSE(dec);
  CHECK(dec.error().message.find("knots[2]") != std::string::npos);
  pc.knots = {0.0, std::numeric_limits<double>::infinity()};
  CHECK_FALSE(ArcLengthTable::build(pc));
  pc = circle(1.0);
  pc.derivative = nullptr;
  CHECK_FALSE(ArcLengthTable::build(pc));
  ArcLengthDef def;
  def.entries_per_span = 0;
  CHECK_FALSE(ArcLengthTable::build(circle(1.0), def));
  ParametricCurve nanc = circle(1.0);
  nanc.derivative = [](double) { return Vec2(std::numeric_limits<double>::quiet_NaN(), 0); };
  CHECK_FALSE(ArcLengthTable::build(nanc));
}

TEST_CASE("arc length: at_distance gives a constant-speed unit its position, heading and curvature") {
  // On a circle of radius 2 travelled counter-clockwise (in x, y), at distance s the unit is at
  // angle s / 2, heading a quarter turn ahead of it, curvature 1/2.
  auto circ = ArcLengthTable::build(circle(2.0));
  REQUIRE(circ);
  for (double s = 0.1; s < circ->length(); s += 0.7) {
    const CurveState st = circ->at_distance(s);
    const double a = s / 2.0;
    CHECK(glm::length(st.pos - Vec2(2 * std::cos(a), 2 * std::sin(a))) < 1e-12);
    CHECK(glm::length(st.direction - Vec2(-std::sin(a), std::cos(a))) < 1e-12);
    CHECK(std::remainder(st.heading - (a + kPi / 2), 2 * kPi) == doctest::Approx(0.0).epsilon(1e-12).scale(1.0));
    CHECK(st.curvature == doctest::Approx(0.5).epsilon(1e-6));
    CHECK(st.distance == s);
  }
  // A unit moving at 1.5 cells/s along a spline: every 0.1 s step covers the same arc length,
  // though the parameter steps differ wildly (the complaint of "In love with splines").
  const HermiteCurve c = sample_curve();
  auto t = ArcLengthTable::build(c);
  REQUIRE(t);
  const double v = 1.5, dt = 0.1;
  CurveState prev = t->at_distance(0.0);
  CHECK(prev.pos == c.point_at(0.0));
  double min_du = 1e9, max_du = 0;
  for (int i = 1; v * dt * i < t->length(); ++i) {
    const CurveState st = t->at_distance(v * dt * i);
    CHECK(reference_length(c, prev.parameter, st.parameter) == doctest::Approx(v * dt).epsilon(1e-6));
    CHECK(glm::length(st.pos - t->point_at_distance(st.distance)) < 1e-12);
    CHECK(glm::length(st.direction - t->direction_at_distance(st.distance)) < 1e-12);
    CHECK(st.curvature == doctest::Approx(t->curvature_at_distance(st.distance)).epsilon(1e-12));
    CHECK(glm::length(st.direction) == doctest::Approx(1.0).epsilon(1e-12));
    min_du = std::min(min_du, st.parameter - prev.parameter);
    max_du = std::max(max_du, st.parameter - prev.parameter);
    prev = st;
  }
  CHECK(max_du > 2.0 * min_du);  // equal distances are unequal parameter steps on this curve
  // Clamped ends, NaN, and a curve that never moves.
  CHECK(t->at_distance(-4.0).pos == c.point_at(0.0));
  CHECK(t->at_distance(std::numeric_limits<double>::quiet_NaN()).distance == 0.0);
  const CurveState end = t->at_distance(1e9);
  CHECK(end.distance == t->length());
  CHECK(glm::length(end.pos - c.segments.back().end) < 1e-12);
  HermiteCurve still;
  still.segments.push_back(HermiteSegment{Vec2(2, 2), Vec2(2, 2), Vec2(0), Vec2(0)});
  const CurveState s0 = ArcLengthTable::build(still)->at_distance(0.5);
  CHECK(s0.pos == Vec2(2, 2));
  CHECK(s0.direction == Vec2(0, 0));
  CHECK(s0.heading == 0.0);
  CHECK(s0.curvature == 0.0);
}
