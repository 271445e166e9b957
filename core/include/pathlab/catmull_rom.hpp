#pragma once
/// @file catmull_rom.hpp
/// Catmull-Rom splines through a list of waypoints (the Catmull-Rom blog post and Guesgen's
/// 2004 lecture, see the README's References): each segment between points i and i+1 is shaped
/// by points i-1 and i+2, and the list's ends are doubled (the first segment uses p0 = p1, the
/// last p3 = p2) so the curve starts and ends on the path.
///
/// Three parameterisations, chosen by alpha (knot spacing |p(i+1) - p(i)|^alpha):
/// - uniform (alpha 0): their formula. Cheap, but on uneven spacing it can overshoot,
///   form cusps and loop over itself.
/// - centripetal (alpha 1/2): never forms cusps or self-intersections inside a segment
///   (Yuksel, Schaefer and Keyser 2011) and follows the control polygon tightly.
/// - chordal (alpha 1): the roundest of the three, but with no such guarantee: where a
///   neighbour folds back close to a point it can turn back sharply (a near-cusp) and, rarely,
///   loop (about 1 segment in 7000 of random 4-point configurations). Prefer centripetal.
/// Repeated points are allowed: knots of zero length are handled so the output stays finite.
///
/// Evaluation and subdivision exist for 1D, 2D and 3D points; everything else (arc length,
/// curvature, the obstacle-aware smoother) works on the 2D HermiteCurve from catmull_rom_curve.

#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "pathlab/geometry.hpp"
#include "pathlab/hermite.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

enum class CatmullRomKind : uint8_t { uniform, centripetal, chordal };

/// Knot exponent of a kind: 0, 0.5 or 1.
double catmull_rom_alpha(CatmullRomKind kind) noexcept;
/// Parses "uniform" (or "catmull-rom"), "centripetal", "chordal".
Result<CatmullRomKind> parse_catmull_rom_kind(const std::string& name);
const char* to_string(CatmullRomKind kind) noexcept;

/// Shape options of a Catmull-Rom spline.
struct CatmullRomDef {
  double alpha = 0.0;  ///< Knot exponent: 0 uniform, 0.5 centripetal, 1 chordal. [Limit: 0..1]
  /// Multiplies every tangent. 1 is the Catmull-Rom spline proper; 0 gives the straight
  /// polyline (a cardinal spline with tension 1 - tangent_scale). [Limit: 0..1]
  double tangent_scale = 1.0;
};

inline CatmullRomDef default_catmull_rom_def() { return CatmullRomDef{}; }
inline CatmullRomDef catmull_rom_def(CatmullRomKind kind) {
  CatmullRomDef d;
  d.alpha = catmull_rom_alpha(kind);
  return d;
}

/// Teaching note for displays (the sandbox shows it next to the blog post's example): what the
/// Catmull-Rom blog post's printed numbers get wrong, checked by tests/test_catmull_rom.cpp.
/// Plain text, one paragraph per line.
inline constexpr const char* kCatmullRomSeedNote =
    "The Catmull-Rom blog post (\"A Catmull-Rom Spline (Curve) Implementation in Java\") prints "
    "q(0.25) = q(0.75) = 2.171875 for the 1D points (1, 2, 2, 1), but its own "
    "formula gives 2.09375 there: with those points it reduces to q(t) = 0.5 * (4 + t - t^2). "
    "Its q(0.5) = 2.125 is right.\n"
    "It also says a 13-point route with 5 subdivisions \"amounts to 121 new points\"; its "
    "subdividePoints returns (13 - 1) * 5 + 1 = 61 points (121 would need 10 subdivisions).\n"
    "It asserts at least 3 points; pathlab also accepts 2 (the straight segment) and 1 "
    "(that point).";

/// The blog post's and Guesgen's uniform formula for one coordinate, t in [0, 1] between p1
/// and p2:
/// 0.5 * (2 p1 + (p2 - p0) t + (2 p0 - 5 p1 + 4 p2 - p3) t^2 + (3 p1 - p0 - 3 p2 + p3) t^3).
/// For (1, 2, 2, 1) it gives 2.09375 at t = 0.25 and 0.75 and 2.125 at 0.5 (the blog post
/// prints 2.171875 for 0.25 and 0.75, which its own formula does not produce).
constexpr double catmull_rom_uniform(double p0, double p1, double p2, double p3, double t) noexcept {
  return 0.5 * ((2.0 * p1) + (p2 - p0) * t + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t * t +
                (3.0 * p1 - p0 - 3.0 * p2 + p3) * t * t * t);
}

/// Point at t in [0, 1] on the segment p1 -> p2 of a Catmull-Rom spline with neighbours p0, p3.
/// Inputs are not checked here (hot path): give finite values and a def within its limits.
double catmull_rom_point(double p0, double p1, double p2, double p3, double t,
                         const CatmullRomDef& def = default_catmull_rom_def());
Vec2 catmull_rom_point(Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3, double t,
                       const CatmullRomDef& def = default_catmull_rom_def());
glm::dvec3 catmull_rom_point(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& p2,
                             const glm::dvec3& p3, double t, const CatmullRomDef& def = default_catmull_rom_def());

/// The segment p1 -> p2 as a Hermite segment (the tangents the alpha rule gives there).
HermiteSegment catmull_rom_segment(Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3,
                                   const CatmullRomDef& def = default_catmull_rom_def());

/// Subdivides a waypoint list: `subdivisions` (N) equal parameter steps per segment, ends
/// doubled. n >= 2 points give (n - 1) * N + 1 points with every waypoint exactly at index
/// i * N; 1 point gives that point; 0 points is an error. Errors name the argument
/// ("points[3] is not finite", "subdivisions ...").
/// [Limit: subdivisions 1..kMaxSubdivisions, output at most kMaxSplineSamples points]
Result<std::vector<double>> catmull_rom_subdivide(std::span<const double> points, int subdivisions,
                                                  const CatmullRomDef& def = default_catmull_rom_def());
Result<std::vector<Vec2>> catmull_rom_subdivide(std::span<const Vec2> points, int subdivisions,
                                                const CatmullRomDef& def = default_catmull_rom_def());
Result<std::vector<glm::dvec3>> catmull_rom_subdivide(std::span<const glm::dvec3> points, int subdivisions,
                                                      const CatmullRomDef& def = default_catmull_rom_def());

/// The whole spline through `points` as a HermiteCurve of n - 1 segments (a single point gives
/// one segment that stays put). Position is continuous at every joint; the direction of
/// travel is too, and for alpha 0 the tangent itself. At least 1 point, all finite.
Result<HermiteCurve> catmull_rom_curve(std::span<const Vec2> points,
                                       const CatmullRomDef& def = default_catmull_rom_def());

}  // namespace pathlab
