#pragma once
/// @file funnel.hpp
/// The exact shortest path through a corridor of portals: the "simple stupid funnel algorithm".
///
/// A corridor is a chain of convex polygons; consecutive ones share a portal segment. The
/// shortest path from start to goal that crosses the portals in order bends only at portal
/// endpoints. The funnel keeps an apex and two legs (the tightest left and right endpoints
/// seen so far); when a new endpoint would cross the opposite leg, that leg's endpoint becomes
/// the next corner of the path and the scan restarts from it.
///
/// Left and right are in the math sense: seen along the direction of travel, cross(dir,
/// left - right) > 0. With y pointing down (the map convention) math-left appears on the
/// screen's right. Collinear legs and zero-width portals (left == right) are allowed.

#include <span>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// One portal of a corridor, oriented for the direction of travel. [Units: cells]
struct FunnelPortal {
  Vec2 left{0, 0};
  Vec2 right{0, 0};
};

/// One step of the funnel, for drawing it being pulled tight.
struct FunnelEvent {
  enum Kind : uint8_t {
    tighten_left = 0,   ///< The left leg moved inwards to this portal.
    tighten_right = 1,  ///< The right leg moved inwards.
    corner_left = 2,    ///< The right endpoint crossed the left leg: the left leg's end is a corner.
    corner_right = 3,   ///< The left endpoint crossed the right leg: the right leg's end is a corner.
  };
  Kind kind = tighten_left;
  int portal = 0;  ///< Index into the portals given (-1 = the start, size = the goal).
  Vec2 apex{0, 0}, left{0, 0}, right{0, 0};  ///< The funnel after the step. [Units: cells]
};

struct FunnelResult {
  std::vector<Vec2> points;  ///< Start, the corners, goal. [Units: cells]
  double length = 0.0;       ///< [Units: cells]
  std::vector<FunnelEvent> events;  ///< Filled on request.
};

/// Shortest path from `start` to `goal` through `portals` in order. `start` must lie in the
/// first polygon and `goal` in the last; with no portals the path is the straight segment, or
/// the single point `start` (length 0) when start == goal.
/// Errors: a non-finite point (invalid_argument, naming it).
Result<FunnelResult> funnel_path(Vec2 start, Vec2 goal, std::span<const FunnelPortal> portals,
                                 bool record_events = false);

}  // namespace pathlab
