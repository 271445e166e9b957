#pragma once
/// @file scene.hpp
/// Scene files read and planned the way the CLI and the sandbox do. The scene reader
/// (pathlab/io/scene_file.hpp) sits below the planning layer and knows no planner names; the
/// loaders here pass it the registry's check, so a scene naming an unknown planner or smoother
/// is refused at its line: "s.json:4: settings.planner: unknown planner 'warp-drive' (astar, ...)".
/// scene_request turns a loaded scene into the request `pathlab-cli plan --map s.json` makes.

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

/// Spacing of the points of curved paths `pathlab-cli plan` asks for when --sample-step is
/// not given. [Units: cells]
inline constexpr double kCliCurveStep = 0.25;

/// The request `pathlab-cli plan --map SCENE.json` (no other option) sends to the planning
/// service: the scene's start and goal (without headings for grid and navmesh planners), the
/// scene's planner and smoother with the options that apply to them (the rest at their
/// defaults; the CLI's navmesh polygons default to corners only when the scene says corners),
/// curves sampled every kCliCurveStep, no analysis, no internals, no budget. Plan it on the
/// scene's grid with PlanService::plan. Errors name the setting, as the CLI's do: a planner
/// `plan` does not run (the curve planners), a smoother that does not follow the planner, a
/// turning smoother after a grid or navmesh planner (the CLI needs --radius for it), a turning
/// radius outside (0, kMaxTurningRadius], reversing with a heading planner other than Hybrid A*.
Result<PlanRequest> scene_request(const io::Scene& scene);

}  // namespace pathlab::plan
