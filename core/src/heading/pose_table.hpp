#pragma once
// The vehicle smoother's table of poses along the path a round shortcuts (pose_shortcut.cpp).
// Internal to the core; never installed.

#include <cstdint>
#include <vector>

#include "pathlab/pose_smoother.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/status.hpp"

namespace pathlab::detail {

/// The poses of the current path and the cost of driving it up to each of them. The poses are
/// those of SegmentPath::sample(pose_step) (every pose_step, evenly spaced inside each segment,
/// plus every segment end), but each pose's position and heading is worked out only when a try
/// asks for it, by the very calls sample() makes: a round after the first probes only from the
/// poses near the last round's changes, and working out every pose of every round (a sine and
/// a cosine each) was a tenth of the smoother's time on the short searches of
/// bench_vehicle_replan, where the smoother cost more than the search.
struct PoseTable {
  const SegmentPath* path = nullptr;
  std::vector<double> s;        // distance along the path [cells]
  std::vector<double> cost;     // cost from the start, gear changes between intervals included
  std::vector<int> gear;        // gear of the interval leaving pose k (last: 0)
  std::vector<double> run_ahead;  // distance from pose k to the next change of gear or the end
  std::vector<uint32_t> seg;    // the segment pose k lies in (its end, for a segment's last pose)
  std::vector<double> along;    // distance of pose k into that segment; < 0: the segment's end
  mutable std::vector<Pose> known;   // the poses worked out so far
  mutable std::vector<char> is_known;

  size_t size() const { return s.size(); }
  /// Pose k, as path->sample(pose_step)[k] has it (the first and last: the path's own ends).
  const Pose& pose(size_t k) const { return is_known[k] ? known[k] : work_out(k); }

 private:
  /// pose(k) the first time it is asked for.
  const Pose& work_out(size_t k) const;
};

/// Fills `t` with the table of `path`'s poses every pose_step: the distances and gears of
/// SegmentPath::sample() (the same spacing and sums), without the positions (PoseTable::pose()).
/// `t`'s storage is reused (the smoother keeps one table per thread: a round used to allocate
/// its eight vectors anew). Errors: more than 1e6 poses, or more than SegmentPath::sample()
/// allows; `t` is then left unusable.
Status fill_pose_table(const SegmentPath& path, const PoseSmoothDef& d, PoseTable& t);

}  // namespace pathlab::detail
