// Does a single unit drive the path it was given and come to rest at its goal pose?
//
// Generated maps (fixed seeds): parking lots (rows of 2 x 4 cars, 7-cell aisles, 30% empty
// stalls; tests/generated_maps.hpp) and rooms (16 cells, doors 4 wide). Per map, N seeded
// queries: start and goal at cell centres with a heading that is a multiple of 45 degrees (so
// the Directional A* lattice does not move them), 1 cell of clearance, at least 20 cells
// apart. Each preset plans through the planning service as `pathlab-cli simulate` does with:
//   car:  --planner hybrid --radius 2 --reverse (the car's radius; Reeds-Shepp cusps)
//   car-fwd: --planner hybrid --radius 2 (forward only)
//   car-dir: --planner directional --radius 2
//   tank: --planner directional (default --radius 2)
//   bear: the CLI's default planner (astar, no smoother): a polyline it steers along
// then drives the path with the preset's default follower (or --follower track) in the
// fixed-step simulation (dt 1/60 s unless --dt) and measures, per preset and map kind:
//   arrive   the simulation's own arrival (position, goal heading, stopped)
//   at-pose  ended within 0.5 cells and 10 degrees of the plan's end pose, speed 0
//   time x   time to goal / (plan length / max_speed), median and max over arrivals
//   dev      largest distance from the path it was given (the follower's own measure,
//            projected monotonically along the path), max and p95 over runs
//   coll     steps the referee (collision.hpp) found entering a wall, summed; runs with any
//   turn+    the largest heading rate above the preset's limit at that speed
//            (max_heading_rate: min(max_turn_rate, |v| / turning_radius), pivot rate at rest) [deg/s]
// `--polyline` drives the plan's sampled points instead of its exact segment path (how
// `pathlab-cli simulate` built a pose plan's path before the follower branch): the "before".
// This is a measuring program, not a Google Benchmark: it prints a table and exits.
// Usage: bench_unit_tracking [--maps N] [--queries N] [--size N] [--dt S] [--follower track] [--preset car|car-fwd|car-dir|tank|bear]
//                            [--polyline] [--per-query]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../tests/generated_maps.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/follow_path.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/simulation.hpp"
#include "vehicle_metrics.hpp"

using namespace pathlab;
using bench::quantile;

namespace {

/// The CLI's spacing of a curve's samples (`--sample-step` default) and of the follower's
/// samples of a segment path (cmd_simulate.cpp). [Units: cells]
constexpr double kCliCurveStep = 0.25;
constexpr double kFollowSpacing = 0.05;

struct Options {
  int maps = 3, queries = 50, size = 256;
  double dt = 1.0 / 60.0;
  std::optional<FollowerKind> follower;
  std::string preset;  // only this row's preset ("car", "car-fwd", "car-dir", "tank", "bear"); empty: all
  bool polyline = false, per_query = false;
};

struct Preset {
  const char* label;
  const char* unit;
  const char* planner;
  bool reverse;
};

constexpr Preset kPresets[] = {
    {"car", "car", "hybrid", true},
    {"car-fwd", "car", "hybrid", false},
    {"car-dir", "car", "directional", false},
    {"tank", "tank", "directional", false},
    {"bear", "bear", "astar", false},
};

constexpr const char* kKinds[] = {"parking", "rooms"};

Grid make_map(int kind, int size, uint32_t seed) {
  if (kind == 0) return test::parking_lot(seed, size, size);
  Grid g = Grid::create(size, size).value();
  generate_rooms(g, 16, 4, seed);
  return g;
}

struct Query {
  Pose start, goal;
};

std::vector<Query> make_queries(const Grid& g, int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> ux(1, g.width() - 2), uy(1, g.height() - 2), uh(0, 7);
  auto pose = [&] { return Pose{Vec2(ux(rng) + 0.5, uy(rng) + 0.5), wrap_angle(uh(rng) * kPi / 4.0)}; };
  std::vector<Query> out;
  for (int tries = 0; static_cast<int>(out.size()) < count && tries < 100 * count; ++tries) {
    const Query q{pose(), pose()};
    if (!point_clear(g, q.start.pos, 1.0) || !point_clear(g, q.goal.pos, 1.0)) continue;
    if (glm::length(q.start.pos - q.goal.pos) < 20.0) continue;
    out.push_back(q);
  }
  return out;
}

plan::PlanRequest request_for(const Query& q, const Preset& p, const UnitDef& unit) {
  plan::PlanRequest req;
  req.start = q.start;
  req.goal = q.goal;
  req.settings.planner = p.planner;
  const plan::PlannerInfo* info = plan::find_planner(p.planner);
  if (info && info->family == plan::PlannerFamily::heading) {
    req.settings.smoother = plan::smoothers_for(plan::PlannerFamily::heading).front().name;
  }
  req.settings.reverse = p.reverse;
  req.settings.agent_radius = unit.radius;
  req.curve_step = kCliCurveStep;
  req.analyse = false;
  req.keep_internals = false;
  req.budget.max_expansions = 200000;
  return req;
}

/// The path `pathlab-cli simulate` drives: a pose plan's exact segment path (or, with
/// --polyline, its sampled points as before), a grid plan's points from the start.
std::optional<FollowPath> follow_path_of(const Grid& g, const plan::PlanResult& r, const Query& q, const UnitDef& unit,
                                         bool polyline) {
  const bool pose_plan = r.family == plan::PlannerFamily::heading;
  if (pose_plan && r.segments && !polyline) {
    auto fp = FollowPath::from_segment_path(*r.segments, kFollowSpacing);
    return fp ? std::optional<FollowPath>(std::move(*fp)) : std::nullopt;
  }
  std::vector<Vec2> pts = splice_start(g, q.start.pos, r.points, unit.radius);
  if (!pose_plan && pts.back() != q.goal.pos && segment_clear(g, pts.back(), q.goal.pos, unit.radius))
    pts.push_back(q.goal.pos);
  auto fp = FollowPath::from_polyline(pts);
  if (!fp) return std::nullopt;
  const double heading = pose_plan && !r.headings.empty() ? r.headings.back() : q.goal.heading;
  (void)fp->set_goal_heading(heading);
  return std::move(*fp);
}

struct Run {
  bool planned = false, arrived = false, at_pose = false;
  double time_ratio = 0, deviation = 0, turn_excess = 0;
  int collisions = 0;
  std::string ended;
};

/// The largest heading rate above the unit's limit at the speed it moved with. [Units: rad/s]
double turn_excess(const UnitDef& unit, const SingleRun& run, double dt) {
  double worst = 0.0;
  for (size_t k = 1; k < run.samples.size(); ++k) {
    const auto& a = run.samples[k - 1];
    const auto& b = run.samples[k];
    const double rate = std::abs(wrap_angle(b.pose.heading - a.pose.heading)) / dt;
    const double limit = max_heading_rate(unit, std::max(std::abs(a.speed), std::abs(b.speed)));
    worst = std::max(worst, rate - limit);
  }
  return worst;
}

Run run_query(plan::PlanService& service, const Grid& g, const Query& q, const Preset& p, const Options& opt) {
  Run out;
  UnitDef unit = unit_preset(p.unit).value();
  if (opt.follower) unit.follower.kind = *opt.follower;
  const plan::PlanResult r = service.plan(g, request_for(q, p, unit));
  if (!r.found || r.points.empty()) return out;
  std::optional<FollowPath> path = follow_path_of(g, r, q, unit, opt.polyline);
  if (!path) return out;
  const Pose end = r.segments && r.family == plan::PlannerFamily::heading
                       ? r.segments->end()
                       : Pose{path->end_point(), path->goal_heading().value_or(q.goal.heading)};
  const std::optional<Pose> start =
      unit.follower.kind == FollowerKind::track ? std::nullopt : std::optional<Pose>(q.start);
  SimulationDef sd = default_simulation_def();
  sd.dt = opt.dt;
  const double max_time = 10.0 * path->length() / unit.max_speed + 30.0;  // as the CLI
  auto run = simulate_unit(g, unit, *path, start, sd, max_time);
  if (!run) {
    out.ended = run.error().message;
    return out;
  }
  out.planned = true;
  const RunMetrics& m = run->metrics;
  out.arrived = m.arrived;
  const TrajectorySample& last = run->samples.back();
  out.at_pose = glm::length(last.pose.pos - end.pos) <= 0.5 &&
                std::abs(wrap_angle(last.pose.heading - end.heading)) <= deg_to_rad(10.0) && last.speed == 0.0;
  if (m.time_to_goal) out.time_ratio = *m.time_to_goal / std::max(1e-9, r.length / unit.max_speed);
  out.deviation = m.max_deviation;
  out.collisions = m.collisions;
  out.turn_excess = turn_excess(unit, *run, sd.dt);
  out.ended = run->ended_because;
  return out;
}

void print_header() {
  std::printf("%-8s %-8s %7s | %6s %7s | %-13s | %-13s | %5s %4s | %s\n", "preset", "map", "planned", "arrive",
              "at-pose", "time x med/max", "dev max/p95", "coll", "runs", "turn+ deg/s");
}

void print_row(const char* preset, const char* kind, const std::vector<Run>& runs, size_t asked) {
  std::vector<double> times, devs;
  int arrived = 0, at_pose = 0, collisions = 0, coll_runs = 0;
  double excess = 0.0;
  for (const Run& r : runs) {
    arrived += r.arrived;
    at_pose += r.at_pose;
    if (r.arrived) times.push_back(r.time_ratio);
    devs.push_back(r.deviation);
    collisions += r.collisions;
    coll_runs += r.collisions > 0;
    excess = std::max(excess, r.turn_excess);
  }
  const double n = std::max<double>(1.0, static_cast<double>(runs.size()));
  std::printf("%-8s %-8s %3zu/%-3zu | %5.1f%% %6.1f%% | %5.2f %6.2f | %5.2f %6.2f | %5d %4d | %7.1f\n", preset, kind,
              runs.size(), asked, 100.0 * arrived / n, 100.0 * at_pose / n, times.empty() ? 0.0 : quantile(times, 0.5),
              times.empty() ? 0.0 : quantile(times, 1.0), devs.empty() ? 0.0 : quantile(devs, 1.0),
              devs.empty() ? 0.0 : quantile(devs, 0.95), collisions, coll_runs, rad_to_deg(excess));
  std::fflush(stdout);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const bool more = i + 1 < argc;
    if (std::strcmp(argv[i], "--polyline") == 0) o.polyline = true;
    else if (std::strcmp(argv[i], "--per-query") == 0) o.per_query = true;
    else if (more && std::strcmp(argv[i], "--maps") == 0) o.maps = std::clamp(std::atoi(argv[++i]), 1, 10);
    else if (more && std::strcmp(argv[i], "--queries") == 0) o.queries = std::clamp(std::atoi(argv[++i]), 1, 500);
    else if (more && std::strcmp(argv[i], "--size") == 0) o.size = std::clamp(std::atoi(argv[++i]), 40, 512);
    else if (more && std::strcmp(argv[i], "--preset") == 0) o.preset = argv[++i];
    else if (more && std::strcmp(argv[i], "--dt") == 0) o.dt = std::clamp(std::atof(argv[++i]), 1e-3, 0.1);
    else if (more && std::strcmp(argv[i], "--follower") == 0) {
      auto k = parse_follower_kind(argv[++i]);
      if (k) o.follower = *k;
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  std::printf("%d x %d, %d map(s) x %d queries per kind, dt %.4f s, follower %s, path %s\n", opt.size, opt.size,
              opt.maps, opt.queries, opt.dt, opt.follower ? to_string(*opt.follower) : "preset default",
              opt.polyline ? "plan points (polyline)" : "as planned (segments for pose plans)");
  print_header();
  for (const Preset& p : kPresets) {
    if (!opt.preset.empty() && opt.preset != p.label) continue;
    std::vector<Run> all;
    size_t all_asked = 0;
    for (int kind = 0; kind < 2; ++kind) {
      std::vector<Run> runs;
      size_t asked = 0;
      for (int m = 0; m < opt.maps; ++m) {
        const uint32_t seed = 3100u + 10u * static_cast<uint32_t>(kind) + static_cast<uint32_t>(m);
        const Grid g = make_map(kind, opt.size, seed);
        plan::PlanService service;
        const std::vector<Query> qs = make_queries(g, opt.queries, seed);
        asked += qs.size();
        for (size_t i = 0; i < qs.size(); ++i) {
          const Run r = run_query(service, g, qs[i], p, opt);
          if (opt.per_query && r.planned)
            std::printf("  %s %s m%d q%zu: arrived %d at-pose %d dev %.3f coll %d turn+ %.1f %s\n", p.label,
                        kKinds[kind], m, i, r.arrived, r.at_pose, r.deviation, r.collisions,
                        rad_to_deg(r.turn_excess), r.ended.c_str());
          if (r.planned) runs.push_back(r);
        }
      }
      print_row(p.label, kKinds[kind], runs, asked);
      all.insert(all.end(), runs.begin(), runs.end());
      all_asked += asked;
    }
    print_row(p.label, "all", all, all_asked);
  }
  return 0;
}
