// The groups' fields follow the crowd (issue 27): the dynamic half of Treuille, Cooper and
// Popovic's "Continuum Crowds" (SIGGRAPH 2006), where a group's potential is solved again as
// the crowd's density changes. share_routes() (flow_field_share.cpp) spreads the groups' routes
// once, from where the units stood; on bench_crowd_scale's rooms (1,008 persons) two groups
// bound for opposite sides still met head-on in one doorway between rooms (8,6) and (8,7): from
// 300 s to 600 s 120-160 persons stood in those two rooms (1,000 persons: the same jam from 250
// to 400 s). Here, every kDensityPeriod, one large group's field (in a fixed round robin) is built
// afresh with the cells where the other groups' units stand now made dearer (their density on a
// coarse grid), and the group's units whose way ahead runs into such a crowd read their route
// again from it. All in the serial part of the step, in index order: the same bytes with any
// thread count.

#include <algorithm>
#include <cmath>

#include "crowd/crowd_impl.hpp"
#include "crowd/flow_field_crowd.hpp"

namespace pathlab {
namespace {

/// One large group's field is built afresh this often (each every kDensityPeriod times the
/// number of groups). [Units: s] [Limit: > 0]
constexpr double kDensityPeriod = 1.0;
/// The density is counted in squares of this many cells a side. [Units: cells]
constexpr int kDensityBlock = crowd::FlowFields::kDensitySquare;
/// Added to a cell's cost multiplier per other group's unit per cell of its square.
constexpr double kDensityCost = 3.0;
/// At most this much. A packed crowd holds about 2 persons a cell.
constexpr double kDensityMax = 6.0;
/// A unit of the group whose way within this runs through a square holding this many of the
/// other groups' units reads its route again. [Units: cells]
constexpr double kReplanAhead = 48.0;
constexpr int kReplanCount = 8;

}  // namespace

namespace crowd {

int FlowFields::shared_count() const noexcept { return static_cast<int>(std::min(shares_.size(), kMaxFields)); }

std::pair<Cell, double> FlowFields::shared_group(int k) const {
  const Share& s = shares_[static_cast<size_t>(k)];
  return {s.goal, s.radius};
}

bool FlowFields::rebuild_with_density(const Grid& grid, int k, std::vector<std::pair<int32_t, float>> density) {
  Share& s = shares_[static_cast<size_t>(k)];
  std::swap(s.density, density);
  auto field = build_shared(grid, s.goal, s.radius);
  if (!field) {
    std::swap(s.density, density);  // the field it had stays, with the cost it was built with
    return false;
  }
  replace(s.goal, s.radius, std::move(*field));
  if (seen_.empty()) seen_ = grid.costs();
  ++version_;
  return true;
}

}  // namespace crowd

void CrowdImpl::follow_density() {
  const int groups = flow_fields_.shared_count();
  if (def_.flow_field_units <= 0 || groups == 0) return;
  const int64_t period = std::max<int64_t>(1, std::llround(kDensityPeriod / def_.dt));
  if (steps_ % period != 0) return;
  // Plain names, not a structured binding: the lambdas below capture them (clang 14, the web
  // build's compiler, does not capture bindings).
  const std::pair<Cell, double> group = flow_fields_.shared_group(static_cast<int>((steps_ / period) % groups));
  const Cell goal = group.first;
  const double radius = group.second;
  // The other groups' units on their way (arrived ones stand aside on their slots), by square.
  const int w = grid_.width(), h = grid_.height();
  const int bw = (w + kDensityBlock - 1) / kDensityBlock, bh = (h + kDensityBlock - 1) / kDensityBlock;
  std::vector<int> others(static_cast<size_t>(bw) * static_cast<size_t>(bh), 0);
  auto square = [&](Cell c) { return static_cast<size_t>(c.y / kDensityBlock) * static_cast<size_t>(bw) + static_cast<size_t>(c.x / kDensityBlock); };
  auto own = [&](const crowd::Agent& a) { return cell_of(a.def.goal) == goal && crowd::FlowFields::class_radius(a.def.unit.radius) == radius; };
  for (const crowd::Agent& a : agents_) {
    const Cell c = cell_of(a.st.pose.pos);
    if (a.st.reached || a.m.arrived || own(a) || !grid_.in_bounds(c)) continue;
    ++others[square(c)];
  }
  std::vector<std::pair<int32_t, float>> density;
  const double per_cell = kDensityCost / static_cast<double>(kDensityBlock * kDensityBlock);
  for (size_t q = 0; q < others.size(); ++q) {
    if (others[q] > 0) density.emplace_back(static_cast<int32_t>(q), static_cast<float>(std::min(kDensityMax, per_cell * others[q])));
  }
  if (!flow_fields_.rebuild_with_density(queue_grid_, static_cast<int>((steps_ / period) % groups), std::move(density))) return;
  // The group's units heading into the other groups' crowd take the field's way now.
  for (int id = 0; id < static_cast<int>(agents_.size()); ++id) {
    crowd::Agent& a = agents_[static_cast<size_t>(id)];
    if (a.st.reached || a.st.waiting || a.slot >= 0 || !crowd::on_group_field(a) || !own(a)) continue;
    if (route_meets(a, kReplanAhead, [&](Cell c) { return grid_.in_bounds(c) && others[square(c)] >= kReplanCount; })) plan_route(id);
  }
}

bool CrowdImpl::route_meets(const crowd::Agent& a, double ahead, const std::function<bool(Cell)>& hit) const {
  // Sampled a cell apart along the route from the unit, its next waypoint on.
  Vec2 from = a.st.pose.pos;
  double left = ahead;
  for (size_t k = static_cast<size_t>(std::max(1, a.st.next_waypoint)); k < a.st.route.size() && left > 0.0; ++k) {
    const Vec2 seg = a.st.route[k] - from;
    const double len = std::min(glm::length(seg), left);
    const int n = static_cast<int>(std::ceil(len));
    const Vec2 dir = glm::length(seg) > 1e-9 ? seg / glm::length(seg) : Vec2(0.0);
    for (int i = 0; i <= n; ++i) {
      if (hit(cell_of(from + dir * std::min(len, static_cast<double>(i))))) return true;
    }
    left -= len;
    from = a.st.route[k];
  }
  return false;
}

}  // namespace pathlab
