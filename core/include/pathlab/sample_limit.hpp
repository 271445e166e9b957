#pragma once
/// @file sample_limit.hpp
/// The one limit on how many points a sampling may produce (curves, resampled paths, the
/// heading planners' output), so that a tiny step such as 1e-9 or 1e-300 fails at once with
/// one message instead of filling memory or overflowing an int. Counts are computed in double
/// and checked before any cast to an integer type.

#include <span>
#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// The most points one sampling may produce. [Limit: 1e7 points, about 160 MB as x, y pairs]
inline constexpr double kMaxSamples = 1e7;

/// Checks a point count computed in double (NaN and infinity fail too). `step` [cells] is
/// quoted in the message: "sampling every STEP cells gives N points, more than the limit of
/// 10000000; use a larger step". Error code too_large.
Status check_sample_count(double count, double step);

/// ceil(length / step) pieces as a checked count: the number of pieces a stretch of `length`
/// cells is cut into so that none is longer than `step`. Both must be finite, step > 0,
/// length >= 0; at least 1 piece.
Result<long long> checked_piece_count(double length, double step);

/// Points at most `step` [cells] [Limit: > 0, finite] apart along the polyline, keeping every
/// original vertex; evenly spaced within each edge. Fails with check_sample_count's message
/// when the result would exceed kMaxSamples points.
Result<std::vector<Vec2>> resample_polyline(std::span<const Vec2> points, double step);

}  // namespace pathlab
