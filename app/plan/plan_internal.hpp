#pragma once
// Inside the planning service: the per-map cache and one step per planner family. Each family
// function fills a PlanResult for a request whose settings and ends were already checked.

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/flow_field.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/plan/plan_service.hpp"

namespace pathlab::plan {

/// A navmesh and the query object that searches it (the query refers to the mesh).
struct MeshEntry {
  std::shared_ptr<Navmesh> mesh;
  std::unique_ptr<NavmeshQuery> query;
};

struct PlanService::Cache {
  const Grid* grid = nullptr;
  std::unique_ptr<GridPathfinder> finder;  // built on the first grid plan
  /// The grid was edited (or is another object) since `finder` last planned: it compares the
  /// grid with its copy and mends what changed (GridPathfinder::refresh) instead of rebuilding.
  bool finder_stale = false;
  /// Navmeshes by (agent radius, mesh kind: 0 rectangles, 1 convex, 2 wall corners): units of
  /// different sizes share one service. Built tiled (kDefaultNavTileSize), so that an edit
  /// mends them where the map changed (Navmesh::update, issue 28) instead of rebuilding.
  std::map<std::pair<double, int>, MeshEntry> meshes;
  /// The grid was edited since the meshes were built or mended: the next mesh_for() compares
  /// each mesh's copy of the grid with the grid and updates the tiles the changes reach.
  bool meshes_edited = false;
  // Heading-aware planners precompute tables for their options and the grid; kept while
  // neither changes (the key is the options as text).
  std::unique_ptr<DirectionalAStar> directional;
  std::unique_ptr<HybridAStar> hybrid;
  std::string heading_key;
  const Grid* heading_grid = nullptr;  ///< the grid object the heading planner plans on
  /// The map's clearance field (collision.hpp) for the vehicle smoother's checks: it does not
  /// depend on the agent radius, so one per map serves every unit; built on first use.
  std::unique_ptr<ClearanceField> clearance;
  /// A copy of the grid the heading planners' tables and the clearance field describe, and
  /// whether the grid was edited since (mend_fields() then mends them where it changed).
  std::unique_ptr<Grid> heading_fields_grid;
  bool heading_fields_stale = false;
  double preprocess_ms = 0.0;  ///< time spent building during the current plan [ms]

  /// The clearance field of `g`, built (and its time counted as preprocessing) when missing.
  const ClearanceField& clearance_for(const Grid& g);
  /// After an edit: the heading planner's clearance tables and goal distance field and the
  /// clearance field are mended where `g` differs from heading_fields_grid (DirectionalAStar::edited,
  /// HybridAStar::edited, ClearanceField::update), or dropped for a map of another size.
  void mend_fields(const Grid& g);
  /// When `g` is not the grid the cache last saw: edited() (the grid pathfinder and the meshes
  /// are kept and mended: their buffers serve a map of the same size).
  void bind(const Grid& g);
  /// The grid was edited, or is another object: the grid pathfinder, the meshes, the heading
  /// planners' tables and the clearance field mend themselves on their next use.
  void edited();
  /// Updates every cached mesh to `g` where its cells changed (a copy when a plan result still
  /// holds the mesh); a mesh that cannot be updated is dropped, to be rebuilt.
  void mend_meshes(const Grid& g);
  /// The mesh for the radius and kind, built when missing; sets `error` when the build fails.
  MeshEntry* mesh_for(const Grid& g, double agent_radius, bool convex, bool corners, std::string& error);

  /// Flow fields of groups (PlanService::flow_field_route) by goal cell and clearance, on
  /// `fields_grid`. Not dropped by clear(): the unit routing calls map_changed() for every new
  /// traffic grid, while the fields are built on the grid without traffic and kept until it
  /// differs (a door, an edit).
  struct FieldEntry {
    Cell goal;
    double radius = 0.0;
    FlowField field;
  };
  std::vector<FieldEntry> fields;
  Grid fields_grid;
  /// The field towards `goal` for `radius` on `g`, built when missing; null with `error` set
  /// when it cannot be built.
  const FlowField* field_for(const Grid& g, Cell goal, double radius, std::string& error);
};

/// "(x, y)" with `decimals` digits after the point, for messages. [Limit: decimals 0..6]
std::string point_text(Vec2 p, int decimals = 1);

/// Adds the time since `t0` to the cache's preprocessing time of the current plan.
void add_preprocess_time(PlanService::Cache& cache, std::chrono::steady_clock::time_point t0);

/// The step of the request that samples exact curves. [Units: cells]
double curve_step_of(const PlanRequest& request);

void plan_grid(PlanService::Cache& cache, const Grid& grid, const PlanRequest& request, const PlannerInfo& planner,
               const SmootherInfo& smoother, PlanResult& out);
void plan_navmesh(PlanService::Cache& cache, const Grid& grid, const PlanRequest& request, const SmootherInfo& smoother,
                  PlanResult& out);
void plan_heading(PlanService::Cache& cache, const Grid& grid, const PlanRequest& request, const PlannerInfo& planner,
                  PlanResult& out);
void plan_curve(const Grid& grid, const PlanRequest& request, const PlannerInfo& planner, PlanResult& out);

/// Rounds the path's corners for the turning radius (the turning smoother); with `vehicle`
/// the vehicle smoother (pose_smoother.hpp) then shortcuts each drivable piece.
void apply_turning_smoother(const Grid& grid, const PlanRequest& request, PlanResult& out, bool vehicle = false);
/// Appends the samples of `path` to out.points/headings/curvature, skipping a sample equal to
/// the last one there (pieces share their joints). Returns "" or the sampling error.
std::string append_curve_samples(const SegmentPath& path, double step, PlanResult& out);

/// Where along `path` the disc of `agent_radius` first overlaps a wall, from `from` (the start of
/// the piece check_swept_path() found blocked) to within 1/16 cell; `from` when no shorter step
/// is blocked. [Units: cells]
double refine_blocked_at(const Grid& grid, const SegmentPath& path, double from, double agent_radius);

/// Measures a found path for people: curvature, sharp corners, wall overlaps, turning-radius
/// violations (analyse only).
void analyse_result(const Grid& grid, const PlanRequest& request, PlanResult& out);

/// Sets the error of a plan that could not run and returns false (for `return fail(...)`).
inline bool fail(PlanResult& out, PlanStage stage, std::string message) {
  out.stage = stage;
  out.error = std::move(message);
  return false;
}

}  // namespace pathlab::plan
