// The vehicle smoother's collision checks (pose_smoother_internal.hpp): the check of a built
// connection (sampled points, then the swept disc of the referee) and the quick verdict on a
// Dubins word before it is built, sphere tracing (Hart, "Sphere Tracing: A Geometric Method for
// the Antialiased Ray Tracing of Implicit Surfaces", The Visual Computer 1996) along the word's
// arcs and line against the map's clearance field, with the field's conservative distance
// bounds in place of an exact distance.

#include <algorithm>
#include <array>
#include <cmath>

#include "heading/pose_smoother_internal.hpp"
#include "pathlab/swept_check.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::detail {
namespace {

/// Appends the positions at distances k * step (k = 1, 2, ...; strictly inside the path) to
/// `out`, segment by segment: a line by its direction, an arc by turning the radius vector a
/// fixed angle per point (one sine and cosine per arc instead of one per point), a clothoid by
/// segment_state(). The points are those of path.at_distance() up to rounding (1e-12 cells).
void sample_positions(const SegmentPath& path, double step, std::vector<Vec2>& out) {
  out.clear();
  double offset = 0.0;
  const double total = path.length();
  for (const Segment& seg : path.segments()) {
    const double first = std::floor(offset / step) * step + step;  // first k * step beyond offset
    const double end = std::min(offset + seg.length, total - 1e-12);
    if (first <= end) {
      if (seg.kind == SegmentKind::arc) {
        const double dir = seg.sweep >= 0.0 ? 1.0 : -1.0;
        const double angle = seg.start_angle + dir * (first - offset) / seg.radius;
        Vec2 radial = seg.radius * angle_dir(angle);
        const auto [sn, c] = dmath::sincos(dir * step / seg.radius);
        for (double at = first; at <= end; at += step) {
          out.push_back(seg.center + radial);
          radial = Vec2(c * radial.x - sn * radial.y, sn * radial.x + c * radial.y);
        }
      } else if (seg.kind == SegmentKind::line) {
        const Vec2 from = segment_state(seg, 0.0).pos, dir = (segment_state(seg, seg.length).pos - from) / seg.length;
        for (double at = first; at <= end; at += step) out.push_back(from + dir * (at - offset));
      } else {
        for (double at = first; at <= end; at += step) out.push_back(segment_state(seg, at - offset).pos);
      }
    }
    offset += seg.length;
  }
}

/// False when the unit's disc overlaps a wall at one of the points every 0.5 cells along `path`
/// (then the swept check would fail too); true says nothing. Every fourth point is checked
/// first: a connection through a wall is usually caught there, at a quarter of the cost.
bool sampled_points_clear(const Walls& walls, const std::vector<Vec2>& points, double agent_radius) {
  const auto ok = [&](Vec2 p) {
    return walls.field ? point_clear(*walls.grid, *walls.field, p, agent_radius) : point_clear(*walls.grid, p, agent_radius);
  };
  for (size_t k = 3; k < points.size(); k += 4)
    if (!ok(points[k])) return false;
  for (size_t k = 0; k < points.size(); ++k)
    if (k % 4 != 3 && !ok(points[k])) return false;
  return true;
}

bool points_clear(const Walls& walls, const SegmentPath& path, double agent_radius) {
  thread_local std::vector<Vec2> points;
  sample_positions(path, 0.5, points);
  return sampled_points_clear(walls, points, agent_radius);
}

}  // namespace

bool connection_clear(const Walls& walls, const SegmentPath& path, const PoseSmoothDef& d) {
  if (!points_clear(walls, path, d.agent_radius)) return false;  // cheap and exact rejection first
  return swept_clear(walls, path, d);
}

bool swept_clear(const Walls& walls, const SegmentPath& path, const PoseSmoothDef& d) {
  SweptCheckDef check = default_swept_check_def();
  check.agent_radius = d.agent_radius;
  check.max_sagitta = d.max_sagitta;
  auto swept = walls.field ? check_swept_path(*walls.grid, path, check, *walls.field) : check_swept_path(*walls.grid, path, check);
  return swept && swept->clear;
}

namespace {

/// Steps shorter than this stop the proof of clearance (near a wall the referee decides). [Units: cells]
constexpr double kMinStride = 0.05;
/// Spacing of the looks for a blocked point once the proof has stopped. [Units: cells]
constexpr double kBlockedProbe = 0.25;
/// The referee's slack (kClearanceTolerance): overlaps smaller than this are not overlaps. [Units: cells]
constexpr double kSlack = 1e-9;
/// Agent radii from which a line through a blocked cell is taken as blocked without the
/// referee (the overlap, the radius less rounding of 1e-15 cells, is far beyond kSlack). [Units: cells]
constexpr double kCellsDecide = 1e-6;

/// The three parts of a word: where each starts and how it turns.
struct WordParts {
  std::array<Vec2, 3> start{};
  std::array<Vec2, 3> dir{};     // unit heading at the part's start (lines)
  std::array<Vec2, 3> center{};  // arcs
  std::array<double, 3> length{};
  std::array<int, 3> steer{};
  double radius = 1.0;
  int word = 0;  // DubinsWord
  /// Steering of the three parts of each word (DubinsWord order): +1 left, -1 right, 0 straight.
  static constexpr int kSteer[6][3] = {{1, 0, 1}, {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {-1, 1, -1}, {1, -1, 1}};

  /// Position at distance t into part k. [Units: cells]
  Vec2 at(int k, double t) const {
    const size_t i = static_cast<size_t>(k);
    if (steer[i] == 0) return start[i] + dir[i] * t;
    const double a = steer[i] * t / radius;
    const Vec2 r0 = start[i] - center[i];
    const auto [s, c] = dmath::sincos(a);
    return center[i] + Vec2(c * r0.x - s * r0.y, s * r0.x + c * r0.y);
  }
};

/// The first part of word `w` from `from`, whose heading's direction is `dir` (cos, sin): the
/// rest waits for add_later_parts(), as most words traced are found blocked on their first arc.
WordParts first_part(const Pose& from, Vec2 dir, const DubinsSolution& w, double radius) {
  WordParts parts;
  parts.radius = radius;
  parts.word = static_cast<int>(w.word);
  for (size_t k = 0; k < 3; ++k) {
    parts.steer[k] = WordParts::kSteer[parts.word][k];
    parts.length[k] = w.params[k] * radius;
  }
  parts.start[0] = from.pos;
  parts.dir[0] = dir;
  parts.center[0] = from.pos + static_cast<double>(parts.steer[0]) * radius * Vec2(-dir.y, dir.x);
  return parts;
}

/// Parts 1 and 2: each starts where the one before ends, its direction that one's turned by
/// the same angle as the end point (one sine and cosine per arc for both, instead of one for
/// the direction from the summed heading and one for the end).
void add_later_parts(WordParts& parts) {
  for (size_t k = 1; k < 3; ++k) {
    const size_t before = k - 1;
    Vec2 pos = parts.start[before] + parts.dir[before] * parts.length[before];
    Vec2 dir = parts.dir[before];
    if (parts.steer[before] != 0) {
      const double a = parts.steer[before] * parts.length[before] / parts.radius;
      const auto [sn, c] = dmath::sincos(a);
      const Vec2 r0 = parts.start[before] - parts.center[before];
      pos = parts.center[before] + Vec2(c * r0.x - sn * r0.y, sn * r0.x + c * r0.y);
      dir = Vec2(c * dir.x - sn * dir.y, sn * dir.x + c * dir.y);
    }
    parts.start[k] = pos;
    parts.dir[k] = dir;
    parts.center[k] = pos + static_cast<double>(parts.steer[k]) * parts.radius * Vec2(-dir.y, dir.x);
  }
}

}  // namespace

namespace {

/// One look of trace_word() at the point t into part k of a word: moves t on to the next point
/// to look at, clears `proven` where the field cannot clear the point, and returns true when the
/// point's disc overlaps a wall.
struct WordWalker {
  const Walls& walls;
  const WordParts& parts;
  double agent_radius, need;

  bool blocked_at(int k, double len, double& t, bool& proven) const {
    const Vec2 q = parts.at(k, std::min(t, len));
    const ClearanceField::Bounds bound = walls.field->bounds(q);
    double room = bound.lower - need;
    if (proven && room >= kMinStride) {
      t += room;
      return false;
    }
    // The disc at a point of the curve overlapping a wall makes the chord through it overlap
    // (as points_clear() of the smoother reasons). Near a wall the field's upper bound is
    // loose, so where the lower one cannot clear the point the referee looks at it.
    if (bound.upper < agent_radius - kSlack) return true;
    // The nearest sample's lower bound is loose beside a wall (collision.hpp): the four samples
    // around q often show room enough to go on proving, or the point clear without the referee.
    if (proven || room + need <= agent_radius) room = std::max(room, walls.field->fine_lower_bound(q) - need);
    if (proven && room >= kMinStride) {
      t += room;
      return false;
    }
    if (room + need <= agent_radius && !point_clear(*walls.grid, q, agent_radius)) return true;
    proven = false;
    t += std::max(room, kBlockedProbe);  // no point within room of q is blocked
    return false;
  }

  /// The first arc (part 0) of a word of that length: the walk kept in `walk` (extended as far
  /// as this word needs) gives the points this word looks at, those before `len` and the one at 0.
  bool first_arc_blocked(double len, FirstArcWalk& walk, bool& proven) const {
    while (walk.blocked_at == std::numeric_limits<double>::infinity() && (!walk.started || walk.next < len)) {
      const double at = walk.next;
      bool still = walk.unproven_from == std::numeric_limits<double>::infinity();
      walk.started = true;
      if (blocked_at(0, std::numeric_limits<double>::infinity(), walk.next, still)) {
        walk.blocked_at = at;
        break;
      }
      if (!still && walk.unproven_from == std::numeric_limits<double>::infinity()) walk.unproven_from = at;
    }
    const auto looked_at = [&](double t) { return t < len || t == 0.0; };
    if (looked_at(walk.blocked_at)) return true;
    proven = !looked_at(walk.unproven_from);
    return false;
  }
};

/// True when the line from a to b passes through a blocked cell of the map (the cells it
/// crosses walked in order: Amanatides and Woo, "A Fast Voxel Traversal Algorithm for Ray
/// Tracing", Eurographics 1987): the unit's disc centred on that point overlaps the wall by its
/// whole radius, far beyond rounding. False says nothing (the disc may still reach a wall); a
/// cell outside the map ends the walk.
bool line_hits_wall(const Grid& grid, Vec2 a, Vec2 b) {
  int x = static_cast<int>(std::floor(a.x)), y = static_cast<int>(std::floor(a.y));
  const int steps = std::abs(static_cast<int>(std::floor(b.x)) - x) + std::abs(static_cast<int>(std::floor(b.y)) - y);
  const Vec2 d = b - a;
  const int sx = d.x > 0.0 ? 1 : -1, sy = d.y > 0.0 ? 1 : -1;
  constexpr double inf = std::numeric_limits<double>::infinity();
  // Where the line crosses the next vertical and horizontal cell edge, and the spacing of those
  // crossings (fractions of the line).
  double next_x = d.x != 0.0 ? ((sx > 0 ? x + 1.0 : x) - a.x) / d.x : inf;
  double next_y = d.y != 0.0 ? ((sy > 0 ? y + 1.0 : y) - a.y) / d.y : inf;
  const double step_x = d.x != 0.0 ? sx / d.x : inf, step_y = d.y != 0.0 ? sy / d.y : inf;
  for (int i = 0;; ++i) {
    if (!grid.in_bounds(x, y)) return false;
    if (grid.is_blocked(x, y)) return true;
    if (i == steps) return false;
    if (next_x < next_y) {
      x += sx;
      next_x += step_x;
    } else {
      y += sy;
      next_y += step_y;
    }
  }
}

}  // namespace

WordTrace trace_word(const Walls& walls, const Pose& from, const DubinsSolution& w, double turning_radius,
                     double agent_radius, double max_sagitta) {
  if (walls.field == nullptr || !std::isfinite(w.length)) return WordTrace::unknown;
  WordParts parts = first_part(from, walls.heading_dir(from), w, turning_radius);
  // The referee checks chords within max_sagitta of the arcs, with the radius grown by their
  // sagitta: clearance beyond agent_radius + 2 max_sagitta along the arc clears every chord.
  const WordWalker walker{walls, parts, agent_radius, agent_radius + 2.0 * max_sagitta};
  bool proven = true;
  FirstArcWalk& walk = walls.first_arc[parts.steer[0] > 0 ? 0 : 1];
  if (walker.first_arc_blocked(parts.length[0], walk, proven)) return WordTrace::blocked;
  add_later_parts(parts);
  const bool cells_decide = agent_radius >= kCellsDecide;
  for (int k = 1; k < 3; ++k) {
    const double len = parts.length[static_cast<size_t>(k)];
    // Most blocked words run their middle line through a wall: walking its cells finds that for
    // a few grid lookups, where the field's probes slow down towards the wall and near it ask
    // the four samples and the referee.
    if (cells_decide && parts.steer[static_cast<size_t>(k)] == 0 &&
        line_hits_wall(*walls.grid, parts.at(k, 0.0), parts.at(k, len)))
      return WordTrace::blocked;
    // Covered up to t (a point's clear disc reaches back over the step that led to it).
    for (double t = 0.0;;) {
      if (walker.blocked_at(k, len, t, proven)) return WordTrace::blocked;
      if (t >= len) break;
    }
  }
  return proven ? WordTrace::clear : WordTrace::unknown;
}

}  // namespace pathlab::detail
