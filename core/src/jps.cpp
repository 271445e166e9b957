// Jump point search (Harabor & Grastien 2011) in its no-corner-cutting form: a diagonal step
// needs both orthogonal neighbours passable, straight moves have forced neighbours where a
// side cell opens up behind a wall, and diagonal moves have none. Per grid (on the first JPS
// query) every cell's goal-free jump in each of the 8 directions is tabulated, as in JPS+
// (Harabor & Grastien 2014): a straight jump is one table read, and a diagonal jump is one read
// plus full checks only at the (at most two) steps whose row or column holds the goal, the
// only places where the goal can change the answer.

#include <algorithm>
#include <cmath>

#include "grid_search_internal.hpp"

namespace pathlab {

using namespace detail;

namespace {

struct Jumper {
  const PaddedGrid& pg;
  int gx, gy;  // goal, padded coordinates
  const int32_t* st[4];  // GridSearchWorkspace::straight

  bool pass(int x, int y) const { return pg.pass[static_cast<size_t>(y * pg.pw + x)]; }

  /// Straight jump along a row (horizontal = true) or column from (x, y), exclusive. Returns the
  /// position along the line of the jump point or goal, or -1.
  __attribute__((always_inline)) int straight(int x, int y, int d, bool horizontal) const {
    const int k = horizontal ? y : x;
    const int i0 = (horizontal ? x : y) + d;
    const int32_t pre = st[(horizontal ? 0 : 2) + (d < 0)][y * pg.pw + x];
    const bool is_jump = pre > 0;
    const int stop = i0 - d + d * (is_jump ? pre : -pre);
    const int goal_k = horizontal ? gy : gx, goal_i = horizontal ? gx : gy;
    if (goal_k == k && (d > 0 ? (goal_i >= i0 && goal_i <= stop) : (goal_i <= i0 && goal_i >= stop))) {
      return goal_i;  // the goal is passable, so it comes no later than the blocked stop
    }
    return is_jump ? stop : -1;
  }

  /// True when a goal-free straight scan from (x, y), exclusive, stops at a jump point.
  bool jump_free(int x, int y, int d, bool horizontal) const {
    return st[(horizontal ? 0 : 2) + (d < 0)][y * pg.pw + x] > 0;
  }

  /// Whether the diagonal jump stops at the cell (x, y) (reached by a diagonal step).
  bool diagonal_stop(int x, int y, int dx, int dy) const {
    if (x == gx && y == gy) return true;
    return straight(x, y, dx, true) >= 0 || straight(x, y, dy, false) >= 0;
  }

  /// Diagonal jump from (x, y) with the precomputed goal-free result `pre` (see
  /// GridSearchWorkspace::diag): only the (at most two) steps whose row or column holds the
  /// goal are scanned; every other step stops exactly where the goal-free jump stops.
  int diagonal_pre(int x, int y, int dx, int dy, int32_t pre) const {
    const int last = pre > 0 ? pre - 1 : -pre - 1;  // steps before the precomputed stop
    int s1 = (gy - y) * dy, s2 = (gx - x) * dx;  // steps onto the goal's row and column
    if (s1 > s2) std::swap(s1, s2);
    if (s1 >= 1 && s1 <= last && diagonal_stop(x + s1 * dx, y + s1 * dy, dx, dy))
      return (y + s1 * dy) * pg.pw + x + s1 * dx;
    if (s2 != s1 && s2 >= 1 && s2 <= last && diagonal_stop(x + s2 * dx, y + s2 * dy, dx, dy))
      return (y + s2 * dy) * pg.pw + x + s2 * dx;
    if (pre < 0) return -1;
    return (y + pre * dy) * pg.pw + x + pre * dx;
  }

  /// Straight jump from (x, y) in direction (dx, dy); returns the id of the jump point or -1.
  int jump(int x, int y, int dx, int dy) const {
    if (dx != 0) {
      const int i = straight(x, y, dx, true);
      return i < 0 ? -1 : y * pg.pw + i;
    }
    const int i = straight(x, y, dy, false);
    return i < 0 ? -1 : i * pg.pw + x;
  }
};

inline int sgn(int v) { return (v > 0) - (v < 0); }

}  // namespace

void search_jps(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, GridPath& out) {
  PaddedGrid& pg = ws.pg;
  if (!ws.jump_tables_ready) {
    // Goal-free straight jumps: each cell's result follows from its successor's. A position
    // stops a scan when it is blocked or has a forced neighbour (a side cell passable there and
    // blocked one cell back).
    const int pw = pg.pw, ph = pg.ph;
    auto P = [&](int x, int y) { return pg.pass[static_cast<size_t>(y * pw + x)] != 0; };
    for (int si = 0; si < 4; ++si) {
      const bool horizontal = si < 2;
      const int d = (si & 1) ? -1 : 1;
      const int dx = horizontal ? d : 0, dy = horizontal ? 0 : d;
      std::vector<int32_t>& S = ws.straight[si];
      S.assign(pg.pass.size(), 0);
      // Row by row (cache-friendly), each row and cell after its successor.
      for (int y = dy > 0 ? ph - 2 : 1; y >= 1 && y <= ph - 2; y -= (dy > 0 ? 1 : -1)) {
        for (int x = dx > 0 ? pw - 2 : 1; x >= 1 && x <= pw - 2; x -= (dx > 0 ? 1 : -1)) {
          if (!P(x, y)) continue;  // only passable cells are ever looked up
          const int nx = x + dx, ny = y + dy;  // the next position of the scan
          int32_t v;
          if (!P(nx, ny)) {
            v = -1;
          } else if ((P(nx + dy, ny + dx) && !P(nx + dy - dx, ny + dx - dy)) ||
                     (P(nx - dy, ny - dx) && !P(nx - dy - dx, ny - dx - dy))) {
            v = 1;
          } else {
            const int32_t next = S[static_cast<size_t>(ny * pw + nx)];
            v = next > 0 ? next + 1 : next - 1;
          }
          S[static_cast<size_t>(y * pw + x)] = v;
        }
      }
    }
    // Goal-free diagonal jumps: each cell's result follows from its diagonal successor's.
    const Jumper free_jp{pg,
                         -1,
                         -1,
                         {ws.straight[0].data(), ws.straight[1].data(), ws.straight[2].data(), ws.straight[3].data()}};
    for (int di = 0; di < 4; ++di) {
      const int dx = (di & 1) ? 1 : -1, dy = (di & 2) ? 1 : -1;
      std::vector<int32_t>& D = ws.diag[di];
      D.assign(pg.pass.size(), 0);
      for (int yy = dy > 0 ? pg.ph - 2 : 1; yy >= 1 && yy <= pg.ph - 2; yy -= dy) {
        for (int xx = dx > 0 ? pg.pw - 2 : 1; xx >= 1 && xx <= pg.pw - 2; xx -= dx) {
          const int n = yy * pg.pw + xx;
          if (!pg.pass[static_cast<size_t>(n)]) continue;
          if (!free_jp.pass(xx + dx, yy) || !free_jp.pass(xx, yy + dy) || !free_jp.pass(xx + dx, yy + dy)) {
            D[static_cast<size_t>(n)] = -1;
          } else if (free_jp.jump_free(xx + dx, yy + dy, dx, true) || free_jp.jump_free(xx + dx, yy + dy, dy, false)) {
            D[static_cast<size_t>(n)] = 1;
          } else {
            const int32_t next = D[static_cast<size_t>(n + dy * pg.pw + dx)];
            D[static_cast<size_t>(n)] = next > 0 ? next + 1 : next - 1;
          }
        }
      }
    }
    ws.jump_tables_ready = true;
  }
  ws.begin_search(pg.pass.size());
  const int s = pg.id(start), t = pg.id(goal);
  const Jumper jp{pg,
                  goal.x + 1,
                  goal.y + 1,
                  {ws.straight[0].data(), ws.straight[1].data(), ws.straight[2].data(), ws.straight[3].data()}};
  const bool trace = opt.record_trace;
  const int pw = pg.pw;
  // Row of a node by multiplying with 1/pw: (n + 0.5) / pw is at least 0.5 / pw away from a
  // whole number, far more than the rounding error, so the floor is exact (no division).
  const double inv_pw = 1.0 / pw;
  auto row = [inv_pw](int n) { return static_cast<int>((n + 0.5) * inv_pw); };
  auto hxy = [&](int x, int y) {
    const int dx = std::abs(x - jp.gx), dy = std::abs(y - jp.gy);
    return dx < dy ? (dy - dx) + kSqrt2 * dx : (dx - dy) + kSqrt2 * dy;
  };
  auto h = [&](int n) {
    const int y = row(n);
    return hxy(n - y * pw, y);
  };
  auto rec = [&](int n, TraceEvent::Kind kind, double g, double f) {
    out.trace.push_back(TraceEvent{pg.cell(n), kind, static_cast<float>(g), static_cast<float>(f)});
  };

  ws.set(s, 0.0, -1);
  ws.open.push({h(s), 0.0, s});
  ++out.generated;
  if (trace) rec(s, TraceEvent::open, 0.0, h(s));
  int dirs[8][2];
  while (!ws.open.empty()) {
    const HeapEntry e = ws.open.pop();
    const int n = e.node();
    ws.close(n);
    const double gn = ws.nodes[n].g;
    if (trace) rec(n, TraceEvent::close, gn, e.f());
    if (n == t) break;
    if (opt.max_expansions > 0 && out.expanded >= opt.max_expansions) {
      out.details |= kDetailBudgetExhausted;
      break;
    }
    ++out.expanded;
    const int y = row(n), x = n - y * pw;
    int nd = 0;
    const int p = ws.nodes[n].parent;
    if (p < 0) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx || dy) dirs[nd][0] = dx, dirs[nd][1] = dy, ++nd;
    } else {
      const int py = row(p);
      const int dx = sgn(x - (p - py * pw)), dy = sgn(y - py);
      if (dx && dy) {
        dirs[nd][0] = dx, dirs[nd][1] = 0, ++nd;
        dirs[nd][0] = 0, dirs[nd][1] = dy, ++nd;
        dirs[nd][0] = dx, dirs[nd][1] = dy, ++nd;
      } else if (dx) {
        dirs[nd][0] = dx, dirs[nd][1] = 0, ++nd;
        for (int side = -1; side <= 1; side += 2) {
          if (jp.pass(x, y + side) && !jp.pass(x - dx, y + side)) {
            dirs[nd][0] = 0, dirs[nd][1] = side, ++nd;
            dirs[nd][0] = dx, dirs[nd][1] = side, ++nd;
          }
        }
      } else {
        dirs[nd][0] = 0, dirs[nd][1] = dy, ++nd;
        for (int side = -1; side <= 1; side += 2) {
          if (jp.pass(x + side, y) && !jp.pass(x + side, y - dy)) {
            dirs[nd][0] = side, dirs[nd][1] = 0, ++nd;
            dirs[nd][0] = side, dirs[nd][1] = dy, ++nd;
          }
        }
      }
    }
    for (int i = 0; i < nd; ++i) {
      const int ddx = dirs[i][0], ddy = dirs[i][1];
      const int m = (ddx && ddy) ? jp.diagonal_pre(x, y, ddx, ddy,
                                                   ws.diag[(ddx > 0) | ((ddy > 0) << 1)][static_cast<size_t>(n)])
                                 : jp.jump(x, y, ddx, ddy);
      if (m < 0 || ws.is_closed(m)) continue;
      const int my = row(m), mx = m - my * pw;
      const int steps = std::max(std::abs(mx - x), std::abs(my - y));
      const double ng = gn + steps * ((dirs[i][0] && dirs[i][1]) ? kSqrt2 : 1.0);
      const bool seen = ws.seen(m);
      if (seen && ng >= ws.nodes[m].g) continue;
      ws.set(m, ng, n);
      const double f = ng + hxy(mx, my);
      ws.open_node(m, f, ng, seen);
      ++out.generated;
      if (trace) rec(m, TraceEvent::open, ng, f);
    }
  }
  if (!ws.is_closed(t)) return;
  out.cost = ws.nodes[t].g;
  finish_node_path(out, pg, ws.nodes.data(), t);
}

}  // namespace pathlab
