// Time budgets and fast failure of the heading planners (issue 16), through the planning
// service as `pathlab-cli plan` and the sandbox run them.
//
// Part 1, fast failure. Target: a failing query costs no more than twice the median successful
// one on the same map. Per map and planner, 100 seeded random pose-to-pose queries without a
// budget (Hybrid A* keeps its cap of 200,000 expansions); thread CPU time per query. Printed:
// the successful queries' median; the failing ones split into those refused before the search
// ("cannot be entered": the goal check of hybrid_astar_goal.cpp) and the others (the search
// floods the map or hits its cap), each with its median and worst time and the worst as a
// multiple of the successful median; and how many failing queries cost more than twice it.
//
// Part 2, time budgets. Target: a budgeted search returns within 1.5x the budget with a
// partial path. Part 1's queries on the random map, and goals deep in a dead end that the goal
// check cannot see (the search floods the room), planned with --time-budget-ms 5, 10, 20 and
// 50. Over the queries the budget stopped: the time of the whole service call (search, partial
// path, sampling) as a multiple of the budget, wall clock (what the budget limits: median, 95th
// percentile, worst) and thread CPU (median, worst: without the waits for a shared core), and
// how many came back with a partial path.
//
// A measuring program, not a Google Benchmark: it prints its tables and exits. Thread CPU
// time and wall time are both affected by other work on a shared machine; run it pinned
// (taskset -c 1) and repeat to see the noise.
// Usage: bench_budget [--queries N] [--part 1|2]


#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../tests/generated_maps.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "thread_clock.hpp"

using namespace pathlab;
using bench::thread_ms;

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}
double median(const std::vector<double>& v) { return percentile(v, 0.5); }
double worst(const std::vector<double>& v) { return v.empty() ? std::nan("") : *std::max_element(v.begin(), v.end()); }

/// A room whose right half holds a one-cell corridor along the bottom, closed by the map edge
/// (tests' dead_end_room): a goal facing out of it deeper than the fast check looks cannot be
/// reached driving forward, and the search floods the room before it says so.
Grid dead_end_room(int w, int h) {
  Grid g = Grid::create(w, h).value();
  for (int x = w / 2; x < w; ++x) {
    g.set_blocked(x, h - 3, true);
    g.set_blocked(x, h - 1, true);
  }
  return g;
}

struct MapCase {
  std::string name;
  Grid grid;
  double radius;  // turning radius [cells]
  double agent;   // agent radius [cells]
};

struct Query {
  Pose start, goal;
};

std::vector<Query> random_queries(const Grid& g, int count, double clearance, double min_apart, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(0.0, g.width()), uy(0.0, g.height()), uh(-kPi, kPi);
  std::vector<Query> out;
  for (int guard = 0; static_cast<int>(out.size()) < count && guard < count * 1000; ++guard) {
    const Query q{{Vec2(ux(rng), uy(rng)), uh(rng)}, {Vec2(ux(rng), uy(rng)), uh(rng)}};
    if (!point_clear(g, q.start.pos, clearance) || !point_clear(g, q.goal.pos, clearance)) continue;
    if (glm::length(q.start.pos - q.goal.pos) < min_apart) continue;
    out.push_back(q);
  }
  return out;
}

struct Variant {
  const char* label;
  const char* planner;
  bool reverse;
};
constexpr Variant kVariants[] = {{"hybrid", "hybrid", false}, {"hybrid+rev", "hybrid", true},
                                 {"directional", "directional", false}};

plan::PlanRequest request(const Query& q, const Variant& v, const MapCase& m, double budget_ms) {
  plan::PlanRequest req;
  req.start = q.start;
  req.goal = q.goal;
  req.settings.planner = v.planner;
  req.settings.smoother = "none";  // the search alone: the smoother does not run on failures
  req.settings.turning_radius = m.radius;
  req.settings.agent_radius = m.agent;
  req.settings.reverse = v.reverse;
  req.analyse = false;
  req.keep_internals = false;
  req.budget.time_ms = budget_ms;
  return req;
}

void fast_failure(const MapCase& m, int queries) {
  const std::vector<Query> qs = random_queries(m.grid, queries, 1.5, 2.0 * m.radius + 8.0, 11);
  for (const Variant& v : kVariants) {
    plan::PlanService service;
    service.plan(m.grid, request(qs.front(), v, m, 0.0));  // build the tables outside the timing
    std::vector<double> ok, refused, other;
    std::vector<std::pair<double, std::string>> failures;
    for (const Query& q : qs) {
      const double t0 = thread_ms();
      const plan::PlanResult r = service.plan(m.grid, request(q, v, m, 0.0));
      const double ms = thread_ms() - t0;
      if (r.found) {
        ok.push_back(ms);
        continue;
      }
      (r.reason.find("cannot be entered") != std::string::npos ? refused : other).push_back(ms);
      failures.emplace_back(ms, r.reason.substr(0, 90) + " (" + std::to_string(r.expanded) + " expanded)");
    }
    const double base = median(ok);
    int over = 0;
    for (const auto& [ms, why] : failures) over += ms > 2.0 * base;
    std::printf("%-14s %-12s %4zu %8.2f | %3zu %7.2f %7.2f %6.2fx | %3zu %8.2f %8.2f %7.1fx | %3d\n", m.name.c_str(),
                v.label, ok.size(), base, refused.size(), median(refused), worst(refused), worst(refused) / base,
                other.size(), median(other), worst(other), worst(other) / base, over);
    for (const auto& [ms, why] : failures)
      if (ms > 2.0 * base) std::printf("    over 2x: %.1f ms: %s\n", ms, why.c_str());
    std::fflush(stdout);
  }
}

void part_fast_failure(int queries, std::vector<MapCase>& maps) {
  std::printf("\nFast failure: thread CPU ms per query, no budget (target: failing <= 2x the successful median)\n");
  std::printf("%-14s %-12s %4s %8s | %3s %7s %7s %7s | %3s %8s %8s %8s | %3s\n", "map", "planner", "ok", "med ms",
              "ref", "med", "worst", "/ok", "oth", "med", "worst", "/ok", ">2x");
  for (const MapCase& m : maps) fast_failure(m, queries);
}

void budget_row(const MapCase& m, const Variant& v, const std::vector<Query>& qs, double budget) {
  plan::PlanService service;
  service.plan(m.grid, request(qs.front(), v, m, 0.0));  // tables built outside the timing
  std::vector<double> wall, cpu;
  int partial = 0;
  for (const Query& q : qs) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = thread_ms();
    const plan::PlanResult r = service.plan(m.grid, request(q, v, m, budget));
    const double c1 = thread_ms();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r.budget_stop != BudgetStop::time) continue;  // finished within the budget
    wall.push_back(ms / budget);
    cpu.push_back((c1 - c0) / budget);
    partial += r.partial && !r.points.empty();
  }
  std::printf("%-14s %-12s %6.0f %5zu %7zu %7d | %6.2f %6.2f %6.2f | %6.2f %6.2f\n", m.name.c_str(), v.label, budget,
              qs.size(), wall.size(), partial, median(wall), percentile(wall, 0.95), worst(wall), median(cpu), worst(cpu));
  std::fflush(stdout);
}

void part_budget(int queries, const MapCase& random, const MapCase& room) {
  std::printf("\nTime budgets: time of the service call / budget, over the queries the budget stopped\n"
              "(target: wall <= 1.5 with a partial path)\n");
  std::printf("%-14s %-12s %6s %5s %7s %7s | %6s %6s %6s | %6s %6s\n", "map", "planner", "budget", "n", "stopped",
              "partial", "wall", "p95", "worst", "cpu", "worst");
  // Goals 20 to 39 cells from the dead end's closed end, facing out: deeper than the goal
  // check looks, so the search floods the room (forward) or hunts for the way to back in.
  std::vector<Query> deep;
  for (int k = 0; k < 20; ++k)
    deep.push_back({{Vec2(4.5 + k, 4.5), 0.0}, {Vec2(room.grid.width() - 20.5 - k, room.grid.height() - 1.5), kPi}});
  const std::vector<Query> many = random_queries(random.grid, queries, 1.5, 2.0 * random.radius + 8.0, 11);
  for (const Variant& v : kVariants)
    for (double budget : {1.0, 5.0, 10.0, 20.0, 50.0}) {
      budget_row(random, v, many, budget);
      budget_row(room, v, deep, budget);
    }
}

}  // namespace

int main(int argc, char** argv) {
  int queries = 100, part = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--queries") == 0) queries = std::clamp(std::atoi(argv[i + 1]), 2, 1000);
    else if (std::strcmp(argv[i], "--part") == 0) part = std::atoi(argv[i + 1]);
  }
  std::vector<MapCase> maps;
  if (auto berlin = load_movingai_map(std::string(PATHLAB_MOVINGAI_DIR) + "/Berlin_0_256.map"))
    maps.push_back({"Berlin_0_256", std::move(*berlin), 4.0, 0.5});
  else
    std::fprintf(stderr, "skipping Berlin_0_256: %s\n", berlin.error().message.c_str());
  maps.push_back({"random256-10%", test::block_clutter_map(0.10, 3), 4.0, 0.5});
  Grid rooms = Grid::create(64, 64).value();
  generate_rooms(rooms, 16, 6, 2001);
  maps.push_back({"rooms64", std::move(rooms), 2.0, 0.5});
  if (part != 2) part_fast_failure(queries, maps);
  if (part != 1) part_budget(queries, maps[maps.size() - 2], MapCase{"dead-end96", dead_end_room(96, 96), 2.0, 0.3});
  return 0;
}
