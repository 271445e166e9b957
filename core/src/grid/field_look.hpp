#pragma once
// One point's bounds from the clearance field, kept for the next question about the same point
// (collision.hpp). The swept check asks about each chord's start three times (the room to skip
// chords, the disc at either end, the first step along the chord) and about its end again as the
// next chord's start. Internal to the core; never installed.

#include <algorithm>
#include <cmath>
#include <limits>

#include "pathlab/collision.hpp"

namespace pathlab::detail {

/// The field's bounds at `p`, looked up once; fine_lower_bound() only when asked for.
struct FieldLook {
  Vec2 p{std::numeric_limits<double>::quiet_NaN(), 0.0};
  ClearanceField::Bounds bounds{};
  double fine = std::numeric_limits<double>::quiet_NaN();  ///< fine_lower_bound(p); NaN until asked

  FieldLook() = default;
  FieldLook(const ClearanceField& field, Vec2 at) : p(at), bounds(field.bounds(at)) {}

  /// ClearanceField::lower_bound_for(p, want), the same value. [Units: cells]
  double lower_for(const ClearanceField& field, double want) {
    if (bounds.lower >= want) return bounds.lower;
    if (std::isnan(fine)) fine = field.fine_lower_bound(p);
    return std::max(bounds.lower, fine);
  }
};

/// segment_clear_fine(grid, field, a.p, b.p, radius), the same answer, with the looks at the
/// ends taken from (and kept in) `a` and `b`.
bool segment_clear_fine(const Grid& grid, const ClearanceField& field, FieldLook& a, FieldLook& b, double radius);

}  // namespace pathlab::detail
