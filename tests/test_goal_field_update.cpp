// Hybrid A*'s goal distance field after map edits (issue 28): GoalDistance::edited() mends the
// passable cells around a stroke only and drops the settled distances, which the next begin()
// settles again lazily. After every one of 1,000 random strokes the mended field equals a fresh
// one, passable cell for cell, step mask for step mask and distance for distance, for a point
// agent and a wide one.

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "generated_maps.hpp"
#include "heading/heading_internal.hpp"
#include "navmesh_test_support.hpp"
#include "pathlab/map_generators.hpp"

using namespace pathlab;

namespace {

// The steps GoalDistance::settle() may take from each cell, worked out here from the padded
// passable cells by the field's rules, one step at a time (the field builds them 8 cells at a
// time): bit k for the orthogonal (0-3: +x, -x, +y, -y) and diagonal (4-7: (1,1), (1,-1),
// (-1,1), (-1,-1)) neighbours, a diagonal needing one of its two orthogonal cells; with knight
// steps bits 8-15, per diagonal its (2, 1) step then its (1, 2) step, each needing the
// diagonal cell, the cell one step along its long axis and its target.
std::vector<uint16_t> expected_masks(const std::vector<uint8_t>& pass, int w, int h, bool knight) {
  const auto ok = [&](int x, int y) {
    if (x < -1 || y < -1 || x > w || y > h) return false;
    return pass[static_cast<size_t>(y + 1) * static_cast<size_t>(w + 2) + static_cast<size_t>(x + 1)] != 0;
  };
  constexpr int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1}, dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  std::vector<uint16_t> out(static_cast<size_t>(w) * static_cast<size_t>(h), 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      unsigned m = 0;
      for (int k = 0; k < 8; ++k)
        if (ok(x + dx[k], y + dy[k]) && (k < 4 || ok(x + dx[k], y) || ok(x, y + dy[k]))) m |= 1u << k;
      for (int k = 4; k < 8 && knight; ++k) {
        const bool diag = ok(x + dx[k], y + dy[k]);
        if (diag && ok(x + dx[k], y) && ok(x + 2 * dx[k], y + dy[k])) m |= 1u << (8 + 2 * (k - 4));
        if (diag && ok(x, y + dy[k]) && ok(x + dx[k], y + 2 * dy[k])) m |= 1u << (9 + 2 * (k - 4));
      }
      out[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)] = static_cast<uint16_t>(m);
    }
  return out;
}

void run_strokes(double radius, int strokes, uint32_t seed, bool knight = false) {
  Grid g = Grid::create(48, 40).value();
  generate_rooms(g, 8, 2, seed);
  std::mt19937 rng(seed);
  detail::GoalDistance mended(knight);
  const Cell goal = test::random_free_cell(g, rng);
  REQUIRE(mended.begin(g, goal, radius, -1));
  int compared = 0;
  for (int i = 0; i < strokes; ++i) {
    std::uniform_int_distribution<int> cx(-2, g.width() + 1), cy(-2, g.height() + 1), rad(1, 8), kind(0, 1);
    Cell centre{cx(rng), cy(rng)};
    if (centre == goal) continue;
    const CellRect rect = test::brush_stroke(g, centre, rad(rng), kind(rng) == 0 ? 1.0f : kBlocked);
    if (rect.max.x < 0 || rect.max.y < 0 || rect.min.x >= g.width() || rect.min.y >= g.height()) continue;
    mended.edited(g, rect);
    REQUIRE(mended.begin(g, goal, radius, -1));
    detail::GoalDistance fresh(knight);
    REQUIRE(fresh.begin(g, goal, radius, -1));
    INFO("stroke " << i);
    REQUIRE(mended.padded_passable() == fresh.padded_passable());
    // The per-cell step masks, mended around the stroke, equal a fresh field's and the rules'.
    REQUIRE(mended.step_masks() == fresh.step_masks());
    REQUIRE(fresh.step_masks() == expected_masks(fresh.padded_passable(), g.width(), g.height(), knight));
    int differ = 0;
    for (int64_t c = 0; c < static_cast<int64_t>(g.width()) * g.height(); ++c) differ += mended.at(c) != fresh.at(c) ? 1 : 0;
    REQUIRE(differ == 0);
    ++compared;
  }
  CHECK(compared > strokes / 2);
}

}  // namespace

TEST_CASE("a mended goal distance field equals a fresh one after 1,000 random strokes") {
  run_strokes(0.0, test::sanitized() ? 100 : 1000, 3);
  run_strokes(1.3, test::sanitized() ? 50 : 300, 4);
}

// Directional A*'s field also takes (2, 1) steps (cost 2.2), each through the two cells its
// straight line crosses: mended equals fresh as above, and the step needs both cells.
TEST_CASE("the knight-step goal field: mended equals fresh, and a (2, 1) step needs the two cells it crosses") {
  run_strokes(0.0, test::sanitized() ? 100 : 500, 5, true);
  run_strokes(1.3, test::sanitized() ? 50 : 200, 6, true);
  // Narrow maps (no block of 8 cells the masks are built in) and widths that leave 2 to 7 cells
  // after the last block: the masks equal the rules there too.
  for (int w = 1; w <= 21; w += 5) {
    Grid m = Grid::create(w, 13).value();
    generate_rooms(m, 4, 1, static_cast<uint32_t>(w));
    std::mt19937 mrng(static_cast<uint32_t>(w));
    detail::GoalDistance f(true);
    REQUIRE(f.begin(m, test::random_free_cell(m, mrng), 0.0, -1));
    INFO("width " << w);
    CHECK(f.step_masks() == expected_masks(f.padded_passable(), w, 13, true));
  }
  Grid g = Grid::create(3, 2).value();
  detail::GoalDistance open(true), eight(false);
  REQUIRE(open.begin(g, Cell{0, 0}, 0.0, -1));
  REQUIRE(eight.begin(g, Cell{0, 0}, 0.0, -1));
  CHECK(open.at(g.index(2, 1)) == doctest::Approx(2.2).epsilon(1e-6));   // one (2, 1) step
  CHECK(eight.at(g.index(2, 1)) == doctest::Approx(2.4).epsilon(1e-6));  // a diagonal and a straight step
  g.set_cost(1, 0, kBlocked);  // a cell the step's line crosses
  detail::GoalDistance blocked(true);
  REQUIRE(blocked.begin(g, Cell{0, 0}, 0.0, -1));
  CHECK(blocked.at(g.index(2, 1)) == doctest::Approx(2.4).epsilon(1e-6));  // (0,0) -> (1,1) -> (2,1)
  // Never above the 8-neighbour field, on a room map, cell for cell.
  Grid rooms = Grid::create(48, 40).value();
  generate_rooms(rooms, 8, 2, 7);
  std::mt19937 rng(7);
  const Cell goal = test::random_free_cell(rooms, rng);
  detail::GoalDistance k(true), o(false);
  REQUIRE(k.begin(rooms, goal, 0.3, -1));
  REQUIRE(o.begin(rooms, goal, 0.3, -1));
  int above = 0, shorter = 0;
  for (int64_t c = 0; c < static_cast<int64_t>(rooms.width()) * rooms.height(); ++c) {
    above += k.at(c) > o.at(c) ? 1 : 0;
    shorter += k.at(c) < o.at(c) ? 1 : 0;
  }
  CHECK(above == 0);
  CHECK(shorter > 0);
}

// The heading planners' clearance rings (SegmentChecker::update, issue 28): after every random
// stroke the mended rings equal a fresh checker's, cell for cell, on a room map (where a stroke
// in a big room changes distances far from it) and an open one (all distances grow from the
// border: the mended window has to reach far).
TEST_CASE("mended clearance rings equal fresh ones after random strokes") {
  for (const bool rooms : {true, false}) {
    INFO("rooms " << rooms);
    Grid g = Grid::create(64, 48).value();
    if (rooms) generate_rooms(g, 10, 2, 9);
    std::mt19937 rng(rooms ? 31u : 32u);
    detail::SegmentChecker mended(g, 0.4, true);
    const int strokes = test::sanitized() ? 60 : 400;
    for (int i = 0; i < strokes; ++i) {
      std::uniform_int_distribution<int> cx(-2, g.width() + 1), cy(-2, g.height() + 1), rad(1, 8), kind(0, 1);
      const CellRect rect = test::brush_stroke(g, Cell{cx(rng), cy(rng)}, rad(rng), kind(rng) == 0 ? 1.0f : kBlocked);
      if (rect.max.x < 0 || rect.max.y < 0 || rect.min.x >= g.width() || rect.min.y >= g.height()) continue;
      REQUIRE(mended.update(g, rect).ok());
      const detail::SegmentChecker fresh(g, 0.4, false);
      INFO("stroke " << i);
      int differ = 0;
      for (int64_t c = 0; c < g.cell_count(); ++c) differ += mended.rings(c) != fresh.rings(c) ? 1 : 0;
      REQUIRE(differ == 0);
    }
  }
}

TEST_CASE("mending clearance rings for a map of another size, or an empty rectangle, is refused") {
  const Grid g = Grid::create(20, 10).value();
  detail::SegmentChecker checker(g, 0.0, false);
  const Grid other = Grid::create(10, 20).value();
  const Status s = checker.update(other, CellRect{Cell{0, 0}, Cell{1, 1}});
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message.find("another size") != std::string::npos);
  CHECK_FALSE(checker.update(g, CellRect{Cell{3, 3}, Cell{2, 2}}).ok());
  CHECK_FALSE(checker.update(g, CellRect{Cell{30, 3}, Cell{40, 4}}).ok());
}

// The goal distance with knight steps (Directional A*'s) is settled by A* aimed at the query's
// start (Reverse Resumable A*): every cell's distance, asked for in any order, equals the
// unaimed field's (Dijkstra from the goal, all cells), step for step, on maps where the bound to
// the start is tight (10% random walls) and loose (rooms, a maze); a second start to the same
// goal keeps the first aim and the cells settled, and still gives the same distances. The
// 8-neighbour field (Hybrid A*'s, not aimed) stops at the start and resumes: the same values.
TEST_CASE("an aimed goal distance equals the unaimed one cell for cell") {
  for (int kind = 0; kind < 3; ++kind) {
    Grid g = Grid::create(57, 43).value();
    if (kind == 0) generate_random(g, 0.10, 11);
    else if (kind == 1) generate_rooms(g, 8, 2, 12);
    else generate_maze(g, 3, 13);
    for (const bool knight : {false, true}) {
      std::mt19937 rng(static_cast<uint32_t>(17 + kind));
      for (int trial = 0; trial < 3; ++trial) {
        const Cell goal = test::random_free_cell(g, rng);
        const Cell start = test::random_free_cell(g, rng), later = test::random_free_cell(g, rng);
        detail::GoalDistance plain(knight), aimed(knight);
        REQUIRE(plain.begin(g, goal, 0.3, -1));
        REQUIRE(aimed.begin(g, goal, 0.3, g.index(start.x, start.y)));
        REQUIRE(aimed.begin(g, goal, 0.3, g.index(later.x, later.y)));  // the same goal: kept
        std::vector<int64_t> order(static_cast<size_t>(g.width()) * static_cast<size_t>(g.height()));
        for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
        std::shuffle(order.begin(), order.end(), rng);
        int differ = 0, reached = 0;
        for (const int64_t c : order) {
          differ += aimed.steps_at(c) != plain.steps_at(c) ? 1 : 0;
          reached += plain.steps_at(c) >= 0 ? 1 : 0;
        }
        INFO("kind " << kind << " knight " << knight << " trial " << trial);
        CHECK(differ == 0);
        CHECK(reached > 100);  // the maps leave the goal room to reach
      }
    }
  }
}
