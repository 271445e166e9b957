// The smoothers `plan --smoother NAME` offers, applied to a found path's waypoints.

#include <string>

#include "pathlab/shortcut.hpp"
#include "pathlab/spline_smoother.hpp"
#include "planning.hpp"

namespace pathlab::cli {

namespace {

/// Output points per span of the spline smoothers when --subdivisions is not given.
constexpr int kDefaultSubdivisions = 8;

bool is_spline_smoother(const std::string& name) { return parse_spline_method(name).ok(); }

}  // namespace

void check_smoother_settings(const PlanSettings& s) {
  const bool spline = is_spline_smoother(s.smoother);
  if (s.smoother != "none" && s.smoother != "los" && s.smoother != "turning" && !spline) {
    throw UsageError("--smoother: unknown smoother '" + s.smoother +
                     "' (none, los, catmull-rom, centripetal, chordal, hermite, turning)");
  }
  if (s.subdivisions && !spline) throw UsageError("--subdivisions is used by spline smoothers only");
  if (s.subdivisions && (*s.subdivisions < 1 || *s.subdivisions > kMaxSubdivisions)) {
    throw UsageError("--subdivisions must be in [1, " + std::to_string(kMaxSubdivisions) + "]");
  }
}

std::vector<Vec2> apply_smoother(const Grid& grid, const PlanSettings& s, std::vector<Vec2> points,
                                 const std::string& where) {
  if (s.smoother == "los") {
    auto cut = los_shortcut(grid, points, s.search.agent_radius);
    if (!cut) throw UsageError(where + cut.error().message);
    return std::move(cut->points);
  }
  if (auto method = parse_spline_method(s.smoother)) {
    SplineSmoothDef def = default_spline_smooth_def();
    def.method = *method;
    def.agent_radius = s.search.agent_radius;
    def.sampling.per_segment = static_cast<int>(s.subdivisions.value_or(kDefaultSubdivisions));
    auto smooth = smooth_path(grid, points, def);
    // A raw path that is not clear itself cannot be smoothed safely; it is returned as found.
    if (!smooth && smooth.error().code == StatusCode::blocked) return points;
    if (!smooth) throw UsageError(where + smooth.error().message);
    return std::move(smooth->points);
  }
  return points;
}

}  // namespace pathlab::cli
