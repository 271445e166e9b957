#include <algorithm>
#include <cmath>
#include <limits>

#include "grid/grid_search_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace detail {

void finish_node_path(GridPath& out, const PaddedGrid& pg, const GridSearchWorkspace::NodeData* nodes, int t,
                      double known_length) {
  size_t count = 0;
  for (int n = t; n != -1; n = nodes[n].parent) ++count;
  out.found = true;
  out.cells.resize(count);
  out.points.resize(count);
  size_t i = count;
  for (int n = t; n != -1; n = nodes[n].parent) {
    --i;
    out.cells[i] = pg.cell(n);
    out.points[i] = cell_center(out.cells[i]);
  }
  out.length = known_length >= 0.0 ? known_length : polyline_length(out.points);
}

// Pathfinding directions: 0..3 orthogonal (E, S, W, N), 4..7 diagonal (SE, SW, NW, NE).
constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

}  // namespace detail

using namespace detail;

void GridSearchWorkspace::prepare(double radius) {
  const Grid& gr = *grid;
  if (!stale && pg.radius == radius && pg.w == gr.width() && pg.h == gr.height()) return;
  pg.w = gr.width();
  pg.h = gr.height();
  pg.pw = pg.w + 2;
  pg.ph = pg.h + 2;
  pg.inv_pw = 1.0 / pg.pw;
  pg.radius = radius;
  // resize() and assign() keep the capacity: a map of the same size reuses the buffers.
  const size_t n = static_cast<size_t>(pg.pw) * static_cast<size_t>(pg.ph);
  // Only the border is cleared: every inner cell is written below.
  pg.pass.resize(n);
  std::fill_n(pg.pass.begin(), pg.pw, uint8_t{0});
  std::fill_n(pg.pass.end() - pg.pw, pg.pw, uint8_t{0});
  for (int y = 0; y < pg.h; ++y) {
    pg.pass[static_cast<size_t>(pg.id(Cell{-1, y}))] = 0;
    pg.pass[static_cast<size_t>(pg.id(Cell{pg.w, y}))] = 0;
  }
  source_cost = gr.costs();
  nonuniform_cells = 0;
  // Row by row from the copied costs, without branches for a point agent (the loop the
  // compiler vectorises): this pass is most of a first query's set-up.
  for (int y = 0; y < pg.h; ++y) {
    const float* src = source_cost.data() + static_cast<size_t>(y) * static_cast<size_t>(pg.w);
    uint8_t* pass = pg.pass.data() + static_cast<size_t>(pg.id(Cell{0, y}));
    int64_t odd = 0;
    if (radius > 0.5) {
      for (int x = 0; x < pg.w; ++x) pass[x] = cell_passable(gr, x, y, radius);
    } else {
      for (int x = 0; x < pg.w; ++x) pass[x] = src[x] != kBlocked;
    }
    for (int x = 0; x < pg.w; ++x) odd += (src[x] != 1.0f) & (src[x] != kBlocked);
    nonuniform_cells += odd;
  }
  pg.uniform = nonuniform_cells == 0;
  // The cost multipliers only where a search reads them (ensure_costs): A* and JPS on a
  // uniform map never do, and a first query skips writing 4 bytes a cell.
  pg.cost_ready = false;
  if (!pg.uniform) ensure_costs();
  stale = false;
  jump_tables_ready = false;
  pass_bits_ready = false;
  block_expanded = 0;
  regions.ready = false;
}

void GridSearchWorkspace::ensure_costs() {
  if (pg.cost_ready) return;
  pg.cost.assign(pg.pass.size(), 1.0f);
  for (int y = 0; y < pg.h; ++y) {
    const float* src = source_cost.data() + static_cast<size_t>(y) * static_cast<size_t>(pg.w);
    const size_t row = static_cast<size_t>(pg.id(Cell{0, y}));
    const uint8_t* pass = pg.pass.data() + row;
    float* cost = pg.cost.data() + row;
    for (int x = 0; x < pg.w; ++x) cost[x] = pass[x] ? src[x] : 1.0f;
  }
  pg.cost_ready = true;
}

void GridSearchWorkspace::begin_search(size_t states) {
  if (nodes.size() != states) {
    nodes.assign(states, NodeData{0.0, -1, 0u});
    heap_pos.assign(states, -1);
    search_id = 0;
  }
  open.bind(heap_pos.data());
  if (++search_id >= (1u << 31)) {  // the stamp would overflow: clear once every 2 billion searches
    for (NodeData& nd : nodes) nd.stamp = 0;
    search_id = 1;
  }
  open.clear();
}

namespace {

void record(GridPath& out, const PaddedGrid& pg, int node, TraceEvent::Kind kind, double g, double f) {
  out.trace.push_back(TraceEvent{pg.cell(node), kind, static_cast<float>(g), static_cast<float>(f)});
}

void finish_path(GridPath& out, const PaddedGrid& pg, std::vector<int>& nodes) {
  std::reverse(nodes.begin(), nodes.end());
  out.found = true;
  out.cells.reserve(nodes.size());
  out.points.reserve(nodes.size());
  for (int n : nodes) {
    out.cells.push_back(pg.cell(n));
    out.points.push_back(cell_center(pg.cell(n)));
  }
  out.length = polyline_length(out.points);
}

/// Octile (8-connected) or Manhattan (4-connected) distance to the goal; 0 for Dijkstra.
struct Heuristic {
  int gx, gy;
  bool use, eight;
  double operator()(int x, int y) const {
    if (!use) return 0.0;
    const int dx = std::abs(x - gx), dy = std::abs(y - gy);
    if (!eight) return dx + dy;
    return dx < dy ? (dy - dx) + kSqrt2 * dx : (dx - dy) + kSqrt2 * dy;
  }
};

/// Octile (kEight) or Manhattan distance from padded (x, y) to the goal; 0 without kUseH.
template <bool kUseH, bool kEight>
inline double cell_h(int x, int y, int gx, int gy) {
  if constexpr (!kUseH) {
    return 0.0;
  } else {
    const int dx = std::abs(x - gx), dy = std::abs(y - gy);
    if constexpr (!kEight) return dx + dy;
    return dx < dy ? (dy - dx) + kSqrt2 * dx : (dx - dy) + kSqrt2 * dy;
  }
}

/// Plain A* / Dijkstra over cells (no turn penalty). The hot loop of the library: one record
/// per node, coordinates carried along instead of divided out, no heap push for closed nodes,
/// the neighbour loop unrolled (a diagonal reuses the two orthogonal passability flags for its
/// corner test).
template <bool kTrace, bool kUniform, bool kUseH, bool kEight>
void search_cells_impl(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& /*opt*/,
                       GridPath& out) {
  const PaddedGrid& pg = ws.pg;
  ws.begin_search(pg.pass.size());
  const int s = pg.id(start), t = pg.id(goal);
  const int gx = goal.x + 1, gy = goal.y + 1;
  const uint8_t* pass = pg.pass.data();
  const float* cost = pg.cost.data();
  const int pw = pg.pw;
  detail::GridBudget& budget = ws.budget;
  GridSearchWorkspace::NodeData* nodes = ws.nodes.data();
  const uint32_t open_stamp = ws.search_id << 1, closed_stamp = open_stamp | 1u;
  OpenList& open = ws.open;

  nodes[s] = GridSearchWorkspace::NodeData{0.0, -1, open_stamp};
  const double hs = cell_h<kUseH, kEight>(start.x + 1, start.y + 1, gx, gy);
  open.push({hs, 0.0, s});
  int64_t generated = 1, expanded = 0;
  if constexpr (kTrace) record(out, pg, s, TraceEvent::open, 0.0, hs);
  ws.bypass.clear();
  double fcur = hs;
  bool reached = false;
  for (;;) {
    const int n = ws.next_open(fcur);
    if (n < 0) break;
    GridSearchWorkspace::NodeData& nd = nodes[n];
    if (nd.stamp == closed_stamp) continue;
    nd.stamp = closed_stamp;
    const double gn = nd.g;
    if constexpr (kTrace) record(out, pg, n, TraceEvent::close, gn, fcur);
    if (n == t) {
      reached = true;
      break;
    }
    if (budget.exhausted(expanded)) {
      out.details |= kDetailBudgetExhausted;
      break;
    }
    ++expanded;
    const int y = pg.row(n), x = n - y * pw;
    auto relax = [&](int m, double step, int mx, int my) __attribute__((always_inline)) {
      if constexpr (!kUniform) step *= 0.5 * (static_cast<double>(cost[n]) + cost[m]);
      const double ng = gn + step;
      GridSearchWorkspace::NodeData& md = nodes[m];
      const uint32_t st = md.stamp;
      if (st == closed_stamp || (st == open_stamp && ng >= md.g)) return;  // consistent h: closed is final
      md = GridSearchWorkspace::NodeData{ng, n, open_stamp};
      const double f = ng + cell_h<kUseH, kEight>(mx, my, gx, gy);
      ws.open_at(m, f, ng, st == open_stamp, fcur);
      ++generated;
      if constexpr (kTrace) record(out, pg, m, TraceEvent::open, ng, f);
    };
    // Directions in the fixed order E, S, W, N, SE, SW, NW, NE (generation order matters for
    // the trace and for which tied node is expanded first).
    const bool pe = pass[n + 1], ps = pass[n + pw], pwst = pass[n - 1], pn = pass[n - pw];
    if (pe) relax(n + 1, 1.0, x + 1, y);
    if (ps) relax(n + pw, 1.0, x, y + 1);
    if (pwst) relax(n - 1, 1.0, x - 1, y);
    if (pn) relax(n - pw, 1.0, x, y - 1);
    if constexpr (kEight) {
      // A diagonal needs both orthogonal neighbours passable: no corner cutting.
      if (pe && ps && pass[n + pw + 1]) relax(n + pw + 1, kSqrt2, x + 1, y + 1);
      if (pwst && ps && pass[n + pw - 1]) relax(n + pw - 1, kSqrt2, x - 1, y + 1);
      if (pwst && pn && pass[n - pw - 1]) relax(n - pw - 1, kSqrt2, x - 1, y - 1);
      if (pe && pn && pass[n - pw + 1]) relax(n - pw + 1, kSqrt2, x + 1, y - 1);
    }
  }
  out.expanded += expanded;
  out.generated += generated;
  if (!reached) return;
  out.cost = nodes[t].g;
  finish_node_path(out, pg, nodes, t);
}

template <bool kTrace, bool kUniform>
void search_cells_h(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, bool use_h,
                    GridPath& out) {
  const bool eight = opt.connectivity == Connectivity::eight;
  if (use_h) {
    if (eight) search_cells_impl<kTrace, kUniform, true, true>(ws, start, goal, opt, out);
    else search_cells_impl<kTrace, kUniform, true, false>(ws, start, goal, opt, out);
  } else {
    if (eight) search_cells_impl<kTrace, kUniform, false, true>(ws, start, goal, opt, out);
    else search_cells_impl<kTrace, kUniform, false, false>(ws, start, goal, opt, out);
  }
}

void search_cells(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, bool use_h,
                  GridPath& out) {
  const bool uniform = ws.pg.uniform;
  if (!uniform) ws.ensure_costs();  // prepare() built them already; kept for clarity of the contract
  if (opt.record_trace) {
    if (uniform) search_cells_h<true, true>(ws, start, goal, opt, use_h, out);
    else search_cells_h<true, false>(ws, start, goal, opt, use_h, out);
  } else {
    if (uniform) search_cells_h<false, true>(ws, start, goal, opt, use_h, out);
    else search_cells_h<false, false>(ws, start, goal, opt, use_h, out);
  }
}

/// A* / Dijkstra over (cell, incoming direction) states, so a turn can cost extra.
/// State id = node * 9 + dir, where dir 8 means "no direction yet" (the start).
void search_with_turns(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, bool use_h,
                       GridPath& out) {
  ws.ensure_costs();
  const PaddedGrid& pg = ws.pg;
  ws.begin_search(pg.pass.size() * 9);
  const bool eight = opt.connectivity == Connectivity::eight;
  const int ndirs = eight ? 8 : 4;
  int off[8];
  for (int d = 0; d < 8; ++d) off[d] = kDy[d] * pg.pw + kDx[d];
  const int s = pg.id(start), t = pg.id(goal);
  const Heuristic h{goal.x + 1, goal.y + 1, use_h, eight};
  const bool trace = opt.record_trace;
  const int s0 = s * 9 + 8;
  ws.set(s0, 0.0, -1);
  const double hs = h(start.x + 1, start.y + 1);
  ws.open.push({hs, 0.0, s0});
  ++out.generated;
  if (trace) record(out, pg, s, TraceEvent::open, 0.0, hs);
  int reached = -1;
  while (!ws.open.empty()) {
    const HeapEntry e = ws.open.pop();
    const int st = e.node();
    ws.close(st);
    const int n = st / 9, dir = st % 9;
    const double gs = ws.nodes[st].g;
    if (trace) record(out, pg, n, TraceEvent::close, gs, e.f());
    if (n == t) {
      reached = st;
      break;
    }
    if (ws.budget.exhausted(out.expanded)) {
      out.details |= kDetailBudgetExhausted;
      break;
    }
    ++out.expanded;
    const int y = pg.row(n), x = n - y * pg.pw;
    for (int d = 0; d < ndirs; ++d) {
      const int m = n + off[d];
      if (!pg.pass[m]) continue;
      double step = 1.0;
      if (d >= 4) {
        if (!pg.pass[n + kDx[d]] || !pg.pass[n + kDy[d] * pg.pw]) continue;
        step = kSqrt2;
      }
      step *= 0.5 * (static_cast<double>(pg.cost[n]) + pg.cost[m]);
      if (dir != 8 && dir != d) step += opt.turn_penalty * step;
      const int ms = m * 9 + d;
      const double ng = gs + step;
      const bool seen = ws.seen(ms);
      if (seen && (ws.is_closed(ms) || ng >= ws.nodes[ms].g)) continue;
      ws.set(ms, ng, st);
      const double f = ng + h(x + kDx[d], y + kDy[d]);
      ws.open_node(ms, f, ng, seen);
      ++out.generated;
      if (trace) record(out, pg, m, TraceEvent::open, ng, f);
    }
  }
  if (reached < 0) return;
  std::vector<int> path;
  for (int st = reached; st != -1; st = ws.nodes[st].parent) path.push_back(st / 9);
  out.cost = ws.nodes[reached].g;
  finish_path(out, pg, path);
}

}  // namespace

// Defined in theta_search.cpp.
void search_theta(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, GridPath& out);
// Defined in jps.cpp.
void search_jps(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, JpsJumps jumps,
                GridPath& out);

Result<GridPlanner> parse_grid_planner(const std::string& name) {
  if (name == "astar") return GridPlanner::astar;
  if (name == "dijkstra") return GridPlanner::dijkstra;
  if (name == "jps") return GridPlanner::jps;
  if (name == "theta") return GridPlanner::theta;
  return fail(StatusCode::invalid_argument, "unknown grid planner '" + name + "' (astar, dijkstra, jps, theta)");
}

const char* to_string(GridPlanner planner) noexcept {
  switch (planner) {
    case GridPlanner::astar: return "astar";
    case GridPlanner::dijkstra: return "dijkstra";
    case GridPlanner::jps: return "jps";
    case GridPlanner::theta: return "theta";
  }
  return "unknown";
}

namespace {

/// The buffers of the last pathfinder dropped on this thread, for the next one made: a fresh
/// pathfinder on a map of the same size allocates nothing and clears nothing (the node records
/// are told apart by search id). One set a thread, so memory stays bounded.
struct SpareWorkspace {
  std::unique_ptr<GridSearchWorkspace> ws;
  ~SpareWorkspace();
};
thread_local bool t_spare_gone = false;  // trivially destructible: readable during thread exit
thread_local SpareWorkspace t_spare;
SpareWorkspace::~SpareWorkspace() { t_spare_gone = true; }

std::unique_ptr<GridSearchWorkspace> take_workspace() {
  if (!t_spare_gone && t_spare.ws) return std::move(t_spare.ws);
  return std::make_unique<GridSearchWorkspace>();
}

}  // namespace

GridPathfinder::GridPathfinder(const Grid& grid) : ws_(take_workspace()) { reset(grid); }
GridPathfinder::~GridPathfinder() {
  if (ws_ && !t_spare_gone) t_spare.ws = std::move(ws_);
}
GridPathfinder::GridPathfinder(GridPathfinder&&) noexcept = default;
GridPathfinder& GridPathfinder::operator=(GridPathfinder&&) noexcept = default;

bool GridPathfinder::jump_tables_built() const { return ws_->jump_tables_ready; }

void GridPathfinder::reset(const Grid& grid) {
  ws_->grid = &grid;
  ws_->stale = true;  // rebuilt by the next query's prepare(), in the same buffers
  ws_->jump_tables_ready = false;
}

namespace {

std::string cell_str(Cell c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

/// Outside the map or inside a wall: checked on the grid itself, before anything is built.
Status check_endpoint_cell(const Grid& g, Cell c, const char* what) {
  if (!g.in_bounds(c)) {
    return fail(StatusCode::out_of_bounds, std::string(what) + " cell " + cell_str(c) + " is outside the " +
                                               std::to_string(g.width()) + "x" + std::to_string(g.height()) + " map");
  }
  if (!g.is_free(c)) return fail(StatusCode::blocked, std::string(what) + " cell " + cell_str(c) + " is inside a wall");
  return ok_status();
}

/// Too close to a wall for the agent: needs the passability flags of prepare().
Status check_endpoint_clearance(const GridSearchWorkspace& ws, Cell c, const char* what) {
  if (!ws.pg.pass[static_cast<size_t>(ws.pg.id(c))]) {
    return fail(StatusCode::blocked, std::string(what) + " cell " + cell_str(c) +
                                         " is too close to a wall for an agent of radius " +
                                         std::to_string(ws.pg.radius));
  }
  return ok_status();
}

/// Bytes of the region labels a cell: a label and at most one union-find entry (grid_regions.cpp).
constexpr double kRegionBytesPerCell = 8.0;

/// Bytes of JPS's closed set a cell: a bit, and a 32-bit word number per 64 cells in the list
/// of words to clear (GridSearchWorkspace::jps_closed).
constexpr double kJpsClosedBytesPerCell = 1.0 / 8.0 + 4.0 / 64.0;

/// Bytes a search allocates on a grid of `padded` cells (see kDefaultGridSearchMemory); `terrain`:
/// the map has costs other than 1, so the padded grid keeps a float multiplier a cell too.
double search_bytes(double padded, double states_per_cell, bool jps, bool jump_tables, bool terrain) {
  return padded * (terrain ? 9.0 : 5.0) + padded * states_per_cell * 20.0 + (jps ? padded * kJpsClosedBytesPerCell : 0.0) +
         (jump_tables ? padded * 8.0 : 0.0);
}

Status check_options(const GridSearchOptions& opt, GridPlanner planner) {
  if (auto radius_ok = check_agent_radius(opt.agent_radius); !radius_ok) return radius_ok;
  if (!(opt.turn_penalty >= 0.0) || !std::isfinite(opt.turn_penalty)) {
    return fail(StatusCode::invalid_argument, "turn penalty must be a finite number >= 0");
  }
  if (opt.max_expansions < 0 || opt.budget.max_expansions < 0)
    return fail(StatusCode::invalid_argument, "max expansions must be >= 0");
  if (!(opt.budget.time_ms >= 0.0)) return fail(StatusCode::invalid_argument, "time budget must be >= 0 ms");
  if (opt.max_memory_bytes < 0) return fail(StatusCode::invalid_argument, "max memory bytes must be >= 0");
  const bool any_angle_or_jump = planner == GridPlanner::jps || planner == GridPlanner::theta;
  if (any_angle_or_jump && opt.connectivity != Connectivity::eight) {
    return fail(StatusCode::unsupported, std::string(to_string(planner)) + " works on 8-connected grids only");
  }
  if (any_angle_or_jump && opt.turn_penalty > 0.0) {
    return fail(StatusCode::unsupported,
                std::string("turn penalty is supported by astar and dijkstra, not ") + to_string(planner));
  }
  return ok_status();
}

std::string megabytes(double bytes) { return std::to_string(static_cast<long long>(std::ceil(bytes / 1048576.0))) + " MB"; }

std::string budget_reason(const GridPath& out, const detail::GridBudget& budget) {
  switch (out.stopped) {
    case BudgetStop::expansions: return "gave up after " + std::to_string(budget.max_expansions()) + " expansions";
    case BudgetStop::time: return "gave up when the time budget ran out (" + std::to_string(out.expanded) + " expansions)";
    case BudgetStop::cancelled: return "cancelled after " + std::to_string(out.expanded) + " expansions";
    case BudgetStop::none: break;
  }
  return "the goal cannot be reached from the start";
}

}  // namespace

Result<GridPath> GridPathfinder::find_path(GridPlanner planner, Cell start, Cell goal, const GridSearchOptions& opt) {
  GridSearchWorkspace& ws = *ws_;
  if (auto st = check_options(opt, planner); !st) return st.error();
  // The ends first, on the grid itself: a start inside a wall must not cost a build.
  if (auto st = check_endpoint_cell(*ws.grid, start, "start"); !st) return st.error();
  if (auto st = check_endpoint_cell(*ws.grid, goal, "goal"); !st) return st.error();

  GridPath out;
  const double padded = (ws.grid->width() + 2.0) * (ws.grid->height() + 2.0);
  const bool turns = opt.turn_penalty > 0.0 && (planner == GridPlanner::astar || planner == GridPlanner::dijkstra);
  const double cap = opt.max_memory_bytes > 0 ? static_cast<double>(opt.max_memory_bytes) : INFINITY;
  // A built workspace knows whether the map has terrain; a stale one scans (it rebuilds anyway).
  const bool terrain = ws.stale ? !ws.grid->uniform_cost() : ws.nonuniform_cells > 0;
  const double need = search_bytes(padded, turns ? 9.0 : 1.0, planner == GridPlanner::jps, false, terrain);
  if (need > cap) {
    out.details |= kDetailBudgetExhausted | kDetailMemoryCap;
    out.reason = "the search would need " + megabytes(need) + " for this " + std::to_string(ws.grid->width()) + "x" +
                 std::to_string(ws.grid->height()) + " map, above the memory budget of " + megabytes(cap);
    return out;
  }
  // JPS's tables above the cap: block jumping needs none (the same search), and when the
  // tables were asked for, A* gives the same lengths (on uniform terrain) without them.
  JpsJumps jumps = opt.jps_jumps;
  if (planner == GridPlanner::jps && !ws.jump_tables_ready && search_bytes(padded, 1.0, true, true, terrain) > cap) {
    if (jumps == JpsJumps::tables) {
      planner = GridPlanner::astar;
      out.details |= kDetailJpsAsAstar;
    }
    jumps = JpsJumps::blocks;
  }
  ws.prepare(opt.agent_radius);
  if (auto st = check_endpoint_clearance(ws, start, "start"); !st) return st.error();
  if (auto st = check_endpoint_clearance(ws, goal, "goal"); !st) return st.error();
  // Ends in different regions: no path, whatever the planner, before any search (under a
  // budget too: the answer is exact and costs no expansion). Skipped when the region labels
  // would not fit the memory cap.
  // Always, not only once a search failed or an edit blocked cells: the answer (its expansions,
  // its trace) must not depend on what the pathfinder was asked before.
  const bool regions_fit = need + padded * kRegionBytesPerCell <= cap;
  // A traced query searches anyway: its replay is there to show the search fill the start's
  // region (the gallery's radius-closes-the-door lesson).
  if (!(start == goal) && regions_fit && !opt.record_trace &&
      regions_apart(ws.pg, ws.regions, ws.pg.id(start), ws.pg.id(goal))) {
    out.generated = 1;  // the start, opened
    out.reason = budget_reason(out, ws.budget);  // nothing stopped: "cannot be reached"
    return out;
  }

  ws.budget.start(opt);
  switch (planner) {
    case GridPlanner::astar:
    case GridPlanner::dijkstra: {
      const bool use_h = planner == GridPlanner::astar;
      if (turns) search_with_turns(ws, start, goal, opt, use_h, out);
      else search_cells(ws, start, goal, opt, use_h, out);
      break;
    }
    case GridPlanner::jps:
      if (!ws.pg.uniform) out.details |= kDetailCostsIgnored;
      search_jps(ws, start, goal, opt, jumps, out);
      break;
    case GridPlanner::theta:
      search_theta(ws, start, goal, opt, out);
      break;
  }
  out.stopped = ws.budget.stopped();
  if (!out.found) out.reason = budget_reason(out, ws.budget);
  return out;
}

Result<GridPath> find_grid_path(const Grid& grid, GridPlanner planner, Cell start, Cell goal,
                                const GridSearchOptions& options) {
  GridPathfinder pf(grid);
  return pf.find_path(planner, start, goal, options);
}

}  // namespace pathlab
