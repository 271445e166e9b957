#pragma once
/// @file grid.hpp
/// The grid map: a rectangle of cells, each blocked or free with a traversal
/// cost multiplier (1 = plain ground, 3 = swamp, ...).
///
/// The cost of moving along a straight piece of path is the integral of the
/// cost multiplier of the cells it runs through, so an orthogonal step between
/// two cell centres costs (c(a) + c(b)) / 2 and a diagonal step sqrt(2) times that.
/// Geometric length and weighted cost are reported separately.

#include <cstdint>
#include <limits>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Largest grid the core accepts, checked before any allocation.
inline constexpr int kMaxGridSide = 16384;            ///< [Units: cells]
inline constexpr int64_t kMaxGridCells = 64LL << 20;  ///< 64 Mi cells

/// Cost value that marks a blocked cell.
inline constexpr float kBlocked = std::numeric_limits<float>::infinity();

class Grid {
 public:
  Grid() = default;

  /// Creates a grid of free cells with cost 1. Fails on a side <= 0 or above the limits.
  static Result<Grid> create(int width, int height);

  int width() const noexcept { return width_; }    ///< [Units: cells]
  int height() const noexcept { return height_; }  ///< [Units: cells]
  int64_t cell_count() const noexcept { return static_cast<int64_t>(width_) * height_; }

  bool in_bounds(int x, int y) const noexcept { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  bool in_bounds(Cell c) const noexcept { return in_bounds(c.x, c.y); }
  /// True when a world point lies in [0, width] x [0, height].
  bool contains(Vec2 p) const noexcept {
    return p.x >= 0.0 && p.y >= 0.0 && p.x <= width_ && p.y <= height_;
  }

  /// A cell is free when it is in bounds and not blocked. Out of bounds counts as blocked.
  bool is_free(int x, int y) const noexcept { return in_bounds(x, y) && cost_[index(x, y)] != kBlocked; }
  bool is_free(Cell c) const noexcept { return is_free(c.x, c.y); }
  bool is_blocked(int x, int y) const noexcept { return !is_free(x, y); }

  /// Cost multiplier of a cell, kBlocked for a wall. Precondition: in bounds.
  float cost(int x, int y) const noexcept { return cost_[index(x, y)]; }
  float cost(Cell c) const noexcept { return cost(c.x, c.y); }

  /// Sets a cell free with the given cost multiplier [Limit: finite, >= 1], or blocked with kBlocked.
  /// Costs below 1 are raised to 1 so that the octile heuristic stays admissible.
  void set_cost(int x, int y, float cost) noexcept;
  void set_blocked(int x, int y, bool blocked) noexcept { set_cost(x, y, blocked ? kBlocked : 1.0f); }

  /// True when every free cell has cost 1 (JPS needs this).
  bool uniform_cost() const noexcept;

  /// Number of blocked cells.
  int64_t blocked_count() const noexcept;

  int64_t index(int x, int y) const noexcept { return static_cast<int64_t>(y) * width_ + x; }
  const std::vector<float>& costs() const noexcept { return cost_; }

  /// Same size and the same cost (or wall) in every cell.
  bool operator==(const Grid& other) const noexcept = default;

 private:
  int width_ = 0;
  int height_ = 0;
  std::vector<float> cost_;
};

}  // namespace pathlab
