#pragma once
/// @file shortcut.hpp
/// Straightening a path afterwards by line-of-sight shortcuts: the Tower22 post's "cheating" and
/// Guesgen's lecture's "straighten the path afterwards". From each kept node, the farthest later
/// node that can be reached in a straight line (for an agent of the given radius) is kept
/// next and the nodes in between are dropped. On weighted terrain a shortcut is taken only
/// when it costs no more than the stretch of path it replaces.

#include <span>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

struct ShortcutResult {
  std::vector<Vec2> points;  ///< The kept nodes, first and last included.
  double length = 0.0;       ///< [Units: cells]
  int removed = 0;           ///< How many nodes were dropped.
};

/// Shortcuts `points` on `grid` for an agent of `agent_radius` [Units: cells] [Limit: 0 .. kMaxAgentRadius].
/// The input must itself be clear; segments of the input are kept as they are.
Result<ShortcutResult> los_shortcut(const Grid& grid, std::span<const Vec2> points, double agent_radius = 0.0);

}  // namespace pathlab
