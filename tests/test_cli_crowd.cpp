// pathlab-cli crowd: the JSON Lines contract (header, frames, summary), the same bytes twice,
// and bad input giving exit status 2 with one error line naming the file and line.

#include <doctest/doctest.h>

#include <sstream>

#include "cli_support.hpp"

using pathlab::test::check_usage_error;
using pathlab::test::run_cli;
using pathlab::test::write_temp;

namespace {

const std::string kDir = std::string(PATHLAB_ASSETS_DIR) + "/crowd/";

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

}  // namespace

TEST_CASE("cli crowd: the doorway queue as JSON Lines") {
  const std::string args = "crowd --map " + kDir + "doorway.map --agents " + kDir + "doorway_queue.agents --json --every 60";
  const auto r = run_cli(args);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  const auto lines = json_lines(r.out);
  REQUIRE(lines.size() >= 3);
  const auto& header = lines.front();
  REQUIRE(header.at("agents").size() == 8);
  CHECK(header.at("agents")[0].at("preset") == "person");
  CHECK(header.at("agents")[0].at("radius").get<double>() == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(header.at("agents")[0].at("max_speed").get<double>() == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(header.at("agents")[3].at("goal") == nlohmann::json::array({19.5, 7.5}));
  const double dt = header.at("dt").get<double>();
  CHECK(dt == doctest::Approx(1.0 / 60.0).epsilon(1e-12));
  const auto& summary = lines.back().at("summary");
  CHECK(summary.at("agents") == 8);
  CHECK(summary.at("arrived") == 8);
  CHECK(summary.at("wall_contacts").get<int>() >= 0);
  CHECK(summary.at("min_separation").get<double>() >= -1e-9);
  double last_arrival = 0.0;
  for (const auto& t : summary.at("time_to_goal")) last_arrival = std::max(last_arrival, t.get<double>());
  // Frames: t = 0, then every 60 steps, then the last one (when everyone has arrived).
  const size_t frames = lines.size() - 2;
  CHECK(lines[1].at("t").get<double>() == 0.0);
  CHECK(lines[2].at("t").get<double>() == doctest::Approx(60 * dt).epsilon(1e-9));
  const auto& last = lines[lines.size() - 2];
  CHECK(last.at("t").get<double>() == doctest::Approx(last_arrival).epsilon(1e-12));
  const long long steps = std::llround(last_arrival / dt);
  CHECK(frames == static_cast<size_t>(1 + steps / 60 + (steps % 60 != 0 ? 1 : 0)));
  for (size_t k = 1; k + 1 < lines.size(); ++k) {
    REQUIRE(lines[k].at("pos").size() == 8);
    CHECK(lines[k].at("pos")[0].size() == 4);
  }
  CHECK(run_cli(args).out == r.out);  // the same bytes twice
}

TEST_CASE("cli crowd: doors, a moving obstacle, --max-time and the human summary") {
  auto r = run_cli("crowd --map " + kDir + "two_doors.map --agents " + kDir + "door_closes.agents --doors " + kDir +
                   "door_closes.doors --json --every 1000");
  REQUIRE(r.status == 0);
  auto lines = json_lines(r.out);
  CHECK(lines.back().at("summary").at("arrived") == 2);
  CHECK(lines.back().at("summary").at("replans").get<int>() >= 1);  // the door closed on their route
  r = run_cli("crowd --map " + kDir + "street.map --agents " + kDir + "truck.agents --obstacles " + kDir +
              "truck.obstacles --max-time 2 --json --every 1000");
  REQUIRE(r.status == 0);
  lines = json_lines(r.out);
  CHECK(lines[lines.size() - 2].at("t").get<double>() == doctest::Approx(2.0).epsilon(1e-9));
  CHECK(lines.back().at("summary").at("arrived") == 0);
  CHECK(lines.back().at("summary").at("time_to_goal")[0].is_null());
  r = run_cli("crowd --map " + kDir + "street.map --agents " + kDir + "truck.agents --obstacles " + kDir + "truck.obstacles");
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("arrived: 6/6\n", 0) == 0);
}

TEST_CASE("cli crowd: a unit that cannot arrive says why") {
  const std::string map = write_temp("crowd_walled.map",
                                     "type octile\nheight 3\nwidth 8\nmap\n....@...\n....@...\n....@...\n");
  const std::string agents2 = write_temp("crowd_walled2.agents", "person 1.5 1.5 0 6.5 1.5\n");
  const auto r = run_cli("crowd --map " + map + " --agents " + agents2 + " --max-time 1 --json");
  REQUIRE(r.status == 0);
  const auto lines = json_lines(r.out);
  const auto& s = lines.back().at("summary");
  CHECK(s.at("arrived") == 0);
  CHECK(s.at("why")[0].get<std::string>().find("no route") != std::string::npos);
}

TEST_CASE("cli crowd: one unit has no separation to measure: null in the human and the JSON summary") {
  const std::string map = write_temp("crowd_alone.map", "type octile\nheight 3\nwidth 8\nmap\n........\n........\n........\n");
  const std::string agents = write_temp("crowd_alone.agents", "person 1.5 1.5 0 6.5 1.5\n");
  const std::string args = "crowd --map " + map + " --agents " + agents;
  const auto human = run_cli(args);
  REQUIRE(human.status == 0);
  CHECK(human.out.find("\nmin_separation: null\n") != std::string::npos);
  CHECK(human.out.find("inf") == std::string::npos);
  const auto json = run_cli(args + " --json");
  REQUIRE(json.status == 0);
  const auto lines = json_lines(json.out);
  const auto& s = lines.back().at("summary");
  CHECK(s.at("arrived") == 1);
  CHECK(s.at("min_separation").is_null());
  // Two units have a gap: a number in both outputs.
  const std::string two = write_temp("crowd_two.agents", "person 1.5 0.5 0 6.5 0.5\nperson 1.5 2.5 0 6.5 2.5\n");
  const auto pair = run_cli("crowd --map " + map + " --agents " + two);
  REQUIRE(pair.status == 0);
  const size_t at = pair.out.find("\nmin_separation: ");
  REQUIRE(at != std::string::npos);
  const double gap = std::stod(pair.out.substr(at + 17));
  CHECK(gap > 0.0);
  CHECK(gap <= 1.4 + 1e-9);  // 2 cells apart at the start, radii 0.3
}

TEST_CASE("cli crowd: bad input is exit 2 with the file and line") {
  const std::string map = kDir + "doorway.map";
  const std::string base = "crowd --map " + map + " --agents ";
  const std::string ok = write_temp("crowd_ok.agents", "person 3 4.5 0 19.5 7.5\n");
  check_usage_error(base + write_temp("crowd_a1.agents", "# c\nperson 3 4.5 0 19.5 7.5\ndragon 3 6 0 19 7\n"),
                    "crowd_a1.agents:3");
  check_usage_error(base + write_temp("crowd_a2.agents", "person 3 4.5 0 19.5\n"), "crowd_a2.agents:1");
  check_usage_error(base + write_temp("crowd_a3.agents", "person 3 x 0 19.5 7.5\n"), "crowd_a3.agents:1");
  check_usage_error(base + write_temp("crowd_a4.agents", "person 12.5 3.5 0 19.5 7.5\n"), "crowd_a4.agents:1");
  check_usage_error(base + write_temp("crowd_a5.agents", "person 3 4.5 0 19.5 7.5\nperson 3.2 4.5 0 19.5 7.5\n"),
                    "crowd_a5.agents:2");
  check_usage_error(base + write_temp("crowd_a6.agents", "person 3 4.5 0 99 7.5\n"), "crowd_a6.agents:1");
  check_usage_error(base + write_temp("crowd_a7.agents", "person 3 4.5 nan 19 7.5\n"), "crowd_a7.agents:1");
  check_usage_error(base + write_temp("crowd_a8.agents", "# nothing\n"), "crowd_a8.agents");
  check_usage_error(base + "/nonexistent/crowd.agents", "crowd.agents");
  check_usage_error(base + ok + " --dt 0", "--dt");
  check_usage_error(base + ok + " --max-time -1", "--max-time");
  check_usage_error(base + ok + " --max-time 1e9 --dt 0.001", "--max-time");
  check_usage_error(base + ok + " --every 0", "--every");
  check_usage_error(base + ok + " --threads 0", "--threads");
  check_usage_error(base + ok + " --threads 65", "--threads");
  check_usage_error(base + ok + " --threads two", "--threads");
  check_usage_error(base + ok + " --speed 3", "--speed");
  check_usage_error("crowd --map " + map, "--agents");
  check_usage_error(base + ok + " --doors " + write_temp("crowd_d1.doors", "1 1 2 2 ajar\n"), "crowd_d1.doors:1");
  check_usage_error(base + ok + " --doors " + write_temp("crowd_d2.doors", "1 1 99 2 open\n"), "crowd_d2.doors:1");
  check_usage_error(base + ok + " --doors " + write_temp("crowd_d3.doors", "1 1 2 2 open 5 3\n"), "crowd_d3.doors:1");
  check_usage_error(base + ok + " --obstacles " + write_temp("crowd_o1.obst", "3 1.5 2 0 once 1 1\n"), "crowd_o1.obst:1");
  check_usage_error(base + ok + " --obstacles " + write_temp("crowd_o2.obst", "3 1.5 -2 0 once 1 1 5 5\n"),
                    "crowd_o2.obst:1");
  check_usage_error(base + ok + " --obstacles " + write_temp("crowd_o3.obst", "3 1.5 2 0 once 1 1 500 5\n"),
                    "crowd_o3.obst:1");
}

TEST_CASE("cli crowd --threads: the doorway queue prints the same lines with 1 and 3 threads") {
  const std::string args = "crowd --map " + kDir + "doorway.map --agents " + kDir + "doorway_queue.agents --json --every 10";
  const auto one = run_cli(args + " --threads 1");
  const auto three = run_cli(args + " --threads 3");
  REQUIRE(one.status == 0);
  REQUIRE(three.status == 0);
  CHECK(json_lines(one.out).size() >= 3);
  CHECK(one.out == three.out);
}

TEST_CASE("cli crowd: a huge start heading neither hangs nor fails") {
  const std::string agents = write_temp("crowd_huge_deg.agents", "tank 3 4.5 1e300 8 4.5\n");
  const auto r = run_cli("crowd --map " + kDir + "doorway.map --agents " + agents + " --max-time 1 --json --every 1000");
  REQUIRE(r.status == 0);
  CHECK(json_lines(r.out).back().at("summary").at("agents") == 1);
}

TEST_CASE("cli crowd --scene: units with their own goals, doors and trucks from a scene file") {
  const std::string scenes = std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/";
  const std::string args = "crowd --scene " + scenes + "doorway.json --json --every 120";
  const auto r = run_cli(args);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const auto lines = json_lines(r.out);
  REQUIRE(lines.size() >= 3);
  const auto& agents = lines.front().at("agents");
  REQUIRE(agents.size() == 8);
  CHECK(agents[0].at("goal") == nlohmann::json::array({18.5, 3.5}));  // unit 0's own goal
  CHECK(agents[7].at("goal") == nlohmann::json::array({20.5, 10.5}));
  CHECK(lines.back().at("summary").at("arrived") == 8);
  CHECK(run_cli(args).out == r.out);  // the same bytes twice
  // The truck scene: the truck is there (people's paths bend round it) and everyone arrives.
  const auto t = run_cli("crowd --scene " + scenes + "garbage-truck.json");
  REQUIRE_MESSAGE(t.status == 0, t.err);
  CHECK(t.out.find("arrived: 6/6") != std::string::npos);
}

TEST_CASE("cli crowd --scene: bad input is exit 2 naming the file and line") {
  const std::string head = "{\"pathlab_scene\": 3,\n\"map\": {\"width\": 6, \"height\": 3, \"rows\": [\"......\", \"...@..\", \"......\"]},\n"
                           "\"start\": [0.5, 0.5], \"goal\": [5.5, 2.5],\n";
  const std::string good = write_temp("crowd_scene_ok.json", head + "\"units\": [{\"pose\": [0.5, 0.5], \"goal\": [5.5, 0.5]}]}");
  check_usage_error("crowd --scene " + good + " --map " + kDir + "doorway.map", "cannot be combined");
  // A unit starting inside a wall: the core refuses it, the message points at its line.
  const std::string wall = write_temp("crowd_scene_wall.json", head + "\"units\": [{\"pose\": [0.5, 0.5], \"goal\": [5.5, 0.5]},\n"
                                                                     "{\"pose\": [3.5, 1.5], \"goal\": [5.5, 2.5]}]}");
  check_usage_error("crowd --scene " + wall, "crowd_scene_wall.json:5: units[1]");
  // Two that cannot be placed (one off the map): the first named, the other counted.
  const std::string two = write_temp("crowd_scene_two.json", head + "\"units\": [{\"pose\": [3.5, 1.5]},\n"
                                                                    "{\"pose\": [0.5, 0.5]}, {\"pose\": [9.5, 0.5]}]}");
  check_usage_error("crowd --scene " + two, "units[0]");
  check_usage_error("crowd --scene " + two, "(and 1 more units not placed)");
  const std::string door = write_temp("crowd_scene_door.json", head + "\"doors\": [{\"cells\": [0, 0, 9, 0]}]}");
  check_usage_error("crowd --scene " + door, "crowd_scene_door.json:4: doors[0].cells[2] is outside the map");
  check_usage_error("crowd --scene /nonexistent/s.json", "/nonexistent/s.json");
  check_usage_error("crowd --agents " + kDir + "doorway_queue.agents", "missing --map");
}

TEST_CASE("cli crowd: the summary reports the longest lock and whose it was, in JSON and text; arrived matches time_to_goal") {
  // A truck whose route ends against a unit that cannot get out of its way (a dead end two
  // cells wide): the truck is locked, and the summary says so.
  const std::string map = write_temp("crowd_dead_end.map",
                                     "type octile\nheight 5\nwidth 13\nmap\n@@@@@@@@@@@@@\n.............\n.............\n"
                                     "@@@@@@@@@@@@@\n....@........\n");
  // The second unit is walled off from its goal: it waits (not a lock) and keeps the run going.
  const std::string agents = write_temp("crowd_dead_end.agents", "person 11.9 2.0 0 11.9 2.0\nperson 1.5 4.5 0 6.5 4.5\n");
  const std::string trucks = write_temp("crowd_dead_end.obstacles", "3 1.5 2 0 once 2 2 11 2\n");
  const std::string args = "crowd --map " + map + " --agents " + agents + " --obstacles " + trucks + " --max-time 30";
  const auto j = run_cli(args + " --json --every 100000");
  REQUIRE(j.status == 0);
  const auto lines = json_lines(j.out);
  const auto& s = lines.back().at("summary");
  CHECK(s.at("longest_lock").get<double>() > 15.0);
  const std::string by = s.at("longest_lock_by").get<std::string>();
  CHECK((by == "moving obstacle 0" || by == "agent 0"));
  int with_time = 0;
  for (const auto& t : s.at("time_to_goal")) with_time += t.is_null() ? 0 : 1;
  CHECK(s.at("arrived").get<int>() == with_time);  // arrived now <=> a time to goal
  const auto h = run_cli(args);
  REQUIRE(h.status == 0);
  CHECK(h.out.find("\nlongest_lock: ") != std::string::npos);
  CHECK(h.out.find(" " + by + "\n") != std::string::npos);
  // The bundled truck scene: nothing locked for long.
  const auto ok = run_cli("crowd --scene " + std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/garbage-truck.json --json --every 100000");
  REQUIRE(ok.status == 0);
  const auto ok_lines = json_lines(ok.out);
  const auto& t = ok_lines.back().at("summary");
  CHECK(t.at("longest_lock").get<double>() <= 10.0);
  CHECK(t.at("arrived") == 6);
}
