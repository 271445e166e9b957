// The crowd step on worker threads (CrowdDef::threads, issue 27): the same bytes with 1, 2 or 4
// threads, every unit's state compared after every step, on the bundled scenes with units, a
// flow-field group through a door that shuts, and a crowd with doors, a truck and vehicles.

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "crowd_support.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/scene_units.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

const std::string kScenes = std::string(PATHLAB_ASSETS_DIR) + "/scenes";
constexpr int kThreadCounts[] = {1, 2, 4};

/// Under the sanitizers (about 20x slower; ThreadSanitizer's run of this file) fewer steps.
bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

template <class T>
void put(std::string& out, const T& v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}

void put_vec(std::string& out, Vec2 v) {
  put(out, v.x);
  put(out, v.y);
}

/// Every field of every unit's state and metrics, as raw bytes (doubles bit for bit).
std::string state_bytes(const Crowd& c) {
  std::string out;
  for (int i = 0; i < c.agent_count(); ++i) {
    const CrowdAgentState& s = c.state(i);
    put_vec(out, s.pose.pos);
    put(out, s.pose.heading);
    put(out, s.speed);
    put_vec(out, s.velocity);
    put_vec(out, s.preferred_velocity);
    put_vec(out, s.avoidance_velocity);
    put_vec(out, s.target);
    for (Vec2 p : s.route) put_vec(out, p);
    put(out, static_cast<int>(s.route_source));
    put(out, s.next_waypoint);
    for (int j : s.neighbors) put(out, j);
    const bool flags[] = {s.arrived, s.reached, s.parked_far, s.stuck, s.yielding, s.waiting};
    for (bool f : flags) put(out, f);
    out += s.note + '|' + s.why + '|';
    put(out, static_cast<int>(s.replan_cause));
    const CrowdAgentMetrics& m = c.metrics(i);
    put(out, m.longest_lock);
    put(out, m.distance);
    put(out, m.wall_contacts);
    put(out, m.unit_contacts);
    put(out, m.stuck_steps);
    put(out, m.replans);
  }
  for (int k = 0; k < c.moving_obstacle_count(); ++k) {
    put_vec(out, c.moving_obstacle(k).pose.pos);
    put(out, c.moving_obstacle(k).pose.heading);
  }
  for (int d = 0; d < c.door_count(); ++d) put(out, c.door_open(d));
  return out;
}

/// Steps the crowds (one per thread count, built alike) together for `steps` steps and checks
/// that their bytes agree after every step; returns how many steps ran.
int step_in_lockstep(std::vector<Crowd>& crowds, int steps, const std::string& what) {
  REQUIRE(crowds.size() == std::size(kThreadCounts));
  for (int s = 0; s < steps; ++s) {
    for (Crowd& c : crowds) c.step();
    const std::string one = state_bytes(crowds[0]);
    for (size_t k = 1; k < crowds.size(); ++k) {
      if (state_bytes(crowds[k]) != one) {
        FAIL_CHECK(what << ": " << kThreadCounts[k] << " threads differ from 1 thread after step " << s + 1);
        return s + 1;
      }
    }
  }
  // The run did something: units moved (a crowd standing still would agree trivially).
  double moved = 0.0;
  for (int i = 0; i < crowds[0].agent_count(); ++i) moved += crowds[0].metrics(i).distance;
  CHECK_MESSAGE(moved > 1.0, what);
  return steps;
}

/// The scene's crowd as the sandbox builds it, with `threads` worker threads.
Crowd scene_crowd(const io::Scene& scene, int threads) {
  CrowdDef def = default_crowd_def();
  def.threads = threads;
  auto built = plan::build_scene_units(scene, def);
  REQUIRE_MESSAGE(built.ok(), (built.ok() ? "" : built.error().message));
  REQUIRE(built->crowd.has_value());
  return std::move(*built->crowd);
}

Crowd scenario_crowd(const CrowdScenario& sc, CrowdDef def, int threads) {
  def.threads = threads;
  Crowd crowd = Crowd::create(sc.grid, def).value();
  for (const auto& d : sc.doors) (void)crowd.add_door(d).value();
  for (const auto& m : sc.movers) (void)crowd.add_moving_obstacle(m).value();
  for (const auto& a : sc.agents) (void)crowd.add_agent(a).value();
  return crowd;
}

/// A 60 x 40 room split at x = 30 by a wall with a door (shut from 2 s to 6 s), a garbage truck
/// driving up and down the right half, `persons` persons bound for one goal across the door
/// (a flow-field group from CrowdDef::flow_field_units on) and a car and a tank with their own.
CrowdScenario doors_truck_group(int persons) {
  CrowdScenario s{"doors, a truck and a group", Grid::create(60, 40).value(), {}, {}, {}, 60.0};
  for (int y = 0; y < 40; ++y) {
    if (y < 18 || y >= 22) s.grid.set_blocked(30, y, true);
  }
  s.doors.push_back(DoorDef{Cell{30, 18}, Cell{30, 21}, true, {2.0, 6.0}});
  MovingObstacleDef truck;
  truck.route = {Vec2(40.0, 2.5), Vec2(40.0, 37.5)};
  truck.speed = 2.0;
  truck.loop = true;
  s.movers.push_back(truck);
  for (int k = 0; k < persons; ++k) {
    s.agents.push_back(crowd_agent("person", 2.0 + 1.2 * (k % 20), 2.0 + 1.8 * (k / 20), 0.0, 52.5, 20.5));
  }
  s.agents.push_back(crowd_agent("car", 27.0, 36.0, 0.0, 50.5, 35.5));
  s.agents.push_back(crowd_agent("tank", 27.0, 32.0, 0.0, 55.5, 8.5));
  return s;
}

}  // namespace

TEST_CASE("crowd threads: every bundled scene with units steps to the same bytes with 1, 2 and 4 threads") {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(kScenes)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    auto s = plan::load_scene(e.path().string());
    if (s && !s->units.empty()) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  CHECK(files.size() >= 7);  // the five crowd scenes, bench512's 50 units, Pinter's tank
  const int steps = sanitized() ? 120 : 1200;
  for (const std::string& f : files) {
    CAPTURE(f);
    const io::Scene scene = plan::load_scene(f).value();
    std::vector<Crowd> crowds;
    for (int t : kThreadCounts) crowds.push_back(scene_crowd(scene, t));
    step_in_lockstep(crowds, steps, f);
  }
}

TEST_CASE("crowd threads: a flow-field group through a door that shuts, a truck, a car and a tank: the same bytes with 1, 2 and 4 threads") {
  const CrowdScenario sc = doors_truck_group(sanitized() ? 60 : 200);
  CrowdDef def = default_crowd_def();
  def.flow_field_units = 32;  // the persons share one field
  std::vector<Crowd> crowds;
  for (int t : kThreadCounts) crowds.push_back(scenario_crowd(sc, def, t));
  step_in_lockstep(crowds, sanitized() ? 600 : 1500, sc.name);
  // The door shut and opened again, and the group got through it (in the 25 s of the
  // optimised run; the sanitized run's 10 s end before the first are through).
  int across = 0;
  for (int i = 0; i < crowds[0].agent_count(); ++i) across += crowds[0].state(i).pose.pos.x > 31.0 ? 1 : 0;
  if (!sanitized()) CHECK(across > 0);
}

TEST_CASE("crowd threads: a flow-field group jammed at a one-cell door (stuck rounds, detours, re-plans read ahead) agrees with 1, 2 and 4 threads") {
  // The progress pass's read-ahead (sight checks and flow-field routes worked out on the worker
  // threads, taken by the serial pass when it asks the same) is exercised where it matters:
  // units queueing at a narrow door are stuck, detour round each other and re-plan every round.
  CrowdScenario sc{"a jam at a one-cell door", Grid::create(40, 30).value(), {}, {}, {}, 60.0};
  for (int y = 0; y < 30; ++y) {
    if (y != 15) sc.grid.set_blocked(20, y, true);
  }
  const int persons = sanitized() ? 40 : 120;
  for (int k = 0; k < persons; ++k) {
    sc.agents.push_back(crowd_agent("person", 2.0 + 1.2 * (k % 12), 3.0 + 1.6 * (k / 12), 0.0, 35.5, 15.5));
  }
  CrowdDef def = default_crowd_def();
  def.flow_field_units = 32;
  std::vector<Crowd> crowds;
  for (int t : kThreadCounts) crowds.push_back(scenario_crowd(sc, def, t));
  // The sanitized run is shorter, but long enough for the group to reach the door and queue
  // (with 300 steps, 5 s, it had not: no stuck round ran, and CI's sanitizer run failed).
  step_in_lockstep(crowds, sanitized() ? 900 : 1200, sc.name);
  int stuck_steps = 0, replans = 0;
  for (int i = 0; i < crowds[0].agent_count(); ++i) {
    stuck_steps += crowds[0].metrics(i).stuck_steps;
    replans += crowds[0].metrics(i).replans;
  }
  CHECK(stuck_steps > 0);  // the jam happened: the stuck rounds ran
  CHECK(replans > 0);
}

TEST_CASE("crowd threads: two flow-field groups swapping through three doorways (fields repaired on the pool, routes kept right read ahead) agree with 1, 2 and 4 threads") {
  // Two groups, each with its own field, meet in three doorways: queues form, so once a second
  // both fields are repaired for the queues' new costs (on a worker beside the moves), and the
  // re-planned routes' corners keep right against the oncoming group (worked out ahead on the
  // worker threads, taken while the traffic answers the same).
  CrowdScenario sc{"two groups through three doorways", Grid::create(60, 30).value(), {}, {}, {}, 60.0};
  for (int y = 0; y < 30; ++y) {
    if (!((y >= 4 && y <= 6) || (y >= 13 && y <= 16) || (y >= 23 && y <= 25))) sc.grid.set_blocked(30, y, true);
  }
  const int per_group = sanitized() ? 32 : 60;  // 32: the least that shares a field
  for (int k = 0; k < per_group; ++k) {
    sc.agents.push_back(crowd_agent("person", 14.0 + 1.2 * (k % 10), 3.0 + 1.5 * (k / 10), 0.0, 52.5, 15.5));
    sc.agents.push_back(crowd_agent("person", 34.0 + 1.2 * (k % 10), 3.0 + 1.5 * (k / 10), 0.0, 7.5, 15.5));
  }
  CrowdDef def = default_crowd_def();
  def.flow_field_units = 32;
  std::vector<Crowd> crowds;
  for (int t : kThreadCounts) crowds.push_back(scenario_crowd(sc, def, t));
  // A clock that counts its reads (the worker threads read it too): only the phases' names
  // are looked at, and a clock changes nothing else.
  std::atomic<long long> ticks{0};
  crowds[1].set_phase_clock([&ticks] { return static_cast<double>(++ticks); });
  int repairs = 0;
  const int steps = sanitized() ? 420 : 900;
  for (int s = 0; s < steps; ++s) {
    for (Crowd& c : crowds) c.step();
    // Once a second, beside the moves, step after step (a door's change: at once, "field repair").
    for (const CrowdPhaseTime& p : crowds[1].last_phases()) repairs += std::strcmp(p.name, "moves, field repair") == 0 ? 1 : 0;
    const std::string one = state_bytes(crowds[0]);
    bool same = true;
    for (size_t k = 1; k < crowds.size(); ++k) same = same && state_bytes(crowds[k]) == one;
    if (!same) {
      FAIL_CHECK(sc.name << ": the thread counts differ after step " << s + 1);
      break;
    }
  }
  CHECK(repairs > 0);  // the queues changed the fields' costs, and the fields were repaired on the pool
  int replans = 0;
  for (int i = 0; i < crowds[0].agent_count(); ++i) replans += crowds[0].metrics(i).replans;
  CHECK(replans > 0);
}

TEST_CASE("crowd threads: the doorways counterflow (vehicles and persons both ways) agrees with 1, 2 and 4 threads") {
  const CrowdScenario sc = doorways_counterflow(sanitized() ? 20 : 60);
  std::vector<Crowd> crowds;
  for (int t : kThreadCounts) crowds.push_back(scenario_crowd(sc, default_crowd_def(), t));
  step_in_lockstep(crowds, sanitized() ? 240 : 1200, sc.name);
}

TEST_CASE("crowd threads: a copy (Crowd::clone) of a threaded crowd goes on as the crowd does") {
  const CrowdScenario sc = doors_truck_group(40);
  Crowd a = scenario_crowd(sc, default_crowd_def(), 2);
  for (int s = 0; s < 60; ++s) a.step();
  Crowd b = a.clone(CrowdRoutePlanner{});
  for (int s = 0; s < 120; ++s) {
    a.step();
    b.step();
  }
  CHECK(state_bytes(a) == state_bytes(b));
}

TEST_CASE("crowd threads: CrowdDef::threads outside 1..64 is refused with its name") {
  const Grid g = Grid::create(8, 8).value();
  for (int bad : {0, -1, 65}) {
    CrowdDef def = default_crowd_def();
    def.threads = bad;
    auto c = Crowd::create(g, def);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message.find("crowd.threads") != std::string::npos);
  }
  CrowdDef def = default_crowd_def();
  def.threads = 64;
  CHECK(Crowd::create(g, def).ok());
}

TEST_CASE("crowd threads: a crowd whose thread count changes mid-run (Crowd::set_threads) goes on as on one thread") {
  const CrowdScenario sc = doors_truck_group(sanitized() ? 40 : 120);
  CrowdDef def = default_crowd_def();
  def.flow_field_units = 32;
  Crowd one = scenario_crowd(sc, def, 1);
  Crowd changing = scenario_crowd(sc, def, 1);
  const int counts[] = {2, 4, 1, 3};
  for (int s = 0; s < 400; ++s) {
    if (s % 100 == 0) {
      REQUIRE(changing.set_threads(counts[s / 100]));
      CHECK(changing.threads() == counts[s / 100]);
    }
    one.step();
    changing.step();
  }
  CHECK(state_bytes(one) == state_bytes(changing));
  // Outside 1..64 it is refused with its name, and the count stays.
  const auto bad = changing.set_threads(0);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("crowd.threads") != std::string::npos);
  CHECK(changing.threads() == 3);
}

TEST_CASE("crowd threads: a phase clock (Crowd::set_phase_clock) changes no byte and times every phase on every thread") {
  // A profiler's clock only reads: the crowd with it steps to the bytes of the crowd without.
  // The clock here counts its calls, so every phase shows time on the threads that ran it.
  const CrowdScenario sc = doors_truck_group(40);
  CrowdDef def = default_crowd_def();
  Crowd plain = scenario_crowd(sc, def, 2);
  Crowd timed = scenario_crowd(sc, def, 2);
  std::atomic<int> ticks{0};
  timed.set_phase_clock([&ticks] { return static_cast<double>(ticks.fetch_add(1)); });
  CHECK(timed.last_phases().empty());  // no step yet
  const int steps = sanitized() ? 60 : 300;
  for (int s = 0; s < steps; ++s) {
    plain.step();
    timed.step();
    REQUIRE(state_bytes(plain) == state_bytes(timed));
  }
  const std::vector<CrowdPhaseTime>& phases = timed.last_phases();
  REQUIRE(phases.size() == 6);
  int parallel = 0, spread = 0;
  for (const CrowdPhaseTime& p : phases) {
    CAPTURE(p.name);
    REQUIRE(p.per_thread.size() == (p.parallel ? 2u : 1u));  // 42 units: 2 parts
    double all = 0.0;
    for (double t : p.per_thread) all += t;
    CHECK(all > 0.0);  // (which thread takes a parallel phase's chunks is not fixed)
    if (!p.parallel) CHECK(p.per_thread[0] > 0.0);
    parallel += p.parallel ? 1 : 0;
    spread += std::strcmp(p.name, "moves, field repair") == 0 ? 1 : 0;  // the moves, a fields' repair beside them
  }
  CHECK(parallel == 3 + spread);  // neighbours and decisions, measures and read-ahead, locks
  timed.set_phase_clock({});
  timed.step();
  CHECK(timed.last_phases().empty());
}
