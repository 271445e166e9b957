#pragma once
// Helpers shared by the test files: random grids and file locations.

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

}  // namespace pathlab::test
