#pragma once
/// @file spline_smoother.hpp
/// Obstacle-aware spline smoothing of a waypoint path on a grid.
///
/// A Catmull-Rom or Hermite curve through grid waypoints bulges past corners and can cross
/// blocked cells (Guesgen's lecture only draws its smoothed path, never checks it). This smoother
/// fits the curve, checks every span against the grid for the agent's radius, and repairs
/// the spans that fail, in order of how much of the curve they keep:
///  1. insert control points on a long chord near its ends, so the bend stays near the corner;
///  2. lower the tangents at the span's ends (0.5, then 0.25 of their length);
///  3. fall back to the straight chord of the input path (tangents 0 at both ends).
/// The input path must itself be clear for the radius; then step 3 always succeeds, so the
/// result is always collision-free. The result lists what was repaired, per input span.
///
/// Every span must also be well shaped (spline_span_shape within the limits below). Uniform
/// Catmull-Rom next to uneven spacing (a long Theta* chord, then waypoints one cell apart, or
/// points inserted by step 1) has tangents far longer than the short chord and makes hooks,
/// cusps and loops there, clear of the walls or not. A span that is clear but badly shaped is
/// "reshaped": its end points get tangents along the bisector of their two chords, as long
/// on each side as that side's chord (G1 at the point), a Hermite span that turns at most
/// kSplineMaxExtraTurn beyond its end directions and keeps curvature under
/// kSplineCurvatureBound / chord for any corner short of a full reversal. Then steps 2 and 3
/// apply as for a collision, each checked for shape too. Spans that pass both checks are kept
/// exactly as the method defines them.
///
/// Clearance of a curved span is proven, not sampled: the span is cut into chords close enough
/// that the curve stays within `max_deviation` of them (bound from the cubic's second
/// derivative), and those chords are checked with the radius plus twice that deviation.

#include <span>
#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/hermite.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

enum class SplineMethod : uint8_t {
  catmull_rom,  ///< Uniform Catmull-Rom (the blog post's and Guesgen's formula).
  centripetal,  ///< Catmull-Rom with alpha 0.5: no cusps or loops.
  chordal,      ///< Catmull-Rom with alpha 1.
  hermite,      ///< hermite_chain's automatic tangents (bisector, shorter chord).
};

/// Parses "catmull-rom", "centripetal", "chordal", "hermite".
Result<SplineMethod> parse_spline_method(const std::string& name);
const char* to_string(SplineMethod method) noexcept;

/// Builds the unrepaired curve a method draws through `points` (at least 1 point, finite).
Result<HermiteCurve> spline_curve(SplineMethod method, std::span<const Vec2> points);

/// How densely the smoothed curve is turned into output points.
struct SplineSampling {
  /// Equal parameter steps per span. [Limit: 1..kMaxSubdivisions]
  int per_segment = 8;
  /// When > 0, points are placed by distance instead: this many per cell of arc length
  /// (the world unit; "per metre" for a designer). [Units: 1/cells] [Limit: 0..1000]
  double per_cell = 0.0;
};

/// Options of smooth_path. Start from default_spline_smooth_def().
struct SplineSmoothDef {
  SplineMethod method = SplineMethod::centripetal;
  double agent_radius = 0.0;  ///< [Units: cells] [Limit: 0..kMaxAgentRadius]
  SplineSampling sampling;
  /// Repair step 1: only chords at least this long get control points inserted. 0 turns
  /// insertion off. [Units: cells] [Limit: 0 or >= 1]
  double insert_min_chord = 2.0;
  /// How far the curve may stray from the chords used to prove clearance. Smaller is more
  /// permissive near walls and slower. [Units: cells] [Limit: 1e-6..0.1]
  double max_deviation = 1e-3;
};

inline SplineSmoothDef default_spline_smooth_def() { return SplineSmoothDef{}; }

/// Shape limits every span of smooth_path's curve meets (except where an end tangent is zero:
/// a declared corner, where the unit turns on the spot, so curvature is not bounded there).
/// Curvature times the shortest chord among the span and its two neighbours stays under this.
/// Why 16: chord-length bisector tangents give at most 14.2 (at a corner that nearly doubles
/// back), while the raw splines of evenly spaced grid paths reach 8.5 at their sharpest
/// (a diagonal-to-straight corner), so ordinary grid corners are never flagged.
inline constexpr double kSplineCurvatureBound = 16.0;
/// How far a span may turn beyond the angles its end directions make with its chord
/// (radians, 60 degrees): an S-bend inside a span adds up to about 39 degrees, a hook 90 or
/// more, a loop 360. [Units: radians]
inline constexpr double kSplineMaxExtraTurn = 1.0471975511965976;
/// Largest turn between two neighbouring shape samples (1/32 of the parameter apart): a
/// cusp, where the curve stops and reverses, turns 180 degrees there. [Units: radians]
inline constexpr double kSplineMaxStepTurn = 1.5707963267948966;

/// Shape of one Hermite span, measured on 33 parameter samples (curvature peak refined).
struct SplineShape {
  double max_curvature = 0.0;  ///< Largest |curvature| found. [Units: 1/cells]
  double turning = 0.0;        ///< Total absolute turning of the direction of travel. [Units: radians]
  double extra_turning = 0.0;  ///< turning minus the end directions' angles with the chord. [Units: radians]
  double max_step_turn = 0.0;  ///< Largest turn between neighbouring samples (pi at a cusp). [Units: radians]
};

/// Measures a span's shape (a span that never moves measures all zeros).
SplineShape spline_span_shape(const HermiteSegment& segment);

enum class SplineRepairKind : uint8_t {
  inserted_points,  ///< Control points were added inside the span.
  reshaped,         ///< Its ends got chord-length bisector tangents (it hooked or looped).
  tightened,        ///< The tangents at the span's ends were shortened.
  straightened,     ///< The span became the input's straight chord.
};

const char* to_string(SplineRepairKind kind) noexcept;

/// One repaired span of the input path (waypoint `span` to `span + 1`). A span gets at most
/// one entry, naming the strongest repair it needed.
struct SplineRepair {
  int span = 0;
  SplineRepairKind kind = SplineRepairKind::tightened;
  int points_inserted = 0;       ///< Control points added inside this span.
  double tangent_scale = 1.0;    ///< Smallest tangent scale used at its ends (0 = straight).
};

struct SplineSmoothResult {
  std::vector<Vec2> points;          ///< The sampled curve; first and last are the input's ends.
  double length = 0.0;               ///< Arc length of the curve. [Units: cells]
  HermiteCurve curve;                ///< The repaired curve (for arc length, curvature, plots).
  std::vector<Vec2> control_points;  ///< Waypoints after dropping repeats and inserting points.
  std::vector<SplineRepair> repairs; ///< By increasing span.
  int points_inserted = 0;           ///< Control points added in total.
  int duplicates_removed = 0;        ///< Consecutive repeated waypoints dropped from the input.
  int extra_samples = 0;             ///< Output points added so that no output chord cuts a wall.
};

/// Smooths `waypoints` on `grid` for a disc agent of def.agent_radius. Errors (naming the
/// argument): empty or non-finite waypoints, options outside their limits, too many output
/// points (too_large), and an input path that is not itself clear (blocked), since then no
/// repair could be guaranteed. One waypoint gives one point.
Result<SplineSmoothResult> smooth_path(const Grid& grid, std::span<const Vec2> waypoints,
                                       const SplineSmoothDef& def = default_spline_smooth_def());

}  // namespace pathlab
