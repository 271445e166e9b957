// Scene files through the planning layer: the registry's names check for the reader below, and
// the request `pathlab-cli plan --map s.json` makes of a scene (app/cli/scene_args.cpp turns the
// scene into the same options on the command line; tests/consumer and test_plan_service check
// that both plan the same path).

#include "pathlab/plan/scene.hpp"

#include "pathlab/directional_astar.hpp"
#include "pathlab/plan/registry.hpp"

namespace pathlab::plan {
namespace {

bool has_option(OptionMask mask, OptionId id) { return (mask & option_bit(id)) != 0; }

/// The CLI writes a scene's heading as degrees with full precision and reads it back.
double cli_heading(double rad) { return deg_to_rad(rad_to_deg(rad)); }

/// The smoother's row for the planner's family, or an error naming the setting.
Result<const SmootherInfo*> scene_smoother(const io::PlanSettingsData& s, const PlannerInfo& planner) {
  const SmootherInfo* smoother = find_smoother(s.smoother, planner.family);
  if (!smoother)
    return fail(StatusCode::invalid_argument, "settings.smoother: unknown smoother '" + s.smoother + "' for the " +
                                                  s.planner + " planner (" + smoother_list(planner.family) + ")");
  const bool turns = has_option(smoother->options, OptionId::turning_radius);
  if (turns && planner.family != PlannerFamily::heading)
    return fail(StatusCode::invalid_argument, "settings.smoother: " + s.smoother + " after the " + s.planner +
                                                  " planner needs a turning radius, which pathlab-cli plan takes as --radius");
  return smoother;
}

/// The settings block as the CLI's options leave it: the scene's values where an option is
/// passed on, the defaults elsewhere.
io::PlanSettingsData cli_settings(const io::PlanSettingsData& s, const PlannerInfo& planner, const SmootherInfo& smoother) {
  io::PlanSettingsData d;
  d.planner = s.planner;
  d.smoother = s.smoother;
  d.agent_radius = s.agent_radius;
  if (has_option(planner.options, OptionId::connectivity)) d.connectivity = s.connectivity;
  if (has_option(planner.options, OptionId::turn_penalty)) d.turn_penalty = s.turn_penalty;
  if (planner.family == PlannerFamily::grid && smoother.spline) d.subdivisions = s.subdivisions;
  if (planner.family == PlannerFamily::navmesh) {
    d.navmesh_corners = s.navmesh_corners;
    d.navmesh_convex = s.navmesh_corners || s.navmesh_convex;
    if (smoother.id == SmootherId::edge_shift) {
      d.shift_margin = s.shift_margin;
      d.shift_passes = s.shift_passes;
    }
  }
  if (planner.family == PlannerFamily::heading) {
    d.turning_radius = s.turning_radius;
    d.reverse = s.reverse;
  }
  d.cc = s.cc && (has_option(planner.options, OptionId::cc) || has_option(smoother.options, OptionId::cc));
  return d;
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
  const bool heading = planner->family == PlannerFamily::heading;
  if (heading && !(s.turning_radius > 0.0 && s.turning_radius <= kMaxTurningRadius))
    return fail(StatusCode::invalid_argument,
                "settings.turning_radius must be in (0, " + std::to_string(static_cast<int>(kMaxTurningRadius)) + "]");
  if (s.reverse && heading && planner->id != PlannerId::hybrid)
    return fail(StatusCode::invalid_argument, "settings.reverse is used by the " +
                                                  std::string(planner_name(PlannerId::hybrid)) + " planner only");
  PlanRequest r;
  // Grid and navmesh paths have no heading of their own: their ends go without one.
  r.start = Pose{scene.start.pos, heading ? cli_heading(scene.start.heading) : 0.0};
  r.goal = Pose{scene.goal.pos, heading ? cli_heading(scene.goal.heading) : 0.0};
  r.start_has_heading = r.goal_has_heading = heading;
  r.settings = cli_settings(s, *planner, **smoother);
  r.curve_step = kCliCurveStep;
  r.analyse = false;
  r.keep_internals = false;
  return r;
}

}  // namespace pathlab::plan
