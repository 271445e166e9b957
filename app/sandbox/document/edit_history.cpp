#include "document/edit_history.hpp"

#include <algorithm>
#include <tuple>

namespace pathlab::sandbox {
namespace {

auto tie_settings(const io::PlanSettingsData& s) {
  return std::tie(s.planner, s.smoother, s.connectivity, s.turn_penalty, s.agent_radius, s.subdivisions,
                  s.turning_radius, s.reverse, s.insert_min_chord, s.shift_margin, s.shift_passes, s.navmesh_convex,
                  s.navmesh_corners, s.headings, s.neighborhood, s.reverse_penalty, s.gear_change_penalty, s.cc,
                  s.min_gear_length);
}

bool same_pose(const Pose& a, const Pose& b) { return a.pos == b.pos && a.heading == b.heading; }

bool same_goal(const std::optional<Pose>& a, const std::optional<Pose>& b) {
  return a.has_value() == b.has_value() && (!a || same_pose(*a, *b));
}

bool same_doors(const std::vector<DoorDef>& a, const std::vector<DoorDef>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const DoorDef& x, const DoorDef& y) {
    return x.lo == y.lo && x.hi == y.hi && x.open_at_start == y.open_at_start && x.toggle_times == y.toggle_times;
  });
}

bool same_movers(const std::vector<MovingObstacleDef>& a, const std::vector<MovingObstacleDef>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const MovingObstacleDef& x, const MovingObstacleDef& y) {
    return x.half_extents == y.half_extents && x.route == y.route && x.speed == y.speed &&
           x.start_time == y.start_time && x.loop == y.loop;
  });
}

void apply(Grid& grid, int64_t index, float cost) {
  grid.set_cost(static_cast<int>(index % grid.width()), static_cast<int>(index / grid.width()), cost);
}

}  // namespace

bool same_units(const std::vector<io::UnitData>& a, const std::vector<io::UnitData>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].preset != b[i].preset || !same_pose(a[i].pose, b[i].pose) || !same_goal(a[i].goal, b[i].goal) ||
        a[i].turning_radius != b[i].turning_radius)
      return false;
  return true;
}

bool operator==(const SceneState& a, const SceneState& b) {
  if (!same_pose(a.start, b.start) || !same_pose(a.goal, b.goal) || a.sim_speed != b.sim_speed) return false;
  return tie_settings(a.settings) == tie_settings(b.settings) && same_units(a.units, b.units) &&
         same_doors(a.doors, b.doors) && same_movers(a.moving_obstacles, b.moving_obstacles);
}

void EditHistory::begin() {
  current_ = Edit{};
  recording_ = true;
}

void EditHistory::set_cell(Grid& grid, int x, int y, float cost) {
  if (!grid.in_bounds(x, y)) return;
  const float before = grid.cost(x, y);
  grid.set_cost(x, y, cost);
  const float after = grid.cost(x, y);
  if (before == after || !recording_) return;
  current_.cells.push_back(Change{grid.index(x, y), before, after});
}

bool EditHistory::commit() {
  recording_ = false;
  if (current_.cells.empty()) return false;
  push(std::move(current_));
  current_ = Edit{};
  return true;
}

void EditHistory::record_state(const SceneState& before, const SceneState& after) {
  if (before == after) return;
  Edit e;
  e.before = before;
  e.after = after;
  push(std::move(e));
}

void EditHistory::push(Edit e) {
  ++edits_;
  done_.push_back(std::move(e));
  undone_.clear();
  if (done_.size() > kMaxEdits) done_.erase(done_.begin());
}

bool EditHistory::undo(Grid& grid, std::optional<SceneState>& state) {
  if (done_.empty()) return false;
  Edit e = std::move(done_.back());
  done_.pop_back();
  for (auto it = e.cells.rbegin(); it != e.cells.rend(); ++it) apply(grid, it->index, it->before);
  state = e.before;
  undone_.push_back(std::move(e));
  return true;
}

bool EditHistory::redo(Grid& grid, std::optional<SceneState>& state) {
  if (undone_.empty()) return false;
  Edit e = std::move(undone_.back());
  undone_.pop_back();
  for (const Change& c : e.cells) apply(grid, c.index, c.after);
  state = e.after;
  done_.push_back(std::move(e));
  return true;
}

void EditHistory::clear() {
  done_.clear();
  undone_.clear();
  current_ = Edit{};
  recording_ = false;
}

}  // namespace pathlab::sandbox
