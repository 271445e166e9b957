// `plan --planner navmesh`: the mesh is built once per map for the agent radius, then each
// query searches a corridor and turns it into a path with the chosen corridor smoother.

#include <string>

#include "pathlab/edge_shift.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "planning.hpp"

namespace pathlab::cli {

class NavmeshPlanner {
 public:
  NavmeshPlanner(Navmesh m, PlanSettings s) : mesh(std::move(m)), query(mesh), settings(std::move(s)) {}
  Navmesh mesh;
  NavmeshQuery query;  // refers to `mesh`: the planner is never copied or moved
  PlanSettings settings;
  NavmeshPlanner(const NavmeshPlanner&) = delete;
  NavmeshPlanner& operator=(const NavmeshPlanner&) = delete;
};

namespace {
constexpr const char* kNavmeshSmoothers = "funnel, edge-shift, los, none";
}

void read_navmesh_settings(Args& args, PlanSettings& s) {
  if (!args.str("smoother")) s.smoother = "funnel";
  if (s.smoother != "funnel" && s.smoother != "edge-shift" && s.smoother != "los" && s.smoother != "none") {
    throw UsageError("--smoother: unknown smoother '" + s.smoother + "' for the navmesh planner (" + kNavmeshSmoothers + ")");
  }
  s.shift_margin = args.number("shift-margin");
  s.shift_passes = args.integer("shift-passes");
  if ((s.shift_margin || s.shift_passes) && s.smoother != "edge-shift") {
    throw UsageError("--shift-margin and --shift-passes are used by --smoother edge-shift only");
  }
  if (s.shift_margin && !(*s.shift_margin >= 0)) throw UsageError("--shift-margin must be >= 0");
  if (s.shift_passes && (*s.shift_passes < 0 || *s.shift_passes > 64)) throw UsageError("--shift-passes must be in [0, 64]");
  if (auto c = args.str("navmesh-polygons")) s.navmesh_polygons = *c;
  if (s.navmesh_polygons != "convex" && s.navmesh_polygons != "rectangles") {
    throw UsageError("--navmesh-polygons: unknown mesh kind '" + s.navmesh_polygons + "' (convex, rectangles)");
  }
  if (auto c = args.str("navmesh-cost")) s.navmesh_cost = *c;
  if (s.navmesh_cost != "exact" && s.navmesh_cost != "portal-points") {
    throw UsageError("--navmesh-cost: unknown cost model '" + s.navmesh_cost + "' (exact, portal-points)");
  }
  if (s.subdivisions) throw UsageError("--subdivisions is used by spline smoothers only");
  if (s.search.turn_penalty != 0.0) throw UsageError("--turn-penalty is used by grid planners only");
}

std::shared_ptr<NavmeshPlanner> make_navmesh_planner(const Grid& grid, const PlanSettings& settings) {
  NavmeshDef def = default_navmesh_def();
  def.agent_radius = settings.search.agent_radius;
  def.merge_convex = settings.navmesh_polygons == "convex";
  auto mesh = Navmesh::build(grid, def);
  if (!mesh) throw UsageError("navmesh: " + mesh.error().message);
  return std::make_shared<NavmeshPlanner>(std::move(*mesh), settings);
}

PlanOutcome plan_navmesh(NavmeshPlanner& p, const PlanQuery& q, const std::string& where) {
  NavQueryOptions options = default_nav_query_options();
  options.cost = p.settings.navmesh_cost == "portal-points" ? NavSearchCost::portal_points : NavSearchCost::exact;
  auto r = p.query.find_corridor(q.from.pos, q.to.pos, options);
  if (!r) throw UsageError(where + r.error().message);
  PlanOutcome out;
  out.found = r->found;
  out.reason = r->reason;
  out.expanded = r->expanded;
  if (!r->found) return out;
  out.start_snapped = r->start_snapped;
  out.goal_snapped = r->goal_snapped;
  const std::string& sm = p.settings.smoother;
  if (sm == "funnel") {
    auto f = funnel_corridor(*r);
    if (!f) throw UsageError(where + f.error().message);
    out.points = std::move(f->points);
  } else if (sm == "edge-shift") {
    EdgeShiftDef def = default_edge_shift_def();
    if (p.settings.shift_margin) def.margin = *p.settings.shift_margin;
    if (p.settings.shift_passes) def.passes = static_cast<int>(*p.settings.shift_passes);
    auto e = edge_shift_corridor(p.mesh, *r, def);
    if (!e) throw UsageError(where + e.error().message);
    out.points = std::move(*e);
  } else if (sm == "los") {
    auto l = los_corridor(p.mesh, *r);
    if (!l) throw UsageError(where + l.error().message);
    out.points = std::move(*l);
  } else {
    out.points = corridor_midpoints(*r);
  }
  out.length = polyline_length(out.points);
  return out;
}

}  // namespace pathlab::cli
