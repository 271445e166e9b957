// Navmesh pathfinding, side by side with Detour (recastnavigation) on the same polygons.
//
//   bench_navmesh [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
//
// Per map, the same random point-agent queries for:
//   ours/exact      NavmeshQuery (exact cost) + funnel        -- the default pipeline
//   ours/portal     NavmeshQuery (portal_points cost) + funnel
//   detour          findNearestPoly x2 + findPath + findStraightPath, on the same mesh
//   detour/rect_*   the same on the rectangles-only mesh (NavmeshDef::merge_convex off),
//                   Detour's faster input: its fixed edge-midpoint cost suits small polygons
//   ours/corners_*  exact search + funnel on the wall-corner mesh (NavmeshDef::corners_only),
//                   what `pathlab-cli --planner navmesh` uses since issue 18
//   detour/corners_* Detour on that same wall-corner mesh
// Detour gets the very same convex polygons (ring vertices, T-junctions and all; a ring with
// more than DT_VERTS_PER_POLYGON vertices is cut into a fan of chunks, the only change)
// and no detail mesh (Detour triangulates the flat polygons itself). Counters:
//   us_per_query   wall time per query
//   len_ratio      mean path length / exact Euclidean optimum (visibility graph, tests'
//                  reference), computed once at setup over the same queries
//   worst_ratio    worst of those ratios
// plus BM_build: a full navmesh rebuild of a 256x256 map (the live-painting target), with and
// without the convex merge, and the wall-corner mesh (NavmeshDef::corners_only).
//
//   bench_navmesh --movingai-corners [MAX_EXPANSIONS] [KIND=corners]
//
// instead runs every problem of the 11 Moving AI scenario files with start and goal on the
// top-left corner of their cells (the competition's convention: integer coordinates) through
// the exact navmesh search, with an expansion budget (default 1,000,000) on top of the
// default node cap, and prints per map how many answer, the largest expansion and node
// counts and the time (issue 19's proof; a tool, not a benchmark: run it under nice).
//
//   bench_navmesh --speed-check OUT_DIR [REPS=5] [MAP|all] [KIND=corners]
//
// instead times the exact search + funnel (what `--planner navmesh` runs) on a fixed set of
// 10,000 queries per Moving AI map (the scenario problems on cell corners, then seeded random
// points inside cells): median CPU us per query over REPS rounds, the sum of the lengths, the
// mesh build time, and every query's length in OUT_DIR/<map>.len, so that two builds can be
// compared query by query (issue 18's proof; run them interleaved, pinned with taskset).
// KIND is the mesh, as `--navmesh-polygons` names it: corners (the CLI's default), convex (the
// sandbox's) or rectangles.

#include <benchmark/benchmark.h>

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <random>
#include <string>
#include <vector>

#include "../tests/visibility_reference.hpp"
#include "detour_mesh.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"

using namespace pathlab;
using pathlab::bench::build_detour;
using pathlab::bench::DetourMesh;

namespace {

Vec2 random_free_point(const Grid& g, std::mt19937& rng) {
  std::uniform_int_distribution<int> cx(0, g.width() - 1), cy(0, g.height() - 1);
  std::uniform_real_distribution<double> u(0.05, 0.95);
  for (;;) {
    const int x = cx(rng), y = cy(rng);
    if (g.is_free(x, y)) return Vec2(x + u(rng), y + u(rng));
  }
}

constexpr int kMaxPath = 4096;

struct DetourScratch {
  dtPolyRef path[kMaxPath];
  float straight[3 * kMaxPath];
  int npath = 0, nstraight = 0;
};

/// One Detour query; returns the path length or -1 when not found.
double detour_query(DetourMesh& d, Vec2 s, Vec2 t, DetourScratch& w) {
  const float sp[3] = {static_cast<float>(s.x), 0.0f, static_cast<float>(s.y)};
  const float tp[3] = {static_cast<float>(t.x), 0.0f, static_cast<float>(t.y)};
  const float ext[3] = {0.5f, 1.0f, 0.5f};
  dtPolyRef sr = 0, tr = 0;
  float sn[3], tn[3];
  d.query->findNearestPoly(sp, ext, &d.filter, &sr, sn);
  d.query->findNearestPoly(tp, ext, &d.filter, &tr, tn);
  if (!sr || !tr) return -1;
  d.query->findPath(sr, tr, sn, tn, &d.filter, w.path, &w.npath, kMaxPath);
  if (w.npath == 0 || w.path[w.npath - 1] != tr) return -1;
  d.query->findStraightPath(sn, tn, w.path, w.npath, w.straight, nullptr, nullptr, &w.nstraight, kMaxPath);
  double len = 0;
  for (int i = 1; i < w.nstraight; ++i)
    len += std::hypot(w.straight[3 * i] - w.straight[3 * i - 3], w.straight[3 * i + 2] - w.straight[3 * i - 1]);
  return len;
}

struct Case {
  std::string name;
  Grid grid;
  Navmesh mesh;       // the default mesh (rectangles merged into convex polygons)
  Navmesh rect_mesh;  // rectangles only: Detour's faster input (fewer vertices per polygon)
  Navmesh corner_mesh;  // wall corners only: the CLI's mesh
  std::unique_ptr<DetourMesh> detour, detour_rect, detour_corners;
  std::vector<std::pair<Vec2, Vec2>> queries;  // all connected, all found by both
  std::vector<double> optimum;
  // Length statistics, filled at setup: ours exact, ours portal points, Detour convex, Detour
  // rectangles, ours exact on the corner mesh, Detour on the corner mesh.
  double ratio_sum[6] = {0, 0, 0, 0, 0, 0}, ratio_worst[6] = {1, 1, 1, 1, 1, 1};
};

/// The map's grid, its three meshes and their Detour copies.
void build_meshes(Case& c) {
  if (c.name.rfind("random64", 0) == 0) {
    c.grid = Grid::create(64, 64).value();
    generate_random(c.grid, 0.2, 64);
  } else {
    auto g = load_movingai_map(std::string(PATHLAB_MOVINGAI_DIR) + "/" + c.name + ".map");
    if (!g) {
      std::fprintf(stderr, "cannot load %s\n", c.name.c_str());
      std::exit(1);
    }
    c.grid = std::move(*g);
  }
  c.mesh = std::move(Navmesh::build(c.grid).value());
  NavmeshDef rect_def = default_navmesh_def();
  rect_def.merge_convex = false;
  c.rect_mesh = std::move(Navmesh::build(c.grid, rect_def).value());
  NavmeshDef corner_def = default_navmesh_def();
  corner_def.corners_only = true;
  c.corner_mesh = std::move(Navmesh::build(c.grid, corner_def).value());
  c.detour = build_detour(c.mesh);
  c.detour_rect = build_detour(c.rect_mesh);
  c.detour_corners = build_detour(c.corner_mesh);
}

double ours_length(NavmeshQuery& q, Vec2 s, Vec2 t, NavSearchCost cost) {
  NavQueryOptions o = default_nav_query_options();
  o.cost = cost;
  auto r = q.find_corridor(s, t, o);
  return (r && r->found) ? funnel_corridor(*r)->length : -1;
}

/// 200 seeded random queries that every contestant answers, with their lengths against the
/// exact optimum (the tests' visibility-graph reference).
void sample_queries(Case& c) {
  const test::VisibilityReference ref(c.grid);
  NavmeshQuery q(c.mesh), corner_query(c.corner_mesh);
  DetourScratch w;
  std::mt19937 rng(2024);
  const int want = 200;
  for (int tries = 0; static_cast<int>(c.queries.size()) < want && tries < 20 * want; ++tries) {
    const Vec2 s = random_free_point(c.grid, rng), t = random_free_point(c.grid, rng);
    const double best = ref.shortest(s, t);
    if (!std::isfinite(best) || best < 1.0) continue;
    // In the order of Case::ratio_sum.
    const double len[6] = {ours_length(q, s, t, NavSearchCost::exact),
                           ours_length(q, s, t, NavSearchCost::portal_points),
                           detour_query(*c.detour, s, t, w),
                           detour_query(*c.detour_rect, s, t, w),
                           ours_length(corner_query, s, t, NavSearchCost::exact),
                           detour_query(*c.detour_corners, s, t, w)};
    if (*std::min_element(len, len + 6) < 0) {
      std::fprintf(stderr, "%s: a query not found (ours %g/%g/%g, detour %g/%g/%g)\n", c.name.c_str(), len[0], len[1],
                   len[4], len[2], len[3], len[5]);
      continue;
    }
    c.queries.emplace_back(s, t);
    c.optimum.push_back(best);
    for (int k = 0; k < 6; ++k) {
      const double ratio = len[k] / best;
      c.ratio_sum[k] += ratio;
      c.ratio_worst[k] = std::max(c.ratio_worst[k], ratio);
    }
  }
}

Case& get_case(const std::string& name) {
  static std::vector<std::unique_ptr<Case>> cache;
  for (auto& c : cache)
    if (c->name == name) return *c;
  auto c = std::make_unique<Case>();
  c->name = name;
  build_meshes(*c);
  sample_queries(*c);
  std::fprintf(stderr,
               "%s: %zu polygons (%d cut into several for Detour), rectangles only %zu (%d), wall corners %zu (%d), "
               "%zu queries\n",
               name.c_str(), c->mesh.polygons().size(), c->detour->split_polys, c->rect_mesh.polygons().size(),
               c->detour_rect->split_polys, c->corner_mesh.polygons().size(), c->detour_corners->split_polys,
               c->queries.size());
  cache.push_back(std::move(c));
  return *cache.back();
}

void report(benchmark::State& state, const Case& c, int k, int64_t queries) {
  state.counters["us_per_query"] =
      benchmark::Counter(static_cast<double>(queries) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["len_ratio"] = c.ratio_sum[k] / static_cast<double>(c.queries.size());
  state.counters["worst_ratio"] = c.ratio_worst[k];
}

void BM_ours(benchmark::State& state, const std::string& map, NavSearchCost cost, bool corners = false) {
  Case& c = get_case(map);
  NavmeshQuery q(corners ? c.corner_mesh : c.mesh);
  NavQueryOptions o = default_nav_query_options();
  o.cost = cost;
  int64_t n = 0;
  for (auto _ : state) {
    for (const auto& [s, t] : c.queries) {
      auto r = q.find_corridor(s, t, o);
      auto f = funnel_corridor(*r);
      benchmark::DoNotOptimize(f);
      ++n;
    }
  }
  report(state, c, corners ? 4 : cost == NavSearchCost::exact ? 0 : 1, n);
}

enum class DetourInput { convex, rectangles, corners };

void BM_detour(benchmark::State& state, const std::string& map, DetourInput input) {
  Case& c = get_case(map);
  DetourScratch w;
  DetourMesh& d = input == DetourInput::rectangles ? *c.detour_rect
                  : input == DetourInput::corners  ? *c.detour_corners
                                                   : *c.detour;
  int64_t n = 0;
  for (auto _ : state) {
    for (const auto& [s, t] : c.queries) {
      benchmark::DoNotOptimize(detour_query(d, s, t, w));
      ++n;
    }
  }
  report(state, c, input == DetourInput::rectangles ? 3 : input == DetourInput::corners ? 5 : 2, n);
}

void BM_build(benchmark::State& state, const std::string& map, double radius, bool merge, bool corners = false) {
  Case& c = get_case(map);
  NavmeshDef def = default_navmesh_def();
  def.agent_radius = radius;
  def.merge_convex = merge;
  def.corners_only = corners;
  size_t polys = 0;
  for (auto _ : state) {
    auto m = Navmesh::build(c.grid, def);
    polys = m->polygons().size();
    benchmark::DoNotOptimize(m);
  }
  state.counters["polygons"] = static_cast<double>(polys);
}

}  // namespace

#define PATHLAB_NAV_MAP(m)                                                                          \
  BENCHMARK_CAPTURE(BM_ours, exact_##m, #m, NavSearchCost::exact)->Unit(benchmark::kMillisecond);   \
  BENCHMARK_CAPTURE(BM_ours, portal_##m, #m, NavSearchCost::portal_points)->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(BM_detour, m, #m, DetourInput::convex)->Unit(benchmark::kMillisecond);          \
  BENCHMARK_CAPTURE(BM_detour, rect_##m, #m, DetourInput::rectangles)->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(BM_ours, corners_##m, #m, NavSearchCost::exact, true)->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(BM_detour, corners_##m, #m, DetourInput::corners)->Unit(benchmark::kMillisecond);

PATHLAB_NAV_MAP(random64)
PATHLAB_NAV_MAP(arena2)
PATHLAB_NAV_MAP(den520d)
PATHLAB_NAV_MAP(Berlin_0_256)

BENCHMARK_CAPTURE(BM_build, Berlin_0_256_r0, "Berlin_0_256", 0.0, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, Berlin_0_256_r04, "Berlin_0_256", 0.4, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, rect_Berlin_0_256_r0, "Berlin_0_256", 0.0, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, rect_Berlin_0_256_r04, "Berlin_0_256", 0.4, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, corners_Berlin_0_256_r0, "Berlin_0_256", 0.0, true, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, corners_Berlin_0_256_r04, "Berlin_0_256", 0.4, true, true)->Unit(benchmark::kMicrosecond);

namespace {

struct SweepTally {
  int64_t problems = 0, found = 0, not_found = 0, budget = 0, pinch = 0, other_errors = 0;
  int64_t max_expanded = 0, max_generated = 0;
  double ms = 0.0;
  void add(const SweepTally& o) {
    problems += o.problems, found += o.found, not_found += o.not_found, budget += o.budget, pinch += o.pinch;
    other_errors += o.other_errors, ms += o.ms;
    max_expanded = std::max(max_expanded, o.max_expanded), max_generated = std::max(max_generated, o.max_generated);
  }
  void print(const char* name) const {
    std::printf("%-15s %6lld problems: %6lld found, %lld unreachable, %lld budget_exhausted, %lld pinch points, "
                "%lld other errors; max %lld expansions, %lld nodes; %.0f ms (%.1f us/query)\n",
                name, static_cast<long long>(problems), static_cast<long long>(found), static_cast<long long>(not_found),
                static_cast<long long>(budget), static_cast<long long>(pinch), static_cast<long long>(other_errors),
                static_cast<long long>(max_expanded), static_cast<long long>(max_generated), ms,
                problems > 0 ? 1000.0 * ms / static_cast<double>(problems) : 0.0);
  }
};

/// One map's scenario file, corner points, through the exact search.
SweepTally sweep_map(const std::string& name, int64_t max_expansions, const NavmeshDef& def) {
  SweepTally t;
  const std::string dir = std::string(PATHLAB_MOVINGAI_DIR) + "/";
  auto grid = load_movingai_map(dir + name + ".map");
  auto mesh = grid ? Navmesh::build(*grid, def) : Result<Navmesh>(grid.error());
  std::ifstream in(dir + name + ".map.scen");
  if (!mesh || !in) {
    std::fprintf(stderr, "cannot load %s\n", name.c_str());
    std::exit(1);
  }
  NavmeshQuery q(*mesh);
  NavQueryOptions o = default_nav_query_options();
  o.budget.max_expansions = max_expansions;
  std::string line;
  std::getline(in, line);  // "version 1"
  const auto t0 = std::chrono::steady_clock::now();
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    int bucket = 0, w = 0, h = 0, sx = 0, sy = 0, gx = 0, gy = 0;
    std::string map;
    if (!(ss >> bucket >> map >> w >> h >> sx >> sy >> gx >> gy)) continue;
    ++t.problems;
    auto r = q.find_corridor(Vec2(sx, sy), Vec2(gx, gy), o);
    if (!r) {
      const bool pinch = r.error().message.find("pinch point") != std::string::npos;
      ++(pinch ? t.pinch : t.other_errors);
      if (!pinch) std::fprintf(stderr, "%s %d,%d -> %d,%d: %s\n", name.c_str(), sx, sy, gx, gy, r.error().message.c_str());
      continue;
    }
    t.max_expanded = std::max(t.max_expanded, r->expanded);
    t.max_generated = std::max(t.max_generated, r->generated);
    if (r->found) ++t.found;
    else if (r->budget_exhausted) ++t.budget;
    else ++t.not_found;
  }
  t.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

int movingai_corner_sweep(int64_t max_expansions, const NavmeshDef& def) {
  const char* maps[] = {"arena", "arena2", "brc202d", "den520d", "lak303d", "Berlin_0_256", "Berlin_0_512",
                        "Archipelago", "8room_000", "maze512-1-0", "random512-10-0"};
  SweepTally all;
  for (const char* name : maps) {
    const SweepTally t = sweep_map(name, max_expansions, def);
    t.print(name);
    std::fflush(stdout);
    all.add(t);
  }
  all.print("all");
  return 0;
}

/// The speed check of issue 18: per map, a fixed set of 10,000 exact queries (the scenario
/// file's problems with both ends on cell corners, the competition's convention, then seeded
/// random free points inside cells), searched + funnelled `reps` times. Prints per map the
/// median CPU us/query of each part, the length checksum, and the mesh build time (median ms);
/// writes every query's length (%.17g, -1 when not found) to OUT_DIR/<map>.len, for
/// comparing two builds query by query (lengths must match to 1e-9 relative).
struct SpeedSet {
  std::vector<std::pair<Vec2, Vec2>> queries;
  size_t scen = 0;  // the first `scen` queries come from the scenario file
};

SpeedSet speed_queries(const std::string& name, const Grid& grid, const Navmesh& mesh) {
  SpeedSet set;
  NavmeshQuery q(mesh);
  const size_t want = 10000;
  std::ifstream in(std::string(PATHLAB_MOVINGAI_DIR) + "/" + name + ".map.scen");
  std::string line;
  std::getline(in, line);  // "version 1"
  while (set.queries.size() < want && std::getline(in, line)) {
    std::istringstream ss(line);
    int bucket = 0, w = 0, h = 0, sx = 0, sy = 0, gx = 0, gy = 0;
    std::string map;
    if (!(ss >> bucket >> map >> w >> h >> sx >> sy >> gx >> gy)) continue;
    if (q.resolve(Vec2(sx, sy), "start") && q.resolve(Vec2(gx, gy), "goal")) set.queries.emplace_back(Vec2(sx, sy), Vec2(gx, gy));
  }
  set.scen = set.queries.size();
  std::mt19937 rng(18);
  while (set.queries.size() < want) set.queries.emplace_back(random_free_point(grid, rng), random_free_point(grid, rng));
  return set;
}

/// CPU time of this thread (the machine is shared: wall time would count other processes).
struct CpuClock {
  using duration = std::chrono::nanoseconds;
  using rep = duration::rep;
  using period = duration::period;
  using time_point = std::chrono::time_point<CpuClock>;
  static time_point now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return time_point(duration(static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec));
  }
};

int speed_check(const std::string& out_dir, int reps, const std::string& only, const NavmeshDef& def) {
  const char* maps[] = {"arena", "arena2", "den520d", "lak303d", "brc202d", "Berlin_0_256", "Berlin_0_512",
                        "Archipelago", "8room_000", "maze512-1-0", "random512-10-0"};
  using Clock = CpuClock;
  std::printf("%-15s %6s %6s %10s %10s %10s %22s %8s\n", "map", "scen", "total", "us_scen", "us_random", "us_all",
              "sum_len", "build_ms");
  std::printf("  (then: expanded and generated per query, polygons, portals)\n");
  for (const char* name : maps) {
    if (!only.empty() && only != "all" && only != name) continue;
    auto grid = load_movingai_map(std::string(PATHLAB_MOVINGAI_DIR) + "/" + name + ".map");
    if (!grid) {
      std::printf("%-15s missing\n", name);
      continue;
    }
    std::vector<double> build_ms;
    Navmesh mesh;
    for (int k = 0; k < std::max(3, reps); ++k) {
      const auto t0 = Clock::now();
      mesh = std::move(Navmesh::build(*grid, def).value());
      build_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    const SpeedSet set = speed_queries(name, *grid, mesh);
    NavmeshQuery q(mesh);
    std::vector<double> len(set.queries.size(), -1.0), t_scen, t_rand;
    int64_t expanded = 0, generated = 0;
    for (int rep = 0; rep < reps; ++rep) {
      auto t0 = Clock::now(), t1 = t0;
      for (size_t i = 0; i < set.queries.size(); ++i) {
        if (i == set.scen) t1 = Clock::now();
        auto r = q.find_corridor(set.queries[i].first, set.queries[i].second);
        if (r && r->found) len[i] = funnel_corridor(*r)->length;
        if (r && rep == 0) expanded += r->expanded, generated += r->generated;
      }
      if (set.scen == set.queries.size()) t1 = Clock::now();
      const auto t2 = Clock::now();
      t_scen.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / std::max<double>(1.0, static_cast<double>(set.scen)));
      t_rand.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count() /
                       std::max<double>(1.0, static_cast<double>(set.queries.size() - set.scen)));
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    double sum = 0.0;
    std::ofstream out(out_dir + "/" + name + ".len");
    char buf[64];
    for (const double l : len) {
      if (l > 0.0) sum += l;
      std::snprintf(buf, sizeof buf, "%.17g\n", l);
      out << buf;
    }
    const double n = static_cast<double>(set.queries.size()), ns = static_cast<double>(set.scen);
    const double ms = median(t_scen), mr = median(t_rand);
    std::printf("%-15s %6zu %6zu %10.2f %10.2f %10.2f %22.12f %8.2f %8.1f %8.1f %7zu %7zu\n", name, set.scen,
                set.queries.size(), ms, mr, (ms * ns + mr * (n - ns)) / n, sum, median(build_ms),
                static_cast<double>(expanded) / n, static_cast<double>(generated) / n, mesh.polygons().size(),
                mesh.portals().size());
    std::fflush(stdout);
  }
  return 0;
}


/// The mesh kind named as `--navmesh-polygons` names it (corners, convex, rectangles).
NavmeshDef mesh_kind(const char* kind) {
  NavmeshDef def = default_navmesh_def();
  def.merge_convex = std::strcmp(kind, "rectangles") != 0;
  def.corners_only = std::strcmp(kind, "corners") == 0;
  return def;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--movingai-corners") == 0) {
    return movingai_corner_sweep(argc >= 3 ? std::atoll(argv[2]) : 1000000, mesh_kind(argc >= 4 ? argv[3] : "corners"));
  }
  if (argc >= 3 && std::strcmp(argv[1], "--speed-check") == 0) {
    return speed_check(argv[2], argc >= 4 ? std::atoi(argv[3]) : 5, argc >= 5 ? argv[4] : "",
                       mesh_kind(argc >= 6 ? argv[5] : "corners"));
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
