// The vehicle smoother's pose table (pose_table.hpp): split from pose_shortcut.cpp.

#include "heading/pose_table.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pathlab/sample_limit.hpp"
#include "curves/segment_heading.hpp"
#include "heading/pose_smoother_internal.hpp"

namespace pathlab::detail {

const Pose& PoseTable::work_out(size_t k) const {
  const auto segs = path->segments();
  Pose p;
  if (k + 1 == s.size()) {
    p = path->end();  // (also for a one-pose table, as the old table set its last pose last)
  } else if (k == 0) {
    p = path->start();
  } else if (along[k] < 0.0) {
    // A segment's end: the next segment's start heading, this segment's end position. (The
    // heading as segment_state(next, 0) gives it, without that call's sine and cosine.)
    p = Pose{segment_end(segs[seg[k]]).pos, segment_heading_at(segs[seg[k] + 1], 0.0)};
  } else {
    const PathState st = segment_state(segs[seg[k]], along[k]);
    p = Pose{st.pos, st.heading};
  }
  known[k] = p;
  is_known[k] = 1;
  return known[k];
}

namespace {

constexpr size_t kMaxPoses = 1000000;

/// Writes pose `k`'s distance, gear and cost into the table (see fill_pose_table()); poses
/// before k are written. (Into storage sized once per round: appending each pose to five
/// vectors was a fifth of the table's work.)
void set_pose(PoseTable& t, size_t k, double s, Gear gear, uint32_t seg, double along, const PoseSmoothDef& d) {
  t.s[k] = s;
  t.gear[k] = gear_of(gear);
  t.seg[k] = seg;
  t.along[k] = along;
  double c = 0.0;
  if (k > 0) {
    const int g = t.gear[k - 1];
    c = t.cost[k - 1] + (s - t.s[k - 1]) * (g < 0 ? d.reverse_penalty : 1.0);
    if (k >= 2 && t.gear[k - 2] != g) c += d.gear_change_penalty;
  }
  t.cost[k] = c;
}

}  // namespace

Status fill_pose_table(const SegmentPath& path, const PoseSmoothDef& d, PoseTable& t) {
  if (path.length() / d.pose_step > static_cast<double>(kMaxPoses))
    return fail(StatusCode::too_large, "pose smoother: the path would give more than 1e6 poses at pose_step " +
                                           std::to_string(d.pose_step));
  const auto segs = path.segments();
  double count = 1.0;  // sample()'s limit on the poses, as it counts them
  for (const Segment& seg : segs) count += std::ceil(seg.length / d.pose_step);
  if (Status st = check_sample_count(count, d.pose_step); !st) return st.error();
  t.path = &path;
  // The poses a segment gives: its end, and the points between (as sample() spaces them).
  const auto inner = [&](const Segment& seg) { return std::max(1, static_cast<int>(std::ceil(seg.length / d.pose_step))); };
  size_t n = 1;
  for (const Segment& seg : segs) n += static_cast<size_t>(inner(seg));
  t.s.resize(n);
  t.gear.resize(n);
  t.seg.resize(n);
  t.along.resize(n);
  t.cost.resize(n);
  set_pose(t, 0, 0.0, segs.empty() ? Gear::forward : segs.front().gear, 0, 0.0, d);
  size_t k = 1;
  double offset = 0.0;  // summed as SegmentPath sums its offsets
  for (size_t i = 0; i < segs.size(); ++i) {
    const Segment& seg = segs[i];
    const int parts = inner(seg);
    for (int p = 1; p < parts; ++p) {
      const double along = seg.length * (static_cast<double>(p) / parts);
      set_pose(t, k++, offset + along, seg.gear, static_cast<uint32_t>(i), along, d);
    }
    const bool last = i + 1 == segs.size();
    offset += seg.length;
    set_pose(t, k++, offset, last ? seg.gear : segs[i + 1].gear, static_cast<uint32_t>(i), -1.0, d);
  }
  t.gear.back() = 0;
  t.run_ahead.resize(n);
  t.run_ahead.back() = 0.0;
  for (size_t q = n - 1; q-- > 0;) {
    const bool same = q + 2 < n && t.gear[q + 1] == t.gear[q];
    t.run_ahead[q] = (t.s[q + 1] - t.s[q]) + (same ? t.run_ahead[q + 1] : 0.0);
  }
  t.known.resize(n);
  t.is_known.assign(n, 0);
  return ok_status();
}

}  // namespace pathlab::detail
