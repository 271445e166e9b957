// The planning options of `plan` and `simulate`: read from the command line and checked
// against the registry (app/plan/registry.hpp), which knows every planner and smoother and
// which options apply to which. Each error names the argument.

#include <string>

#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/hermite.hpp"
#include "planning.hpp"

namespace pathlab::cli {
namespace {

using plan::OptionId;
using plan::PlannerFamily;

/// The options every family reads before its own checks: what the command line gave, and
/// whether a scene (the base) already settled the smoother and the turning radius.
struct RawOptions {
  bool smoother_given = false;  // --smoother, or the scene's smoother (fitted to the planner)
  std::optional<double> turning_radius;  // --radius
  bool radius_known = false;             // --radius, or the scene's turning radius
  std::optional<long long> subdivisions;
  bool reverse = false;
  bool from_scene = false;
};

std::string flag(OptionId id) { return std::string("--") + plan::option_info(id).flag; }

/// True when the named smoother of the family drives circles of the turning radius (registry).
bool smoother_turns(const std::string& name, PlannerFamily family) {
  const plan::SmootherInfo* s = plan::find_smoother(name, family);
  return s && (s->options & plan::option_bit(OptionId::turning_radius)) != 0;
}

void read_navmesh_options(Args& args, const RawOptions& raw, PlanSettings& s) {
  io::PlanSettingsData& d = s.data;
  if (!raw.smoother_given) d.smoother = plan::smoothers_for(PlannerFamily::navmesh).front().name;
  const plan::SmootherInfo* smoother = plan::find_smoother(d.smoother, PlannerFamily::navmesh);
  if (!smoother) {
    throw UsageError("--smoother: unknown smoother '" + d.smoother + "' for the navmesh planner (" +
                     plan::smoother_list(PlannerFamily::navmesh) + ")");
  }
  const auto margin = args.number("shift-margin");
  const auto passes = args.integer("shift-passes");
  if ((margin || passes) && smoother->id != plan::SmootherId::edge_shift) {
    throw UsageError("--shift-margin and --shift-passes are used by --smoother edge-shift only");
  }
  if (margin && !(*margin >= 0)) throw UsageError("--shift-margin must be >= 0");
  if (passes && (*passes < 0 || *passes > 64)) throw UsageError("--shift-passes must be in [0, 64]");
  if (margin) d.shift_margin = *margin;
  if (passes) d.shift_passes = static_cast<int>(*passes);
  // corners by default: the exact search is 1.5-3x faster on it than on convex (README, Navmesh).
  // A scene's own kind otherwise (the sandbox's default is convex).
  const std::string scene_kind = d.navmesh_corners ? "corners" : d.navmesh_convex ? "convex" : "rectangles";
  const std::string kind = args.str("navmesh-polygons").value_or(raw.from_scene ? scene_kind : "corners");
  if (kind != "convex" && kind != "rectangles" && kind != "corners") {
    throw UsageError("--navmesh-polygons: unknown mesh kind '" + kind + "' (corners, convex, rectangles)");
  }
  d.navmesh_convex = kind != "rectangles";
  d.navmesh_corners = kind == "corners";
  const std::string cost = args.str("navmesh-cost").value_or("exact");
  if (cost != "exact" && cost != "portal-points") {
    throw UsageError("--navmesh-cost: unknown cost model '" + cost + "' (exact, portal-points)");
  }
  s.navmesh_cost = cost == "portal-points" ? NavSearchCost::portal_points : NavSearchCost::exact;
  if (raw.subdivisions) throw UsageError("--subdivisions is used by spline smoothers only");
  if (d.turn_penalty != 0.0) throw UsageError("--turn-penalty is used by grid planners only");
  if (smoother_turns(d.smoother, PlannerFamily::navmesh) && !raw.radius_known)
    throw UsageError("--smoother " + d.smoother + " needs --radius R (the turning radius in cells)");
}

void read_heading_options(Args& args, const RawOptions& raw, const plan::PlannerInfo& planner, PlanSettings& s) {
  io::PlanSettingsData& d = s.data;
  if (!raw.radius_known) throw UsageError("--planner " + d.planner + " needs --radius R (the turning radius in cells)");
  if (!raw.smoother_given) d.smoother = plan::smoothers_for(PlannerFamily::heading).front().name;
  if (!plan::find_smoother(d.smoother, PlannerFamily::heading))
    throw UsageError("--smoother: unknown smoother '" + d.smoother + "' for the " + d.planner + " planner (" +
                     plan::smoother_list(PlannerFamily::heading) + ")");
  if (raw.subdivisions) throw UsageError("--subdivisions is used by spline smoothers only");
  if (d.turn_penalty != 0.0) throw UsageError("--turn-penalty is used by grid planners only");
  if (raw.reverse && planner.id != plan::PlannerId::hybrid) throw UsageError("--reverse is used by --planner hybrid only");
  // Their ranges are checked with the turning radius's, once the map is loaded (check_plan_settings).
  if (planner.id == plan::PlannerId::directional) s.neighborhood = args.integer("neighborhood");
  else s.heading_bins = args.integer("heading-bins");
}

void read_grid_options(const RawOptions& raw, PlanSettings& s) {
  io::PlanSettingsData& d = s.data;
  const plan::SmootherInfo* smoother = plan::find_smoother(d.smoother, PlannerFamily::grid);
  if (!smoother) {
    throw UsageError("--smoother: unknown smoother '" + d.smoother + "' (" + plan::smoother_list(PlannerFamily::grid) +
                     ")");
  }
  if (raw.subdivisions && !smoother->spline) throw UsageError("--subdivisions is used by spline smoothers only");
  if (raw.subdivisions && (*raw.subdivisions < 1 || *raw.subdivisions > kMaxSubdivisions)) {
    throw UsageError("--subdivisions must be in [1, " + std::to_string(kMaxSubdivisions) + "]");
  }
  if (raw.subdivisions) d.subdivisions = static_cast<int>(*raw.subdivisions);
  if (smoother_turns(d.smoother, PlannerFamily::grid) && !raw.radius_known)
    throw UsageError("--smoother " + d.smoother + " needs --radius R (the turning radius in cells)");
}

/// The options every planner shares: agent radius, turn penalty, connectivity.
void read_search_options(Args& args, io::PlanSettingsData& d) {
  if (auto r = args.number("agent-radius")) {
    if (*r < 0 || *r > kMaxAgentRadius) {
      throw UsageError("--agent-radius must be in [0, " + std::to_string(static_cast<int>(kMaxAgentRadius)) + "]");
    }
    d.agent_radius = *r;
  }
  if (auto p = args.number("turn-penalty")) {
    if (*p < 0) throw UsageError("--turn-penalty must be >= 0");
    d.turn_penalty = *p;
  }
  if (auto c = args.integer("connectivity")) {
    if (*c != 4 && *c != 8) throw UsageError("--connectivity must be 4 or 8");
    d.connectivity = static_cast<int>(*c);
  }
}

/// --reverse-penalty, --gear-change-penalty and --min-gear-length: for the planner or smoother
/// whose registry row lists them (Hybrid A*, the vehicle smoother), in the registry's range.
void read_penalties(Args& args, const plan::PlannerInfo& planner, PlanSettings& s) {
  io::PlanSettingsData& d = s.data;
  const plan::SmootherInfo* smoother = plan::find_smoother(d.smoother, planner.family);
  for (OptionId id : {OptionId::reverse_penalty, OptionId::gear_change_penalty, OptionId::min_gear_length}) {
    const plan::OptionInfo& o = plan::option_info(id);
    const auto value = args.number(o.flag);
    if (!value) continue;
    const plan::OptionMask bit = plan::option_bit(id);
    if ((planner.options & bit) == 0 && !(smoother && (smoother->options & bit) != 0))
      throw UsageError(flag(id) + " is used by --planner hybrid and --smoother vehicle only");
    if (!(*value >= o.min && *value <= o.max))
      throw UsageError(flag(id) + " must be in [" + std::to_string(static_cast<int>(o.min)) + ", " +
                       std::to_string(static_cast<int>(o.max)) + "]");
    (id == OptionId::reverse_penalty       ? d.reverse_penalty
     : id == OptionId::gear_change_penalty ? d.gear_change_penalty
                                           : d.min_gear_length) = *value;
  }
}

}  // namespace

double read_time_budget(Args& args) {
  const auto ms = args.number("time-budget-ms");
  if (!ms) return 0.0;
  if (!(*ms > 0.0) || !(*ms <= kMaxTimeBudgetMs))
    throw UsageError("--time-budget-ms must be in (0, " + std::to_string(static_cast<long long>(kMaxTimeBudgetMs)) +
                     "] milliseconds");
  return *ms;
}

PlanSettings read_plan_settings(Args& args, const io::PlanSettingsData* base) {
  PlanSettings s;
  io::PlanSettingsData& d = s.data;
  RawOptions raw;
  if (base) {
    d = *base;
    raw.from_scene = raw.smoother_given = raw.radius_known = true;
    s.scene_curve_step = true;
  }
  d.planner = args.str("planner").value_or(base ? base->planner : plan::planner_name(plan::PlannerId::astar));
  if (auto p = args.str("smoother")) {
    d.smoother = *p;
    raw.smoother_given = true;
  }
  read_search_options(args, d);
  raw.turning_radius = args.number("radius");
  raw.radius_known = raw.radius_known || raw.turning_radius.has_value();
  raw.subdivisions = args.integer("subdivisions");
  s.sample_step = args.number("sample-step");
  // Switches add to a scene's: there is no flag that turns a scene's reverse or cc off.
  raw.reverse = args.flag("reverse");
  d.reverse = raw.reverse || (base && base->reverse);
  const bool cc = args.flag("cc");
  d.cc = cc || (base && base->cc);
  if (raw.turning_radius) d.turning_radius = *raw.turning_radius;

  const plan::PlannerInfo* planner = plan::find_planner(d.planner);
  if (!planner || !planner->in_cli_plan) {
    throw UsageError("--planner: unknown planner '" + d.planner + "' (" + plan::cli_planner_list() + ")");
  }
  switch (planner->family) {
    case PlannerFamily::navmesh: read_navmesh_options(args, raw, s); break;
    case PlannerFamily::heading: read_heading_options(args, raw, *planner, s); break;
    default: read_grid_options(raw, s); break;
  }
  const bool turning = smoother_turns(d.smoother, planner->family);
  if (raw.turning_radius && planner->family != PlannerFamily::heading && !turning)
    throw UsageError("--radius (turning radius) is used by --planner directional|hybrid and --smoother turning|vehicle only");
  if (raw.reverse && planner->id != plan::PlannerId::hybrid) throw UsageError("--reverse is used by --planner hybrid only");
  if (cc) {
    const plan::SmootherInfo* smoother = plan::find_smoother(d.smoother, planner->family);
    const plan::OptionMask bit = plan::option_bit(OptionId::cc);
    if ((planner->options & bit) == 0 && !(smoother && (smoother->options & bit) != 0))
      throw UsageError("--cc is used by --planner hybrid and --smoother vehicle only");
  }
  if (s.sample_step && !(*s.sample_step > 0)) throw UsageError("--sample-step must be > 0");
  s.time_budget_ms = read_time_budget(args);
  read_penalties(args, *planner, s);
  return s;
}

void check_plan_settings(const PlanSettings& s) {
  const plan::PlannerInfo& planner = *plan::find_planner(s.data.planner);
  const bool turning = smoother_turns(s.data.smoother, planner.family);
  if (planner.family != PlannerFamily::heading && !turning) return;
  const double r = s.data.turning_radius;
  if (!(r > 0.0 && r <= kMaxTurningRadius))
    throw UsageError(flag(OptionId::turning_radius) + " must be in (0, " +
                     std::to_string(static_cast<int>(kMaxTurningRadius)) + "]");
  if (const auto n = s.neighborhood; n && *n != 0 && *n != 4 && *n != 8 && *n != 24 && *n != 48)
    throw UsageError("--neighborhood must be 0 (auto, the default), 4, 8, 24 or 48");
  if (const auto bins = s.heading_bins; bins && (*bins < 8 || *bins > 720))
    throw UsageError("--heading-bins must be in [8, 720]");
}

io::PlanSettingsData service_settings(const PlanSettings& s) {
  io::PlanSettingsData d = s.data;
  if (s.neighborhood) d.neighborhood = static_cast<int>(*s.neighborhood);
  if (s.heading_bins) d.headings = static_cast<int>(*s.heading_bins);
  return d;
}

}  // namespace pathlab::cli
