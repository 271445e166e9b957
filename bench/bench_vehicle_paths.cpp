// Paths a driver would drive (issue 16): how much do the heading-aware planners wiggle?
//
// Generated parking lots and rooms with wide doors (fixed seeds), 50 pose-to-pose queries per
// map, turning radius 2, agent radius 0.5, curves sampled every 0.1 cells. For Directional A*,
// Hybrid A* (forward only) and Hybrid A* with reverse, each planned once with the smoother
// "none" (the raw search result, the BEFORE) and once with the family's default smoother (the
// first registry row, the AFTER), it prints per map:
//  - steering-direction changes per 100 cells: sign changes of the curvature (left <-> right,
//    straight pieces in between do not reset the sign) per 100 cells of path, median over queries;
//  - turning ratio: total |heading change| along the path divided by what the Euclidean shortest
//    path needs (its corner angles plus the start and goal heading changes onto its first and off
//    its last leg; the shortest path is the navmesh funnel path for the agent radius, exact in
//    its corridor), median over queries; the denominator is floored at 0.1 rad so a query whose
//    shortest path is straight and already aligned does not divide by zero;
//  - median length, the changes of gear (cusps) of all queries together, median plan time
//    (thread CPU time: the machine may be shared).
// This is a measuring program, not a Google Benchmark: it prints one table and exits.
// Usage: bench_vehicle_paths [--maps N] [--queries N]

#include <algorithm>
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
#include "pathlab/plan/plan_service.hpp"
#include "vehicle_metrics.hpp"

using namespace pathlab;
using bench::Measure;
using bench::median;
using bench::thread_ms;

namespace {

constexpr double kTurningRadius = 2.0;
constexpr double kAgentRadius = 0.5;
constexpr double kSampleStep = 0.1;

Grid rooms(uint32_t seed) {
  Grid g = Grid::create(64, 64).value();
  generate_rooms(g, 16, 6, seed);
  return g;
}

struct Query {
  Pose start, goal;
};

std::vector<Query> make_queries(const Grid& g, int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(1.0, g.width() - 1.0), uy(1.0, g.height() - 1.0), uh(-kPi, kPi);
  std::vector<Query> out;
  while (static_cast<int>(out.size()) < count) {
    const Query q{{Vec2(ux(rng), uy(rng)), uh(rng)}, {Vec2(ux(rng), uy(rng)), uh(rng)}};
    // Room to turn around both ends (a radius-2 unit of radius 0.5), and a real trip.
    if (!point_clear(g, q.start.pos, 1.5) || !point_clear(g, q.goal.pos, 1.5)) continue;
    if (glm::length(q.start.pos - q.goal.pos) < 12.0) continue;
    out.push_back(q);
  }
  return out;
}

struct Variant {
  const char* label;
  const char* planner;
  bool reverse;
};

Measure run_one(plan::PlanService& service, const Grid& g, const Query& q, const Variant& v, const std::string& smoother) {
  plan::PlanRequest req;
  req.start = q.start;
  req.goal = q.goal;
  req.settings.planner = v.planner;
  req.settings.smoother = smoother;
  req.settings.turning_radius = kTurningRadius;
  req.settings.agent_radius = kAgentRadius;
  req.settings.reverse = v.reverse;
  req.curve_step = kSampleStep;
  req.analyse = false;
  req.keep_internals = false;
  const double t0 = thread_ms();
  const plan::PlanResult r = service.plan(g, req);
  return bench::measure(r, thread_ms() - t0);
}

void report_map(const char* map_name, const Grid& g, int queries, uint32_t seed) {
  plan::PlanService service;
  const std::vector<Query> qs = make_queries(g, queries, seed);
  std::vector<double> need(qs.size());
  for (size_t i = 0; i < qs.size(); ++i) need[i] = bench::needed_turning(service, g, qs[i].start, qs[i].goal, kAgentRadius);
  const Variant variants[] = {{"directional", "directional", false}, {"hybrid", "hybrid", false},
                              {"hybrid+rev", "hybrid", true}};
  const std::string after = plan::smoothers_for(plan::PlannerFamily::heading).front().name;
  for (const Variant& v : variants) {
    for (const std::string& smoother : {std::string("none"), after}) {
      std::vector<double> changes, ratio, length, ms;
      int cusps = 0;
      int found = 0;
      for (size_t i = 0; i < qs.size(); ++i) {
        const Measure m = run_one(service, g, qs[i], v, smoother);
        ms.push_back(m.ms);
        if (!m.found || need[i] < 0.0) continue;
        ++found;
        changes.push_back(m.changes_per_100);
        ratio.push_back(m.turning / std::max(need[i], 0.1));
        length.push_back(m.length);
        cusps += m.cusps;
      }
      std::printf("%-10s %-12s %-8s %3d/%-3zu %8.1f %8.2f %9.1f %6d %9.2f\n", map_name, v.label, smoother.c_str(), found,
                  qs.size(), median(changes), median(ratio), median(length), cusps, median(ms));
      std::fflush(stdout);
      if (after == "none") break;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int maps = 3, queries = 50;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--maps") == 0) maps = std::clamp(std::atoi(argv[i + 1]), 1, 20);
    else if (std::strcmp(argv[i], "--queries") == 0) queries = std::clamp(std::atoi(argv[i + 1]), 1, 1000);
  }
  std::printf("turning radius %.1f, agent radius %.1f, sample step %.1f, %d queries per map\n", kTurningRadius,
              kAgentRadius, kSampleStep, queries);
  std::printf("%-10s %-12s %-8s %7s %8s %8s %9s %6s %9s\n", "map", "planner", "smoother", "found", "chg/100", "turn x",
              "length", "cusps", "ms");
  for (int m = 0; m < maps; ++m) {
    const uint32_t seed = 1000u + static_cast<uint32_t>(m);
    char name[32];
    std::snprintf(name, sizeof name, "parking%d", m + 1);
    report_map(name, test::parking_lot(seed), queries, seed);
  }
  for (int m = 0; m < maps; ++m) {
    const uint32_t seed = 2000u + static_cast<uint32_t>(m);
    char name[32];
    std::snprintf(name, sizeof name, "rooms%d", m + 1);
    report_map(name, rooms(seed), queries, seed);
  }
  return 0;
}
