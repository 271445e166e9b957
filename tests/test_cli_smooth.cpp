// pathlab-cli smooth and plan --smoother with the spline smoothers, run as a user would.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/map_io.hpp"
#include "test_support.hpp"

using namespace pathlab;
using pathlab::test::run_cli;
using pathlab::test::check_usage_error;
using pathlab::test::points_of;

TEST_CASE("cli smooth: the Catmull-Rom blog post's 2D example through the CLI") {
  const auto r = run_cli("smooth --method catmull-rom --subdivisions 4 --points \"1,1 2,2 3,2 4,1\" --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto pts = points_of(j);
  REQUIRE(pts.size() == 13u);
  CHECK(pts[0] == Vec2(1, 1));
  CHECK(pts[4] == Vec2(2, 2));
  CHECK(pts[8] == Vec2(3, 2));
  CHECK(pts[12] == Vec2(4, 1));
  CHECK(pts[2].x == 1.4375);  // full round-trip precision
  CHECK(pts[6].y == 2.125);
  // The length is the curve's arc length: a little more than the 13-point polyline's.
  double poly = 0;
  for (size_t i = 1; i < pts.size(); ++i) poly += glm::length(pts[i] - pts[i - 1]);
  const double len = j.at("length").get<double>();
  CHECK(len >= poly);
  CHECK(len < poly * 1.01);
}

TEST_CASE("cli smooth: every method, subdivisions, points per cell, one point") {
  for (const char* m : {"catmull-rom", "centripetal", "chordal", "hermite"}) {
    CAPTURE(m);
    const auto r = run_cli(std::string("smooth --method ") + m + " --subdivisions 5 --points \"0,0 4,0 4.5,0.5 8,6\" --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(points_of(j).size() == 16u);
    CHECK(j.at("length").get<double>() > 10.0);
  }
  const auto d = run_cli("smooth --method centripetal --points \"0,0 5,0 5,5\" --json");  // default N = 8
  REQUIRE(d.status == 0);
  CHECK(points_of(nlohmann::json::parse(d.out)).size() == 17u);
  const auto pc = run_cli("smooth --method hermite --points-per-cell 2 --points \"0,0 10,0\" --json");
  REQUIRE(pc.status == 0);
  const auto pj = nlohmann::json::parse(pc.out);
  CHECK(points_of(pj).size() == 21u);
  CHECK(pj.at("length").get<double>() == doctest::Approx(10.0).epsilon(1e-12));
  const auto one = run_cli("smooth --method chordal --points \"3,4\" --json");
  REQUIRE(one.status == 0);
  const auto oj = nlohmann::json::parse(one.out);
  REQUIRE(points_of(oj).size() == 1u);
  CHECK(oj.at("length").get<double>() == 0.0);
  const auto text = run_cli("smooth --method hermite --subdivisions 2 --points \"0,0 2,0\"");
  REQUIRE(text.status == 0);
  CHECK(text.out.find("length: 2") != std::string::npos);
}

TEST_CASE("cli smooth: bad input gives exit 2 and one error line naming the argument") {
  check_usage_error("smooth --method bezier --points \"0,0 1,1\"", "--method");
  check_usage_error("smooth --points \"0,0 1,1\"", "--method");
  check_usage_error("smooth --method hermite", "--points");
  check_usage_error("smooth --method hermite --points \"\"", "--points");
  check_usage_error("smooth --method hermite --points \"0,0 1,x\"", "--points");
  check_usage_error("smooth --method hermite --points \"0,0 nan,1\"", "--points");
  check_usage_error("smooth --method hermite --points \"0,0 1,1,90\"", "--points");
  check_usage_error("smooth --method centripetal --subdivisions 0 --points \"0,0 1,1\"", "--subdivisions");
  check_usage_error("smooth --method centripetal --subdivisions 99999999 --points \"0,0 1,1\"", "--subdivisions");
  check_usage_error("smooth --method centripetal --subdivisions three --points \"0,0 1,1\"", "--subdivisions");
  check_usage_error("smooth --method centripetal --points-per-cell -1 --points \"0,0 1,1\"", "--points-per-cell");
  check_usage_error("smooth --method centripetal --points \"0,0 1,1\" --frobnicate 3", "--frobnicate");
}

TEST_CASE("cli plan --smoother catmull-rom: found, collision-free at the agent radius") {
  const std::string map = test::movingai("arena.map");
  auto grid = load_movingai_map(map);
  REQUIRE(grid);
  for (const char* sm : {"catmull-rom", "centripetal", "chordal", "hermite"}) {
    for (const double r : {0.0, 0.5, 1.0}) {
      CAPTURE(sm);
      CAPTURE(r);
      const auto raw = run_cli("plan --map " + map + " --from 3,3 --to 45,40 --json --agent-radius " + std::to_string(r));
      REQUIRE(raw.status == 0);
      const auto rj = nlohmann::json::parse(raw.out);
      const auto res = run_cli("plan --map " + map + " --from 3,3 --to 45,40 --json --smoother " + sm +
                               " --subdivisions 4 --agent-radius " + std::to_string(r));
      REQUIRE(res.status == 0);
      const auto j = nlohmann::json::parse(res.out);
      CHECK(j.at("found").get<bool>() == rj.at("found").get<bool>());
      if (!j.at("found").get<bool>()) continue;
      const auto pts = points_of(j);
      const auto raw_pts = points_of(rj);
      CHECK(pts.front() == raw_pts.front());
      CHECK(pts.back() == raw_pts.back());
      CHECK(pts.size() > raw_pts.size());
      CHECK(polyline_clear(*grid, pts, r));
      CHECK(j.at("length").get<double>() > 0.0);
    }
  }
  check_usage_error("plan --map " + map + " --from 3,3 --to 45,40 --smoother catmull-rom --subdivisions 0", "--subdivisions");
  check_usage_error("plan --map " + map + " --from 3,3 --to 45,40 --smoother spline", "--smoother");
}

TEST_CASE("cli plan --smoother over Moving AI scenario queries: found kept, collision-free at the radius") {
  // One --queries run per map and smoother: a spread of the map's scenario problems, each
  // planned raw and smoothed; `found` must agree and every smoothed path must be clear.
  const bool sanitized = std::getenv("PATHLAB_SANITIZED") != nullptr;
  const int per_map = sanitized ? 3 : 10;
  int checked = 0, issued = 0;
  const std::vector<std::string> maps = sanitized ? std::vector<std::string>{"arena", "den520d"}
                                                  : std::vector<std::string>{"arena", "den520d", "brc202d",
                                                                             "maze512-1-0", "random512-10-0"};
  for (const std::string& name : maps) {
    const std::string map = test::movingai(name + ".map");
    auto grid = load_movingai_map(map);
    REQUIRE(grid);
    auto scen = load_scenarios(map + ".scen");
    REQUIRE(scen);
    for (const double r : {0.5, 1.0}) {
      // Queries whose start and goal fit the agent (a start inside a wall is a usage error).
      const std::vector<uint8_t> fits = passable_cells(*grid, r);
      std::string queries;
      const size_t stride = std::max<size_t>(1, scen->size() / static_cast<size_t>(per_map));
      for (size_t i = stride - 1; i < scen->size(); i += stride) {
        const Scenario& s = (*scen)[i];
        if (!fits[grid->index(s.start.x, s.start.y)] || !fits[grid->index(s.goal.x, s.goal.y)]) continue;
        queries += std::to_string(s.start.x) + ".5 " + std::to_string(s.start.y) + ".5 " + std::to_string(s.goal.x) +
                   ".5 " + std::to_string(s.goal.y) + ".5\n";
      }
      const std::string qfile = test::write_temp("spline_queries_" + name + ".txt", queries);
      const std::string common = "plan --map " + map + " --queries " + qfile + " --agent-radius " + std::to_string(r);
      const auto raw = run_cli(common);
      REQUIRE(raw.status == 0);
      std::vector<nlohmann::json> raw_lines;
      std::istringstream rin(raw.out);
      for (std::string line; std::getline(rin, line);) raw_lines.push_back(nlohmann::json::parse(line));
      for (const char* sm : {"catmull-rom", "centripetal", "hermite"}) {
        CAPTURE(name);
        CAPTURE(r);
        CAPTURE(sm);
        const auto res = run_cli(common + " --smoother " + sm + " --subdivisions 4");
        REQUIRE(res.status == 0);
        std::istringstream in(res.out);
        size_t k = 0;
        for (std::string line; std::getline(in, line); ++k) {
          REQUIRE(k < raw_lines.size());
          const auto j = nlohmann::json::parse(line);
          CHECK(j.at("found").get<bool>() == raw_lines[k].at("found").get<bool>());
          if (!j.at("found").get<bool>()) continue;
          CHECK(polyline_clear(*grid, points_of(j), r));
          ++checked;
        }
        CHECK(k == raw_lines.size());
        issued += static_cast<int>(k);
      }
      std::filesystem::remove(qfile);
    }
  }
  // Most queries that fit the agent have a path: the check is not vacuous.
  CHECK(checked * 2 >= issued);
  CHECK(checked >= 3 * static_cast<int>(maps.size()));
}
