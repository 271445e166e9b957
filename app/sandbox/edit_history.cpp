#include "edit_history.hpp"

namespace pathlab::sandbox {

void EditHistory::begin() {
  current_.clear();
  recording_ = true;
}

void EditHistory::set_cell(Grid& grid, int x, int y, float cost) {
  if (!grid.in_bounds(x, y)) return;
  const float before = grid.cost(x, y);
  grid.set_cost(x, y, cost);
  const float after = grid.cost(x, y);
  if (before == after || !recording_) return;
  current_.push_back(Change{grid.index(x, y), before, after});
}

bool EditHistory::commit() {
  recording_ = false;
  if (current_.empty()) return false;
  done_.push_back(std::move(current_));
  current_.clear();
  undone_.clear();
  if (done_.size() > kMaxEdits) done_.erase(done_.begin());
  return true;
}

static void apply(Grid& grid, const std::vector<int64_t>& idx, const std::vector<float>& vals) {
  for (size_t i = 0; i < idx.size(); ++i) {
    grid.set_cost(static_cast<int>(idx[i] % grid.width()), static_cast<int>(idx[i] / grid.width()), vals[i]);
  }
}

bool EditHistory::undo(Grid& grid) {
  if (done_.empty()) return false;
  Edit e = std::move(done_.back());
  done_.pop_back();
  std::vector<int64_t> idx;
  std::vector<float> vals;
  for (auto it = e.rbegin(); it != e.rend(); ++it) {
    idx.push_back(it->index);
    vals.push_back(it->before);
  }
  apply(grid, idx, vals);
  undone_.push_back(std::move(e));
  return true;
}

bool EditHistory::redo(Grid& grid) {
  if (undone_.empty()) return false;
  Edit e = std::move(undone_.back());
  undone_.pop_back();
  std::vector<int64_t> idx;
  std::vector<float> vals;
  for (const Change& c : e) {
    idx.push_back(c.index);
    vals.push_back(c.after);
  }
  apply(grid, idx, vals);
  done_.push_back(std::move(e));
  return true;
}

void EditHistory::clear() {
  done_.clear();
  undone_.clear();
  current_.clear();
  recording_ = false;
}

}  // namespace pathlab::sandbox
