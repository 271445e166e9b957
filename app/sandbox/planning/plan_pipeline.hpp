#pragma once
// The one place where the sandbox turns "scene + settings" into a result: it picks the core
// planner and smoother the settings name, runs them, and measures the result (length,
// curvature, collisions, turning-radius violations). The canvas, the stats panel and compare
// mode all go through PlanPipeline::plan(), so they can never disagree about what a setting
// means. Nothing here draws.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/grid_search.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "pathlab/segment_path.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

/// A planner or smoother as the UI lists it: the name stored in scene files and the CLI, and
/// a one-line explanation for the help marker. Both come from the registry (app/plan).
struct MethodInfo {
  const char* name;
  const char* help;
};

enum class PlannerFamily { grid, navmesh, heading, curve, unknown };

/// Every planner the sandbox offers, in menu order.
const std::vector<MethodInfo>& planner_methods();
/// The smoothers that make sense after `planner` (the first is the default).
const std::vector<MethodInfo>& smoother_methods(const std::string& planner);
PlannerFamily planner_family(const std::string& planner);
bool is_spline_smoother(const std::string& smoother);
/// Brings a settings block to something the pipeline accepts: an unknown smoother for the
/// planner becomes its default, connectivity 8 where the planner needs it. Returns a note for
/// people when it changed something, else empty.
std::string normalize_settings(io::PlanSettingsData& s);

/// What one plan produced, for drawing, the stats panel and comparisons.
struct PlanView {
  bool valid = false;        ///< a plan was attempted with the current inputs
  bool found = false;
  std::string error;         ///< why planning could not run (bad start/goal, bad option), or empty
  std::string reason;        ///< why no path exists, or empty
  std::vector<Vec2> points;  ///< the final path, world coordinates [cells]
  std::vector<Vec2> raw_points;  ///< the planner's waypoints before smoothing
  std::vector<TraceEvent> trace;  ///< grid search open/close order
  std::vector<NavTraceEvent> nav_trace;
  std::vector<Pose> pose_trace;  ///< heading-aware searches: expanded poses in order
  std::vector<std::vector<Vec2>> corridor;  ///< navmesh: the rings of the corridor's polygons
  std::optional<SegmentPath> segments;      ///< heading-aware and curve planners: exact lines and arcs
  std::string word;                         ///< curve planners: "LSL", "L+R-L+", ...
  std::vector<double> curvature;            ///< signed, per point of `points` [1/cells]
  double length = 0.0;                      ///< [cells]
  double max_curvature = 0.0;               ///< largest |curvature| [1/cells]
  bool curvature_exact = false;  ///< from the curve itself; otherwise a 3-point circle estimate
  int sharp_corners = 0;         ///< polyline corners turning by more than 30 degrees
  int64_t expanded = 0;
  double time_ms = 0.0;          ///< search + smoothing, not the analysis
  std::vector<std::string> violations;  ///< human-readable, empty when the path is fine
  std::vector<std::string> notes;       ///< worth knowing but not wrong (repairs, snapped ends)
  int blocked_segment = -1;      ///< first segment of `points` that overlaps a wall, or -1
  int plans = 0;                 ///< how many plans the owner ran (tests use it)
  std::vector<double> headings;  ///< per point of a sampled curve [radians]; empty for polylines
  std::vector<TurnReport> turns; ///< turning smoother: how each corner was made
  // What the overlays draw, from the plan itself (never recomputed).
  std::shared_ptr<const Navmesh> navmesh;        ///< navmesh plans: the mesh searched
  std::optional<NavSearchResult> nav_corridor;   ///< navmesh plans: the corridor with its portals
  std::optional<FunnelResult> funnel;            ///< funnel smoother with record_trace: its events
  std::vector<Vec2> spline_controls, spline_tangents;  ///< spline smoothers with record_trace
};

/// Plans scenes through the planning service (app/plan), which keeps the per-map
/// preprocessing (the grid pathfinder's buffers, the navmesh per agent radius) between calls;
/// call map_changed() after editing the grid. One pipeline per grid: compare mode can run
/// several settings on one scene with one pipeline, or give each column its own.
class PlanPipeline {
 public:
  PlanPipeline();
  ~PlanPipeline();
  PlanPipeline(const PlanPipeline&) = delete;
  PlanPipeline& operator=(const PlanPipeline&) = delete;

  /// Plans scene.start -> scene.goal with scene.settings. `record_trace` keeps the search's
  /// history for the overlay (costs memory on big maps).
  /// `budget` bounds the search (a worker thread passes its cancel flag and time limit).
  PlanView plan(const io::Scene& scene, bool record_trace = true, const SearchBudget& budget = {}) {
    return plan(scene.grid, scene.start, scene.goal, scene.settings, record_trace, budget);
  }
  /// The same for any start and goal on `grid` (units re-plan from where they stand).
  PlanView plan(const Grid& grid, const Pose& start, const Pose& goal, const io::PlanSettingsData& settings,
                bool record_trace = true, const SearchBudget& budget = {});
  /// Forget cached preprocessing (the grid was edited).
  void map_changed();
  /// The navmesh of the last navmesh plan (null when none): for drawing the mesh.
  const Navmesh* navmesh() const { return last_navmesh_.get(); }
  /// The service itself (units and overlays ask it for meshes of other radii).
  plan::PlanService& service() { return service_; }

 private:
  plan::PlanService service_;
  std::shared_ptr<const Navmesh> last_navmesh_;
};

/// The sandbox's view of a service result: the error with the words people see
/// ("navmesh: ...", "smoother: ...") and every field the canvas, stats and overlays read.
PlanView to_plan_view(plan::PlanResult result, const io::PlanSettingsData& settings);

/// Signed discrete curvature at each point of a polyline: 1/radius of the circle through a
/// point and its two neighbours (0 at the ends and on straight runs). [1/cells]
inline std::vector<double> polyline_curvature(const std::vector<Vec2>& pts) { return plan::polyline_curvature(pts); }

}  // namespace pathlab::sandbox
