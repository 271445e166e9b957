// The fixed-step simulation: determinism, frame-rate independence, pause and speed, and
// re-planning when a wall is painted across a unit's path; a car driving Hybrid A* plans with
// gear changes to its goal pose (parking bays, an open goal, generated maps).

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include "generated_maps.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/follow_path.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/pose_smoother.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/simulation.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

/// Every number of every unit's state, as raw bytes (bit-for-bit comparisons).
std::vector<unsigned char> snapshot(const Simulation& sim) {
  std::vector<unsigned char> out;
  auto put = [&](double v) {
    unsigned char b[sizeof v];
    std::memcpy(b, &v, sizeof v);
    out.insert(out.end(), b, b + sizeof v);
  };
  for (UnitId id = 0; id < sim.unit_count(); ++id) {
    const UnitState& st = sim.state(id);
    put(st.pose.pos.x);
    put(st.pose.pos.y);
    put(st.pose.heading);
    put(st.speed);
    put(st.s);
    put(st.lookahead.x);
    put(st.lookahead.y);
  }
  return out;
}

/// A few units of every kind and follower on one random map.
Simulation populated(const Grid& grid) {
  Simulation sim = Simulation::create(grid).value();
  GridPathfinder finder(grid);
  int k = 0;
  for (const char* unit : {"person", "tank", "bear", "person"}) {
    UnitDef def = unit_preset(unit).value();
    if (k == 3) def.follower.kind = FollowerKind::damped;
    GridSearchOptions opt;
    opt.agent_radius = def.radius;
    Cell a{1 + k, 1}, b{38 - k, 38};
    while (!grid.is_free(a)) ++a.y;
    while (!grid.is_free(b)) --b.y;
    auto path = finder.find_path(GridPlanner::astar, a, b, opt).value();
    REQUIRE(path.found);
    REQUIRE(sim.add_unit(def, FollowPath::from_polyline(path.points).value()).ok());
    ++k;
  }
  return sim;
}

}  // namespace

TEST_CASE("determinism: two runs give identical bytes; the frame rate changes nothing") {
  const Grid grid = test::random_grid(40, 40, 0.15, 4242);
  Simulation a = populated(grid), b = populated(grid), c = populated(grid);
  const int steps = std::getenv("PATHLAB_SANITIZED") ? 600 : 1500;
  std::vector<unsigned char> trace_a, trace_b;
  for (int i = 0; i < steps; ++i) {
    a.step();
    b.step();
    const auto sa = snapshot(a), sb = snapshot(b);
    trace_a.insert(trace_a.end(), sa.begin(), sa.end());
    trace_b.insert(trace_b.end(), sb.begin(), sb.end());
  }
  CHECK(trace_a == trace_b);
  // Irregular frames (7 ms to 40 ms) through advance(): same states after the same steps.
  double frame = 0.007;
  int frames = 0;
  while (c.step_count() < steps - 20) {  // a frame of at most 40 ms runs at most 3 steps
    c.advance(frame);
    frame = frame > 0.04 ? 0.007 : frame * 1.37;
    ++frames;
  }
  while (c.step_count() < steps) c.step();
  CHECK(frames > steps / 4);
  CHECK(c.step_count() == a.step_count());
  CHECK(snapshot(c) == snapshot(a));
  CHECK(a.metrics(0).collisions == 0);
}

TEST_CASE("advance: accumulator, pause and speed multiplier") {
  const Grid grid = Grid::create(10, 10).value();
  Simulation sim = Simulation::create(grid).value();
  REQUIRE(sim.add_unit(person_unit_def(), FollowPath::from_polyline(std::vector<Vec2>{{1.5, 1.5}, {8.5, 1.5}}).value()).ok());
  CHECK(sim.advance(0.5 / 60.0) == 0);  // half a step: kept for later
  CHECK(sim.interpolation_alpha() == doctest::Approx(0.5));
  CHECK(sim.advance(0.6 / 60.0) == 1);
  sim.set_paused(true);
  CHECK(sim.advance(1.0) == 0);
  sim.set_paused(false);
  REQUIRE(sim.set_time_scale(2.0).ok());
  CHECK(sim.advance(5.0 / 60.0) == 10);
  CHECK_FALSE(sim.set_time_scale(-1.0).ok());
  CHECK_FALSE(sim.set_time_scale(NAN).ok());
  // A long frame runs at most max_steps_per_advance steps.
  CHECK(sim.advance(10.0) == default_simulation_def().max_steps_per_advance);
  SimulationDef bad;
  bad.dt = 0.0;
  CHECK_FALSE(Simulation::create(grid, bad).ok());
  CHECK(Simulation::create(grid, bad).error().message.find("dt") != std::string::npos);
}

TEST_CASE("add_unit refuses bad units, starts in walls, and track units off their path") {
  Grid grid = Grid::create(10, 10).value();
  grid.set_blocked(5, 5, true);
  Simulation sim = Simulation::create(grid).value();
  const FollowPath p = FollowPath::from_polyline(std::vector<Vec2>{{1.5, 1.5}, {8.5, 1.5}}).value();
  UnitDef bad = person_unit_def();
  bad.max_speed = -3;
  auto r = sim.add_unit(bad, p);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("max_speed") != std::string::npos);
  auto in_wall = sim.add_unit(person_unit_def(), p, Pose{{5.5, 5.5}, 0});
  REQUIRE_FALSE(in_wall.ok());
  CHECK(in_wall.error().code == StatusCode::blocked);
  UnitDef track = person_unit_def();
  track.follower.kind = FollowerKind::track;
  CHECK_FALSE(sim.add_unit(track, p, Pose{{2.5, 2.5}, 0}).ok());
  CHECK(sim.add_unit(track, p).ok());
  auto rs = FollowPath::from_segment_path(reeds_shepp_path(Pose{{3, 3}, 0}, Pose{{3.5, 4}, kPi}, 1.0).value()).value();
  UnitDef damped = person_unit_def();
  damped.follower.kind = FollowerKind::damped;
  auto damped_rs = sim.add_unit(damped, rs);
  REQUIRE_FALSE(damped_rs.ok());
  CHECK(damped_rs.error().message.find("track or steer") != std::string::npos);
  CHECK(sim.add_unit(person_unit_def(), rs).ok());  // steer tracks a path with cusps
  CHECK_FALSE(sim.set_path(99, p).ok());
}

TEST_CASE("re-planning: a wall painted across the path; the unit re-plans without a jump") {
  Grid grid = Grid::create(30, 20).value();
  UnitDef def = person_unit_def();
  GridSearchOptions opt;
  opt.agent_radius = def.radius;
  GridPathfinder finder(grid);
  const Cell goal{27, 10};
  auto first = finder.find_path(GridPlanner::astar, Cell{2, 10}, goal, opt).value();
  REQUIRE(first.found);
  Simulation sim = Simulation::create(grid).value();
  const UnitId id = sim.add_unit(def, FollowPath::from_polyline(first.points).value()).value();

  std::vector<UnitState> states{sim.state(id)};
  bool painted = false, replanned = false;
  for (int k = 0; k < 60 * 60 && !sim.state(id).arrived; ++k) {
    if (!painted && sim.time() >= 2.0) {
      // A wall across the straight path, open only at the bottom.
      for (int y = 0; y < 17; ++y) grid.set_blocked(15, y, true);
      painted = true;
      const Vec2 pos = sim.state(id).pose.pos;
      CHECK(first_blocked_segment(grid, first.points, def.radius) >= 0);  // the old plan is cut
      finder.reset(grid);
      auto again = finder.find_path(GridPlanner::astar, cell_of(pos), goal, opt).value();
      REQUIRE(again.found);
      const auto pts = splice_start(grid, pos, again.points, def.radius);
      CHECK(pts.front() == pos);
      REQUIRE(sim.set_path(id, FollowPath::from_polyline(pts).value()).ok());
      replanned = true;
      // Pose and speed untouched by set_path.
      CHECK(sim.state(id).pose.pos == states.back().pose.pos);
      CHECK(sim.state(id).pose.heading == states.back().pose.heading);
      CHECK(sim.state(id).speed == states.back().speed);
    }
    sim.step();
    states.push_back(sim.state(id));
  }
  REQUIRE(replanned);
  CHECK(sim.state(id).arrived);
  CHECK(sim.metrics(id).collisions == 0);
  CHECK(sim.metrics(id).replans == 1);
  // Continuity across the whole run, re-plan included: no step moves further than the top
  // speed allows, and the heading never turns faster than the unit can.
  for (size_t i = 1; i < states.size(); ++i) {
    CHECK(glm::length(states[i].pose.pos - states[i - 1].pose.pos) <= def.max_speed * sim.dt() * (1 + 1e-12));
    CHECK(std::abs(wrap_angle(states[i].pose.heading - states[i - 1].pose.heading)) <=
          def.max_turn_rate * sim.dt() * (1 + 1e-12));
    CHECK(std::abs(states[i].speed - states[i - 1].speed) <= std::max(def.acceleration, def.braking) * sim.dt() * (1 + 1e-9));
  }
  // It went around through the gap at the bottom.
  double max_y = 0;
  for (const auto& s : states) max_y = std::max(max_y, s.pose.pos.y);
  CHECK(max_y > 17.0);
}

TEST_CASE("re-planning a track unit on a Reeds-Shepp path from its current pose is seamless") {
  const Grid grid = Grid::create(30, 30).value();
  UnitDef car = car_unit_def();
  car.follower.kind = FollowerKind::track;
  const auto first = reeds_shepp_path(Pose{{5, 5}, 0}, Pose{{20, 10}, kPi / 2}, car.turning_radius).value();
  Simulation sim = Simulation::create(grid).value();
  const UnitId id = sim.add_unit(car, FollowPath::from_segment_path(first).value()).value();
  for (int k = 0; k < 60; ++k) sim.step();
  const UnitState mid = sim.state(id);
  // New goal: plan from where the car is, with its heading.
  const auto second = reeds_shepp_path(mid.pose, Pose{{8, 22}, kPi}, car.turning_radius).value();
  REQUIRE(sim.set_path(id, FollowPath::from_segment_path(second).value()).ok());
  sim.step();
  const UnitState after = sim.state(id);
  CHECK(glm::length(after.pose.pos - mid.pose.pos) <= car.max_speed * sim.dt() * (1 + 1e-9));
  CHECK(std::abs(wrap_angle(after.pose.heading - mid.pose.heading)) <= car.max_speed / car.turning_radius * sim.dt() * (1 + 1e-9));
  // A track path that does not start at the unit is refused rather than teleporting it.
  const auto elsewhere = reeds_shepp_path(Pose{{2, 2}, 0}, Pose{{8, 22}, kPi}, car.turning_radius).value();
  CHECK_FALSE(sim.set_path(id, FollowPath::from_segment_path(elsewhere).value()).ok());
  while (!sim.state(id).arrived && sim.time() < 60) sim.step();
  CHECK(sim.state(id).arrived);
  CHECK(glm::length(sim.state(id).pose.pos - Vec2(8, 22)) < 1e-9);
}

TEST_CASE("time_to_goal: none until the unit arrives, the arrival step's time after, none again on a new path") {
  const Grid grid = Grid::create(20, 5).value();
  Simulation sim = Simulation::create(grid).value();
  const UnitDef person = unit_preset("person").value();
  const std::vector<Vec2> line{{1.5, 2.5}, {8.5, 2.5}};
  const UnitId id = sim.add_unit(person, FollowPath::from_polyline(line).value()).value();
  CHECK_FALSE(sim.metrics(id).time_to_goal.has_value());
  sim.step();
  CHECK_FALSE(sim.metrics(id).time_to_goal.has_value());  // 7 cells take more than one step
  while (!sim.state(id).arrived && sim.time() < 60) sim.step();
  REQUIRE(sim.state(id).arrived);
  REQUIRE(sim.metrics(id).time_to_goal.has_value());
  // Stamped on the step that arrived: the simulation's clock now.
  CHECK(*sim.metrics(id).time_to_goal == doctest::Approx(sim.time()).epsilon(1e-12));
  const std::vector<Vec2> back{sim.state(id).pose.pos, {15.5, 2.5}};
  REQUIRE(sim.set_path(id, FollowPath::from_polyline(back).value()).ok());
  CHECK_FALSE(sim.metrics(id).arrived);
  CHECK_FALSE(sim.metrics(id).time_to_goal.has_value());
}

TEST_CASE("arrived needs the goal heading: a unit that cannot pivot gives up and says why instead of creeping") {
  const Grid grid = Grid::create(30, 10).value();
  const UnitDef car = unit_preset("car").value();
  FollowPath path = FollowPath::from_polyline(std::vector<Vec2>{{2.5, 5.5}, {20.5, 5.5}}).value();
  REQUIRE(path.set_goal_heading(kPi / 2).ok());  // it drives in at 0 degrees
  const auto run = simulate_unit(grid, car, path, std::nullopt, default_simulation_def(), 120.0).value();
  CHECK_FALSE(run.metrics.arrived);
  CHECK_FALSE(run.metrics.time_to_goal.has_value());
  CHECK(run.ended_because == to_string(GiveUp::heading_unreachable));
  const TrajectorySample& last = run.samples.back();
  CHECK(glm::length(last.pose.pos - Vec2(20.5, 5.5)) <= car.follower.arrive_distance);
  CHECK(last.speed == 0.0);
  CHECK(last.t < 30.0);  // it stopped there, it did not run out the 120 s
  // The same path without a goal heading (or with the one it drives in at) arrives.
  REQUIRE(path.set_goal_heading(0.0).ok());
  const auto ok = simulate_unit(grid, car, path, std::nullopt, default_simulation_def(), 120.0).value();
  CHECK(ok.metrics.arrived);
  CHECK(ok.ended_because.empty());
  REQUIRE(ok.metrics.time_to_goal.has_value());
  CHECK(*ok.metrics.time_to_goal == doctest::Approx(ok.samples.back().t).epsilon(1e-12));
}

TEST_CASE("a unit whose path doubles back at its end stops as stalled instead of crawling to the time limit") {
  // Issue 24's old path: on to a point, then back along the same line; the projection keeps the
  // tank before the 180-degree corner, whose speed limit then tends to 0.
  const Grid grid = Grid::create(30, 10).value();
  const UnitDef tank = unit_preset("tank").value();
  const FollowPath path = FollowPath::from_polyline(std::vector<Vec2>{{2.5, 5.5}, {20.5, 5.5}, {20.0, 5.5}}).value();
  const auto run = simulate_unit(grid, tank, path, std::nullopt, default_simulation_def(), 300.0).value();
  REQUIRE_FALSE(run.metrics.arrived);
  CHECK(run.ended_because.find("no progress for 5") != std::string::npos);
  CHECK(run.samples.back().t < 60.0);  // not the 300 s limit
  CHECK_FALSE(run.metrics.time_to_goal.has_value());
  // It did reach the turn: it stalled there, not on the way.
  CHECK(glm::length(run.samples.back().pose.pos - Vec2(20.5, 5.5)) < 0.1);
}

namespace {

/// A car's plan as the planning service makes it for `simulate --planner hybrid --radius 2
/// --reverse`: Hybrid A* with reverse, then the vehicle smoother. Empty when none is found.
std::optional<SegmentPath> car_plan(const Grid& grid, const Pose& from, const Pose& to) {
  const UnitDef car = car_unit_def();
  HybridAStarOptions opt = default_hybrid_astar_options();
  opt.turning_radius = car.turning_radius;
  opt.agent_radius = car.radius;
  opt.allow_reverse = true;
  opt.max_expansions = 60000;
  auto planner = HybridAStar::create(grid, opt);
  REQUIRE(planner.ok());
  auto path = planner->plan(from, to);
  REQUIRE(path.ok());
  if (!path->found) return std::nullopt;
  PoseSmoothDef sd = default_pose_smooth_def();
  sd.turning_radius = car.turning_radius;
  sd.agent_radius = car.radius;
  sd.allow_reverse = true;
  auto smooth = smooth_pose_path(grid, path->path, sd);
  REQUIRE(smooth.ok());
  return smooth->path;
}

/// Drives `def` along `plan` and checks what a user of `simulate` expects: it arrives at the
/// plan's end pose (0.5 cells, 10 degrees) at rest, never more than 0.5 cells off the path,
/// without a collision by the referee, and never turns faster than its limit at its speed.
SingleRun drive_and_check(const Grid& grid, const UnitDef& def, const SegmentPath& plan) {
  const SimulationDef sd = default_simulation_def();
  auto run = simulate_unit(grid, def, FollowPath::from_segment_path(plan, 0.05).value(), std::nullopt, sd,
                           10.0 * plan.length() / def.max_speed + 30.0);
  REQUIRE(run.ok());
  CAPTURE(run->ended_because);
  const RunMetrics& m = run->metrics;
  CHECK(m.arrived);
  CHECK(m.collisions == 0);
  CHECK(m.max_deviation <= 0.5);
  const TrajectorySample& last = run->samples.back();
  CHECK(glm::length(last.pose.pos - plan.end().pos) <= 0.5);
  CHECK(std::abs(wrap_angle(last.pose.heading - plan.end().heading)) <= deg_to_rad(10.0));
  CHECK(last.speed == 0.0);
  for (size_t k = 1; k < run->samples.size(); ++k) {
    const TrajectorySample& a = run->samples[k - 1];
    const TrajectorySample& b = run->samples[k];
    const double rate = std::abs(wrap_angle(b.pose.heading - a.pose.heading)) / sd.dt;
    const double limit = max_heading_rate(def, std::max(std::abs(a.speed), std::abs(b.speed)));
    if (rate > limit * (1 + 1e-9) + 1e-9) FAIL_CHECK("step " << k << ": turn rate " << rate << " > " << limit);
  }
  return *run;
}

UnitDef car_with(FollowerKind kind) {
  UnitDef d = car_unit_def();
  d.follower.kind = kind;
  return d;
}

}  // namespace

TEST_CASE("a car parks in a bay of a parking lot: on the goal pose, stopped, no collision") {
  const Grid grid = test::parking_lot(7);
  // Stalls of the second row (y 23..26) open to the aisle above; find empty ones.
  const Pose start{{10.5, 19.5}, 0.0};
  REQUIRE(point_clear(grid, start.pos, car_unit_def().radius));
  int parked = 0;
  for (int x = 20; x + 2 < grid.width() - 8 && parked < 2; x += 3) {
    bool empty = true;
    for (int y = 23; y < 27; ++y)
      for (int dx = 0; dx < 2; ++dx) empty = empty && grid.is_free(Cell{x + dx, y});
    if (!empty) continue;
    // Nose in for the first bay, backing in (a gear change at least) for the second.
    const Pose goal{{x + 1.0, 25.0}, parked == 0 ? kPi / 2 : -kPi / 2};
    const auto plan = car_plan(grid, start, goal);
    if (!plan) continue;
    CAPTURE(x);
    for (FollowerKind kind : {FollowerKind::steer, FollowerKind::track}) {
      CAPTURE(to_string(kind));
      drive_and_check(grid, car_with(kind), *plan);
    }
    ++parked;
  }
  CHECK(parked == 2);
}

TEST_CASE("a car sent to an open goal behind it stops there without rocking") {
  Grid grid = Grid::create(40, 30).value();
  const Pose start{{8.5, 15.5}, 0.0};
  const Pose goal{{14.5, 15.5}, kPi};  // ahead and facing back: it must turn round
  const auto plan = car_plan(grid, start, goal);
  REQUIRE(plan.has_value());
  const SingleRun run = drive_and_check(grid, car_with(FollowerKind::steer), *plan);
  REQUIRE(run.metrics.time_to_goal.has_value());
  // No change of direction in the final 2 s, and at rest at the end.
  const double t_end = run.samples.back().t;
  int changes = 0;
  double last = 0.0;
  for (const TrajectorySample& s : run.samples) {
    if (s.t < t_end - 2.0 || s.speed == 0.0) continue;
    if (last != 0.0 && (last < 0.0) != (s.speed < 0.0)) ++changes;
    last = s.speed;
  }
  CHECK(changes == 0);
  CHECK(run.samples.back().speed == 0.0);
}

TEST_CASE("cars track Hybrid A* plans with cusps on parking lots and rooms: <= 0.5 cells off, no collision") {
  int runs = 0, with_cusps = 0;
  for (int kind = 0; kind < 2; ++kind) {
    for (uint32_t seed = 1; seed <= 2; ++seed) {
      Grid grid = kind == 0 ? test::parking_lot(seed) : Grid::create(64, 64).value();
      if (kind == 1) generate_rooms(grid, 16, 4, seed);
      std::mt19937 rng(seed * 31u + static_cast<uint32_t>(kind));
      std::uniform_int_distribution<int> ux(1, grid.width() - 2), uy(1, grid.height() - 2), uh(0, 7);
      auto pose = [&] { return Pose{Vec2(ux(rng) + 0.5, uy(rng) + 0.5), wrap_angle(uh(rng) * kPi / 4.0)}; };
      for (int q = 0, tries = 0; q < 3 && tries < 200; ++tries) {
        const Pose a = pose(), b = pose();
        if (!point_clear(grid, a.pos, 1.0) || !point_clear(grid, b.pos, 1.0) || glm::length(a.pos - b.pos) < 15.0) continue;
        const auto plan = car_plan(grid, a, b);
        if (!plan) continue;
        ++q;
        ++runs;
        const auto fp = FollowPath::from_segment_path(*plan, 0.05).value();
        with_cusps += fp.next_cusp_after(0.0) < fp.length();
        CAPTURE(kind);
        CAPTURE(seed);
        CAPTURE(q);
        for (FollowerKind k : {FollowerKind::steer, FollowerKind::track}) {
          CAPTURE(to_string(k));
          drive_and_check(grid, car_with(k), *plan);
        }
      }
    }
  }
  CHECK(runs >= 10);
  CHECK(with_cusps >= 1);
}
