#include "pathlab/segment_path.hpp"

#include "pathlab/sample_limit.hpp"

#include "curves/cc_clothoid.hpp"
#include "curves/segment_heading.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <string>
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

/// (cos h, sin h) for a heading h, kept for the last heading asked about on this thread: the
/// same bits as dmath::sincos(h). A line is looked at several times in a row (its end when it is
/// appended, its points when it is cut or checked) and the arc after a line starts at the line's
/// heading, each time with a sine and cosine of the same heading; the vehicle smoother builds and
/// cuts thousands of them a query. Compared bit for bit (+0 and -0 have different sines).
dmath::SinCos heading_sincos(double h) {
  thread_local uint64_t last_bits = ~uint64_t{0};  // a NaN no heading has
  thread_local dmath::SinCos last{};
  const uint64_t bits = std::bit_cast<uint64_t>(h);
  if (bits != last_bits) {
    last = dmath::sincos(h);
    last_bits = bits;
  }
  return last;
}

constexpr double kTwoPi = 2.0 * kPi;

double sign_of(double v) { return v < 0.0 ? -1.0 : 1.0; }
double gear_sign(Gear g) { return g == Gear::reverse ? -1.0 : 1.0; }

// Steering of an arc: the heading turns with the angle around the centre when driving
// forward, and the arc is swept the other way round when reversing with the same steering.
double arc_steer(const Segment& seg) { return sign_of(seg.sweep) * gear_sign(seg.gear); }

bool close_positions(Vec2 a, Vec2 b, double extra = 0.0) {
  const double scale = 1.0 + 1e-3 * std::max({std::abs(a.x), std::abs(a.y), std::abs(b.x), std::abs(b.y)});
  return glm::length(a - b) <= kContinuityTolerance * scale + extra;
}

bool close_headings(double a, double b) { return std::abs(wrap_angle(a - b)) <= kContinuityTolerance; }

std::string pose_text(const Pose& p) {
  return "(" + std::to_string(p.pos.x) + ", " + std::to_string(p.pos.y) + ", " + std::to_string(p.heading) + " rad)";
}

Status check_segment(const Segment& seg) {
  // The radius first: a bad radius also makes the derived length bad, and is the real cause.
  if (seg.kind == SegmentKind::arc && (!(seg.radius > 0.0) || !std::isfinite(seg.radius)))
    return fail(StatusCode::invalid_argument, "arc radius must be a positive finite number");
  if (!std::isfinite(seg.length) || seg.length < 0.0)
    return fail(StatusCode::invalid_argument, "segment length must be finite and >= 0");
  if (seg.kind == SegmentKind::clothoid) {
    if (!is_finite(seg.start) || !std::isfinite(seg.heading) || !std::isfinite(seg.curvature) ||
        !std::isfinite(seg.sharpness))
      return fail(StatusCode::invalid_argument, "clothoid start, heading, curvature and sharpness must be finite");
    if (seg.sharpness == 0.0 && seg.curvature == 0.0)
      return fail(StatusCode::invalid_argument, "a clothoid with curvature and sharpness 0 is a line: use make_line");
    // The heading change must stay where clothoid_local() is accurate (and cheap).
    if (std::abs(seg.curvature) * seg.length + std::abs(seg.sharpness) * seg.length * seg.length > kMaxClothoidTurn)
      return fail(StatusCode::invalid_argument, "clothoid turns more than " + std::to_string(kMaxClothoidTurn) +
                                                    " rad: curvature or sharpness too large for its length");
  } else if (seg.kind == SegmentKind::line) {
    if (!is_finite(seg.start) || !std::isfinite(seg.heading))
      return fail(StatusCode::invalid_argument, "line segment start and heading must be finite");
  } else {
    if (!(seg.radius > 0.0) || !std::isfinite(seg.radius))
      return fail(StatusCode::invalid_argument, "arc radius must be a positive finite number");
    if (!is_finite(seg.center) || !std::isfinite(seg.start_angle) || !std::isfinite(seg.sweep))
      return fail(StatusCode::invalid_argument, "arc centre, start angle and sweep must be finite");
  }
  return ok_status();
}

}  // namespace

double wrap_angle(double a) {
  double w = std::remainder(a, kTwoPi);  // exact, in [-pi, pi]
  if (w <= -kPi) w += kTwoPi;
  return w;
}

Segment make_line(Vec2 start, double heading, double length, Gear gear) {
  Segment s;
  s.kind = SegmentKind::line;
  s.gear = gear;
  s.start = start;
  s.heading = heading;
  s.length = length;
  return s;
}

Segment make_arc(Vec2 center, double radius, double start_angle, double sweep, Gear gear) {
  Segment s;
  s.kind = SegmentKind::arc;
  s.gear = gear;
  s.center = center;
  s.radius = radius;
  s.start_angle = start_angle;
  s.sweep = sweep;
  s.length = radius * std::abs(sweep);
  s.start = center + radius * angle_dir(start_angle);
  s.heading = start_angle + arc_steer(s) * (kPi / 2);
  return s;
}

Segment arc_from_pose(const Pose& from, double radius, int steer, double length, Gear gear) {
  const double st = steer < 0 ? -1.0 : 1.0;
  const auto [sn, c] = heading_sincos(from.heading);
  Segment s;
  s.kind = SegmentKind::arc;
  s.gear = gear;
  // The centre lies on the side the unit steers to, one radius away.
  s.center = from.pos + radius * st * Vec2(-sn, c);
  s.radius = radius;
  s.start_angle = from.heading - st * (kPi / 2);
  s.sweep = st * gear_sign(gear) * length / radius;
  s.length = length;
  s.start = from.pos;
  s.heading = from.heading;
  return s;
}

Segment line_from_pose(const Pose& from, double length, Gear gear) { return make_line(from.pos, from.heading, length, gear); }

Segment make_clothoid(const Pose& from, double curvature, double sharpness, double length, Gear gear) {
  Segment s;
  s.kind = SegmentKind::clothoid;
  s.gear = gear;
  s.start = from.pos;
  s.heading = from.heading;
  s.length = length;
  s.curvature = curvature;
  s.sharpness = sharpness;
  // The arc-like bounds (see Segment): the tightest radius and twice the length in radii.
  const double k1 = curvature + sharpness * length;
  const double kmax = std::max(std::abs(curvature), std::abs(k1));
  s.radius = 1.0 / kmax;
  const double side = std::abs(k1) >= std::abs(curvature) ? k1 : curvature;
  s.sweep = sign_of(side) * 2.0 * length * kmax;
  s.center = from.pos;
  return s;
}

PathState segment_state(const Segment& seg, double s) {
  s = std::clamp(s, 0.0, seg.length);
  PathState st;
  st.gear = seg.gear;
  if (seg.kind == SegmentKind::line) {
    const double d = gear_sign(seg.gear) * s;
    const auto [sn, c] = heading_sincos(seg.heading);
    st.pos = seg.start + d * Vec2(c, sn);
    st.heading = detail::segment_heading_at(seg, s);
    st.curvature = 0.0;
    return st;
  }
  if (seg.kind == SegmentKind::clothoid) {
    const double g = gear_sign(seg.gear);
    const Vec2 local = detail::clothoid_local(seg.curvature, seg.sharpness, s);
    const auto [sn, c] = dmath::sincos(seg.heading);
    // In reverse the heading turns the other way: the local path is mirrored (y -> -y) and
    // then driven backwards (-> -x, -y): (lx, ly) becomes (-lx, ly).
    const Vec2 d(g * local.x, local.y);
    st.pos = seg.start + Vec2(c * d.x - sn * d.y, sn * d.x + c * d.y);
    st.heading = detail::segment_heading_at(seg, s);
    st.curvature = seg.curvature + seg.sharpness * s;
    return st;
  }
  const double steer = arc_steer(seg);
  const double turned = sign_of(seg.sweep) * s / seg.radius;
  const double angle = seg.start_angle + turned;
  st.pos = seg.center + seg.radius * angle_dir(angle);
  st.heading = detail::segment_heading_at(seg, s);  // seg.heading + turned
  st.curvature = steer / seg.radius;
  return st;
}

Pose segment_start(const Segment& seg) { return Pose{seg.start, seg.heading}; }

Pose segment_end(const Segment& seg) {
  const PathState st = segment_state(seg, seg.length);
  return Pose{st.pos, st.heading};
}

SegmentPath::SegmentPath(const Pose& start) : start_(start), end_(start) {}

Status SegmentPath::append(const Segment& seg) {
  if (auto ok = check_segment(seg); !ok) return ok;
  const Pose from = segment_start(seg);
  // A segment built from end() (path_from_moves() builds every one so, the vehicle smoother
  // thousands of words a query) starts there bit for bit: for finite poses the tolerance test
  // below passes then, and its square root and remainder were a third of this call.
  const bool joined = from.pos.x == end_.pos.x && from.pos.y == end_.pos.y && from.heading == end_.heading &&
                      is_finite(end_.pos) && std::isfinite(end_.heading);
  if (!joined && (!close_positions(from.pos, end_.pos) || !close_headings(from.heading, end_.heading))) {
    return fail(StatusCode::invalid_argument, "segment starts at " + pose_text(from) + " but the path ends at " +
                                                  pose_text(end_) + ": the path would not be continuous");
  }
  if (seg.length == 0.0) return ok_status();
  offsets_.push_back(length_);
  segments_.push_back(seg);
  length_ += seg.length;
  end_ = segment_end(seg);
  return ok_status();
}

Status SegmentPath::append(const SegmentPath& other) {
  if (!close_positions(other.start_.pos, end_.pos) || !close_headings(other.start_.heading, end_.heading)) {
    return fail(StatusCode::invalid_argument, "the second path starts at " + pose_text(other.start_) +
                                                  " but the first ends at " + pose_text(end_));
  }
  for (const Segment& s : other.segments_)
    if (auto ok = append(s); !ok) return ok;
  end_ = other.end_;
  return ok_status();
}

Status SegmentPath::append_run(const SegmentPath& other, size_t first, size_t count) {
  if (count == 0) return ok_status();
  if (first > other.segments_.size() || count > other.segments_.size() - first)
    return fail(StatusCode::invalid_argument, "append_run: segments out of range");
  const Segment& head = other.segments_[first];
  const Pose from = segment_start(head);
  if (!close_positions(from.pos, end_.pos) || !close_headings(from.heading, end_.heading)) {
    return fail(StatusCode::invalid_argument, "segment starts at " + pose_text(from) + " but the path ends at " +
                                                  pose_text(end_) + ": the path would not be continuous");
  }
  // Each later segment starts where the one before it ends: append() checked that in `other`,
  // against the same end, and refused no segment of it (none has length 0).
  for (size_t k = first; k < first + count; ++k) {
    offsets_.push_back(length_);
    segments_.push_back(other.segments_[k]);
    length_ += other.segments_[k].length;
  }
  end_ = segment_end(segments_.back());
  return ok_status();
}

Status SegmentPath::snap_end(const Pose& exact, double extra_tolerance) {
  if (!is_finite(exact.pos) || !std::isfinite(exact.heading))
    return fail(StatusCode::invalid_argument, "end pose must be finite");
  if (!(extra_tolerance >= 0.0) || !std::isfinite(extra_tolerance))
    return fail(StatusCode::invalid_argument, "extra_tolerance must be finite and >= 0");
  if (!close_positions(exact.pos, end_.pos, extra_tolerance) || !close_headings(exact.heading, end_.heading)) {
    return fail(StatusCode::invalid_argument,
                "path ends at " + pose_text(end_) + ", not within tolerance of " + pose_text(exact));
  }
  end_ = exact;
  return ok_status();
}

size_t SegmentPath::segment_index_at(double s) const {
  if (segments_.empty()) return 0;
  const auto it = std::upper_bound(offsets_.begin(), offsets_.end(), s);
  const size_t i = it == offsets_.begin() ? 0 : static_cast<size_t>(it - offsets_.begin()) - 1;
  return std::min(i, segments_.size() - 1);
}

Result<PathState> SegmentPath::at_distance(double s) const {
  if (std::isnan(s)) return fail(StatusCode::invalid_argument, "distance along the path is NaN");
  PathState st;
  if (segments_.empty() || s <= 0.0) {
    st.pos = start_.pos;
    st.heading = start_.heading;
    if (!segments_.empty()) {
      const PathState first = segment_state(segments_.front(), 0.0);
      st.curvature = first.curvature;
      st.gear = first.gear;
    }
    return st;
  }
  if (s >= length_) {
    const PathState last = segment_state(segments_.back(), segments_.back().length);
    st = last;
    st.pos = end_.pos;
    st.heading = end_.heading;
    return st;
  }
  const size_t i = segment_index_at(s);
  return segment_state(segments_[i], s - offsets_[i]);
}

Result<PathState> SegmentPath::at_time(double t, double speed) const {
  if (!(speed > 0.0) || !std::isfinite(speed))
    return fail(StatusCode::invalid_argument, "speed must be a positive finite number, got " + std::to_string(speed));
  if (!std::isfinite(t)) return fail(StatusCode::invalid_argument, "time must be finite");
  return at_distance(speed * t);
}

Result<std::vector<PathSample>> SegmentPath::sample(double step) const {
  if (!(step > 0.0) || !std::isfinite(step))
    return fail(StatusCode::invalid_argument, "sample step must be a positive finite number, got " + std::to_string(step));
  double count = 1.0;
  for (const Segment& seg : segments_) count += std::ceil(seg.length / step);
  if (Status st = check_sample_count(count, step); !st) return st.error();
  std::vector<PathSample> out;
  out.reserve(static_cast<size_t>(count));
  PathSample first;
  first.state = at_distance(0.0).value();
  out.push_back(first);
  for (size_t i = 0; i < segments_.size(); ++i) {
    const Segment& seg = segments_[i];
    // Evenly spaced inside the segment so that both its ends are samples.
    const int n = std::max(1, static_cast<int>(std::ceil(seg.length / step)));
    for (int k = 1; k <= n; ++k) {
      PathSample ps;
      if (k == n) {
        ps.s = offsets_[i] + seg.length;
        if (i + 1 < segments_.size()) {
          ps.state = segment_state(segments_[i + 1], 0.0);
          ps.state.pos = segment_end(seg).pos;  // the exact junction as this segment computes it
        } else {
          ps.state = segment_state(seg, seg.length);
          ps.state.pos = end_.pos;
          ps.state.heading = end_.heading;
          ps.s = length_;
        }
      } else {
        const double d = seg.length * (static_cast<double>(k) / n);
        ps.s = offsets_[i] + d;
        ps.state = segment_state(seg, d);
      }
      out.push_back(ps);
    }
  }
  return out;
}

Result<SegmentPath> concatenate(const SegmentPath& a, const SegmentPath& b) {
  SegmentPath out = a;
  if (auto ok = out.append(b); !ok) return ok.error();
  return out;
}

Result<SegmentPath> path_from_moves(const Pose& start, double radius, std::span<const Move> moves, const Pose* goal) {
  if (!(radius > 0.0) || !std::isfinite(radius))
    return fail(StatusCode::invalid_argument, "turning radius must be a positive finite number");
  if (!is_finite(start.pos) || !std::isfinite(start.heading))
    return fail(StatusCode::invalid_argument, "start pose must be finite");
  SegmentPath path(start);
  path.reserve(moves.size());
  Pose at = start;
  for (const Move& m : moves) {
    if (!std::isfinite(m.distance)) return fail(StatusCode::invalid_argument, "move distance must be finite");
    if (m.distance == 0.0) continue;
    const Gear gear = m.distance < 0.0 ? Gear::reverse : Gear::forward;
    const double len = std::abs(m.distance) * radius;
    const Segment seg = m.steer == 0 ? line_from_pose(at, len, gear) : arc_from_pose(at, radius, m.steer, len, gear);
    if (auto ok = path.append(seg); !ok) return ok.error();
    at = path.end();
  }
  if (goal) {
    // Rounding grows with the coordinates and the length: a path from x = 1e9 back to 0 ends
    // about 1e-7 off however small the radius.
    const double scale = std::max({std::abs(start.pos.x), std::abs(start.pos.y), path.length()});
    if (auto ok = path.snap_end(*goal, 1e-7 * radius + 1e-12 * scale); !ok) return ok.error();
  }
  return path;
}

double polyline_length(std::span<const PathSample> samples) {
  double total = 0.0;
  for (size_t i = 1; i < samples.size(); ++i) total += glm::length(samples[i].state.pos - samples[i - 1].state.pos);
  return total;
}

}  // namespace pathlab
