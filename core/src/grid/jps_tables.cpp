// JPS's goal-free jump tables (JPS+, Harabor & Grastien 2014, in the no-corner-cutting form
// of jps.cpp): built whole on the first JPS query, and mended in place after an edit.
//
// Every entry follows from its successor's in the same direction and from the passability of
// a few cells around it, so an edit changes an entry only (a) near the changed cells or (b)
// through a chain of successors from one that changed. The mend recomputes the entries of (a)
// and walks each chain backwards while values keep changing: along the rows and columns
// within one cell of a changed cell (a jump distance changes up to the next wall of its row
// segment), and along the diagonals whose successor's straight entries changed sign (a diagonal
// entry reads only whether its successor's straight scans find a jump point).

#include <algorithm>
#include <cstdint>

#include "grid/grid_search_internal.hpp"

namespace pathlab::detail {
namespace {

using JumpCell = GridSearchWorkspace::JumpCell;

/// The table and the passability it is built from; entry functions read a cell's successor.
struct Tables {
  JumpCell* J;
  const uint8_t* pass;
  int pw, ph;

  bool P(int x, int y) const { return pass[y * pw + x] != 0; }

  /// The entry one step before a cell whose entry (same direction) is `next`: one step longer,
  /// "far" once longer than kFarStep (the sign kept). A far entry is then the same for every
  /// cell of a long run, so an edit changes entries at most kFarStep + 1 cells back, unless
  /// it turns what a long run ends at from a jump point into a wall or back.
  static int8_t step_back(int next) {
    constexpr int kFar = GridSearchWorkspace::kFarJump, kStep = GridSearchWorkspace::kFarStep;
    if (next > 0) return static_cast<int8_t>(next >= kStep ? kFar : next + 1);
    return static_cast<int8_t>(next <= -kStep ? -kFar : next - 1);
  }

  /// Straight entry si (0 +x, 1 -x, 2 +y, 3 -y) of passable (x, y), from its successor's.
  /// A scan stops at a blocked cell or at one with a forced neighbour (a side cell passable
  /// there and blocked one cell back).
  int8_t straight(int x, int y, int si) const {
    const int d = (si & 1) ? -1 : 1;
    const int dx = si < 2 ? d : 0, dy = si < 2 ? 0 : d;
    const int nx = x + dx, ny = y + dy;  // the next position of the scan
    if (!P(nx, ny)) return -1;
    if ((P(nx + dy, ny + dx) && !P(nx + dy - dx, ny + dx - dy)) ||
        (P(nx - dy, ny - dx) && !P(nx - dy - dx, ny - dx - dy))) {
      return 1;
    }
    return step_back(J[ny * pw + nx].straight[si]);
  }

  /// Diagonal entry di (index (dx > 0) | (dy > 0) << 1) of passable (x, y): stops at a step
  /// whose row or column scan stops at a jump point. Needs the successor's straight entries.
  int8_t diagonal(int x, int y, int di) const {
    const int dx = (di & 1) ? 1 : -1, dy = (di & 2) ? 1 : -1;
    if (!P(x + dx, y) || !P(x, y + dy) || !P(x + dx, y + dy)) return -1;  // no corner cutting
    const JumpCell& next = J[(y + dy) * pw + x + dx];
    if (next.straight[dx > 0 ? 0 : 1] > 0 || next.straight[dy > 0 ? 2 : 3] > 0) return 1;
    return step_back(next.diag[di]);
  }

  /// Recomputes one entry (0 for a blocked cell, as a build leaves it); true when it changed.
  bool mend_straight(int x, int y, int si, int32_t& was) const {
    int8_t& e = J[y * pw + x].straight[si];
    was = e;
    e = P(x, y) ? straight(x, y, si) : int8_t{0};
    return e != was;
  }
  bool mend_diagonal(int x, int y, int di) const {
    int8_t& e = J[y * pw + x].diag[di];
    const int8_t was = e;
    e = P(x, y) ? diagonal(x, y, di) : int8_t{0};
    return e != was;
  }
};

/// Rows (or columns) a mend visits: per line the span of changed cells within one line of it.
struct LineSpans {
  std::vector<int> lo, hi;
  void reset(int lines) {
    lo.assign(static_cast<size_t>(lines), INT32_MAX);
    hi.assign(static_cast<size_t>(lines), INT32_MIN);
  }
  void add(int line, int at) {
    lo[static_cast<size_t>(line)] = std::min(lo[static_cast<size_t>(line)], at);
    hi[static_cast<size_t>(line)] = std::max(hi[static_cast<size_t>(line)], at);
  }
};

/// Mends straight table si along one line (a row for si 0/1, a column for 2/3) over [lo, hi]
/// (positions along the line, clamped to the map), then on backwards (against the scan
/// direction) while entries keep changing. Cells whose entry changed sign (jump point found or
/// not) get bit si in `flips`, and are listed once in `flipped`.
void mend_line(const Tables& t, int si, int line, int lo, int hi, int last, std::vector<uint8_t>& flips,
               std::vector<int32_t>& flipped) {
  lo = std::max(lo, 1);
  hi = std::min(hi, last);
  const bool horizontal = si < 2;
  const int step = (si & 1) ? 1 : -1;  // against the scan: a +x scan's entries are mended right to left
  int at = step < 0 ? hi : lo;
  for (bool changed = true; at >= 1 && at <= last && (changed || (at >= lo && at <= hi)); at += step) {
    const int x = horizontal ? at : line, y = horizontal ? line : at;
    int32_t was = 0;
    changed = t.mend_straight(x, y, si, was);
    const int32_t now = t.J[y * t.pw + x].straight[si];
    if (changed && (was > 0) != (now > 0)) {
      uint8_t& f = flips[static_cast<size_t>(y * t.pw + x)];
      if (f == 0) flipped.push_back(y * t.pw + x);
      f = static_cast<uint8_t>(f | (1u << si));
    }
  }
}

/// Mends diagonal table di: the cells in `seeds` first, each then backwards along its diagonal
/// while entries keep changing. Seeds are taken successors first (by row against dy), so every
/// successor an entry reads is final when it is computed.
void mend_diagonals(const Tables& t, int di, std::vector<int32_t>& seeds) {
  const int dx = (di & 1) ? 1 : -1, dy = (di & 2) ? 1 : -1;
  std::sort(seeds.begin(), seeds.end());
  seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
  if (dy > 0) std::reverse(seeds.begin(), seeds.end());  // +y successors lie on higher rows
  const int back = dy * t.pw + dx;
  for (const int32_t s : seeds) {
    for (int id = s;; id -= back) {
      const int y = id / t.pw, x = id - y * t.pw;
      if (x < 1 || y < 1 || x >= t.pw - 1 || y >= t.ph - 1) break;  // the blocked border never changes
      if (!t.mend_diagonal(x, y, di)) break;  // unchanged: so is everything before it on the diagonal
      if (!t.P(x, y)) break;  // a blocked cell's predecessor reads only that it is blocked
    }
  }
}

}  // namespace

void build_jump_tables(GridSearchWorkspace& ws) {
  const PaddedGrid& pg = ws.pg;
  const int pw = pg.pw, ph = pg.ph;
  ws.jumps.assign(pg.pass.size(), JumpCell{});
  const Tables t{ws.jumps.data(), pg.pass.data(), pw, ph};
  JumpCell* J = t.J;
  // Two sweeps over the rows instead of one per direction (the table is 8 bytes a cell, so
  // each sweep is a pass over memory): bottom-up for the +y directions and both row directions,
  // top-down for the -y directions, each row finished while it is in cache.
  for (int y = ph - 2; y >= 1; --y) {
    for (int x = pw - 2; x >= 1; --x)
      if (t.P(x, y)) J[y * pw + x].straight[0] = t.straight(x, y, 0);
    for (int x = 1; x <= pw - 2; ++x) {
      if (!t.P(x, y)) continue;  // only passable cells are ever looked up
      JumpCell& c = J[y * pw + x];
      c.straight[1] = t.straight(x, y, 1);
      c.straight[2] = t.straight(x, y, 2);
      c.diag[2] = t.diagonal(x, y, 2);  // (-1, +1)
      c.diag[3] = t.diagonal(x, y, 3);  // (+1, +1)
    }
  }
  for (int y = 1; y <= ph - 2; ++y) {
    for (int x = 1; x <= pw - 2; ++x) {
      if (!t.P(x, y)) continue;
      JumpCell& c = J[y * pw + x];
      c.straight[3] = t.straight(x, y, 3);
      c.diag[0] = t.diagonal(x, y, 0);  // (-1, -1)
      c.diag[1] = t.diagonal(x, y, 1);  // (+1, -1)
    }
  }
  ws.jump_tables_ready = true;
}

void update_jump_tables(GridSearchWorkspace& ws, const std::vector<int32_t>& pass_changed) {
  const PaddedGrid& pg = ws.pg;
  const int pw = pg.pw, ph = pg.ph;
  const Tables t{ws.jumps.data(), pg.pass.data(), pw, ph};
  // Straight entries read the passability of their own line and the two beside it.
  LineSpans rows, cols;
  rows.reset(ph);
  cols.reset(pw);
  for (const int32_t id : pass_changed) {
    const int y = id / pw, x = id - y * pw;
    for (int k = -1; k <= 1; ++k) {
      rows.add(y + k, x);
      cols.add(x + k, y);
    }
  }
  std::vector<uint8_t>& flips = ws.mark;
  flips.assign(pg.pass.size(), 0);
  std::vector<int32_t> flipped;
  for (int y = 1; y <= ph - 2; ++y) {
    if (rows.lo[static_cast<size_t>(y)] > rows.hi[static_cast<size_t>(y)]) continue;
    for (int si = 0; si < 2; ++si)
      mend_line(t, si, y, rows.lo[static_cast<size_t>(y)] - 1, rows.hi[static_cast<size_t>(y)] + 1, pw - 2, flips,
                flipped);
  }
  for (int x = 1; x <= pw - 2; ++x) {
    if (cols.lo[static_cast<size_t>(x)] > cols.hi[static_cast<size_t>(x)]) continue;
    for (int si = 2; si < 4; ++si)
      mend_line(t, si, x, cols.lo[static_cast<size_t>(x)] - 1, cols.hi[static_cast<size_t>(x)] + 1, ph - 2, flips,
                flipped);
  }
  // A diagonal entry reads three cells' passability and its successor's straight signs.
  std::vector<int32_t> seeds;
  for (int di = 0; di < 4; ++di) {
    const int dx = (di & 1) ? 1 : -1, dy = (di & 2) ? 1 : -1;
    const uint8_t reads = static_cast<uint8_t>((1u << (dx > 0 ? 0 : 1)) | (1u << (dy > 0 ? 2 : 3)));
    seeds.clear();
    for (const int32_t q : pass_changed) {
      seeds.push_back(q);
      seeds.push_back(q - dx);
      seeds.push_back(q - dy * pw);
      seeds.push_back(q - dx - dy * pw);
    }
    for (const int32_t q : flipped)
      if ((flips[static_cast<size_t>(q)] & reads) != 0) seeds.push_back(q - dx - dy * pw);
    mend_diagonals(t, di, seeds);
  }
}

}  // namespace pathlab::detail
