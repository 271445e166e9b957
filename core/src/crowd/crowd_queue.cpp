// Queues in a large group's flow field (issue 27): the field of a group bound for one goal is
// searched on the crowd's grid with the cells where units queue made dearer, refreshed every
// kQueuePeriod, so the units that re-plan in a jam at one doorway take another doorway that
// costs less with its own queue (Treuille, Cooper and Popovic, "Continuum Crowds", 2006: the
// potential of a group pays for the density of the crowd on its way). A field on the bare grid
// sent 2,000 persons through the middle of three doorways while the other two stood nearly
// idle (the middle one passed twice the persons of each other, a queue of hundreds pressed
// against the wall beside it). The cells along walls are dearer too (add_wall_discomfort), so
// the ways approach doorways from in front, not along the wall face into a jamb.

#include <algorithm>
#include <cmath>
#include <vector>

#include "crowd/crowd_impl.hpp"

namespace pathlab {
namespace {

constexpr double kQueuePeriod = 1.0;  ///< How often the queue costs are taken afresh. [Units: s]
constexpr double kQueueHeld = 1.0;    ///< A unit held this long within lock_distance of one place queues. [Units: s]
constexpr float kQueueCost = 2.0f;    ///< Added to a cell's cost multiplier per unit queueing on it.
constexpr float kQueueCostMax = 8.0f; ///< At most this much in all per cell.
/// Cells whose centre lies within this of a wall cell's centre cost more in the fields, the
/// more the nearer (issue 27: a field on the bare grid ran a group's ways up along the wall
/// face into a doorway's jamb, where the units pressed against the wall locked for 30-43 s,
/// rarely let into the stream entering from the front). [Units: cells]
constexpr double kWallBand = 4.0;
/// Added to the cost multiplier of a cell next to a wall (distance 1), falling linearly to 0
/// at kWallBand + 1: Treuille, Cooper and Popovic's "discomfort" (Continuum Crowds, 2006).
constexpr double kWallDiscomfort = 3.0;

/// Per cell, the distance from its centre to the nearest wall cell's centre (the map's edge
/// counting as walls), capped at `cap`: a two-pass chamfer transform with steps 1 and sqrt(2)
/// (Borgefors, "Distance transformations in digital images", 1986).
std::vector<float> wall_distance(const Grid& grid, float cap) {
  const int w = grid.width(), h = grid.height();
  std::vector<float> d(static_cast<size_t>(w) * static_cast<size_t>(h));
  auto at = [&](int x, int y) -> float {
    if (x < 0 || y < 0 || x >= w || y >= h) return 0.0f;
    return d[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)];
  };
  const float diag = static_cast<float>(kSqrt2);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float v = grid.is_free(x, y) ? cap : 0.0f;
      if (v > 0.0f) v = std::min({v, at(x - 1, y) + 1.0f, at(x, y - 1) + 1.0f, at(x - 1, y - 1) + diag, at(x + 1, y - 1) + diag});
      d[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)] = v;
    }
  for (int y = h; y-- > 0;)
    for (int x = w; x-- > 0;) {
      float& v = d[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)];
      if (v > 0.0f) v = std::min({v, at(x + 1, y) + 1.0f, at(x, y + 1) + 1.0f, at(x + 1, y + 1) + diag, at(x - 1, y + 1) + diag});
    }
  return d;
}

}  // namespace

void CrowdImpl::add_wall_discomfort() {
  // A way through the field then approaches a doorway along its axis, through the doorway's
  // middle (its cells the farthest from the jambs), and the fields' line-of-sight smoothing
  // keeps out of the band where the way does (FlowFieldDef::sight_within_costs).
  const std::vector<float> d = wall_distance(grid_, static_cast<float>(kWallBand + 1.0));
  const int w = grid_.width();
  for (size_t i = 0; i < d.size(); ++i) {
    if (d[i] <= 0.0f || d[i] > kWallBand + 0.5) continue;
    const int x = static_cast<int>(i % static_cast<size_t>(w)), y = static_cast<int>(i / static_cast<size_t>(w));
    const double extra = kWallDiscomfort * std::clamp((kWallBand + 1.0 - d[i]) / kWallBand, 0.0, 1.0);
    wall_grid_.set_cost(x, y, static_cast<float>(wall_grid_.cost(x, y) + extra));
  }
}

const Grid& CrowdImpl::queue_grid() {
  // Taken afresh every kQueuePeriod and whenever a door changed the crowd's grid (a field must
  // never see a shut door open). A step's units are counted in index order: the same bytes
  // with any thread count.
  std::vector<uint8_t> doors(doors_.size());
  for (size_t k = 0; k < doors_.size(); ++k) doors[k] = doors_[k].open ? 1 : 0;
  const int64_t period = std::max<int64_t>(1, std::llround(kQueuePeriod / def_.dt));
  // Not while the fields' spread repair of the last queues is under way (flow_field_spread.cpp):
  // on a large map it may take longer than the period, and the fields would never be current.
  const bool periodic = steps_ - queue_step_ >= period && !flow_fields_.repairing();
  const bool due = queue_step_ < 0 || periodic || doors != queue_doors_;
  if (!due) return queue_grid_;
  if (queue_step_ < 0 || doors != queue_doors_) {
    // The band along the walls changes only with the doors (the crowd's grid changes only
    // there): its distance transform, 2-3 ms on a 512x512 map, is not redone every second.
    wall_grid_ = grid_;
    add_wall_discomfort();
  }
  queue_step_ = steps_;
  ++queue_version_;
  queue_doors_ = std::move(doors);
  queue_grid_ = wall_grid_;  // copied into the same storage
  const std::vector<float>& before = wall_grid_.costs();  // the cap below is over these
  const double t = time();
  for (const crowd::Agent& a : agents_) {
    if (a.st.reached || a.m.arrived || a.st.waiting || t - a.lock_since < kQueueHeld) continue;
    const Cell c = cell_of(a.st.pose.pos);
    if (!queue_grid_.is_free(c)) continue;
    const float base = before[static_cast<size_t>(c.y) * static_cast<size_t>(grid_.width()) + static_cast<size_t>(c.x)];
    queue_grid_.set_cost(c.x, c.y, std::min(queue_grid_.cost(c) + kQueueCost, base + kQueueCostMax));
  }
  return queue_grid_;
}

}  // namespace pathlab
