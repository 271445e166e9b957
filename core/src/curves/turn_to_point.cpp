#include "pathlab/turn_to_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "curves/curve_internal.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

using detail::mod2pi;

constexpr double kInf = std::numeric_limits<double>::infinity();
// Like Dubins (kCurveDegenerate): a point this close inside a turning circle counts as on
// it. Rounding alone puts points "on" the circle a hair inside, and the exact answer there
// is a detour of about 2 pi r, which dubins_shortest() would not give either.
constexpr double kSlack = kCurveDegenerate;

struct Candidate {
  double a = 0.0, b = 0.0;  // first and second move, in radii (second arc angle or straight length)
  double len = kInf;
};

// Left arc then straight, the target at (x, y) in the start frame (radii). The start's left
// circle is centred at (0, 1); the straight leaves it on the tangent through the target.
Candidate arc_line(double x, double y) {
  const double vx = x, vy = y - 1.0;
  const double h2 = vx * vx + vy * vy;
  Candidate c;
  if (h2 < 1.0 - 2.0 * kSlack) return c;  // inside the circle (h < 1 - kSlack): no tangent
  const double d = std::sqrt(std::max(h2 - 1.0, 0.0));
  // Arc angle = angle(v) - atan2(d, 1) + pi/2 = angle of v * (d + i).
  c.a = mod2pi(dmath::atan2(vx + vy * d, vx * d - vy));
  c.b = d;
  c.len = c.a + c.b;
  return c;
}

// Right arc then left arc. After turning right by `a` the left circle's centre is 2 radii
// from the right circle's centre (0, -1); it must be 1 radius from the target.
Candidate arc_arc(double x, double y) {
  const double wx = x, wy = y + 1.0;
  const double dist = std::sqrt(wx * wx + wy * wy);
  Candidate best;
  if (dist < 1.0 - kSlack || dist > 3.0 + kSlack) return best;
  const double cos_beta = std::clamp((3.0 + dist * dist) / (4.0 * dist), -1.0, 1.0);
  const double beta = dmath::acos(cos_beta);
  const double w_angle = dmath::atan2(wy, wx);
  for (const double side : {-1.0, 1.0}) {
    const double psi = w_angle + side * beta;  // direction from the right centre to the left centre
    const auto [sp, cp] = dmath::sincos(psi);
    const double c2x = 2.0 * cp, c2y = -1.0 + 2.0 * sp;
    Candidate c;
    c.a = mod2pi(kPi / 2 - psi);  // the start sits at angle pi/2 on the right circle
    // The junction is at angle psi + pi seen from the left centre; turn on to the target.
    c.b = mod2pi(dmath::atan2(y - c2y, x - c2x) - psi - kPi);
    c.len = c.a + c.b;
    if (c.len < best.len) best = c;
  }
  return best;
}

}  // namespace

Result<TurnToPointSolution> turn_to_point(const Pose& from, Vec2 to, double radius) {
  if (auto ok = check_curve_input(from, to, 0.0, radius); !ok) return ok.error();
  const detail::LocalGoal g = detail::local_goal(from, Pose{to, from.heading}, radius);
  TurnToPointSolution sol;
  sol.final_heading = from.heading;
  if (g.x * g.x + g.y * g.y < kCurveDegenerate * kCurveDegenerate) return sol;

  // Right-handed candidates are the left-handed ones of the mirrored target.
  const Candidate cands[4] = {arc_line(g.x, g.y), arc_line(g.x, -g.y), arc_arc(g.x, g.y), arc_arc(g.x, -g.y)};
  static constexpr const char* kWords[4] = {"LS", "RS", "RL", "LR"};
  static constexpr int kFirst[4] = {1, -1, -1, 1};
  static constexpr int kSecond[4] = {0, 0, 1, -1};
  int k = 0;
  for (int i = 1; i < 4; ++i)
    if (cands[i].len < cands[k].len) k = i;
  sol.word = kWords[k];
  sol.moves = {Move{kFirst[k], cands[k].a}, Move{kSecond[k], cands[k].b}};
  sol.count = 2;
  sol.length = cands[k].len * radius;
  // Heading on arrival: the first arc turns by a, a second arc by b the other way.
  const double turn = kFirst[k] * cands[k].a + kSecond[k] * cands[k].b;
  sol.final_heading = from.heading + turn;
  return sol;
}

Result<SegmentPath> turn_to_point_path(const Pose& from, Vec2 to, double radius) {
  auto sol = turn_to_point(from, to, radius);
  if (!sol) return sol.error();
  const Pose goal{to, sol->final_heading};
  return path_from_moves(from, radius, std::span<const Move>(sol->moves.data(), static_cast<size_t>(sol->count)),
                         &goal);
}

}  // namespace pathlab
