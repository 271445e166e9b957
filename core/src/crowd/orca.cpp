// ORCA constraints and the incremental randomised-style linear programs of
// van den Berg, Guy, Lin, Manocha 2011, "Reciprocal n-Body Collision Avoidance" (sections 4-5),
// processed in a fixed order so the result is deterministic.

#include "crowd/orca.hpp"

#include <algorithm>
#include <cmath>

namespace pathlab::crowd {
namespace {

constexpr double kEps = 1e-9;

double len2(Vec2 v) { return glm::dot(v, v); }

/// Optimises along line `i` subject to lines [0, i) and the speed disc. Returns false when the
/// disc and the earlier lines leave nothing of line i.
bool solve_on_line(std::span<const OrcaLine> lines, size_t i, double max_speed, Vec2 opt, bool direction_opt,
                   Vec2& result) {
  const OrcaLine& li = lines[i];
  const double dot = glm::dot(li.point, li.direction);
  const double disc = dot * dot + max_speed * max_speed - len2(li.point);
  if (disc < 0.0) return false;
  const double root = std::sqrt(disc);
  double t_left = -dot - root;
  double t_right = -dot + root;
  for (size_t j = 0; j < i; ++j) {
    const OrcaLine& lj = lines[j];
    const double denom = cross(li.direction, lj.direction);
    const double numer = cross(lj.direction, li.point - lj.point);
    if (std::abs(denom) <= kEps) {
      if (numer < 0.0) return false;  // parallel and line i lies wholly outside line j
      continue;
    }
    const double t = numer / denom;
    if (denom >= 0.0) t_right = std::min(t_right, t);
    else t_left = std::max(t_left, t);
    if (t_left > t_right) return false;
  }
  if (direction_opt) {
    result = li.point + (glm::dot(opt, li.direction) > 0.0 ? t_right : t_left) * li.direction;
  } else {
    const double t = std::clamp(glm::dot(li.direction, opt - li.point), t_left, t_right);
    result = li.point + t * li.direction;
  }
  return true;
}

/// The 2D program: returns the number of lines satisfied in order before the first failure
/// (lines.size() on success); `result` is the best velocity for the lines before it.
size_t solve_2d(std::span<const OrcaLine> lines, double max_speed, Vec2 opt, bool direction_opt, Vec2& result) {
  if (direction_opt) result = opt * max_speed;
  else if (len2(opt) > max_speed * max_speed) result = glm::normalize(opt) * max_speed;
  else result = opt;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (violation(lines[i], result) > 0.0) {
      const Vec2 keep = result;
      if (!solve_on_line(lines, i, max_speed, opt, direction_opt, result)) {
        result = keep;
        return i;
      }
    }
  }
  return lines.size();
}

/// The 3D program (the paper's fallback): minimises the largest violation of the soft lines
/// from `begin` on, the first `hard_count` kept as they are.
void solve_3d(std::span<const OrcaLine> lines, size_t hard_count, size_t begin, double max_speed, Vec2& result) {
  double distance = 0.0;
  std::vector<OrcaLine> projected;
  for (size_t i = begin; i < lines.size(); ++i) {
    const OrcaLine& li = lines[i];
    if (violation(li, result) <= distance) continue;
    projected.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(hard_count));
    for (size_t j = hard_count; j < i; ++j) {
      const OrcaLine& lj = lines[j];
      OrcaLine p;
      const double det = cross(li.direction, lj.direction);
      if (std::abs(det) <= kEps) {
        if (glm::dot(li.direction, lj.direction) > 0.0) continue;  // same direction
        p.point = 0.5 * (li.point + lj.point);
      } else {
        p.point = li.point + (cross(lj.direction, li.point - lj.point) / det) * li.direction;
      }
      const Vec2 d = lj.direction - li.direction;
      if (len2(d) <= kEps * kEps) continue;
      p.direction = glm::normalize(d);
      projected.push_back(p);
    }
    const Vec2 keep = result;
    if (solve_2d(projected, max_speed, Vec2(-li.direction.y, li.direction.x), true, result) < projected.size()) {
      result = keep;  // only rounding can fail here: keep the last good value
    }
    distance = violation(li, result);
  }
}

}  // namespace

OrcaLine half_plane(Vec2 n, double bound) {
  return OrcaLine{n * bound, Vec2(-n.y, n.x)};
}

OrcaLine agent_line(const Vec2& pos, const Vec2& vel, const Vec2& other_pos, const Vec2& other_vel, double radius,
                    double tau, double dt, double share) {
  const Vec2 rel_pos = other_pos - pos;
  const Vec2 rel_vel = vel - other_vel;
  const double dist2 = len2(rel_pos);
  const double r2 = radius * radius;
  OrcaLine line;
  Vec2 u;
  if (dist2 > r2) {
    const Vec2 w = rel_vel - rel_pos / tau;  // from the cut-off circle's centre to rel_vel
    const double w2 = len2(w);
    const double dot1 = glm::dot(w, rel_pos);
    if (dot1 < 0.0 && dot1 * dot1 > r2 * w2) {
      // Closest boundary point is on the cut-off circle.
      const double wl = std::sqrt(w2);
      const Vec2 unit_w = wl > kEps ? w / wl : Vec2(-rel_pos.x, -rel_pos.y) / std::sqrt(dist2);
      line.direction = Vec2(unit_w.y, -unit_w.x);
      u = (radius / tau - wl) * unit_w;
    } else {
      // Closest boundary point is on a leg of the cone.
      const double leg = std::sqrt(dist2 - r2);
      if (cross(rel_pos, w) > 0.0) {
        line.direction = Vec2(rel_pos.x * leg - rel_pos.y * radius, rel_pos.x * radius + rel_pos.y * leg) / dist2;
      } else {
        line.direction = -Vec2(rel_pos.x * leg + rel_pos.y * radius, -rel_pos.x * radius + rel_pos.y * leg) / dist2;
      }
      u = glm::dot(rel_vel, line.direction) * line.direction - rel_vel;
    }
  } else {
    // Already touching: get apart within one step.
    const Vec2 w = rel_vel - rel_pos / dt;
    const double wl = std::sqrt(len2(w));
    const Vec2 unit_w = wl > kEps ? w / wl : Vec2(1.0, 0.0);
    line.direction = Vec2(unit_w.y, -unit_w.x);
    u = (radius / dt - wl) * unit_w;
  }
  line.point = vel + share * u;
  return line;
}

Vec2 solve_velocity(std::span<const OrcaLine> lines, int hard_count, double max_speed, Vec2 preferred) {
  Vec2 result;
  const size_t fail = solve_2d(lines, max_speed, preferred, false, result);
  if (fail < lines.size()) {
    solve_3d(lines, static_cast<size_t>(std::max(hard_count, 0)), fail, max_speed, result);
  }
  return result;
}

}  // namespace pathlab::crowd
