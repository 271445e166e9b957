#pragma once
// Exact reference for point agents: the Euclidean shortest path over a visibility graph of the
// free space's convex corners (lattice points where exactly one of the four cells around is
// blocked: the only places a shortest path can bend). "Visible" is segment_clear at radius 0,
// the project's referee, so the reference obeys the same wall rules as every planner.
// Used by the tests and by bench_navmesh; far too slow for anything but reference runs.

#include <cmath>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "pathlab/collision.hpp"
#include "pathlab/grid.hpp"

namespace pathlab::test {

class VisibilityReference {
 public:
  explicit VisibilityReference(const Grid& grid) : grid_(grid) {
    for (int y = 1; y < grid.height(); ++y) {
      for (int x = 1; x < grid.width(); ++x) {
        const bool b00 = !grid.is_free(x - 1, y - 1), b10 = !grid.is_free(x, y - 1);
        const bool b01 = !grid.is_free(x - 1, y), b11 = !grid.is_free(x, y);
        if (b00 + b10 + b01 + b11 != 1) continue;
        // Direction from the corner into its blocked cell.
        const int sx = (b00 || b01) ? -1 : 1, sy = (b00 || b10) ? -1 : 1;
        corners_.push_back(Corner{Vec2(x, y), sx, sy});
      }
    }
    const size_t n = corners_.size();
    adj_.assign(n, {});
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j) {
        const Vec2 d = corners_[j].p - corners_[i].p;
        if (!taut(corners_[i], d) || !taut(corners_[j], -d)) continue;
        if (!segment_clear(grid, corners_[i].p, corners_[j].p)) continue;
        const double len = glm::length(d);
        adj_[i].emplace_back(static_cast<int>(j), len);
        adj_[j].emplace_back(static_cast<int>(i), len);
      }
    }
  }

  size_t corner_count() const { return corners_.size(); }

  /// Shortest Euclidean length from s to t for a point agent, infinity when unreachable.
  double shortest(Vec2 s, Vec2 t) const {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (segment_clear(grid_, s, t)) return glm::length(t - s);
    const size_t n = corners_.size();
    std::vector<double> dist(n, inf);
    std::vector<double> to_goal(n, inf);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    for (size_t i = 0; i < n; ++i) {
      const Vec2 c = corners_[i].p;
      if (taut(corners_[i], s - c) && segment_clear(grid_, s, c)) {
        dist[i] = glm::length(c - s);
        pq.emplace(dist[i], static_cast<int>(i));
      }
      if (taut(corners_[i], t - c) && segment_clear(grid_, c, t)) to_goal[i] = glm::length(t - c);
    }
    double best = inf;
    while (!pq.empty()) {
      const auto [d, u] = pq.top();
      pq.pop();
      if (d > dist[u] || d >= best) continue;
      best = std::min(best, d + to_goal[u]);
      for (const auto& [v, w] : adj_[u]) {
        if (d + w < dist[v]) {
          dist[v] = d + w;
          pq.emplace(dist[v], v);
        }
      }
    }
    return best;
  }

 private:
  struct Corner {
    Vec2 p;
    int sx, sy;  // towards the blocked cell
  };
  /// A shortest path bends at a corner only around its wall: a leg leaving along d is useful
  /// only when the wall stays on one side of the leg's line.
  static bool taut(const Corner& c, Vec2 d) {
    const bool into = d.x * c.sx > 0 && d.y * c.sy > 0;
    const bool away = d.x * c.sx < 0 && d.y * c.sy < 0;
    return !into && !away;
  }

  const Grid& grid_;
  std::vector<Corner> corners_;
  std::vector<std::vector<std::pair<int, double>>> adj_;
};

}  // namespace pathlab::test
