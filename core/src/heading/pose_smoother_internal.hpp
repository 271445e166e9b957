#pragma once
// Shared by the vehicle smoother's two stages (pose_shortcut.cpp: shortcuts, pose_relax.cpp:
// junction relaxation). Internal to the core; never installed.

#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "pathlab/collision.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/pose_smoother.hpp"
#include "pathlab/segment_path.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::detail {

inline constexpr double kPoseSmoothEps = 1e-9;


inline int gear_of(Gear g) { return g == Gear::reverse ? -1 : 1; }

/// Cost of segments between a neighbour driven in `prev_gear` and one in `next_gear` (0: none).
double segments_cost(std::span<const Segment> segs, int prev_gear, int next_gear, const PoseSmoothDef& d);

/// The ends of a connection: the gear and gear-run length of what comes before and after it.
struct Neighbours {
  int prev_gear = 0;      // 0: the connection starts the path
  double prev_run = 0.0;  // length of the gear run that ends where the connection starts [cells]
  int next_gear = 0;      // 0: the connection ends the path
  double next_run = 0.0;  // length of the gear run that starts where the connection ends [cells]
};

/// True when the connection leaves no gear segment shorter than min_gear_length.
bool gear_runs_ok(std::span<const Segment> segs, const Neighbours& nb, const PoseSmoothDef& d);

/// Length of the last / first gear run of `path`. [Units: cells]
double trailing_run(const SegmentPath& path);
double leading_run(const SegmentPath& path);
int last_gear(const SegmentPath& p);
int first_gear(const SegmentPath& p);

/// Candidate connections from `a` to `b` no longer than `max_length`, shortest first: Dubins
/// words, and the shortest Reeds-Shepp path when reversing is allowed.
std::vector<SegmentPath> connections(const Pose& a, const Pose& b, double max_length, const PoseSmoothDef& d);

/// How far trace_word() has walked the first arc of the words from one pose, turning one way:
/// every word from that pose whose first arc turns that way walks the same points along it (the
/// farthest and nearer probes from a pose all start so, up to three words each), so the walk is
/// kept and only extended. [Units: cells along the arc]
struct FirstArcWalk {
  bool started = false;  ///< the point at 0 was looked at
  double next = 0.0;     ///< the next point to look at; every point before it was looked at
  double blocked_at = std::numeric_limits<double>::infinity();      ///< the point found blocked (the walk ends)
  double unproven_from = std::numeric_limits<double>::infinity();  ///< the first point the field could not clear
};

/// The map the smoother checks against, and its clearance field when the caller keeps one
/// (collision.hpp; every check gives the referee's answer with or without it, only faster).
struct Walls {
  const Grid* grid = nullptr;
  const ClearanceField* field = nullptr;  ///< built from *grid, or null
  int64_t max_tries = 0;                  ///< PoseSmoothDef::max_tries (0: no limit)
  mutable int64_t tries = 0;              ///< shortcut tries made so far (counted by the checks' users)
  /// True when the tries are spent: no more shortcuts are tried.
  bool spent() const { return max_tries > 0 && tries >= max_tries; }
  /// trace_word()'s walks along the first arcs (left, right) from first_arc_from.
  mutable std::array<FirstArcWalk, 2> first_arc{};
  mutable Pose first_arc_from{Vec2(std::numeric_limits<double>::quiet_NaN(), 0.0), 0.0};
  mutable Vec2 first_arc_dir{1.0, 0.0};  ///< cos and sin of first_arc_from.heading
  /// The cosine and sine of from.heading, kept for the pose the tries start from (about 30 tries
  /// a pose: dubins_all_within() and trace_word() take them from here). A new pose forgets the
  /// walks along the first arcs.
  const Vec2& heading_dir(const Pose& from) const {
    const Pose& kept = first_arc_from;
    if (!(kept.pos.x == from.pos.x && kept.pos.y == from.pos.y && kept.heading == from.heading)) {
      first_arc_from = from;
      first_arc_dir = angle_dir(from.heading);
      first_arc = {};
    }
    return first_arc_dir;
  }
};

/// The unit's disc swept along `path` is clear (cheap point rejection, then swept_clear()).
bool connection_clear(const Walls& walls, const SegmentPath& path, const PoseSmoothDef& d);
/// The same answer from check_swept_path() alone (at max_sagitta, with the field when there is one).
bool swept_clear(const Walls& walls, const SegmentPath& path, const PoseSmoothDef& d);
inline bool connection_clear(const Grid& grid, const SegmentPath& path, const PoseSmoothDef& d) {
  return connection_clear(Walls{&grid, nullptr}, path, d);
}

/// What trace_word() found out about a Dubins word.
enum class WordTrace {
  clear,    ///< check_swept_path() at max_sagitta would find the word clear
  blocked,  ///< it would find it blocked
  unknown,  ///< the field could not tell (the word passes close to a wall): build and check it
};

/// Settles most Dubins words from `from` before they are built (pose_checks.cpp): walks the word
/// against the clearance field, stepping by the clear room ahead (sphere tracing). Every point
/// shown farther than agent_radius + 2 max_sagitta from the walls means the referee's chords
/// (within max_sagitta of the arc, checked with the radius grown by their sagitta) are clear;
/// a point whose disc is shown to overlap a wall means they are not. Without a field: unknown.
WordTrace trace_word(const Walls& walls, const Pose& from, const DubinsSolution& w, double turning_radius,
                     double agent_radius, double max_sagitta);

/// Appends the part of `path` between distances a and b (a < b) to `out`. With `ends` (where
/// each segment ends, summed in order: segment_ends() in pose_shortcut.cpp) it starts near a
/// instead of walking from the path's start: the same result, without a walk per pose that made
/// a smoothing round quadratic in the path's length.
/// With `run`, the whole segments of `path` it would copy are gathered there instead, to be
/// appended together by flush_run() (SegmentPath::append_run(): the same path); the caller
/// flushes before it reads or extends `out` otherwise.
struct PendingRun {
  size_t first = 0;  ///< index in `path` of the first segment gathered
  size_t count = 0;
};
Status append_cut(const SegmentPath& path, double a, double b, SegmentPath& out, std::span<const double> ends = {},
                  PendingRun* run = nullptr);
/// Appends the segments gathered in `run` to `out` and empties it.
Status flush_run(const SegmentPath& path, PendingRun& run, SegmentPath& out);
/// Gathers the whole segment k of `path` into `run` (flushing it to `out` first when k does not
/// follow it), as append_cut() gathers a whole segment.
Status gather_whole(const SegmentPath& path, size_t k, PendingRun& run, SegmentPath& out);

/// One piece of the smoothed path: a connection the smoother made, or a stretch of the input.
struct Leg {
  SegmentPath piece;
  bool shortcut = false;
};

/// Moves the poses where two shortcut legs meet (heading and sideways offset, a few fixed
/// trial steps) while both new connections are clear and together strictly cheaper and no
/// longer. Returns how many junctions moved.
int relax_junctions(const Grid& grid, std::vector<Leg>& legs, const PoseSmoothDef& d);

}  // namespace pathlab::detail
