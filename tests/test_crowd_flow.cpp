// Crowds moving together at scale (crowd.hpp): keeping right in passages, spreading over
// doorways against oncoming traffic, routing round a group that has settled, and heading units
// that neither freeze at wall corners nor circle their goals.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "crowd_support.hpp"
#include "pathlab/map_generators.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

/// A wall across x = 14..15 of a 30 x 22 map with one doorway, y in [8, 14).
Grid doorway_map() {
  Grid g = Grid::create(30, 22).value();
  for (int y = 0; y < 22; ++y) {
    if (y >= 8 && y < 14) continue;
    g.set_blocked(14, y, true);
    g.set_blocked(15, y, true);
  }
  return g;
}

/// The y where the route crosses the vertical line at x (NaN when it does not).
double crossing_y(const std::vector<Vec2>& route, double x) {
  for (size_t k = 0; k + 1 < route.size(); ++k) {
    const Vec2 a = route[k], b = route[k + 1];
    if ((a.x - x) * (b.x - x) > 0.0 || a.x == b.x) continue;
    return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
  }
  return std::nan("");
}

/// Distance from q to the segment a-b.
double segment_distance(Vec2 a, Vec2 b, Vec2 q) {
  const Vec2 ab = b - a;
  const double l2 = glm::dot(ab, ab);
  const double t = l2 > 0.0 ? std::clamp(glm::dot(q - a, ab) / l2, 0.0, 1.0) : 0.0;
  return glm::length(a + t * ab - q);
}

/// A small deterministic generator (no std distributions: their output differs by library).
struct Lcg {
  uint64_t s;
  double next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / 9007199254740992.0;
  }
};

}  // namespace

TEST_CASE("crowd: against oncoming routes, a route keeps to the right half of a doorway") {
  // All three routes bend round the doorway's upper corners (their ends are above it). The
  // first unit has the doorway to itself and keeps the taut line along the upper edge. The
  // second, going west, meets its route: it passes in its own right half (the upper one, y
  // grows down), a body's width off the first. The third, going east again, meets the second:
  // the lower half.
  Crowd crowd = Crowd::create(doorway_map()).value();
  const CrowdAgentId first = crowd.add_agent(crowd_agent("person", 3.5, 4.5, 0, 26.5, 4.5)).value();
  const CrowdAgentId west = crowd.add_agent(crowd_agent("person", 26.5, 2.5, 180, 3.5, 2.5)).value();
  const CrowdAgentId east = crowd.add_agent(crowd_agent("person", 3.5, 3.0, 0, 26.5, 3.0)).value();
  const double y_first = crossing_y(crowd.state(first).route, 15.0);
  const double y_west = crossing_y(crowd.state(west).route, 15.0);
  const double y_east = crossing_y(crowd.state(east).route, 15.0);
  MESSAGE("doorway rows 8..14: first " << y_first << ", west " << y_west << ", east " << y_east);
  CHECK(y_first < 9.0);  // the taut line along the upper edge (8 + radius)
  CHECK(y_west < 11.0);  // the doorway's middle is y = 11
  CHECK(y_west > y_first + 0.6);
  CHECK(y_east > 11.0);
}

TEST_CASE("crowd: a route keeps off the lanes of oncoming units") {
  // Ten units going west through the middle one of three doorways (their straight routes fill
  // its rows 57.5 .. 62); a unit going east takes another doorway or a row of its own,
  // instead of the straight line into them.
  CrowdScenario sc = doorways_counterflow(0);
  Crowd crowd = Crowd::create(sc.grid).value();
  std::vector<double> lanes;
  for (int k = 0; k < 10; ++k) {
    const double y = 57.5 + 0.5 * k;
    REQUIRE(crowd.add_agent(crowd_agent("person", 100.5 + 1.2 * k, y, 180, 40.5, y)));
    lanes.push_back(y);
  }
  const CrowdAgentId east = crowd.add_agent(crowd_agent("person", 60.5, 60.0, 0, 120.5, 60.0)).value();
  const std::vector<Vec2>& route = crowd.state(east).route;
  REQUIRE(route.size() > 2);  // not the straight line along y = 60
  int crossings = 0;
  for (size_t k = 0; k + 1 < route.size(); ++k) {
    const Vec2 a = route[k], b = route[k + 1];
    for (double x : {79.0, 81.0}) {  // both faces of the wall
      if ((a.x - x) * (b.x - x) > 0.0 || a.x == b.x) continue;
      const double y = a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
      ++crossings;
      for (double lane : lanes) CHECK(std::abs(y - lane) >= 1.0);
    }
  }
  CHECK(crossings == 2);
}

TEST_CASE("crowd: two blocks swap sides through three doorways") {
  // 2 x 40 mixed units head-on through doorways 8 cells wide (before lanes and traffic costs,
  // most of the 2 x 100 version stood jammed in the middle doorway for minutes).
  const CrowdScenario sc = doorways_counterflow(40);
  const CrowdOutcome a = run_crowd(sc);
  CHECK(a.all_arrived);
  CHECK(a.worst_ratio >= 0.95);
  CHECK(a.worst_wall == 0.0);
  MESSAGE("counterflow 2 x 40: t " << a.time << " stuck " << a.metrics.stuck_steps << " replans " << a.metrics.replans);
  const CrowdOutcome b = run_crowd(sc);
  CHECK(a.bytes == b.bytes);
}

TEST_CASE("crowd: a car routes round a group settled between it and its goal") {
  Crowd crowd = Crowd::create(Grid::create(40, 30).value()).value();
  for (int k = 0; k < 7; ++k) REQUIRE(crowd.add_agent(crowd_agent("person", 3.5, 6.5 + 2.0 * k, 0, 20.0, 15.0)));
  for (int s = 0; s < 60 * 30 && !crowd.all_arrived(); ++s) crowd.step();
  REQUIRE(crowd.all_arrived());
  const CrowdAgentId car = crowd.add_agent(crowd_agent("car", 4.0, 15.0, 0, 30.0, 15.0)).value();
  const std::vector<Vec2>& route = crowd.state(car).route;
  REQUIRE(route.size() > 2);  // not the straight line through them
  for (size_t k = 0; k + 1 < route.size(); ++k) CHECK(segment_distance(route[k], route[k + 1], Vec2(20.0, 15.0)) > 1.5);
  for (int s = 0; s < 60 * 30 && !crowd.metrics(car).arrived; ++s) crowd.step();
  CHECK(crowd.metrics(car).arrived);
}

TEST_CASE("crowd: mixed units cross a map of rooms and all arrive") {
  // Cars, tanks, bears and people between random points of a rooms map (doors 3 wide). Heading
  // units used to freeze at door corners (aiming past a corner through the wall) and report
  // no trouble; the stuck test did not notice (skipping a waypoint counted as progress).
  Grid g = Grid::create(48, 48).value();
  generate_rooms(g, 12, 3, 7);
  CrowdScenario sc{"rooms", g, {}, {}, {}, 150.0};
  const char* mix[] = {"person", "car", "person", "tank", "bear", "person"};
  Lcg rng{12345};
  for (int i = 0; i < 400 && sc.agents.size() < 24; ++i) {
    const UnitDef u = unit_preset(mix[sc.agents.size() % 6]).value();
    const Vec2 p(1.0 + 46.0 * rng.next(), 1.0 + 46.0 * rng.next()), q(1.0 + 46.0 * rng.next(), 1.0 + 46.0 * rng.next());
    if (!point_clear(g, p, u.radius + 0.05) || !point_clear(g, q, u.radius + 0.05)) continue;
    bool apart = true;
    for (const auto& o : sc.agents) apart = apart && glm::length(o.start.pos - p) > o.unit.radius + u.radius + 0.1;
    if (!apart) continue;
    CrowdAgentDef a;
    a.unit = u;
    a.start = Pose{p, 6.0 * rng.next()};
    a.goal = q;
    sc.agents.push_back(a);
  }
  REQUIRE(sc.agents.size() == 24);
  const CrowdOutcome o = run_crowd(sc);
  for (size_t i = 0; i < o.why.size(); ++i) {
    CAPTURE(i);
    CHECK(o.why[i] == "");
  }
  CHECK(o.all_arrived);
  CHECK(o.worst_ratio >= 0.95);
  CHECK(o.worst_wall == 0.0);
}

TEST_CASE("crowd: a lone car whose route turns too tightly for it drives a detour it can make") {
  // 15% random walls. The grid route, planned for the car's radius but not its turning radius
  // (2 cells), turns where a car cannot; before the drivable detour (crowd_drive.cpp) this car
  // shunted back and forth for a minute and said "no progress for 61 s: blocked".
  Grid g = Grid::create(64, 64).value();
  generate_random(g, 0.15, 7);
  CrowdScenario sc{"car in clutter", g, {}, {}, {}, 120.0};
  CrowdAgentDef car;
  car.unit = unit_preset("car").value();
  car.start = Pose{Vec2(22.229293, 43.622457), 4.466841};
  car.goal = Vec2(20.459483, 1.969212);
  sc.agents.push_back(car);
  const CrowdOutcome a = run_crowd(sc);
  CHECK_MESSAGE(a.all_arrived, "why: " << a.why[0] << ", t " << a.time);
  CHECK(a.worst_wall == 0.0);
  const CrowdOutcome b = run_crowd(sc, false);
  CHECK(a.bytes == b.bytes);  // the detour's search is deterministic too
}
