// Crowds (crowd.hpp) side by side with DetourCrowd (recastnavigation) on the same scenarios,
// and 1,000 mixed units on a 512x512 map at 60 Hz.
//
//   bench_crowd [--benchmark_filter=...]
//
// Scenarios are the tests' (tests/crowd_support.hpp): head-on in the open and in a corridor,
// crossing at right angles, a doorway queue, the circle swap (10 and 24 units), a truck crossing
// a crowd, a car giving way in a one-cell corridor. DetourCrowd gets a Detour navmesh built from
// our navmesh of the same grid, shrunk by the largest unit radius (the conversion of
// bench_navmesh.cpp), RecastDemo's agent settings (collision range 12 radii, path optimisation
// range 30 radii, every update flag, the "high" obstacle avoidance quality) and the preset's
// radius, top speed and acceleration. The truck is a DetourCrowd agent of the box's
// circumscribed radius driving to the end of its route. Counters (both sides measured the same
// way, by the benchmark, every step):
//   ttg_ratio      mean over units of time to goal / free-flow time (route length / top speed);
//                  a unit has arrived when it is within 0.25 cells of its goal, or, for k units
//                  sharing a goal, within the radius of k packed slots around it
//   min_sep_ratio  smallest centre distance / sum of radii of any pair in any step (< 1: overlap)
//   overlaps       pair-steps closer than 0.99 x the sum of radii, plus unit-steps overlapping
//                  a wall or the truck's box
//   deadlocks      units that had not arrived at the time limit
//   ns_unit_step   thread CPU time of the update per unit per step
// Doors exist only on our side (DetourCrowd has no door schedule), so the door scenarios run
// in tests only.

#include <benchmark/benchmark.h>

#include <map>

#include <DetourCrowd.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "../tests/crowd_support.hpp"
#include "detour_crowd_settings.hpp"
#include "detour_mesh.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/shortcut.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

struct Stats {
  double ttg_ratio = 0.0;
  double min_sep_ratio = 1e9;
  int overlaps = 0;
  int deadlocks = 0;
  double ns_unit_step = 0.0;
};

/// What both sides are judged by: goals, arrival radii, free-flow times.
struct Judge {
  std::vector<Vec2> goal;
  std::vector<double> arrive_radius, free_flow, radius;
  std::vector<double> arrived_at;
};

Judge make_judge(const CrowdScenario& sc) {
  Judge j;
  GridPathfinder finder(sc.grid);
  for (const auto& a : sc.agents) {
    int sharing = 0;
    double rmax = 0.0;
    for (const auto& b : sc.agents) {
      if (glm::length(b.goal - a.goal) < 0.5) {
        ++sharing;
        rmax = std::max(rmax, b.unit.radius);
      }
    }
    int rings = 0;
    while (1 + 3 * rings * (rings + 1) < sharing) ++rings;
    j.goal.push_back(a.goal);
    j.arrive_radius.push_back(sharing > 1 ? rings * (2.0 * rmax + 0.25) + 0.25 : 0.25);
    GridSearchOptions opt;
    opt.agent_radius = a.unit.radius;
    double len = glm::length(a.goal - a.start.pos);
    if (!segment_clear(sc.grid, a.start.pos, a.goal, a.unit.radius)) {
      auto p = finder.find_path(GridPlanner::astar, cell_of(a.start.pos), cell_of(a.goal), opt);
      if (p && p->found) {
        std::vector<Vec2> pts = p->points;
        pts.front() = a.start.pos;
        pts.back() = a.goal;
        auto cut = los_shortcut(sc.grid, pts, 0.0);
        len = cut ? cut->length : p->length;
      }
    }
    j.free_flow.push_back(len / a.unit.max_speed);
    j.radius.push_back(a.unit.radius);
  }
  j.arrived_at.assign(sc.agents.size(), -1.0);
  return j;
}

/// One step's checks of positions `pos` at time t; returns true when everyone has arrived.
bool judge_step(Judge& j, const CrowdScenario& sc, const std::vector<Vec2>& pos, const std::vector<Pose>& boxes,
                double t, Stats& s) {
  bool all = true;
  for (size_t i = 0; i < pos.size(); ++i) {
    if (j.arrived_at[i] < 0.0 && glm::length(pos[i] - j.goal[i]) <= j.arrive_radius[i]) j.arrived_at[i] = t;
    all = all && j.arrived_at[i] >= 0.0;
    if (!point_clear(sc.grid, pos[i], j.radius[i] - 0.01)) ++s.overlaps;
    for (size_t k = 0; k < boxes.size(); ++k) {
      if (box_gap(boxes[k], sc.movers[k].half_extents, pos[i]) < j.radius[i] - 0.01) ++s.overlaps;
    }
    for (size_t k = i + 1; k < pos.size(); ++k) {
      const double ratio = glm::length(pos[i] - pos[k]) / (j.radius[i] + j.radius[k]);
      s.min_sep_ratio = std::min(s.min_sep_ratio, ratio);
      if (ratio < 0.99) ++s.overlaps;
    }
  }
  return all;
}

void finish(const Judge& j, Stats& s, double cpu_ns, double unit_steps) {
  double sum = 0.0;
  int n = 0;
  for (size_t i = 0; i < j.goal.size(); ++i) {
    if (j.arrived_at[i] < 0.0) {
      ++s.deadlocks;
      continue;
    }
    sum += j.arrived_at[i] / j.free_flow[i];
    ++n;
  }
  s.ttg_ratio = n > 0 ? sum / n : 0.0;
  s.ns_unit_step = unit_steps > 0 ? cpu_ns / unit_steps : 0.0;
}

Stats run_ours(const CrowdScenario& sc) {
  Stats s;
  Judge j = make_judge(sc);
  Crowd crowd = Crowd::create(sc.grid).value();
  for (const auto& m : sc.movers) (void)crowd.add_moving_obstacle(m).value();
  for (const auto& a : sc.agents) (void)crowd.add_agent(a).value();
  const int n = crowd.agent_count();
  std::vector<Vec2> pos(static_cast<size_t>(n));
  std::vector<Pose> boxes(sc.movers.size());
  double cpu = 0.0, unit_steps = 0.0;
  bool all = false;
  while (!all && crowd.time() < sc.max_time) {
    const double t0 = thread_cpu_ns();
    crowd.step();
    cpu += thread_cpu_ns() - t0;
    unit_steps += n;
    for (int i = 0; i < n; ++i) pos[static_cast<size_t>(i)] = crowd.state(i).pose.pos;
    for (size_t k = 0; k < boxes.size(); ++k) boxes[k] = crowd.moving_obstacle(static_cast<int>(k)).pose;
    all = judge_step(j, sc, pos, boxes, crowd.time(), s);
  }
  finish(j, s, cpu, unit_steps);
  return s;
}

Stats run_detour(const CrowdScenario& sc) {
  Stats s;
  Judge j = make_judge(sc);
  double rmax = 0.0;
  for (const auto& a : sc.agents) rmax = std::max(rmax, a.unit.radius);
  NavmeshDef nd;
  nd.agent_radius = rmax;
  nd.merge_convex = false;  // rectangles: Detour's faster input (bench_navmesh)
  const Navmesh mesh = Navmesh::build(sc.grid, nd).value();
  auto d = bench::build_detour(mesh);
  dtCrowd* crowd = dtAllocCrowd();
  // At least 1: DetourCrowd places agents with half extents of 2 x 1.5 x 2 max radii, and below
  // about 0.5 cells the flat mesh's height quantisation makes that query miss every polygon.
  double max_agent_r = std::max(rmax, 1.0);
  for (const auto& m : sc.movers) max_agent_r = std::max(max_agent_r, glm::length(m.half_extents));
  crowd->init(static_cast<int>(sc.agents.size() + sc.movers.size()), static_cast<float>(max_agent_r), d->nav);
  bench::set_recastdemo_high_avoidance(*crowd);
  std::vector<int> idx;
  for (const auto& a : sc.agents) {
    const float p[3] = {static_cast<float>(a.start.pos.x), 0.0f, static_cast<float>(a.start.pos.y)};
    auto params = bench::recastdemo_agent_params(a.unit.radius, a.unit.max_speed, a.unit.acceleration);
    idx.push_back(crowd->addAgent(p, &params));
    bench::request_move_target(*crowd, *d, idx.back(), a.goal);
  }
  std::vector<int> trucks;
  for (const auto& m : sc.movers) {
    const float p[3] = {static_cast<float>(m.route[0].x), 0.0f, static_cast<float>(m.route[0].y)};
    auto params = bench::recastdemo_agent_params(glm::length(m.half_extents), m.speed, 8.0);
    trucks.push_back(crowd->addAgent(p, &params));
    bench::request_move_target(*crowd, *d, trucks.back(), m.route.back());
  }
  const int n = static_cast<int>(idx.size());
  std::vector<Vec2> pos(static_cast<size_t>(n));
  std::vector<Pose> boxes(sc.movers.size());
  const double dt = 1.0 / 60.0;
  double t = 0.0, cpu = 0.0, unit_steps = 0.0;
  bool all = false;
  while (!all && t < sc.max_time) {
    const double t0 = thread_cpu_ns();
    crowd->update(static_cast<float>(dt), nullptr);
    cpu += thread_cpu_ns() - t0;
    unit_steps += n;
    t += dt;
    for (int i = 0; i < n; ++i) {
      const float* p = crowd->getAgent(idx[static_cast<size_t>(i)])->npos;
      pos[static_cast<size_t>(i)] = Vec2(p[0], p[2]);
    }
    for (size_t k = 0; k < trucks.size(); ++k) {
      const dtCrowdAgent* ag = crowd->getAgent(trucks[k]);
      const double h = std::hypot(ag->vel[0], ag->vel[2]) > 1e-3 ? std::atan2(ag->vel[2], ag->vel[0]) : boxes[k].heading;
      boxes[k] = Pose{Vec2(ag->npos[0], ag->npos[2]), h};
    }
    all = judge_step(j, sc, pos, boxes, t, s);
  }
  dtFreeCrowd(crowd);
  finish(j, s, cpu, unit_steps);
  return s;
}

void report(benchmark::State& state, const Stats& s) {
  state.counters["ttg_ratio"] = s.ttg_ratio;
  state.counters["min_sep_ratio"] = s.min_sep_ratio;
  state.counters["overlaps"] = s.overlaps;
  state.counters["deadlocks"] = s.deadlocks;
  state.counters["ns_unit_step"] = s.ns_unit_step;
}

template <class MakeScenario>
void BM_ours(benchmark::State& state, MakeScenario make) {
  const CrowdScenario sc = make();
  Stats s;
  for (auto _ : state) s = run_ours(sc);
  report(state, s);
}

template <class MakeScenario>
void BM_detour(benchmark::State& state, MakeScenario make) {
  const CrowdScenario sc = make();
  Stats s;
  for (auto _ : state) s = run_detour(sc);
  report(state, s);
}

CrowdScenario circle_swap_10() { return circle_swap(10); }
CrowdScenario circle_swap_24() { return circle_swap(24); }
CrowdScenario counterflow_200() { return doorways_counterflow(100); }

#define PATHLAB_CROWD_CASE(name)                                                              \
  BENCHMARK_CAPTURE(BM_ours, name, name)->Unit(benchmark::kMillisecond)->Iterations(1);      \
  BENCHMARK_CAPTURE(BM_detour, name, name)->Unit(benchmark::kMillisecond)->Iterations(1);

PATHLAB_CROWD_CASE(head_on_open)
PATHLAB_CROWD_CASE(head_on_corridor)
PATHLAB_CROWD_CASE(crossing)
PATHLAB_CROWD_CASE(doorway_queue)
PATHLAB_CROWD_CASE(circle_swap_10)
PATHLAB_CROWD_CASE(circle_swap_24)
PATHLAB_CROWD_CASE(truck_crossing)
PATHLAB_CROWD_CASE(car_gives_way)
PATHLAB_CROWD_CASE(counterflow_200)

// ---- 1,000 units on a 512x512 map with 20% walls, at 60 Hz ----

struct Swarm {
  Grid grid;
  std::unique_ptr<Crowd> crowd;
  std::vector<Vec2> home, away;
};

/// The swarm stepped on `threads` threads (CrowdDef::threads), made once per count.
Swarm& swarm(int threads) {
  static std::map<int, Swarm> made;
  if (auto it = made.find(threads); it != made.end()) return it->second;
  Swarm& s = made[threads] = [threads] {
    Swarm w;
    w.grid = Grid::create(512, 512).value();
    generate_random(w.grid, 0.2, 2024);
    CrowdDef crowd_def = default_crowd_def();
    crowd_def.threads = threads;
    w.crowd = std::make_unique<Crowd>(Crowd::create(w.grid, crowd_def).value());
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> cell(1, 510), off(-40, 40);
    const char* presets[] = {"person", "person", "tank", "bear", "car"};
    std::vector<uint8_t> taken(512 * 512, 0);
    while (w.crowd->agent_count() < 1000) {
      const Cell a{cell(rng), cell(rng)};
      const Cell b{std::clamp(a.x + off(rng), 1, 510), std::clamp(a.y + off(rng), 1, 510)};
      const double dist = octile_distance(a, b);
      if (dist < 20 || dist > 60 || !w.grid.is_free(a) || !w.grid.is_free(b)) continue;
      if (taken[static_cast<size_t>(a.y * 512 + a.x)]) continue;
      CrowdAgentDef def = crowd_agent(presets[w.crowd->agent_count() % 5], a.x + 0.5, a.y + 0.5, 0, b.x + 0.5, b.y + 0.5);
      if (!w.crowd->add_agent(def)) continue;
      taken[static_cast<size_t>(a.y * 512 + a.x)] = 1;
      w.home.push_back(def.start.pos);
      w.away.push_back(def.goal);
    }
    return w;
  }();
  return s;
}

/// The argument is CrowdDef::threads (the same steps with any count; the time is wall time).
void BM_swarm_1000(benchmark::State& state) {
  Swarm& w = swarm(static_cast<int>(state.range(0)));
  Crowd& crowd = *w.crowd;
  for (auto _ : state) {
    crowd.step();
    state.PauseTiming();
    for (int i = 0; i < crowd.agent_count(); ++i) {
      // Send arrived units back where they came from, so the crowd keeps moving.
      const pathlab::CrowdAgentState& st = crowd.state(i);
      const size_t k = static_cast<size_t>(i);
      if (crowd.metrics(i).arrived && glm::length(st.pose.pos - st.target) < 0.2) {
        const Vec2 next = glm::length(crowd.agent_def(i).goal - w.away[k]) < 1e-9 ? w.home[k] : w.away[k];
        (void)crowd.set_goal(i, next);
      }
    }
    state.ResumeTiming();
  }
  state.counters["ns_unit_step"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * 1000.0 * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["replans"] = crowd.run_metrics().replans;
  state.counters["min_sep_ratio"] = crowd.run_metrics().min_separation_ratio;
}
BENCHMARK(BM_swarm_1000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(600)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
