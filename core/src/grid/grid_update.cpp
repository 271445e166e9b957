// Mending a pathfinder's preprocessing after map edits (GridPathfinder::update / refresh):
// the padded copy of the map where cells changed, then JPS's jump tables where the padded
// passability changed (jps_tables.cpp). The result equals a rebuild's, entry for entry.

#include <algorithm>
#include <cmath>
#include <string>

#include "grid/grid_search_internal.hpp"

namespace pathlab {

using namespace detail;

namespace {

bool counts_as_nonuniform(float cost) { return cost != 1.0f && cost != kBlocked; }

std::string rect_str(const CellRect& r) {
  return "(" + std::to_string(r.min.x) + "," + std::to_string(r.min.y) + ")-(" + std::to_string(r.max.x) + "," +
         std::to_string(r.max.y) + ")";
}

std::string size_str(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

/// Edits touching more cells than this fraction of the map are cheaper rebuilt.
constexpr int64_t kRebuildFraction = 8;

}  // namespace

std::optional<CellRect> changed_cells(const Grid& before, const Grid& after) {
  if (before.width() != after.width() || before.height() != after.height()) return std::nullopt;
  CellRect r{Cell{after.width(), after.height()}, Cell{-1, -1}};
  for (int y = 0; y < after.height(); ++y)
    for (int x = 0; x < after.width(); ++x)
      if (before.is_free(x, y) != after.is_free(x, y)) {
        r.min = Cell{std::min(r.min.x, x), std::min(r.min.y, y)};
        r.max = Cell{std::max(r.max.x, x), std::max(r.max.y, y)};
      }
  if (r.max.x < 0) return std::nullopt;
  return r;
}

bool GridSearchWorkspace::apply_changes(const std::vector<int32_t>& changed) {
  const Grid& gr = *grid;
  for (const int32_t id : changed) {
    const Cell c = pg.cell(id);
    float& was = source_cost[static_cast<size_t>(gr.index(c.x, c.y))];
    const float now = gr.cost(c.x, c.y);
    nonuniform_cells += int64_t{counts_as_nonuniform(now)} - int64_t{counts_as_nonuniform(was)};
    was = now;
  }
  pg.uniform = nonuniform_cells == 0;
  // A cell's passability for a wide agent depends on the walls within `reach` of it.
  const int reach = pg.radius > 0.5 ? static_cast<int>(std::ceil(pg.radius)) : 0;
  const int64_t span = 2 * reach + 1;
  if (static_cast<int64_t>(changed.size()) * span * span > gr.cell_count() / kRebuildFraction) {
    stale = true;  // the next query rebuilds, which is cheaper than mending this much
    jump_tables_ready = false;
    pass_bits_ready = false;
    regions.ready = false;
    return false;
  }
  pass_changed.clear();
  auto mend = [&](int x, int y) {
    const size_t id = static_cast<size_t>(pg.id(Cell{x, y}));
    const uint8_t pass = cell_passable(gr, x, y, pg.radius) ? 1 : 0;
    if (pg.cost_ready) pg.cost[id] = pass ? gr.cost(x, y) : 1.0f;
    if (pass == pg.pass[id]) return;
    pg.pass[id] = pass;
    pass_changed.push_back(static_cast<int32_t>(id));
  };
  if (reach == 0) {
    for (const int32_t id : changed) mend(pg.cell(id).x, pg.cell(id).y);
  } else {
    mark.assign(pg.pass.size(), 0);
    for (const int32_t id : changed) {
      const Cell c = pg.cell(id);
      for (int y = std::max(c.y - reach, 0); y <= std::min(c.y + reach, pg.h - 1); ++y)
        for (int x = std::max(c.x - reach, 0); x <= std::min(c.x + reach, pg.w - 1); ++x) {
          uint8_t& seen = mark[static_cast<size_t>(pg.id(Cell{x, y}))];
          if (seen) continue;
          seen = 1;
          mend(x, y);
        }
    }
  }
  if (!pg.uniform) ensure_costs();  // the first cost other than 1 on a map prepared without them
  if (pass_bits_ready)
    for (const int32_t id : pass_changed) pass_bits.set(pg, id);
  if (jump_tables_ready && !pass_changed.empty()) update_jump_tables(*this, pass_changed);
  mend_regions(pg, regions, pass_changed);
  return true;
}

Status GridPathfinder::update(const Grid& grid, const CellRect& changed) {
  if (changed.max.x < changed.min.x || changed.max.y < changed.min.y)
    return fail(StatusCode::invalid_argument, "changed rectangle " + rect_str(changed) + " is empty (max below min)");
  const int x0 = std::max(changed.min.x, 0), y0 = std::max(changed.min.y, 0);
  const int x1 = std::min(changed.max.x, grid.width() - 1), y1 = std::min(changed.max.y, grid.height() - 1);
  if (x0 > x1 || y0 > y1) {
    return fail(StatusCode::out_of_bounds, "changed rectangle " + rect_str(changed) + " lies outside the " +
                                               size_str(grid.width(), grid.height()) + " map");
  }
  GridSearchWorkspace& ws = *ws_;
  if (!ws.stale && (grid.width() != ws.pg.w || grid.height() != ws.pg.h)) {
    return fail(StatusCode::invalid_argument, "the grid is " + size_str(grid.width(), grid.height()) +
                                                  ", the pathfinder was prepared for " + size_str(ws.pg.w, ws.pg.h) +
                                                  ": call reset() for another map");
  }
  ws.grid = &grid;
  if (ws.stale) return ok_status();  // nothing built yet: the next query builds from `grid`
  std::vector<int32_t> ids;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (grid.cost(x, y) != ws.source_cost[static_cast<size_t>(grid.index(x, y))]) ids.push_back(ws.pg.id(Cell{x, y}));
  if (!ids.empty()) ws.apply_changes(ids);
  return ok_status();
}

void GridPathfinder::refresh(const Grid& grid) {
  GridSearchWorkspace& ws = *ws_;
  if (ws.stale || grid.width() != ws.pg.w || grid.height() != ws.pg.h) return reset(grid);
  ws.grid = &grid;
  const std::vector<float>& now = grid.costs();
  if (now == ws.source_cost) return;
  std::vector<int32_t> ids;
  const int64_t limit = grid.cell_count() / kRebuildFraction;
  for (int y = 0; y < grid.height(); ++y) {
    const size_t row = static_cast<size_t>(grid.index(0, y));
    if (std::equal(now.begin() + static_cast<std::ptrdiff_t>(row),
                   now.begin() + static_cast<std::ptrdiff_t>(row) + grid.width(),
                   ws.source_cost.begin() + static_cast<std::ptrdiff_t>(row)))
      continue;
    for (int x = 0; x < grid.width(); ++x)
      if (now[row + static_cast<size_t>(x)] != ws.source_cost[row + static_cast<size_t>(x)])
        ids.push_back(ws.pg.id(Cell{x, y}));
    if (static_cast<int64_t>(ids.size()) > limit) return reset(grid);
  }
  ws.apply_changes(ids);
}

}  // namespace pathlab
