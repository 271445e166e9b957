// Jump point search (Harabor & Grastien 2011) in its no-corner-cutting form: a diagonal step
// needs both orthogonal neighbours passable, straight moves have forced neighbours where a
// side cell opens up behind a wall, and diagonal moves have none. Straight scans read 64 cells
// at a time from bit rows (and bit columns for vertical scans), as in Harabor & Grastien 2014.

#include <bit>
#include <cmath>

#include "grid_search_internal.hpp"

namespace pathlab {

using namespace detail;

void detail::BitLines::build(const PaddedGrid& g, bool transpose) {
  lines = transpose ? g.pw : g.ph;
  const int len = transpose ? g.ph : g.pw;
  words = (len + 128 + 63) / 64;
  bits.assign(static_cast<size_t>(lines) * static_cast<size_t>(words), 0);
  for (int k = 0; k < lines; ++k) {
    uint64_t* w = bits.data() + static_cast<size_t>(k) * static_cast<size_t>(words);
    for (int i = 0; i < len; ++i) {
      const int id = transpose ? i * g.pw + k : k * g.pw + i;
      if (g.pass[static_cast<size_t>(id)]) {
        const int b = i + 64;
        w[b >> 6] |= uint64_t{1} << (b & 63);
      }
    }
  }
}

namespace {

/// 64 flags of one line starting at position i (bit j = position i + j). Requires i >= -64.
inline uint64_t get64(const uint64_t* w, int i) {
  const int base = i + 64;
  const int word = base >> 6, sh = base & 63;
  uint64_t v = w[word] >> sh;
  if (sh) v |= w[word + 1] << (64 - sh);
  return v;
}

/// Scans line k of `bl` from position i0 in direction +1 or -1. Returns the first position that
/// is blocked (is_jump = false) or has a forced neighbour (is_jump = true).
inline int scan(const BitLines& bl, int k, int i0, int dir, bool& is_jump) {
  const uint64_t* L = bl.line(k);
  const uint64_t* A = bl.line(k - 1);
  const uint64_t* B = bl.line(k + 1);
  if (dir > 0) {
    for (int i = i0;; i += 64) {
      const uint64_t c = get64(L, i);
      const uint64_t stop = ~c | (get64(A, i) & ~get64(A, i - 1)) | (get64(B, i) & ~get64(B, i - 1));
      if (stop) {
        const int j = std::countr_zero(stop);
        is_jump = (c >> j) & 1u;
        return i + j;
      }
    }
  }
  for (int i = i0;; i -= 64) {
    const int lo = i - 63;
    const uint64_t c = get64(L, lo);
    const uint64_t stop = ~c | (get64(A, lo) & ~get64(A, lo + 1)) | (get64(B, lo) & ~get64(B, lo + 1));
    if (stop) {
      const int j = 63 - std::countl_zero(stop);
      is_jump = (c >> j) & 1u;
      return lo + j;
    }
  }
}

struct Jumper {
  const PaddedGrid& pg;
  const BitLines& rows;
  const BitLines& cols;
  int gx, gy;  // goal, padded coordinates

  bool pass(int x, int y) const { return pg.pass[static_cast<size_t>(y * pg.pw + x)]; }

  /// Straight jump along a row (horizontal = true) or column from (x, y), exclusive. Returns the
  /// position along the line of the jump point or goal, or -1.
  int straight(int x, int y, int d, bool horizontal) const {
    const int k = horizontal ? y : x;
    const int i0 = (horizontal ? x : y) + d;
    bool is_jump = false;
    const int stop = scan(horizontal ? rows : cols, k, i0, d, is_jump);
    const int goal_k = horizontal ? gy : gx, goal_i = horizontal ? gx : gy;
    if (goal_k == k && (d > 0 ? (goal_i >= i0 && goal_i <= stop) : (goal_i <= i0 && goal_i >= stop))) {
      return goal_i;  // the goal is passable, so it comes no later than the blocked stop
    }
    return is_jump ? stop : -1;
  }

  /// Diagonal jump from (x, y). Returns the jump point's id or -1.
  int diagonal(int x, int y, int dx, int dy) const {
    for (;;) {
      if (!pass(x + dx, y) || !pass(x, y + dy) || !pass(x + dx, y + dy)) return -1;
      x += dx;
      y += dy;
      if (x == gx && y == gy) return y * pg.pw + x;
      if (straight(x, y, dx, true) >= 0 || straight(x, y, dy, false) >= 0) return y * pg.pw + x;
    }
  }

  /// Jump from (x, y) in direction (dx, dy); returns the id of the jump point or -1.
  int jump(int x, int y, int dx, int dy) const {
    if (dx != 0 && dy != 0) return diagonal(x, y, dx, dy);
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
  if (!ws.bits_ready) {
    ws.rows.build(pg, false);
    ws.cols.build(pg, true);
    ws.bits_ready = true;
  }
  ws.begin_search(pg.pass.size());
  const int s = pg.id(start), t = pg.id(goal);
  const Jumper jp{pg, ws.rows, ws.cols, goal.x + 1, goal.y + 1};
  const bool trace = opt.record_trace;
  auto h = [&](int n) {
    const int dx = std::abs(n % pg.pw - jp.gx), dy = std::abs(n / pg.pw - jp.gy);
    return dx < dy ? (dy - dx) + kSqrt2 * dx : (dx - dy) + kSqrt2 * dy;
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
    const int x = n % pg.pw, y = n / pg.pw;
    int nd = 0;
    const int p = ws.nodes[n].parent;
    if (p < 0) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (dx || dy) dirs[nd][0] = dx, dirs[nd][1] = dy, ++nd;
    } else {
      const int dx = sgn(x - p % pg.pw), dy = sgn(y - p / pg.pw);
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
      const int m = jp.jump(x, y, dirs[i][0], dirs[i][1]);
      if (m < 0 || ws.is_closed(m)) continue;
      const int steps = std::max(std::abs(m % pg.pw - x), std::abs(m / pg.pw - y));
      const double ng = gn + steps * ((dirs[i][0] && dirs[i][1]) ? kSqrt2 : 1.0);
      const bool seen = ws.seen(m);
      if (seen && ng >= ws.nodes[m].g) continue;
      ws.set(m, ng, n);
      const double f = ng + h(m);
      ws.open_node(m, f, ng, seen);
      ++out.generated;
      if (trace) rec(m, TraceEvent::open, ng, f);
    }
  }
  if (!ws.is_closed(t)) return;
  std::vector<Cell> cells;
  for (int n = t; n != -1; n = ws.nodes[n].parent) cells.push_back(pg.cell(n));
  out.found = true;
  out.cells.assign(cells.rbegin(), cells.rend());
  for (Cell c : out.cells) out.points.push_back(cell_center(c));
  out.length = polyline_length(out.points);
  out.cost = ws.nodes[t].g;
}

}  // namespace pathlab
