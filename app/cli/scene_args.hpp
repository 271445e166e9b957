#pragma once
// `plan --map scene.json`: turning a sandbox scene into the options of `plan`.

#include <optional>
#include <string>
#include <vector>

#include "pathlab/io/scene_file.hpp"

namespace pathlab::cli {

/// The value of --map when it names a scene (.json), else nothing.
std::optional<std::string> scene_map_arg(int argc, char** argv, int first);

/// argv with the scene's --from/--to (when neither nor --queries is given) and its planner
/// settings added for every option not given on the command line. Giving --planner drops the
/// scene's settings (they were tuned for its planner); the poses are still used.
std::vector<std::string> with_scene_defaults(int argc, char** argv, const io::Scene& scene);

}  // namespace pathlab::cli
