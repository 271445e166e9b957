// Jump point search (Harabor & Grastien 2011) in its no-corner-cutting form: a diagonal step
// needs both orthogonal neighbours passable, straight moves have forced neighbours where a
// side cell opens up behind a wall, and diagonal moves have none. A jump reads every cell's
// goal-free jump in its direction from one of two sources that agree entry for entry:
// - block-based jumping (Harabor & Grastien 2014, "Improving Jump Point Search"; jps_blocks.hpp):
//   computed online from the passability bits, 64 cells a word, no preprocessing beyond the bits;
// - the jump tables of JPS+ (Harabor & Grastien 2014; jps_tables.cpp): one read a jump.
// A fresh map is searched with block jumping; the tables are built once the block-jumping
// searches since the map was prepared have expanded about as many nodes as building the tables
// costs (kBlockExpansionsPerCell), so a single query never pays for them and a long run of
// queries soon reads them. Goal handling is the same for both: a straight jump is the entry,
// unless the goal lies on the line before its stop, and a diagonal jump is one entry plus full
// checks only at the (at most two) steps whose row or column holds the goal, the only places
// where the goal can change the answer. The cells where a diagonal jump stops are not
// searched themselves (see JpsSearch).

#include <algorithm>
#include <cmath>

#include "grid/grid_search_internal.hpp"
#include "grid/jps_blocks.hpp"

namespace pathlab {

using namespace detail;

namespace {

using JumpCell = GridSearchWorkspace::JumpCell;

/// Block-jumping expansions per map cell after which the tables are built: measured on the
/// 512x512 Moving AI maps (bench_grid first_query_* and jps_blocks/*), a block-jumping
/// expansion costs about as much extra as building the tables costs per cell divided by this.
constexpr double kBlockExpansionsPerCell = 0.25;

/// The goal-free jumps read from the tables (jps_tables.cpp). An entry of +-kFarJump goes on
/// kFarStep steps further along (rare: only runs that long); the result is the whole jump.
struct TableJumps {
  const JumpCell* jc;
  int pw;
  static constexpr int kFar = GridSearchWorkspace::kFarJump, kStep = GridSearchWorkspace::kFarStep;
  /// Whether entry e is a far code (+-kFar; entries lie in [-kFar, kFar]): one comparison.
  static bool far(int32_t e) { return static_cast<uint32_t>(e + (kFar - 1)) > 2u * (kFar - 1); }
  /// The rest of a far jump: the entries at id + kStep * step, ... until one is not far.
  __attribute__((noinline, cold)) int32_t whole(int id, int step, int field, bool diag) const {
    int32_t more = 0, e = kFar;
    while (far(e)) {
      more += kStep;
      id += kStep * step;
      e = diag ? jc[id].diag[field] : jc[id].straight[field];
    }
    return e > 0 ? e + more : e - more;  // a far code's sign is that of the entry it leads to
  }
  int32_t straight(int x, int y, int si) const {
    const int32_t e = jc[y * pw + x].straight[si];
    if (__builtin_expect(!far(e), 1)) return e;
    return whole(y * pw + x, si == 0 ? 1 : si == 1 ? -1 : si == 2 ? pw : -pw, si, false);
  }
  int32_t diagonal(int x, int y, int di) const {
    const int32_t e = jc[y * pw + x].diag[di];
    if (__builtin_expect(!far(e), 1)) return e;
    return whole(y * pw + x, ((di & 1) ? 1 : -1) + ((di & 2) ? pw : -pw), di, true);
  }
  void prefetch(int id) const { __builtin_prefetch(jc + id); }
};

/// Jumps towards one goal, from goal-free jumps of `Source` (TableJumps or BlockJumps). Every
/// jump returns the number of steps to the cell where it stops (a jump point or the goal), or
/// -1 when it runs into a wall.
template <class Source>
struct Jumper {
  Source src;
  const uint8_t* pass;
  int pw;
  int gx, gy;  // goal, padded coordinates

  bool passable(int x, int y) const { return pass[y * pw + x] != 0; }

  /// Straight jump from (x, y), exclusive, along its row (horizontal) or column, d = +-1. The
  /// goal is passable, so when it lies on the line it comes no later than the blocked stop.
  __attribute__((always_inline)) int straight(int x, int y, int d, bool horizontal) const {
    const int32_t pre = src.straight(x, y, (horizontal ? 0 : 2) + (d < 0));
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
    const int32_t pre = src.diagonal(x, y, (dx > 0) | ((dy > 0) << 1));
    const int last = pre > 0 ? pre - 1 : -pre - 1;  // steps before the precomputed stop
    int s1 = (gy - y) * dy, s2 = (gx - x) * dx;     // steps onto the goal's row and column
    if (s1 > s2) std::swap(s1, s2);
    if (s1 >= 1 && s1 <= last && diagonal_stop(x + s1 * dx, y + s1 * dy, dx, dy)) return s1;
    if (s2 != s1 && s2 >= 1 && s2 <= last && diagonal_stop(x + s2 * dx, y + s2 * dy, dx, dy)) return s2;
    return pre > 0 ? pre : -1;
  }
};

/// One JPS query. Diagonal jump points are pruned (Harabor & Grastien 2014, "Improving Jump
/// Point Search"): where a diagonal jump stops only because a straight scan from its stop cell
/// finds a jump point, that stop cell is not put on the open list; the straight scans' jump
/// points are generated at once, with the expanded node as their parent, and the diagonal
/// carries on from the stop cell. Every g is summed in the same order as when the stop cell was
/// a node (g(stop) = g + k sqrt2, then + the straight run). A parent link is then either a
/// straight or diagonal run, or a diagonal run followed by a straight one; the path rebuild
/// puts the turning cell back.
template <class Source>
class JpsSearch {
 public:
  JpsSearch(GridSearchWorkspace& ws, Source src, Cell goal, bool trace, GridPath& out)
      : ws_(ws), pg_(ws.pg), jp_{src, ws.pg.pass.data(), ws.pg.pw, goal.x + 1, goal.y + 1},
        nodes_(ws.nodes.data()), closed_(ws.jps_closed.data()), pw_(ws.pg.pw), trace_(trace), out_(out) {}

  /// Runs the search from node s; returns whether the goal node t was closed.
  bool run(int s, int t) {
    const int sy = pg_.row(s), sx = s - sy * pw_;
    ws_.set(static_cast<size_t>(s), 0.0, -1);
    ws_.open.push({hxy(sx, sy), 0.0, s});
    ++out_.generated;
    if (trace_) rec(s, TraceEvent::open, 0.0, hxy(sx, sy));
    // As in A*, a jump point generated with exactly the f being expanded skips the heap (on open
    // maps most jump points on the way lie on one f): next_open / open_at.
    ws_.bypass.clear();
    for (;;) {
      const int n = ws_.next_open(fcur_);
      if (n < 0) return false;
      if (closed(n)) continue;
      close(n);
      const double gn = nodes_[n].g;
      if (trace_) rec(n, TraceEvent::close, gn, fcur_);
      if (n == t) return true;
      if (ws_.budget.exhausted(out_.expanded)) {
        out_.details |= kDetailBudgetExhausted;
        return false;
      }
      ++out_.expanded;
      expand(n, gn);
    }
  }

 private:
  struct Succ {
    int m, mx, my;
    double g;
  };

  bool closed(int n) const { return (closed_[n >> 6] >> (n & 63)) & 1u; }
  void close(int n) {
    uint64_t& word = closed_[n >> 6];
    if (word == 0) ws_.jps_closed_words.push_back(n >> 6);
    word |= uint64_t{1} << (n & 63);
  }

  double hxy(int x, int y) const {
    const int dx = std::abs(x - jp_.gx), dy = std::abs(y - jp_.gy);
    return dx < dy ? (dy - dx) + kSqrt2 * dx : (dx - dy) + kSqrt2 * dy;
  }
  void rec(int n, TraceEvent::Kind kind, double g, double f) {
    out_.trace.push_back(TraceEvent{pg_.cell(n), kind, static_cast<float>(g), static_cast<float>(f)});
  }

  /// Queues the straight jump from (x, y) (node id b, cost gb) in direction (dx, dy).
  __attribute__((always_inline)) void straight(int b, int x, int y, double gb, int dx, int dy) {
    const int steps = dx != 0 ? jp_.straight(x, y, dx, true) : jp_.straight(x, y, dy, false);
    if (steps < 0) return;
    const int m = b + steps * (dy * pw_ + dx);
    if (closed(m)) return;  // nothing is closed while a node expands, so flush() need not look again
    if (count_ == kMaxSucc) flush();
    __builtin_prefetch(nodes_ + m);  // read when relaxed, after the other jumps
    succ_[count_++] = Succ{m, x + steps * dx, y + steps * dy, gb + steps * 1.0};
  }

  /// Walks the diagonal (dx, dy) from (x, y), queueing the straight jump points seen from each
  /// stop cell (and the goal when the diagonal reaches it).
  void diagonal(int n, int x, int y, double gn, int dx, int dy) {
    int b = n;  // the stop cell
    double g = gn;
    for (;;) {
      const int k = jp_.diagonal(x, y, dx, dy);
      if (k < 0) return;
      b += k * (dy * pw_ + dx), x += k * dx, y += k * dy;
      g = g + k * kSqrt2;
      if (x == jp_.gx && y == jp_.gy) {
        if (count_ == kMaxSucc) flush();
        succ_[count_++] = Succ{b, x, y, g};
        return;
      }
      if (closed(b)) return;  // its successors were generated from it, no later
      straight(b, x, y, g, dx, 0);
      straight(b, x, y, g, 0, dy);
    }
  }

  void expand(int n, double gn) {
    const int y = pg_.row(n), x = n - y * pw_;
    n_ = n;
    count_ = 0;
    const int p = nodes_[n].parent;
    if (p < 0) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0) continue;
          if (dx != 0 && dy != 0) diagonal(n, x, y, gn, dx, dy);
          else straight(n, x, y, gn, dx, dy);
        }
      flush();
      return;
    }
    // Direction of arrival: that of the last run of the link from the parent (a straight run
    // after a pruned diagonal one is the longer component).
    const int py = pg_.row(p), ex = x - (p - py * pw_), ey = y - py;
    const int ax = std::abs(ex), ay = std::abs(ey);
    const int dx = ax >= ay ? (ex > 0) - (ex < 0) : 0, dy = ay >= ax ? (ey > 0) - (ey < 0) : 0;
    if (dx && dy) {
      straight(n, x, y, gn, dx, 0);
      straight(n, x, y, gn, 0, dy);
      diagonal(n, x, y, gn, dx, dy);
    } else if (dx) {
      straight(n, x, y, gn, dx, 0);
      for (int side = -1; side <= 1; side += 2) {
        if (jp_.passable(x, y + side) && !jp_.passable(x - dx, y + side)) {
          straight(n, x, y, gn, 0, side);
          diagonal(n, x, y, gn, dx, side);
        }
      }
    } else {
      straight(n, x, y, gn, 0, dy);
      for (int side = -1; side <= 1; side += 2) {
        if (jp_.passable(x + side, y) && !jp_.passable(x + side, y - dy)) {
          straight(n, x, y, gn, side, 0);
          diagonal(n, x, y, gn, side, dy);
        }
      }
    }
    flush();
  }

  /// Relaxes the queued successors of the node being expanded, in the order they were found.
  void flush() {
    const int n = n_;
    for (int i = 0; i < count_; ++i) {
      const Succ& c = succ_[i];  // not closed: straight() and diagonal() queue no closed node
      const bool seen = ws_.seen(static_cast<size_t>(c.m));
      if (seen && c.g >= nodes_[c.m].g) continue;
      ws_.set(static_cast<size_t>(c.m), c.g, n);
      const double f = c.g + hxy(c.mx, c.my);
      ws_.open_at(c.m, f, c.g, seen, fcur_);
      jp_.src.prefetch(c.m);  // read when m is expanded, often soon (the bypass)
      ++out_.generated;
      if (trace_) rec(c.m, TraceEvent::open, c.g, f);
    }
    count_ = 0;
  }

  static constexpr int kMaxSucc = 64;
  GridSearchWorkspace& ws_;
  const PaddedGrid& pg_;
  const Jumper<Source> jp_;
  GridSearchWorkspace::NodeData* nodes_;
  uint64_t* closed_;  // ws.jps_closed
  int pw_;
  bool trace_;
  GridPath& out_;
  double fcur_ = 0.0;
  int n_ = -1;  // the node being expanded
  int count_ = 0;
  Succ succ_[kMaxSucc];
};

/// The path from the start to node t: parent links, with the turning cell of each link made
/// of a diagonal run and a straight one put back (see JpsSearch).
void finish_jps_path(GridPath& out, const PaddedGrid& pg, const GridSearchWorkspace::NodeData* nodes, int t) {
  // The turning cell of a link from parent p to c, or false when the link is one run.
  auto turn = [&](int c, int p, Cell& at) {
    const Cell cc = pg.cell(c), pc = pg.cell(p);
    const int ex = cc.x - pc.x, ey = cc.y - pc.y, k = std::min(std::abs(ex), std::abs(ey));
    if (k == 0 || std::abs(ex) == std::abs(ey)) return false;
    at = Cell{pc.x + k * ((ex > 0) - (ex < 0)), pc.y + k * ((ey > 0) - (ey < 0))};
    return true;
  };
  size_t count = 0;
  Cell at;
  for (int n = t; n != -1; n = nodes[n].parent) count += 1 + (nodes[n].parent >= 0 && turn(n, nodes[n].parent, at));
  out.cells.resize(count);
  out.points.resize(count);
  size_t i = count;
  auto put = [&](Cell c) {
    --i;
    out.cells[i] = c;
    out.points[i] = cell_center(c);
  };
  for (int n = t; n != -1; n = nodes[n].parent) {
    put(pg.cell(n));
    if (nodes[n].parent >= 0 && turn(n, nodes[n].parent, at)) put(at);
  }
  out.found = true;
  out.cost = nodes[t].g;
  out.length = out.cost;  // the cost of straight and diagonal runs is their length
}

/// Empties JPS's closed set: clears the words the last search wrote (all of them when the map's
/// size changed), so a short search on a large map clears little.
void clear_closed(GridSearchWorkspace& ws) {
  const size_t words = (ws.pg.pass.size() + 63) / 64;
  if (ws.jps_closed.size() != words) {
    ws.jps_closed.assign(words, 0);
  } else {
    for (const int32_t w : ws.jps_closed_words) ws.jps_closed[static_cast<size_t>(w)] = 0;
  }
  ws.jps_closed_words.clear();
}

template <class Source>
void run_jps(GridSearchWorkspace& ws, Source src, Cell start, Cell goal, const GridSearchOptions& opt,
             GridPath& out) {
  ws.begin_search(ws.pg.pass.size());
  clear_closed(ws);
  const int s = ws.pg.id(start), t = ws.pg.id(goal);
  JpsSearch<Source> search(ws, src, goal, opt.record_trace, out);
  if (search.run(s, t)) finish_jps_path(out, ws.pg, ws.nodes.data(), t);
}

/// Whether the block-jumping searches since prepare() have expanded enough nodes to pay for
/// building the tables.
bool jps_tables_due(const GridSearchWorkspace& ws) {
  return static_cast<double>(ws.block_expanded) >= kBlockExpansionsPerCell * static_cast<double>(ws.pg.pass.size());
}

}  // namespace

/// JPS from `start` to `goal`, reading its jumps as `mode` says (GridSearchOptions::jps_jumps,
/// or blocks where the tables would exceed the memory cap).
void search_jps(GridSearchWorkspace& ws, Cell start, Cell goal, const GridSearchOptions& opt, JpsJumps mode,
                GridPath& out) {
  if (!ws.jump_tables_ready &&
      (mode == JpsJumps::tables || (mode == JpsJumps::automatic && jps_tables_due(ws)))) {
    build_jump_tables(ws);
  }
  if (ws.jump_tables_ready && mode != JpsJumps::blocks) {
    run_jps(ws, TableJumps{ws.jumps.data(), ws.pg.pw}, start, goal, opt, out);
    return;
  }
  if (!ws.pass_bits_ready) {
    ws.pass_bits.build(ws.pg);
    ws.pass_bits_ready = true;
  }
  run_jps(ws, BlockJumps{ws.pg.pass.data(), &ws.pass_bits, ws.pg.pw}, start, goal, opt, out);
  ws.block_expanded += out.expanded;
}

}  // namespace pathlab
