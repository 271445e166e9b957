// libFuzzer target: properties of the grid planners on small random maps (bytes -> map).
// Every found path is legal (starts and ends at the cell centres, never through a wall or a
// wall corner: collision.hpp is the referee; A*/Dijkstra steps are between neighbours), A*
// and Dijkstra agree on the optimal cost, JPS and A* on the length where costs are uniform,
// Theta* is never longer than the 8-connected optimum, every planner agrees on whether a path
// exists, and JPS by block-based jumping and from its jump tables gives the same search.
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/grid_search.hpp"

using namespace pathlab;

namespace {

/// Reads bytes one at a time, zeros after the end.
struct Bytes {
  const uint8_t* data;
  size_t size, pos = 0;
  unsigned next() { return pos < size ? data[pos++] : 0u; }
};

void check_legal(const Grid& g, const GridPath& p, Cell start, Cell goal, GridPlanner planner) {
  FUZZ_CHECK(!p.points.empty());
  FUZZ_CHECK(p.cells.front().x == start.x && p.cells.front().y == start.y);
  FUZZ_CHECK(p.cells.back().x == goal.x && p.cells.back().y == goal.y);
  FUZZ_CHECK(polyline_clear(g, p.points));
  FUZZ_CHECK(std::abs(polyline_length(p.points) - p.length) <= 1e-9 * (1.0 + p.length));
  if (planner == GridPlanner::astar || planner == GridPlanner::dijkstra) {
    for (size_t i = 1; i < p.cells.size(); ++i) {
      const int dx = std::abs(p.cells[i].x - p.cells[i - 1].x), dy = std::abs(p.cells[i].y - p.cells[i - 1].y);
      FUZZ_CHECK(dx <= 1 && dy <= 1 && dx + dy >= 1);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in{data, size};
  const int w = 1 + static_cast<int>(in.next() % 24), h = 1 + static_cast<int>(in.next() % 24);
  const unsigned flags = in.next();
  Grid g = Grid::create(w, h).value();
  // Each further byte is one cell: low bits pick wall, free or a costly cell.
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const unsigned b = in.next();
      if (b % 4 == 0) g.set_blocked(x, y, true);
      else if ((flags & 1u) && b % 7 == 1) g.set_cost(x, y, 1.0f + static_cast<float>(b % 5));
    }
  }
  const Cell start{static_cast<int>(in.next()) % w, static_cast<int>(in.next()) % h};
  const Cell goal{static_cast<int>(in.next()) % w, static_cast<int>(in.next()) % h};
  if (!g.is_free(start) || !g.is_free(goal)) return 0;
  GridSearchOptions opt;
  if (flags & 2u) opt.connectivity = Connectivity::four;
  GridPathfinder pf(g);
  auto astar = pf.find_path(GridPlanner::astar, start, goal, opt);
  auto dijkstra = pf.find_path(GridPlanner::dijkstra, start, goal, opt);
  FUZZ_CHECK(astar.ok() && dijkstra.ok());
  FUZZ_CHECK(astar->found == dijkstra->found);
  if (astar->found) {
    check_legal(g, *astar, start, goal, GridPlanner::astar);
    check_legal(g, *dijkstra, start, goal, GridPlanner::dijkstra);
    FUZZ_CHECK(std::abs(astar->cost - dijkstra->cost) <= 1e-9 * (1.0 + astar->cost));
    if (g.uniform_cost()) FUZZ_CHECK(std::abs(astar->length - dijkstra->length) <= 1e-9 * (1.0 + astar->length));
  }
  if (opt.connectivity == Connectivity::four) return 0;
  auto jps = pf.find_path(GridPlanner::jps, start, goal, opt);
  auto theta = pf.find_path(GridPlanner::theta, start, goal, opt);
  FUZZ_CHECK(jps.ok() && theta.ok());
  FUZZ_CHECK(jps->found == astar->found && theta->found == astar->found);
  // Block-based jumping (the first query's) and the jump tables: the same search, node for node.
  GridSearchOptions tables = opt;
  tables.jps_jumps = JpsJumps::tables;
  auto jps_tables = pf.find_path(GridPlanner::jps, start, goal, tables);
  FUZZ_CHECK(jps_tables.ok() && jps_tables->cells == jps->cells && jps_tables->length == jps->length);
  FUZZ_CHECK(jps_tables->expanded == jps->expanded);
  if (!astar->found) return 0;
  check_legal(g, *jps, start, goal, GridPlanner::jps);
  check_legal(g, *theta, start, goal, GridPlanner::theta);
  // JPS treats every passable cell as cost 1: its length is the uniform optimum.
  if (g.uniform_cost()) {
    FUZZ_CHECK(std::abs(jps->length - astar->length) <= 1e-9 * (1.0 + astar->length));
    FUZZ_CHECK(theta->length <= astar->length + 1e-9 * (1.0 + astar->length));
  }
  return 0;
}
