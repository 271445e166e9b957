#pragma once
/// @file scene_file.hpp
/// Scene files: one JSON document with the map, the start and goal poses and every planning
/// parameter, so that a bug seen in the sandbox can be saved, shared and replayed by the CLI.
///
/// Format (version 1):
/// {
///   "pathlab_scene": 1,
///   "name": "...",
///   "map": {"width": W, "height": H, "rows": ["..@@S.", ...], "weights": [[x, y, cost], ...]}
///        or {"file": "relative/or/absolute.map|png"},
///   "start": [x, y, deg], "goal": [x, y, deg],
///   "settings": {"planner": "astar", "smoother": "none", "connectivity": 8, "turn_penalty": 0,
///                "agent_radius": 0, "subdivisions": 8, "turning_radius": 2, "reverse": false}
/// }
/// Rows use `.` free, `@` wall, `S` swamp (cost 3); other costs go in "weights".

#include <string>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"

namespace pathlab::io {

inline constexpr int kSceneVersion = 1;

/// Planner and smoother choices with their parameters, as the sandbox and the CLI name them.
struct PlanSettingsData {
  std::string planner = "astar";
  std::string smoother = "none";
  int connectivity = 8;          ///< 4 or 8
  double turn_penalty = 0.0;     ///< [Limit: >= 0]
  double agent_radius = 0.0;     ///< [Units: cells] [Limit: >= 0]
  int subdivisions = 8;          ///< spline points per segment [Limit: 1..1000]
  double turning_radius = 2.0;   ///< [Units: cells] [Limit: > 0]
  bool reverse = false;
};

struct Scene {
  std::string name;
  Grid grid;
  Pose start;  ///< heading in radians
  Pose goal;
  PlanSettingsData settings;
};

/// Reads a scene. Errors name the file and, for JSON syntax errors, the byte offset.
Result<Scene> load_scene(const std::string& path);

/// Parses scene JSON text; `source` names it in messages, `base_dir` resolves "map.file".
Result<Scene> parse_scene(const std::string& text, const std::string& source, const std::string& base_dir);

/// Writes a scene atomically: to a temporary file next to `path`, then renamed over it, so a
/// crash or a full disk never leaves a half-written scene behind.
Status save_scene(const Scene& scene, const std::string& path);

/// The scene as JSON text (what save_scene writes).
std::string scene_to_json(const Scene& scene);

/// Writes text to `path` atomically (temporary file + rename).
Status write_file_atomic(const std::string& path, const std::string& text);

}  // namespace pathlab::io
