// ClearanceField::update() (issue 28): after every one of 1,000 random strokes (paint and
// erase, radius 1-8, some past the map's edge) the updated field equals a field built from the
// edited grid, sample for sample; and bad arguments are refused with a clear error.

#include <doctest/doctest.h>

#include <random>

#include "generated_maps.hpp"
#include "navmesh_test_support.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/map_generators.hpp"

using namespace pathlab;

TEST_CASE("an updated clearance field equals a rebuilt one after 1,000 random strokes") {
  const int strokes = test::sanitized() ? 100 : 1000;
  Grid g = Grid::create(72, 60).value();
  generate_rooms(g, 10, 2, 5);
  ClearanceField field(g);
  std::mt19937 rng(17);
  int compared = 0;
  for (int i = 0; i < strokes; ++i) {
    std::uniform_int_distribution<int> cx(-3, g.width() + 2), cy(-3, g.height() + 2), rad(1, 8), kind(0, 1);
    const CellRect rect = test::brush_stroke(g, Cell{cx(rng), cy(rng)}, rad(rng), kind(rng) == 0 ? 1.0f : kBlocked);
    if (rect.max.x < 0 || rect.max.y < 0 || rect.min.x >= g.width() || rect.min.y >= g.height()) continue;
    REQUIRE(field.update(g, rect).ok());
    INFO("stroke " << i);
    const ClearanceField rebuilt(g);
    REQUIRE(field.samples().size() == rebuilt.samples().size());
    size_t differ = 0;
    for (size_t k = 0; k < rebuilt.samples().size(); ++k) differ += field.samples()[k] != rebuilt.samples()[k] ? 1 : 0;
    REQUIRE(differ == 0);
    ++compared;
  }
  CHECK(compared > strokes / 2);
}

TEST_CASE("clearance field update: another map size, an empty rectangle, one outside the map") {
  Grid g = Grid::create(20, 20).value();
  ClearanceField field(g);
  const Grid other = Grid::create(21, 20).value();
  auto r = field.update(other, CellRect{Cell{1, 1}, Cell{2, 2}});
  REQUIRE(!r.ok());
  CHECK(r.error().message.find("21x20") != std::string::npos);
  r = field.update(g, CellRect{Cell{5, 5}, Cell{4, 5}});
  REQUIRE(!r.ok());
  CHECK(r.error().message.find("empty") != std::string::npos);
  r = field.update(g, CellRect{Cell{30, 30}, Cell{40, 40}});
  REQUIRE(!r.ok());
  CHECK(r.error().code == StatusCode::out_of_bounds);
}
