#pragma once
/// @file reeds_shepp.hpp
/// Reeds-Shepp paths: the shortest path between two poses for a unit that turns on circles
/// of at least radius r and may reverse (so it can make the three-point turn of Pinter's
/// (2001) figure 7). Reeds & Shepp (1990) showed the optimum is one of 48 words of at most five
/// arcs and lines with at most two cusps. They come from 12 base formulas (their 8.1-8.11:
/// CSC same and opposite turns, C|C|C, CC|CC, C|CC|C, C|CSC, C|CSC with the last turn
/// reversed, C|CSC|C) under three symmetries: time-flip (drive it backwards), reflection
/// (swap left and right) and reversal (follow it from the goal, for the asymmetric ones).
///
/// Words are written like "L+S+R-": L/R/S as in segment_path.hpp, + forward, - reverse.
///
/// Numerics. Part lengths within 1e-10 of zero on the wrong side count as zero (OMPL's ZERO),
/// and parts of rounding size (< 1e-14) are dropped from the solution, so a straight line is
/// the word "S+" and not "L+S+L-" with dust arcs. Only a rounding-sized gap between the goal's
/// and the start's turning circle (< 1e-14 (2 + |x| + |y|) radii) counts as "goal on the start
/// circle"; unlike Dubins lengths, Reeds-Shepp lengths are continuous, and a goal 1e-10 r off
/// the circle really needs a wiggle of about 4 sqrt(2e-10) r, which the other words find.
///
/// Agreement with OMPL (ompl::base::ReedsSheppStateSpace, Debian's 1.5): the same formulas
/// (with OMPL's corrections of the paper's typos), evaluated with lower bounds to skip
/// candidates and without its 1e-6-scale internal assertions (which abort on poses about
/// 1e4 r apart; we are tested to 1e7 r). The lengths agree with OMPL's distance() to 1e-9
/// relative on 120k random pairs and on poses down to 1e-12 r apart; the length is
/// symmetric in its two poses, as it must be (drive the path backwards in time).

#include <array>
#include <string>

#include "pathlab/geometry.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// A Reeds-Shepp path in units of the turning radius.
struct ReedsSheppSolution {
  std::array<int, 5> steer{};       ///< +1 left, 0 straight, -1 right, per part.
  std::array<double, 5> params{};   ///< Signed part lengths (negative = reverse). [Units: radians or radii]
  int count = 0;                    ///< Parts used (3 to 5).
  double length = 0.0;              ///< Total length. [Units: cells]
  std::string word() const;         ///< e.g. "L+R-L+"; parts of length 0 are left out ("" when coincident).
};

/// The shortest Reeds-Shepp path from `from` to `to` with turning radius `radius`
/// [Units: cells] [Limit: > 0, finite]. Error when the radius or a pose is not finite.
Result<ReedsSheppSolution> reeds_shepp_shortest(const Pose& from, const Pose& to, double radius);

/// Only the length of the shortest Reeds-Shepp path. [Units: cells]
Result<double> reeds_shepp_length(const Pose& from, const Pose& to, double radius);

/// The segments of a solution, starting exactly at `from` and ending exactly at `to`.
Result<SegmentPath> reeds_shepp_to_path(const Pose& from, const Pose& to, double radius,
                                        const ReedsSheppSolution& sol);

/// reeds_shepp_shortest() then reeds_shepp_to_path().
Result<SegmentPath> reeds_shepp_path(const Pose& from, const Pose& to, double radius);

}  // namespace pathlab
