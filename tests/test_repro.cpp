// Record, seek and replay (issue 25): a crowd run with edits in the middle (a wall painted, a
// door clicked, a group sent) saved as a repro file, reopened and sought to the middle equals
// a fresh simulation to that step; keyframes (Crowd::clone) restore futures bit for bit;
// recording changes nothing; the file is byte-stable and hostile files get one clear error;
// `pathlab-cli replay --check` passes on the file and names the step and unit on a copy with
// one input moved by one step.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "pathlab/io/repro_file.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/unit_input.hpp"

using namespace pathlab;
using pathlab::test::run_cli;

namespace {

const std::string kDoorway = std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/doorway.json";

io::Scene doorway() { return plan::load_scene(kDoorway).value(); }

/// The edits of the tests: a wall painted across the lower room at 1 s, the doorway's door
/// clicked shut at 2 s, units 0 and 1 sent to the lower left at 3.33 s, the door opened at 5 s.
std::vector<io::UnitInput> edits() {
  return {io::UnitInput{60, io::PaintInput{{Cell{5, 10}, Cell{6, 10}, Cell{7, 10}}, true}},
          io::UnitInput{120, io::DoorInput{0}},
          io::UnitInput{200, io::SendInput{{0, 1}, Vec2(3.5, 12.5), std::nullopt}},
          io::UnitInput{300, io::DoorInput{0}}};
}

/// Runs `rec` to `steps`, giving each input at its step as a user would.
void run_live(plan::Recording& rec, const std::vector<io::UnitInput>& inputs, int64_t steps) {
  size_t next = 0;
  while (rec.step_index() < steps) {
    for (; next < inputs.size() && inputs[next].step == rec.step_index(); ++next) CHECK(rec.input(inputs[next]).empty());
    rec.step();
  }
}

/// Every unit's full motion state, exactly.
void check_same_state(const Crowd& a, const Crowd& b) {
  REQUIRE(a.agent_count() == b.agent_count());
  for (int i = 0; i < a.agent_count(); ++i) {
    CAPTURE(i);
    CHECK(a.state(i).pose.pos == b.state(i).pose.pos);
    CHECK(a.state(i).pose.heading == b.state(i).pose.heading);
    CHECK(a.state(i).velocity == b.state(i).velocity);
    CHECK(a.state(i).route == b.state(i).route);
    CHECK(a.state(i).arrived == b.state(i).arrived);
  }
  for (int d = 0; d < a.door_count(); ++d) CHECK(a.door_state(d) == b.door_state(d));
  CHECK(plan::crowd_state_hash(a) == plan::crowd_state_hash(b));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("Crowd::clone: a copy's future is the original's, bit for bit (built-in planning too)") {
  io::Scene scene = doorway();
  auto crowd = io::build_crowd(scene);
  REQUIRE(crowd);
  for (int k = 0; k < 90; ++k) crowd->step();
  Crowd copy = crowd->clone(CrowdRoutePlanner{});
  REQUIRE(crowd->set_door_open(0, false));  // the same click on both, after the copy
  REQUIRE(copy.set_door_open(0, false));
  for (int k = 0; k < 400; ++k) {
    crowd->step();
    copy.step();
  }
  CHECK(copy.step_count() == crowd->step_count());
  check_same_state(*crowd, copy);
}

TEST_CASE("a recording with edits, saved and reopened, seeks to the middle: the state of a fresh simulation") {
  const io::Scene scene = doorway();
  plan::RecordOptions opt;
  opt.keyframe_every = 100;  // seeking to 250 restores step 200's keyframe and re-simulates 50 steps
  auto rec = plan::Recording::start(scene, opt);
  REQUIRE(rec);
  run_live(*rec, edits(), 600);
  CHECK(rec->keyframe_count() == 7);
  const io::Repro saved = rec->repro(250);
  CHECK(saved.inputs == edits());
  CHECK(saved.hashes.size() == 10);

  const std::string text = io::repro_to_json(saved);
  auto reopened = io::parse_repro(text, "r.json", ".", plan::scene_read_options());
  REQUIRE_MESSAGE(reopened, reopened.error().message);
  CHECK(io::repro_to_json(*reopened) == text);  // byte-stable
  CHECK(reopened->moment == 250);

  auto replay = plan::Recording::replay(*reopened, 100);
  REQUIRE(replay);
  for (int64_t s = 0; s < 600; ++s) replay->step();
  CHECK(replay->step_hashes() == saved.step_hashes);
  CHECK(replay->hashes() == saved.hashes);
  REQUIRE(replay->seek(250));
  CHECK(replay->step_index() == 250);

  // Fresh: no keyframe restored (one keyframe only), the inputs given live.
  plan::RecordOptions no_keyframes;
  no_keyframes.keyframe_every = 1000000;
  auto fresh = plan::Recording::start(scene, no_keyframes);
  REQUIRE(fresh);
  run_live(*fresh, edits(), 250);
  check_same_state(replay->crowd(), fresh->crowd());
  CHECK(replay->scene().grid == fresh->scene().grid);  // the painted wall is there
  CHECK(replay->scene().grid.is_blocked(6, 10));

  SUBCASE("seeking back to the start and forward again gives the same states") {
    REQUIRE(replay->seek(0));
    CHECK(replay->scene().grid == scene.grid);
    REQUIRE(replay->seek(600));
    CHECK(plan::crowd_state_hash(replay->crowd()) == saved.step_hashes.back());
    REQUIRE(replay->seek(250));
    check_same_state(replay->crowd(), fresh->crowd());
    CHECK_FALSE(replay->seek(601));
  }
}

TEST_CASE("a keyframe budget drops every other keyframe: memory stays within it, seeks stay exact") {
  const io::Scene scene = doorway();
  size_t one = 0;
  {
    auto probe = plan::Recording::start(scene);
    REQUIRE(probe);
    one = probe->keyframe_bytes();  // the keyframe of step 0
  }
  REQUIRE(one > 0);
  plan::RecordOptions o;
  o.keyframe_every = 20;
  o.keyframe_budget = 3 * one + one / 2;  // room for three keyframes of that size (routes grow a little)
  auto rec = plan::Recording::start(scene, o);
  REQUIRE(rec);
  run_live(*rec, edits(), 400);
  CHECK(rec->keyframe_bytes() <= o.keyframe_budget);
  CHECK(rec->keyframe_count() <= 3);
  CHECK(rec->keyframe_interval() >= 160);  // 20 doubled at least three times for 400 steps
  CHECK(rec->keyframe_interval() % 20 == 0);
  REQUIRE(rec->seek(250));
  plan::RecordOptions plain;
  plain.keyframe_every = 1000000;
  auto fresh = plan::Recording::start(scene, plain);
  REQUIRE(fresh);
  run_live(*fresh, edits(), 250);
  check_same_state(rec->crowd(), fresh->crowd());
}

TEST_CASE("recording changes nothing: the hashes are those of the scene's units stepped alone") {
  io::Scene scene = doorway();
  auto rec = plan::Recording::start(scene);
  REQUIRE(rec);
  run_live(*rec, edits(), 400);
  auto units = plan::build_scene_units(scene);
  REQUIRE(units);
  const std::vector<io::UnitInput> in = edits();
  size_t next = 0;
  for (int64_t s = 0; s < 400; ++s) {
    for (; next < in.size() && in[next].step == s; ++next) CHECK(plan::apply_unit_input(*units, scene, in[next]).empty());
    units->crowd->step();
    REQUIRE(plan::crowd_state_hash(*units->crowd) == rec->step_hashes()[static_cast<size_t>(s)]);
  }
  CHECK(units->step_offset + units->crowd->step_count() == 400);
}

TEST_CASE("an input given after seeking back starts another course: the recorded future is dropped") {
  auto rec = plan::Recording::start(doorway());
  REQUIRE(rec);
  run_live(*rec, edits(), 400);
  REQUIRE(rec->seek(150));
  CHECK(rec->input(io::UnitInput{0, io::DoorInput{0}}).empty());
  CHECK(rec->recorded_until() == 150);
  REQUIRE(rec->inputs().size() == 3);  // paint, door at 120, this one
  CHECK(rec->inputs()[2].step == 150);
  rec->step();
  CHECK(rec->recorded_until() == 151);

  SUBCASE("inputs recorded for the step sought to stay and apply first") {
    REQUIRE(rec->seek(120));  // before the door click recorded at 120
    CHECK(rec->input(io::UnitInput{0, io::SendInput{{2}, Vec2(3.5, 12.5), std::nullopt}}).empty());
    REQUIRE(rec->inputs().size() == 3);
    CHECK(std::holds_alternative<io::DoorInput>(rec->inputs()[1].what));
    CHECK(std::holds_alternative<io::SendInput>(rec->inputs()[2].what));
    CHECK(rec->crowd().door_state(0) != DoorState::open);  // the click at 120 was applied
  }
}

TEST_CASE("repro files: hostile or wrong input gets one error naming the file, line and key") {
  auto rec = plan::Recording::start(doorway());
  REQUIRE(rec);
  run_live(*rec, edits(), 121);  // the paint and the door click
  const std::string good = io::repro_to_json(rec->repro());
  REQUIRE(io::parse_repro(good, "r.json", ".", plan::scene_read_options()));
  auto error_of = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const size_t at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
    auto r = io::parse_repro(text, "r.json", ".", plan::scene_read_options());
    REQUIRE_FALSE(r);
    return r.error().message;
  };
  CHECK(error_of("\"pathlab_repro\": 2", "\"pathlab_repro\": 9") == "r.json:2: pathlab_repro version 9 is newer than this pathlab understands (2)");
  CHECK(error_of("[[5,10],", "[[5,99],") == "r.json:8: inputs[0].paint.cells[0][1] must be in 0..14 (got 99)");
  CHECK(error_of("\"door\":0", "\"door\":1") == "r.json:9: inputs[1].door must be in 0..0 (got 1)");
  CHECK(error_of("{\"step\":60,", "{\"step\":122,") == "r.json:8: inputs[0].step must be in 0..121 (got 122)");
  CHECK(error_of("\"dt\":0.016666666666666666", "\"dt\":0") == "r.json:4: settings.dt must be in (0, 1] seconds");
  CHECK(error_of("\"step_hashes\": \"", "\"step_hashes\": \"0").find("step_hashes must hold 16 hex digits") != std::string::npos);
  CHECK(error_of("\"state\":\"", "\"state\":\"X") == "r.json:12: hashes[0].state must be 16 hex digits");
  CHECK(error_of("{\"step\":60,\"paint\"", "{\"step\":60,\"door\":0,\"paint\"") ==
        "r.json:8: inputs[0] needs exactly one of \"paint\", \"door\", \"send\", \"spawn\", \"goal\"");
  // The scene's own errors keep the repro file's line numbers.
  const std::string scene_error = error_of("\"planner\": \"astar\"", "\"planner\": \"warp\"");
  const size_t line = static_cast<size_t>(std::count(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.find("\"planner\"")), '\n') + 1);
  CHECK(scene_error.find("r.json:" + std::to_string(line) + ": settings.planner: unknown planner 'warp'") == 0);
  CHECK_FALSE(io::parse_repro("{\"pathlab_scene\": 3}", "r.json", "."));
  CHECK_FALSE(io::parse_repro(std::string(100, '['), "r.json", "."));
}

TEST_CASE("pathlab-cli record and replay --check: passes on the file, names step and unit on a moved input") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pathlab_repro_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string inputs = (dir / "inputs.json").string();
  std::ofstream(inputs) << "{\"inputs\": [\n"
                           " {\"step\": 60, \"paint\": {\"cells\": [[5, 10], [6, 10], [7, 10]], \"wall\": true}},\n"
                           " {\"step\": 120, \"door\": 0},\n"
                           " {\"step\": 200, \"send\": {\"units\": [0, 1], \"goal\": [3.5, 12.5]}},\n"
                           " {\"step\": 300, \"door\": 0}\n]}\n";
  const std::string out = (dir / "run.repro.json").string();
  auto r = run_cli("record --scene " + kDoorway + " --until 10 --inputs " + inputs + " --out " + out + " --moment 4");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.out.find("recorded 600 steps") == 0);

  // The same run through the API gives the same bytes.
  auto rec = plan::Recording::start(doorway());
  REQUIRE(rec);
  run_live(*rec, edits(), 600);
  CHECK(io::repro_to_json(rec->repro(240)) == read_file(out));

  r = run_cli("replay " + out + " --check");
  CHECK(r.status == 0);
  CHECK(r.err.find("check: 600 steps agree") == 0);

  std::string moved = read_file(out);
  const size_t at = moved.find("{\"step\":200,\"send\"");
  REQUIRE(at != std::string::npos);
  moved.replace(at, 11, "{\"step\":201");
  const std::string bad = (dir / "moved.repro.json").string();
  std::ofstream(bad, std::ios::binary) << moved;
  r = run_cli("replay " + bad + " --check");
  CHECK(r.status == 1);
  CHECK(r.err.find("diverges at step 201 (t = 3.35 s): unit 0 (person) differs") != std::string::npos);

  SUBCASE("a recorded run replays exactly as crowd --scene runs it unrecorded: the same output, byte for byte") {
    const std::string plain = (dir / "plain.repro.json").string();
    REQUIRE(run_cli("record --scene " + kDoorway + " --until 10 --out " + plain).status == 0);
    const auto replayed = run_cli("replay " + plain + " --json --every 30");
    const auto crowd = run_cli("crowd --scene " + kDoorway + " --max-time 10 --json --every 30");
    REQUIRE(crowd.status == 0);
    CHECK(replayed.status == 0);
    CHECK(replayed.out.size() > 1000);
    CHECK(replayed.out == crowd.out);
  }
  SUBCASE("replay --json prints frames as crowd does") {
    r = run_cli("replay " + out + " --json --every 60 --until 2");
    CHECK(r.status == 0);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1 + 1 + 2 + 1);  // header, t = 0, two frames, summary
  }
  SUBCASE("a file that is not a repro is never written over") {
    const std::string mine = (dir / "notes.json").string();
    std::ofstream(mine) << "{\"my\": \"notes\"}\n";
    pathlab::test::check_usage_error("record --scene " + kDoorway + " --until 1 --out " + mine, "not a pathlab repro");
    CHECK(read_file(mine) == "{\"my\": \"notes\"}\n");
  }
  SUBCASE("bad inputs are refused at their line") {
    std::ofstream(inputs) << "{\"inputs\": [\n {\"step\": 60, \"door\": 3}\n]}\n";
    pathlab::test::check_usage_error("record --scene " + kDoorway + " --until 10 --inputs " + inputs + " --out " + out,
                                     "inputs.json:2: inputs[0].door must be in 0..0");
  }
  fs::remove_all(dir);
}
