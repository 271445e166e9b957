#pragma once
/// @file center_line_walk.hpp
/// The exact walk of the straight line between two cell centres, cell by cell, that
/// center_line_cost() (collision.cpp, on the Grid) and Theta*'s line of sight
/// (theta_search.cpp, on the padded grid) share: one walk, so the two give the same bits.

#include <cmath>
#include <cstdint>

#include "pathlab/grid.hpp"

namespace pathlab::detail {

/// Cost of the line from the centre of `a` to the centre of `b`: each cell's cost times the
/// length of the line inside it, summed from `a` on, or -1 when it enters a blocked cell or
/// squeezes between two blocked cells that touch at a corner. `at` starts on `a` (which the
/// caller checked is free) and offers `double cost() const`, `bool free() const`,
/// `bool free_at(int dx, int dy) const` (a neighbour) and `void move(int dx, int dy)`.
/// Works in doubled coordinates, where cell centres are odd integers and grid lines even ones,
/// so every comparison of crossing parameters is exact.
template <class Cursor>
double walk_center_line(Cell a, Cell b, Cursor& at) {
  const int64_t ax = 2LL * a.x + 1, ay = 2LL * a.y + 1;
  const int64_t dx = 2LL * (b.x - a.x), dy = 2LL * (b.y - a.y);
  const int sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
  const int64_t adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
  const double len = std::sqrt(static_cast<double>(b.x - a.x) * (b.x - a.x) + static_cast<double>(b.y - a.y) * (b.y - a.y));
  int cx = a.x, cy = a.y;
  double t_prev = 0.0, total = 0.0;
  while (cx != b.x || cy != b.y) {
    // Distance (in doubled units, along each axis) from the start to the next grid line.
    const int64_t nx = sx > 0 ? 2LL * (cx + 1) - ax : (sx < 0 ? ax - 2LL * cx : 0);
    const int64_t ny = sy > 0 ? 2LL * (cy + 1) - ay : (sy < 0 ? ay - 2LL * cy : 0);
    // Compare t_x = nx/adx with t_y = ny/ady without division.
    int step;  // 1 = x, 2 = y, 3 = both (through a corner)
    if (sx == 0) step = 2;
    else if (sy == 0) step = 1;
    else {
      const int64_t lhs = nx * ady, rhs = ny * adx;
      step = lhs < rhs ? 1 : (lhs > rhs ? 2 : 3);
    }
    const double t = step == 2 ? static_cast<double>(ny) / static_cast<double>(ady)
                               : static_cast<double>(nx) / static_cast<double>(adx);
    total += (t - t_prev) * len * at.cost();
    t_prev = t;
    if (step == 3) {
      if (!at.free_at(sx, 0) && !at.free_at(0, sy)) return -1.0;  // squeezing between two diagonal walls
      cx += sx;
      cy += sy;
      at.move(sx, sy);
    } else if (step == 1) {
      cx += sx;
      at.move(sx, 0);
    } else {
      cy += sy;
      at.move(0, sy);
    }
    if (!at.free()) return -1.0;
  }
  total += (1.0 - t_prev) * len * at.cost();
  return total;
}

}  // namespace pathlab::detail
