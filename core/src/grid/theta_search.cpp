// Theta* on the grid (GridPlanner::theta): the search and its line of sight on the padded grid.
// A goal walled off from the start never reaches it: find_path answers it from the regions
// (grid_regions.cpp), which used to cost a search of the start's whole region.

#include <algorithm>
#include <cmath>
#include <utility>

#include "grid/center_line_walk.hpp"
#include "grid/grid_search_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {

using namespace detail;

namespace {

// Directions in grid_search.cpp's order: 0..3 orthogonal (E, S, W, N), 4..7 diagonal (SE, SW, NW, NE).
constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

double euclid_h(const PaddedGrid& pg, int node, Cell goal) {
  const Cell c = pg.cell(node);
  return dmath::hypot(static_cast<double>(c.x - goal.x), static_cast<double>(c.y - goal.y));
}

void record(GridPath& out, const PaddedGrid& pg, int node, TraceEvent::Kind kind, double g, double f) {
  out.trace.push_back(TraceEvent{pg.cell(node), kind, static_cast<float>(g), static_cast<float>(f)});
}

/// center_line_cost() (collision.cpp) on the padded grid: the same walk (center_line_walk.hpp),
/// so the same bits, but node ids stepped instead of bounds-checked cell lookups (the blocked
/// border stops a line as "outside" does there). Line of sight is most of Theta*'s time. For a
/// point agent (pg.pass is "free", pg.cost the cost).
double padded_line_cost(const PaddedGrid& pg, Cell a, Cell b) {
  struct PaddedCursor {
    const uint8_t* pass;
    const float* cost_of;
    int pw, id;
    double cost() const { return cost_of[id]; }
    bool free() const { return pass[id] != 0; }
    bool free_at(int dx, int dy) const { return pass[id + dx + dy * pw] != 0; }
    void move(int dx, int dy) { id += dx + dy * pw; }
  } at{pg.pass.data(), pg.cost.data(), pg.pw, pg.id(a)};
  return walk_center_line(a, b, at);
}

/// Cost of the straight line between two cell centres for the agent, or < 0 when blocked.
double line_cost(const GridSearchWorkspace& ws, int a, int b) {
  const Cell ca = ws.pg.cell(a), cb = ws.pg.cell(b);
  if (ws.pg.radius <= 0.0) return padded_line_cost(ws.pg, ca, cb);
  if (!segment_clear(*ws.grid, cell_center(ca), cell_center(cb), ws.pg.radius)) return -1.0;
  return ws.pg.uniform ? glm::length(cell_center(cb) - cell_center(ca))
                       : segment_cost(*ws.grid, cell_center(ca), cell_center(cb));
}

}  // namespace

/// Theta* (Nash, Daniel, Koenig, Felner, "Theta*: Any-Angle Path Planning on Grids", AAAI
/// 2007): like A*, but a node may take its parent's parent when that parent sees it. Nodes
/// whose cost improves after expansion are reopened, which (with path 1 always considered)
/// keeps every result no longer than the 8-connected optimum.
///
/// Line of sight, about half the time, is checked only where path 2 could win: a line costs at
/// least its length (every cost multiplier is >= 1), so when the parent's cost plus the
/// straight-line distance is not below both path 1 and the node's current cost, the check
/// could not change anything (among them every node on its parent's own row, column or
/// diagonal, where path 2 equals path 1). On bench_live_edit's queries that leaves a fifth of
/// the checks (rooms-512: 18,302 a query instead of 96,301, 0.33 million cells walked instead
/// of 1.68), and the lengths of the unpruned search on all of its 840 queries but one (+0.0018
/// cells of 287, a tie that rounding had decided the other way). Re-openings were not the
/// cost: 4 % of the expansions, each an improvement above 1e-3 (no epsilon would remove them).
void search_theta(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, GridPath& out) {
  ws.ensure_costs();
  const PaddedGrid& pg = ws.pg;
  int off[8];
  for (int d = 0; d < 8; ++d) off[d] = kDy[d] * pg.pw + kDx[d];
  const int s = pg.id(start), t = pg.id(goal);
  const bool trace = opt.record_trace;
  ws.begin_search(pg.pass.size());
  BasicOpenList<2>& open = ws.theta_open;
  open.bind(ws.heap_pos.data());
  open.clear();
  ws.set(s, 0.0, -1);
  open.push({euclid_h(pg, s, goal), 0.0, s});
  ++out.generated;
  if (trace) record(out, pg, s, TraceEvent::open, 0.0, euclid_h(pg, s, goal));
  while (!open.empty()) {
    const HeapEntry e = open.pop();
    const int n = e.node();
    ws.close(n);
    if (trace) record(out, pg, n, TraceEvent::close, ws.nodes[n].g, e.f());
    if (n == t) break;
    if (ws.budget.exhausted(out.expanded)) {
      out.details |= kDetailBudgetExhausted;
      break;
    }
    ++out.expanded;
    const int p = ws.nodes[n].parent;
    const double gp = p >= 0 ? ws.nodes[p].g : 0.0;
    const int y = pg.row(n), x = n - y * pg.pw;
    const int py = p >= 0 ? pg.row(p) : 0, px = p >= 0 ? p - py * pg.pw : 0;
    for (int d = 0; d < 8; ++d) {
      const int m = n + off[d];
      if (!pg.pass[m] || m == p) continue;
      const int mx = x + kDx[d], my = y + kDy[d];
      double step = 1.0;
      if (d >= 4) {
        if (!pg.pass[n + kDx[d]] || !pg.pass[n + kDy[d] * pg.pw]) continue;
        step = kSqrt2;
      }
      step *= 0.5 * (static_cast<double>(pg.cost[n]) + pg.cost[m]);
      double best = ws.nodes[n].g + step;
      int best_parent = n;
      const bool seen = ws.seen(m);
      const double bar = seen ? std::min(best, ws.nodes[m].g - 1e-12) : best;  // what path 2 must beat
      if (p >= 0 && gp + dmath::hypot(static_cast<double>(mx - px), static_cast<double>(my - py)) < bar) {
        const double lc = line_cost(ws, p, m);
        if (lc >= 0.0 && gp + lc < best) {
          best = gp + lc;
          best_parent = p;
        }
      }
      if (seen && best >= ws.nodes[m].g - 1e-12) continue;
      const bool in_open = seen && !ws.is_closed(m);
      ws.set(m, best, best_parent);  // reopens m if it had been expanded
      const double f = best + euclid_h(pg, m, goal);
      if (in_open) open.decrease({f, best, m});
      else open.push({f, best, m});
      ++out.generated;
      if (trace) record(out, pg, m, TraceEvent::open, best, f);
    }
  }
  if (!ws.is_closed(t)) return;
  out.cost = ws.nodes[t].g;
  finish_node_path(out, pg, ws.nodes.data(), t);
}

}  // namespace pathlab
