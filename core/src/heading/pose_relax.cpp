// The vehicle smoother's relaxation (pose_smoother.hpp): coordinate descent on the poses where
// two shortcut connections meet. The shortcut stage leaves those poses where the search put
// them, with its heading errors; each error shows as an S-bend on both sides. Nudging the pose
// and reconnecting both legs with the shortest clear curve removes the bend when that is
// cheaper, in the spirit of the smoothness term of Dolgov, Thrun, Montemerlo and Diebel,
// "Path Planning for Autonomous Vehicles in Unknown Semi-structured Environments" (IJRR 2010).

#include <array>
#include <cmath>
#include <optional>

#include "heading/pose_smoother_internal.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab::detail {
namespace {

constexpr std::array<double, 3> kHeadingSteps = {0.2, 0.05, 0.01};  // [radians]
constexpr std::array<double, 2> kSideSteps = {0.25, 0.05};          // [cells]
constexpr int kMaxSweeps = 6;

struct Pair {
  SegmentPath a, b;
  double cost = 0.0;
};

std::vector<Segment> joined(const SegmentPath& a, const SegmentPath& b) {
  std::vector<Segment> segs(a.segments().begin(), a.segments().end());
  segs.insert(segs.end(), b.segments().begin(), b.segments().end());
  return segs;
}

/// The cheapest clear pair of connections from `from` through `via` to `to` that is cheaper
/// than `best_cost` and no longer than `max_length`.
std::optional<Pair> reconnect(const Grid& grid, const Pose& from, const Pose& via, const Pose& to,
                              const Neighbours& nb, double best_cost, double max_length, const PoseSmoothDef& d) {
  const std::vector<SegmentPath> firsts = connections(from, via, max_length, d);
  for (const SegmentPath& a : firsts) {
    const std::vector<SegmentPath> seconds = connections(via, to, max_length - a.length(), d);
    for (const SegmentPath& b : seconds) {
      const std::vector<Segment> segs = joined(a, b);
      const double cost = segments_cost(segs, nb.prev_gear, nb.next_gear, d);
      if (cost >= best_cost - kPoseSmoothEps) continue;
      if (!gear_runs_ok(segs, nb, d)) continue;
      if (connection_clear(grid, a, d) && connection_clear(grid, b, d)) return Pair{a, b, cost};
    }
  }
  return std::nullopt;
}

/// One junction between legs k-1 and k: tries each nudge of the meeting pose; true when one helped.
bool relax_one(const Grid& grid, std::vector<Leg>& legs, size_t k, const PoseSmoothDef& d) {
  Leg& first = legs[k - 1];
  Leg& second = legs[k];
  const Neighbours nb{k >= 2 ? last_gear(legs[k - 2].piece) : 0, k >= 2 ? trailing_run(legs[k - 2].piece) : 0.0,
                      k + 1 < legs.size() ? first_gear(legs[k + 1].piece) : 0,
                      k + 1 < legs.size() ? leading_run(legs[k + 1].piece) : 0.0};
  const std::vector<Segment> now = joined(first.piece, second.piece);
  double best = segments_cost(now, nb.prev_gear, nb.next_gear, d);
  const double max_length = first.piece.length() + second.piece.length();
  const Pose from = first.piece.start(), to = second.piece.end();
  bool improved = false;
  for (double h : kHeadingSteps) {
    for (double side : kSideSteps) {
      for (int sign : {1, -1}) {
        for (int what : {0, 1}) {  // 0: turn the pose, 1: move it sideways
          const Pose at = second.piece.start();
          const Vec2 along = angle_dir(at.heading), normal(-along.y, along.x);
          Pose via = at;
          if (what == 0) via.heading = wrap_angle(at.heading + sign * h);
          else via.pos = at.pos + normal * (sign * side);
          auto pair = reconnect(grid, from, via, to, nb, best, max_length, d);
          if (!pair) continue;
          best = pair->cost;
          first.piece = std::move(pair->a);
          second.piece = std::move(pair->b);
          improved = true;
        }
      }
    }
  }
  return improved;
}

}  // namespace

int relax_junctions(const Grid& grid, std::vector<Leg>& legs, const PoseSmoothDef& d) {
  int moved = 0;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    int this_sweep = 0;
    for (size_t k = 1; k < legs.size(); ++k)
      if (legs[k - 1].shortcut && legs[k].shortcut && relax_one(grid, legs, k, d)) ++this_sweep;
    moved += this_sweep;
    if (this_sweep == 0) break;
  }
  return moved;
}

}  // namespace pathlab::detail
