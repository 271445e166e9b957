// Measures a found path the same way whatever produced it: curvature, sharp corners, overlaps
// with walls for the agent radius, and turns tighter than the turning radius.

#include <cmath>
#include <cstdio>

#include "pathlab/collision.hpp"
#include "pathlab/swept_check.hpp"
#include "plan_internal.hpp"

namespace pathlab::plan {
namespace {

/// Polyline corners turning by more than this count as sharp. [Units: degrees]
constexpr double kSharpCornerDeg = 30.0;

void analyse_polyline(const Grid& grid, const PlanRequest& request, PlanResult& out) {
  const std::vector<Vec2>& pts = out.points;
  if (out.curvature.size() != pts.size()) {  // not already measured on the curve itself
    out.curvature = polyline_curvature(pts);
    double max_abs = 0.0;
    for (size_t i = 1; i + 1 < pts.size(); ++i) {
      max_abs = std::max(max_abs, std::abs(out.curvature[i]));
      const Vec2 u = pts[i] - pts[i - 1], v = pts[i + 1] - pts[i];
      const double lu = glm::length(u), lv = glm::length(v);
      if (lu > 1e-9 && lv > 1e-9 && glm::dot(u, v) / (lu * lv) < std::cos(deg_to_rad(kSharpCornerDeg)))
        out.sharp_corners++;
    }
    if (!out.curvature_exact) out.max_curvature = max_abs;
  }
  const double radius = request.settings.agent_radius;
  out.blocked_segment = first_blocked_segment(grid, pts, radius);
  if (out.blocked_segment >= 0) {
    out.violations.push_back("segment " + std::to_string(out.blocked_segment) + " near " +
                             point_text(pts[static_cast<size_t>(out.blocked_segment)]) +
                             " overlaps a wall for agent radius " + std::to_string(radius).substr(0, 4));
  }
}

/// Exact curves other than the curve planners' (which check themselves): the heading planners'
/// own checks are never more lenient than the referee, so this only reports what slipped
/// through (a smoother's shortcut, a one-piece turning path); every family's result then
/// says whether it runs into a wall, and compare mode can trust the answer.
void check_exact_curve(const Grid& grid, const PlanRequest& request, PlanResult& out) {
  if (out.family == PlannerFamily::curve || out.curve_blocked_at) return;
  SweptCheckDef def = default_swept_check_def();
  def.agent_radius = request.settings.agent_radius;
  auto swept = check_swept_path(grid, *out.segments, def);
  if (!swept || swept->clear) return;  // a check that cannot run (bad radius) was refused earlier
  out.curve_blocked_at = refine_blocked_at(grid, *out.segments, swept->blocked_at_s, def.agent_radius);
  auto at = out.segments->at_distance(*out.curve_blocked_at);
  out.violations.push_back("the path runs into a wall near " + point_text(at ? at->pos : Vec2(0, 0)) +
                           " for agent radius " + std::to_string(def.agent_radius).substr(0, 4));
}

}  // namespace

std::string point_text(Vec2 p, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.*f, %.*f)", decimals, p.x, decimals, p.y);
  return buf;
}

double refine_blocked_at(const Grid& grid, const SegmentPath& path, double from, double agent_radius) {
  // The referee reports the start of the blocked piece: a whole line, which may begin far from
  // the wall (a straight Dubins curve from the start). Short steps of the same segment check
  // find where the disc first overlaps; if none does (an arc's steps are chords, a hair inside
  // it), the piece's start stands.
  constexpr double kStep = 1.0 / 16.0;  // [cells]
  const double end = path.length();
  auto prev = path.at_distance(from);
  if (!prev) return from;
  for (double s = from; s < end;) {
    const double next = std::min(end, s + kStep);
    auto cur = path.at_distance(next);
    if (!cur) return from;
    if (!segment_clear(grid, prev->pos, cur->pos, agent_radius)) return s;
    prev = cur;
    s = next;
  }
  return from;
}

std::vector<double> polyline_curvature(const std::vector<Vec2>& pts) {
  std::vector<double> k(pts.size(), 0.0);
  for (size_t i = 1; i + 1 < pts.size(); ++i) {
    const Vec2 a = pts[i - 1], b = pts[i], c = pts[i + 1];
    const double ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
    const double denom = ab * bc * ca;
    // Menger curvature 4*area/(|ab||bc||ca|); a doubled-back point (ca == 0) has no circle.
    if (denom > 1e-12) k[i] = 2.0 * cross(b - a, c - b) / denom;
  }
  return k;
}

void analyse_result(const Grid& grid, const PlanRequest& request, PlanResult& out) {
  // Polylines by segment, exact curves by the swept disc (the curve planners did that already).
  if (!out.segments) analyse_polyline(grid, request, out);
  else check_exact_curve(grid, request, out);
  // Only curves claim to be drivable: a polyline's corners are turns of radius 0 by design.
  const double turning = request.settings.turning_radius;
  if (out.curvature_exact && turning > 0 && out.max_curvature > 1.0 / turning * (1 + kTurningRadiusTolerance)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "turns tighter than the turning radius: radius %.2f < %.2f cells",
                  1.0 / out.max_curvature, turning);
    out.violations.push_back(buf);
  }
}

}  // namespace pathlab::plan
