// Flow fields for groups sharing a goal (issue 27): the crowd of issue 27's measurement with and
// without them, and one field's build and repair.
//
//   bench_flow_field [--benchmark_filter=...]
//
// BM_rooms_crowd/0 and /32: a 512x512 map of rooms on a 32-cell pitch (31x31 free cells, walls
// one cell thick, doorways 4 cells wide: generate_rooms(31, 4)), 10,000 persons in 8 groups of
// 1,250, each group starting in a block of 2x2 rooms by the map's edge and sent to the centre
// of one room across the map, 600 steps of 1/60 s; the argument is CrowdDef::flow_field_units
// (0: no flow fields, every unit searches its own routes, as before issue 27; 32: the default),
// the second CrowdDef::threads (the same steps with any count: compare the wall times).
// Counters: setup_s (adding the units, which plans their first routes), ms_step_median /
// ms_step_p95 / ms_step_max (wall time of Crowd::step, re-planning included; cpu_ms_*: the
// thread's CPU time of the same, which a loaded machine inflates less), overlaps
// (pair-steps closer than 0.95 of the radii sum, unit-steps overlapping a wall), replans, MB
// (Crowd::memory_bytes at the end).
// BM_field_build: one field towards a room's centre on that map, radius 0.5 (median of 9).
// BM_field_door_close / BM_field_door_open: the repair of that field after the 4 cells of the
// goal room's west doorway become walls / free again (median of 9); touched = cells searched
// again (a rebuild searches every reachable cell: `reachable`).
//
// Measured 2026-11-27 on the 2-core build machine at a load average of 9-12 (thread CPU time;
// wall times were 3-10x that): BM_rooms_crowd/0: 78.0 ms/step median, p95 593, max 1225, setup
// 106.6 s, overlaps 0, 12,224 re-plans; /32: 44.9 ms median, p95 211, max 476, setup 5.0 s,
// overlaps 0, 13,516 re-plans, 288 MB. BM_field_build 34.6 ms; door close 26.4 ms (141,288
// cells touched of 248,064 reachable); door open 17.4 ms (140,564).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "../tests/crowd_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/flow_field.hpp"
#include "pathlab/map_generators.hpp"
#include "thread_clock.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

constexpr int kSide = 512, kPitch = 32, kRoom = 31, kDoor = 4;
constexpr int kGroups = 8, kPerGroup = 1250, kSteps = 600;

Grid rooms_map() {
  Grid g = Grid::create(kSide, kSide).value();
  generate_rooms(g, kRoom, kDoor, 27);
  return g;
}

Vec2 room_centre(int rx, int ry) { return Vec2(rx * kPitch + kRoom / 2.0, ry * kPitch + kRoom / 2.0); }

/// Eight blocks of 2x2 rooms round the map's edge (top-left room given), each group sent to
/// the room opposite its block through the map's centre.
struct GroupPlan {
  int rx, ry;
};
constexpr GroupPlan kStarts[kGroups] = {{0, 0}, {7, 0}, {14, 0}, {14, 7}, {14, 14}, {7, 14}, {0, 14}, {0, 7}};

std::vector<CrowdAgentDef> rooms_agents(const Grid& grid) {
  std::vector<CrowdAgentDef> out;
  for (const GroupPlan& s : kStarts) {
    const Vec2 goal = room_centre(15 - s.rx, 15 - s.ry);
    int placed = 0;
    // 1.5 cells apart on a square lattice: 400 a room, the block's rooms filled in turn.
    for (int r = 0; r < 4 && placed < kPerGroup; ++r) {
      const int x0 = (s.rx + r % 2) * kPitch, y0 = (s.ry + r / 2) * kPitch;
      for (int j = 0; j < 20 && placed < kPerGroup; ++j) {
        for (int i = 0; i < 20 && placed < kPerGroup; ++i) {
          const Vec2 p(x0 + 1.0 + 1.5 * i, y0 + 1.0 + 1.5 * j);
          if (!point_clear(grid, p, 0.3)) continue;
          out.push_back(crowd_agent("person", p.x, p.y, 0.0, goal.x, goal.y));
          ++placed;
        }
      }
    }
  }
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Pairs closer than 0.95 of the radii sum (issue 27's overlap), found through buckets of one
/// cell (a linked list per cell), plus units overlapping a wall.
int count_overlaps(const Crowd& crowd, const Grid& grid) {
  const int n = crowd.agent_count();
  std::vector<int> head(static_cast<size_t>(kSide) * kSide, -1), next(static_cast<size_t>(n), -1);
  for (int i = 0; i < n; ++i) {
    const Cell c = cell_of(crowd.state(i).pose.pos);
    int& h = head[static_cast<size_t>(c.y) * kSide + static_cast<size_t>(c.x)];
    next[static_cast<size_t>(i)] = h;
    h = i;
  }
  int overlaps = 0;
  for (int i = 0; i < n; ++i) {
    const Vec2 p = crowd.state(i).pose.pos;
    const double ri = crowd.agent_def(i).unit.radius;
    if (!point_clear(grid, p, ri - 0.01)) ++overlaps;
    const Cell c = cell_of(p);
    for (int y = c.y - 1; y <= c.y + 1; ++y) {
      for (int x = c.x - 1; x <= c.x + 1; ++x) {
        if (!grid.in_bounds(x, y)) continue;
        for (int j = head[static_cast<size_t>(y) * kSide + static_cast<size_t>(x)]; j >= 0; j = next[static_cast<size_t>(j)]) {
          if (j <= i) continue;
          const double rr = ri + crowd.agent_def(j).unit.radius;
          if (glm::length(crowd.state(j).pose.pos - p) < 0.95 * rr) ++overlaps;
        }
      }
    }
  }
  return overlaps;
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(std::min<double>(static_cast<double>(v.size()) - 1.0, std::floor(q * static_cast<double>(v.size()))))];
}

void BM_rooms_crowd(benchmark::State& state) {
  const Grid grid = rooms_map();
  const std::vector<CrowdAgentDef> agents = rooms_agents(grid);
  CrowdDef def = default_crowd_def();
  def.flow_field_units = static_cast<int>(state.range(0));
  def.threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = bench::thread_seconds();
    Crowd crowd = Crowd::create(grid, def).value();
    for (const auto& a : agents) (void)crowd.add_agent(a).value();
    state.counters["setup_s"] = seconds_since(t0);
    state.counters["setup_cpu_s"] = bench::thread_seconds() - c0;
    std::vector<double> wall_ms, cpu_ms;
    int overlaps = 0;
    for (int s = 0; s < kSteps; ++s) {
      t0 = std::chrono::steady_clock::now();
      c0 = bench::thread_seconds();
      crowd.step();
      cpu_ms.push_back(1e3 * (bench::thread_seconds() - c0));
      wall_ms.push_back(1e3 * seconds_since(t0));
      overlaps += count_overlaps(crowd, grid);
    }
    state.counters["units"] = crowd.agent_count();
    state.counters["ms_step_median"] = percentile(wall_ms, 0.5);
    state.counters["ms_step_p95"] = percentile(wall_ms, 0.95);
    state.counters["ms_step_max"] = percentile(wall_ms, 1.0);
    state.counters["cpu_ms_step_median"] = percentile(cpu_ms, 0.5);
    state.counters["cpu_ms_step_p95"] = percentile(cpu_ms, 0.95);
    state.counters["cpu_ms_step_max"] = percentile(cpu_ms, 1.0);
    state.counters["overlaps"] = overlaps;
    state.counters["replans"] = crowd.run_metrics().replans;
    state.counters["min_sep_ratio"] = crowd.run_metrics().min_separation_ratio;
    state.counters["MB"] = static_cast<double>(crowd.memory_bytes()) / 1e6;
  }
}
BENCHMARK(BM_rooms_crowd)->Args({0, 1})->Args({32, 1})->Args({32, 2})->Unit(benchmark::kSecond)->Iterations(1);

FlowFieldDef field_def() {
  FlowFieldDef d = default_flow_field_def();
  d.agent_radius = 0.5;
  return d;
}

Cell goal_cell() { return cell_of(room_centre(15, 15)); }

void BM_field_build(benchmark::State& state) {
  const Grid grid = rooms_map();
  const Cell goal[] = {goal_cell()};
  int64_t reachable = 0;
  for (auto _ : state) {
    auto f = FlowField::build(grid, goal, field_def());
    benchmark::DoNotOptimize(f);
    state.PauseTiming();
    reachable = 0;
    for (int y = 0; y < kSide; ++y)
      for (int x = 0; x < kSide; ++x) reachable += f->reachable(Cell{x, y}) ? 1 : 0;
    state.ResumeTiming();
  }
  state.counters["reachable"] = static_cast<double>(reachable);
}
BENCHMARK(BM_field_build)->Unit(benchmark::kMillisecond)->Repetitions(9)->ReportAggregatesOnly(true);

/// The cells of the goal room's west doorway (free cells of the wall column left of it).
std::vector<Cell> west_doorway(const Grid& grid) {
  std::vector<Cell> door;
  const int x = 15 * kPitch - 1;
  for (int y = 15 * kPitch; y < 15 * kPitch + kRoom; ++y) {
    if (grid.is_free(x, y)) door.push_back(Cell{x, y});
  }
  return door;
}

void door_repair(benchmark::State& state, bool close) {
  Grid grid = rooms_map();
  const std::vector<Cell> door = west_doorway(grid);
  const Cell goal[] = {goal_cell()};
  Grid shut = grid;
  for (const Cell& c : door) shut.set_blocked(c.x, c.y, true);
  // The field before the toggle, and the grid after it.
  const FlowField before = FlowField::build(close ? grid : shut, goal, field_def()).value();
  const Grid& after = close ? shut : grid;
  int64_t touched = 0;
  for (auto _ : state) {
    state.PauseTiming();
    FlowField f = before;
    state.ResumeTiming();
    auto u = f.update(after, door);
    benchmark::DoNotOptimize(u);
    touched = u->touched_cells;
  }
  state.counters["door_cells"] = static_cast<double>(door.size());
  state.counters["touched"] = static_cast<double>(touched);
}
void BM_field_door_close(benchmark::State& state) { door_repair(state, true); }
void BM_field_door_open(benchmark::State& state) { door_repair(state, false); }
BENCHMARK(BM_field_door_close)->Unit(benchmark::kMillisecond)->Repetitions(9)->ReportAggregatesOnly(true);
BENCHMARK(BM_field_door_open)->Unit(benchmark::kMillisecond)->Repetitions(9)->ReportAggregatesOnly(true);

}  // namespace

BENCHMARK_MAIN();
