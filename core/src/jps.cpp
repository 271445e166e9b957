// Jump point search (Harabor & Grastien 2011) in its no-corner-cutting form: a diagonal step
// needs both orthogonal neighbours passable, straight moves have forced neighbours where a
// side cell opens up behind a wall, and diagonal moves have none. Straight scans read 64 cells
// at a time from bit rows (and bit columns for vertical scans), as in Harabor & Grastien 2014,
// with the stop flags (blocked or forced neighbour) of each line and direction precomputed per
// grid, so a scan reads one word per 64 cells instead of six.

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
/// Branch-free: for sh == 0 the next word is read but shifted out entirely; it exists for every
/// position a scan reaches (scans stop at the blocked border, 64 bits before the line's end).
__attribute__((always_inline)) inline uint64_t get64(const uint64_t* w, int i) {
  const int base = i + 64;
  const int word = base >> 6, sh = base & 63;
  return (w[word] >> sh) | ((w[word + 1] << 1) << (63 - sh));
}

/// Scans line k from position i0 in direction +1 or -1, one 64-bit word of precomputed stop
/// flags at a time. Returns the first position that is blocked (is_jump = false) or has a
/// forced neighbour (is_jump = true).
__attribute__((always_inline)) inline int scan(const BitLines& pass, const BitLines& stops, int k, int i0, int dir,
                                               bool& is_jump) {
  const uint64_t* S = stops.line(k);
  int stop;
  if (dir > 0) {
    for (int i = i0;; i += 64) {
      const uint64_t v = get64(S, i);
      if (v) {
        stop = i + std::countr_zero(v);
        break;
      }
    }
  } else {
    for (int i = i0;; i -= 64) {
      const int lo = i - 63;
      const uint64_t v = get64(S, lo);
      if (v) {
        stop = lo + 63 - std::countl_zero(v);
        break;
      }
    }
  }
  is_jump = pass.test(k, stop);
  return stop;
}

struct Jumper {
  const PaddedGrid& pg;
  const BitLines& rows;
  const BitLines& cols;
  const BitLines* row_stops;  // [0]: towards +1, [1]: towards -1
  const BitLines* col_stops;
  int gx, gy;  // goal, padded coordinates

  bool pass(int x, int y) const { return pg.pass[static_cast<size_t>(y * pg.pw + x)]; }

  /// Straight jump along a row (horizontal = true) or column from (x, y), exclusive. Returns the
  /// position along the line of the jump point or goal, or -1.
  __attribute__((always_inline)) int straight(int x, int y, int d, bool horizontal) const {
    const int k = horizontal ? y : x;
    const int i0 = (horizontal ? x : y) + d;
    bool is_jump = false;
    const int stop = scan(horizontal ? rows : cols, (horizontal ? row_stops : col_stops)[d < 0], k, i0, d, is_jump);
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

void detail::BitLines::build_stops(const BitLines& pass, int dir) {
  lines = pass.lines;
  words = pass.words;
  // Bits outside the line (word 0 and the last word) stay set: outside is blocked.
  bits.assign(pass.bits.size(), ~uint64_t{0});
  const std::vector<uint64_t> none(static_cast<size_t>(words), 0);  // beyond the first and last line
  for (int k = 0; k < lines; ++k) {
    const uint64_t* L = pass.line(k);
    const uint64_t* A = k > 0 ? pass.line(k - 1) : none.data();
    const uint64_t* B = k + 1 < lines ? pass.line(k + 1) : none.data();
    uint64_t* w = bits.data() + static_cast<size_t>(k) * static_cast<size_t>(words);
    for (int j = 1; j + 1 < words; ++j) {
      const int p = j * 64 - 64;  // first position of word j
      w[j] = ~L[j] | (A[j] & ~get64(A, p - dir)) | (B[j] & ~get64(B, p - dir));
    }
  }
}

void search_jps(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, GridPath& out) {
  PaddedGrid& pg = ws.pg;
  if (!ws.bits_ready) {
    ws.rows.build(pg, false);
    ws.cols.build(pg, true);
    for (int i = 0; i < 2; ++i) {
      ws.row_stops[i].build_stops(ws.rows, i == 0 ? 1 : -1);
      ws.col_stops[i].build_stops(ws.cols, i == 0 ? 1 : -1);
    }
    ws.bits_ready = true;
  }
  ws.begin_search(pg.pass.size());
  const int s = pg.id(start), t = pg.id(goal);
  const Jumper jp{pg, ws.rows, ws.cols, ws.row_stops, ws.col_stops, goal.x + 1, goal.y + 1};
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
      const int m = jp.jump(x, y, dirs[i][0], dirs[i][1]);
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
