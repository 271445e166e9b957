// Exact curves: the heading-aware searches (directional A*, Hybrid A*), the curve planners
// (Dubins, Reeds-Shepp, turn-to-point) and the turning smoother. Their paths are lines and
// arcs, sampled every curve step with the heading and curvature of each sample.

#include <cmath>
#include <cstdio>

#include "pathlab/cc_curves.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/pose_smoother.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/swept_check.hpp"
#include "pathlab/turn_to_point.hpp"
#include "plan_internal.hpp"

namespace pathlab::plan {
namespace {

/// The sharpness of the settings' CC curves: full lock over one turning radius, as the curve
/// planners cc-dubins / cc-reeds-shepp use; 0 when `cc` is off. [Units: 1/cells^2]
double cc_sharpness_of(const io::PlanSettingsData& s) {
  return s.cc ? 1.0 / (s.turning_radius * s.turning_radius) : 0.0;
}

/// The key of the heading planners' cached tables: every option they are built with.
std::string heading_key(const PlanRequest& request) {
  const io::PlanSettingsData& s = request.settings;
  char key[400];
  // Not the grid's address: after an edit or on another grid object, mend_fields() mends the
  // planner and moves it to the grid (heading_grid).
  std::snprintf(key, sizeof key, "%s %.17g %.17g %d %d %d %d %.17g %.17g %.17g %d %lld", s.planner.c_str(),
                s.turning_radius, s.agent_radius, s.neighborhood, s.headings, s.reverse ? 1 : 0, s.cc ? 1 : 0,
                s.reverse_penalty, s.gear_change_penalty, s.min_gear_length, request.record_trace ? 1 : 0,
                static_cast<long long>(request.budget.max_expansions));
  return key;
}

/// Builds the heading planner the request names (or keeps the cached one); "" or the error.
std::string prepare_heading_planner(PlanService::Cache& cache, const Grid& grid, const PlanRequest& request,
                                    const PlannerInfo& planner) {
  cache.mend_fields(grid);
  const std::string key = heading_key(request);
  if (key == cache.heading_key && (cache.directional || cache.hybrid)) return "";
  const auto t0 = std::chrono::steady_clock::now();
  cache.directional.reset();
  cache.hybrid.reset();
  cache.heading_key.clear();
  const io::PlanSettingsData& s = request.settings;
  if (planner.id == PlannerId::directional) {
    DirectionalAStarOptions o = default_directional_astar_options();
    o.turning_radius = s.turning_radius;
    o.agent_radius = s.agent_radius;
    o.neighborhood = s.neighborhood;
    o.record_trace = request.record_trace;
    if (request.budget.max_expansions > 0) o.max_expansions = request.budget.max_expansions;
    auto built = DirectionalAStar::create(grid, o);
    if (!built) return built.error().message;
    cache.directional = std::make_unique<DirectionalAStar>(std::move(*built));
  } else {
    HybridAStarOptions o = default_hybrid_astar_options();
    o.turning_radius = s.turning_radius;
    o.agent_radius = s.agent_radius;
    o.heading_bins = s.headings;
    o.allow_reverse = s.reverse;
    o.reverse_penalty = s.reverse_penalty;
    o.gear_change_penalty = s.gear_change_penalty;
    o.min_gear_length = s.min_gear_length;
    o.cc_sharpness = cc_sharpness_of(s);
    o.record_trace = request.record_trace;
    if (request.budget.max_expansions > 0) o.max_expansions = request.budget.max_expansions;
    auto built = HybridAStar::create(grid, o);
    if (!built) return built.error().message;
    cache.hybrid = std::make_unique<HybridAStar>(std::move(*built));
  }
  cache.heading_key = key;
  cache.heading_grid = &grid;
  add_preprocess_time(cache, t0);
  return "";
}

bool moved(const Pose& a, const Pose& b) {
  return glm::length(a.pos - b.pos) > 1e-9 || std::abs(wrap_angle(a.heading - b.heading)) > 1e-9;
}

void note_heading_path(const PlanRequest& request, const HeadingPath& path, PlanResult& out) {
  if (moved(path.start, request.start))
    out.notes.push_back("the start pose was snapped to the lattice (cell centre, nearest 45 degrees)");
  if (moved(path.goal, request.goal))
    out.notes.push_back("the goal pose was snapped to the lattice (cell centre, nearest 45 degrees)");
  int cusps = 0;
  const auto segments = path.path.segments();
  for (size_t i = 1; i < segments.size(); ++i) cusps += segments[i].gear != segments[i - 1].gear;
  if (cusps > 0) out.notes.push_back(std::to_string(cusps) + " change(s) of gear");
}

/// The vehicle smoother's settings from the request (pose_smoother.hpp).
PoseSmoothDef vehicle_def(const PlanRequest& request) {
  const io::PlanSettingsData& s = request.settings;
  PoseSmoothDef def = default_pose_smooth_def();
  def.turning_radius = s.turning_radius;
  def.agent_radius = s.agent_radius;
  def.allow_reverse = s.reverse;
  def.reverse_penalty = s.reverse_penalty;
  def.gear_change_penalty = s.gear_change_penalty;
  def.min_gear_length = s.min_gear_length;
  def.cc_sharpness = cc_sharpness_of(s);
  return def;
}

/// Runs the vehicle smoother on `path` in place; "" or the error. Adds up the shortcuts made and
/// the gear segments shorter than the smoother's minimum it had to keep.
/// With a `field` (the service's per-map clearance field) the smoother's checks are faster; the
/// result is the same.
/// `max_tries`: PoseSmoothDef::max_tries (0: unbounded).
std::string vehicle_smooth(const Grid& grid, const PlanRequest& request, SegmentPath& path, int& shortcuts,
                           int& short_runs, const ClearanceField* field = nullptr, int64_t max_tries = 0) {
  PoseSmoothDef def = vehicle_def(request);
  def.max_tries = max_tries;
  auto smoothed = field ? smooth_pose_path(grid, path, def, *field) : smooth_pose_path(grid, path, def);
  if (!smoothed) return smoothed.error().message;
  shortcuts += smoothed->shortcuts;
  short_runs += smoothed->short_gear_runs;
  path = std::move(smoothed->path);
  return "";
}

void note_shortcuts(const PlanRequest& request, int shortcuts, int short_runs, PlanResult& out) {
  if (shortcuts > 0) out.notes.push_back("vehicle smoother: " + std::to_string(shortcuts) + " shortcut(s)");
  if (short_runs > 0) {
    char min[32];
    std::snprintf(min, sizeof min, "%g", request.settings.min_gear_length);
    out.notes.push_back("vehicle smoother: " + std::to_string(short_runs) + " gear segment(s) shorter than " + min +
                        " cells kept");
  }
}

/// The exact curve of a curve planner and its word; false (with the error set) when none exists.
bool solve_curve(const PlanRequest& request, PlannerId planner, PlanResult& out) {
  const Pose& from = request.start;
  const Pose& to = request.goal;
  const double radius = request.settings.turning_radius;
  Result<SegmentPath> path = Error{};
  if (planner == PlannerId::cc_dubins || planner == PlannerId::cc_reeds_shepp) {
    // The sharpness that reaches full lock over one turning radius (README, "curve").
    const double sharpness = 1.0 / (radius * radius);
    auto sol = planner == PlannerId::cc_dubins ? cc_dubins(from, to, radius, sharpness)
                                               : cc_reeds_shepp(from, to, radius, sharpness);
    if (!sol) return fail(out, PlanStage::search, sol.error().message);
    out.word = sol->word;
    path = std::move(sol->path);
  } else if (planner == PlannerId::dubins) {
    auto sol = dubins_shortest(from, to, radius);
    if (!sol) return fail(out, PlanStage::search, sol.error().message);
    out.word = to_string(sol->word);
    path = dubins_to_path(from, to, radius, *sol);
  } else if (planner == PlannerId::reeds_shepp) {
    auto sol = reeds_shepp_shortest(from, to, radius);
    if (!sol) return fail(out, PlanStage::search, sol.error().message);
    out.word = sol->word();
    path = reeds_shepp_to_path(from, to, radius, *sol);
  } else {
    auto sol = turn_to_point(from, to.pos, radius);
    if (!sol) return fail(out, PlanStage::search, sol.error().message);
    out.word = sol->word;
    path = turn_to_point_path(from, to.pos, radius);
  }
  if (!path) return fail(out, PlanStage::search, path.error().message);
  out.segments = std::move(*path);
  return true;
}

}  // namespace

std::string append_curve_samples(const SegmentPath& path, double step, PlanResult& out) {
  auto samples = path.sample(step);
  if (!samples) return samples.error().message;
  for (const PathSample& sample : *samples) {
    const double heading = wrap_angle(sample.state.heading);
    if (!out.points.empty() && out.points.back() == sample.state.pos &&
        std::abs(wrap_angle(out.headings.back() - heading)) < 1e-12)
      continue;
    out.points.push_back(sample.state.pos);
    out.headings.push_back(heading);
    out.curvature.push_back(sample.state.curvature);
    out.max_curvature = std::max(out.max_curvature, std::abs(sample.state.curvature));
  }
  out.curvature_exact = true;
  return "";
}

void plan_heading(PlanService::Cache& cache, const Grid& grid, const PlanRequest& request, const PlannerInfo& planner,
                  PlanResult& out) {
  if (std::string e = prepare_heading_planner(cache, grid, request, planner); !e.empty())
    return (void)fail(out, PlanStage::preprocess, e);
  if (cache.directional) cache.directional->set_budget(request.budget);
  if (cache.hybrid) cache.hybrid->set_budget(request.budget);
  auto path = cache.directional ? cache.directional->plan(request.start, request.goal)
                                : cache.hybrid->plan(request.start, request.goal);
  if (!path) return (void)fail(out, PlanStage::search, path.error().message);
  // An end inside a wall is bad input, not "no path".
  if (path->failure == HeadingFailure::start_in_collision || path->failure == HeadingFailure::goal_in_collision)
    return (void)fail(out, PlanStage::query, path->reason);
  out.found = path->found;
  out.reason = path->reason;
  out.heading_failure = path->failure;
  out.expanded = path->expanded;
  out.pose_trace = std::move(path->trace);
  out.budget_stop = path->budget_stop;
  out.partial = path->partial;
  if (!out.found && !out.partial) return;
  const SmootherInfo* smoother = find_smoother(request.settings.smoother, PlannerFamily::heading);
  int shortcuts = 0, short_runs = 0;
  if (out.found && smoother && smoother->id == SmootherId::vehicle) {
    const ClearanceField& field = cache.clearance_for(grid);
    // Forward Dubins connections are bounded by the search's own work (pose_smooth_tries_for():
    // 3.2 tries an expansion, at least 320), so a short search gets a smoother at about 0.8 of
    // its own time, the same on every machine; on bench_vehicle_replan it changes 2 of 78 plans,
    // by under 0.02 cells and 0.003 of turning ratio (README, thirteenth and seventeenth rounds).
    // With reversing or CC curves a try costs more and is not the unit this was measured in;
    // bounded alike, bench_vehicle_paths' Hybrid A* with reverse turned more (rooms3 steering
    // changes per 100 cells 4.4 -> 5.7, rooms1 turning ratio 1.05 -> 1.10), so they stay unbounded.
    const bool dubins = !request.settings.reverse && !request.settings.cc;
    const int64_t tries = dubins ? pose_smooth_tries_for(path->expanded) : 0;
    if (std::string e = vehicle_smooth(grid, request, path->path, shortcuts, short_runs, &field, tries); !e.empty())
      return (void)fail(out, PlanStage::smooth, e);
    path->length = path->path.length();
  }
  if (std::string e = append_curve_samples(path->path, curve_step_of(request), out); !e.empty())
    return (void)fail(out, PlanStage::smooth, e);
  if (out.found) note_heading_path(request, *path, out);
  note_shortcuts(request, shortcuts, short_runs, out);
  out.length = path->length;
  out.segments = std::move(path->path);
}

void plan_curve(const Grid& grid, const PlanRequest& request, const PlannerInfo& planner, PlanResult& out) {
  if (!solve_curve(request, planner.id, out)) return;
  const SegmentPath& path = *out.segments;
  out.found = true;
  if (std::string e = append_curve_samples(path, curve_step_of(request), out); !e.empty())
    return (void)fail(out, PlanStage::smooth, e);
  out.length = path.length();
  SweptCheckDef def = default_swept_check_def();
  def.agent_radius = request.settings.agent_radius;
  auto swept = check_swept_path(grid, path, def);
  if (!swept) return (void)fail(out, PlanStage::search, swept.error().message);
  if (!swept->clear) {
    out.curve_blocked_at = refine_blocked_at(grid, path, swept->blocked_at_s, def.agent_radius);
    auto at = path.at_distance(*out.curve_blocked_at);
    out.violations.push_back("the curve runs into a wall near " + point_text(at ? at->pos : Vec2(0, 0)) +
                             " (curve planners do not avoid walls)");
  }
}

void apply_turning_smoother(const Grid& grid, const PlanRequest& request, PlanResult& out, bool vehicle) {
  const io::PlanSettingsData& s = request.settings;
  TurningSmoothDef def = default_turning_smooth_def();
  def.turning_radius = s.turning_radius;
  def.min_radius = std::min(def.min_radius, def.turning_radius);
  def.agent_radius = s.agent_radius;
  def.has_start_heading = request.start_has_heading;
  def.start_heading = request.start.heading;
  def.has_goal_heading = request.goal_has_heading;
  def.goal_heading = request.goal.heading;
  auto turned = turning_smooth(grid, out.points, def);
  if (!turned) {
    // The planner's path stays; why it could not be made drivable is a violation.
    out.smoother_error = turned.error().message;
    out.violations.push_back("turning smoother: " + out.smoother_error);
    return;
  }
  int shortcuts = 0, short_runs = 0;
  if (vehicle) {
    // A car cannot turn on the spot: bridge the rotations with manoeuvres where one fits.
    auto joined = join_rotations(grid, turned->pieces, vehicle_def(request));
    if (!joined) return (void)fail(out, PlanStage::smooth, joined.error().message);
    if (const size_t bridged = turned->pieces.size() - joined->size(); bridged > 0)
      out.notes.push_back("vehicle smoother: " + std::to_string(bridged) + " rotation(s) in place replaced by a manoeuvre");
    turned->pieces = std::move(*joined);
    turned->length = 0.0;
    for (SegmentPath& piece : turned->pieces) {
      if (std::string e = vehicle_smooth(grid, request, piece, shortcuts, short_runs); !e.empty())
        return (void)fail(out, PlanStage::smooth, e);
      turned->length += piece.length();
    }
  }
  out.points.clear();
  for (const SegmentPath& piece : turned->pieces) {
    if (std::string e = append_curve_samples(piece, curve_step_of(request), out); !e.empty())
      return (void)fail(out, PlanStage::smooth, e);
  }
  out.length = turned->length;
  out.turns = turned->turns;
  if (turned->pieces.size() == 1) out.segments = turned->pieces.front();  // units follow the exact curve
  std::string how;
  for (TurnMethod m : {TurnMethod::fillet, TurnMethod::shrink, TurnMethod::three_point, TurnMethod::rotate})
    if (const int n = turned->count(m); n > 0) how += (how.empty() ? "" : ", ") + std::to_string(n) + " " + to_string(m);
  if (!how.empty()) out.notes.push_back("turns: " + how);
  note_shortcuts(request, shortcuts, short_runs, out);
}

}  // namespace pathlab::plan
