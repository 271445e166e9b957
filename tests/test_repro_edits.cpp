// Edits during a recorded run (issue 25): spawning a unit and moving the scene's goal are
// recorded inputs that replay bit for bit and survive a repro file (version 2); an edit at a
// past moment starts a branch whose dropped future undo_branch() restores exactly; a recording
// started from a copy of live units (start_from) runs the same bytes as one built from the scene.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "pathlab/io/repro_file.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/unit_input.hpp"

using namespace pathlab;

namespace {

io::Scene doorway() { return plan::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/doorway.json").value(); }

/// A person spawned at 0.5 s in the upper room, the scene's goal moved at 1.5 s, a door click
/// at 2 s and a wall painted at 2.5 s.
std::vector<io::UnitInput> edits(const io::Scene& scene) {
  return {io::UnitInput{30, io::SpawnInput{"person", Pose{Vec2(3.5, 3.5), 0.5}, std::nullopt}},
          io::UnitInput{90, io::GoalInput{Pose{scene.goal.pos + Vec2(-2.0, 0.0), 0.0}}},
          io::UnitInput{120, io::DoorInput{0}},
          io::UnitInput{150, io::PaintInput{{Cell{5, 10}, Cell{6, 10}}, true}}};
}

void run_live(plan::Recording& rec, const std::vector<io::UnitInput>& inputs, int64_t steps) {
  size_t next = 0;
  while (rec.step_index() < steps) {
    for (; next < inputs.size() && inputs[next].step == rec.step_index(); ++next) CHECK(rec.input(inputs[next]).empty());
    rec.step();
  }
}

}  // namespace

TEST_CASE("spawn and goal inputs: recorded, written as repro version 2, read back and replayed bit for bit") {
  const io::Scene scene = doorway();
  REQUIRE(!scene.doors.empty());
  auto rec = plan::Recording::start(scene);
  REQUIRE(rec);
  const int before = rec->crowd().agent_count();
  run_live(*rec, edits(scene), 240);
  CHECK(rec->crowd().agent_count() == before + 1);  // the spawned person
  CHECK(rec->scene().units.size() == scene.units.size() + 1);  // listed where it stands
  CHECK(rec->scene().goal.pos == scene.goal.pos + Vec2(-2.0, 0.0));

  const io::Repro saved = rec->repro(100);
  const std::string text = io::repro_to_json(saved);
  CHECK(text.find("\"pathlab_repro\": 2") != std::string::npos);
  CHECK(text.find("\"spawn\":{\"preset\":\"person\"") != std::string::npos);
  auto back = io::parse_repro(text, "r.json", ".", plan::scene_read_options());
  REQUIRE_MESSAGE(back, back.error().message);
  CHECK(back->inputs == saved.inputs);
  CHECK(io::repro_to_json(*back) == text);  // byte-stable

  auto replay = plan::Recording::replay(*back, 50);
  REQUIRE(replay);
  for (int64_t s = 0; s < 240; ++s) replay->step();
  CHECK(replay->step_hashes() == saved.step_hashes);
  CHECK(replay->hashes() == saved.hashes);
  // Seeking back before the spawn shows the units of that moment, and the goal then.
  REQUIRE(replay->seek(20));
  CHECK(replay->crowd().agent_count() == before);
  CHECK(replay->scene().units.size() == scene.units.size());
  CHECK(replay->scene().goal.pos == scene.goal.pos);
  CHECK(plan::crowd_state_hash(replay->crowd()) == saved.step_hashes[19]);
}

TEST_CASE("a version 1 file still reads; hostile spawn and goal inputs get one clear error") {
  const io::Scene scene = doorway();
  auto rec = plan::Recording::start(scene);
  REQUIRE(rec);
  for (int s = 0; s < 10; ++s) rec->step();
  std::string text = io::repro_to_json(rec->repro());
  const std::string v2 = "\"pathlab_repro\": 2";
  REQUIRE(text.find(v2) != std::string::npos);
  std::string v1 = text;
  v1.replace(v1.find(v2), v2.size(), "\"pathlab_repro\": 1");
  CHECK(io::parse_repro(v1, "old.json", ".", plan::scene_read_options()).ok());

  auto with_input = [&](const std::string& input) {
    std::string t = text;
    t.replace(t.find("\"inputs\": []"), 12, "\"inputs\": [\n  " + input + "\n ]");
    return io::parse_repro(t, "bad.json", ".", plan::scene_read_options());
  };
  REQUIRE(with_input("{\"step\":5,\"spawn\":{\"preset\":\"person\",\"pose\":[3.5,3.5,0],\"goal\":null}}").ok());
  const auto unknown = with_input("{\"step\":5,\"spawn\":{\"preset\":\"dragon\",\"pose\":[3.5,3.5,0],\"goal\":null}}");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message.find("bad.json:") == 0);
  CHECK(unknown.error().message.find("inputs[0].spawn.preset") != std::string::npos);
  const auto off = with_input("{\"step\":5,\"spawn\":{\"preset\":\"person\",\"pose\":[-3,3.5,0],\"goal\":null}}");
  REQUIRE_FALSE(off);
  CHECK(off.error().message.find("inputs[0].spawn.pose is outside the map") != std::string::npos);
  const auto goal = with_input("{\"step\":5,\"goal\":[1e400,2]}");
  REQUIRE_FALSE(goal);
  const auto two = with_input("{\"step\":5,\"goal\":[1,2],\"door\":0}");
  REQUIRE_FALSE(two);
  CHECK(two.error().message.find("needs exactly one of") != std::string::npos);
}

TEST_CASE("an edit at a past moment branches; undo_branch restores the old future exactly") {
  const io::Scene scene = doorway();
  plan::RecordOptions opt;
  opt.keyframe_every = 50;
  auto rec = plan::Recording::start(scene, opt);
  REQUIRE(rec);
  run_live(*rec, edits(scene), 300);
  const auto inputs = rec->inputs();
  const auto hashes = rec->hashes();
  const auto steps = rec->step_hashes();
  const size_t keyframes = rec->keyframe_count();
  const std::vector<plan::RunEvent> events = rec->events().events();
  REQUIRE_FALSE(events.empty());
  CHECK_FALSE(rec->can_undo_branch());

  REQUIRE(rec->seek(100));
  CHECK(rec->input(io::UnitInput{0, io::SendInput{{0}, Vec2(3.5, 12.5), std::nullopt}}).empty());
  REQUIRE(rec->can_undo_branch());
  CHECK(rec->branch_step() == 100);
  CHECK(rec->recorded_until() == 100);
  REQUIRE(rec->inputs().size() == 3);  // the spawn, the goal move, the send: the door and paint dropped
  for (int s = 0; s < 120; ++s) rec->step();  // the new branch runs on
  CHECK(rec->step_hashes()[150] != steps[150]);

  REQUIRE(rec->undo_branch());
  CHECK_FALSE(rec->can_undo_branch());
  CHECK(rec->step_index() == 100);
  CHECK(rec->inputs() == inputs);
  CHECK(rec->hashes() == hashes);
  CHECK(rec->step_hashes() == steps);
  CHECK(rec->keyframe_count() == keyframes);
  CHECK(rec->events().events() == events);  // the old future's events come back with it
  CHECK(plan::crowd_state_hash(rec->crowd()) == steps[99]);
  // Played on, the old future happens again bit for bit (re-simulated, not copied).
  for (int s = 100; s < 300; ++s) {
    rec->step();
    if (plan::crowd_state_hash(rec->crowd()) != steps[static_cast<size_t>(s)]) {
      FAIL("differs after step ", s + 1);
      break;
    }
  }
  CHECK(rec->events().events() == events);  // re-simulating the old future adds none
  CHECK_FALSE(rec->undo_branch());  // nothing left to undo
}

TEST_CASE("start_from a copy of live units records the same bytes as start from the scene") {
  const io::Scene scene = doorway();
  auto built = plan::build_scene_units(scene);
  REQUIRE(built);
  plan::SceneUnits copy;
  copy.routing = plan::copy_routing(*built->routing);
  copy.crowd.emplace(built->crowd->clone(plan::unit_route_planner(copy.routing)));
  copy.presets = built->presets;
  copy.scene_index = built->scene_index;
  copy.messages = built->messages;
  copy.goals = built->goals;
  copy.def = built->def;
  auto a = plan::Recording::start(scene);
  auto b = plan::Recording::start_from(scene, std::move(copy));
  REQUIRE(a);
  REQUIRE(b);
  run_live(*a, edits(scene), 200);
  run_live(*b, edits(scene), 200);
  CHECK(a->step_hashes() == b->step_hashes());
  CHECK(io::repro_to_json(a->repro()) == io::repro_to_json(b->repro()));

  built->crowd->step();  // a crowd that ran already cannot start a recording
  plan::SceneUnits ran = std::move(*built);
  CHECK_FALSE(plan::Recording::start_from(scene, std::move(ran)).ok());
}
