// The smoothers `plan --smoother NAME` offers, applied to a found path's waypoints.

#include <string>

#include "pathlab/shortcut.hpp"
#include "planning.hpp"

namespace pathlab::cli {

void check_smoother_settings(const PlanSettings& s) {
  if (s.smoother != "none" && s.smoother != "los") {
    throw UsageError("--smoother: unknown smoother '" + s.smoother + "' (none, los)");
  }
  if (s.subdivisions) throw UsageError("--subdivisions is used by spline smoothers only");
}

std::vector<Vec2> apply_smoother(const Grid& grid, const PlanSettings& s, std::vector<Vec2> points,
                                 const std::string& where) {
  if (s.smoother == "los") {
    auto cut = los_shortcut(grid, points, s.search.agent_radius);
    if (!cut) throw UsageError(where + cut.error().message);
    return std::move(cut->points);
  }
  return points;
}

}  // namespace pathlab::cli
