#pragma once
/// @file swept_check.hpp
/// Does a unit of a given size fit along a segment path? The disc of the agent's radius,
/// swept along every line and arc, is checked against the grid with the rules of
/// collision.hpp (built on segment_clear(), so "touching a wall is fine, overlapping is not").
///
/// Lines are checked exactly. Arcs are checked conservatively: each arc is cut into chords
/// whose sagitta s (the largest gap between the arc and its chord) is at most
/// `max_sagitta`, and each chord is checked with the radius grown by s. The arc lies within s
/// of its chord, so a clear answer is always right; a path that passes a wall closer than
/// s may be reported blocked. Make max_sagitta smaller for tighter answers (more chords).

#include "pathlab/collision.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

struct SweptCheckDef {
  double agent_radius = 0.0;  ///< [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  double max_sagitta = 1e-3;  ///< Largest chord-to-arc gap. [Units: cells] [Limit: > 0, finite]
};

inline SweptCheckDef default_swept_check_def() { return SweptCheckDef{}; }

struct SweptCheckResult {
  bool clear = true;
  int first_blocked_segment = -1;  ///< Index into SegmentPath::segments(), -1 when clear.
  double blocked_at_s = 0.0;       ///< Start of the first blocked piece (chord or line). [Units: cells]
};

/// Sweeps the agent's disc along `path` on `grid`. An empty path checks its start point.
Result<SweptCheckResult> check_swept_path(const Grid& grid, const SegmentPath& path,
                                          const SweptCheckDef& def = default_swept_check_def());

/// The same check with the same answer, faster: each chord and line is first tried against the
/// map's clearance field (collision.hpp), and only those it cannot decide go to the referee.
/// `field` must have been built from `grid` as it is now.
Result<SweptCheckResult> check_swept_path(const Grid& grid, const SegmentPath& path, const SweptCheckDef& def,
                                          const ClearanceField& field);

}  // namespace pathlab
