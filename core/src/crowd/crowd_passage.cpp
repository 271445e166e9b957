// Keeping right in passages: where other units' routes come the other way through a doorway or
// a corridor, the corners of a unit's route next to it move to its right half (seen in the
// direction of travel), as people keep right, so that two streams pass side by side instead of
// meeting nose to nose on the corner line.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

constexpr double kPassageProbe = 6.0;     ///< A way narrower than twice this is a passage. [Units: cells]
constexpr double kPassageStep = 0.25;     ///< Step of the cross-section probe. [Units: cells]
constexpr double kPassageMinWidth = 1.5;  ///< Narrower passages (room for the centre) keep their line. [Units: cells]
constexpr double kPassageReach = 2.0;     ///< How far along its legs a corner looks for a passage. [Units: cells]
constexpr double kPassageOncoming = 0.5;  ///< Oncoming flow across a passage (about one route) that makes units keep right.
constexpr double kCornerTurn = 0.02;      ///< Route bends sharper than this are corners. [Units: radians]
constexpr double kCornerLeg = 0.75;       ///< ... with legs at least this long (not a sampled curve). [Units: cells]
constexpr double kCornerWallGap = 1.0;    ///< ... and a wall within this gap of the unit's disc. [Units: cells]

}  // namespace

bool CrowdImpl::cross_section(Vec2 q, Vec2 axis, double radius, double& dl, double& dr) const {
  // How far the unit's disc can move from q along +axis (dr) and -axis (dl), to within a probe
  // step: the first blocked cell along the ray, less the radius. (A cell lookup per step, not a
  // disc test: this runs for every corner of every plan, and the corner it moves is checked
  // with the referee afterwards.) False in the open (dl + dr at least 2 kPassageProbe) or where
  // two could not pass (narrower than kPassageMinWidth).
  auto free_to = [&](Vec2 side) {
    double d = 0.0;
    while (d < 2.0 * kPassageProbe + radius) {
      const Cell c = cell_of(q + side * (d + kPassageStep));
      if (!grid_.is_free(c.x, c.y)) break;
      d += kPassageStep;
    }
    return std::max(0.0, d - radius);
  };
  dr = free_to(axis);
  dl = free_to(-axis);
  const double width = dl + dr;
  return width < 2.0 * kPassageProbe && width >= kPassageMinWidth;
}

std::optional<Vec2> CrowdImpl::passage_right_half(const std::vector<Vec2>& route, size_t k, double radius,
                                                  crowd::OncomingQuestions* reads) const {
  // The narrowest cross-section near the corner: probed at points along both legs, across
  // the direction of travel, across each leg, and along the grid's axes (a doorway in a grid
  // wall is narrowest straight across, whatever way the route crosses it).
  const Vec2 in = route[k] - route[k - 1], out = route[k + 1] - route[k];
  const double li = glm::length(in), lo = glm::length(out);
  const Vec2 dir = glm::normalize(in / li + out / lo);
  const Vec2 right(-dir.y, dir.x);  // y grows down: the right-hand side of the direction of travel
  const Vec2 axes[] = {right, Vec2(-in.y, in.x) / li, Vec2(-out.y, out.x) / lo, Vec2(1.0, 0.0), Vec2(0.0, 1.0)};
  double best = std::numeric_limits<double>::infinity();
  Vec2 goal(0.0), across_from(0.0), across_to(0.0);
  for (double t = -kPassageReach; t <= kPassageReach + 1e-9; t += 1.0) {
    const Vec2 q = t < 0.0 ? route[k] + in * (std::max(t, -li) / li) : route[k] + out * (std::min(t, lo) / lo);
    for (Vec2 axis : axes) {
      if (glm::dot(axis, right) < 0.0) axis = -axis;  // measure towards the right of travel
      if (std::abs(glm::dot(axis, right)) < 0.3) continue;  // nearly along the way: not across it
      double dl = 0.0, dr = 0.0;
      if (!cross_section(q, axis, radius, dl, dr) || dl + dr >= best) continue;
      best = dl + dr;
      // The middle of the right half, as a position along `axis`; the corner keeps its
      // position across it.
      const Vec2 spot = q + axis * (0.5 * (dr - dl) + 0.25 * (dl + dr));
      goal = route[k] + axis * glm::dot(spot - route[k], axis);
      across_from = q - axis * dl;
      across_to = q + axis * dr;
    }
  }
  // Only against oncoming traffic: a stream going one way uses the whole passage, and a lone
  // unit would otherwise swing out from the corner for nobody.
  if (!std::isfinite(best) || !oncoming_across(across_from, across_to, dir, reads)) return std::nullopt;
  return goal;
}

bool CrowdImpl::oncoming_across(Vec2 from, Vec2 to, Vec2 dir, crowd::OncomingQuestions* reads) const {
  const Vec2 seg = to - from;
  const int n = static_cast<int>(std::ceil(glm::length(seg) / kPassageStep));
  for (int i = 0; i <= n; ++i) {
    const Cell c = cell_of(from + seg * (n > 0 ? static_cast<double>(i) / n : 0.0));
    if (!grid_.in_bounds(c)) continue;
    if (-glm::dot(flow_[static_cast<size_t>(c.y * grid_.width() + c.x)], dir) >= kPassageOncoming) {
      if (reads != nullptr) reads->push_back(crowd::OncomingQuestion{from, to, dir, true});
      return true;
    }
  }
  if (reads != nullptr) reads->push_back(crowd::OncomingQuestion{from, to, dir, false});
  return false;
}

bool CrowdImpl::oncoming_answers_hold(const crowd::OncomingQuestions& reads) const {
  for (const crowd::OncomingQuestion& q : reads) {
    if (oncoming_across(q.from, q.to, q.dir, nullptr) != q.answer) return false;
  }
  return true;
}

void CrowdImpl::keep_right_in_passages(std::vector<Vec2>& route, double radius, crowd::OncomingQuestions* reads) const {
  // Keep right in doorways and corridors, as people do. A route is a taut string: through a
  // doorway it bends at the corners, so every unit aims at the same corner line and the two
  // directions meet nose to nose there, where reciprocal avoidance jams (two blocks of 100
  // swapping through three doorways: 88 units still stuck after 120 s). Each corner of the
  // route next to a passage with oncoming traffic moves to the middle of the passage's right
  // half, where the way on both sides stays clear; corners in the open stay.
  for (size_t k = 1; k + 1 < route.size(); ++k) {
    const Vec2 in = route[k] - route[k - 1], out = route[k + 1] - route[k];
    const double li = glm::length(in), lo = glm::length(out);
    if (li < 1e-9 || lo < 1e-9) continue;
    const double turn = dmath::acos(std::clamp(glm::dot(in, out) / (li * lo), -1.0, 1.0));
    // Corners only: not the samples of a curve (short legs), not a bend in the open (a taut
    // route bends where it touches a wall; the probes below are the costly part).
    if (turn < kCornerTurn || turn > kPi - 1e-6 || std::min(li, lo) < kCornerLeg) continue;
    if (point_clear(grid_, route[k], radius + kCornerWallGap)) continue;
    const std::optional<Vec2> moved = passage_right_half(route, k, radius, reads);
    if (moved && point_clear(grid_, *moved, radius) && segment_clear(grid_, route[k - 1], *moved, radius) &&
        segment_clear(grid_, *moved, route[k + 1], radius)) {
      route[k] = *moved;
    }
  }
}

}  // namespace pathlab
