#include <cstdio>

#include <pathlab/pathlab.hpp>

int main() {
  auto grid = pathlab::Grid::create(8, 8);
  if (!grid) return 1;
  for (int y = 0; y < 7; ++y) grid->set_blocked(4, y, true);
  auto path = pathlab::find_grid_path(*grid, pathlab::GridPlanner::jps, {0, 0}, {7, 0});
  if (!path || !path->found) return 1;
  std::printf("%.6f\n", path->length);
  return 0;
}
