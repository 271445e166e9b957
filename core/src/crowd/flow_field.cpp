// The flow field of flow_field.hpp: building it (a Dijkstra search from the goal cells over the
// whole grid) and repairing it after cells change (flow_field_update.cpp reads the same steps).

#include "pathlab/flow_field.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "crowd/flow_field_steps.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {

using namespace flow_field_detail;

namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

Status check_def(const FlowFieldDef& def) {
  if (auto s = check_agent_radius(def.agent_radius); !s) return fail(s.error().code, "flow field: " + s.error().message);
  if (!(def.sight_range >= 1.0 && def.sight_range <= 256.0)) {
    return fail(StatusCode::invalid_argument, "flow field: sight_range must be in [1, 256] cells, got " + num(def.sight_range));
  }
  return ok_status();
}

}  // namespace

Result<FlowField> FlowField::build(const Grid& grid, std::span<const Cell> goals, const FlowFieldDef& def) {
  if (auto s = check_def(def); !s) return s.error();
  if (grid.width() <= 0 || grid.height() <= 0) return fail(StatusCode::invalid_argument, "flow field: empty grid");
  if (goals.empty()) return fail(StatusCode::invalid_argument, "flow field: no goal cell");
  if (static_cast<int64_t>(goals.size()) > kMaxGridCells) return fail(StatusCode::too_large, "flow field: too many goal cells");
  for (size_t k = 0; k < goals.size(); ++k) {
    if (!grid.in_bounds(goals[k])) {
      return fail(StatusCode::out_of_bounds, "flow field: goal " + std::to_string(k) + " (" + std::to_string(goals[k].x) +
                                                 ", " + std::to_string(goals[k].y) + ") is outside the map");
    }
  }
  FlowField f;
  f.width_ = grid.width();
  f.height_ = grid.height();
  f.def_ = def;
  f.goals_.assign(goals.begin(), goals.end());
  const size_t n = static_cast<size_t>(grid.cell_count());
  const std::vector<uint8_t> pass = passable_cells(grid, def.agent_radius);
  f.cost_.resize(n);
  for (size_t i = 0; i < n; ++i) f.cost_[i] = pass[i] ? grid.costs()[i] : kBlocked;
  f.dist_.assign(n, kUnreached);
  f.next_.assign(n, kNone);
  f.is_goal_.assign(n, 0);
  std::vector<int64_t> seeds;
  for (const Cell& g : f.goals_) {
    const int64_t i = f.index(g);
    f.is_goal_[static_cast<size_t>(i)] = 1;
    if (f.cost_[static_cast<size_t>(i)] == kBlocked || f.dist_[static_cast<size_t>(i)] == 0.0) continue;
    f.dist_[static_cast<size_t>(i)] = 0.0;
    seeds.push_back(i);
  }
  f.search(seeds, nullptr);
  return f;
}

void FlowField::search(const std::vector<int64_t>& seeds, int64_t* touched) {
  seed(seeds);
  search_some(std::numeric_limits<int64_t>::max(), touched);
}

void FlowField::seed(const std::vector<int64_t>& seeds) {
  for (int64_t s : seeds) push_open(s);
}

void FlowField::push_open(int64_t i) {
  open_.emplace_back(dist_[static_cast<size_t>(i)], i);
  std::push_heap(open_.begin(), open_.end(), std::greater<>());
}

int64_t FlowField::search_some(int64_t budget, int64_t* touched) {
  // Dijkstra from the seeds (cells whose cost is final or an upper bound to spread from), in
  // the order (cost, cell index) so that ties do not depend on the heap's insides. The queue
  // is a member so the search can stop after `budget` entries and go on in a later call (a
  // repair spread over a crowd's steps) to the same bytes.
  int64_t taken = 0;
  while (!open_.empty() && taken < budget) {
    std::pop_heap(open_.begin(), open_.end(), std::greater<>());
    const auto [d, i] = open_.back();
    open_.pop_back();
    ++taken;
    if (d > dist_[static_cast<size_t>(i)]) continue;  // a stale entry
    if (touched != nullptr) ++*touched;
    const int x = static_cast<int>(i % width_), y = static_cast<int>(i / width_);
    const double ci = cost_[static_cast<size_t>(i)];
    // Which of the 8 neighbours are passable, each read once (step_allowed() reads the
    // orthogonal ones again for every diagonal): the same steps, in the same order.
    bool pass[8];
    for (int k = 0; k < 8; ++k) pass[k] = passable(Cell{x + kDx[k], y + kDy[k]});
    for (int k = 0; k < 8; ++k) {
      if (!pass[k] || (k >= 4 && !(pass[kSide1[k]] && pass[kSide2[k]]))) continue;
      const size_t ni = static_cast<size_t>(index(Cell{x + kDx[k], y + kDy[k]}));
      // The grid searches' step cost, in their order of operations.
      const double nd = d + kStepLength[k] * (0.5 * (ci + cost_[ni]));
      if (!(nd < dist_[ni])) continue;
      dist_[ni] = nd;
      next_[ni] = static_cast<uint8_t>(opposite(k));
      push_open(static_cast<int64_t>(ni));
    }
  }
  if (open_.empty()) std::vector<std::pair<double, int64_t>>().swap(open_);  // its memory back
  return taken;
}

bool FlowField::step_allowed(Cell c, int k) const noexcept {
  // Both ends passable, and for a diagonal both cells beside it: no corner cutting.
  if (!passable(Cell{c.x + kDx[k], c.y + kDy[k]})) return false;
  if (k < 4) return true;
  return passable(Cell{c.x + kDx[k], c.y}) && passable(Cell{c.x, c.y + kDy[k]});
}

double FlowField::distance(Cell c) const noexcept {
  if (!in_bounds(c)) return kUnreached;
  return dist_[static_cast<size_t>(index(c))];
}

bool FlowField::reachable(Cell c) const noexcept { return std::isfinite(distance(c)); }

bool FlowField::passable(Cell c) const noexcept { return in_bounds(c) && cost_[static_cast<size_t>(index(c))] != kBlocked; }

Cell FlowField::next_cell(Cell c) const noexcept {
  if (!in_bounds(c)) return c;
  const uint8_t k = next_[static_cast<size_t>(index(c))];
  if (k == kNone) return c;
  return Cell{c.x + kDx[k], c.y + kDy[k]};
}

std::vector<Cell> FlowField::descent(Cell c) const {
  std::vector<Cell> out;
  if (!reachable(c)) return out;
  // The way downhill ends at a goal; the cap only guards against a broken field.
  const int64_t cap = static_cast<int64_t>(width_) * height_;
  out.push_back(c);
  for (int64_t k = 0; k < cap; ++k) {
    const Cell n = next_cell(out.back());
    if (n == out.back()) break;
    out.push_back(n);
  }
  return out;
}

size_t FlowField::memory_bytes() const noexcept {
  return dist_.capacity() * sizeof(double) + cost_.capacity() * sizeof(float) + next_.capacity() + is_goal_.capacity() +
         goals_.capacity() * sizeof(Cell) + open_.capacity() * sizeof(open_[0]) + bad_.capacity() + lost_.capacity() * sizeof(int64_t);
}

}  // namespace pathlab
