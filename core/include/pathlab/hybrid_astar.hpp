#pragma once
/// @file hybrid_astar.hpp
/// Hybrid A* (Dolgov et al. 2008, the modern form of Pinter's 2001 Directional A*): a search
/// over continuous poses whose closed set is binned by cell and heading.
///
/// - Motion primitives: straight, full left and full right arcs of the turning radius, each
///   long enough to leave the cell (>= sqrt 2) and turning by a whole number of heading
///   bins, so successors of a pose on a bin stay on bins. With `allow_reverse` the same
///   three are driven backwards too, their length multiplied by `reverse_penalty`, and
///   every change of gear adds `gear_change_penalty`.
/// - Analytic expansion: from expanded poses the planner tries to finish with the shortest
///   Dubins curve and, with reverse allowed, the shortest Reeds-Shepp curve to the exact goal
///   pose; it tries every `h / analytic_ratio` expansions, so more often near the goal, and
///   within `4 r` of the goal it also tries the other Dubins words. It finishes with the
///   cheapest clear one by cost (reverse and gear-change penalties included, as the search
///   counts them), not the shortest: the shortest Reeds-Shepp curve is often a long straight
///   reverse costing twice its length, and taking it first made the search reverse where
///   driving forward was cheaper (bench_vehicle_paths, the search alone: 26-35 cusps in 50 queries
///   per map before, 11-22 after). A finishing curve that would leave a gear segment shorter than
///   `min_gear_length` is passed over.
/// - Heuristic: the larger of the obstacle-aware 2D distance (Dijkstra from the goal cell
///   over the cells the unit's centre can be in) and the obstacle-free Dubins / Reeds-Shepp
///   length. The first is not strictly admissible (grid distances overestimate straight
///   lines by up to 8%), so, as every Hybrid A*, the path is legal but not guaranteed
///   shortest.
///
/// The path (lines and arcs with gear) is exactly legal: curvature is 0 or +-1/r
/// everywhere, it starts exactly at the start pose and ends exactly at the goal pose, and
/// the unit's disc swept along it passes check_swept_path() (arcs are checked with a
/// margin of 2e-3 cells on top of their chord approximation). A goal pose equal to the start
/// pose is found at once: the single pose, length 0, no segments.

#include <cstdint>
#include <memory>
#include <vector>

#include "pathlab/grid.hpp"
#include "pathlab/grid_search.hpp"  // CellRect
#include "pathlab/heading_path.hpp"
#include "pathlab/search_budget.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

namespace detail {
class SegmentChecker;
class GoalDistance;
}

struct HybridAStarOptions {
  double turning_radius = 4.0;  ///< [Units: cells] [Limit: > 0, <= 1000]
  double agent_radius = 0.0;    ///< [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  int heading_bins = 72;        ///< Heading resolution of the closed set. [Limit: 8 .. 720]
  bool allow_reverse = false;   ///< Reverse primitives and Reeds-Shepp analytic expansion.
  double reverse_penalty = 2.0;      ///< Cost multiplier on reversed length. [Limit: >= 1, finite]
  double gear_change_penalty = 2.0;  ///< Cost added per change of gear. [Units: cells] [Limit: >= 0, finite]
  /// A finishing curve may not make a gear segment shorter than this where the path changes
  /// gear (no 0.3-cell reversals inside a Reeds-Shepp word): the whole run it belongs to counts,
  /// primitives before it included. A path in one gear throughout may be shorter. Runs of the
  /// search's own primitives are at least one primitive long (primitive_length(): 1.5 cells or
  /// more unless a quarter turn of the radius is shorter). [Units: cells] [Limit: >= 0, finite]
  double min_gear_length = 1.0;
  /// Analytic expansion is tried every max(1, h / analytic_ratio) expansions, h the
  /// heuristic of the pose just expanded. [Units: cells] [Limit: > 0, finite]
  double analytic_ratio = 3.5;
  /// 0: the analytic expansion finishes with Dubins / Reeds-Shepp curves. > 0: with CC-Dubins
  /// / CC-Reeds-Shepp curves of this sharpness (cc_curves.hpp), so the finishing curve's
  /// curvature changes continuously (the arc primitives before it still switch at once).
  /// [Units: 1/cells^2] [Limit: 0, or check_cc_sharpness(turning_radius, .)]
  double cc_sharpness = 0.0;
  bool record_trace = false;         ///< Fill HeadingPath::trace with the expanded poses.
  /// Expansion cap kept for existing callers; the search stops at the smaller of this and
  /// budget.max_expansions (0 = no limit on either). [Limit: >= 0]
  int64_t max_expansions = 200000;
  /// Expansions, wall-clock time and a cancel flag (search_budget.hpp). When a limit stops
  /// the search, plan() returns the best partial path with found == false, partial == true.
  SearchBudget budget;
};

inline HybridAStarOptions default_hybrid_astar_options() { return HybridAStarOptions{}; }

/// Plans on one grid with fixed options; keeps its buffers between queries (about 100 bytes per
/// pose the last query generated). The grid must outlive it; rebuild it after editing the
/// grid. One per thread.
class HybridAStar {
 public:
  /// Checks the options (errors name the option) and the table size (too_large).
  static Result<HybridAStar> create(const Grid& grid, const HybridAStarOptions& options);

  /// Plans from `start` to `goal`. Errors: a pose not finite (invalid_argument) or outside
  /// the map (out_of_bounds). No path is not an error: found == false with a reason.
  Result<HeadingPath> plan(const Pose& start, const Pose& goal);
  /// Replaces the budget of the next plans (time, cancel flag, expansions) without rebuilding
  /// the tables: a caller that plans many queries with one planner gives each its own budget.
  void set_budget(const SearchBudget& budget) { options_.budget = budget; }
  /// The cells inside `changed` of `grid` (the map the planner was made for, edited in place,
  /// or a copy of it) changed; the next plans use `grid`. Mends the clearance tables and the
  /// goal distance field where the change reaches instead of building them anew: the plans
  /// then equal a fresh planner's. Copies of the planner share these tables and see the edit.
  /// Errors: a grid of another size, `changed` empty or outside the map (nothing changed).
  Status edited(const Grid& grid, const CellRect& changed);

  const HybridAStarOptions& options() const { return options_; }
  /// Length of every motion primitive. [Units: cells]
  double primitive_length() const { return step_; }
  /// Heading change of a turning primitive, a whole number of bins. [Units: radians]
  double primitive_turn() const { return turn_; }

 private:
  HybridAStar(const Grid& grid, const HybridAStarOptions& options) : grid_(&grid), options_(options) {}
  struct Search;  // one query's state and steps (hybrid_astar.cpp)
  struct Node {
    Pose pose;
    double g = 0.0;
    int32_t parent = -1;
    int32_t key = 0;
    int8_t steer = 0;
    int8_t gear = 0;  // +1 forward, -1 reverse, 0 for the start
    bool closed = false;
  };
  const Grid* grid_;
  HybridAStarOptions options_;
  double step_ = 0.0;
  double turn_ = 0.0;
  // The closed set: pose bin key -> index into nodes_, open addressing with linear probing
  // (hybrid_astar.cpp). Sized to the nodes of a query rather than one slot per bin of the map
  // (cells x heading_bins, 19 MB on 256 x 256 x 72), so its lookups stay in the cache.
  struct Slot {
    int32_t key = -1;  // -1: empty
    int32_t node = -1;
  };
  std::vector<Slot> slots_;  // a power of two long
  size_t used_ = 0;          // slots with a key
  std::vector<Node> nodes_;
  // The obstacle-aware 2D distance to the goal, settled lazily per query (heading_internal.hpp);
  // its memory is kept between queries. Copies of the planner share it: one planner per thread.
  std::shared_ptr<detail::GoalDistance> field_;
  std::shared_ptr<detail::SegmentChecker> checker_;
};

}  // namespace pathlab
