// CC-Dubins and CC-Reeds-Shepp (Fraichard & Scheuer, "From Reeds and Shepp's to
// continuous-curvature paths", IEEE Transactions on Robotics 2004): candidates built from
// tangents between CC circles, the shortest one turned into segments.

#include "pathlab/cc_curves.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "curves/cc_internal.hpp"
#include "curves/curve_internal.hpp"
#include "pathlab/curve_input.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Vec2 rotate(double angle, Vec2 v) {
  const auto [s, c] = dmath::sincos(angle);
  return Vec2(c * v.x - s * v.y, s * v.x + c * v.y);
}

double angle_of(Vec2 v) { return dmath::atan2(v.y, v.x); }

/// The problem in a frame centred on the start: poses, the circle, and the centres of the
/// CC circles of every (steer, gear) at the start (turns leaving it) and at the goal (turns
/// arriving at it). Index: (steer > 0 ? 0 : 1) * 2 + (gear > 0 ? 0 : 1).
struct Setup {
  const CcCircle* cc = nullptr;
  double h0 = 0.0, hg = 0.0;  // headings wrapped to (-pi, pi]
  Vec2 goal{0.0, 0.0};
  std::array<Vec2, 4> start_c{}, goal_c{};
  bool reverse = false;
};

int circle_index(int steer, int gear) { return (steer > 0 ? 0 : 2) + (gear > 0 ? 0 : 1); }

Setup make_setup(const CcCircle& cc, const Pose& from, const Pose& to, bool reverse) {
  Setup su;
  su.cc = &cc;
  su.reverse = reverse;
  su.h0 = wrap_angle(from.heading);
  su.hg = wrap_angle(to.heading);
  su.goal = to.pos - from.pos;
  for (const int steer : {1, -1})
    for (const int gear : {1, -1}) {
      const int i = circle_index(steer, gear);
      // A turn leaving a pose has its centre at (g xo, s yo) in the pose's frame; one arriving
      // at a pose is the reversed drive of a turn leaving it: (-g xo, s yo).
      su.start_c[static_cast<size_t>(i)] = rotate(su.h0, Vec2(gear * cc.xo, steer * cc.yo));
      su.goal_c[static_cast<size_t>(i)] = su.goal + rotate(su.hg, Vec2(-gear * cc.xo, steer * cc.yo));
    }
  return su;
}

double turn_length(const CcCircle& cc, double delta) {
  CcTurnShape shape;
  return cc_turn_shape(cc, delta, shape) ? shape.length : kInf;
}

void keep(CcCandidate& best, const CcCandidate& c) {
  if (c.length < best.length) best = c;
}

// One CC turn from the start straight onto the goal: both poses on the same CC circle.
void try_t(const Setup& su, int steer, int gear, CcCandidate& best) {
  const size_t i = static_cast<size_t>(circle_index(steer, gear));
  const double tol = 1e-10 * (su.cc->r_omega + glm::length(su.goal));
  if (glm::length(su.goal_c[i] - su.start_c[i]) > tol) return;
  const double delta = mod2pi(steer * gear * (su.hg - su.h0));
  CcCandidate c;
  c.parts[0] = {steer, gear, delta};
  c.count = 1;
  c.length = turn_length(*su.cc, delta);
  keep(best, c);
}

// The goal straight ahead or behind on the start's heading line.
void try_s(const Setup& su, CcCandidate& best) {
  if (std::abs(wrap_angle(su.hg - su.h0)) > kCurveAngleSnap) return;
  const Vec2 dir = angle_dir(su.h0);
  const double along = glm::dot(su.goal, dir);
  const double side = su.goal.x * dir.y - su.goal.y * dir.x;
  if (std::abs(side) > 1e-12 * (su.cc->r_omega + std::abs(along))) return;
  if (along < 0.0 && !su.reverse) return;
  CcCandidate c;
  c.parts[0] = {0, along < 0.0 ? -1 : 1, std::abs(along)};
  c.count = 1;
  c.length = std::abs(along);
  keep(best, c);
}

// Turn, line, turn: c2 - c1 = R(theta) ((g1 + g2) xo + gs L, (s2 - s1) yo).
void try_tst(const Setup& su, const std::array<int, 5>& w, CcCandidate& best) {
  const auto [s1, g1, gs, s2, g2] = w;
  const CcCircle& cc = *su.cc;
  const Vec2 v = su.goal_c[static_cast<size_t>(circle_index(s2, g2))] - su.start_c[static_cast<size_t>(circle_index(s1, g1))];
  const double a = (g1 + g2) * cc.xo, b = (s2 - s1) * cc.yo;
  const double d2 = glm::dot(v, v) - b * b;
  if (d2 < 0.0) return;
  const double root = std::sqrt(d2);
  for (const double m : {root, -root}) {
    const double len = gs * (m - a);
    if (len < -1e-12 * cc.r_omega) continue;
    const double theta = angle_of(v) - dmath::atan2(b, m);
    CcCandidate c;
    c.parts[0] = {s1, g1, mod2pi(s1 * g1 * (theta - su.h0))};
    c.parts[1] = {0, gs, std::max(len, 0.0)};
    c.parts[2] = {s2, g2, mod2pi(s2 * g2 * (su.hg - theta))};
    c.count = 3;
    const double l1 = turn_length(cc, c.parts[0].amount);
    if (!(l1 + c.parts[1].amount < best.length)) continue;
    c.length = l1 + c.parts[1].amount + turn_length(cc, c.parts[2].amount);
    keep(best, c);
  }
}

// Turn, opposite turn, turn: the middle circle c3 is |(g1 + g2) xo, 2 yo| from c1 and
// |(g2 + g3) xo, 2 yo| from c2 (2 R_Omega without a cusp, 2 yo with one).
void try_ttt(const Setup& su, int s, const std::array<int, 3>& g, CcCandidate& best) {
  const CcCircle& cc = *su.cc;
  const Vec2 c1 = su.start_c[static_cast<size_t>(circle_index(s, g[0]))];
  const Vec2 c2 = su.goal_c[static_cast<size_t>(circle_index(s, g[2]))];
  const Vec2 j1((g[0] + g[1]) * cc.xo, -2.0 * s * cc.yo), j2((g[1] + g[2]) * cc.xo, 2.0 * s * cc.yo);
  const double r13 = glm::length(j1), r32 = glm::length(j2);
  const Vec2 v = c2 - c1;
  const double dist = glm::length(v);
  if (dist < 1e-12 * cc.r_omega || dist > r13 + r32 || dist < std::abs(r13 - r32)) return;
  const Vec2 u = v / dist, perp(-u.y, u.x);
  const double along = (dist * dist + r13 * r13 - r32 * r32) / (2.0 * dist);
  const double h = std::sqrt(std::max(r13 * r13 - along * along, 0.0));
  for (const double side : {1.0, -1.0}) {
    const Vec2 c3 = c1 + along * u + side * h * perp;
    const double t1 = angle_of(c3 - c1) - angle_of(j1);
    const double t2 = angle_of(c2 - c3) - angle_of(j2);
    CcCandidate c;
    c.parts[0] = {s, g[0], mod2pi(s * g[0] * (t1 - su.h0))};
    c.parts[1] = {-s, g[1], mod2pi(-s * g[1] * (t2 - t1))};
    c.parts[2] = {s, g[2], mod2pi(s * g[2] * (su.hg - t2))};
    c.count = 3;
    c.length = 0.0;
    for (const CcPart& p : c.parts) c.length += turn_length(cc, p.amount);
    keep(best, c);
  }
}

}  // namespace

CcCandidate cc_shortest(const CcCircle& cc, const Pose& from, const Pose& to, bool reverse) {
  const Setup su = make_setup(cc, from, to, reverse);
  CcCandidate best;
  best.length = kInf;
  if (glm::length(su.goal) <= kCurveDegenerate * cc.r_omega && std::abs(wrap_angle(su.hg - su.h0)) < kCurveAngleSnap) {
    best.length = 0.0;
    return best;
  }
  // A straight line is the shortest of all paths: nothing can beat it.
  try_s(su, best);
  if (std::isfinite(best.length)) return best;
  const int gears = reverse ? 2 : 1;
  static constexpr int kGear[2] = {1, -1};
  for (const int s : {1, -1})
    for (int gi = 0; gi < gears; ++gi) try_t(su, s, kGear[gi], best);
  for (const int s1 : {1, -1})
    for (const int s2 : {1, -1})
      for (int mask = 0; mask < (reverse ? 8 : 1); ++mask) {
        const int g1 = mask & 1 ? -1 : 1, gs = mask & 2 ? -1 : 1, g2 = mask & 4 ? -1 : 1;
        try_tst(su, {s1, g1, gs, s2, g2}, best);
      }
  for (const int s : {1, -1})
    for (int mask = 0; mask < (reverse ? 8 : 1); ++mask)
      try_ttt(su, s, {mask & 1 ? -1 : 1, mask & 2 ? -1 : 1, mask & 4 ? -1 : 1}, best);
  return best;
}

}  // namespace detail

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

Status check_query(const Pose& from, const Pose& to, double radius, double sharpness) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok;
  return check_cc_sharpness(radius, sharpness);
}

Result<CcCurve> solve(const Pose& from, const Pose& to, double radius, double sharpness, bool reverse) {
  if (auto ok = check_query(from, to, radius, sharpness); !ok) return ok.error();
  const detail::CcCircle cc = detail::make_cc_circle(radius, sharpness);
  const detail::CcCandidate best = detail::cc_shortest(cc, from, to, reverse);
  if (!std::isfinite(best.length))
    return fail(StatusCode::unsupported, "no CC path found between the poses (radius " + num(radius) + ", sharpness " +
                                           num(sharpness) + ")");
  CcCurve out;
  out.word = detail::cc_word(best);
  out.path = SegmentPath(from);
  for (int i = 0; i < best.count; ++i)
    if (auto ok = detail::cc_append_part(cc, best.parts[static_cast<size_t>(i)], out.path); !ok) return ok.error();
  const double scale = std::max({std::abs(from.pos.x), std::abs(from.pos.y), out.path.length()});
  if (auto ok = out.path.snap_end(to, 1e-7 * radius + 1e-12 * scale); !ok) return ok.error();
  out.length = out.path.length();
  return out;
}

Result<double> solve_length(const Pose& from, const Pose& to, double radius, double sharpness, bool reverse) {
  if (auto ok = check_query(from, to, radius, sharpness); !ok) return ok.error();
  const detail::CcCircle cc = detail::make_cc_circle(radius, sharpness);
  const double len = detail::cc_shortest(cc, from, to, reverse).length;
  if (!std::isfinite(len)) return fail(StatusCode::unsupported, "no CC path found between the poses");
  return len;
}

}  // namespace

double min_cc_sharpness(double radius) { return 1.0 / (kPi * radius * radius); }

Status check_cc_sharpness(double radius, double sharpness) {
  if (!std::isfinite(sharpness) || !(sharpness > 0.0))
    return fail(StatusCode::invalid_argument, "sharpness must be a positive finite number, got " + num(sharpness));
  if (sharpness > kMaxCcSharpness)
    return fail(StatusCode::invalid_argument,
                "sharpness " + num(sharpness) + " is above the limit of " + num(kMaxCcSharpness) + " per cell^2");
  const double lo = min_cc_sharpness(radius);
  if (sharpness < lo)
    return fail(StatusCode::invalid_argument, "sharpness " + num(sharpness) + " is below 1 / (pi radius^2) = " +
                                                  num(lo) + " for radius " + num(radius) +
                                                  ": the clothoids alone would turn more than 180 degrees");
  return ok_status();
}

Result<CcCurve> cc_dubins(const Pose& from, const Pose& to, double radius, double sharpness) {
  return solve(from, to, radius, sharpness, false);
}

Result<CcCurve> cc_reeds_shepp(const Pose& from, const Pose& to, double radius, double sharpness) {
  return solve(from, to, radius, sharpness, true);
}

Result<double> cc_dubins_length(const Pose& from, const Pose& to, double radius, double sharpness) {
  return solve_length(from, to, radius, sharpness, false);
}

Result<double> cc_reeds_shepp_length(const Pose& from, const Pose& to, double radius, double sharpness) {
  return solve_length(from, to, radius, sharpness, true);
}

}  // namespace pathlab
