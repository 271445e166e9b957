// The planning service (app/plan) and its registry: the one place the CLI and the sandbox
// turn settings into a plan.

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "pathlab/directional_astar.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/navmesh_search.hpp"
#include "navmesh_test_support.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/pose_smoother.hpp"

using namespace pathlab;
using namespace pathlab::plan;

namespace {

Grid open_grid(int w, int h) { return Grid::create(w, h).value(); }

Grid all_walls(int w, int h) {
  Grid g = open_grid(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) g.set_blocked(x, y, true);
  return g;
}

PlanRequest request(const char* planner, const char* smoother, Pose start, Pose goal) {
  PlanRequest r;
  r.start = start;
  r.goal = goal;
  r.settings.planner = planner;
  r.settings.smoother = smoother;
  return r;
}

const char* none() { return smoother_name(SmootherId::none); }

}  // namespace

TEST_CASE("registry: every planner and smoother is found by its name, and each family has a default") {
  std::set<std::string> names;
  for (const PlannerInfo& p : planners()) {
    REQUIRE(find_planner(p.name) == &p);
    CHECK(&planner_info(p.id) == &p);
    CHECK(names.insert(p.name).second);  // no name twice
    CHECK(std::string(p.help).size() > 20);
    const auto smoothers = smoothers_for(p.family);
    REQUIRE(!smoothers.empty());
    for (const SmootherInfo& s : smoothers) CHECK(find_smoother(s.name, p.family) == &s);
  }
  CHECK(names.size() == 12);
  CHECK(smoothers_for(PlannerFamily::grid).front().id == SmootherId::none);
  CHECK(smoothers_for(PlannerFamily::navmesh).front().id == SmootherId::funnel);
  CHECK(find_smoother(smoother_name(SmootherId::funnel), PlannerFamily::grid) == nullptr);
  CHECK(find_smoother(smoother_name(SmootherId::catmull_rom), PlannerFamily::grid)->spline);
  CHECK(find_planner("warp-drive") == nullptr);
  for (const OptionInfo& o : options()) {
    CHECK(&option_info(o.id) == &o);
    CHECK(o.min <= o.slider_min);
    CHECK(o.slider_min < o.slider_max);
    CHECK(o.slider_max <= o.max);
    if (o.logarithmic) CHECK(o.slider_max / std::max(o.slider_min, 1e-3) > 4.0);
  }
}

TEST_CASE("registry: unknown scene names are rejected with the key") {
  CHECK(check_scene_names(planner_name(PlannerId::hybrid), none()).empty());
  const std::string planner = check_scene_names("warp-drive", none());
  CHECK(planner.find("settings.planner") == 0);
  CHECK(planner.find("'warp-drive'") != std::string::npos);
  CHECK(planner.find(planner_name(PlannerId::reeds_shepp)) != std::string::npos);  // lists the known ones
  const std::string smoother = check_scene_names(planner_name(PlannerId::astar), "butter");
  CHECK(smoother.find("settings.smoother") == 0);
  CHECK(smoother.find("'butter'") != std::string::npos);
}

TEST_CASE("service: a grid plan is the core's grid search, smoothed by the named smoother") {
  // Two staggered walls: the path bends round both.
  Grid grid = open_grid(40, 30);
  for (int y = 0; y < 24; ++y) grid.set_blocked(12, y, true);
  for (int y = 6; y < 30; ++y) grid.set_blocked(26, y, true);
  const Pose start{Vec2(1.5, 1.5), 0.0}, goal{Vec2(37.5, 27.5), 0.0};
  GridPathfinder finder(grid);
  const auto direct = finder.find_path(GridPlanner::astar, cell_of(start.pos), cell_of(goal.pos));
  REQUIRE(direct);
  REQUIRE(direct->found);
  PlanService service;
  const PlanResult r = service.plan(grid, request(planner_name(PlannerId::astar), none(), start, goal));
  REQUIRE(r.error.empty());
  CHECK(r.found);
  CHECK(r.points == direct->points);
  CHECK(r.raw_points == direct->points);
  CHECK(r.expanded == direct->expanded);
  CHECK(r.length == doctest::Approx(direct->length).epsilon(1e-12));
  const PlanResult los = service.plan(grid, request(planner_name(PlannerId::astar), "los", start, goal));
  REQUIRE(los.found);
  CHECK(los.points.size() < r.points.size());
  CHECK(los.length < r.length);
  CHECK(los.blocked_segment < 0);
}

TEST_CASE("service: a bad start or goal fails before any preprocessing, in the core's words") {
  // Every family's message is the one its core search gives for the same query.
  Grid grid = open_grid(30, 20);
  for (int y = 0; y < 20; ++y) grid.set_blocked(10, y, y != 10);
  const Pose in_wall{Vec2(10.5, 3.5), 0.0}, free_pose{Vec2(2.5, 2.5), 0.0}, outside{Vec2(31.0, 2.0), 0.0};
  PlanService service;

  GridPathfinder finder(grid);
  const auto grid_core = finder.find_path(GridPlanner::astar, cell_of(in_wall.pos), cell_of(free_pose.pos));
  REQUIRE(!grid_core);
  PlanResult r = service.plan(grid, request(planner_name(PlannerId::astar), none(), in_wall, free_pose));
  CHECK(r.stage == PlanStage::query);
  CHECK(r.error == grid_core.error().message);

  Navmesh mesh = Navmesh::build(grid, default_navmesh_def()).value();
  NavmeshQuery query(mesh);
  for (const Pose& bad : {in_wall, outside}) {
    const auto nav_core = query.find_corridor(free_pose.pos, bad.pos);
    REQUIRE(!nav_core);
    r = service.plan(grid, request(planner_name(PlannerId::navmesh), smoother_name(SmootherId::funnel), free_pose, bad));
    CHECK(r.stage == PlanStage::query);
    CHECK(r.error == nav_core.error().message);
  }
  CHECK(r.navmesh == nullptr);  // nothing was built for the bad query

  for (PlannerId id : {PlannerId::directional, PlannerId::hybrid}) {
    CAPTURE(planner_name(id));
    std::optional<HeadingPath> core;
    const Pose start{Vec2(10.7, 3.2), 1.0};
    if (id == PlannerId::directional) {
      auto d = DirectionalAStar::create(grid, default_directional_astar_options()).value();
      core = d.plan(start, free_pose).value();
    } else {
      auto h = HybridAStar::create(grid, default_hybrid_astar_options()).value();
      core = h.plan(start, free_pose).value();
    }
    REQUIRE(core->failure == HeadingFailure::start_in_collision);
    r = service.plan(grid, request(planner_name(id), none(), start, free_pose));
    CHECK(r.stage == PlanStage::query);
    CHECK(r.error == core->reason);
  }
}

TEST_CASE("service: an all-wall map answers without building a navmesh") {
  const Grid grid = all_walls(512, 512);
  PlanService service;
  const PlanResult r = service.plan(grid, request(planner_name(PlannerId::navmesh), smoother_name(SmootherId::funnel),
                                                  Pose{Vec2(10, 10), 0}, Pose{Vec2(100, 100), 0}));
  CHECK(r.stage == PlanStage::query);
  CHECK(r.error == "start (10.000000,10.000000) is inside a wall");
  CHECK(r.navmesh == nullptr);
}

TEST_CASE("service: the navmesh is kept per agent radius and dropped when the map changes") {
  Grid grid = open_grid(30, 20);
  for (int y = 0; y < 15; ++y) grid.set_blocked(12, y, true);
  PlanService service;
  PlanRequest req = request(planner_name(PlannerId::navmesh), smoother_name(SmootherId::funnel), Pose{Vec2(3, 3), 0},
                            Pose{Vec2(25, 3), 0});
  const PlanResult thin = service.plan(grid, req);
  REQUIRE(thin.found);
  req.settings.agent_radius = 0.5;
  const PlanResult wide = service.plan(grid, req);
  REQUIRE(wide.found);
  CHECK(thin.navmesh != wide.navmesh);
  CHECK(wide.length > thin.length);  // more clearance round the wall's end
  req.settings.agent_radius = 0.0;
  CHECK(service.plan(grid, req).navmesh == thin.navmesh);  // the same mesh, not a rebuild
  CHECK(service.navmesh(grid, 0.5, true, req.settings.navmesh_corners) == wide.navmesh);
  grid.set_blocked(12, 15, true);
  service.map_changed();
  const PlanResult after = service.plan(grid, req);
  CHECK(after.navmesh != thin.navmesh);
  REQUIRE(after.found);
  CHECK(after.length > thin.length);  // the wall is longer now
}

TEST_CASE("service: settings a planner does not take are refused or ignored as the registry says") {
  const Grid grid = open_grid(20, 20);
  PlanService service;
  PlanRequest req = request(planner_name(PlannerId::navmesh), smoother_name(SmootherId::catmull_rom),
                            Pose{Vec2(2, 2), 0}, Pose{Vec2(17, 17), 0});
  PlanResult r = service.plan(grid, req);
  CHECK(r.stage == PlanStage::settings);
  CHECK(r.error.find(smoother_name(SmootherId::catmull_rom)) != std::string::npos);
  // JPS has no turn penalty: the option is not passed to it (the core would refuse it).
  req = request(planner_name(PlannerId::jps), none(), Pose{Vec2(2, 2), 0}, Pose{Vec2(17, 17), 0});
  req.settings.turn_penalty = 0.5;
  r = service.plan(grid, req);
  CHECK(r.error.empty());
  CHECK(r.found);
  io::PlanSettingsData s;
  s.planner = planner_name(PlannerId::theta);
  s.smoother = smoother_name(SmootherId::funnel);
  s.connectivity = 4;
  CHECK(!normalize_settings(s).empty());
  CHECK(s.smoother == std::string(none()));
  CHECK(s.connectivity == 8);
}

TEST_CASE("service: the budget's expansion limit stops a grid search") {
  const Grid grid = open_grid(200, 200);
  PlanService service;
  PlanRequest req = request(planner_name(PlannerId::dijkstra), none(), Pose{Vec2(1, 1), 0}, Pose{Vec2(198, 198), 0});
  req.budget.max_expansions = 100;
  const PlanResult r = service.plan(grid, req);
  CHECK(r.error.empty());
  CHECK(!r.found);
  CHECK(r.expanded <= 101);
  CHECK(!r.reason.empty());
  req.budget.max_expansions = 0;
  CHECK(service.plan(grid, req).found);
}

TEST_CASE("service: curve planners use the request's turning radius; the turning smoother meets headings") {
  const Grid grid = open_grid(40, 40);
  PlanService service;
  PlanRequest req = request(planner_name(PlannerId::dubins), none(), Pose{Vec2(10, 20), 0.0}, Pose{Vec2(10, 25), kPi});
  for (double radius : {1.5, 2.0, 3.0}) {
    req.settings.turning_radius = radius;
    const PlanResult r = service.plan(grid, req);
    REQUIRE(r.found);
    REQUIRE(r.segments);
    CHECK(r.max_curvature == doctest::Approx(1.0 / radius).epsilon(1e-9));
    CHECK(!r.word.empty());
    CHECK(r.headings.size() == r.points.size());
    CHECK(r.violations.empty());
  }
  req = request(planner_name(PlannerId::astar), smoother_name(SmootherId::turning), Pose{Vec2(5.5, 5.5), 0.0},
                Pose{Vec2(30.5, 30.5), kPi / 2});
  req.settings.turning_radius = 2.0;
  const PlanResult turned = service.plan(grid, req);
  REQUIRE(turned.found);
  REQUIRE(turned.headings.size() == turned.points.size());
  CHECK(std::abs(wrap_angle(turned.headings.front() - 0.0)) < 1e-9);
  CHECK(std::abs(wrap_angle(turned.headings.back() - kPi / 2)) < 1e-9);
  CHECK(turned.length >= glm::length(req.goal.pos - req.start.pos));
}

TEST_CASE("service: every family's analysed result says whether it runs into a wall (compare mode relies on it)") {
  // A wall across the line from start to goal, with a gap at the bottom.
  Grid grid = open_grid(40, 24);
  for (int y = 0; y <= 14; ++y) grid.set_blocked(20, y, true);
  const Pose start{Vec2(5.5, 8.5), 0.0}, goal{Vec2(35.5, 8.5), 0.0};
  PlanService service;
  auto plan = [&](PlannerId planner) {
    PlanRequest req = request(planner_name(planner), "", start, goal);
    req.settings.smoother = smoothers_for(planner_info(planner).family).front().name;
    req.settings.agent_radius = 0.4;
    req.settings.turning_radius = 2.0;
    return service.plan(grid, req);
  };
  // The straight Dubins curve meets the wall where the disc of radius 0.4 first touches x = 20
  // (to the service's 1/16 cell), not at the start of the line that does.
  const PlanResult dubins = plan(PlannerId::dubins);
  REQUIRE(dubins.found);
  REQUIRE(dubins.curve_blocked_at.has_value());
  CHECK(*dubins.curve_blocked_at <= 20.0 - 0.4 - 5.5);
  CHECK(*dubins.curve_blocked_at >= 20.0 - 0.4 - 5.5 - 1.0 / 16 - 1e-9);
  CHECK(dubins.length == doctest::Approx(30.0));
  // The heading planners go round it, and the referee (the swept disc) agrees with them; the
  // polyline planners are checked segment by segment.
  for (PlannerId p : {PlannerId::hybrid, PlannerId::directional, PlannerId::astar, PlannerId::navmesh}) {
    INFO(planner_name(p));
    const PlanResult r = plan(p);
    REQUIRE(r.found);
    CHECK_FALSE(r.curve_blocked_at.has_value());
    CHECK(r.blocked_segment < 0);
    CHECK(r.violations.empty());
    CHECK(r.length > dubins.length);
  }
}

TEST_CASE("service: after map_changed the navmesh is mended where the map changed, as a fresh build would make it") {
  // Issue 28: the service builds tiled meshes and updates the tiles a stroke reaches; the
  // mended mesh equals the mesh a fresh service builds, polygon for polygon, on either kind.
  for (const bool corners : {true, false}) {
    CAPTURE(corners);
    Grid grid = open_grid(90, 70);
    for (int y = 0; y < 50; ++y) grid.set_blocked(40, y, true);
    PlanService service;
    PlanRequest req = request(planner_name(PlannerId::navmesh), smoother_name(SmootherId::funnel), Pose{Vec2(3.5, 3.5), 0},
                              Pose{Vec2(80.5, 5.5), 0});
    req.settings.navmesh_corners = corners;
    REQUIRE(service.plan(grid, req).found);
    uint32_t seed = 7;
    auto next = [&](int n) { return static_cast<int>((seed = seed * 1103515245u + 12345u) >> 16) % n; };
    for (int stroke = 0; stroke < 12; ++stroke) {
      const int cx = next(90), cy = next(70), r = 1 + next(4);
      const bool paint = stroke % 3 != 2;
      for (int y = cy - r; y <= cy + r; ++y)
        for (int x = cx - r; x <= cx + r; ++x)
          if (grid.in_bounds(x, y) && !(x < 5 && y < 5) && !(x > 78 && y < 8)) grid.set_blocked(x, y, paint);
      service.map_changed();
      // Every other stroke plans on a copy, as the sandbox's worker does.
      const Grid copy = grid;
      const Grid& planned = stroke % 2 == 0 ? grid : copy;
      const PlanResult mended = service.plan(planned, req);
      PlanService fresh;
      const PlanResult rebuilt = fresh.plan(planned, req);
      REQUIRE(mended.navmesh);
      REQUIRE(rebuilt.navmesh);
      CHECK(mended.navmesh->tile_size() == kDefaultNavTileSize);
      // Compared without the spare room an updated mesh keeps in its tiles' ranges.
      const test::CanonicalMesh a = test::canonical(*mended.navmesh), b = test::canonical(*rebuilt.navmesh);
      CHECK(a.ring_vid == b.ring_vid);
      CHECK(a.ring_n == b.ring_n);
      REQUIRE(mended.found == rebuilt.found);
      if (mended.found) CHECK(mended.length == doctest::Approx(rebuilt.length).epsilon(1e-12));
    }
  }
}

TEST_CASE("service: a result keeps the mesh it planned on while later edits mend the service's copy") {
  // Issue 28: when a plan result still holds the mesh (the sandbox's view keeps the last one),
  // the service mends a copy that shares the unchanged tiles with it (Navmesh::updated); the
  // held meshes must stay exactly what they were, and every mended one equal a fresh build.
  Grid grid = open_grid(96, 80);
  for (int y = 0; y < 60; ++y) grid.set_blocked(45, y, true);
  PlanService service;
  PlanRequest req = request(planner_name(PlannerId::navmesh), smoother_name(SmootherId::funnel), Pose{Vec2(3.5, 3.5), 0},
                            Pose{Vec2(90.5, 5.5), 0});
  std::vector<PlanResult> held;
  std::vector<Grid> grids;
  held.push_back(service.plan(grid, req));
  grids.push_back(grid);
  REQUIRE(held.back().navmesh);
  uint32_t seed = 11;
  auto next = [&](int n) { return static_cast<int>((seed = seed * 1103515245u + 12345u) >> 16) % n; };
  for (int stroke = 0; stroke < 10; ++stroke) {
    const int cx = 10 + next(76), cy = 12 + next(60), r = 1 + next(5);  // never over the ends
    const bool paint = stroke % 3 != 2;
    for (int y = cy - r; y <= cy + r; ++y)
      for (int x = cx - r; x <= cx + r; ++x) grid.set_blocked(x, y, paint);
    service.map_changed();
    held.push_back(service.plan(grid, req));
    grids.push_back(grid);
    REQUIRE(held.back().navmesh);
    if (paint) CHECK(held.back().navmesh != held[held.size() - 2].navmesh);  // (an erase may change nothing)
  }
  for (size_t i = 0; i < held.size(); ++i) {
    CAPTURE(i);
    PlanService fresh;
    const PlanResult rebuilt = fresh.plan(grids[i], req);
    REQUIRE(rebuilt.navmesh);
    // An updated mesh keeps spare room in its tiles' ranges: compared without it.
    const test::CanonicalMesh a = test::canonical(*held[i].navmesh), b = test::canonical(*rebuilt.navmesh);
    CHECK(a.ring_vid == b.ring_vid);
    CHECK(a.ring_n == b.ring_n);
    CHECK(a.ring_p == b.ring_p);
    CHECK(a.on_wall == b.on_wall);
    CHECK(a.listed == b.listed);
    REQUIRE(held[i].found == rebuilt.found);
    if (held[i].found) CHECK(held[i].length == doctest::Approx(rebuilt.length).epsilon(1e-12));
  }
}

TEST_CASE("service: the vehicle smoother after a heading planner is bounded by the search's own work") {
  // Issue 24: the service gives the vehicle smoother pose_smooth_tries_for(expanded) tries, so
  // a short search gets a smoother about as dear as itself, counted in work (the same plan on
  // every machine). The service's plan equals the core smoother run with that budget on the
  // search's path, and on some of these short searches the budget did stop it.
  Grid grid = open_grid(64, 64);
  generate_random(grid, 0.10, 24);
  PlanService service;
  const ClearanceField field(grid);
  uint32_t seed = 7;
  auto next = [&](double n) { return n * static_cast<double>((seed = seed * 1103515245u + 12345u) >> 8) / 16777216.0; };
  int planned = 0, stopped = 0;
  for (int q = 0; q < 80 && planned < 12; ++q) {
    const Pose start{Vec2(2 + next(60), 2 + next(60)), next(6.28) - 3.14};
    const Pose goal{Vec2(2 + next(60), 2 + next(60)), next(6.28) - 3.14};
    if (!point_clear(grid, start.pos, 1.0) || !point_clear(grid, goal.pos, 1.0)) continue;
    PlanRequest req = request(planner_name(PlannerId::hybrid), none(), start, goal);
    req.settings.agent_radius = 0.3;
    const PlanResult raw = service.plan(grid, req);
    if (!raw.found || !raw.segments) continue;
    req.settings.smoother = smoother_name(SmootherId::vehicle);
    const PlanResult whole = service.plan(grid, req);
    REQUIRE(whole.found);
    REQUIRE(whole.segments);
    PoseSmoothDef def = default_pose_smooth_def();
    def.turning_radius = req.settings.turning_radius;
    def.agent_radius = req.settings.agent_radius;
    def.max_tries = pose_smooth_tries_for(raw.expanded);
    auto bounded = smooth_pose_path(grid, *raw.segments, def, field);
    REQUIRE(bounded.ok());
    CAPTURE(q);
    CHECK(bounded->tries <= def.max_tries);
    CHECK(bounded->path.length() == whole.segments->length());  // the service's plan, bit for bit
    CHECK(bounded->path.segments().size() == whole.segments->segments().size());
    ++planned;
    stopped += bounded->budget_spent ? 1 : 0;
  }
  CHECK(planned >= 8);
  CHECK(stopped >= 1);
  MESSAGE("vehicle smoother stopped by the search's budget on ", stopped, " of ", planned, " plans");
}

TEST_CASE("service: after map_changed the heading planners mend their tables; plans equal a fresh service's") {
  // Issue 28: the Hybrid A* and directional planners, and the vehicle smoother's clearance
  // field, are mended where the strokes changed the map instead of built anew; every plan
  // equals the plan of a fresh service on the same map.
  for (const PlannerId id : {PlannerId::hybrid, PlannerId::directional}) {
    CAPTURE(planner_name(id));
    Grid grid = open_grid(64, 48);
    for (int y = 0; y < 30; ++y) grid.set_blocked(30, y, true);
    PlanService service;
    PlanRequest req = request(planner_name(id), id == PlannerId::hybrid ? smoother_name(SmootherId::vehicle) : none(),
                              Pose{Vec2(4.5, 4.5), 0}, Pose{Vec2(58.5, 6.5), 0});
    req.settings.turning_radius = 2.0;
    REQUIRE(service.plan(grid, req).found);
    uint32_t seed = 11;
    auto next = [&](int n) { return static_cast<int>((seed = seed * 1103515245u + 12345u) >> 16) % n; };
    int found = 0;
    for (int stroke = 0; stroke < 10; ++stroke) {
      const int cx = next(64), cy = next(48), r = 1 + next(3);
      const bool paint = stroke % 3 != 2;
      for (int y = cy - r; y <= cy + r; ++y)
        for (int x = cx - r; x <= cx + r; ++x)
          if (grid.in_bounds(x, y) && !(x < 9 && y < 9) && !(x > 53 && y < 11)) grid.set_blocked(x, y, paint);
      service.map_changed();
      // Every other stroke plans on a copy, as the sandbox's worker does.
      const Grid copy = grid;
      const Grid& planned = stroke % 2 == 0 ? grid : copy;
      const PlanResult mended = service.plan(planned, req);
      PlanService fresh;
      const PlanResult rebuilt = fresh.plan(planned, req);
      REQUIRE(mended.error == rebuilt.error);
      REQUIRE(mended.found == rebuilt.found);
      found += mended.found ? 1 : 0;
      CHECK(mended.points == rebuilt.points);
      CHECK(mended.headings == rebuilt.headings);
    }
    CHECK(found > 3);
  }
}
