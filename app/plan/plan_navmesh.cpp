// The navmesh family: a corridor search over the mesh built for the agent radius (kept per
// radius and polygon kind), then the corridor smoother the settings name.

#include "pathlab/edge_shift.hpp"
#include "plan_internal.hpp"

#include <algorithm>

namespace pathlab::plan {
namespace {

/// Turns the corridor into the path with `smoother`; false (with the error set) when it fails.
bool smooth_corridor(const Grid& grid, const Navmesh& mesh, const NavSearchResult& corridor, const PlanRequest& request,
                     const SmootherInfo& smoother, PlanResult& out) {
  switch (smoother.id) {
    case SmootherId::turning:
    case SmootherId::vehicle: {  // legal turns along the funnel path (the shortest in the corridor)
      auto funnel = funnel_corridor(corridor, false);
      if (!funnel) return fail(out, PlanStage::smooth, funnel.error().message);
      out.points = std::move(funnel->points);
      apply_turning_smoother(grid, request, out, smoother.id == SmootherId::vehicle);
      return out.error.empty();
    }
    case SmootherId::funnel: {
      auto funnel = funnel_corridor(corridor, request.keep_internals);
      if (!funnel) return fail(out, PlanStage::smooth, funnel.error().message);
      if (request.keep_internals) {
        out.points = funnel->points;
        out.funnel = std::move(*funnel);
      } else {
        out.points = std::move(funnel->points);
      }
      return true;
    }
    case SmootherId::edge_shift: {
      EdgeShiftDef def = default_edge_shift_def();
      def.margin = request.settings.shift_margin;
      def.passes = std::clamp(request.settings.shift_passes, 0, 64);  // 0 = until converged
      EdgeShiftReport report;
      auto shifted = edge_shift_corridor(mesh, corridor, def, &report);
      if (!shifted) return fail(out, PlanStage::smooth, shifted.error().message);
      out.points = std::move(*shifted);
      out.shift_passes = report.passes;
      if (def.passes == 0 && !report.converged)
        out.notes.push_back("edge shift stopped after " + std::to_string(report.passes) +
                            " passes before converging (last move " + std::to_string(report.last_move) + " cells)");
      return true;
    }
    case SmootherId::los: {
      auto cut = los_corridor(mesh, corridor);
      if (!cut) return fail(out, PlanStage::smooth, cut.error().message);
      out.points = std::move(*cut);
      return true;
    }
    default: out.points = corridor_midpoints(corridor); return true;
  }
}

}  // namespace

void plan_navmesh(PlanService::Cache& cache, const Grid& grid, const PlanRequest& request, const SmootherInfo& smoother,
                  PlanResult& out) {
  const io::PlanSettingsData& s = request.settings;
  std::string error;
  MeshEntry* entry = cache.mesh_for(grid, s.agent_radius, s.navmesh_convex, s.navmesh_corners, error);
  if (!entry) return (void)fail(out, PlanStage::preprocess, error);
  NavQueryOptions options = default_nav_query_options();
  options.cost = request.navmesh_cost;
  options.record_trace = request.record_trace;
  options.budget = request.budget;  // expansions, time and the cancel flag
  auto corridor = entry->query->find_corridor(request.start.pos, request.goal.pos, options);
  if (!corridor) return (void)fail(out, PlanStage::search, corridor.error().message);
  out.found = corridor->found;
  out.reason = corridor->reason;
  out.expanded = corridor->expanded;
  out.budget_stop = corridor->budget_stop;
  out.nav_trace = std::move(corridor->trace);
  out.navmesh = entry->mesh;  // shared, not copied: the overlays draw the mesh this plan used
  if (!out.found) return;
  out.start_snapped = corridor->start_snapped;
  out.goal_snapped = corridor->goal_snapped;
  if (request.keep_internals) out.raw_points = corridor_midpoints(*corridor);  // the sandbox's "raw path"
  if (!smooth_corridor(grid, *entry->mesh, *corridor, request, smoother, out)) return;
  const bool exact = smoother.id == SmootherId::turning || smoother.id == SmootherId::vehicle;
  if (!exact || !out.smoother_error.empty()) out.length = polyline_length(out.points);
  if (corridor->start_snapped) out.notes.push_back("the start was moved onto the mesh (too close to a wall for the radius)");
  if (corridor->goal_snapped) out.notes.push_back("the goal was moved onto the mesh (too close to a wall for the radius)");
  if (request.keep_internals) out.nav_corridor = std::move(*corridor);
}

}  // namespace pathlab::plan
