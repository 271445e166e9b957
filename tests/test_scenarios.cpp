// The Moving AI benchmark problems: A* and JPS must reproduce every optimal length.
// The optimised build runs all problems of the smaller maps and a spread of the large ones;
// the sanitizer build runs a sample of each (same checks, fewer problems).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

void check_map(const std::string& name, size_t stride) {
  auto grid = load_movingai_map(test::movingai(name + ".map"));
  REQUIRE(grid.ok());
  auto scen = load_scenarios(test::movingai(name + ".map.scen"));
  REQUIRE(scen.ok());
  REQUIRE_FALSE(scen->empty());
  GridPathfinder pf(*grid);
  size_t checked = 0;
  double worst = 0.0;
  for (size_t i = 0; i < scen->size(); i += stride) {
    const Scenario& s = (*scen)[i];
    REQUIRE(s.map_width == grid->width());
    REQUIRE(s.map_height == grid->height());
    // 2011 files keep ~6 significant digits, current ones 8 decimals (truncated).
    const double tol = 1e-5 * std::max(1.0, s.optimal_length) + 1e-6;
    for (GridPlanner p : {GridPlanner::astar, GridPlanner::jps}) {
      auto r = pf.find_path(p, s.start, s.goal);
      REQUIRE(r.ok());
      CAPTURE(name);
      CAPTURE(s.line);
      REQUIRE(r->found);
      const double diff = std::abs(r->length - s.optimal_length);
      worst = std::max(worst, diff);
      CHECK(diff <= tol);
    }
    ++checked;
  }
  MESSAGE(name << ": " << checked << " problems, worst |difference| " << worst);
}

size_t stride_for(size_t full) {
  return std::getenv("PATHLAB_SANITIZED") ? std::max<size_t>(full, 15) : full;
}

}  // namespace

TEST_CASE("scenarios: small maps, every problem") {
  check_map("arena", stride_for(1));
  check_map("lak303d", stride_for(1));
  check_map("Berlin_0_256", stride_for(1));
  check_map("den520d", stride_for(1));
}

TEST_CASE("scenarios: large maps, a spread of problems") {
  for (const char* name : {"arena2", "brc202d", "Archipelago", "Berlin_0_512", "maze512-1-0", "random512-10-0",
                           "8room_000"}) {
    check_map(name, stride_for(std::string(name) == "maze512-1-0" ? 80 : 15));
  }
}
