// NavmeshQuery's tables patched after a tiled Navmesh::update() (issue 28): after every one of
// 1,000 random strokes the patched tables equal those of a query built fresh on the same mesh,
// field for field, and the patched query answers as a fresh one on a full build (same
// reachability, same length, same corridor, same expansions).

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "generated_maps.hpp"
#include "navmesh_test_support.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"

using namespace pathlab;

namespace {

NavmeshDef tiled_def(bool corners, double radius, int tile) {
  NavmeshDef def;
  def.corners_only = corners;
  def.agent_radius = radius;
  def.tile_size = tile;
  return def;
}

/// The patched query (on `mesh`) and a fresh one on a full build answer `pairs` random queries
/// alike; corridors compared by canonical polygon numbers (the updated mesh keeps spare room).
void same_answers(NavmeshQuery& patched, const Navmesh& mesh, const Navmesh& rebuilt, std::mt19937& rng, int pairs) {
  NavmeshQuery fresh(rebuilt);
  const std::vector<int> number = test::canonical_polygon_numbers(mesh);
  for (int i = 0; i < pairs; ++i) {
    const Vec2 s = test::random_free_point(rebuilt.grid(), rng), g = test::random_free_point(rebuilt.grid(), rng);
    const auto a = patched.find_corridor(s, g), b = fresh.find_corridor(s, g);
    REQUIRE(a.ok() == b.ok());
    if (!a.ok()) {
      CHECK(a.error().message == b.error().message);
      continue;
    }
    INFO("query from (" << s.x << ", " << s.y << ") to (" << g.x << ", " << g.y << ")");
    REQUIRE(a->found == b->found);
    CHECK(a->length == doctest::Approx(b->length).epsilon(1e-12));
    CHECK(a->expanded == b->expanded);
    std::vector<int> corridor;
    for (const int p : a->corridor.polygons) corridor.push_back(number[static_cast<size_t>(p)]);
    CHECK(corridor == b->corridor.polygons);
  }
}

/// `strokes` random strokes (paint, erase; radius 1-8; some past the map's edge) on `g`, the
/// mesh updated and the query reset after each; tables compared after every stroke.
void run_strokes(Grid g, const NavmeshDef& def, int strokes, uint32_t seed) {
  std::mt19937 rng(seed);
  Navmesh mesh = Navmesh::build(g, def).value();
  NavmeshQuery query(mesh);
  int compared = 0, kept = 0;
  for (int i = 1; i <= strokes; ++i) {
    std::uniform_int_distribution<int> cx(-2, g.width() + 1), cy(-2, g.height() + 1), rad(1, 8), kind(0, 1);
    const CellRect rect = test::brush_stroke(g, Cell{cx(rng), cy(rng)}, rad(rng), kind(rng) == 0 ? 1.0f : kBlocked);
    if (rect.max.x < 0 || rect.max.y < 0 || rect.min.x >= g.width() || rect.min.y >= g.height()) continue;
    REQUIRE(mesh.update(g, rect).ok());
    REQUIRE(mesh.last_change().before != 0);  // the patch path, not a rebuild
    kept += mesh.last_change().kept_numbers ? 1 : 0;  // the tables patched in place
    query.reset(mesh);
    INFO("stroke " << i);
    const NavmeshQuery fresh(mesh);
    REQUIRE(query.table_difference(fresh) == "");
    ++compared;
    if (i % 25 == 0) same_answers(query, mesh, Navmesh::build(g, def).value(), rng, 10);
  }
  CHECK(compared > strokes / 2);
  CHECK(kept > compared * 3 / 4);  // a relayout (a tile outgrew its range) is the exception
}

}  // namespace

TEST_CASE("patched query tables equal fresh ones after 1,000 random strokes, on either mesh") {
  const int strokes = test::sanitized() ? 100 : 1000;
  for (const bool corners : {false, true}) {
    INFO("corners " << corners);
    Grid rooms = Grid::create(96, 96).value();
    generate_rooms(rooms, 12, 2, 7);
    run_strokes(rooms, tiled_def(corners, 0.0, 16), strokes, corners ? 31u : 32u);
    Grid random = Grid::create(80, 80).value();
    generate_random(random, 0.2, 9);
    run_strokes(random, tiled_def(corners, 0.0, 16), strokes / 2, corners ? 33u : 34u);
  }
}

TEST_CASE("patched query tables with an agent radius, and after an untiled rebuild") {
  Grid g = Grid::create(64, 64).value();
  generate_rooms(g, 10, 2, 3);
  run_strokes(g, tiled_def(false, 0.6, 16), test::sanitized() ? 30 : 200, 41);
  run_strokes(g, tiled_def(true, 0.6, 16), test::sanitized() ? 30 : 200, 42);
  // An untiled mesh is rebuilt by update(): the query sees no change to patch and rebuilds.
  Navmesh mesh = Navmesh::build(g, tiled_def(true, 0.0, 0)).value();
  NavmeshQuery query(mesh);
  const CellRect rect = test::brush_stroke(g, Cell{20, 20}, 3, kBlocked);
  REQUIRE(mesh.update(g, rect).ok());
  CHECK(mesh.last_change().before == 0);
  query.reset(mesh);
  CHECK(query.table_difference(NavmeshQuery(mesh)) == "");
}

TEST_CASE("a query whose tables are older than the mesh's last change rebuilds them whole") {
  Grid g = Grid::create(64, 64).value();
  generate_random(g, 0.15, 5);
  const NavmeshDef def = tiled_def(true, 0.0, 16);
  Navmesh mesh = Navmesh::build(g, def).value();
  NavmeshQuery query(mesh);
  // Two updates before the reset: the change describes the second only, so patching from the
  // tables of the first mesh would be wrong.
  REQUIRE(mesh.update(g, test::brush_stroke(g, Cell{5, 5}, 4, kBlocked)).ok());
  REQUIRE(mesh.update(g, test::brush_stroke(g, Cell{50, 40}, 4, kBlocked)).ok());
  query.reset(mesh);
  CHECK(query.table_difference(NavmeshQuery(mesh)) == "");
  // A query that was never reset after an update finds its tables stale on the next search.
  NavmeshQuery lazy(mesh);
  REQUIRE(mesh.update(g, test::brush_stroke(g, Cell{30, 30}, 6, 1.0f)).ok());
  std::mt19937 rng(3);
  same_answers(lazy, mesh, Navmesh::build(g, def).value(), rng, 20);
}

TEST_CASE("dead trees and components redone around each edit equal a whole peel, on mazes") {
  // A perfect maze's mesh is mostly dead trees, and whole components that are trees; single
  // cells painted and erased open and close cycles, cut corridors off and join them again, so
  // the peel around the edit has to reach far into the kept trees (and peel a tree component
  // anew in the whole peel's order) to match a fresh query's.
  const int strokes = test::sanitized() ? 60 : 400;
  for (const bool corners : {false, true}) {
    for (const int corridor : {1, 2}) {
      INFO("corners " << corners << " corridor " << corridor);
      Grid g = Grid::create(72, 72).value();
      generate_maze(g, corridor, corridor == 1 ? 5u : 6u);
      const NavmeshDef def = tiled_def(corners, 0.0, 16);
      std::mt19937 rng(corners ? 71u : 72u);
      Navmesh mesh = Navmesh::build(g, def).value();
      NavmeshQuery query(mesh);
      int patched = 0;
      for (int i = 1; i <= strokes; ++i) {
        std::uniform_int_distribution<int> cx(0, g.width() - 1), cy(0, g.height() - 1), rad(1, 2), kind(0, 1);
        const CellRect rect = test::brush_stroke(g, Cell{cx(rng), cy(rng)}, rad(rng), kind(rng) == 0 ? 1.0f : kBlocked);
        REQUIRE(mesh.update(g, rect).ok());
        patched += mesh.last_change().kept_numbers && !mesh.last_change().restitched.empty() ? 1 : 0;
        query.reset(mesh);
        INFO("stroke " << i);
        REQUIRE(query.table_difference(NavmeshQuery(mesh)) == "");
        if (i % 40 == 0) same_answers(query, mesh, Navmesh::build(g, def).value(), rng, 10);
      }
      CHECK(patched > strokes / 2);  // most edits took the incremental path
    }
  }
}
