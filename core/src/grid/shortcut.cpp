#include "pathlab/shortcut.hpp"

#include <cmath>

#include "pathlab/collision.hpp"

namespace pathlab {

Result<ShortcutResult> los_shortcut(const Grid& grid, std::span<const Vec2> points, double agent_radius) {
  if (auto ok = check_agent_radius(agent_radius); !ok) return ok.error();
  for (size_t i = 0; i < points.size(); ++i) {
    if (!is_finite(points[i])) {
      return fail(StatusCode::invalid_argument, "path point " + std::to_string(i) + " is not a finite number");
    }
  }
  ShortcutResult out;
  if (points.empty()) return out;
  const bool uniform = grid.uniform_cost();
  // Prefix sums of the input's weighted cost, to compare a shortcut with what it replaces.
  std::vector<double> prefix(points.size(), 0.0);
  if (!uniform) {
    for (size_t i = 1; i < points.size(); ++i) prefix[i] = prefix[i - 1] + segment_cost(grid, points[i - 1], points[i]);
  }
  const size_t n = points.size();
  size_t i = 0;
  out.points.push_back(points[0]);
  while (i + 1 < n) {
    size_t next = i + 1;
    for (size_t j = n - 1; j > i + 1; --j) {
      if (!segment_clear(grid, points[i], points[j], agent_radius)) continue;
      if (!uniform && !(segment_cost(grid, points[i], points[j]) <= prefix[j] - prefix[i] + 1e-9)) continue;
      next = j;
      break;
    }
    out.removed += static_cast<int>(next - i - 1);
    out.points.push_back(points[next]);
    i = next;
  }
  out.length = polyline_length(out.points);
  return out;
}

}  // namespace pathlab
