#include "pathlab/follow_path.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pathlab/collision.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {

namespace {

double heading_of(Vec2 d) { return dmath::atan2(d.y, d.x); }

Status check_spacing(double spacing, double length) {
  if (!(spacing > 0.0) || !std::isfinite(spacing)) {
    return fail(StatusCode::invalid_argument, "spacing must be finite and > 0 (got " + std::to_string(spacing) + ")");
  }
  if (length / spacing > static_cast<double>(kMaxFollowSamples)) {
    return fail(StatusCode::too_large, "spacing " + std::to_string(spacing) + " gives more than " +
                                           std::to_string(kMaxFollowSamples) + " samples");
  }
  return ok_status();
}

}  // namespace

Result<FollowPath> FollowPath::from_polyline(std::span<const Vec2> points) {
  if (points.empty()) return fail(StatusCode::invalid_argument, "path: no points");
  FollowPath fp;
  fp.source_ = Source::polyline;
  fp.samples_.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    if (!is_finite(points[i])) {
      return fail(StatusCode::invalid_argument, "path: point " + std::to_string(i) + " is not finite");
    }
    if (!fp.samples_.empty() && points[i] == fp.samples_.back().pos) continue;
    FollowSample smp;
    smp.pos = points[i];
    smp.s = fp.samples_.empty() ? 0.0 : fp.samples_.back().s + glm::length(points[i] - fp.samples_.back().pos);
    fp.samples_.push_back(smp);
  }
  auto& sm = fp.samples_;
  const size_t n = sm.size();
  for (size_t i = 0; i < n; ++i) {
    // The nose points along the edge that leaves the vertex (the last vertex: the one arriving).
    if (n == 1) break;
    sm[i].heading = i + 1 < n ? heading_of(sm[i + 1].pos - sm[i].pos) : sm[i - 1].heading;
  }
  for (size_t i = 1; i + 1 < n; ++i) {
    sm[i].corner = wrap_angle(sm[i].heading - sm[i - 1].heading);
    // Spread the turn over half of each neighbouring edge: the curvature of a rounded corner.
    const double span = 0.5 * (sm[i + 1].s - sm[i - 1].s);
    sm[i].curvature = sm[i].corner / span;
  }
  return fp;
}

Result<FollowPath> FollowPath::from_curve(const ArcLengthTable& table, double spacing) {
  const double len = table.length();
  if (Status st = check_spacing(spacing, len); !st) return st.error();
  FollowPath fp;
  fp.source_ = Source::curve;
  fp.curve_ = std::make_shared<const ArcLengthTable>(table);
  const long long n = std::max(1LL, static_cast<long long>(std::ceil(len / spacing)));
  fp.samples_.reserve(static_cast<size_t>(n + 1));
  double last_heading = 0.0;
  bool have_heading = false;
  for (long long k = 0; k <= n; ++k) {
    FollowSample smp;
    smp.s = k == n ? len : len * (static_cast<double>(k) / static_cast<double>(n));
    smp.pos = table.point_at_distance(smp.s);
    const Vec2 dir = table.direction_at_distance(smp.s);
    // Where the curve stands still it has no direction: keep the previous one.
    if (dir.x != 0.0 || dir.y != 0.0) {
      last_heading = heading_of(dir);
      if (!have_heading) {
        for (auto& prev : fp.samples_) prev.heading = last_heading;
        have_heading = true;
      }
    }
    smp.heading = last_heading;
    smp.curvature = table.curvature_at_distance(smp.s);
    fp.samples_.push_back(smp);
  }
  return fp;
}

Result<FollowPath> FollowPath::from_curve(const HermiteCurve& curve, double spacing) {
  auto table = ArcLengthTable::build(curve);
  if (!table) return table.error();
  return from_curve(*table, spacing);
}

Result<FollowPath> FollowPath::from_segment_path(const SegmentPath& path, double spacing) {
  if (Status st = check_spacing(spacing, path.length()); !st) return st.error();
  auto samples = path.sample(spacing);
  if (!samples) return samples.error();
  FollowPath fp;
  fp.source_ = Source::segments;
  fp.segments_ = std::make_shared<const SegmentPath>(path);
  fp.samples_.reserve(samples->size());
  for (const PathSample& ps : *samples) {
    FollowSample smp;
    smp.pos = ps.state.pos;
    smp.s = ps.s;
    smp.heading = ps.state.heading;
    smp.curvature = ps.state.curvature;
    smp.gear = ps.state.gear;
    if (smp.gear == Gear::reverse) fp.has_reverse_ = true;
    // A sample carries the gear of the chord that leaves it; a change of gear is a cusp.
    if (!fp.samples_.empty() && fp.samples_.back().gear != smp.gear) fp.cusps_.push_back(smp.s);
    fp.samples_.push_back(smp);
  }
  return fp;
}

size_t FollowPath::index_at(double s) const noexcept {
  if (samples_.size() < 2) return 0;
  // First sample strictly beyond s, minus one: the chord that covers s.
  auto it = std::upper_bound(samples_.begin(), samples_.end(), s,
                             [](double v, const FollowSample& smp) { return v < smp.s; });
  size_t i = it == samples_.begin() ? 0 : static_cast<size_t>(it - samples_.begin()) - 1;
  return std::min(i, samples_.size() - 2);
}

PathState FollowPath::state_at(double s) const {
  PathState st;
  if (samples_.empty()) return st;
  s = std::clamp(std::isnan(s) ? 0.0 : s, 0.0, length());
  if (source_ == Source::segments) return segments_->at_distance(s).value();
  if (source_ == Source::curve) {
    st.pos = curve_->point_at_distance(s);
    const Vec2 dir = curve_->direction_at_distance(s);
    st.heading = (dir.x != 0.0 || dir.y != 0.0) ? heading_of(dir) : samples_[index_at(s)].heading;
    st.curvature = curve_->curvature_at_distance(s);
    return st;
  }
  if (samples_.size() == 1) {
    st.pos = samples_[0].pos;
    return st;
  }
  const size_t i = index_at(s);
  const FollowSample& a = samples_[i];
  const FollowSample& b = samples_[i + 1];
  const double t = (s - a.s) / (b.s - a.s);
  st.pos = s >= b.s ? b.pos : a.pos + (b.pos - a.pos) * t;
  st.heading = a.heading;
  return st;
}

Pose FollowPath::start_pose() const {
  if (source_ == Source::segments) return segments_->start();
  if (samples_.empty()) return Pose{};
  return Pose{samples_.front().pos, samples_.front().heading};
}

Pose FollowPath::end_pose() const {
  if (source_ == Source::segments) return segments_->end();
  if (samples_.empty()) return Pose{};
  return Pose{samples_.back().pos, samples_.back().heading};
}

PathProjection FollowPath::project(Vec2 p, double s_lo, double s_hi) const {
  PathProjection best;
  if (samples_.empty()) return best;
  if (samples_.size() == 1) {
    best.point = samples_[0].pos;
    best.distance = glm::length(p - best.point);
    return best;
  }
  const size_t i0 = index_at(std::max(0.0, s_lo));
  const size_t i1 = index_at(std::min(length(), s_hi));
  best.distance = std::numeric_limits<double>::infinity();
  for (size_t i = i0; i <= i1; ++i) {
    const Vec2 a = samples_[i].pos, b = samples_[i + 1].pos;
    const Vec2 d = b - a;
    const double l2 = glm::dot(d, d);
    double t = l2 > 0.0 ? std::clamp(glm::dot(p - a, d) / l2, 0.0, 1.0) : 0.0;
    // Keep the answer inside the requested window.
    const double s = std::clamp(samples_[i].s + t * (samples_[i + 1].s - samples_[i].s), s_lo, s_hi);
    if (samples_[i + 1].s > samples_[i].s) t = (s - samples_[i].s) / (samples_[i + 1].s - samples_[i].s);
    const Vec2 q = a + d * std::clamp(t, 0.0, 1.0);
    const double dist = glm::length(p - q);
    if (dist < best.distance) {
      best.distance = dist;
      best.point = q;
      best.s = s;
    }
  }
  return best;
}

double FollowPath::next_cusp_after(double s) const noexcept {
  auto it = std::upper_bound(cusps_.begin(), cusps_.end(), s);
  return it == cusps_.end() ? length() : *it;
}

Status FollowPath::set_goal_heading(std::optional<double> heading) {
  if (heading && !std::isfinite(*heading)) return fail(StatusCode::invalid_argument, "goal heading is not finite");
  goal_heading_ = heading;
  return ok_status();
}

std::vector<Vec2> splice_start(const Grid& grid, Vec2 pos, std::span<const Vec2> waypoints, double radius) {
  std::vector<Vec2> out{pos};
  // How many of the first waypoints may be skipped: a grid plan's first few are near the unit.
  constexpr size_t kLookFirst = 4;
  size_t first = 0;
  bool seen = false;
  for (size_t i = std::min(kLookFirst, waypoints.size()); i-- > 0;) {
    if (segment_clear(grid, pos, waypoints[i], radius)) {
      first = i;
      seen = true;
      break;
    }
  }
  if (!seen) first = 0;
  for (size_t i = first; i < waypoints.size(); ++i) {
    if (waypoints[i] != out.back()) out.push_back(waypoints[i]);
  }
  return out;
}

}  // namespace pathlab
