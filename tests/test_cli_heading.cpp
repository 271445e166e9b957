// pathlab-cli plan --planner directional|hybrid and --smoother turning, run as a user would.

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/map_io.hpp"

using namespace pathlab;
using pathlab::test::run_cli;

namespace {

// Pinter's (2001) figure 8 (see test_directional_astar.cpp): the short way up column 7 has turns
// a unit of radius 2 cannot make; the room on the right is the legal way round.
const char* kMap =
    "type octile\nheight 18\nwidth 20\nmap\n"
    "@@@@@@@@@@@@@@@@@@@@\n"
    "@..................@\n"
    "@..................@\n"
    "@..................@\n"
    "@@@@@@@.@@@@.......@\n"
    "@@@@@@@.@@@@.......@\n"
    "@@@@@@@.@@@@.......@\n"
    "@@@@@@@.@@@@.......@\n"
    "@@@@@@@.@@@@.......@\n"
    "@@@@@@@.@@@@.......@\n"
    "@..................@\n"
    "@@@@@@@@@@@@.......@\n"
    "@@@@@@@@@@@@.......@\n"
    "@@@@@@@@@@@@.......@\n"
    "@@@@@@@@@@@@.......@\n"
    "@@@@@@@@@@@@.......@\n"
    "@@@@@@@@@@@@.......@\n"
    "@@@@@@@@@@@@@@@@@@@@\n";

std::string map_path() {
  static const std::string p = test::write_temp("heading_cli_" + std::to_string(getpid()) + ".map", kMap);
  return p;
}

nlohmann::json plan_json(const std::string& args) {
  const auto r = run_cli("plan --map " + map_path() + " --json " + args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("cli heading: hybrid and directional return sampled legal poses from start to goal") {
  const Grid grid = parse_movingai_map(kMap, "kMap").value();
  const auto astar = plan_json("--from 1.5,10.5 --to 3.5,2.5");
  REQUIRE(astar.at("found").get<bool>());
  for (const char* planner : {"hybrid", "directional"}) {
    CAPTURE(planner);
    const auto j = plan_json(std::string("--planner ") + planner +
                             " --from 1.5,10.5,0 --to 3.5,2.5,180 --radius 2 --agent-radius 0.2 --sample-step 0.2");
    REQUIRE(j.at("found").get<bool>());
    const auto& pts = j.at("points");
    REQUIRE(pts.size() > 10);
    CHECK(pts.front().size() == 3);
    CHECK(pts.front().at(0).get<double>() == 1.5);
    CHECK(pts.front().at(1).get<double>() == 10.5);
    CHECK(pts.front().at(2).get<double>() == 0.0);
    CHECK(pts.back().at(0).get<double>() == 3.5);
    CHECK(pts.back().at(1).get<double>() == 2.5);
    CHECK(std::abs(std::abs(pts.back().at(2).get<double>()) - 180.0) < 1e-9);
    for (size_t i = 0; i < pts.size(); ++i) {
      const Vec2 p(pts[i].at(0).get<double>(), pts[i].at(1).get<double>());
      CHECK(point_clear(grid, p, 0.2));
      if (i > 0) {
        const Vec2 q(pts[i - 1].at(0).get<double>(), pts[i - 1].at(1).get<double>());
        CHECK(glm::length(p - q) <= 0.2 + 1e-9);
      }
    }
    // The legal route goes round through the room: much longer than the grid route.
    CHECK(j.at("length").get<double>() > astar.at("length").get<double>() + 5.0);
  }
}

TEST_CASE("cli heading: the turning smoother reports how each corner was made") {
  const auto j = plan_json("--planner astar --smoother turning --radius 2 --from 1.5,10.5,0 --to 3.5,2.5,180");
  REQUIRE(j.at("found").get<bool>());
  const auto& turns = j.at("turns");
  REQUIRE(turns.size() >= 2);
  int cheats = 0;
  for (const auto& t : turns) {
    const std::string m = t.at("method").get<std::string>();
    CHECK((m == "fillet" || m == "shrink" || m == "three_point" || m == "rotate"));
    cheats += m != "fillet";
  }
  CHECK(cheats >= 1);  // the corridor corners cannot be made at radius 2
}

TEST_CASE("cli heading: errors name the argument") {
  auto r = run_cli("plan --map " + map_path() + " --planner hybrid --from 1.5,10.5 --to 3.5,2.5");
  CHECK(r.status == 2);
  CHECK(r.err.find("--radius") != std::string::npos);
  r = run_cli("plan --map " + map_path() + " --planner directional --reverse --radius 2 --from 1.5,10.5 --to 3.5,2.5");
  CHECK(r.status == 2);
  CHECK(r.err.find("--reverse") != std::string::npos);
  r = run_cli("plan --map " + map_path() + " --radius 2 --from 1.5,10.5 --to 3.5,2.5");
  CHECK(r.status == 2);
  CHECK(r.err.find("--radius") != std::string::npos);
  r = run_cli("plan --map " + map_path() + " --planner hybrid --radius 2 --from 1.5,10.5 --to 0.5,0.5");
  CHECK(r.status == 2);
  CHECK(r.err.rfind("error:", 0) == 0);
  CHECK(r.err.find("goal") != std::string::npos);
  r = run_cli("plan --map " + map_path() + " --planner hybrid --radius 0 --from 1.5,10.5 --to 3.5,2.5");
  CHECK(r.status == 2);
  r = run_cli("plan --map " + map_path() + " --planner directional --neighborhood 5 --radius 2 --from 1.5,10.5 --to 3.5,2.5");
  CHECK(r.status == 2);
  CHECK(r.err.find("--neighborhood") != std::string::npos);
  r = run_cli("plan --map " + map_path() + " --planner directional --smoother none --cc --radius 2 --from 1.5,10.5 --to 3.5,2.5");
  CHECK(r.status == 2);
  CHECK(r.err.find("--cc is used by --planner hybrid and --smoother vehicle only") != std::string::npos);
  // With the vehicle smoother (the heading planners' default) it applies to its connections.
  r = run_cli("plan --map " + map_path() + " --planner directional --cc --radius 2 --from 1.5,10.5 --to 3.5,2.5");
  CHECK(r.status == 0);
}

TEST_CASE("cli heading: --reverse lets hybrid back out of the pocket; no path is not an error") {
  // Heading west at the end of the row-10 corridor with radius 2 and no reversing, the unit
  // cannot turn round: found is false with a reason, exit status 0.
  const auto stuck = plan_json("--planner hybrid --radius 2 --from 2.5,10.5,180 --to 15.5,10.5,0");
  CHECK_FALSE(stuck.at("found").get<bool>());
  CHECK(stuck.at("reason").get<std::string>().find("unreachable") != std::string::npos);
  const auto back = plan_json("--planner hybrid --reverse --radius 2 --from 2.5,10.5,180 --to 15.5,10.5,0");
  CHECK(back.at("found").get<bool>());
}

namespace {

/// Lengths of the runs in one gear of a sampled heading path (points [x, y, deg], deg the
/// nose): a step against the nose is reversing. [Units: cells]
std::vector<double> gear_runs(const nlohmann::json& points) {
  std::vector<double> runs;
  int gear = 0;
  for (size_t i = 1; i < points.size(); ++i) {
    const double dx = points[i].at(0).get<double>() - points[i - 1].at(0).get<double>();
    const double dy = points[i].at(1).get<double>() - points[i - 1].at(1).get<double>();
    const double step = std::hypot(dx, dy);
    if (step < 1e-12) continue;
    const double nose = deg_to_rad(points[i - 1].at(2).get<double>());
    const int g = dx * std::cos(nose) + dy * std::sin(nose) >= 0 ? 1 : -1;
    if (g != gear) runs.push_back(0.0);
    runs.back() += step;
    gear = g;
  }
  return runs;
}

}  // namespace

TEST_CASE("cli heading: --min-gear-length keeps every run between changes of gear at least that long") {
  // Backing out of the pocket: by default the last forward run is a quarter turn (pi cells at
  // radius 2); with --min-gear-length 4 the planner must find a longer manoeuvre.
  const std::string query = "--planner hybrid --reverse --radius 2 --from 2.5,10.5,180 --to 15.5,10.5,0";
  const auto plain = plan_json(query);
  REQUIRE(plain.at("found").get<bool>());
  const auto plain_runs = gear_runs(plain.at("points"));
  REQUIRE(plain_runs.size() >= 2);
  CHECK(*std::min_element(plain_runs.begin(), plain_runs.end()) < 4.0);
  const auto longer = plan_json(query + " --min-gear-length 4");
  REQUIRE(longer.at("found").get<bool>());
  const auto runs = gear_runs(longer.at("points"));
  REQUIRE(runs.size() >= 2);
  // 0.01 cells: the points are samples every 0.25 cells, so a run is measured along chords of
  // its arcs, up to about 3e-3 short of its true length over 4 cells at radius 2.
  for (double r : runs) CHECK(r >= 4.0 - 0.01);
  // The flag is the registry's: range-checked and refused where it does not apply.
  auto r = run_cli("plan --map " + map_path() + " " + query + " --min-gear-length 200");
  CHECK(r.status == 2);
  CHECK(r.err.find("--min-gear-length must be in [0, 100]") != std::string::npos);
  r = run_cli("plan --map " + map_path() + " --planner directional --smoother none --radius 2 --from 1.5,10.5 "
              "--to 3.5,2.5 --min-gear-length 2");
  CHECK(r.status == 2);
  CHECK(r.err.find("--min-gear-length is used by --planner hybrid and --smoother vehicle only") != std::string::npos);
}

TEST_CASE("cli heading: Pinter's tank scene plans the legal route round through the room") {
  const auto r = run_cli(std::string("plan --map ") + PATHLAB_ASSETS_DIR + "/scenes/pinter_tank_turn.json --json");
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.at("found").get<bool>());
  for (const auto& p : j.at("points")) {
    const Cell c = cell_of(Vec2(p.at(0).get<double>(), p.at(1).get<double>()));
    CHECK_FALSE((c.x == 7 && c.y >= 4 && c.y <= 9));  // never the narrow way up
  }
}

TEST_CASE("cli heading: directional turns round at radius 4 with the automatic neighbourhood") {
  std::string open_map = "type octile\nheight 24\nwidth 24\nmap\n";
  for (int y = 0; y < 24; ++y) open_map += std::string(24, '.') + "\n";
  const std::string file = test::write_temp("heading_cli_open_" + std::to_string(getpid()) + ".map", open_map);
  const std::string query = " --json --planner directional --radius 4 --from 4.5,4.5,0 --to 4.5,14.5,180";
  auto r = run_cli("plan --map " + file + query);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.at("found").get<bool>());
  // A U-turn of radius 4 bulges at least 2 r = 8 cells beyond the start.
  double max_x = 0.0;
  for (const auto& p : j.at("points")) max_x = std::max(max_x, p.at(0).get<double>());
  CHECK(max_x >= 4.5 + 4.0 - 1e-9);
  CHECK(std::abs(std::abs(j.at("points").back().at(2).get<double>()) - 180.0) < 1e-9);
  // The article's 7x7 neighbourhood has no turning move at this radius.
  r = run_cli("plan --map " + file + query + " --neighborhood 48");
  REQUIRE(r.status == 0);
  const auto fixed = nlohmann::json::parse(r.out);
  CHECK_FALSE(fixed.at("found").get<bool>());
  CHECK(fixed.at("reason").get<std::string>().find("unreachable") != std::string::npos);
}
