// pathlab-cli simulate: plan a path, then drive a unit (person, car, tank, bear) along it with
// a follower (track, steer, damped) in the fixed-step simulation; prints the trajectory
// [t, x, y, deg, speed] and the run's metrics. Degrees at this boundary, radians inside.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "pathlab/io/map_files.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/follow_path.hpp"
#include "pathlab/simulation.hpp"
#include "planning.hpp"
#include "scene_args.hpp"

namespace pathlab::cli {
namespace {

/// Spacing of the samples taken from a Dubins / Reeds-Shepp path. [Units: cells]
constexpr double kCurveSpacing = 0.05;

struct Planned {
  bool found = false;
  std::string reason;
  std::optional<FollowPath> path;
  /// The plan's end when it is not the --to asked for (the follower drives to the plan's
  /// end): position [cells] and heading [degrees] when the goal has one, and why.
  std::optional<Vec2> snapped_pos;
  std::optional<double> snapped_heading_deg;
  std::string snap_reason;
};

/// Dubins and Reeds-Shepp planners through the planning service, with the unit's own turning
/// radius and size; a curve that meets a wall is no path here (the unit would crash).
/// `what` names the planner in errors: "--planner NAME", or the scene's key when it came from one.
Planned plan_curve(const std::string& what, const Grid& grid, const plan::PlannerInfo& planner, const UnitDef& unit,
                   const Pose& from, const PointArg& to) {
  const std::string name = planner.name;
  if (!(unit.turning_radius > 0.0)) {
    throw UsageError(what + ": unit '" + unit.name + "' has no turning radius (use car or bear)");
  }
  if (!to.heading_deg) throw UsageError("--to: planner " + name + " needs a goal heading: X,Y,DEG");
  if ((planner.id == plan::PlannerId::reeds_shepp || planner.id == plan::PlannerId::cc_reeds_shepp) &&
      !unit.can_reverse) {
    throw UsageError(what + ": unit '" + unit.name + "' cannot reverse");
  }
  plan::PlanRequest request;
  request.start = from;
  request.goal = Pose{to.pos, to.heading_rad()};
  request.settings.planner = name;
  request.settings.turning_radius = unit.turning_radius;
  request.settings.agent_radius = unit.radius;
  request.analyse = false;
  request.keep_internals = false;
  plan::PlanService service;
  const plan::PlanResult r = service.plan(grid, request);
  if (!r.error.empty()) throw UsageError(r.error);
  Planned out;
  if (r.curve_blocked_at) {
    out.reason = "the " + name + " curve runs into a wall " + std::to_string(*r.curve_blocked_at) + " cells along";
    return out;
  }
  auto fp = FollowPath::from_segment_path(*r.segments, kCurveSpacing);
  if (!fp) throw UsageError(fp.error().message);
  out.found = true;
  out.path = std::move(*fp);
  return out;
}

/// Why the plan's end is not --to: the planner's own note about the goal, else `fallback`.
std::string goal_note(const PlanOutcome& o, const std::string& fallback) {
  for (const std::string& n : o.notes)
    if (n.rfind("the goal", 0) == 0) return n;
  return fallback;
}

/// Grid and navmesh planners through the shared `plan` pipeline, then the path made to start
/// exactly at --from. It ends at the plan's end: a pose planner (directional, hybrid) may snap
/// the goal (its end pose, heading included, is the goal then); other plans are extended to
/// --to when it is in sight of their last waypoint. A goal that moved is reported.
Planned plan_grid(const Grid& grid, const PlanSettings& settings, const UnitDef& unit, const PointArg& from,
                  const PointArg& to) {
  Planner planner(grid, settings);
  PlanOutcome o = planner.plan(PlanQuery{from, to}, "");
  Planned out;
  if (!o.found) {
    out.reason = o.reason;
    return out;
  }
  const plan::PlannerInfo* info = plan::find_planner(settings.data.planner);
  const bool pose_plan = info && info->family == plan::PlannerFamily::heading;
  std::vector<Vec2> pts = splice_start(grid, from.pos, o.points, unit.radius);
  if (!pose_plan && pts.back() != to.pos && segment_clear(grid, pts.back(), to.pos, unit.radius)) pts.push_back(to.pos);
  std::optional<double> heading_deg = to.heading_deg;
  if (pose_plan && to.heading_deg && !o.headings_deg.empty()) heading_deg = o.headings_deg.back();
  // A pose plan is driven as planned (its exact curve, gear changes included), not as the
  // polyline of its samples: the sampled points lose the gears and cut the arcs. A plan of
  // length 0 (start and goal snapped to one lattice pose) is the step from --from to it.
  const bool exact = pose_plan && o.segments && o.segments->length() > 0.0;
  auto fp = exact ? FollowPath::from_segment_path(*o.segments, kCurveSpacing) : FollowPath::from_polyline(pts);
  if (!fp) throw UsageError(fp.error().message);
  if (heading_deg) (void)fp->set_goal_heading(deg_to_rad(*heading_deg));  // finite: parsed by Args / planned
  const bool moved = glm::length(pts.back() - to.pos) > 1e-9 ||
                     (heading_deg && std::abs(std::remainder(*heading_deg - *to.heading_deg, 360.0)) > 1e-9);
  if (moved) {
    out.snapped_pos = pts.back();
    out.snapped_heading_deg = heading_deg;
    out.snap_reason = goal_note(o, pose_plan ? "the plan ends there"
                                             : "--to is not in sight of the plan's last waypoint for the unit's radius");
  }
  out.found = true;
  out.path = std::move(*fp);
  return out;
}

std::string xy_text(Vec2 p, std::optional<double> deg) {
  char buf[128];
  if (deg) std::snprintf(buf, sizeof buf, "(%g, %g, %g deg)", p.x, p.y, *deg);
  else std::snprintf(buf, sizeof buf, "(%g, %g)", p.x, p.y);
  return buf;
}

nlohmann::ordered_json metrics_json(const RunMetrics& m) {
  nlohmann::ordered_json j;
  j["arrived"] = m.arrived;
  j["time_to_goal"] = m.time_to_goal ? nlohmann::ordered_json(*m.time_to_goal) : nlohmann::ordered_json(nullptr);
  j["distance"] = m.distance;
  j["max_deviation"] = m.max_deviation;
  j["max_lateral_accel"] = m.max_lateral_accel;
  j["max_turn_rate_deg"] = rad_to_deg(m.max_turn_rate);
  j["stops"] = m.stops;
  j["blocked_steps"] = m.blocked_steps;
  j["collisions"] = m.collisions;
  return j;
}

/// Prints the run: the trajectory every `every` samples and the metrics, as JSON or text.
/// `unit_from` (scene runs only, else empty) says where the unit's preset came from.
void print_run(const SingleRun& run, const UnitDef& unit, const std::string& unit_from, const std::string& planner_name,
               const SimulationDef& sim_def, const Planned& planned, const PointArg& to, long long every, bool json) {
  const double path_length = planned.path->length();
  const auto& smp = run.samples;
  auto keep = [&](size_t i) { return i % static_cast<size_t>(every) == 0 || i + 1 == smp.size(); };
  if (json) {
    nlohmann::ordered_json j;
    j["found"] = true;
    j["unit"] = unit.name;
    if (!unit_from.empty()) j["unit_from"] = unit_from;
    j["follower"] = to_string(unit.follower.kind);
    j["planner"] = planner_name;
    j["dt"] = sim_def.dt;
    j["path_length"] = path_length;
    if (planned.snapped_pos) {
      auto g = nlohmann::ordered_json::array({planned.snapped_pos->x, planned.snapped_pos->y});
      if (planned.snapped_heading_deg) g.push_back(*planned.snapped_heading_deg);
      j["goal_snapped"] = std::move(g);
      j["goal_snapped_reason"] = planned.snap_reason;
    }
    j["metrics"] = metrics_json(run.metrics);
    if (!run.ended_because.empty()) j["metrics"]["ended_because"] = run.ended_because;
    auto arr = nlohmann::ordered_json::array();
    for (size_t i = 0; i < smp.size(); ++i) {
      if (!keep(i)) continue;
      arr.push_back({smp[i].t, smp[i].pose.pos.x, smp[i].pose.pos.y, rad_to_deg(smp[i].pose.heading), smp[i].speed});
    }
    j["samples"] = std::move(arr);
    std::cout << j.dump() << "\n";
    return;
  }
  const RunMetrics& m = run.metrics;
  std::printf("found: yes\nunit: %s\n", unit.name.c_str());
  if (!unit_from.empty()) std::printf("unit_from: %s\n", unit_from.c_str());
  std::printf("follower: %s\npath_length: %.17g\n", to_string(unit.follower.kind), path_length);
  if (planned.snapped_pos) {
    std::printf("goal snapped: %s (asked %s): %s\n", xy_text(*planned.snapped_pos, planned.snapped_heading_deg).c_str(),
                xy_text(to.pos, to.heading_deg).c_str(), planned.snap_reason.c_str());
  }
  if (m.time_to_goal) std::printf("arrived: yes\ntime_to_goal: %.17g\n", *m.time_to_goal);
  else if (!run.ended_because.empty())
    std::printf("arrived: no (stopped after %.17g s: %s)\n", smp.back().t, run.ended_because.c_str());
  else std::printf("arrived: no (stopped after %.17g s)\n", smp.back().t);
  std::printf("distance: %.17g\nmax_deviation: %.17g\nmax_lateral_accel: %.17g\nmax_turn_rate_deg: %.17g\n"
              "stops: %d\nblocked_steps: %d\ncollisions: %d\n",
              m.distance, m.max_deviation, m.max_lateral_accel, rad_to_deg(m.max_turn_rate), m.stops, m.blocked_steps,
              m.collisions);
  std::printf("# t x y deg speed\n");
  for (size_t i = 0; i < smp.size(); ++i) {
    if (!keep(i)) continue;
    std::printf("%.17g %.17g %.17g %.17g %.17g\n", smp[i].t, smp[i].pose.pos.x, smp[i].pose.pos.y,
                rad_to_deg(smp[i].pose.heading), smp[i].speed);
  }
}

/// The unit's preset and where it came from: --unit, else the scene's first unit, else person.
struct UnitChoice {
  std::string name;
  std::string source;  ///< "--unit", "units[0] of the scene" or "default"
};

UnitChoice choose_unit(Args& args, const io::Scene* scene) {
  if (auto name = args.str("unit")) return {*name, "--unit"};
  if (scene && !scene->units.empty()) return {scene->units.front().preset, "units[0] of the scene"};
  return {"person", "default"};
}

/// The unit's preset with --follower applied; errors name where the preset came from.
Result<UnitDef> make_unit(const UnitChoice& choice, const std::string& scene_path,
                          const std::optional<std::string>& follower_name) {
  auto unit = unit_preset(choice.name);
  if (!unit) throw UsageError((choice.source == "units[0] of the scene" ? scene_path + ": units[0].preset" : "--unit") +
                              ": " + unit.error().message);
  if (follower_name) {
    auto kind = parse_follower_kind(*follower_name);
    if (!kind) throw UsageError("--follower: " + kind.error().message);
    unit->follower.kind = *kind;
  }
  return unit;
}

/// Plans for the unit's size unless told otherwise. With a scene, as the sandbox plans a
/// unit's route: at least the scene's agent radius, and the unit's own turning radius (car,
/// bear) instead of the scene's; --agent-radius and --radius win.
void fit_to_unit(Args& args, const UnitDef& unit, bool from_scene, PlanSettings& settings) {
  io::PlanSettingsData& d = settings.data;
  if (!args.str("agent-radius")) d.agent_radius = from_scene ? std::max(d.agent_radius, unit.radius) : unit.radius;
  if (from_scene && !args.str("radius") && unit.turning_radius > 0.0) d.turning_radius = unit.turning_radius;
}

/// The simulation's step from --dt, checked with --max-time (each in seconds).
SimulationDef simulation_def(std::optional<double> dt, std::optional<double> max_time) {
  SimulationDef def = default_simulation_def();
  if (dt) {
    if (!(*dt > 0.0 && *dt <= 1.0)) throw UsageError("--dt must be in (0, 1] seconds");
    def.dt = *dt;
  }
  if (max_time && !(*max_time > 0.0)) throw UsageError("--max-time must be > 0 seconds");
  return def;
}

}  // namespace

int run_simulate(int argc, char** argv) {
  // "reverse" and "cc" are switches of the shared planning options (read_plan_settings).
  Args args(argc, argv, 2, {"json", "reverse", "cc"});
  // A scene (--scene, or --map FILE.json) gives the map, the poses with their headings, the
  // planner, smoother and settings, and the unit; the options given override them one by one.
  std::optional<CliScene> scene;
  scene = scene_arg(args);
  const std::string map_path = scene ? scene->path : args.required("map");
  auto from = args.point("from");
  auto to = args.point("to");
  if (scene && !from) from = scene_point(scene->scene.start, true);
  if (scene && !to) to = scene_point(scene->scene.goal, true);
  const UnitChoice unit_choice = choose_unit(args, scene ? &scene->scene : nullptr);
  const auto follower_name = args.str("follower");
  const auto dt_arg = args.number("dt");
  const auto max_time_arg = args.number("max-time");
  const auto every_arg = args.integer("every");
  const bool json = args.flag("json");
  const auto planner_arg = args.str("planner");
  const std::string planner_name = planner_arg.value_or(
      scene ? scene->scene.settings.planner : std::string(plan::planner_name(plan::PlannerId::astar)));
  const std::string planner_what = (scene && !planner_arg ? scene->path + ": settings.planner " : "--planner ") + planner_name;
  // The curve planners `simulate` drives directly; every other name goes to read_plan_settings.
  const plan::PlannerInfo* curve = plan::find_planner(planner_name);
  if (curve && curve->family != plan::PlannerFamily::curve) curve = nullptr;
  if (curve && curve->id == plan::PlannerId::turn_to_point) curve = nullptr;
  const bool curve_planner = curve != nullptr;

  auto unit = make_unit(unit_choice, scene ? scene->path : "", follower_name);
  PlanSettings settings;
  if (!curve_planner) {
    std::optional<plan::PlanRequest> base;
    if (scene) base = scene_base_request(*scene, args);
    settings = read_plan_settings(args, base ? &base->settings : nullptr);
    fit_to_unit(args, *unit, scene.has_value(), settings);
  }
  args.reject_unknown();
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  if (!from || !to) throw UsageError("missing --from X,Y,DEG and --to X,Y[,DEG]");
  if (!from->heading_deg) throw UsageError("--from: the unit needs a heading: X,Y,DEG");
  const SimulationDef sim_def = simulation_def(dt_arg, max_time_arg);
  const long long every = every_arg.value_or(1);
  if (every < 1) throw UsageError("--every must be >= 1");

  auto grid = scene ? Result<Grid>(std::move(scene->grid)) : io::load_map_file(map_path);
  if (!grid) throw UsageError(grid.error().message);
  const Pose start{from->pos, from->heading_rad()};
  if (!point_clear(*grid, start.pos, unit->radius)) {
    throw UsageError("--from: (" + std::to_string(start.pos.x) + "," + std::to_string(start.pos.y) +
                     ") is not clear of walls for the " + unit->name + "'s radius " + std::to_string(unit->radius));
  }
  const Planned planned =
      curve_planner ? plan_curve(planner_what, *grid, *curve, *unit, start, *to)
                    : plan_grid(*grid, settings, *unit, *from, *to);

  nlohmann::ordered_json j;
  j["found"] = planned.found;
  if (!planned.found) {
    j["reason"] = planned.reason;
    if (json) std::cout << j.dump() << "\n";
    else std::printf("found: no (%s)\n", planned.reason.c_str());
    return 0;
  }
  const FollowPath& path = *planned.path;
  // A track unit rides its path exactly, so it starts on it (with the path's heading).
  const std::optional<Pose> unit_start =
      unit->follower.kind == FollowerKind::track ? std::nullopt : std::optional<Pose>(start);
  const double max_time = max_time_arg.value_or(10.0 * path.length() / unit->max_speed + 30.0);
  auto run = simulate_unit(*grid, *unit, path, unit_start, sim_def, max_time);
  if (!run) throw UsageError(run.error().message);

  print_run(*run, *unit, scene ? unit_choice.source : "", planner_name, sim_def, planned, *to, every, json);
  return 0;
}

}  // namespace pathlab::cli
