// Repairing a flow field after cells of its map changed (FlowField::update): the cells whose
// way downhill ran through a changed cell (or beside one, on a diagonal step) lose their cost
// and are searched again from the unchanged cells around them; a changed cell that became
// cheaper or free spreads its lower costs from there. The unchanged cells' costs are exact
// upper bounds (their old ways still exist at the old cost), so one Dijkstra search from that
// boundary gives the same costs as a rebuild (the incremental shortest-path repair of
// Ramalingam and Reps, "An incremental algorithm for a generalization of the shortest-path
// problem", 1996, in its simplest form).

#include <algorithm>
#include <cmath>
#include <string>

#include "crowd/flow_field_steps.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/flow_field.hpp"

namespace pathlab {

using namespace flow_field_detail;

Result<FlowFieldUpdate> FlowField::update(const Grid& grid, std::span<const Cell> changed) {
  if (grid.width() != width_ || grid.height() != height_) {
    return fail(StatusCode::invalid_argument, "flow field update: the grid is " + std::to_string(grid.width()) + "x" +
                                                  std::to_string(grid.height()) + ", the field was built for " +
                                                  std::to_string(width_) + "x" + std::to_string(height_));
  }
  for (size_t k = 0; k < changed.size(); ++k) {
    if (!in_bounds(changed[k])) {
      return fail(StatusCode::out_of_bounds, "flow field update: changed cell " + std::to_string(k) + " (" +
                                                 std::to_string(changed[k].x) + ", " + std::to_string(changed[k].y) +
                                                 ") is outside the map");
    }
  }
  FlowFieldUpdate out;
  // A wall within the radius of a cell's centre decides whether the cell is passable.
  const int reach = def_.agent_radius > 0.5 ? static_cast<int>(std::ceil(def_.agent_radius)) : 0;
  std::vector<int64_t> dirty;
  for (const Cell& c : changed) set_passability(grid, Cell{c.x - reach, c.y - reach}, Cell{c.x + reach, c.y + reach}, &dirty);
  out.changed_cells = static_cast<int64_t>(dirty.size());
  if (dirty.empty()) return out;
  std::vector<int64_t> seeds;
  invalidate(dirty, seeds);
  search(seeds, &out.touched_cells);
  return out;
}

void FlowField::set_passability(const Grid& grid, Cell lo, Cell hi, std::vector<int64_t>* changed) {
  // passable_cells() itself, on a piece of the map wide enough that every wall within the
  // radius of the cells [lo, hi] is in it (the piece's edge is the map's edge or farther than
  // the radius from them), so the rule is the referee's to the last bit.
  const int reach = def_.agent_radius > 0.5 ? static_cast<int>(std::ceil(def_.agent_radius)) : 0;
  lo = Cell{std::max(lo.x, 0), std::max(lo.y, 0)};
  hi = Cell{std::min(hi.x, width_ - 1), std::min(hi.y, height_ - 1)};
  if (hi.x < lo.x || hi.y < lo.y) return;
  const Cell plo{std::max(lo.x - reach, 0), std::max(lo.y - reach, 0)};
  const Cell phi{std::min(hi.x + reach, width_ - 1), std::min(hi.y + reach, height_ - 1)};
  Grid piece = Grid::create(phi.x - plo.x + 1, phi.y - plo.y + 1).value();
  for (int y = plo.y; y <= phi.y; ++y) {
    for (int x = plo.x; x <= phi.x; ++x) piece.set_cost(x - plo.x, y - plo.y, grid.cost(x, y));
  }
  const std::vector<uint8_t> pass = passable_cells(piece, def_.agent_radius);
  for (int y = lo.y; y <= hi.y; ++y) {
    for (int x = lo.x; x <= hi.x; ++x) {
      const float now = pass[static_cast<size_t>(piece.index(x - plo.x, y - plo.y))] ? grid.cost(x, y) : kBlocked;
      const size_t i = static_cast<size_t>(index(Cell{x, y}));
      if (now == cost_[i]) continue;
      cost_[i] = now;
      changed->push_back(static_cast<int64_t>(i));
    }
  }
}

void FlowField::invalidate(const std::vector<int64_t>& changed, std::vector<int64_t>& seeds) {
  // 1: the changed cells, the cells whose diagonal step downhill passes beside one, and every
  // cell whose way downhill leads through those (the subtree below them).
  std::vector<uint8_t> bad(dist_.size(), 0);
  std::vector<int64_t> lost;
  auto lose = [&](int64_t i) {
    if (bad[static_cast<size_t>(i)]) return;
    bad[static_cast<size_t>(i)] = 1;
    lost.push_back(i);
  };
  auto cell = [&](int64_t i) { return Cell{static_cast<int>(i % width_), static_cast<int>(i / width_)}; };
  for (int64_t i : changed) {
    lose(i);
    const Cell c = cell(i);
    for (int k = 0; k < 8; ++k) {
      const Cell m{c.x + kDx[k], c.y + kDy[k]};
      if (!in_bounds(m)) continue;
      const uint8_t down = next_[static_cast<size_t>(index(m))];
      if (down == kNone || down < 4) continue;
      const Cell side1{m.x + kDx[down], m.y}, side2{m.x, m.y + kDy[down]};
      if (side1 == c || side2 == c) lose(index(m));
    }
  }
  for (size_t q = 0; q < lost.size(); ++q) {
    const Cell c = cell(lost[q]);
    for (int k = 0; k < 8; ++k) {
      const Cell m{c.x + kDx[k], c.y + kDy[k]};
      if (in_bounds(m) && next_[static_cast<size_t>(index(m))] == opposite(k)) lose(index(m));
    }
  }
  // 2: they lose their costs; goal cells start again at 0, and the unchanged cells around the
  // lost ones spread their costs into them.
  for (int64_t i : lost) {
    dist_[static_cast<size_t>(i)] = kUnreached;
    next_[static_cast<size_t>(i)] = kNone;
  }
  for (int64_t i : lost) {
    const size_t u = static_cast<size_t>(i);
    if (is_goal_[u] && cost_[u] != kBlocked) {
      dist_[u] = 0.0;
      seeds.push_back(i);
    }
    const Cell c = cell(i);
    for (int k = 0; k < 8; ++k) {
      const Cell m{c.x + kDx[k], c.y + kDy[k]};
      if (!in_bounds(m)) continue;
      const size_t mi = static_cast<size_t>(index(m));
      if (bad[mi] != 0 || !std::isfinite(dist_[mi])) continue;
      bad[mi] = 2;  // seeded once
      seeds.push_back(static_cast<int64_t>(mi));
    }
  }
}

}  // namespace pathlab
