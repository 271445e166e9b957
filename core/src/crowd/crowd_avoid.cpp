// Avoidance: neighbours from grid buckets, ORCA lines for units, walls and moving obstacles
// (van den Berg, Guy, Lin, Manocha 2011), and for units that cannot sidestep, the choice among
// the motions they can reach within the reaction time.

#include <algorithm>
#include <cmath>
#include <limits>

#include "crowd/crowd_impl.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

using crowd::kBucketSide;
constexpr double kFollowOrcaSpeed = 0.2;  ///< ORCA's velocity counts above this fraction of the top speed.
constexpr double kFollowOrcaCos = 0.7;    ///< ... and when it turns more than about 45 degrees from the route.
constexpr double kStandSpeed = 0.05;      ///< ORCA's velocity slower than this asks the unit to stand. [Units: cells/s]

/// The angle in [-pi, pi] (a remainder, not a loop: a start heading of 1e300 must not hang).
double wrap_angle(double a) { return std::remainder(a, 2.0 * kPi); }

Vec2 dir_of(double heading) { return crowd::heading_dir(heading); }

}  // namespace

void CrowdImpl::rebuild_buckets() {
  const int w = grid_.width() / kBucketSide + 1, h = grid_.height() / kBucketSide + 1;
  const size_t n = agents_.size();
  if (w != bucket_w_ || h != bucket_h_ || n < agent_bucket_.size()) {  // the first step
    bucket_w_ = w;
    bucket_h_ = h;
    buckets_.assign(static_cast<size_t>(w) * static_cast<size_t>(h), {});
    agent_bucket_.clear();
  }
  auto bucket_of = [&](Vec2 p) {
    const int bx = std::clamp(static_cast<int>(p.x) / kBucketSide, 0, bucket_w_ - 1);
    const int by = std::clamp(static_cast<int>(p.y) / kBucketSide, 0, bucket_h_ - 1);
    return by * bucket_w_ + bx;
  };
  pos_.resize(n);
  vel_.resize(n);
  radius_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const crowd::Agent& a = agents_[i];
    pos_[i] = a.st.pose.pos;
    vel_[i] = a.st.velocity;
    radius_[i] = a.def.unit.radius;
    const int b = bucket_of(pos_[i]);
    if (i == agent_bucket_.size()) {  // added since the last step
      agent_bucket_.push_back(b);
      buckets_[static_cast<size_t>(b)].push_back(static_cast<int>(i));
      continue;
    }
    const int old = agent_bucket_[i];
    if (b == old) continue;
    std::vector<int>& from = buckets_[static_cast<size_t>(old)];
    *std::find(from.begin(), from.end(), static_cast<int>(i)) = from.back();
    from.pop_back();
    buckets_[static_cast<size_t>(b)].push_back(static_cast<int>(i));
    agent_bucket_[i] = b;
  }
}

void CrowdImpl::find_neighbors(int id, crowd::Scratch& s) {
  const size_t self = static_cast<size_t>(id);
  const Vec2 p = pos_[self];
  const double r = radius_[self];
  const double range = def_.neighbor_distance + r + max_radius_;
  // The nearest `keep` by (gap, id), a total order, kept sorted as the candidates come: the
  // result does not depend on the buckets' order. Sorting every candidate in range (partial_sort
  // of 30-130 in a dense crowd) was a third of the step at 10,000 units; a candidate farther
  // than the current worst kept one is now dropped on its squared distance.
  std::vector<std::pair<double, int>>& best = s.found;
  const size_t keep = static_cast<size_t>(def_.max_neighbors);
  best.clear();
  // The farthest a candidate may be and still enter, squared: widened a little so rounding
  // never drops one the exact test below would keep.
  auto reach2 = [&](double other_radius) {
    const double worst = best.size() < keep ? def_.neighbor_distance : best.back().first;
    const double reach = worst + r + other_radius;
    return reach > 0.0 ? reach * reach * (1.0 + 1e-9) + 1e-12 : std::numeric_limits<double>::infinity();
  };
  // The unit's own bucket first, and no bucket farther than the worst kept unit could still
  // be: in a dense crowd the 10 nearest stand within a cell or two, and scanning every bucket
  // of the whole range was the largest single part of the parallel phase in a profile at
  // 10,000 units. Exact: a bucket is left only when all of its units would be dropped one by one.
  std::vector<std::pair<double, int>>& order = s.bucket_order;
  const size_t nb = buckets_by_distance(p, range, order);
  for (size_t b = 0; b < nb; ++b) {
    if (order[b].first > reach2(max_radius_)) continue;
    for (int j : buckets_[static_cast<size_t>(order[b].second)]) {
      if (j == id) continue;
      const size_t k = static_cast<size_t>(j);
      const Vec2 d = pos_[k] - p;
      if (glm::dot(d, d) > reach2(radius_[k])) continue;  // farther than the worst gap that could still enter
      const double gap = glm::length(pos_[k] - p) - r - radius_[k];
      if (!(gap < def_.neighbor_distance)) continue;
      const std::pair<double, int> c(gap, j);
      if (best.size() == keep) {
        if (!(c < best.back())) continue;
        best.pop_back();
      }
      best.insert(std::upper_bound(best.begin(), best.end(), c), c);
    }
  }
  std::vector<int>& out = agents_[self].st.neighbors;
  out.clear();
  for (const auto& [gap, j] : best) out.push_back(j);
}

size_t CrowdImpl::buckets_by_distance(Vec2 p, double range, std::vector<std::pair<double, int>>& order) const {
  const auto [bx0, by0, bx1, by1] = bucket_box(p - Vec2(range), p + Vec2(range));
  // p's own bucket first, then the rest (not sorted: sorting the 9-16 buckets cost as much as
  // the units it spared). The own bucket's units bring the worst kept gap down at once.
  const int cx = std::clamp(static_cast<int>(std::floor(p.x / kBucketSide)), bx0, bx1);
  const int cy = std::clamp(static_cast<int>(std::floor(p.y / kBucketSide)), by0, by1);
  auto add = [&](int bx, int by) {
    // The squared distance from p to the bucket's square (0 inside).
    const double x0 = bx * kBucketSide, y0 = by * kBucketSide;
    const double dx = std::max({x0 - p.x, 0.0, p.x - (x0 + kBucketSide)});
    const double dy = std::max({y0 - p.y, 0.0, p.y - (y0 + kBucketSide)});
    order.emplace_back(dx * dx + dy * dy, by * bucket_w_ + bx);
  };
  order.clear();
  add(cx, cy);
  for (int by = by0; by <= by1; ++by) {
    for (int bx = bx0; bx <= bx1; ++bx) {
      if (bx != cx || by != cy) add(bx, by);
    }
  }
  return order.size();
}

void CrowdImpl::add_wall_line(const crowd::Agent& a, Vec2 q, double range, bool corner,
                              std::vector<crowd::OrcaLine>& lines) const {
  const Vec2 d = q - a.st.pose.pos;
  const double dist = glm::length(d);
  if (dist > range || dist < 1e-9) return;
  if (corner && dist > a.def.unit.radius) {
    // The end of a wall run is a point: its velocity obstacle is the cone of the disc around it
    // (a static neighbour of radius 0, full responsibility). The half-plane through the point
    // would also forbid sliding past it: a car 0.003 cells off the wall at the mouth of a
    // one-cell corridor could not drive in.
    lines.push_back(crowd::agent_line(a.st.pose.pos, a.st.velocity, q, Vec2(0.0), a.def.unit.radius,
                                       def_.obstacle_horizon, def_.dt, 1.0));
    return;
  }
  lines.push_back(crowd::half_plane(d / dist, (dist - a.def.unit.radius) / def_.obstacle_horizon));
}

void CrowdImpl::add_wall_lines(const crowd::Agent& a, double range, std::vector<crowd::OrcaLine>& lines) const {
  // The walls near the unit as line obstacles with full responsibility: every run of cell
  // edges between a blocked cell (the map's outside too) and a free one, facing the unit, is
  // one segment; its constraint goes through the segment's point closest to the unit (exact
  // for a convex obstacle, and a long wall does not slow a unit moving along it).
  const Vec2 p = a.st.pose.pos;
  const int x0 = static_cast<int>(std::floor(p.x - range)), x1 = static_cast<int>(std::floor(p.x + range));
  const int y0 = static_cast<int>(std::floor(p.y - range)), y1 = static_cast<int>(std::floor(p.y + range));
  // Horizontal edges on the line y = e, between cells (x, e-1) and (x, e).
  for (int e = y0; e <= y1 + 1; ++e) {
    const bool above_free = p.y <= e;  // the unit sees edges whose free side is its side
    int run = -1;
    for (int x = x0; x <= x1 + 1; ++x) {
      const bool edge = x <= x1 && (above_free ? grid_.is_free(x, e - 1) && !grid_.is_free(x, e)
                                               : !grid_.is_free(x, e - 1) && grid_.is_free(x, e));
      if (edge && run < 0) run = x;
      if (!edge && run >= 0) {
        add_wall_line(a, Vec2(std::clamp(p.x, double(run), double(x)), double(e)), range, p.x < run || p.x > x, lines);
        run = -1;
      }
    }
  }
  // Vertical edges on the line x = e, between cells (e-1, y) and (e, y).
  for (int e = x0; e <= x1 + 1; ++e) {
    const bool left_free = p.x <= e;
    int run = -1;
    for (int y = y0; y <= y1 + 1; ++y) {
      const bool edge = y <= y1 && (left_free ? grid_.is_free(e - 1, y) && !grid_.is_free(e, y)
                                              : !grid_.is_free(e - 1, y) && grid_.is_free(e, y));
      if (edge && run < 0) run = y;
      if (!edge && run >= 0) {
        add_wall_line(a, Vec2(double(e), std::clamp(p.y, double(run), double(y))), range, p.y < run || p.y > y, lines);
        run = -1;
      }
    }
  }
}

void CrowdImpl::add_mover_lines(const crowd::Agent& a, std::vector<crowd::OrcaLine>& lines) const {
  const Vec2 p = a.st.pose.pos;
  const double r = a.def.unit.radius;
  for (const crowd::Mover& m : movers_) {
    Vec2 q;
    const double dist = crowd::box_distance(m.st.pose, m.def.half_extents, p, &q);
    const double reach = r + (a.def.unit.max_speed + m.def.speed) * def_.time_horizon;
    if (dist > reach || dist < 1e-9) continue;
    const Vec2 n = (q - p) / dist;
    lines.push_back(crowd::half_plane(n, (dist - r) / def_.time_horizon + glm::dot(m.velocity, n)));
  }
}

void CrowdImpl::decide(int id, crowd::Scratch& s) {
  const size_t self = static_cast<size_t>(id);
  crowd::Agent& a = agents_[self];
  const Vec2 pref = preferred_velocity(id);
  a.st.preferred_velocity = pref;
  const UnitDef& u = a.def.unit;
  const double vmax = u.max_speed;
  std::vector<crowd::OrcaLine>& lines = s.lines;
  lines.clear();
  add_wall_lines(a, a.def.unit.radius + std::min(vmax * def_.obstacle_horizon, 3.0) + 0.5, lines);
  s.wall_lines = static_cast<int>(lines.size());
  add_mover_lines(a, lines);
  const int hard = static_cast<int>(lines.size());
  s.hard_lines = hard;
  for (int j : a.st.neighbors) {
    if (!constrains(id, j)) continue;
    const size_t k = static_cast<size_t>(j);
    // A vehicle tracking its route does not sidestep (crowd_track.cpp): a person takes the
    // whole of avoiding it, not half.
    const double share = a.holonomic && agents_[k].tracking ? 1.0 : 0.5;
    lines.push_back(crowd::agent_line(pos_[self], vel_[self], pos_[k], vel_[k], radius_[self] + radius_[k],
                                      def_.time_horizon, def_.dt, share));
  }
  a.near_units = static_cast<int>(lines.size()) > hard;
  const Vec2 v = crowd::solve_velocity(lines, hard, vmax, pref);
  a.st.avoidance_velocity = v;
  if (a.holonomic) {
    a.new_velocity = v;
  } else {
    choose_heading_motion(a, v, s);
  }
}

bool CrowdImpl::constrains(int a, int b) const {
  const size_t i = static_cast<size_t>(a), j = static_cast<size_t>(b);
  const double gap = glm::length(pos_[j] - pos_[i]) - radius_[i] - radius_[j];
  return gap <= agents_[i].def.unit.max_speed * def_.time_horizon + agents_[j].def.unit.max_speed * def_.time_horizon;
}

void CrowdImpl::choose_heading_motion(crowd::Agent& a, Vec2 v_orca, const crowd::Scratch& scratch) const {
  // Units that cannot sidestep: sample (speed, turn rate) pairs reachable within the reaction
  // time and keep the one whose velocity at the horizon is closest to ORCA's choice, facing
  // where ORCA wants to go, and breaking the fewest ORCA constraints on the way.
  const UnitDef& u = a.def.unit;
  const double T = def_.reaction_time;
  const double s0 = a.st.speed;
  const double h0 = a.st.pose.heading;
  const double lo = std::max(u.can_reverse ? -u.max_reverse_speed : 0.0, s0 - u.braking * T);
  const double hi = std::min(u.max_speed, s0 + u.acceleration * T);
  const double want = glm::length(v_orca);
  // The nose should point along the route (backwards when the route is close behind and the
  // unit may reverse): this is what makes a backing-up unit steer into line.
  const bool has_route = glm::dot(a.route_dir, a.route_dir) > 0.5;
  // Where ORCA sends the unit well off its route's direction (round a wall corner, out of
  // another unit's way), the nose follows ORCA: a bear that kept its nose on a route point
  // behind a corner stood still for two minutes, every move along its nose blocked.
  const bool follow_orca = !has_route || (want > kFollowOrcaSpeed * u.max_speed && time() >= a.maneuver_until &&
                                          glm::dot(v_orca / want, a.route_dir) < kFollowOrcaCos);
  double nose_goal = follow_orca ? dmath::atan2(v_orca.y, v_orca.x) : dmath::atan2(a.route_dir.y, a.route_dir.x);
  const bool back_to_it = u.can_reverse && has_route && dmath::cos(wrap_angle(nose_goal - h0)) < -0.5 &&
                          glm::length(a.st.route[static_cast<size_t>(a.st.next_waypoint)] - a.st.pose.pos) < 3.0;
  if (back_to_it) nose_goal += kPi;
  const Vec2 nose_dir = dir_of(nose_goal);
  const double align_weight = u.max_speed * std::max(want, glm::length(a.st.preferred_velocity));
  const int hard = scratch.hard_lines;
  const std::vector<crowd::OrcaLine>& lines = scratch.lines;
  constexpr int kSpeeds = 9, kTurns = 11;
  // Evenly spaced speeds, plus exactly zero when it lies between them and ORCA asks the unit to
  // stand: one that may reverse had only -0.25 and +0.19 cells/s to pick from, and crept at
  // 0.04-0.05 cells/s for good, every retry of its route a new question from a new place.
  // (Offered always, zero won against every move of a car wedged in clutter: it stood for 2
  // minutes where a creep had worked it free.)
  double speeds[kSpeeds + 1];
  int n_speeds = 0;
  for (int si = 0; si < kSpeeds; ++si) speeds[n_speeds++] = lo + (hi - lo) * si / (kSpeeds - 1);
  if (lo < 0.0 && hi > 0.0 && want < kStandSpeed) speeds[n_speeds++] = 0.0;
  double best = std::numeric_limits<double>::infinity();
  for (int si = 0; si < n_speeds; ++si) {
    const double s = speeds[si];
    const double wmax = max_heading_rate(u, 0.5 * (s + s0));
    // Headings at the horizon (and half way) are evenly spaced: rotate instead of calling
    // sin and cos per candidate.
    const double step = 2.0 * wmax * T / (kTurns - 1);
    const Vec2 rot_end(crowd::heading_dir(step)), rot_mid(crowd::heading_dir(0.5 * step));
    Vec2 dir_end = dir_of(h0 - wmax * T), dir_mid = dir_of(h0 - 0.5 * wmax * T);
    for (int ti = 0; ti < kTurns; ++ti) {
      const double w = wmax * (2.0 * ti / (kTurns - 1) - 1.0);
      const Vec2 nose_end = dir_end;
      const Vec2 v_end = s * dir_end, v_mid = s * dir_mid;
      dir_end = Vec2(dir_end.x * rot_end.x - dir_end.y * rot_end.y, dir_end.x * rot_end.y + dir_end.y * rot_end.x);
      dir_mid = Vec2(dir_mid.x * rot_mid.x - dir_mid.y * rot_mid.y, dir_mid.x * rot_mid.y + dir_mid.y * rot_mid.x);
      double cost = glm::dot(v_end - v_orca, v_end - v_orca);
      cost += align_weight * (1.0 - glm::dot(nose_end, nose_dir));
      for (size_t k = 0; k < lines.size(); ++k) {
        const double viol = crowd::violation(lines[k], v_mid);
        if (viol > 0.0) cost += (static_cast<int>(k) < std::max(hard, 0) ? 100.0 : 10.0) * viol;
      }
      if (cost < best) {
        best = cost;
        a.target_speed = s;
        a.target_turn = w;
      }
    }
  }
}

}  // namespace pathlab
