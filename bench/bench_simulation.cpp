// Simulation speed: one fixed step of 1,000 units on a 512x512 map (target: 1,000 units at
// 60 Hz on one core, i.e. a step under 16.7 ms, >= 60,000 unit-steps per second).
//
//   bench_simulation [--benchmark_repetitions=5 --benchmark_report_aggregates_only=true]
//
// Every unit walks an A* path (planned once, outside the timing) of 20 to 60 cells across a
// 512x512 map of scattered obstacles; on arrival it is sent back along the reversed path with
// set_path(), so the crowd never thins out. Counters: us_per_step (all units), ns_per_unit_step,
// steps_per_s and units_at_60hz (how many units one core could step 60 times a second).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "pathlab/follow_path.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/simulation.hpp"

namespace {

using namespace pathlab;

constexpr int kSide = 512;
constexpr int kUnits = 1000;

struct Crowd {
  Grid grid;
  std::vector<FollowPath> there, back;
};

/// The map and the paths, built once per process (planning is not what is measured).
const Crowd& crowd() {
  static const Crowd c = [] {
    Crowd out;
    out.grid = Grid::create(kSide, kSide).value();
    generate_random(out.grid, 0.2, 2024);
    GridPathfinder finder(out.grid);
    GridSearchOptions opt;
    opt.agent_radius = 0.45;  // fits every preset
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> coord(2, kSide - 3), off(-40, 40);
    while (static_cast<int>(out.there.size()) < kUnits) {
      const Cell a{coord(rng), coord(rng)};
      const Cell b{std::clamp(a.x + off(rng), 1, kSide - 2), std::clamp(a.y + off(rng), 1, kSide - 2)};
      if (!out.grid.is_free(a) || !out.grid.is_free(b)) continue;
      auto p = finder.find_path(GridPlanner::astar, a, b, opt);
      if (!p || !p->found || p->length < 20 || p->length > 60) continue;
      std::vector<Vec2> rev(p->points.rbegin(), p->points.rend());
      out.there.push_back(FollowPath::from_polyline(p->points).value());
      out.back.push_back(FollowPath::from_polyline(rev).value());
    }
    return out;
  }();
  return c;
}

void simulation_step(benchmark::State& state) {
  const Crowd& c = crowd();
  const auto kind = static_cast<FollowerKind>(state.range(0));
  const char* presets[] = {"person", "tank", "bear", "person"};
  Simulation sim = Simulation::create(c.grid).value();
  for (int i = 0; i < kUnits; ++i) {
    UnitDef def = unit_preset(presets[i % 4]).value();
    def.follower.kind = kind;
    if (!sim.add_unit(def, c.there[static_cast<size_t>(i)]).ok()) state.SkipWithError("add_unit failed");
  }
  std::vector<bool> going_back(kUnits, false);
  // Warm up: units spread out along their paths and reach cruising speed.
  for (int k = 0; k < 120; ++k) sim.step();
  int64_t arrivals = 0;
  for (auto _ : state) {
    sim.step();
    for (UnitId id = 0; id < kUnits; ++id) {
      if (!sim.state(id).arrived) continue;
      const size_t i = static_cast<size_t>(id);
      going_back[i] = !going_back[i];
      const FollowPath& next = going_back[i] ? c.back[i] : c.there[i];
      if (sim.set_path(id, next).ok()) ++arrivals;
    }
  }
  int collisions = 0;
  for (UnitId id = 0; id < kUnits; ++id) collisions += sim.metrics(id).collisions;
  const double steps = static_cast<double>(state.iterations());
  state.SetItemsProcessed(state.iterations() * kUnits);
  state.counters["us_per_step"] = benchmark::Counter(steps * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["ns_per_unit_step"] =
      benchmark::Counter(steps * kUnits * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["steps_per_s"] = benchmark::Counter(steps, benchmark::Counter::kIsRate);
  state.counters["units_at_60hz"] = benchmark::Counter(steps * kUnits / 60.0, benchmark::Counter::kIsRate);
  state.counters["arrivals"] = static_cast<double>(arrivals);
  state.counters["collisions"] = collisions;
}

BENCHMARK(simulation_step)
    ->ArgName("follower")
    ->Arg(static_cast<int>(FollowerKind::steer))
    ->Arg(static_cast<int>(FollowerKind::track))
    ->Arg(static_cast<int>(FollowerKind::damped))
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
