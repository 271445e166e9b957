#pragma once
/// @file recording_trail.hpp
/// What a viewer draws of a recorded run, at every step (issue 25's scrubbing): each unit's
/// pose and activity, each truck's pose, each door's state, quantised and delta-encoded so
/// ten simulated minutes of 1,000 units stay a few tens of MB. A Recording keeps one (its
/// trail()), so a timeline can show any recorded moment at once, without re-simulating from a
/// keyframe; the exact crowd (routes, neighbours, metrics) still comes from Recording::seek.
///
/// Encoding: per step one record, either full (every value, absolute) or a delta against the
/// step before (only the units, trucks and doors whose quantised values changed, each as
/// zig-zag varints, the heading and flags only when they changed, so a unit standing still
/// costs nothing and one walking straight about 3 bytes). A full record every
/// kFullEvery steps bounds the work of reading a step; the unit list (who is drawn how: preset
/// and radius) is kept apart, once per change (a spawn, a unit dropped by a rebuild).

#include <cstdint>
#include <string>
#include <vector>

#include "pathlab/crowd.hpp"

namespace pathlab::plan {

/// One unit as drawn at a step.
struct TrailUnit {
  Vec2 pos{0.0, 0.0};   ///< Within Trail::kPosQuantum / 2 of the crowd's. [Units: cells]
  double heading = 0.0; ///< In [-pi, pi), within Trail::kHeadingQuantum / 2 of the crowd's (mod 2 pi). [Units: rad]
  bool arrived = false, stuck = false, waiting = false, yielding = false;  ///< CrowdAgentState's flags
  double radius = 0.0;  ///< CrowdAgentDef::unit.radius. [Units: cells]
  int preset = 0;       ///< index into Trail::preset_names()
};

/// One truck (moving obstacle) as drawn at a step.
struct TrailTruck {
  Pose pose;  ///< as TrailUnit's pos and heading
  bool waiting = false, backing = false, finished = false;  ///< MovingObstacleState's flags
};

/// Everything drawn of the crowd after `step` steps.
struct TrailFrame {
  int64_t step = 0;
  std::vector<TrailUnit> units;   ///< in agent order (agent ids of the crowd then)
  std::vector<TrailTruck> trucks; ///< in the crowd's order
  std::vector<DoorState> doors;   ///< in the crowd's order
};

class Trail {
 public:
  static constexpr double kPosQuantum = 1.0 / 1024.0;  ///< [Units: cells]
  static constexpr double kHeadingQuantum = 6.283185307179586 / 65536.0;  ///< [Units: rad]
  /// Steps between full records: reading a step decodes at most this many records. [Limit: >= 1]
  static constexpr int64_t kFullEvery = 128;

  /// Appends the crowd's state as step size() (the first call: step 0). `presets[i]` names
  /// agent i's preset; `units_may_differ`: an input was applied since the last call (the list
  /// of units is compared only then, or when the count changes).
  void record(const Crowd& crowd, const std::vector<std::string>& presets, bool units_may_differ);
  /// Steps recorded: frames 0..size()-1 exist.
  int64_t size() const noexcept { return static_cast<int64_t>(offsets_.size()); }
  /// The frame after `step` steps. Precondition: 0 <= step < size().
  TrailFrame frame(int64_t step) const;
  /// Keeps frames 0..step only (a branch from `step`); recording goes on at step + 1.
  void truncate(int64_t step);
  /// Heap bytes held. [Units: bytes]
  size_t bytes() const noexcept;
  const std::vector<std::string>& preset_names() const noexcept { return preset_names_; }

 private:
  struct Q {  ///< one unit's or truck's quantised state
    int32_t x = 0, y = 0;
    uint16_t h = 0;
    uint8_t flags = 0;
    bool operator==(const Q&) const = default;
  };
  struct Quantised {
    std::vector<Q> units, trucks;
    std::vector<uint8_t> doors;
  };
  struct Looks {  ///< the units' list from step `from` on
    int64_t from = 0;
    std::vector<int> preset;
    std::vector<double> radius;
  };
  void quantise(const Crowd& crowd, Quantised& q) const;
  Looks looks_of(const Crowd& crowd, const std::vector<std::string>& presets);
  void write_full(const Quantised& q);
  void write_delta(const Quantised& q);
  /// Decodes step `step` into `q` (full record at or before it, then the deltas).
  void decode(int64_t step, Quantised& q) const;

  /// The records from one full record to the next: closed blocks keep no spare capacity, so
  /// the trail's heap is its bytes (one growing vector would hold up to twice as many).
  struct Block {
    int64_t first = 0;  ///< the step of its full record
    std::vector<uint8_t> bytes;
  };
  const Block& block_of(int64_t step) const;

  std::vector<Block> blocks_;      ///< by first step, increasing (step 0 starts the first)
  std::vector<uint32_t> offsets_;  ///< where step k's record starts in its block
  std::vector<Looks> looks_;       ///< by `from`, increasing
  std::vector<std::string> preset_names_;
  Quantised last_;  ///< the last step recorded, for the next delta
  Quantised next_;  ///< the step being recorded (kept: no allocation per step)
  std::vector<uint32_t> scratch_;  ///< changed indices while writing a delta
};

}  // namespace pathlab::plan
