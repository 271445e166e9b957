// Issue 26, "every demo shows what its note says": every preset of the gallery (every scene under
// assets/scenes) has an entry in claims() below, whose check plans the preset the way the
// sandbox does when it opens it (plan::load_scene, the map with its shut doors, the sandbox's
// PlanPipeline with the search's trace) and asserts what its note ("gallery.teaches") and its
// title claim, with the numbers the note gives. A preset without an entry fails the first test
// case: a note that no test checks is not shipped.
//
// The crowd presets' claims about motion (everyone arrives, nobody overlaps, the door closes at
// 1.5 s, the truck drives, nobody is deadlocked) are run on the core crowd by
// tests/test_sandbox_scene_dynamic.cpp; their entries here check what the notes say about the
// scenes themselves. The replay's part of the issue (the path waits for the replay's end, steps
// against Stats' expansions) is the last test cases.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "document/gallery.hpp"
#include "host/host.hpp"
#include "inspect/compare_rows.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/catmull_rom.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/scene_units.hpp"
#include "pathlab/unit.hpp"
#include "planning/plan_pipeline.hpp"
#include "planning/replay.hpp"
#include "sandbox_ui.hpp"
#include "test_support.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

const std::string kScenes = std::string(PATHLAB_ASSETS_DIR) + "/scenes";

/// One preset as the gallery lists it and the sandbox loads it.
struct Preset {
  GalleryEntry entry;
  io::Scene scene;
  bool says(const std::string& words) const { return entry.teaches.find(words) != std::string::npos; }
};

/// The plan the sandbox shows for `scene`: its map with the doors shut at t = 0, with the trace.
PlanView plan_of(const io::Scene& scene) {
  PlanPipeline pipeline;
  PlanView v = pipeline.plan(plan::scene_grid(scene), scene.start, scene.goal, scene.settings, true);
  REQUIRE_MESSAGE(v.error.empty(), scene.name << ": " << v.error);
  return v;
}

/// The preset planned with its settings changed by `edit`, as the Plan panel does (a smoother
/// that does not follow the new planner becomes its default).
PlanView plan_with(const Preset& p, const std::function<void(io::PlanSettingsData&)>& edit) {
  io::Scene s = p.scene;
  edit(s.settings);
  (void)normalize_settings(s.settings);
  return plan_of(s);
}

PlanView plan_as(const Preset& p, const std::string& planner, const std::string& smoother = "") {
  return plan_with(p, [&](io::PlanSettingsData& s) {
    s.planner = planner;
    s.smoother = smoother;
  });
}

/// Changes of direction along a polyline (any turn over 1e-6 rad).
int turns(const std::vector<Vec2>& pts) {
  int n = 0;
  for (size_t i = 1; i + 1 < pts.size(); ++i) {
    const Vec2 u = pts[i] - pts[i - 1], v = pts[i + 1] - pts[i];
    const double lu = glm::length(u), lv = glm::length(v);
    if (lu < 1e-12 || lv < 1e-12) continue;
    if (std::abs(cross(u, v)) > 1e-6 * lu * lv || glm::dot(u, v) < 0) ++n;
  }
  return n;
}

/// Smallest radius of a path measured on its curve [cells].
double min_radius(const PlanView& v) {
  REQUIRE(v.result.curvature_exact);
  return v.result.max_curvature > 0 ? 1.0 / v.result.max_curvature : 1e9;
}

/// Replay steps of a plan, loaded as the inspector loads them.
int64_t replay_steps(const PlanView& v, const Grid& grid) {
  ReplayModel r;
  if (!v.result.trace.empty()) r.load_grid(v.result.trace, grid.width(), grid.height());
  else if (!v.result.nav_trace.empty() && v.result.navmesh)
    r.load_navmesh(v.result.nav_trace, static_cast<int>(v.result.navmesh->polygons().size()));
  else if (!v.result.pose_trace.empty()) r.load_poses(v.result.pose_trace);
  return r.steps();
}

/// Compare's verdict on a plan as a row of `planner`, under the vehicle's rules or not.
RowCheck row_check(const std::string& planner, PlanView view, double turning_radius, bool vehicle) {
  CompareRun row;
  row.planner = planner;
  row.enabled = true;
  row.view = std::move(view);
  row.view.valid = true;
  return check_row(row, CompareRules{turning_radius, vehicle});
}

/// Open cells of column x (rows y0..y1) or of row y (columns x0..x1).
int open_in_column(const Grid& g, int x, int y0, int y1) {
  int n = 0;
  for (int y = y0; y <= y1; ++y) n += !g.is_blocked(x, y);
  return n;
}
int open_in_row(const Grid& g, int y, int x0, int x1) {
  int n = 0;
  for (int x = x0; x <= x1; ++x) n += !g.is_blocked(x, y);
  return n;
}

// ---- articles ------------------------------------------------------------------------------

void catmull_rom_post(const Preset& p) {
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(p.scene.settings.subdivisions == 5);
  CHECK(v.result.raw_points.size() == 13);  // "JPS gives exactly 13 waypoints"
  REQUIRE(v.result.points.size() == 61);    // "(13-1)*5+1 = 61 points"
  for (size_t i = 0; i < 13; ++i) {         // "the spline passes through every one of them"
    CAPTURE(i);
    CHECK(glm::length(v.result.points[i * 5] - v.result.raw_points[i]) < 1e-9);
  }
  // The blog post's arithmetic, as the note corrects it.
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.25) == doctest::Approx(2.09375).epsilon(1e-12));
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.75) == doctest::Approx(2.09375).epsilon(1e-12));
  CHECK(catmull_rom_uniform(1, 2, 2, 1, 0.5) == doctest::Approx(2.125).epsilon(1e-12));
  CHECK(p.says("2.171875"));
  CHECK(p.says("2.09375"));
  CHECK(p.says("121 new points"));  // what 10 subdivisions would give: (13-1)*10+1
  CHECK((13 - 1) * 10 + 1 == 121);
}

void tower22_corridor(const Preset& p) {
  const PlanView shift = plan_of(p.scene);
  REQUIRE(shift.result.found);
  CHECK(p.scene.settings.smoother == "edge-shift");
  CHECK_FALSE(p.scene.settings.navmesh_convex);  // "free space cut into quads"
  REQUIRE(shift.result.nav_corridor.has_value());
  CHECK(shift.result.nav_corridor->corridor.polygons.size() >= 3);  // numbered portals to cross
  // "the funnel gives the exact shortest path inside the same corridor"
  const PlanView funnel = plan_as(p, "navmesh", "funnel");
  REQUIRE(funnel.result.found);
  CHECK(funnel.result.length <= shift.result.length + 1e-9);
  CHECK(funnel.result.nav_corridor->corridor.polygons == shift.result.nav_corridor->corridor.polygons);
  CHECK(plan_as(p, "navmesh", "los").result.found);  // "Compare also shows los"
}

/// Guesgen's four presets share one map, start and goal ("the next presets fix the path").
void same_003_problem(const Preset& p) {
  auto zig = plan::load_scene(kScenes + "/articles/guesgen-1-zigzag.json");
  REQUIRE(zig.ok());
  CHECK(p.scene.grid == zig->grid);
  CHECK(p.scene.start.pos == zig->start.pos);
  CHECK(p.scene.goal.pos == zig->goal.pos);
}

void guesgen_zigzag(const Preset& p) {
  same_003_problem(p);
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(p.scene.settings.connectivity == 4);
  CHECK(p.scene.settings.turn_penalty == 0.0);
  CHECK(v.result.length == doctest::Approx(50.0).epsilon(1e-12));  // "the same length (50)"
  // A zig-zag, not a few clean corners: 15 turns, each one a corner Stats counts.
  CHECK(turns(v.result.points) == 15);
  CHECK(v.result.sharp_corners == 15);
  CHECK(v.result.expanded == 52);  // "barely more than the path"
  CHECK(p.says("15 turns"));
  CHECK(p.says("52 expansions"));
  // "where 3 would do": the turn penalty's path of the same length turns 3 times.
  const PlanView straight = plan_with(p, [](io::PlanSettingsData& s) { s.turn_penalty = 0.5; });
  CHECK(straight.result.length == doctest::Approx(v.result.length).epsilon(1e-12));
  CHECK(turns(straight.result.points) == 3);
}

void guesgen_turn_penalty(const Preset& p) {
  same_003_problem(p);
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(p.scene.settings.turn_penalty == 0.5);  // "half the normal cost of the step"
  CHECK(v.result.length == doctest::Approx(50.0).epsilon(1e-12));
  CHECK(turns(v.result.points) == 3);  // "turns only where it must: 3 times"
  const PlanView zig = plan_with(p, [](io::PlanSettingsData& s) { s.turn_penalty = 0.0; });
  CHECK(turns(zig.result.points) >= 5 * turns(v.result.points));
  CHECK(v.result.expanded == 381);  // "381 against the zig-zag's 52"
  CHECK(zig.result.expanded == 52);
  CHECK(p.says("381 against the zig-zag's 52"));
}

void guesgen_straightened(const Preset& p) {
  same_003_problem(p);
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(p.scene.settings.smoother == "los");
  REQUIRE(v.result.points.size() == 4);  // "4 points and 2 bends"
  CHECK(turns(v.result.points) == 2);
  int off_grid = 0;  // "leaves the grid's directions": segments neither along a row nor a column
  for (size_t i = 1; i < v.result.points.size(); ++i) {
    const Vec2 d = v.result.points[i] - v.result.points[i - 1];
    off_grid += std::abs(d.x) > 1e-9 && std::abs(d.y) > 1e-9;
  }
  CHECK(off_grid >= 2);
  CHECK(v.result.length == doctest::Approx(39.9).epsilon(0.002));  // "length 39.9 instead of 50"
  CHECK(v.result.violations.empty());
}

void guesgen_smoothed(const Preset& p) {
  same_003_problem(p);
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(p.scene.settings.planner == "theta");
  CHECK(p.scene.settings.smoother == "centripetal");
  REQUIRE(v.result.raw_points.size() == 4);  // "Theta*'s 4 waypoints"
  CHECK(turns(v.result.raw_points) == 2);
  for (const Vec2& c : v.result.raw_points) CHECK(test::distance_to_polyline(c, v.result.points) < 1e-9);
  // The smoothed path's smallest radius: "2.8 cells", wider than the turning radius 2 checked.
  CHECK(min_radius(v) == doctest::Approx(2.82).epsilon(0.005));
  CHECK(min_radius(v) >= p.scene.settings.turning_radius);
  CHECK(p.scene.settings.turning_radius == 2.0);
  CHECK(v.result.violations.empty());  // "no violations"
  // "through every cell of a grid path a spline can only round each corner within a cell
  // (radius 0.18)": the turn penalty's path with the same spline family.
  const PlanView dense = plan_with(p, [](io::PlanSettingsData& s) {
    s.planner = "astar";
    s.connectivity = 4;
    s.turn_penalty = 0.5;
    s.smoother = "catmull-rom";
  });
  CHECK(min_radius(dense) == doctest::Approx(0.18).epsilon(0.02));
  // "both turn tighter" (the uniform and Hermite presets' own claims are theirs).
  CHECK(min_radius(plan_as(p, "theta", "catmull-rom")) < min_radius(v));
  CHECK(min_radius(plan_as(p, "theta", "hermite")) < min_radius(v));
}

/// Pinter's tank, run as the sandbox's units run it: "it cannot pivot: press Play and it
/// drives off forwards along Directional A*'s route, loop and all, to the bay". Over every
/// stretch of 0.25 s its heading turns by at most the distance it drove over 2 cells (a pivot
/// turns with no distance at all; the route keeps 3, and tracking it the crowd turns a little
/// tighter in the hall's loop: 2.15 at its tightest), it never backs up (no shuffle at the
/// start), reaches the hall and arrives, touching no wall.
void pinter_tank_drives(const Preset& p, double r) {
  CHECK(p.says("it cannot pivot: press Play and it drives off forwards along Directional A*'s route, loop and all, to the bay"));
  plan::SceneUnits built = plan::build_scene_units(p.scene).value();
  REQUIRE(built.skipped.empty());
  Crowd& c = *built.crowd;
  REQUIRE(c.agent_count() == 1);
  double tightest = 1e9, drove = 0.0, loop_top = 1e9, backwards = 0.0;  // [cells]
  Vec2 tightest_at(0, 0);
  double tightest_t = 0.0;  // [s]
  std::vector<Pose> poses{c.state(0).pose};
  while (!c.state(0).arrived && c.time() < 60.0) {
    c.step();
    poses.push_back(c.state(0).pose);
    const Vec2 d = poses.back().pos - poses[poses.size() - 2].pos;
    drove += glm::length(d);
    const Pose& before = poses[poses.size() - 2];
    backwards = std::max(backwards, -glm::dot(d, Vec2(std::cos(before.heading), std::sin(before.heading))));
    loop_top = std::min(loop_top, poses.back().pos.y);
  }
  const size_t window = 15;  // steps of 1/60 s
  for (size_t i = window; i < poses.size(); i += window) {
    double ds = 0.0;
    for (size_t k = i - window + 1; k <= i; ++k) ds += glm::length(poses[k].pos - poses[k - 1].pos);
    const double turn = std::abs(std::remainder(poses[i].heading - poses[i - window].heading, 2.0 * kPi));
    if (turn > 1e-6 && ds / turn < tightest) tightest = ds / turn, tightest_at = poses[i].pos, tightest_t = static_cast<double>(i) / 60.0;
  }
  MESSAGE("Pinter's tank: arrived ", c.state(0).arrived, " at t ", c.time(), " s, drove ", drove,
          " cells, tightest turn radius ", tightest, " at (", tightest_at.x, ", ", tightest_at.y, "), t ", tightest_t,
          " s, wall contacts ", c.metrics(0).wall_contacts);
  CHECK(c.state(0).arrived);
  CHECK(tightest >= 2.0);  // no pivot (r = 3 on the route, 2.15 measured: see above)
  CHECK(backwards < 1e-9);      // never a step backwards [cells]
  CHECK(c.metrics(0).wall_contacts == 0);
  CHECK(loop_top < 11.0);  // through the hall
  // Off the start at once, forwards along the corridor: no pivot, no shuffle (1 s in, it has
  // driven east and turned by less than it drove over the radius).
  REQUIRE(poses.size() > 60);
  CHECK(poses[60].pos.x - poses[0].pos.x > 0.5);
  CHECK(std::abs(std::remainder(poses[60].heading - poses[0].heading, 2.0 * kPi)) < 0.5 / r);
}

void pinter_figure_8(const Preset& p) {
  const double r = p.scene.settings.turning_radius;
  CHECK(r == 3.0);  // "a tank with turning radius 3"
  REQUIRE(p.scene.units.size() == 1);
  CHECK(p.scene.units[0].preset == "tank");
  // "pathlab's tank preset has tracks and could turn on the spot, but this one has a turning
  // radius of 3 of its own (its units[0].turning_radius), so it cannot pivot".
  CHECK(unit_preset("tank").value().turning_radius == 0.0);
  CHECK(p.scene.units[0].turning_radius == r);
  CHECK(p.says("its units[0].turning_radius"));
  const UnitDef tank = io::scene_unit_def(p.scene.units[0]).value();
  CHECK(tank.turning_radius == r);
  CHECK(tank.pivot_turn_rate == 0.0);
  const io::PlanSettingsData routed = plan::unit_plan_settings(p.scene.settings, tank);
  CHECK(routed.turning_radius == r);
  CHECK(routed.agent_radius == p.scene.settings.agent_radius);
  // "a corridor that narrows to one cell", "a slot one cell wide" (the corner c at (26, 16)).
  CHECK(open_in_column(p.scene.grid, 8, 0, 29) == 3);
  CHECK(open_in_column(p.scene.grid, 20, 12, 29) == 1);  // below the hall
  CHECK(open_in_row(p.scene.grid, 20, 0, 43) == 1);
  // Plain A* turns at c with a radius of 0.7, invalid under the vehicle's rules.
  const PlanView astar = plan_as(p, "astar", "none");
  REQUIRE(astar.result.found);
  CHECK(astar.result.length == doctest::Approx(32.0).epsilon(1e-9));
  CHECK(1.0 / astar.result.max_curvature == doctest::Approx(0.707).epsilon(0.001));
  CHECK(astar.result.violations.empty());  // "Stats lists no violation for it"
  CHECK(row_check("astar", astar, r, true).invalid());
  CHECK(row_check("astar", astar, r, false).valid());
  // Dubins "clips the walls".
  const PlanView dubins = plan_as(p, "dubins");
  REQUIRE(dubins.result.found);
  CHECK(dubins.result.curve_blocked_at.has_value());
  // Directional A*: legal, past c into the hall, down the shaft into the slot.
  const PlanView dir = plan_of(p.scene);
  REQUIRE(dir.result.found);
  CHECK(p.scene.settings.planner == "directional");
  CHECK(min_radius(dir) >= r * (1 - 1e-9));
  CHECK(dir.result.violations.empty());
  CHECK(row_check("directional", dir, r, true).valid());
  const auto& pts = dir.result.points;
  CHECK(std::any_of(pts.begin(), pts.end(), [](Vec2 q) { return q.x > 30.0; }));  // carries on past c
  CHECK(std::any_of(pts.begin(), pts.end(), [](Vec2 q) { return q.y < 11.0; }));  // loops in the hall
  for (const Vec2& q : pts)
    if (q.y > 16.0) CHECK(std::abs(q.x - 26.5) < 0.5);  // enters the slot straight, from the shaft
  CHECK(dir.result.length == doctest::Approx(55.4).epsilon(0.001));  // "55 cells against A*'s 32"
  CHECK(p.says("55 cells against A*'s 32"));
  // "Hybrid A* (Compare's hybrid row) ... also loops through the hall, a longer way (62 cells)":
  // it finds the goal (a goal it refused as "cannot be entered driving forward" lay on a cell's
  // edge, and from a start on one Hybrid A* never found the one-cell corridor), legal for the tank.
  const PlanView hybrid = plan_as(p, "hybrid", "none");
  REQUIRE_MESSAGE(hybrid.result.found, hybrid.result.reason);
  CHECK(row_check("hybrid", hybrid, r, true).valid());
  CHECK(hybrid.result.length == doctest::Approx(62.0).epsilon(0.01));
  CHECK(hybrid.result.length > dir.result.length);
  const auto& hp = hybrid.result.points;
  CHECK(std::any_of(hp.begin(), hp.end(), [](Vec2 q) { return q.y < 11.0; }));
  CHECK(p.says("a longer way (62 cells)"));
  CHECK(p.says("Compare's hybrid row"));
  CHECK(std::find(p.entry.views.begin(), p.entry.views.end(), "compare") != p.entry.views.end());
  pinter_tank_drives(p, r);
}

void pinter_tank_turn(const Preset& p) {
  // Its title: "the short way has turns a tank cannot make (Directional A*, radius 2)".
  CHECK(p.entry.teaches.empty());
  CHECK(p.scene.settings.planner == "directional");
  CHECK(p.scene.settings.turning_radius == 2.0);
  const PlanView dir = plan_of(p.scene);
  REQUIRE(dir.result.found);
  CHECK(min_radius(dir) >= 2.0 * (1 - 1e-9));
  const PlanView astar = plan_as(p, "astar", "none");
  REQUIRE(astar.result.found);
  CHECK(astar.result.max_curvature > 1.0 / 2.0);
  CHECK(astar.result.length < dir.result.length);  // the short way
  // The lesson "Turning radius" (its last step) shows this scene's Hybrid A* row beside
  // Directional A*'s: it finds the goal, with no turn tighter than the radius.
  const PlanView hybrid = plan_as(p, "hybrid", "none");
  REQUIRE_MESSAGE(hybrid.result.found, hybrid.result.reason);
  CHECK(row_check("hybrid", hybrid, 2.0, true).valid());
  CHECK(row_check("astar", astar, 2.0, true).invalid());  // "A*'s short way is invalid"
}

// ---- maps ----------------------------------------------------------------------------------

void map_arena(const Preset& p) {
  const PlanView jps = plan_of(p.scene);
  const PlanView astar = plan_as(p, "astar", "none");
  REQUIRE(jps.result.found);
  REQUIRE(astar.result.found);
  CHECK(jps.result.length == doctest::Approx(62.1543).epsilon(1e-6));  // the scenario's optimum
  CHECK(astar.result.length == doctest::Approx(jps.result.length).epsilon(1e-12));
  CHECK(jps.result.expanded == 1);  // "expands a single node"
  CHECK(replay_steps(jps, p.scene.grid) == 2);
  CHECK(astar.result.expanded == 217);
  CHECK(p.says("217 expansions"));
  REQUIRE(jps.result.raw_points.size() == 3);  // diagonal to the goal's row, then along it
  CHECK(jps.result.raw_points[1].y == p.scene.goal.pos.y);
  CHECK(std::count(p.entry.views.begin(), p.entry.views.end(), "compare:jps") == 1);
}

void map_jps_pillars(const Preset& p) {
  const PlanView jps = plan_of(p.scene);
  const PlanView astar = plan_as(p, "astar", "none");
  REQUIRE(jps.result.found);
  REQUIRE(astar.result.found);
  CHECK(jps.result.expanded == 86);  // "86 expansions, each a jump point"
  CHECK(jps.result.raw_points.size() == 27);
  CHECK(jps.result.length == doctest::Approx(59.70).epsilon(1e-4));
  CHECK(astar.result.length == doctest::Approx(jps.result.length).epsilon(1e-12));
  CHECK(astar.result.expanded == 447);
  CHECK(astar.result.expanded >= 5 * jps.result.expanded);  // "5 times as many"
  CHECK(p.says("86 expansions"));
  CHECK(p.says("447"));
}

void map_navmesh_round_room(const Preset& p) {
  const PlanView convex = plan_of(p.scene);
  const PlanView rects = plan_with(p, [](io::PlanSettingsData& s) { s.navmesh_convex = false; });
  REQUIRE(convex.result.found);
  REQUIRE(rects.result.found);
  CHECK(p.scene.settings.navmesh_convex);
  // "the same shortest path, about a third of the polygons crossed and expanded"
  CHECK(convex.result.length == doctest::Approx(rects.result.length).epsilon(1e-9));
  const double crossed = static_cast<double>(convex.result.nav_corridor->corridor.polygons.size()) /
                         static_cast<double>(rects.result.nav_corridor->corridor.polygons.size());
  const double expanded = static_cast<double>(convex.result.expanded) / static_cast<double>(rects.result.expanded);
  CHECK(crossed == doctest::Approx(1.0 / 3.0).epsilon(0.2));
  CHECK(expanded == doctest::Approx(1.0 / 3.0).epsilon(0.2));
}

// ---- splines (one route, three splines: Guesgen's smoothed preset's) ---------------------------------------

void splines_uniform(const Preset& p) {
  same_003_problem(p);
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(p.scene.settings.smoother == "catmull-rom");
  REQUIRE(v.result.raw_points.size() == 4);
  const auto& w = v.result.raw_points;  // chords "of 20 and 13" either side of one "of 4.5"
  CHECK(glm::length(w[1] - w[0]) == doctest::Approx(20.2).epsilon(0.01));
  CHECK(glm::length(w[2] - w[1]) == doctest::Approx(4.5).epsilon(0.01));
  CHECK(glm::length(w[3] - w[2]) == doctest::Approx(13.4).epsilon(0.01));
  CHECK(min_radius(v) == doctest::Approx(0.19).epsilon(0.03));
  CHECK(std::count(v.result.notes.begin(), v.result.notes.end(),
                   "3 spline span(s) repaired (too close to a wall, or a loop or hook reshaped)") == 1);
  REQUIRE(v.result.violations.size() == 1);  // "Stats lists the violation"
  CHECK(v.result.violations[0].find("tighter than the turning radius") != std::string::npos);
  CHECK(min_radius(plan_as(p, "theta", "centripetal")) > 10 * min_radius(v));
}

void splines_hermite(const Preset& p) {
  same_003_problem(p);
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(p.scene.settings.smoother == "hermite");
  CHECK(v.result.raw_points.size() == 4);
  for (const std::string& n : v.result.notes) CHECK(n.find("repaired") == std::string::npos);  // no repair
  const double uniform = min_radius(plan_as(p, "theta", "catmull-rom"));
  const double centripetal = min_radius(plan_as(p, "theta", "centripetal"));
  CHECK(min_radius(v) == doctest::Approx(0.72).epsilon(0.01));
  CHECK(min_radius(v) >= 3.5 * uniform);  // "4 times the uniform spline's 0.19"
  CHECK(min_radius(v) < centripetal);
  REQUIRE(v.result.violations.size() == 1);
  CHECK(v.result.violations[0].find("tighter than the turning radius") != std::string::npos);
}

// ---- issues and vehicles -------------------------------------------------------------------

void issue_corner_squeeze(const Preset& p) {
  // "Every planner in Compare must go round" the point where the two blocks touch, (11, 8).
  CHECK(p.scene.grid.is_blocked(10, 7));
  CHECK(p.scene.grid.is_blocked(11, 8));
  CHECK_FALSE(p.scene.grid.is_blocked(11, 7));
  CHECK_FALSE(p.scene.grid.is_blocked(10, 8));
  for (const CompareRun& row : compare_rows_from_registry()) {
    if (!row.enabled) continue;
    CAPTURE(row.planner);
    const PlanView v = plan_as(p, row.planner, row_smoother(row, p.scene.settings));
    if (!v.result.found) continue;
    CHECK(test::distance_to_polyline(Vec2(11, 8), v.result.points) > 0.05);
  }
}

void issue_radius_door(const Preset& p) {
  const PlanView v = plan_of(p.scene);
  CHECK_FALSE(v.result.found);  // "no path, but there is a door"
  CHECK_FALSE(v.result.reason.empty());  // Stats says why
  CHECK(open_in_column(p.scene.grid, 14, 0, p.scene.grid.height() - 1) == 1);  // one cell wide
  CHECK(replay_steps(v, p.scene.grid) > 0);  // the replay shows the search filling the room
  CHECK(plan_with(p, [](io::PlanSettingsData& s) { s.agent_radius = 0.5; }).result.found);  // "0.5 or less"
}

void issue_spline_corner(const Preset& p) {
  const PlanView v = plan_of(p.scene);
  REQUIRE(v.result.found);
  CHECK(v.result.max_curvature == doctest::Approx(2.0).epsilon(0.05));  // "about 2 /cell, radius 0.49"
  CHECK(min_radius(v) == doctest::Approx(0.49).epsilon(0.01));
  CHECK(v.result.curve_blocked_at == std::nullopt);  // "smooth and clear"
  CHECK(v.result.blocked_segment < 0);
  CHECK(std::any_of(v.result.notes.begin(), v.result.notes.end(),
                    [](const std::string& n) { return n.find("repaired") != std::string::npos; }));  // Stats lists them
}

void vehicle_cc_dubins(const Preset& p) {
  // "the steering angle ramps up and down on each clothoid"; Dubins "jumps between 0 and full lock".
  const double r = p.scene.settings.turning_radius;
  auto largest_jump = [](const PlanView& v) {
    double worst = 0.0;
    for (size_t i = 1; i < v.result.curvature.size(); ++i)
      worst = std::max(worst, std::abs(v.result.curvature[i] - v.result.curvature[i - 1]));
    return worst;
  };
  const PlanView cc = plan_of(p.scene);
  const PlanView dubins = plan_as(p, "dubins");
  REQUIRE(cc.result.found);
  REQUIRE(dubins.result.found);
  CHECK(largest_jump(cc) < 0.25 / r);
  CHECK(largest_jump(dubins) >= 0.99 / r);
}

// ---- crowds: what the notes say of the scenes (their motion: test_sandbox_scene_dynamic) ---

void crowd_circle_swap(const Preset& p) {
  REQUIRE(p.scene.units.size() == 12);  // "Twelve units on a circle"
  const Vec2 centre(14, 14);
  for (const io::UnitData& u : p.scene.units) {
    REQUIRE(u.goal.has_value());
    CHECK(glm::length(u.pose.pos - centre) == doctest::Approx(10.0).epsilon(1e-4));
    CHECK(glm::length(u.goal->pos - (centre * 2.0 - u.pose.pos)) < 1e-3);  // "the opposite point"
  }
}

void crowd_doorway(const Preset& p) {
  REQUIRE(p.scene.units.size() == 8);  // "Eight people"
  for (const io::UnitData& u : p.scene.units) CHECK(u.preset == "person");
  CHECK(open_in_column(p.scene.grid, 12, 0, p.scene.grid.height() - 1) == 1);  // "one door a cell wide"
}

void crowd_corridor(const Preset& p) {
  REQUIRE(p.scene.units.size() == 6);
  int east = 0;
  for (const io::UnitData& u : p.scene.units) east += u.goal->pos.x > u.pose.pos.x;
  CHECK(east == 3);  // "two groups meet head-on"
  CHECK(open_in_column(p.scene.grid, 15, 0, p.scene.grid.height() - 1) == 3);  // "three cells wide"
}

void crowd_door_closing(const Preset& p) {
  REQUIRE(p.scene.doors.size() == 1);
  CHECK(p.scene.doors[0].open_at_start);
  CHECK(p.scene.doors[0].toggle_times == std::vector<double>{1.5});  // "at 1.5 s it closes"
  CHECK(p.scene.units.size() == 2);  // "two people"
  CHECK(open_in_row(p.scene.grid, 10, 0, p.scene.grid.width() - 1) == 2);  // the door and "the other doorway"
}

void crowd_garbage_truck(const Preset& p) {
  REQUIRE(p.scene.moving_obstacles.size() == 1);  // "a moving box"
  CHECK(p.scene.units.size() == 6);               // "six people"
  const auto& route = p.scene.moving_obstacles[0].route;
  REQUIRE(route.size() == 2);
  CHECK(route[0].x == route[1].x);  // "down the street"
}

// ---- scenes without a note: their names are their claims -----------------------------------

void bench(const Preset& p, int size, size_t units) {
  CHECK(p.entry.teaches.empty());
  CHECK(p.scene.grid.width() == size);
  CHECK(p.scene.grid.height() == size);
  CHECK(p.scene.units.size() == units);
  CHECK(plan_of(p.scene).result.found);
}

void demo(const Preset& p) {
  CHECK(p.entry.teaches.empty());
  CHECK(p.scene.name == "demo: three walls and two swamps");
  CHECK(plan_of(p.scene).result.found);
}

using Check = std::function<void(const Preset&)>;

/// Every preset's stem (its file name without ".json") and the check of its note's claims.
std::map<std::string, Check> claims() {
  return {
      {"catmull-rom-route", catmull_rom_post},
      {"tower22-quad-corridor", tower22_corridor},
      {"guesgen-1-zigzag", guesgen_zigzag},
      {"guesgen-2-straightened-in-search", guesgen_turn_penalty},
      {"guesgen-3-straightened-afterwards", guesgen_straightened},
      {"guesgen-4-smoothed", guesgen_smoothed},
      {"pinter-tank-figure-8", pinter_figure_8},
      {"pinter_tank_turn", pinter_tank_turn},
      {"arena-movingai", map_arena},
      {"jps-pillars", map_jps_pillars},
      {"navmesh-convex-round-room", map_navmesh_round_room},
      {"uniform-catmull-rom", splines_uniform},
      {"hermite", splines_hermite},
      {"diagonal-corner-squeeze", issue_corner_squeeze},
      {"radius-closes-the-door", issue_radius_door},
      {"spline-cuts-corner", issue_spline_corner},
      {"cc-dubins-steering", vehicle_cc_dubins},
      {"circle-swap", crowd_circle_swap},
      {"doorway", crowd_doorway},
      {"corridor-head-on", crowd_corridor},
      {"door-closing", crowd_door_closing},
      {"garbage-truck", crowd_garbage_truck},
      {"bench256", [](const Preset& p) { bench(p, 256, 0); }},
      {"bench512", [](const Preset& p) { bench(p, 512, 50); }},
      {"demo", demo},
  };
}

std::string stem_of(const GalleryEntry& e) { return std::filesystem::path(e.path).stem().string(); }

}  // namespace

TEST_CASE("gallery claims: every preset has its note's claims checked, and every claim a preset") {
  const std::vector<GalleryEntry> entries = scan_gallery(kScenes);
  const auto table = claims();
  std::set<std::string> stems;
  for (const GalleryEntry& e : entries) {
    CHECK_MESSAGE(stems.insert(stem_of(e)).second, "two presets named " << stem_of(e));
    CHECK_MESSAGE(table.count(stem_of(e)) == 1,
                  "preset " << e.path << " has no entry in claims(): a note that no test checks is not shipped");
  }
  for (const auto& [stem, check] : table) CHECK_MESSAGE(stems.count(stem) == 1, "claims of a preset that is gone: " << stem);
}

TEST_CASE("gallery claims: each preset shows what its note says") {
  const auto table = claims();
  for (const GalleryEntry& e : scan_gallery(kScenes)) {
    const auto it = table.find(stem_of(e));
    if (it == table.end()) continue;  // the test case above names it
    INFO(e.path);
    auto scene = plan::load_scene(e.path);
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    it->second(Preset{e, std::move(*scene)});
  }
}

namespace {

/// The sandbox, headless, opening presets the way the Gallery tab does.
struct GalleryUi : test::SandboxUi {
  GalleryUi() : SandboxUi(test::small_scene("gallery claims"), 2) {}
  Inspector& in() { return sb().inspector(); }
  void open(const GalleryEntry& e) {
    REQUIRE(in().open_preset(sb(), e));
    sb().units().set_playing(false);  // units stand still: pixels change only with the replay
    idle(3);
  }
  std::vector<uint8_t> capture() {
    std::vector<uint8_t> px;
    host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
    return px;
  }
};

const CompareRun* row_of(GalleryUi& ui, const std::string& planner) {
  for (const CompareRun& r : ui.in().compare_runs())
    if (r.planner == planner) return &r;
  return nullptr;
}

/// Points along the final path, a cell apart, at least 1.5 cells from the start and the goal
/// (their markers are drawn at every step) and inside the canvas.
std::vector<ImVec2> path_samples(GalleryUi& ui) {
  std::vector<ImVec2> out;
  const auto& pts = ui.sb().plan().result.points;
  const Vec2 s = ui.sb().scene().start.pos, g = ui.sb().scene().goal.pos;
  for (size_t i = 1; i < pts.size(); ++i) {
    const int n = std::max(1, static_cast<int>(glm::length(pts[i] - pts[i - 1])));
    for (int k = 0; k < n; ++k) {
      const Vec2 p = pts[i - 1] + (pts[i] - pts[i - 1]) * ((k + 0.5) / n);
      if (glm::length(p - s) < 1.5 || glm::length(p - g) < 1.5) continue;
      const ImVec2 q = ui.sb().world_to_screen(p);
      if (q.x >= 4 && q.y >= 4 && q.x < static_cast<float>(ui.host->width() - 4) && q.y < 540) out.push_back(q);
    }
  }
  return out;
}

/// Of `at`, the share of points where some pixel within 3 px differs between two frames.
double share_changed(GalleryUi& ui, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b,
                     const std::vector<ImVec2>& at) {
  if (at.empty()) return 1.0;
  int changed = 0;
  const int w = ui.host->width();
  for (const ImVec2& q : at) {
    bool diff = false;
    for (int dy = -3; dy <= 3 && !diff; ++dy)
      for (int dx = -3; dx <= 3 && !diff; ++dx) {
        const size_t i = (static_cast<size_t>(static_cast<int>(q.y) + dy) * static_cast<size_t>(w) +
                          static_cast<size_t>(static_cast<int>(q.x) + dx)) * 4;
        diff = a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2];
      }
    changed += diff;
  }
  return static_cast<double>(changed) / static_cast<double>(at.size());
}

/// Opens the replay one step short of its end and at its end: the final path (drawn as the
/// path, the curvature ramp, spline control points or compare rows) shows only at the end.
void check_path_waits(GalleryUi& ui, const std::string& what) {
  ReplayModel& r = ui.in().replay();
  if (r.empty() || !ui.sb().plan().result.found) return;
  CAPTURE(what);
  r.set_step(r.steps());
  ui.idle(1);
  CHECK_FALSE(ui.in().hides_path());
  const auto at_end = ui.capture();
  r.set_step(r.steps() - 1);
  ui.idle(1);
  CHECK(ui.in().hides_path());
  const auto before = ui.capture();
  const auto samples = path_samples(ui);
  const double changed = share_changed(ui, at_end, before, samples);
  MESSAGE(what << ": " << r.steps() << " steps, the last step changes " << changed * 100 << "% of " << samples.size()
               << " points along the path");
  CHECK(changed >= 0.7);
  r.set_step(r.steps());
}

}  // namespace

TEST_CASE("gallery claims: Compare lists the rows each note talks about, with their verdicts") {
  GalleryUi ui;
  for (const GalleryEntry& e : scan_gallery(kScenes)) {
    if (std::find(e.views.begin(), e.views.end(), "compare") == e.views.end()) continue;
    INFO(e.path);
    ui.open(e);
    REQUIRE(ui.in().compare_shown());
    CHECK_FALSE(ui.in().compare_busy());
    // The scene's own planner always has its row; so has each "compare:<planner>" view.
    const CompareRun* own = row_of(ui, ui.sb().scene().settings.planner);
    REQUIRE(own != nullptr);
    CHECK(own->enabled);
    for (const std::string& v : e.views)
      if (v.rfind("compare:", 0) == 0) {
        const CompareRun* r = row_of(ui, v.substr(8));
        REQUIRE_MESSAGE(r != nullptr, v);
        CHECK(r->enabled);
        CHECK(r->view.result.found);
      }
  }
  // Pinter's figure 8 under the vehicle's rules: plain A* invalid, Directional A* valid and best.
  for (const GalleryEntry& e : scan_gallery(kScenes)) {
    if (stem_of(e) != "pinter-tank-figure-8") continue;
    ui.open(e);
    const CompareRanking ranking = ui.in().compare_ranking();
    const auto& rows = ui.in().compare_runs();
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].planner == "astar") CHECK(ranking.checks[i].verdict == RowVerdict::ignores_turning);
      if (rows[i].planner == "directional") CHECK(ranking.checks[i].valid());
    }
    REQUIRE(ranking.best.has_value());
    CHECK(rows[*ranking.best].planner != "astar");
  }
}

TEST_CASE("replay: the final path shows only at the replay's last step, for every preset and planner") {
  GalleryUi ui;
  for (const GalleryEntry& e : scan_gallery(kScenes)) {
    if (e.category == "crowds" || stem_of(e).rfind("bench", 0) == 0) continue;  // no lesson in their search
    ui.open(e);
    check_path_waits(ui, stem_of(e));
  }
  // Every search planner, with every overlay that draws the path on and Compare shown.
  for (const GalleryEntry& e : scan_gallery(kScenes))
    if (stem_of(e) == "guesgen-4-smoothed") ui.open(e);
  for (const char* planner : {"astar", "dijkstra", "jps", "theta", "navmesh", "directional", "hybrid"}) {
    io::PlanSettingsData& s = ui.sb().scene().settings;
    s.planner = planner;
    s.smoother.clear();
    (void)normalize_settings(s);
    ui.sb().replan_now();
    ui.in().all_overlays_on();
    ui.idle(3);
    ui.in().run_compare(ui.sb());
    ui.idle(2);
    check_path_waits(ui, planner);
  }
}

TEST_CASE("replay: its steps and Stats' expansions agree, or the difference is said where both are shown") {
  auto scene = plan::load_scene(kScenes + "/articles/guesgen-1-zigzag.json");
  REQUIRE(scene.ok());
  const PlanView grid = plan_of(*scene);
  CHECK(replay_steps(grid, scene->grid) == grid.result.expanded + 1);  // the goal's pop
  CHECK(ReplayModel::steps_vs_expanded(53, 52) ==
        "53 steps: the 52 expansions Stats counts, then the goal taken off the open list");
  io::Scene dir = *scene;
  dir.settings.planner = "directional";
  dir.settings.smoother = "none";
  const PlanView poses = plan_of(dir);
  CHECK(replay_steps(poses, dir.grid) == poses.result.expanded);  // heading searches record expansions only
  CHECK(ReplayModel::steps_vs_expanded(104, 104) == "104 steps, one per expansion Stats counts");
  CHECK(ReplayModel::steps_vs_expanded(2, 1) == "2 steps: the 1 expansion Stats counts, then the goal taken off the open list");
}
