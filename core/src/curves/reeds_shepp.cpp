#include "pathlab/reeds_shepp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "curves/curve_internal.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

using detail::kTwoPi;
using detail::wrap_pi;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kHalfPi = kPi / 2;
// Part lengths this far on the wrong side of zero still count as zero (as OMPL's ZERO).
constexpr double kZero = 1e-10;
// Relative size of the rounding in the local goal's coordinates (a few ulps of 1).
constexpr double kRoundingGap = 1e-14;

enum Family : uint8_t {
  kLpSpLp,      // 8.1  L+S+L+
  kLpSpRp,      // 8.2  L+S+R+
  kLpRmL,       // 8.3/8.4  L+R-L (C|C|C, C|CC)
  kLpRupLumRm,  // 8.7  L+R+L-R-
  kLpRumLumRp,  // 8.8  L+R-L-R+
  kLpRmSmLm,    // 8.9  L+R-S-L-
  kLpRmSmRm,    // 8.10 L+R-S-R-
  kLpRmSLmRp,   // 8.11 L+R-S-L-R+
};

constexpr int kTimeflip = 1, kReflect = 2, kBackwards = 4;

// The goal in one symmetric frame, with the two circle-centre vectors every formula uses:
// a = goal's left circle minus start's left circle, b = goal's right circle minus start's
// left circle. Their angles are computed once, on first use.
struct Frame {
  double x, y, phi, s, c;
  double ax, ay, a2, bx, by, b2;
  double a_angle = 0.0, b_angle = 0.0;
  bool has_a = false, has_b = false;

  void init(double x_, double y_, double phi_, double s_, double c_) {
    x = x_; y = y_; phi = phi_; s = s_; c = c_;
    ax = x - s; ay = y - 1.0 + c; a2 = ax * ax + ay * ay;
    bx = x + s; by = y - 1.0 - c; b2 = bx * bx + by * by;
  }
  double angle_a() {
    if (!has_a) { a_angle = dmath::atan2(ay, ax); has_a = true; }
    return a_angle;
  }
  double angle_b() {
    if (!has_b) { b_angle = dmath::atan2(by, bx); has_b = true; }
    return b_angle;
  }
};

struct Best {
  double len = kInf;  // in radii
  Family family = kLpSpLp;
  int flags = 0;
  double t = 0.0, u = 0.0, v = 0.0;

  void offer(double l, Family f, int fl, double t_, double u_, double v_) {
    if (l < len) { len = l; family = f; flags = fl; t = t_; u = u_; v = v_; }
  }
};

// 8.1: L+ S+ L+.
void lp_sp_lp(Frame& f, int flags, Best& best) {
  const double u = std::sqrt(f.a2);
  if (u + 0.0 >= best.len) return;
  double t, v;
  // Only rounding-sized centre gaps count as "same circle": unlike Dubins lengths, Reeds-Shepp
  // lengths are continuous, and a goal 1e-10 r off the circle really costs a wiggle of about
  // 4 sqrt(2e-10) r, which the other words find exactly.
  if (u < kRoundingGap * (2.0 + std::abs(f.x) + std::abs(f.y))) {
    // Goal on the start circle with its heading: the turn alone (the straight has no direction).
    t = f.phi;
    v = 0.0;
  } else {
    t = f.angle_a();
    v = wrap_pi(f.phi - t);
  }
  if (t < -kZero || v < -kZero) return;
  best.offer(std::abs(t) + u + std::abs(v), kLpSpLp, flags, t, u, v);
}

// 8.2: L+ S+ R+.
void lp_sp_rp(Frame& f, int flags, Best& best) {
  if (f.b2 < 4.0) return;
  const double u = std::sqrt(f.b2 - 4.0);
  if (u >= best.len) return;
  const double t = dmath::atan2(f.by * u + 2.0 * f.bx, f.bx * u - 2.0 * f.by);  // angle(b) + atan2(2, u)
  if (t < -kZero) return;
  const double v = wrap_pi(t - f.phi);
  if (v < -kZero) return;
  best.offer(std::abs(t) + u + std::abs(v), kLpSpRp, flags, t, u, v);
}

// 8.3/8.4: L+ R- L (the last arc either way).
void lp_rm_l(Frame& f, int flags, Best& best) {
  if (f.a2 > 16.0) return;
  const double u = -2.0 * dmath::asin(0.25 * std::sqrt(f.a2));
  if (-u >= best.len) return;
  const double t = wrap_pi(f.angle_a() + 0.5 * u + kPi);
  if (t < -kZero) return;
  const double v = wrap_pi(f.phi - t + u);
  best.offer(std::abs(t) - u + std::abs(v), kLpRmL, flags, t, u, v);
}

// tau and omega of Reeds & Shepp for the CCCC words, given cos/sin of u and of delta = u - v
// and cos v (computed by the callers from one arc-cosine, without further trigonometry).
void tau_omega(double cu, double su, double cd, double sd, double cv, double u, double v, const Frame& f,
               double& tau, double& omega) {
  const double a = su - sd, b = cu - cd - 1.0;
  const double t1 = dmath::atan2(f.by * a - f.bx * b, f.bx * a + f.by * b);
  const double t2 = 2.0 * (cd - cv - cu) + 3.0;
  tau = t2 < 0.0 ? wrap_pi(t1 + kPi) : wrap_pi(t1);
  omega = wrap_pi(tau - u + v - f.phi);
}

// 8.7: L+ R+ L- R-.
void lp_rup_lum_rm(Frame& f, int flags, Best& best) {
  const double rho = 0.25 * (2.0 + std::sqrt(f.b2));
  if (rho > 1.0) return;
  const double u = dmath::acos(rho);
  if (2.0 * u >= best.len) return;
  const double cu = rho, su = std::sqrt(std::max(0.0, 1.0 - rho * rho));
  // v = -u, delta = 2u (u <= pi/3, so no wrapping).
  double t, v;
  tau_omega(cu, su, 2.0 * cu * cu - 1.0, 2.0 * su * cu, cu, u, -u, f, t, v);
  if (t < -kZero || v > kZero) return;
  best.offer(std::abs(t) + 2.0 * u + std::abs(v), kLpRupLumRm, flags, t, u, v);
}

// 8.8: L+ R- L- R+.
void lp_rum_lum_rp(Frame& f, int flags, Best& best) {
  const double rho = (20.0 - f.b2) / 16.0;
  if (rho < 0.0 || rho > 1.0) return;
  const double u = -dmath::acos(rho);  // in [-pi/2, 0] since rho >= 0
  if (-2.0 * u >= best.len) return;
  const double cu = rho, su = -std::sqrt(std::max(0.0, 1.0 - rho * rho));
  double t, v;
  tau_omega(cu, su, 1.0, 0.0, cu, u, u, f, t, v);  // v = u, delta = 0
  if (t < -kZero || v < -kZero) return;
  best.offer(std::abs(t) - 2.0 * u + std::abs(v), kLpRumLumRp, flags, t, u, v);
}

// 8.9: L+ R-(pi/2) S- L-.
void lp_rm_sm_lm(Frame& f, int flags, Best& best) {
  if (f.a2 < 4.0) return;
  const double r = std::sqrt(f.a2 - 4.0);
  const double u = 2.0 - r;
  if (u > kZero || kHalfPi - u >= best.len) return;
  // angle(a) + atan2(r, -2) as one atan2 of a * (-2 + r i).
  const double t = dmath::atan2(r * f.ax - 2.0 * f.ay, -2.0 * f.ax - r * f.ay);
  if (t < -kZero) return;
  const double v = wrap_pi(f.phi - kHalfPi - t);
  if (v > kZero) return;
  best.offer(std::abs(t) + kHalfPi - u + std::abs(v), kLpRmSmLm, flags, t, u, v);
}

// 8.10: L+ R-(pi/2) S- R-.
void lp_rm_sm_rm(Frame& f, int flags, Best& best) {
  if (f.b2 < 4.0) return;
  const double rho = std::sqrt(f.b2);
  const double u = 2.0 - rho;
  if (kHalfPi - u >= best.len) return;
  const double t = wrap_pi(f.angle_b() + kHalfPi);  // the angle of (-b.y, b.x)
  if (t < -kZero) return;
  const double v = wrap_pi(t + kHalfPi - f.phi);
  if (v > kZero) return;
  best.offer(std::abs(t) + kHalfPi - u + std::abs(v), kLpRmSmRm, flags, t, u, v);
}

// 8.11: L+ R-(pi/2) S- L-(pi/2) R+.
void lp_rm_slm_rp(Frame& f, int flags, Best& best) {
  if (f.b2 < 4.0) return;
  const double u = 4.0 - std::sqrt(f.b2 - 4.0);
  if (u > kZero || kPi - u >= best.len) return;
  const double t = wrap_pi(dmath::atan2((4.0 - u) * f.bx - 2.0 * f.by, -2.0 * f.bx + (u - 4.0) * f.by));
  if (t < -kZero) return;
  const double v = wrap_pi(t - f.phi);
  if (v < -kZero) return;
  best.offer(std::abs(t) + kPi - u + std::abs(v), kLpRmSLmRp, flags, t, u, v);
}

Best search(const detail::LocalGoal& g) {
  Frame fr[8];
  const double xb = g.x * g.c + g.y * g.s, yb = g.x * g.s - g.y * g.c;
  for (int k = 0; k < 8; ++k) {
    const double x0 = (k & kBackwards) ? xb : g.x, y0 = (k & kBackwards) ? yb : g.y;
    const double sx = (k & kTimeflip) ? -1.0 : 1.0, sy = (k & kReflect) ? -1.0 : 1.0;
    const double sp = sx * sy;  // phi flips with exactly one of time-flip and reflection
    fr[k].init(sx * x0, sy * y0, sp * g.phi, sp * g.s, g.c);
  }
  Best best;
  for (int k = 0; k < 4; ++k) lp_sp_lp(fr[k], k, best);
  for (int k = 0; k < 4; ++k) lp_sp_rp(fr[k], k, best);
  for (int k = 0; k < 8; ++k) lp_rm_l(fr[k], k, best);
  for (int k = 0; k < 4; ++k) lp_rup_lum_rm(fr[k], k, best);
  for (int k = 0; k < 4; ++k) lp_rum_lum_rp(fr[k], k, best);
  for (int k = 0; k < 8; ++k) lp_rm_sm_lm(fr[k], k, best);
  for (int k = 0; k < 8; ++k) lp_rm_sm_rm(fr[k], k, best);
  for (int k = 0; k < 4; ++k) lp_rm_slm_rp(fr[k], k, best);
  return best;
}

ReedsSheppSolution expand(const Best& b, double radius) {
  ReedsSheppSolution s;
  constexpr int L = 1, S = 0, R = -1;
  switch (b.family) {
    case kLpSpLp: s.steer = {L, S, L}; s.params = {b.t, b.u, b.v}; s.count = 3; break;
    case kLpSpRp: s.steer = {L, S, R}; s.params = {b.t, b.u, b.v}; s.count = 3; break;
    case kLpRmL: s.steer = {L, R, L}; s.params = {b.t, b.u, b.v}; s.count = 3; break;
    case kLpRupLumRm: s.steer = {L, R, L, R}; s.params = {b.t, b.u, -b.u, b.v}; s.count = 4; break;
    case kLpRumLumRp: s.steer = {L, R, L, R}; s.params = {b.t, b.u, b.u, b.v}; s.count = 4; break;
    case kLpRmSmLm: s.steer = {L, R, S, L}; s.params = {b.t, -kHalfPi, b.u, b.v}; s.count = 4; break;
    case kLpRmSmRm: s.steer = {L, R, S, R}; s.params = {b.t, -kHalfPi, b.u, b.v}; s.count = 4; break;
    case kLpRmSLmRp: s.steer = {L, R, S, L, R}; s.params = {b.t, -kHalfPi, b.u, -kHalfPi, b.v}; s.count = 5; break;
  }
  const int n = s.count;
  if (b.flags & kTimeflip)
    for (int i = 0; i < n; ++i) s.params[i] = -s.params[i];
  if (b.flags & kReflect)
    for (int i = 0; i < n; ++i) s.steer[i] = -s.steer[i];
  if (b.flags & kBackwards) {
    std::reverse(s.steer.begin(), s.steer.begin() + n);
    std::reverse(s.params.begin(), s.params.begin() + n);
  }
  // A rounding-sized part (an arc of 1e-17 before a straight) is dropped, so the path has no
  // dust segments and the word names what is driven; the end moves by a rounding error.
  for (int i = 0; i < n; ++i)
    if (std::abs(s.params[i]) < kRoundingGap) s.params[i] = 0.0;
  s.length = b.len * radius;
  return s;
}

}  // namespace

std::string ReedsSheppSolution::word() const {
  std::string w;
  for (int i = 0; i < count; ++i) {
    if (params[i] == 0.0) continue;  // an empty part has no gear; "S-" reads better than "L+S-L+"
    w += steer[i] > 0 ? 'L' : steer[i] < 0 ? 'R' : 'S';
    w += params[i] < 0.0 ? '-' : '+';
  }
  return w;
}

Result<ReedsSheppSolution> reeds_shepp_shortest(const Pose& from, const Pose& to, double radius) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  return expand(search(detail::local_goal(from, to, radius)), radius);
}

Result<double> reeds_shepp_length(const Pose& from, const Pose& to, double radius) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  return search(detail::local_goal(from, to, radius)).len * radius;
}

Result<SegmentPath> reeds_shepp_to_path(const Pose& from, const Pose& to, double radius,
                                        const ReedsSheppSolution& sol) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  if (sol.count < 0 || sol.count > 5) return fail(StatusCode::invalid_argument, "Reeds-Shepp word has 0 to 5 parts");
  Move moves[5];
  for (int i = 0; i < sol.count; ++i) moves[i] = Move{sol.steer[i], sol.params[i]};
  return path_from_moves(from, radius, std::span<const Move>(moves, static_cast<size_t>(sol.count)), &to);
}

Result<SegmentPath> reeds_shepp_path(const Pose& from, const Pose& to, double radius) {
  auto sol = reeds_shepp_shortest(from, to, radius);
  if (!sol) return sol.error();
  return reeds_shepp_to_path(from, to, radius, *sol);
}

}  // namespace pathlab
