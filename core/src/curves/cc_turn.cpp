// CC turns (Fraichard & Scheuer, "From Reeds and Shepp's to continuous-curvature paths",
// IEEE Transactions on Robotics 2004): the CC circle, the shape of one turn, its segments.

#include <algorithm>
#include <cmath>

#include "curves/cc_clothoid.hpp"
#include "curves/cc_internal.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::detail {
namespace {

// Deflections below this are driven as the straight chord. [Units: radians]
constexpr double kStraightTurn = 1e-12;
// Rounding allowed above the sharpness / curvature limits for an elementary path (relative).
constexpr double kLimitSlack = 1e-12;

}  // namespace

CcCircle make_cc_circle(double radius, double sigma) {
  CcCircle c;
  c.kappa = 1.0 / radius;
  c.sigma = sigma;
  c.lc = c.kappa / sigma;
  c.delta_c = 0.5 * c.kappa * c.lc;
  // End of the clothoid 0 -> kappa, then the centre of the arc it joins (its left normal).
  const Vec2 e = clothoid_local(0.0, sigma, c.lc);
  const auto [sd, cd] = dmath::sincos(c.delta_c);
  c.xo = e.x - sd * radius;
  c.yo = e.y + cd * radius;
  c.r_omega = dmath::hypot(c.xo, c.yo);
  c.mu = dmath::atan2(c.xo, c.yo);
  return c;
}

bool cc_turn_shape(const CcCircle& cc, double delta, CcTurnShape& out) {
  out = CcTurnShape{};
  if (delta < kStraightTurn) {
    // Entry and exit coincide on the circle with the heading: the chord 2 R_Omega sin mu.
    out.kind = CcTurnShape::line;
    out.length = 2.0 * cc.xo;
    return true;
  }
  if (delta >= 2.0 * cc.delta_c) {
    out.kind = CcTurnShape::regular;
    out.length = 2.0 * cc.lc + (delta - 2.0 * cc.delta_c) / cc.kappa;
    return true;
  }
  // Elementary path: two clothoids of sharpness s' turning delta / 2 each, symmetric about
  // the chord's bisector, so the chord leaves at delta / 2. The exit lies on the CC circle at
  // the central angle delta + 2 mu, so the chord is 2 R_Omega sin(delta / 2 + mu). Lengths
  // scale as 1 / sqrt(s'): measure the chord d1 at sharpness 1 and scale it.
  const double half_turn = 0.5 * delta;
  const double l1 = std::sqrt(delta);  // a clothoid of sharpness 1 turns l^2 / 2 = delta / 2
  const Vec2 e = clothoid_local(0.0, 1.0, l1);
  const auto [sh, ch] = dmath::sincos(half_turn);
  const double d1 = 2.0 * (e.x * ch + e.y * sh);
  const double d = 2.0 * cc.r_omega * dmath::sin(half_turn + cc.mu);
  if (!(d > 0.0)) return false;
  const double ratio = d1 / d;
  out.kind = CcTurnShape::elementary;
  out.sigma = ratio * ratio;
  out.half = std::sqrt(delta / out.sigma);
  out.kappa = out.sigma * out.half;
  out.length = 2.0 * out.half;
  return out.sigma <= cc.sigma * (1.0 + kLimitSlack) && out.kappa <= cc.kappa * (1.0 + kLimitSlack);
}

Status cc_append_part(const CcCircle& cc, const CcPart& part, SegmentPath& path) {
  const Gear gear = part.gear < 0 ? Gear::reverse : Gear::forward;
  if (part.steer == 0) return path.append(line_from_pose(path.end(), part.amount, gear));
  CcTurnShape shape;
  if (!cc_turn_shape(cc, part.amount, shape))
    return fail(StatusCode::invalid_argument, "CC turn of " + std::to_string(part.amount) + " rad has no valid shape");
  const double s = part.steer > 0 ? 1.0 : -1.0;
  switch (shape.kind) {
    case CcTurnShape::line: return path.append(line_from_pose(path.end(), shape.length, gear));
    case CcTurnShape::elementary:
      if (auto ok = path.append(make_clothoid(path.end(), 0.0, s * shape.sigma, shape.half, gear)); !ok) return ok;
      return path.append(make_clothoid(path.end(), s * shape.kappa, -s * shape.sigma, shape.half, gear));
    case CcTurnShape::regular: break;
  }
  if (auto ok = path.append(make_clothoid(path.end(), 0.0, s * cc.sigma, cc.lc, gear)); !ok) return ok;
  const double arc = (part.amount - 2.0 * cc.delta_c) / cc.kappa;
  if (arc > 0.0)
    if (auto ok = path.append(arc_from_pose(path.end(), 1.0 / cc.kappa, part.steer, arc, gear)); !ok) return ok;
  return path.append(make_clothoid(path.end(), s * cc.kappa, -s * cc.sigma, cc.lc, gear));
}

std::string cc_word(const CcCandidate& c) {
  std::string w;
  for (int i = 0; i < c.count; ++i) {
    const CcPart& p = c.parts[static_cast<size_t>(i)];
    if (p.steer == 0 && p.amount == 0.0) continue;
    const bool straight = p.steer == 0 || p.amount < kStraightTurn;
    w += straight ? 'S' : (p.steer > 0 ? 'L' : 'R');
    w += p.gear < 0 ? '-' : '+';
  }
  return w;
}

}  // namespace pathlab::detail
