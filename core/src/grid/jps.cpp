// Jump point search (Harabor & Grastien 2011) in its no-corner-cutting form: a diagonal step
// needs both orthogonal neighbours passable, straight moves have forced neighbours where a
// side cell opens up behind a wall, and diagonal moves have none. Per grid (on the first JPS
// query) every cell's goal-free jump in each of the 8 directions is tabulated, as in JPS+
// (Harabor & Grastien 2014): a straight jump is one table read, and a diagonal jump is one read
// plus full checks only at the (at most two) steps whose row or column holds the goal, the
// only places where the goal can change the answer.

#include <algorithm>
#include <cmath>

#include "grid/grid_search_internal.hpp"

namespace pathlab {

using namespace detail;

namespace {

using JumpCell = GridSearchWorkspace::JumpCell;

/// Jumps towards one goal, read from the goal-free tables. Every jump returns the number of
/// steps to the cell where it stops (a jump point or the goal), or -1 when it runs into a wall.
struct Jumper {
  const uint8_t* pass;
  const JumpCell* jc;
  int pw;
  int gx, gy;  // goal, padded coordinates

  bool passable(int x, int y) const { return pass[y * pw + x] != 0; }

  /// Straight jump from (x, y), exclusive, along its row (horizontal) or column, d = +-1. The
  /// goal is passable, so when it lies on the line it comes no later than the blocked stop.
  __attribute__((always_inline)) int straight(int x, int y, int d, bool horizontal) const {
    const int32_t pre = jc[y * pw + x].straight[(horizontal ? 0 : 2) + (d < 0)];
    const int len = pre > 0 ? pre : -pre;
    if (horizontal ? gy == y : gx == x) {
      const int steps = ((horizontal ? gx - x : gy - y)) * d;
      if (steps >= 1 && steps <= len) return steps;
    }
    return pre > 0 ? pre : -1;
  }

  /// Whether the diagonal jump stops at the cell (x, y) (reached by a diagonal step).
  bool diagonal_stop(int x, int y, int dx, int dy) const {
    if (x == gx && y == gy) return true;
    return straight(x, y, dx, true) >= 0 || straight(x, y, dy, false) >= 0;
  }

  /// Diagonal jump from (x, y): only the (at most two) steps whose row or column holds the
  /// goal are scanned; every other step stops exactly where the goal-free jump stops.
  int diagonal(int x, int y, int dx, int dy) const {
    const int32_t pre = jc[y * pw + x].diag[(dx > 0) | ((dy > 0) << 1)];
    const int last = pre > 0 ? pre - 1 : -pre - 1;  // steps before the precomputed stop
    int s1 = (gy - y) * dy, s2 = (gx - x) * dx;     // steps onto the goal's row and column
    if (s1 > s2) std::swap(s1, s2);
    if (s1 >= 1 && s1 <= last && diagonal_stop(x + s1 * dx, y + s1 * dy, dx, dy)) return s1;
    if (s2 != s1 && s2 >= 1 && s2 <= last && diagonal_stop(x + s2 * dx, y + s2 * dy, dx, dy)) return s2;
    return pre > 0 ? pre : -1;
  }

  int jump(int x, int y, int dx, int dy) const {
    if (dx != 0 && dy != 0) return diagonal(x, y, dx, dy);
    return dx != 0 ? straight(x, y, dx, true) : straight(x, y, dy, false);
  }
};

inline int sgn(int v) { return (v > 0) - (v < 0); }

/// Fills the goal-free jump tables. Each cell's result follows from its successor's in the
/// same direction. A straight scan stops at a blocked cell or at one with a forced neighbour
/// (a side cell passable there and blocked one cell back); a diagonal scan stops at a step whose
/// row or column scan stops at a jump point. Two sweeps over the rows instead of one per
/// direction (the table is 32 bytes a cell, so each sweep is a pass over memory): bottom-up
/// for the +y directions and both row directions, top-down for the -y directions, each row
/// finished while it is in cache.
void build_jump_tables(GridSearchWorkspace& ws) {
  const PaddedGrid& pg = ws.pg;
  const int pw = pg.pw, ph = pg.ph;
  ws.jumps.assign(pg.pass.size(), JumpCell{});
  JumpCell* J = ws.jumps.data();
  const uint8_t* pass = pg.pass.data();
  auto P = [&](int x, int y) { return pass[y * pw + x] != 0; };
  // Straight table si (0 +x, 1 -x, 2 +y, 3 -y) at (x, y) from its successor's entry.
  auto straight = [&](int x, int y, int si) {
    const int d = (si & 1) ? -1 : 1;
    const int dx = si < 2 ? d : 0, dy = si < 2 ? 0 : d;
    const int nx = x + dx, ny = y + dy;  // the next position of the scan
    if (!P(nx, ny)) return -1;
    if ((P(nx + dy, ny + dx) && !P(nx + dy - dx, ny + dx - dy)) ||
        (P(nx - dy, ny - dx) && !P(nx - dy - dx, ny - dx - dy))) {
      return 1;
    }
    const int32_t next = J[ny * pw + nx].straight[si];
    return next > 0 ? next + 1 : next - 1;
  };
  // Diagonal table di at (x, y): needs the straight entries of the diagonal successor.
  auto diagonal = [&](int x, int y, int di) {
    const int dx = (di & 1) ? 1 : -1, dy = (di & 2) ? 1 : -1;
    if (!P(x + dx, y) || !P(x, y + dy) || !P(x + dx, y + dy)) return -1;  // no corner cutting
    const JumpCell& next = J[(y + dy) * pw + x + dx];
    if (next.straight[dx > 0 ? 0 : 1] > 0 || next.straight[dy > 0 ? 2 : 3] > 0) return 1;
    const int32_t after = next.diag[di];
    return after > 0 ? after + 1 : after - 1;
  };
  for (int y = ph - 2; y >= 1; --y) {
    for (int x = pw - 2; x >= 1; --x)
      if (P(x, y)) J[y * pw + x].straight[0] = straight(x, y, 0);
    for (int x = 1; x <= pw - 2; ++x) {
      if (!P(x, y)) continue;  // only passable cells are ever looked up
      JumpCell& c = J[y * pw + x];
      c.straight[1] = straight(x, y, 1);
      c.straight[2] = straight(x, y, 2);
      c.diag[2] = diagonal(x, y, 2);  // (-1, +1)
      c.diag[3] = diagonal(x, y, 3);  // (+1, +1)
    }
  }
  for (int y = 1; y <= ph - 2; ++y) {
    for (int x = 1; x <= pw - 2; ++x) {
      if (!P(x, y)) continue;
      JumpCell& c = J[y * pw + x];
      c.straight[3] = straight(x, y, 3);
      c.diag[0] = diagonal(x, y, 0);  // (-1, -1)
      c.diag[1] = diagonal(x, y, 1);  // (+1, -1)
    }
  }
  ws.jump_tables_ready = true;
}

}  // namespace

void search_jps(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, GridPath& out) {
  PaddedGrid& pg = ws.pg;
  if (!ws.jump_tables_ready) build_jump_tables(ws);
  ws.begin_search(pg.pass.size());
  const int s = pg.id(start), t = pg.id(goal);
  const Jumper jp{pg.pass.data(), ws.jumps.data(), pg.pw, goal.x + 1, goal.y + 1};
  const bool trace = opt.record_trace;
  const int pw = pg.pw;
  auto hxy = [&](int x, int y) {
    const int dx = std::abs(x - jp.gx), dy = std::abs(y - jp.gy);
    return dx < dy ? (dy - dx) + kSqrt2 * dx : (dx - dy) + kSqrt2 * dy;
  };
  auto h = [&](int n) {
    const int y = pg.row(n);
    return hxy(n - y * pw, y);
  };
  auto rec = [&](int n, TraceEvent::Kind kind, double g, double f) {
    out.trace.push_back(TraceEvent{pg.cell(n), kind, static_cast<float>(g), static_cast<float>(f)});
  };

  ws.set(s, 0.0, -1);
  ws.open.push({h(s), 0.0, s});
  ++out.generated;
  if (trace) rec(s, TraceEvent::open, 0.0, h(s));
  // As in A*, a jump point generated with exactly the f being expanded skips the heap (on open
  // maps most jump points on the way lie on one f): next_open / open_at.
  ws.bypass.clear();
  double fcur = 0.0;
  int dirs[8][2];
  for (;;) {
    const int n = ws.next_open(fcur);
    if (n < 0) break;
    if (ws.is_closed(n)) continue;
    ws.close(n);
    const double gn = ws.nodes[n].g;
    if (trace) rec(n, TraceEvent::close, gn, fcur);
    if (n == t) break;
    if (ws.budget.exhausted(out.expanded)) {
      out.details |= kDetailBudgetExhausted;
      break;
    }
    ++out.expanded;
    const int y = pg.row(n), x = n - y * pw;
    int nd = 0;
    const int p = ws.nodes[n].parent;
    if (p < 0) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx || dy) dirs[nd][0] = dx, dirs[nd][1] = dy, ++nd;
    } else {
      const int py = pg.row(p);
      const int dx = sgn(x - (p - py * pw)), dy = sgn(y - py);
      if (dx && dy) {
        dirs[nd][0] = dx, dirs[nd][1] = 0, ++nd;
        dirs[nd][0] = 0, dirs[nd][1] = dy, ++nd;
        dirs[nd][0] = dx, dirs[nd][1] = dy, ++nd;
      } else if (dx) {
        dirs[nd][0] = dx, dirs[nd][1] = 0, ++nd;
        for (int side = -1; side <= 1; side += 2) {
          if (jp.passable(x, y + side) && !jp.passable(x - dx, y + side)) {
            dirs[nd][0] = 0, dirs[nd][1] = side, ++nd;
            dirs[nd][0] = dx, dirs[nd][1] = side, ++nd;
          }
        }
      } else {
        dirs[nd][0] = 0, dirs[nd][1] = dy, ++nd;
        for (int side = -1; side <= 1; side += 2) {
          if (jp.passable(x + side, y) && !jp.passable(x + side, y - dy)) {
            dirs[nd][0] = side, dirs[nd][1] = 0, ++nd;
            dirs[nd][0] = side, dirs[nd][1] = dy, ++nd;
          }
        }
      }
    }
    for (int i = 0; i < nd; ++i) {
      const int ddx = dirs[i][0], ddy = dirs[i][1];
      const int steps = jp.jump(x, y, ddx, ddy);
      if (steps < 0) continue;
      const int m = n + steps * (ddy * pw + ddx);
      if (ws.is_closed(m)) continue;
      const int mx = x + steps * ddx, my = y + steps * ddy;
      const double ng = gn + steps * ((ddx && ddy) ? kSqrt2 : 1.0);
      const bool seen = ws.seen(m);
      if (seen && ng >= ws.nodes[m].g) continue;
      ws.set(m, ng, n);
      const double f = ng + hxy(mx, my);
      ws.open_at(m, f, ng, seen, fcur);
      __builtin_prefetch(jp.jc + m);  // read when m is expanded, often soon (the bypass)
      ++out.generated;
      if (trace) rec(m, TraceEvent::open, ng, f);
    }
  }
  if (!ws.is_closed(t)) return;
  out.cost = ws.nodes[t].g;
  finish_node_path(out, pg, ws.nodes.data(), t, out.cost);
}

}  // namespace pathlab
