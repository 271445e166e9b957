#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "pathlab/catmull_rom.hpp"

using namespace pathlab;

namespace {

bool all_finite(const std::vector<Vec2>& v) {
  for (const Vec2& p : v)
    if (!is_finite(p)) return false;
  return true;
}

bool segments_cross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const double d1 = cross(b - a, c - a), d2 = cross(b - a, d - a);
  const double d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/// True when the polyline through `pts` crosses itself (non-adjacent pieces properly cross).
bool self_intersects(const std::vector<Vec2>& pts) {
  for (size_t i = 0; i + 1 < pts.size(); ++i)
    for (size_t j = i + 2; j + 1 < pts.size(); ++j)
      if (segments_cross(pts[i], pts[i + 1], pts[j], pts[j + 1])) return true;
  return false;
}

std::vector<Vec2> dense_segment(Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3, const CatmullRomDef& def, int n = 200) {
  std::vector<Vec2> out;
  for (int k = 0; k <= n; ++k) out.push_back(catmull_rom_point(p0, p1, p2, p3, static_cast<double>(k) / n, def));
  return out;
}

}  // namespace

TEST_CASE("catmull-rom: the Catmull-Rom blog post's 1D example follows its formula") {
  // q(t) for (1, 2, 2, 1). The blog post prints 2.171875 at 0.25 and 0.75, but its formula reduces
  // to 0.5 * (4 + t - t^2) (the t^3 coefficient is 3*2 - 1 - 3*2 + 1 = 0), which is
  // 0.5 * (4 + 0.25 - 0.0625) = 2.09375 at 0.25 and 0.75; 2.125 at 0.5 is right.
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.0) == 2.0);
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.25) == doctest::Approx(2.09375).epsilon(1e-15));
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.5) == doctest::Approx(2.125).epsilon(1e-15));
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.75) == doctest::Approx(2.09375).epsilon(1e-15));
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 1.0) == 2.0);
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.25) != doctest::Approx(2.171875));  // the post's misprint
  // The general evaluator agrees in 1D, and the 1D subdivision reproduces the same values.
  CHECK(catmull_rom_point(1.0, 2.0, 2.0, 1.0, 0.25) == doctest::Approx(2.09375).epsilon(1e-15));
  const std::vector<double> four{1, 2, 2, 1};
  auto sub = catmull_rom_subdivide(std::span<const double>(four), 4);
  REQUIRE(sub);
  REQUIRE(sub->size() == 13u);
  CHECK((*sub)[5] == doctest::Approx(2.09375).epsilon(1e-15));
  CHECK((*sub)[6] == doctest::Approx(2.125).epsilon(1e-15));
  CHECK((*sub)[7] == doctest::Approx(2.09375).epsilon(1e-15));
}

TEST_CASE("catmull-rom: the blog post's 13-point route with 5 subdivisions gives 61 points, not 121") {
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(0, 40);
  std::vector<Vec2> route;
  for (int i = 0; i < 13; ++i) route.emplace_back(u(rng), u(rng));
  auto out = catmull_rom_subdivide(std::span<const Vec2>(route), 5);
  REQUIRE(out);
  CHECK(out->size() == 61u);
  CHECK(catmull_rom_subdivide(std::span<const Vec2>(route), 10)->size() == 121u);
}

TEST_CASE("catmull-rom: the teaching note states the blog post's misprints and the right values") {
  const std::string note = kCatmullRomSeedNote;
  CHECK(note.find("2.171875") != std::string::npos);
  CHECK(note.find("2.09375") != std::string::npos);
  CHECK(note.find("2.125") != std::string::npos);
  CHECK(note.find("61") != std::string::npos);
  // The values it quotes are the ones the formula gives.
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.25) == 2.09375);
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.5) == 2.125);
}

TEST_CASE("catmull-rom: Guesgen's basis form is the same curve as the blog post's polynomial") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-10, 10);
  for (int i = 0; i < 200; ++i) {
    const double p0 = u(rng), p1 = u(rng), p2 = u(rng), p3 = u(rng), t = (u(rng) + 10) / 20;
    const double basis = p0 * (-0.5 * t * t * t + t * t - 0.5 * t) + p1 * (1.5 * t * t * t - 2.5 * t * t + 1.0) +
                         p2 * (-1.5 * t * t * t + 2.0 * t * t + 0.5 * t) + p3 * (0.5 * t * t * t - 0.5 * t * t);
    CHECK(catmull_rom_uniform(p0, p1, p2, p3, t) == doctest::Approx(basis).epsilon(1e-12));
    CHECK(catmull_rom_point(p0, p1, p2, p3, t) == doctest::Approx(basis).epsilon(1e-12));
  }
}

TEST_CASE("catmull-rom: the blog post's 2D example, 4 points and 4 subdivisions give 13 points") {
  const std::vector<Vec2> pts{{1, 1}, {2, 2}, {3, 2}, {4, 1}};
  auto out = catmull_rom_subdivide(std::span<const Vec2>(pts), 4);
  REQUIRE(out);
  REQUIRE(out->size() == 13u);
  for (size_t i = 0; i < pts.size(); ++i) CHECK((*out)[i * 4] == pts[i]);  // through the control points
  // First segment, doubled start: p0 = p1 = (1,1), p2 = (2,2), p3 = (3,2) at t = 0.5.
  CHECK((*out)[2].x == doctest::Approx(1.4375).epsilon(1e-15));
  CHECK((*out)[2].y == doctest::Approx(1.5).epsilon(1e-15));
  // Middle segment at t = 0.5: y is the 1D example (1, 2, 2, 1) -> 2.125, x is linear.
  CHECK((*out)[6].x == doctest::Approx(2.5));
  CHECK((*out)[6].y == doctest::Approx(2.125));
  // Symmetric path, symmetric curve.
  for (size_t i = 0; i < 13; ++i) {
    CHECK((*out)[i].x + (*out)[12 - i].x == doctest::Approx(5.0).epsilon(1e-14));
    CHECK((*out)[i].y == doctest::Approx((*out)[12 - i].y).epsilon(1e-14));
  }
}

TEST_CASE("catmull-rom: 3D is the 2D curve with z handled the same way") {
  const std::vector<glm::dvec3> p3{{1, 1, 1}, {2, 2, 2}, {3, 2, 3}, {4, 1, 4}};
  const std::vector<Vec2> p2{{1, 1}, {2, 2}, {3, 2}, {4, 1}};
  for (double alpha : {0.0, 0.5, 1.0}) {
    CatmullRomDef def;
    def.alpha = alpha;
    auto a = catmull_rom_subdivide(std::span<const glm::dvec3>(p3), 5, def);
    REQUIRE(a);
    REQUIRE(a->size() == 16u);
    if (alpha == 0.0) {
      auto b = catmull_rom_subdivide(std::span<const Vec2>(p2), 5, def);
      for (size_t i = 0; i < a->size(); ++i) {
        CHECK((*a)[i].x == doctest::Approx((*b)[i].x).epsilon(1e-14));
        CHECK((*a)[i].y == doctest::Approx((*b)[i].y).epsilon(1e-14));
        CHECK((*a)[i].z == doctest::Approx((*b)[i].x).epsilon(1e-14));  // z follows x's values
      }
    }
    for (size_t i = 0; i < p3.size(); ++i) CHECK((*a)[i * 5] == p3[i]);
  }
}

TEST_CASE("catmull-rom: (n-1)*N+1 points for n >= 2, one point for one, an error for none") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0, 50);
  for (int n = 2; n <= 9; ++n) {
    std::vector<Vec2> pts;
    for (int i = 0; i < n; ++i) pts.emplace_back(u(rng), u(rng));
    for (int N = 1; N <= 7; ++N) {
      for (double alpha : {0.0, 0.5, 1.0}) {
        CatmullRomDef def;
        def.alpha = alpha;
        auto out = catmull_rom_subdivide(std::span<const Vec2>(pts), N, def);
        REQUIRE(out);
        CHECK(out->size() == static_cast<size_t>((n - 1) * N + 1));
        CHECK(out->front() == pts.front());
        CHECK(out->back() == pts.back());
        CHECK(all_finite(*out));
      }
    }
  }
  const std::vector<Vec2> one{{3, 4}};
  auto single = catmull_rom_subdivide(std::span<const Vec2>(one), 8);
  REQUIRE(single);
  REQUIRE(single->size() == 1u);
  CHECK((*single)[0] == Vec2(3, 4));
  const std::vector<Vec2> none;
  auto empty = catmull_rom_subdivide(std::span<const Vec2>(none), 8);
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message.find("points") != std::string::npos);
}

TEST_CASE("catmull-rom: two points give the straight segment") {
  const std::vector<Vec2> two{{1, 1}, {5, 3}};
  for (double alpha : {0.0, 0.5, 1.0}) {
    CatmullRomDef def;
    def.alpha = alpha;
    auto out = catmull_rom_subdivide(std::span<const Vec2>(two), 10, def);
    REQUIRE(out);
    REQUIRE(out->size() == 11u);
    double prev = -1;
    for (const Vec2& p : *out) {
      CHECK(std::abs(cross(p - two[0], two[1] - two[0])) < 1e-12);  // on the line
      const double along = glm::dot(p - two[0], two[1] - two[0]);
      CHECK(along > prev);  // and moving forwards
      prev = along;
    }
  }
}

TEST_CASE("catmull-rom: position and tangent are continuous across segments") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 20);
  for (int rep = 0; rep < 20; ++rep) {
    std::vector<Vec2> pts;
    for (int i = 0; i < 7; ++i) pts.emplace_back(u(rng), u(rng));
    for (double alpha : {0.0, 0.5, 1.0}) {
      CatmullRomDef def;
      def.alpha = alpha;
      auto c = catmull_rom_curve(pts, def);
      REQUIRE(c);
      REQUIRE(c->segments.size() == 6u);
      for (size_t k = 0; k + 1 < c->segments.size(); ++k) {
        const auto& a = c->segments[k];
        const auto& b = c->segments[k + 1];
        const Vec2 pa = a.point_at(1.0), pb = b.point_at(0.0);
        CHECK(glm::length(pa - pb) < 1e-12);
        const Vec2 ta = a.tangent_at(1.0), tb = b.tangent_at(0.0);
        if (alpha == 0.0) {
          CHECK(glm::length(ta - tb) < 1e-12);  // uniform: C1 in the shared parameter
        } else {
          // Non-uniform knots: same direction of travel, lengths in the ratio of the knot intervals.
          CHECK(std::abs(cross(ta, tb)) < 1e-9 * glm::length(ta) * glm::length(tb));
          CHECK(glm::dot(ta, tb) > 0);
          const double ka = std::pow(glm::length(pts[k + 1] - pts[k]), alpha);
          const double kb = std::pow(glm::length(pts[k + 2] - pts[k + 1]), alpha);
          CHECK(glm::length(ta) / ka == doctest::Approx(glm::length(tb) / kb).epsilon(1e-9));
        }
        // The curve evaluator agrees with the subdivision at the joint.
        CHECK(glm::length(c->point_at(static_cast<double>(k + 1)) - pts[k + 1]) < 1e-12);
      }
    }
  }
}

TEST_CASE("catmull-rom: centripetal never loops inside a segment, uniform can") {
  // Found by search: a short middle chord between long ones that fold back.
  const Vec2 p0(1, 10), p1(7, 10), p2(6, 9), p3(0, 0);
  CHECK(self_intersects(dense_segment(p0, p1, p2, p3, catmull_rom_def(CatmullRomKind::uniform))));
  CHECK_FALSE(self_intersects(dense_segment(p0, p1, p2, p3, catmull_rom_def(CatmullRomKind::centripetal))));
  // Property: random uneven configurations, centripetal segments never cross themselves.
  // The same count under sanitizers: uniform loops are rare (a few per thousand), and the
  // non-vacuity check below needs enough tries to meet some.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0, 10);
  int uniform_loops = 0;
  for (int rep = 0; rep < 1500; ++rep) {
    const Vec2 a(u(rng), u(rng)), b(u(rng), u(rng)), c(u(rng), u(rng)), d(u(rng), u(rng));
    CHECK_FALSE(self_intersects(dense_segment(a, b, c, d, catmull_rom_def(CatmullRomKind::centripetal), 80)));
    if (self_intersects(dense_segment(a, b, c, d, catmull_rom_def(CatmullRomKind::uniform), 80))) ++uniform_loops;
  }
  CHECK(uniform_loops > 0);  // the property is not vacuous: uniform fails on the same inputs
}

TEST_CASE("catmull-rom: centripetal never forms a cusp inside a segment, uniform and chordal can") {
  // A cusp shows as the direction of travel flipping (more than 120 degrees) between two
  // samples 1/400 of the parameter apart; a smooth curve turns far less in so short a step.
  auto max_flip_cos = [](const HermiteSegment& s) {
    Vec2 prev = s.tangent_at(0.0);
    double worst = 1.0;
    for (int i = 1; i <= 400; ++i) {
      const Vec2 t = s.tangent_at(i / 400.0);
      const double lt = glm::length(t), lp = glm::length(prev);
      if (lt > 0.0 && lp > 0.0) worst = std::min(worst, glm::dot(t, prev) / (lt * lp));
      prev = t;
    }
    return worst;
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0, 10);
  const int reps = std::getenv("PATHLAB_SANITIZED") ? 2000 : 6000;
  int uniform_cusps = 0, chordal_cusps = 0;
  for (int rep = 0; rep < reps; ++rep) {
    const Vec2 a(u(rng), u(rng)), b(u(rng), u(rng)), c(u(rng), u(rng)), d(u(rng), u(rng));
    CHECK(max_flip_cos(catmull_rom_segment(a, b, c, d, catmull_rom_def(CatmullRomKind::centripetal))) > -0.5);
    if (max_flip_cos(catmull_rom_segment(a, b, c, d, catmull_rom_def(CatmullRomKind::uniform))) < -0.5) ++uniform_cusps;
    if (max_flip_cos(catmull_rom_segment(a, b, c, d, catmull_rom_def(CatmullRomKind::chordal))) < -0.5) ++chordal_cusps;
  }
  MESSAGE("cusps in " << reps << " random segments: uniform " << uniform_cusps << ", chordal " << chordal_cusps);
  CHECK(uniform_cusps > 0);  // the check can see a cusp
  // A documented example: chordal turns back sharply where the next point folds back close by.
  const Vec2 a(0.882055, 1.30789), b(8.06134, 1.13825), c(7.76551, 4.35796), d(7.81477, 4.11029);
  CHECK(max_flip_cos(catmull_rom_segment(a, b, c, d, catmull_rom_def(CatmullRomKind::chordal))) < -0.5);
  CHECK(max_flip_cos(catmull_rom_segment(a, b, c, d, catmull_rom_def(CatmullRomKind::centripetal))) > -0.5);
}

TEST_CASE("catmull-rom: repeated points never give NaN") {
  const std::vector<Vec2> pts{{0, 0}, {0, 0}, {1, 1}, {1, 1}, {1, 1}, {2, 0}, {2, 0}};
  for (double alpha : {0.0, 0.25, 0.5, 1.0}) {
    CatmullRomDef def;
    def.alpha = alpha;
    auto out = catmull_rom_subdivide(std::span<const Vec2>(pts), 6, def);
    REQUIRE(out);
    CHECK(out->size() == 37u);
    CHECK(all_finite(*out));
    auto c = catmull_rom_curve(pts, def);
    REQUIRE(c);
    for (const auto& s : c->segments) {
      CHECK(is_finite(s.start_tangent));
      CHECK(is_finite(s.end_tangent));
      CHECK(std::isfinite(s.length()));
    }
    if (alpha > 0) {
      // A zero-length segment stays put rather than looping out and back.
      for (int j = 0; j <= 6; ++j) CHECK((*out)[18 + j] == Vec2(1, 1));
    }
  }
  const std::vector<Vec2> same{{2, 2}, {2, 2}, {2, 2}};
  auto out = catmull_rom_subdivide(std::span<const Vec2>(same), 4, catmull_rom_def(CatmullRomKind::chordal));
  REQUIRE(out);
  for (const Vec2& p : *out) CHECK(p == Vec2(2, 2));
}

TEST_CASE("catmull-rom: bad input is an error naming the argument") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Vec2> pts{{0, 0}, {1, 0}, {nan, 1}};
  auto r = catmull_rom_subdivide(std::span<const Vec2>(pts), 4);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("points[2]") != std::string::npos);
  const std::vector<Vec2> ok{{0, 0}, {1, 0}, {2, 1}};
  for (int n : {0, -3, kMaxSubdivisions + 1, std::numeric_limits<int>::max()}) {
    auto bad = catmull_rom_subdivide(std::span<const Vec2>(ok), n);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("subdivisions") != std::string::npos);
  }
  std::vector<Vec2> many(10000, Vec2(0, 0));
  for (size_t i = 0; i < many.size(); ++i) many[i] = Vec2(static_cast<double>(i), 0);
  auto huge = catmull_rom_subdivide(std::span<const Vec2>(many), kMaxSubdivisions);
  REQUIRE_FALSE(huge);
  CHECK(huge.error().code == StatusCode::too_large);
  for (double alpha : {-0.1, 1.5, nan}) {
    CatmullRomDef def;
    def.alpha = alpha;
    auto e = catmull_rom_subdivide(std::span<const Vec2>(ok), 4, def);
    REQUIRE_FALSE(e);
    CHECK(e.error().message.find("alpha") != std::string::npos);
  }
  CatmullRomDef tdef;
  tdef.tangent_scale = 2;
  CHECK_FALSE(catmull_rom_curve(ok, tdef));
  const std::vector<Vec2> big{{0, 0}, {1e300, 0}};
  CHECK_FALSE(catmull_rom_subdivide(std::span<const Vec2>(big), 4));
  CHECK(parse_catmull_rom_kind("centripetal").value() == CatmullRomKind::centripetal);
  CHECK_FALSE(parse_catmull_rom_kind("bezier"));
}

TEST_CASE("catmull-rom: tangent scale 0 gives the polyline") {
  const std::vector<Vec2> pts{{0, 0}, {3, 0}, {3, 4}, {7, 4}};
  CatmullRomDef def = catmull_rom_def(CatmullRomKind::centripetal);
  def.tangent_scale = 0.0;
  auto out = catmull_rom_subdivide(std::span<const Vec2>(pts), 8, def);
  REQUIRE(out);
  for (size_t i = 0; i < out->size(); ++i) {
    const size_t k = std::min<size_t>(i / 8, 2);
    const Vec2 a = pts[k], b = pts[k + 1];
    CHECK(std::abs(cross((*out)[i] - a, b - a)) < 1e-12);
  }
}
