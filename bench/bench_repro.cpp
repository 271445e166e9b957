// Recording a crowd run (issue 25, pathlab/plan/recording.hpp): what it costs per step next
// to the step itself, what a keyframe takes in memory, and how long seeking takes, for 1,000
// units of a scene (routed through the planning service, as the sandbox and the CLI run them)
// on a 256x256 map with 10% random walls at 60 Hz.
//
// Targets (issue 25): recording costs at most 5% of a crowd step; 10 simulated minutes of
// 1,000 units at 60 Hz within 200 MB (keyframes, trail, hashes, inputs); scrubbing to any
// moment redraws within 100 ms (the trail's frame of the step, what the canvas draws). The
// README's figures come from here: the counters name the quantities (bytes per keyframe, MB
// for 10 minutes, overhead in % of a step, ms per scrubbed frame).

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <vector>

#include "pathlab/map_generators.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/unit.hpp"

using namespace pathlab;

namespace {

constexpr int kUnits = 1000;
constexpr int64_t kTenMinutes = 10 * 60 * 60;  ///< steps at 60 Hz
constexpr int64_t kKeyframeEvery = 600;         ///< one keyframe per 10 simulated seconds

/// 1,000 units of mixed presets, each with its own goal 20 to 60 cells away.
io::Scene scene_1000() {
  io::Scene s;
  s.name = "bench_repro";
  s.grid = Grid::create(256, 256).value();
  generate_random(s.grid, 0.1, 2025);
  s.goal = Pose{Vec2(128.5, 128.5), 0.0};
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> cell(2, 253), off(-40, 40);
  const char* presets[] = {"person", "person", "person", "tank", "bear"};
  std::vector<uint8_t> taken(256 * 256, 0);
  while (s.units.size() < static_cast<size_t>(kUnits)) {
    const Cell a{cell(rng), cell(rng)};
    const Cell b{std::clamp(a.x + off(rng), 2, 253), std::clamp(a.y + off(rng), 2, 253)};
    const double d = std::hypot(a.x - b.x, a.y - b.y);
    if (d < 20 || d > 60 || !s.grid.is_free(a) || !s.grid.is_free(b) || taken[static_cast<size_t>(a.y * 256 + a.x)]) continue;
    taken[static_cast<size_t>(a.y * 256 + a.x)] = 1;
    s.units.push_back(io::UnitData{presets[s.units.size() % 5], Pose{Vec2(a.x + 0.5, a.y + 0.5), 0.0},
                                   Pose{Vec2(b.x + 0.5, b.y + 0.5), 0.0}});
  }
  return s;
}

/// One recording 120 steps in (units moving, routes planned), shared by the benchmarks.
plan::Recording& recording() {
  static std::unique_ptr<plan::Recording> rec = [] {
    plan::RecordOptions o;
    o.keyframe_every = kKeyframeEvery;
    auto r = std::make_unique<plan::Recording>(plan::Recording::start(scene_1000(), o).value());
    for (int k = 0; k < 120; ++k) r->step();
    return r;
  }();
  return *rec;
}

size_t heap_in_use() { return mallinfo2().uordblks; }

/// A crowd step alone (the scene's units without recording): the reference.
void BM_step_1000(benchmark::State& state) {
  plan::Recording& rec = recording();
  Crowd& crowd = const_cast<Crowd&>(rec.crowd());  // steps the shared crowd; recording resumes later
  for (auto _ : state) crowd.step();
  state.counters["units"] = crowd.agent_count();
}
BENCHMARK(BM_step_1000)->Unit(benchmark::kMillisecond)->Iterations(120);

/// What recording adds to each step: the crowd's state hash every step, every unit's hash
/// once a simulated second (1/60 of the per-unit hash per step).
void BM_record_hashes_1000(benchmark::State& state) {
  const Crowd& crowd = recording().crowd();
  int64_t step = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(plan::crowd_state_hash(crowd));
    if (++step % 60 == 0) benchmark::DoNotOptimize(plan::state_hash(crowd, step));
  }
}
BENCHMARK(BM_record_hashes_1000)->Unit(benchmark::kMicrosecond)->Iterations(600);

/// What finding the run's events adds to each recorded step (plan::RunEvents::detect: every
/// unit's counters and flags against the step before, overlaps with its neighbours, doors).
/// The crowd's step itself is not timed.
void BM_record_events_1000(benchmark::State& state) {
  Crowd& crowd = const_cast<Crowd&>(recording().crowd());  // as BM_step_1000
  plan::RunEvents events;
  int64_t step = 0;
  events.observe(crowd, step);
  for (auto _ : state) {
    state.PauseTiming();
    crowd.step();
    state.ResumeTiming();
    events.detect(crowd, ++step);
  }
  state.counters["events"] = static_cast<double>(events.events().size());
}
BENCHMARK(BM_record_events_1000)->Unit(benchmark::kMicrosecond)->Iterations(120);

/// What the trail adds to each recorded step (plan::Trail::record: every unit's pose and flags
/// quantised, the changed ones delta-encoded). The crowd's step itself is not timed.
void BM_record_trail_1000(benchmark::State& state) {
  Crowd& crowd = const_cast<Crowd&>(recording().crowd());  // as BM_step_1000
  const std::vector<std::string>& presets = recording().units().presets;
  plan::Trail trail;
  trail.record(crowd, presets, true);
  for (auto _ : state) {
    state.PauseTiming();
    crowd.step();
    state.ResumeTiming();
    trail.record(crowd, presets, false);
  }
  state.counters["bytes_per_step"] = static_cast<double>(trail.bytes()) / static_cast<double>(trail.size());
}
BENCHMARK(BM_record_trail_1000)->Unit(benchmark::kMicrosecond)->Iterations(240);

/// One keyframe (a clone of the crowd and a copy of its routing): time and heap bytes. Taken
/// every kKeyframeEvery steps, so its share of a step is this / kKeyframeEvery.
void BM_keyframe_1000(benchmark::State& state) {
  const plan::SceneUnits& u = recording().units();
  size_t bytes = 0;
  for (auto _ : state) {
    const size_t before = heap_in_use();
    auto routing = plan::copy_routing(*u.routing);
    Crowd copy = u.crowd->clone(plan::unit_route_planner(routing));
    bytes = heap_in_use() - before;
    benchmark::DoNotOptimize(copy);
  }
  state.counters["keyframe_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["estimate_MB"] = static_cast<double>(u.crowd->memory_bytes()) / 1e6;  // Crowd::memory_bytes
  // 10 minutes: a keyframe per kKeyframeEvery steps, a crowd hash per step, a unit hash per second.
  const double ten_min = static_cast<double>(bytes) * static_cast<double>(kTenMinutes / kKeyframeEvery) +
                         8.0 * kTenMinutes + 4.0 * kUnits * (kTenMinutes / 60);
  state.counters["ten_min_MB"] = ten_min / 1e6;
}
BENCHMARK(BM_keyframe_1000)->Unit(benchmark::kMillisecond)->Iterations(5);

/// Seeking: the worst case re-simulates kKeyframeEvery - 1 steps after restoring a keyframe;
/// Arg(n): a seek n steps past the keyframe (restore + n steps).
void BM_seek_1000(benchmark::State& state) {
  static std::unique_ptr<plan::Recording> rec = [] {
    plan::RecordOptions o;
    o.keyframe_every = 60;
    auto r = std::make_unique<plan::Recording>(plan::Recording::start(scene_1000(), o).value());
    for (int k = 0; k < 240; ++k) r->step();
    return r;
  }();
  const int64_t n = state.range(0);
  for (auto _ : state) {
    state.PauseTiming();
    (void)rec->seek(240);  // away, so each seek restores
    state.ResumeTiming();
    (void)rec->seek(120 + n);
  }
}
BENCHMARK(BM_seek_1000)->Arg(0)->Arg(5)->Arg(30)->Unit(benchmark::kMillisecond)->Iterations(3);

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Scrubbing: 15 random steps of the run (a fixed seed), as a slider dragged anywhere asks.
/// What the sandbox's timeline redraws from (UnitSwarm::scrub): the trail's frame of the step
/// and the map and goal then (Recording::map_at), wall time, median and max over 200 steps;
/// then the exact seek (keyframe restored, re-simulated to the step: what the crowd needs
/// before playing or an edit there, done a frame's work at a time after the handle is let go)
/// over 15 of them.
void random_seeks(plan::Recording& rec, benchmark::State& state) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> pick(0, rec.recorded_until());
  std::vector<double> exact, trail;
  Grid grid;
  Pose goal;
  for (int k = 0; k < 200; ++k) {
    const int64_t step = pick(rng);
    const auto t0 = std::chrono::steady_clock::now();
    const plan::TrailFrame f = rec.trail().frame(step);
    rec.map_at(step, grid, goal);
    trail.push_back(ms_since(t0));
    benchmark::DoNotOptimize(f);
    if (k >= 15) continue;
    (void)rec.seek(rec.recorded_until());  // from far away, as a drag across the slider
    const auto t1 = std::chrono::steady_clock::now();
    (void)rec.seek(step);
    exact.push_back(ms_since(t1));
  }
  for (auto* v : {&exact, &trail}) std::sort(v->begin(), v->end());
  state.counters["seek_median_ms"] = exact[exact.size() / 2];
  state.counters["seek_max_ms"] = exact.back();
  state.counters["scrub_frame_median_ms"] = trail[trail.size() / 2];
  state.counters["scrub_frame_max_ms"] = trail.back();
}

/// Starting a recording: building the scene's units again (Recording::start: every unit plans
/// its route) against a copy of live units (start_from with Crowd::clone and copy_routing, what
/// the sandbox does at Reset's first step since issue 25's edits).
void BM_start_recording_1000(benchmark::State& state) {
  const io::Scene scene = scene_1000();
  const plan::SceneUnits live = plan::build_scene_units(scene).value();
  const bool copy = state.range(0) == 1;
  for (auto _ : state) {
    if (!copy) {
      benchmark::DoNotOptimize(plan::Recording::start(scene).value());
      continue;
    }
    plan::SceneUnits u;
    u.routing = plan::copy_routing(*live.routing);
    u.crowd.emplace(live.crowd->clone(plan::unit_route_planner(u.routing)));
    u.presets = live.presets;
    u.scene_index = live.scene_index;
    u.messages = live.messages;
    u.goals = live.goals;
    benchmark::DoNotOptimize(plan::Recording::start_from(scene, std::move(u)).value());
  }
  state.SetLabel(copy ? "start_from a copy of live units" : "start: build the units again");
}
BENCHMARK(BM_start_recording_1000)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);

/// The memory case: 10 simulated minutes of 1,000 units at 60 Hz, recorded with the
/// default options (keyframes every 600 steps; keyframes and trail within a 170 MB budget). Heap measured by
/// malloc's own count before and after; then the worst seek (a step just before the next
/// keyframe, from far away).
void BM_ten_minutes_1000(benchmark::State& state) {
  for (auto _ : state) {
    const size_t before = heap_in_use();
    auto rec = plan::Recording::start(scene_1000()).value();
    const size_t crowd_only = heap_in_use() - before;
    for (int64_t k = 0; k < kTenMinutes; ++k) rec.step();
    state.counters["heap_MB"] = static_cast<double>(heap_in_use() - before - crowd_only) / 1e6;
    state.counters["keyframes"] = static_cast<double>(rec.keyframe_count());
    state.counters["interval"] = static_cast<double>(rec.keyframe_interval());
    state.counters["keyframes_MB"] = static_cast<double>(rec.keyframe_bytes()) / 1e6;
    state.counters["trail_MB"] = static_cast<double>(rec.trail().bytes()) / 1e6;
    state.counters["repro_MB"] = static_cast<double>(io::repro_to_json(rec.repro()).size()) / 1e6;
    const int64_t worst = kTenMinutes / rec.keyframe_interval() * rec.keyframe_interval() - 1;  // a keyframe interval, but one
    (void)rec.seek(0);
    const auto t0 = std::chrono::steady_clock::now();
    (void)rec.seek(worst);
    state.counters["worst_seek_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto t1 = std::chrono::steady_clock::now();
    (void)rec.seek(kTenMinutes / 2 / rec.keyframe_interval() * rec.keyframe_interval());
    state.counters["keyframe_seek_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();
    random_seeks(rec, state);
  }
}
BENCHMARK(BM_ten_minutes_1000)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
