#pragma once
// Helpers shared by the curve tests (Dubins, Reeds-Shepp, turn-to-point, segment paths):
// random poses, the sanitizer switch, and the checks every sampled curve must pass.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "pathlab/segment_path.hpp"

namespace pathlab::test {

/// Set by the ASan+UBSan run: heavy loops are scaled down there.
inline bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

inline Pose random_pose(std::mt19937_64& rng, double span) {
  std::uniform_real_distribution<double> coord(-span, span), heading(-kPi, kPi);
  return Pose{{coord(rng), coord(rng)}, heading(rng)};
}

/// The checks every sampled curve must pass: exact end poses (`exact_end_heading` false for
/// turn-to-point, whose goal has no heading), curvature at most 1/r, every segment end
/// (cusps included) a sample, the polyline as long as the curve up to the chords' sagitta
/// loss, and consecutive samples moving along the heading (forward) or against it (reverse).
inline void check_sampled(const SegmentPath& path, const Pose& from, const Pose& to, double radius, double step,
                          bool exact_end_heading = true) {
  auto samples = path.sample(step);
  REQUIRE(samples.ok());
  const auto& s = *samples;
  REQUIRE(s.size() >= 1);
  CHECK(s.front().state.pos.x == from.pos.x);
  CHECK(s.front().state.pos.y == from.pos.y);
  CHECK(s.front().state.heading == from.heading);
  CHECK(s.front().s == 0.0);
  CHECK(s.back().state.pos.x == to.pos.x);
  CHECK(s.back().state.pos.y == to.pos.y);
  if (exact_end_heading) CHECK(s.back().state.heading == to.heading);
  CHECK(s.back().s == path.length());
  for (const PathSample& p : s) CHECK(std::abs(p.state.curvature) <= (1.0 + 1e-12) / radius);
  // Samples never further apart than the step (along the path).
  for (size_t i = 1; i < s.size(); ++i) CHECK(s[i].s - s[i - 1].s <= step * (1.0 + 1e-9));
  // Every segment end is a sample, at the segment's computed end point.
  double offset = 0.0;
  for (const Segment& seg : path.segments()) {
    offset += seg.length;
    const auto hit = std::find_if(s.begin(), s.end(), [&](const PathSample& p) {
      return std::abs(p.s - offset) <= 1e-9 * std::max(1.0, offset);
    });
    REQUIRE(hit != s.end());
    CHECK(glm::length(hit->state.pos - segment_end(seg).pos) <= 1e-7 * std::max(1.0, path.length()));
  }
  // A chord of length c on a circle of radius r is shorter than its arc by at most
  // c^3 / (24 r^2); lines lose nothing.
  const double poly = polyline_length(s);
  const double loss = static_cast<double>(s.size()) * step * step * step / (24.0 * radius * radius);
  CHECK(poly <= path.length() * (1.0 + 1e-12) + 1e-9);
  CHECK(poly >= path.length() - loss - 1e-9 * std::max(1.0, path.length()));
  for (size_t i = 1; i < s.size(); ++i) {
    const Vec2 d = s[i].state.pos - s[i - 1].state.pos;
    const Vec2 at = s[i].state.pos;
    if (glm::length(d) < 1e-7 * std::max({1.0, std::abs(at.x), std::abs(at.y)})) continue;
    // The chord of an arc points along the mean of the end headings; the earlier sample
    // carries the state (gear) of the piece between the two.
    const double travel = s[i - 1].state.heading + (s[i - 1].state.gear == Gear::reverse ? kPi : 0.0);
    const double mid_turn = wrap_angle(s[i].state.heading - s[i - 1].state.heading) * 0.5;
    const double err = std::abs(wrap_angle(std::atan2(d.y, d.x) - (travel + mid_turn)));
    CHECK(err <= 1e-6);
  }
}

}  // namespace pathlab::test
