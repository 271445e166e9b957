#pragma once
// The heading part of segment_state() (segment_path.cpp), which computes its headings with this:
// callers that need only the heading (the vehicle smoother's pose table, at every segment end)
// get the same bits without the position's sine and cosine. Not installed.

#include "pathlab/segment_path.hpp"

namespace pathlab::detail {

/// The heading of segment_state(seg, s), for s already clamped to [0, seg.length]. [Units: radians]
inline double segment_heading_at(const Segment& seg, double s) {
  if (seg.kind == SegmentKind::line) return seg.heading;
  if (seg.kind == SegmentKind::clothoid) {
    const double g = seg.gear == Gear::reverse ? -1.0 : 1.0;
    const double turn = s * (seg.curvature + 0.5 * seg.sharpness * s);
    return seg.heading + g * turn;
  }
  // An arc: the heading turns by the same angle as the point around the centre.
  const double turned = (seg.sweep < 0.0 ? -1.0 : 1.0) * s / seg.radius;
  return seg.heading + turned;
}

}  // namespace pathlab::detail
