// Lanes in counterflow (issue 27): a large group's route runs a lane to the right of its line
// across open ground where other routes come the other way, so two streams pass side by side.
// keep_right_in_passages moves only corners next to a passage; a field's route goes straight
// from doorway to doorway, and two groups bound for each other's side of the map walked the
// same line head-on. Where a third group crossed them (the rooms map's centre room, four groups
// in counterflow), 232 persons stood in one clump at 200 s, 826 of 1,000 arrived in 600 s.
// People facing oncoming pedestrians form lanes, each keeping to one side (Helbing and Molnar,
// "Social force model for pedestrian dynamics", 1995). The aim where four streams cross: each
// on its own right, they meet as two-stream crossings round a square, not all on one point.
// Flow-field routes only (plan_flow_route and its read-ahead): the traffic asked is the same
// flow_ marks as keep_right_in_passages, so the read-ahead's answers hold alike.

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {
namespace {

constexpr double kLaneOffset = 2.0;  ///< How far right of its line a lane runs. [Units: cells]
constexpr double kLaneRamp = 4.0;    ///< Along the leg from its ends to where the lane is reached. [Units: cells]
constexpr double kLaneProbe = 4.0;   ///< Oncoming routes this far either side of the leg's middle count. [Units: cells]
constexpr double kLaneMinRun = 2.0 * kLaneRamp + 4.0;  ///< Shorter runs of open ground keep the line. [Units: cells]
constexpr double kLaneSample = 1.0;  ///< Spacing of the room probes along a leg. [Units: cells]
constexpr double kLaneStep = 0.25;   ///< Step of each room probe. [Units: cells]
constexpr double kLaneWallGap = 0.25;  ///< The lane's points keep this off walls besides the radius. [Units: cells]

}  // namespace

double CrowdImpl::room_right(Vec2 p, Vec2 right, double reach) const {
  double d = 0.0;
  while (d < reach) {
    const Cell c = cell_of(p + right * (d + kLaneStep));
    if (!grid_.is_free(c.x, c.y)) break;
    d += kLaneStep;
  }
  return d;
}

void CrowdImpl::add_lane(Vec2 a, Vec2 b, double radius, std::vector<Vec2>& out, crowd::OncomingQuestions* reads) const {
  // The leg from a to b (a already in `out`): along it, the runs of open ground with room for
  // the lane on the right (a doorway on the leg ends a run), each with oncoming traffic across
  // its middle, get two points kLaneRamp in from the run's ends, kLaneOffset to the right.
  const Vec2 leg = b - a;
  const double len = glm::length(leg);
  if (!(len >= kLaneMinRun)) return;
  const Vec2 dir = leg / len;
  const Vec2 right(-dir.y, dir.x);  // y grows down: the right-hand side of the direction of travel
  const double need = kLaneOffset + radius + kLaneWallGap;
  Vec2 last = a;
  double run_from = -1.0;
  const int n = static_cast<int>(std::floor(len / kLaneSample));
  for (int i = 0; i <= n + 1; ++i) {
    const double t = std::min(len, i * kLaneSample);
    const bool room = i <= n && room_right(a + dir * t, right, need) >= need;
    if (room && run_from < 0.0) run_from = t;
    if (room || run_from < 0.0) continue;
    const double run_to = std::min(len, (i - 1) * kLaneSample);
    if (run_to - run_from >= kLaneMinRun) {
      const Vec2 p = a + dir * (run_from + kLaneRamp) + right * kLaneOffset;
      const Vec2 q = a + dir * (run_to - kLaneRamp) + right * kLaneOffset;
      const Vec2 mid = a + dir * (0.5 * (run_from + run_to));
      if (oncoming_across(mid - right * kLaneProbe, mid + right * kLaneProbe, dir, reads) &&
          point_clear(grid_, p, radius + kLaneWallGap) && point_clear(grid_, q, radius + kLaneWallGap) &&
          segment_clear(grid_, last, p, radius) && segment_clear(grid_, p, q, radius) && segment_clear(grid_, q, b, radius)) {
        out.push_back(p);
        out.push_back(q);
        last = q;
      }
    }
    run_from = -1.0;
  }
}

void CrowdImpl::keep_right_in_lanes(std::vector<Vec2>& route, double radius, crowd::OncomingQuestions* reads) const {
  // Every leg (the first too: the unit stands at its start); the route's points stay (corners
  // at doorways, the target).
  if (route.size() < 2) return;
  std::vector<Vec2> out;
  out.reserve(route.size() + 8);
  for (size_t k = 0; k + 1 < route.size(); ++k) {
    out.push_back(route[k]);
    add_lane(route[k], route[k + 1], radius, out, reads);
  }
  out.push_back(route.back());
  route = std::move(out);
}

}  // namespace pathlab
