#pragma once
// `--scene FILE` for the verbs that take a map (plan, simulate, scen; crowd has its own): the
// scene becomes the request the sandbox plans (plan::scene_request, the one code path from a
// scene to a plan), and the flags given on the command line are applied on top of it one by one.
// `--map FILE.json` is an alias of `--scene FILE.json`; `--link LINK` gives the scene a scene link
// holds (issue 29).

#include <optional>
#include <string>

#include "args.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/plan/plan_service.hpp"

namespace pathlab::cli {

/// The scene file the command names: --scene FILE, or --map FILE when FILE ends in ".json".
/// Giving both --scene and --map is a UsageError (one map per command).
std::optional<std::string> scene_file_arg(Args& args);

/// A scene as the CLI plans it.
struct CliScene {
  std::string path;  ///< the file, for messages ("link" for a scene from --link)
  io::Scene scene;
  Grid grid;  ///< plan::scene_grid: the map with the doors shut at t = 0 as walls
};

/// The scene the command names: --scene FILE, --map FILE.json (scene_file_arg, read with
/// load_cli_scene) or --link LINK (a scene link, pathlab/io/scene_link.hpp: the scene it holds,
/// "link" in messages). Giving --link with --scene or --map is a UsageError; so is a bad link.
std::optional<CliScene> scene_arg(Args& args);

/// Reads a scene file with the registry's names check; any error is a UsageError naming the
/// file (and the line, for a bad key).
CliScene load_cli_scene(const std::string& path);

/// The scene's request for the planner and smoother the command line names, if it names them:
/// --planner replaces the scene's planner and keeps its poses (headings included) and settings;
/// the scene's smoother stays when it follows the planner (or --smoother names one that does),
/// else the planner's default smoother is used. An unknown --planner is a UsageError naming it;
/// a scene the CLI cannot plan is one naming the file and the setting.
plan::PlanRequest scene_base_request(const CliScene& scene, Args& args);

/// A pose as --from / --to would give it, its heading exactly (PointArg::exact_rad; the degrees
/// for printing), or no heading when `with_heading` is false.
PointArg scene_point(const Pose& pose, bool with_heading);

}  // namespace pathlab::cli
