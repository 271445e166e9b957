// A crowd at a door one cell wide (issue 24: "nothing stays locked for more than 10 s"):
// how long the door stands unused while units still wait to pass, and the longest lock of any
// unit, over perturbed runs of one scene.
//
//   bench_doorway [--scene FILE] [--max-time S]
//
// The default scene is assets/bench/doorway-28.json: 28 persons (radius 0.3) sent from the
// left half of a 24x15 map through a door one cell wide (cell 12,7) to a goal on the right,
// routed as the sandbox routes them (the scene's planner and smoother through the planning
// service). A crowd at a bottleneck is chaotic: one unit more or less, or another step size,
// changes which unit ends up wedged at the door's mouth and for how long, so a single run
// says little. The runs: the scene as it is, the scene with each unit left out in turn, and
// the scene at seven other steps (1/30 to 1/75 s). Per run:
//   passed        units that went through the door (entered its cells) / units
//   last_pass_s   when the last of them did
//   stall_s       the longest time between two passes, or from the last pass to the run's
//                 end while a unit has not passed: the door unused while units wait
//   lock_s        CrowdMetrics::longest_lock (a unit held within a small area), and whose
//   arrived       units at their goal when the run ended / units
// The summary gives the median and the largest of stall_s and lock_s and how many runs went
// over 10 s. Not a Google Benchmark timing: what it measures is behaviour, and the same
// inputs give the same figures on every machine (the crowd is deterministic).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/scene_units.hpp"

using namespace pathlab;

namespace {

constexpr double kLockBound = 10.0;  ///< The issue's bound. [Units: s]

struct Args {
  std::string scene = std::string(PATHLAB_ASSETS_DIR) + "/bench/doorway-28.json";
  double max_time = 200.0;  ///< [Units: s] [Limit: (0, 3600]]
};

struct Run {
  std::string name;
  int units = 0, passed = 0, arrived = 0;
  double last_pass = 0.0, stall = 0.0, lock = 0.0;
  int lock_agent = -1;
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "bench_doorway: %s needs a value\n", o.c_str());
      std::exit(2);
    }
    if (o == "--scene") {
      a.scene = argv[++i];
    } else if (o == "--max-time") {
      a.max_time = std::atof(argv[++i]);
      if (!(a.max_time > 0.0 && a.max_time <= 3600.0)) {
        std::fprintf(stderr, "bench_doorway: --max-time must be in (0, 3600] seconds\n");
        std::exit(2);
      }
    } else {
      std::fprintf(stderr, "usage: bench_doorway [--scene FILE] [--max-time S]\n");
      std::exit(2);
    }
  }
  return a;
}

bool in_door(const DoorDef& d, Vec2 p) {
  return p.x >= d.lo.x && p.x <= d.hi.x + 1 && p.y >= d.lo.y && p.y <= d.hi.y + 1;
}

/// Runs the scene's units until all have arrived or `max_time`, noting when each first
/// stands in one of the scene's doors.
Run run_one(const std::string& name, const io::Scene& scene, double dt, double max_time) {
  CrowdDef def = default_crowd_def();
  def.dt = dt;
  auto built = plan::build_scene_units(scene, def);
  if (!built || !built->crowd) {
    std::fprintf(stderr, "bench_doorway: %s: %s\n", name.c_str(), built ? "no units" : built.error().message.c_str());
    std::exit(1);
  }
  Crowd& c = *built->crowd;
  Run r;
  r.name = name;
  r.units = c.agent_count();
  std::vector<double> passed_at;
  std::vector<char> passed(static_cast<size_t>(r.units), 0);
  while (!c.all_arrived() && c.time() < max_time - 0.5 * dt) {
    c.step();
    for (int i = 0; i < r.units; ++i) {
      if (passed[static_cast<size_t>(i)]) continue;
      const Vec2 p = c.state(i).pose.pos;
      if (std::none_of(scene.doors.begin(), scene.doors.end(), [&](const DoorDef& d) { return in_door(d, p); })) continue;
      passed[static_cast<size_t>(i)] = 1;
      passed_at.push_back(c.time());
    }
  }
  r.passed = static_cast<int>(passed_at.size());
  if (r.passed < r.units) passed_at.push_back(c.time());  // the door unused until the end
  for (size_t k = 1; k < passed_at.size(); ++k) r.stall = std::max(r.stall, passed_at[k] - passed_at[k - 1]);
  r.last_pass = r.passed > 0 ? passed_at[static_cast<size_t>(r.passed) - 1] : 0.0;
  const CrowdMetrics m = c.run_metrics();
  r.lock = m.longest_lock;
  r.lock_agent = m.longest_lock_agent;
  r.arrived = m.arrived;
  return r;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

void print_summary(const std::vector<Run>& runs) {
  std::vector<double> stalls, locks;
  int stalls_over = 0, locks_over = 0, not_all = 0;
  for (const Run& r : runs) {
    stalls.push_back(r.stall);
    locks.push_back(r.lock);
    stalls_over += r.stall > kLockBound;
    locks_over += r.lock > kLockBound;
    not_all += r.arrived < r.units;
  }
  std::printf("runs %zu: stall_s median %.2f max %.2f, %d over 10 s; lock_s median %.2f max %.2f, %d over 10 s; %d not all arrived\n",
              runs.size(), median(stalls), *std::max_element(stalls.begin(), stalls.end()), stalls_over, median(locks),
              *std::max_element(locks.begin(), locks.end()), locks_over, not_all);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  auto scene = plan::load_scene(args.scene);
  if (!scene) {
    std::fprintf(stderr, "bench_doorway: %s\n", scene.error().message.c_str());
    return 1;
  }
  if (scene->doors.empty() || scene->units.empty()) {
    std::fprintf(stderr, "bench_doorway: %s: the scene needs units and a door\n", args.scene.c_str());
    return 1;
  }
  const double dt = default_crowd_def().dt;
  std::vector<Run> runs;
  runs.push_back(run_one("as is", *scene, dt, args.max_time));
  for (size_t k = 0; k < scene->units.size(); ++k) {
    io::Scene without = *scene;
    without.units.erase(without.units.begin() + static_cast<std::ptrdiff_t>(k));
    runs.push_back(run_one("without unit " + std::to_string(k), without, dt, args.max_time));
  }
  for (int hz : {30, 40, 45, 50, 55, 65, 75}) runs.push_back(run_one("dt 1/" + std::to_string(hz), *scene, 1.0 / hz, args.max_time));
  std::printf("%-16s %8s %11s %8s %8s %6s %8s\n", "run", "passed", "last_pass_s", "stall_s", "lock_s", "by", "arrived");
  for (const Run& r : runs) {
    std::printf("%-16s %4d/%-3d %11.2f %8.2f %8.2f %6d %4d/%-3d\n", r.name.c_str(), r.passed, r.units, r.last_pass, r.stall, r.lock,
                r.lock_agent, r.arrived, r.units);
  }
  print_summary(runs);
  return 0;
}
