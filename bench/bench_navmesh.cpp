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
#include "pathlab/grid_search.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"

using namespace pathlab;

namespace {

Vec2 random_free_point(const Grid& g, std::mt19937& rng) {
  std::uniform_int_distribution<int> cx(0, g.width() - 1), cy(0, g.height() - 1);
  std::uniform_real_distribution<double> u(0.05, 0.95);
  for (;;) {
    const int x = cx(rng), y = cy(rng);
    if (g.is_free(x, y)) return Vec2(x + u(rng), y + u(rng));
  }
}

/// Detour's view of our mesh: x -> x, y -> z, height 0.
struct DetourMesh {
  dtNavMesh* nav = nullptr;
  dtNavMeshQuery* query = nullptr;
  dtQueryFilter filter;
  int split_polys = 0;  // our polygons cut into several Detour polygons
  ~DetourMesh() {
    dtFreeNavMeshQuery(query);
    dtFreeNavMesh(nav);
  }
};

constexpr double kQuant = 32.0;  // Detour vertex units per cell: 65535 / 32 allows maps up to 2047 cells

unsigned short quant(double v) { return static_cast<unsigned short>(std::lround(v * kQuant)); }

std::unique_ptr<DetourMesh> build_detour(const Navmesh& m) {
  constexpr int nvp = DT_VERTS_PER_POLYGON;
  constexpr unsigned short kNull = 0xffff;
  auto out = std::make_unique<DetourMesh>();
  // Vertices: the ring vertices, deduplicated by the mesh's vertex ids, quantised with
  // cs = 1/kQuant (at radius 0 every ring vertex is a lattice point, so exact), plus the
  // centres of split rings (rounded to 1/kQuant cell, far inside any polygon cut into chunks).
  std::vector<int> vid_to_dt(static_cast<size_t>(m.vertex_id_count()), -1);
  std::vector<unsigned short> verts;
  auto vertex = [&](int ring_index) -> unsigned short {
    const int vid = m.ring_vertex_ids()[static_cast<size_t>(ring_index)];
    int& slot = vid_to_dt[static_cast<size_t>(vid)];
    if (slot < 0) {
      const Vec2 p = m.ring_vertices()[static_cast<size_t>(ring_index)];
      slot = static_cast<int>(verts.size() / 3);
      verts.insert(verts.end(), {quant(p.x), 0, quant(p.y)});
    }
    return static_cast<unsigned short>(slot);
  };
  // Pieces: a whole ring when it fits in DT_VERTS_PER_POLYGON, else a fan of chunks.
  struct Piece {
    std::vector<unsigned short> v;
    std::vector<int> ring_edge;  // per piece edge: the ring edge it lies on, or -1 (internal)
    std::vector<int> internal;   // per piece edge: the piece across an internal edge, or -1
  };
  std::vector<Piece> pieces;
  std::vector<int> edge_piece(m.ring_vertices().size(), -1);  // ring edge -> piece holding it
  for (size_t id = 0; id < m.polygons().size(); ++id) {
    const NavPolygon& P = m.polygons()[id];
    if (P.count <= nvp) {
      Piece pc;
      for (int e = P.first; e < P.first + P.count; ++e) {
        pc.v.push_back(vertex(e));
        pc.ring_edge.push_back(e);
        pc.internal.push_back(-1);
      }
      pieces.push_back(std::move(pc));
      continue;
    }
    ++out->split_polys;
    // Fan chunks around the polygon's centroid c:
    // [c, r0 .. rm] with consecutive ring vertices, each spanning less than 180 degrees seen
    // from c so that it is convex; chords c -> r are shared with the neighbouring chunks.
    const Vec2 c = P.centre;
    const auto centre = static_cast<unsigned short>(verts.size() / 3);
    verts.insert(verts.end(), {quant(c.x), 0, quant(c.y)});
    const int first_piece = static_cast<int>(pieces.size());
    auto ring_at = [&](int k) { return P.first + (k % P.count); };
    auto pos = [&](int k) { return m.ring_vertices()[static_cast<size_t>(ring_at(k))]; };
    int k0 = 0;
    while (k0 < P.count) {
      int km = k0 + 1;
      while (km - k0 < nvp - 2 && km < P.count) {
        const Vec2 a0 = pos(k0) - c, a1 = pos(km + 1) - c;
        if (a0.x * a1.y - a0.y * a1.x <= 1e-12) break;  // would reach 180 degrees
        ++km;
      }
      Piece pc;
      pc.v.push_back(centre);
      pc.ring_edge.push_back(-1);
      pc.internal.push_back(static_cast<int>(pieces.size()) - 1);  // fixed up for the first chunk
      for (int k = k0; k <= km; ++k) {
        pc.v.push_back(vertex(ring_at(k)));
        pc.ring_edge.push_back(k < km ? ring_at(k) : -1);
        pc.internal.push_back(k < km ? -1 : static_cast<int>(pieces.size()) + 1);  // fixed up for the last
      }
      pieces.push_back(std::move(pc));
      k0 = km;
    }
    pieces[static_cast<size_t>(first_piece)].internal.front() = static_cast<int>(pieces.size()) - 1;
    pieces.back().internal.back() = first_piece;
  }
  // Detour winds its polygons the other way round (its "left" portal end is the edge's first
  // vertex): reverse every piece, keeping each edge's data with its edge.
  for (Piece& pc : pieces) {
    const size_t n = pc.v.size();
    Piece r;
    for (size_t i = 0; i < n; ++i) {
      r.v.push_back(pc.v[n - 1 - i]);
      const size_t e = (2 * n - 2 - i) % n;  // old edge v[n-2-i] -> v[n-1-i]
      r.ring_edge.push_back(pc.ring_edge[e]);
      r.internal.push_back(pc.internal[e]);
    }
    pc = std::move(r);
  }
  for (size_t k = 0; k < pieces.size(); ++k)
    for (size_t j = 0; j < pieces[k].ring_edge.size(); ++j)
      if (pieces[k].ring_edge[j] >= 0) {
        edge_piece[static_cast<size_t>(pieces[k].ring_edge[j])] = static_cast<int>(k);
      }
  // Polygons with their neighbours.
  std::vector<unsigned short> polys(pieces.size() * 2 * nvp, kNull);
  std::vector<unsigned short> flags(pieces.size(), 1);
  std::vector<unsigned char> areas(pieces.size(), 0);
  for (size_t k = 0; k < pieces.size(); ++k) {
    const Piece& pc = pieces[k];
    const int n = static_cast<int>(pc.v.size());
    for (int j = 0; j < n; ++j) {
      polys[k * 2 * nvp + static_cast<size_t>(j)] = pc.v[static_cast<size_t>(j)];
      unsigned short nei = kNull;
      if (pc.internal[static_cast<size_t>(j)] >= 0) {
        nei = static_cast<unsigned short>(pc.internal[static_cast<size_t>(j)]);
      } else if (pc.ring_edge[static_cast<size_t>(j)] >= 0) {
        const int e = pc.ring_edge[static_cast<size_t>(j)];
        const int pid = m.ring_portals()[static_cast<size_t>(e)];
        if (pid >= 0) {
          const NavPortal& p = m.portals()[static_cast<size_t>(pid)];
          const int other_edge = p.edge_a == e ? p.edge_b : p.edge_a;
          nei = static_cast<unsigned short>(edge_piece[static_cast<size_t>(other_edge)]);
        }
      }
      polys[k * 2 * nvp + static_cast<size_t>(nvp + j)] = nei;
    }
  }
  dtNavMeshCreateParams params{};
  params.verts = verts.data();
  params.vertCount = static_cast<int>(verts.size() / 3);
  params.polys = polys.data();
  params.polyFlags = flags.data();
  params.polyAreas = areas.data();
  params.polyCount = static_cast<int>(pieces.size());
  params.nvp = nvp;
  // No detail mesh: Detour triangulates each polygon itself (flat ground needs no more).
  params.detailMeshes = nullptr;
  params.walkableHeight = 1.0f;
  params.walkableRadius = 0.0f;
  params.walkableClimb = 1.0f;
  params.bmin[0] = 0;
  params.bmin[1] = -1;
  params.bmin[2] = 0;
  params.bmax[0] = static_cast<float>(m.grid().width());
  params.bmax[1] = 1;
  params.bmax[2] = static_cast<float>(m.grid().height());
  params.cs = static_cast<float>(1.0 / kQuant);
  params.ch = 1.0f;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&params, &data, &size)) {
    std::fprintf(stderr, "dtCreateNavMeshData failed\n");
    std::exit(1);
  }
  out->nav = dtAllocNavMesh();
  if (dtStatusFailed(out->nav->init(data, size, DT_TILE_FREE_DATA))) {
    std::fprintf(stderr, "dtNavMesh::init failed\n");
    std::exit(1);
  }
  out->query = dtAllocNavMeshQuery();
  if (dtStatusFailed(out->query->init(out->nav, 65535))) {
    std::fprintf(stderr, "dtNavMeshQuery::init failed\n");
    std::exit(1);
  }
  return out;
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
