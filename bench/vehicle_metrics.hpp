#pragma once
// The figures the vehicle-path benchmarks report (bench_vehicle_paths, bench_vehicle_replan):
// steering changes per 100 cells, turning against what the Euclidean shortest path needs, cusps,
// and thread CPU time (the machine may be shared). Header-only, bench/ only.

#include <algorithm>
#include <cmath>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "thread_clock.hpp"

namespace pathlab::bench {

struct Measure {
  bool found = false;
  double length = 0.0;           ///< [Units: cells]
  double changes_per_100 = 0.0;  ///< left <-> right sign changes of the curvature per 100 cells
  double turning = 0.0;          ///< total |heading change| along the samples [Units: radians]
  double ms = 0.0;               ///< [Units: ms]
  int cusps = 0;
};

/// The smoothness figures of a heading plan (sampled curve and its segments).
inline Measure measure(const plan::PlanResult& r, double ms) {
  Measure m;
  m.found = r.found && r.error.empty();
  m.ms = ms;
  if (!m.found) return m;
  m.length = r.length;
  int sign = 0, changes = 0;
  for (double k : r.curvature) {
    const int s = k > 1e-9 ? 1 : (k < -1e-9 ? -1 : 0);
    if (s != 0 && sign != 0 && s != sign) ++changes;
    if (s != 0) sign = s;
  }
  for (size_t i = 1; i < r.headings.size(); ++i) m.turning += std::abs(wrap_angle(r.headings[i] - r.headings[i - 1]));
  m.changes_per_100 = r.length > 1e-9 ? 100.0 * changes / r.length : 0.0;
  if (r.segments) {
    const auto segs = r.segments->segments();
    for (size_t i = 1; i < segs.size(); ++i) m.cusps += segs[i].gear != segs[i - 1].gear;
  }
  return m;
}

/// Turning the Euclidean shortest path needs: the navmesh funnel path's corners for
/// `agent_radius` plus the start and goal heading changes. -1 when the funnel finds nothing.
/// [Units: radians]
inline double needed_turning(plan::PlanService& service, const Grid& g, const Pose& start, const Pose& goal,
                             double agent_radius) {
  plan::PlanRequest req;
  req.start = start;
  req.goal = goal;
  req.settings.planner = "navmesh";
  req.settings.smoother = "funnel";
  req.settings.agent_radius = agent_radius;
  req.analyse = false;
  req.keep_internals = false;
  const plan::PlanResult r = service.plan(g, req);
  if (!r.found || r.points.size() < 2) return -1.0;
  std::vector<Vec2> p;
  for (Vec2 v : r.points)
    if (p.empty() || glm::length(v - p.back()) > 1e-9) p.push_back(v);
  if (p.size() < 2) return -1.0;
  double prev = start.heading, need = 0.0;
  for (size_t i = 1; i < p.size(); ++i) {
    const double dir = std::atan2(p[i].y - p[i - 1].y, p[i].x - p[i - 1].x);
    need += std::abs(wrap_angle(dir - prev));
    prev = dir;
  }
  return need + std::abs(wrap_angle(goal.heading - prev));
}

/// The q-quantile of `v` (0.5: the median, interpolated between the middle two), NaN when empty.
inline double quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(at)), hi = static_cast<size_t>(std::ceil(at));
  return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

inline double median(const std::vector<double>& v) { return quantile(v, 0.5); }

}  // namespace pathlab::bench
