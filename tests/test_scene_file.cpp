#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <fstream>

#include "pathlab/io/map_files.hpp"
#include "pathlab/io/json_guard.hpp"
#include "pathlab/io/scene_file.hpp"
#include "scene_file_internal.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

std::string tmp(const std::string& name) { return (std::filesystem::temp_directory_path() / name).string(); }

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

int line_of_offset_helper(const std::string& text, const char* key) {
  return io::line_of_offset(text, io::detail::offset_of_key(text, key));
}

}  // namespace

TEST_CASE("scene file: round trip keeps map, poses and settings") {
  io::Scene s;
  s.name = "round trip";
  s.grid = test::random_grid(23, 17, 0.3, 3);
  s.grid.set_cost(1, 1, 3.0f);
  s.grid.set_cost(2, 1, 7.5f);
  s.start = Pose{Vec2(1.25, 1.75), deg_to_rad(-90.0)};
  s.goal = Pose{Vec2(20.5, 15.5), deg_to_rad(33.0)};
  s.settings.planner = "jps";
  s.settings.smoother = "los";
  s.settings.connectivity = 8;
  s.settings.turn_penalty = 0.5;
  s.settings.agent_radius = 0.35;
  s.settings.subdivisions = 5;
  s.settings.turning_radius = 3.5;
  s.settings.reverse = true;
  s.settings.min_gear_length = 2.5;
  const std::string path = tmp("pathlab_scene_rt.json");
  REQUIRE(io::save_scene(s, path).ok());
  auto back = io::load_scene(path);
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  CHECK(back->name == s.name);
  for (int y = 0; y < s.grid.height(); ++y)
    for (int x = 0; x < s.grid.width(); ++x) CHECK(back->grid.cost(x, y) == s.grid.cost(x, y));
  CHECK(back->start.pos == s.start.pos);
  CHECK(back->start.heading == doctest::Approx(s.start.heading).epsilon(1e-15));
  CHECK(back->goal.heading == doctest::Approx(s.goal.heading).epsilon(1e-15));
  CHECK(back->settings.planner == "jps");
  CHECK(back->settings.smoother == "los");
  CHECK(back->settings.turn_penalty == 0.5);
  CHECK(back->settings.agent_radius == 0.35);
  CHECK(back->settings.subdivisions == 5);
  CHECK(back->settings.turning_radius == 3.5);
  CHECK(back->settings.reverse);
  CHECK(back->settings.min_gear_length == 2.5);
  // The atomic write leaves no temporary file behind.
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
    CHECK_FALSE(contains(e.path().filename().string(), "pathlab_scene_rt.json.tmp"));
  std::filesystem::remove(path);
}

TEST_CASE("scene file: a map may be referenced by file, relative to the scene") {
  const std::string dir = tmp("pathlab_scene_dir");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/tiny.map") << "type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n";
  const std::string path = dir + "/s.json";
  std::ofstream(path) << R"({"pathlab_scene": 1, "map": {"file": "tiny.map"}, "start": [0.5, 0.5, 0], "goal": [2.5, 0.5]})";
  auto s = io::load_scene(path);
  REQUIRE(s.ok());
  CHECK(s->grid.width() == 3);
  CHECK(s->grid.is_blocked(1, 0));
  CHECK(s->goal.heading == 0.0);
  CHECK(s->settings.planner == "astar");  // defaults where the scene says nothing
  std::filesystem::remove_all(dir);
}

TEST_CASE("scene file: bad scenes are refused with a message naming the file and field") {
  struct Case {
    const char* text;
    const char* expect;
  };
  const Case cases[] = {
      {"{not json", "not valid JSON"},
      {"[]", "not a pathlab scene"},
      {R"({"pathlab_scene": 99})", "newer than this pathlab understands"},
      {R"({"pathlab_scene": 1})", "missing \"map\""},
      {R"({"pathlab_scene": 1, "map": {"width": 2, "height": 1, "rows": [".."]}})", "missing \"start\""},
      {R"({"pathlab_scene": 1, "map": {"width": 2, "height": 1, "rows": ["..."]}, "start": [0,0], "goal": [1,0]})",
       "map.rows[0] must be a string of 2 characters"},
      {R"({"pathlab_scene": 1, "map": {"width": 2, "height": 1, "rows": [".x"]}, "start": [0,0], "goal": [1,0]})",
       "unknown cell 'x'"},
      {R"({"pathlab_scene": 1, "map": {"width": 100000, "height": 1, "rows": []}, "start": [0,0], "goal": [1,0]})",
       "map size 100000x1 is outside"},
      {R"({"pathlab_scene": 1, "map": {"width": 2, "height": 1, "rows": [".."]}, "start": ["a",0], "goal": [1,0]})",
       "start[0] must be a number"},
      {R"({"pathlab_scene": 1, "map": {"width": 2, "height": 1, "rows": [".."]}, "start": [0,0], "goal": [1,0],
          "settings": {"connectivity": 6}})",
       "settings.connectivity must be 4 or 8"},
      {R"({"pathlab_scene": 1, "map": {"width": 2, "height": 1, "rows": [".."], "weights": [[5, 0, 2]]},
          "start": [0,0], "goal": [1,0]})",
       "map.weights[0] is outside the map"},
      {R"({"pathlab_scene": 1, "map": {"file": "/nonexistent.map"}, "start": [0,0], "goal": [1,0]})",
       "/nonexistent.map: cannot open"},
      {R"({"pathlab_scene": 2, "map": {"width": 2, "height": 1, "rows": [".."]}, "start": [0,0], "goal": [1,0],
          "settings": {"navmesh_polygons": "hexagons"}})",
       "settings.navmesh_polygons must be"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto s = io::parse_scene(c.text, "bad.json", ".");
    REQUIRE_FALSE(s.ok());
    CHECK_MESSAGE(contains(s.error().message, "bad.json"), s.error().message);
    CHECK_MESSAGE(contains(s.error().message, c.expect), s.error().message);
  }
}

TEST_CASE("scene file: a failed save never replaces the existing file") {
  io::Scene s;
  s.grid = Grid::create(4, 4).value();
  auto st = io::save_scene(s, "/nonexistent_dir/scene.json");
  REQUIRE_FALSE(st.ok());
  CHECK(contains(st.error().message, "/nonexistent_dir/scene.json"));
}

TEST_CASE("scene file: the shipped demo scene loads") {
  auto s = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json");
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  CHECK(s->grid.is_free(cell_of(s->start.pos)));
  CHECK(s->grid.is_free(cell_of(s->goal.pos)));
}

TEST_CASE("scene file: version 2 keeps units and the new settings; version 1 still loads") {
  io::Scene s;
  s.grid = Grid::create(8, 6).value();
  s.start = Pose{Vec2(1.5, 1.5), 0.0};
  s.goal = Pose{Vec2(6.5, 4.5), deg_to_rad(90.0)};
  s.settings.planner = "hybrid";
  s.settings.headings = 36;
  s.settings.neighborhood = 48;
  s.settings.shift_passes = 3;
  s.settings.navmesh_corners = false;  // the default since issue 28; it overrides navmesh_convex
  s.settings.navmesh_convex = false;
  s.units = {io::UnitData{"car", Pose{Vec2(1.5, 1.5), deg_to_rad(45.0)}, std::nullopt}, io::UnitData{"bear", s.goal, std::nullopt}};
  s.sim_speed = 2.5;
  auto back = io::parse_scene(io::scene_to_json(s), "mem", ".");
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  CHECK(back->settings.headings == 36);
  CHECK(back->settings.neighborhood == 48);
  CHECK(back->settings.shift_passes == 3);
  CHECK_FALSE(back->settings.navmesh_convex);
  CHECK_FALSE(back->settings.cc);
  // "cc" (issue 16) is written only when set, so files without it keep their bytes.
  CHECK(io::scene_to_json(s).find("\"cc\"") == std::string::npos);
  s.settings.cc = true;
  auto with_cc = io::parse_scene(io::scene_to_json(s), "mem", ".");
  REQUIRE(with_cc.ok());
  CHECK(with_cc->settings.cc);
  s.settings.cc = false;
  REQUIRE(back->units.size() == 2);
  CHECK(back->units[0].preset == "car");
  CHECK(back->units[0].pose.heading == doctest::Approx(deg_to_rad(45.0)));
  CHECK(back->sim_speed == 2.5);
  // The shipped demo is a version 1 file.
  auto demo = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json");
  REQUIRE(demo.ok());
  CHECK(demo->units.empty());
  // Bad units are errors that say where.
  auto bad = io::parse_scene(R"({"pathlab_scene": 2, "map": {"width": 2, "height": 1, "rows": [".."]},
                                 "start": [0.5, 0.5], "goal": [1.5, 0.5], "units": [{"preset": "car"}]})",
                             "mem", ".");
  REQUIRE_FALSE(bad.ok());
  CHECK(contains(bad.error().message, "units[0]"));
  auto newer = io::parse_scene(R"({"pathlab_scene": 4})", "mem", ".");
  REQUIRE_FALSE(newer.ok());
  CHECK(contains(newer.error().message, "newer"));
}

// Issue 17 (hostile input). A scene whose settings.agent_radius is 100,000 nested objects
// overflowed the stack (json::value copied the subtree recursively); 1e400 escaped as an
// uncaught out_of_range exception. Both now fail with FILE:LINE and the key.
TEST_CASE("scene file: deep nesting is refused by line and key, without recursion") {
  const std::string head = "{\"pathlab_scene\": 2, \"map\": {\"width\": 2, \"height\": 1, \"rows\": [\"..\"]},\n"
                           "\"start\": [0,0], \"goal\": [1,0],\n\"settings\": {\"agent_radius\": ";
  for (const char* open : {"{\"x\":", "["}) {
    std::string text = head;
    const int depth = 100000;
    for (int i = 0; i < depth; ++i) text += open;
    text += "1";
    for (int i = 0; i < depth; ++i) text += open[0] == '[' ? "]" : "}";
    text += "}}";
    auto s = io::parse_scene(text, "deep.json", ".");
    REQUIRE_FALSE(s.ok());
    CHECK_MESSAGE(contains(s.error().message, "deep.json:3: "), s.error().message);
    CHECK_MESSAGE(contains(s.error().message, "nesting deeper than 64"), s.error().message);
    CHECK_MESSAGE(contains(s.error().message, "settings.agent_radius"), s.error().message);
    CHECK(s.error().message.size() < 400);
  }
  // Nesting within the limit still parses (and is then judged by the schema).
  std::string ok = head + "1}}";
  CHECK(io::parse_scene(ok, "ok.json", ".").ok());
}

TEST_CASE("scene file: numbers outside a double and other JSON exceptions name file and line") {
  const std::string text = "{\"pathlab_scene\": 2,\n \"map\": {\"width\": 2, \"height\": 1, \"rows\": [\"..\"]},\n"
                           " \"start\": [0, 1e400], \"goal\": [1,0]}";
  auto s = io::parse_scene(text, "big.json", ".");
  REQUIRE_FALSE(s.ok());
  CHECK_MESSAGE(contains(s.error().message, "big.json:3: start[1]: the number 1e400 is outside the range"),
                s.error().message);
  // A syntax error names its line.
  auto bad = io::parse_scene("{\n\"pathlab_scene\": 2,\n ]", "syntax.json", ".");
  REQUIRE_FALSE(bad.ok());
  CHECK_MESSAGE(contains(bad.error().message, "syntax.json:3: not valid JSON"), bad.error().message);
  // Integers beyond int range are refused, not wrapped into the map.
  auto wrap = io::parse_scene(R"({"pathlab_scene": 2, "map": {"width": 2, "height": 1, "rows": [".."],
      "weights": [[4294967296, 0, 2]]}, "start": [0,0], "goal": [1,0]})", "wrap.json", ".");
  REQUIRE_FALSE(wrap.ok());
  CHECK_MESSAGE(contains(wrap.error().message, "map.weights[0] is outside the map"), wrap.error().message);
  auto version = io::parse_scene(R"({"pathlab_scene": 4294967298})", "v.json", ".");
  REQUIRE_FALSE(version.ok());
  CHECK_MESSAGE(contains(version.error().message, "newer than this pathlab"), version.error().message);
  // Control bytes in a key never reach the message raw.
  auto ctrl = io::parse_scene("{\"pathlab_scene\": 2, \"a\x01\n\": [1e999]}", "ctrl.json", ".");
  REQUIRE_FALSE(ctrl.ok());
  CHECK(ctrl.error().message.find('\n') == std::string::npos);
  CHECK(ctrl.error().message.find('\x01') == std::string::npos);
  // A map row quoting a non-ASCII letter: the unknown cell is named by its byte, \xDB, not raw
  // (found by fuzz_scene_json in CI).
  auto utf8 = io::parse_scene(R"({"pathlab_scene":1,"map":{"width":2,"height":1,"rows":["\u06c0"]}})", "utf8.json", ".");
  REQUIRE_FALSE(utf8.ok());
  CHECK_MESSAGE(contains(utf8.error().message, "unknown cell '\\xDB'"), utf8.error().message);
  for (const char c : utf8.error().message) CHECK(static_cast<unsigned char>(c) < 127);
}

namespace {

io::Scene crowd_scene() {
  io::Scene s;
  s.name = "crowd";
  s.grid = Grid::create(32, 20).value();
  s.start = Pose{Vec2(1.5, 1.5), 0.0};
  s.goal = Pose{Vec2(30.5, 18.5), 0.0};
  s.units = {io::UnitData{"person", Pose{Vec2(2.5, 3.5), deg_to_rad(17.3)}, Pose{Vec2(29.25, 3.5), deg_to_rad(-123.4)}},
             io::UnitData{"car", Pose{Vec2(4.5, 9.5), 0.1}, std::nullopt}};
  s.doors = {DoorDef{Cell{10, 0}, Cell{10, 4}, false, {1.5, 2.0, 7.25}}, DoorDef{Cell{3, 3}, Cell{3, 3}, true, {}}};
  MovingObstacleDef truck;
  truck.half_extents = Vec2(1.75, 0.6);
  truck.route = {Vec2(0.5, 10.0), Vec2(31.5, 10.0), Vec2(31.5, 19.0)};
  truck.speed = 2.5;
  truck.start_time = 3.0;
  truck.loop = true;
  s.moving_obstacles = {truck};
  return s;
}

const char* kHead = "{\"pathlab_scene\": 3,\n\"map\": {\"width\": 8, \"height\": 4, \"rows\": [\"........\", \"........\", \"........\", \"........\"]},\n"
                    "\"start\": [0.5, 0.5], \"goal\": [7.5, 3.5],\n";

}  // namespace

TEST_CASE("scene file: version 3 keeps unit goals, doors and moving obstacles, byte for byte") {
  const io::Scene s = crowd_scene();
  const std::string first = io::scene_to_json(s);
  CHECK(contains(first, "\"pathlab_scene\": 3"));
  auto back = io::parse_scene(first, "mem", ".");
  REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
  REQUIRE(back->units.size() == 2);
  REQUIRE(back->units[0].goal.has_value());
  CHECK(back->units[0].goal->pos == Vec2(29.25, 3.5));
  CHECK(back->units[0].goal->heading == doctest::Approx(deg_to_rad(-123.4)).epsilon(1e-14));
  CHECK_FALSE(back->units[1].goal.has_value());
  REQUIRE(back->doors.size() == 2);
  CHECK(back->doors[0].lo == Cell{10, 0});
  CHECK(back->doors[0].hi == Cell{10, 4});
  CHECK_FALSE(back->doors[0].open_at_start);
  CHECK(back->doors[0].toggle_times == std::vector<double>{1.5, 2.0, 7.25});
  CHECK(back->doors[1].open_at_start);
  REQUIRE(back->moving_obstacles.size() == 1);
  const MovingObstacleDef& m = back->moving_obstacles[0];
  CHECK(m.half_extents == Vec2(1.75, 0.6));
  CHECK(m.route == s.moving_obstacles[0].route);
  CHECK(m.speed == 2.5);
  CHECK(m.start_time == 3.0);
  CHECK(m.loop);
  // Save, load, save: the same bytes (headings go through degrees and back).
  CHECK(io::scene_to_json(*back) == first);
  auto again = io::parse_scene(io::scene_to_json(*back), "mem2", ".");
  REQUIRE(again.ok());
  CHECK(io::scene_to_json(*again) == first);
}

TEST_CASE("scene file: crowd keys are optional and default as documented") {
  auto s = io::parse_scene(std::string(kHead) + R"("doors": [{"cells": [2, 0, 2, 3]}],
      "moving_obstacles": [{"route": [[0.5, 1.5], [7.5, 1.5]]}]})", "mem", ".");
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  REQUIRE(s->doors.size() == 1);
  CHECK(s->doors[0].open_at_start);
  CHECK(s->doors[0].toggle_times.empty());
  REQUIRE(s->moving_obstacles.size() == 1);
  const MovingObstacleDef defaults;
  CHECK(s->moving_obstacles[0].half_extents == defaults.half_extents);
  CHECK(s->moving_obstacles[0].speed == defaults.speed);
  CHECK(s->moving_obstacles[0].start_time == 0.0);
  CHECK_FALSE(s->moving_obstacles[0].loop);
  // A version 2 file with units and no crowd keys still loads, without goals.
  auto v2 = io::parse_scene(R"({"pathlab_scene": 2, "map": {"width": 3, "height": 1, "rows": ["..."]},
      "start": [0.5, 0.5], "goal": [2.5, 0.5], "units": [{"preset": "tank", "pose": [1.5, 0.5, 90]}]})", "v2", ".");
  REQUIRE(v2.ok());
  REQUIRE(v2->units.size() == 1);
  CHECK_FALSE(v2->units[0].goal.has_value());
  CHECK(v2->doors.empty());
  CHECK(v2->moving_obstacles.empty());
}

TEST_CASE("scene file: bad doors, trucks and unit goals name the file, the line and the key") {
  struct Case {
    std::string tail;
    const char* expect;
  };
  const Case cases[] = {
      {R"("doors": [{"cells": [2, 0, 2, 3]},
{"cells": [2, 0, 9, 3]}]})", "bad.json:5: doors[1].cells[2] is outside the map (0..7)"},
      {R"("doors": [{"cells": [2, 0, 2, -1]}]})", "bad.json:4: doors[0].cells[3] is outside the map"},
      {R"("units": [{"preset": "tank", "pose": [1.5, 1.5], "turning_radius": 0}]})",
       "units[0].turning_radius must be in (0, 1000] cells"},
      {R"("units": [{"preset": "tank", "pose": [1.5, 1.5], "turning_radius": "3"}]})", "units[0].turning_radius must be a number"},
      {R"("doors": [{"cells": [4, 0, 2, 3]}]})", "doors[0].cells must have x0 <= x1"},
      {R"("doors": [{"cells": [2, 0, 2]}]})", "doors[0].cells must be [x0, y0, x1, y1]"},
      {R"("doors": [{"cells": [2, 0, 2.5, 3]}]})", "doors[0].cells[2] must be an integer cell"},
      {R"("doors": [{"open": true}]})", "doors[0].cells is missing"},
      {R"("doors": [{"cells": [2, 0, 2, 3], "open": 1}]})", "doors[0].open must be true or false"},
      {"\"doors\": [{\"cells\": [2, 0, 2, 3],\n \"toggles\": [1, 3,\n 2]}]}",
       "bad.json:6: doors[0].toggles[2] must be after the toggle before it"},
      {R"("doors": [{"cells": [2, 0, 2, 3], "toggles": [1, 1]}]})", "doors[0].toggles[1] must be after"},
      {R"("doors": [{"cells": [2, 0, 2, 3], "toggles": [-1]}]})", "doors[0].toggles[0] must be >= 0"},
      {R"("doors": [{"cells": [2, 0, 2, 3], "toggles": ["soon"]}]})", "doors[0].toggles[0] must be a number"},
      {R"("doors": {"cells": [2, 0, 2, 3]}})", "doors must be an array"},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5]]}]})", "moving_obstacles[0].route needs at least 2 points"},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5], [9.5, 1.5]]}]})", "moving_obstacles[0].route[1] is outside the map"},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5], [0.5, 1.5]]}]})", "route[1] repeats the point before it"},
      {R"("moving_obstacles": [{"loop": true, "route": [[0.5, 1.5], [5.5, 1.5], [0.5, 1.5]]}]})",
       "moving_obstacles[0].route of a loop must not end where it starts"},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5], [5.5, 1.5]], "speed": 0}]})", "moving_obstacles[0].speed must be in (0, "},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5], [5.5, 1.5]], "size": [0, 1]}]})", "moving_obstacles[0].size[0] must be in (0, 128]"},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5], [5.5, 1.5]], "size": [3]}]})", "moving_obstacles[0].size must be [length, width]"},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5], [5.5, 1.5]], "start": -2}]})", "moving_obstacles[0].start must be >= 0"},
      {R"("moving_obstacles": [{"route": [[0.5, 1.5], [5.5, 1.5]], "loop": "yes"}]})", "moving_obstacles[0].loop must be true or false"},
      {R"("moving_obstacles": [{"speed": 1}]})", "moving_obstacles[0].route is missing"},
      {R"("units": [{"preset": "car", "pose": [1, 1], "goal": [1]}]})", "units[0].goal must be [x, y, deg]"},
      {R"("units": [{"preset": "car", "pose": [1, 1], "goal": [1, "x"]}]})", "units[0].goal[1] must be a number"},
      {R"("units": [{"preset": "car"}]})", "units[0].pose is missing"},
  };
  for (const auto& c : cases) {
    const std::string text = std::string(kHead) + c.tail;
    CAPTURE(text);
    auto s = io::parse_scene(text, "bad.json", ".");
    REQUIRE_FALSE(s.ok());
    CHECK_MESSAGE(contains(s.error().message, "bad.json:"), s.error().message);
    CHECK_MESSAGE(contains(s.error().message, c.expect), s.error().message);
  }
}

TEST_CASE("scene file: huge door, truck and point counts are refused before they are built") {
  std::string many_doors = std::string(kHead) + "\"doors\": [";
  for (size_t i = 0; i <= io::kMaxSceneDoors; ++i) many_doors += std::string(i ? "," : "") + "{\"cells\": [0, 0, 0, 0]}";
  many_doors += "]}";
  auto d = io::parse_scene(many_doors, "doors.json", ".");
  REQUIRE_FALSE(d.ok());
  CHECK_MESSAGE(contains(d.error().message, "doors.json:4: doors has more than 4096 entries"), d.error().message);
  // Toggle times and route points share one cap.
  std::string toggles = "[";
  for (size_t i = 0; i < 60000; ++i) toggles += (i ? "," : "") + std::to_string(i);
  toggles += "]";
  std::string route = "[";
  for (size_t i = 0; i < 50000; ++i) route += std::string(i ? "," : "") + (i % 2 ? "[0.5, 0.5]" : "[1.5, 0.5]");
  route += "]";
  auto p = io::parse_scene(std::string(kHead) + "\"doors\": [{\"cells\": [0, 0, 0, 0], \"toggles\": " + toggles +
                               "}],\n\"moving_obstacles\": [{\"route\": " + route + "}]}",
                           "points.json", ".");
  REQUIRE_FALSE(p.ok());
  CHECK_MESSAGE(contains(p.error().message, "points.json:5: moving_obstacles[0].route has more than 40000 entries"),
                p.error().message);
  // NaN cannot be written in JSON; 1e400 is caught by the guard with its key.
  auto nan = io::parse_scene(std::string(kHead) + "\"doors\": [{\"cells\": [0, 0, 0, 0], \"toggles\": [1e400]}]}", "nan.json", ".");
  REQUIRE_FALSE(nan.ok());
  CHECK_MESSAGE(contains(nan.error().message, "nan.json:4: doors[0].toggles[0]: the number 1e400"), nan.error().message);
}

TEST_CASE("scene file: a key's line is found through nesting, strings and duplicates") {
  const std::string text = "{\"a\": \"[{,:\\\"\",\n \"doors\": [\n  {\"cells\": [1,\n 2]},\n  {\"cells\": \n[3, 4]}]}";
  CHECK(line_of_offset_helper(text, "doors") == 2);
  CHECK(line_of_offset_helper(text, "doors[1].cells") == 6);
  CHECK(line_of_offset_helper(text, "doors[0].cells[1]") == 4);
  // A missing key points at its longest present prefix.
  CHECK(line_of_offset_helper(text, "doors[1].toggles[3]") == 5);
  CHECK(line_of_offset_helper(text, "units[0]") == 1);
}

TEST_CASE("scene file: headings keep their bytes through save, load and save") {
  // Headings come from atan2 in the sandbox: arbitrary doubles. Degrees in the file must not
  // drift in the last digit from one save to the next.
  io::Scene s;
  s.grid = Grid::create(4, 4).value();
  uint64_t x = 88172645463325252ull;  // xorshift64 (Marsaglia 2003), fixed seed
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<double>(x >> 11) / 9007199254740992.0;  // [0, 1)
  };
  for (int i = 0; i < 2000; ++i) {
    const double h = (next() * 2.0 - 1.0) * kPi;
    s.units.push_back(io::UnitData{"person", Pose{Vec2(1.5, 1.5), h}, Pose{Vec2(2.5, 2.5), -h * 0.5}});
  }
  s.start.heading = 0.1234567891234;
  const std::string first = io::scene_to_json(s);
  auto back = io::parse_scene(first, "mem", ".");
  REQUIRE(back.ok());
  CHECK(io::scene_to_json(*back) == first);
  // Each heading comes back within an ulp or two (degrees cannot hold every radian exactly);
  // from the first save on, the bytes no longer move.
  double worst = 0.0;
  for (size_t i = 0; i < s.units.size(); ++i)
    worst = std::max(worst, std::abs(back->units[i].pose.heading - s.units[i].pose.heading));
  CHECK(worst <= 4.0 * std::numeric_limits<double>::epsilon() * kPi);
}

TEST_CASE("scene file: a unit's own turning radius is kept, and makes it keep that radius (no pivoting)") {
  io::Scene s = crowd_scene();
  s.units[1] = io::UnitData{"tank", Pose{Vec2(4.5, 9.5), 0.1}, std::nullopt, 3.0};
  const std::string text = io::scene_to_json(s);
  CHECK(contains(text, "\"turning_radius\""));
  auto back = io::parse_scene(text, "mem", ".");
  REQUIRE(back.ok());
  CHECK(back->units[1].turning_radius == 3.0);
  CHECK_FALSE(back->units[0].turning_radius.has_value());
  CHECK(io::scene_to_json(*back) == text);
  const UnitDef own = io::scene_unit_def(back->units[1]).value();
  CHECK(own.turning_radius == 3.0);
  CHECK(own.pivot_turn_rate == 0.0);
  const UnitDef preset = io::scene_unit_def(io::UnitData{"tank", Pose{}, std::nullopt}).value();
  CHECK(preset.turning_radius == 0.0);  // the preset's tracks: it may turn on the spot
  CHECK(preset.pivot_turn_rate > 0.0);
  CHECK(io::crowd_agents(*back).value()[1].unit.turning_radius == 3.0);
}
