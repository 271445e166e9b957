#pragma once
/// @file grid_search.hpp
/// Grid searches: A*, Dijkstra, jump point search (JPS, Harabor and Grastien 2011) and Theta*
/// (Nash, Daniel, Koenig and Felner 2007).
///
/// All searches plan from the centre of the start cell to the centre of the goal cell. Start
/// cell == goal cell gives that one cell: found, one point, length 0, nothing expanded.
/// 8-connected moves never cut corners: a diagonal step needs both orthogonal
/// neighbours passable (the Moving AI benchmark rule). For an agent radius above 0.5
/// a cell is passable only when a disc of that radius around its centre is clear of
/// walls; with that rule every step between passable cells is itself clear.
///
/// Each search returns its waypoints, geometric length, weighted cost, nodes expanded,
/// and, on request, the order in which nodes were opened and closed, for replay.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/search_budget.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

enum class Connectivity : uint8_t { four = 4, eight = 8 };

enum class GridPlanner : uint8_t {
  astar,     ///< A* with the octile (or Manhattan) heuristic; optimal.
  dijkstra,  ///< Uniform-cost search; optimal, the reference for tests.
  jps,       ///< Jump point search: optimal on 8-connected uniform-cost grids, far fewer expansions.
  theta,     ///< Theta*: any-angle paths between cell centres, never longer than the octile optimum.
};

/// Parses "astar", "dijkstra", "jps", "theta".
Result<GridPlanner> parse_grid_planner(const std::string& name);
const char* to_string(GridPlanner planner) noexcept;

/// Default memory cap of one grid search: its per-state records (20 bytes a state: a cell, or
/// a cell and incoming direction with a turn penalty, 9 a cell), the padded grid's flags and the
/// copy of the costs it was built from (5 bytes a cell; 9 with the multipliers of a map with
/// terrain costs), JPS's closed set (0.19 bytes a cell) and its jump tables (8 bytes a cell).
/// 1 GiB: plain A* and Dijkstra up to about 43 million cells, with a turn penalty about 5.8
/// million, JPS's tables up to about 32 million (above that JPS jumps by blocks). [Units: bytes]
inline constexpr int64_t kDefaultGridSearchMemory = int64_t{1} << 30;

/// Where JPS reads the goal-free jump of a cell in a direction. Every choice gives the same
/// search (the same paths, lengths and expansions); they differ in set-up and memory.
enum class JpsJumps : uint8_t {
  /// Block-based jumping on a fresh or reset map, the jump tables once the block-jumping
  /// queries since then have expanded about a quarter as many nodes as the map has cells
  /// (about what building the tables costs), so a first query never waits for them.
  automatic,
  /// Block-based jumping only (Harabor and Grastien 2014, "Improving Jump Point Search"): the
  /// passability bits (1/4 byte a cell), never the tables.
  blocks,
  /// The jump tables (JPS+, 8 bytes a cell: a jump longer than 126 cells is read in pieces),
  /// built on the first query.
  tables,
};

/// Search parameters. Start from default_grid_search_options().
struct GridSearchOptions {
  Connectivity connectivity = Connectivity::eight;  ///< JPS and Theta* need eight.
  /// Extra cost for each change of direction, as a fraction of the step's cost
  /// (0.5 = the "half the normal cost of the step" rule of thumb). A* and Dijkstra only.
  /// [Limit: >= 0, finite]
  double turn_penalty = 0.0;
  double agent_radius = 0.0;  ///< [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  bool record_trace = false;  ///< Fill GridPath::trace with the open/close order.
  int64_t max_expansions = 0; ///< Give up after this many expansions; 0 = no limit. (Kept for
                              ///< callers that predate `budget`; the smaller non-zero limit wins.)
  SearchBudget budget;        ///< Expansions, wall-clock time and a cancel flag (search_budget.hpp).
  /// Memory the search may allocate (see kDefaultGridSearchMemory); above it the search does not
  /// start and says so (kDetailBudgetExhausted | kDetailMemoryCap). 0 = no limit. [Units: bytes] [Limit: >= 0]
  int64_t max_memory_bytes = kDefaultGridSearchMemory;
  JpsJumps jps_jumps = JpsJumps::automatic;  ///< JPS's jump source (same answers; see JpsJumps).
};

inline GridSearchOptions default_grid_search_options() { return GridSearchOptions{}; }

/// One step of a search's history.
struct TraceEvent {
  enum Kind : uint8_t { open = 0, close = 1 };
  Cell cell;
  Kind kind = open;
  float g = 0.0f;  ///< Cost from the start when the event happened.
  float f = 0.0f;  ///< g plus the heuristic.
};

/// Detail bits of a GridPath.
enum GridPathDetail : uint32_t {
  kDetailCostsIgnored = 1u << 0,      ///< JPS treated every passable cell as cost 1.
  kDetailBudgetExhausted = 1u << 1,   ///< A budget (expansions, time, cancel, memory) stopped the search.
  kDetailMemoryCap = 1u << 2,         ///< The search would need more than max_memory_bytes: not run.
  kDetailJpsAsAstar = 1u << 3,        ///< JPS's jump tables would exceed max_memory_bytes: A* answered.
};

struct GridPath {
  bool found = false;
  std::vector<Cell> cells;   ///< Waypoints. Consecutive ones are adjacent for A*/Dijkstra, further apart for JPS/Theta*.
  std::vector<Vec2> points;  ///< The waypoints' cell centres. [Units: cells]
  double length = 0.0;       ///< Geometric length of the polyline. [Units: cells]
  double cost = 0.0;         ///< Weighted cost, turn penalties included.
  int64_t expanded = 0;      ///< Nodes taken off the open list and expanded.
  int64_t generated = 0;     ///< Nodes pushed onto the open list.
  uint32_t details = 0;      ///< GridPathDetail bits.
  BudgetStop stopped = BudgetStop::none;  ///< Which SearchBudget limit stopped the search, if any.
  std::string reason;        ///< Why no path was found, for people.
  std::vector<TraceEvent> trace;
};

class GridSearchWorkspace;

/// A rectangle of cells, both corners included: x in [min.x, max.x], y in [min.y, max.y].
/// Empty when max.x < min.x or max.y < min.y. [Units: cells]
struct CellRect {
  Cell min;
  Cell max;
};

/// The smallest rectangle holding every cell whose passability differs between `before` and
/// `after` (all a navmesh depends on); nullopt when none does, or when the sizes differ (then
/// nothing can be mended: rebuild). Costs one pass over the map. [Limit: same size]
std::optional<CellRect> changed_cells(const Grid& before, const Grid& after);

/// Plans on one grid, reusing its buffers across queries. The grid must outlive the
/// pathfinder. After editing the grid call update() (the changed cells are known), refresh()
/// (they are not), or reset() (another map). Not thread-safe: one per thread.
///
/// Everything a planner prepares is built on its first query and then kept: the padded copy
/// of the map with the agent's passability (A*, Dijkstra, JPS, Theta*), the node records, JPS's
/// passability bits, the connected regions of the passable cells (a goal in another region than
/// the start is answered "no path" before any search, under a budget too), and JPS's jump
/// tables (once block jumping has cost about as much as
/// building them: GridSearchOptions::jps_jumps). update() and refresh() mend them where the map changed, at a cost that
/// grows with the edit, not the map: the padded copy in the changed cells (widened by the agent
/// radius above 0.5), the jump tables along the rows and columns within one cell of a changed
/// cell, as far as their values change (to the next wall), and along the diagonals where a
/// value changed, and the regions around the changed cells (a stroke that parts two large
/// pieces relabels the map on the next query). Buffers are reused across maps of the same size (reset() frees nothing), and
/// across pathfinders: the buffers of the last pathfinder destroyed on a thread are taken by
/// the next one made on that thread (one set a thread), so a fresh pathfinder on a map of the
/// same size allocates and clears nothing.
class GridPathfinder {
 public:
  explicit GridPathfinder(const Grid& grid);
  ~GridPathfinder();
  GridPathfinder(GridPathfinder&&) noexcept;
  GridPathfinder& operator=(GridPathfinder&&) noexcept;

  /// Plan on `grid` from now on (another map, or this one edited anywhere): the preprocessing
  /// is rebuilt on the next query, in the buffers already allocated when the size matches.
  void reset(const Grid& grid);

  /// The cells inside `changed` of `grid` may differ from what the pathfinder last saw (painted,
  /// erased, terrain); every cell outside it must not. Mends the preprocessing in place, so
  /// the next query answers as a rebuilt pathfinder would (same tables, same paths). `grid` may
  /// be another object than before with the same size (a copy the caller edited).
  /// `changed` is clipped to the map. Cost: about the cells in `changed` plus the rows,
  /// columns and diagonals whose jumps change; about 0.1 ms for a brush of radius 8 on a
  /// 512x512 map with JPS's tables built (10 us without), against 5-8 ms for a rebuild
  /// (bench_live_edit). [Units: cells]
  /// Errors: `changed` empty (invalid_argument) or wholly outside the map (out_of_bounds);
  /// `grid` of another size than the one prepared (invalid_argument: call reset()).
  Status update(const Grid& grid, const CellRect& changed);

  /// Like update() when the changed cells are not known: compares `grid` with the copy of the
  /// costs the pathfinder keeps (4 bytes a cell, one pass over them) and mends what differs.
  /// Another size, or more than an eighth of the cells changed, is a reset().
  void refresh(const Grid& grid);

  /// Finds a path. Errors: start/goal outside the map (out_of_bounds) or not passable
  /// for the agent (blocked), bad options (invalid_argument), an option the planner
  /// does not support (unsupported). No path is not an error: found == false.
  Result<GridPath> find_path(GridPlanner planner, Cell start, Cell goal,
                             const GridSearchOptions& options = default_grid_search_options());

  /// Whether JPS's jump tables are built (see JpsJumps): false on a fresh map until block
  /// jumping has expanded enough nodes, or a query asked for JpsJumps::tables.
  bool jump_tables_built() const;

  /// The internal buffers (grid/grid_search_internal.hpp), for tests that compare them.
  const GridSearchWorkspace& workspace() const { return *ws_; }

 private:
  std::unique_ptr<GridSearchWorkspace> ws_;
};

/// One-shot convenience: builds a pathfinder, plans once.
Result<GridPath> find_grid_path(const Grid& grid, GridPlanner planner, Cell start, Cell goal,
                                const GridSearchOptions& options = default_grid_search_options());

}  // namespace pathlab
