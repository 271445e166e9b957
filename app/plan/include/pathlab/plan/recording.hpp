#pragma once
/// @file recording.hpp
/// Recording and replaying a scene's crowd run (issue 25): the run is deterministic, so the
/// scene, the inputs with their steps and the settings are the whole run; a Recording keeps
/// them, a state hash after every step (and per unit every `hash_every` steps) to check a
/// replay against, and keyframes (copies of the crowd and its routing, Crowd::clone) every
/// `keyframe_every` steps, so seek() to any step restores the nearest keyframe before it and
/// re-simulates at most keyframe_every - 1 steps. Recording only reads the crowd: a run
/// recorded or not gives the same bytes.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/io/repro_file.hpp"
#include "pathlab/plan/recording_trail.hpp"
#include "pathlab/plan/run_events.hpp"
#include "pathlab/plan/scene_units.hpp"
#include "pathlab/plan/unit_input.hpp"
#include "pathlab/status.hpp"

namespace pathlab::plan {

/// FNV-1a (64 bit) over the bytes, in agent order, of each unit's position, heading, velocity
/// and speed (doubles as stored, little-endian on every machine pathlab builds on), then each
/// truck's pose and each door's state. Equal for equal states, whatever the crowd's history.
uint64_t crowd_state_hash(const Crowd& crowd);
/// One unit's part of crowd_state_hash, folded to 32 bits.
uint32_t unit_state_hash(const Crowd& crowd, CrowdAgentId id);
/// crowd_state_hash and every unit's hash, labelled with `step`.
io::StateHash state_hash(const Crowd& crowd, int64_t step);

struct RecordOptions {
  CrowdDef def = default_crowd_def();  ///< dt and tuning of the crowd (route_planner ignored)
  /// Steps between keyframes: memory (one copy of the crowd each) against seek time
  /// (re-simulating up to this many steps). [Limit: >= 1]
  int64_t keyframe_every = 600;
  /// Steps between per-unit hashes; 0: one simulated second (round(1 / dt)). [Limit: >= 0]
  int64_t hash_every = 0;
  /// Most bytes the keyframes (Crowd::memory_bytes and the routing's records) and the trail
  /// (trail(): what is drawn of every step) may take together. Past it, every other keyframe
  /// is dropped and the interval doubles: memory stays bounded for any run length whose trail
  /// fits (a few bytes per moving unit and step), seeking re-simulates more. 0: no limit.
  /// 170 MB keeps 10 simulated minutes of 1,000 units at 60 Hz within 200 MB with the hashes
  /// and events (bench/bench_repro.cpp). [Units: bytes]
  size_t keyframe_budget = 170'000'000;
  /// Most events kept (run_events.hpp); later ones are counted, not kept. [Limit: >= 0]
  size_t event_cap = RunEvents::kDefaultCap;
};

class Recording {
 public:
  /// Starts a run of `scene`'s units (build_scene_units) at step 0. Errors: a bad def.
  static Result<Recording> start(const io::Scene& scene, const RecordOptions& options = {});
  /// Starts a run from `units` as they stand at step 0 (a copy the caller made, e.g. the
  /// sandbox's live units: Crowd::clone with copy_routing), instead of building them again:
  /// no re-planning, so starting costs a copy. `scene` is the run's start (what a repro holds);
  /// `units` must be what build_scene_units(scene) gives, or a replay of the file differs
  /// (replay --check says so). Errors: bad options, no crowd, a crowd already stepped.
  static Result<Recording> start_from(const io::Scene& scene, SceneUnits units, const RecordOptions& options = {});
  /// A run to replay `repro`: its scene, dt and inputs (applied when their steps come); its
  /// hashes are not copied (compare them with hashes() / step_hashes() as the run goes).
  static Result<Recording> replay(const io::Repro& repro, int64_t keyframe_every = 600);

  /// Records `input` at the current step and applies it now (its step is set to step()).
  /// After a seek back, the recorded future (inputs, hashes, keyframes after now) is dropped:
  /// the run takes another course. Returns "" or the problem apply_unit_input reports.
  std::string input(io::UnitInput input);
  /// Applies the inputs due at this step that are not applied yet, then steps the crowd once
  /// and records its hashes (and a keyframe every keyframe_every steps).
  void step();
  /// Restores the state after `step` steps (before that step's inputs): the nearest keyframe
  /// at or before it, then re-simulation with the recorded inputs. Errors: a step past the
  /// recorded ones (recorded_until()) or negative.
  Status seek(int64_t step);

  /// The step of the keyframe a seek to `step` would restore (the nearest at or before it),
  /// and how many steps seek(step) would re-simulate from where the run is now (0: a keyframe
  /// or the step shown). For a viewer that must redraw quickly: while the user drags, it can
  /// show the keyframe and seek exactly when the drag ends.
  int64_t keyframe_before(int64_t step) const;
  int64_t seek_steps(int64_t step) const;

  /// True after an input at a past moment dropped the recorded future (a branch), until
  /// undo_branch() or the next branch.
  bool can_undo_branch() const noexcept { return dropped_ != nullptr; }
  /// The step the last branch started at (valid while can_undo_branch()).
  int64_t branch_step() const noexcept;
  /// Drops the current branch and restores the future the branch dropped, exactly as it was
  /// (its inputs, hashes and keyframes), showing the branch's step. Errors: no branch.
  Status undo_branch();
  /// Counts the changes of the units' list, goals, messages or map that stepping alone does not
  /// make: inputs applied, keyframes restored. A viewer compares it to refresh what it shows.
  uint64_t revision() const noexcept { return revision_; }

  int64_t step_index() const noexcept { return step_; }
  double time() const noexcept { return static_cast<double>(step_) * options_.def.dt; }
  /// The furthest step recorded (hashes exist up to it).
  int64_t recorded_until() const noexcept { return static_cast<int64_t>(step_hashes_.size()); }
  const SceneUnits& units() const noexcept { return units_; }
  const Crowd& crowd() const noexcept { return *units_.crowd; }
  /// The scene now (its map with the paint inputs applied so far).
  const io::Scene& scene() const noexcept { return scene_; }
  const std::vector<io::UnitInput>& inputs() const noexcept { return inputs_; }
  const std::vector<io::StateHash>& hashes() const noexcept { return hashes_; }
  const std::vector<uint64_t>& step_hashes() const noexcept { return step_hashes_; }
  /// The run's events up to recorded_until(), by step (run_events.hpp): read off the crowd as
  /// each step is recorded, so re-simulating after a seek adds none, and an edit after a seek
  /// back drops the future's with the rest of it.
  const RunEvents& events() const noexcept { return events_; }
  /// What is drawn of every recorded step (frames 0..recorded_until()): a timeline shows any
  /// recorded moment from it at once, while seek() brings the crowd itself there.
  const Trail& trail() const noexcept { return trail_; }
  /// The map and the scene's goal after `step` steps (before that step's inputs): the start
  /// scene's with the recorded paint and goal inputs of earlier steps applied, as the trail's
  /// moment is drawn. [Limit: 0 <= step <= recorded_until()]
  void map_at(int64_t step, Grid& grid, Pose& goal) const;
  /// Unit `id`'s metrics over the whole run at the step shown: its crowd's since the last
  /// rebuild (a paint input rebuilds the crowd, whose metrics count from 0) plus those of the
  /// crowds before (one more re-plan per rebuild: the rebuild plans it again); restored with
  /// the keyframes, so equal after a seek to those of a run stepped straight there.
  /// time_to_goal and arrived are the crowd's. Precondition: a valid id.
  CrowdAgentMetrics unit_metrics(CrowdAgentId id) const;
  /// The run's metrics likewise (sums and extremes over the crowds so far; arrived: now's).
  CrowdMetrics run_metrics() const;
  int64_t hash_every() const noexcept { return hash_every_; }
  /// Keyframes kept, and about how many bytes they take (units, routes, maps). [Units: bytes]
  size_t keyframe_count() const noexcept { return keyframes_.size(); }
  /// Steps between keyframes now (RecordOptions::keyframe_every, doubled each time the budget
  /// was reached).
  int64_t keyframe_interval() const noexcept { return keyframe_every_; }
  size_t keyframe_bytes() const;
  /// The repro file of the run up to recorded_until(), with `moment` as the step of interest.
  io::Repro repro(std::optional<int64_t> moment = std::nullopt) const;

 private:
  struct Keyframe;
  struct Future;
  /// Metrics of the crowds before the last rebuild (unit_metrics, run_metrics).
  struct Carried {
    std::vector<CrowdAgentMetrics> units;  ///< by scene index (the recording's scene units)
    CrowdMetrics run;
  };
  /// apply_unit_input, carrying the metrics of a crowd it rebuilds (a paint input).
  void apply(const io::UnitInput& input, std::string* error = nullptr);
  Recording() = default;
  static Status check_options(const RecordOptions& options);
  void take_keyframe();
  /// Drops every other keyframe (doubling the interval) while they take more than the budget.
  void keep_keyframe_budget();
  void restore(const Keyframe& k);
  /// Applies the inputs due, steps the crowd and follows it with the events' detector, which
  /// records the step's events when it is `new_step` (recorded for the first time).
  void simulate_step(bool new_step);
  /// Applies the inputs due at this step; at the recording's frontier, an input applied for
  /// the first time (a replay's) becomes an event.
  void apply_due_inputs(bool at_frontier);

  io::Scene start_scene_;  ///< the scene the run started from (the repro's)
  io::Scene scene_;        ///< the scene now
  SceneUnits units_;
  RecordOptions options_;
  int64_t hash_every_ = 60;
  int64_t keyframe_every_ = 600;
  int64_t step_ = 0;
  size_t next_input_ = 0;  ///< inputs_[next_input_..] are not applied yet
  std::vector<io::UnitInput> inputs_;
  std::vector<io::StateHash> hashes_;
  std::vector<uint64_t> step_hashes_;
  std::vector<std::shared_ptr<const Keyframe>> keyframes_;  ///< by step, every keyframe_every
  RunEvents events_;
  Trail trail_;
  uint64_t trail_revision_ = 0;  ///< revision_ when the trail last recorded a step
  Carried carried_;
  size_t evented_inputs_ = 0;  ///< inputs_[0..evented_inputs_) have their events
  std::shared_ptr<const Future> dropped_;  ///< the future the last branch dropped (undo_branch)
  uint64_t revision_ = 0;
};

}  // namespace pathlab::plan
