#pragma once
// Helpers shared by the test files: random grids and file locations.

#include <initializer_list>
#include <random>
#include <string>

#include "pathlab/grid.hpp"

namespace pathlab::test {

inline std::string movingai(const std::string& name) { return std::string(PATHLAB_MOVINGAI_DIR) + "/" + name; }

/// A w x h grid with each cell blocked with probability `density`, reproducible from `seed`.
inline Grid random_grid(int w, int h, double density, uint32_t seed) {
  Grid g = Grid::create(w, h).value();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) g.set_blocked(x, y, u(rng) < density);
  return g;
}

/// A grid drawn as text rows: '#' blocked, 'S' swamp (cost 3), anything else free.
inline Grid grid_from_rows(std::initializer_list<const char*> rows) {
  const int h = static_cast<int>(rows.size());
  const int w = static_cast<int>(std::string(*rows.begin()).size());
  Grid g = Grid::create(w, h).value();
  int y = 0;
  for (const char* r : rows) {
    for (int x = 0; x < w; ++x) {
      if (r[x] == '#') g.set_blocked(x, y, true);
      else if (r[x] == 'S') g.set_cost(x, y, 3.0f);
    }
    ++y;
  }
  return g;
}

}  // namespace pathlab::test
