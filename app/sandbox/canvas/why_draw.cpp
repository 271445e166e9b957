// The "why" of one unit on the canvas (why_draw.hpp).

#include "canvas/why_draw.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace pathlab::sandbox {
namespace {

/// Seconds of travel per cells/s: a velocity v is drawn at the unit's position + v * kTravel,
/// as the crowd's velocity overlay draws it (CrowdOverlays::velocities).
constexpr double kTravel = 1.0;
/// The constraint lines are drawn this far round the top-speed disc (they matter inside it).
constexpr double kLineReach = 1.4;

ImU32 constraint_colour(CrowdOrcaConstraint::Source s, int alpha) {
  switch (s) {
    case CrowdOrcaConstraint::Source::unit: return IM_COL32(235, 60, 60, alpha);
    case CrowdOrcaConstraint::Source::wall: return IM_COL32(160, 160, 160, alpha);
    case CrowdOrcaConstraint::Source::obstacle: return IM_COL32(240, 140, 40, alpha);
  }
  return IM_COL32(255, 255, 255, alpha);
}

/// The part of the line `point + t * dir` inside the disc of radius `r` round the origin, as
/// the two ends' parameters; none when it misses the disc.
std::optional<std::pair<double, double>> clip_to_disc(Vec2 point, Vec2 dir, double r) {
  const double b = glm::dot(point, dir), c = glm::dot(point, point) - r * r;
  const double disc = b * b - c;
  if (disc <= 0.0) return std::nullopt;
  const double s = std::sqrt(disc);
  return std::make_pair(-b - s, -b + s);
}

void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c, float thick) {
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 2.0f) return;
  dl->AddLine(a, b, c, thick);
  const float ux = dx / len, uy = dy / len, head = std::min(10.0f, len * 0.4f);
  dl->AddTriangleFilled(b, ImVec2(b.x - ux * head - uy * head * 0.5f, b.y - uy * head + ux * head * 0.5f),
                        ImVec2(b.x - ux * head + uy * head * 0.5f, b.y - uy * head - ux * head * 0.5f), c);
}

/// One constraint: its line across the top-speed disc, the side it forbids shaded.
void draw_constraint(const CrowdExplanation& e, const CrowdOrcaConstraint& c, ImDrawList* dl,
                     const std::function<ImVec2(Vec2)>& to_screen) {
  const double reach = std::max(e.max_speed, 0.1) * kLineReach;
  const auto ends = clip_to_disc(c.point, c.direction, reach);
  if (!ends) return;
  const Vec2 a = c.point + ends->first * c.direction, b = c.point + ends->second * c.direction;
  // Forbidden: cross(direction, point - v) > 0, the side of n = (dir.y, -dir.x).
  const Vec2 n(c.direction.y, -c.direction.x);
  const double band = 0.18 * reach;
  const Vec2 p = e.position;
  auto at = [&](Vec2 v) { return to_screen(p + v * kTravel); };
  dl->AddQuadFilled(at(a), at(b), at(b + n * band), at(a + n * band), constraint_colour(c.source, 60));
  dl->AddLine(at(a), at(b), constraint_colour(c.source, 230), c.hard ? 1.5f : 2.0f);
}

}  // namespace

void draw_why(const CrowdExplanation& e, const Crowd& crowd, ImDrawList* dl, const std::function<ImVec2(Vec2)>& to_screen) {
  const Vec2 p = e.position;
  const ImVec2 c = to_screen(p);
  const ImVec2 rim = to_screen(p + Vec2(e.max_speed * kTravel, 0.0));
  const float r = std::abs(rim.x - c.x);
  dl->AddCircleFilled(c, r, IM_COL32(255, 255, 255, 18), 48);
  dl->AddCircle(c, r, IM_COL32(255, 255, 255, 110), 48, 1.0f);  // the top speed: ORCA chooses inside it
  for (int j : e.neighbors) {
    if (j < 0 || j >= crowd.agent_count()) continue;
    dl->AddLine(c, to_screen(crowd.state(j).pose.pos), IM_COL32(235, 60, 60, 120), 1.0f);
  }
  for (const CrowdOrcaConstraint& k : e.constraints) draw_constraint(e, k, dl, to_screen);
  arrow(dl, c, to_screen(p + e.preferred_velocity * kTravel), IM_COL32(60, 140, 255, 255), 2.5f);
  arrow(dl, c, to_screen(p + e.chosen_velocity * kTravel), IM_COL32(255, 90, 200, 255), 2.5f);
}

}  // namespace pathlab::sandbox
