#pragma once
// The eight steps of a flow field (flow_field.hpp) and its markers, shared by its building,
// repair and reading (flow_field*.cpp).

#include <cstdint>
#include <limits>

#include "pathlab/geometry.hpp"

namespace pathlab::flow_field_detail {

/// The cost of a cell no way leads from.
inline constexpr double kUnreached = std::numeric_limits<double>::infinity();
/// FlowField::next_ of a goal cell and of an unreachable one.
inline constexpr uint8_t kNone = 255;

// Directions in the grid searches' order: 0..3 orthogonal (E, S, W, N), 4..7 diagonal (SE, SW,
// NW, NE).
inline constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
inline constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};
/// For a diagonal step k (4..7), the orthogonal steps beside it (both must be passable: no
/// corner cutting); unused for 0..3.
inline constexpr int kSide1[8] = {0, 0, 0, 0, 0, 2, 2, 0};
inline constexpr int kSide2[8] = {0, 0, 0, 0, 1, 1, 3, 3};
inline constexpr double kStepLength[8] = {1.0, 1.0, 1.0, 1.0, kSqrt2, kSqrt2, kSqrt2, kSqrt2};

/// The direction back along step k.
inline constexpr int opposite(int k) { return k < 4 ? (k + 2) % 4 : 4 + (k - 2) % 4; }

}  // namespace pathlab::flow_field_detail
