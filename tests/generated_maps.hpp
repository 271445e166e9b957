#pragma once
// Generated maps shared by tests and benchmarks (bench/ includes this header too), so that a
// test and the benchmark that reports the same figure plan on the very same map.

#include <cstdint>
#include <random>

#include "pathlab/grid.hpp"
#include "pathlab/grid_search.hpp"

namespace pathlab::test {

/// A parking lot, `w` x `h` (64 x 52 unless given) [Limit: >= 20 each]: an outer wall, double
/// rows of parked cars (2 x 4 cells, nose to nose, stalls 3 cells apart) with aisles 7 cells wide
/// between the rows; a seeded 30% of the stalls are empty.
inline Grid parking_lot(uint32_t seed, int w = 64, int h = 52) {
  Grid g = Grid::create(w, h).value();
  for (int x = 0; x < w; ++x) g.set_blocked(x, 0, true), g.set_blocked(x, h - 1, true);
  for (int y = 0; y < h; ++y) g.set_blocked(0, y, true), g.set_blocked(w - 1, y, true);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> stall(0, 9);
  for (int row = 8; row + 8 < h; row += 15) {
    for (int x = 8; x + 2 < w - 8; x += 3) {
      for (int half = 0; half < 2; ++half) {
        if (stall(rng) < 3) continue;
        for (int dy = 0; dy < 4; ++dy)
          for (int dx = 0; dx < 2; ++dx) g.set_blocked(x + dx, row + half * 4 + dy, true);
      }
    }
  }
  return g;
}

/// 256 x 256 with 2 x 2 blocks placed with the given density [Limit: 0..1]: clutter a
/// heading unit must weave through.
inline Grid block_clutter_map(double density, uint32_t seed) {
  Grid g = Grid::create(256, 256).value();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int y = 0; y < 256; y += 2)
    for (int x = 0; x < 256; x += 2)
      if (u(rng) < density)
        for (int k = 0; k < 4; ++k) g.set_blocked(x + k % 2, y + k / 2, true);
  return g;
}

/// A free cell of `g` drawn uniformly (x, then y, until one is free). [Limit: g has a free cell]
inline Cell random_free_cell(const Grid& g, std::mt19937& rng) {
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1);
  for (;;) {
    const Cell c{x(rng), y(rng)};
    if (g.is_free(c)) return c;
  }
}

/// The sandbox's brush (canvas_tools.cpp): a disc of `radius` cells around `c` set to `cost`,
/// clipped to the map; returns the rectangle it covers (which may reach outside the map).
/// [radius: cells, Limit: >= 1]
inline CellRect brush_stroke(Grid& g, Cell c, int radius, float cost) {
  const int r = radius - 1;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx)
      if (dx * dx + dy * dy <= r * r + r) g.set_cost(c.x + dx, c.y + dy, cost);
  return CellRect{Cell{c.x - r, c.y - r}, Cell{c.x + r, c.y + r}};
}

}  // namespace pathlab::test
