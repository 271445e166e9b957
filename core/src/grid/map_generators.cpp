#include "pathlab/map_generators.hpp"

#include <algorithm>
#include <random>
#include <vector>

namespace pathlab {

namespace {

/// A double in [0, 1) from two draws, written out: std::uniform_real_distribution's algorithm is
/// the standard library's own, and the browser's (libc++) need not match the desktop's. This is
/// the arithmetic libstdc++'s generate_canonical does for a 32-bit engine, so the maps the
/// desktop generated before are the same, cell for cell.
double unit_double(std::mt19937& rng) {
  const double lo = static_cast<double>(rng());
  const double hi = static_cast<double>(rng());
  const double r = (lo + hi * 4294967296.0) / 18446744073709551616.0;  // (lo + hi 2^32) / 2^64
  return r < 1.0 ? r : 0x1.fffffffffffffp-1;  // the largest double below 1
}

}  // namespace

void generate_random(Grid& grid, double density, uint32_t seed) {
  std::mt19937 rng(seed);
  density = std::clamp(density, 0.0, 1.0);
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x) grid.set_blocked(x, y, unit_double(rng) < density);
}

void generate_maze(Grid& grid, int corridor, uint32_t seed) {
  corridor = std::max(corridor, 1);
  const int pitch = corridor + 1;  // a corridor and the wall after it
  const int cw = std::max(1, (grid.width() - 1) / pitch), ch = std::max(1, (grid.height() - 1) / pitch);
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x) grid.set_blocked(x, y, true);
  auto open_rect = [&](int x0, int y0, int w, int h) {
    for (int y = y0; y < y0 + h; ++y)
      for (int x = x0; x < x0 + w; ++x) grid.set_blocked(x, y, false);
  };
  // Iterative depth-first search over maze cells: carve a cell, then a passage to an unvisited neighbour.
  std::mt19937 rng(seed);
  std::vector<uint8_t> visited(static_cast<size_t>(cw) * static_cast<size_t>(ch), 0);
  std::vector<int> stack{0};
  visited[0] = 1;
  open_rect(1, 1, corridor, corridor);
  const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  while (!stack.empty()) {
    const int c = stack.back();
    const int cx = c % cw, cy = c / cw;
    int options[4], n = 0;
    for (int d = 0; d < 4; ++d) {
      const int nx = cx + dx[d], ny = cy + dy[d];
      if (nx >= 0 && ny >= 0 && nx < cw && ny < ch && !visited[static_cast<size_t>(ny * cw + nx)]) options[n++] = d;
    }
    if (n == 0) {
      stack.pop_back();
      continue;
    }
    const int d = options[rng() % static_cast<uint32_t>(n)];
    const int nx = cx + dx[d], ny = cy + dy[d];
    visited[static_cast<size_t>(ny * cw + nx)] = 1;
    open_rect(1 + nx * pitch, 1 + ny * pitch, corridor, corridor);
    // The wall between the two cells.
    const int x0 = 1 + std::min(cx, nx) * pitch, y0 = 1 + std::min(cy, ny) * pitch;
    if (dx[d] != 0) open_rect(x0 + corridor, y0, 1, corridor);
    else open_rect(x0, y0 + corridor, corridor, 1);
    stack.push_back(ny * cw + nx);
  }
}

void generate_rooms(Grid& grid, int room, int door, uint32_t seed) {
  room = std::max(room, 3);
  door = std::max(door, 1);
  std::mt19937 rng(seed);
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x) grid.set_blocked(x, y, false);
  const int pitch = room + 1;
  // Wall lines every `pitch` cells, then a door in every wall segment between two rooms.
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x)
      if (x % pitch == room || y % pitch == room) grid.set_blocked(x, y, true);
  const int span = std::max(1, room - door + 1);
  for (int ry = 0; ry * pitch < grid.height(); ++ry) {
    for (int rx = 0; rx * pitch < grid.width(); ++rx) {
      const int x0 = rx * pitch, y0 = ry * pitch;
      const int off_v = static_cast<int>(rng() % static_cast<uint32_t>(span));
      for (int k = 0; k < door && k < room; ++k) grid.set_blocked(x0 + room, y0 + off_v + k, false);  // east wall
      const int off_h = static_cast<int>(rng() % static_cast<uint32_t>(span));
      for (int k = 0; k < door && k < room; ++k) grid.set_blocked(x0 + off_h + k, y0 + room, false);  // south wall
    }
  }
}

}  // namespace pathlab
