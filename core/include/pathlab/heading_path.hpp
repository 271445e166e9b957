#pragma once
/// @file heading_path.hpp
/// What the heading-aware planners (Directional A*, Hybrid A*) return: a segment path a
/// unit with a turning radius can drive, the search trace for replay, and why nothing was
/// found when nothing was.

#include <cstdint>
#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/search_budget.hpp"
#include "pathlab/segment_path.hpp"

namespace pathlab {

/// Why a heading-aware search found no path.
enum class HeadingFailure : uint8_t {
  none = 0,
  start_in_collision,  ///< The unit's disc at the start pose overlaps a wall.
  goal_in_collision,   ///< The unit's disc at the goal pose overlaps a wall.
  unreachable,         ///< Every reachable pose was expanded without reaching the goal.
  budget_exhausted,    ///< The search budget (expansions, time or cancel) ran out first: see budget_stop.
};

/// "none", "start_in_collision", ...
const char* to_string(HeadingFailure failure) noexcept;

/// Result of a heading-aware search.
struct HeadingPath {
  bool found = false;
  /// When found: lines and arcs with gear, from exactly `start` to exactly `goal`. When the
  /// budget stopped the search (partial): the legal path from `start` to the expanded pose
  /// closest to the goal by the heuristic (possibly no segment at all). Else empty.
  SegmentPath path;
  /// True when the budget stopped the search and `path` holds the best partial path.
  bool partial = false;
  /// Which limit stopped the search (failure == budget_exhausted), else BudgetStop::none.
  BudgetStop budget_stop = BudgetStop::none;
  Pose start;               ///< The start pose the search used (Directional A* snaps it to its lattice).
  Pose goal;                ///< The goal pose the search used.
  double length = 0.0;      ///< Distance travelled. [Units: cells]
  double cost = 0.0;        ///< Length plus reverse and gear-change penalties. [Units: cells]
  int64_t expanded = 0;     ///< Nodes expanded.
  int64_t generated = 0;    ///< Successors that passed the collision check.
  int analytic_tries = 0;   ///< Hybrid A*: analytic (Dubins / Reeds-Shepp) connections tried.
  HeadingFailure failure = HeadingFailure::none;
  std::string reason;       ///< For people, when not found.
  /// Expanded poses in expansion order (when the options ask for a trace), for the sandbox.
  std::vector<Pose> trace;
};

}  // namespace pathlab
