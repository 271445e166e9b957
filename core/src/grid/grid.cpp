#include "pathlab/grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pathlab {

Result<Grid> Grid::create(int width, int height) {
  if (width <= 0 || height <= 0) {
    return fail(StatusCode::invalid_argument,
                "grid size " + std::to_string(width) + "x" + std::to_string(height) + " must be positive");
  }
  if (width > kMaxGridSide || height > kMaxGridSide ||
      static_cast<int64_t>(width) * height > kMaxGridCells) {
    return fail(StatusCode::too_large, "grid size " + std::to_string(width) + "x" + std::to_string(height) +
                                           " exceeds the limit of " + std::to_string(kMaxGridSide) +
                                           " cells a side and " + std::to_string(kMaxGridCells) + " cells");
  }
  Grid g;
  g.width_ = width;
  g.height_ = height;
  g.cost_.assign(static_cast<size_t>(width) * static_cast<size_t>(height), 1.0f);
  return g;
}

void Grid::set_cost(int x, int y, float cost) noexcept {
  if (!in_bounds(x, y)) return;
  if (std::isnan(cost)) cost = kBlocked;
  cost_[index(x, y)] = cost == kBlocked ? kBlocked : std::max(cost, 1.0f);
}

bool Grid::uniform_cost() const noexcept {
  return std::all_of(cost_.begin(), cost_.end(), [](float c) { return c == 1.0f || c == kBlocked; });
}

int64_t Grid::blocked_count() const noexcept {
  return std::count(cost_.begin(), cost_.end(), kBlocked);
}

}  // namespace pathlab
