#pragma once
/// @file scene_file.hpp
/// Scene files: one JSON document with the map, the start and goal poses and every planning
/// parameter, so that a bug seen in the sandbox can be saved, shared and replayed by the CLI.
///
/// Format (version 3; versions 1 and 2, which lack some keys, still load):
/// {
///   "pathlab_scene": 3,
///   "name": "...",
///   "map": {"width": W, "height": H, "rows": ["..@@S.", ...], "weights": [[x, y, cost], ...]}
///        or {"file": "relative/or/absolute.map|png"},
///   "start": [x, y, deg], "goal": [x, y, deg],
///   "settings": {"planner": "astar", "smoother": "none", "connectivity": 8, "turn_penalty": 0,
///                "agent_radius": 0, "subdivisions": 8, "turning_radius": 2, "reverse": false,
///                "insert_min_chord": 2, "shift_margin": 0.01, "shift_passes": 0, "headings": 72,
///                "neighborhood": 0, "reverse_penalty": 2, "gear_change_penalty": 2},
///   "units": [{"preset": "car", "pose": [x, y, deg], "goal": [x, y, deg], "turning_radius": 3}, ...],
///   "doors": [{"cells": [x0, y0, x1, y1], "open": true, "toggles": [t, ...]}, ...],
///   "moving_obstacles": [{"size": [length, width], "route": [[x, y], ...], "speed": v,
///                         "start": t, "loop": false}, ...],
///   "simulation": {"speed": 1}
/// }
/// Rows use `.` free, `@` wall, `S` swamp (cost 3); other costs go in "weights".
///
/// Version 3 (crowds, issue 13):
/// - a unit's "goal" is optional (none: the scene's goal); [x, y] means heading 0; its
///   "turning_radius" is optional (none: its preset's), in (0, 1000] cells.
/// - a door is a rectangle of cells, corners inclusive, inside the map with x0 <= x1 and
///   y0 <= y1; "open" (default true) is its state at t = 0; "toggles" are the times [s] at
///   which it switches, >= 0 and strictly increasing.
/// - a moving obstacle is a box of "size" [length along travel, width] [cells] (each in
///   (0, 128]; default [3, 1.5]) that waits at route[0] until "start" [s] (default 0), then
///   drives the route (>= 2 points inside the map, no point repeating the one before) at
///   "speed" [cells/s] (default 2); with "loop" it drives on from the last point to the first.
/// Counts are capped: kMaxSceneUnits units, kMaxSceneDoors doors, kMaxSceneMovingObstacles
/// moving obstacles, kMaxScenePoints toggle times and route points together. Errors in these
/// keys read "FILE:LINE: KEY what is wrong", e.g. "s.json:12: doors[0].cells[2] is outside
/// the map (0..31)". Writing is byte-stable: save, load and save again gives the same bytes.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pathlab/crowd.hpp"
#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"

namespace pathlab::io {

inline constexpr int kSceneVersion = 3;

/// Caps on what a scene may list, so a hostile file cannot ask for huge allocations.
inline constexpr size_t kMaxSceneUnits = 10000;
inline constexpr size_t kMaxSceneDoors = 4096;
inline constexpr size_t kMaxSceneMovingObstacles = 4096;
inline constexpr size_t kMaxScenePoints = 100000;  ///< door toggle times + route points

/// Largest scene file load_scene reads; larger files are refused before reading. [Units: bytes]
inline constexpr size_t kMaxSceneFileBytes = size_t{128} << 20;

/// Planner and smoother choices with their parameters, as the sandbox and the CLI name them.
struct PlanSettingsData {
  std::string planner = "astar";
  std::string smoother = "none";
  int connectivity = 8;          ///< 4 or 8
  double turn_penalty = 0.0;     ///< [Limit: >= 0]
  double agent_radius = 0.0;     ///< [Units: cells] [Limit: >= 0]
  int subdivisions = 8;          ///< spline points per segment [Limit: 1..1000]
  double turning_radius = 2.0;   ///< [Units: cells] [Limit: > 0]
  bool reverse = false;          ///< heading-aware planners may drive backwards
  /// Hybrid A*'s finish and the vehicle smoother's connections are continuous-curvature curves
  /// of sharpness 1 / turning_radius^2. Written only when true (older files keep their bytes).
  bool cc = false;
  double insert_min_chord = 2.0; ///< spline repair: chords this long get control points [Limit: 0 or >= 1]
  double shift_margin = 0.01;    ///< navmesh edge-shift: distance kept from edge ends [Units: cells]
  int shift_passes = 0;          ///< navmesh edge-shift passes, 0 = until converged [Limit: 0..64]
  bool navmesh_convex = true;    ///< navmesh: merge rectangles into larger convex polygons (false: rectangles)
  /// navmesh: wall-corner polygons (NavmeshDef::corners_only); overrides navmesh_convex. The
  /// default since issue 28: the planning service mends its tiled meshes after an edit, so the
  /// slower build no longer costs a painted stroke.
  bool navmesh_corners = true;
  int headings = 72;             ///< hybrid A*: heading bins per full turn [Limit: 8..720]
  int neighborhood = 0;          ///< directional A*: cells a move may reach (4, 8, 24, 48; 0 = sized to the turning radius)
  double reverse_penalty = 2.0;  ///< hybrid A*: cost multiplier on reversed length [Limit: >= 1]
  double gear_change_penalty = 2.0;  ///< hybrid A*: cost per change of gear [Units: cells] [Limit: >= 0]
  /// Hybrid A*'s finish and the vehicle smoother: shortest run in one gear between changes of
  /// gear. Written only when not 1 (older files keep their bytes). [Units: cells] [Limit: 0..100]
  double min_gear_length = 1.0;
  bool operator==(const PlanSettingsData&) const = default;
};

/// A unit placed in the scene: which core preset it is and where it starts.
struct UnitData {
  std::string preset = "person";
  Pose pose;  ///< heading in radians
  /// The unit's own goal (a crowd sends each unit somewhere); none: the scene's goal.
  std::optional<Pose> goal;
  /// A turning radius of its own instead of its preset's (issue 26: Pinter's figure-8 tank
  /// keeps radius 3); a unit given one cannot turn on the spot. [Units: cells] [Limit: (0, 1000]]
  std::optional<double> turning_radius = std::nullopt;  // initialised: UnitData{preset, pose, goal} stays complete
};

/// The unit's definition: its preset's, with its own turning radius when it has one (and then
/// no turning on the spot: pivot_turn_rate 0). Errors name the preset.
Result<UnitDef> scene_unit_def(const UnitData& unit);

struct Scene {
  std::string name;
  Grid grid;
  Pose start;  ///< heading in radians
  Pose goal;
  PlanSettingsData settings;
  std::vector<UnitData> units;
  std::vector<DoorDef> doors;                       ///< cells that open and close (crowds)
  std::vector<MovingObstacleDef> moving_obstacles;  ///< boxes driving along routes (crowds)
  double sim_speed = 1.0;  ///< simulation time multiplier [Limit: 0.05..20]
};

/// A check of a scene's planner and smoother names. The reader has no list of them: the
/// planning layer above io has (pathlab/plan/scene.hpp passes its registry's check). Returns ""
/// when both names are known, else a message that begins with the key it is about:
/// "settings.planner: unknown planner 'warp-drive' (astar, ...)".
using SceneNamesCheck = std::function<std::string(std::string_view planner, std::string_view smoother)>;

/// How a scene is read.
struct SceneReadOptions {
  /// Run on settings.planner and settings.smoother right after the settings are read; a
  /// refusal is reported as "FILE:LINE: MESSAGE" at the key's line. Empty: names are not
  /// checked while reading (the planning service still refuses unknown ones when it plans).
  SceneNamesCheck check_names;
  /// "map.file" may name a map file to read. False for text from elsewhere (a scene link,
  /// scene_link.hpp): such a scene must carry its map, never make the reader open a file.
  bool allow_map_file = true;
};

/// Reads a scene. Errors name the file and, for JSON syntax errors, the byte offset.
Result<Scene> load_scene(const std::string& path, const SceneReadOptions& options = {});

/// Parses scene JSON text; `source` names it in messages, `base_dir` resolves "map.file".
Result<Scene> parse_scene(const std::string& text, const std::string& source, const std::string& base_dir,
                          const SceneReadOptions& options = {});

/// Writes a scene atomically: to a temporary file next to `path`, then renamed over it, so a
/// crash or a full disk never leaves a half-written scene behind.
Status save_scene(const Scene& scene, const std::string& path);

/// The scene as JSON text (what save_scene writes).
std::string scene_to_json(const Scene& scene);

/// The scene's units as crowd agents: each unit's core preset, its pose, and its own goal (or
/// the scene's goal) with the goal's heading. Errors name the unit ("units[2]: unknown unit
/// preset ...").
Result<std::vector<CrowdAgentDef>> crowd_agents(const Scene& scene);

/// A core Crowd of the scene: its map, doors, moving obstacles and units (crowd_agents).
/// Errors name the entry the core refused ("units[1]: ...", "doors[0]: ...").
Result<Crowd> build_crowd(const Scene& scene, const CrowdDef& def = default_crowd_def());

/// Loads a scene file and builds its crowd. An entry the core refuses is reported at its line:
/// "FILE:LINE: units[1]: ...". `scene`, when given, receives the scene.
Result<Crowd> load_scene_crowd(const std::string& path, const CrowdDef& def, Scene* scene = nullptr,
                               const SceneReadOptions& options = {});

/// Writes text to `path` atomically (temporary file + rename).
Status write_file_atomic(const std::string& path, const std::string& text);

}  // namespace pathlab::io
