#pragma once
// Scenarios for the crowd tests and benchmark: a map, units, doors, moving obstacles; a runner
// that checks every step (separation, walls, obstacles) and records the trajectories' bytes.

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <string>
#include <vector>

#include "pathlab/collision.hpp"
#include "pathlab/crowd.hpp"
#include "pathlab/unit.hpp"

namespace pathlab::test {

struct CrowdScenario {
  std::string name;
  Grid grid;
  std::vector<CrowdAgentDef> agents;
  std::vector<DoorDef> doors;
  std::vector<MovingObstacleDef> movers;
  double max_time = 60.0;
};

struct CrowdOutcome {
  bool all_arrived = false;
  double time = 0.0;
  double worst_ratio = 1e9;     ///< Smallest centre distance / sum of radii over every step and pair.
  double worst_wall = 0.0;      ///< Largest wall overlap found by the test's own check (0: none). [cells]
  double worst_mover = 1e9;     ///< Smallest gap unit-to-box over every step. [cells]
  std::string bytes;            ///< Every pose of every step, printed exactly.
  CrowdMetrics metrics;
  std::vector<std::string> why;
  std::vector<double> min_speed;  ///< Per unit: the most negative speed seen (< 0: it backed up).
};

inline CrowdAgentDef crowd_agent(const char* preset, double x, double y, double deg, double gx, double gy) {
  CrowdAgentDef a;
  a.unit = unit_preset(preset).value();
  a.start = Pose{Vec2(x, y), deg_to_rad(deg)};
  a.goal = Vec2(gx, gy);
  return a;
}

inline double box_gap(const Pose& box, Vec2 half, Vec2 p) {
  const double c = std::cos(box.heading), s = std::sin(box.heading);
  const Vec2 d = p - box.pos;
  const double lx = std::abs(c * d.x + s * d.y) - half.x, ly = std::abs(-s * d.x + c * d.y) - half.y;
  return std::hypot(std::max(lx, 0.0), std::max(ly, 0.0));
}

/// Runs the scenario; `check` adds the per-step checks (O(n^2) pairs: small scenarios only).
inline CrowdOutcome run_crowd(const CrowdScenario& sc, bool check = true, const CrowdDef& def = default_crowd_def()) {
  CrowdOutcome out;
  Crowd crowd = Crowd::create(sc.grid, def).value();
  for (const auto& d : sc.doors) (void)crowd.add_door(d).value();
  for (const auto& m : sc.movers) (void)crowd.add_moving_obstacle(m).value();
  for (const auto& a : sc.agents) (void)crowd.add_agent(a).value();
  const int n = crowd.agent_count();
  out.min_speed.assign(static_cast<size_t>(n), 0.0);
  char buf[128];
  while (!crowd.all_arrived() && crowd.time() < sc.max_time) {
    crowd.step();
    for (int i = 0; i < n; ++i) {
      const auto& s = crowd.state(i);
      std::snprintf(buf, sizeof buf, "%.17g %.17g %.17g %.17g\n", s.pose.pos.x, s.pose.pos.y, s.pose.heading, s.speed);
      out.bytes += buf;
      out.min_speed[static_cast<size_t>(i)] = std::min(out.min_speed[static_cast<size_t>(i)], s.speed);
      if (!check) continue;
      const double ri = crowd.agent_def(i).unit.radius;
      if (!point_clear(crowd.grid(), s.pose.pos, ri - 1e-9)) out.worst_wall = std::max(out.worst_wall, 1.0);
      for (int j = i + 1; j < n; ++j) {
        const double d = glm::length(s.pose.pos - crowd.state(j).pose.pos);
        out.worst_ratio = std::min(out.worst_ratio, d / (ri + crowd.agent_def(j).unit.radius));
      }
      for (int m = 0; m < crowd.moving_obstacle_count(); ++m) {
        const double g = box_gap(crowd.moving_obstacle(m).pose, crowd.moving_obstacle_def(m).half_extents, s.pose.pos);
        out.worst_mover = std::min(out.worst_mover, g - ri);
      }
    }
  }
  out.all_arrived = crowd.all_arrived();
  out.time = crowd.time();
  out.metrics = crowd.run_metrics();
  for (int i = 0; i < n; ++i) out.why.push_back(crowd.state(i).why);
  return out;
}

// ---- the scenarios ----

inline Grid open_grid(int w, int h) { return Grid::create(w, h).value(); }

inline CrowdScenario head_on_open() {
  CrowdScenario s{"head-on, open", open_grid(24, 16), {}, {}, {}, 30.0};
  s.agents = {crowd_agent("person", 2.5, 8.0, 0, 21.5, 8.0), crowd_agent("tank", 21.5, 8.0, 180, 2.5, 8.0)};
  return s;
}

inline CrowdScenario head_on_corridor() {
  // A corridor three cells wide between two walls.
  Grid g = open_grid(30, 5);
  for (int x = 0; x < 30; ++x) {
    g.set_blocked(x, 0, true);
    g.set_blocked(x, 4, true);
  }
  CrowdScenario s{"head-on, corridor", std::move(g), {}, {}, {}, 40.0};
  s.agents = {crowd_agent("person", 1.5, 2.5, 0, 28.5, 2.5), crowd_agent("person", 2.3, 1.6, 0, 27.5, 1.5),
              crowd_agent("person", 28.5, 2.5, 180, 1.5, 2.5), crowd_agent("person", 27.7, 3.4, 180, 2.5, 3.5)};
  return s;
}

inline CrowdScenario crossing() {
  CrowdScenario s{"crossing at right angles", open_grid(20, 20), {}, {}, {}, 30.0};
  s.agents = {crowd_agent("person", 1.5, 10.0, 0, 18.5, 10.0), crowd_agent("person", 10.0, 1.5, 90, 10.0, 18.5),
              crowd_agent("bear", 1.5, 12.0, 0, 18.5, 12.0), crowd_agent("car", 12.0, 1.5, 90, 12.0, 18.5)};
  return s;
}

inline CrowdScenario doorway_queue() {
  // A wall across the room with a doorway one cell wide; eight people go through to one goal.
  Grid g = open_grid(24, 15);
  for (int y = 0; y < 15; ++y) {
    if (y != 7) g.set_blocked(12, y, true);
  }
  CrowdScenario s{"doorway queue", std::move(g), {}, {}, {}, 90.0};
  for (int k = 0; k < 8; ++k) {
    s.agents.push_back(crowd_agent("person", 3.0 + (k % 4) * 1.5, 4.5 + (k / 4) * 6.0, 0, 19.5, 7.5));
  }
  return s;
}

inline CrowdScenario circle_swap(int n = 10) {
  CrowdScenario s{"circle swap", open_grid(30, 30), {}, {}, {}, 60.0};
  const char* presets[] = {"person", "tank", "person", "bear", "person"};
  for (int k = 0; k < n; ++k) {
    const double ang = 2.0 * kPi * k / n;
    const Vec2 c(15.0, 15.0), d(std::cos(ang), std::sin(ang));
    const Vec2 p = c + 11.0 * d, g = c - 11.0 * d;
    s.agents.push_back(crowd_agent(presets[k % 5], p.x, p.y, rad_to_deg(ang) + 180.0, g.x, g.y));
  }
  return s;
}

inline CrowdScenario door_closes() {
  // Two doorways in a wall; the near one closes as the unit walks up to it, so it goes round.
  Grid g = open_grid(20, 20);
  for (int x = 0; x < 20; ++x) {
    if (x != 4 && x != 16) g.set_blocked(x, 10, true);
  }
  CrowdScenario s{"door closes", std::move(g), {}, {}, {}, 40.0};
  s.doors.push_back(DoorDef{Cell{4, 10}, Cell{4, 10}, true, {1.5}});
  s.agents = {crowd_agent("person", 4.5, 3.5, 90, 4.5, 17.5), crowd_agent("person", 6.5, 3.5, 90, 6.5, 17.5)};
  return s;
}

inline CrowdScenario truck_crossing() {
  // A garbage truck drives down through people walking across the street.
  CrowdScenario s{"truck crossing a crowd", open_grid(30, 24), {}, {}, {}, 40.0};
  MovingObstacleDef truck;
  truck.route = {Vec2(15.0, 1.5), Vec2(15.0, 22.5)};
  truck.speed = 2.5;
  s.movers.push_back(truck);
  for (int k = 0; k < 6; ++k) {
    const double y = 8.0 + 1.5 * k;
    if (k % 2 == 0) s.agents.push_back(crowd_agent("person", 2.5, y, 0, 27.5, y));
    else s.agents.push_back(crowd_agent("person", 27.5, y, 180, 2.5, y));
  }
  return s;
}

}  // namespace pathlab::test

namespace pathlab::test {

/// A one-cell corridor opening into a room: a person walks out of it while a car drives in;
/// the car cannot turn in the corridor, so it must back out to give way.
inline CrowdScenario car_gives_way() {
  Grid g = Grid::create(22, 7).value();
  for (int x = 10; x < 22; ++x) {
    for (int y = 0; y < 7; ++y) {
      if (y != 3) g.set_blocked(x, y, true);
    }
  }
  CrowdScenario s{"car gives way", std::move(g), {}, {}, {}, 60.0};
  s.agents = {crowd_agent("person", 18.5, 3.5, 180, 2.5, 1.5), crowd_agent("car", 6.0, 3.5, 0, 20.5, 3.5)};
  return s;
}

}  // namespace pathlab::test

namespace pathlab::test {

/// One doorway that closes in front of the unit and opens again later: no other way round.
inline CrowdScenario door_closes_and_opens() {
  Grid g = Grid::create(12, 12).value();
  for (int x = 0; x < 12; ++x) {
    if (x != 6) g.set_blocked(x, 6, true);
  }
  CrowdScenario s{"door closes and opens", std::move(g), {}, {}, {}, 40.0};
  s.doors.push_back(DoorDef{Cell{6, 6}, Cell{6, 6}, true, {1.0, 6.0}});
  s.agents = {crowd_agent("person", 6.5, 1.5, 90, 6.5, 10.5), crowd_agent("tank", 4.5, 1.5, 90, 8.5, 10.5)};
  return s;
}

/// A unit whose goal is taken by a unit that arrived first (their goals are 0.55 apart, so
/// the two bodies cannot both sit on them).
inline CrowdScenario goal_occupied() {
  CrowdScenario s{"goal occupied", Grid::create(16, 10).value(), {}, {}, {}, 40.0};
  s.agents = {crowd_agent("person", 3.5, 5.0, 0, 8.0, 5.0), crowd_agent("person", 14.5, 5.0, 180, 8.55, 5.0)};
  return s;
}

}  // namespace pathlab::test

namespace pathlab::test {

/// Two blocks of `per_side` mixed units (10 a row, 2.2 cells apart) facing each other across a
/// wall with three doorways 8 cells wide; each unit's goal is its mirror place, so the blocks
/// must pass through each other (the sandbox's --bench-crowd scenario, on a smaller map).
inline CrowdScenario doorways_counterflow(int per_side = 100) {
  constexpr int kW = 160, kH = 120, kWallX = 79;
  Grid g = Grid::create(kW, kH).value();
  auto doorway = [](int y) { return (y >= 36 && y < 44) || (y >= 56 && y < 64) || (y >= 76 && y < 84); };
  for (int y = 0; y < kH; ++y) {
    if (doorway(y)) continue;
    g.set_blocked(kWallX, y, true);
    g.set_blocked(kWallX + 1, y, true);
  }
  CrowdScenario s{"doorways, counterflow", std::move(g), {}, {}, {}, 120.0};
  static const char* const kMix[] = {"person", "person", "person", "bear", "car", "person", "tank", "person"};
  const int rows = (per_side + 9) / 10;
  for (int i = 0; i < 2 * per_side; ++i) {
    const int k = i % per_side;
    const double x = 70.5 - 2.2 * (k % 10), y = 60.0 - 1.1 * (rows - 1) + 2.2 * (k / 10);
    const double mx = 2.0 * (kWallX + 1) - x;
    if (i < per_side) s.agents.push_back(crowd_agent(kMix[i % 8], x, y, 0, mx, y));
    else s.agents.push_back(crowd_agent(kMix[i % 8], mx, y, 180, x, y));
  }
  return s;
}

}  // namespace pathlab::test
