// The planning service: checks a request, dispatches it to its planner family and measures
// the result. The family steps live in plan_grid.cpp, plan_navmesh.cpp and plan_curves.cpp.

#include "pathlab/plan/plan_service.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "pathlab/collision.hpp"
#include "plan_internal.hpp"

namespace pathlab::plan {
namespace {

/// Navmeshes kept per service: a few unit sizes; more are rebuilt on demand.
constexpr size_t kMaxCachedMeshes = 4;

std::string point_text(const char* what, Vec2 p) {
  return std::string(what) + " (" + std::to_string(p.x) + "," + std::to_string(p.y) + ")";
}

std::string pose_text_deg(const Pose& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%g, %g, %g deg)", p.pos.x, p.pos.y, rad_to_deg(p.heading));
  return buf;
}

std::string map_size(const Grid& grid) { return std::to_string(grid.width()) + "x" + std::to_string(grid.height()); }

/// Heading planners: the same checks and words as the core's searches (heading_common.cpp,
/// directional_astar.cpp, hybrid_astar.cpp), made before their tables are built. Like them,
/// both poses are checked against the map's bounds before either against the walls.
std::string check_heading_pose(const Grid& grid, const Pose& pose, const char* what) {
  if (!is_finite(pose.pos) || !std::isfinite(pose.heading)) return std::string(what) + " pose is not finite";
  if (!grid.contains(pose.pos) || pose.pos.x >= grid.width() || pose.pos.y >= grid.height())
    return std::string(what) + " " + pose_text_deg(pose) + " is outside the " + map_size(grid) + " map";
  return "";
}

std::string check_heading_wall(const Grid& grid, PlannerId planner, const Pose& pose, const char* what) {
  if (point_clear(grid, pose.pos, 0.0)) return "";
  // Directional A* plans from its lattice pose: the cell centre and the nearest 45 degrees.
  Pose used = pose;
  if (planner == PlannerId::directional)
    used = Pose{cell_center(cell_of(pose.pos)), DirectionalAStar::heading_index(pose.heading) * (kPi / 4)};
  return std::string(what) + " " + pose_text_deg(used) + ": the unit's disc overlaps a wall";
}

/// Grid and navmesh searches check one end fully, then the other.
std::string check_point_end(const Grid& grid, PlannerFamily family, const Pose& pose, const char* what) {
  if (!is_finite(pose.pos)) return std::string(what) + " is not a finite point";
  // Grid planners take the cell that contains the point, so the far edges are outside too.
  const bool far_edge = family == PlannerFamily::grid && (pose.pos.x >= grid.width() || pose.pos.y >= grid.height());
  if (!grid.contains(pose.pos) || far_edge)
    return point_text(what, pose.pos) + " is outside the " + map_size(grid) + " map";
  if (family == PlannerFamily::grid) {
    const Cell c = cell_of(pose.pos);
    if (grid.is_free(c)) return "";
    return std::string(what) + " cell (" + std::to_string(c.x) + "," + std::to_string(c.y) + ") is inside a wall";
  }
  return point_clear(grid, pose.pos, 0.0) ? "" : point_text(what, pose.pos) + " is inside a wall";
}

}  // namespace

std::string check_query_ends(const Grid& grid, PlannerFamily family, PlannerId planner, const Pose& start,
                             const Pose& goal) {
  std::string e;
  switch (family) {
    case PlannerFamily::curve:  // curves ignore the map; their poses only need to be numbers
      for (const auto& [pose, what] : {std::pair{&start, "start"}, std::pair{&goal, "goal"}})
        if (!is_finite(pose->pos) || !std::isfinite(pose->heading)) return std::string(what) + " pose is not finite";
      return "";
    case PlannerFamily::heading:
      if (!(e = check_heading_pose(grid, start, "start")).empty() || !(e = check_heading_pose(grid, goal, "goal")).empty())
        return e;
      if (!(e = check_heading_wall(grid, planner, start, "start")).empty()) return e;
      return check_heading_wall(grid, planner, goal, "goal");
    case PlannerFamily::grid:
    case PlannerFamily::navmesh:
      if (!(e = check_point_end(grid, family, start, "start")).empty()) return e;
      return check_point_end(grid, family, goal, "goal");
  }
  return e;
}

void PlanService::Cache::edited() {
  finder_stale = true;  // a paint stroke costs the cells it touched, not a rebuild (issue 28)
  meshes_edited = !meshes.empty();  // so do the meshes' tiles
  heading_fields_stale = true;              // and the heading planners' fields and the clearance field
}

void PlanService::Cache::mend_fields(const Grid& g) {
  if (heading_fields_grid && !heading_fields_stale) return;
  heading_fields_stale = false;
  const bool same_size = heading_fields_grid && heading_fields_grid->width() == g.width() && heading_fields_grid->height() == g.height();
  const std::optional<CellRect> changed = same_size ? changed_cells(*heading_fields_grid, g) : std::nullopt;
  if (!same_size) {  // a first use, or a map of another size: nothing to mend
    directional.reset();
    hybrid.reset();
    heading_key.clear();
    clearance.reset();
  } else if (changed || heading_grid != &g) {
    const auto t0 = std::chrono::steady_clock::now();
    // The planners keep a pointer to their grid, which may be gone when `g` is another object
    // (the sandbox's worker plans on a copy per request): edited() moves them to `g`; with no
    // cell changed it mends one cell's window, a no-op, only to move them.
    const CellRect rect = changed ? *changed : CellRect{Cell{0, 0}, Cell{0, 0}};
    if ((directional && !directional->edited(g, rect).ok()) || (hybrid && !hybrid->edited(g, rect).ok())) {
      directional.reset();
      hybrid.reset();
      heading_key.clear();
    }
    heading_grid = &g;
    if (changed && clearance && !clearance->update(g, *changed).ok()) clearance.reset();
    add_preprocess_time(*this, t0);
  }
  if (same_size) *heading_fields_grid = g;
  else heading_fields_grid = std::make_unique<Grid>(g);
}

void PlanService::Cache::mend_meshes(const Grid& g) {
  meshes_edited = false;
  const auto t0 = std::chrono::steady_clock::now();
  for (auto it = meshes.begin(); it != meshes.end();) {
    MeshEntry& e = it->second;
    const Grid& built_for = e.mesh->grid();
    if (built_for.width() != g.width() || built_for.height() != g.height()) {
      it = meshes.erase(it);
      continue;
    }
    const std::optional<CellRect> changed = changed_cells(built_for, g);
    if (!changed) {
      ++it;
      continue;
    }
    // A plan result may still hold the mesh (and index its polygons): mend a copy then, which
    // shares the tiles the edit does not reach with it (Navmesh::updated: no whole-mesh copy).
    if (e.mesh.use_count() > 1) {
      Result<Navmesh> mended = e.mesh->updated(g, *changed);
      if (!mended) {
        it = meshes.erase(it);
        continue;
      }
      e.mesh = std::make_shared<Navmesh>(std::move(*mended));
    } else if (!e.mesh->update(g, *changed).ok()) {
      it = meshes.erase(it);
      continue;
    }
    e.query->reset(*e.mesh);
    ++it;
  }
  add_preprocess_time(*this, t0);
}

const ClearanceField& PlanService::Cache::clearance_for(const Grid& g) {
  mend_fields(g);
  if (!clearance || !clearance->fits(g)) {
    const auto t0 = std::chrono::steady_clock::now();
    clearance = std::make_unique<ClearanceField>(g);
    add_preprocess_time(*this, t0);
  }
  return *clearance;
}

void PlanService::Cache::bind(const Grid& g) {
  if (grid == &g) return;
  // Another grid object: the sandbox's worker plans on a copy of the scene's map, so treat it
  // as an edit; the pathfinder and the meshes compare it with their own copies and mend what
  // differs (a mesh for another size is dropped).
  edited();
  grid = &g;
}

MeshEntry* PlanService::Cache::mesh_for(const Grid& g, double agent_radius, bool convex, bool corners,
                                        std::string& error) {
  bind(g);
  if (meshes_edited) mend_meshes(g);
  const auto key = std::make_pair(agent_radius, corners ? 2 : (convex ? 1 : 0));
  if (auto it = meshes.find(key); it != meshes.end()) return &it->second;
  const auto t0 = std::chrono::steady_clock::now();
  auto built = Navmesh::build(g, service_navmesh_def(agent_radius, convex, corners));
  if (!built) {
    error = built.error().message;
    return nullptr;
  }
  if (meshes.size() >= kMaxCachedMeshes) meshes.clear();
  MeshEntry entry;
  entry.mesh = std::make_shared<Navmesh>(std::move(*built));
  entry.query = std::make_unique<NavmeshQuery>(*entry.mesh);
  add_preprocess_time(*this, t0);
  return &meshes.emplace(key, std::move(entry)).first->second;
}

void add_preprocess_time(PlanService::Cache& cache, std::chrono::steady_clock::time_point t0) {
  cache.preprocess_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double curve_step_of(const PlanRequest& request) {
  if (request.curve_step) return *request.curve_step;
  return std::max(0.05, std::min(0.25, request.settings.turning_radius / 8.0));
}

PlanService::PlanService() : cache_(std::make_unique<Cache>()) {}
PlanService::~PlanService() = default;

void PlanService::map_changed() { cache_->edited(); }

std::shared_ptr<const Navmesh> PlanService::navmesh(const Grid& grid, double agent_radius, bool convex, bool corners) {
  std::string error;
  MeshEntry* entry = cache_->mesh_for(grid, agent_radius, convex, corners, error);
  return entry ? entry->mesh : nullptr;
}

std::string check_settings(const io::PlanSettingsData& s) {
  const PlannerInfo* planner = find_planner(s.planner);
  if (!planner) return "unknown planner '" + s.planner + "'";
  if (!find_smoother(s.smoother, planner->family))
    return "smoother '" + s.smoother + "' does not follow the " + s.planner + " planner (" +
           smoother_list(planner->family) + ")";
  return "";
}

PlanResult PlanService::plan(const Grid& grid, const PlanRequest& request) {
  PlanResult out;
  if (std::string e = check_settings(request.settings); !e.empty()) return fail(out, PlanStage::settings, e), out;
  const PlannerInfo& planner = *find_planner(request.settings.planner);
  const SmootherInfo& smoother = *find_smoother(request.settings.smoother, planner.family);
  out.family = planner.family;
  // The ends first: a bad start must not wait for a navmesh or a table of a huge map.
  if (std::string e = check_query_ends(grid, planner.family, planner.id, request.start, request.goal); !e.empty())
    return fail(out, PlanStage::query, e), out;
  cache_->bind(grid);
  cache_->preprocess_ms = 0.0;
  const auto t0 = std::chrono::steady_clock::now();
  switch (planner.family) {
    case PlannerFamily::grid: plan_grid(*cache_, grid, request, planner, smoother, out); break;
    case PlannerFamily::navmesh: plan_navmesh(*cache_, grid, request, smoother, out); break;
    case PlannerFamily::heading: plan_heading(*cache_, grid, request, planner, out); break;
    case PlannerFamily::curve: plan_curve(grid, request, planner, out); break;
  }
  out.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out.preprocess_ms = cache_->preprocess_ms;
  if (out.found && out.error.empty() && request.analyse) analyse_result(grid, request, out);
  return out;
}

NavmeshDef service_navmesh_def(double agent_radius, bool convex, bool corners) {
  NavmeshDef def = default_navmesh_def();
  def.agent_radius = agent_radius;
  def.merge_convex = convex;
  def.corners_only = corners;
  def.tile_size = kDefaultNavTileSize;
  def.tile_threads = kDefaultNavTileThreads;
  return def;
}

std::string normalize_settings(io::PlanSettingsData& s) {
  std::string note;
  const PlannerInfo* planner = find_planner(s.planner);
  if (!planner) {
    note = "unknown planner '" + s.planner + "', using " + planner_name(PlannerId::astar);
    s.planner = planner_name(PlannerId::astar);
    planner = &planner_info(PlannerId::astar);
  }
  const auto smoothers = smoothers_for(planner->family);
  if (!find_smoother(s.smoother, planner->family)) {
    if (s.smoother != smoother_name(SmootherId::none))
      note += (note.empty() ? "" : "; ") + std::string("smoother '") + s.smoother + "' does not apply to " + s.planner +
              ", using " + smoothers.front().name;
    s.smoother = smoothers.front().name;
  }
  // Only the grid planners with the connectivity option search 4-connected grids.
  if (planner->family == PlannerFamily::grid && (planner->options & option_bit(OptionId::connectivity)) == 0)
    s.connectivity = 8;
  return note;
}

}  // namespace pathlab::plan
