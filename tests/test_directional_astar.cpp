// Directional A* (Pinter 2001): lattice moves, legality of every path, and the article's figure-8
// situation, where the plain A* route's turn is illegal and a legal route goes elsewhere.

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>

#include "heading_support.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/turning_smoother.hpp"
#include "test_support.hpp"
#include "visibility_reference.hpp"

using namespace pathlab;

namespace {

bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

/// The figure-8 map. The short route (plain A*) runs along the 1-wide corridor of row 10 and
/// turns north into the 1-wide corridor of column 7: two right-angle turns no unit of
/// radius 2 can make there. The long route crosses the room on the right.
Grid figure8_grid() {
  return test::grid_from_rows({
      "####################",  // 0
      "#..................#",  // 1  top room
      "#..................#",  // 2
      "#..................#",  // 3
      "#######.####.......#",  // 4  column 7: the narrow way up
      "#######.####.......#",  // 5
      "#######.####.......#",  // 6
      "#######.####.......#",  // 7
      "#######.####.......#",  // 8
      "#######.####.......#",  // 9
      "#..................#",  // 10 the narrow corridor from the start, then the room
      "############.......#",  // 11
      "############.......#",  // 12
      "############.......#",  // 13
      "############.......#",  // 14
      "############.......#",  // 15
      "############.......#",  // 16
      "####################",  // 17
  });
}

const Pose kFig8Start{Vec2(1.5, 10.5), 0.0};       // heading east
const Pose kFig8Goal{Vec2(3.5, 2.5), kPi};          // heading west

bool visits_column7_corridor(const SegmentPath& path) {
  auto samples = path.sample(0.05);
  REQUIRE(samples.ok());
  for (const PathSample& s : *samples) {
    const Cell c = cell_of(s.state.pos);
    if (c.x == 7 && c.y >= 4 && c.y <= 9) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("directional A*: the move table holds legal curves between lattice poses") {
  const Grid grid = Grid::create(10, 10).value();
  DirectionalAStarOptions o;
  o.turning_radius = 1.5;
  o.neighborhood = 24;
  auto planner = DirectionalAStar::create(grid, o);
  REQUIRE(planner.ok());
  bool straight = false;
  for (const DirectionalMove& m : planner->moves()) {
    CHECK(m.length > 0.0);
    // A move is at least as long as the straight line between the cell centres.
    CHECK(m.length >= std::hypot(m.offset.x, m.offset.y) - 1e-9);
    CHECK(std::max(std::abs(m.offset.x), std::abs(m.offset.y)) <= 2);
    // The footprint contains the start and the target cell.
    bool has_start = false, has_end = false;
    for (const Cell& c : m.footprint) {
      has_start |= c == Cell{0, 0};
      has_end |= c == m.offset;
    }
    CHECK(has_start);
    CHECK(has_end);
    if (m.from_heading == 0 && m.to_heading == 0 && m.offset == Cell{1, 0}) {
      straight = true;
      CHECK(m.length == doctest::Approx(1.0).epsilon(1e-12));
      CHECK(m.footprint.size() == 2);  // a straight step through cell centres touches two cells
    }
  }
  CHECK(straight);
  // The neighbourhood bounds the offsets: 4 allows only orthogonal steps.
  o.neighborhood = 4;
  auto four = DirectionalAStar::create(grid, o);
  REQUIRE(four.ok());
  for (const DirectionalMove& m : four->moves()) CHECK(std::abs(m.offset.x) + std::abs(m.offset.y) == 1);
  CHECK(four->moves().size() < planner->moves().size());
}

TEST_CASE("directional A*: the automatic neighbourhood has legal turning moves for large radii") {
  const Grid grid = Grid::create(40, 40).value();
  for (const double radius : {0.5, 1.0, 2.0, 2.5, 4.0, 7.3}) {
    CAPTURE(radius);
    DirectionalAStarOptions o;
    o.turning_radius = radius;
    REQUIRE(o.neighborhood == 0);  // auto is the default
    auto planner = DirectionalAStar::create(grid, o);
    REQUIRE(planner.ok());
    CHECK(planner->reach() == directional_auto_reach(radius));
    CHECK(planner->reach() == static_cast<int>(std::ceil(std::sqrt(2.0) * radius)) + 1);
    // turns[h][k]: some move from heading h changes the heading by k * 45 degrees.
    bool turns[8][8] = {};
    int per_heading[8] = {};
    for (const DirectionalMove& m : planner->moves()) {
      ++per_heading[m.from_heading];
      turns[m.from_heading][(m.to_heading - m.from_heading + 8) % 8] = true;
      CHECK(std::max(std::abs(m.offset.x), std::abs(m.offset.y)) <= planner->reach());
      CHECK(m.length >= std::hypot(m.offset.x, m.offset.y) - 1e-9);
      // Legal: exact end pose, no arc tighter than the radius, and no more total turning
      // than the heading change plus a quarter turn (no loops).
      const Pose from{Vec2(0.5, 0.5), m.from_heading * kPi / 4};
      const Pose to{Vec2(0.5 + m.offset.x, 0.5 + m.offset.y), m.to_heading * kPi / 4};
      auto path = dubins_to_path(from, to, radius, m.curve);
      REQUIRE(path.ok());
      CHECK(glm::length(path->end().pos - to.pos) < 1e-9);
      CHECK(test::heading_gap(path->end().heading, to.heading) < 1e-9);
      CHECK(path->length() == doctest::Approx(m.length).epsilon(1e-12));
      double turned = 0.0;
      for (const Segment& seg : path->segments())
        if (seg.kind == SegmentKind::arc) {
          CHECK(seg.radius >= radius * (1 - 1e-12));
          turned += std::abs(seg.sweep);
        }
      const double change = test::heading_gap(from.heading, to.heading);
      CHECK(turned <= std::min(kPi, change + kPi / 2) + 1e-9);
      // The footprint holds both end cells; extent is its Chebyshev size (curves may bulge
      // past the offset square).
      int extent = 0;
      bool has_start = false, has_end = false;
      for (const Cell& c : m.footprint) {
        extent = std::max(extent, std::max(std::abs(c.x), std::abs(c.y)));
        has_start |= c == Cell{0, 0};
        has_end |= c == m.offset;
      }
      CHECK(has_start);
      CHECK(has_end);
      CHECK(m.extent == extent);
    }
    for (int h = 0; h < 8; ++h) {
      CAPTURE(h);
      // Straight on, 45 and 90 degrees either way exist from every heading ...
      for (const int k : {0, 1, 2, 6, 7}) CHECK(turns[h][k]);
      // ... and dominated moves are gone: a modest branching factor.
      CHECK(per_heading[h] <= 60);
    }
  }
  // The article's fixed neighbourhoods cannot turn at radius 4: the reported limitation.
  DirectionalAStarOptions fixed;
  fixed.turning_radius = 4.0;
  fixed.neighborhood = 48;
  auto seven = DirectionalAStar::create(grid, fixed);
  REQUIRE(seven.ok());
  CHECK(seven->reach() == 3);
  for (const DirectionalMove& m : seven->moves()) CHECK(m.to_heading == m.from_heading);
  // Radii whose square of offsets would be too wide are refused, naming the option.
  DirectionalAStarOptions wide;
  wide.turning_radius = 40.0;
  auto refused = DirectionalAStar::create(grid, wide);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == StatusCode::invalid_argument);
  CHECK(refused.error().message.find("turning radius") != std::string::npos);
  CHECK(refused.error().message.find("neighborhood") != std::string::npos);
  wide.neighborhood = 24;
  CHECK(DirectionalAStar::create(grid, wide).ok());
}

TEST_CASE("directional A*: radius 4 turns round and reaches every heading on an open map") {
  const Grid grid = Grid::create(40, 40).value();
  DirectionalAStarOptions o;
  o.turning_radius = 4.0;
  o.agent_radius = 0.5;
  auto planner = DirectionalAStar::create(grid, o);
  REQUIRE(planner.ok());
  const Pose start{Vec2(20.5, 20.5), 0.0};
  // Every goal heading, in front, beside and behind: U-turns and lane changes included.
  const Vec2 places[] = {{32.5, 20.5}, {20.5, 30.5}, {10.5, 20.5}, {20.5, 9.5}, {23.5, 21.5}};
  int found = 0, tried = 0;
  for (const Vec2 at : places)
    for (int k = 0; k < 8; ++k) {
      const Pose goal{at, k * kPi / 4};
      CAPTURE(at.x);
      CAPTURE(at.y);
      CAPTURE(k);
      auto out = planner->plan(start, goal);
      REQUIRE(out.ok());
      ++tried;
      REQUIRE(out->found);
      ++found;
      test::check_legal(grid, *out, o.turning_radius, o.agent_radius, start, goal);
      // No shorter than the obstacle-free Dubins curve, and not absurdly longer.
      const double dubins = dubins_length(start, goal, o.turning_radius).value();
      CHECK(out->length >= dubins - 1e-9);
      CHECK(out->length <= 1.6 * dubins + 4.0);
    }
  CHECK(found == tried);
}

TEST_CASE("directional A*: radius 4 on random maps finds legal paths") {
  const int maps = sanitized() ? 2 : 8;
  int found = 0, tried = 0, reference_found = 0;
  double sum_ratio = 0.0;
  for (int m = 0; m < maps; ++m) {
    const Grid grid = test::random_grid(48, 48, 0.03 + 0.01 * (m % 3), 1300u + static_cast<uint32_t>(m));
    DirectionalAStarOptions o;
    o.turning_radius = 4.0;
    o.agent_radius = m % 2 ? 0.4 : 0.0;
    auto planner = DirectionalAStar::create(grid, o);
    REQUIRE(planner.ok());
    HybridAStarOptions ho;
    ho.turning_radius = o.turning_radius;
    ho.agent_radius = o.agent_radius;
    ho.max_expansions = 0;
    auto reference = HybridAStar::create(grid, ho);
    REQUIRE(reference.ok());
    std::mt19937 rng(31u + static_cast<uint32_t>(m));
    std::uniform_int_distribution<int> cell(4, 43), head(0, 7);
    for (int q = 0, guard = 0; q < 6 && guard < 200; ++guard) {
      const Cell a{cell(rng), cell(rng)}, b{cell(rng), cell(rng)};
      const Pose s{cell_center(a), head(rng) * kPi / 4}, g{cell_center(b), head(rng) * kPi / 4};
      // Ends with room to turn in: a unit of radius 4 boxed in at its start is stuck anyway.
      if (!point_clear(grid, s.pos, 1.5) || !point_clear(grid, g.pos, 1.5) || glm::length(s.pos - g.pos) < 12.0) continue;
      ++q;
      auto out = planner->plan(s, g);
      REQUIRE(out.ok());
      ++tried;
      // The reference: Hybrid A* without a budget, on continuous poses.
      auto ref = reference->plan(s, g);
      REQUIRE(ref.ok());
      reference_found += ref->found;
      if (!out->found) {
        CHECK(out->failure == HeadingFailure::unreachable);
        continue;
      }
      ++found;
      test::check_legal(grid, *out, o.turning_radius, o.agent_radius, s, g);
      const double dubins = dubins_length(s, g, o.turning_radius).value();
      CHECK(out->length >= dubins - 1e-9);
      sum_ratio += out->length / dubins;
    }
  }
  MESSAGE("directional A* radius 4 on random 48x48 maps: ", found, "/", tried, " found (hybrid A* without budget: ",
          reference_found, "), mean length / Dubins ", found ? sum_ratio / found : 0.0);
  // Some random ends are boxed in for a unit of radius 4 (Hybrid A* fails there too): the
  // lattice should find nearly everything the continuous search finds.
  CHECK(found >= reference_found * 9 / 10);
  CHECK(found >= tried / 2);
}

TEST_CASE("directional A*: bad options and poses are errors that name the argument") {
  const Grid grid = Grid::create(8, 8).value();
  DirectionalAStarOptions o;
  o.turning_radius = 0.0;
  auto bad = DirectionalAStar::create(grid, o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("turning radius") != std::string::npos);
  o = default_directional_astar_options();
  o.neighborhood = 12;
  bad = DirectionalAStar::create(grid, o);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("neighborhood") != std::string::npos);
  o = default_directional_astar_options();
  o.agent_radius = -1;
  CHECK_FALSE(DirectionalAStar::create(grid, o).ok());

  auto planner = DirectionalAStar::create(grid, default_directional_astar_options());
  REQUIRE(planner.ok());
  auto out = planner->plan(Pose{Vec2(20, 1), 0}, Pose{Vec2(1, 1), 0});
  REQUIRE_FALSE(out.ok());
  CHECK(out.error().code == StatusCode::out_of_bounds);
  CHECK(out.error().message.find("start") != std::string::npos);
  out = planner->plan(Pose{Vec2(1, 1), 0}, Pose{Vec2(1, 1), std::nan("")});
  REQUIRE_FALSE(out.ok());
  CHECK(out.error().message.find("goal") != std::string::npos);
}

TEST_CASE("directional A*: no path comes with the reason") {
  Grid grid = test::grid_from_rows({
      "..#.....",
      "..#.....",
      "..#.....",
      "..#.....",
  });
  auto planner = DirectionalAStar::create(grid, default_directional_astar_options());
  REQUIRE(planner.ok());
  auto walled = planner->plan(Pose{Vec2(0.5, 0.5), 0}, Pose{Vec2(6.5, 2.5), 0});
  REQUIRE(walled.ok());
  CHECK_FALSE(walled->found);
  CHECK(walled->failure == HeadingFailure::unreachable);
  CHECK(walled->expanded == 0);  // the 2D distance field already says so
  auto in_wall = planner->plan(Pose{Vec2(0.5, 0.5), 0}, Pose{Vec2(2.5, 2.5), 0});
  REQUIRE(in_wall.ok());
  CHECK(in_wall->failure == HeadingFailure::goal_in_collision);
  CHECK_FALSE(in_wall->reason.empty());
  // The left strip is 2 cells wide: a unit of radius 2 cannot turn round in it.
  DirectionalAStarOptions o;
  o.turning_radius = 2.0;
  o.max_expansions = 3;
  auto budget = DirectionalAStar::create(grid, o);
  REQUIRE(budget.ok());
  // Facing the wall in the corner: it could only be entered from outside the map. The fast
  // goal check says so before any expansion (it used to spend the budget of 3).
  auto b = budget->plan(Pose{Vec2(0.5, 0.5), kPi / 2}, Pose{Vec2(0.5, 3.5), 0});
  REQUIRE(b.ok());
  CHECK(b->failure == HeadingFailure::unreachable);
  CHECK(b->expanded == 0);
  CHECK(b->reason.find("cannot be entered with turning radius 2") != std::string::npos);
  o.max_expansions = 0;
  auto none = DirectionalAStar::create(grid, o);
  auto u = none->plan(Pose{Vec2(0.5, 0.5), kPi / 2}, Pose{Vec2(0.5, 0.5), -kPi / 2});
  REQUIRE(u.ok());
  CHECK_FALSE(u->found);
  CHECK(u->failure == HeadingFailure::unreachable);
  CHECK(u->expanded > 0);
}

TEST_CASE("directional A*: Pinter's figure 8, the plain A* route's turn is illegal") {
  const Grid grid = figure8_grid();
  const double radius = 2.0;

  // Plain A* takes the short route up column 7 ...
  auto astar = find_grid_path(grid, GridPlanner::astar, cell_of(kFig8Start.pos), cell_of(kFig8Goal.pos));
  REQUIRE(astar.ok());
  REQUIRE(astar->found);
  bool through_corridor = false;
  for (const Cell& c : astar->cells) through_corridor |= c.x == 7 && c.y >= 4 && c.y <= 9;
  CHECK(through_corridor);
  // ... whose corners no arc of the turning radius can round.
  TurningSmoothDef strict;
  strict.turning_radius = radius;
  strict.allow_shrink = false;
  strict.allow_three_point = false;
  strict.allow_rotate = false;
  auto turned = turning_smooth(grid, astar->points, strict);
  REQUIRE_FALSE(turned.ok());
  CHECK(turned.error().code == StatusCode::blocked);
  CHECK(turned.error().message.find("waypoint") != std::string::npos);

  // Directional A* finds a legal route through the room instead, with the article's 5x5
  // neighbourhood and with the automatic one.
  DirectionalAStarOptions o;
  o.turning_radius = radius;
  o.record_trace = true;
  std::optional<HeadingPath> auto_route;
  for (const int hood : {24, 0}) {
    CAPTURE(hood);
    o.neighborhood = hood;
    auto planner = DirectionalAStar::create(grid, o);
    REQUIRE(planner.ok());
    auto out = planner->plan(kFig8Start, kFig8Goal);
    REQUIRE(out.ok());
    test::check_legal(grid, *out, radius, 0.0, kFig8Start, kFig8Goal);
    CHECK_FALSE(visits_column7_corridor(out->path));
    CHECK(out->length > astar->length + 5.0);
    CHECK(out->trace.size() == static_cast<size_t>(out->expanded));
    auto_route = *out;
  }
  const HeadingPath* out = &*auto_route;

  // A nimble unit (radius 0.5) takes the short route, legally.
  o.turning_radius = 0.5;
  o.neighborhood = 24;
  auto nimble = DirectionalAStar::create(grid, o);
  REQUIRE(nimble.ok());
  auto short_route = nimble->plan(kFig8Start, kFig8Goal);
  REQUIRE(short_route.ok());
  test::check_legal(grid, *short_route, 0.5, 0.0, kFig8Start, kFig8Goal);
  CHECK(visits_column7_corridor(short_route->path));
  CHECK(short_route->length < out->length);
}

TEST_CASE("directional A*: start and goal snap to the lattice") {
  const Grid grid = Grid::create(20, 20).value();
  auto planner = DirectionalAStar::create(grid, default_directional_astar_options());
  REQUIRE(planner.ok());
  auto out = planner->plan(Pose{Vec2(2.2, 3.9), deg_to_rad(50)}, Pose{Vec2(15.7, 12.1), deg_to_rad(-100)});
  REQUIRE(out.ok());
  CHECK(out->start.pos == Vec2(2.5, 3.5));
  CHECK(out->start.heading == doctest::Approx(kPi / 4));
  CHECK(out->goal.pos == Vec2(15.5, 12.5));
  CHECK(test::heading_gap(out->goal.heading, -kPi / 2) < 1e-12);
  test::check_legal(grid, *out, 2.0, 0.0, out->start, out->goal);
}

TEST_CASE("directional A*: every path on random maps is legal and above the lower bounds") {
  const int maps = sanitized() ? 3 : 12;
  int found = 0, tried = 0;
  double worst_ratio = 1e9, sum_ratio = 0;
  for (int m = 0; m < maps; ++m) {
    const Grid grid = test::random_grid(32, 32, 0.05 + 0.01 * (m % 6), 600u + static_cast<uint32_t>(m));
    const test::VisibilityReference reference(grid);
    for (const double agent : {0.0, 0.3}) {
      DirectionalAStarOptions o;
      o.turning_radius = 1.5 + 0.25 * (m % 3);
      o.agent_radius = agent;
      o.neighborhood = m % 2 ? 48 : 24;
      auto planner = DirectionalAStar::create(grid, o);
      REQUIRE(planner.ok());
      std::mt19937 rng(77u + static_cast<uint32_t>(m));
      std::uniform_int_distribution<int> cell(0, 31), head(0, 7);
      for (int q = 0; q < 4; ++q) {
        Cell a{cell(rng), cell(rng)}, b{cell(rng), cell(rng)};
        if (!grid.is_free(a) || !grid.is_free(b)) continue;
        const Pose s{cell_center(a), head(rng) * kPi / 4}, g{cell_center(b), head(rng) * kPi / 4};
        auto out = planner->plan(s, g);
        REQUIRE(out.ok());
        ++tried;
        if (!out->found) continue;
        ++found;
        test::check_legal(grid, *out, o.turning_radius, agent, s, g);
        const double euclid = reference.shortest(s.pos, g.pos);
        const double dubins = dubins_length(s, g, o.turning_radius).value();
        const double bound = std::max(euclid, dubins);
        CHECK(out->length >= bound - 1e-9);
        const double ratio = bound > 0 ? out->length / bound : 1.0;
        worst_ratio = std::min(worst_ratio, ratio);
        sum_ratio += ratio;
      }
    }
  }
  MESSAGE("directional A* on random 32x32 maps: ", found, "/", tried, " found, mean length / lower bound ",
          found ? sum_ratio / found : 0.0);
  CHECK(found > tried / 3);
}

TEST_CASE("directional A*: a planner reused for other queries plans each as a fresh one does") {
  // A query resets only the lattice states the one before it set: what another query left
  // behind must not change a plan.
  const Grid grid = test::random_grid(48, 48, 0.08, 4242u);
  DirectionalAStarOptions o;
  o.turning_radius = 2.0;
  o.agent_radius = 0.3;
  auto reused = DirectionalAStar::create(grid, o);
  REQUIRE(reused.ok());
  std::mt19937 rng(99u);
  std::uniform_int_distribution<int> cell(0, 47), head(0, 7);
  int found = 0;
  for (int q = 0; q < 12; ++q) {
    const Cell a{cell(rng), cell(rng)}, b{cell(rng), cell(rng)};
    if (!grid.is_free(a) || !grid.is_free(b)) continue;
    const Pose s{cell_center(a), head(rng) * kPi / 4}, g{cell_center(b), head(rng) * kPi / 4};
    auto fresh = DirectionalAStar::create(grid, o);
    REQUIRE(fresh.ok());
    auto want = fresh->plan(s, g);
    auto got = reused->plan(s, g);
    REQUIRE(want.ok());
    REQUIRE(got.ok());
    CHECK(got->found == want->found);
    CHECK(got->expanded == want->expanded);
    CHECK(got->cost == want->cost);
    CHECK(got->path.segments().size() == want->path.segments().size());
    CHECK(glm::length(got->path.end().pos - want->path.end().pos) == 0.0);
    found += got->found;
  }
  CHECK(found >= 4);
}

TEST_CASE("directional A*: a time or expansion budget returns a legal partial path") {
  // The goal faces out of a one-cell dead end, 40 cells deep (deeper than the fast goal check
  // looks): no lattice path reaches it, and the search floods the room until the budget stops it.
  const Grid grid = test::dead_end_room(128, 128);
  const Pose s{Vec2(4.5, 4.5), 0.0}, g{Vec2(88.5, 126.5), kPi};
  DirectionalAStarOptions o;
  o.turning_radius = 2.0;
  o.max_expansions = 0;
  o.budget.time_ms = 20.0;
  auto planner = DirectionalAStar::create(grid, o);
  REQUIRE(planner.ok());
  const auto t0 = std::chrono::steady_clock::now();
  auto r = planner->plan(s, g);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE(r.ok());
  MESSAGE("directional A* with a 20 ms time budget returned after ", ms, " ms, ", r->expanded, " expansions");
  CHECK(r->budget_stop == BudgetStop::time);
  CHECK(ms < 500.0);  // generous for a loaded machine; the target is 1.5 x 20 ms
  test::check_partial_legal(grid, *r, o.turning_radius, o.agent_radius, r->start);
  // How far it got depends on the machine (on a loaded one the setup alone may use the
  // budget), so only the expansion-budget case below checks that the path moves.

  o.budget.time_ms = 0.0;
  o.budget.max_expansions = 300;
  auto counted = DirectionalAStar::create(grid, o);
  REQUIRE(counted.ok());
  auto a = counted->plan(s, g);
  auto b = counted->plan(s, g);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->budget_stop == BudgetStop::expansions);
  CHECK(a->expanded == 300);
  test::check_partial_legal(grid, *a, o.turning_radius, o.agent_radius, a->start);
  CHECK(a->path.end().pos == b->path.end().pos);  // deterministic
  CHECK(glm::length(a->path.end().pos - g.pos) < glm::length(a->start.pos - g.pos));
}
