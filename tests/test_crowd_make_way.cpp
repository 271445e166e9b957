// Making way for a held unit (README "Deadlocks", crowd_make_way.cpp): units settled on slots
// inside a one-cell corridor stand on the route of a car bound for the room beyond it, and the
// corridor leaves no way round. Without the rule (its call commented out, 2026-12-06) the car
// pushed them only to the corridor's far end, where they took new slots and stayed, and it said
// "no progress for 61 s: blocked by agent 0": giving way moves a unit away from the one stuck
// behind it, along the corridor, never out of it. With the rule the car, held 3 s, asks the
// settled units on its route ahead to step off it; having no room beside the route, they walk
// on ahead into the room, step aside, and come back to slots round their goal once it has passed.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "crowd_support.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

/// 40 x 11 cells: a room (x < 14), a corridor one cell wide (x 14..25, y 5), a room (x > 25).
Grid corridor_map() {
  Grid g = Grid::create(40, 11).value();
  for (int x = 14; x <= 25; ++x) {
    for (int y = 0; y < 11; ++y) {
      if (y != 5) g.set_blocked(x, y, true);
    }
  }
  return g;
}

struct MakeWayRun {
  bool settled = false;          ///< The persons all arrived before the car was added.
  bool in_corridor = true;       ///< ... each on a slot inside the corridor (the car's only way).
  bool car_arrived = false;
  double car_time = 0.0;         ///< When the car arrived, from when it was added. [s]
  bool all_back = false;         ///< Everyone arrived again by the end.
  double max_displacement = 0.0; ///< Farthest a settled person got from its slot. [cells]
  double farthest_x = 0.0;       ///< Farthest east a person got (the corridor ends at x = 26). [cells]
  double slot_reach = 0.0;       ///< Farthest a person's first slot lay from the goal. [cells]
  double worst_return = 0.0;     ///< Farthest a person ended from the goal. [cells]
  double worst_ratio = 1e9;      ///< Smallest centre distance / sum of radii, any step, any pair.
  std::string bytes;             ///< Every pose of every step after the car was added.
};

constexpr int kPersons = 3;
const Vec2 kGoal(20.5, 5.5);  ///< The persons' goal, in the middle of the corridor.

MakeWayRun run_make_way() {
  MakeWayRun out;
  Crowd crowd = Crowd::create(corridor_map()).value();
  // Three persons from the far room settle round a goal in the middle of the corridor: their
  // slots (spacing 0.85 cells) can only lie along the corridor's axis.
  const double starts[kPersons][2] = {{30.5, 3.5}, {30.5, 7.5}, {33.5, 5.5}};
  for (const auto& s : starts) REQUIRE(crowd.add_agent(crowd_agent("person", s[0], s[1], 180, kGoal.x, kGoal.y)));
  for (int s = 0; s < 60 * 40 && !crowd.all_arrived(); ++s) crowd.step();
  out.settled = crowd.all_arrived();
  std::vector<Vec2> slots;
  for (int i = 0; i < kPersons; ++i) {
    slots.push_back(crowd.state(i).pose.pos);
    out.slot_reach = std::max(out.slot_reach, glm::length(slots.back() - kGoal));
    out.in_corridor = out.in_corridor && slots.back().x > 14.0 && slots.back().x < 26.0;
  }
  const CrowdAgentId car = crowd.add_agent(crowd_agent("car", 3.5, 5.5, 0, 35.5, 5.5)).value();
  const double t0 = crowd.time();
  const int n = crowd.agent_count();
  char buf[128];
  while (!crowd.all_arrived() && crowd.time() - t0 < 90.0) {
    crowd.step();
    if (!out.car_arrived && crowd.metrics(car).arrived) {
      out.car_arrived = true;
      out.car_time = crowd.time() - t0;
    }
    for (int i = 0; i < n; ++i) {
      const CrowdAgentState& s = crowd.state(i);
      std::snprintf(buf, sizeof buf, "%.17g %.17g %.17g\n", s.pose.pos.x, s.pose.pos.y, s.pose.heading);
      out.bytes += buf;
      if (i < kPersons) {
        out.max_displacement = std::max(out.max_displacement, glm::length(s.pose.pos - slots[static_cast<size_t>(i)]));
        out.farthest_x = std::max(out.farthest_x, s.pose.pos.x);
      }
      for (int j = i + 1; j < n; ++j) {
        const double d = glm::length(s.pose.pos - crowd.state(j).pose.pos);
        out.worst_ratio = std::min(out.worst_ratio, d / (crowd.agent_def(i).unit.radius + crowd.agent_def(j).unit.radius));
      }
    }
  }
  out.all_back = crowd.all_arrived();
  for (int i = 0; i < kPersons; ++i) out.worst_return = std::max(out.worst_return, glm::length(crowd.state(i).pose.pos - kGoal));
  MESSAGE("car " << out.car_arrived << " at " << out.car_time << " s, why '" << crowd.state(car).why << "', car x "
                 << crowd.state(car).pose.pos.x << ", displaced " << out.max_displacement << " (to x " << out.farthest_x
                 << "), slots within " << out.slot_reach << " of the goal, back within " << out.worst_return << ", ratio "
                 << out.worst_ratio << ", end t " << crowd.time() - t0);
  return out;
}

}  // namespace

TEST_CASE("crowd: units settled in a one-cell corridor make way for a car held behind them, then return") {
  const MakeWayRun a = run_make_way();
  REQUIRE(a.settled);
  REQUIRE(a.in_corridor);
  CHECK(a.car_arrived);
  CHECK(a.car_time < 30.0);
  CHECK(a.max_displacement > 3.0);
  CHECK(a.farthest_x > 26.5);  // off the corridor, into the room beyond: no room beside the route in it
  CHECK(a.all_back);
  // Back on slots round their goal: not necessarily their own (one pushed past the goal takes a
  // free slot nearer where it stands), but no farther out than the first ones plus a spacing.
  CHECK(a.worst_return < a.slot_reach + 0.85 + 0.05);
  CHECK(a.worst_ratio >= 0.95);
  const MakeWayRun b = run_make_way();
  CHECK(a.bytes == b.bytes);
}
