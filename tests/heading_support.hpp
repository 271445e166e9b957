#pragma once
// Checks shared by the heading-aware planner tests: is a planned path exactly legal?

#include <doctest/doctest.h>

#include <cmath>

#include "pathlab/collision.hpp"
#include "pathlab/heading_path.hpp"
#include "pathlab/swept_check.hpp"

namespace pathlab::test {

/// Positions and headings of consecutive segments must meet within this. [Units: cells, radians]
inline constexpr double kJoinTolerance = 1e-6;

/// Smallest heading difference, wrap-around aware. [Units: radians]
inline double heading_gap(double a, double b) { return std::abs(wrap_angle(a - b)); }

/// Asserts that `p` is a legal path for a unit of `turning_radius` and `agent_radius`
/// from `start` to `goal`: exact end poses, continuous, curvature at most 1/r, swept clear.
inline void check_legal(const Grid& grid, const HeadingPath& p, double turning_radius, double agent_radius,
                        const Pose& start, const Pose& goal) {
  REQUIRE(p.found);
  CHECK(p.path.start().pos == start.pos);
  CHECK(p.path.start().heading == start.heading);
  CHECK(p.path.end().pos == goal.pos);
  CHECK(heading_gap(p.path.end().heading, goal.heading) == 0.0);
  const auto segs = p.path.segments();
  for (size_t i = 0; i < segs.size(); ++i) {
    if (segs[i].kind == SegmentKind::arc) CHECK(segs[i].radius >= turning_radius * (1.0 - 1e-12));
    if (i + 1 < segs.size()) {
      const Pose a = segment_end(segs[i]), b = segment_start(segs[i + 1]);
      CHECK(glm::length(a.pos - b.pos) < kJoinTolerance);
      CHECK(heading_gap(a.heading, b.heading) < kJoinTolerance);
    }
  }
  if (!segs.empty()) {
    CHECK(glm::length(segment_start(segs.front()).pos - start.pos) < kJoinTolerance);
    CHECK(glm::length(segment_end(segs.back()).pos - goal.pos) < kJoinTolerance);
    CHECK(heading_gap(segment_end(segs.back()).heading, goal.heading) < kJoinTolerance);
  }
  SweptCheckDef def;
  def.agent_radius = agent_radius;
  auto swept = check_swept_path(grid, p.path, def);
  REQUIRE(swept.ok());
  CHECK_MESSAGE(swept->clear, "blocked at s = ", swept->blocked_at_s, " of ", p.path.length());
  CHECK(std::abs(p.length - p.path.length()) < 1e-9);
}

/// Asserts that `p` is a budget-stopped result whose partial path is legal: it starts exactly at
/// `start`, is continuous, turns no tighter than `turning_radius` and is swept clear.
inline void check_partial_legal(const Grid& grid, const HeadingPath& p, double turning_radius, double agent_radius,
                                const Pose& start) {
  CHECK_FALSE(p.found);
  CHECK(p.partial);
  CHECK(p.failure == HeadingFailure::budget_exhausted);
  CHECK(p.path.start().pos == start.pos);
  CHECK(p.path.start().heading == start.heading);
  const auto segs = p.path.segments();
  for (size_t i = 0; i < segs.size(); ++i) {
    if (segs[i].kind == SegmentKind::arc) CHECK(segs[i].radius >= turning_radius * (1.0 - 1e-12));
    if (i + 1 < segs.size()) {
      const Pose a = segment_end(segs[i]), b = segment_start(segs[i + 1]);
      CHECK(glm::length(a.pos - b.pos) < kJoinTolerance);
      CHECK(heading_gap(a.heading, b.heading) < kJoinTolerance);
    }
  }
  SweptCheckDef def;
  def.agent_radius = agent_radius;
  auto swept = check_swept_path(grid, p.path, def);
  REQUIRE(swept.ok());
  CHECK(swept->clear);
  CHECK(std::abs(p.length - p.path.length()) < 1e-9);
}

/// An open w x h room with a one-cell-wide dead-end corridor along the bottom right: a goal
/// at its closed end facing out of it cannot be entered driving forward with a turning
/// radius above 0.5, yet it is reachable for a unit that turns on the spot, so a forward-only
/// search floods the room before giving up.
inline Grid dead_end_room(int w, int h) {
  Grid g = Grid::create(w, h).value();
  for (int x = w / 2; x < w; ++x) {  // the corridor is row h - 2, from x = w/2 to the right edge
    g.set_blocked(x, h - 3, true);
    g.set_blocked(x, h - 1, true);
  }
  return g;
}

}  // namespace pathlab::test
