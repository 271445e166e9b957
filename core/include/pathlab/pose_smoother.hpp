#pragma once
/// @file pose_smoother.hpp
/// The vehicle smoother: makes the path of a heading-aware planner (Hybrid A*, Directional A*,
/// the turning smoother) into one a driver would drive, without the search's wobble.
///
/// The input path is sampled into poses every `pose_step` (plus every segment end, so cusps
/// are kept). From the first pose, the smoother tries to reach a far later pose (at most 400
/// poses on) with an analytic curve of the turning radius; it probes about 30 of them, not all
/// 400: the farthest, then every pose up to 16 on, then poses spaced by a factor of 1.25 until
/// 8 in a row fail past the last clear one, then bisects towards the next failed probe (so a
/// round costs O(n log 400) tries instead of 400 n; the rounds after the first probe only near
/// the last round's changes, every pose up to 8 on, and not the farthest first). The curves are the Dubins words (forward only, shortest first) and,
/// with `allow_reverse`, the shortest Reeds-Shepp path. A connection replaces the stretch it
/// skips when the unit's disc swept along it is clear (check_swept_path(), the referee of
/// collision.hpp), it is strictly cheaper (length, reversed length times `reverse_penalty`,
/// `gear_change_penalty` per change of gear, also where it joins its neighbours), no longer,
/// and every gear segment it starts is at least `min_gear_length` long. Then it moves on from
/// the pose it reached (greedy, as far as the probes found). With `relax`, each pose where two connections
/// meet is then nudged (its heading by 0.2, 0.05 and 0.01 rad, its position sideways by 0.25
/// and 0.05 cells, coordinate descent) while both reconnected legs stay clear and together get
/// strictly cheaper and no longer: the junctions inherit the search's heading errors, and this
/// takes out the S-bends they cause. Rounds repeat on the new path until one changes nothing
/// or `max_rounds` is reached. This follows the smoother of Dolgov, Thrun, Montemerlo and
/// Diebel ("Path Planning for Autonomous Vehicles in Unknown Semi-structured Environments",
/// IJRR 2010): their shortcut stage, and in place of their gradient-descent relaxation of a
/// polyline (smoothness, obstacle and curvature terms) a derivative-free relaxation of the
/// junction poses, so the result stays exact lines and arcs of the turning radius and the
/// curvature and clearance limits hold by construction instead of by a check afterwards.
///
/// With `cc_sharpness` > 0 the connections are continuous-curvature curves instead
/// (CC-Dubins, and CC-Reeds-Shepp with `allow_reverse`; Fraichard and Scheuer, "From Reeds and
/// Shepp's to continuous-curvature paths", 2004, cc_curves.hpp): the steering never jumps
/// inside a connection, nor between two connections (both end with the wheels straight); where
/// a connection meets a stretch kept from the input (the search's arcs) it still may, as at
/// the arc primitives of Hybrid A*'s own CC finish. CC curves are longer than Dubins curves,
/// so fewer connections are no longer than what they replace.
///
/// Guarantees: the result starts and ends exactly at the input's poses, every arc it adds has
/// exactly the turning radius (arcs kept from the input keep theirs) and every clothoid stays
/// within it, its swept disc is clear wherever the input's was, and its cost and length are
/// never above the input's.

#include <cstdint>
#include <vector>

#include "pathlab/collision.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

struct PoseSmoothDef {
  double turning_radius = 2.0;       ///< Radius of every connection. [Units: cells] [Limit: > 0, <= 1000]
  double agent_radius = 0.0;         ///< [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  bool allow_reverse = false;        ///< Reeds-Shepp connections (reversing) as well as Dubins.
  double reverse_penalty = 2.0;      ///< Cost multiplier on reversed length. [Limit: >= 1, finite]
  double gear_change_penalty = 2.0;  ///< Cost per change of gear. [Units: cells] [Limit: >= 0, finite]
  /// A connection may not start a gear segment shorter than this (no 0.3-cell reversals).
  /// [Units: cells] [Limit: >= 0, finite]
  double min_gear_length = 1.0;
  /// Spacing of the poses the shortcuts connect. [Units: cells] [Limit: >= 0.05, finite]
  double pose_step = 0.5;
  int max_rounds = 8;  ///< [Limit: 1 .. 100]
  /// Rounds stop after one that made the path cheaper by less than this (0: only when one
  /// changes nothing). The later rounds move junctions by hundredths of a cell at the cost of a
  /// whole round each: 0.05 made bench_vehicle_replan's smoother 2.5x faster (median 35 -> 14 ms)
  /// for a median turning ratio of 1.06 instead of 1.04, so it is off by default.
  /// [Units: cells] [Limit: >= 0, finite]
  double min_round_gain = 0.0;
  /// After each round, move the poses where two connections meet (see above) while that makes
  /// the path strictly cheaper and no longer. Off by default: on the generated parking lots and
  /// rooms of bench_vehicle_paths it changed the medians by under 0.3 steering changes per 100
  /// cells and 0.01 of turning ratio, either way, for up to twice the time.
  bool relax = false;
  /// Swept check of the connections (swept_check.hpp). [Units: cells] [Limit: > 0, finite]
  double max_sagitta = 1e-3;
  /// 0: Dubins / Reeds-Shepp connections. > 0: CC-Dubins / CC-Reeds-Shepp connections whose
  /// curvature changes by at most this per cell travelled (see above).
  /// [Units: 1/cells^2] [Limit: 0, or check_cc_sharpness(turning_radius, .) of cc_curves.hpp]
  double cc_sharpness = 0.0;
  /// Most shortcut tries (each solves the curves between two poses) over all rounds; 0: no
  /// limit. Once they are spent the smoother keeps what it has (the round under way copies the
  /// rest of its path), so a plan's smoothing never costs more than this, on any machine:
  /// pose_smooth_tries_for() keeps it near the search's own work (the service's setting).
  /// [Units: tries] [Limit: >= 0]
  int64_t max_tries = 0;
};

inline PoseSmoothDef default_pose_smooth_def() { return PoseSmoothDef{}; }

struct PoseSmoothResult {
  SegmentPath path;
  int rounds = 0;          ///< Rounds run (the last one changed nothing unless max_rounds stopped it).
  int shortcuts = 0;       ///< Connections accepted over all rounds.
  int relaxed = 0;         ///< Junction moves accepted by the relaxation over all rounds.
  int refused_rounds = 0;  ///< 1 when a round's whole path failed check_swept_path() (the rounds before it are kept, later ones dropped), else 0.
  int gear_changes = 0;    ///< Cusps of the result.
  int short_gear_runs = 0; ///< Gear segments of the result shorter than min_gear_length (kept from the input).
  double cost = 0.0;       ///< Length plus penalties, as defined above. [Units: cells]
  int64_t tries = 0;       ///< Shortcut tries made (see PoseSmoothDef::max_tries).
  bool budget_spent = false;  ///< max_tries stopped the smoothing.
};

/// The max_tries that keeps the vehicle smoother's work under that of a short Hybrid or Directional A* search that
/// found the path in `expanded` expansions (HeadingPath::expanded), in work, not time (the same on every machine):
/// 3.2 tries per expansion (a try costs a quarter of an expansion with its share of the goal distance on
/// bench_vehicle_replan's maps, so about 0.8 of the search), at least 320 (0.8 of a short search's fixed cost).
/// The planning service applies it with forward Dubins connections (not with reversing or CC
/// curves, whose tries cost more; README, issue 24's thirteenth and seventeenth rounds). [Units: tries]
int64_t pose_smooth_tries_for(int64_t expanded);

/// Smooths `path` (lines and arcs in any gear). Errors: a field of `def` out of range
/// (invalid_argument naming it), or more than 1e6 poses (too_large). An empty path is
/// returned as it is.
Result<PoseSmoothResult> smooth_pose_path(const Grid& grid, const SegmentPath& path,
                                          const PoseSmoothDef& def = default_pose_smooth_def());

/// The same smoothing with the same result, faster: its collision checks first ask `field`, the
/// map's clearance field (collision.hpp, built from `grid` as it is now and kept by the caller,
/// as the planning service does per map), and the referee only where the field cannot decide.
/// A field built for a grid of another size is ignored.
Result<PoseSmoothResult> smooth_pose_path(const Grid& grid, const SegmentPath& path, const PoseSmoothDef& def,
                                          const ClearanceField& field);

/// Joins drivable pieces that meet at a rotation in place (the turning smoother's last resort, which
/// a car cannot do): for each pair, the last poses of the first piece (every pose_step, up to 10
/// cells back) and the first poses of the next (up to 10 cells on) are connected by the shortest
/// Reeds-Shepp path (reversing is allowed here whatever `allow_reverse` says: the alternative is
/// turning on the spot) or a Dubins word, nearest pairs first, until one is clear and keeps
/// every gear segment at least min_gear_length long; when none is, the same is tried towards the
/// pieces after the next while those skipped are at most 10 cells long together (two rotations
/// close together). Pieces that cannot be joined stay apart.
/// Errors: as smooth_pose_path(); consecutive pieces must meet (within 1e-6 cells).
Result<std::vector<SegmentPath>> join_rotations(const Grid& grid, const std::vector<SegmentPath>& pieces,
                                                const PoseSmoothDef& def = default_pose_smooth_def());

/// Cost of a path under `def`'s penalties. [Units: cells]
double pose_path_cost(const SegmentPath& path, const PoseSmoothDef& def);

}  // namespace pathlab
