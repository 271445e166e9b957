#pragma once
/// @file arc_length.hpp
/// Distance along a curve. A spline's parameter is not distance: a unit that adds speed * dt to
/// t speeds up on straight stretches and crawls through bends (as "In love with splines"
/// admits). This file measures arc length by Gauss-Legendre quadrature, keeps a table from
/// parameter to distance, and inverts it so a unit can ask "where am I after s cells?". It also
/// gives curvature, for plots and turning-radius checks.
///
/// Works for any parametric curve (ParametricCurve) and directly for HermiteCurve.

#include <functional>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/hermite.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Any smooth-by-pieces curve c(u) for u in [knots.front(), knots.back()].
/// Between consecutive knots the curve must be smooth; at knots it may have a kink, so
/// quadrature never straddles one.
struct ParametricCurve {
  std::function<Vec2(double)> point;       ///< c(u). [Units: cells]
  std::function<Vec2(double)> derivative;  ///< c'(u). [Units: cells per unit u]
  /// c''(u); may be left empty, then curvature uses a central difference of c'.
  std::function<Vec2(double)> second_derivative;
  std::vector<double> knots;  ///< Strictly increasing, at least 2 values, all finite.
};

/// Views a HermiteCurve as a ParametricCurve (knots at 0, 1, ..., n). The curve is copied.
ParametricCurve parametric(const HermiteCurve& curve);

/// Where a unit following a curve stands after travelling a distance: what constant-speed
/// following needs, from one inversion. Field names match PathState (segment_path.hpp).
struct CurveState {
  Vec2 pos{0.0, 0.0};        ///< [Units: cells]
  Vec2 direction{0.0, 0.0};  ///< Unit tangent (direction of travel); (0, 0) if the curve never moves.
  double heading = 0.0;      ///< atan2(direction.y, direction.x); 0 without a direction. [Units: radians]
  double curvature = 0.0;    ///< Signed, as curvature_at. [Units: 1/cells]
  double distance = 0.0;     ///< The distance asked for, clamped to 0..length(). [Units: cells]
  double parameter = 0.0;    ///< Curve parameter u there.
};

/// Options of ArcLengthTable::build.
struct ArcLengthDef {
  /// Table entries per knot interval; the inversion solves inside one entry, so more
  /// entries only speed up point_at_distance. [Limit: 1..1024]
  int entries_per_span = 8;
};

inline ArcLengthDef default_arc_length_def() { return ArcLengthDef{}; }

/// Parameter-to-distance table of a curve, with inversion by safeguarded Newton steps.
/// Distances are accurate to about 1e-12 relative. A copyable value.
class ArcLengthTable {
 public:
  /// Fails (naming the argument) on missing functions, fewer than 2 knots, non-increasing or
  /// non-finite knots, a bad def, or a curve whose length is not finite.
  static Result<ArcLengthTable> build(ParametricCurve curve, const ArcLengthDef& def = default_arc_length_def());
  /// Same for a HermiteCurve (an empty curve is an error: nothing to measure).
  static Result<ArcLengthTable> build(const HermiteCurve& curve, const ArcLengthDef& def = default_arc_length_def());

  /// Total length. [Units: cells]
  double length() const noexcept { return s_.empty() ? 0.0 : s_.back(); }
  double parameter_begin() const noexcept { return u_.empty() ? 0.0 : u_.front(); }
  double parameter_end() const noexcept { return u_.empty() ? 0.0 : u_.back(); }

  /// Distance from the start to parameter u. [Limit: u clamped to the range; NaN counts as the start]
  double distance_at(double u) const;
  /// Parameter at distance s from the start. [Units: cells] [Limit: s clamped to 0..length(); NaN counts as 0]
  /// Where the curve stands still (zero speed) any parameter of the stop may be returned.
  double parameter_at(double s) const;
  /// Position at distance s. [Limit: as parameter_at]
  Vec2 point_at_distance(double s) const;
  /// Unit direction of travel at distance s; (0, 0) where the curve has no direction.
  Vec2 direction_at_distance(double s) const;
  /// Signed curvature at distance s (see curvature_at). [Units: 1/cells]
  double curvature_at_distance(double s) const;
  /// Position, unit tangent, heading and curvature at distance s, solving for the parameter
  /// once (cheaper than the three calls above). For constant speed v, ask for s = v * time.
  /// [Units: cells] [Limit: s clamped to 0..length(); NaN counts as 0]
  CurveState at_distance(double s) const;

  const ParametricCurve& curve() const noexcept { return curve_; }

 private:
  /// Unit tangent at parameter u, looking just beside u where the curve stops.
  Vec2 direction_at_parameter(double u) const;

  ParametricCurve curve_;
  std::vector<double> u_;  // table parameters, increasing
  std::vector<double> s_;  // distance at each u_
};

/// Signed curvature of a curve at u: cross(c', c'') / |c'|^3, positive when the curve turns
/// from +x towards +y (clockwise on screen, since y grows downwards). Its inverse is the
/// turning radius. Where the speed |c'| vanishes, the value is taken just beside u (inside
/// the same piece); on a curve that does not move at all it is 0. Never NaN for finite u.
/// [Units: 1/cells]
double curvature_at(const ParametricCurve& curve, double u);

/// Points every `spacing` cells along the curve, from the start, with the end point always
/// last (so the final step may be shorter). A zero-length curve gives its one point.
/// [Units: cells] [Limit: spacing > 0, finite; at most kMaxSplineSamples points]
Result<std::vector<Vec2>> sample_by_spacing(const ArcLengthTable& table, double spacing);

/// `count` points at equal distances, both ends included. [Limit: count 2..kMaxSplineSamples]
Result<std::vector<Vec2>> sample_evenly(const ArcLengthTable& table, long long count);

/// One curvature sample: where (distance and parameter) and how much.
struct CurvatureSample {
  double distance = 0.0;   ///< [Units: cells]
  double parameter = 0.0;  ///< Curve parameter u.
  double curvature = 0.0;  ///< Signed. [Units: 1/cells]
};

/// Curvature every `spacing` cells along the curve (ends included), for plots.
/// [Limit: spacing > 0, finite; at most kMaxSplineSamples samples]
Result<std::vector<CurvatureSample>> curvature_profile(const ArcLengthTable& table, double spacing);

}  // namespace pathlab
