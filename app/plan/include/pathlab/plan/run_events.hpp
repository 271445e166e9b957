#pragma once
/// @file run_events.hpp
/// The events of a recorded crowd run (issue 25): what a person scrubbing the timeline wants to
/// find: re-plans and their cause, units becoming stuck, giving way or backing up, doors
/// toggling, bodies touching (a move shortened to stay off another unit or a truck, or bodies
/// overlapping) and wall contacts, and the edits made during the run. They are read off the
/// crowd after each recorded step (CrowdAgentState, CrowdAgentMetrics, Crowd::door_state),
/// never computed inside it: the run is the same bytes with or without them, and the same run
/// gives the same events. A contact is one event when it begins, not one per step it lasts.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "pathlab/crowd.hpp"
#include "pathlab/io/repro_file.hpp"
#include "pathlab/plan/scene_units.hpp"

namespace pathlab::plan {

enum class RunEventKind : uint8_t {
  replan,        ///< detail: CrowdReplanCause; other: re-plans in that step
  stuck,         ///< no progress for CrowdDef::stuck_time (or its shorter round: CrowdExplanation::stuck_after)
  giving_way,    ///< stepping aside for a unit of higher priority or a truck
  backing_up,    ///< began to drive backwards
  door,          ///< unit -1; other: the door; detail: its new DoorState, from: the old one
  collision,     ///< detail 0: a move shortened to stay off a unit or truck; 1: bodies overlap (other: that unit)
  wall_contact,  ///< a move shortened to stay off a wall
  edit,          ///< an input (io::UnitInput); detail: 0 paint, 1 door click (other: door), 2 send (other: units sent)
};
inline constexpr int kRunEventKinds = 8;

/// "re-plan", "stuck", "giving way", "backing up", "door", "collision", "wall contact", "edit".
const char* to_string(RunEventKind kind) noexcept;

/// Why unit `id` of a scene's crowd moves as it does (Crowd::explain), its route questions in
/// that step answered by a copy of the units' routing: neither the crowd nor the routing's
/// records change. Errors: an unknown id, no crowd.
Result<CrowdExplanation> explain_unit(const SceneUnits& units, CrowdAgentId id);
/// The same for a crowd routed by `routing` (nullptr: the crowd's built-in planning).
Result<CrowdExplanation> explain_unit(const Crowd& crowd, const UnitRouting* routing, CrowdAgentId id);

/// One event: compact (24 bytes), its words made on demand (describe()).
struct RunEvent {
  int64_t step = 0;  ///< the moment it is seen: after that many steps (an edit: before that step's simulation)
  int32_t unit = -1; ///< the unit (crowd agent id), or -1 (a door, a paint)
  int32_t other = -1;
  RunEventKind kind = RunEventKind::replan;
  uint8_t detail = 0;
  uint8_t from = 0;
  friend bool operator==(const RunEvent&, const RunEvent&) = default;
};

/// The event's cause in words: "door toggled", "open -> closing when clear", "send 3 units", ...
std::string describe(const RunEvent& e);

/// The events of one run as it is recorded, bounded: past `cap` events, later ones are counted
/// (dropped()) but not kept. Memory: 24 bytes an event, and 16 bytes per step in which events
/// were dropped.
class RunEvents {
 public:
  /// 200,000 events: 4.8 MB, about a minute of 1,000 units in a dense crowd. [Limit: >= 0]
  static constexpr size_t kDefaultCap = 200'000;
  explicit RunEvents(size_t cap = kDefaultCap) : cap_(cap) {}

  /// What the events of the next step are found against: the crowd's state at one step.
  struct Seen;
  /// Remembers the crowd's state at `step` (before its inputs) to compare the next step with;
  /// does nothing when it already holds that step's state.
  void observe(const Crowd& crowd, int64_t step);
  /// The crowd after simulating to `step`: appends what changed since the state observed at
  /// `step - 1` (a crowd rebuilt since, by a paint, is observed afresh) when `keep`, then
  /// observes it (`keep` false: re-simulating recorded steps, which follows the state only).
  void detect(const Crowd& crowd, int64_t step, bool keep = true);
  /// The state observed, and back (a recording's keyframe keeps it, so after a seek the next
  /// step's events are found exactly as when it was first recorded).
  Seen seen() const;
  void restore(const Seen& seen);
  /// An input made at in.step (a send's event names its first unit).
  void add_input(const io::UnitInput& in);
  /// Drops the events after `step` (a seek back and an edit: another future).
  void drop_after(int64_t step);

  const std::vector<RunEvent>& events() const noexcept { return events_; }
  /// Events not kept because the cap was reached.
  size_t dropped() const noexcept;
  size_t cap() const noexcept { return cap_; }

 private:
  struct UnitSeen {
    int replans = 0;
    int wall_contacts = 0;
    int unit_contacts = 0;
    bool stuck = false, yielding = false, backing = false;
    bool wall_touching = false, unit_touching = false;  ///< the last step shortened a move
  };
  void add(const RunEvent& e);
  void detect_unit(const Crowd& crowd, int id, int64_t step, bool keep);
  void observe_now(const Crowd& crowd, int64_t step);

  size_t cap_;
  std::vector<RunEvent> events_;
  std::vector<std::pair<int64_t, uint32_t>> dropped_;  ///< (step, events dropped in it)
  int64_t seen_step_ = -1;         ///< the run's step the state below is of; -1: none
  int64_t seen_crowd_step_ = -1;   ///< the crowd's own step count then (a rebuild restarts it)
  std::vector<UnitSeen> units_;
  std::vector<DoorState> doors_;
};

struct RunEvents::Seen {
  int64_t step = -1, crowd_step = -1;
  std::vector<UnitSeen> units;
  std::vector<DoorState> doors;
};

}  // namespace pathlab::plan
