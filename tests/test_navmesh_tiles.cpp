// Tiled navmeshes (NavmeshDef::tile_size, issue 28): a tiled mesh covers the same free area as
// the untiled one, so the exact search gives the same lengths; and Navmesh::update() after
// random brush strokes leaves the mesh a full build gives, polygon for polygon; and on the
// Moving AI scenarios the tiled wall-corner mesh answers as the untiled one.

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "generated_maps.hpp"
#include "navmesh_test_support.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"

using namespace pathlab;

namespace {

Grid random_map(int side, double density, uint32_t seed) {
  Grid g = Grid::create(side, side).value();
  generate_random(g, density, seed);
  return g;
}

Grid room_map(int side, uint32_t seed) {
  Grid g = Grid::create(side, side).value();
  generate_rooms(g, 12, 2, seed);
  return g;
}

NavmeshDef mesh_def(bool corners, double radius, int tile) {
  NavmeshDef def;
  def.corners_only = corners;
  def.agent_radius = radius;
  def.tile_size = tile;
  return def;
}

/// Every portal joins two polygons along one ring edge of each, run in opposite directions.
void check_portals(const Navmesh& m) {
  const auto& rv = m.ring_vertices();
  auto next = [&](int poly, int e) {
    const NavPolygon& P = m.polygons()[static_cast<size_t>(poly)];
    return e + 1 < P.first + P.count ? e + 1 : P.first;
  };
  for (const NavPortal& p : m.portals()) {
    if (p.unused()) continue;
    REQUIRE(p.edge_a >= 0);
    REQUIRE(p.edge_b >= 0);
    CHECK(rv[static_cast<size_t>(p.edge_a)] == rv[static_cast<size_t>(next(p.poly_b, p.edge_b))]);
    CHECK(rv[static_cast<size_t>(next(p.poly_a, p.edge_a))] == rv[static_cast<size_t>(p.edge_b)]);
  }
}

/// Whether p lies on the mesh as it is (no snapping needed).
bool on_mesh(const NavmeshQuery& q, Vec2 p) {
  const auto r = q.resolve(p, "point");
  return r.ok() && !r->snapped;
}

/// Both meshes answer `pairs` random queries alike: same reachability, lengths within 1e-9
/// relative (the exact search's lengths are Euclidean shortest paths in the same free area).
/// Points in the band the agent radius removed are skipped when both meshes need them snapped:
/// snapping takes the nearest mesh point a straight segment reaches, a search of its own.
void same_answers(const Navmesh& a, const Navmesh& b, std::mt19937& rng, int pairs) {
  NavmeshQuery qa(a), qb(b);
  for (int i = 0; i < pairs; ++i) {
    const Vec2 s = test::random_free_point(a.grid(), rng), g = test::random_free_point(a.grid(), rng);
    bool snapped = false;
    for (const Vec2 p : {s, g}) {
      REQUIRE(on_mesh(qa, p) == on_mesh(qb, p));  // the same free area
      snapped = snapped || !on_mesh(qa, p);
    }
    if (snapped) continue;
    const auto ra = qa.find_corridor(s, g), rb = qb.find_corridor(s, g);
    INFO("errors: " << (ra.ok() ? "" : ra.error().message) << " / " << (rb.ok() ? "" : rb.error().message));
    REQUIRE(ra.ok() == rb.ok());
    if (!ra.ok()) continue;
    INFO("query " << i << " from (" << s.x << ", " << s.y << ") to (" << g.x << ", " << g.y << ")");
    REQUIRE(ra->found == rb->found);
    if (ra->found) CHECK(std::abs(ra->length - rb->length) <= 1e-9 * std::max(1.0, rb->length));
  }
}

/// The two meshes are the same, polygon for polygon, once their unused numbers are left out
/// and the rest numbered back to back (test::canonical: an updated mesh keeps spare room in
/// each tile's ranges, so that an edit renumbers only the tiles it touches).
void same_mesh(const Navmesh& a_mesh, const Navmesh& b_mesh) {
  const test::CanonicalMesh a = test::canonical(a_mesh), b = test::canonical(b_mesh);
  CHECK(a.unused_not_cleared == 0);
  CHECK(b.unused_not_cleared == 0);
  REQUIRE(a.polygons.size() == b.polygons.size());
  CHECK(a.ring_vid == b.ring_vid);
  CHECK(a.ring_n == b.ring_n);
  CHECK(a.ring_p == b.ring_p);
  CHECK(a.on_wall == b.on_wall);
  // The stitched tiles an update kept must give the same numbers as stitching all of them:
  // ring points, polygon boxes and centres, portal ends and the tile ranges.
  CHECK(a.ring_v == b.ring_v);
  CHECK(a.listed == b.listed);
  CHECK(a.tile_first == b.tile_first);
  int polygons_differ = 0, portals_differ = 0;
  for (size_t i = 0; i < a.polygons.size(); ++i) {
    const NavPolygon &p = a.polygons[i], &q = b.polygons[i];
    polygons_differ += p.first != q.first || p.count != q.count || p.first_portal != q.first_portal ||
                               p.portal_count != q.portal_count || p.lo != q.lo || p.hi != q.hi || p.centre != q.centre
                           ? 1
                           : 0;
  }
  REQUIRE(a.portals.size() == b.portals.size());
  for (size_t i = 0; i < a.portals.size(); ++i) {
    const NavPortal &p = a.portals[i], &q = b.portals[i];
    portals_differ += p.poly_a != q.poly_a || p.poly_b != q.poly_b || p.a != q.a || p.b != q.b || p.edge_a != q.edge_a ||
                              p.edge_b != q.edge_b
                          ? 1
                          : 0;
  }
  CHECK(polygons_differ == 0);
  CHECK(portals_differ == 0);
}

}  // namespace

TEST_CASE("a tiled mesh gives the untiled mesh's lengths, on either mesh and radius") {
  std::mt19937 rng(5);
  const int pairs = test::sanitized() ? 40 : 300;
  for (const Grid& g : {random_map(100, 0.2, 3), room_map(90, 4)}) {
    for (const bool corners : {false, true}) {
      for (const double radius : {0.0, 0.4, 1.2}) {
        INFO("corners " << corners << " radius " << radius);
        const Navmesh flat = Navmesh::build(g, mesh_def(corners, radius, 0)).value();
        const Navmesh tiled = Navmesh::build(g, mesh_def(corners, radius, 16)).value();
        CHECK(tiled.tile_size() == 16);
        CHECK(tiled.polygons().size() > flat.polygons().size());  // the borders cut polygons
        check_portals(tiled);
        same_answers(tiled, flat, rng, pairs);
      }
    }
  }
}

TEST_CASE("a tile size outside its limits is refused, naming it") {
  const Grid g = room_map(40, 1);
  const auto bad = Navmesh::build(g, mesh_def(true, 0.0, 3));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("tile_size 3") != std::string::npos);
  Navmesh m = Navmesh::build(g, mesh_def(true, 0.0, 8)).value();
  auto code = [](const Status& s) { return s.ok() ? StatusCode::ok : s.error().code; };
  CHECK(code(m.update(g, CellRect{Cell{5, 5}, Cell{4, 5}})) == StatusCode::invalid_argument);
  CHECK(code(m.update(g, CellRect{Cell{50, 50}, Cell{60, 60}})) == StatusCode::out_of_bounds);
  const Grid other = room_map(48, 1);
  CHECK(code(m.update(other, CellRect{Cell{1, 1}, Cell{2, 2}})) == StatusCode::invalid_argument);
}

// 1,000 strokes per mesh kind (100 under the sanitizers): the updated mesh is compared with a
// full build after every 10th stroke and with an untiled build's answers after every 100th.
TEST_CASE("after random strokes, an updated tiled mesh equals a full build") {
  const int strokes = test::sanitized() ? 100 : 1000;
  for (const bool corners : {false, true}) {
    for (const double radius : {0.0, 0.6}) {
      INFO("corners " << corners << " radius " << radius);
      std::mt19937 rng(corners ? 21u : 22u);
      Grid g = room_map(96, 7);
      const NavmeshDef def = mesh_def(corners, radius, 16);
      Navmesh m = Navmesh::build(g, def).value();
      int updates = 0, kept = 0;  // kept: the tiles fit their ranges, only those edited renumbered
      for (int i = 1; i <= strokes; ++i) {
        std::uniform_int_distribution<int> cx(-2, g.width() + 1), cy(-2, g.height() + 1), rad(1, 8), kind(0, 2);
        const float cost = kind(rng) == 0 ? 1.0f : kBlocked;
        const CellRect rect = test::brush_stroke(g, Cell{cx(rng), cy(rng)}, rad(rng), cost);
        if (rect.max.x < 0 || rect.max.y < 0 || rect.min.x >= g.width() || rect.min.y >= g.height()) continue;
        REQUIRE(m.update(g, rect).ok());
        ++updates;
        kept += m.last_change().kept_numbers ? 1 : 0;
        if (i % 10 != 0) continue;
        INFO("stroke " << i);
        const Navmesh rebuilt = Navmesh::build(g, def).value();
        same_mesh(m, rebuilt);
        if (i % 100 == 0) same_answers(m, Navmesh::build(g, mesh_def(corners, radius, 0)).value(), rng, 30);
      }
      CHECK(kept > updates * 3 / 4);
    }
  }
}

// Navmesh::updated() and copies share tiles (copy on write per tile): an updated copy equals a
// full build, and the mesh it was made from, and copies of it, keep what they were, after every
// stroke (the planning service mends a copy while a plan result still holds the mesh).
TEST_CASE("an updated copy equals a full build and leaves the mesh it came from as it was") {
  const int strokes = test::sanitized() ? 40 : 200;
  for (const bool corners : {false, true}) {
    for (const double radius : {0.0, 0.6}) {
      INFO("corners " << corners << " radius " << radius);
      std::mt19937 rng(corners ? 31u : 32u);
      Grid g = room_map(96, 9);
      const NavmeshDef def = mesh_def(corners, radius, 16);
      Navmesh m = Navmesh::build(g, def).value();
      NavmeshQuery q(m);
      for (int i = 1; i <= strokes; ++i) {
        const Grid before = g;
        std::uniform_int_distribution<int> cx(0, g.width() - 1), cy(0, g.height() - 1), rad(1, 8), kind(0, 2);
        const CellRect rect = test::brush_stroke(g, Cell{cx(rng), cy(rng)}, rad(rng), kind(rng) == 0 ? 1.0f : kBlocked);
        const Navmesh held = m;  // a result still holding the mesh
        Result<Navmesh> next = m.updated(g, rect);
        REQUIRE(next.ok());
        CHECK(next->revision() != m.revision());
        CHECK(next->last_change().before == m.revision());
        if (i % 4 == 0) {  // the copy updated in place gives the same, and the original is untouched
          Navmesh copy = m;
          REQUIRE(copy.update(g, rect).ok());
          same_mesh(copy, *next);
        }
        // Alternately keep the updated copy and update the mesh itself (it shares its tiles
        // with `held` and `next`), as the service does when no result holds it.
        const bool keep_copy = i % 2 == 0;
        if (!keep_copy) REQUIRE(m.update(g, rect).ok());
        if (i % 5 == 0) {
          INFO("stroke " << i);
          const Navmesh built = Navmesh::build(g, def).value();
          same_mesh(held, Navmesh::build(before, def).value());
          same_mesh(*next, built);
          if (!keep_copy) same_mesh(m, built);
        }
        if (keep_copy) m = std::move(*next);
        q.reset(m);  // patched from the tables of the mesh either came from
        if (i % 5 == 0) CHECK(q.table_difference(NavmeshQuery(m)).empty());
      }
    }
  }
}

/// A band of 2 * half + 1 blocked columns (rows when !vertical) across the whole map at `at`,
/// as bench_live_edit's cut paints it; returns its rectangle.
CellRect paint_cut(Grid& g, bool vertical, int at, int half) {
  const CellRect r = vertical ? CellRect{Cell{at - half, 0}, Cell{at + half, g.height() - 1}}
                              : CellRect{Cell{0, at - half}, Cell{g.width() - 1, at + half}};
  for (int y = r.min.y; y <= r.max.y; ++y)
    for (int x = r.min.x; x <= r.max.x; ++x) g.set_cost(x, y, kBlocked);
  return r;
}

TEST_CASE("cuts across the whole map: the mended mesh equals a build, its patched tables a fresh query's") {
  // A cut reaches every tile row (or column): the query patches all of its tables, the wall
  // flags are redone around the cut only. Paint the band, then put the cells back.
  const int cuts = test::sanitized() ? 4 : 16;
  for (const bool corners : {false, true}) {
    for (const double radius : {0.0, 0.6}) {
      INFO("corners " << corners << " radius " << radius);
      std::mt19937 rng(corners ? 61u : 62u);
      const Grid base = random_map(96, 0.12, 13);
      Grid g = base;
      const NavmeshDef def = mesh_def(corners, radius, 16);
      Navmesh m = Navmesh::build(g, def).value();
      NavmeshQuery q(m);
      std::uniform_int_distribution<int> at(8, 87), half(0, 4);
      for (int i = 0; i < cuts; ++i) {
        INFO("cut " << i);
        const bool vertical = i % 2 == 0;
        const CellRect rect = paint_cut(g, vertical, at(rng), half(rng));
        for (int pass = 0; pass < 2; ++pass) {
          if (i % 3 == 2) {
            const Navmesh held = m;  // a result still holding the mesh: the copy is mended
            m = m.updated(g, rect).value();
          } else {
            REQUIRE(m.update(g, rect).ok());
          }
          q.reset(m);
          same_mesh(m, Navmesh::build(g, def).value());
          CHECK(q.table_difference(NavmeshQuery(m)).empty());
          if (pass == 0) {  // no way across the band
            const Vec2 s = vertical ? Vec2(rect.min.x - 2.5, 40.5) : Vec2(40.5, rect.min.y - 2.5);
            const Vec2 t = vertical ? Vec2(rect.max.x + 3.5, 60.5) : Vec2(60.5, rect.max.y + 3.5);
            const auto r = q.find_corridor(s, t);
            if (r.ok()) CHECK_FALSE(r->found);
          }
          for (int y = rect.min.y; y <= rect.max.y; ++y)  // the band erased again
            for (int x = rect.min.x; x <= rect.max.x; ++x) g.set_cost(x, y, base.cost(x, y));
        }
      }
    }
  }
}

/// Every array of the two meshes is the same, entry for entry and bit for bit (no canonical
/// renumbering: the same numbers, the same spare room).
void same_bytes(const Navmesh& a, const Navmesh& b) {
  auto same_polygons = [&] {
    if (a.polygons().size() != b.polygons().size()) return false;
    for (size_t i = 0; i < a.polygons().size(); ++i) {
      const NavPolygon &p = a.polygons()[i], &q = b.polygons()[i];
      if (p.first != q.first || p.count != q.count || p.first_portal != q.first_portal ||
          p.portal_count != q.portal_count || p.lo != q.lo || p.hi != q.hi || p.centre != q.centre)
        return false;
    }
    return true;
  };
  auto same_portals = [&] {
    if (a.portals().size() != b.portals().size()) return false;
    for (size_t i = 0; i < a.portals().size(); ++i) {
      const NavPortal &p = a.portals()[i], &q = b.portals()[i];
      if (p.poly_a != q.poly_a || p.poly_b != q.poly_b || p.a != q.a || p.b != q.b || p.edge_a != q.edge_a ||
          p.edge_b != q.edge_b)
        return false;
    }
    return true;
  };
  CHECK(same_polygons());
  CHECK(same_portals());
  CHECK(a.ring_vertices() == b.ring_vertices());
  CHECK(a.ring_vertex_ids() == b.ring_vertex_ids());
  CHECK(a.ring_neighbors() == b.ring_neighbors());
  CHECK(a.ring_portals() == b.ring_portals());
  CHECK(a.polygon_portals() == b.polygon_portals());
  CHECK(a.vertex_on_wall() == b.vertex_on_wall());
  CHECK(a.tile_polygon_first() == b.tile_polygon_first());
  CHECK(a.tile_portal_list_first() == b.tile_portal_list_first());
  CHECK(a.last_change().tiles == b.last_change().tiles);
  CHECK(a.last_change().restitched == b.last_change().restitched);
  CHECK(a.last_change().kept_numbers == b.last_change().kept_numbers);
}

// NavmeshDef::tile_threads: the tiles are built on several threads, stitched on one in tile
// order, so a build and every update give the same bytes with 1, 2 or 3 threads (cuts that
// rebuild a whole tile column and strokes; an updated() copy too).
TEST_CASE("a tiled mesh built and updated on 1, 2 or 3 threads is the same bytes") {
  const int edits = test::sanitized() ? 12 : 60;
  for (const bool corners : {false, true}) {
    INFO("corners " << corners);
    std::mt19937 rng(corners ? 71u : 72u);
    const Grid base = random_map(96, 0.12, 17);
    Grid g = base;
    NavmeshDef def = mesh_def(corners, 0.0, 16);
    std::vector<Navmesh> meshes;
    for (const int threads : {1, 2, 3}) {
      def.tile_threads = threads;
      meshes.push_back(Navmesh::build(g, def).value());
    }
    same_bytes(meshes[0], meshes[1]);
    same_bytes(meshes[0], meshes[2]);
    std::uniform_int_distribution<int> at(8, 87), half(0, 4), cx(0, 95), rad(1, 8);
    size_t rebuilt = 0;  // tiles rebuilt over all edits: the threads had work to share
    for (int i = 0; i < edits; ++i) {
      INFO("edit " << i);
      const CellRect rect = i % 3 == 0 ? paint_cut(g, i % 2 == 0, at(rng), half(rng))
                                       : test::brush_stroke(g, Cell{cx(rng), cx(rng)}, rad(rng), i % 2 == 0 ? 1.0f : kBlocked);
      for (size_t k = 0; k < meshes.size(); ++k) {
        if (i % 5 == 4) {
          meshes[k] = meshes[k].updated(g, rect).value();
        } else {
          REQUIRE(meshes[k].update(g, rect).ok());
        }
      }
      rebuilt += meshes[0].last_change().tiles.size();
      same_bytes(meshes[0], meshes[1]);
      same_bytes(meshes[0], meshes[2]);
    }
    CHECK(rebuilt > static_cast<size_t>(edits) * 2);
    same_mesh(meshes[1], Navmesh::build(g, def).value());
  }
}

TEST_CASE("a tile thread count outside its limits is refused, naming it") {
  NavmeshDef def = mesh_def(true, 0.0, 16);
  for (const int bad : {0, -1, kMaxNavTileThreads + 1}) {
    def.tile_threads = bad;
    const auto built = Navmesh::build(room_map(40, 1), def);
    REQUIRE_FALSE(built.ok());
    CHECK(built.error().message.find("tile_threads " + std::to_string(bad)) != std::string::npos);
  }
}

// The Moving AI scenario problems (cell corners, the competition's convention, as
// `bench_navmesh --movingai-corners` runs them): every 20th problem of each of the 11 files
// (every 200th under the sanitizers), on the wall-corner mesh the CLI uses, untiled and tiled:
// the same answers, lengths within 1e-9 relative.
TEST_CASE("on the Moving AI scenarios a tiled wall-corner mesh gives the untiled mesh's lengths") {
  const char* maps[] = {"arena", "arena2", "brc202d", "den520d", "lak303d", "Berlin_0_256", "Berlin_0_512",
                        "Archipelago", "8room_000", "maze512-1-0", "random512-10-0"};
  const int every = test::sanitized() ? 200 : 20;
  int compared = 0;
  for (const char* name : maps) {
    CAPTURE(name);
    const std::string dir = std::string(PATHLAB_MOVINGAI_DIR) + "/";
    const Grid g = load_movingai_map(dir + name + ".map").value();
    const Navmesh flat = Navmesh::build(g, mesh_def(true, 0.0, 0)).value();
    const Navmesh tiled = Navmesh::build(g, mesh_def(true, 0.0, kDefaultNavTileSize)).value();
    NavmeshQuery qf(flat), qt(tiled);
    std::ifstream in(dir + name + ".map.scen");
    REQUIRE(in);
    std::string line;
    std::getline(in, line);  // "version 1"
    for (int i = 0; std::getline(in, line); ++i) {
      if (i % every != 0) continue;
      std::istringstream ss(line);
      int bucket = 0, w = 0, h = 0, sx = 0, sy = 0, gx = 0, gy = 0;
      std::string map;
      if (!(ss >> bucket >> map >> w >> h >> sx >> sy >> gx >> gy)) continue;
      const auto rf = qf.find_corridor(Vec2(sx, sy), Vec2(gx, gy)), rt = qt.find_corridor(Vec2(sx, sy), Vec2(gx, gy));
      CAPTURE(line);
      REQUIRE(rf.ok() == rt.ok());
      if (!rf.ok()) continue;
      REQUIRE(rf->found == rt->found);
      if (rf->found) CHECK(std::abs(rf->length - rt->length) <= 1e-9 * std::max(1.0, rf->length));
      ++compared;
    }
  }
  CHECK(compared > (test::sanitized() ? 100 : 1300));
}
