#include "pathlab/turning_smoother.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "heading/heading_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {

const char* to_string(TurnMethod method) noexcept {
  switch (method) {
    case TurnMethod::fillet: return "fillet";
    case TurnMethod::shrink: return "shrink";
    case TurnMethod::three_point: return "three_point";
    case TurnMethod::rotate: return "rotate";
  }
  return "?";
}

int TurningResult::count(TurnMethod method) const {
  return static_cast<int>(std::count_if(turns.begin(), turns.end(), [&](const TurnReport& t) { return t.method == method; }));
}

namespace {

// Heading changes below this are no turn at all. [Units: radians]
constexpr double kNoTurn = 1e-9;
// Each shrink step multiplies the radius by this.
constexpr double kShrinkFactor = 0.8;

std::string point_text(Vec2 p) { return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")"; }

class Builder {
 public:
  Builder(const detail::SegmentChecker& checker, const TurningSmoothDef& def, Pose start)
      : checker_(checker), def_(def) {
    out_.pieces.emplace_back(start);
  }
  SegmentPath& piece() { return out_.pieces.back(); }

  Status line_to(Vec2 p) {
    const Pose at = piece().end();
    const double len = glm::length(p - at.pos);
    if (len <= 0.0) return ok_status();
    return piece().append(line_from_pose(at, len));
  }

  /// Turns on the spot at the current end from its heading to `heading`.
  Status spot_turn(int waypoint, double heading, const std::string& where) {
    const Pose at = piece().end();
    const double angle = wrap_angle(heading - at.heading);
    if (std::abs(angle) < kNoTurn) return ok_status();
    if (def_.allow_three_point) {
      auto rs = reeds_shepp_path(at, Pose{at.pos, heading}, def_.turning_radius);
      if (rs && checker_.clear(*rs)) {
        out_.turns.push_back({waypoint, TurnMethod::three_point, angle, def_.turning_radius});
        return piece().append(*rs);
      }
    }
    if (def_.allow_rotate) {
      out_.turns.push_back({waypoint, TurnMethod::rotate, angle, 0.0});
      out_.pieces.emplace_back(Pose{at.pos, heading});
      return ok_status();
    }
    return fail(StatusCode::blocked, where + ": no enabled method can turn by " +
                                         std::to_string(rad_to_deg(angle)) + " degrees on the spot here");
  }

  /// Rounds the corner at `corner` between the headings `in` and `out`, with `avail_in` and
  /// `avail_out` of the legs free to use. Returns the tangent length used on the outgoing leg.
  Result<double> corner(int waypoint, Vec2 corner, double in, double out, double avail_in, double avail_out,
                        const std::string& where) {
    const double delta = wrap_angle(out - in);
    const double half_tan = dmath::tan(0.5 * std::abs(delta));
    if (std::abs(delta) < kPi - 1e-6) {
      const double geometric = std::min(avail_in, avail_out) / half_tan;
      double rho = std::min(def_.turning_radius, geometric);
      const double floor = def_.allow_shrink ? def_.min_radius : def_.turning_radius;
      while (rho >= floor * (1.0 - 1e-12)) {
        const double t = rho * half_tan;
        const Vec2 a = corner - angle_dir(in) * t;
        const Pose at{a, in};
        const Segment arc = arc_from_pose(at, rho, delta > 0 ? 1 : -1, rho * std::abs(delta));
        if (checker_.clear(arc)) {
          if (auto s = line_to(a); !s) return s.error();
          // Start the arc from the actual end of the path, so it is continuous exactly.
          const Segment arc2 = arc_from_pose(Pose{piece().end().pos, in}, rho, delta > 0 ? 1 : -1, rho * std::abs(delta));
          if (auto s = piece().append(arc2); !s) return s.error();
          const bool full = rho >= def_.turning_radius * (1.0 - 1e-12);
          out_.turns.push_back({waypoint, full ? TurnMethod::fillet : TurnMethod::shrink, delta, rho});
          return t;
        }
        if (rho <= floor) break;
        rho = std::max(rho * kShrinkFactor, floor);
      }
    }
    if (auto s = line_to(corner); !s) return s.error();
    if (auto s = spot_turn(waypoint, in + delta, where); !s) return s.error();
    return 0.0;
  }

  TurningResult finish() {
    for (const SegmentPath& p : out_.pieces) out_.length += p.length();
    return std::move(out_);
  }

 private:
  const detail::SegmentChecker& checker_;
  const TurningSmoothDef& def_;
  TurningResult out_;
};

}  // namespace

Result<TurningResult> turning_smooth(const Grid& grid, std::span<const Vec2> points, const TurningSmoothDef& def) {
  if (!(def.turning_radius > 0.0) || !(def.turning_radius <= kMaxTurningRadius))
    return fail(StatusCode::invalid_argument, "turning radius must be in (0, 1000] cells, got " + std::to_string(def.turning_radius));
  if (auto ok = check_agent_radius(def.agent_radius); !ok) return ok.error();
  if (!(def.min_radius > 0.0) || !(def.min_radius <= def.turning_radius))
    return fail(StatusCode::invalid_argument, "min_radius must be in (0, turning radius], got " + std::to_string(def.min_radius));
  if ((def.has_start_heading && !std::isfinite(def.start_heading)) || (def.has_goal_heading && !std::isfinite(def.goal_heading)))
    return fail(StatusCode::invalid_argument, "start and goal headings must be finite");
  if (points.empty()) return fail(StatusCode::invalid_argument, "the path has no points");
  for (size_t i = 0; i < points.size(); ++i)
    if (!is_finite(points[i])) return fail(StatusCode::invalid_argument, "point " + std::to_string(i) + " is not finite");
  if (!polyline_clear(grid, points, def.agent_radius))
    return fail(StatusCode::blocked, "the input path is not clear for agent radius " + std::to_string(def.agent_radius));

  // Merge repeated and collinear waypoints, remembering where each kept one came from.
  std::vector<Vec2> pts;
  std::vector<int> origin;
  for (size_t i = 0; i < points.size(); ++i) {
    const Vec2 p = points[i];
    if (!pts.empty() && glm::length(p - pts.back()) <= 1e-12) continue;
    if (pts.size() >= 2) {
      const Vec2 u = pts.back() - pts[pts.size() - 2], v = p - pts.back();
      const double cross = u.x * v.y - u.y * v.x;
      if (std::abs(cross) <= 1e-12 * glm::length(u) * glm::length(v) && glm::dot(u, v) > 0.0) {
        pts.back() = p;
        origin.back() = static_cast<int>(i);
        continue;
      }
    }
    pts.push_back(p);
    origin.push_back(static_cast<int>(i));
  }
  const size_t n = pts.size();
  std::vector<double> dir(n > 1 ? n - 1 : 0), len(dir.size());
  for (size_t i = 0; i + 1 < n; ++i) {
    const Vec2 d = pts[i + 1] - pts[i];
    dir[i] = dmath::atan2(d.y, d.x);
    len[i] = glm::length(d);
  }
  const double first_heading = n > 1 ? dir[0] : (def.has_start_heading ? def.start_heading : 0.0);
  const double start_heading = def.has_start_heading ? def.start_heading : first_heading;
  const detail::SegmentChecker checker(grid, def.agent_radius);
  Builder b(checker, def, Pose{pts[0], start_heading});
  if (auto s = b.spot_turn(0, first_heading, "start " + point_text(pts[0])); !s) return s.error();
  double used_in = 0.0;
  for (size_t i = 1; i + 1 < n; ++i) {
    const double avail_out = i + 2 == n ? len[i] : 0.5 * len[i];
    auto t = b.corner(origin[i], pts[i], dir[i - 1], dir[i], len[i - 1] - used_in, avail_out,
                      "waypoint " + std::to_string(origin[i]) + " " + point_text(pts[i]));
    if (!t) return t.error();
    used_in = *t;
  }
  if (auto s = b.line_to(pts[n - 1]); !s) return s.error();
  if (def.has_goal_heading) {
    if (auto s = b.spot_turn(origin[n - 1], def.goal_heading, "goal " + point_text(pts[n - 1])); !s) return s.error();
  }
  return b.finish();
}

}  // namespace pathlab
