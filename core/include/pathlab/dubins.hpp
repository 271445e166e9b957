#pragma once
/// @file dubins.hpp
/// Dubins paths: the shortest forward-only path between two poses for a unit that turns
/// on circles of at least radius r. The optimum is one of six words, LSL, RSR, LSR, RSL,
/// RLR, LRL (L = heading increases, R = decreases, S = straight; see segment_path.hpp).
///
/// Numerics (all tolerances are in units of the turning radius):
/// - Arc angles live in [0, 2 pi). An angle within kCurveAngleSnap of 2 pi is a rounding
///   artefact of a zero arc and becomes 0: no spurious full loops.
/// - When the two circles of an LSL/RSR candidate coincide to within kCurveDegenerate
///   (the goal lies on the start's turning circle with the heading of that circle) the
///   straight part is empty and the turn is the heading change alone; the direction of a
///   near-zero vector is noise and is never used.
/// - Tangent-circle cases (LSR/RSL with a zero straight) and CCC with the circles exactly
///   4 r apart clamp their square roots and arc-cosines instead of rejecting the word.
/// - Coincident poses give length 0; poses within kCurveDegenerate of each other with the
///   same heading (within kCurveAngleSnap) are treated as coincident.
///
/// - CCC words use the middle circle on the side that makes the middle arc longer than pi:
///   Dubins (1957) showed optimal CCC paths are like that, so the other side is never tried.
///
/// Where this differs from OMPL (ompl::base::DubinsStateSpace in Debian's OMPL 1.5):
/// - OMPL answers d (a straight line) for any two poses closer than 1e-6 r with headings
///   within 1e-6 rad, also when the goal is behind or beside the start. Such a goal is not
///   reachable by a short forward path: the true Dubins length is about 2 pi r, which is
///   what we return (down to kCurveDegenerate = 1e-10 r, where both treat the poses as equal).
///   Our path ends at the goal (dubins_to_path() checks the computed end against it, to
///   kContinuityTolerance plus 1e-7 r, then snaps it exactly); a straight line of length d does not.
/// - Goals within kCurveDegenerate of a turning circle: several words reach them within the
///   snap, with lengths that differ by about the offset (1e-10 r), so "the shortest" is only
///   defined to that precision there.
/// - OMPL's internal assertions (absolute tolerance 1e-6) abort on poses about 1e4 r apart;
///   we have no such limit (checked up to 1e7 r in the tests).
/// Away from these cases the lengths agree with OMPL's distance() to 1e-9 relative.

#include <array>

#include "pathlab/geometry.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

enum class DubinsWord : uint8_t { LSL, RSR, LSR, RSL, RLR, LRL };

/// "LSL", "RSR", ...
const char* to_string(DubinsWord word);

/// A Dubins path in units of the turning radius.
struct DubinsSolution {
  DubinsWord word = DubinsWord::LSL;
  std::array<double, 3> params{};  ///< Arc angles [radians] and straight length [radii], each >= 0.
  double length = 0.0;             ///< Total length. [Units: cells]
};

/// The shortest Dubins path from `from` to `to` with turning radius `radius`
/// [Units: cells] [Limit: > 0, finite]. Error when the radius or a pose is not finite.
Result<DubinsSolution> dubins_shortest(const Pose& from, const Pose& to, double radius);

/// Only the length of the shortest Dubins path [Units: cells] (the fast path for heuristics).
Result<double> dubins_length(const Pose& from, const Pose& to, double radius);

/// Every Dubins word that exists between the poses with its length (lengths of missing
/// words are +infinity); the shortest is the one dubins_shortest() returns.
Result<std::array<DubinsSolution, 6>> dubins_all(const Pose& from, const Pose& to, double radius);

/// dubins_all() without the words that cannot be shorter than `max_length` [Units: cells]:
/// each word whose cheap lower bound (its straight part plus the least turning its arcs must
/// do, as dubins_shortest() uses them) exceeds max_length is left out (length +infinity);
/// every other word is the very value dubins_all() gives. Most words a shortcut search tries
/// are too long to matter, and their atan2 and acos were a fifth of the vehicle smoother's time.
Result<std::array<DubinsSolution, 6>> dubins_all_within(const Pose& from, const Pose& to, double radius,
                                                        double max_length);
/// The same with the cosine and sine of from.heading given (`from_dir`, exactly those values):
/// a caller trying many goals from one pose works them out once.
Result<std::array<DubinsSolution, 6>> dubins_all_within(const Pose& from, Vec2 from_dir, const Pose& to,
                                                        double radius, double max_length);

/// The segments of a solution, starting exactly at `from` and ending exactly at `to`.
Result<SegmentPath> dubins_to_path(const Pose& from, const Pose& to, double radius, const DubinsSolution& sol);

/// dubins_shortest() then dubins_to_path().
Result<SegmentPath> dubins_path(const Pose& from, const Pose& to, double radius);

}  // namespace pathlab
