#pragma once
/// @file plan_service.hpp
/// The one planning service of the app: a PlanRequest (grid, start and goal poses, the
/// settings naming a planner and a smoother with their options, a budget) in, a PlanResult
/// (the path, the planner's raw path, traces, corridor, exact curves, length, notes and
/// violations) out. `pathlab-cli plan|simulate|scen` and the sandbox (canvas, stats, compare,
/// overlays, units) all plan through it, so they cannot disagree about what a setting means.
///
/// The service keeps per-map preprocessing between calls (the grid pathfinder's buffers, one
/// navmesh per agent radius and polygon kind, the heading planners' tables) and checks the
/// start and goal against the grid before building any of it. Nothing here draws.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/flow_field.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/heading_path.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "pathlab/search_budget.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/turning_smoother.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::plan {

/// One planning question.
struct PlanRequest {
  Pose start;  ///< heading in radians
  Pose goal;
  /// The turning smoother meets a pose's heading only when it has one (CLI queries "X,Y" have none).
  bool start_has_heading = true;
  bool goal_has_heading = true;
  io::PlanSettingsData settings;  ///< planner, smoother and their options, by name
  NavSearchCost navmesh_cost = NavSearchCost::exact;
  /// Spacing of the points sampled from exact curves (heading planners, the turning smoother,
  /// curve planners). Unset: max(0.05, min(0.25, turning radius / 8)). [Units: cells] [Limit: > 0]
  std::optional<double> curve_step;
  /// Keep the search's history (open/close order, expanded poses). Costs memory on big maps.
  bool record_trace = false;
  /// Keep the small internals the overlays draw: funnel events, spline control points and
  /// tangents. The CLI does not need them.
  bool keep_internals = true;
  /// Measure the result for people (curvature, sharp corners, wall overlaps, turning-radius
  /// violations). The CLI does not need it.
  bool analyse = true;
  /// Limits for the search: expansions, wall-clock time and a cancel flag reach every search
  /// (grid, navmesh, heading; for the heading planners the expansion limit replaces their own
  /// default when set). The time covers the search, not the map's preprocessing.
  SearchBudget budget;
};

/// Where a plan stopped when it could not run.
enum class PlanStage {
  none,        ///< no error
  settings,    ///< an unknown planner or smoother, an option out of range
  query,       ///< start or goal outside the map, inside a wall, not finite
  preprocess,  ///< building the navmesh or a heading planner's tables failed
  search,      ///< the search refused the query
  smooth,      ///< the smoother failed
};

/// What one plan produced.
struct PlanResult {
  bool found = false;
  PlanStage stage = PlanStage::none;
  std::string error;   ///< why planning could not run (core message, no prefix), empty when it ran
  std::string reason;  ///< why no path exists, or empty
  std::optional<HeadingFailure> heading_failure;  ///< heading planners: the failure kind
  /// Which limit of the request's budget stopped the search (found is then false), else none.
  BudgetStop budget_stop = BudgetStop::none;
  /// The budget stopped the search and `points` hold the best partial path: from the start to
  /// the expanded state closest to the goal by the planner's heuristic. Heading planners only;
  /// the grid and navmesh searches keep no partial path (points stay empty).
  bool partial = false;
  PlannerFamily family = PlannerFamily::grid;

  std::vector<Vec2> points;      ///< the final path [cells]
  std::vector<double> headings;  ///< per point of a sampled curve, radians; empty for polylines
  std::vector<double> curvature; ///< per point, signed [1/cells] (exact on curves; estimated when analysed)
  std::vector<Vec2> raw_points;  ///< the planner's waypoints before smoothing (navmesh: keep_internals only)
  std::vector<TraceEvent> trace;
  std::vector<NavTraceEvent> nav_trace;
  std::vector<Pose> pose_trace;
  std::optional<SegmentPath> segments;  ///< heading, curve planners and a one-piece turning path: exact curve
  std::string word;                     ///< curve planners: "LSL", "L+R-L+", ...
  double length = 0.0;                  ///< [cells]
  int64_t expanded = 0;
  double time_ms = 0.0;  ///< search + smoothing, not the analysis; preprocessing included
  double preprocess_ms = 0.0;  ///< of time_ms: building what the service keeps (navmesh, tables, buffers)
  std::optional<bool> start_snapped, goal_snapped;  ///< navmesh: an end moved out of the radius band
  std::vector<TurnReport> turns;  ///< turning smoother: how each corner was made
  std::optional<int> shift_passes;  ///< edge-shift smoother: passes run (until converged by default)
  std::string smoother_error;     ///< turning smoother: why the path could not be made drivable (raw path kept)
  /// Distance along an exact curve where the unit's disc first overlaps a wall (to 1/16 cell,
  /// never past the place) [cells]. Set by the curve planners always, and by the analysis
  /// (analyse only) for every other exact curve (heading planners, a one-piece turning path),
  /// with the same referee (check_swept_path).
  std::optional<double> curve_blocked_at;

  // Internals for the overlays (keep_internals; the navmesh pointer always).
  std::shared_ptr<const Navmesh> navmesh;  ///< the mesh a navmesh plan used
  std::optional<NavSearchResult> nav_corridor;
  std::optional<FunnelResult> funnel;
  std::vector<Vec2> spline_controls, spline_tangents;

  // Analysis (analyse only).
  double max_curvature = 0.0;
  bool curvature_exact = false;
  int sharp_corners = 0;
  int blocked_segment = -1;
  std::vector<std::string> violations;
  std::vector<std::string> notes;
};

/// How much tighter than 1 / turning radius an exact curve may turn before it counts as
/// "tighter than the turning radius" (relative; covers rounding in the curves' sampling).
inline constexpr double kTurningRadiusTolerance = 1e-6;

/// Plans requests on one grid at a time; keeps the preprocessing for it until map_changed()
/// or another grid.
class PlanService {
 public:
  PlanService();
  ~PlanService();
  PlanService(const PlanService&) = delete;
  PlanService& operator=(const PlanService&) = delete;

  PlanResult plan(const Grid& grid, const PlanRequest& request);
  /// The grid was edited in place (or will be another one): forget the cached preprocessing.
  /// The grid planners' pathfinder is kept and, on the next grid plan, mends its preprocessing
  /// where the map changed (GridPathfinder::refresh: one pass over the costs to find the
  /// changed cells, then the cost of the edit), so painting does not rebuild JPS's tables.
  /// So are the navmeshes (Navmesh::update), the heading planners' clearance tables and goal
  /// distance field (HybridAStar / DirectionalAStar::edited) and the clearance field
  /// (ClearanceField::update), on their next use.
  void map_changed();
  /// The navmesh for `grid` with these settings, built (and kept) if needed; null when the
  /// build fails. For drawing the mesh when the planner is not the navmesh.
  /// `corners`: NavmeshDef::corners_only (then `convex` is not used).
  std::shared_ptr<const Navmesh> navmesh(const Grid& grid, double agent_radius, bool convex, bool corners = false);
  /// A route for one unit of a group bound for the cell of `field_goal`, read from the
  /// group's flow field (flow_field.hpp: one distance field from that cell, kept for the whole
  /// group while `grid` stays the same) instead of a search: the way downhill from
  /// request.start.pos, string pulled by line of sight with request.settings.agent_radius, to
  /// request.goal.pos when it is in sight near the end (else the goal cell's centre). Only
  /// for settings flow_field_reproduces() accepts (they would plan the same routes, but
  /// for ties between equally short ways). Errors: other settings, no way from the start.
  Result<std::vector<Vec2>> flow_field_route(const Grid& grid, const PlanRequest& request, Vec2 field_goal);

  struct Cache;  // per-map preprocessing (plan_service.cpp)

 private:
  std::unique_ptr<Cache> cache_;
};

/// Whether a group's flow field plans the routes these settings plan: a grid A* or Dijkstra,
/// 8-connected with no turn penalty (the field's octile costs: no corner cutting, terrain
/// costs, the agent radius's clearance, as GridPlanner::dijkstra) smoothed by line of sight
/// ("los": the field's route is string pulled the same way). JPS and Theta* (other ties, any
/// angle), other smoothers (curves), other families and penalties: no.
bool flow_field_reproduces(const io::PlanSettingsData& settings);

/// The route PlanService::flow_field_route reads, down a field given by the caller (a crowd's
/// own group field: CrowdRouteQuery::group_field) instead of the service's. Errors: settings
/// flow_field_reproduces() refuses, no way down the field from request.start.pos.
Result<std::vector<Vec2>> flow_field_route_on(const FlowField& field, const Grid& grid, const PlanRequest& request);

/// The navmesh the planning service plans on for these settings (tiled, so edits mend only
/// the tiles they touch): the sandbox's mesh overlay builds the same one, so it draws the
/// polygons the planner searched.
NavmeshDef service_navmesh_def(double agent_radius, bool convex, bool corners);

/// Checks the settings against the registry (names, and that the smoother follows the
/// planner). Returns "" or a message naming the setting.
std::string check_settings(const io::PlanSettingsData& settings);

/// Brings a settings block to something the service accepts: an unknown smoother for the
/// planner becomes its default, connectivity 8 where the planner needs it. Returns a note for
/// people when it changed something, else empty.
std::string normalize_settings(io::PlanSettingsData& settings);

/// Signed discrete curvature at each point of a polyline: 1/radius of the circle through a
/// point and its two neighbours (0 at the ends and on straight runs). [1/cells]
std::vector<double> polyline_curvature(const std::vector<Vec2>& pts);

/// Checks the start and goal against the grid the way `family`'s search would, in its words
/// and order, without building anything: "start (x,y) is outside the WxH map", "start cell
/// (x,y) is inside a wall", "start (x, y, deg deg): the unit's disc overlaps a wall", not
/// finite. Returns "" when both are usable.
std::string check_query_ends(const Grid& grid, PlannerFamily family, PlannerId planner, const Pose& start,
                             const Pose& goal);

}  // namespace pathlab::plan
