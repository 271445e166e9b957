// `plan --map scene.json`: a sandbox scene planned headless. The scene supplies the map, the
// start and goal and the settings; anything given on the command line wins. The scene's
// settings become ordinary options, so they go through exactly the checks typed ones do.

#include <cstdio>
#include <set>

#include "commands.hpp"
#include "pathlab/plan/registry.hpp"
#include "scene_args.hpp"

namespace pathlab::cli {
namespace {

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

bool is_json(const std::string& path) { return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0; }

}  // namespace

std::optional<std::string> scene_map_arg(int argc, char** argv, int first) {
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    std::string value;
    if (a == "--map" && i + 1 < argc) value = argv[i + 1];
    else if (a.rfind("--map=", 0) == 0) value = a.substr(6);
    else continue;
    return is_json(value) ? std::optional<std::string>(value) : std::nullopt;
  }
  return std::nullopt;
}

std::vector<std::string> with_scene_defaults(int argc, char** argv, const io::Scene& scene) {
  std::vector<std::string> out(argv, argv + argc);
  std::set<std::string> given;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) == 0) given.insert(a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2));
  }
  auto add = [&](const std::string& name, const std::string& value) {
    if (given.count(name)) return;
    out.push_back("--" + name);
    if (!value.empty()) out.push_back(value);
  };
  const io::PlanSettingsData& s = scene.settings;
  const plan::PlannerInfo* planner = plan::find_planner(s.planner);
  const bool grid = planner && planner->family == plan::PlannerFamily::grid;
  const bool navmesh = planner && planner->family == plan::PlannerFamily::navmesh;
  // Start and goal only when neither is given: mixing one from the scene and one typed is
  // more likely a mistake than a wish. Grid and navmesh paths have no heading of their own,
  // so their ends go without one (a heading would only change the output's point format).
  if (!given.count("from") && !given.count("to") && !given.count("queries")) {
    auto pose = [&](const Pose& p) {
      return num(p.pos.x) + "," + num(p.pos.y) + (grid || navmesh ? "" : "," + num(rad_to_deg(p.heading)));
    };
    add("from", pose(scene.start));
    add("to", pose(scene.goal));
  }
  if (given.count("planner")) return out;  // another planner: the scene's tuning is for the scene's planner
  add("planner", s.planner);
  if (!given.count("smoother")) add("smoother", s.smoother);
  const std::string smoother = s.smoother;
  if (s.agent_radius > 0) add("agent-radius", num(s.agent_radius));
  const auto applies = [&](plan::OptionId id) { return planner && (planner->options & plan::option_bit(id)) != 0; };
  if (applies(plan::OptionId::connectivity) && s.connectivity == 4) add("connectivity", "4");
  if (applies(plan::OptionId::turn_penalty) && s.turn_penalty > 0) add("turn-penalty", num(s.turn_penalty));
  const plan::SmootherInfo* sm = plan::find_any_smoother(smoother);
  const bool spline = sm && sm->spline;
  if (grid && spline && !given.count("smoother")) add("subdivisions", std::to_string(s.subdivisions));
  // The CLI's default is corners; the sandbox's is convex.
  if (navmesh && !s.navmesh_corners) add("navmesh-polygons", s.navmesh_convex ? "convex" : "rectangles");
  if (navmesh && sm && sm->id == plan::SmootherId::edge_shift && !given.count("smoother")) {
    add("shift-margin", num(s.shift_margin));
    add("shift-passes", std::to_string(s.shift_passes));
  }
  if (!grid && !navmesh) {  // heading-aware planners
    add("radius", num(s.turning_radius));
    if (s.reverse) add("reverse", "");
  }
  if (s.cc && ((planner && (planner->options & plan::option_bit(plan::OptionId::cc)) != 0) ||
               (sm && (sm->options & plan::option_bit(plan::OptionId::cc)) != 0)))
    add("cc", "");
  return out;
}

}  // namespace pathlab::cli
