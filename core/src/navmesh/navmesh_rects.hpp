#pragma once
// Internal: the greedy rectangle cover that both the whole-map mesh (navmesh.cpp) and each tile
// of a tiled mesh (navmesh_tiles.cpp) start from.

#include <cstdint>
#include <vector>

namespace pathlab::detail {

/// A rectangle of sub-cells: the index range [x0, x1) x [y0, y1).
struct SubRect {
  int x0, y0, x1, y1;
};

/// Covers the open sub-cells of a w x h mask (row-major, `open`, cleared as it is covered) with
/// rectangles seeded in row-major order: from each seed grown right then down, or, with
/// `best_of_two`, also down then right, keeping the larger area as measured on the lattice lines
/// `xs[0..w]`, `ys[0..h]`. `owner` (w * h entries) gets each covered sub-cell's rectangle index.
std::vector<SubRect> greedy_rect_cover(std::vector<uint8_t>& open, int w, int h, const double* xs, const double* ys,
                                       bool best_of_two, std::vector<int>& owner);

}  // namespace pathlab::detail
