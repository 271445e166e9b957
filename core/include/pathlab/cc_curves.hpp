#pragma once
/// @file cc_curves.hpp
/// Continuous-curvature (CC) steering: paths between two poses whose curvature never exceeds
/// 1 / radius and changes at most `sharpness` per cell travelled, so a car's steering wheel
/// never jumps (Fraichard & Scheuer, "From Reeds and Shepp's to continuous-curvature paths",
/// IEEE Transactions on Robotics 20(6), 2004).
///
/// A CC turn of deflection delta (heading change) is a clothoid (curvature 0 -> kappa = 1/r at
/// sharpness sigma), an arc and a clothoid back to 0. Every CC turn from a pose starts and ends
/// on one circle, the "CC circle" of radius R_Omega around Omega, crossing it at the angle mu
/// with its tangent; so paths are built like Dubins' from tangents between CC circles. A turn
/// too small for two full clothoids (delta < kappa^2 / sigma) is an elementary path: two
/// symmetric clothoids of a lower sharpness sigma' that end on the same circle (delta = 0: a
/// line of 2 R_Omega sin mu). Curvature is 0 at both ends of every turn, so gear changes
/// (cusps) between turns and lines keep it continuous.
///
/// Families searched (the shortest valid one is returned):
/// - cc-dubins (forward only): T, TST (CC-LSL, RSR, LSR, RSL) and TTT (CC-LRL, RLR, both
///   middle circles): F&S's CC-Dubins set.
/// - cc-reeds-shepp: the same three shapes with every gear per part (a cusp may sit at each
///   junction): T, TST with 8 gear patterns (C|SC, CS|C, C|S|C, ...) and TTT with 8 (C|C|C,
///   CC|C, C|CC, ...). This is a SUBSET of F&S's CC-Reeds-Shepp families: the four- and
///   five-turn words (CC|CC, C|CC|C, C|CSC|C and their relatives) are not built, so in
///   tight manoeuvres the path can be longer than F&S's optimum. It always exists (it
///   contains cc-dubins) and is never shorter than the Reeds-Shepp length.
///
/// Words are written like reeds_shepp.hpp's ("L+S+R-"), one letter per CC turn or line.
/// Lengths are exact up to the clothoid integration (about 1e-15 relative).

#include <string>

#include "pathlab/geometry.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// Largest sharpness. [Units: 1/cells^2]
inline constexpr double kMaxCcSharpness = 1e9;

/// The smallest sharpness for a radius: 1 / (pi r^2), where the two clothoids of a CC turn
/// alone turn the heading by 180 degrees (kappa^2 / sigma = pi). [Units: 1/cells^2]
double min_cc_sharpness(double radius);

/// Checks a sharpness against the radius (finite, >= min_cc_sharpness(radius), <=
/// kMaxCcSharpness). The message starts with "sharpness" and names the value. The radius is
/// checked by check_curve_input() (curve_input.hpp), which the builders also call.
Status check_cc_sharpness(double radius, double sharpness);

/// A CC path and its word.
struct CcCurve {
  std::string word;  ///< e.g. "L+S+R+"; "" when the poses coincide.
  double length = 0.0;  ///< [Units: cells]
  SegmentPath path;     ///< Lines, arcs and clothoids from `from` exactly to `to`.
};

/// The shortest forward CC-Dubins path (radius [cells] [Limit: as check_curve_input],
/// sharpness [1/cells^2] [Limit: check_cc_sharpness]).
Result<CcCurve> cc_dubins(const Pose& from, const Pose& to, double radius, double sharpness);

/// The shortest CC-Reeds-Shepp path of the families above (forward and reverse).
Result<CcCurve> cc_reeds_shepp(const Pose& from, const Pose& to, double radius, double sharpness);

/// Only the length of cc_dubins() / cc_reeds_shepp() (no segments are built). [Units: cells]
Result<double> cc_dubins_length(const Pose& from, const Pose& to, double radius, double sharpness);
Result<double> cc_reeds_shepp_length(const Pose& from, const Pose& to, double radius, double sharpness);

}  // namespace pathlab
