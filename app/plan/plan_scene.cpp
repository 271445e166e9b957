// Scene files through the planning layer: the registry's names check for the reader below, and
// the request a scene's start -> goal plan makes (the sandbox's, `pathlab-cli plan --scene`'s and
// a game's; tests/test_cli_scene.cpp and tests/consumer check that the CLI plans exactly it).

#include "pathlab/plan/scene.hpp"

#include <cmath>
#include <limits>

#include "pathlab/directional_astar.hpp"
#include "pathlab/plan/registry.hpp"

namespace pathlab::plan {
namespace {

bool has_option(OptionMask mask, OptionId id) { return (mask & option_bit(id)) != 0; }

/// The smoother's row for the planner's family, or an error naming the setting.
Result<const SmootherInfo*> scene_smoother(const io::PlanSettingsData& s, const PlannerInfo& planner) {
  const SmootherInfo* smoother = find_smoother(s.smoother, planner.family);
  if (!smoother)
    return fail(StatusCode::invalid_argument, "settings.smoother: unknown smoother '" + s.smoother + "' for the " +
                                                  s.planner + " planner (" + smoother_list(planner.family) + ")");
  return smoother;
}

}  // namespace

io::SceneReadOptions scene_read_options() {
  io::SceneReadOptions options;
  options.check_names = [](std::string_view planner, std::string_view smoother) {
    return check_scene_names(planner, smoother);
  };
  return options;
}

Result<io::Scene> load_scene(const std::string& path) { return io::load_scene(path, scene_read_options()); }

Result<io::Scene> parse_scene(const std::string& text, const std::string& source, const std::string& base_dir) {
  return io::parse_scene(text, source, base_dir, scene_read_options());
}

Result<Crowd> load_scene_crowd(const std::string& path, const CrowdDef& def, io::Scene* scene) {
  return io::load_scene_crowd(path, def, scene, scene_read_options());
}

Result<PlanRequest> scene_request(const io::Scene& scene) {
  const io::PlanSettingsData& s = scene.settings;
  const PlannerInfo* planner = find_planner(s.planner);
  if (!planner || !planner->in_cli_plan)
    return fail(StatusCode::invalid_argument,
                "settings.planner: pathlab-cli plan has no planner '" + s.planner + "' (" + cli_planner_list() + ")");
  auto smoother = scene_smoother(s, *planner);
  if (!smoother) return smoother.error();
  // The heading counts where a turning radius is driven: heading planners, turning smoothers.
  const bool heading = planner->family == PlannerFamily::heading ||
                       has_option((*smoother)->options, OptionId::turning_radius);
  if (heading && !(s.turning_radius > 0.0 && s.turning_radius <= kMaxTurningRadius))
    return fail(StatusCode::invalid_argument,
                "settings.turning_radius must be in (0, " + std::to_string(static_cast<int>(kMaxTurningRadius)) + "]");
  PlanRequest r;
  r.start = Pose{scene.start.pos, heading ? scene.start.heading : 0.0};
  r.goal = Pose{scene.goal.pos, heading ? scene.goal.heading : 0.0};
  r.start_has_heading = r.goal_has_heading = heading;
  r.settings = s;
  // What the service would not use anyway, reset so that the CLI's checks of typed options
  // (--turn-penalty with JPS, --connectivity 4 with Theta*) never see a scene's leftover.
  if (!has_option(planner->options, OptionId::connectivity)) r.settings.connectivity = 8;
  if (!has_option(planner->options, OptionId::turn_penalty)) r.settings.turn_penalty = 0.0;
  r.analyse = false;
  r.keep_internals = false;
  return r;
}

Grid scene_grid(const io::Scene& scene) {
  Grid grid = scene.grid;
  for (const DoorDef& door : scene.doors) {
    if (door.open_at_start) continue;
    for (int y = door.lo.y; y <= door.hi.y; ++y)
      for (int x = door.lo.x; x <= door.hi.x; ++x)
        if (grid.in_bounds(x, y)) grid.set_blocked(x, y, true);
  }
  return grid;
}

double exact_degrees(double rad) {
  const double d = rad_to_deg(rad);
  if (!std::isfinite(d) || deg_to_rad(d) == rad) return d;
  double up = d, down = d;
  for (int i = 0; i < 8; ++i) {  // deg_to_rad is monotonic: the match, if any, is next to d
    up = std::nextafter(up, std::numeric_limits<double>::infinity());
    down = std::nextafter(down, -std::numeric_limits<double>::infinity());
    if (deg_to_rad(up) == rad) return up;
    if (deg_to_rad(down) == rad) return down;
  }
  return d;
}

}  // namespace pathlab::plan
