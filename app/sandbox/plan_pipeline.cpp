#include "plan_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "pathlab/arc_length.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/edge_shift.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/shortcut.hpp"
#include "pathlab/spline_smoother.hpp"
#include "pathlab/swept_check.hpp"
#include "pathlab/turn_to_point.hpp"
#include "pathlab/turning_smoother.hpp"

namespace pathlab::sandbox {
namespace {

const std::vector<MethodInfo> kPlanners = {
    {"astar", "A*: optimal on the grid, 4- or 8-connected, honours terrain cost and the turn penalty."},
    {"dijkstra", "Dijkstra: the same paths as A* without a heuristic; expands far more (the reference)."},
    {"jps", "Jump point search: A*'s lengths with far fewer expansions; 8-connected, treats terrain as cost 1."},
    {"theta", "Theta*: any-angle paths between cell centres, never longer than the 8-connected optimum."},
    {"navmesh", "Navmesh: convex polygons shrunk by the agent radius, A* over portals, then a corridor smoother."},
    {"directional", "Directional A* (seed 004): A* over cells x 8 headings with Dubins moves of the turning "
                    "radius; only turns the unit can make, swept clear of walls for the agent radius."},
    {"hybrid", "Hybrid A*: continuous poses binned by cell and heading, arcs of the turning radius, "
               "Dubins/Reeds-Shepp finish; may reverse. Legal for a car, not guaranteed shortest."},
    {"dubins", "Dubins curve straight from start pose to goal pose (forward only, turning radius); "
               "ignores walls, which show up as violations."},
    {"reeds-shepp", "Reeds-Shepp curve from start pose to goal pose, may reverse; ignores walls "
                    "(violations say where it hits one)."},
    {"turn-to-point", "Shortest forward turn-then-go from the start pose to the goal point; the goal heading is free."},
};

const std::vector<MethodInfo> kGridSmoothers = {
    {"none", "The planner's waypoints as they are."},
    {"los", "Line-of-sight shortcuts (seed 002's \"cheating\"): skip waypoints while the straight line is clear."},
    {"catmull-rom", "Uniform Catmull-Rom spline through the waypoints, repaired where it would hit a wall."},
    {"centripetal", "Centripetal Catmull-Rom (alpha 0.5): no loops or cusps; repaired near walls."},
    {"chordal", "Chordal Catmull-Rom (alpha 1): wider curves on long chords; repaired near walls."},
    {"hermite", "Hermite chain with automatic tangents (bisector, shorter chord); repaired near walls."},
    {"turning", "Legal turns (seed 004): every corner rounded by an arc of the turning radius; where none fits, a "
                "smaller radius, a three-point turn or a turn on the spot. Meets the start and goal headings."},
};
const std::vector<MethodInfo> kNavSmoothers = {
    {"funnel", "The exact shortest path inside the corridor (simple stupid funnel)."},
    {"edge-shift", "Seed 002's string pulling: slide each node along the edge it crosses."},
    {"los", "Portal midpoints, skipping nodes while the line stays on the mesh."},
    {"none", "Start, the middle of every portal, goal."},
};
const std::vector<MethodInfo> kNoSmoothers = {{"none", "Curve planners produce the exact curve; nothing to smooth."}};

struct PolylineStats {
  std::vector<double> curvature;
  double max_abs = 0.0;
  int sharp = 0;
};

}  // namespace

const std::vector<MethodInfo>& planner_methods() { return kPlanners; }

PlannerFamily planner_family(const std::string& p) {
  if (p == "astar" || p == "dijkstra" || p == "jps" || p == "theta") return PlannerFamily::grid;
  if (p == "navmesh") return PlannerFamily::navmesh;
  if (p == "directional" || p == "hybrid") return PlannerFamily::heading;
  if (p == "dubins" || p == "reeds-shepp" || p == "turn-to-point") return PlannerFamily::curve;
  return PlannerFamily::unknown;
}

const std::vector<MethodInfo>& smoother_methods(const std::string& planner) {
  switch (planner_family(planner)) {
    case PlannerFamily::navmesh: return kNavSmoothers;
    case PlannerFamily::curve:
    case PlannerFamily::heading: return kNoSmoothers;
    default: return kGridSmoothers;
  }
}

bool is_spline_smoother(const std::string& s) { return parse_spline_method(s).ok(); }

std::string normalize_settings(io::PlanSettingsData& s) {
  std::string note;
  if (planner_family(s.planner) == PlannerFamily::unknown) {
    note = "unknown planner '" + s.planner + "', using astar";
    s.planner = "astar";
  }
  const auto& sm = smoother_methods(s.planner);
  if (std::none_of(sm.begin(), sm.end(), [&](const MethodInfo& m) { return s.smoother == m.name; })) {
    if (s.smoother != "none") note += (note.empty() ? "" : "; ") + std::string("smoother '") + s.smoother +
                                      "' does not apply to " + s.planner + ", using " + sm[0].name;
    s.smoother = sm[0].name;
  }
  if ((s.planner == "jps" || s.planner == "theta") && s.connectivity != 8) s.connectivity = 8;
  return note;
}

std::vector<double> polyline_curvature(const std::vector<Vec2>& pts) {
  std::vector<double> k(pts.size(), 0.0);
  for (size_t i = 1; i + 1 < pts.size(); ++i) {
    const Vec2 a = pts[i - 1], b = pts[i], c = pts[i + 1];
    const double ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
    const double denom = ab * bc * ca;
    // Menger curvature 4*area/(|ab||bc||ca|); a doubled-back point (ca == 0) has no circle.
    if (denom > 1e-12) k[i] = 2.0 * cross(b - a, c - b) / denom;
  }
  return k;
}

namespace {

PolylineStats analyse_polyline(const std::vector<Vec2>& pts) {
  PolylineStats st;
  st.curvature = polyline_curvature(pts);
  for (size_t i = 1; i + 1 < pts.size(); ++i) {
    st.max_abs = std::max(st.max_abs, std::abs(st.curvature[i]));
    const Vec2 u = pts[i] - pts[i - 1], v = pts[i + 1] - pts[i];
    const double lu = glm::length(u), lv = glm::length(v);
    if (lu > 1e-9 && lv > 1e-9 && glm::dot(u, v) / (lu * lv) < std::cos(deg_to_rad(30.0))) st.sharp++;
  }
  return st;
}

std::string fmt_point(Vec2 p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.1f, %.1f)", p.x, p.y);
  return buf;
}

}  // namespace

struct PlanPipeline::Cache {
  const Grid* grid = nullptr;
  uint64_t version = 0;
  std::unique_ptr<GridPathfinder> finder;
  // The navmesh depends on the map and the agent radius; rebuilt when either changes.
  std::unique_ptr<Navmesh> mesh;
  std::unique_ptr<NavmeshQuery> query;
  uint64_t mesh_version = 0;
  double mesh_radius = -1.0;
  bool mesh_convex = true;
  bool last_was_navmesh = false;
  // Heading-aware planners precompute tables for their options and the grid; kept while
  // neither changes (the key is the options as text).
  std::unique_ptr<DirectionalAStar> directional;
  std::unique_ptr<HybridAStar> hybrid;
  std::string heading_key;
  uint64_t heading_version = 0;
};

PlanPipeline::PlanPipeline() : cache_(std::make_unique<Cache>()) {}
PlanPipeline::~PlanPipeline() = default;

const Navmesh* PlanPipeline::navmesh() const { return cache_->last_was_navmesh ? cache_->mesh.get() : nullptr; }

PlanView PlanPipeline::plan(const Grid& g, const Pose& start, const Pose& goal, const io::PlanSettingsData& settings,
                            bool record_trace) {
  PlanView v;
  v.valid = true;
  io::PlanSettingsData s = settings;
  normalize_settings(s);
  Cache& c = *cache_;
  if (c.grid != &g || c.version != map_version_ || !c.finder) {
    if (!c.finder) c.finder = std::make_unique<GridPathfinder>(g);
    else c.finder->reset(g);
    c.grid = &g;
    c.version = map_version_;
  }
  const PlannerFamily family = planner_family(s.planner);
  c.last_was_navmesh = family == PlannerFamily::navmesh;
  double exact_length = -1.0;  // set by smoothers that know their curve's length
  const auto t0 = std::chrono::steady_clock::now();

  if (family == PlannerFamily::grid) {
    GridSearchOptions opt;
    opt.connectivity = s.connectivity == 4 ? Connectivity::four : Connectivity::eight;
    opt.turn_penalty = (s.planner == "astar" || s.planner == "dijkstra") ? s.turn_penalty : 0.0;
    opt.agent_radius = s.agent_radius;
    opt.record_trace = record_trace;
    if (!g.contains(start.pos)) return v.error = "the start is outside the map", v;
    if (!g.contains(goal.pos)) return v.error = "the goal is outside the map", v;
    auto r = c.finder->find_path(*parse_grid_planner(s.planner), cell_of(start.pos), cell_of(goal.pos), opt);
    if (!r) return v.error = r.error().message, v;
    v.found = r->found;
    v.reason = r->reason;
    v.expanded = r->expanded;
    v.trace = std::move(r->trace);
    if ((r->details & kDetailCostsIgnored) != 0 && v.found) {
      v.notes.push_back("JPS treats terrain as cost 1: swamp is crossed as if it were ground");
    }
    v.raw_points = std::move(r->points);
    v.points = v.raw_points;
    if (v.found && s.smoother == "turning") {
      TurningSmoothDef def = default_turning_smooth_def();
      def.turning_radius = s.turning_radius;
      def.min_radius = std::min(def.min_radius, def.turning_radius);
      def.agent_radius = s.agent_radius;
      // The poses always have a heading in the sandbox (the arrows); the CLI meets them too
      // when it plans a scene file.
      def.has_start_heading = def.has_goal_heading = true;
      def.start_heading = start.heading;
      def.goal_heading = goal.heading;
      auto t = turning_smooth(g, v.points, def);
      if (!t) {
        // The planner's path stays on screen; why it could not be made drivable is the violation.
        v.violations.push_back("turning smoother: " + t.error().message);
      } else {
        std::vector<Vec2> pts;
        std::vector<double> k;
        for (const SegmentPath& piece : t->pieces) {
          auto samples = piece.sample(std::max(0.05, std::min(0.25, s.turning_radius / 8.0)));
          if (!samples) return v.error = samples.error().message, v;
          for (const PathSample& ps : *samples) {
            pts.push_back(ps.state.pos);
            k.push_back(ps.state.curvature);
            v.max_curvature = std::max(v.max_curvature, std::abs(ps.state.curvature));
          }
        }
        v.points = std::move(pts);
        v.curvature = std::move(k);
        v.curvature_exact = true;
        exact_length = t->length;
        if (t->pieces.size() == 1) v.segments = t->pieces.front();  // units follow the exact curve
        std::string how;
        for (TurnMethod m : {TurnMethod::fillet, TurnMethod::shrink, TurnMethod::three_point, TurnMethod::rotate})
          if (const int n = t->count(m); n > 0) how += (how.empty() ? "" : ", ") + std::to_string(n) + " " + to_string(m);
        if (!how.empty()) v.notes.push_back("turns: " + how);
      }
    } else if (v.found && s.smoother == "los") {
      auto cut = los_shortcut(g, v.points, s.agent_radius);
      if (!cut) return v.error = cut.error().message, v;
      v.points = std::move(cut->points);
    } else if (v.found && is_spline_smoother(s.smoother)) {
      SplineSmoothDef def = default_spline_smooth_def();
      def.method = *parse_spline_method(s.smoother);
      def.agent_radius = s.agent_radius;
      def.sampling.per_segment = std::clamp(s.subdivisions, 1, kMaxSubdivisions);
      def.insert_min_chord = s.insert_min_chord;
      auto sm = smooth_path(g, v.points, def);
      if (sm) {
        v.points = std::move(sm->points);
        if (!sm->repairs.empty()) {
          // Not a violation: the smoother kept the curve clear. Worth knowing when tuning, though.
          v.notes.push_back(std::to_string(sm->repairs.size()) + " spline span(s) repaired (too close to a wall, or a loop or hook reshaped)");
        }
        if (!sm->curve.empty()) {
          if (auto table = ArcLengthTable::build(sm->curve)) {
            const double step = std::max(0.02, table->length() / 4000.0);
            if (auto prof = curvature_profile(*table, step)) {
              v.curvature_exact = true;
              for (const CurvatureSample& k : *prof) v.max_curvature = std::max(v.max_curvature, std::abs(k.curvature));
            }
          }
        }
      } else if (sm.error().code != StatusCode::blocked) {
        return v.error = "smoother: " + sm.error().message, v;
      }
      // A raw path that is not clear itself (agent radius above 0.5 on a narrow gap) is kept as found.
    }
  } else if (family == PlannerFamily::navmesh) {
    if (!c.mesh || c.mesh_version != map_version_ || c.mesh_radius != s.agent_radius || c.grid != &g ||
        c.mesh_convex != s.navmesh_convex) {
      NavmeshDef def = default_navmesh_def();
      def.agent_radius = s.agent_radius;
      def.merge_convex = s.navmesh_convex;
      auto m = Navmesh::build(g, def);
      if (!m) return v.error = "navmesh: " + m.error().message, v;
      c.mesh = std::make_unique<Navmesh>(std::move(*m));
      c.query = std::make_unique<NavmeshQuery>(*c.mesh);
      c.mesh_version = map_version_;
      c.mesh_radius = s.agent_radius;
      c.mesh_convex = s.navmesh_convex;
    }
    NavQueryOptions qo;
    qo.record_trace = record_trace;
    auto r = c.query->find_corridor(start.pos, goal.pos, qo);
    if (!r) return v.error = r.error().message, v;
    v.found = r->found;
    v.reason = r->reason;
    v.expanded = r->expanded;
    v.nav_trace = std::move(r->trace);
    for (int p : r->corridor.polygons) {
      auto ring = c.mesh->ring(p);
      v.corridor.emplace_back(ring.begin(), ring.end());
    }
    if (v.found) {
      v.raw_points = corridor_midpoints(*r);
      if (s.smoother == "funnel") {
        auto f = funnel_corridor(*r);
        if (!f) return v.error = f.error().message, v;
        v.points = std::move(f->points);
      } else if (s.smoother == "edge-shift") {
        EdgeShiftDef def = default_edge_shift_def();
        def.margin = s.shift_margin;
        def.passes = std::clamp(s.shift_passes, 0, 64);
        auto e = edge_shift_corridor(*c.mesh, *r, def);
        if (!e) return v.error = e.error().message, v;
        v.points = std::move(*e);
      } else if (s.smoother == "los") {
        auto l = los_corridor(*c.mesh, *r);
        if (!l) return v.error = l.error().message, v;
        v.points = std::move(*l);
      } else {
        v.points = v.raw_points;
      }
      if (r->start_snapped) v.notes.push_back("the start was moved onto the mesh (too close to a wall for the radius)");
      if (r->goal_snapped) v.notes.push_back("the goal was moved onto the mesh (too close to a wall for the radius)");
    }
  } else if (family == PlannerFamily::heading) {
    char key[256];
    std::snprintf(key, sizeof key, "%s %.17g %.17g %d %d %d %.17g %.17g %p", s.planner.c_str(), s.turning_radius,
                  s.agent_radius, s.neighborhood, s.headings, s.reverse ? 1 : 0, s.reverse_penalty,
                  s.gear_change_penalty, static_cast<const void*>(&g));
    // The trace option is part of the planner's options, so it is part of the key as well.
    const std::string k = std::string(key) + (record_trace ? " t" : "");
    if (k != c.heading_key || c.heading_version != map_version_) {
      c.directional.reset();
      c.hybrid.reset();
      c.heading_key.clear();
      if (s.planner == "directional") {
        DirectionalAStarOptions o = default_directional_astar_options();
        o.turning_radius = s.turning_radius;
        o.agent_radius = s.agent_radius;
        o.neighborhood = s.neighborhood;
        o.record_trace = record_trace;
        auto d = DirectionalAStar::create(g, o);
        if (!d) return v.error = "directional: " + d.error().message, v;
        c.directional = std::make_unique<DirectionalAStar>(std::move(*d));
      } else {
        HybridAStarOptions o = default_hybrid_astar_options();
        o.turning_radius = s.turning_radius;
        o.agent_radius = s.agent_radius;
        o.heading_bins = s.headings;
        o.allow_reverse = s.reverse;
        o.reverse_penalty = s.reverse_penalty;
        o.gear_change_penalty = s.gear_change_penalty;
        o.record_trace = record_trace;
        auto h = HybridAStar::create(g, o);
        if (!h) return v.error = "hybrid: " + h.error().message, v;
        c.hybrid = std::make_unique<HybridAStar>(std::move(*h));
      }
      c.heading_key = k;
      c.heading_version = map_version_;
    }
    auto r = c.directional ? c.directional->plan(start, goal) : c.hybrid->plan(start, goal);
    if (!r) return v.error = r.error().message, v;
    v.found = r->found;
    v.reason = r->reason;
    v.expanded = r->expanded;
    v.pose_trace = std::move(r->trace);
    if (v.found) {
      auto samples = r->path.sample(std::max(0.05, std::min(0.25, s.turning_radius / 8.0)));
      if (!samples) return v.error = samples.error().message, v;
      for (const PathSample& ps : *samples) {
        v.points.push_back(ps.state.pos);
        v.curvature.push_back(ps.state.curvature);
        v.max_curvature = std::max(v.max_curvature, std::abs(ps.state.curvature));
      }
      v.curvature_exact = true;
      if (glm::length(r->start.pos - start.pos) > 1e-9 || std::abs(wrap_angle(r->start.heading - start.heading)) > 1e-9)
        v.notes.push_back("the start pose was snapped to the lattice (cell centre, nearest 45 degrees)");
      if (glm::length(r->goal.pos - goal.pos) > 1e-9 || std::abs(wrap_angle(r->goal.heading - goal.heading)) > 1e-9)
        v.notes.push_back("the goal pose was snapped to the lattice (cell centre, nearest 45 degrees)");
      int cusps = 0;
      const auto segs = r->path.segments();
      for (size_t i = 1; i < segs.size(); ++i) cusps += segs[i].gear != segs[i - 1].gear;
      if (cusps > 0) v.notes.push_back(std::to_string(cusps) + " change(s) of gear");
      v.segments = std::move(r->path);
    }
  } else {  // curve planners: one exact curve from pose to pose
    const double radius = s.turning_radius;
    Result<SegmentPath> path = Error{};
    if (s.planner == "dubins") {
      auto sol = dubins_shortest(start, goal, radius);
      if (!sol) return v.error = sol.error().message, v;
      v.word = to_string(sol->word);
      path = dubins_to_path(start, goal, radius, *sol);
    } else if (s.planner == "reeds-shepp") {
      auto sol = reeds_shepp_shortest(start, goal, radius);
      if (!sol) return v.error = sol.error().message, v;
      v.word = sol->word();
      path = reeds_shepp_to_path(start, goal, radius, *sol);
    } else {
      auto sol = turn_to_point(start, goal.pos, radius);
      if (!sol) return v.error = sol.error().message, v;
      v.word = sol->word;
      path = turn_to_point_path(start, goal.pos, radius);
    }
    if (!path) return v.error = path.error().message, v;
    v.found = true;
    const double step = std::max(0.05, std::min(0.25, radius / 8.0));
    auto samples = path->sample(step);
    if (!samples) return v.error = samples.error().message, v;
    for (const PathSample& ps : *samples) {
      v.points.push_back(ps.state.pos);
      v.curvature.push_back(ps.state.curvature);
      v.max_curvature = std::max(v.max_curvature, std::abs(ps.state.curvature));
    }
    v.curvature_exact = true;
    SweptCheckDef def = default_swept_check_def();
    def.agent_radius = s.agent_radius;
    auto sw = check_swept_path(g, *path, def);
    if (sw && !sw->clear) {
      auto at = path->at_distance(sw->blocked_at_s);
      v.violations.push_back("the curve runs into a wall near " + fmt_point(at ? at->pos : Vec2(0, 0)) +
                             " (curve planners do not avoid walls)");
    }
    v.segments = std::move(*path);
  }
  v.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (!v.found) return v;

  // Measure the result the same way whatever produced it.
  v.length = v.segments ? v.segments->length() : exact_length >= 0 ? exact_length : polyline_length(v.points);
  if (!v.segments) {
    if (v.curvature.size() != v.points.size()) {  // not already measured on the curve itself
      PolylineStats st = analyse_polyline(v.points);
      v.curvature = std::move(st.curvature);
      v.sharp_corners = st.sharp;
      if (!v.curvature_exact) v.max_curvature = st.max_abs;
    }
    v.blocked_segment = first_blocked_segment(g, v.points, s.agent_radius);
    if (v.blocked_segment >= 0) {
      v.violations.push_back("segment " + std::to_string(v.blocked_segment) + " near " +
                             fmt_point(v.points[static_cast<size_t>(v.blocked_segment)]) +
                             " overlaps a wall for agent radius " + std::to_string(s.agent_radius).substr(0, 4));
    }
  }
  // Only curves claim to be drivable: a polyline's corners are turns of radius 0 by design.
  const bool drivable = v.curvature_exact;
  if (drivable && s.turning_radius > 0 && v.max_curvature > 1.0 / s.turning_radius * (1 + 1e-6)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "turns tighter than the turning radius: radius %.2f < %.2f cells",
                  1.0 / v.max_curvature, s.turning_radius);
    v.violations.push_back(buf);
  }
  return v;
}

}  // namespace pathlab::sandbox
