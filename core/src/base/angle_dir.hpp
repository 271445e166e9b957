#pragma once
/// @file angle_dir.hpp
/// The unit vector at an angle, (cos a, sin a), from one dmath::sincos: the same bits as
/// dmath::cos and dmath::sin called apart, at one argument reduction instead of two (the
/// planners, smoothers and followers turn headings into directions thousands of times a query).

#include "pathlab/det_math.hpp"
#include "pathlab/geometry.hpp"

namespace pathlab {

/// (cos angle, sin angle). [Units: radians]
inline Vec2 angle_dir(double angle) {
  const auto [s, c] = dmath::sincos(angle);
  return Vec2(c, s);
}

}  // namespace pathlab
