#pragma once
/// @file repro_file.hpp
/// Repro files (issue 25): one JSON document that reproduces a crowd run bit for bit: the
/// scene, every input with the step it was given at, the simulation settings, the pathlab
/// version that wrote it, the moment of interest and state hashes to check a replay against.
///
/// Format (version 2; README.md, section "Repro files", is the contract; version 1 files, which
/// have no "spawn" or "goal" inputs, are read as they are):
/// {
///  "pathlab_repro": 2,
///  "pathlab_version": "0.1.0",
///  "settings": {"dt": 0.016666666666666666, "hash_every": 60},
///  "until_step": 600,
///  "moment": 300,                                  (or null)
///  "inputs": [
///   {"step": 120, "paint": {"cells": [[x, y], ...], "wall": true}},
///   {"step": 180, "door": 0},
///   {"step": 240, "send": {"units": [0, 3], "goal": [x, y] or [x, y, deg]}},
///   {"step": 300, "spawn": {"preset": "person", "pose": [x, y, deg], "goal": [x, y, deg] or null}},
///   {"step": 360, "goal": [x, y, deg]}
///  ],
///  "hashes": [{"step": 60, "state": "16 hex digits", "units": ["8 hex digits", ...]}, ...],
///  "step_hashes": "16 hex digits per step, steps 1..until_step",
///  "scene": { a scene, as scene_file.hpp writes it }
/// }
/// An input at step s is applied after s steps have run, before step s + 1. Inputs are in
/// step order (several may share a step: they apply in file order). Reading checks every
/// field (ranges, counts, cells inside the map, door indices, hash digits) and fails with one
/// message "FILE:LINE: KEY what is wrong". Writing is byte-stable.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/status.hpp"

namespace pathlab::io {

inline constexpr int kReproVersion = 2;
/// Most steps a repro may cover (as `pathlab-cli crowd`'s limit): 46 hours at 60 Hz.
inline constexpr int64_t kMaxReproSteps = 10'000'000;
inline constexpr size_t kMaxReproInputs = 1'000'000;
/// Cells one paint input may list (a 2048 x 2048 map's worth is more than any brush stroke).
inline constexpr size_t kMaxReproPaintCells = size_t{1} << 22;
/// Largest repro file read; larger files are refused before reading. [Units: bytes]
inline constexpr size_t kMaxReproFileBytes = size_t{256} << 20;

/// The version of pathlab that built this library (CMake's project VERSION), e.g. "0.1.0".
const char* pathlab_version() noexcept;

/// Cells painted by a brush: each becomes a wall (`wall`) or free ground (cost 1).
struct PaintInput {
  std::vector<Cell> cells;
  bool wall = true;
  bool operator==(const PaintInput&) const = default;
};

/// A click on a door: it opens, or closes when clear (a click on a door closing cancels it).
struct DoorInput {
  int door = 0;  ///< index in the scene's doors
  bool operator==(const DoorInput&) const = default;
};

/// Units (crowd agent ids) sent to a goal, each settling around it.
struct SendInput {
  std::vector<int> units;
  Vec2 goal{0.0, 0.0};                 ///< [Units: cells]
  std::optional<double> goal_heading;  ///< [Units: radians]
  bool operator==(const SendInput&) const = default;
};

/// A unit spawned during the run: a unit of `preset` placed near `pose` (the nearest free spot),
/// going to `goal` (none: the scene's goal). It gets the next crowd agent id.
struct SpawnInput {
  std::string preset;
  Pose pose;                 ///< [Units: cells, radians]
  std::optional<Pose> goal;  ///< [Units: cells, radians]
  bool operator==(const SpawnInput& o) const {
    return preset == o.preset && same_pose(pose, o.pose) && goal.has_value() == o.goal.has_value() &&
           (!goal || same_pose(*goal, *o.goal));
  }
  /// Pose has no ==: equal doubles, bit for bit as a replay needs them.
  static bool same_pose(const Pose& a, const Pose& b) { return a.pos == b.pos && a.heading == b.heading; }
};

/// The scene's goal moved: every unit without a goal of its own re-targets to it.
struct GoalInput {
  Pose goal;  ///< [Units: cells, radians]
  bool operator==(const GoalInput& o) const { return SpawnInput::same_pose(goal, o.goal); }
};

/// One edit during a run, applied after `step` steps.
struct UnitInput {
  int64_t step = 0;
  std::variant<PaintInput, DoorInput, SendInput, SpawnInput, GoalInput> what;
  bool operator==(const UnitInput&) const = default;
};

/// The crowd's state hash after `step` steps: all of it, and per unit (crowd agent id).
struct StateHash {
  int64_t step = 0;
  uint64_t state = 0;
  std::vector<uint32_t> units;
  bool operator==(const StateHash&) const = default;
};

struct Repro {
  std::string version = pathlab_version();  ///< the pathlab that wrote it
  Scene scene;                              ///< as it was when the run started
  double dt = 1.0 / 60.0;                   ///< the crowd's fixed step [Units: s] [Limit: (0, 1]]
  int64_t hash_every = 60;                  ///< steps between `hashes` [Limit: >= 1]
  int64_t until_step = 0;                   ///< steps recorded [Limit: 0..kMaxReproSteps]
  std::optional<int64_t> moment;            ///< the step of interest [Limit: 0..until_step]
  std::vector<UnitInput> inputs;            ///< in step order
  std::vector<StateHash> hashes;            ///< every hash_every steps, increasing
  std::vector<uint64_t> step_hashes;        ///< state hash after steps 1..until_step (k-1 for step k)
};

/// Parses repro JSON text; `source` names it in messages, `base_dir` resolves the scene's
/// "map.file". `options` checks the scene's planner names.
Result<Repro> parse_repro(const std::string& text, const std::string& source, const std::string& base_dir,
                          const SceneReadOptions& options = {});
/// Parses an inputs file, {"inputs": [...]} with entries as in a repro, checked against
/// `scene` (cells in its map, its doors) and `until_step` (the steps a recording will run):
/// inputs as data, for `pathlab-cli record --inputs`.
Result<std::vector<UnitInput>> parse_unit_inputs(const std::string& text, const std::string& source, const Scene& scene,
                                                 int64_t until_step);
/// Reads a repro file (at most kMaxReproFileBytes).
Result<Repro> load_repro(const std::string& path, const SceneReadOptions& options = {});
/// The repro as JSON text (what save_repro writes).
std::string repro_to_json(const Repro& repro);
/// Writes a repro atomically. Refuses (and leaves alone) an existing file that is not a
/// pathlab repro: a user's file is never written over.
Status save_repro(const Repro& repro, const std::string& path);
/// "" when `path` may be written by save_repro, else why not.
std::string check_repro_target(const std::string& path);

}  // namespace pathlab::io
