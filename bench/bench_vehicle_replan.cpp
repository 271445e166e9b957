// Re-planning while a unit drives (issue 24): is the vehicle smoother cheap next to the search
// it smooths?
//
// Generated 256 x 256 maps of five kinds (fixed seeds): random 10% walls (single cells), rooms
// (16 cells, doors 4 wide), a maze (corridors 6 wide), a parking lot (rows of 2 x 4 cars, 7-cell
// aisles, 30% empty stalls) and wide rooms (32 cells, doors 8 wide). Per map, 8 pose-to-pose
// queries (seeded; ends with 1 cell of clearance, at least 20 cells apart, kept when Hybrid A*
// finds a path). Each query is planned through the planning service as
// `pathlab-cli plan --planner P --radius 2 --agent-radius 0.3 --sample-step 0.1` does, for
// P = hybrid and directional:
//  - search: the plan with `--smoother none` (thread CPU time, the map's preprocessing excluded:
//    the service keeps it, as a unit re-planning on one map would). The service also keeps the
//    map's passable cells for the goal distance, and the first query's goal distance from the
//    warm-up plan, so this is a little less than what issue 24 measured;
//  - cold search: issue 24's measure, `pathlab-cli plan --smoother none`'s time_us: the same
//    plan from a new service (as a new CLI process) whose preprocessing (the CLI takes it off)
//    was done untimed by a request that starts inside a wall (it fails before the goal
//    distance: the passable cells and the goal distance are in the timed plan, as in the CLI);
//  - smoother: smooth_pose_path() on that search result with the service's settings (its budget
//    of tries, pose_smooth_tries_for() of the search's expansions, included) and, as the service
//    keeps one per map, the map's clearance field (built once per map, not timed);
//  - whole: the plan with the default smoother (`vehicle`), search included;
//  - replan: the unit has driven a quarter of the whole plan; the same request from the pose it
//    reached to the same goal (the service keeps the goal's distances from the plan before);
// and the smoothness figures of bench_vehicle_paths (steering changes per 100 cells, turning
// over what the Euclidean shortest path needs, length), for the search alone and smoothed. Every
// smoothed path is then judged by the referee (collision.hpp): its swept disc at a sagitta of
// 1e-4 and its samples every 0.02 cells must be clear, its arcs no tighter than the turning
// radius; "unsafe" counts the paths that fail. Prints median / p95 / max per map kind and
// planner and over all, and the smoother / search ratio.
// This is a measuring program, not a Google Benchmark: it prints tables and exits.
// Usage: bench_vehicle_replan [--maps N] [--queries N] [--per-query] [--kind K] [--query Q] [--unbounded]
//                             [--planner hybrid|directional] [--new-goal-only]
// (K: 0..4, one kind only, for profiling; Q: only the query of that index (from 0) per map, to
// profile one plan (the queries are still made, so the same ones); --unbounded: the direct smoother call without the
// service's budget of tries, as the service smoothed before README's thirteenth round;
// --planner: that planner's queries only; --new-goal-only: each query's search and direct
// smoother call alone, a plan to a goal the service has not seen, to profile it: no cold search,
// whole plan or re-plan, so the tables' whole-plan figures are empty).
// --per-query also prints each whole plan's hash (plan_hash(): every segment's fields, bit for
// bit), so two builds can be shown to give the same plans.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../tests/generated_maps.hpp"
#include "fnv_hash.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/pose_smoother.hpp"
#include "pathlab/swept_check.hpp"
#include "vehicle_metrics.hpp"

using namespace pathlab;
using bench::quantile;
using bench::thread_ms;

namespace {

constexpr double kTurningRadius = 2.0;
constexpr double kAgentRadius = 0.3;
constexpr double kSampleStep = 0.1;
constexpr int kMapSize = 256;
/// The direct smoother call without the service's budget of tries (--unbounded), to see what it
/// trades; the whole plan and the re-plan are the service's, bounded.
bool g_unbounded = false;
/// --new-goal-only: each query's search and direct smoother call alone (a plan to a new goal),
/// without the cold search, the whole plan and the re-plan, to profile what the issue measures.
bool g_new_goal_only = false;

struct Query {
  Pose start, goal;
};

Grid make_map(int kind, uint32_t seed) {
  if (kind == 3) return test::parking_lot(seed, kMapSize, kMapSize);
  Grid g = Grid::create(kMapSize, kMapSize).value();
  if (kind == 0) generate_random(g, 0.10, seed);
  else if (kind == 1) generate_rooms(g, 16, 4, seed);
  else if (kind == 2) generate_maze(g, 6, seed);
  else generate_rooms(g, 32, 8, seed);
  return g;
}

constexpr const char* kKindNames[] = {"random10", "rooms", "maze", "parking", "wide-rooms"};

plan::PlanRequest request_for(const Query& q, const char* planner, const char* smoother) {
  plan::PlanRequest req;
  req.start = q.start;
  req.goal = q.goal;
  req.settings.planner = planner;
  req.settings.smoother = smoother;
  req.settings.turning_radius = kTurningRadius;
  req.settings.agent_radius = kAgentRadius;
  req.curve_step = kSampleStep;
  req.analyse = false;
  req.keep_internals = false;
  return req;
}

/// The centre of the first wall cell (every generated map has one): a start there fails at once.
Vec2 wall_centre(const Grid& g) {
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      if (g.is_blocked(x, y)) return Vec2(x + 0.5, y + 0.5);
  return Vec2(-1.0, -1.0);
}

/// `count` queries Hybrid A* can answer within 30,000 expansions (at most 10 tries per query
/// wanted; a maze corridor a car cannot turn into would otherwise cost 200,000 expansions a try).
std::vector<Query> make_queries(plan::PlanService& service, const Grid& g, int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(1.0, g.width() - 1.0), uy(1.0, g.height() - 1.0), uh(-kPi, kPi);
  std::vector<Query> out;
  for (int tries = 0; static_cast<int>(out.size()) < count && tries < 10 * count; ++tries) {
    const Query q{{Vec2(ux(rng), uy(rng)), uh(rng)}, {Vec2(ux(rng), uy(rng)), uh(rng)}};
    if (!point_clear(g, q.start.pos, 1.0) || !point_clear(g, q.goal.pos, 1.0)) continue;
    if (glm::length(q.start.pos - q.goal.pos) < 20.0) continue;
    plan::PlanRequest probe = request_for(q, "hybrid", "none");
    probe.budget.max_expansions = 30000;
    if (service.plan(g, probe).found) out.push_back(q);
  }
  return out;
}

/// The settings the planning service gives the vehicle smoother for these requests.
PoseSmoothDef service_smooth_def() {
  PoseSmoothDef d = default_pose_smooth_def();
  d.turning_radius = kTurningRadius;
  d.agent_radius = kAgentRadius;
  return d;
}

/// True when the referee finds the path clear for the agent and its arcs legal.
bool referee_clear(const Grid& g, const SegmentPath& path) {
  for (const Segment& s : path.segments())
    if (s.kind != SegmentKind::line && s.radius < kTurningRadius * (1.0 - 1e-12)) return false;
  SweptCheckDef fine;
  fine.agent_radius = kAgentRadius;
  fine.max_sagitta = 1e-4;
  auto swept = check_swept_path(g, path, fine);
  if (!swept || !swept->clear) return false;
  auto samples = path.sample(0.02);
  if (!samples) return false;
  return std::all_of(samples->begin(), samples->end(),
                     [&](const PathSample& p) { return point_clear(g, p.state.pos, kAgentRadius - 1e-9); });
}

/// FNV-1a over the bits of every field of every segment and the start pose: two plans hash
/// alike when they are the same bit for bit (to show that a change left every plan the same).
uint64_t plan_hash(const SegmentPath& path) {
  bench::Fnv1a h;
  const auto mix = [&](double v) { h.value(v); };
  mix(path.start().pos.x), mix(path.start().pos.y), mix(path.start().heading);
  for (const Segment& s : path.segments()) {
    mix(static_cast<double>(s.kind)), mix(static_cast<double>(s.gear)), mix(s.length), mix(s.start.x), mix(s.start.y);
    mix(s.heading), mix(s.center.x), mix(s.center.y), mix(s.radius), mix(s.start_angle), mix(s.sweep);
    mix(s.curvature), mix(s.sharpness);
  }
  return h.h;
}

/// One query's figures.
struct Row {
  double search_ms = 0, smooth_ms = 0, whole_ms = 0, replan_ms = 0;
  double cold_ms = 0;  // the search from a new service (issue 24's measure)
  bench::Measure raw, smoothed;
  double need = -1;   // turning the shortest path needs [radians]
  bool unsafe = false;
  bool same = true;   // the direct smoother call gave the service's path
  int rounds = 0;     // the smoother's rounds
  int64_t tries = 0;  // the smoother's shortcut tries
  bool spent = false; // its tries ran out (PoseSmoothDef::max_tries)
  int64_t expanded = 0;  // the search's expanded poses
  uint64_t hash = 0;     // plan_hash() of the whole plan's smoothed path
};

// Not inlined: profiles collect it alone (valgrind --toggle-collect=*run_query*).
[[gnu::noinline]] Row run_query(plan::PlanService& service, plan::PlanService& funnel, const Grid& g, const ClearanceField& field,
              const Query& q, const char* planner) {
  Row row;
  row.need = bench::needed_turning(funnel, g, q.start, q.goal, kAgentRadius);
  double t0 = thread_ms();
  if (!g_new_goal_only) {
    plan::PlanService fresh;
    (void)fresh.plan(g, request_for(Query{{wall_centre(g), 0.0}, q.goal}, planner, "none"));
    t0 = thread_ms();
    (void)fresh.plan(g, request_for(q, planner, "none"));
    row.cold_ms = thread_ms() - t0;
  }
  t0 = thread_ms();
  const plan::PlanResult raw = service.plan(g, request_for(q, planner, "none"));
  row.search_ms = thread_ms() - t0;
  row.expanded = raw.expanded;
  row.raw = bench::measure(raw, row.search_ms);
  if (!row.raw.found || !raw.segments) return row;
  t0 = thread_ms();
  PoseSmoothDef def = service_smooth_def();
  if (!g_unbounded) def.max_tries = pose_smooth_tries_for(raw.expanded);
  auto direct = smooth_pose_path(g, *raw.segments, def, field);
  row.smooth_ms = thread_ms() - t0;
  row.rounds = direct ? direct->rounds : 0;
  row.tries = direct ? direct->tries : 0;
  row.spent = direct && direct->budget_spent;
  if (g_new_goal_only) return row;  // no whole plan: its figures stay empty
  t0 = thread_ms();
  const plan::PlanResult whole = service.plan(g, request_for(q, planner, "vehicle"));
  row.whole_ms = thread_ms() - t0;
  row.smoothed = bench::measure(whole, row.whole_ms);
  row.unsafe = !whole.segments || !referee_clear(g, *whole.segments);
  if (whole.segments) row.hash = plan_hash(*whole.segments);
  row.same = direct && whole.segments && std::abs(direct->path.length() - whole.segments->length()) < 1e-9;
  if (whole.segments) {
    auto on_the_way = whole.segments->at_distance(0.25 * whole.segments->length());
    if (on_the_way) {
      const Query rest{{on_the_way->pos, on_the_way->heading}, q.goal};
      t0 = thread_ms();
      (void)service.plan(g, request_for(rest, planner, "vehicle"));
      row.replan_ms = thread_ms() - t0;
    }
  }
  return row;
}

/// Median / p95 / max of one figure over rows.
template <class F>
void print_spread(const std::vector<Row>& rows, F figure) {
  std::vector<double> v;
  for (const Row& r : rows) v.push_back(figure(r));
  std::printf(" %7.2f %7.2f %8.2f", quantile(v, 0.5), quantile(v, 0.95), quantile(v, 1.0));
}

template <class F>
double median_of(const std::vector<Row>& rows, F figure) {
  std::vector<double> v;
  for (const Row& r : rows) v.push_back(figure(r));
  return quantile(v, 0.5);
}

void print_header() {
  std::printf("%-11s %-12s %5s | %-24s | %-24s | %-24s | %-15s | %-11s | %-11s | %-13s | %s\n", "map", "planner",
              "found", "search ms med/p95/max", "smoother ms med/p95/max", "whole ms med/p95/max",
              "smooth/search", "chg/100", "turn x", "length", "unsafe | replan ms med/p95 | smoother > search | cold search ms med/p95/max | smoother > cold search");
}

void print_rows(const char* map, const char* planner, const std::vector<Row>& rows, size_t asked) {
  std::printf("%-11s %-12s %2zu/%-2zu |", map, planner, rows.size(), asked);
  print_spread(rows, [](const Row& r) { return r.search_ms; });
  std::printf(" |");
  print_spread(rows, [](const Row& r) { return r.smooth_ms; });
  std::printf(" |");
  print_spread(rows, [](const Row& r) { return r.whole_ms; });
  std::vector<double> ratio;
  for (const Row& r : rows) ratio.push_back(r.smooth_ms / std::max(r.search_ms, 1e-3));
  std::printf(" | %6.2f %7.2f", quantile(ratio, 0.5), quantile(ratio, 1.0));
  const auto chg = [&](bool smooth) {
    return median_of(rows, [&](const Row& r) { return (smooth ? r.smoothed : r.raw).changes_per_100; });
  };
  const auto turn = [&](bool smooth) {
    return median_of(rows, [&](const Row& r) { return (smooth ? r.smoothed : r.raw).turning / std::max(r.need, 0.1); });
  };
  const auto len = [&](bool smooth) {
    return median_of(rows, [&](const Row& r) { return (smooth ? r.smoothed : r.raw).length; });
  };
  int unsafe = 0, differ = 0, dearer = 0, dearer_cold = 0;
  for (const Row& r : rows)
    unsafe += r.unsafe, differ += !r.same, dearer += r.smooth_ms > r.search_ms, dearer_cold += r.smooth_ms > r.cold_ms;
  std::printf(" | %4.1f->%4.1f | %4.2f->%4.2f | %5.1f->%5.1f | %d", chg(false), chg(true), turn(false), turn(true),
              len(false), len(true), unsafe);
  std::printf(" |");
  print_spread(rows, [](const Row& r) { return r.replan_ms; });
  std::printf(" | %d |", dearer);
  print_spread(rows, [](const Row& r) { return r.cold_ms; });
  std::printf(" | %d", dearer_cold);
  if (differ > 0) std::printf(" (%d direct smoother calls differ from the service)", differ);
  std::printf("\n");
  std::fflush(stdout);
}

void print_query(const char* map, const char* planner, size_t i, const Row& r) {
  std::printf("  %s %s q%zu: search %.3f cold search %.3f smoother %.3f whole %.3f ms, chg/100 %.2f, turn %.3f, length %.3f, rounds %d, expanded %lld, tries %lld, plan %016llx%s%s\n",
              map, planner, i, r.search_ms, r.cold_ms, r.smooth_ms, r.whole_ms, r.smoothed.changes_per_100,
              r.smoothed.turning / std::max(r.need, 0.1), r.smoothed.length, r.rounds, static_cast<long long>(r.expanded), static_cast<long long>(r.tries),
              static_cast<unsigned long long>(r.hash), r.spent ? " (spent)" : "", r.unsafe ? " UNSAFE" : "");
}

}  // namespace

int main(int argc, char** argv) {
  int maps = 1, queries = 8;
  bool per_query = false;
  int only_kind = -1;
  int only_query = -1;
  std::string only_planner;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--per-query") == 0) per_query = true;
    else if (std::strcmp(argv[i], "--unbounded") == 0) g_unbounded = true;
    else if (std::strcmp(argv[i], "--new-goal-only") == 0) g_new_goal_only = true;
    else if (i + 1 < argc && std::strcmp(argv[i], "--planner") == 0) only_planner = argv[++i];
    else if (i + 1 < argc && std::strcmp(argv[i], "--maps") == 0) maps = std::clamp(std::atoi(argv[++i]), 1, 20);
    else if (i + 1 < argc && std::strcmp(argv[i], "--queries") == 0) queries = std::clamp(std::atoi(argv[++i]), 1, 200);
    else if (i + 1 < argc && std::strcmp(argv[i], "--kind") == 0) only_kind = std::clamp(std::atoi(argv[++i]), 0, 4);
    else if (i + 1 < argc && std::strcmp(argv[i], "--query") == 0) only_query = std::clamp(std::atoi(argv[++i]), 0, 199);
  }
  std::printf("256 x 256, turning radius %.1f, agent radius %.1f, sample step %.1f, %d map(s) x %d queries per kind\n",
              kTurningRadius, kAgentRadius, kSampleStep, maps, queries);
  print_header();
  const char* planners[] = {"hybrid", "directional"};
  std::vector<Row> all[2];
  for (int kind = 0; kind < 5; ++kind) {
    if (only_kind >= 0 && kind != only_kind) continue;
    std::vector<Row> rows[2];
    size_t asked = 0;
    for (int m = 0; m < maps; ++m) {
      const uint32_t seed = 2400u + 10u * static_cast<uint32_t>(kind) + static_cast<uint32_t>(m);
      const Grid g = make_map(kind, seed);
      plan::PlanService service, funnel;
      const std::vector<Query> qs = make_queries(service, g, queries, seed);
      const ClearanceField field(g);
      asked += qs.size();
      for (int p = 0; p < 2; ++p) {
        if (!only_planner.empty() && only_planner != planners[p]) continue;
        // Build the planner's tables and the service's clearance field before timing.
        if (!qs.empty()) service.plan(g, request_for(qs[0], planners[p], "vehicle"));
        for (size_t i = 0; i < qs.size(); ++i) {
          if (only_query >= 0 && i != static_cast<size_t>(only_query)) continue;
          const Row r = run_query(service, funnel, g, field, qs[i], planners[p]);
          if (per_query) print_query(kKindNames[kind], planners[p], i, r);
          if (r.raw.found && r.smoothed.found && r.need >= 0.0) rows[p].push_back(r);
        }
      }
    }
    for (int p = 0; p < 2; ++p) {
      print_rows(kKindNames[kind], planners[p], rows[p], asked);
      all[p].insert(all[p].end(), rows[p].begin(), rows[p].end());
    }
  }
  std::vector<Row> both = all[0];
  both.insert(both.end(), all[1].begin(), all[1].end());
  print_rows("all", "hybrid", all[0], all[0].size());
  print_rows("all", "directional", all[1], all[1].size());
  print_rows("all", "both", both, both.size());
  return 0;
}
