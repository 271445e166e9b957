#include "pathlab/funnel.hpp"

#include <string>


namespace pathlab {
namespace {

/// Positive when b is counter-clockwise (math sense) of a, seen from o.
double turn(Vec2 o, Vec2 a, Vec2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

}  // namespace

Result<FunnelResult> funnel_path(Vec2 start, Vec2 goal, std::span<const FunnelPortal> portals, bool record_events) {
  if (!is_finite(start)) return fail(StatusCode::invalid_argument, "funnel start is not a finite point");
  if (!is_finite(goal)) return fail(StatusCode::invalid_argument, "funnel goal is not a finite point");
  for (size_t i = 0; i < portals.size(); ++i) {
    if (!is_finite(portals[i].left) || !is_finite(portals[i].right)) {
      return fail(StatusCode::invalid_argument, "funnel portal " + std::to_string(i) + " is not finite");
    }
  }
  if (portals.empty() && start == goal) return FunnelResult{{start}, 0.0, {}};  // start == goal: one point
  const int n = static_cast<int>(portals.size()) + 2;  // start and goal act as zero-width portals
  auto portal = [&](int i) -> FunnelPortal {
    if (i == 0) return FunnelPortal{start, start};
    if (i == n - 1) return FunnelPortal{goal, goal};
    return portals[static_cast<size_t>(i - 1)];
  };
  FunnelResult out;
  out.points.push_back(start);
  // The funnel: an apex and two legs. Side 0 is the right leg, side 1 the left one; the left
  // side is the right side mirrored, which `sign` expresses so both share one code path.
  Vec2 apex = start;
  Vec2 leg[2] = {start, start};
  int apex_i = 0;
  int leg_i[2] = {0, 0};
  auto record = [&](FunnelEvent::Kind k, int i) {
    if (record_events) out.events.push_back(FunnelEvent{k, i - 1, apex, leg[1], leg[0]});
  };
  for (int i = 1; i < n; ++i) {
    const FunnelPortal p = portal(i);
    bool restarted = false;
    for (int side = 0; side < 2 && !restarted; ++side) {
      const double sign = side == 0 ? 1.0 : -1.0;
      const Vec2 q = side == 0 ? p.right : p.left;
      Vec2& mine = leg[side];
      const Vec2 other = leg[1 - side];
      // q tightens this leg when it is on or inside it (counter-clockwise of the right leg,
      // clockwise of the left one); collinear counts as inside so that straight runs of
      // portals never create a corner.
      if (sign * turn(apex, mine, q) < 0.0) continue;
      if (apex == mine || sign * turn(apex, q, other) >= 0.0) {
        mine = q;
        leg_i[side] = i;
        record(side == 0 ? FunnelEvent::tighten_right : FunnelEvent::tighten_left, i);
        continue;
      }
      // q crosses over the other leg: that leg's end is the next corner of the path, and
      // the scan restarts from the portal after it.
      apex = other;
      apex_i = leg_i[1 - side];
      if (out.points.back() != apex) out.points.push_back(apex);
      leg[0] = leg[1] = apex;
      leg_i[0] = leg_i[1] = apex_i;
      record(side == 0 ? FunnelEvent::corner_left : FunnelEvent::corner_right, apex_i);
      i = apex_i;
      restarted = true;
    }
  }
  if (out.points.back() != goal || out.points.size() == 1) out.points.push_back(goal);
  out.length = polyline_length(out.points);
  return out;
}

}  // namespace pathlab
