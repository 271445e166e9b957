#include "pathlab/swept_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "grid/field_look.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {

namespace {

/// Margin on the arc length an arc's chords may be skipped over (rounding of the chord ends,
/// about 1e-13 cells on a 256-cell map). [Units: cells]
constexpr double kSkipMargin = 1e-9;

/// The sweep itself; `segment_ok(a, b, radius)` answers segment_clear() (the referee, or the
/// clearance field's equivalent), `point_ok(p, radius)` answers point_clear(), `room(p, want)` gives a
/// lower bound of the distance from p to the nearest wall (-infinity: none known; it need not
/// look further once it has found `want`, the room one chord needs).
template <class SegmentClear, class PointClear, class Room>
Result<SweptCheckResult> sweep(const SegmentPath& path, const SweptCheckDef& def, SegmentClear&& segment_ok,
                               PointClear&& point_ok, Room&& room) {
  if (auto ok = check_agent_radius(def.agent_radius); !ok) return ok.error();
  if (!(def.max_sagitta > 0.0) || !std::isfinite(def.max_sagitta))
    return fail(StatusCode::invalid_argument, "max_sagitta must be a positive finite number");
  SweptCheckResult res;
  const auto segs = path.segments();
  if (segs.empty()) {
    res.clear = point_ok(path.start().pos, def.agent_radius);
    if (!res.clear) res.first_blocked_segment = 0;
    return res;
  }
  double offset = 0.0;
  for (size_t i = 0; i < segs.size(); ++i) {
    const Segment& seg = segs[i];
    auto blocked = [&](double s_local) {
      res.clear = false;
      res.first_blocked_segment = static_cast<int>(i);
      res.blocked_at_s = offset + s_local;
    };
    if (seg.kind == SegmentKind::line) {
      if (!segment_ok(segment_state(seg, 0.0).pos, segment_state(seg, seg.length).pos, def.agent_radius)) {
        blocked(0.0);
        return res;
      }
    } else {
      // Largest chord angle with sagitta r (1 - cos(angle / 2)) <= max_sagitta.
      const double ratio = std::min(def.max_sagitta / seg.radius, 1.0);
      const double max_angle = std::min(2.0 * dmath::acos(1.0 - ratio), kPi / 2);
      const double chords = std::ceil(std::abs(seg.sweep) / max_angle);
      if (chords > 1e7)
        return fail(StatusCode::too_large, "arc " + std::to_string(i) + " needs more than 1e7 chords; raise max_sagitta");
      const int n = std::max(1, static_cast<int>(chords));
      const double angle = std::abs(seg.sweep) / n;
      const double sagitta = seg.radius * (1.0 - dmath::cos(0.5 * angle));
      const double chord_arc = seg.length / n;  // arc length per chord [cells]
      Vec2 a = segment_state(seg, 0.0).pos;
      for (int k = 1; k <= n; ++k) {
        // Sphere tracing along the chords (as segment_clear() does along a line): every point
        // within the room of a clears the grown disc, and so does every chord whose ends lie
        // within that arc length of a (a chord is never longer than its arc, and the chord lies
        // in the disc around a through its farther end). Those chords are passed over without
        // their end points (one sine and cosine each) or lookups; the chords checked, and so the
        // answer, are those of the plain sweep. Near walls the lookup finds no room and costs one
        // lookup more than the plain sweep (with the field, five: the nearest sample's bound is
        // loose there, the four samples' often shows room for a chord or more).
        const double grown = def.agent_radius + sagitta;
        const double reach = room(a, grown + kSkipMargin + chord_arc) - grown - kSkipMargin;
        if (reach >= chord_arc) {
          // (In doubles first: a tiny arc's reach is many chords, more than an int holds.)
          const int skip = static_cast<int>(std::min(static_cast<double>(n - k + 1), std::floor(reach / chord_arc)));
          k += skip - 1;  // chords k .. k + skip - 1 are clear
          if (k == n) break;
          a = segment_state(seg, seg.length * (static_cast<double>(k) / n)).pos;
          continue;
        }
        const double s = seg.length * (static_cast<double>(k) / n);
        const Vec2 b = segment_state(seg, s).pos;
        if (!segment_ok(a, b, def.agent_radius + sagitta)) {
          blocked(seg.length * (static_cast<double>(k - 1) / n));
          return res;
        }
        a = b;
      }
    }
    offset += seg.length;
  }
  return res;
}

}  // namespace

Result<SweptCheckResult> check_swept_path(const Grid& grid, const SegmentPath& path, const SweptCheckDef& def) {
  return sweep(
      path, def, [&](Vec2 a, Vec2 b, double r) { return segment_clear(grid, a, b, r); },
      [&](Vec2 p, double r) { return point_clear(grid, p, r); },
      [](Vec2, double) { return -std::numeric_limits<double>::infinity(); });
}

Result<SweptCheckResult> check_swept_path(const Grid& grid, const SegmentPath& path, const SweptCheckDef& def,
                                          const ClearanceField& field) {
  // The look at the last point asked about: a chord's start is asked for its room and then by
  // the chord's check, and a checked chord's end is the next chord's start.
  detail::FieldLook last;
  const auto look = [&](Vec2 p) -> detail::FieldLook& {
    if (!(last.p == p)) last = detail::FieldLook(field, p);
    return last;
  };
  return sweep(
      path, def,
      [&](Vec2 a, Vec2 b, double r) {
        if (!field.fits(grid)) return segment_clear_fine(grid, field, a, b, r);
        detail::FieldLook from = look(a);
        detail::FieldLook to(field, b);
        const bool clear = detail::segment_clear_fine(grid, field, from, to, r);
        last = to;
        return clear;
      },
      [&](Vec2 p, double r) { return point_clear(grid, field, p, r); },
      [&](Vec2 p, double want) {
        if (!field.fits(grid) || !is_finite(p)) return -std::numeric_limits<double>::infinity();
        return look(p).lower_for(field, want);
      });
}

}  // namespace pathlab
