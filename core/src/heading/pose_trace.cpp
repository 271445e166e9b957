// The vehicle smoother's quick verdict on a Dubins word (pose_smoother_internal.hpp): sphere
// tracing (Hart, "Sphere Tracing: A Geometric Method for the Antialiased Ray Tracing of Implicit
// Surfaces", The Visual Computer 1996) along the word's arcs and line against the map's
// clearance field, with the field's conservative distance bounds in place of an exact distance.

#include <algorithm>
#include <array>
#include <cmath>

#include "heading/pose_smoother_internal.hpp"

namespace pathlab::detail {
namespace {

/// Steps shorter than this stop the proof of clearance (near a wall the referee decides). [Units: cells]
constexpr double kMinStride = 0.05;
/// Spacing of the looks for a blocked point once the proof has stopped. [Units: cells]
constexpr double kBlockedProbe = 0.25;
/// The referee's slack (kClearanceTolerance): overlaps smaller than this are not overlaps. [Units: cells]
constexpr double kSlack = 1e-9;

/// The three parts of a word: where each starts and how it turns.
struct WordParts {
  std::array<Vec2, 3> start{};
  std::array<Vec2, 3> dir{};     // unit heading at the part's start (lines)
  std::array<Vec2, 3> center{};  // arcs
  std::array<double, 3> length{};
  std::array<int, 3> steer{};
  double radius = 1.0;

  /// Position at distance t into part k. [Units: cells]
  Vec2 at(int k, double t) const {
    const size_t i = static_cast<size_t>(k);
    if (steer[i] == 0) return start[i] + dir[i] * t;
    const double a = steer[i] * t / radius;
    const Vec2 r0 = start[i] - center[i];
    const double c = std::cos(a), s = std::sin(a);
    return center[i] + Vec2(c * r0.x - s * r0.y, s * r0.x + c * r0.y);
  }
};

WordParts word_parts(const Pose& from, const DubinsSolution& w, double radius) {
  // Steering of the three parts of each word (DubinsWord order): +1 left, -1 right, 0 straight.
  static constexpr int kSteer[6][3] = {{1, 0, 1}, {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {-1, 1, -1}, {1, -1, 1}};
  WordParts parts;
  parts.radius = radius;
  Vec2 pos = from.pos;
  double heading = from.heading;
  for (size_t k = 0; k < 3; ++k) {
    const int steer = kSteer[static_cast<int>(w.word)][k];
    const double len = w.params[k] * radius;
    const Vec2 dir(std::cos(heading), std::sin(heading));
    parts.start[k] = pos;
    parts.dir[k] = dir;
    parts.steer[k] = steer;
    parts.length[k] = len;
    parts.center[k] = pos + static_cast<double>(steer) * radius * Vec2(-dir.y, dir.x);
    pos = parts.at(static_cast<int>(k), len);
    heading += steer * len / radius;
  }
  return parts;
}

}  // namespace

WordTrace trace_word(const Walls& walls, const Pose& from, const DubinsSolution& w, double turning_radius,
                     double agent_radius, double max_sagitta) {
  if (walls.field == nullptr || !std::isfinite(w.length)) return WordTrace::unknown;
  const ClearanceField& field = *walls.field;
  const WordParts parts = word_parts(from, w, turning_radius);
  // The referee checks chords within max_sagitta of the arcs, with the radius grown by their
  // sagitta: clearance beyond agent_radius + 2 max_sagitta along the arc clears every chord.
  const double need = agent_radius + 2.0 * max_sagitta;
  bool proven = true;
  for (int k = 0; k < 3; ++k) {
    const double len = parts.length[static_cast<size_t>(k)];
    // Covered up to t (a point's clear disc reaches back over the step that led to it).
    for (double t = 0.0;;) {
      const Vec2 q = parts.at(k, std::min(t, len));
      const double room = field.lower_bound(q) - need;
      if (proven && room >= kMinStride) {
        t += room;
      } else {
        // The disc at a point of the curve overlapping a wall makes the chord through it overlap
        // (as points_clear() of the smoother reasons). Near a wall the field's upper bound is
        // loose, so where the lower one cannot clear the point the referee looks at it.
        if (field.upper_bound(q) < agent_radius - kSlack) return WordTrace::blocked;
        if (room + need <= agent_radius && !point_clear(*walls.grid, q, agent_radius)) return WordTrace::blocked;
        proven = false;
        t += std::max(room, kBlockedProbe);  // no point within room of q is blocked
      }
      if (t >= len) break;
    }
  }
  return proven ? WordTrace::clear : WordTrace::unknown;
}

}  // namespace pathlab::detail
