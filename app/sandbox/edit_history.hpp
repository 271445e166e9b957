#pragma once
// Undo/redo for map edits: each edit (a brush stroke, a rectangle, a generator run) is stored
// as the list of cells it changed with their old and new costs, so memory grows with what was
// edited, not with the map size.

#include <cstdint>
#include <vector>

#include "pathlab/grid.hpp"

namespace pathlab::sandbox {

class EditHistory {
 public:
  /// Starts recording an edit; set_cell() calls until commit() belong to it.
  void begin();
  /// Changes a cell and records the change (no-op when the cost is already `cost`).
  void set_cell(Grid& grid, int x, int y, float cost);
  /// Closes the current edit; returns false when it changed nothing (then it is dropped).
  bool commit();
  bool undo(Grid& grid);
  bool redo(Grid& grid);
  bool can_undo() const { return !done_.empty(); }
  bool can_redo() const { return !undone_.empty(); }
  void clear();

 private:
  struct Change {
    int64_t index;
    float before, after;
  };
  using Edit = std::vector<Change>;
  std::vector<Edit> done_, undone_;
  Edit current_;
  bool recording_ = false;
  static constexpr size_t kMaxEdits = 500;
};

}  // namespace pathlab::sandbox
