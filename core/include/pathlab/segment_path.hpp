#pragma once
/// @file segment_path.hpp
/// Motion geometry: a path made of straight lines, circular arcs and clothoids (curvature
/// changing linearly with distance) that a unit with a turning radius can follow, possibly
/// changing gear (forward / reverse) at cusps.
///
/// Conventions. Headings are radians measured like atan2(dy, dx) in world coordinates
/// (see geometry.hpp). A unit's *heading* is where its nose points; in reverse it travels
/// towards heading + pi. *Steering* is a car's steering wheel: "left" (L, steer +1) puts the
/// centre of the turn on the unit's left (at heading + pi/2), so the heading increases when
/// driving forward and decreases when reversing; "right" (R, steer -1) the opposite. With the
/// y axis pointing down the map a forward left turn shows on screen as a clockwise turn;
/// L and R are named in the mathematical frame, like OMPL and Reeds & Shepp.
///
/// Distance along a path, `s`, is the distance travelled (it always grows, also in
/// reverse). Curvature is the steering curvature d(heading)/d(signed distance), signed
/// distance decreasing in reverse: +1/r for a left arc of radius r, -1/r for a right one,
/// 0 on a line, in either gear.

#include <cstdint>
#include <span>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Direction of travel along a segment.
enum class Gear : int8_t { reverse = -1, forward = 1 };

enum class SegmentKind : uint8_t { line, arc, clothoid };

/// One piece of a path: a straight line, a circular arc or a clothoid, driven in one gear.
/// Build them with make_line(), make_arc(), make_clothoid() or the *_from_pose() helpers,
/// which fill the derived fields consistently.
///
/// A clothoid's steering curvature is `curvature + sharpness * s` at distance s into it. It
/// also fills `radius` (the smallest radius of curvature on it, r = 1 / max |curvature|) and
/// `sweep` (+-2 length / r, the sign of its larger end curvature), so code written for arcs
/// that cuts |sweep| into n chord angles and bounds their sagitta by r (1 - cos(|sweep| / 2n))
/// stays safe on a clothoid: a piece of length h turns at most x = h / r, its chord direction
/// lies within the headings it covers, so no point is farther than (h / 2) sin x from the
/// chord, and (h / 2) sin x <= r (1 - cos x), which is what the doubled sweep gives.
struct Segment {
  SegmentKind kind = SegmentKind::line;
  Gear gear = Gear::forward;
  double length = 0.0;   ///< Distance travelled. [Units: cells] [Limit: >= 0, finite]
  // Line: where it starts and the unit's heading on it (constant).
  Vec2 start{0.0, 0.0};  ///< [Units: cells]
  double heading = 0.0;  ///< Line: the unit's heading (travel is heading + pi in reverse). [Units: radians]
  // Arc: the circle and the part of it covered.
  Vec2 center{0.0, 0.0};     ///< [Units: cells]
  double radius = 0.0;       ///< [Units: cells] [Limit: > 0, finite]
  double start_angle = 0.0;  ///< Angle of the start point seen from the centre. [Units: radians]
  double sweep = 0.0;        ///< Signed angle covered, positive counter-clockwise in math axes. [Units: radians]
  // Clothoid (also uses start and heading, like a line).
  double curvature = 0.0;  ///< Clothoid: steering curvature at its start. [Units: 1/cells]
  double sharpness = 0.0;  ///< Clothoid: d(curvature)/ds along the distance travelled. [Units: 1/cells^2]
};

/// The state of a unit at one place on a path.
struct PathState {
  Vec2 pos{0.0, 0.0};       ///< [Units: cells]
  double heading = 0.0;     ///< [Units: radians]
  double curvature = 0.0;   ///< Steering curvature, + left / - right. [Units: 1/cells]
  Gear gear = Gear::forward;
};

/// A sample of a path: its state and where along the path it lies.
struct PathSample {
  PathState state;
  double s = 0.0;  ///< Distance travelled from the start. [Units: cells]
};

/// A straight segment from `start`, the unit heading `heading` [radians], `length` [cells] long.
Segment make_line(Vec2 start, double heading, double length, Gear gear = Gear::forward);
/// An arc of the circle (`center`, `radius`) from angle `start_angle` over the signed `sweep` [radians].
Segment make_arc(Vec2 center, double radius, double start_angle, double sweep, Gear gear = Gear::forward);
/// The arc a unit at `from` drives with steering `steer` (+1 left, -1 right) on a circle of
/// `radius` [cells] for `length` [cells] in `gear`.
Segment arc_from_pose(const Pose& from, double radius, int steer, double length, Gear gear = Gear::forward);
/// The line a unit at `from` drives for `length` [cells] in `gear`.
Segment line_from_pose(const Pose& from, double length, Gear gear = Gear::forward);
/// The clothoid a unit at `from` drives for `length` [cells] in `gear`, its steering curvature
/// going from `curvature` [1/cells] linearly at `sharpness` [1/cells^2] per cell travelled.
/// Either must be non-zero (else it is a line: append() refuses it).
Segment make_clothoid(const Pose& from, double curvature, double sharpness, double length, Gear gear = Gear::forward);

/// State at distance `s` into one segment (clamped to [0, length]).
PathState segment_state(const Segment& seg, double s);
/// Pose at the start / end of one segment.
Pose segment_start(const Segment& seg);
Pose segment_end(const Segment& seg);

/// Largest gap allowed between consecutive segments: positions within
/// kContinuityTolerance * (1 + |coordinates| * 1e-3) [cells], headings within kContinuityTolerance [radians].
inline constexpr double kContinuityTolerance = 1e-7;

/// Tolerances shared by the curve builders (dubins.hpp, reeds_shepp.hpp, turn_to_point.hpp):
/// angles this close to 2 pi (or to 0 from below) are taken as 0. [Units: radians]
inline constexpr double kCurveAngleSnap = 1e-10;
/// Vectors shorter than this are taken as zero. [Units: turning radii]
inline constexpr double kCurveDegenerate = 1e-10;

/// Largest heading change a clothoid segment may make (|curvature| length + |sharpness|
/// length^2, an upper bound of it): append() refuses more. [Units: radians]
inline constexpr double kMaxClothoidTurn = 1e4;

/// A connected chain of segments with a start and an end pose.
///
/// The start and end poses are kept as given by the builder (Dubins, Reeds-Shepp, ...),
/// so queries at s = 0 and s = length() return them exactly, not as recomputed from
/// the arcs (which differ by rounding).
class SegmentPath {
 public:
  SegmentPath() = default;
  /// An empty path that starts (and ends) at `start`.
  explicit SegmentPath(const Pose& start);

  /// Appends a segment that starts where the path ends (see kContinuityTolerance).
  /// Segments of length 0 are accepted and dropped.
  Status append(const Segment& seg);
  /// Appends every segment of `other`, which must start where this path ends.
  Status append(const SegmentPath& other);
  /// Appends `other`'s segments first .. first + count - 1 (in range), the first of which must
  /// start where this path ends: the same path as appending them one by one, but their checks
  /// and their ends (a sine and a cosine each) are not worked out again, as `other` already
  /// holds them joined (the vehicle smoother copies most of a path this way in each round).
  Status append_run(const SegmentPath& other, size_t first, size_t count);
  /// Room for `count` segments, so that appending them does not reallocate.
  void reserve(size_t count) {
    segments_.reserve(count);
    offsets_.reserve(count);
  }
  /// Replaces the end pose by `exact` after checking it lies within the continuity
  /// tolerance, plus `extra_tolerance` [cells] [Limit: >= 0], of the computed end: builders
  /// use it to end exactly at a goal.
  Status snap_end(const Pose& exact, double extra_tolerance = 0.0);

  std::span<const Segment> segments() const { return segments_; }
  bool empty() const { return segments_.empty(); }
  double length() const { return length_; }  ///< [Units: cells]
  const Pose& start() const { return start_; }
  const Pose& end() const { return end_; }

  /// State at distance `s` [cells]; s outside [0, length] is clamped. Error when s is NaN.
  Result<PathState> at_distance(double s) const;
  /// Same as at_distance() (the name the planners use for "the state s cells in").
  Result<PathState> sample_at(double s) const { return at_distance(s); }
  /// State at time `t` [s] for a unit moving at `speed` [cells/s] [Limit: > 0, finite]
  /// (Pinter's 2001 Listing 2); t is clamped like s. Error when t is not finite.
  Result<PathState> at_time(double t, double speed) const;
  /// Index of the segment that covers distance `s` (the later one at a boundary).
  size_t segment_index_at(double s) const;

  /// Samples the path every `step` [cells] [Limit: > 0, finite, at most 1e7 samples] along
  /// each segment, plus every segment end (so cusps are kept) and the exact start and end.
  /// A point where two segments meet appears once, with the state of the segment leaving it.
  Result<std::vector<PathSample>> sample(double step) const;

 private:
  Pose start_;
  Pose end_;
  std::vector<Segment> segments_;
  std::vector<double> offsets_;  // distance at the start of each segment
  double length_ = 0.0;
};

/// Concatenates two paths (`b` must start where `a` ends).
Result<SegmentPath> concatenate(const SegmentPath& a, const SegmentPath& b);

/// One elementary move in units of a turning radius: steer +1 / 0 / -1 (left, straight,
/// right) for a signed distance (negative = reverse). Dubins, Reeds-Shepp and
/// turn-to-point describe their paths this way before turning them into segments.
struct Move {
  int steer = 0;
  double distance = 0.0;  ///< [Units: turning radii]
};

/// Drives `moves` from `start` with turning radius `radius` [cells] and returns the path.
/// The path ends at `goal` exactly when given; the computed end must be within the
/// continuity tolerance plus 1e-7 radius of it (closed-form curves near a degenerate case,
/// a goal on a turning circle, are accurate to about sqrt(machine epsilon) radii).
Result<SegmentPath> path_from_moves(const Pose& start, double radius, std::span<const Move> moves,
                                    const Pose* goal = nullptr);

/// Wraps an angle into (-pi, pi]. [Units: radians]
double wrap_angle(double a);

/// The length of the polyline through the sampled positions. [Units: cells]
double polyline_length(std::span<const PathSample> samples);

}  // namespace pathlab
