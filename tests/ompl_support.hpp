#pragma once
// OMPL as the reference for the curve tests: distance() between two poses in a Dubins or
// Reeds-Shepp state space built with the turning radius (so lengths are in cells, not radii).

#include <ompl/base/spaces/SE2StateSpace.h>

#include "pathlab/geometry.hpp"

namespace pathlab::test {

inline double ompl_distance(const ompl::base::StateSpace& space, const Pose& a, const Pose& b) {
  using SE2 = ompl::base::SE2StateSpace::StateType;
  ompl::base::State* sa = space.allocState();
  ompl::base::State* sb = space.allocState();
  sa->as<SE2>()->setXY(a.pos.x, a.pos.y);
  sa->as<SE2>()->setYaw(a.heading);
  sb->as<SE2>()->setXY(b.pos.x, b.pos.y);
  sb->as<SE2>()->setYaw(b.heading);
  const double d = space.distance(sa, sb);
  space.freeState(sa);
  space.freeState(sb);
  return d;
}

/// Lengths agree when within 1e-9 relative (relative to at least one radius, so that paths
/// shorter than 1e-9 r compare in absolute terms).
inline bool agree(double a, double b, double radius) { return std::abs(a - b) <= 1e-9 * std::max({a, b, radius}); }

}  // namespace pathlab::test
