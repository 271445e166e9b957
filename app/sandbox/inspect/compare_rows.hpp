#pragma once
// Compare mode's rows: one per planner of the registry, what each produced, whether that path
// is one the unit could use (from the plan result, never from a planner's name), and the
// ranking that puts usable rows first and never calls an unusable one best. No drawing here:
// the table and the map (compare.cpp) show what these functions decide, and tests call them
// directly.

#include <imgui.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/io/scene_file.hpp"
#include "planning/plan_pipeline.hpp"

namespace pathlab::sandbox {

/// One planner of compare mode, its smoother and what it produced.
struct CompareRun {
  std::string planner;   ///< a registry planner name
  std::string smoother;  ///< the smoother it runs with (the pick, else the scene's, else the default)
  /// The smoother the user picked for this row; "" = automatic (row_smoother()).
  std::string smoother_pick;
  ImU32 colour = 0;
  bool enabled = false;
  PlanView view;           ///< view.valid: planned with the current scene (false while waiting)
  double clearance = 0.0;  ///< smallest distance from the path to a wall [cells], capped at kClearanceCap
};

/// What a row's result is worth, in ranking order of the invalid kinds.
enum class RowVerdict {
  valid,            ///< found, clear of walls, within the turning radius where it claims to be
  through_wall,     ///< the unit's disc overlaps a wall somewhere along the path
  too_tight,        ///< an exact curve turns tighter than 1 / turning radius
  smoother_failed,  ///< the turning smoother could not make the path drivable (the raw path is left)
  ignores_turning,  ///< a polyline under vehicle rules: it ignores headings and the turning radius
  no_path,          ///< not found, or planning could not run
  pending,          ///< ticked, not planned yet
  off,              ///< not ticked
};

struct RowCheck {
  RowVerdict verdict = RowVerdict::off;
  std::string reason;  ///< why the row is invalid (for the table), "" when valid
  std::string note;    ///< something to know that does not make it invalid ("ignores the turning radius")
  bool valid() const { return verdict == RowVerdict::valid; }
  /// A planned, ticked row that may not be used.
  bool invalid() const { return verdict != RowVerdict::valid && verdict != RowVerdict::pending && verdict != RowVerdict::off; }
};

/// The rules a row is held to: the scene's turning radius, and whether paths that ignore it
/// (polylines: grid and navmesh planners without a turning smoother) are invalid.
struct CompareRules {
  double turning_radius = 0.0;  ///< [cells]; 0 = no vehicle limit
  bool vehicle = false;         ///< hold polylines to the vehicle's rules too
};

/// Classifies one row's result: off, pending, no path, through a wall (the service's referee:
/// curve_blocked_at on exact curves, blocked_segment on polylines), a failed turning smoother,
/// an exact curve tighter than the turning radius beyond plan::kTurningRadiusTolerance, a
/// polyline under vehicle rules; else valid (a polyline's ignored turning radius as a note).
RowCheck check_row(const CompareRun& row, const CompareRules& rules);

/// Rows in the order the table lists them, and the best row.
struct CompareRanking {
  std::vector<size_t> order;  ///< valid by length (shortest first), then invalid, pending, off
  std::optional<size_t> best;  ///< the shortest valid row; none when no row is valid
  std::vector<RowCheck> checks;  ///< per row (same index as the input)
  /// Place of each row among the valid ones (1 = best), 0 for a row that is not valid.
  std::vector<int> rank;
};

/// Ranks rows by length among the valid ones. Equal lengths keep registry order, so the same
/// results always give the same table. An invalid row is never best, however short.
CompareRanking rank_rows(const std::vector<CompareRun>& rows, const CompareRules& rules);

/// One row per registry planner, in menu order, with its colour; the default ticked set (a
/// grid, an any-angle, the navmesh, both heading planners and a curve planner) is on.
std::vector<CompareRun> compare_rows_from_registry();

/// The smoother a row runs with: its pick when that follows the planner, else the scene's
/// smoother when the row's planner is of the scene planner's family, else the family's default.
std::string row_smoother(const CompareRun& row, const io::PlanSettingsData& scene);

}  // namespace pathlab::sandbox
