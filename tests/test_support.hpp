#pragma once
// Helpers shared by the test files: random grids, file locations, distances to a path.

#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "pathlab/grid.hpp"

namespace pathlab::test {

/// Distance from `p` to the polyline `line` (to its point when it has one; 1e300 when empty). [Units: cells]
inline double distance_to_polyline(Vec2 p, const std::vector<Vec2>& line) {
  if (line.size() == 1) return glm::length(p - line[0]);
  double best = 1e300;
  for (size_t k = 0; k + 1 < line.size(); ++k) {
    const Vec2 a = line[k], ab = line[k + 1] - a;
    const double t = std::clamp(glm::dot(p - a, ab) / std::max(glm::dot(ab, ab), 1e-12), 0.0, 1.0);
    best = std::min(best, glm::length(p - (a + ab * t)));
  }
  return best;
}

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
