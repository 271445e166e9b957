// The groups' routes spread by traffic (issue 27). Each large group's field was searched on the
// same grid, so on bench_crowd_scale's map of rooms all 8 groups' ways funnelled through the
// same doors across the map's centre, though its grid of rooms offers many ways of (nearly) the
// same length: at 200 s, 232 persons stood in one clump in the centre room where two groups met
// head-on and a third crossed them. Here a group's field pays for the cells where the other
// groups' routes run, a band a few cells wide round each (Treuille, Cooper and Popovic,
// "Continuum Crowds", SIGGRAPH 2006: a group's potential pays for the crowd's density on its
// way; here the density is the one the routes foresee, taken once when the fields are built).
// Two passes: the first in the groups' order, each group avoiding the routes traced before it
// (two groups head-on would otherwise both turn to the same side and meet again); the second
// with every group avoiding all the others' first routes, so the first group is not favoured.

#include <algorithm>
#include <optional>

#include "crowd/crowd_impl.hpp"
#include "crowd/flow_field_crowd.hpp"

namespace pathlab::crowd {
namespace {

/// Cells within this of a route's cells (a square) are its band: a group walks several
/// persons wide, not on its route's line (bench_crowd_scale, rooms, 1,000 / 992 / 1,008
/// persons arrived in 600 s: 960 / 861 / 804 with a band 2 cells each side, 981 / 979 / 862
/// with 4). [Units: cells] [Limit: >= 0]
constexpr int kShareBand = 4;
/// Added to a cell's cost multiplier in a group's field per other group whose band holds it.
constexpr float kShareCost = 1.0f;
/// At most this much in all per cell.
constexpr float kShareCostMax = 3.0f;

/// The band round the way downhill from each of `from` to the goal, in index order. The ways
/// mostly merge: each walk stops at a cell already walked.
std::vector<int32_t> route_band(const FlowField& field, const std::vector<Cell>& from) {
  const int w = field.width(), h = field.height();
  std::vector<uint8_t> walked(static_cast<size_t>(w) * static_cast<size_t>(h), 0);
  std::vector<uint8_t> band(walked.size(), 0);
  for (Cell c : from) {
    if (!field.reachable(c)) continue;
    for (int64_t k = 0; k < static_cast<int64_t>(walked.size()); ++k) {
      const size_t i = static_cast<size_t>(c.y) * static_cast<size_t>(w) + static_cast<size_t>(c.x);
      if (walked[i] != 0) break;
      walked[i] = 1;
      for (int y = std::max(0, c.y - kShareBand); y <= std::min(h - 1, c.y + kShareBand); ++y) {
        for (int x = std::max(0, c.x - kShareBand); x <= std::min(w - 1, c.x + kShareBand); ++x) {
          band[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)] = 1;
        }
      }
      const Cell n = field.next_cell(c);
      if (n == c) break;
      c = n;
    }
  }
  std::vector<int32_t> out;
  for (size_t i = 0; i < band.size(); ++i) {
    if (band[i] != 0) out.push_back(static_cast<int32_t>(i));
  }
  return out;
}

}  // namespace

bool FlowFields::shared(Cell goal, double radius) const { return share_of(goal, radius) >= 0; }

int FlowFields::share_of(Cell goal, double radius) const {
  for (size_t k = 0; k < shares_.size(); ++k) {
    if (shares_[k].goal == goal && shares_[k].radius == radius) return static_cast<int>(k);
  }
  return -1;
}

const Grid& FlowFields::add_bands(const Grid& grid, const std::vector<Share>& shares, int k, Grid& scratch) {
  std::vector<uint8_t> count;
  for (size_t o = 0; o < shares.size(); ++o) {
    if (static_cast<int>(o) == k || shares[o].band.empty()) continue;
    if (grid.costs().size() <= static_cast<size_t>(shares[o].band.back())) continue;  // another map's
    if (count.empty()) count.assign(grid.costs().size(), 0);
    for (int32_t i : shares[o].band) count[static_cast<size_t>(i)] = static_cast<uint8_t>(std::min(255, count[static_cast<size_t>(i)] + 1));
  }
  const int sw = (grid.width() + kDensitySquare - 1) / kDensitySquare;
  const int squares = sw * ((grid.height() + kDensitySquare - 1) / kDensitySquare);
  const bool own = k >= 0 && static_cast<size_t>(k) < shares.size() && !shares[static_cast<size_t>(k)].density.empty() &&
                   shares[static_cast<size_t>(k)].density.back().first < squares;  // else another map's
  if (count.empty() && !own) return grid;
  scratch = grid;
  if (own) {  // the other groups' units where they stood at the last rebuild_with_density
    for (const auto& [i, extra] : shares[static_cast<size_t>(k)].density) {
      const int x0 = (i % sw) * kDensitySquare, y0 = (i / sw) * kDensitySquare;
      for (int y = y0; y < std::min(grid.height(), y0 + kDensitySquare); ++y) {
        for (int x = x0; x < std::min(grid.width(), x0 + kDensitySquare); ++x) {
          if (scratch.is_free(x, y)) scratch.set_cost(x, y, scratch.cost(x, y) + extra);
        }
      }
    }
  }
  if (count.empty()) return scratch;
  const int w = grid.width();
  for (size_t i = 0; i < count.size(); ++i) {
    if (count[i] == 0) continue;
    const int x = static_cast<int>(i % static_cast<size_t>(w)), y = static_cast<int>(i / static_cast<size_t>(w));
    if (!scratch.is_free(x, y)) continue;
    scratch.set_cost(x, y, scratch.cost(x, y) + std::min(kShareCostMax, kShareCost * static_cast<float>(count[i])));
  }
  return scratch;
}

const Grid& FlowFields::with_share(const Grid& grid, Cell goal, double radius, Grid& scratch) const {
  const int k = share_of(goal, radius);
  return k < 0 ? grid : add_bands(grid, shares_, k, scratch);
}

Result<FlowField> FlowFields::build_shared(const Grid& grid, Cell goal, double radius) const {
  Grid scratch;
  return build_towards(with_share(grid, goal, radius, scratch), goal, radius);
}

void FlowFields::share_routes(const Grid& grid, const std::vector<GroupFrom>& groups, const ForEach& for_each) {
  const size_t n = std::min(groups.size(), kMaxFields);
  std::vector<Share> shares(n);
  // The first pass, in order: group k avoids the routes of the groups before it (the bands
  // after it are still empty).
  for (size_t k = 0; k < n; ++k) {
    shares[k].goal = groups[k].goal;
    shares[k].radius = groups[k].radius;
    Grid scratch;
    auto field = build_towards(add_bands(grid, shares, static_cast<int>(k), scratch), groups[k].goal, groups[k].radius);
    if (field) shares[k].band = route_band(*field, groups[k].from);
  }
  // The second: every group avoids all the others' first routes (each reads only the bands).
  std::vector<std::optional<FlowField>> fields(n);
  auto build = [&](int k) {
    Grid scratch;
    auto field = build_towards(add_bands(grid, shares, k, scratch), groups[static_cast<size_t>(k)].goal, groups[static_cast<size_t>(k)].radius);
    if (field) fields[static_cast<size_t>(k)] = std::move(*field);
  };
  if (for_each) {
    for_each(static_cast<int>(n), build);
  } else {
    for (size_t k = 0; k < n; ++k) build(static_cast<int>(k));
  }
  // The fields replace those of the same groups (replace()). Groups beyond the cap get an empty
  // band, so that asking for their fields does not share the routes again.
  for (size_t k = n; k < groups.size(); ++k) shares.push_back(Share{groups[k].goal, groups[k].radius, {}, {}});
  shares_ = std::move(shares);
  for (size_t k = 0; k < n; ++k) replace(groups[k].goal, groups[k].radius, std::move(fields[k]));
  if (seen_.empty()) seen_ = grid.costs();
  ++version_;
}

}  // namespace pathlab::crowd

namespace pathlab {

void CrowdImpl::share_group_routes() {
  // The large groups in the order of their first units, each with the cells its units stand on
  // (the routes are traced from there).
  std::vector<crowd::FlowFields::GroupFrom> groups;
  for (const crowd::Agent& a : agents_) {
    if (def_.flow_field_units <= 0 || !a.holonomic || !flow_group_large(a)) continue;
    const Cell goal = cell_of(a.def.goal);
    const double radius = crowd::FlowFields::class_radius(a.def.unit.radius);
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& o) { return o.goal == goal && o.radius == radius; });
    if (g == groups.end()) g = groups.insert(groups.end(), crowd::FlowFields::GroupFrom{goal, radius, {}});
    g->from.push_back(cell_of(a.st.pose.pos));
  }
  // The second pass on the worker threads, unless they are busy (beside a spread repair).
  auto on_pool = [this](int n, const std::function<void(int)>& item) {
    nested_parallel_phase("route share", n, [&](int begin, int end, int) {
      for (int k = begin; k < end; ++k) item(k);
    });
  };
  flow_fields_.share_routes(queue_grid_, groups, flow_fields_.beside() ? crowd::FlowFields::ForEach{} : on_pool);
}

}  // namespace pathlab
