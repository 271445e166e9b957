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

/// What one plan produced, for drawing, the stats panel and comparisons: the service's result
/// as it came (the CLI prints the same fields the canvas shows), plus the little the sandbox
/// adds to it.
struct PlanView {
  plan::PlanResult result;  ///< path, traces, exact curves, analysis and the overlays' internals
  bool valid = false;       ///< a plan was attempted with the current inputs
  /// Why planning could not run, in the sandbox's words: result.error with where it stopped
  /// ("navmesh: ...", "smoother: "), an unknown name, the shut doors it met; empty when it ran.
  std::string error;
  int plans = 0;  ///< how many plans the owner ran (the inspector refreshes on it; tests use it)
};

/// The polygons of a navmesh plan's corridor, each as its ring of corners [cells]; empty for
/// other plans. For drawing and counting; computed from the mesh the plan searched.
std::vector<std::vector<Vec2>> corridor_rings(const plan::PlanResult& result);

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

/// The sandbox's view of a service result: the result itself, and its error in the words
/// people see ("navmesh: ...", "smoother: ..."). A result with an error is never found.
PlanView to_plan_view(plan::PlanResult result, const io::PlanSettingsData& settings);

/// Signed discrete curvature at each point of a polyline: 1/radius of the circle through a
/// point and its two neighbours (0 at the ends and on straight runs). [1/cells]
inline std::vector<double> polyline_curvature(const std::vector<Vec2>& pts) { return plan::polyline_curvature(pts); }

}  // namespace pathlab::sandbox
