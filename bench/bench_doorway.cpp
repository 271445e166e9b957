// A crowd at a door one cell wide (issue 24: "nothing stays locked for more than 10 s"):
// how long the door stands unused while units still wait to pass, and the longest lock of any
// unit, over perturbed runs of one scene, for our crowd and for DetourCrowd on the same runs.
//
//   bench_doorway [--scene FILE] [--max-time S] [--engines pathlab,detour]
//
// The default scene is assets/bench/doorway-28.json: 28 persons (radius 0.3) sent from the
// left half of a 24x15 map through a door one cell wide (cell 12,7) to a goal on the right,
// routed as the sandbox routes them (the scene's planner and smoother through the planning
// service). A crowd at a bottleneck is chaotic: one unit more or less, or another step size,
// changes which unit ends up wedged at the door's mouth and for how long, so a single run
// says little. The runs: the scene as it is, the scene with each unit left out in turn, and
// the scene at seven other steps (1/30 to 1/75 s). Per run and engine:
//   passed        units that went through the door (entered its cells) / units
//   last_pass_s   when the last of them did
//   stall_s       the longest time between two passes, or from the last pass to the run's
//                 end while a unit has not passed: the door unused while units wait
//   lock_s        the longest time a unit not yet arrived stayed within CrowdDef::lock_distance
//                 (0.5 cells) of one spot (CrowdAgentMetrics::longest_lock's rule, counted here
//                 the same way for both engines), and whose
//   lock_door     how far from the door that unit stood: at the mouth (under 1.5 cells) a jam,
//                 further back a unit waiting its turn in the queue, or near the goals
//   wait_s        the same for units that had not gone through the door yet: the longest
//                 wait for the door (DetourCrowd's longest locks are among units jostling at
//                 their goals, past the door)
//   sep           the smallest centre distance / sum of radii of any two units in any step
//                 (< 1: bodies overlapped)
//   arrived       units at their goals when the run ended / units (ours: its own arrival rule;
//                 DetourCrowd: within 0.5 cells of the goal)
// DetourCrowd (recastnavigation) gets the same start positions (where our crowd placed the
// units), the same goals, a Detour navmesh of the same grid shrunk by the unit radius, and
// RecastDemo's agent settings (bench/detour_crowd_settings.hpp), as in bench_crowd. The
// summary gives, per engine, the median and the largest stall_s, wait_s and lock_s, how many
// runs went over 10 s, and the smallest sep. Not a Google Benchmark timing: what it measures is
// behaviour, and the same inputs give the same figures on every machine.

#include <DetourCrowd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "detour_crowd_settings.hpp"
#include "detour_mesh.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/scene_units.hpp"

using namespace pathlab;

namespace {

constexpr double kLockBound = 10.0;     ///< The issue's bound. [Units: s]
constexpr double kDetourArrive = 0.5;   ///< A DetourCrowd agent this near its goal has arrived. [Units: cells]

struct Args {
  std::string scene = std::string(PATHLAB_ASSETS_DIR) + "/bench/doorway-28.json";
  double max_time = 200.0;  ///< [Units: s] [Limit: (0, 3600]]
  bool ours = true, detour = true;
};

/// What a run showed.
struct Run {
  std::string name;
  int units = 0, passed = 0, arrived = 0;
  double last_pass = 0.0, stall = 0.0, lock = 0.0, sep = std::numeric_limits<double>::infinity();
  int lock_agent = -1;
  double lock_door = 0.0;  ///< Distance from the nearest door of the longest lock's spot. [Units: cells]
  double wait = 0.0;       ///< Longest lock of a unit before it went through the door. [Units: s]
};

/// A unit's lock as CrowdAgentMetrics::longest_lock counts it (held within lock_distance of
/// one spot while not arrived), with where the longest one was.
struct LockWatch {
  Vec2 anchor{0.0, 0.0};
  double since = -1.0, longest = 0.0;
  Vec2 at{0.0, 0.0};

  void note(Vec2 p, bool moving_on, double t, double lock_distance) {
    if (!moving_on || since < 0.0 || glm::length(p - anchor) > lock_distance) {
      anchor = p;
      since = moving_on ? t : -1.0;
      return;
    }
    if (t - since > longest) {
      longest = t - since;
      at = anchor;
    }
  }
};

bool in_door(const DoorDef& d, Vec2 p) {
  return p.x >= d.lo.x && p.x <= d.hi.x + 1 && p.y >= d.lo.y && p.y <= d.hi.y + 1;
}

double door_distance(const std::vector<DoorDef>& doors, Vec2 p) {
  double best = std::numeric_limits<double>::infinity();
  for (const DoorDef& d : doors) {
    const Vec2 q(std::clamp(p.x, double(d.lo.x), double(d.hi.x + 1)), std::clamp(p.y, double(d.lo.y), double(d.hi.y + 1)));
    best = std::min(best, glm::length(p - q));
  }
  return best;
}

/// The run's figures from the units' positions, step by step, whichever engine moved them.
class Watch {
 public:
  Watch(std::string name, const std::vector<DoorDef>& doors, std::vector<double> radii, double lock_distance)
      : doors_(doors),
        radii_(std::move(radii)),
        lock_distance_(lock_distance),
        passed_(radii_.size(), 0),
        locks_(radii_.size()),
        waits_(radii_.size()) {
    run_.name = std::move(name);
    run_.units = static_cast<int>(radii_.size());
  }

  /// The positions after a step at time t; `arrived[i]`: unit i is at its goal.
  void step(double t, const std::vector<Vec2>& pos, const std::vector<char>& arrived) {
    for (size_t i = 0; i < pos.size(); ++i) {
      locks_[i].note(pos[i], !arrived[i], t, lock_distance_);
      waits_[i].note(pos[i], !arrived[i] && !passed_[i], t, lock_distance_);
      for (size_t j = i + 1; j < pos.size(); ++j) run_.sep = std::min(run_.sep, glm::length(pos[j] - pos[i]) / (radii_[i] + radii_[j]));
      if (passed_[i] || std::none_of(doors_.begin(), doors_.end(), [&](const DoorDef& d) { return in_door(d, pos[i]); })) continue;
      passed_[i] = 1;
      passed_at_.push_back(t);
    }
    end_ = t;
  }

  Run finish(int arrived) {
    run_.passed = static_cast<int>(passed_at_.size());
    if (run_.passed < run_.units) passed_at_.push_back(end_);  // the door unused until the end
    for (size_t k = 1; k < passed_at_.size(); ++k) run_.stall = std::max(run_.stall, passed_at_[k] - passed_at_[k - 1]);
    run_.last_pass = run_.passed > 0 ? passed_at_[static_cast<size_t>(run_.passed) - 1] : 0.0;
    const auto held = std::max_element(locks_.begin(), locks_.end(), [](const LockWatch& x, const LockWatch& y) { return x.longest < y.longest; });
    run_.lock = held->longest;
    run_.lock_agent = static_cast<int>(held - locks_.begin());
    run_.lock_door = door_distance(doors_, held->at);
    for (const LockWatch& w : waits_) run_.wait = std::max(run_.wait, w.longest);
    run_.arrived = arrived;
    return run_;
  }

 private:
  const std::vector<DoorDef>& doors_;
  std::vector<double> radii_;
  double lock_distance_;
  std::vector<char> passed_;
  std::vector<LockWatch> locks_, waits_;
  std::vector<double> passed_at_;
  double end_ = 0.0;
  Run run_;
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "bench_doorway: %s needs a value\n", o.c_str());
      std::exit(2);
    }
    const std::string v = argv[++i];
    if (o == "--scene") {
      a.scene = v;
    } else if (o == "--max-time") {
      a.max_time = std::atof(v.c_str());
      if (!(a.max_time > 0.0 && a.max_time <= 3600.0)) {
        std::fprintf(stderr, "bench_doorway: --max-time must be in (0, 3600] seconds\n");
        std::exit(2);
      }
    } else if (o == "--engines") {
      a.ours = v.find("pathlab") != std::string::npos;
      a.detour = v.find("detour") != std::string::npos;
    } else {
      std::fprintf(stderr, "usage: bench_doorway [--scene FILE] [--max-time S] [--engines pathlab,detour]\n");
      std::exit(2);
    }
  }
  return a;
}

/// The scene's units built as the sandbox builds them (placement, goals, routes).
plan::SceneUnits build_units(const std::string& name, const io::Scene& scene, double dt) {
  CrowdDef def = default_crowd_def();
  def.dt = dt;
  auto built = plan::build_scene_units(scene, def);
  if (!built || !built->crowd) {
    std::fprintf(stderr, "bench_doorway: %s: %s\n", name.c_str(), built ? "no units" : built.error().message.c_str());
    std::exit(1);
  }
  return std::move(*built);
}

std::vector<double> radii_of(const Crowd& c) {
  std::vector<double> r;
  for (int i = 0; i < c.agent_count(); ++i) r.push_back(c.agent_def(i).unit.radius);
  return r;
}

/// Our crowd: the scene's units until all have arrived or `max_time`.
Run run_ours(const std::string& name, const io::Scene& scene, double dt, double max_time) {
  plan::SceneUnits built = build_units(name, scene, dt);
  Crowd& c = *built.crowd;
  Watch watch(name, scene.doors, radii_of(c), default_crowd_def().lock_distance);
  const size_t n = static_cast<size_t>(c.agent_count());
  std::vector<Vec2> pos(n);
  std::vector<char> arrived(n);
  while (!c.all_arrived() && c.time() < max_time - 0.5 * dt) {
    c.step();
    for (size_t i = 0; i < n; ++i) {
      pos[i] = c.state(static_cast<int>(i)).pose.pos;
      arrived[i] = c.state(static_cast<int>(i)).reached;
    }
    watch.step(c.time(), pos, arrived);
  }
  return watch.finish(c.run_metrics().arrived);
}

/// DetourCrowd from the same start positions to the same goals, on the same grid.
Run run_detour(const std::string& name, const io::Scene& scene, double dt, double max_time) {
  plan::SceneUnits built = build_units(name, scene, dt);
  const Crowd& ours = *built.crowd;
  const std::vector<double> radii = radii_of(ours);
  NavmeshDef nd;
  nd.agent_radius = *std::max_element(radii.begin(), radii.end());
  nd.merge_convex = false;  // rectangles: Detour's faster input (bench_navmesh)
  const Navmesh mesh = Navmesh::build(scene.grid, nd).value();
  auto d = bench::build_detour(mesh);
  dtCrowd* crowd = dtAllocCrowd();
  // At least 1: below about 0.5 cells the flat mesh's height quantisation makes DetourCrowd's
  // placement query (half extents of 2 x 1.5 x 2 max radii) miss every polygon (bench_crowd).
  crowd->init(ours.agent_count(), 1.0f, d->nav);
  bench::set_recastdemo_high_avoidance(*crowd);
  const size_t n = static_cast<size_t>(ours.agent_count());
  std::vector<int> idx;
  std::vector<Vec2> goals;
  for (size_t i = 0; i < n; ++i) {
    const CrowdAgentDef& a = ours.agent_def(static_cast<int>(i));
    const Vec2 s = ours.state(static_cast<int>(i)).pose.pos;
    const float p[3] = {static_cast<float>(s.x), 0.0f, static_cast<float>(s.y)};
    auto params = bench::recastdemo_agent_params(a.unit.radius, a.unit.max_speed, a.unit.acceleration);
    idx.push_back(crowd->addAgent(p, &params));
    goals.push_back(a.goal);
    bench::request_move_target(*crowd, *d, idx.back(), a.goal);
  }
  Watch watch(name, scene.doors, radii, default_crowd_def().lock_distance);
  std::vector<Vec2> pos(n);
  std::vector<char> arrived(n);
  int done = 0;
  for (double t = dt; t < max_time + 0.5 * dt && done < static_cast<int>(n); t += dt) {
    crowd->update(static_cast<float>(dt), nullptr);
    done = 0;
    for (size_t i = 0; i < n; ++i) {
      const float* p = idx[i] >= 0 ? crowd->getAgent(idx[i])->npos : nullptr;
      pos[i] = p ? Vec2(p[0], p[2]) : Vec2(-1e9);
      arrived[i] = glm::length(pos[i] - goals[i]) <= kDetourArrive;
      done += arrived[i];
    }
    watch.step(t, pos, arrived);
  }
  dtFreeCrowd(crowd);
  return watch.finish(done);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

void print_runs(const char* engine, const std::vector<Run>& runs) {
  std::printf("%s\n%-16s %8s %11s %8s %8s %8s %5s %9s %6s %8s\n", engine, "run", "passed", "last_pass_s", "stall_s", "wait_s", "lock_s",
              "by", "lock_door", "sep", "arrived");
  for (const Run& r : runs) {
    std::printf("%-16s %4d/%-3d %11.2f %8.2f %8.2f %8.2f %5d %9.2f %6.3f %4d/%-3d\n", r.name.c_str(), r.passed, r.units, r.last_pass,
                r.stall, r.wait, r.lock, r.lock_agent, r.lock_door, r.sep, r.arrived, r.units);
  }
}

/// Median, largest and count over 10 s of one figure over the runs.
std::string spread(const std::vector<Run>& runs, double Run::*field) {
  std::vector<double> v;
  int over = 0;
  for (const Run& r : runs) {
    v.push_back(r.*field);
    over += r.*field > kLockBound;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "median %.2f max %.2f, %d over 10 s", median(v), *std::max_element(v.begin(), v.end()), over);
  return buf;
}

void print_summary(const char* engine, const std::vector<Run>& runs) {
  int not_all = 0;
  double sep = std::numeric_limits<double>::infinity();
  for (const Run& r : runs) {
    not_all += r.arrived < r.units;
    sep = std::min(sep, r.sep);
  }
  std::printf("%s, runs %zu: stall_s %s; wait_s %s; lock_s %s; smallest sep %.3f; %d not all arrived\n", engine, runs.size(),
              spread(runs, &Run::stall).c_str(), spread(runs, &Run::wait).c_str(), spread(runs, &Run::lock).c_str(), sep, not_all);
}

/// The perturbed runs: the scene as is, each unit left out, seven other steps.
template <class RunFn>
std::vector<Run> perturbed_runs(const io::Scene& scene, double max_time, RunFn run) {
  const double dt = default_crowd_def().dt;
  std::vector<Run> runs;
  runs.push_back(run("as is", scene, dt, max_time));
  for (size_t k = 0; k < scene.units.size(); ++k) {
    io::Scene without = scene;
    without.units.erase(without.units.begin() + static_cast<std::ptrdiff_t>(k));
    runs.push_back(run("without unit " + std::to_string(k), without, dt, max_time));
  }
  for (int hz : {30, 40, 45, 50, 55, 65, 75}) runs.push_back(run("dt 1/" + std::to_string(hz), scene, 1.0 / hz, max_time));
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  auto scene = plan::load_scene(args.scene);
  if (!scene) {
    std::fprintf(stderr, "bench_doorway: %s\n", scene.error().message.c_str());
    return 1;
  }
  if (scene->doors.empty() || scene->units.size() < 2) {
    std::fprintf(stderr, "bench_doorway: %s: the scene needs two units or more and a door\n", args.scene.c_str());
    return 1;
  }
  std::vector<Run> ours, detour;
  if (args.ours) ours = perturbed_runs(*scene, args.max_time, run_ours);
  if (args.detour) detour = perturbed_runs(*scene, args.max_time, run_detour);
  if (args.ours) print_runs("pathlab", ours);
  if (args.detour) print_runs("DetourCrowd", detour);
  if (args.ours) print_summary("pathlab", ours);
  if (args.detour) print_summary("DetourCrowd", detour);
  return 0;
}
