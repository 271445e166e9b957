// Queues in a large group's flow field (issue 27): the field of a group bound for one goal is
// searched on the crowd's grid with the cells where units queue made dearer, refreshed every
// kQueuePeriod, so the units that re-plan in a jam at one doorway take another doorway that
// costs less with its own queue (Treuille, Cooper and Popovic, "Continuum Crowds", 2006: the
// potential of a group pays for the density of the crowd on its way). A field on the bare grid
// sent 2,000 persons through the middle of three doorways while the other two stood nearly
// idle (the middle one passed twice the persons of each other, a queue of hundreds pressed
// against the wall beside it).

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"

namespace pathlab {
namespace {

constexpr double kQueuePeriod = 1.0;  ///< How often the queue costs are taken afresh. [Units: s]
constexpr double kQueueHeld = 1.0;    ///< A unit held this long within lock_distance of one place queues. [Units: s]
constexpr float kQueueCost = 2.0f;    ///< Added to a cell's cost multiplier per unit queueing on it.
constexpr float kQueueCostMax = 8.0f; ///< At most this much in all per cell.

}  // namespace

const Grid& CrowdImpl::queue_grid() {
  // Taken afresh every kQueuePeriod and whenever a door changed the crowd's grid (a field must
  // never see a shut door open). A step's units are counted in index order: the same bytes
  // with any thread count.
  std::vector<uint8_t> doors(doors_.size());
  for (size_t k = 0; k < doors_.size(); ++k) doors[k] = doors_[k].open ? 1 : 0;
  const int64_t period = std::max<int64_t>(1, std::llround(kQueuePeriod / def_.dt));
  const bool due = queue_step_ < 0 || steps_ - queue_step_ >= period || doors != queue_doors_;
  if (!due) return queue_grid_;
  queue_step_ = steps_;
  ++queue_version_;
  queue_doors_ = std::move(doors);
  queue_grid_ = grid_;  // copied into the same storage
  const double t = time();
  for (const crowd::Agent& a : agents_) {
    if (a.st.reached || a.m.arrived || a.st.waiting || t - a.lock_since < kQueueHeld) continue;
    const Cell c = cell_of(a.st.pose.pos);
    if (!queue_grid_.is_free(c)) continue;
    const float base = grid_.cost(c);
    queue_grid_.set_cost(c.x, c.y, std::min(queue_grid_.cost(c) + kQueueCost, base + kQueueCostMax));
  }
  return queue_grid_;
}

}  // namespace pathlab
