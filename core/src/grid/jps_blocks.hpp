#pragma once
// Internal: JPS's jumps computed online, 64 cells at a time (the block-based jumping of
// Harabor & Grastien 2014, "Improving Jump Point Search", as in JPS2), from the passability
// bits of PassBits. Every function returns what the goal-free jump table entry of jps_tables.cpp
// holds for the same cell and direction, so a search reading these and one reading the tables
// expand the same nodes in the same order. Used until (or instead of) the tables being built.

#include <bit>
#include <cstdint>

#include "grid/grid_search_internal.hpp"

namespace pathlab::detail {

/// Steps from position `at` (exclusive) along line `line` of `bits` in direction d (+1 or -1)
/// to the first cell that is blocked (returned negated) or has a forced neighbour (positive):
/// a cell of one of the two side lines passable there and blocked one step back. Lines are
/// `words` words long; the first and last position of every line and the first and last line
/// are blocked (the padding), so every scan stops inside the line. [Units: cells]
inline int32_t block_scan(const uint64_t* bits, int words, int line, int at, int d) {
  const uint64_t* cur = bits + static_cast<ptrdiff_t>(line) * words;
  const uint64_t* lo = cur - words;  // the side lines
  const uint64_t* hi = cur + words;
  if (d > 0) {
    int k = (at + 1) >> 6;
    uint64_t keep = ~uint64_t{0} << ((at + 1) & 63);  // positions after `at`
    for (;; ++k, keep = ~uint64_t{0}) {
      const uint64_t carry_lo = k > 0 ? lo[k - 1] >> 63 : 0, carry_hi = k > 0 ? hi[k - 1] >> 63 : 0;
      const uint64_t back_lo = (lo[k] << 1) | carry_lo, back_hi = (hi[k] << 1) | carry_hi;  // one step back
      const uint64_t stop = (~cur[k] | (lo[k] & ~back_lo) | (hi[k] & ~back_hi)) & keep;
      if (stop == 0) continue;
      const int bit = std::countr_zero(stop), p = (k << 6) + bit;
      return ((cur[k] >> bit) & 1u) ? p - at : -(p - at);
    }
  }
  int k = (at - 1) >> 6;
  const int top = (at - 1) & 63;
  uint64_t keep = top == 63 ? ~uint64_t{0} : (uint64_t{2} << top) - 1;  // positions before `at`
  for (;; --k, keep = ~uint64_t{0}) {
    const uint64_t carry_lo = k + 1 < words ? lo[k + 1] << 63 : 0, carry_hi = k + 1 < words ? hi[k + 1] << 63 : 0;
    const uint64_t back_lo = (lo[k] >> 1) | carry_lo, back_hi = (hi[k] >> 1) | carry_hi;  // one step back (+1)
    const uint64_t stop = (~cur[k] | (lo[k] & ~back_lo) | (hi[k] & ~back_hi)) & keep;
    if (stop == 0) continue;
    const int bit = 63 - std::countl_zero(stop), p = (k << 6) + bit;
    return ((cur[k] >> bit) & 1u) ? at - p : -(at - p);
  }
}

/// The goal-free jumps of passable cells, computed on demand from PassBits (see the file comment).
struct BlockJumps {
  const uint8_t* pass;
  const PassBits* bits;
  int pw;

  bool P(int x, int y) const { return pass[y * pw + x] != 0; }

  /// Straight jump si (0 +x, 1 -x, 2 +y, 3 -y) of passable (x, y): the table entry.
  int32_t straight(int x, int y, int si) const {
    const int d = (si & 1) ? -1 : 1;
    if (si < 2) return block_scan(bits->rows.data(), bits->row_words, y, x, d);
    return block_scan(bits->cols.data(), bits->col_words, x, y, d);
  }

  /// Diagonal jump di (index (dx > 0) | (dy > 0) << 1) of passable (x, y): the first step
  /// whose row or column scan finds a jump point, or minus the first step blocked (a move
  /// needs both orthogonal neighbours passable).
  int32_t diagonal(int x, int y, int di) const {
    const int dx = (di & 1) ? 1 : -1, dy = (di & 2) ? 1 : -1;
    const int sx = dx > 0 ? 0 : 1, sy = dy > 0 ? 2 : 3;
    for (int32_t k = 1;; ++k) {
      if (!P(x + dx, y) || !P(x, y + dy) || !P(x + dx, y + dy)) return -k;
      x += dx;
      y += dy;
      if (straight(x, y, sx) > 0 || straight(x, y, sy) > 0) return k;
    }
  }

  void prefetch(int /*id*/) const {}  // nothing per node to fetch ahead
};

}  // namespace pathlab::detail
