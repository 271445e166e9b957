// The recording's trail and carried metrics (issue 25's scrubbing): what the trail gives for a
// step is the crowd as a fresh simulation has it at that step (every unit's pose within the
// trail's quantum, its flags, the doors, the trucks), through a paint, a spawn, a branch and
// its undoing; and the metrics after a seek are those of the run stepped straight there, a
// rebuild (paint) included.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/unit_input.hpp"

using namespace pathlab;

namespace {

const std::string kCrowds = std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/";

/// Half the trail's quanta, with a margin for the rounding of the product back to cells.
constexpr double kPosTol = plan::Trail::kPosQuantum / 2 + 1e-12;
constexpr double kHeadingTol = plan::Trail::kHeadingQuantum / 2 + 1e-12;

/// Edits of the doorway scene: a wall, a door click, a send, a spawn (the unit list changes).
std::vector<io::UnitInput> edits() {
  return {io::UnitInput{40, io::PaintInput{{Cell{5, 10}, Cell{6, 10}, Cell{7, 10}}, true}},
          io::UnitInput{90, io::DoorInput{0}},
          io::UnitInput{150, io::SendInput{{0, 1}, Vec2(3.5, 12.5), std::nullopt}},
          io::UnitInput{170, io::SpawnInput{"person", Pose{Vec2(2.5, 2.5), 0.0}, std::nullopt}},
          io::UnitInput{220, io::DoorInput{0}}};
}

void run_live(plan::Recording& rec, const std::vector<io::UnitInput>& inputs, int64_t steps) {
  size_t next = 0;
  while (rec.step_index() < steps) {
    for (; next < inputs.size() && inputs[next].step == rec.step_index(); ++next) CHECK(rec.input(inputs[next]).empty());
    rec.step();
  }
}

double heading_gap(double a, double b) {
  const double d = std::remainder(a - b, 2.0 * kPi);
  return std::abs(d);
}

/// The trail's frame against the crowd itself: what is drawn is what is simulated.
void check_frame(const plan::TrailFrame& f, const Crowd& c, const std::vector<std::string>& presets,
                 const plan::Trail& trail) {
  REQUIRE(static_cast<int>(f.units.size()) == c.agent_count());
  for (int i = 0; i < c.agent_count(); ++i) {
    const plan::TrailUnit& t = f.units[static_cast<size_t>(i)];
    const CrowdAgentState& s = c.state(i);
    CAPTURE(i);
    CHECK(std::abs(t.pos.x - s.pose.pos.x) <= kPosTol);
    CHECK(std::abs(t.pos.y - s.pose.pos.y) <= kPosTol);
    CHECK(heading_gap(t.heading, s.pose.heading) <= kHeadingTol);
    CHECK(t.arrived == s.arrived);
    CHECK(t.stuck == s.stuck);
    CHECK(t.waiting == s.waiting);
    CHECK(t.yielding == s.yielding);
    CHECK(t.radius == c.agent_def(i).unit.radius);
    CHECK(trail.preset_names()[static_cast<size_t>(t.preset)] == presets[static_cast<size_t>(i)]);
  }
  REQUIRE(static_cast<int>(f.doors.size()) == c.door_count());
  for (int d = 0; d < c.door_count(); ++d) CHECK(f.doors[static_cast<size_t>(d)] == c.door_state(d));
  REQUIRE(static_cast<int>(f.trucks.size()) == c.moving_obstacle_count());
  for (int k = 0; k < c.moving_obstacle_count(); ++k) {
    const MovingObstacleState& s = c.moving_obstacle(k);
    const plan::TrailTruck& t = f.trucks[static_cast<size_t>(k)];
    CHECK(std::abs(t.pose.pos.x - s.pose.pos.x) <= kPosTol);
    CHECK(std::abs(t.pose.pos.y - s.pose.pos.y) <= kPosTol);
    CHECK(heading_gap(t.pose.heading, s.pose.heading) <= kHeadingTol);
    CHECK(t.waiting == s.waiting);
    CHECK(t.finished == s.finished);
  }
}

/// A fresh, unrecorded simulation of `scene` with `inputs` (the planning layer alone), checking
/// the recording's trail at every step up to `steps`.
void check_trail_against_fresh(const plan::Recording& rec, const io::Scene& start, const std::vector<io::UnitInput>& inputs,
                               int64_t steps) {
  io::Scene scene = start;
  auto su = plan::build_scene_units(scene);
  REQUIRE(su.ok());
  size_t next = 0;
  for (int64_t s = 0; s <= steps; ++s) {
    CAPTURE(s);
    check_frame(rec.trail().frame(s), *su->crowd, su->presets, rec.trail());
    Grid grid;
    Pose goal;
    rec.map_at(s, grid, goal);
    CHECK(grid == scene.grid);  // the map drawn with the frame: what was painted by then
    for (; next < inputs.size() && inputs[next].step == s; ++next) (void)plan::apply_unit_input(*su, scene, inputs[next]);
    su->crowd->step();
  }
}

}  // namespace

TEST_CASE("trail: every recorded step is drawn as the crowd stands then (paint, door, send, spawn)") {
  const io::Scene scene = plan::load_scene(kCrowds + "doorway.json").value();
  auto rec = plan::Recording::start(scene);
  REQUIRE(rec.ok());
  run_live(*rec, edits(), 300);
  REQUIRE(rec->trail().size() == 301);
  check_trail_against_fresh(*rec, scene, edits(), 300);
  // It is small: the doorway's 9 units for 300 steps (5 s) in a few kB.
  CHECK(rec->trail().bytes() < 64 * 1024);
}

TEST_CASE("trail: the garbage truck and its doors are drawn where they are at every step") {
  const io::Scene scene = plan::load_scene(kCrowds + "garbage-truck.json").value();
  REQUIRE_FALSE(scene.moving_obstacles.empty());
  auto rec = plan::Recording::start(scene);
  REQUIRE(rec.ok());
  run_live(*rec, {}, 400);
  check_trail_against_fresh(*rec, scene, {}, 400);
}

TEST_CASE("trail: a branch keeps the trail to its step and records the new course; undo_branch restores the old") {
  const io::Scene scene = plan::load_scene(kCrowds + "doorway.json").value();
  auto rec = plan::Recording::start(scene);
  REQUIRE(rec.ok());
  run_live(*rec, edits(), 260);
  const plan::TrailFrame old_250 = rec->trail().frame(250);
  REQUIRE(rec->seek(100).ok());
  const io::UnitInput branch{100, io::SendInput{{2}, Vec2(14.5, 3.5), std::nullopt}};
  CHECK(rec->input(branch).empty());
  CHECK(rec->trail().size() == 101);
  for (int k = 0; k < 100; ++k) rec->step();
  // The new course: the edits before 100, then the branch's send.
  std::vector<io::UnitInput> course;
  for (const io::UnitInput& in : edits())
    if (in.step < 100) course.push_back(in);
  course.push_back(branch);
  check_trail_against_fresh(*rec, scene, course, 200);
  REQUIRE(rec->undo_branch().ok());
  CHECK(rec->trail().size() == 261);
  const plan::TrailFrame back = rec->trail().frame(250);
  REQUIRE(back.units.size() == old_250.units.size());
  for (size_t i = 0; i < back.units.size(); ++i) CHECK(back.units[i].pos == old_250.units[i].pos);
}

TEST_CASE("metrics after a seek are those of the run stepped straight there, across a rebuild") {
  const io::Scene scene = plan::load_scene(kCrowds + "doorway.json").value();
  auto straight = plan::Recording::start(scene);
  auto sought = plan::Recording::start(scene);
  REQUIRE(straight.ok());
  REQUIRE(sought.ok());
  run_live(*sought, edits(), 300);
  std::vector<io::UnitInput> pending = edits();
  size_t next = 0;
  for (int64_t s : {20, 39, 41, 100, 180, 299}) {
    CAPTURE(s);
    while (straight->step_index() < s) {
      for (; next < pending.size() && pending[next].step == straight->step_index(); ++next)
        CHECK(straight->input(pending[next]).empty());
      straight->step();
    }
    REQUIRE(sought->seek(300).ok());  // from the end, so each seek restores a keyframe
    REQUIRE(sought->seek(s).ok());
    REQUIRE(sought->crowd().agent_count() == straight->crowd().agent_count());
    for (int i = 0; i < straight->crowd().agent_count(); ++i) {
      CAPTURE(i);
      const CrowdAgentMetrics a = straight->unit_metrics(i), b = sought->unit_metrics(i);
      CHECK(a.distance == b.distance);
      CHECK(a.replans == b.replans);
      CHECK(a.stuck_steps == b.stuck_steps);
      CHECK(a.wall_contacts == b.wall_contacts);
    }
    const CrowdMetrics a = straight->run_metrics(), b = sought->run_metrics();
    CHECK(a.min_separation == b.min_separation);
    CHECK(a.stuck_steps == b.stuck_steps);
    CHECK(a.wall_contacts == b.wall_contacts);
    CHECK(a.replans == b.replans);
  }
  // After the paint at step 40 the crowd was rebuilt: its own metrics count from 0, the run's
  // carry on (the distance so far is kept, and each unit has its re-plan from the rebuild).
  REQUIRE(sought->seek(41).ok());
  double carried = 0.0;
  for (int i = 0; i < sought->crowd().agent_count(); ++i) {
    carried += sought->unit_metrics(i).distance - sought->crowd().metrics(i).distance;
    CHECK(sought->unit_metrics(i).replans >= sought->crowd().metrics(i).replans + 1);
  }
  CHECK(carried > 1.0);  // the units walked before the wall was painted
}
