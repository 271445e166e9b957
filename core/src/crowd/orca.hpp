#pragma once
// ORCA half-planes and the small linear programs that pick a velocity inside them
// (van den Berg, Guy, Lin, Manocha 2011, "Reciprocal n-Body Collision Avoidance", sections 4-5).
//
// A line is a point and a unit direction; the permitted velocities lie to its left:
// v is permitted when cross(direction, point - v) <= 0.

#include <span>
#include <vector>

#include "pathlab/geometry.hpp"

namespace pathlab::crowd {

struct OrcaLine {
  Vec2 point{0.0, 0.0};
  Vec2 direction{1.0, 0.0};
};

/// The half-plane {v : dot(v, n) <= bound} for a unit normal n, as an OrcaLine.
OrcaLine half_plane(Vec2 n, double bound);

/// The ORCA line of a unit at `pos` with velocity `vel` against a neighbour, for the
/// combined radius `radius` [cells], horizon `tau` [s] and step `dt` [s] (used when the
/// discs already overlap), the unit taking `share` of the responsibility (0.5: reciprocal).
/// The vectors come by reference: passed by value, each came as two scalars that the callee
/// stored and loaded again as one pair (a stalled store forward: a third of the function's
/// samples in a profile at 10,000 units).
OrcaLine agent_line(const Vec2& pos, const Vec2& vel, const Vec2& other_pos, const Vec2& other_vel, double radius,
                    double tau, double dt, double share);

/// The velocity within `max_speed` closest to `preferred` that satisfies every line. The first
/// `hard_count` lines (walls, obstacles) are never relaxed; when the others cannot all be met,
/// the velocity that least violates the worst of them is returned (the paper's 3D program).
Vec2 solve_velocity(std::span<const OrcaLine> lines, int hard_count, double max_speed, Vec2 preferred);

/// How far v lies outside the line (<= 0 inside). [Units: cells/s]
inline double violation(const OrcaLine& l, Vec2 v) { return cross(l.direction, l.point - v); }

}  // namespace pathlab::crowd
