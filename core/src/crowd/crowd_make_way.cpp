// Making way for moving obstacles: units ahead of a truck on its route step off the route (to
// the side they are on, or the other side when a wall is there, or farther along it), not only
// out of its box; ORCA alone keeps them out of the box and leaves them standing on the route,
// so a truck that never drives into a unit waited behind units settled on its route for good
// (eight people pinned against a building from t = 48 s past t = 100 s).
//
// Units held by settled ones get the same: a unit held in one place a while with units that
// have settled on their spots on its route ahead has them step aside the same way until it is
// on its way. A car whose goal lay behind its own group's settled block (an arrived car and a
// tank 3-4 cells ahead of it, 20 cells from its goal) rocked there from t = 60 s to the end of
// the run at 120 s; ORCA has settled units make room for a unit that drives into them, not for
// one that waits in front of them, and the detour search (their cells dearer) found no way round.

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

constexpr double kAheadTime = 3.0;      ///< Units on the route this far ahead (in driving time) make way. [Units: s]
constexpr double kAheadMin = 4.0;       ///< ... and at least this far beyond the front. [Units: cells]
constexpr double kSideMargin = 0.3;     ///< Clearance beside the box kept free. [Units: cells]
constexpr double kAsideExtra = 0.3;     ///< The aside point lies this much beyond the corridor. [Units: cells]
constexpr double kAlongStep = 1.0;      ///< Spacing of aside points tried farther along the route. [Units: cells]
constexpr int kAlongTries = 10;
constexpr double kMakeWayHold = 0.1;    ///< A unit keeps making way this long after the last check. [Units: s]
constexpr double kHeldFor = 3.0;  ///< A unit held in one place this long has settled units in its way step aside. [Units: s]
constexpr double kClearFor = 3.0; ///< ... and goes on asking this long after it last found one in its way. [Units: s]
constexpr size_t kFewSettled = 64; ///< Up to this many settled units, a held unit checks them all rather than the buckets.

struct Corridor {
  std::vector<Vec2> pts;  ///< The box's rear, then the route ahead of it.
  double half_width = 0.0;
};

/// The route ahead of the truck from its rear to `ahead` beyond its front (laps when it loops).
Corridor corridor_of(const crowd::Mover& m) {
  Corridor c;
  const Vec2 dir(crowd::heading_dir(m.st.pose.heading));
  c.half_width = m.def.half_extents.y + kSideMargin;
  c.pts.push_back(m.st.pose.pos - dir * m.def.half_extents.x);
  c.pts.push_back(m.st.pose.pos);
  double left = m.def.half_extents.x + std::max(kAheadMin, m.def.speed * kAheadTime);
  const auto& r = m.def.route;
  const size_t legs = m.def.loop ? r.size() : r.size() - 1;
  size_t leg = m.leg;
  for (size_t n = 0; n < 2 * r.size() + 2 && left > 0.0; ++n) {
    const Vec2 end = r[(leg + 1) % r.size()];
    const double len = glm::length(end - c.pts.back());
    if (len >= left) {
      c.pts.push_back(c.pts.back() + (end - c.pts.back()) * (left / len));
      break;
    }
    if (len > 1e-9) c.pts.push_back(end);
    left -= len;
    if (leg + 1 >= legs && !m.def.loop) break;
    leg = (leg + 1) % legs;
  }
  return c;
}

/// The route ahead of a unit (its centre, then its route from its next waypoint) `ahead` cells long.
Corridor route_ahead(const crowd::Agent& a, double ahead) {
  Corridor c;
  c.pts.push_back(a.st.pose.pos);
  const auto& r = a.st.route;
  double left = ahead;
  for (size_t k = static_cast<size_t>(std::max(a.st.next_waypoint, 0)); k < r.size() && left > 0.0; ++k) {
    const double len = glm::length(r[k] - c.pts.back());
    if (len >= left) {
      c.pts.push_back(c.pts.back() + (r[k] - c.pts.back()) * (left / len));
      break;
    }
    if (len > 1e-9) c.pts.push_back(r[k]);
    left -= len;
  }
  return c;
}

/// The closest point of the polyline to p: its segment index and the point.
size_t closest_on(const std::vector<Vec2>& pts, Vec2 p, Vec2& q) {
  size_t best = 0;
  double best_d = 1e300;
  for (size_t k = 0; k + 1 < pts.size(); ++k) {
    const Vec2 ab = pts[k + 1] - pts[k];
    const double s = std::clamp(glm::dot(p - pts[k], ab) / std::max(glm::dot(ab, ab), 1e-12), 0.0, 1.0);
    const Vec2 c = pts[k] + ab * s;
    const double d = glm::length(p - c);
    if (d < best_d) best_d = d, best = k, q = c;
  }
  return best;
}

}  // namespace

bool CrowdImpl::taken(const crowd::Agent& a, Vec2 p) const {
  // A place beside the route where a neighbour stands is no way out (a bear sent there stood
  // still 30 s, hemmed in, in front of the truck).
  for (int j : a.st.neighbors) {
    const crowd::Agent& o = agents_[static_cast<size_t>(j)];
    if (glm::length(o.st.pose.pos - p) < a.def.unit.radius + o.def.unit.radius) return true;
  }
  return false;
}

std::optional<Vec2> CrowdImpl::aside_point(const crowd::Agent& a, const std::vector<Vec2>& pts, double half_width) const {
  const Vec2 pos = a.st.pose.pos;
  const double r = a.def.unit.radius;
  Vec2 q;
  size_t k = closest_on(pts, pos, q);
  // The side it is on; on the line, the side it is heading to, else the right (y down).
  const Vec2 seg = glm::normalize(pts[k + 1] - pts[k]);
  const Vec2 right(-seg.y, seg.x);
  double side = glm::dot(pos - q, right);
  if (std::abs(side) < 0.05) side = glm::dot(a.route_dir, right);
  const double first = side < 0.0 ? -1.0 : 1.0;
  const double off = half_width + r + kAsideExtra;
  // Beside where it stands first, then farther along the route (away from the truck).
  for (int n = 0; n <= kAlongTries; ++n) {
    for (double s : {first, -first}) {
      const Vec2 nk(-seg.y * s, seg.x * s);
      const Vec2 p = q + nk * off;
      if (grid_.contains(p) && point_clear(grid_, p, r) && segment_clear(grid_, pos, p, r) && !taken(a, p)) return p;
    }
    // One step farther along the polyline.
    double step = kAlongStep;
    while (k + 1 < pts.size() && step > 0.0) {
      const double rest = glm::length(pts[k + 1] - q);
      if (rest > step) {
        q += (pts[k + 1] - q) * (step / rest);
        step = 0.0;
      } else {
        step -= rest;
        q = pts[k + 1];
        if (k + 2 < pts.size()) ++k;
        else break;
      }
    }
  }
  return std::nullopt;
}

void CrowdImpl::make_way_for_movers() {
  const double t = time();
  for (const crowd::Mover& m : movers_) {
    if (m.st.finished || t < m.def.start_time) continue;
    const Corridor c = corridor_of(m);
    if (c.pts.size() < 2) continue;
    for (crowd::Agent& a : agents_) {
      Vec2 q;
      const size_t k = closest_on(c.pts, a.st.pose.pos, q);
      const double r = a.def.unit.radius;
      if (glm::length(a.st.pose.pos - q) >= c.half_width + r) continue;
      // Behind the truck's rear is not in its way.
      if (k == 0 && glm::dot(a.st.pose.pos - c.pts[0], c.pts[1] - c.pts[0]) <= 0.0) continue;
      const std::optional<Vec2> p = aside_point(a, c.pts, c.half_width);
      Vec2 dir = p ? *p - a.st.pose.pos : c.pts.back() - c.pts[0];  // nowhere aside: on ahead of it
      const double len = glm::length(dir);
      if (len < 1e-9) continue;
      a.yield_dir = dir / len;
      a.yield_until = t + kMakeWayHold;
    }
  }
}

void CrowdImpl::make_way_for_held_units() {
  const double t = time();
  held_settled_.clear();
  for (size_t j = 0; j < agents_.size(); ++j)
    if (agents_[j].st.reached) held_settled_.push_back(static_cast<int>(j));
  if (held_settled_.empty()) return;  // most steps of a busy crowd: nothing to ask
  for (size_t i = 0; i < agents_.size(); ++i) {
    crowd::Agent& a = agents_[i];
    if (a.st.reached || a.st.waiting || a.heading_given_up || a.st.route.size() < 2) continue;
    if (t - a.lock_since < kHeldFor && t >= a.make_way_until) continue;
    if (clear_settled_ahead(static_cast<int>(i))) a.make_way_until = t + kClearFor;
  }
}

bool CrowdImpl::clear_settled_ahead(int id) {
  const crowd::Agent& a = agents_[static_cast<size_t>(id)];
  const double t = time();
  Corridor c = route_ahead(a, a.def.unit.radius + std::max(kAheadMin, a.def.unit.max_speed * kAheadTime));
  if (c.pts.size() < 2) return false;
  c.half_width = a.def.unit.radius + kSideMargin;
  bool found = false;
  // Each unit's way aside depends on its own state only, so the order they are met in does not matter.
  auto consider = [&](int j) {
    crowd::Agent& b = agents_[static_cast<size_t>(j)];
    if (j == id || !b.st.reached) return false;
    Vec2 q;
    const size_t k = closest_on(c.pts, b.st.pose.pos, q);
    if (glm::length(b.st.pose.pos - q) >= c.half_width + b.def.unit.radius) return false;
    if (k == 0 && glm::dot(b.st.pose.pos - c.pts[0], c.pts[1] - c.pts[0]) <= 0.0) return false;  // behind it
    const std::optional<Vec2> p = aside_point(b, c.pts, c.half_width);
    Vec2 dir = p ? *p - b.st.pose.pos : c.pts.back() - c.pts[0];
    const double len = glm::length(dir);
    if (len < 1e-9) return false;
    b.yield_dir = dir / len;
    b.yield_until = t + kMakeWayHold;
    found = true;
    return false;  // every settled unit in the way is asked, not only the first
  };
  if (held_settled_.size() <= kFewSettled) {
    for (int j : held_settled_) consider(j);
    return found;
  }
  // Many settled: the buckets round the corridor (positions as in pos_: none moved since rebuild_buckets).
  Vec2 lo = c.pts[0], hi = c.pts[0];
  for (Vec2 p : c.pts) lo = glm::min(lo, p), hi = glm::max(hi, p);
  const double reach = c.half_width + max_radius_;
  any_in_buckets(lo - Vec2(reach), hi + Vec2(reach), consider);
  return found;
}

}  // namespace pathlab
