// Edit-to-plan latency (issue 28): a brush stroke lands on the map, then the next plan with
// A*, JPS or Theta* runs. "before" is what the planning service did until issue 28 (a new
// GridPathfinder per edit: padded map, node records and JPS's jump tables rebuilt whole),
// "after" is GridPathfinder::update() with the stroke's rectangle and a query on the mended
// pathfinder. Both run on the same map, the same stroke and the same query, interleaved, in one
// process; each sample is thread CPU time from the edit to the finished plan (the stroke's own
// painting excluded). Strokes alternate paint and erase at random places (radius 1, 4, 8 cells,
// the sandbox's disc brush), queries join two random free cells.
//
// Second table: the first query on a fresh map per planner (a new pathfinder: all set-up
// included) against the same query on the warm pathfinder; their difference is the set-up.
//
// Navmesh tables (the exact search, agent radius 0, on the convex mesh and the wall-corner
// mesh): "before" rebuilds the untiled mesh and its query tables per edit, "after" is
// Navmesh::update() on the tiled mesh (NavmeshDef::tile_size = kDefaultNavTileSize) plus
// NavmeshQuery::reset(); both then plan between two random free cell centres and must agree
// (same reachability, lengths within 1e-9 relative). Then the first build of each mesh, untiled
// and tiled (build + query tables).
//
// Fields (Hybrid A*'s goal distance field, agent radius 0, and the clearance field of the
// vehicle checks): "before" builds them anew per edit (what the planning service's planners
// did: a new field per stroke), "after" is GoalDistance::edited() + begin() settled up to a
// random start, and ClearanceField::update(); both must agree (the start's distance, every
// clearance sample).
//
// Hybrid A* (issue 28): "before" makes a new planner per edit (clearance rings and field, goal
// distance field), "after" is HybridAStar::edited() on the kept planner; both then plan the
// same short query and must give the same length.
//
// Service (navmesh through the planning service, as the sandbox plans): a stroke, map_changed()
// and the next plan of the "navmesh" planner with the funnel, while the last plan's result
// (which holds its mesh, as the sandbox's view does) is still alive: what the service pays to
// mend a mesh a result shares, its query tables, the search and the smoother.
//
// Cut (issue 28): a stroke that cuts the map in two (a band of 2r + 1 blocked columns, r = 1, 4,
// 8, from the top edge to the bottom one), then a plan from one part to the other, which must
// find nothing: the mend and the plan, per planner (A*, JPS, Theta*, the exact navmesh search on
// either tiled mesh, Hybrid A*, Directional A*), on kept planners as the service keeps them. Not
// in the default run.
//
//   bench_live_edit [--strokes N] [--maps a,b,...] [--only grid|navmesh|fields|hybrid|service|cut]
//                   [--after-only] [--planners astar,jps,theta] [--lengths]
//                   [--cut-planners astar,jps,theta,convex,corners,hybrid,directional] [--tile N]
//                   [--tile-threads N]
//
// --planners: the grid planners of the first two tables (all three by default). --lengths: each
// "after" answer of the first table on stderr (found, length, expansions), for comparing the
// answers of two builds on the same queries.
//
// --cut-planners: the rows of the cut table (all seven by default). --tile: the tile size of the
// tiled meshes (kDefaultNavTileSize by default; the service's meshes keep theirs).
// --tile-threads: the threads their tiles are built on (NavmeshDef::tile_threads; by default
// kDefaultNavTileThreads, the service's). The navmesh "after" and cut columns count the CPU
// time of every thread; the cut table adds the calling thread's share and the wall time.
//
// --after-only: the navmesh rows skip the untiled rebuild ("before", and the check of the
// answers against it) and the first-build table: for timing the update alone, quickly.
//
// Maps: generated random 10% and rooms (256x256, 512x512) and the Moving AI maps Berlin_0_256,
// 8room_000 and random512-10-0 (tests/data/movingai). Not a Google Benchmark program: one table
// with before and after side by side.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <time.h>

#include "../tests/generated_maps.hpp"
#include "heading/heading_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/registry.hpp"
#include "thread_clock.hpp"

using namespace pathlab;
using bench::thread_ms;
using test::brush_stroke;
using test::random_free_cell;

namespace {

bool g_after_only = false;  // --after-only
bool g_lengths = false;     // --lengths: each "after" answer's length and expansions on stderr
int g_tile = kDefaultNavTileSize;  // --tile: the tiled meshes' tile size
int g_tile_threads = kDefaultNavTileThreads;  // --tile-threads: NavmeshDef::tile_threads of the tiled meshes

/// CPU time of every thread of the process: the calling thread's and the tile threads a
/// navmesh update starts (this program runs no others). [Units: ms]
double process_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

/// Monotonic wall time: what a user waits for when an update runs on several threads; on a
/// loaded machine it includes the time the threads wait for a core. [Units: ms]
double wall_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}
std::vector<int> g_cut_planners;  // --cut-planners: the rows of the cut table (all when empty)
std::vector<int> g_planners = {0, 1, 2};  // --planners: the grid planners of the first tables

struct NamedMap {
  std::string name;
  Grid grid;
};

Grid generated(int side, bool rooms, uint32_t seed) {
  Grid g = Grid::create(side, side).value();
  if (rooms) generate_rooms(g, 24, 3, seed);
  else generate_random(g, 0.10, seed);
  return g;
}

std::vector<NamedMap> load_maps(const std::vector<std::string>& only) {
  std::vector<NamedMap> maps;
  auto want = [&](const std::string& n) { return only.empty() || std::find(only.begin(), only.end(), n) != only.end(); };
  for (int side : {256, 512}) {
    const std::string s = std::to_string(side);
    if (want("random10-" + s)) maps.push_back({"random10-" + s, generated(side, false, 1)});
    if (want("rooms-" + s)) maps.push_back({"rooms-" + s, generated(side, true, 2)});
  }
  for (const char* name : {"Berlin_0_256", "8room_000", "Berlin_0_512", "random512-10-0"}) {
    if (!want(name)) continue;
    auto g = load_movingai_map(std::string(PATHLAB_MOVINGAI_DIR) + "/" + name + ".map");
    if (!g) {
      std::fprintf(stderr, "bench_live_edit: %s\n", g.error().message.c_str());
      std::exit(1);
    }
    maps.push_back({name, std::move(*g)});
  }
  return maps;
}

struct Stats {
  double median = 0, p95 = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return {};
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5))]; };
  return {at(0.5), at(0.95)};
}

const GridPlanner kPlanners[] = {GridPlanner::astar, GridPlanner::jps, GridPlanner::theta};
const char* const kTitles[] = {"A*", "JPS", "Theta*"};

/// One row: `strokes` strokes of `radius` on a copy of `base`, each planned before and after.
void edit_row(const NamedMap& m, int planner, int radius, int strokes) {
  Grid g = m.grid;
  std::mt19937 rng(static_cast<uint32_t>(1000 * planner + radius));
  GridPathfinder mended(g);
  (void)mended.find_path(kPlanners[planner], random_free_cell(g, rng), random_free_cell(g, rng));  // warm, as in the sandbox
  std::vector<double> before, after, mend;
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1);
  for (int i = 0; i < strokes; ++i) {
    const CellRect rect = brush_stroke(g, Cell{x(rng), y(rng)}, radius, i % 2 == 0 ? kBlocked : 1.0f);
    const Cell s = random_free_cell(g, rng), t = random_free_cell(g, rng);
    double t0 = thread_ms();
    GridPathfinder fresh(g);
    auto a = fresh.find_path(kPlanners[planner], s, t);
    before.push_back(thread_ms() - t0);
    t0 = thread_ms();
    if (!mended.update(g, rect).ok()) std::abort();
    const double t1 = thread_ms();
    auto b = mended.find_path(kPlanners[planner], s, t);
    after.push_back(thread_ms() - t0);
    mend.push_back(t1 - t0);
    if (!b) std::abort();
    if (g_lengths) {
      std::fprintf(stderr, "length %s %s r%d #%d found %d length %.12f expanded %lld\n", m.name.c_str(),
                   kTitles[planner], radius, i, b->found ? 1 : 0, b->length, static_cast<long long>(b->expanded));
    }
    if (g_after_only) continue;
    if (!a || a->found != b->found || a->length != b->length) {
      std::fprintf(stderr, "bench_live_edit: %s %s: mended and rebuilt answers differ\n", m.name.c_str(),
                   kTitles[planner]);
      std::exit(1);
    }
  }
  const Stats sb = stats(before), sa = stats(after), sm = stats(mend);
  std::printf("| %-14s | %-6s | %2d | %8.2f | %8.2f | %8.2f | %8.2f | %8.3f |\n", m.name.c_str(), kTitles[planner],
              radius, sb.median, sb.p95, sa.median, sa.p95, sm.median);
  std::fflush(stdout);
}

/// First query on a fresh pathfinder vs the same query warm, medians over `reps` pairs.
void first_query_row(const NamedMap& m, int planner, int reps) {
  std::mt19937 rng(static_cast<uint32_t>(77 + planner));
  std::vector<double> first, warm;
  for (int i = 0; i < reps; ++i) {
    const Cell s = random_free_cell(m.grid, rng), t = random_free_cell(m.grid, rng);
    double t0 = thread_ms();
    GridPathfinder pf(m.grid);
    (void)pf.find_path(kPlanners[planner], s, t);
    first.push_back(thread_ms() - t0);
    t0 = thread_ms();
    (void)pf.find_path(kPlanners[planner], s, t);
    warm.push_back(thread_ms() - t0);
  }
  const double f = stats(first).median, w = stats(warm).median;
  std::printf("| %-14s | %-6s | %8.2f | %8.2f | %8.2f |\n", m.name.c_str(), kTitles[planner], f, w, f - w);
  std::fflush(stdout);
}

NavmeshDef nav_def(bool corners, int tile) {
  NavmeshDef d = default_navmesh_def();
  d.corners_only = corners;
  d.tile_size = tile;
  d.tile_threads = g_tile_threads;
  return d;
}

const char* mesh_title(bool corners) { return corners ? "corners" : "convex"; }

/// One navmesh row: `strokes` strokes of `radius`, each planned on a rebuilt untiled mesh
/// (before) and on the tiled mesh after update() (after).
void navmesh_edit_row(const NamedMap& m, bool corners, int radius, int strokes) {
  Grid g = m.grid;
  std::mt19937 rng(static_cast<uint32_t>(500 + radius + (corners ? 50 : 0)));
  Navmesh tiled = Navmesh::build(g, nav_def(corners, g_tile)).value();
  NavmeshQuery tq(tiled);
  std::vector<double> before, after, mend;
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1);
  auto centre = [](Cell c) { return Vec2(c.x + 0.5, c.y + 0.5); };
  for (int i = 0; i < strokes; ++i) {
    const CellRect rect = brush_stroke(g, Cell{x(rng), y(rng)}, radius, i % 2 == 0 ? kBlocked : 1.0f);
    const Vec2 s = centre(random_free_cell(g, rng)), t = centre(random_free_cell(g, rng));
    double t0 = thread_ms();
    Result<NavSearchResult> a = fail(StatusCode::invalid_argument, "not planned");
    if (!g_after_only) {
      const Navmesh fresh = Navmesh::build(g, nav_def(corners, 0)).value();
      NavmeshQuery fq(fresh);
      a = fq.find_corridor(s, t);
    }
    before.push_back(thread_ms() - t0);
    t0 = process_ms();
    if (!tiled.update(g, rect).ok()) std::abort();
    tq.reset(tiled);
    const double t1 = process_ms();
    auto b = tq.find_corridor(s, t);
    after.push_back(process_ms() - t0);
    mend.push_back(t1 - t0);
    if (!b) std::abort();
    if (g_after_only) continue;
    if (!a || a->found != b->found || std::abs(a->length - b->length) > 1e-9 * std::max(1.0, a->length)) {
      std::fprintf(stderr, "bench_live_edit: %s navmesh %s: updated and rebuilt answers differ\n", m.name.c_str(),
                   mesh_title(corners));
      std::exit(1);
    }
  }
  const Stats sb = stats(before), sa = stats(after), sm = stats(mend);
  std::printf("| %-14s | %-7s | %2d | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f |\n", m.name.c_str(),
              mesh_title(corners), radius, sb.median, sb.p95, sa.median, sa.p95, sm.median, sm.p95);
  std::fflush(stdout);
}

/// The first build of a mesh (mesh + query tables), untiled and tiled, medians over `reps`.
void navmesh_build_row(const NamedMap& m, bool corners, int reps) {
  double med[2] = {0, 0};
  size_t polys[2] = {0, 0};
  for (const int k : {0, 1}) {
    std::vector<double> v;
    for (int i = 0; i < reps; ++i) {
      const double t0 = thread_ms();
      const Navmesh mesh = Navmesh::build(m.grid, nav_def(corners, k == 0 ? 0 : g_tile)).value();
      NavmeshQuery q(mesh);
      v.push_back(thread_ms() - t0);
      polys[k] = mesh.polygons().size();
    }
    med[k] = stats(v).median;
  }
  std::printf("| %-14s | %-7s | %8.2f | %8zu | %8.2f | %8zu |\n", m.name.c_str(), mesh_title(corners), med[0], polys[0],
              med[1], polys[1]);
  std::fflush(stdout);
}

void navmesh_tables(const std::vector<NamedMap>& maps, int strokes) {
  std::printf("\nNavmesh edit-to-plan latency, CPU ms of all threads, %d strokes a row (before: untiled mesh rebuilt; after: "
              "tiled update(), %d-cell tiles, %d tile threads)\n\n",
              strokes, g_tile, g_tile_threads);
  std::printf("| map            | mesh    | r  | before median | before p95 | after median | after p95 | update+reset median | update+reset p95 |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (const bool corners : {false, true})
      for (int r : {1, 4, 8}) navmesh_edit_row(m, corners, r, strokes);
  if (g_after_only) return;
  std::printf("\nFirst navmesh build (mesh + query tables), thread CPU ms, median of 3\n\n");
  std::printf("| map            | mesh    | untiled | polygons | tiled | polygons |\n|---|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (const bool corners : {false, true}) navmesh_build_row(m, corners, 3);
}

/// One service row: `strokes` strokes of `radius`, each followed by map_changed() and a plan
/// of the "navmesh" planner (funnel) through the planning service while the previous plan's
/// result, which holds its mesh, is still alive (the sandbox's view keeps it until the next).
void service_row(const NamedMap& m, bool corners, int radius, int strokes) {
  Grid g = m.grid;
  std::mt19937 rng(static_cast<uint32_t>(700 + radius + (corners ? 50 : 0)));
  plan::PlanService service;
  plan::PlanRequest req;
  req.settings.planner = plan::planner_name(plan::PlannerId::navmesh);
  req.settings.smoother = plan::smoother_name(plan::SmootherId::funnel);
  req.settings.navmesh_corners = corners;
  auto centre = [](Cell c) { return Vec2(c.x + 0.5, c.y + 0.5); };
  req.start.pos = centre(random_free_cell(g, rng));
  req.goal.pos = centre(random_free_cell(g, rng));
  plan::PlanResult held = service.plan(g, req);  // builds the mesh
  std::vector<double> after, pre;
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1);
  for (int i = 0; i < strokes; ++i) {
    (void)brush_stroke(g, Cell{x(rng), y(rng)}, radius, i % 2 == 0 ? kBlocked : 1.0f);
    req.start.pos = centre(random_free_cell(g, rng));
    req.goal.pos = centre(random_free_cell(g, rng));
    const double t0 = thread_ms();
    service.map_changed();
    plan::PlanResult next = service.plan(g, req);
    after.push_back(thread_ms() - t0);
    pre.push_back(next.preprocess_ms);
    if (!next.error.empty() || !next.navmesh) {  // (an erase of free cells leaves the same mesh)
      std::fprintf(stderr, "bench_live_edit: %s service: no mesh (%s)\n", m.name.c_str(), next.error.c_str());
      std::exit(1);
    }
    held = std::move(next);  // the old result (and its mesh) goes only now
  }
  const Stats sa = stats(after), sp = stats(pre);
  std::printf("| %-14s | %-7s | %2d | %8.2f | %8.2f | %8.2f | %8.2f |\n", m.name.c_str(), mesh_title(corners), radius,
              sa.median, sa.p95, sp.median, sp.p95);
  std::fflush(stdout);
}

void service_tables(const std::vector<NamedMap>& maps, int strokes) {
  std::printf("\nNavmesh through the planning service, a result holding the mesh: thread CPU ms, %d strokes a row\n\n",
              strokes);
  std::printf("| map            | mesh    | r  | plan median | plan p95 | preprocess median | preprocess p95 |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (const bool corners : {false, true})
      for (int r : {1, 4, 8}) service_row(m, corners, r, strokes);
}

/// One Hybrid A* row: `strokes` strokes of `radius`, each followed by a plan between two random
/// free cell centres at most 48 cells apart (the sandbox's scale of a unit's move) on a
/// new planner (before: what the planning service did until issue 28) and on the kept planner
/// after HybridAStar::edited() (after). Both must give the same path length.
void hybrid_edit_row(const NamedMap& m, int radius, int strokes) {
  Grid g = m.grid;
  std::mt19937 rng(static_cast<uint32_t>(1300 + radius));
  HybridAStarOptions o = default_hybrid_astar_options();
  o.max_expansions = 20000;
  HybridAStar kept = HybridAStar::create(g, o).value();
  std::vector<double> before, after, mend;
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1), near(-48, 48);
  std::uniform_real_distribution<double> heading(-kPi, kPi);
  auto centre = [](Cell c) { return Vec2(c.x + 0.5, c.y + 0.5); };
  for (int i = 0; i < strokes; ++i) {
    const CellRect rect = brush_stroke(g, Cell{x(rng), y(rng)}, radius, i % 2 == 0 ? kBlocked : 1.0f);
    const Cell s = random_free_cell(g, rng);
    Cell t = s;
    for (int tries = 0; tries < 1000 && (t == s || !g.in_bounds(t) || !g.is_free(t)); ++tries) t = Cell{s.x + near(rng), s.y + near(rng)};
    const Pose ps{centre(s), heading(rng)}, pt{centre(t), heading(rng)};
    double t0 = thread_ms();
    HybridAStar fresh = HybridAStar::create(g, o).value();
    auto a = fresh.plan(ps, pt);
    before.push_back(thread_ms() - t0);
    t0 = thread_ms();
    if (!kept.edited(g, rect).ok()) std::abort();
    const double t1 = thread_ms();
    auto b = kept.plan(ps, pt);
    after.push_back(thread_ms() - t0);
    mend.push_back(t1 - t0);
    if (!b) std::abort();
    if (g_after_only) continue;
    if (!a || a->found != b->found || a->length != b->length) {
      std::fprintf(stderr, "bench_live_edit: %s Hybrid A*: mended and fresh plans differ\n", m.name.c_str());
      std::exit(1);
    }
  }
  const Stats sb = stats(before), sa = stats(after), sm = stats(mend);
  std::printf("| %-14s | %2d | %8.2f | %8.2f | %8.2f | %8.2f | %8.3f | %8.3f |\n", m.name.c_str(), radius, sb.median, sb.p95,
              sa.median, sa.p95, sm.median, sm.p95);
  std::fflush(stdout);
}

void hybrid_tables(const std::vector<NamedMap>& maps, int strokes) {
  std::printf("\nHybrid A* edit-to-plan latency, thread CPU ms, %d strokes a row (before: a new planner per edit; "
              "after: edited() on the kept one), plans of up to 48 cells, 20000 expansions at most\n\n",
              strokes);
  std::printf("| map            | r  | before median | before p95 | after median | after p95 | edited() median | edited() p95 |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (int r : {1, 4, 8}) hybrid_edit_row(m, r, strokes);
}

/// One fields row: `strokes` strokes of `radius`; per stroke the goal field settled up to a
/// random start and the clearance field, each built anew (before) and mended (after).
void field_row(const NamedMap& m, int radius, int strokes) {
  Grid g = m.grid;
  std::mt19937 rng(static_cast<uint32_t>(900 + radius));
  ClearanceField clearance(g);
  detail::GoalDistance goal_field;
  Cell goal = random_free_cell(g, rng);
  (void)goal_field.begin(g, goal, 0.0, -1);
  std::vector<double> goal_before, goal_after, clear_before, clear_after;
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1);
  for (int i = 0; i < strokes; ++i) {
    const CellRect rect = brush_stroke(g, Cell{x(rng), y(rng)}, radius, i % 2 == 0 ? kBlocked : 1.0f);
    if (!g.is_free(goal.x, goal.y)) goal = random_free_cell(g, rng);
    const Cell start = random_free_cell(g, rng);
    const int64_t at = g.index(start.x, start.y);
    double t0 = thread_ms();
    detail::GoalDistance fresh_goal;
    (void)fresh_goal.begin(g, goal, 0.0, at);
    goal_before.push_back(thread_ms() - t0);
    t0 = thread_ms();
    goal_field.edited(g, rect);
    (void)goal_field.begin(g, goal, 0.0, at);
    goal_after.push_back(thread_ms() - t0);
    t0 = thread_ms();
    const ClearanceField fresh_clearance(g);
    clear_before.push_back(thread_ms() - t0);
    t0 = thread_ms();
    if (!clearance.update(g, rect).ok()) std::abort();
    clear_after.push_back(thread_ms() - t0);
    if (fresh_goal.at(at) != goal_field.at(at) || fresh_clearance.samples() != clearance.samples()) {
      std::fprintf(stderr, "bench_live_edit: %s: mended and rebuilt fields differ\n", m.name.c_str());
      std::exit(1);
    }
  }
  const Stats gb = stats(goal_before), ga = stats(goal_after), cb = stats(clear_before), ca = stats(clear_after);
  std::printf("| %-14s | %2d | %8.2f | %8.2f | %8.3f | %8.3f | %8.2f | %8.2f | %8.3f | %8.3f |\n", m.name.c_str(), radius,
              gb.median, gb.p95, ga.median, ga.p95, cb.median, cb.p95, ca.median, ca.p95);
  std::fflush(stdout);
}

void field_tables(const std::vector<NamedMap>& maps, int strokes) {
  std::printf("\nFields after an edit, thread CPU ms, %d strokes a row (before: built anew; after: mended)\n\n", strokes);
  std::printf("| map            | r  | goal field before median | before p95 | after median | after p95 | clearance before median | before p95 | after median | after p95 |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (int r : {1, 4, 8}) field_row(m, r, strokes);
}

/// A wall across the whole map (issue 28's cut): a vertical band of 2r + 1 columns at a random
/// x painted blocked, as a brush of radius r dragged from the top edge to the bottom one.
/// Returns the band's rectangle.
CellRect cut_band(Grid& g, int x0, int radius) {
  for (int y = 0; y < g.height(); ++y)
    for (int x = x0 - radius; x <= x0 + radius; ++x) g.set_cost(x, y, kBlocked);
  return CellRect{Cell{x0 - radius, 0}, Cell{x0 + radius, g.height() - 1}};
}

/// Puts the band back as it was in `base`.
void uncut_band(Grid& g, const Grid& base, const CellRect& r) {
  for (int y = r.min.y; y <= r.max.y; ++y)
    for (int x = r.min.x; x <= r.max.x; ++x) g.set_cost(x, y, base.cost(x, y));
}

/// A free cell of `g` with x in [x0, x1].
Cell free_cell_in(const Grid& g, std::mt19937& rng, int x0, int x1) {
  std::uniform_int_distribution<int> x(x0, x1), y(0, g.height() - 1);
  for (;;) {
    const Cell c{x(rng), y(rng)};
    if (g.is_free(c)) return c;
  }
}

/// The planners of the cut table: the three grid searches, the exact navmesh search on either
/// tiled mesh, Hybrid A* and Directional A* (their goal distance field decides). Each keeps its
/// preprocessing and mends it per edit, as the planning service does.
struct CutPlanners {
  GridPathfinder grid;
  Navmesh convex, corners;
  NavmeshQuery convex_q, corners_q;
  HybridAStar hybrid;
  DirectionalAStar directional;
  CutPlanners(const Grid& g, const HybridAStarOptions& o, const DirectionalAStarOptions& d)
      : grid(g),
        convex(Navmesh::build(g, nav_def(false, g_tile)).value()),
        corners(Navmesh::build(g, nav_def(true, g_tile)).value()),
        convex_q(convex),
        corners_q(corners),
        hybrid(HybridAStar::create(g, o).value()),
        directional(DirectionalAStar::create(g, d).value()) {}
  /// Mends planner k's preprocessing for the edit in `rect` of `g`.
  void edit(int k, const Grid& g, const CellRect& rect) {
    if (k < 3) {
      if (!grid.update(g, rect).ok()) std::abort();
    } else if (k < 5) {
      Navmesh& mesh = k == 3 ? convex : corners;
      if (!mesh.update(g, rect).ok()) std::abort();
      (k == 3 ? convex_q : corners_q).reset(mesh);
    } else if (!(k == 5 ? hybrid.edited(g, rect) : directional.edited(g, rect)).ok()) {
      std::abort();
    }
  }
  /// Plans s -> t with planner k: found or not.
  bool plan(int k, Cell s, Cell t) {
    auto centre = [](Cell c) { return Vec2(c.x + 0.5, c.y + 0.5); };
    if (k < 3) return grid.find_path(kPlanners[k], s, t).value().found;
    if (k < 5) return (k == 3 ? convex_q : corners_q).find_corridor(centre(s), centre(t)).value().found;
    if (k == 5) return hybrid.plan(Pose{centre(s), 0.0}, Pose{centre(t), 0.0}).value().found;
    return directional.plan(Pose{centre(s), 0.0}, Pose{centre(t), 0.0}).value().found;
  }
};

const char* const kCutTitles[] = {"A*", "JPS", "Theta*", "navmesh convex", "navmesh corners", "Hybrid A*", "Directional A*"};
const std::string kCutNames[] = {"astar", "jps", "theta", "convex", "corners", "hybrid", "directional"};  // --cut-planners

/// One cut row: per sample the band is painted at a random x (timed: the mend and a plan from
/// the left part to the right one, which must fail), then erased again (untimed, followed by a
/// plan as the sandbox would make), so every sample cuts a whole map.
void cut_row(const NamedMap& m, int planner, int radius, int samples) {
  Grid g = m.grid;
  std::mt19937 rng(static_cast<uint32_t>(3100 + 10 * planner + radius));
  HybridAStarOptions o = default_hybrid_astar_options();
  o.max_expansions = 20000;
  DirectionalAStarOptions d = default_directional_astar_options();
  d.max_expansions = 20000;
  CutPlanners p(g, o, d);
  std::uniform_int_distribution<int> xs(g.width() / 4, 3 * g.width() / 4);
  std::vector<double> cut, mend, wall, caller;
  for (int i = 0; i < samples; ++i) {
    const int x0 = xs(rng);
    const CellRect rect = cut_band(g, x0, radius);
    const Cell s = free_cell_in(g, rng, 0, x0 - radius - 4), t = free_cell_in(g, rng, x0 + radius + 4, g.width() - 1);
    const double w0 = wall_ms(), t0 = process_ms(), c0 = thread_ms();
    p.edit(planner, g, rect);
    const double t1 = process_ms();
    const bool found = p.plan(planner, s, t);
    cut.push_back(process_ms() - t0);
    caller.push_back(thread_ms() - c0);
    wall.push_back(wall_ms() - w0);
    mend.push_back(t1 - t0);
    if (found) {
      std::fprintf(stderr, "bench_live_edit: %s %s: a path across the cut\n", m.name.c_str(), kCutTitles[planner]);
      std::exit(1);
    }
    uncut_band(g, m.grid, rect);
    p.edit(planner, g, rect);
    (void)p.plan(planner, s, t);
  }
  const Stats sc = stats(cut), sm = stats(mend), sw = stats(wall), sk = stats(caller);
  std::printf("| %-14s | %-15s | %2d | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f | %8.2f |\n", m.name.c_str(),
              kCutTitles[planner], radius, sc.median, sc.p95, sm.median, sk.median, sk.p95, sw.median, sw.p95);
  std::fflush(stdout);
}

void cut_tables(const std::vector<NamedMap>& maps, int samples) {
  std::printf("\nA stroke that cuts the map in two, then a plan across it (no path): CPU ms of all threads for the mend "
              "and the plan, the calling thread's share (what is left on the critical path when each tile thread has a "
              "core) and the wall time, %d cuts a row, %d tile threads\n\n", samples, g_tile_threads);
  std::printf("| map            | planner         | r  | median | p95 | mend median | caller median | caller p95 | wall median | "
              "wall p95 |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (int k = 0; k < 7; ++k)
      if (g_cut_planners.empty() || std::count(g_cut_planners.begin(), g_cut_planners.end(), k) > 0)
        for (int r : {1, 4, 8}) cut_row(m, k, r, samples);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t comma = std::min(s.find(',', at), s.size());
    if (comma > at) out.push_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int strokes = 40;
  std::vector<std::string> only;
  std::string part;  // "", "grid", "navmesh", "fields" or "hybrid"
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--strokes") == 0 && i + 1 < argc) {
      strokes = std::atoi(argv[++i]);
      if (strokes < 1 || strokes > 100000) {
        std::fprintf(stderr, "bench_live_edit: --strokes wants a whole number in 1..100000\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--after-only") == 0) {
      g_after_only = true;
    } else if (std::strcmp(argv[i], "--lengths") == 0) {
      g_lengths = true;
    } else if (std::strcmp(argv[i], "--planners") == 0 && i + 1 < argc) {
      g_planners.clear();
      for (const std::string& name : split(argv[++i])) {
        const Result<GridPlanner> planner = parse_grid_planner(name);
        const auto at = planner ? std::find(std::begin(kPlanners), std::end(kPlanners), *planner) : std::end(kPlanners);
        if (at == std::end(kPlanners)) {
          std::fprintf(stderr, "bench_live_edit: --planners takes astar, jps and theta\n");
          return 2;
        }
        g_planners.push_back(static_cast<int>(at - std::begin(kPlanners)));
      }
    } else if (std::strcmp(argv[i], "--tile") == 0 && i + 1 < argc) {
      g_tile = std::atoi(argv[++i]);
      if (g_tile < kMinNavTileSize || g_tile > kMaxNavTileSize) {
        std::fprintf(stderr, "bench_live_edit: --tile wants a tile size in %d..%d\n", kMinNavTileSize, kMaxNavTileSize);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--tile-threads") == 0 && i + 1 < argc) {
      g_tile_threads = std::atoi(argv[++i]);
      if (g_tile_threads < 1 || g_tile_threads > kMaxNavTileThreads) {
        std::fprintf(stderr, "bench_live_edit: --tile-threads wants 1..%d\n", kMaxNavTileThreads);
        return 2;
      }
    } else if (std::strcmp(argv[i], "--cut-planners") == 0 && i + 1 < argc) {
      for (const std::string& name : split(argv[++i])) {
        const auto at = std::find(std::begin(kCutNames), std::end(kCutNames), name);
        if (at == std::end(kCutNames)) {
          std::fprintf(stderr, "bench_live_edit: --cut-planners takes astar, jps, theta, convex, corners, hybrid and directional\n");
          return 2;
        }
        g_cut_planners.push_back(static_cast<int>(at - std::begin(kCutNames)));
      }
    } else if (std::strcmp(argv[i], "--maps") == 0 && i + 1 < argc) {
      only = split(argv[++i]);
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc &&
               (std::strcmp(argv[i + 1], "grid") == 0 || std::strcmp(argv[i + 1], "navmesh") == 0 ||
                std::strcmp(argv[i + 1], "fields") == 0 || std::strcmp(argv[i + 1], "hybrid") == 0 ||
                std::strcmp(argv[i + 1], "service") == 0 || std::strcmp(argv[i + 1], "cut") == 0)) {
      part = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: bench_live_edit [--strokes N] [--maps a,b,...] [--only grid|navmesh|fields|hybrid|service|cut] "
                   "[--after-only] [--planners astar,jps,theta] [--cut-planners astar,...,hybrid] [--tile N] [--tile-threads N] "
                   "[--lengths]\n");
      return 2;
    }
  }
  const std::vector<NamedMap> maps = load_maps(only);
  if (part == "navmesh") {
    navmesh_tables(maps, strokes);
    return 0;
  }
  if (part == "service") {
    service_tables(maps, strokes);
    return 0;
  }
  if (part == "fields") {
    field_tables(maps, strokes);
    return 0;
  }
  if (part == "hybrid") {
    hybrid_tables(maps, strokes);
    return 0;
  }
  if (part == "cut") {
    cut_tables(maps, strokes);
    return 0;
  }
  std::printf("Edit-to-plan latency, thread CPU ms, %d strokes a row (before: rebuilt pathfinder; after: update())\n\n",
              strokes);
  std::printf("| map            | planner| r  | before median | before p95 | after median | after p95 | update() median |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (int p : g_planners)
      for (int r : {1, 4, 8}) edit_row(m, p, r, strokes);
  std::printf("\nFirst query on a fresh map, thread CPU ms, median of 11\n\n");
  std::printf("| map            | planner| first query | same query warm | set-up |\n|---|---|---|---|---|\n");
  for (const NamedMap& m : maps)
    for (int p : g_planners) first_query_row(m, p, 11);
  if (part.empty()) {
    navmesh_tables(maps, strokes);
    field_tables(maps, strokes);
    hybrid_tables(maps, strokes);
    service_tables(maps, strokes);
  }
  return 0;
}
