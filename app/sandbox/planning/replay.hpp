#pragma once
// Search replay: the open/close history a search returns (grid cells, navmesh polygons or
// heading-aware poses), put back together one expansion at a time so the sandbox can play it,
// step it and scrub it. Nothing here draws; the inspector turns the per-node states into
// colours.
//
// "Step k" is the state right after the k-th expansion (close event) finished: every event
// before the (k+1)-th close is applied, so the neighbours the k-th expansion opened are on the
// frontier too. Step 0 shows only what was opened before the first expansion (the start).

#include <cstdint>
#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/navmesh_search.hpp"

namespace pathlab::sandbox {

class ReplayModel {
 public:
  enum class Source : uint8_t { none, grid, navmesh, poses };
  enum State : uint8_t { unseen = 0, open = 1, closed = 2 };

  /// Grid searches: node id = y * width + x.
  void load_grid(const std::vector<TraceEvent>& trace, int width, int height);
  /// Navmesh searches: node id = the polygon entered.
  void load_navmesh(const std::vector<NavTraceEvent>& trace, int polygon_count);
  /// Heading-aware searches: the expanded poses in order; each pose is its own node.
  void load_poses(const std::vector<Pose>& expanded);
  void clear();

  Source source() const { return source_; }
  bool empty() const { return events_.empty(); }
  int node_count() const { return static_cast<int>(state_.size()); }
  int grid_width() const { return width_; }
  const std::vector<Pose>& poses() const { return poses_; }

  /// Number of close events in the whole trace: the largest step. Grid and navmesh searches
  /// record the goal's pop as a close that is not an expansion, so a found search has one step
  /// more than the expansions the planner counts (steps_vs_expanded).
  int64_t steps() const { return static_cast<int64_t>(close_at_.size()); }
  /// For people, where both numbers are shown (the Replay tab, Stats): how `steps` of a replay
  /// relate to the `expanded` count of the plan it replays, e.g. "265 steps: the 264 expansions
  /// Stats counts, then the goal taken off the open list".
  static std::string steps_vs_expanded(int64_t steps, int64_t expanded);
  int64_t step() const { return step_; }
  /// Moves to step k (clamped to 0..steps()).
  void set_step(int64_t k);

  State state(int node) const { return static_cast<State>(state_[static_cast<size_t>(node)]); }
  float g(int node) const { return g_[static_cast<size_t>(node)]; }
  float f(int node) const { return f_[static_cast<size_t>(node)]; }
  /// The node expanded at the current step, -1 at step 0.
  int current() const { return current_; }
  /// Close events applied so far (== step()), and nodes whose latest event is open / close.
  int64_t expansions_shown() const { return expansions_shown_; }
  int64_t open_count() const { return open_count_; }
  int64_t closed_count() const { return closed_count_; }
  /// Bumped whenever the visible state changes, so a texture knows when to refresh.
  uint64_t version() const { return version_; }

  // Playback: `speed` expansions per second while playing.
  bool playing = false;
  float speed = 60.0f;
  /// Advances playback by dt seconds; stops at the end.
  void tick(double dt);

 private:
  struct Event {
    int node;
    uint8_t kind;  // TraceEvent::open / close
    float g, f;
  };
  void reset_state();
  void apply(size_t i);
  void finish_load(int nodes);

  Source source_ = Source::none;
  int width_ = 0;
  std::vector<Event> events_;
  std::vector<size_t> close_at_;  // event index of each close, in order
  std::vector<uint8_t> state_;
  std::vector<float> g_, f_;
  std::vector<Pose> poses_;
  size_t applied_ = 0;  // events [0, applied_) are in state_
  int64_t step_ = 0;
  int current_ = -1;
  int64_t expansions_shown_ = 0, open_count_ = 0, closed_count_ = 0;
  uint64_t version_ = 0;
  double carry_ = 0.0;  // fractional expansions owed by playback
};

}  // namespace pathlab::sandbox
