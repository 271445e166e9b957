#pragma once
/// @file directional_astar.hpp
/// Directional A* (Pinter 2001, "Toward More Realistic Pathfinding"): A* over (cell, one of 8
/// compass headings). A successor is a neighbouring cell reached along a turning-radius-legal
/// curve (the shortest Dubins curve between the two lattice poses), kept only when the unit's
/// disc swept along it stays clear of walls. The route found may differ completely from the
/// plain grid route (the article's figure 8): it only uses turns the unit can make.
///
/// The lattice: a node is the centre of a cell with heading k * 45 degrees (k = 0..7,
/// 0 = +x, 90 = +y, down the map). Start and goal poses are snapped to the centre of their
/// cell and the nearest of the 8 headings; HeadingPath::start / goal report what was used.
/// When both snap to the same lattice pose (start == goal) the path is that single pose:
/// found, length 0, no segments.
///
/// Every (start heading, cell offset, end heading) move is computed once per
/// DirectionalAStar, with the set of cells that must be free for it, so a search costs a
/// table look-up and a few cell tests per successor, like a plain grid search.

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "pathlab/dubins.hpp"
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

/// Largest turning radius the lattice planners accept. [Units: cells]
inline constexpr double kMaxTurningRadius = 1000.0;

struct DirectionalAStarOptions {
  double turning_radius = 2.0;  ///< [Units: cells] [Limit: > 0, <= kMaxTurningRadius]
  double agent_radius = 0.0;    ///< [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  /// Cells a move may reach. 0 (auto, the default): every cell within
  /// directional_auto_reach(turning_radius) of the start cell, keeping per (start heading,
  /// end heading) only moves that turn at most a quarter turn more than the heading change
  /// needs and that no chain of two shorter moves replaces (see DirectionalAStar::create).
  /// Fixed, the article's options: 4 or 8 (adjacent), 24 (5x5), 48 (7x7), every move kept; they
  /// only turn for radii up to about 2 (a 45-degree turn of radius r moves 0.71 r forward
  /// and 0.29 r sideways before it can end on a cell centre). [Limit: 0, 4, 8, 24, 48]
  int neighborhood = 0;
  /// A move may turn through at most this much in total; longer curves are loops, which a
  /// chain of shorter moves expresses better. [Units: radians] [Limit: (0, 2 pi]]
  double max_move_turn = kPi;
  bool record_trace = false;     ///< Fill HeadingPath::trace with the expanded poses.
  /// Expansion cap kept for existing callers; the search stops at the smaller of this and
  /// budget.max_expansions (0 = no limit on either). [Limit: >= 0]
  int64_t max_expansions = 4000000;
  /// Expansions, wall-clock time and a cancel flag (search_budget.hpp). When a limit stops
  /// the search, plan() returns the best partial path with found == false, partial == true.
  SearchBudget budget;
};

inline DirectionalAStarOptions default_directional_astar_options() { return DirectionalAStarOptions{}; }

/// Largest half-size of the automatic neighbourhood's square of offsets: radii above about
/// 21 cells would need more (and tens of thousands of candidate moves); use Hybrid A*.
inline constexpr int kMaxAutoReach = 32;

/// Half-size of the square of cell offsets the automatic neighbourhood searches for a unit of
/// `turning_radius`: ceil(sqrt(2) r) + 1. Why sqrt 2: the widest turn a minimal move needs is
/// a quarter turn from a diagonal heading, whose arc alone spans sqrt(2) r along one axis;
/// the + 1 lets the straight pieces before and after reach cell centres.
int directional_auto_reach(double turning_radius);

/// One precomputed move of the lattice, relative to the start cell.
struct DirectionalMove {
  int from_heading = 0;  ///< 0..7, in units of 45 degrees.
  int to_heading = 0;
  Cell offset;           ///< Target cell minus start cell.
  double length = 0.0;   ///< [Units: cells]
  DubinsSolution curve;  ///< The curve, in units of the turning radius.
  std::vector<Cell> footprint;  ///< Offsets of the cells that must be free.
  int extent = 0;               ///< Largest Chebyshev |offset| in the footprint.
};

/// Plans on one grid with fixed options; keeps its move table and buffers between queries.
/// The grid must outlive it; rebuild it after editing the grid. One per thread.
class DirectionalAStar {
 public:
  /// Checks the options and precomputes the move table. Errors name the bad option.
  static Result<DirectionalAStar> create(const Grid& grid, const DirectionalAStarOptions& options);

  /// Plans from `start` to `goal` (snapped to the lattice). Errors: a pose not finite
  /// (invalid_argument) or outside the map (out_of_bounds). No path is not an error.
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

  const std::vector<DirectionalMove>& moves() const { return moves_; }
  const DirectionalAStarOptions& options() const { return options_; }
  /// Largest |offset| (Chebyshev) a move may have: 1, 2, 3, or directional_auto_reach().
  int reach() const { return reach_; }

  /// The lattice heading index (0..7) nearest to `heading` [radians].
  static int heading_index(double heading);

 private:
  DirectionalAStar(const Grid& grid, const DirectionalAStarOptions& options) : grid_(&grid), options_(options) {}
  struct Search;  // one query's state and steps (directional_astar.cpp)
  /// Fills steps_, footprint_, pad_ and blocked_ from moves_ and grid_ (create()).
  void pack_steps();
  /// Copies the cells inside `changed` (clipped to the map) of `grid` into blocked_.
  void mend_blocked(const Grid& grid, const CellRect& changed);
  const Grid* grid_;
  DirectionalAStarOptions options_;
  int reach_ = 1;
  std::vector<DirectionalMove> moves_;
  std::vector<int> first_move_;  // moves_ sorted by from_heading: [first_move_[h], first_move_[h+1])
  /// What the search reads of a move, packed (a DirectionalMove is over 100 bytes, its
  /// footprint elsewhere on the heap): the target's offset in the padded cells and as a
  /// lattice state, and its footprint as padded offsets in footprint_.
  struct Step {
    double length = 0.0;        // [Units: cells]
    int32_t pad_offset = 0;     // target cell minus start cell in the padded cells (row-major)
    int32_t state_offset = 0;   // target state minus start state (cell index * 8 + heading)
    // footprint_[footprint_begin, footprint_begin + beyond_[beyond_begin + k + 1]) are the
    // cells of its footprint farther than k (Chebyshev) from the start cell, k = -1 .. extent - 1.
    int32_t footprint_begin = 0, beyond_begin = 0;
    int32_t extent = 0;         // DirectionalMove::extent
    int16_t dx = 0, dy = 0;     // DirectionalMove::offset [Units: cells]
  };
  std::vector<Step> steps_;          // one per moves_ entry, in the same order
  std::vector<int32_t> footprint_;   // every move's footprint, as offsets in the padded cells, farthest first
  std::vector<int32_t> beyond_;      // per move and ring k: how many of its cells lie beyond k (see Step)
  // The factor the goal distance is scaled by in the heuristic: the largest that keeps it
  // consistent for moves_ (field_scale() in directional_astar.cpp).
  double field_scale_ = 1.0;
  int pad_ = 0;                      // blocked border width of the padded cells [Units: cells]
  /// The grid's cells with a border of pad_ blocked cells (1 blocked, 0 free; row-major,
  /// (w + 2 pad) x (h + 2 pad)): a move's target and footprint need no bounds tests. Shared by
  /// copies of the planner, as the other tables edited() mends.
  std::shared_ptr<std::vector<uint8_t>> blocked_;
  /// Per lattice state (the 8 headings of a cell adjacent, one cache line): the cost from the
  /// start [Units: cells], +infinity when not reached; a closed state's is negated (its sign
  /// bit set, -0.0 for the start), so a successor's test `ng < g` reads this one value and
  /// fails on a closed state. The test is most of an expansion's time (a cache miss in a
  /// table of 4 MB on 256 x 256, where one record with the rest was 12 MB, three lines a cell).
  std::vector<double> g_;
  /// The rest of a state's record, read and written only when its g improves.
  struct State {
    // The heuristic, worked out once per query (-1: not yet): a state is pushed again each
    // time its g improves, and its heuristic (a Dubins length near the goal) was 40% of a query.
    double h = -1.0;
    int32_t parent_move = -1;
  };
  std::vector<State> states_;
  // The states whose record the last query set: the next one resets only these (directional_astar.cpp).
  std::vector<int64_t> touched_;
  /// An open-list entry: f = g + heuristic and g [Units: cells], the lattice state.
  struct OpenItem {
    double f, g;
    int64_t node;
  };
  /// The open list's storage, kept between queries (a query's pushes would otherwise allocate
  /// each bucket anew): the entries of the f bucket being taken, as a binary heap, and the later
  /// buckets (directional_astar.cpp, OpenList).
  std::vector<OpenItem> open_heap_;
  std::vector<std::vector<OpenItem>> open_buckets_;
  // The obstacle-aware 2D distance to the goal, settled lazily per query (heading_internal.hpp);
  // its memory is kept between queries. Copies of the planner share it: one planner per thread.
  std::shared_ptr<detail::GoalDistance> field_;
  // Its clearance rings let a search skip the footprint test where every move fits.
  std::shared_ptr<detail::SegmentChecker> checker_;
};

}  // namespace pathlab
