// Avoidance: ORCA lines (the neighbours come from crowd_neighbors.cpp) for units, walls and moving
// obstacles (van den Berg, Guy, Lin, Manocha 2011), and for units that cannot sidestep, the choice
// among the motions they can reach within the reaction time.

#include <algorithm>
#include <cmath>
#include <limits>

#include "crowd/crowd_impl.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

constexpr double kFollowOrcaSpeed = 0.2;  ///< ORCA's velocity counts above this fraction of the top speed.
constexpr double kFollowOrcaCos = 0.7;    ///< ... and when it turns more than about 45 degrees from the route.
constexpr double kStandSpeed = 0.05;      ///< ORCA's velocity slower than this asks the unit to stand. [Units: cells/s]

/// The angle in [-pi, pi] (a remainder, not a loop: a start heading of 1e300 must not hang).
double wrap_angle(double a) { return std::remainder(a, 2.0 * kPi); }

Vec2 dir_of(double heading) { return crowd::heading_dir(heading); }

}  // namespace

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
    if (!may_have_wall_edge(true, e, x0, x1)) continue;  // most lines near a unit have no wall
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
    if (!may_have_wall_edge(false, e, y0, y1)) continue;
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
  // The neighbours' gaps as find_neighbors() just kept them in s.found (the very values
  // constrains() would compute again), their top speeds and tracking from the arrays: reading
  // them from each neighbour's entry of agents_ missed the cache once per neighbour.
  const double reach_self = top_speed_[self] * def_.time_horizon;
  for (const auto& [gap, j] : s.found) {
    const size_t k = static_cast<size_t>(j);
    if (!(gap <= reach_self + top_speed_[k] * def_.time_horizon)) continue;  // as constrains()
    // A vehicle tracking its route does not sidestep (crowd_track.cpp): a person takes the
    // whole of avoiding it, not half.
    const double share = a.holonomic && tracking_[k] ? 1.0 : 0.5;
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
  // Held against a wall: a move into it slides along it (move(), wall_slide), so the walls
  // judge the slid velocity, its part into the wall dropped (crowd_clearance.cpp).
  const Vec2 slide_n = slide_normal(a);
  const bool sliding = glm::dot(slide_n, slide_n) > 0.5;
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
      const Vec2 v_slid = sliding ? v_mid - slide_n * std::min(0.0, glm::dot(v_mid, slide_n)) : v_mid;
      for (size_t k = 0; k < lines.size(); ++k) {
        const double viol = crowd::violation(lines[k], static_cast<int>(k) < scratch.wall_lines ? v_slid : v_mid);
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
