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
#include <limits>
#include <string>

#include "crowd/flow_field_steps.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/flow_field.hpp"

namespace pathlab {

using namespace flow_field_detail;

Result<FlowFieldUpdate> FlowField::update(const Grid& grid, std::span<const Cell> changed) {
  auto out = start_update(grid, changed);
  if (!out) return out;
  repair_some(std::numeric_limits<int64_t>::max(), &out->touched_cells);
  return out;
}

Result<int64_t> FlowField::begin_update(const Grid& grid, std::span<const Cell> changed) {
  auto out = start_update(grid, changed);
  if (!out) return out.error();
  return out->changed_cells;
}

int64_t FlowField::continue_update(int64_t budget) { return repair_some(std::max<int64_t>(budget, 1), nullptr); }

Result<FlowFieldUpdate> FlowField::start_update(const Grid& grid, std::span<const Cell> changed) {
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
  repair_some(std::numeric_limits<int64_t>::max(), nullptr);  // a repair under way ends first
  FlowFieldUpdate out;
  // A wall within the radius of a cell's centre decides whether the cell is passable.
  const int reach = def_.agent_radius > 0.5 ? static_cast<int>(std::ceil(def_.agent_radius)) : 0;
  std::vector<int64_t> dirty;
  for (const Cell& c : changed) set_passability(grid, Cell{c.x - reach, c.y - reach}, Cell{c.x + reach, c.y + reach}, &dirty);
  out.changed_cells = static_cast<int64_t>(dirty.size());
  if (!dirty.empty()) invalidate(dirty);
  return out;
}

int64_t FlowField::repair_some(int64_t budget, int64_t* touched) {
  // In the order update() always took: every dropped cell found (dropping as it goes), then the
  // seeds around them, then the search; each piece resumes where the last call stopped.
  int64_t work = 0;
  while (work < budget && !update_done()) {
    if (lost_next_ < lost_.size()) {
      drop_next();
    } else if (seed_next_ < lost_.size()) {
      seed_next();
    } else {
      work += search_some(budget - work, touched);
      if (open_.empty()) {
        std::vector<uint8_t>().swap(bad_);  // the repair's memory back
        std::vector<int64_t>().swap(lost_);
        lost_next_ = seed_next_ = 0;
      }
      continue;
    }
    ++work;
  }
  return work;
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

void FlowField::invalidate(const std::vector<int64_t>& changed) {
  // 1: the changed cells, the cells whose diagonal step downhill passes beside one, and every
  // cell whose way downhill leads through those (the subtree below them: drop_next).
  bad_.assign(dist_.size(), 0);
  lost_.clear();
  lost_next_ = seed_next_ = 0;
  for (int64_t i : changed) {
    lose(i);
    const Cell c = cell_at(i);
    for (int k = 0; k < 8; ++k) {
      const Cell m{c.x + kDx[k], c.y + kDy[k]};
      if (!in_bounds(m)) continue;
      const uint8_t down = next_[static_cast<size_t>(index(m))];
      if (down == kNone || down < 4) continue;
      const Cell side1{m.x + kDx[down], m.y}, side2{m.x, m.y + kDy[down]};
      if (side1 == c || side2 == c) lose(index(m));
    }
  }
}

void FlowField::lose(int64_t i) {
  if (bad_[static_cast<size_t>(i)]) return;
  bad_[static_cast<size_t>(i)] = 1;
  lost_.push_back(i);
}

void FlowField::drop_next() {
  // The cells whose way downhill runs into this one are lost too. Its own cost goes at once:
  // whether a neighbour is lost is read from the neighbour's way, never from this cell's, and a
  // cell already lost is not looked at again, so the lost cells are those of dropping them all
  // after the walk.
  const int64_t i = lost_[lost_next_++];
  const Cell c = cell_at(i);
  for (int k = 0; k < 8; ++k) {
    const Cell m{c.x + kDx[k], c.y + kDy[k]};
    if (in_bounds(m) && next_[static_cast<size_t>(index(m))] == opposite(k)) lose(index(m));
  }
  dist_[static_cast<size_t>(i)] = kUnreached;
  next_[static_cast<size_t>(i)] = kNone;
}

void FlowField::seed_next() {
  // 2: goal cells start again at 0, and the unchanged cells around the lost ones spread their
  // costs into them (each seeded once).
  const int64_t i = lost_[seed_next_++];
  const size_t u = static_cast<size_t>(i);
  if (is_goal_[u] && cost_[u] != kBlocked) {
    dist_[u] = 0.0;
    push_open(i);
  }
  const Cell c = cell_at(i);
  for (int k = 0; k < 8; ++k) {
    const Cell m{c.x + kDx[k], c.y + kDy[k]};
    if (!in_bounds(m)) continue;
    const size_t mi = static_cast<size_t>(index(m));
    if (bad_[mi] != 0 || !std::isfinite(dist_[mi])) continue;
    bad_[mi] = 2;
    push_open(static_cast<int64_t>(mi));
  }
}

}  // namespace pathlab
