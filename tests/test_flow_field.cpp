// Flow fields (flow_field.hpp): the costs are a Dijkstra search's, the way downhill is
// consistent with them, a repair after edits equals a rebuild, and a unit reading the field
// never heads into a wall.

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "generated_maps.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/flow_field.hpp"
#include "pathlab/grid_search.hpp"
#include "test_support.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

/// Random walls, and swamp (cost 3) on a share of the free cells.
Grid terrain_grid(int w, int h, double walls, double swamp, uint32_t seed) {
  Grid g = random_grid(w, h, walls, seed);
  std::mt19937 rng(seed + 1);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (g.is_free(x, y) && u(rng) < swamp) g.set_cost(x, y, 3.0f);
  return g;
}

FlowFieldDef with_radius(double r) {
  FlowFieldDef d = default_flow_field_def();
  d.agent_radius = r;
  return d;
}

/// Relative tolerance of two sums of the same steps added in another order.
bool same_cost(double a, double b) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(a));
}

constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kDy[8] = {0, 1, 0, -1, 1, 1, -1, -1};

/// Every reachable cell's next cell is a neighbour reached by a legal step (no corner cut) and
/// its cost is the next cell's plus that step's.
void check_downhill(const FlowField& f, const Grid& g) {
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const Cell c{x, y};
      if (!f.reachable(c) || f.distance(c) == 0.0) continue;
      const Cell n = f.next_cell(c);
      const int dx = n.x - c.x, dy = n.y - c.y;
      CAPTURE(x);
      CAPTURE(y);
      REQUIRE((std::abs(dx) <= 1 && std::abs(dy) <= 1 && (dx != 0 || dy != 0)));
      REQUIRE(f.passable(n));
      if (dx != 0 && dy != 0) REQUIRE((f.passable(Cell{c.x + dx, c.y}) && f.passable(Cell{c.x, c.y + dy})));
      const double step = (dx != 0 && dy != 0 ? kSqrt2 : 1.0) * 0.5 * (g.cost(c) + g.cost(n));
      CHECK(same_cost(f.distance(c), f.distance(n) + step));
    }
  }
}

}  // namespace

TEST_CASE("flow field: costs equal a Dijkstra search from every cell, with terrain and radius") {
  int compared = 0;
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const Grid g = terrain_grid(20, 16, 0.12, 0.2, seed);
    std::mt19937 rng(seed);
    GridPathfinder finder(g);
    for (double r : {0.0, 0.5, 0.7, 1.2}) {
      CAPTURE(seed);
      CAPTURE(r);
      const std::vector<uint8_t> pass = passable_cells(g, r);
      Cell goal = random_free_cell(g, rng);
      for (int k = 0; k < 1000 && !pass[static_cast<size_t>(g.index(goal.x, goal.y))]; ++k) goal = random_free_cell(g, rng);
      const Cell goals[] = {goal};
      const FlowField f = FlowField::build(g, goals, with_radius(r)).value();
      GridSearchOptions opt;
      opt.agent_radius = r;
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          CAPTURE(x);
          CAPTURE(y);
          auto p = finder.find_path(GridPlanner::dijkstra, Cell{x, y}, goal, opt);
          if (!p || !p->found) {
            CHECK_FALSE(f.reachable(Cell{x, y}));  // a cell too tight for the radius, or cut off
            continue;
          }
          CHECK(same_cost(f.distance(Cell{x, y}), p->cost));
          ++compared;
        }
      }
      check_downhill(f, g);
    }
  }
  CHECK(compared > 1000);  // cells with a path, of 24 fields of 320 cells
}

TEST_CASE("flow field: several goal cells, each cell goes to its cheapest") {
  const Grid g = terrain_grid(24, 18, 0.15, 0.2, 9);
  std::mt19937 rng(9);
  const Cell a = random_free_cell(g, rng), b = random_free_cell(g, rng);
  const Cell both[] = {a, b}, only_a[] = {a}, only_b[] = {b};
  const FlowField f = FlowField::build(g, both).value();
  const FlowField fa = FlowField::build(g, only_a).value(), fb = FlowField::build(g, only_b).value();
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      CHECK(same_cost(f.distance(Cell{x, y}), std::min(fa.distance(Cell{x, y}), fb.distance(Cell{x, y}))));
  check_downhill(f, g);
}

TEST_CASE("flow field: bad input is refused, naming it") {
  const Grid g = Grid::create(8, 8).value();
  const Cell outside[] = {Cell{8, 2}};
  auto r = FlowField::build(g, outside);
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "flow field: goal 0 (8, 2) is outside the map");
  CHECK(FlowField::build(g, std::span<const Cell>{}).error().message == "flow field: no goal cell");
  const Cell inside[] = {Cell{1, 1}};
  FlowFieldDef bad = default_flow_field_def();
  bad.agent_radius = -1.0;
  CHECK(FlowField::build(g, inside, bad).error().message.find("agent radius") != std::string::npos);
  bad = default_flow_field_def();
  bad.sight_range = std::nan("");
  CHECK(FlowField::build(g, inside, bad).error().message.find("sight_range") != std::string::npos);
  FlowField f = FlowField::build(g, inside).value();
  const Grid other = Grid::create(9, 8).value();
  CHECK(f.update(other, inside).error().message == "flow field update: the grid is 9x8, the field was built for 8x8");
  CHECK(f.update(g, outside).error().message == "flow field update: changed cell 0 (8, 2) is outside the map");
  // A goal in a wall: no way leads anywhere, and that is not an error.
  Grid walled = g;
  walled.set_blocked(1, 1, true);
  const FlowField none = FlowField::build(walled, inside).value();
  CHECK_FALSE(none.reachable(Cell{3, 3}));
  CHECK(none.route(walled, Vec2(3.5, 3.5), Vec2(1.5, 1.5), 0.3).empty());
  CHECK(none.direction(walled, Vec2(3.5, 3.5), 0.3) == Vec2(0.0));
}

TEST_CASE("flow field: a repair after random edits equals a rebuild") {
  // Walls painted and erased, swamp laid and lifted, doors (2-cell blocks) shut and opened,
  // some on the goal: after each edit the repaired field has the rebuilt field's costs.
  for (double r : {0.3, 0.8}) {
    for (uint32_t seed = 1; seed <= 4; ++seed) {
      CAPTURE(r);
      CAPTURE(seed);
      Grid g = terrain_grid(40, 32, 0.18, 0.1, 100 + seed);
      std::mt19937 rng(seed);
      const Cell goal[] = {random_free_cell(g, rng)};
      FlowField f = FlowField::build(g, goal, with_radius(r)).value();
      std::uniform_int_distribution<int> ux(0, 38), uy(0, 30), kind(0, 3), many(1, 5);
      for (int round = 0; round < 40; ++round) {
        CAPTURE(round);
        std::vector<Cell> changed;
        const int edits = many(rng);
        for (int e = 0; e < edits; ++e) {
          Cell c{ux(rng), uy(rng)};
          if (round % 10 == 9 && e == 0) c = goal[0];
          const int k = kind(rng);
          const int side = k == 3 ? 2 : 1;  // a door: a block of 2x2 cells
          for (int dy = 0; dy < side; ++dy) {
            for (int dx = 0; dx < side; ++dx) {
              const Cell d{c.x + dx, c.y + dy};
              const float cost = k == 0 ? kBlocked : k == 1 ? 1.0f : k == 2 ? 3.0f : (g.is_free(c) ? kBlocked : 1.0f);
              g.set_cost(d.x, d.y, cost);
              changed.push_back(d);
            }
          }
        }
        const auto u = f.update(g, changed);
        REQUIRE(u);
        const FlowField rebuilt = FlowField::build(g, goal, with_radius(r)).value();
        for (int y = 0; y < g.height(); ++y) {
          for (int x = 0; x < g.width(); ++x) {
            CAPTURE(x);
            CAPTURE(y);
            REQUIRE(same_cost(f.distance(Cell{x, y}), rebuilt.distance(Cell{x, y})));
            REQUIRE(f.passable(Cell{x, y}) == rebuilt.passable(Cell{x, y}));
          }
        }
        check_downhill(f, g);
      }
    }
  }
}

TEST_CASE("flow field: a wall painted far from the goal is repaired where it matters, not rebuilt") {
  // An open 64 x 64 map, the goal in one corner: a wall across the far corner changes the costs
  // of the cells behind it only.
  Grid g = Grid::create(64, 64).value();
  const Cell goal[] = {Cell{2, 2}};
  FlowField f = FlowField::build(g, goal).value();
  std::vector<Cell> wall;
  for (int x = 50; x < 60; ++x) {
    g.set_blocked(x, 52, true);
    wall.push_back(Cell{x, 52});
  }
  const FlowFieldUpdate u = f.update(g, wall).value();
  CHECK(u.changed_cells == 10);
  CHECK(u.touched_cells > 10);
  CHECK(u.touched_cells < g.cell_count() / 10);
  MESSAGE("a 10-cell wall: " << u.touched_cells << " of " << g.cell_count() << " cells searched again");
  const FlowField rebuilt = FlowField::build(g, goal).value();
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) REQUIRE(same_cost(f.distance(Cell{x, y}), rebuilt.distance(Cell{x, y})));
  // Listing cells that did not change changes nothing.
  CHECK(f.update(g, wall).value().touched_cells == 0);
}

TEST_CASE("flow field: a repair in pieces (begin_update, continue_update) gives update()'s bytes, whatever the budgets") {
  // The crowd spreads a field's repair over its steps (flow_field_spread.cpp), a budget of
  // work a step: the field must end as update() leaves it, to the last bit and way, and a piece
  // must stop within its budget.
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    CAPTURE(seed);
    Grid g = terrain_grid(48, 40, 0.2, 0.15, 300 + seed);
    std::mt19937 rng(seed);
    const Cell goal[] = {random_free_cell(g, rng)};
    FlowField whole = FlowField::build(g, goal).value();
    FlowField pieces = whole;
    std::uniform_int_distribution<int> ux(0, g.width() - 1), uy(0, g.height() - 1), cost(0, 2);
    for (int round = 0; round < 6; ++round) {
      std::vector<Cell> changed;
      for (int e = 0; e < 12; ++e) {
        const Cell c{ux(rng), uy(rng)};
        const int k = cost(rng);
        g.set_cost(c.x, c.y, k == 0 ? kBlocked : k == 1 ? 1.0f : 3.0f);
        changed.push_back(c);
      }
      REQUIRE(whole.update(g, changed));
      REQUIRE(pieces.begin_update(g, changed));
      const int64_t budget = 1 + 37 * round * round;  // 1, 38, 149, ... cells a piece
      int calls = 0;
      while (!pieces.update_done()) {
        const int64_t work = pieces.continue_update(budget);
        REQUIRE(work >= 1);
        REQUIRE(work <= budget);
        ++calls;
      }
      CHECK(pieces.continue_update(budget) == 0);
      if (round == 0) CHECK(calls > 10);  // budget 1: the repair did take many pieces
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          const Cell c{x, y};
          const double a = whole.distance(c), b = pieces.distance(c);
          REQUIRE(std::memcmp(&a, &b, sizeof a) == 0);
          REQUIRE(whole.next_cell(c) == pieces.next_cell(c));
        }
      }
    }
  }
}

TEST_CASE("flow field: the preferred direction never points into a wall cell") {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    const Grid g = terrain_grid(32, 24, 0.25, 0.1, 200 + seed);
    std::mt19937 rng(seed);
    const Cell goal[] = {random_free_cell(g, rng)};
    for (double r : {0.0, 0.3, 0.7}) {
      CAPTURE(seed);
      CAPTURE(r);
      const FlowField f = FlowField::build(g, goal, with_radius(std::max(r, 0.5))).value();
      std::uniform_real_distribution<double> off(0.05, 0.95);
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          if (!f.reachable(Cell{x, y})) continue;
          for (int k = 0; k < 4; ++k) {
            const Vec2 p = k == 0 ? cell_center(Cell{x, y}) : Vec2(x + off(rng), y + off(rng));
            if (!point_clear(g, p, r)) continue;
            CAPTURE(p.x);
            CAPTURE(p.y);
            const Vec2 d = f.direction(g, p, r);
            if (Cell{x, y} == goal[0]) {
              CHECK(d == Vec2(0.0));
              continue;
            }
            REQUIRE(std::abs(glm::length(d) - 1.0) < 1e-9);
            // The first quarter cell along it stays clear for the radius: no wall cell ahead.
            CHECK(segment_clear(g, p, p + 0.25 * d, r));
            const Cell ahead = cell_of(p + 0.25 * d);
            CHECK(g.is_free(ahead));
          }
        }
      }
    }
  }
}

TEST_CASE("flow field: read in the open, the way is straight, not the field's eight directions") {
  // On an empty map the route from anywhere is the straight line to the goal, and a unit
  // stepping along direction() walks within 1% of the straight length (the way downhill
  // alone, a staircase of 8 directions, is 8% longer from this start; with sight_range 8, 12,
  // 16, 24, 48 the walk was 3.2%, 2.3%, 1.6%, 0.4%, 0.04% longer than straight).
  Grid g = Grid::create(48, 32).value();
  const Cell goal[] = {Cell{40, 6}};
  const FlowField f = FlowField::build(g, goal).value();
  const Vec2 start(5.5, 25.5), end = cell_center(goal[0]);
  const std::vector<Vec2> route = f.route(g, start, end, 0.3);
  REQUIRE(route.size() == 2);
  CHECK(route.back() == end);
  Vec2 p = start;
  double walked = 0.0;
  for (int k = 0; k < 2000 && glm::length(p - end) > 0.6; ++k) {
    const Vec2 d = f.direction(g, p, 0.3);
    REQUIRE(glm::length(d) > 0.5);
    p += 0.05 * d;
    walked += 0.05;
  }
  REQUIRE(glm::length(p - end) <= 0.6);
  const double straight = glm::length(end - start);
  MESSAGE("walked " << walked << " for a straight " << straight << ", field cost " << f.distance(cell_of(start)));
  CHECK(walked + 0.6 <= 1.01 * straight + 0.05);
  CHECK(f.distance(cell_of(start)) > 1.05 * straight);
}

TEST_CASE("flow field: a route round walls is clear for its radius and ends at the target") {
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    const Grid g = terrain_grid(40, 30, 0.2, 0.0, 300 + seed);
    std::mt19937 rng(seed);
    const Cell goal[] = {random_free_cell(g, rng)};
    const FlowField f = FlowField::build(g, goal, with_radius(0.5)).value();
    for (int k = 0; k < 40; ++k) {
      const Cell c = random_free_cell(g, rng);
      if (!f.reachable(c)) continue;
      const Vec2 from = cell_center(c) + Vec2(0.1, -0.15);
      if (!point_clear(g, from, 0.3)) continue;
      const std::vector<Vec2> route = f.route(g, from, cell_center(goal[0]), 0.3);
      CAPTURE(seed);
      CAPTURE(k);
      REQUIRE(route.size() >= 2);
      CHECK(route.front() == from);
      CHECK(route.back() == cell_center(goal[0]));
      CHECK(polyline_clear(g, route, 0.3));
      // No longer than the field's own way (the cost on plain ground).
      CHECK(polyline_length(route) <= f.distance(c) + 0.5);
    }
  }
}

TEST_CASE("flow field: with sight_within_costs the smoothing keeps out of a dear band the way goes round") {
  // A band of cost 5 (x 18..22, y 0..13) between start and goal: the field's way goes round
  // it through the plain gap below (about 8 cells longer, 20 cheaper than across). Plain sight
  // pulls the route straight across the band; with sight_within_costs no piece of the route
  // runs through a cell dearer than both its ends, and the unit is sent down to the gap.
  Grid g = Grid::create(40, 20).value();
  for (int y = 0; y < 14; ++y)
    for (int x = 18; x <= 22; ++x) g.set_cost(x, y, 5.0f);
  const Cell goal[] = {Cell{35, 2}};
  const Vec2 start(5.5, 2.5), end = cell_center(goal[0]);
  FlowFieldDef def = with_radius(0.5);
  const FlowField plain = FlowField::build(g, goal, def).value();
  def.sight_within_costs = true;
  const FlowField kept = FlowField::build(g, goal, def).value();
  CHECK(plain.route(g, start, end, 0.3).size() == 2);  // straight across the band
  const std::vector<Vec2> route = kept.route(g, start, end, 0.3);
  REQUIRE(route.size() >= 3);
  CHECK(route.back() == end);
  CHECK(polyline_clear(g, route, 0.3));
  auto cost_at = [&](Vec2 p) { return g.cost(cell_of(p)); };
  for (size_t k = 0; k + 1 < route.size(); ++k) {
    const float ends = std::max(cost_at(route[k]), cost_at(route[k + 1]));
    for (double t = 0.0; t <= 1.0; t += 0.01) {
      CAPTURE(k);
      CAPTURE(t);
      CHECK(cost_at(route[k] + t * (route[k + 1] - route[k])) <= ends);
    }
  }
  // The direction read at the start heads down towards the gap (more than 20 degrees off
  // the straight line right, along the field's way).
  CHECK(kept.direction(g, start, 0.3).y > 0.34);
  // Where every cell costs the same, the option changes nothing.
  const Grid walls = terrain_grid(40, 30, 0.2, 0.0, 311);
  std::mt19937 rng(311);
  const Cell wgoal[] = {random_free_cell(walls, rng)};
  FlowFieldDef d2 = with_radius(0.5);
  const FlowField off = FlowField::build(walls, wgoal, d2).value();
  d2.sight_within_costs = true;
  const FlowField on = FlowField::build(walls, wgoal, d2).value();
  for (int k = 0; k < 30; ++k) {
    const Vec2 from = cell_center(random_free_cell(walls, rng));
    CHECK(off.route(walls, from, cell_center(wgoal[0]), 0.3) == on.route(walls, from, cell_center(wgoal[0]), 0.3));
  }
}

TEST_CASE("flow field: same input, same bytes; a copy repairs as the original") {
  Grid g = terrain_grid(36, 28, 0.2, 0.1, 77);
  std::mt19937 rng(77);
  const Cell goal[] = {random_free_cell(g, rng)};
  FlowField a = FlowField::build(g, goal, with_radius(0.8)).value();
  FlowField b = FlowField::build(g, goal, with_radius(0.8)).value();
  const std::vector<Cell> wall = {Cell{10, 10}, Cell{11, 10}, Cell{12, 10}};
  for (const Cell& c : wall) g.set_blocked(c.x, c.y, true);
  FlowField c = a;
  REQUIRE(a.update(g, wall));
  REQUIRE(b.update(g, wall));
  REQUIRE(c.update(g, wall));
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const Cell cell{x, y};
      const double da = a.distance(cell), db = b.distance(cell), dc = c.distance(cell);
      CHECK(std::memcmp(&da, &db, sizeof da) == 0);
      CHECK(std::memcmp(&da, &dc, sizeof da) == 0);
      CHECK(a.next_cell(cell) == b.next_cell(cell));
      CHECK(a.next_cell(cell) == c.next_cell(cell));
    }
  }
}
