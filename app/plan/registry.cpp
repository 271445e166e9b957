// The planner and smoother table: the only file that spells their names.

#include "pathlab/plan/registry.hpp"

#include <algorithm>
#include <array>

#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/hermite.hpp"

namespace pathlab::plan {
namespace {

constexpr OptionMask bits(std::initializer_list<OptionId> ids) {
  OptionMask m = 0;
  for (OptionId id : ids) m |= option_bit(id);
  return m;
}

using O = OptionId;
using F = PlannerFamily;

constexpr OptionMask kGridSearch = bits({O::connectivity, O::turn_penalty, O::agent_radius});
constexpr OptionMask kHeading = bits({O::turning_radius, O::agent_radius});

const std::array<PlannerInfo, 12> kPlanners = {{
    {PlannerId::astar, "astar", F::grid, true, kGridSearch,
     "A*: optimal on the grid, 4- or 8-connected, honours terrain cost and the turn penalty."},
    {PlannerId::dijkstra, "dijkstra", F::grid, true, kGridSearch,
     "Dijkstra: the same paths as A* without a heuristic; expands far more (the reference)."},
    {PlannerId::jps, "jps", F::grid, true, bits({O::agent_radius}),
     "Jump point search (Harabor and Grastien, \"Online Graph Pruning for Pathfinding on Grid Maps\", 2011): "
     "A*'s lengths with far fewer expansions; 8-connected, treats terrain as cost 1."},
    {PlannerId::theta, "theta", F::grid, true, bits({O::agent_radius}),
     "Theta*: any-angle paths between cell centres, never longer than the 8-connected optimum."},
    {PlannerId::navmesh, "navmesh", F::navmesh, true, bits({O::agent_radius, O::navmesh_convex, O::navmesh_corners}),
     "Navmesh: convex polygons shrunk by the agent radius, A* over portals, then a corridor smoother."},
    {PlannerId::directional, "directional", F::heading, true, kHeading | bits({O::neighborhood}),
     "Directional A* (Pinter, \"Toward More Realistic Pathfinding\", Gamasutra 2001): A* over cells x 8 headings "
     "with Dubins moves of the turning radius; only turns the unit can make, swept clear of walls for the agent "
     "radius."},
    {PlannerId::hybrid, "hybrid", F::heading, true,
     kHeading | bits({O::heading_bins, O::reverse, O::reverse_penalty, O::gear_change_penalty, O::min_gear_length, O::cc}),
     "Hybrid A* (Dolgov, Thrun, Montemerlo and Diebel, 2008): continuous poses binned by cell and heading, arcs "
     "of the turning radius, Dubins/Reeds-Shepp finish; may reverse. Legal for a car, not guaranteed shortest."},
    {PlannerId::dubins, "dubins", F::curve, false, kHeading,
     "Dubins curve straight from start pose to goal pose (forward only, turning radius); ignores walls, which "
     "show up as violations."},
    {PlannerId::reeds_shepp, "reeds-shepp", F::curve, false, kHeading,
     "Reeds-Shepp curve from start pose to goal pose, may reverse; ignores walls (violations say where it hits "
     "one)."},
    {PlannerId::turn_to_point, "turn-to-point", F::curve, false, kHeading,
     "Shortest forward turn-then-go from the start pose to the goal point; the goal heading is free."},
    {PlannerId::cc_dubins, "cc-dubins", F::curve, false, kHeading,
     "Continuous-curvature Dubins (Fraichard and Scheuer 2004): forward, clothoids between lines and arcs so the "
     "steering never jumps; sharpness 1 / radius^2 (full lock over one turning radius). Ignores walls."},
    {PlannerId::cc_reeds_shepp, "cc-reeds-shepp", F::curve, false, kHeading,
     "Continuous-curvature Reeds-Shepp (Fraichard and Scheuer 2004, a subset of their families): may reverse, "
     "curvature 0 at every cusp; sharpness 1 / radius^2. Ignores walls."},
}};

constexpr OptionMask kSpline = bits({O::subdivisions, O::insert_min_chord});
constexpr OptionMask kVehicle =
    bits({O::turning_radius, O::reverse_penalty, O::gear_change_penalty, O::min_gear_length, O::cc});

// Menu order per family: the first row of a family is its default smoother.
const std::array<SmootherInfo, 17> kSmoothers = {{
    {SmootherId::none, "none", F::grid, false, 0, "The planner's waypoints as they are."},
    {SmootherId::los, "los", F::grid, false, 0,
     "Line-of-sight shortcuts (Pinter 2001's \"cheating\"): skip waypoints while the straight line is clear."},
    {SmootherId::catmull_rom, "catmull-rom", F::grid, true, kSpline,
     "Uniform Catmull-Rom spline through the waypoints, repaired where it would hit a wall."},
    {SmootherId::centripetal, "centripetal", F::grid, true, kSpline,
     "Centripetal Catmull-Rom (alpha 0.5): no loops or cusps; repaired near walls."},
    {SmootherId::chordal, "chordal", F::grid, true, kSpline,
     "Chordal Catmull-Rom (alpha 1): wider curves on long chords; repaired near walls."},
    {SmootherId::hermite, "hermite", F::grid, true, kSpline,
     "Hermite chain with automatic tangents (bisector, shorter chord); repaired near walls."},
    {SmootherId::turning, "turning", F::grid, false, bits({O::turning_radius}),
     "Legal turns (Pinter 2001): every corner rounded by an arc of the turning radius; where none fits, a "
     "smaller radius, a three-point turn or a turn on the spot. Meets the start and goal headings."},
    {SmootherId::vehicle, "vehicle", F::grid, false, kVehicle,
     "The turning smoother, then the vehicle smoother's Dubins / Reeds-Shepp shortcuts: fewer turns, no wobble."},
    {SmootherId::funnel, "funnel", F::navmesh, false, 0,
     "The exact shortest path inside the corridor (simple stupid funnel)."},
    {SmootherId::edge_shift, "edge-shift", F::navmesh, false, bits({O::shift_margin, O::shift_passes}),
     "String pulling by sliding each node along the edge it crosses."},
    {SmootherId::los, "los", F::navmesh, false, 0, "Portal midpoints, skipping nodes while the line stays on the mesh."},
    {SmootherId::none, "none", F::navmesh, false, 0, "Start, the middle of every portal, goal."},
    {SmootherId::turning, "turning", F::navmesh, false, bits({O::turning_radius}),
     "The funnel path with legal turns of the turning radius (as the grid's turning smoother)."},
    {SmootherId::vehicle, "vehicle", F::navmesh, false, kVehicle,
     "The funnel path with legal turns, then the vehicle smoother's Dubins / Reeds-Shepp shortcuts."},
    {SmootherId::vehicle, "vehicle", F::heading, false, kVehicle,
     "Vehicle smoother (the shortcut stage of Dolgov, Thrun, Montemerlo and Diebel, 2010): replaces stretches of "
     "the search's path by Dubins (forward) or Reeds-Shepp (with reverse) curves of the turning radius wherever the "
     "unit's disc stays clear and the cost (reverse and gear-change penalties included) drops; farthest first, "
     "repeated until nothing changes. No wobble on straight stretches, no gear segment under 1 cell."},
    {SmootherId::none, "none", F::heading, false, 0, "The search's own curve, wobble and all."},
    {SmootherId::none, "none", F::curve, false, 0, "Curve planners produce the exact curve; nothing to smooth."},
}};
constexpr size_t kSmootherRows = kSmoothers.size();

const std::array<OptionInfo, 17> kOptions = {{
    {O::connectivity, "connectivity", "connectivity", "4-connected", 4, 8, 4, 8, false, "%.0f",
     "Moves along rows and columns only, no diagonals (A* and Dijkstra; JPS and Theta* are 8-connected)."},
    {O::turn_penalty, "turn_penalty", "turn-penalty", "turn penalty", 0, 1000, 0, 4, true, "%.3f",
     "Extra cost for each change of direction, as a fraction of the step (0.5 = half the normal cost of the "
     "step). Straighter paths; the search expands more nodes."},
    {O::agent_radius, "agent_radius", "agent-radius", "agent radius", 0, kMaxAgentRadius, 0, 8, true, "%.3f cells",
     "The unit's radius in cells: paths keep this clearance from walls (grid searches, splines and the navmesh). "
     "Curve planners only check it and report a violation."},
    {O::subdivisions, "subdivisions", "subdivisions", "subdivisions", 1, kMaxSubdivisions, 1, 64, true, "%.0f",
     "Output points per spline span: more points follow the curve more closely."},
    {O::insert_min_chord, "insert_min_chord", "", "insert chord", 0, 1000, 0, 32, true, "%.2f cells",
     "Repair step 1: a span whose chord is at least this long gets control points inserted near its ends, so the "
     "bend stays near the corner. 0 turns insertion off (values in (0, 1) count as 1)."},
    {O::turning_radius, "turning_radius", "radius", "turning radius", 0.1, kMaxTurningRadius, 0.25, 32, true,
     "%.3f cells",
     "Curve and heading-aware planners and the turning smoother drive circles of this radius. For splines it is "
     "the limit the stats panel checks the curvature against."},
    {O::navmesh_convex, "navmesh_convex", "navmesh-polygons", "convex polygons", 0, 1, 0, 1, false, "%.0f",
     "On: rectangles are cut at staircase corners and merged into larger convex polygons, so a corridor crosses "
     "fewer of them and the search expands fewer. Off: a grid-shaped mesh of rectangles (builds about 3x faster). "
     "The exact search finds the same shortest paths on either."},
    {O::shift_margin, "shift_margin", "shift-margin", "shift margin", 0, 1000, 0, 1, true, "%.4f cells",
     "How far each node stays from the ends of the edge it slides on."},
    {O::shift_passes, "shift_passes", "shift-passes", "shift passes", 0, 64, 0, 64, false, "%.0f",
     "Passes of string pulling over the nodes. 0 (the default): repeat until no node moves more than 0.001 "
     "cells, never longer than the grid path. 1: the Tower22 post's method exactly as described."},
    {O::neighborhood, "neighborhood", "neighborhood", "neighbourhood", 0, 48, 0, 48, false, "%.0f",
     "Cells one move of directional A* may reach. Larger: smoother, shorter paths and more turns possible for a "
     "given radius, slower search. The fixed neighbourhoods only turn for radii up to about 2; auto reaches as far "
     "as the turning radius needs."},
    {O::heading_bins, "headings", "heading-bins", "heading bins", 8, 720, 8, 720, true, "%.0f",
     "Hybrid A*'s heading resolution: poses in the same cell whose headings fall in the same bin count as one. "
     "More bins find paths through tighter places; the search grows with them."},
    {O::reverse, "reverse", "reverse", "reverse", 0, 1, 0, 1, false, "%.0f",
     "Hybrid A* may drive backwards (three-point turns). For the curve planners pick reeds-shepp."},
    {O::reverse_penalty, "reverse_penalty", "reverse-penalty", "reverse penalty", 1, 1000, 1, 20, true, "%.2fx",
     "Cost multiplier on reversed length (Hybrid A* and the vehicle smoother)."},
    {O::gear_change_penalty, "gear_change_penalty", "gear-change-penalty", "gear change", 0, 1000, 0, 50, true,
     "%.2f cells", "Extra cost for each change between forward and reverse (Hybrid A* and the vehicle smoother)."},
    {O::cc, "cc", "cc", "continuous curvature", 0, 1, 0, 1, false, "%.0f",
     "Hybrid A* finishes, and the vehicle smoother connects, with CC-Dubins / CC-Reeds-Shepp curves (Fraichard and "
     "Scheuer 2004) of sharpness 1 / radius^2 (full lock over one turning radius), so the steering ramps instead of "
     "jumping there: slightly longer curves. The search's own arcs still switch at once."},
    // On by default in the CLI (--navmesh-polygons corners) and, since issue 28, in the sandbox:
    // the planning service mends its tiled meshes where a stroke changed the map.
    {O::navmesh_corners, "navmesh_corners", "", "wall-corner polygons", 0, 1, 0, 1, false, "%.0f",
     "On: polygons whose vertices are wall corners only (triangles between wall corners, made Delaunay and merged "
     "into convex polygons, as in Polyanya's meshes): no T-junctions, so a path crosses far fewer polygons and the "
     "exact search is 1.5-3x faster; the mesh builds 2-4x slower. Overrides convex polygons."},
    {O::min_gear_length, "min_gear_length", "min-gear-length", "min gear length", 0, 100, 0, 10, false, "%.2f cells",
     "Shortest stretch driven in one gear between two changes of gear (Hybrid A*'s finishing curve and the vehicle "
     "smoother's connections): no 0.3-cell shuffles back and forth. Larger: fewer, longer manoeuvres, and a path "
     "may not be found where only short ones fit. A path in one gear throughout may be shorter."},
}};

std::string join_names(std::span<const SmootherInfo> rows) {
  std::string out;
  for (const SmootherInfo& s : rows) out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

}  // namespace

std::span<const PlannerInfo> planners() { return kPlanners; }
std::span<const OptionInfo> options() { return kOptions; }

std::span<const SmootherInfo> smoothers_for(PlannerFamily family) {
  const auto* begin = kSmoothers.data();
  const auto* end = begin + kSmootherRows;
  const auto* first = std::find_if(begin, end, [&](const SmootherInfo& s) { return s.family == family; });
  const auto* last = std::find_if(first, end, [&](const SmootherInfo& s) { return s.family != family; });
  return {first, static_cast<size_t>(last - first)};
}

const PlannerInfo* find_planner(std::string_view name) {
  for (const PlannerInfo& p : kPlanners)
    if (name == p.name) return &p;
  return nullptr;
}

const PlannerInfo& planner_info(PlannerId id) { return kPlanners[static_cast<size_t>(id)]; }
const char* planner_name(PlannerId id) { return planner_info(id).name; }

const SmootherInfo* find_smoother(std::string_view name, PlannerFamily family) {
  for (const SmootherInfo& s : smoothers_for(family))
    if (name == s.name) return &s;
  return nullptr;
}

const SmootherInfo* find_any_smoother(std::string_view name) {
  for (size_t i = 0; i < kSmootherRows; ++i)
    if (name == kSmoothers[i].name) return &kSmoothers[i];
  return nullptr;
}

const char* smoother_name(SmootherId id) {
  for (size_t i = 0; i < kSmootherRows; ++i)
    if (kSmoothers[i].id == id) return kSmoothers[i].name;
  return "";
}

const OptionInfo& option_info(OptionId id) { return kOptions[static_cast<size_t>(id)]; }

const OptionInfo* find_option_by_flag(std::string_view flag) {
  for (const OptionInfo& o : kOptions)
    if (!flag.empty() && flag == o.flag) return &o;
  return nullptr;
}

std::string cli_planner_list() {
  std::string out;
  for (const PlannerInfo& p : kPlanners)
    if (p.in_cli_plan) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

std::string smoother_list(PlannerFamily family) { return join_names(smoothers_for(family)); }

std::string check_scene_names(std::string_view planner, std::string_view smoother) {
  if (!find_planner(planner)) {
    std::string all;
    for (const PlannerInfo& p : kPlanners) all += (all.empty() ? "" : ", ") + std::string(p.name);
    return "settings.planner: unknown planner '" + std::string(planner) + "' (" + all + ")";
  }
  if (!find_any_smoother(smoother)) {
    std::string all;
    for (size_t i = 0; i < kSmootherRows; ++i) {
      const std::string name = kSmoothers[i].name;
      if (find_any_smoother(name) == &kSmoothers[i]) all += (all.empty() ? "" : ", ") + name;  // first row only
    }
    return "settings.smoother: unknown smoother '" + std::string(smoother) + "' (" + all + ")";
  }
  return "";
}

}  // namespace pathlab::plan
