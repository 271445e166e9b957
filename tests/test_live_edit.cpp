// Live map edits (issue 28): GridPathfinder::update() and refresh() mend the preprocessing in
// place, and what they leave equals a rebuild: the padded map, the uniform-cost flag and JPS's
// jump tables entry for entry, and the answers of A*, JPS and Theta*, after random brush
// strokes (paint, erase, terrain; at the border too).

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <random>

#include "generated_maps.hpp"
#include "grid/grid_search_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/plan/registry.hpp"

using namespace pathlab;
using test::brush_stroke;
using test::random_free_cell;

namespace {

bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

/// A stroke centre: a third of them on or next to the map's border.
Cell stroke_centre(std::mt19937& rng, const Grid& g) {
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1), edge(0, 5);
  Cell c{x(rng), y(rng)};
  switch (edge(rng)) {
    case 0: c.x = edge(rng) % 2; break;
    case 1: c.y = g.height() - 1 - edge(rng) % 2; break;
    default: break;
  }
  return c;
}

float stroke_cost(std::mt19937& rng) {
  switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0:
    case 1: return 1.0f;  // erase
    case 2: return 3.0f;  // terrain
    default: return kBlocked;
  }
}

/// Makes `pf` build what JPS needs: a query from a cell passable for the agent to itself.
/// False when no cell is passable (then nothing is built).
bool prime(GridPathfinder& pf, const Grid& g, double radius) {
  const std::vector<uint8_t> pass = passable_cells(g, radius);
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x)
      if (pass[static_cast<size_t>(g.index(x, y))]) {
        GridSearchOptions o;
        o.agent_radius = radius;
        o.jps_jumps = JpsJumps::blocks;  // the passability bits
        REQUIRE(pf.find_path(GridPlanner::jps, Cell{x, y}, Cell{x, y}, o).ok());
        o.jps_jumps = JpsJumps::tables;  // and the tables
        REQUIRE(pf.find_path(GridPlanner::jps, Cell{x, y}, Cell{x, y}, o).ok());
        return true;
      }
  return false;
}

/// The workspace of `mended` equals that of a pathfinder built on `g` from scratch, after
/// both were primed (JPS's passability bits and jump tables built).
void check_equals_rebuild(const Grid& g, GridPathfinder& mended, double radius) {
  GridPathfinder fresh(g);
  if (!prime(fresh, g, radius)) return;
  REQUIRE(prime(mended, g, radius));
  const GridSearchWorkspace& a = mended.workspace();
  const GridSearchWorkspace& b = fresh.workspace();
  REQUIRE(a.pg.w == b.pg.w);
  REQUIRE(a.pg.h == b.pg.h);
  CHECK(a.pg.uniform == b.pg.uniform);
  REQUIRE(a.pg.pass == b.pg.pass);
  // The cost multipliers are built only where read (always on a non-uniform map).
  CHECK((a.pg.uniform || (a.pg.cost_ready && b.pg.cost_ready)));
  if (a.pg.cost_ready && b.pg.cost_ready) REQUIRE(a.pg.cost == b.pg.cost);
  REQUIRE(a.source_cost == b.source_cost);
  REQUIRE(a.pass_bits_ready);
  REQUIRE(b.pass_bits_ready);
  REQUIRE(a.pass_bits.rows == b.pass_bits.rows);
  REQUIRE(a.pass_bits.cols == b.pass_bits.cols);
  REQUIRE(a.jump_tables_ready);
  REQUIRE(b.jump_tables_ready);
  REQUIRE(a.jumps.size() == b.jumps.size());
  for (size_t i = 0; i < a.jumps.size(); ++i) {
    if (std::memcmp(&a.jumps[i], &b.jumps[i], sizeof a.jumps[i]) != 0) {
      const Cell c = a.pg.cell(static_cast<int>(i));
      FAIL("jump entry of cell (" << c.x << "," << c.y << ") differs from a rebuild's");
    }
  }
}

/// A*, JPS and Theta* answer `n` random queries alike on the mended and a fresh pathfinder;
/// JPS twice on the mended one: from its mended tables and from its mended passability bits
/// (the fresh one jumps by blocks on its new bits).
void check_same_answers(const Grid& g, GridPathfinder& mended, std::mt19937& rng, int n, double radius) {
  GridPathfinder fresh(g);
  GridSearchOptions o, by_blocks;
  o.agent_radius = by_blocks.agent_radius = radius;
  by_blocks.jps_jumps = JpsJumps::blocks;
  std::uniform_int_distribution<int> x(0, g.width() - 1), y(0, g.height() - 1);
  for (int i = 0; i < n; ++i) {
    const Cell s{x(rng), y(rng)}, t{x(rng), y(rng)};
    for (int k = 0; k < 4; ++k) {
      const GridPlanner p = k == 0 ? GridPlanner::astar : k == 3 ? GridPlanner::theta : GridPlanner::jps;
      CAPTURE(to_string(p));
      CAPTURE(k);
      auto a = mended.find_path(p, s, t, k == 2 ? by_blocks : o);
      auto b = fresh.find_path(p, s, t, o);
      REQUIRE(a.ok() == b.ok());
      if (!a.ok()) {
        CHECK(a.error().message == b.error().message);
        continue;
      }
      REQUIRE(a->found == b->found);
      CHECK(a->cells == b->cells);
      CHECK(a->length == b->length);  // the same search on the same tables: bit for bit
      CHECK(a->cost == b->cost);
      CHECK(a->expanded == b->expanded);
      CHECK(a->details == b->details);
    }
  }
}

/// `strokes` random strokes on `g`, each mended with update(); tables compared after every
/// stroke, answers after every 10th.
void run_strokes(Grid g, int strokes, uint32_t seed, double radius) {
  std::mt19937 rng(seed);
  GridPathfinder mended(g);
  REQUIRE(prime(mended, g, radius));  // builds what JPS needs, so the strokes mend it
  for (int i = 0; i < strokes; ++i) {
    CAPTURE(i);
    const int r = std::uniform_int_distribution<int>(1, 8)(rng);
    const CellRect rect = brush_stroke(g, stroke_centre(rng, g), r, stroke_cost(rng));
    REQUIRE(mended.update(g, rect).ok());
    check_equals_rebuild(g, mended, radius);
    if (i % 10 == 9) check_same_answers(g, mended, rng, 3, radius);
  }
}

Grid random_map(int side, uint32_t seed) {
  Grid g = Grid::create(side, side).value();
  generate_random(g, 0.10, seed);
  return g;
}

Grid room_map(int side, uint32_t seed) {
  Grid g = Grid::create(side, side).value();
  generate_rooms(g, 12, 2, seed);
  return g;
}

}  // namespace

TEST_CASE("live edit: 1,000 strokes on a random map, mended equals rebuilt") {
  run_strokes(random_map(80, 7), sanitized() ? 100 : 1000, 11, 0.0);
}

TEST_CASE("live edit: 1,000 strokes on a room map, mended equals rebuilt") {
  run_strokes(room_map(96, 3), sanitized() ? 100 : 1000, 12, 0.0);
}

TEST_CASE("live edit: strokes on a sparse 300x300 map, where jumps outgrow an 8-bit table entry, mended equals rebuilt") {
  // Runs of up to 300 cells: the tables' entries say "far" past 126 steps (jps_tables.cpp), and
  // a stroke can turn what a long run ends at from a jump point into a wall, far back along it.
  Grid g = Grid::create(300, 300).value();
  generate_random(g, 0.004, 21);
  run_strokes(g, sanitized() ? 12 : 80, 16, 0.0);
}

TEST_CASE("live edit: a wide agent's passability is mended within its reach of the strokes") {
  run_strokes(room_map(64, 5), sanitized() ? 30 : 200, 13, 1.6);
  run_strokes(random_map(64, 9), sanitized() ? 30 : 200, 14, 0.9);
}

TEST_CASE("live edit: refresh() finds the changed cells itself, on a copy of the map too") {
  Grid g = room_map(72, 21);
  std::mt19937 rng(22);
  GridPathfinder mended(g);
  REQUIRE(prime(mended, g, 0.0));
  for (int i = 0; i < (sanitized() ? 20 : 200); ++i) {
    CAPTURE(i);
    Grid copy = g;  // the sandbox's worker plans on a copy of the scene per request
    for (int k = 0; k < 3; ++k)
      brush_stroke(copy, stroke_centre(rng, copy), std::uniform_int_distribution<int>(1, 8)(rng), stroke_cost(rng));
    mended.refresh(copy);
    check_equals_rebuild(copy, mended, 0.0);
    if (i % 10 == 0) check_same_answers(copy, mended, rng, 3, 0.0);
    g = copy;
    mended.refresh(g);  // the same costs: nothing to mend
  }
  // A map of another size, or one changed nearly everywhere, is a rebuild: still equal.
  Grid other = random_map(50, 4);
  mended.refresh(other);
  check_equals_rebuild(other, mended, 0.0);
  Grid shuffled = random_map(50, 5);
  mended.refresh(shuffled);
  check_equals_rebuild(shuffled, mended, 0.0);
}

TEST_CASE("live edit: an empty rectangle, one outside the map, another map size: clear errors") {
  Grid g = random_map(40, 1);
  GridPathfinder pf(g);
  REQUIRE(prime(pf, g, 0.0));
  auto empty = pf.update(g, CellRect{Cell{5, 5}, Cell{4, 9}});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().code == StatusCode::invalid_argument);
  CHECK(empty.error().message == "changed rectangle (5,5)-(4,9) is empty (max below min)");
  auto outside = pf.update(g, CellRect{Cell{40, 0}, Cell{45, 3}});
  REQUIRE_FALSE(outside.ok());
  CHECK(outside.error().code == StatusCode::out_of_bounds);
  CHECK(outside.error().message == "changed rectangle (40,0)-(45,3) lies outside the 40x40 map");
  auto negative = pf.update(g, CellRect{Cell{-9, -9}, Cell{-1, 10}});
  REQUIRE_FALSE(negative.ok());
  CHECK(negative.error().code == StatusCode::out_of_bounds);
  Grid bigger = random_map(41, 1);
  auto size = pf.update(bigger, CellRect{Cell{0, 0}, Cell{3, 3}});
  REQUIRE_FALSE(size.ok());
  CHECK(size.error().message == "the grid is 41x41, the pathfinder was prepared for 40x40: call reset() for another map");
  // A rectangle reaching past the border is clipped, not refused.
  g.set_blocked(0, 0, true);
  CHECK(pf.update(g, CellRect{Cell{-3, -3}, Cell{2, 2}}).ok());
  check_equals_rebuild(g, pf, 0.0);
}

TEST_CASE("live edit: cost multipliers built only where read, never stale from another map") {
  // A pathfinder on a uniform map leaves the multipliers out; the buffers of a costly map of
  // the same size (handed on to the next pathfinder) must not leak into Theta* or turns.
  Grid costly = Grid::create(30, 30).value();
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 30; ++x) costly.set_cost(x, y, 4.0f);
  {
    GridPathfinder pf(costly);
    auto r = pf.find_path(GridPlanner::astar, Cell{0, 0}, Cell{10, 0});
    REQUIRE(r.ok());
    CHECK(r->cost == doctest::Approx(40.0).epsilon(1e-12));
  }
  Grid flat = Grid::create(30, 30).value();
  GridPathfinder pf(flat);
  REQUIRE(pf.find_path(GridPlanner::astar, Cell{0, 0}, Cell{10, 0}).ok());
  CHECK_FALSE(pf.workspace().pg.cost_ready);
  auto theta = pf.find_path(GridPlanner::theta, Cell{0, 0}, Cell{10, 0});
  REQUIRE(theta.ok());
  CHECK(theta->cost == doctest::Approx(10.0).epsilon(1e-12));
  GridSearchOptions turns;
  turns.turn_penalty = 0.5;
  auto turned = pf.find_path(GridPlanner::astar, Cell{0, 0}, Cell{10, 0}, turns);
  REQUIRE(turned.ok());
  CHECK(turned->cost == doctest::Approx(10.0).epsilon(1e-12));
  // An edit that makes the map costly builds them; A* then pays the new cost.
  GridPathfinder fresh_flat(flat);
  REQUIRE(fresh_flat.find_path(GridPlanner::astar, Cell{0, 0}, Cell{10, 0}).ok());
  flat.set_cost(5, 0, 3.0f);
  REQUIRE(fresh_flat.update(flat, CellRect{Cell{5, 0}, Cell{5, 0}}).ok());
  CHECK(fresh_flat.workspace().pg.cost_ready);
  auto mended = fresh_flat.find_path(GridPlanner::astar, Cell{0, 0}, Cell{10, 0});
  auto rebuilt = find_grid_path(flat, GridPlanner::astar, Cell{0, 0}, Cell{10, 0});
  REQUIRE(mended.ok());
  REQUIRE(rebuilt.ok());
  CHECK(mended->cost == rebuilt->cost);
  CHECK(mended->cost < 11.0);  // the costly cell is worth going around, not through at 3
  check_equals_rebuild(flat, fresh_flat, 0.0);
}

TEST_CASE("live edit: the planning service mends its grid pathfinder after map_changed(), on a copy too") {
  Grid g = room_map(64, 8);
  std::mt19937 rng(31);
  plan::PlanService service;  // kept across the edits, as the sandbox's worker keeps it
  for (int i = 0; i < (sanitized() ? 10 : 60); ++i) {
    CAPTURE(i);
    brush_stroke(g, stroke_centre(rng, g), std::uniform_int_distribution<int>(1, 8)(rng), stroke_cost(rng));
    service.map_changed();
    // Every other round plans on a copy (the worker's request holds its own scene).
    const Grid copy = g;
    const Grid& planned = i % 2 == 0 ? g : copy;
    for (const plan::PlannerId id : {plan::PlannerId::astar, plan::PlannerId::jps, plan::PlannerId::theta}) {
      plan::PlanRequest req;
      req.settings.planner = plan::planner_name(id);
      req.settings.smoother = plan::smoother_name(plan::SmootherId::none);
      req.start = Pose{cell_center(random_free_cell(planned, rng)), 0.0};
      req.goal = Pose{cell_center(random_free_cell(planned, rng)), 0.0};
      const plan::PlanResult mended = service.plan(planned, req);
      plan::PlanService fresh;
      const plan::PlanResult rebuilt = fresh.plan(planned, req);
      CAPTURE(req.settings.planner);
      REQUIRE(mended.error == rebuilt.error);
      REQUIRE(mended.found == rebuilt.found);
      CHECK(mended.points == rebuilt.points);
      CHECK(mended.length == rebuilt.length);
      CHECK(mended.expanded == rebuilt.expanded);
    }
  }
}
