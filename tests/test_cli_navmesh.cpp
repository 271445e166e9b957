// pathlab-cli plan --planner navmesh, run as a user would.

#include <doctest/doctest.h>

#include <unistd.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "test_support.hpp"

using namespace pathlab;
using pathlab::test::run_cli;
using pathlab::test::check_usage_error;
using pathlab::test::points_of;

namespace {

// A wall down the middle with a one-cell gap in row 2.
const char* kMap =
    "type octile\nheight 5\nwidth 11\nmap\n"
    ".....@.....\n"
    ".....@.....\n"
    "...........\n"
    ".....@.....\n"
    ".....@.....\n";

std::string map_path() {
  static const std::string p = test::write_temp("navmesh_cli_" + std::to_string(getpid()) + ".map", kMap);
  return p;
}

Grid map_grid() { return parse_movingai_map(kMap, "kMap").value(); }

}  // namespace

TEST_CASE("cli navmesh: every smoother finds a clear path through the gap; funnel is the shortest") {
  const Grid g = map_grid();
  double funnel_len = 0;
  for (const char* sm : {"funnel", "edge-shift", "los", "none"}) {
    CAPTURE(sm);
    const auto r = run_cli("plan --map " + map_path() + " --planner navmesh --smoother " + sm +
                           " --from 0.5,0.5 --to 10.5,0.5 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("found").get<bool>());
    const auto pts = points_of(j);
    REQUIRE(pts.size() >= 2);
    CHECK(pts.front() == Vec2(0.5, 0.5));
    CHECK(pts.back() == Vec2(10.5, 0.5));
    CHECK(polyline_clear(g, pts));
    CHECK_FALSE(j.at("start_snapped").get<bool>());
    const double len = j.at("length").get<double>();
    if (std::string(sm) == "funnel") {
      funnel_len = len;
      // Exact: via the gap's corners (5,2) and (6,2).
      CHECK(len == doctest::Approx(2 * std::sqrt(4.5 * 4.5 + 1.5 * 1.5) + 1.0));
    } else {
      CHECK(len >= funnel_len - 1e-9);
    }
  }
  // The default smoother of the navmesh planner is the funnel.
  const auto d = run_cli("plan --map " + map_path() + " --planner navmesh --from 0.5,0.5 --to 10.5,0.5 --json");
  REQUIRE(d.status == 0);
  CHECK(nlohmann::json::parse(d.out).at("length").get<double>() == doctest::Approx(funnel_len));
}

TEST_CASE("cli navmesh: agent radius, snapping, a gap too narrow, edge-shift options") {
  const Grid g = map_grid();
  auto r = run_cli("plan --map " + map_path() + " --planner navmesh --agent-radius 0.4 --from 0.1,0.5 --to 10.5,2.5 --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("found").get<bool>());
  CHECK(j.at("start_snapped").get<bool>());
  CHECK_FALSE(j.at("goal_snapped").get<bool>());
  const auto pts = points_of(j);
  CHECK(pts.front().x == doctest::Approx(0.4).epsilon(1e-6));
  CHECK(polyline_clear(g, pts, 0.4));

  r = run_cli("plan --map " + map_path() + " --planner navmesh --agent-radius 0.6 --from 2.5,2.5 --to 8.5,2.5 --json");
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK_FALSE(j.at("found").get<bool>());
  CHECK_FALSE(j.at("reason").get<std::string>().empty());

  r = run_cli("plan --map " + map_path() +
              " --planner navmesh --smoother edge-shift --shift-margin 0.2 --shift-passes 3 --from 0.5,0.5 --to 10.5,0.5 --json");
  REQUIRE(r.status == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(polyline_clear(g, points_of(j)));
  // The gap's portals are one cell wide: the 0.2 margin keeps the nodes at y <= 2.8 and >= 2.2.
  for (const Vec2 p : points_of(j))
    if (p.x == 5.0 || p.x == 6.0) CHECK(p.y >= 2.2 - 1e-12);
  // The passes run are reported (issue 16): 3 asked for, 3 run; by default, until converged.
  CHECK(j.at("shift_passes").get<int>() == 3);
  r = run_cli("plan --map " + map_path() + " --planner navmesh --smoother edge-shift --from 0.5,0.5 --to 10.5,0.5 --json");
  REQUIRE(r.status == 0);
  const auto converged = nlohmann::json::parse(r.out);
  CHECK(converged.at("shift_passes").get<int>() >= 1);
  CHECK(converged.at("length").get<double>() <= j.at("length").get<double>() + 1e-9);
  r = run_cli("plan --map " + map_path() + " --planner navmesh --smoother edge-shift --from 0.5,0.5 --to 10.5,0.5");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("shift_passes: ") != std::string::npos);
}

TEST_CASE("cli navmesh: --navmesh-cost picks the corridor search's cost model") {
  // A cluttered map, so that some corridor the portal-points model picks is not the shortest.
  const Grid g = test::random_grid(40, 40, 0.25, 11);
  const std::string map = test::write_temp("navmesh_cost_" + std::to_string(getpid()) + ".map", format_movingai_map(g));
  std::vector<std::pair<Vec2, Vec2>> queries;
  std::ostringstream qs;
  for (int i = 0; static_cast<int>(queries.size()) < 40 && i < 4000; ++i) {
    const int a = (i * 7919) % (40 * 40), b = (i * 104729 + 811) % (40 * 40);
    if (!g.is_free(a % 40, a / 40) || !g.is_free(b % 40, b / 40)) continue;
    queries.emplace_back(Vec2(a % 40 + 0.5, a / 40 + 0.5), Vec2(b % 40 + 0.5, b / 40 + 0.5));
    qs << queries.back().first.x << ' ' << queries.back().first.y << ' ' << queries.back().second.x << ' '
       << queries.back().second.y << '\n';
  }
  REQUIRE(queries.size() == 40);
  const std::string qfile = test::write_temp("navmesh_cost_" + std::to_string(getpid()) + ".txt", qs.str());
  auto lengths = [&](const std::string& extra) {
    const auto r = run_cli("plan --map " + map + " --planner navmesh --queries " + qfile + extra);
    REQUIRE(r.status == 0);
    std::vector<double> out;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      const auto j = nlohmann::json::parse(line);
      out.push_back(j.at("found").get<bool>() ? j.at("length").get<double>() : -1.0);
    }
    return out;
  };
  const auto dflt = lengths("");
  const auto exact = lengths(" --navmesh-cost exact");
  const auto portal = lengths(" --navmesh-cost portal-points");
  REQUIRE(exact.size() == queries.size());
  REQUIRE(portal.size() == queries.size());
  CHECK(dflt == exact);
  // The CLI runs the core's search with the named model, query by query, on its default mesh
  // (wall-corner polygons, in the planning service's tiles: the portal-points model's lengths
  // depend on the polygons).
  NavmeshDef corners = default_navmesh_def();
  corners.corners_only = true;
  corners.tile_size = kDefaultNavTileSize;
  const Navmesh mesh = Navmesh::build(g, corners).value();
  NavmeshQuery q(mesh);
  NavQueryOptions o = default_nav_query_options();
  o.cost = NavSearchCost::portal_points;
  int longer = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    CAPTURE(i);
    auto r = q.find_corridor(queries[i].first, queries[i].second, o);
    REQUIRE(r);
    if (!r->found) {
      CHECK(exact[i] == -1.0);
      CHECK(portal[i] == -1.0);
      continue;
    }
    CHECK(portal[i] == doctest::Approx(funnel_corridor(*r)->length).epsilon(1e-12));
    CHECK(portal[i] >= exact[i] - 1e-9);
    if (portal[i] > exact[i] + 1e-6) ++longer;
  }
  CHECK(longer > 0);
  check_usage_error("plan --map " + map + " --planner navmesh --from 0.5,0.5 --to 1.5,0.5 --navmesh-cost fast",
                    "exact, portal-points");
  // Any mesh, the exact search finds the same (shortest) paths; corners is the default.
  const auto rects = lengths(" --navmesh-polygons rectangles");
  const auto convex = lengths(" --navmesh-polygons convex");
  const auto corner = lengths(" --navmesh-polygons corners");
  REQUIRE(rects.size() == queries.size());
  REQUIRE(convex.size() == queries.size());
  CHECK(corner == dflt);
  for (size_t i = 0; i < queries.size(); ++i) {
    CHECK(rects[i] == doctest::Approx(exact[i]).epsilon(1e-9));
    CHECK(convex[i] == doctest::Approx(exact[i]).epsilon(1e-9));
  }
  check_usage_error("plan --map " + map + " --planner navmesh --from 0.5,0.5 --to 1.5,0.5 --navmesh-polygons hex",
                    "corners, convex, rectangles");
}

TEST_CASE("cli navmesh: errors name the argument and list the valid names") {
  const std::string base = "plan --map " + map_path() + " --from 0.5,0.5 --to 10.5,0.5 ";
  check_usage_error(base + "--planner navmesh --smoother bezier", "funnel, edge-shift, los, none");
  check_usage_error(base + "--planner nav", "navmesh");
  check_usage_error(base + "--planner navmesh --agent-radius -1", "--agent-radius");
  check_usage_error(base + "--planner navmesh --smoother funnel --shift-margin 0.1", "--shift-margin");
  check_usage_error(base + "--planner navmesh --smoother edge-shift --shift-passes 99", "--shift-passes");
  check_usage_error(base + "--planner astar --shift-margin 0.1", "shift-margin");
  check_usage_error(base + "--planner astar --navmesh-cost exact", "navmesh-cost");
  check_usage_error(base + "--planner astar --navmesh-polygons convex", "navmesh-polygons");
  check_usage_error("plan --map " + map_path() + " --planner navmesh --from 5.5,0.5 --to 10.5,0.5", "inside a wall");
  check_usage_error("plan --map " + map_path() + " --planner navmesh --from 0.5,0.5 --to 12,0.5", "outside");
  // The grid planners still work and still reject navmesh smoothers.
  const auto a = run_cli(base + "--planner astar --json");
  REQUIRE(a.status == 0);
  CHECK(nlohmann::json::parse(a.out).at("found").get<bool>());
  check_usage_error(base + "--planner astar --smoother funnel", "--smoother");
}
