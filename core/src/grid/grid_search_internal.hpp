#pragma once
// Internal: the padded grid and search buffers shared by the grid planners.

#include <algorithm>
#include <bit>
#include <optional>
#include <cstdint>
#include <vector>

#include "base/open_list.hpp"
#include "pathlab/grid_search.hpp"

namespace pathlab::detail {

/// A grid with a one-cell blocked border, so neighbour lookups need no bounds checks.
/// Node ids are (y + 1) * pw + (x + 1).
struct PaddedGrid {
  int w = 0, h = 0;    // the real grid's size
  int pw = 0, ph = 0;  // padded size
  double radius = -1;  // agent radius the passable flags were built for
  bool uniform = true;
  std::vector<uint8_t> pass;  // 1 = passable for the agent
  std::vector<float> cost;    // cost multiplier (1 outside); valid only when cost_ready
  bool cost_ready = false;    // `cost` is built (always on a non-uniform map; see ensure_costs)

  double inv_pw = 0.0;  // 1 / pw

  int id(Cell c) const { return (c.y + 1) * pw + (c.x + 1); }
  /// Padded row of a node id, by multiplying with 1/pw instead of dividing: (id + 0.5) / pw is
  /// at least 0.5 / pw away from a whole number, far more than the rounding error, so the floor
  /// is exact.
  int row(int id) const { return static_cast<int>((id + 0.5) * inv_pw); }
  Cell cell(int id) const {
    const int y = row(id);
    return Cell{id - y * pw - 1, y - 1};
  }
};

/// The padded grid's passability as bits, for JPS's block-based jumps (jps_blocks.hpp): per
/// padded row, bit x % 64 of word x / 64 is pass(x, y); per padded column (transposed), bit
/// y % 64 of word y / 64 is pass(x, y). 1/8 byte a cell per copy.
struct PassBits {
  int row_words = 0, col_words = 0;  // words per row, per column
  std::vector<uint64_t> rows, cols;
  void build(const PaddedGrid& pg);
  /// Copies pg.pass[id] into both copies (after an edit).
  void set(const PaddedGrid& pg, int id);
};

/// The connected regions of a padded grid's passable cells (grid_regions.cpp, issue 28): a
/// query whose ends lie in different regions has no path. Per node a region id, and a
/// union-find over the ids, since an edit that frees cells joins regions in place.
struct Regions {
  std::vector<int32_t> label;   // per padded node: region id, -1 where not passable
  std::vector<int32_t> parent;  // union-find over region ids; a root is its region
  std::vector<int32_t> queue;   // flood scratch, kept between edits
  bool ready = false;           // label is built and equals the padded grid's regions
  int32_t root(int32_t id) {
    while (parent[static_cast<size_t>(id)] != id) {  // path halving
      parent[static_cast<size_t>(id)] = parent[static_cast<size_t>(parent[static_cast<size_t>(id)])];
      id = parent[static_cast<size_t>(id)];
    }
    return id;
  }
  int32_t fresh();
  void unite(int32_t a, int32_t b);
};

/// Labels every region of pg (runs of passable cells per row, joined by union-find).
void build_regions(const PaddedGrid& pg, Regions& r);
/// Whether padded nodes s and t (both passable) lie in different regions; labels first when
/// they are not built.
bool regions_apart(const PaddedGrid& pg, Regions& r, int s, int t);
/// After the nodes `pass_changed` flipped in pg: freed ones join their neighbours' regions,
/// blocked ones are checked locally to cut nothing off (or the small pieces they cut off are
/// relabelled); when that cannot tell, `ready` is cleared and the next query relabels.
void mend_regions(const PaddedGrid& pg, Regions& r, const std::vector<int32_t>& pass_changed);

/// The limits of one search: the expansion count (GridSearchOptions::max_expansions and
/// budget.max_expansions, the smaller non-zero one) every expansion, the clock and the cancel
/// flag every BudgetMeter::kCheckEvery expansions.
class GridBudget {
 public:
  void start(const GridSearchOptions& opt) {
    const int64_t a = opt.max_expansions, b = opt.budget.max_expansions;
    max_expansions_ = a > 0 && b > 0 ? std::min(a, b) : std::max(a, b);
    timed_ = opt.budget.time_ms > 0.0 || opt.budget.cancel != nullptr;
    if (timed_) {  // an untimed search (the common case) never reads the clock
      SearchBudget clock_only = opt.budget;
      clock_only.max_expansions = 0;
      meter_.emplace(clock_only);
    }
    stop_ = BudgetStop::none;
  }
  /// True when the search must stop before its next expansion; `expanded` so far.
  __attribute__((always_inline)) bool exhausted(int64_t expanded) {
    if (max_expansions_ > 0 && expanded >= max_expansions_) return stop(BudgetStop::expansions);
    if (timed_ && expanded % BudgetMeter::kCheckEvery == 0) {
      if (const BudgetStop why = meter_->check_clock(); why != BudgetStop::none) return stop(why);
    }
    return false;
  }
  BudgetStop stopped() const { return stop_; }
  /// Whether any limit is set (expansions, clock or cancel flag).
  bool limited() const { return max_expansions_ > 0 || timed_; }
  int64_t max_expansions() const { return max_expansions_; }

 private:
  bool stop(BudgetStop why) {
    stop_ = why;
    return true;
  }
  int64_t max_expansions_ = 0;
  bool timed_ = false;
  std::optional<BudgetMeter> meter_;
  BudgetStop stop_ = BudgetStop::none;
};

}  // namespace pathlab::detail

namespace pathlab {

/// Buffers reused across queries. Entries are valid only when their stamp equals the current search id.
class GridSearchWorkspace {
 public:
  const Grid* grid = nullptr;
  detail::PaddedGrid pg;
  /// Goal-free jumps of one cell in all eight directions, side by side so that expanding a
  /// node reads one cache line. 8-bit entries: 8 bytes a cell (2.1 MB on a 512x512 map, about
  /// a core's second-level cache; 16-bit entries took twice that and 32-bit four times), since
  /// warm JPS waits mostly on the table reads of its diagonal walks (issue 28). A jump longer
  /// than kFarStep steps is read in pieces: the entry says "far" and the jump goes on from the
  /// cell kFarStep steps along, whose entry tells the rest (jps.cpp), so any map size fits.
  struct JumpCell {
    /// Per direction (+x, -x, +y, -y): s > 0 when the scan stops at a jump point s cells away,
    /// -s when the first blocked cell is s cells away; kFarJump / -kFarJump when that stop is
    /// more than kFarStep cells away (the sign still says which kind it is).
    int8_t straight[4];
    /// Per direction (index (dx > 0) | (dy > 0) << 1): s > 0 when step s is the first whose
    /// cell has a jump point on its row or column scan, -s when step s is the first blocked;
    /// +-kFarJump as above.
    int8_t diag[4];
  };
  /// The longest jump an entry holds; kFarJump marks a longer one.
  static constexpr int kFarStep = 126;
  static constexpr int kFarJump = 127;
  std::vector<JumpCell> jumps;  // per node; built once block jumping has cost about as much
  bool jump_tables_ready = false;  // `jumps` is built
  /// The passability bits JPS jumps on until the tables are built (built on the first JPS
  /// query after prepare(), mended by apply_changes()).
  detail::PassBits pass_bits;
  bool pass_bits_ready = false;
  /// Nodes JPS expanded by block jumping since prepare(): when they reach about what building
  /// the tables costs (kBlockExpansionsPerCell per cell), the tables are built (jps.cpp).
  int64_t block_expanded = 0;
  /// The regions of pg.pass, built on the first query with distinct ends (when they fit the
  /// memory cap), mended by apply_changes(), rebuilt with pg.
  detail::Regions regions;

  /// The grid's costs `pg` was built from (width * height, row-major): what update() and
  /// refresh() compare the edited grid with.
  std::vector<float> source_cost;
  int64_t nonuniform_cells = 0;  // free cells of source_cost whose cost is not 1 (pg.uniform: none)
  bool stale = true;             // pg must be rebuilt before the next query (reset(), a new pathfinder)
  /// Scratch of update(), kept between edits: ids whose pass flag changed, a mark per node.
  std::vector<int32_t> pass_changed;
  std::vector<uint8_t> mark;

  /// Per-node search state in one 16-byte record, so a relaxation touches one cache line.
  /// stamp = search_id * 2 + closed; any other value means "not seen in this search".
  struct NodeData {
    double g;
    int32_t parent;
    uint32_t stamp;
  };
  uint32_t search_id = 0;
  std::vector<NodeData> nodes;
  std::vector<int32_t> heap_pos;  // slot of each node in `open`, -1 when not in the heap
  /// Nodes generated with exactly the f of the node being expanded. That f is the open list's
  /// minimum, so they can be expanded next without a trip through the heap; ties on f are the
  /// common case on octile grids, so this removes many heap operations.
  std::vector<int32_t> bypass;
  /// JPS's closed set, a bit per node (33 kB on a 512x512 map): every stop cell of a diagonal
  /// walk is checked, and the node records (4 MB) it would read instead are a cache miss per
  /// step. The words that hold a closed node are listed (each once, when its first bit is
  /// set), so the next search clears only those words and the list never outgrows the bit set:
  /// at most a 32-bit entry per 64 cells (jps.cpp; counted in search_bytes()).
  std::vector<uint64_t> jps_closed;
  std::vector<int32_t> jps_closed_words;
  detail::OpenList open;
  detail::BasicOpenList<2> theta_open;  // Theta*: bound and cleared by the search itself
  detail::GridBudget budget;            // the current search's limits (set by find_path)

  /// Adds a node to the open list, or moves it up if it is already there (seen, not closed).
  __attribute__((always_inline)) void open_node(int32_t n, double f, double g, bool already_open) {
    if (already_open) open.decrease({f, g, n});
    else open.push({f, g, n});
  }

  /// The next node to expand: one generated at the current f (the bypass) first, else the open
  /// list's minimum, whose f becomes the current one; -1 when both are empty.
  __attribute__((always_inline)) int32_t next_open(double& fcur) {
    if (!bypass.empty()) {
      const int32_t n = bypass.back();
      bypass.pop_back();
      return n;
    }
    if (open.empty()) return -1;
    const detail::HeapEntry top = open.pop();
    fcur = top.f();
    return top.node();
  }
  /// Opens node m at f: onto the bypass when f is the current f (then it is the open list's
  /// minimum), else into the heap, or moved up if it is there already.
  __attribute__((always_inline)) void open_at(int32_t m, double f, double g, bool already_open, double fcur) {
    if (f == fcur) {
      if (!already_open) heap_pos[static_cast<size_t>(m)] = -1;  // never in the heap: a stale slot must not be reused
      bypass.push_back(m);
    } else {
      open_node(m, f, g, already_open);
    }
  }

  bool seen(size_t n) const { return (nodes[n].stamp >> 1) == search_id; }
  bool is_closed(size_t n) const { return nodes[n].stamp == ((search_id << 1) | 1u); }
  void set(size_t n, double g, int32_t parent) { nodes[n] = NodeData{g, parent, search_id << 1}; }
  void close(size_t n) { nodes[n].stamp = (search_id << 1) | 1u; }
  void reopen(size_t n) { nodes[n].stamp = search_id << 1; }

  void prepare(double radius);
  /// Builds pg.cost when it is not built: prepare() leaves it out on a uniform map, where only
  /// Theta* and the turn-penalty search read it (all ones inside passable cells).
  void ensure_costs();
  void begin_search(size_t states);
  /// Mends pg (and the jump tables when built) after the grid cells `changed` (padded ids) got
  /// new costs; source_cost is updated. Returns false when a rebuild is cheaper (then stale).
  bool apply_changes(const std::vector<int32_t>& changed);
};

namespace detail {
/// Fills `out` (found, cells, points, length) with the path that ends at node t, following
/// parent links; no temporary list. `known_length` >= 0 is used as the length instead of
/// summing the polyline (JPS: the cost of its straight and diagonal runs is their length).
void finish_node_path(GridPath& out, const PaddedGrid& pg, const GridSearchWorkspace::NodeData* nodes, int t,
                      double known_length = -1.0);

/// Whether cell (x, y) is passable for an agent of `radius` (collision.cpp; the rule of
/// passable_cells()): free, and for radius > 0.5 its centre's disc clear of walls and border.
bool cell_passable(const Grid& grid, int x, int y, double radius);

/// JPS's goal-free jump tables (jps_tables.cpp): built whole once block jumping has cost about
/// as much (jps.cpp), then mended after edits where the padded cells `pass_changed` flipped.
void build_jump_tables(GridSearchWorkspace& ws);
void update_jump_tables(GridSearchWorkspace& ws, const std::vector<int32_t>& pass_changed);
}  // namespace detail

}  // namespace pathlab
