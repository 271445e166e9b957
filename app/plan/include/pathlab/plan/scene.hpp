#pragma once
/// @file scene.hpp
/// Scene files read and planned the way the CLI and the sandbox do. The scene reader
/// (pathlab/io/scene_file.hpp) sits below the planning layer and knows no planner names; the
/// loaders here pass it the registry's check, so a scene naming an unknown planner or smoother
/// is refused at its line: "s.json:4: settings.planner: unknown planner 'warp-drive' (astar, ...)".
/// scene_request turns a loaded scene into the request the sandbox and `pathlab-cli plan --scene
/// s.json` make; scene_grid is the map that request is planned on.

#include <string>

#include "pathlab/crowd.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/status.hpp"

namespace pathlab::plan {

/// Read options whose names check is the registry's (check_scene_names).
io::SceneReadOptions scene_read_options();

/// io::load_scene with the registry's names check.
Result<io::Scene> load_scene(const std::string& path);

/// io::parse_scene with the registry's names check; `source` names the text in messages,
/// `base_dir` resolves "map.file".
Result<io::Scene> parse_scene(const std::string& text, const std::string& source, const std::string& base_dir);

/// io::load_scene_crowd with the registry's names check.
Result<Crowd> load_scene_crowd(const std::string& path, const CrowdDef& def, io::Scene* scene = nullptr);

/// The request a scene's start -> goal plan makes: the one the sandbox plans (without its
/// trace, internals, analysis and budget), `pathlab-cli plan --scene SCENE.json` (no other
/// option) sends and a game makes. Plan it on scene_grid(scene) with PlanService::plan.
///  - Poses: the scene's, exactly (radians as read). Their headings count where the plan uses
///    them (heading planners, smoothers that drive a turning radius: turning, vehicle); grid and
///    navmesh paths have no heading of their own, so otherwise the ends go without one.
///  - Settings: the scene's as they are, so a setting the planner does not use is ignored by the
///    service exactly as it is for the sandbox; only connectivity (8) and the turn penalty (0)
///    are reset for planners that do not take them, which plans the same.
///  - Curves are sampled at the service's default step (curve_step unset), as in the sandbox.
/// Errors name the setting: a planner `plan` does not run (the curve planners are the `curve`
/// verb's), a smoother that does not follow the planner, a turning radius outside
/// (0, kMaxTurningRadius] where it is used.
Result<PlanRequest> scene_request(const io::Scene& scene);

/// The grid a scene's start -> goal plan searches: its map with every door that is shut at
/// t = 0 drawn in as walls, as the sandbox plans the path before its units run (a shut door is
/// a wall for the units too). A scene without doors: its map as it is.
Grid scene_grid(const io::Scene& scene);

/// Degrees that convert back (deg_to_rad) to exactly `rad` when such a double lies within a few
/// ulps of rad_to_deg(rad), else rad_to_deg(rad): what a scene file or a command line should
/// carry so that a heading read back is the heading written. Scene files write headings so.
double exact_degrees(double rad);

}  // namespace pathlab::plan
