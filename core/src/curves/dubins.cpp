#include "pathlab/dubins.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>

#include "curves/curve_internal.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

using detail::kTwoPi;
using detail::LocalGoal;
using detail::mod2pi;

constexpr double kInf = std::numeric_limits<double>::infinity();
// Circles this much closer than tangent (or farther than 4 r for CCC) still count as touching.
constexpr double kTouchSlack = 1e-12;

struct Word {
  double t = 0.0, p = 0.0, q = 0.0;
  double len = kInf;  // in radii; infinity when the word does not exist
};

// The R words are the L words of the goal mirrored across the start heading.
LocalGoal mirrored(const LocalGoal& g) { return LocalGoal{g.x, -g.y, -g.phi, -g.s, g.c}; }

// L arc, straight, L arc. The straight joins the two left circles: start circle at (0, 1),
// goal circle at (x - sin phi, y + cos phi).
Word csc_same(const LocalGoal& g) {
  const double ax = g.x - g.s, ay = g.y - 1.0 + g.c;
  const double u = std::sqrt(ax * ax + ay * ay);
  Word w;
  if (u < kCurveDegenerate) {
    // Same circle: the straight has no direction, only the heading change matters.
    w.t = mod2pi(g.phi);
    w.p = 0.0;
    w.q = 0.0;
  } else {
    const double theta = dmath::atan2(ay, ax);
    w.t = mod2pi(theta);
    w.p = u;
    w.q = mod2pi(g.phi - theta);
  }
  w.len = w.t + w.p + w.q;
  return w;
}

// The length of csc_same() without its atan2. With t = mod2pi(theta) and P = mod2pi(phi),
// t + q is P when t <= P and P + 2 pi otherwise; t and P are compared as vectors (half
// plane, then cross product), with the snapping of mod2pi(): t just below 2 pi counts as 0,
// and t a hair above P gives q just below 2 pi, which also snaps to 0.
double csc_same_length(const LocalGoal& g) {
  const double ax = g.x - g.s, ay = g.y - 1.0 + g.c;
  const double u = std::sqrt(ax * ax + ay * ay);
  const double big_p = mod2pi(g.phi);
  if (u < kCurveDegenerate) return big_p;
  const double tol = kCurveAngleSnap * u;
  // The direction of P; exactly (1, 0) when mod2pi() snapped it to 0.
  const double fx = big_p == 0.0 ? 1.0 : g.c, fy = big_p == 0.0 ? 0.0 : g.s;
  const double cross = ax * fy - ay * fx;  // u sin(P - theta)
  const double dot = ax * fx + ay * fy;    // u cos(P - theta)
  // Lower half plane: angles in [pi, 2 pi).
  auto lower = [](double x, double y) { return y < 0.0 || (y == 0.0 && x < 0.0); };
  const bool t_snapped = ay < 0.0 && ax > 0.0 && -ay <= tol;
  const bool t_lower = lower(ax, ay), p_lower = lower(fx, fy);
  const bool within = t_snapped || (dot > 0.0 && std::abs(cross) <= tol) || (!t_lower && p_lower) ||
                      (t_lower == p_lower && cross > 0.0);
  return u + big_p + (within ? 0.0 : kTwoPi);
}

// L arc, straight, R arc: the inner tangent of the start's left circle and the goal's right
// circle at (x + sin phi, y - cos phi).
Word csc_cross(const LocalGoal& g) {
  const double bx = g.x + g.s, by = g.y - 1.0 - g.c;
  const double b2 = bx * bx + by * by;
  Word w;
  if (b2 < 4.0 - kTouchSlack) return w;
  const double u = std::sqrt(std::max(b2 - 4.0, 0.0));
  // angle(b) + atan2(2, u) as one atan2 of the complex product b * (u + 2i).
  const double theta = dmath::atan2(by * u + 2.0 * bx, bx * u - 2.0 * by);
  w.t = mod2pi(theta);
  w.p = u;
  w.q = mod2pi(theta - g.phi);
  w.len = w.t + w.p + w.q;
  return w;
}

// L arc, R arc, L arc. The middle circle touches both left circles, on the side that makes
// its arc longer than pi: Dubins (1957) showed that an optimal CCC path has a middle arc
// longer than pi (the other side gives a valid but never optimal path).
Word ccc(const LocalGoal& g) {
  const double ax = g.x - g.s, ay = g.y - 1.0 + g.c;
  const double d = std::sqrt(ax * ax + ay * ay);
  Word w;
  if (d > 4.0 + kTouchSlack) return w;
  const double a = dmath::acos(std::min(d * 0.25, 1.0));
  const double psi = dmath::atan2(ay, ax) + a;  // direction from the start circle's centre to the middle one's
  w.p = kPi + 2.0 * a;
  w.t = mod2pi(psi + kPi / 2);
  w.q = mod2pi(g.phi - (psi + kPi / 2) + w.p);
  w.len = w.t + w.p + w.q;
  return w;
}

DubinsSolution to_solution(DubinsWord word, const Word& w, double radius) {
  DubinsSolution s;
  s.word = word;
  s.params = {w.t, w.p, w.q};
  s.length = w.len * radius;
  return s;
}

// The shortest word, skipping candidates whose cheap lower bound cannot beat the best so far.
template <bool kLengthOnly>
DubinsSolution shortest(const LocalGoal& g, double radius) {
  const double d2 = g.x * g.x + g.y * g.y;
  if (d2 < kCurveDegenerate * kCurveDegenerate && std::abs(g.phi) < kCurveAngleSnap) {
    DubinsSolution s;
    s.params = {0.0, std::sqrt(d2), 0.0};
    s.length = s.params[1] * radius;
    return s;
  }
  const LocalGoal m = mirrored(g);
  // Lower bounds: the straight part plus the least turning the word's arcs must do. For LSL
  // t + q = phi (mod 2 pi), for LSR t - q = phi (mod 2 pi).
  const double phi_l = mod2pi(g.phi), phi_r = mod2pi(-g.phi);
  const double abs_phi = std::abs(g.phi);
  auto straight_same = [](const LocalGoal& h) {
    const double ax = h.x - h.s, ay = h.y - 1.0 + h.c;
    return std::sqrt(ax * ax + ay * ay);
  };
  auto straight_cross = [](const LocalGoal& h) {
    const double bx = h.x + h.s, by = h.y - 1.0 - h.c;
    const double b2 = bx * bx + by * by;
    return b2 < 4.0 - kTouchSlack ? kInf : std::sqrt(std::max(b2 - 4.0, 0.0));
  };
  const double lb[4] = {straight_same(g) + phi_l, straight_same(m) + phi_r, straight_cross(g) + abs_phi,
                        straight_cross(m) + abs_phi};
  // Cheapest bound first (a four-element sorting network).
  int order[4] = {0, 1, 2, 3};
  auto order_pair = [&](int i, int j) {
    if (lb[order[j]] < lb[order[i]]) std::swap(order[i], order[j]);
  };
  order_pair(0, 1);
  order_pair(2, 3);
  order_pair(0, 2);
  order_pair(1, 3);
  order_pair(1, 2);

  Word best;
  DubinsWord best_word = DubinsWord::LSL;
  for (const int k : order) {
    if (!(lb[k] < best.len)) break;
    Word w;
    DubinsWord word;
    switch (k) {
      case 0:
        if constexpr (kLengthOnly) w.len = csc_same_length(g); else w = csc_same(g);
        word = DubinsWord::LSL;
        break;
      case 1:
        if constexpr (kLengthOnly) w.len = csc_same_length(m); else w = csc_same(m);
        word = DubinsWord::RSR;
        break;
      case 2: w = csc_cross(g); word = DubinsWord::LSR; break;
      default: w = csc_cross(m); word = DubinsWord::RSL; break;
    }
    if (w.len < best.len) {
      best = w;
      best_word = word;
    }
  }
  // CCC needs the goal's circles within 4 r of the start's. Its middle arc p = pi + 2 acos(d / 4)
  // and t + q = phi + p (mod 2 pi) bound it from below before any atan2.
  auto try_ccc = [&](const LocalGoal& h, DubinsWord word) {
    if (best.len <= kPi) return;
    const double ax = h.x - h.s, ay = h.y - 1.0 + h.c;
    const double dc2 = ax * ax + ay * ay;
    if (dc2 > 16.0 + kTouchSlack) return;
    const double p = kPi + 2.0 * dmath::acos(std::min(std::sqrt(dc2) * 0.25, 1.0));
    if (p + mod2pi(h.phi + p) >= best.len) return;
    const Word w = ccc(h);
    if (w.len < best.len) {
      best = w;
      best_word = word;
    }
  };
  try_ccc(g, DubinsWord::LRL);
  try_ccc(m, DubinsWord::RLR);
  return to_solution(best_word, best, radius);
}

}  // namespace

const char* to_string(DubinsWord word) {
  switch (word) {
    case DubinsWord::LSL: return "LSL";
    case DubinsWord::RSR: return "RSR";
    case DubinsWord::LSR: return "LSR";
    case DubinsWord::RSL: return "RSL";
    case DubinsWord::RLR: return "RLR";
    case DubinsWord::LRL: return "LRL";
  }
  return "?";
}

namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

Status check_pose(const char* what, const Vec2& pos, double heading) {
  if (!is_finite(pos) || !std::isfinite(heading))
    return fail(StatusCode::invalid_argument, std::string(what) + " pose must be finite (position and heading)");
  if (std::abs(pos.x) > kMaxCurveCoordinate || std::abs(pos.y) > kMaxCurveCoordinate)
    return fail(StatusCode::invalid_argument, std::string(what) + " position (" + number_text(pos.x) + ", " +
                                                  number_text(pos.y) + ") is beyond +-" +
                                                  number_text(kMaxCurveCoordinate) + " cells");
  if (std::abs(heading) > kMaxCurveHeading)
    return fail(StatusCode::invalid_argument, std::string(what) + " heading " + number_text(heading) +
                                                  " rad is beyond +-" + number_text(kMaxCurveHeading) +
                                                  " rad (wrap it to one turn)");
  return ok_status();
}

/// Every limit of check_curve_input as one branch-light test (NaN and infinities fail every
/// comparison): the curve builders call it per query, so the messages are built only on failure.
bool curve_input_in_range(const Pose& from, const Vec2& to, double to_heading, double radius) {
  auto pose_ok = [](const Vec2& p, double h) {
    return std::abs(p.x) <= kMaxCurveCoordinate && std::abs(p.y) <= kMaxCurveCoordinate && std::abs(h) <= kMaxCurveHeading;
  };
  const Vec2 d = to - from.pos;
  const double max_span = kMaxCurveSpanInRadii * radius;
  // Squares are exact enough above 1e-150; a smaller limit goes to the full check.
  return radius > 0.0 && radius <= kMaxCurveRadius && pose_ok(from.pos, from.heading) && pose_ok(to, to_heading) &&
         max_span > 1e-150 && d.x * d.x + d.y * d.y <= max_span * max_span;
}

}  // namespace

Status check_curve_input(const Pose& from, const Vec2& to, double to_heading, double radius) {
  if (curve_input_in_range(from, to, to_heading, radius)) return ok_status();
  if (!(radius > 0.0) || !std::isfinite(radius))
    return fail(StatusCode::invalid_argument,
                "turning radius must be a positive finite number, got " + number_text(radius));
  if (radius > kMaxCurveRadius)
    return fail(StatusCode::invalid_argument, "turning radius " + number_text(radius) + " is above the limit of " +
                                                  number_text(kMaxCurveRadius) + " cells");
  if (auto ok = check_pose("start", from.pos, from.heading); !ok) return ok;
  if (auto ok = check_pose("goal", to, to_heading); !ok) return ok;
  const double span = glm::length(to - from.pos);
  if (span > kMaxCurveSpanInRadii * radius)
    return fail(StatusCode::invalid_argument, "turning radius " + number_text(radius) + " is too small for poses " +
                                                  number_text(span) + " cells apart (at most " +
                                                  number_text(kMaxCurveSpanInRadii) + " radii)");
  return ok_status();
}

Result<DubinsSolution> dubins_shortest(const Pose& from, const Pose& to, double radius) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  return shortest<false>(detail::local_goal(from, to, radius), radius);
}

Result<double> dubins_length(const Pose& from, const Pose& to, double radius) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  return shortest<true>(detail::local_goal(from, to, radius), radius).length;
}

double detail::dubins_length_local(const LocalGoal& g, double radius) { return shortest<true>(g, radius).length; }

Result<std::array<DubinsSolution, 6>> dubins_all(const Pose& from, const Pose& to, double radius) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  const LocalGoal g = detail::local_goal(from, to, radius);
  const LocalGoal m = mirrored(g);
  return std::array<DubinsSolution, 6>{
      to_solution(DubinsWord::LSL, csc_same(g), radius),  to_solution(DubinsWord::RSR, csc_same(m), radius),
      to_solution(DubinsWord::LSR, csc_cross(g), radius), to_solution(DubinsWord::RSL, csc_cross(m), radius),
      to_solution(DubinsWord::RLR, ccc(m), radius),       to_solution(DubinsWord::LRL, ccc(g), radius)};
}

Result<std::array<DubinsSolution, 6>> dubins_all_within(const Pose& from, const Pose& to, double radius,
                                                        double max_length) {
  return dubins_all_within(from, angle_dir(from.heading), to, radius, max_length);
}

Result<std::array<DubinsSolution, 6>> dubins_all_within(const Pose& from, Vec2 from_dir, const Pose& to,
                                                        double radius, double max_length) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  const LocalGoal g = detail::local_goal(from, from_dir.x, from_dir.y, to, radius);
  const LocalGoal m = mirrored(g);
  // The bounds in radii, with room to spare: a word's length and its bound are sums of the same
  // few terms (rounding about 1e-15 relative), a degenerate LSL (circles closer than
  // kCurveDegenerate) drops a straight part of up to 1e-10, and an arc snapped to 0 by mod2pi()
  // moves a sum by up to kCurveAngleSnap; 1e-6 radii is far above all of them.
  const double limit = max_length / radius + 1e-6 * (1.0 + std::abs(max_length / radius));
  const auto straight_same = [](const LocalGoal& h) {
    const double ax = h.x - h.s, ay = h.y - 1.0 + h.c;
    return std::sqrt(ax * ax + ay * ay);
  };
  const auto straight_cross = [](const LocalGoal& h) {
    const double bx = h.x + h.s, by = h.y - 1.0 - h.c;
    const double b2 = bx * bx + by * by;
    return b2 < 4.0 - kTouchSlack ? kInf : std::sqrt(std::max(b2 - 4.0, 0.0));
  };
  // CCC: the middle arc p = pi + 2 acos(d / 4) and t + q = phi + p (mod 2 pi); none beyond 4 r.
  // Every such bound is at least pi: below that limit (short stretches, most of the vehicle
  // smoother's tries) neither CCC word is solved, and the arc cosine is not needed.
  const auto ccc_bound = [limit](const LocalGoal& h) {
    if (limit < kPi) return kInf;
    const double ax = h.x - h.s, ay = h.y - 1.0 + h.c;
    const double dc2 = ax * ax + ay * ay;
    if (dc2 > 16.0 + kTouchSlack) return kInf;
    const double p = kPi + 2.0 * dmath::acos(std::min(std::sqrt(dc2) * 0.25, 1.0));
    return p + mod2pi(h.phi + p);
  };
  const double abs_phi = std::abs(g.phi);
  const auto word = [&](DubinsWord w, double bound, auto solve) {
    // (The empty word is built only for the words left out.)
    return bound <= limit ? to_solution(w, solve(), radius) : to_solution(w, Word{}, radius);
  };
  return std::array<DubinsSolution, 6>{
      word(DubinsWord::LSL, straight_same(g) + mod2pi(g.phi), [&] { return csc_same(g); }),
      word(DubinsWord::RSR, straight_same(m) + mod2pi(m.phi), [&] { return csc_same(m); }),
      word(DubinsWord::LSR, straight_cross(g) + abs_phi, [&] { return csc_cross(g); }),
      word(DubinsWord::RSL, straight_cross(m) + abs_phi, [&] { return csc_cross(m); }),
      word(DubinsWord::RLR, ccc_bound(m), [&] { return ccc(m); }),
      word(DubinsWord::LRL, ccc_bound(g), [&] { return ccc(g); })};
}

Result<SegmentPath> dubins_to_path(const Pose& from, const Pose& to, double radius, const DubinsSolution& sol) {
  if (auto ok = check_curve_input(from, to.pos, to.heading, radius); !ok) return ok.error();
  if (!std::isfinite(sol.length))
    return fail(StatusCode::invalid_argument, std::string("Dubins word ") + to_string(sol.word) + " does not exist here");
  static constexpr int kSteer[6][3] = {{1, 0, 1}, {-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {-1, 1, -1}, {1, -1, 1}};
  const int* steer = kSteer[static_cast<int>(sol.word)];
  const Move moves[3] = {{steer[0], sol.params[0]}, {steer[1], sol.params[1]}, {steer[2], sol.params[2]}};
  return path_from_moves(from, radius, moves, &to);
}

Result<SegmentPath> dubins_path(const Pose& from, const Pose& to, double radius) {
  auto sol = dubins_shortest(from, to, radius);
  if (!sol) return sol.error();
  return dubins_to_path(from, to, radius, *sol);
}

}  // namespace pathlab
