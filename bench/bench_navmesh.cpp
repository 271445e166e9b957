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
// Detour gets the very same convex polygons (ring vertices, T-junctions and all; a ring with
// more than DT_VERTS_PER_POLYGON vertices is cut into a fan of chunks, the only change)
// and no detail mesh (Detour triangulates the flat polygons itself). Counters:
//   us_per_query   wall time per query
//   len_ratio      mean path length / exact Euclidean optimum (visibility graph, tests'
//                  reference), computed once at setup over the same queries
//   worst_ratio    worst of those ratios
// plus BM_build: a full navmesh rebuild of a 256x256 map (the live-painting target), with and
// without the convex merge.
//
//   bench_navmesh --movingai-corners [MAX_EXPANSIONS]
//
// instead runs every problem of the 11 Moving AI scenario files with start and goal on the
// top-left corner of their cells (the competition's convention: integer coordinates) through
// the exact navmesh search, with an expansion budget (default 1,000,000) on top of the
// default node cap, and prints per map how many answer, the largest expansion and node
// counts and the time (issue 19's proof; a tool, not a benchmark: run it under nice).

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
  std::unique_ptr<DetourMesh> detour, detour_rect;
  std::vector<std::pair<Vec2, Vec2>> queries;  // all connected, all found by both
  std::vector<double> optimum;
  // Length statistics, filled at setup.
  double ratio_sum[4] = {0, 0, 0, 0}, ratio_worst[4] = {1, 1, 1, 1};
};

Case& get_case(const std::string& name) {
  static std::vector<std::unique_ptr<Case>> cache;
  for (auto& c : cache)
    if (c->name == name) return *c;
  auto c = std::make_unique<Case>();
  c->name = name;
  if (name.rfind("random64", 0) == 0) {
    c->grid = Grid::create(64, 64).value();
    generate_random(c->grid, 0.2, 64);
  } else {
    auto g = load_movingai_map(std::string(PATHLAB_MOVINGAI_DIR) + "/" + name + ".map");
    if (!g) {
      std::fprintf(stderr, "cannot load %s\n", name.c_str());
      std::exit(1);
    }
    c->grid = std::move(*g);
  }
  c->mesh = std::move(Navmesh::build(c->grid).value());
  NavmeshDef rect_def = default_navmesh_def();
  rect_def.merge_convex = false;
  c->rect_mesh = std::move(Navmesh::build(c->grid, rect_def).value());
  c->detour = build_detour(c->mesh);
  c->detour_rect = build_detour(c->rect_mesh);
  const test::VisibilityReference ref(c->grid);
  NavmeshQuery q(c->mesh);
  DetourScratch w;
  std::mt19937 rng(2024);
  const int want = 200;
  for (int tries = 0; static_cast<int>(c->queries.size()) < want && tries < 20 * want; ++tries) {
    const Vec2 s = random_free_point(c->grid, rng), t = random_free_point(c->grid, rng);
    const double best = ref.shortest(s, t);
    if (!std::isfinite(best) || best < 1.0) continue;
    double len[4];
    for (int k = 0; k < 2; ++k) {
      NavQueryOptions o = default_nav_query_options();
      o.cost = k == 0 ? NavSearchCost::exact : NavSearchCost::portal_points;
      auto r = q.find_corridor(s, t, o);
      len[k] = (r && r->found) ? funnel_corridor(*r)->length : -1;
    }
    len[2] = detour_query(*c->detour, s, t, w);
    len[3] = detour_query(*c->detour_rect, s, t, w);
    if (len[0] < 0 || len[1] < 0 || len[2] < 0 || len[3] < 0) {
      std::fprintf(stderr, "%s: a query not found (ours %g/%g, detour %g/%g)\n", name.c_str(), len[0], len[1], len[2],
                   len[3]);
      continue;
    }
    c->queries.emplace_back(s, t);
    c->optimum.push_back(best);
    for (int k = 0; k < 4; ++k) {
      const double ratio = len[k] / best;
      c->ratio_sum[k] += ratio;
      c->ratio_worst[k] = std::max(c->ratio_worst[k], ratio);
    }
  }
  std::fprintf(stderr, "%s: %zu polygons (%d cut into several for Detour), rectangles only %zu (%d), %zu queries\n",
               name.c_str(), c->mesh.polygons().size(), c->detour->split_polys, c->rect_mesh.polygons().size(),
               c->detour_rect->split_polys, c->queries.size());
  cache.push_back(std::move(c));
  return *cache.back();
}

void report(benchmark::State& state, const Case& c, int k, int64_t queries) {
  state.counters["us_per_query"] =
      benchmark::Counter(static_cast<double>(queries) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["len_ratio"] = c.ratio_sum[k] / static_cast<double>(c.queries.size());
  state.counters["worst_ratio"] = c.ratio_worst[k];
}

void BM_ours(benchmark::State& state, const std::string& map, NavSearchCost cost) {
  Case& c = get_case(map);
  NavmeshQuery q(c.mesh);
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
  report(state, c, cost == NavSearchCost::exact ? 0 : 1, n);
}

void BM_detour(benchmark::State& state, const std::string& map, bool rectangles) {
  Case& c = get_case(map);
  DetourScratch w;
  DetourMesh& d = rectangles ? *c.detour_rect : *c.detour;
  int64_t n = 0;
  for (auto _ : state) {
    for (const auto& [s, t] : c.queries) {
      benchmark::DoNotOptimize(detour_query(d, s, t, w));
      ++n;
    }
  }
  report(state, c, rectangles ? 3 : 2, n);
}

void BM_build(benchmark::State& state, const std::string& map, double radius, bool merge) {
  Case& c = get_case(map);
  NavmeshDef def = default_navmesh_def();
  def.agent_radius = radius;
  def.merge_convex = merge;
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
  BENCHMARK_CAPTURE(BM_detour, m, #m, false)->Unit(benchmark::kMillisecond);                        \
  BENCHMARK_CAPTURE(BM_detour, rect_##m, #m, true)->Unit(benchmark::kMillisecond);

PATHLAB_NAV_MAP(random64)
PATHLAB_NAV_MAP(arena2)
PATHLAB_NAV_MAP(den520d)
PATHLAB_NAV_MAP(Berlin_0_256)

BENCHMARK_CAPTURE(BM_build, Berlin_0_256_r0, "Berlin_0_256", 0.0, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, Berlin_0_256_r04, "Berlin_0_256", 0.4, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, rect_Berlin_0_256_r0, "Berlin_0_256", 0.0, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_build, rect_Berlin_0_256_r04, "Berlin_0_256", 0.4, false)->Unit(benchmark::kMicrosecond);

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
SweepTally sweep_map(const std::string& name, int64_t max_expansions) {
  SweepTally t;
  const std::string dir = std::string(PATHLAB_MOVINGAI_DIR) + "/";
  auto grid = load_movingai_map(dir + name + ".map");
  auto mesh = grid ? Navmesh::build(*grid) : Result<Navmesh>(grid.error());
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

int movingai_corner_sweep(int64_t max_expansions) {
  const char* maps[] = {"arena", "arena2", "brc202d", "den520d", "lak303d", "Berlin_0_256", "Berlin_0_512",
                        "Archipelago", "8room_000", "maze512-1-0", "random512-10-0"};
  SweepTally all;
  for (const char* name : maps) {
    const SweepTally t = sweep_map(name, max_expansions);
    t.print(name);
    std::fflush(stdout);
    all.add(t);
  }
  all.print("all");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--movingai-corners") == 0) {
    return movingai_corner_sweep(argc >= 3 ? std::atoll(argv[2]) : 1000000);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
