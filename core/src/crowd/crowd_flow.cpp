// Traffic on the routes: each unit's planned route marks the cells it runs through with its
// direction of travel, and a route search pays extra for cells that units going the other way
// are about to use. Later units then choose another doorway, or the other side of a wide one,
// instead of walking into the oncoming stream: two blocks of 100 swapping through three
// doorways spread over all three instead of meeting nose to nose in the middle one. A simple
// form of the congestion-aware assignment of routes; the avoidance between units stays ORCA.
// Units that have arrived and stand still count too: the cells under them cost extra, so a
// car routes round a group settled on its goal instead of driving into it again and again.

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"

namespace pathlab {
namespace {

constexpr double kFlowSample = 0.5;  ///< Spacing of the samples that mark a route's cells. [Units: cells]
constexpr double kFlowCost = 0.5;    ///< Extra cost multiplier per oncoming route through a cell.
constexpr double kFlowCostCap = 8.0; ///< Most extra cost multiplier a cell gets from traffic.
constexpr float kSettledCost = 6.0f; ///< Extra cost multiplier of a cell under a unit that has arrived.
constexpr double kSettledNearTarget = 1.5;  ///< Settled units this close to the target do not bar a straight route. [Units: cells]
constexpr double kBusyOncoming = 0.9;  ///< A cell with this much oncoming flow (about one route) bars a straight route.

}  // namespace

void CrowdImpl::mark_flow(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  crowd::FlowMarks& marks = a.flow_marks;
  size_t begin = 0;
  for (const auto& [end, dir] : marks.runs) {
    for (size_t k = begin; k < end; ++k) flow_[static_cast<size_t>(marks.cells[k])] -= dir;
    begin = end;
  }
  marks.clear();
  if (a.st.reached || a.st.waiting) return;
  const auto& route = a.st.route;
  int last = -1;
  for (size_t k = a.st.next_waypoint > 0 ? static_cast<size_t>(a.st.next_waypoint) - 1 : 0; k + 1 < route.size(); ++k) {
    const Vec2 seg = route[k + 1] - route[k];
    const double len = glm::length(seg);
    if (len < 1e-9) continue;
    const Vec2 dir = seg / len;
    const int n = static_cast<int>(std::ceil(len / kFlowSample));
    for (int i = 0; i <= n; ++i) {
      const Vec2 p = route[k] + seg * (static_cast<double>(i) / n);
      const Cell c = cell_of(p);
      if (!grid_.in_bounds(c)) continue;
      const int index = c.y * grid_.width() + c.x;
      if (index == last) continue;
      last = index;
      flow_[static_cast<size_t>(index)] += dir;
      marks.cells.push_back(index);
    }
    if (marks.cells.size() > (marks.runs.empty() ? 0 : marks.runs.back().first)) {
      marks.runs.emplace_back(static_cast<uint32_t>(marks.cells.size()), dir);
    }
  }
}

void CrowdImpl::mark_settled() {
  if (settled_step_ == steps_) return;
  settled_step_ = steps_;
  for (int cell : settled_cells_) settled_[static_cast<size_t>(cell)] = 0;
  settled_cells_.clear();
  if (settled_.size() != flow_.size()) settled_.assign(flow_.size(), 0);
  for (const crowd::Agent& a : agents_) {
    if (!a.st.reached) continue;
    const Vec2 c = a.st.pose.pos;
    const double r = a.def.unit.radius;
    for (int y = static_cast<int>(std::floor(c.y - r)); y <= static_cast<int>(std::floor(c.y + r)); ++y) {
      for (int x = static_cast<int>(std::floor(c.x - r)); x <= static_cast<int>(std::floor(c.x + r)); ++x) {
        if (!grid_.in_bounds(x, y)) continue;
        const int cell = y * grid_.width() + x;
        if (settled_[static_cast<size_t>(cell)]++ == 0) settled_cells_.push_back(cell);
      }
    }
  }
}

float CrowdImpl::traffic_cost(int x, int y, Vec2 dir) const {
  const float base = grid_.cost(x, y);
  if (base == kBlocked) return base;
  const size_t cell = static_cast<size_t>(y * grid_.width() + x);
  const float settled = settled_.empty() || settled_[cell] == 0 ? 0.0f : kSettledCost;
  const double oncoming = -glm::dot(flow_[cell], dir);
  if (oncoming <= 0.0) return base + settled;
  return base + settled + static_cast<float>(std::min(kFlowCostCap, kFlowCost * oncoming));
}

bool CrowdImpl::straight_way_busy(Vec2 from, Vec2 to) {
  mark_settled();
  const Vec2 seg = to - from;
  const double len = glm::length(seg);
  const int n = static_cast<int>(std::ceil(len / kFlowSample));
  const Vec2 dir = len > 1e-9 ? seg / len : Vec2(0.0);
  for (int i = 0; i <= n; ++i) {
    const Vec2 p = from + seg * (n > 0 ? static_cast<double>(i) / n : 0.0);
    const Cell c = cell_of(p);
    if (!grid_.in_bounds(c) || glm::length(p - to) < kSettledNearTarget) continue;
    const size_t cell = static_cast<size_t>(c.y * grid_.width() + c.x);
    if (settled_[cell] > 0 || -glm::dot(flow_[cell], dir) >= kBusyOncoming) return true;
  }
  return false;
}

}  // namespace pathlab

namespace pathlab {

bool CrowdImpl::fill_traffic_grid(int id, Vec2 dir, double radius) {
  const double len = glm::length(dir);
  bool others = false;
  for (size_t i = 0; i < agents_.size() && !others; ++i) others = static_cast<int>(i) != id && !agents_[i].flow_marks.empty();
  mark_settled();
  others = others || !settled_cells_.empty();
  // A wide unit's route keeps off the walls even with no traffic (crowd_clearance.cpp).
  const bool clearance = prepare_clearance(radius);
  if (!clearance && (!others || len < 1e-9)) return false;
  dir = len > 1e-9 ? dir / len : Vec2(0.0);
  if (avoid_grid_.width() != grid_.width() || avoid_grid_.height() != grid_.height()) avoid_grid_ = grid_;
  for (int y = 0; y < grid_.height(); ++y) {
    for (int x = 0; x < grid_.width(); ++x) {
      float c = traffic_cost(x, y, dir);
      if (clearance && c != kBlocked) c += clearance_cost(x, y, radius);
      avoid_grid_.set_cost(x, y, c);
    }
  }
  return true;
}

}  // namespace pathlab
