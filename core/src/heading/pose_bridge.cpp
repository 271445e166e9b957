// The vehicle smoother's bridge over rotations in place (pose_smoother.hpp): where the turning
// smoother had to turn a unit on the spot, look for a Reeds-Shepp manoeuvre that starts a little
// before the corner and ends a little after it.

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "heading/pose_smoother_internal.hpp"

namespace pathlab {
namespace {

using namespace detail;

constexpr double kReach = 10.0;   // how far back and on the bridge may start and end [cells]
constexpr double kMeet = 1e-6;    // consecutive pieces must meet within this [cells]

/// Distances along `path` every `step`, from its end backwards (`back`) or its start onwards,
/// up to kReach away.
std::vector<double> stations(const SegmentPath& path, double step, bool back) {
  std::vector<double> out;
  for (double d = 0.0; d <= std::min(kReach, path.length()) + 1e-12; d += step)
    out.push_back(back ? path.length() - d : d);
  return out;
}

std::optional<Pose> pose_at(const SegmentPath& path, double s) {
  if (s <= 0.0) return path.start();
  if (s >= path.length()) return path.end();
  auto st = path.at_distance(s);
  if (!st) return std::nullopt;
  return Pose{st->pos, st->heading};
}

/// The first clear bridge from `a` (at distance sa) to `b` (at distance sb), or nothing.
std::optional<SegmentPath> bridge_at(const Grid& grid, const SegmentPath& a, double sa, const SegmentPath& b,
                                     double sb, const PoseSmoothDef& d) {
  const auto from = pose_at(a, sa), to = pose_at(b, sb);
  if (!from || !to) return std::nullopt;
  SegmentPath before(a.start()), after(*to);
  if (sa > 0.0 && !append_cut(a, 0.0, sa, before)) return std::nullopt;
  if (sb < b.length() && !append_cut(b, sb, b.length(), after)) return std::nullopt;
  const Neighbours nb{last_gear(before), trailing_run(before), first_gear(after), leading_run(after)};
  for (const SegmentPath& c : connections(*from, *to, 1e300, d)) {
    if (!gear_runs_ok(c.segments(), nb, d) || !connection_clear(grid, c, d)) continue;
    SegmentPath joined = before;
    if (!joined.append(c) || !joined.append(after)) continue;
    if (!joined.snap_end(b.end(), 1e-6)) continue;
    return joined;
  }
  return std::nullopt;
}

std::optional<SegmentPath> bridge(const Grid& grid, const SegmentPath& a, const SegmentPath& b, const PoseSmoothDef& d) {
  const std::vector<double> back = stations(a, d.pose_step, true), on = stations(b, d.pose_step, false);
  // Nearest pairs first: by the sum of the two distances from the corner.
  for (size_t sum = 0; sum + 1 < back.size() + on.size(); ++sum)
    for (size_t i = 0; i < back.size() && i <= sum; ++i) {
      const size_t j = sum - i;
      if (j >= on.size()) continue;
      if (auto joined = bridge_at(grid, a, back[i], b, on[j], d)) return joined;
    }
  return std::nullopt;
}

}  // namespace

Result<std::vector<SegmentPath>> join_rotations(const Grid& grid, const std::vector<SegmentPath>& pieces,
                                                const PoseSmoothDef& def) {
  // smooth_pose_path() checks the definition; an empty path is the cheapest way to ask.
  if (auto checked = smooth_pose_path(grid, SegmentPath(), def); !checked) return checked.error();
  PoseSmoothDef d = def;
  d.allow_reverse = true;
  for (size_t k = 1; k < pieces.size(); ++k)
    if (glm::length(pieces[k - 1].end().pos - pieces[k].start().pos) > kMeet)
      return fail(StatusCode::invalid_argument,
                  "join_rotations: piece " + std::to_string(k) + " does not start where the one before ends");
  std::vector<SegmentPath> out;
  size_t k = 0;
  while (k < pieces.size()) {
    if (out.empty()) {
      out.push_back(pieces[k++]);
      continue;
    }
    // The next piece, or one after it when the pieces skipped are short (two rotations close
    // together, as in a gap between parked cars: the manoeuvre goes around both).
    bool done = false;
    double skipped = 0.0;
    for (size_t m = k; m < pieces.size() && skipped <= kReach && !done; skipped += pieces[m++].length()) {
      if (auto joined = bridge(grid, out.back(), pieces[m], d)) {
        out.back() = std::move(*joined);
        k = m + 1;
        done = true;
      }
    }
    if (!done) out.push_back(pieces[k++]);
  }
  return out;
}

}  // namespace pathlab
