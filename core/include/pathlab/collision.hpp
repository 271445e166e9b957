#pragma once
/// @file collision.hpp
/// What "through a wall" means, for every planner and smoother.
///
/// A path of radius 0 may run along the edge of a blocked cell but never enter one, and
/// never pass through a point where two blocked cells touch only at their corners (the
/// Moving AI rule, extended to any-angle paths). The map's outside counts as blocked.
/// For an agent of radius a > 0 the disc swept along the path must not overlap the
/// interior of any blocked cell: touching is allowed, overlapping by more than
/// kClearanceTolerance is not.

#include <cstdint>
#include <span>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Slack allowed when comparing distances to walls. [Units: cells]
inline constexpr double kClearanceTolerance = 1e-9;

/// Largest agent radius the core accepts. [Units: cells]
inline constexpr double kMaxAgentRadius = 64.0;

/// The one check of an agent radius [Units: cells], shared by every planner, smoother and
/// mesh builder: ok for a number in [0, kMaxAgentRadius], else invalid_argument with the
/// message "agent radius must be in [0, 64] cells, got <radius>" (NaN is rejected too).
Status check_agent_radius(double radius);

/// True when a point (radius 0) or a disc of `radius` around it is in free space.
bool point_clear(const Grid& grid, Vec2 p, double radius = 0.0);

/// True when the straight segment a-b is in free space for an agent of `radius` [Units: cells].
/// Non-finite input is never clear.
bool segment_clear(const Grid& grid, Vec2 a, Vec2 b, double radius = 0.0);

/// True when every segment of the polyline is clear (a single point is checked as a point).
bool polyline_clear(const Grid& grid, std::span<const Vec2> points, double radius = 0.0);

/// Index of the first segment i (points[i] -> points[i+1]) that is not clear, or -1.
int first_blocked_segment(const Grid& grid, std::span<const Vec2> points, double radius = 0.0);

/// Weighted cost of a straight segment: the integral of the cell cost multipliers along it
/// (where it runs along a cell edge, the cheaper side counts). Infinity when it is not clear
/// at radius 0. [Units: cells x cost]
double segment_cost(const Grid& grid, Vec2 a, Vec2 b);

/// Exact line of sight between two cell centres for radius 0, in integer arithmetic.
/// Returns the weighted cost of the straight segment, or a negative value when blocked.
/// `free(x, y)` and `cost(x, y)` come from the grid; out-of-bounds is blocked.
double center_line_cost(const Grid& grid, Cell a, Cell b);

/// Shortest distance between segment a-b and the closed box [lo, hi]. 0 when they meet.
double segment_box_distance(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi);

/// Distances to the walls, kept per map so that most checks of a disc against the grid are one
/// lookup instead of a scan of the cells around it. Built once per map (it does not depend on
/// the agent's radius); after editing the grid, update() mends it where the edit reaches.
///
/// It stores the exact distance to the nearest blocked cell or the map's outside (capped at
/// kReach + 0.5 cells) at every half cell (cell centres, corners and edge midpoints: (2 w + 1)
/// x (2 h + 1) floats), so for any point p and its nearest sample s, by the triangle inequality,
/// stored - |p - s| <= distance(p, walls) <= stored + |p - s| (the upper bound only below the
/// cap; 0 when p is inside walls). |p - s| is at most 0.36 cells, half of what it was with one
/// sample per cell centre: the bounds decide most checks near walls that the looser ones left
/// to the referee (bench_vehicle_replan: the smoother's word tracing and the planners'
/// primitives). The checks below answer from these bounds when they decide the question with a
/// margin of kMargin, and else ask the referee (the functions above): they always give the
/// referee's answer, only faster.
class ClearanceField {
 public:
  /// Distances are exact up to this many cells from a wall. [Units: cells]
  static constexpr int kReach = 6;
  /// Slack on both bounds for the float storage and rounding. [Units: cells]
  static constexpr double kMargin = 1e-5;

  ClearanceField() = default;
  explicit ClearanceField(const Grid& grid);

  /// The cells inside `changed` of `grid` may differ from the grid the field was built from;
  /// every cell outside it must not. Recomputes only the samples those cells can reach (the
  /// rectangle grown by kReach + 2 cells): the field then equals ClearanceField(grid) sample
  /// for sample. `changed` is clipped to the map. [Units: cells]
  /// Errors: a grid of another size or `changed` empty (invalid_argument), `changed` wholly
  /// outside the map (out_of_bounds). On error the field is unchanged.
  Status update(const Grid& grid, const CellRect& changed);
  /// The stored distance of every half-cell sample, row-major, (2 w + 1) x (2 h + 1) (for
  /// tests comparing fields). [Units: cells]
  const std::vector<float>& samples() const noexcept { return dist_; }

  /// True when built for a grid of this size (the cells themselves are the caller's promise).
  bool fits(const Grid& grid) const { return width_ == grid.width() && height_ == grid.height() && width_ > 0; }
  /// A lower bound of the distance from p to the nearest wall (<= 0 inside a wall or outside
  /// the map). [Units: cells]
  double lower_bound(Vec2 p) const;
  /// An upper bound of the same distance (+infinity where the field is capped). [Units: cells]
  double upper_bound(Vec2 p) const;
  /// Both bounds from one lookup, each the very value of the function above. [Units: cells]
  struct Bounds {
    double lower = -1.0, upper = 0.0;
  };
  Bounds bounds(Vec2 p) const;
  /// A lower bound of the same distance, never below lower_bound(p): the largest of the four
  /// samples around p, each its stored distance less p's distance from it (the distance to the
  /// walls changes by at most the distance moved). lower_bound() reads the nearest sample only,
  /// which beside a wall may lie on the wall's side of p: it is then up to about 0.7 cells low,
  /// and a point a cell from a wall may not be shown clear of a 0.3-cell disc (on random maps
  /// the mean shortfall was 0.19 cells, with four samples 0.06). Four lookups instead of one.
  /// (-1 outside the map.) [Units: cells]
  double fine_lower_bound(Vec2 p) const;
  /// lower_bound(p) when it reaches `want` (one lookup: enough away from walls), else the larger
  /// of it and fine_lower_bound(p). [Units: cells]
  double lower_bound_for(Vec2 p, double want) const;

 private:
  /// Computes the samples [sx0, sx1] x [sy0, sy1] (inclusive) from the grid.
  void fill(const Grid& grid, int sx0, int sy0, int sx1, int sy1);
  int width_ = 0, height_ = 0;
  std::vector<float> dist_;  // row-major, (2 w + 1) x (2 h + 1) samples at every half cell
};

/// point_clear() answered from the field where it decides with a margin, else by the referee.
bool point_clear(const Grid& grid, const ClearanceField& field, Vec2 p, double radius);

/// segment_clear() for radius > 0, the same answer, answered from the field where it can: the
/// segment is covered by discs that the lower bound shows clear (sphere tracing), or an end
/// point is shown blocked; otherwise the referee decides.
bool segment_clear(const Grid& grid, const ClearanceField& field, Vec2 a, Vec2 b, double radius);
/// The same, the same answer, stepping by fine_lower_bound() where lower_bound() leaves no room:
/// the referee asked far less within a cell or so of a wall, for four lookups more there. The
/// vehicle smoother's swept check uses it, whose connections graze walls; the planners' arc
/// check, most of whose pieces lie in the open, keeps segment_clear().
bool segment_clear_fine(const Grid& grid, const ClearanceField& field, Vec2 a, Vec2 b, double radius);

/// For each cell (row-major), 1 when a disc of `radius` centred on the cell centre fits in free
/// space, else 0. For radius <= 0.5 this is exactly "the cell is free".
std::vector<uint8_t> passable_cells(const Grid& grid, double radius);

}  // namespace pathlab
