#pragma once
// The units of the sandbox (the model; no SDL, no ImGui): the scene's units as the planning
// layer builds them (pathlab/plan/scene_units.hpp, the model `pathlab-cli crowd --scene` runs
// too): one core Crowd (crowd.hpp: ORCA avoidance, doors, moving obstacles, stuck handling)
// holding every unit with its own preset's radius and turning radius, routed by the scene's
// planner and smoother only, with the scene's doors and moving obstacles. Sandbox-only here:
// driving it by the frame clock in fixed steps (CrowdDef::dt) through an accumulator, the
// selection, spawning and rebuilding it after edits.
//
// A unit goes to its own goal (io::UnitData::goal; a right-click sends the selection) or,
// without one, to the scene's goal. A map edit rebuilds the Crowd from the units' current
// poses (the Crowd keeps its own copy of the map); a move of the scene's goal re-targets the
// units that follow it (Crowd::set_goal). Units that arrived stay next to the goal: the core
// settles units sharing a goal around it. Drawing is canvas/units_draw.hpp, the panel
// panels/units_panel.cpp.

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/crowd.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene_units.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

/// The presets the core offers, in menu order.
const std::vector<std::string>& unit_preset_names();

/// Unit-steps (units x steps) one frame re-simulates at most on the way to a scrubbed moment:
/// about 65 ms at the 4.3 us a unit-step of bench/bench_repro.cpp's 1,000 units. Nearer than
/// that, a scrub seeks exactly at once; farther, the canvas draws the moment from the
/// recording's trail while the crowd closes in (UnitSwarm::scrub). [Limit: > 0]
inline constexpr int64_t kScrubUnitSteps = 15'000;

/// Most fixed steps one frame runs; a slow frame drops the rest instead of spiralling (the
/// simulation then runs slower than the clock, never differently).
inline constexpr int kMaxStepsPerFrame = 16;

/// Most units the sandbox holds (issue 27: spawning up to ten thousand); a spawn beyond it is
/// refused with a message. [Limit: >= 1]
inline constexpr int kMaxUnits = 10'000;

/// The nearest point to `p` where a disc of `radius` fits on `grid` (plan::fit_goal).
using plan::fit_goal;

/// A scene unit the swarm cannot place: its start in a wall or off the map, no free spot near
/// it, an unknown preset. It is kept as the file has it (every field), in its place in the
/// scene's unit list, so Save, the autosave, Copy-CLI and export write it back unchanged; the
/// next Reset (or opening the scene again) tries it again. Before, such a unit was dropped and
/// the next save lost it without a word.
struct UnplacedUnit {
  io::UnitData data;   ///< as the scene has it
  int index = 0;       ///< its place in spawn_list() [Limit: >= 0]
  std::string reason;  ///< why it is not placed, in full, without its index and preset (the panel adds those)
};

/// What a unit is doing, for labels and colours.
enum class UnitActivity { moving, arrived, stuck, yielding, waiting };
const char* activity_name(UnitActivity a);

/// Something that happened in a recorded run, marked on the timeline.
struct TimelineMark {
  enum class Kind { door_click, send, paint, door_schedule, spawn, goal };
  int64_t step = 0;  ///< before that step's simulation (an input) or the step it falls in (a schedule)
  Kind kind = Kind::door_click;
  int index = 0;     ///< the door (door_click, door_schedule), else the input's index
};

/// Run metrics carried over crowd rebuilds (a map edit rebuilds the Crowd).
struct SwarmMetrics {
  int arrived = 0;
  double min_separation = 0.0;  ///< Smallest gap between two bodies so far; infinity with < 2 units. [Units: cells]
  int stuck = 0;                ///< Units stuck now.
  int stuck_steps = 0;          ///< Steps units spent stuck, summed.
  int replans = 0;              ///< Re-plans (the core's, plus one per unit and map edit).
  int wall_contacts = 0;
};

class UnitSwarm {
 public:
  explicit UnitSwarm(const Grid& grid);

  /// Adds a unit of `preset` near `pose` (the nearest free spot when units or walls are in the
  /// way) going to `goal` (none: the scene's goal). Returns "" or why it could not.
  std::string spawn(const io::Scene& scene, const std::string& preset, const Pose& pose,
                    std::optional<Pose> goal = std::nullopt);
  /// Spawns `n` units in the rectangle `a`-`b` (world cells, any corners), presets mixed by
  /// `weights` (one per unit_preset_names() entry, >= 0) in a fixed interleaved order. Returns
  /// "" or the first problem (e.g. only 12 of 40 fit); spawns nothing when `n` is outside
  /// 1..kMaxUnits or the units would be more than kMaxUnits. [Limit: n 1 .. kMaxUnits]
  std::string spawn_area(const io::Scene& scene, int n, const std::vector<int>& weights, Vec2 a, Vec2 b);
  /// Removes every unit (the spawn list too); doors and trucks restart.
  void clear(const io::Scene& scene);
  /// Puts every unit back where it was spawned, at rest; time, doors and trucks restart.
  void reset(const io::Scene& scene);
  /// Replaces the units by the scene's list (after opening a scene). Returns "" or the first unit
  /// it could not place, with how many more it could not; those are kept (unplaced()).
  std::string load(const io::Scene& scene);
  /// The spawn list, as the scene file stores it: the units placed and, in their places in the
  /// list, the ones not placed.
  std::vector<io::UnitData> spawn_list() const;
  /// The scene's units not placed, by their place in spawn_list().
  const std::vector<UnplacedUnit>& unplaced() const { return unplaced_; }
  /// Deletes unplaced()[k] from the scene's unit list (the user's explicit remove); false when
  /// there is no such unit.
  bool remove_unplaced(size_t k);
  /// Unit `id`'s place in spawn_list() (the index the user sees, "units[7]"): `id` plus the
  /// units not placed before it.
  int list_index(int id) const;

  /// The map, the goal or a setting changed: the next update or step re-targets (same map) or
  /// rebuilds the crowd from the units' current states (map edited).
  void request_replan() { replan_pending_ = true; }
  /// Runs a pending re-plan, then advances by `real_seconds` times the speed in fixed steps
  /// (nothing while paused; at most kMaxStepsPerFrame). `defer_rebuild` (a brush stroke or a
  /// drag of the goal in progress) keeps a map edit's rebuild for the first frame without it:
  /// rebuilding re-plans every unit (about 80 ms for 200 units on 256x256), once per stroke,
  /// not once per frame; while recording, a goal moved is recorded once, when the drag ends.
  void update(const io::Scene& scene, double real_seconds, bool defer_rebuild = false);
  /// Runs a pending re-plan and exactly one fixed step (the Step button; tests).
  void step(const io::Scene& scene);

  // ---- The timeline (issue 25): every run is recorded from its Reset ----
  // From Reset (or loading, or spawning at t = 0) the units run inside a plan::Recording: its
  // crowd is the one shown and stepped; door clicks, sends, painted walls and ground, spawned
  // units and the goal moved are recorded inputs, so the run can be seeked and replayed, and an
  // edit at a past moment starts a new branch (the old future undoable: undo_branch). An edit
  // the recording cannot hold (a setting, a door or truck edited, a terrain cost painted)
  // ends it: the swarm carries on from a copy of the crowd, unrecorded, until the next Reset,
  // and recording_note() says which edit and why.

  /// The run being recorded, or null (edited mid-run; no units).
  const plan::Recording* recording() const { return rec_.get(); }
  /// Why there is no recording ("" while recording or before the first step).
  const std::string& recording_note() const { return rec_note_; }
  /// Shows the state after `step` steps of the recording (before that step's inputs); playing
  /// goes on from there along the recorded inputs, and an edit there drops the recorded future.
  /// Errors: no recording, a step outside it.
  Status seek(int64_t step);
  /// A seek from the timeline's handle: exact at once when it re-simulates at most
  /// kScrubUnitSteps unit-steps; else the moment is drawn from the recording's trail at once
  /// (shown_frame(): every unit's pose and activity, doors, trucks, the map and goal then) and
  /// scrub_target() is `step`. While `dragging` nothing is re-simulated (a frame costs a trail
  /// read); once let go, each update() re-simulates kScrubUnitSteps unit-steps towards it
  /// (from the keyframe before it, or on from the crowd's step when on the way) until the
  /// crowd is there; playing, stepping or an edit first bring it there at once (settle()).
  /// Errors: as seek.
  Status scrub(int64_t step, bool dragging);
  /// The step the handle is at while the crowd has not reached it yet.
  std::optional<int64_t> scrub_target() const { return scrub_target_; }
  /// What the canvas draws while the crowd has not reached the scrubbed moment: the trail's
  /// frame of scrub_target(); null when the crowd is at the moment shown.
  const plan::TrailFrame* shown_frame() const { return shown_ ? &*shown_ : nullptr; }
  /// A trail frame's preset name (TrailUnit::preset).
  const std::string& trail_preset(int preset) const;
  /// Brings the crowd to scrub_target() now (exact re-simulation), if it is not there.
  void settle();
  /// The recording's last branch can be undone (recording()->can_undo_branch()).
  bool can_undo_branch() const { return rec_ && rec_->can_undo_branch(); }
  /// Restores the future the last branch dropped, showing the branch's moment, paused.
  Status undo_branch();
  /// Counts the branches made (an edit at a past moment): the sandbox's Ctrl+Z undoes the
  /// last one when it is newer than the last edit it could undo otherwise.
  uint64_t branches_made() const { return branches_made_; }
  /// The map and the scene's goal at the moment shown (the trail's moment while scrubbing):
  /// the sandbox draws these when shown_scene_version() moves.
  const Grid& shown_map() const;
  Pose shown_goal() const;
  /// Counts changes of the map or goal shown that the recording made (a seek or a replayed
  /// paint or goal move); the sandbox copies recording()->scene()'s map and goal when it moves.
  uint64_t shown_scene_version() const { return shown_scene_version_; }
  /// Counts changes of the moment shown that are no edit of the user's (a seek, a branch
  /// undone, playing through recorded inputs): the spawn list may differ then, and the sandbox
  /// must not take that for an edit to undo.
  uint64_t moment_version() const { return moment_version_; }
  /// Replays `repro` (its scene loaded with load() first): its inputs at their steps up to its
  /// last step, then shows its moment (its end without one), paused. Returns "" or why not
  /// (a run that differs from the file's hashes is kept, and said so).
  std::string replay(const io::Repro& repro);
  /// The recorded inputs and the doors' scheduled toggles within the recorded steps, by step
  /// (empty without a recording).
  std::vector<TimelineMark> timeline_marks() const;

  /// Sends units to `goal` (each its own goal; the core settles them around it).
  std::string send(const std::vector<int>& ids, Vec2 goal, std::optional<double> heading);
  /// A click on a door: opens or closes it (closing waits until no unit is in it).
  void toggle_door(int door);

  void set_playing(bool playing) { playing_ = playing; }
  bool playing() const { return playing_; }
  void set_speed(double speed) { speed_ = std::clamp(speed, 0.05, 20.0); }
  double speed() const { return speed_; }
  /// Threads the crowd steps on (CrowdDef::threads, 1..kMaxThreads): the run is the same bytes
  /// whatever the count. Applies to the crowd now and to every crowd built after; a recording
  /// under way keeps its count until Reset.
  void set_threads(int threads);
  int threads() const { return threads_; }
#ifdef __EMSCRIPTEN__
  // The web page is built without WebAssembly threads (they need cross-origin isolation
  // headers that plain static hosts do not send): a second thread could not start.
  static constexpr int kMaxThreads = 1;
#else
  static constexpr int kMaxThreads = 8;
#endif
  int count() const { return static_cast<int>(units_.size()); }
  int arrived() const;
  /// True when unit `id` has reached its goal (or its place next to a shared goal).
  bool at_goal(int id) const { return cur().state(id).arrived; }
  UnitActivity activity(int id) const;
  /// Simulated time since load/reset, across rebuilds. [Units: s]
  double time() const { return rec_ ? rec_->time() : time_offset_ + crowd_->time(); }
  int pending_replans() const { return replan_pending_ ? count() : 0; }
  /// Something moves while playing: units, or trucks and doors on a schedule.
  bool moving() const {
    return playing_ && (count() > 0 || cur().moving_obstacle_count() > 0 || cur().door_count() > 0);
  }
  const Crowd& crowd() const { return cur(); }
  const std::string& preset_of(int id) const { return units_[static_cast<size_t>(id)].preset; }
  /// Why a unit cannot arrive or waits (e.g. its planner found no route, in full), or "" (for
  /// the panel, the badge's hover and the label).
  const std::string& unit_message(int id) const;
  /// Its route is being planned: an edit's re-plan is pending (a brush stroke in progress), so
  /// it still drives the old map's route until the stroke ends.
  bool planning(int id) const { return replan_pending_ && id >= 0 && id < count(); }
  /// Its planner found no route: it stays put and unit_message says why.
  bool plan_failed(int id) const;
  /// The routes the units were given and who planned them (tests check every one).
  const plan::UnitRouting& routing() const { return rec_ ? *rec_->units().routing : *routing_; }
  /// Where unit `id` is going (its own goal or the scene's).
  Pose goal_of(int id, const io::Scene& scene) const;
  int replans(int id) const;
  /// Why unit `id` moves as it does at the moment shown: the decision of the next step, worked
  /// out on a copy of the crowd (plan::explain_unit, units_why.cpp), kept until the moment or
  /// the unit changes. Null for an unknown unit.
  const CrowdExplanation* why(int id) const;
  SwarmMetrics metrics() const;
  /// Units whose disc contains `p`, the nearest centre first; -1 when none.
  int unit_at(Vec2 p, double slack = 0.0) const;

  // Selection (box select, the right-click target).
  bool selected(int id) const { return units_[static_cast<size_t>(id)].selected; }
  void select(int id, bool on) { units_[static_cast<size_t>(id)].selected = on; }
  void select_none();
  /// Selects the units whose centres are in the rectangle `a`-`b`; `add` keeps the others.
  int select_box(Vec2 a, Vec2 b, bool add);
  std::vector<int> selection() const;

 private:
  struct Unit {
    std::string preset;
    UnitDef def;
    Pose spawn;
    std::optional<Pose> goal;  ///< its own goal; none = the scene's
    std::optional<double> turning_radius;  ///< its own (io::UnitData::turning_radius), saved with it
    std::string message;       ///< a goal moved to fit, or other notes
    int replans_before = 0;    ///< re-plans in crowds since rebuilt
    bool selected = false;
    int key = -1;              ///< while recording: its index in the recording's scene units
    /// Its entry in the scene's unit list, as the file stores it.
    io::UnitData data() const { return io::UnitData{preset, spawn, goal, turning_radius}; }
  };
  /// `why`: the edit that ends the recording (from_current), for recording_note().
  void rebuild(const io::Scene& scene, bool from_current, const char* why = "");
  void apply_replan(const io::Scene& scene, bool defer_rebuild);
  /// A map edit (nothing else) while not recording: the swarm's crowd rebuilt by
  /// plan::rebuild_scene_units, the one rebuild a recorded paint and a replay make too.
  void rebuild_after_map_edit(const io::Scene& scene);
  /// The placed units as spawn-list entries (what a recording starts from).
  std::vector<io::UnitData> placed_list() const;
  /// Tries to place a unit not placed (at Reset) as build_scene_units places a scene's unit;
  /// returns "" (then it is the last of units_) or why not.
  std::string place_unplaced(const io::Scene& scene, const io::UnitData& d);
  /// Keeps `d` as not placed at `index` of spawn_list() (where it stands in the list: a unit
  /// just taken out of units_, or one rebuilt in list order).
  void keep_unplaced(io::UnitData d, int index, std::string reason);
  bool same_dynamic(const io::Scene& scene) const;  ///< the scene's doors and trucks are the crowd's
  /// Adds `u` to the crowd near `at`; `stay` (a unit that had arrived, rebuilt) keeps it where
  /// it stands instead of sending it to its goal again (it would swap slots with its neighbours).
  Result<CrowdAgentId> place(const io::Scene& scene, Unit& u, Pose at, bool stay = false);
  void run_steps(int n);
  std::string send_recorded(const std::vector<int>& ids, Vec2 goal, std::optional<double> heading);
  std::string spawn_recorded(const std::string& preset, const Pose& pose, std::optional<Pose> goal);
  /// Records the map edit (the scene's map against built_on_) as paint inputs; returns "" or
  /// why it cannot (a terrain cost: a paint input makes walls or ground of cost 1).
  std::string record_paint(const io::Scene& scene);
  /// The unit list, map and goal as the recording has them at the step shown (after a seek, a
  /// recorded input or a replayed one): a seek back shows the goals and units of that moment.
  void sync_from_recording();
  /// The crowd shown: the recording's, else the swarm's own.
  const Crowd& cur() const { return rec_ ? rec_->crowd() : *crowd_; }
  /// Takes the crowd back from the recording (a copy routed by a copy of its routing), which
  /// ends: an edit it cannot hold follows.
  void detach(const char* why);
  /// Starts recording when due (after Reset or loading, at t = 0), checking the recording's
  /// crowd is the swarm's own (same units, same state hash); otherwise it is not used.
  void start_recording(const io::Scene& scene);

  Grid built_on_;  ///< the map the crowd was built from (to tell a map edit from a goal move)
  std::vector<DoorDef> built_doors_;              ///< the scene's doors when built
  std::vector<MovingObstacleDef> built_trucks_;   ///< the scene's trucks when built
  std::shared_ptr<plan::UnitRouting> routing_;  ///< shared with the crowd's route_planner
  std::unique_ptr<Crowd> crowd_;
  std::vector<Unit> units_;
  std::vector<UnplacedUnit> unplaced_;  ///< by index, ascending
  SwarmMetrics carried_;  ///< from crowds before the last rebuild
  double time_offset_ = 0.0;
  double accumulator_ = 0.0;  ///< simulated time not yet stepped [s]
  double speed_ = 1.0;
  int threads_ = std::min(2, kMaxThreads);  ///< set_threads: the neighbour and avoidance phase on two cores (issue 27)
  bool playing_ = true;
  bool replan_pending_ = false;
  Pose scene_goal_;  ///< the scene goal the crowd was last given
  std::unique_ptr<plan::Recording> rec_;  ///< the run since Reset; its crowd replaces crowd_
  bool record_due_ = false;  ///< start a recording at the next step (Reset, load, spawn at t = 0)
  std::string rec_note_;
  struct WhyCache {  ///< why(): the last explanation and the moment it is of
    int id = -1;
    int64_t crowd_step = -1;
    uint64_t state = 0;  ///< plan::crowd_state_hash of the crowd then
    size_t inputs = 0;   ///< the recording's inputs then (a send changes goals, not poses)
    Vec2 target{0.0, 0.0};
    const Crowd* crowd = nullptr;
    std::optional<CrowdExplanation> why;
  };
  mutable WhyCache why_;
  uint64_t synced_revision_ = 0;      ///< rec_->revision() the lists were last synced at
  uint64_t shown_scene_version_ = 0;
  uint64_t moment_version_ = 0;
  std::optional<int64_t> scrub_target_;  ///< the handle's step while the crowd closes in on it
  std::optional<plan::TrailFrame> shown_;  ///< the trail's frame of scrub_target_
  bool scrub_held_ = false;              ///< the handle is held: no re-simulation meanwhile
  Grid shown_grid_;                      ///< the map at scrub_target_ (while shown_)
  Pose shown_goal_;                      ///< the scene's goal then
  static constexpr size_t kNoInputs = static_cast<size_t>(-1);
  size_t shown_inputs_ = kNoInputs;      ///< inputs before the trail's moment (its map and goal)
  uint64_t branches_made_ = 0;
  /// Draws `step` from the trail (its frame, map and goal).
  void show_trail(int64_t step);
  /// One frame's re-simulation towards scrub_target_; clears it on arrival.
  void close_in();
  /// recording()->input(...) at the moment shown (settled first), counting branches.
  std::string record_input(io::UnitInput input);
};

}  // namespace pathlab::sandbox
