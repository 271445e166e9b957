// The sandbox's adapter over the planning service: the registry's planners and smoothers as
// menu entries, the scene's settings normalised for the UI, and the service's result as the
// PlanView the canvas, the stats panel, compare mode and the overlays read.

#include "planning/plan_pipeline.hpp"

#include <array>

namespace pathlab::sandbox {
namespace {

PlannerFamily to_sandbox_family(plan::PlannerFamily family) {
  switch (family) {
    case plan::PlannerFamily::grid: return PlannerFamily::grid;
    case plan::PlannerFamily::navmesh: return PlannerFamily::navmesh;
    case plan::PlannerFamily::heading: return PlannerFamily::heading;
    case plan::PlannerFamily::curve: return PlannerFamily::curve;
  }
  return PlannerFamily::unknown;
}

std::vector<MethodInfo> smoother_menu(plan::PlannerFamily family) {
  std::vector<MethodInfo> out;
  for (const plan::SmootherInfo& s : plan::smoothers_for(family)) out.push_back({s.name, s.help});
  return out;
}

/// The words the sandbox puts before a service error, by where the plan stopped.
std::string error_prefix(const plan::PlanResult& r, const io::PlanSettingsData& settings) {
  if (r.stage == plan::PlanStage::preprocess) return settings.planner + ": ";
  const plan::PlannerInfo* planner = plan::find_planner(settings.planner);
  const plan::SmootherInfo* smoother = planner ? plan::find_smoother(settings.smoother, planner->family) : nullptr;
  if (r.stage == plan::PlanStage::smooth && smoother && smoother->spline) return "smoother: ";
  return "";
}

}  // namespace

const std::vector<MethodInfo>& planner_methods() {
  static const std::vector<MethodInfo> methods = [] {
    std::vector<MethodInfo> out;
    for (const plan::PlannerInfo& p : plan::planners()) out.push_back({p.name, p.help});
    return out;
  }();
  return methods;
}

PlannerFamily planner_family(const std::string& planner) {
  const plan::PlannerInfo* info = plan::find_planner(planner);
  return info ? to_sandbox_family(info->family) : PlannerFamily::unknown;
}

const std::vector<MethodInfo>& smoother_methods(const std::string& planner) {
  static const std::array<std::vector<MethodInfo>, 4> menus = {
      smoother_menu(plan::PlannerFamily::grid), smoother_menu(plan::PlannerFamily::navmesh),
      smoother_menu(plan::PlannerFamily::heading), smoother_menu(plan::PlannerFamily::curve)};
  const plan::PlannerInfo* info = plan::find_planner(planner);
  return menus[static_cast<size_t>(info ? info->family : plan::PlannerFamily::grid)];
}

bool is_spline_smoother(const std::string& smoother) {
  const plan::SmootherInfo* info = plan::find_any_smoother(smoother);
  return info && info->spline;
}

std::string normalize_settings(io::PlanSettingsData& s) { return plan::normalize_settings(s); }

PlanView to_plan_view(plan::PlanResult r, const io::PlanSettingsData& settings) {
  PlanView v;
  v.valid = true;
  if (!r.error.empty()) {
    v.error = error_prefix(r, settings) + r.error;
    r.found = false;
  }
  v.result = std::move(r);
  return v;
}

std::vector<std::vector<Vec2>> corridor_rings(const plan::PlanResult& result) {
  std::vector<std::vector<Vec2>> rings;
  if (!result.navmesh || !result.nav_corridor) return rings;
  for (int p : result.nav_corridor->corridor.polygons) {
    auto ring = result.navmesh->ring(p);
    rings.emplace_back(ring.begin(), ring.end());
  }
  return rings;
}

PlanPipeline::PlanPipeline() = default;
PlanPipeline::~PlanPipeline() = default;

void PlanPipeline::map_changed() {
  service_.map_changed();
  last_navmesh_.reset();
}

PlanView PlanPipeline::plan(const Grid& grid, const Pose& start, const Pose& goal, const io::PlanSettingsData& settings,
                            bool record_trace, const SearchBudget& budget) {
  io::PlanSettingsData s = settings;
  // An unknown name is an error naming the key (issue 14), never silently another planner.
  if (std::string e = plan::check_scene_names(s.planner, s.smoother); !e.empty()) {
    PlanView v;
    v.valid = true;
    v.error = e;
    return v;
  }
  normalize_settings(s);
  plan::PlanRequest request;
  request.start = start;
  request.goal = goal;
  request.settings = s;
  request.record_trace = record_trace;
  request.budget = budget;
  PlanView v = to_plan_view(service_.plan(grid, request), s);
  last_navmesh_ = v.result.navmesh;  // null after a plan of another family
  return v;
}

}  // namespace pathlab::sandbox
