// Hybrid A*'s goal distance field after map edits (issue 28): GoalDistance::edited() mends the
// passable cells around a stroke only and drops the settled distances, which the next begin()
// settles again lazily. After every one of 1,000 random strokes the mended field equals a fresh
// one, passable cell for cell and distance for distance, for a point agent and a wide one.

#include <doctest/doctest.h>

#include <random>

#include "generated_maps.hpp"
#include "heading/heading_internal.hpp"
#include "navmesh_test_support.hpp"
#include "pathlab/map_generators.hpp"

using namespace pathlab;

namespace {

void run_strokes(double radius, int strokes, uint32_t seed) {
  Grid g = Grid::create(48, 40).value();
  generate_rooms(g, 8, 2, seed);
  std::mt19937 rng(seed);
  detail::GoalDistance mended;
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
    detail::GoalDistance fresh;
    REQUIRE(fresh.begin(g, goal, radius, -1));
    INFO("stroke " << i);
    REQUIRE(mended.padded_passable() == fresh.padded_passable());
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
