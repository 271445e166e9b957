#pragma once
/// @file flow_field.hpp
/// Flow fields: one distance field from a goal over the whole grid, shared by every unit that
/// goes there, instead of one route search per unit (Emerson, "Crowd Pathfinding and Steering
/// Using Flow Field Tiles", Game AI Pro, 2013; Treuille, Cooper and Popovic, "Continuum
/// Crowds", 2006, for the continuum view of a crowd following the gradient of one potential).
///
/// The field holds, for every cell, the weighted cost of the cheapest 8-connected path from the
/// cell's centre to the centre of the nearest goal cell: octile steps, a step between two cells
/// costing its length times the mean of their cost multipliers (grid.hpp), no corner cutting (a
/// diagonal step needs both orthogonal neighbours passable), and the agent radius's clearance
/// (a cell is passable when a disc of the radius around its centre is clear: passable_cells()).
/// These are exactly the costs of GridPlanner::dijkstra with the same radius, from any cell to
/// the goal. Each cell also knows its next cell downhill (the neighbour its cost comes through).
///
/// A unit reads the field where it stands: direction() aims at the farthest cell of the way
/// downhill within sight_range that it can see for its radius (line-of-sight smoothing, so it
/// does not zig-zag along the field's eight directions); route() gives the whole way to the
/// goal as a polyline with the same smoothing.
///
/// When cells of the map change (a painted wall, a door), update() repairs the field where the
/// change matters: the cells whose way downhill ran through a changed cell, plus those that a
/// changed cell makes cheaper, are searched again from the unchanged cells around them
/// (Ramalingam and Reps, "An incremental algorithm for a generalization of the shortest-path
/// problem", 1996: the same distances as a rebuild). The other cells keep their values.
///
/// Deterministic: ties are broken by cell index, so the same grid and goals give the same bytes.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Settings of a flow field. Start from default_flow_field_def().
struct FlowFieldDef {
  /// Clearance of the units that read the field: a cell is passable when a disc of this radius
  /// around its centre is clear of walls (for radius <= 0.5: when the cell is free).
  /// [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  double agent_radius = 0.0;
  /// How far along the way downhill direction() and route() look for a point in straight
  /// sight: the longer, the straighter a unit steered by direction() walks in the open (24: a
  /// walk 0.4% longer than the straight line where the field's staircase is 8% longer; 12:
  /// 2.3%), the more cells a reading visits. [Units: cells] [Limit: 1 .. 256]
  double sight_range = 24.0;
  /// Off (the grid searches' line-of-sight smoother): direction() and route() shortcut along
  /// any clear segment. On: a shortcut must not run through a cell dearer than both its ends,
  /// so a way the costs keep out of a band (a crowd's discomfort beside walls: Treuille, Cooper
  /// and Popovic 2006) is not pulled back into it by the smoothing (the any-angle view of
  /// weighted grids in Nash, Daniel, Koenig and Felner, "Theta*: Any-Angle Path Planning on
  /// Grids", 2007).
  bool sight_within_costs = false;
};

inline FlowFieldDef default_flow_field_def() { return FlowFieldDef{}; }

/// What one update() did.
struct FlowFieldUpdate {
  int64_t changed_cells = 0;  ///< Cells whose passability or cost changed.
  /// Cells whose cost was searched again (a rebuild touches every reachable cell).
  int64_t touched_cells = 0;
};

class FlowField {
 public:
  FlowField() = default;

  /// Builds the field towards `goals` on `grid`. Errors: no goal, a goal outside the map, a bad
  /// radius or sight range (naming it). Goal cells that are not passable for the radius are left
  /// out; with none passable every cell is unreachable (not an error: no path).
  /// [Limit: at most kMaxGridCells goals]
  static Result<FlowField> build(const Grid& grid, std::span<const Cell> goals,
                                 const FlowFieldDef& def = default_flow_field_def());

  /// Repairs the field after the cells `changed` of `grid` changed (their cost or wall; cells
  /// that did not change may be listed too). `grid` must be the map the field was built on, as
  /// it is now. Afterwards distance() equals a rebuild's. Errors: a grid of another size, a
  /// cell outside the map (the field is unchanged then).
  Result<FlowFieldUpdate> update(const Grid& grid, std::span<const Cell> changed);

  /// update() in pieces, so a repair can be spread over several calls (a crowd's steps, on a
  /// copy of the field while units read the original): sets the cells `changed` of `grid` as
  /// update() does and leaves the rest (dropping the costs that depend on them, searching them
  /// again) to continue_update(). Returns the cells whose passability or cost changed. Until
  /// update_done(), the field's readings are those of a field half repaired. The pieces give
  /// the same bytes as update(), however the budgets split them. Errors: as update()'s (the
  /// field is unchanged then).
  Result<int64_t> begin_update(const Grid& grid, std::span<const Cell> changed);
  /// Goes on with the repair begun by begin_update() for at most about `budget` cells' work (a
  /// cell dropped, seeded or taken from the search's queue counts 1); returns the work done (0
  /// when none is left). [Limit: budget >= 1]
  int64_t continue_update(int64_t budget);
  /// Whether no repair is under way.
  bool update_done() const noexcept { return open_.empty() && lost_.empty(); }

  int width() const noexcept { return width_; }    ///< [Units: cells]
  int height() const noexcept { return height_; }  ///< [Units: cells]
  const FlowFieldDef& def() const noexcept { return def_; }
  const std::vector<Cell>& goals() const noexcept { return goals_; }

  /// Weighted cost from the centre of `c` to the nearest goal; infinity where no way leads
  /// there, in a cell that is not passable and outside the map. [Units: cells x cost]
  double distance(Cell c) const noexcept;
  bool reachable(Cell c) const noexcept;
  /// Whether a disc of the field's radius fits around the centre of `c` (false outside the map).
  bool passable(Cell c) const noexcept;
  /// The next cell downhill (cost(c) = cost(next) + the step's cost); `c` itself at a goal or
  /// where the goal is unreachable.
  Cell next_cell(Cell c) const noexcept;
  /// The cells from `c` downhill to a goal, `c` first and the goal last; empty when `c` is
  /// unreachable.
  std::vector<Cell> descent(Cell c) const;

  /// The direction a unit of `radius` at `p` should go: the unit vector towards the farthest
  /// cell centre of the way downhill from p's cell within sight_range that is in straight sight
  /// (segment_clear for `radius`), or towards the next cell when none is; zero at a goal cell
  /// or where the goal is unreachable. Never into a wall cell when p is clear for `radius`
  /// and `radius` is at most the field's. `grid` is the map the field is kept for.
  /// [Units: cells] [Limit: radius 0 .. kMaxAgentRadius]
  Vec2 direction(const Grid& grid, Vec2 p, double radius) const;

  /// The way from `from` downhill to the goal, then to `to` (a point near the goal), string
  /// pulled by line of sight for `radius`: `from` first, then the corners of the way, `to` last
  /// when it is in straight sight of a corner near the end (else the route ends at the goal
  /// cell's centre). Segments are clear for `radius` (segment_clear) when `radius` is at most
  /// the field's. Empty when no way leads from `from` (its cell, or a neighbour in sight).
  /// [Units: cells] [Limit: radius 0 .. kMaxAgentRadius]
  std::vector<Vec2> route(const Grid& grid, Vec2 from, Vec2 to, double radius) const;

  /// Heap bytes the field holds. [Units: bytes]
  size_t memory_bytes() const noexcept;

 private:
  int64_t index(Cell c) const noexcept { return static_cast<int64_t>(c.y) * width_ + c.x; }
  bool in_bounds(Cell c) const noexcept { return c.x >= 0 && c.y >= 0 && c.x < width_ && c.y < height_; }
  /// Whether the step from passable cell c in direction k (flow_field_steps.hpp) stays on
  /// passable cells without cutting a corner.
  bool step_allowed(Cell c, int k) const noexcept;
  /// Dijkstra from `seeds` (cells whose cost is set), lowering costs; counts pops in `touched`.
  void search(const std::vector<int64_t>& seeds, int64_t* touched);
  /// Puts `seeds` in the search's queue open_.
  void seed(const std::vector<int64_t>& seeds);
  /// Puts cell i in open_ with its cost.
  void push_open(int64_t i);
  /// Runs the search on open_ for at most `budget` entries taken from it (returned), counting
  /// in `touched` those that were not stale.
  int64_t search_some(int64_t budget, int64_t* touched);
  /// The checks and first part of update(): the cells whose cost changed set, the first cells
  /// to drop found (invalidate). A repair under way is finished first.
  Result<FlowFieldUpdate> start_update(const Grid& grid, std::span<const Cell> changed);
  /// The rest of a repair, for at most about `budget` cells' work (returned): drop_next() until
  /// every lost cell is dropped, seed_next() for each, then the search.
  int64_t repair_some(int64_t budget, int64_t* touched);
  Cell cell_at(int64_t i) const noexcept { return Cell{static_cast<int>(i % width_), static_cast<int>(i / width_)}; }
  /// Sets cost_ of the cells [lo, hi] from `grid` (clipped to the map), adding those that
  /// changed to `changed`.
  void set_passability(const Grid& grid, Cell lo, Cell hi, std::vector<int64_t>* changed);
  /// Starts dropping the costs of the cells `changed` and of those whose way downhill needs them
  /// (lost_): the changed cells and those whose diagonal step passes beside one.
  void invalidate(const std::vector<int64_t>& changed);
  /// Adds cell i to lost_ unless it is there.
  void lose(int64_t i);
  /// Drops the next lost cell's cost, adding the cells whose way runs into it to lost_.
  void drop_next();
  /// Seeds the search from around the next dropped cell: a goal at 0, its neighbours that kept their cost.
  void seed_next();
  /// Whether q is in straight sight of p for `radius` (segment_clear), and with
  /// FlowFieldDef::sight_within_costs no cell on the segment costs more than both its ends.
  bool in_sight(const Grid& grid, Vec2 p, Vec2 q, double radius) const;
  /// The highest cost multiplier of the cells the segment p-q runs through (a cell walk).
  float highest_cost_on(Vec2 p, Vec2 q) const noexcept;
  /// The index of a point of `way` at or after `first` in straight sight of p for `radius`,
  /// as far along as a galloping then halving probe finds; `first` when none is.
  size_t farthest_in_sight(const Grid& grid, Vec2 p, const std::vector<Vec2>& way, size_t first, double radius) const;
  /// The reachable cell a unit at p starts downhill from: p's own, else the neighbour with the
  /// lowest cost in straight sight of p; none: p itself (unreachable).
  Cell entry_cell(const Grid& grid, Vec2 p, double radius) const;

  int width_ = 0, height_ = 0;
  FlowFieldDef def_;
  std::vector<Cell> goals_;
  std::vector<double> dist_;    ///< Per cell, row-major. [Units: cells x cost]
  std::vector<float> cost_;     ///< Per cell: the cost multiplier, kBlocked where not passable for the radius.
  std::vector<uint8_t> next_;   ///< Per cell: the direction downhill (0..7), kNone at a goal or unreachable.
  std::vector<uint8_t> is_goal_;
  /// The search's queue while a repair is under way (a binary heap ordered by (cost, cell)):
  /// empty otherwise. [Units: cells x cost, cell index]
  std::vector<std::pair<double, int64_t>> open_;
  // While a repair drops costs (empty otherwise): per cell 1 if lost, 2 if seeded; the lost
  // cells in the order found; the first not yet dropped and the first not yet seeded from.
  std::vector<uint8_t> bad_;
  std::vector<int64_t> lost_;
  size_t lost_next_ = 0, seed_next_ = 0;
};

}  // namespace pathlab
