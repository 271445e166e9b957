#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "pathlab/hermite.hpp"

using namespace pathlab;

namespace {

/// Length by a polyline of n chords: a reference that converges like 1/n^2.
double chord_length(const HermiteSegment& s, double t0, double t1, int n) {
  double len = 0;
  Vec2 prev = s.point_at(t0);
  for (int i = 1; i <= n; ++i) {
    const Vec2 p = s.point_at(t0 + (t1 - t0) * i / n);
    len += glm::length(p - prev);
    prev = p;
  }
  return len;
}

const HermiteSegment kBend{Vec2(0, 0), Vec2(10, 0), Vec2(0, 15), Vec2(0, -15)};

}  // namespace

TEST_CASE("hermite: ends and tangents are the ones given (the Hermite post)") {
  const HermiteSegment s{Vec2(1, 2), Vec2(5, -1), Vec2(3, 4), Vec2(-2, 6)};
  CHECK(s.point_at(0.0) == s.start);
  CHECK(s.point_at(1.0) == s.end);
  CHECK(glm::length(s.tangent_at(0.0) - s.start_tangent) < 1e-15);
  CHECK(glm::length(s.tangent_at(1.0) - s.end_tangent) < 1e-14);
  // The post's basis at t = 0.5: h1 = h2 = 0.5, h3 = 0.125, h4 = -0.125.
  double h[4];
  hermite_basis(0.5, h);
  CHECK(h[0] == 0.5);
  CHECK(h[1] == 0.5);
  CHECK(h[2] == 0.125);
  CHECK(h[3] == -0.125);
  const Vec2 mid = s.point_at(0.5);
  CHECK(mid.x == doctest::Approx(0.5 * 1 + 0.5 * 5 + 0.125 * 3 - 0.125 * -2));
  CHECK(mid.y == doctest::Approx(0.5 * 2 + 0.5 * -1 + 0.125 * 4 - 0.125 * 6));
  // Out-of-range t is clamped, never extrapolated.
  CHECK(s.point_at(-3.0) == s.start);
  CHECK(s.point_at(7.0) == s.end);
  CHECK(s.point_at(std::numeric_limits<double>::quiet_NaN()) == s.start);
}

TEST_CASE("hermite: the tangent and second derivative are the derivatives of the point") {
  const HermiteSegment s{Vec2(1, 2), Vec2(5, -1), Vec2(3, 4), Vec2(-2, 6)};
  const double h = 1e-6;
  for (double t = 0.05; t < 1.0; t += 0.1) {
    const Vec2 num = (s.point_at(t + h) - s.point_at(t - h)) / (2 * h);
    CHECK(glm::length(num - s.tangent_at(t)) < 1e-7);
    const Vec2 num2 = (s.tangent_at(t + h) - s.tangent_at(t - h)) / (2 * h);
    CHECK(glm::length(num2 - s.second_derivative_at(t)) < 1e-6);
  }
}

TEST_CASE("hermite: a straight segment with chord tangents has the chord's length and constant speed") {
  const HermiteSegment s{Vec2(1, 1), Vec2(4, 5), Vec2(3, 4), Vec2(3, 4)};
  CHECK(s.length() == doctest::Approx(5.0).epsilon(1e-14));
  for (double t = 0; t <= 1.0; t += 0.125) {
    CHECK(glm::length(s.point_at(t) - (s.start + t * (s.end - s.start))) < 1e-14);
    CHECK(s.distance_backwards(t) == doctest::Approx(5.0 * t).epsilon(1e-13));
  }
}

TEST_CASE("hermite: length by quadrature, not the Hermite post's ten chords") {
  const double exact = chord_length(kBend, 0, 1, 200000);
  CHECK(kBend.length() == doctest::Approx(exact).epsilon(1e-9));
  const double ten = chord_length(kBend, 0, 1, 10);
  CHECK(ten < kBend.length() - 1e-3);  // the chord sum always falls short on a bend
}

TEST_CASE("hermite: distance left forwards and backwards") {
  const double len = kBend.length();
  CHECK(kBend.distance_forwards(0.0) == doctest::Approx(len).epsilon(1e-13));
  CHECK(kBend.distance_forwards(1.0) == 0.0);
  CHECK(kBend.distance_backwards(0.0) == 0.0);
  CHECK(kBend.distance_backwards(1.0) == doctest::Approx(len).epsilon(1e-13));
  double prev = -1;
  for (double t = 0; t <= 1.0; t += 0.05) {
    const double f = kBend.distance_forwards(t), b = kBend.distance_backwards(t);
    CHECK(f + b == doctest::Approx(len).epsilon(1e-12));
    CHECK(b > prev);
    prev = b;
    CHECK(b == doctest::Approx(chord_length(kBend, 0, t, 100000)).epsilon(1e-8));
  }
  // Symmetric segment: half the length at t = 0.5.
  CHECK(kBend.distance_backwards(0.5) == doctest::Approx(len / 2).epsilon(1e-12));
}

TEST_CASE("hermite: chained segments are C1 and pass through every point") {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(0, 20);
  std::vector<Vec2> pts;
  for (int i = 0; i < 9; ++i) pts.emplace_back(u(rng), u(rng));
  std::vector<Vec2> tan;
  for (int i = 0; i < 9; ++i) tan.emplace_back(u(rng) - 10, u(rng) - 10);
  auto given = hermite_chain(std::span<const Vec2>(pts), std::span<const Vec2>(tan));
  REQUIRE(given);
  REQUIRE(given->segments.size() == 8u);
  auto automatic = hermite_chain(std::span<const Vec2>(pts));
  REQUIRE(automatic);
  for (const HermiteCurve* c : {&*given, &*automatic}) {
    for (size_t k = 0; k < pts.size(); ++k) CHECK(glm::length(c->point_at(static_cast<double>(k)) - pts[k]) < 1e-12);
    for (size_t k = 0; k + 1 < c->segments.size(); ++k) {
      const auto& a = c->segments[k];
      const auto& b = c->segments[k + 1];
      CHECK(a.end == b.start);
      CHECK(glm::length(a.tangent_at(1.0) - b.tangent_at(0.0)) < 1e-12);
      // Just either side of the joint the curve and its tangent agree too.
      const double e = 1e-7, j = static_cast<double>(k + 1);
      CHECK(glm::length(c->point_at(j - e) - c->point_at(j + e)) < 1e-5);
      CHECK(glm::length(c->tangent_at(j - e) - c->tangent_at(j + e)) < 1e-4);
    }
  }
  for (size_t k = 0; k < tan.size(); ++k) CHECK(given->tangent_at(static_cast<double>(k)) == tan[k]);
  // Sampling per segment: segments * N + 1 points through the waypoints.
  auto s = sample_per_segment(*automatic, 5);
  REQUIRE(s);
  CHECK(s->size() == 41u);
  for (size_t k = 0; k < pts.size(); ++k) CHECK((*s)[k * 5] == pts[k]);
}

TEST_CASE("hermite: automatic tangents keep straight runs straight and obey headings") {
  const std::vector<Vec2> line{{0, 0}, {1, 0}, {2, 0}, {3, 0}};
  auto c = hermite_chain(std::span<const Vec2>(line));
  REQUIRE(c);
  for (double u = 0; u <= 3.0; u += 0.1) {
    CHECK(std::abs(c->point_at(u).y) < 1e-15);
    CHECK(c->point_at(u).x == doctest::Approx(u).epsilon(1e-13));  // constant speed too
  }
  HermiteChainDef def;
  def.start_heading = kPi / 2;  // leave downwards (y grows down)
  def.end_heading = 0.0;
  const std::vector<Vec2> two{{0, 0}, {4, 4}};
  auto h = hermite_chain(std::span<const Vec2>(two), def);
  REQUIRE(h);
  const Vec2 t0 = h->tangent_at(0.0);
  CHECK(std::abs(t0.x) < 1e-12);
  CHECK(t0.y > 0);
  CHECK(h->tangent_at(2.0).y == doctest::Approx(0.0));
  // A path that doubles back gets a stop (zero tangent) at the turn, not a loop.
  const std::vector<Vec2> back{{0, 0}, {2, 0}, {0, 0}};
  const auto m = hermite_auto_tangents(back, default_hermite_chain_def());
  CHECK(m[1] == Vec2(0, 0));
}

TEST_CASE("hermite: degenerate and bad input") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(make_hermite(Vec2(nan, 0), Vec2(1, 1), Vec2(0), Vec2(0)));
  auto bad = make_hermite(Vec2(0, 0), Vec2(1, 1), Vec2(0), Vec2(0, std::numeric_limits<double>::infinity()));
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("end_tangent") != std::string::npos);
  const std::vector<Vec2> none;
  CHECK_FALSE(hermite_chain(std::span<const Vec2>(none)));
  const std::vector<Vec2> pts{{0, 0}, {1, 1}};
  const std::vector<Vec2> one_tan{{1, 0}};
  auto mism = hermite_chain(std::span<const Vec2>(pts), std::span<const Vec2>(one_tan));
  REQUIRE_FALSE(mism);
  CHECK(mism.error().message.find("tangents") != std::string::npos);
  const std::vector<Vec2> with_nan{{0, 0}, {nan, 1}};
  auto n = hermite_chain(std::span<const Vec2>(with_nan));
  REQUIRE_FALSE(n);
  CHECK(n.error().message.find("points[1]") != std::string::npos);
  HermiteChainDef def;
  def.tangent_scale = -1;
  CHECK_FALSE(hermite_chain(std::span<const Vec2>(pts), def));
  def = HermiteChainDef{};
  def.start_heading = nan;
  CHECK_FALSE(hermite_chain(std::span<const Vec2>(pts), def));
  // Repeated points: finite, and the zero-length segment stays put.
  const std::vector<Vec2> rep{{0, 0}, {0, 0}, {3, 0}, {3, 0}, {3, 2}};
  auto r = hermite_chain(std::span<const Vec2>(rep));
  REQUIRE(r);
  for (double u = 0; u <= 4.0; u += 0.05) CHECK(is_finite(r->point_at(u)));
  CHECK(r->point_at(0.5) == Vec2(0, 0));
  CHECK(r->point_at(2.5) == Vec2(3, 0));
  CHECK(std::isfinite(r->length()));
  // One point: a curve that stays there.
  const std::vector<Vec2> single{{2, 3}};
  auto s = hermite_chain(std::span<const Vec2>(single));
  REQUIRE(s);
  CHECK(s->point_at(0.7) == Vec2(2, 3));
  CHECK(s->length() == 0.0);
  CHECK_FALSE(sample_per_segment(*s, 0));
  CHECK_FALSE(sample_per_segment(HermiteCurve{}, 4));
}
