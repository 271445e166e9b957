// Grid search speed on the Moving AI scenario files: microseconds per query and nanoseconds
// per expanded node, for A* and JPS on the same problems in the same process.
//
//   bench_grid [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
//
// Counters: us_per_query, ns_per_expanded, expanded_per_query. first_query_*: the first query
// of a new pathfinder on a fresh copy of the map (preprocessing included; the copy is made
// outside the timing), in plain time per iteration: what a query costs right after an edit
// that throws the preprocessing away. jps_blocks/* and jps_tables/*: warm JPS with each jump
// source forced (GridSearchOptions::jps_jumps), the two halves of the default's policy.

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"

namespace {

struct MapCase {
  pathlab::Grid grid;
  std::vector<pathlab::Scenario> scenarios;
};

const MapCase& load_case(const std::string& name) {
  static std::vector<std::pair<std::string, MapCase>> cache;
  for (auto& [n, c] : cache)
    if (n == name) return c;
  const std::string dir = PATHLAB_MOVINGAI_DIR;
  auto grid = pathlab::load_movingai_map(dir + "/" + name + ".map");
  auto scen = pathlab::load_scenarios(dir + "/" + name + ".map.scen");
  if (!grid || !scen) {
    std::fprintf(stderr, "cannot load %s\n", name.c_str());
    std::exit(1);
  }
  cache.emplace_back(name, MapCase{std::move(*grid), std::move(*scen)});
  return cache.back().second;
}

void run(benchmark::State& state, const std::string& map, pathlab::GridPlanner planner, double turn_penalty = 0.0,
         pathlab::JpsJumps jumps = pathlab::JpsJumps::automatic) {
  const MapCase& mc = load_case(map);
  pathlab::GridSearchOptions opt;
  opt.turn_penalty = turn_penalty;
  opt.jps_jumps = jumps;
  pathlab::GridPathfinder pf(mc.grid);
  // Use every k-th scenario so each map takes a similar, bounded time per iteration.
  const size_t stride = std::max<size_t>(1, mc.scenarios.size() / 200);
  int64_t expanded = 0, queries = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < mc.scenarios.size(); i += stride) {
      const auto& s = mc.scenarios[i];
      auto r = pf.find_path(planner, s.start, s.goal, opt);
      benchmark::DoNotOptimize(r);
      expanded += r->expanded;
      ++queries;
    }
  }
  state.counters["us_per_query"] =
      benchmark::Counter(static_cast<double>(queries) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["ns_per_expanded"] =
      benchmark::Counter(static_cast<double>(expanded) * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["expanded_per_query"] = static_cast<double>(expanded) / static_cast<double>(queries);
}

/// A fresh pathfinder's first query: the passability pass every planner pays after a grid
/// edit, plus (for JPS) building the jump tables. Reported so the per-query figures above are
/// read with what they assume (a pathfinder reused on an unchanged grid).
void first_query(benchmark::State& state, const std::string& map, pathlab::GridPlanner planner) {
  const MapCase& mc = load_case(map);
  const auto& s = mc.scenarios[mc.scenarios.size() / 2];  // a mid-length problem
  for (auto _ : state) {
    state.PauseTiming();
    auto grid = std::make_unique<pathlab::Grid>(mc.grid);  // a fresh map object
    state.ResumeTiming();
    pathlab::GridPathfinder pf(*grid);
    auto r = pf.find_path(planner, s.start, s.goal);
    benchmark::DoNotOptimize(r);
    state.PauseTiming();
    grid.reset();
    state.ResumeTiming();
  }
}

const char* const kMaps[] = {"arena", "arena2", "den520d", "brc202d", "lak303d", "Berlin_0_256", "Berlin_0_512",
                             "Archipelago", "maze512-1-0", "random512-10-0", "8room_000"};

int register_all() {
  for (const char* m : kMaps) {
    for (auto p : {pathlab::GridPlanner::astar, pathlab::GridPlanner::jps}) {
      const std::string name = std::string(pathlab::to_string(p)) + "/" + m;
      benchmark::RegisterBenchmark(name.c_str(), [m, p](benchmark::State& st) { run(st, m, p); })
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (const char* m : {"arena", "den520d", "Berlin_0_512", "maze512-1-0", "random512-10-0", "8room_000"}) {
    for (auto p : {pathlab::GridPlanner::astar, pathlab::GridPlanner::jps, pathlab::GridPlanner::theta}) {
      const std::string name = std::string("first_query_") + pathlab::to_string(p) + "/" + m;
      benchmark::RegisterBenchmark(name.c_str(), [m, p](benchmark::State& st) { first_query(st, m, p); })
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (const char* m : {"Berlin_0_512", "maze512-1-0", "random512-10-0", "8room_000"}) {
    for (auto j : {pathlab::JpsJumps::blocks, pathlab::JpsJumps::tables}) {
      const std::string name = std::string(j == pathlab::JpsJumps::blocks ? "jps_blocks/" : "jps_tables/") + m;
      benchmark::RegisterBenchmark(name.c_str(), [m, j](benchmark::State& st) {
        run(st, m, pathlab::GridPlanner::jps, 0.0, j);
      })->Unit(benchmark::kMillisecond);
    }
  }
  // What straighter paths cost (Guesgen's lecture warns the search may take "significantly more
  // time"), and the any-angle planner, on two dao maps.
  for (const char* m : {"den520d", "lak303d"}) {
    benchmark::RegisterBenchmark((std::string("astar_turn_penalty_0.5/") + m).c_str(),
                                 [m](benchmark::State& st) { run(st, m, pathlab::GridPlanner::astar, 0.5); })
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((std::string("theta/") + m).c_str(),
                                 [m](benchmark::State& st) { run(st, m, pathlab::GridPlanner::theta); })
        ->Unit(benchmark::kMillisecond);
  }
  return 0;
}
const int registered = register_all();

}  // namespace

BENCHMARK_MAIN();
