// Stitching a tiled navmesh's tiles into one mesh (NavmeshDef::tile_size; split from
// navmesh_tiles.cpp, which builds the tiles): each tile's rings with the vertices that only split
// a tile border dropped, every polygon edge on a border cut where the polygon across changes,
// and the mesh's rings, portals and per-tile polygon ranges made from them.

#include <algorithm>
#include <utility>
#include <vector>

#include "navmesh/navmesh_tiles.hpp"
#include "pathlab/navmesh.hpp"

namespace pathlab {
/// One polygon edge lying on a tile border, as the stitching sees it: its extent along the
/// border [lo, hi] in sub-grid line indices, and its polygon (mesh-wide index).
struct BorderSeg {
  int lo, hi, poly;
};

/// The steps of Navmesh::assemble_tiles: the tiles' rings without the vertices that only split
/// a tile border, the border pieces of every polygon, the mesh's rings with the borders cut
/// where the polygon across changes.
struct TileStitcher {
  const Navmesh& m;
  int nx = 0, tiles_x = 0, tiles_y = 0;
  // The tiles' rings back to back (mesh-wide polygon ids), collinear border vertices dropped.
  std::vector<int> first{0}, verts, across, tile_of;
  // Per tile border line (vertical lines 1 .. tiles_x - 1, then horizontal ones), per side
  // (0: the tile before the line, 1: after), the polygon edges on it sorted by lo.
  std::vector<std::vector<BorderSeg>> segs;

  explicit TileStitcher(const Navmesh& mesh)
      : m(mesh),
        nx(static_cast<int>(mesh.xs_.size()) - 1),
        tiles_x(static_cast<int>(mesh.tile_j_.size()) - 1),
        tiles_y(static_cast<int>(mesh.tile_k_.size()) - 1) {}

  int vj(int v) const { return v % (nx + 1); }
  int vk(int v) const { return v / (nx + 1); }

  /// The segment list of the tile border edge u -> v of a polygon of tile `tile` lies on, as
  /// 2 * line + side; -1 when the edge is not on a border between two tiles.
  int border_of(int tile, int u, int v) const {
    if (!m.on_tile_border_[static_cast<size_t>(u)] || !m.on_tile_border_[static_cast<size_t>(v)]) return -1;
    const int tx = tile % tiles_x, ty = tile / tiles_x;
    if (vj(u) == vj(v)) {
      if (vj(u) == m.tile_j_[static_cast<size_t>(tx)] && tx > 0) return 2 * tx + 1;
      if (vj(u) == m.tile_j_[static_cast<size_t>(tx) + 1] && tx + 1 < tiles_x) return 2 * (tx + 1);
    }
    if (vk(u) == vk(v)) {
      const int line = tiles_x + ty;  // horizontal lines after the vertical ones
      if (vk(u) == m.tile_k_[static_cast<size_t>(ty)] && ty > 0) return 2 * line + 1;
      if (vk(u) == m.tile_k_[static_cast<size_t>(ty) + 1] && ty + 1 < tiles_y) return 2 * (line + 1);
    }
    return -1;
  }
  bool vertical(int list) const { return list / 2 < tiles_x; }

  /// Copies the tiles' rings, dropping every vertex between two edges on the same tile border
  /// (a tile sees its border as a wall and may keep such vertices; stitching puts back the
  /// ones where the polygon across changes), with mesh-wide polygon ids.
  void gather() {
    size_t nv = 0, np = 0;
    for (const Navmesh::TilePolys& tp : m.tiles_) nv += tp.verts.size(), np += tp.first.size() - 1;
    verts.reserve(nv);
    across.reserve(nv);
    first.reserve(np + 1);
    tile_of.reserve(np);
    int offset = 0;
    for (size_t t = 0; t < m.tiles_.size(); ++t) {
      const Navmesh::TilePolys& tp = m.tiles_[t];
      const int tile = static_cast<int>(t);
      for (size_t p = 0; p + 1 < tp.first.size(); ++p) {
        const int f = tp.first[p], n = tp.first[p + 1] - f;
        auto vert = [&](int i) { return tp.verts[static_cast<size_t>(f + (i + n) % n)]; };
        for (int i = 0; i < n; ++i) {
          const int list = border_of(tile, vert(i - 1), vert(i));
          if (list >= 0 && list == border_of(tile, vert(i), vert(i + 1))) continue;
          const int a = tp.across[static_cast<size_t>(f + i)];
          verts.push_back(vert(i));
          across.push_back(a >= 0 ? a + offset : -1);
        }
        first.push_back(static_cast<int>(verts.size()));
        tile_of.push_back(tile);
      }
      offset += static_cast<int>(tp.first.size()) - 1;
    }
  }

  /// Every polygon edge on a tile border, into its segment list.
  void collect_segments() {
    segs.assign(2 * static_cast<size_t>(tiles_x + tiles_y), {});
    for (size_t p = 0; p + 1 < first.size(); ++p) {
      const int f = first[p], n = first[p + 1] - f;
      for (int i = 0; i < n; ++i) {
        const int u = verts[static_cast<size_t>(f + i)], v = verts[static_cast<size_t>(f + (i + 1) % n)];
        const int list = border_of(tile_of[p], u, v);
        if (list < 0) continue;
        const int cu = vertical(list) ? vk(u) : vj(u), cv = vertical(list) ? vk(v) : vj(v);
        segs[static_cast<size_t>(list)].push_back(BorderSeg{std::min(cu, cv), std::max(cu, cv), static_cast<int>(p)});
      }
    }
    for (auto& s : segs) std::sort(s.begin(), s.end(), [](const BorderSeg& a, const BorderSeg& b) { return a.lo < b.lo; });
  }

  /// Appends the ring edge u -> v, which lies on a tile border (segment list `list`), cut where
  /// the polygon across (in the other side's list) starts or ends: each piece gets its start
  /// vertex and the polygon across, or -1 where the other side is not open.
  void emit_border_edge(int u, int v, int list, std::vector<int>& out_v, std::vector<int>& out_n) const {
    const bool vert = vertical(list);
    const int fixed = vert ? vj(u) : vk(u);
    const int cu = vert ? vk(u) : vj(u), cv = vert ? vk(v) : vj(v);
    const int lo = std::min(cu, cv), hi = std::max(cu, cv);
    const std::vector<BorderSeg>& other = segs[static_cast<size_t>(list ^ 1)];
    std::vector<std::pair<int, int>> pieces;  // ascending: (start, polygon across)
    auto it = std::partition_point(other.begin(), other.end(), [&](const BorderSeg& s) { return s.hi <= lo; });
    int cursor = lo;
    for (; it != other.end() && it->lo < hi; ++it) {
      const int a = std::max(it->lo, lo), b = std::min(it->hi, hi);
      if (a > cursor) pieces.emplace_back(cursor, -1);
      pieces.emplace_back(a, it->poly);
      cursor = b;
    }
    if (cursor < hi) pieces.emplace_back(cursor, -1);
    auto vid = [&](int c) { return vert ? c * (nx + 1) + fixed : fixed * (nx + 1) + c; };
    if (cu < cv) {
      for (const auto& [start, poly] : pieces) out_v.push_back(vid(start)), out_n.push_back(poly);
      return;
    }
    for (size_t i = pieces.size(); i-- > 0;) {  // descending: each piece starts at its upper end
      out_v.push_back(vid(i + 1 < pieces.size() ? pieces[i + 1].first : hi));
      out_n.push_back(pieces[i].second);
    }
  }
};

void Navmesh::assemble_tiles() {
  TileStitcher st(*this);
  st.gather();
  st.collect_segments();
  const int nx = st.nx, ny = static_cast<int>(ys_.size()) - 1;
  std::vector<int> vids, across;
  vids.reserve(st.verts.size() + st.verts.size() / 4);
  across.reserve(vids.capacity());
  const size_t np = st.first.size() - 1;
  polys_.assign(np, NavPolygon{});
  for (size_t p = 0; p < np; ++p) {
    const int f = st.first[p], n = st.first[p + 1] - f;
    polys_[p].first = static_cast<int>(vids.size());
    for (int i = 0; i < n; ++i) {
      const int u = st.verts[static_cast<size_t>(f + i)], v = st.verts[static_cast<size_t>(f + (i + 1) % n)];
      const int list = st.border_of(st.tile_of[p], u, v);
      if (list >= 0) {
        st.emit_border_edge(u, v, list, vids, across);
      } else {
        vids.push_back(u);
        across.push_back(st.across[static_cast<size_t>(f + i)]);
      }
    }
    polys_[p].count = static_cast<int>(vids.size()) - polys_[p].first;
  }
  finish_rings(nx, ny, std::move(vids), std::move(across));
}

void Navmesh::finish_rings(int nx, int ny, std::vector<int> vids, std::vector<int> across) {
  vid_count_ = (nx + 1) * (ny + 1);
  vid_wall_.assign(static_cast<size_t>(vid_count_), 0);
  ring_vid_ = std::move(vids);
  ring_n_ = std::move(across);
  ring_v_.resize(ring_vid_.size());
  for (size_t i = 0; i < ring_vid_.size(); ++i) {
    const int v = ring_vid_[i];
    ring_v_[i] = Vec2(xs_[static_cast<size_t>(v % (nx + 1))], ys_[static_cast<size_t>(v / (nx + 1))]);
  }
  for (NavPolygon& P : polys_) {
    for (int i = 0; i < P.count; ++i) {
      const size_t e = static_cast<size_t>(P.first + i), e1 = static_cast<size_t>(P.first + (i + 1) % P.count);
      if (ring_n_[e] < 0) vid_wall_[static_cast<size_t>(ring_vid_[e])] = vid_wall_[static_cast<size_t>(ring_vid_[e1])] = 1;
    }
    detail::set_polygon_box_and_centre(P, ring_v_.data() + P.first);
  }
  portals_.clear();
  poly_portals_.clear();
  sub_poly_.clear();
  rect_first_.clear();
  rect_polys_.clear();
  cell_first_.clear();
  cell_polys_.clear();
  link_all_portals();
  // Polygons are numbered tile after tile: each tile's range, for locate_in_tiles.
  tile_poly_first_.assign(tiles_.size() + 1, 0);
  for (size_t t = 0; t < tiles_.size(); ++t)
    tile_poly_first_[t + 1] = tile_poly_first_[t] + static_cast<int>(tiles_[t].first.size()) - 1;
}

int Navmesh::locate_in_tiles(Vec2 p) const noexcept {
  // The tile whose closed box holds p: a point on a border is in the polygons of both tiles.
  auto tile_of = [](const std::vector<int>& borders, const std::vector<double>& lines, double v) {
    int t = 0;
    while (t + 2 < static_cast<int>(borders.size()) && v >= lines[static_cast<size_t>(borders[static_cast<size_t>(t) + 1])]) ++t;
    return t;
  };
  const int tx = tile_of(tile_j_, xs_, p.x), ty = tile_of(tile_k_, ys_, p.y);
  const size_t t = static_cast<size_t>(ty) * (tile_j_.size() - 1) + static_cast<size_t>(tx);
  for (int id = tile_poly_first_[t]; id < tile_poly_first_[t + 1]; ++id) {
    const NavPolygon& P = polys_[static_cast<size_t>(id)];
    if (p.x < P.lo.x - 1e-9 || p.x > P.hi.x + 1e-9 || p.y < P.lo.y - 1e-9 || p.y > P.hi.y + 1e-9) continue;
    if (contains(id, p)) return id;
  }
  return -1;
}

}  // namespace pathlab
