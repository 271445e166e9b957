// pathlab-cli crowd: many units (person, car, tank, bear), each following its own planned
// route while avoiding the others, the walls, doors and moving obstacles (crowd.hpp). Prints
// JSON Lines (a header, frames, a summary) or a human summary. Degrees at this boundary.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "crowd_output.hpp"
#include "pathlab/io/map_files.hpp"
#include "pathlab/crowd.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/scene_units.hpp"
#include "planning.hpp"

namespace pathlab::cli {
namespace {

constexpr const char* kCrowdUsage =
    "usage: pathlab-cli crowd --map FILE --agents FILE [--doors FILE] [--obstacles FILE] [options]\n"
    "       pathlab-cli crowd --scene FILE [--planner NAME] [--smoother NAME] [--radius R] [--agent-radius R] [options]\n"
    "options: --dt S (step, default 1/60) --max-time S --every N --threads N (1..64, default 1: the same\n"
    "result with any count) --json\n"
    "--scene runs the scene's units, doors and trucks as the sandbox does (pathlab/plan/scene_units.hpp):\n"
    "each unit drives the routes of the scene's planner and smoother with its own radius and turning\n"
    "radius, or waits and says why; --planner, --smoother, --radius (turning) and --agent-radius\n"
    "override the scene's settings. See README.md, section crowd (CLI).\n";

/// More steps than this is refused instead of running for hours.
constexpr double kMaxSteps = 1e7;

/// The words of a line, a trailing `# comment` dropped.
std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text.substr(0, text.find('#')));
  std::vector<std::string> w;
  std::string s;
  while (in >> s) w.push_back(s);
  return w;
}

std::vector<CrowdAgentDef> read_agents(const std::string& path) {
  std::vector<CrowdAgentDef> agents;
  for (const QueryLine& q : read_query_lines(path)) {
    const auto w = words_of(q.text);
    if (w.size() != 6 && w.size() != 7) {
      throw UsageError(q.where + "expected PRESET X Y DEG GOAL_X GOAL_Y [GOAL_DEG], got " + std::to_string(w.size()) +
                       " fields");
    }
    auto unit = unit_preset(w[0]);
    if (!unit) throw UsageError(q.where + unit.error().message);
    CrowdAgentDef a;
    a.unit = std::move(*unit);
    a.start = Pose{Vec2(parse_number(w[1], q.where + "X"), parse_number(w[2], q.where + "Y")),
                   deg_to_rad(parse_number(w[3], q.where + "DEG"))};
    a.goal = Vec2(parse_number(w[4], q.where + "GOAL_X"), parse_number(w[5], q.where + "GOAL_Y"));
    if (w.size() == 7) a.goal_heading = deg_to_rad(parse_number(w[6], q.where + "GOAL_DEG"));
    agents.push_back(std::move(a));
  }
  if (agents.empty()) throw UsageError(path + ": no agents");
  return agents;
}

/// Doors: `X0 Y0 X1 Y1 open|closed [T1 T2 ...]`, the cells X0..X1 x Y0..Y1, open or closed at
/// the start and switching at each time T.
std::vector<std::pair<DoorDef, std::string>> read_doors(const std::string& path) {
  std::vector<std::pair<DoorDef, std::string>> doors;
  for (const QueryLine& q : read_query_lines(path)) {
    const auto w = words_of(q.text);
    if (w.size() < 5 || (w[4] != "open" && w[4] != "closed")) {
      throw UsageError(q.where + "expected X0 Y0 X1 Y1 open|closed [T1 T2 ...]");
    }
    DoorDef d;
    d.lo = Cell{static_cast<int>(parse_integer(w[0], q.where + "X0")), static_cast<int>(parse_integer(w[1], q.where + "Y0"))};
    d.hi = Cell{static_cast<int>(parse_integer(w[2], q.where + "X1")), static_cast<int>(parse_integer(w[3], q.where + "Y1"))};
    d.open_at_start = w[4] == "open";
    for (size_t k = 5; k < w.size(); ++k) d.toggle_times.push_back(parse_number(w[k], q.where + "T"));
    doors.emplace_back(std::move(d), q.where);
  }
  return doors;
}

/// Moving obstacles: `LENGTH WIDTH SPEED START_TIME once|loop X1 Y1 X2 Y2 [X Y ...]`.
std::vector<std::pair<MovingObstacleDef, std::string>> read_obstacles(const std::string& path) {
  std::vector<std::pair<MovingObstacleDef, std::string>> out;
  for (const QueryLine& q : read_query_lines(path)) {
    const auto w = words_of(q.text);
    if (w.size() < 9 || w.size() % 2 == 0 || (w[4] != "once" && w[4] != "loop")) {
      throw UsageError(q.where + "expected LENGTH WIDTH SPEED START_TIME once|loop X1 Y1 X2 Y2 [X Y ...]");
    }
    MovingObstacleDef m;
    m.half_extents = 0.5 * Vec2(parse_number(w[0], q.where + "LENGTH"), parse_number(w[1], q.where + "WIDTH"));
    m.speed = parse_number(w[2], q.where + "SPEED");
    m.start_time = parse_number(w[3], q.where + "START_TIME");
    m.loop = w[4] == "loop";
    for (size_t k = 5; k + 1 < w.size(); k += 2) {
      m.route.emplace_back(parse_number(w[k], q.where + "X"), parse_number(w[k + 1], q.where + "Y"));
    }
    out.emplace_back(std::move(m), q.where);
  }
  return out;
}

double default_max_time(const Crowd& crowd) {
  double worst = 0.0;
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const CrowdAgentDef& a = crowd.agent_def(i);
    worst = std::max(worst, glm::length(a.goal - a.start.pos) / a.unit.max_speed);
  }
  return 10.0 * worst + 60.0;
}

Crowd build_crowd(const Grid& grid, const CrowdDef& def, const std::vector<CrowdAgentDef>& agents,
                  const std::string& agents_path, const std::optional<std::string>& doors_path,
                  const std::optional<std::string>& obstacles_path) {
  auto crowd = Crowd::create(grid, def);
  if (!crowd) throw UsageError(crowd.error().message);
  if (doors_path) {
    for (const auto& [d, where] : read_doors(*doors_path)) {
      if (auto r = crowd->add_door(d); !r) throw UsageError(where + r.error().message);
    }
  }
  if (obstacles_path) {
    for (const auto& [m, where] : read_obstacles(*obstacles_path)) {
      if (auto r = crowd->add_moving_obstacle(m); !r) throw UsageError(where + r.error().message);
    }
  }
  // Agent k came from the k-th non-comment line: re-read the line numbers for messages.
  const auto lines = read_query_lines(agents_path);
  for (size_t k = 0; k < agents.size(); ++k) {
    if (auto r = crowd->add_agent(agents[k]); !r) throw UsageError(lines[k].where + r.error().message);
  }
  return std::move(*crowd);
}

/// The crowd and its units, from --scene or from --map, --agents, --doors and --obstacles.
struct CrowdInput {
  std::optional<Crowd> crowd;               ///< --map and --agents
  std::optional<plan::SceneUnits> scene;    ///< --scene: the sandbox's model of the scene's units
  std::vector<std::string> presets;         ///< per agent
  Crowd& get() { return scene ? *scene->crowd : *crowd; }
};

/// The scene's settings with those given on the command line (--planner, --smoother, --radius,
/// --agent-radius), checked by the registry; errors name the option.
void override_settings(Args& args, io::PlanSettingsData& s) {
  const bool planner_given = args.str("planner").has_value();
  if (auto p = args.str("planner")) s.planner = *p;
  if (auto p = args.str("smoother")) s.smoother = *p;
  else if (planner_given) s.smoother.clear();  // the new planner's default smoother
  if (auto r = args.number("radius")) {
    if (!(*r > 0.0)) throw UsageError("--radius must be > 0 cells");
    s.turning_radius = *r;
  }
  if (auto r = args.number("agent-radius")) {
    if (!(*r >= 0.0)) throw UsageError("--agent-radius must be >= 0 cells");
    s.agent_radius = *r;
  }
  if (!plan::find_planner(s.planner)) throw UsageError("--planner: " + plan::check_settings(s));
  (void)plan::normalize_settings(s);
  if (const std::string e = plan::check_settings(s); !e.empty()) throw UsageError("--smoother: " + e);
}

/// --scene: the scene's units, doors and trucks through the planning layer's model (the one the
/// sandbox runs, pathlab/plan/scene_units.hpp): same placement, same routes, same dt.
void read_scene_input(Args& args, const std::string& path, const CrowdDef& def, CrowdInput& in) {
  for (const char* other : {"map", "agents", "doors", "obstacles"})
    if (args.str(other)) throw UsageError(std::string("--scene and --") + other + " cannot be combined (the scene has them)");
  auto scene = plan::load_scene(path);
  if (!scene) throw UsageError(scene.error().message);
  override_settings(args, scene->settings);
  auto built = plan::build_scene_units(*scene, def);
  if (!built) throw UsageError(built.error().message);
  if (!built->skipped.empty()) {
    // The sandbox skips such a unit; the command line refuses the file, at the unit's line
    // when the core's own check names it ("s.json:5: units[1]: ...").
    // It names the first, counts the others (the sandbox keeps them, not placed, and says so).
    auto checked = plan::load_scene_crowd(path, def);
    const size_t more = built->skipped.size() - 1;
    throw UsageError((checked ? path + ": " + built->skipped.front() : checked.error().message) +
                     (more == 0 ? "" : " (and " + std::to_string(more) + " more units not placed)"));
  }
  in.presets = built->presets;
  in.scene.emplace(std::move(*built));
}

CrowdInput read_input(Args& args, const CrowdDef& def) {
  CrowdInput in;
  if (const auto scene_path = args.str("scene")) {
    read_scene_input(args, *scene_path, def, in);
    return in;
  }
  for (const char* scene_only : {"planner", "smoother", "radius", "agent-radius"})
    if (args.str(scene_only)) throw UsageError(std::string("--") + scene_only + " needs --scene (the crowd's own routes plan with grid A*)");
  const std::string map_path = args.required("map");
  const std::string agents_path = args.required("agents");
  auto grid = io::load_map_file(map_path);
  if (!grid) throw UsageError(grid.error().message);
  const std::vector<CrowdAgentDef> agents = read_agents(agents_path);
  for (const auto& a : agents) in.presets.push_back(a.unit.name);
  in.crowd.emplace(build_crowd(*grid, def, agents, agents_path, args.str("doors"), args.str("obstacles")));
  return in;
}

}  // namespace

int run_crowd(int argc, char** argv) {
  for (int k = 2; k < argc; ++k) {
    if (std::string(argv[k]) == "--help" || std::string(argv[k]) == "-h") {
      std::fputs(kCrowdUsage, stdout);
      return 0;
    }
  }
  Args args(argc, argv, 2, {"json"});
  const auto dt_arg = args.number("dt");
  const auto max_time_arg = args.number("max-time");
  const long long every = args.integer("every").value_or(1);
  const long long threads = args.integer("threads").value_or(1);
  const bool json = args.flag("json");
  for (const char* known : {"scene", "map", "agents", "doors", "obstacles", "planner", "smoother", "radius", "agent-radius"})
    (void)args.str(known);
  args.reject_unknown();
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  CrowdDef def = default_crowd_def();
  if (dt_arg) {
    if (!(*dt_arg > 0.0 && *dt_arg <= 1.0)) throw UsageError("--dt must be in (0, 1] seconds");
    def.dt = *dt_arg;
  }
  if (max_time_arg && !(*max_time_arg > 0.0)) throw UsageError("--max-time must be > 0 seconds");
  if (every < 1) throw UsageError("--every must be >= 1");
  if (threads < 1 || threads > 64) throw UsageError("--threads must be in 1..64 (got " + std::to_string(threads) + ")");
  def.threads = static_cast<int>(threads);

  CrowdInput in = read_input(args, def);
  Crowd& crowd = in.get();
  const double max_time = max_time_arg.value_or(default_max_time(crowd));
  if (max_time / def.dt > kMaxSteps) throw UsageError("--max-time / --dt: more than 10,000,000 steps");
  const std::vector<std::string>& presets = in.presets;

  if (json) std::cout << header_json(crowd, presets).dump() << "\n" << frame_json(crowd, crowd.time()).dump() << "\n";
  const bool progress = stderr_is_terminal();
  auto last = std::chrono::steady_clock::now();
  // The run ends when every unit has arrived or at max_time (within half a step).
  while (!crowd.all_arrived() && crowd.time() < max_time - 0.5 * def.dt) {
    crowd.step();
    const bool end = crowd.all_arrived() || crowd.time() >= max_time - 0.5 * def.dt;
    if (json && (crowd.step_count() % every == 0 || end)) std::cout << frame_json(crowd, crowd.time()).dump() << "\n";
    if (progress && std::chrono::steady_clock::now() - last > std::chrono::milliseconds(200)) {
      last = std::chrono::steady_clock::now();
      std::fprintf(stderr, "\rt = %.1f s, %d/%d arrived", crowd.time(), crowd.run_metrics().arrived, crowd.agent_count());
    }
  }
  if (progress) std::fprintf(stderr, "\n");
  if (json) std::cout << summary_json(crowd).dump() << "\n";
  else print_human(crowd, crowd.time());
  return 0;
}

}  // namespace pathlab::cli
