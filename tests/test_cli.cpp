// The pathlab-cli contract: what scripts and bug reports rely on.

#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "test_support.hpp"

using namespace pathlab;
using test::run_cli;
using json = nlohmann::json;

namespace {

const std::string kArena = test::movingai("arena.map");

bool one_error_line(const test::CliRun& r, const std::string& part) {
  return r.status == 2 && r.err.rfind("error: ", 0) == 0 && r.err.find(part) != std::string::npos &&
         r.err.find('\n') == r.err.size() - 1;
}

}  // namespace

TEST_CASE("cli: plan one query as JSON") {
  auto r = run_cli("plan --map " + kArena + " --from 1,11 --to 30,40 --planner astar --json");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  CHECK(j["found"] == true);
  CHECK(j["points"].size() >= 2);
  CHECK(j["points"][0] == json::array({1.5, 11.5}));
  CHECK(j["points"].back() == json::array({30.5, 40.5}));
  CHECK(j["expanded"].get<int64_t>() > 0);
  CHECK(j["time_us"].get<double>() >= 0);
  // Same length as the library, to the last bit (numbers round-trip).
  auto grid = load_movingai_map(kArena);
  auto lib = find_grid_path(*grid, GridPlanner::astar, Cell{1, 11}, Cell{30, 40});
  CHECK(j["length"].get<double>() == lib->length);
  CHECK(r.err.empty());
}

TEST_CASE("cli: every planner and the los smoother") {
  for (const char* p : {"astar", "jps", "theta", "dijkstra"}) {
    for (const char* s : {"none", "los"}) {
      auto r = run_cli(std::string("plan --map ") + kArena + " --from 1,11 --to 30,40 --json --planner " + p +
                       " --smoother " + s);
      CAPTURE(p);
      CAPTURE(s);
      REQUIRE(r.status == 0);
      CHECK(json::parse(r.out)["found"] == true);
    }
  }
  auto tp = run_cli("plan --map " + kArena + " --from 1,11 --to 30,40 --json --turn-penalty 0.5 --connectivity 8");
  REQUIRE(tp.status == 0);
  auto ar = run_cli("plan --map " + kArena + " --from 5,11 --to 30,40 --json --agent-radius 0.8 --planner jps");
  REQUIRE(ar.status == 0);
}

TEST_CASE("cli: batch queries give JSON Lines in order, headings when asked") {
  const std::string q = test::write_temp("queries.txt",
                                         "# comment\n1 11 30 40\n\n1 11 90 30 40 0\r\n2 2 2 2\n1 11 1 12\n1 11 0 1 12 0\n");
  auto r = run_cli("plan --map " + kArena + " --queries " + q + " --planner jps");
  REQUIRE(r.status == 0);
  std::istringstream lines(r.out);
  std::string line;
  std::vector<json> rows;
  while (std::getline(lines, line)) rows.push_back(json::parse(line));
  REQUIRE(rows.size() == 5);
  CHECK(rows[0]["points"][0].size() == 2);
  CHECK(rows[1]["points"][0].size() == 3);  // [x, y, deg]
  CHECK(rows[0]["length"] == rows[1]["length"]);
  CHECK(rows[2]["length"] == 0.0);
  CHECK(rows[3]["length"] == 1.0);
  CHECK(rows[3]["points"][0].size() == 2);
  CHECK(rows[4]["points"][0][2] == 90.0);  // heading of travel: down the map (y grows downwards)
}

TEST_CASE("cli: no path is not an error") {
  Grid g = Grid::create(6, 3).value();
  for (int y = 0; y < 3; ++y) g.set_blocked(3, y, true);
  const std::string map = test::write_temp("walled.map", format_movingai_map(g));
  auto r = run_cli("plan --map " + map + " --from 0,0 --to 5,2 --json");
  REQUIRE(r.status == 0);
  CHECK(json::parse(r.out)["found"] == false);
}

TEST_CASE("cli: sample step bounds the distance between points") {
  auto r = run_cli("plan --map " + kArena + " --from 1,11 --to 30,40 --planner theta --json --sample-step 0.25");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  double len = 0;
  for (size_t i = 1; i < j["points"].size(); ++i) {
    const double dx = j["points"][i][0].get<double>() - j["points"][i - 1][0].get<double>();
    const double dy = j["points"][i][1].get<double>() - j["points"][i - 1][1].get<double>();
    CHECK(std::hypot(dx, dy) <= 0.25 + 1e-12);
    len += std::hypot(dx, dy);
  }
  CHECK(len == doctest::Approx(j["length"].get<double>()).epsilon(1e-12));
}

TEST_CASE("cli: bad input exits 2 with one error line naming the culprit") {
  const std::string bad_map = test::write_temp("bad.map", "type octile\nheight 2\nwidth 3\nmap\n...\n.?.\n");
  const std::string bad_q = test::write_temp("bad_queries.txt", "1 11 30 40\n1 11 thirty 40\n");
  struct Case {
    std::string args, expect;
  };
  const Case cases[] = {
      {"plan --map /nonexistent.map --from 1,1 --to 2,2", "/nonexistent.map: cannot open"},
      {"plan --map " + bad_map + " --from 0,0 --to 1,1", bad_map + ":6: unknown terrain '?'"},
      {"plan --map " + kArena + " --from 1,11 --to 99,2", "goal (99.000000,2.000000) is outside the 49x49 map"},
      {"plan --map " + kArena + " --from 0,0 --to 1,11", "start cell (0,0) is inside a wall"},
      {"plan --map " + kArena + " --from 1,11 --to 1,12 --planner warp", "--planner: unknown planner 'warp'"},
      {"plan --map " + kArena + " --from 1,11 --to 1,12 --smoother blur", "unknown smoother 'blur'"},
      {"plan --map " + kArena + " --from nan,11 --to 1,12", "--from X: 'nan' is not a finite number"},
      {"plan --map " + kArena + " --from 1,11 --to 1", "--to: expected X,Y or X,Y,DEG"},
      {"plan --map " + kArena + " --from 1,11 --to 1,12 --agent-radius -1", "--agent-radius must be in"},
      {"plan --map " + kArena + " --from 1,11 --to 1,12 --frobnicate 3", "unknown option --frobnicate"},
      {"plan --map " + kArena + " --queries " + bad_q, bad_q + ":2: X2: 'thirty' is not a number"},
      {"plan --map " + kArena + " --from 1,11 --to 1,12 --planner theta --turn-penalty 1", "turn penalty"},
      {"plan --map " + kArena, "missing --from and --to"},
      {"scen /nonexistent.map.scen", "/nonexistent.map.scen: cannot open"},
      {"warp", "unknown verb 'warp'"},
  };
  for (const auto& c : cases) {
    auto r = run_cli(c.args);
    CAPTURE(c.args);
    CAPTURE(r.err);
    CHECK(one_error_line(r, c.expect));
    CHECK(r.out.empty());
  }
}

TEST_CASE("cli: scen checks the benchmark and reports mismatches") {
  auto r = run_cli("scen " + test::movingai("arena.map.scen") + " --planner jps");
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("160 scenarios, 0 mismatches, mean ", 0) == 0);
  CHECK(r.out.find(" us/query") != std::string::npos);
  // A scenario file with one wrong length: exit 1, and the mismatch is named on stderr.
  const std::string scen = test::write_temp(
      "wrong.map.scen", "version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t2\n");
  auto w = run_cli("scen " + scen + " --map " + kArena);
  CHECK(w.status == 1);
  CHECK(w.out.rfind("2 scenarios, 1 mismatches", 0) == 0);
  CHECK(w.err.find(":3: mismatch") != std::string::npos);
}
