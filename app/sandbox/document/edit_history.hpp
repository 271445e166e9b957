#pragma once
// Undo/redo for every edit: map cells (a brush stroke, a rectangle, a generator run) are stored
// as the list of cells they changed with their old and new costs, so memory grows with what
// was edited, not with the map size; everything else the user edits (start and goal poses,
// planner settings, the units spawned, the simulation speed) is stored as the scene state
// before and after.

#include <cstdint>
#include <optional>
#include <vector>

#include "pathlab/grid.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

/// The part of a scene that is not the map.
struct SceneState {
  Pose start, goal;
  io::PlanSettingsData settings;
  std::vector<io::UnitData> units;
  double sim_speed = 1.0;
  std::vector<DoorDef> doors;
  std::vector<MovingObstacleDef> moving_obstacles;
};
bool operator==(const SceneState& a, const SceneState& b);
bool same_units(const std::vector<io::UnitData>& a, const std::vector<io::UnitData>& b);
inline bool operator!=(const SceneState& a, const SceneState& b) { return !(a == b); }

class EditHistory {
 public:
  /// Starts recording an edit; set_cell() calls until commit() belong to it.
  void begin();
  /// Changes a cell and records the change (no-op when the cost is already `cost`).
  void set_cell(Grid& grid, int x, int y, float cost);
  /// Closes the current edit; returns false when it changed nothing (then it is dropped).
  bool commit();
  /// Records a change of the scene state (poses, settings, units) as one edit.
  void record_state(const SceneState& before, const SceneState& after);
  /// Undoes the last edit: cells go back in `grid`; when the edit changed the scene state,
  /// `state` receives the state to restore. Returns false when there is nothing to undo.
  bool undo(Grid& grid, std::optional<SceneState>& state);
  bool redo(Grid& grid, std::optional<SceneState>& state);
  bool can_undo() const { return !done_.empty(); }
  bool can_redo() const { return !undone_.empty(); }
  /// Counts the edits recorded so far (never decreases): tells whether one was made since.
  uint64_t edits() const { return edits_; }
  void clear();

 private:
  struct Change {
    int64_t index;
    float before, after;
  };
  struct Edit {
    std::vector<Change> cells;
    std::optional<SceneState> before, after;
  };
  void push(Edit e);
  std::vector<Edit> done_, undone_;
  Edit current_;
  bool recording_ = false;
  uint64_t edits_ = 0;
  static constexpr size_t kMaxEdits = 500;
};

}  // namespace pathlab::sandbox
