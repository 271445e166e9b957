#pragma once
/// @file hermite.hpp
/// Cubic Hermite curves: one segment from a start point, an end point and the two tangents
/// there (as in "In love with splines", World::Create() blog), and chains of segments through a
/// path that share their tangent at every joint (C1). Every spline of the library (Catmull-Rom
/// of any alpha, Hermite chains) is stored as a HermiteCurve, so arc length, curvature and
/// sampling are written once.
///
/// A segment's parameter t runs over [0, 1]; it is NOT distance (that post admits this), so
/// a unit that must move at a steady speed should go through ArcLengthTable (arc_length.hpp).
/// A curve of n segments is parameterised by u in [0, n]: segment i covers [i, i + 1].

#include <optional>
#include <span>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// One cubic Hermite segment. Tangents are derivatives with respect to t, so their length
/// is in cells per unit of t: a tangent equal to `end - start` at both ends gives the straight
/// line at constant speed. [Units: cells]
struct HermiteSegment {
  Vec2 start{0.0, 0.0};
  Vec2 end{0.0, 0.0};
  Vec2 start_tangent{0.0, 0.0};  ///< dP/dt at t = 0. [Units: cells per unit t]
  Vec2 end_tangent{0.0, 0.0};    ///< dP/dt at t = 1. [Units: cells per unit t]

  /// Position at t. [Limit: t is clamped to 0..1; NaN counts as 0]
  Vec2 point_at(double t) const noexcept;
  /// First derivative dP/dt at t (direction of travel, speed in cells per unit t).
  Vec2 tangent_at(double t) const noexcept;
  /// Second derivative d2P/dt2 at t; linear in t since the segment is cubic.
  Vec2 second_derivative_at(double t) const noexcept;
  /// Arc length of the whole segment by adaptive Gauss-Legendre quadrature, accurate to
  /// about 1e-12 relative (the post's sum of 10 chords underestimates it). [Units: cells]
  double length() const noexcept;
  /// Arc length from t to the end (towards `end`). [Units: cells]
  double distance_forwards(double t) const noexcept;
  /// Arc length from t back to the start (towards `start`). [Units: cells]
  double distance_backwards(double t) const noexcept;
};

/// Builds a segment after checking every input is finite; errors name the argument.
Result<HermiteSegment> make_hermite(Vec2 start, Vec2 end, Vec2 start_tangent, Vec2 end_tangent);

/// A chain of Hermite segments, parameter u in [0, segments.size()]. Consecutive segments
/// meet (segment i's end is segment i+1's start); whether the tangents match depends on who
/// built it (hermite_chain: exactly; non-uniform Catmull-Rom: in direction only).
struct HermiteCurve {
  std::vector<HermiteSegment> segments;

  bool empty() const noexcept { return segments.empty(); }
  /// Parameter range end: the number of segments.
  double parameter_end() const noexcept { return static_cast<double>(segments.size()); }
  /// Segment index and local t of a curve parameter u (clamped to the range; NaN counts as 0).
  int locate(double u, double& t) const noexcept;
  /// Position at u. An empty curve returns (0, 0).
  Vec2 point_at(double u) const noexcept;
  /// dP/du at u; at a joint the segment that starts there is used.
  Vec2 tangent_at(double u) const noexcept;
  Vec2 second_derivative_at(double u) const noexcept;
  /// Total arc length. [Units: cells]
  double length() const noexcept;
};

/// Largest subdivision count per segment accepted anywhere in the spline code.
inline constexpr int kMaxSubdivisions = 4096;
/// Largest number of points a spline sampling may produce (checked before allocating).
inline constexpr long long kMaxSplineSamples = 1LL << 24;

/// Points of a curve at `subdivisions` equal parameter steps per segment: segments * N + 1
/// points, the joints included exactly. [Limit: subdivisions 1..kMaxSubdivisions]
Result<std::vector<Vec2>> sample_per_segment(const HermiteCurve& curve, int subdivisions);

/// Chains Hermite segments through `points` with the given tangent at each point (C1: the
/// two segments meeting at a point use the same tangent). Sizes must match; at least 1 point.
Result<HermiteCurve> hermite_chain(std::span<const Vec2> points, std::span<const Vec2> tangents);

/// How hermite_chain picks tangents when none are given.
struct HermiteChainDef {
  /// Multiplies every automatic tangent. 1 keeps a straight run at constant speed; smaller
  /// values hug the polyline more tightly. [Limit: 0..2]
  double tangent_scale = 1.0;
  /// Direction of travel at the first / last point, radians (atan2 convention). When absent
  /// the tangent follows the first / last chord.
  std::optional<double> start_heading;
  std::optional<double> end_heading;
};

inline HermiteChainDef default_hermite_chain_def() { return HermiteChainDef{}; }

/// Chains Hermite segments through `points` with automatic tangents: at an inner point the
/// tangent bisects the incoming and outgoing directions and its length is the shorter of the
/// two chords, so a short chord next to a long one cannot make the curve overshoot; a
/// reversal (the path doubles back) gets a zero tangent. End tangents follow the end chords
/// (or the headings). Consecutive repeated points are allowed and give a segment that stays
/// put. At least 1 point.
Result<HermiteCurve> hermite_chain(std::span<const Vec2> points,
                                   const HermiteChainDef& def = default_hermite_chain_def());

/// The automatic tangents hermite_chain(points, def) would use, one per point.
/// Precondition: points are finite (hermite_chain checks).
std::vector<Vec2> hermite_auto_tangents(std::span<const Vec2> points, const HermiteChainDef& def);

/// Hermite basis at t, the Hermite post's h1..h4: P(t) = h[0] start + h[1] end + h[2] t0 + h[3] t1.
inline void hermite_basis(double t, double h[4]) noexcept {
  const double t2 = t * t, t3 = t2 * t;
  h[0] = 2.0 * t3 - 3.0 * t2 + 1.0;
  h[1] = -2.0 * t3 + 3.0 * t2;
  h[2] = t3 - 2.0 * t2 + t;
  h[3] = t3 - t2;
}

}  // namespace pathlab
