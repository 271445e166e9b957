#pragma once
/// @file navmesh.hpp
/// A navigation mesh of convex polygons built from a grid, shrunk for an agent radius.
///
/// Construction: every blocked cell (and the map's outside) is grown by the agent radius a into
/// the square [c - a, c + 1 + a] x [r - a, r + 1 + a]. The lines x = k +- a and y = k +- a cut
/// the map into a rectilinear sub-grid whose sub-cells are either wholly free or wholly inside
/// a grown wall; free sub-cells are joined into large rectangles (the Tower22 post's
/// "grid-shaped mesh"). By default (NavmeshDef::merge_convex) the rectangles are then cut at
/// the staircase corners on their sides and merged into larger convex polygons wherever the
/// union stays convex, so diagonal and round walls bound one polygon along their stair line
/// instead of a row of thin slabs. Because the growth is a square, every point of the mesh is
/// at least a (Euclidean) away from every wall: a disc of radius a can stand anywhere on it. A
/// gap w cells wide stays open while 2a <= w (the agent fits, touching both sides within
/// kClearanceTolerance) and closes when 2a > w. Around convex wall corners the square growth is
/// conservative: the mesh loses the rounded corner slivers (at most a * (sqrt(2) - 1) deep),
/// and a diagonal gap between two walls that face each other corner to corner (Euclidean width
/// sqrt(2), axis-aligned width 1) closes at 2a > 1.
///
/// Polygon rings carry every vertex where a neighbour starts or ends (T-junctions), so each
/// ring edge faces exactly one neighbour or a wall, and a long edge touching several
/// neighbours has one portal per neighbour. With NavmeshDef::corners_only the polygons are
/// instead triangles between wall corners merged into convex polygons (no T-junctions).
///
/// The mesh is plain data for the sandbox to draw: polygons, their rings, portals.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// How to build a navmesh. Start from default_navmesh_def().
struct NavmeshDef {
  /// Radius of the agent the mesh is for. [Units: cells] [Limit: 0 .. kMaxAgentRadius]
  double agent_radius = 0.0;
  /// Per starting sub-cell, grow the rectangle both ways (right-then-down and down-then-right)
  /// and keep the larger one: fewer, squarer rectangles for a little more build time.
  bool best_of_two_growths = true;
  /// Go beyond rectangles: cut rectangles at the wall corners on their sides and merge the
  /// pieces into larger convex polygons wherever the union stays convex. Staircase walls (any
  /// diagonal or round wall on a grid) then bound one polygon along the stair line instead of a
  /// row of thin slabs, so corridors cross fewer polygons. Off: the Tower22 post's grid-shaped
  /// mesh.
  bool merge_convex = true;
  /// Polygons whose vertices are wall corners only, as in Polyanya's meshes (Cui, Harabor,
  /// Grastien 2017): the rectangles are cut into triangles, every vertex that is not a wall
  /// corner (T-junctions inside the free area, points along a straight wall) is removed, the
  /// triangles are made Delaunay by edge flips and merged into convex polygons. No T-junctions:
  /// a portal always runs wall corner to wall corner, and a path crosses fewer polygons, so the
  /// exact search expands fewer nodes; the build takes longer than merge_convex's. When set,
  /// merge_convex is not used.
  bool corners_only = false;
  /// Build the mesh in square tiles of this many cells (Recast's tile cache idea, Mononen
  /// 2009-2016): no polygon crosses a tile border, so after an edit update() re-triangulates
  /// only the tiles the edit reaches and re-stitches their borders (a portal runs wherever both
  /// sides of a border are open). The free area, and so every exact search length, is that of
  /// the untiled mesh; there are more polygons (a few per tile border). 0: one mesh for the
  /// whole map, as before (update() then rebuilds it whole). [Units: cells]
  /// [Limit: 0 or kMinNavTileSize .. kMaxNavTileSize]
  int tile_size = 0;
  /// Threads that build() and update() of a tiled mesh build the tiles on (the calling thread
  /// and tile_threads - 1 more, started per call). Each tile's build is independent and the
  /// stitching stays on the calling thread in tile order, so the mesh is the same bytes for
  /// every count; more threads shorten the wall time, not the CPU time. Untiled meshes use
  /// one. [Limit: 1 .. kMaxNavTileThreads]
  int tile_threads = 1;
  /// How NavmeshQuery treats a query point where two blocked cells touch only at their corners
  /// (a pinch point). false (default): the Moving AI competition's convention, as Polyanya
  /// answers it: the point is a valid start or goal and the path leaves (or arrives) through
  /// either free cell beside it, never through the point itself; start == goal there gives
  /// length 0. true: the point is wall, by the through-a-wall rule (collision.hpp), and the
  /// query is refused with "is a pinch point".
  bool pinch_points_are_wall = false;
};

/// Smallest and largest NavmeshDef::tile_size other than 0. [Units: cells]
inline constexpr int kMinNavTileSize = 8;
inline constexpr int kMaxNavTileSize = 4096;
/// The tile size the sandbox's planning service builds with: a brush stroke of radius 8 touches
/// at most 3 x 3 tiles, each about 1/256 of a 512 x 512 map. [Units: cells]
inline constexpr int kDefaultNavTileSize = 32;
/// Most NavmeshDef::tile_threads.
inline constexpr int kMaxNavTileThreads = 64;
/// The tile threads the sandbox's planning service (and its mesh overlay) build and update
/// their meshes with. Two: a second thread splits a cut's 30-odd tile builds when it gets a
/// core of its own. On the 2-core machine, quiet (load 1.5-2.4), the wall-corner cut on
/// random512-10-0 took 12.1-13.3 ms wall median (p95 15.6-23.6) instead of 15.6-17.8 (26.5-34.3);
/// at load 14-21 it made no difference either way (README, Live edits, corners28e). Strokes of
/// fewer than 8 tiles stay on the calling thread.
inline constexpr int kDefaultNavTileThreads = 2;

inline NavmeshDef default_navmesh_def() { return NavmeshDef{}; }

/// A convex polygon of the mesh. Its ring lives in Navmesh::ring_vertices()/ring_neighbors()
/// at [first, first + count), ordered with the interior on the left of each edge in the
/// math sense (positive shoelace area; with y down it appears clockwise on screen).
struct NavPolygon {
  int first = 0;     ///< Index of the first ring vertex.
  int count = 0;     ///< Number of ring vertices (and edges). [Limit: >= 3, or 0 for an unused number]
  int first_portal = 0;  ///< Index into Navmesh::polygon_portals().
  int portal_count = 0;
  Vec2 lo{0, 0}, hi{0, 0};  ///< Bounding box. [Units: cells]
  Vec2 centre{0, 0};        ///< Centroid (the Tower22 post's node point). [Units: cells]
  /// An unused polygon number: a tile's spare room after Navmesh::update() (no ring, no portal;
  /// see Navmesh::tile_polygon_first()). Skipped by the search, locate() and drawing.
  bool unused() const noexcept { return count == 0; }
};

/// The shared edge of two polygons. `a -> b` is the edge as it runs in polygon `poly_a`'s ring,
/// so seen from `poly_a` looking into `poly_b`, `b` is on the left and `a` on the right.
struct NavPortal {
  int poly_a = -1;
  int poly_b = -1;
  Vec2 a{0, 0}, b{0, 0};  ///< [Units: cells]
  int edge_a = -1;  ///< The ring edge (index into ring_vertices()) in poly_a's ring: runs a -> b.
  int edge_b = -1;  ///< The ring edge in poly_b's ring: runs b -> a.
  /// An unused portal number (a tile's spare room after Navmesh::update()): joins nothing.
  bool unused() const noexcept { return poly_a < 0; }
};

/// What the last Navmesh::update() of a tiled mesh changed: enough for NavmeshQuery::reset()
/// to patch its tables in the tiles around the edit instead of rebuilding them whole.
struct NavmeshChange {
  uint64_t before = 0;  ///< Navmesh::revision() before the update (0: no update yet).
  uint64_t after = 0;   ///< Navmesh::revision() after it.
  /// The tiles rebuilt (row-major tile index), ascending: those whose sub-cells changed (a
  /// tile the edit reaches but leaves as it was is not rebuilt; none when nothing changed).
  std::vector<int> tiles;
  /// Per tile, the index of its first polygon before the update, then the polygon count.
  std::vector<int> old_tile_polygon_first;
  /// The tiles whose stitched rings were made anew (the rebuilt ones and the neighbours whose
  /// shared side changed), ascending.
  std::vector<int> restitched;
  /// True when every tile kept its ranges of polygon, ring edge, portal and portal list
  /// numbers: only the polygons of `restitched` and their eight neighbours may differ, every
  /// other polygon, edge and portal is as it was. False after a layout anew (a build, or a
  /// tile that outgrew its range).
  bool kept_numbers = false;
};

class Navmesh {
 public:
  Navmesh() = default;

  /// Builds the mesh of `grid` for `def.agent_radius`. An empty mesh (no room for the agent
  /// anywhere) is not an error. Errors: a radius outside [0, kMaxAgentRadius] or NaN.
  static Result<Navmesh> build(const Grid& grid, const NavmeshDef& def = default_navmesh_def());

  /// The cells inside `changed` of `grid` may differ from the grid the mesh was built from;
  /// every cell outside it must not. Rebuilds the tiles whose sub-cells those cells reach (the
  /// agent radius widens the reach) and that changed, and re-stitches the mesh, so that the mesh equals
  /// build(grid, def) polygon for polygon, its unused numbers left out (tile_polygon_first()).
  /// An untiled mesh (tile_size 0) is rebuilt whole.
  /// Polygon and portal indices change: call NavmeshQuery::reset() afterwards. `changed` is
  /// clipped to the map. [Units: cells]
  /// Errors: `changed` empty (invalid_argument) or wholly outside the map (out_of_bounds);
  /// `grid` of another size (invalid_argument). On error the mesh is unchanged.
  Status update(const Grid& grid, const CellRect& changed);

  /// update() on a copy, leaving this mesh as it is (for a mesh others still read, as a plan
  /// result holding it). Cheaper than a copy and update(): the copy shares every tile's
  /// polygons with this mesh until the update rebuilds or re-stitches it (copy on write per
  /// tile), and when update() lays the mesh out anew its arrays are not copied first. Equals
  /// `Navmesh m = *this; m.update(grid, changed)` array for array. Errors: those of update().
  Result<Navmesh> updated(const Grid& grid, const CellRect& changed) const;

  /// A number that identifies the mesh's content: new (unique in the process) after every
  /// build() and update(); a copy keeps it. NavmeshQuery uses it to tell whether it may patch
  /// its tables from last_change().
  uint64_t revision() const noexcept { return revision_; }
  /// What the last update() changed (empty for a mesh that was only built, or untiled).
  const NavmeshChange& last_change() const noexcept { return change_; }
  /// Tiles across and down (0 for an untiled mesh).
  int tiles_x() const noexcept { return tile_j_.empty() ? 0 : static_cast<int>(tile_j_.size()) - 1; }
  int tiles_y() const noexcept { return tile_k_.empty() ? 0 : static_cast<int>(tile_k_.size()) - 1; }
  /// Polygons are numbered tile after tile (row-major): per tile, the index of its first
  /// polygon, then the polygon count (empty for an untiled mesh). Tile t owns the numbers
  /// [first[t], first[t + 1]): after an update() a tile keeps its range while its polygons fit
  /// (so an edit renumbers only the tiles it touches), and the numbers it does not use are
  /// unused polygons (NavPolygon::count 0, no ring, no portal: skipped by the search, locate()
  /// and drawing). A build leaves no unused numbers; the first update() that makes a tile
  /// outgrow its range lays the mesh out anew with spare room in every tile.
  const std::vector<int>& tile_polygon_first() const noexcept { return tile_poly_first_; }
  /// Per tile, the first index of its range in polygon_portals(), then its size (as
  /// tile_polygon_first(); unused entries are -1).
  const std::vector<int>& tile_portal_list_first() const noexcept { return tile_listed_first_; }

  /// The tile size the mesh was built with (0: untiled). [Units: cells]
  int tile_size() const noexcept { return def_.tile_size; }
  /// The definition the mesh was built with.
  const NavmeshDef& def() const noexcept { return def_; }

  /// The polygons. In a tiled mesh after an update() some may be unused (count 0, see
  /// tile_polygon_first()).
  const std::vector<NavPolygon>& polygons() const noexcept { return polys_; }
  /// The portals. Unused ones (after an update()) have poly_a == poly_b == -1.
  const std::vector<NavPortal>& portals() const noexcept { return portals_; }
  /// Ring vertices of all polygons, back to back (after an update() with unused entries
  /// between tiles: neighbour and portal -1). [Units: cells]
  const std::vector<Vec2>& ring_vertices() const noexcept { return ring_v_; }
  /// Per ring edge (vertex i -> i+1): the polygon across it, or -1 for a wall or the map's edge.
  const std::vector<int>& ring_neighbors() const noexcept { return ring_n_; }
  /// Per ring edge: the portal index, or -1 for a wall.
  const std::vector<int>& ring_portals() const noexcept { return ring_p_; }
  /// Portal indices of each polygon, back to back (see NavPolygon::first_portal).
  const std::vector<int>& polygon_portals() const noexcept { return poly_portals_; }
  /// Per ring vertex: a mesh-wide vertex id, equal for ring vertices at the same point, in
  /// [0, vertex_id_count()). The exact search keys its per-vertex best costs on it.
  const std::vector<int>& ring_vertex_ids() const noexcept { return ring_vid_; }
  int vertex_id_count() const noexcept { return vid_count_; }
  /// Per vertex id: 1 when a wall edge of some polygon ends there, i.e. a shortest path may bend
  /// there; 0 for points inside the free area (where only polygons meet).
  const std::vector<uint8_t>& vertex_on_wall() const noexcept { return vid_wall_; }

  std::span<const Vec2> ring(int poly) const {
    return {ring_v_.data() + polys_[poly].first, static_cast<size_t>(polys_[poly].count)};
  }

  /// The grid the mesh was built from (a copy), and the agent radius. [Units: cells]
  const Grid& grid() const noexcept { return grid_; }
  double agent_radius() const noexcept { return radius_; }
  /// How far the mesh keeps from the walls: the agent radius less half the clearance tolerance,
  /// so that a gap the agent exactly fits stays open. [Units: cells]
  double shrink() const noexcept { return shrink_; }

  /// The polygon containing p (on a shared edge: any of them), or -1 when p is not on the mesh.
  int locate(Vec2 p) const noexcept;

  /// Whether polygon `poly` contains p (its boundary included, within rounding); false for an
  /// invalid polygon index or a non-finite point.
  bool contains(int poly, Vec2 p) const noexcept;

  /// Closest point of polygon `poly` to p (p itself when inside).
  Vec2 closest_point(int poly, Vec2 p) const noexcept;

  /// True when the straight segment a-b stays on the mesh, walking from polygon `from_poly`
  /// (which must contain a). Passing through a vertex where only walls meet fails.
  bool segment_on_mesh(int from_poly, Vec2 a, Vec2 b) const noexcept;

 private:
  Grid grid_;
  NavmeshDef def_;
  double radius_ = 0.0;
  double shrink_ = 0.0;
  std::vector<NavPolygon> polys_;
  std::vector<NavPortal> portals_;
  std::vector<Vec2> ring_v_;
  std::vector<int> ring_n_;
  std::vector<int> ring_p_;
  std::vector<int> poly_portals_;
  std::vector<int> ring_vid_;
  std::vector<uint8_t> vid_wall_;
  int vid_count_ = 0;
  uint64_t revision_ = 0;
  NavmeshChange change_;
  // The sub-grid: its line coordinates and, per sub-cell (row-major), the rectangle or -1;
  // per rectangle, the polygons covering it (rect_polys_[rect_first_[r] .. rect_first_[r+1])).
  std::vector<double> xs_, ys_;
  std::vector<int> sub_poly_;
  std::vector<int> rect_first_, rect_polys_;
  // corners_only meshes locate through grid cells instead: per cell (row-major), the polygons
  // touching it, cell_polys_[cell_first_[c] .. cell_first_[c + 1]).
  std::vector<int> cell_first_, cell_polys_;

  // Tiled meshes (def_.tile_size > 0; navmesh_tiles.cpp): per tile, its polygons as rings of
  // sub-grid vertex ids and, per ring edge, the tile-local polygon across or -1 (wall or tile
  // border). The mesh's own arrays are assembled from them (assemble_tiles).
  struct TileSeg {
    int lo, hi, poly;  // a polygon edge on a tile side: its extent (sub-grid line indices), local polygon
  };
  struct TilePolys {
    std::vector<int> first{0};
    std::vector<int> verts;  // without the vertices that only split a tile side (prepare_tile)
    std::vector<int> across;
    // Kept between updates (navmesh_tile_stitch.cpp), redone only when the tile or a neighbour
    // changes: per side (0 left, 1 right, 2 top, 3 bottom) its polygons' edges on it sorted
    // by lo; the stitched rings (polys[p].first counts from the tile's first ring edge), per
    // ring edge the tile and local polygon across (-1: wall) and the twin edge's index in
    // that tile's rings.
    std::vector<TileSeg> sides[4];
    std::vector<NavPolygon> polys;
    std::vector<int> ring_vid, ring_tile, ring_poly, ring_twin;
    std::vector<Vec2> ring_v;
    // Of the stitched rings: the edges with a polygon across, and the portals this tile's
    // polygons make (those whose polygon across comes later in the mesh's numbering).
    int open_edges = 0, own_portals = 0;
  };
  // Shared between copies of the mesh and cloned before a tile is changed (own_tile): a copy
  // that is updated (updated()) costs the tiles it rebuilds or re-stitches, not the mesh.
  std::vector<std::shared_ptr<TilePolys>> tiles_;
  std::vector<int> tile_j_, tile_k_;  // sub-grid line index of each tile border, per axis
  std::vector<uint8_t> sub_open_;     // per sub-cell (row-major): free of every grown wall
  // Per tile (row-major), its polygons' range [tile_poly_first_[t], tile_poly_first_[t + 1]):
  // a tiled mesh locates a point among its tile's polygons (no per-cell index to rebuild).
  std::vector<int> tile_poly_first_;
  // Per tile, the start of its ranges of ring edges, portals and portal list entries (as
  // tile_poly_first_: a tile keeps them, with its spare room, while its arrays fit).
  std::vector<int> tile_edge_first_, tile_portal_first_, tile_listed_first_;
  std::vector<uint8_t> on_tile_border_;  // per sub-grid vertex id: 1 on an inner tile border

  static void merge_into_convex(Navmesh& m, int nx, bool corners_only);
  /// Tile t's polygons, for writing: cloned first when another copy of the mesh shares them.
  TilePolys& own_tile(size_t t);
  const TilePolys& tile_at(size_t t) const { return *tiles_[t]; }
  void build_tiled();
  /// build_tile() for each of `tiles` (row-major indices), on def_.tile_threads threads.
  void build_tiles(const std::vector<int>& tiles);
  void build_tile(int tx, int ty);
  /// The tiles (row-major index) whose sub-cells the changed cells [x0, x1] x [y0, y1] reach.
  std::vector<int> tiles_reached(int x0, int y0, int x1, int y1) const;
  /// Stitches the tiles `rebuilt` (ascending; all of them after a build) and their
  /// neighbours anew, keeps every other tile's stitched rings, and lays out the mesh's arrays.
  /// `old_layout` holds the arrays as they were before (this mesh, or the mesh updated() copies;
  /// empty after a build): the tiles whose numbers and neighbours did not change keep theirs.
  void assemble_tiles(const std::vector<int>& rebuilt, const Navmesh& old_layout);
  /// Lays out every tile's arrays in fresh ranges: exactly their size (`spare` false: a
  /// build) or with spare room (an update whose tile outgrew its range).
  void lay_out_all(bool spare);
  /// Whether every tile marked in `tiles` fits its ranges (then only they are laid out again).
  bool fits_ranges(const std::vector<uint8_t>& tiles) const;
  /// Writes tile t's arrays into its ranges, the numbers it does not use as unused ones.
  void lay_out_tile(size_t t);
  /// Sets vid_wall_ at both ends of tile tp's wall edges.
  void mark_wall_vertices(const TilePolys& tp);
  /// update() with the arrays before it in `old_layout` (this mesh, or the one updated() copies).
  Status update_from(const Grid& grid, const CellRect& changed, const Navmesh& old_layout);
  void link_all_portals();
  void index_cells();
  int locate_in_cells(Vec2 p) const noexcept;
  int locate_in_tiles(Vec2 p) const noexcept;
  friend struct NavmeshBuilder;  // the build steps (navmesh.cpp)
  friend struct TileStitcher;    // the tiles' assembly (navmesh_tile_stitch.cpp)
};

}  // namespace pathlab
