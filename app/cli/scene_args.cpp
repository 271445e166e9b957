// `--scene FILE`: a sandbox scene planned headless. plan::scene_request makes the request (the
// sandbox's), then read_plan_settings applies the options given on the command line to it one
// by one, with the checks typed options always get.

#include "scene_args.hpp"

#include "pathlab/io/scene_link.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"

namespace pathlab::cli {
namespace {

bool is_json(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0; }

}  // namespace

std::optional<std::string> scene_file_arg(Args& args) {
  const auto scene = args.str("scene");
  const auto map = args.str("map");
  if (scene && map) throw UsageError("give either --scene or --map, not both (the scene has its own map)");
  if (scene) return scene;
  if (map && is_json(*map)) return map;
  return std::nullopt;
}

CliScene load_cli_scene(const std::string& path) {
  auto loaded = plan::load_scene(path);
  if (!loaded) throw UsageError(loaded.error().message);
  CliScene out{path, std::move(*loaded), Grid{}};
  out.grid = plan::scene_grid(out.scene);
  return out;
}

std::optional<CliScene> scene_arg(Args& args) {
  const auto link = args.str("link");
  const bool map_given = args.str("map").has_value();
  const auto path = scene_file_arg(args);
  if (link && (path || map_given)) throw UsageError("give either --link or --scene / --map, not both (the link holds its map)");
  if (path) return load_cli_scene(*path);
  if (!link) return std::nullopt;
  auto decoded = io::decode_link(*link);
  if (!decoded) throw UsageError(decoded.error().message);
  auto scene = io::read_link_scene(*decoded, plan::scene_read_options());
  if (!scene) throw UsageError(scene.error().message);
  CliScene out{"link", std::move(*scene), Grid{}};
  out.grid = plan::scene_grid(out.scene);
  return out;
}

plan::PlanRequest scene_base_request(const CliScene& s, Args& args) {
  io::Scene scene;  // the scene's poses and settings with the command line's planner and smoother
  scene.start = s.scene.start;
  scene.goal = s.scene.goal;
  scene.settings = s.scene.settings;
  io::PlanSettingsData& d = scene.settings;
  const auto typed_planner = args.str("planner");
  if (typed_planner) {
    const plan::PlannerInfo* info = plan::find_planner(*typed_planner);
    if (!info || !info->in_cli_plan)
      throw UsageError("--planner: unknown planner '" + *typed_planner + "' (" + plan::cli_planner_list() + ")");
    d.planner = *typed_planner;
  }
  if (const plan::PlannerInfo* planner = plan::find_planner(d.planner)) {
    const auto smoother = args.str("smoother");
    // A --smoother that does not follow the planner is refused by read_plan_settings; a scene's
    // own mismatch by scene_request, naming the key.
    if (smoother && plan::find_smoother(*smoother, planner->family)) d.smoother = *smoother;
    else if (typed_planner && !plan::find_smoother(d.smoother, planner->family))
      d.smoother = plan::smoothers_for(planner->family).front().name;
  }
  auto request = plan::scene_request(scene);
  if (!request) throw UsageError(s.path + ": " + request.error().message);
  return *request;
}

PointArg scene_point(const Pose& pose, bool with_heading) {
  PointArg p;
  p.pos = pose.pos;
  if (with_heading) {
    p.heading_deg = plan::exact_degrees(pose.heading);
    p.exact_rad = pose.heading;  // exactly the scene's, also when no degrees convert back to it
  }
  return p;
}

}  // namespace pathlab::cli
