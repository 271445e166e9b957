// The grid family: A*, Dijkstra, JPS and Theta* on the cells, then the grid smoother the
// settings name (line-of-sight shortcuts, a spline, or the turning smoother).

#include <algorithm>
#include <cmath>

#include "pathlab/arc_length.hpp"
#include "pathlab/shortcut.hpp"
#include "pathlab/spline_smoother.hpp"
#include "plan_internal.hpp"

namespace pathlab::plan {
namespace {

GridSearchOptions search_options(const PlanRequest& request, const PlannerInfo& planner) {
  const io::PlanSettingsData& s = request.settings;
  GridSearchOptions options = default_grid_search_options();
  options.connectivity = s.connectivity == 4 ? Connectivity::four : Connectivity::eight;
  options.turn_penalty = (planner.options & option_bit(OptionId::turn_penalty)) != 0 ? s.turn_penalty : 0.0;
  options.agent_radius = s.agent_radius;
  options.record_trace = request.record_trace;
  options.budget = request.budget;  // expansions, time and the cancel flag
  return options;
}

/// Largest |curvature| of the spline itself, measured along its arc length (not the samples).
void measure_spline_curvature(const HermiteCurve& curve, PlanResult& out) {
  if (curve.empty()) return;
  auto table = ArcLengthTable::build(curve);
  if (!table) return;
  const double step = std::max(0.02, table->length() / 4000.0);
  auto profile = curvature_profile(*table, step);
  if (!profile) return;
  out.curvature_exact = true;
  for (const CurvatureSample& k : *profile) out.max_curvature = std::max(out.max_curvature, std::abs(k.curvature));
}

bool apply_spline(const Grid& grid, const PlanRequest& request, SplineMethod method, PlanResult& out) {
  const io::PlanSettingsData& s = request.settings;
  SplineSmoothDef def = default_spline_smooth_def();
  def.method = method;
  def.agent_radius = s.agent_radius;
  def.sampling.per_segment = std::clamp(s.subdivisions, 1, kMaxSubdivisions);
  def.insert_min_chord = s.insert_min_chord;
  auto smooth = smooth_path(grid, out.points, def);
  // A raw path that is not clear itself (agent radius above 0.5 on a narrow gap) cannot be
  // smoothed safely: it is kept as found.
  if (!smooth && smooth.error().code == StatusCode::blocked) return true;
  if (!smooth) return fail(out, PlanStage::smooth, smooth.error().message);
  out.points = std::move(smooth->points);
  if (!smooth->repairs.empty()) {
    // Not a violation: the smoother kept the curve clear. Worth knowing when tuning, though.
    out.notes.push_back(std::to_string(smooth->repairs.size()) +
                        " spline span(s) repaired (too close to a wall, or a loop or hook reshaped)");
  }
  if (request.keep_internals) {
    out.spline_controls = smooth->control_points;
    for (const HermiteSegment& seg : smooth->curve.segments) out.spline_tangents.push_back(seg.start_tangent);
    if (!smooth->curve.segments.empty()) out.spline_tangents.push_back(smooth->curve.segments.back().end_tangent);
  }
  if (request.analyse) measure_spline_curvature(smooth->curve, out);
  return true;
}

bool apply_smoother(const Grid& grid, const PlanRequest& request, const SmootherInfo& smoother, PlanResult& out) {
  switch (smoother.id) {
    case SmootherId::turning:
    case SmootherId::vehicle:
      apply_turning_smoother(grid, request, out, smoother.id == SmootherId::vehicle);
      return out.error.empty();
    case SmootherId::los: {
      auto cut = los_shortcut(grid, out.points, request.settings.agent_radius);
      if (!cut) return fail(out, PlanStage::smooth, cut.error().message);
      out.points = std::move(cut->points);
      return true;
    }
    case SmootherId::catmull_rom:
    case SmootherId::centripetal:
    case SmootherId::chordal:
    case SmootherId::hermite: return apply_spline(grid, request, *parse_spline_method(smoother.name), out);
    default: return true;
  }
}

/// A timed search must not spend its budget on the pathfinder's buffers: the first search of
/// a pathfinder (and of a new state layout: turn penalties, JPS's jump tables) allocates and
/// first touches megabytes. A one-expansion search does that here, counted as preprocessing;
/// on a warm pathfinder it costs microseconds.
void warm_up(PlanService::Cache& cache, GridPlanner kind, const PlanRequest& request, GridSearchOptions options) {
  const auto t0 = std::chrono::steady_clock::now();
  options.budget = SearchBudget{};
  options.budget.max_expansions = 1;
  options.record_trace = false;
  (void)cache.finder->find_path(kind, cell_of(request.start.pos), cell_of(request.goal.pos), options);
  add_preprocess_time(cache, t0);
}

}  // namespace

void plan_grid(PlanService::Cache& cache, const Grid& grid, const PlanRequest& request, const PlannerInfo& planner,
               const SmootherInfo& smoother, PlanResult& out) {
  if (!cache.finder || cache.finder_stale) {
    const auto t0 = std::chrono::steady_clock::now();
    if (cache.finder) cache.finder->refresh(grid);
    else cache.finder = std::make_unique<GridPathfinder>(grid);
    cache.finder_stale = false;
    add_preprocess_time(cache, t0);
  }
  const GridPlanner kind = *parse_grid_planner(planner.name);
  const GridSearchOptions options = search_options(request, planner);
  if (options.budget.time_ms > 0.0) warm_up(cache, kind, request, options);
  auto path = cache.finder->find_path(kind, cell_of(request.start.pos), cell_of(request.goal.pos), options);
  if (!path) return (void)fail(out, PlanStage::search, path.error().message);
  out.found = path->found;
  out.reason = path->reason;
  out.expanded = path->expanded;
  out.budget_stop = path->stopped;
  out.trace = std::move(path->trace);
  if ((path->details & kDetailCostsIgnored) != 0 && out.found)
    out.notes.push_back("JPS treats terrain as cost 1: swamp is crossed as if it were ground");
  out.raw_points = std::move(path->points);
  out.points = out.raw_points;
  if (!out.found || !apply_smoother(grid, request, smoother, out)) return;
  // The turning smoother knows its curve's exact length; everything else is a polyline.
  const bool exact = smoother.id == SmootherId::turning || smoother.id == SmootherId::vehicle;
  if (!exact || !out.smoother_error.empty()) out.length = polyline_length(out.points);
}

}  // namespace pathlab::plan
