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

/// Appends pose `k`'s distance, gear and cost to the table (see pose_table()).
void add_pose(PoseTable& t, double s, Gear gear, uint32_t seg, double along, const PoseSmoothDef& d) {
  const size_t k = t.s.size();
  t.s.push_back(s);
  t.gear.push_back(gear_of(gear));
  t.seg.push_back(seg);
  t.along.push_back(along);
  double c = 0.0;
  if (k > 0) {
    const int g = t.gear[k - 1];
    c = t.cost[k - 1] + (s - t.s[k - 1]) * (g < 0 ? d.reverse_penalty : 1.0);
    if (k >= 2 && t.gear[k - 2] != g) c += d.gear_change_penalty;
  }
  t.cost.push_back(c);
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
  for (auto* v : {&t.s, &t.cost, &t.length, &t.run_ahead, &t.along}) v->clear();
  t.gear.clear();
  t.seg.clear();
  const auto room = static_cast<size_t>(count);
  t.s.reserve(room);
  t.gear.reserve(room);
  t.seg.reserve(room);
  t.along.reserve(room);
  t.cost.reserve(room);
  add_pose(t, 0.0, segs.empty() ? Gear::forward : segs.front().gear, 0, 0.0, d);
  double offset = 0.0;  // summed as SegmentPath sums its offsets
  for (size_t i = 0; i < segs.size(); ++i) {
    const Segment& seg = segs[i];
    const int n = std::max(1, static_cast<int>(std::ceil(seg.length / d.pose_step)));
    for (int k = 1; k < n; ++k) {
      const double along = seg.length * (static_cast<double>(k) / n);
      add_pose(t, offset + along, seg.gear, static_cast<uint32_t>(i), along, d);
    }
    const bool last = i + 1 == segs.size();
    offset += seg.length;
    add_pose(t, offset, last ? seg.gear : segs[i + 1].gear, static_cast<uint32_t>(i), -1.0, d);
  }
  const size_t n = t.s.size();
  t.gear.back() = 0;
  t.run_ahead.assign(n, 0.0);
  for (size_t k = n - 1; k-- > 0;) {
    const bool same = k + 2 < n && t.gear[k + 1] == t.gear[k];
    t.run_ahead[k] = (t.s[k + 1] - t.s[k]) + (same ? t.run_ahead[k + 1] : 0.0);
  }
  t.length = t.s;
  t.known.resize(n);
  t.is_known.assign(n, 0);
  return ok_status();
}

}  // namespace pathlab::detail
