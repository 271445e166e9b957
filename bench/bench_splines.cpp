// Spline speed: nanoseconds per output point of Catmull-Rom subdivision (target: uniform 2D
// under 10 ns), and the cost of the obstacle-aware smoothing pass on a long path of a 512x512
// Moving AI map.
//
//   bench_splines [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
//
// Counters: ns_per_point (subdivision), us_per_path, ns_per_span and repairs (smoother).

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "pathlab/catmull_rom.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/spline_smoother.hpp"

namespace {

std::vector<pathlab::Vec2> random_walk(int n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> step(-1.5, 1.5);
  std::vector<pathlab::Vec2> pts;
  pathlab::Vec2 p(0, 0);
  for (int i = 0; i < n; ++i) {
    p += pathlab::Vec2(1.0 + std::abs(step(rng)), step(rng));
    pts.push_back(p);
  }
  return pts;
}

void catmull_rom(benchmark::State& state, pathlab::CatmullRomKind kind) {
  const auto pts = random_walk(1000);
  const int n = static_cast<int>(state.range(0));
  const auto def = pathlab::catmull_rom_def(kind);
  int64_t points = 0;
  for (auto _ : state) {
    auto out = pathlab::catmull_rom_subdivide(std::span<const pathlab::Vec2>(pts), n, def);
    benchmark::DoNotOptimize(out->data());
    points += static_cast<int64_t>(out->size());
  }
  state.counters["ns_per_point"] =
      benchmark::Counter(static_cast<double>(points) * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK_CAPTURE(catmull_rom, uniform_2d, pathlab::CatmullRomKind::uniform)->Arg(8)->Arg(32);
BENCHMARK_CAPTURE(catmull_rom, centripetal_2d, pathlab::CatmullRomKind::centripetal)->Arg(8)->Arg(32);

struct MapPath {
  pathlab::Grid grid;
  std::vector<pathlab::Vec2> points;
};

/// The A* path of the longest scenario of the map, for the given agent radius.
const MapPath& map_path(const std::string& name, double radius) {
  static std::vector<std::pair<std::string, MapPath>> cache;
  const std::string key = name + "@" + std::to_string(radius);
  for (auto& [k, v] : cache)
    if (k == key) return v;
  const std::string dir = PATHLAB_MOVINGAI_DIR;
  auto grid = pathlab::load_movingai_map(dir + "/" + name + ".map");
  auto scen = pathlab::load_scenarios(dir + "/" + name + ".map.scen");
  if (!grid || !scen || scen->empty()) {
    std::fprintf(stderr, "cannot load %s\n", name.c_str());
    std::exit(1);
  }
  pathlab::GridSearchOptions opt;
  opt.agent_radius = radius;
  MapPath mp{std::move(*grid), {}};
  for (auto it = scen->rbegin(); it != scen->rend() && mp.points.empty(); ++it) {
    auto p = pathlab::find_grid_path(mp.grid, pathlab::GridPlanner::astar, it->start, it->goal, opt);
    if (p && p->found) mp.points = std::move(p->points);
  }
  if (mp.points.empty()) {
    std::fprintf(stderr, "no path on %s\n", name.c_str());
    std::exit(1);
  }
  cache.emplace_back(key, std::move(mp));
  return cache.back().second;
}

void smoother(benchmark::State& state, pathlab::SplineMethod method, double radius) {
  const MapPath& mp = map_path("random512-10-0", radius);
  pathlab::SplineSmoothDef def;
  def.method = method;
  def.agent_radius = radius;
  int64_t paths = 0;
  size_t repairs = 0, out_points = 0;
  for (auto _ : state) {
    auto r = pathlab::smooth_path(mp.grid, mp.points, def);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    repairs = r->repairs.size();
    out_points = r->points.size();
    benchmark::DoNotOptimize(r->points.data());
    ++paths;
  }
  const double spans = static_cast<double>(mp.points.size() - 1);
  state.counters["us_per_path"] =
      benchmark::Counter(static_cast<double>(paths) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["ns_per_span"] = benchmark::Counter(static_cast<double>(paths) * spans * 1e-9,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["spans"] = spans;
  state.counters["repairs"] = static_cast<double>(repairs);
  state.counters["out_points"] = static_cast<double>(out_points);
}

BENCHMARK_CAPTURE(smoother, centripetal_r0, pathlab::SplineMethod::centripetal, 0.0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(smoother, centripetal_r05, pathlab::SplineMethod::centripetal, 0.5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(smoother, catmull_rom_r05, pathlab::SplineMethod::catmull_rom, 0.5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(smoother, hermite_r05, pathlab::SplineMethod::hermite, 0.5)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
