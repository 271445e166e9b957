#pragma once
/// @file follow_path.hpp
/// The "path to follow" every follower consumes, whoever produced it: a polyline (grid
/// planners, los, navmesh funnels, a spline already sampled into points), a curve measured
/// by arc length (Catmull-Rom and Hermite splines), or a segment path of lines and arcs
/// (Dubins, Reeds-Shepp, turn-to-point).
///
/// It keeps the exact source, so state_at(s) is exact at any distance s (a track follower
/// moves by arc length, the Hermite post's fix), and a dense list of samples with distance,
/// heading, curvature, corner angle and gear, which the steering followers scan to slow
/// down before bends and to find where the unit is along the path.

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "pathlab/arc_length.hpp"
#include "pathlab/geometry.hpp"
#include "pathlab/hermite.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

class Grid;

/// Most samples a FollowPath may hold (checked before allocating).
inline constexpr long long kMaxFollowSamples = 1LL << 22;

/// One sample along a path.
struct FollowSample {
  Vec2 pos{0.0, 0.0};     ///< [Units: cells]
  double s = 0.0;         ///< Distance from the start. [Units: cells]
  double heading = 0.0;   ///< Where the unit's nose points (travel is heading + pi in reverse). [Units: radians]
  /// Steering curvature d(heading)/ds, + left (heading increasing) / - right. On a polyline,
  /// the corner angle spread over the neighbouring half-edges. [Units: 1/cells]
  double curvature = 0.0;
  /// Polyline corners only: signed heading change at this vertex, else 0. [Units: radians]
  double corner = 0.0;
  Gear gear = Gear::forward;
};

/// Where a point projects onto the path.
struct PathProjection {
  double s = 0.0;         ///< Distance along the path of the closest point. [Units: cells]
  Vec2 point{0.0, 0.0};   ///< The closest point. [Units: cells]
  double distance = 0.0;  ///< From the query point to it. [Units: cells]
};

class FollowPath {
 public:
  enum class Source : uint8_t { polyline, curve, segments };

  FollowPath() = default;

  /// A polyline; consecutive repeated points are dropped. Error on no point or a
  /// non-finite one. One point gives a path of length 0 (the unit is already there).
  static Result<FollowPath> from_polyline(std::span<const Vec2> points);
  /// A curve measured by arc length, sampled every `spacing` [cells] [Limit: > 0, finite].
  static Result<FollowPath> from_curve(const ArcLengthTable& table, double spacing = 0.1);
  /// A Hermite / Catmull-Rom curve (builds its arc-length table).
  static Result<FollowPath> from_curve(const HermiteCurve& curve, double spacing = 0.1);
  /// A segment path (may contain reverse segments and cusps), sampled every `spacing` [cells].
  static Result<FollowPath> from_segment_path(const SegmentPath& path, double spacing = 0.1);

  Source source() const noexcept { return source_; }
  double length() const noexcept { return samples_.empty() ? 0.0 : samples_.back().s; }  ///< [Units: cells]
  std::span<const FollowSample> samples() const noexcept { return samples_; }
  bool has_reverse() const noexcept { return has_reverse_; }
  /// The exact segment path, when the path came from one.
  const SegmentPath* segment_path() const noexcept { return segments_.get(); }
  /// The exact curve, when the path came from one.
  const ArcLengthTable* curve() const noexcept { return curve_.get(); }

  /// Exact state at distance s [cells], clamped to [0, length]. Polylines: the heading of
  /// the edge that covers s (the later edge at a vertex) and curvature 0.
  PathState state_at(double s) const;
  Pose start_pose() const;
  Pose end_pose() const;
  Vec2 end_point() const { return samples_.empty() ? Vec2(0.0) : samples_.back().pos; }

  /// Index i of the sample chord [i, i+1] that covers s (the last chord at the end).
  size_t index_at(double s) const noexcept;
  /// Closest point of the sampled polyline to `p`, among distances [s_lo, s_hi] along the path.
  /// Ties go to the smaller s.
  PathProjection project(Vec2 p, double s_lo, double s_hi) const;
  /// Distance of the first gear change strictly after s, or length() when there is none.
  double next_cusp_after(double s) const noexcept;

  /// Heading the unit should face once it has arrived (steer/damped units that can pivot turn
  /// to it on the spot; track units end with the path's own heading). Error when not finite.
  Status set_goal_heading(std::optional<double> heading);
  std::optional<double> goal_heading() const noexcept { return goal_heading_; }

 private:
  Source source_ = Source::polyline;
  std::vector<FollowSample> samples_;
  std::shared_ptr<const ArcLengthTable> curve_;
  std::shared_ptr<const SegmentPath> segments_;
  std::vector<double> cusps_;  // s of each gear change, increasing
  bool has_reverse_ = false;
  std::optional<double> goal_heading_;
};

/// The waypoints of a new plan, made to start at the unit's current position `pos` instead
/// of the centre of its cell (grid planners start there), so that re-planning never makes
/// the unit jump: `pos` followed by the waypoints from the farthest of the first few that
/// `pos` sees for `radius` [cells]. If it sees none, `pos` then every waypoint.
std::vector<Vec2> splice_start(const Grid& grid, Vec2 pos, std::span<const Vec2> waypoints, double radius);

}  // namespace pathlab
