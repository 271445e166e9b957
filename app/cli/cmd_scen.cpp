// pathlab-cli scen: replays a Moving AI scenario file and compares every optimal length.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/io/map_files.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "planning.hpp"
#include "scene_args.hpp"

namespace pathlab::cli {
namespace {

/// Fails (UsageError naming FILE:LINE) when a problem does not fit the map: another size,
/// an end outside it or inside a wall.
void check_scenario(const Scenario& s, const Grid& grid, const std::string& scen_path, const std::string& map_path) {
  const std::string where = scen_path + ":" + std::to_string(s.line) + ": ";
  if (s.map_width != grid.width() || s.map_height != grid.height()) {
    throw UsageError(where + "scenario is for a " + std::to_string(s.map_width) + "x" + std::to_string(s.map_height) +
                     " map, but " + map_path + " is " + std::to_string(grid.width()) + "x" +
                     std::to_string(grid.height()));
  }
  for (const auto& [name, c] : {std::pair{"start", s.start}, std::pair{"goal", s.goal}}) {
    const std::string at = std::string(name) + " (" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
    if (!grid.in_bounds(c.x, c.y)) throw UsageError(where + at + " is outside the map " + map_path);
    if (!grid.is_free(c.x, c.y)) throw UsageError(where + at + " is inside a wall of " + map_path);
  }
}

/// A scene's settings for replaying scenarios: the planner (its own, or --planner's) must be a
/// grid search, and nothing that applies to it may change the optimal lengths, which the
/// scenario files hold for a point agent on the 8-connected grid without turn costs. The
/// smoother is not used: scen checks the searches themselves.
void check_scene_for_scen(const CliScene& scene, const std::string& planner_name) {
  const io::PlanSettingsData& s = scene.scene.settings;
  const std::string where = scene.path + ": settings.";
  const plan::PlannerInfo* planner = plan::find_planner(planner_name);
  if (planner_name == s.planner && (!planner || planner->family != plan::PlannerFamily::grid))
    throw UsageError(where + "planner: scen replays grid searches, not '" + s.planner + "' (give --planner NAME)");
  const auto takes = [&](plan::OptionId id) { return planner && (planner->options & plan::option_bit(id)) != 0; };
  const std::string why = " changes the optimal lengths the scenario file holds; scen cannot replay it";
  if (s.agent_radius > 0.0) throw UsageError(where + "agent_radius " + std::to_string(s.agent_radius) + why);
  if (takes(plan::OptionId::connectivity) && s.connectivity == 4) throw UsageError(where + "connectivity 4" + why);
  if (takes(plan::OptionId::turn_penalty) && s.turn_penalty > 0.0)
    throw UsageError(where + "turn_penalty " + std::to_string(s.turn_penalty) + why);
}

/// The map a scenario file uses when --map does not say: it sits next to the file,
/// FILE.map.scen -> FILE.map, else the map named in the file.
std::string scenario_map_path(const std::string& scen_path, const std::vector<Scenario>& scenarios) {
  std::string map_path;
  const std::filesystem::path sp(scen_path);
  if (sp.extension() == ".scen") map_path = (sp.parent_path() / sp.stem()).string();
  if ((map_path.empty() || !std::filesystem::exists(map_path)) && !scenarios.empty())
    map_path = (sp.parent_path() / scenarios[0].map_name).string();
  if (map_path.empty()) throw UsageError(scen_path + ": cannot tell which map it uses; give --map");
  return map_path;
}

}  // namespace

int run_scen(int argc, char** argv) {
  Args args(argc, argv, 2, {});
  // A scene (--scene, or --map FILE.json) gives the map (doors shut at t = 0 as walls) and the planner.
  std::optional<CliScene> scene;
  scene = scene_arg(args);
  const auto map_arg = scene ? std::optional<std::string>(scene->path) : args.str("map");
  const std::string planner_name = args.str("planner").value_or(
      scene ? scene->scene.settings.planner : std::string(plan::planner_name(plan::PlannerId::astar)));
  if (scene) check_scene_for_scen(*scene, planner_name);
  GridSearchOptions options = default_grid_search_options();
  options.budget.time_ms = read_time_budget(args);
  args.reject_unknown();
  if (args.positional().size() != 1) throw UsageError("expected one scenario file: pathlab-cli scen FILE.map.scen");
  const std::string scen_path = args.positional()[0];
  auto planner = parse_grid_planner(planner_name);
  if (!planner) throw UsageError("--planner: " + planner.error().message);

  auto scenarios = load_scenarios(scen_path);
  if (!scenarios) throw UsageError(scenarios.error().message);
  const std::string map_path = map_arg ? *map_arg : scenario_map_path(scen_path, *scenarios);
  auto grid = scene ? Result<Grid>(std::move(scene->grid)) : io::load_map_file(map_path);
  if (!grid) throw UsageError(grid.error().message);

  // Every problem is checked before any is run, so a bad line gives one error line and no
  // mismatch report before it.
  for (const Scenario& s : *scenarios) check_scenario(s, *grid, scen_path, map_path);

  GridPathfinder pf(*grid);
  std::string report;  // mismatch lines, printed once the whole file has run
  size_t mismatches = 0, stopped = 0;
  double total_us = 0.0;
  const bool progress = stderr_is_terminal();
  auto last = std::chrono::steady_clock::now();
  for (size_t i = 0; i < scenarios->size(); ++i) {
    const Scenario& s = (*scenarios)[i];
    const std::string where = scen_path + ":" + std::to_string(s.line) + ": ";
    const auto t0 = std::chrono::steady_clock::now();
    auto path = pf.find_path(*planner, s.start, s.goal, options);
    const auto t1 = std::chrono::steady_clock::now();
    total_us += std::chrono::duration<double, std::micro>(t1 - t0).count();
    if (!path) throw UsageError(where + path.error().message);
    if (path->stopped != BudgetStop::none) {  // not a wrong answer: no answer within --time-budget-ms
      if (++stopped <= 10) report += where + "stopped: " + path->reason + "\n";
      continue;
    }
    // The 2011 files keep about 6 significant digits, the current ones 8 decimals.
    const double tol = 1e-5 * std::max(1.0, s.optimal_length) + 1e-6;
    // Any-angle paths may be shorter than the 8-connected optimum, never longer.
    const bool any_angle = *planner == GridPlanner::theta;
    const double diff = path->length - s.optimal_length;
    if (!path->found || diff > tol || (!any_angle && diff < -tol)) {
      ++mismatches;
      if (mismatches <= 10) {
        char line[160];
        std::snprintf(line, sizeof line, "mismatch: (%d,%d)->(%d,%d) expected %.8f, got %s\n", s.start.x, s.start.y,
                      s.goal.x, s.goal.y, s.optimal_length, path->found ? std::to_string(path->length).c_str() : "no path");
        report += where + line;
      }
    }
    if (progress && t1 - last > std::chrono::milliseconds(200)) {
      std::fprintf(stderr, "\r%zu/%zu scenarios", i + 1, scenarios->size());
      last = t1;
    }
  }
  if (progress) std::fprintf(stderr, "\r%zu/%zu scenarios\n", scenarios->size(), scenarios->size());
  std::fputs(report.c_str(), stderr);
  const double mean = scenarios->empty() ? 0.0 : total_us / static_cast<double>(scenarios->size());
  std::printf("%zu scenarios, %zu mismatches, ", scenarios->size(), mismatches);
  if (options.budget.time_ms > 0.0) std::printf("%zu stopped by the time budget, ", stopped);
  std::printf("mean %.1f us/query\n", mean);
  return mismatches == 0 ? 0 : 1;
}

}  // namespace pathlab::cli
