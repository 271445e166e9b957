// Tiled navmeshes (NavmeshDef::tile_size), after Recast's tile cache (Mikko Mononen, Recast &
// Detour, 2009-2016): the sub-grid is cut at fixed tile borders, each tile's polygons are built
// from its own sub-cells only (the rectangles, the convex merge or the wall-corner
// triangulation, with the tile border standing in for a wall), and the tiles are stitched:
// along a border, a portal runs wherever the polygons on both sides are open. An edit then
// rebuilds only the tiles whose sub-cells it reaches, and the stitched mesh equals a full
// build polygon for polygon, because a tile's polygons depend on nothing outside the tile.

#include <algorithm>
#include <cmath>
#include <string>

#include "navmesh/navmesh_corners.hpp"
#include "navmesh/navmesh_merge.hpp"
#include "navmesh/navmesh_rects.hpp"
#include "navmesh/navmesh_tiles.hpp"
#include "pathlab/navmesh.hpp"

namespace pathlab {
namespace {

/// A tile's sub-cells: [j0, j1) x [k0, k1) in sub-grid line indices.
struct TileBox {
  int j0 = 0, j1 = 0, k0 = 0, k1 = 0;
  int w() const { return j1 - j0; }
  int h() const { return k1 - k0; }
};

/// Tile (tx, ty)'s sub-cells, from the tile borders' sub-grid line indices per axis.
TileBox tile_box(const std::vector<int>& tile_j, const std::vector<int>& tile_k, int tx, int ty) {
  return TileBox{tile_j[static_cast<size_t>(tx)], tile_j[static_cast<size_t>(tx) + 1], tile_k[static_cast<size_t>(ty)],
                 tile_k[static_cast<size_t>(ty) + 1]};
}

using LocalRect = detail::SubRect;  // a tile-local sub-cell range

/// Counts of blocked cells over any rectangle of cells inside a window of the grid in O(1) (a
/// 2D prefix sum). An update sums only the window its tiles read, not the whole map.
class BlockedSums {
 public:
  explicit BlockedSums(const Grid& grid) : BlockedSums(grid, 0, 0, grid.width() - 1, grid.height() - 1) {}
  /// The window: columns [x0, x1] and rows [y0, y1] (both included, inside the grid).
  BlockedSums(const Grid& grid, int x0, int y0, int x1, int y1)
      : x0_(x0), y0_(y0), w_(x1 - x0 + 2), sum_(static_cast<size_t>(w_) * static_cast<size_t>(y1 - y0 + 2), 0) {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const int lx = x - x0, ly = y - y0;
        at(lx + 1, ly + 1) = at(lx, ly + 1) + at(lx + 1, ly) - at(lx, ly) + (grid.is_free(x, y) ? 0 : 1);
      }
  }
  /// Blocked cells in columns [x0, x1] and rows [y0, y1] (both included, inside the window).
  int32_t count(int x0, int y0, int x1, int y1) const {
    x0 -= x0_, x1 -= x0_, y0 -= y0_, y1 -= y0_;
    return get(x1 + 1, y1 + 1) - get(x0, y1 + 1) - get(x1 + 1, y0) + get(x0, y0);
  }

 private:
  int32_t& at(int x, int y) { return sum_[static_cast<size_t>(y) * static_cast<size_t>(w_) + static_cast<size_t>(x)]; }
  int32_t get(int x, int y) const { return sum_[static_cast<size_t>(y) * static_cast<size_t>(w_) + static_cast<size_t>(x)]; }
  int x0_, y0_, w_;
  std::vector<int32_t> sum_;
};

/// The grid cells whose grown walls cover each sub-interval, per axis (covering_cells).
struct Coverage {
  std::vector<int> clo, chi, rlo, rhi;
};

/// Marks the sub-cells of box `b` free of every grown wall in `open` (row-major, nx wide).
void fill_open(const TileBox& b, int nx, const Coverage& cov, const BlockedSums& sums, std::vector<uint8_t>& open) {
  for (int k = b.k0; k < b.k1; ++k)
    for (int j = b.j0; j < b.j1; ++j) {
      const size_t jj = static_cast<size_t>(j), kk = static_cast<size_t>(k);
      const bool none = cov.clo[jj] > cov.chi[jj] || cov.rlo[kk] > cov.rhi[kk];
      open[kk * static_cast<size_t>(nx) + jj] =
          none || sums.count(cov.clo[jj], cov.rlo[kk], cov.chi[jj], cov.rhi[kk]) == 0 ? 1 : 0;
    }
}

/// Greedy rectangles of the open sub-cells of one tile, seeded in row-major order and grown
/// within the tile only (detail::greedy_rect_cover, as for the whole map). `owner` gets
/// each local sub-cell's rectangle or -1.
std::vector<LocalRect> tile_rects(const std::vector<uint8_t>& open_all, int nx, const TileBox& b,
                                  const std::vector<double>& xs, const std::vector<double>& ys, bool best_of_two,
                                  std::vector<int>& owner) {
  const int w = b.w(), h = b.h();
  std::vector<uint8_t> open(static_cast<size_t>(w) * static_cast<size_t>(h));
  for (int k = 0; k < h; ++k)
    for (int j = 0; j < w; ++j)
      open[static_cast<size_t>(k * w + j)] = open_all[static_cast<size_t>(k + b.k0) * static_cast<size_t>(nx) + static_cast<size_t>(j + b.j0)];
  owner.assign(open.size(), -1);
  return detail::greedy_rect_cover(open, w, h, xs.data() + b.j0, ys.data() + b.k0, best_of_two, owner);
}

/// The ring of every rectangle of a tile, with a vertex wherever the neighbour across a side
/// changes; outside the tile counts as wall. Vertices are tile-local lattice ids
/// (k * (w + 1) + j); `across` gets, per ring edge, the rectangle across or -1.
void tile_rect_rings(const std::vector<LocalRect>& rects, const std::vector<int>& owner, int w, int h,
                     detail::RectRings& out, std::vector<int>& across) {
  auto own = [&](int j, int k) -> int {
    if (j < 0 || k < 0 || j >= w || k >= h) return -1;
    return owner[static_cast<size_t>(k * w + j)];
  };
  auto emit = [&](int j, int k, int n) {
    out.rings.verts.push_back(k * (w + 1) + j);
    out.wall.push_back(static_cast<uint8_t>(n < 0 ? 1 : 0));
    across.push_back(n);
  };
  for (const LocalRect& r : rects) {
    int cur = own(r.x0, r.y0 - 1);
    emit(r.x0, r.y0, cur);
    for (int j = r.x0 + 1; j < r.x1; ++j)
      if (const int n = own(j, r.y0 - 1); n != cur) emit(j, r.y0, cur = n);
    cur = own(r.x1, r.y0);
    emit(r.x1, r.y0, cur);
    for (int k = r.y0 + 1; k < r.y1; ++k)
      if (const int n = own(r.x1, k); n != cur) emit(r.x1, k, cur = n);
    cur = own(r.x1 - 1, r.y1);
    emit(r.x1, r.y1, cur);
    for (int j = r.x1 - 2; j >= r.x0; --j)
      if (const int n = own(j, r.y1); n != cur) emit(j + 1, r.y1, cur = n);
    cur = own(r.x0 - 1, r.y1 - 1);
    emit(r.x0, r.y1, cur);
    for (int k = r.y1 - 2; k >= r.y0; --k)
      if (const int n = own(r.x0 - 1, k); n != cur) emit(r.x0, k + 1, cur = n);
    out.rings.first.push_back(static_cast<int>(out.rings.verts.size()));
  }
}

}  // namespace

namespace {

/// The sub-grid line indices of the tile borders along one axis: 0, every multiple of `tile`
/// strictly inside the band (lines.front(), lines.back()), and the last line.
std::vector<int> tile_borders(const std::vector<double>& lines, int tile) {
  std::vector<int> out{0};
  for (int x = tile; x < lines.back(); x += tile) {
    if (!(x > lines.front())) continue;
    const auto it = std::lower_bound(lines.begin(), lines.end(), static_cast<double>(x));
    if (it != lines.end() && *it == x) out.push_back(static_cast<int>(it - lines.begin()));
  }
  out.push_back(static_cast<int>(lines.size()) - 1);
  return out;
}

Coverage coverage(const std::vector<double>& xs, const std::vector<double>& ys, const Grid& grid, double s) {
  Coverage c;
  detail::covering_cells(xs, grid.width(), s, c.clo, c.chi);
  detail::covering_cells(ys, grid.height(), s, c.rlo, c.rhi);
  return c;
}

}  // namespace

/// One polygon edge lying on a tile border, as the stitching sees it: its extent along the
/// border [lo, hi] in sub-grid line indices, and its polygon (mesh-wide index).
struct BorderSeg {
  int lo, hi, poly;
};

void Navmesh::build_tiled() {
  const int nx = static_cast<int>(xs_.size()) - 1, ny = static_cast<int>(ys_.size()) - 1;
  tile_j_ = tile_borders(xs_, def_.tile_size);
  tile_k_ = tile_borders(ys_, def_.tile_size);
  sub_open_.assign(static_cast<size_t>(nx) * static_cast<size_t>(ny), 0);
  fill_open(TileBox{0, nx, 0, ny}, nx, coverage(xs_, ys_, grid_, shrink_), BlockedSums(grid_), sub_open_);
  const int TX = static_cast<int>(tile_j_.size()) - 1, TY = static_cast<int>(tile_k_.size()) - 1;
  on_tile_border_.assign(static_cast<size_t>(nx + 1) * static_cast<size_t>(ny + 1), 0);
  for (int t = 1; t < TX; ++t)
    for (int k = 0; k <= ny; ++k) on_tile_border_[static_cast<size_t>(k) * static_cast<size_t>(nx + 1) + static_cast<size_t>(tile_j_[static_cast<size_t>(t)])] = 1;
  for (int t = 1; t < TY; ++t)
    for (int j = 0; j <= nx; ++j) on_tile_border_[static_cast<size_t>(tile_k_[static_cast<size_t>(t)]) * static_cast<size_t>(nx + 1) + static_cast<size_t>(j)] = 1;
  tiles_.assign(static_cast<size_t>(TX) * static_cast<size_t>(TY), TilePolys{});
  for (int ty = 0; ty < TY; ++ty)
    for (int tx = 0; tx < TX; ++tx) build_tile(tx, ty);
  assemble_tiles();
}

void Navmesh::build_tile(int tx, int ty) {
  const TileBox b = tile_box(tile_j_, tile_k_, tx, ty);
  const int nx = static_cast<int>(xs_.size()) - 1, w = b.w(), h = b.h();
  std::vector<int> owner, across;
  const std::vector<LocalRect> rects = tile_rects(sub_open_, nx, b, xs_, ys_, def_.best_of_two_growths, owner);
  detail::RectRings rr;
  tile_rect_rings(rects, owner, w, h, rr, across);
  TilePolys& t = tiles_[static_cast<size_t>(ty) * (tile_j_.size() - 1) + static_cast<size_t>(tx)];
  auto global = [&](int local) { return (local / (w + 1) + b.k0) * (nx + 1) + local % (w + 1) + b.j0; };
  if (!def_.merge_convex && !def_.corners_only) {  // each rectangle is its own polygon
    t.first = std::move(rr.rings.first);
    t.verts.resize(rr.rings.verts.size());
    for (size_t i = 0; i < t.verts.size(); ++i) t.verts[i] = global(rr.rings.verts[i]);
    t.across = std::move(across);
    return;
  }
  // The merge works on the ring vertices only, numbered compactly.
  std::vector<int> used, compact_of(static_cast<size_t>(w + 1) * static_cast<size_t>(h + 1), -1);
  for (int& v : rr.rings.verts) {
    int& c = compact_of[static_cast<size_t>(v)];
    if (c < 0) {
      c = static_cast<int>(used.size());
      used.push_back(v);
    }
    v = c;
  }
  std::vector<Vec2> pos(used.size());
  for (size_t i = 0; i < used.size(); ++i)
    pos[i] = Vec2(xs_[static_cast<size_t>(used[i] % (w + 1) + b.j0)], ys_[static_cast<size_t>(used[i] / (w + 1) + b.k0)]);
  detail::ConvexPieces pieces;
  if (def_.corners_only) {
    const auto tags_x = detail::line_tags(std::vector<double>(xs_.begin() + b.j0, xs_.begin() + b.j1 + 1), shrink_);
    const auto tags_y = detail::line_tags(std::vector<double>(ys_.begin() + b.k0, ys_.begin() + b.k1 + 1), shrink_);
    std::vector<detail::ExactCoord> exact(used.size());
    for (size_t i = 0; i < used.size(); ++i) {
      const auto [kx, sx] = tags_x[static_cast<size_t>(used[i] % (w + 1))];
      const auto [ky, sy] = tags_y[static_cast<size_t>(used[i] / (w + 1))];
      exact[i] = detail::ExactCoord{kx, ky, sx, sy};
    }
    pieces = detail::merge_convex_rings(detail::corner_triangles(rr, pos, exact, shrink_), pos);
  } else {
    std::vector<uint8_t> on_wall(used.size(), 0);
    for (size_t r = 0; r + 1 < rr.rings.first.size(); ++r) {
      const int f = rr.rings.first[r], n = rr.rings.first[r + 1] - f;
      for (int i = 0; i < n; ++i)
        if (rr.wall[static_cast<size_t>(f + i)]) {
          on_wall[static_cast<size_t>(rr.rings.verts[static_cast<size_t>(f + i)])] = 1;
          on_wall[static_cast<size_t>(rr.rings.verts[static_cast<size_t>(f + (i + 1) % n)])] = 1;
        }
    }
    pieces = detail::merge_convex(rr, pos, on_wall);
  }
  t.first = std::move(pieces.rings.first);
  t.verts.resize(pieces.rings.verts.size());
  for (size_t i = 0; i < t.verts.size(); ++i) t.verts[i] = global(used[static_cast<size_t>(pieces.rings.verts[i])]);
  t.across = std::move(pieces.across);
}

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
    const Vec2 origin = ring_v_[static_cast<size_t>(P.first)];
    P.lo = P.hi = origin;
    double area2 = 0.0;
    Vec2 c(0.0, 0.0);
    for (int i = 0; i < P.count; ++i) {
      const size_t e = static_cast<size_t>(P.first + i), e1 = static_cast<size_t>(P.first + (i + 1) % P.count);
      const Vec2 a = ring_v_[e], b = ring_v_[e1];
      if (ring_n_[e] < 0) vid_wall_[static_cast<size_t>(ring_vid_[e])] = vid_wall_[static_cast<size_t>(ring_vid_[e1])] = 1;
      P.lo = glm::min(P.lo, a);
      P.hi = glm::max(P.hi, a);
      // Area centroid, relative to the first vertex for precision.
      const double cr = cross(a - origin, b - origin);
      area2 += cr;
      c += (a - origin + b - origin) * cr;
    }
    P.centre = origin + (area2 != 0.0 ? c / (3.0 * area2) : Vec2(0.0, 0.0));
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

Status Navmesh::update(const Grid& grid, const CellRect& changed) {
  auto rect_str = [&] {
    return "(" + std::to_string(changed.min.x) + ", " + std::to_string(changed.min.y) + ")-(" +
           std::to_string(changed.max.x) + ", " + std::to_string(changed.max.y) + ")";
  };
  auto size_str = [](const Grid& g) { return std::to_string(g.width()) + "x" + std::to_string(g.height()); };
  if (changed.max.x < changed.min.x || changed.max.y < changed.min.y)
    return fail(StatusCode::invalid_argument, "changed rectangle " + rect_str() + " is empty (max below min)");
  const int x0 = std::max(changed.min.x, 0), y0 = std::max(changed.min.y, 0);
  const int x1 = std::min(changed.max.x, grid.width() - 1), y1 = std::min(changed.max.y, grid.height() - 1);
  if (x0 > x1 || y0 > y1)
    return fail(StatusCode::out_of_bounds, "changed rectangle " + rect_str() + " lies outside the " + size_str(grid) + " map");
  if (grid.width() != grid_.width() || grid.height() != grid_.height())
    return fail(StatusCode::invalid_argument, "the grid is " + size_str(grid) + ", the mesh was built for " +
                                                  size_str(grid_) + ": build a new mesh for another map");
  if (def_.tile_size == 0 || tiles_.empty()) {
    auto rebuilt = build(grid, def_);
    if (!rebuilt) return rebuilt.error();
    *this = std::move(*rebuilt);
    return ok_status();
  }
  for (int y = y0; y <= y1; ++y)  // the rest of the map is the same (the contract above)
    for (int x = x0; x <= x1; ++x) grid_.set_cost(x, y, grid.cost(x, y));
  change_.before = revision_;
  change_.old_tile_polygon_first = tile_poly_first_;
  change_.tiles = tiles_reached(x0, y0, x1, y1);
  const Coverage cov = coverage(xs_, ys_, grid_, shrink_);
  const int nx = static_cast<int>(xs_.size()) - 1, TX = static_cast<int>(tile_j_.size()) - 1;
  // The cells the rebuilt tiles' sub-cells read: those whose grown wall reaches into them.
  int wx0 = grid_.width(), wy0 = grid_.height(), wx1 = -1, wy1 = -1;
  for (const int t : change_.tiles) {
    const TileBox b = tile_box(tile_j_, tile_k_, t % TX, t / TX);
    wx0 = std::min(wx0, static_cast<int>(std::floor(xs_[static_cast<size_t>(b.j0)] - 1.0 - shrink_)));
    wx1 = std::max(wx1, static_cast<int>(std::ceil(xs_[static_cast<size_t>(b.j1)] + shrink_)));
    wy0 = std::min(wy0, static_cast<int>(std::floor(ys_[static_cast<size_t>(b.k0)] - 1.0 - shrink_)));
    wy1 = std::max(wy1, static_cast<int>(std::ceil(ys_[static_cast<size_t>(b.k1)] + shrink_)));
  }
  if (!change_.tiles.empty()) {
    const BlockedSums sums(grid_, std::max(wx0, 0), std::max(wy0, 0), std::min(wx1, grid_.width() - 1),
                           std::min(wy1, grid_.height() - 1));
    for (const int t : change_.tiles) {
      fill_open(tile_box(tile_j_, tile_k_, t % TX, t / TX), nx, cov, sums, sub_open_);
      build_tile(t % TX, t / TX);
    }
  }
  assemble_tiles();
  revision_ = change_.after = detail::next_navmesh_revision();
  return ok_status();
}

std::vector<int> Navmesh::tiles_reached(int x0, int y0, int x1, int y1) const {
  // A changed cell c reaches the sub-cells whose midpoint lies in (c - s, c + 1 + s).
  const double s = shrink_, reach_lo = x0 - s, reach_hi = x1 + 1 + s, reach_top = y0 - s, reach_bottom = y1 + 1 + s;
  const int TX = static_cast<int>(tile_j_.size()) - 1, TY = static_cast<int>(tile_k_.size()) - 1;
  std::vector<int> out;
  for (int ty = 0; ty < TY; ++ty) {
    const TileBox b0 = tile_box(tile_j_, tile_k_, 0, ty);
    if (ys_[static_cast<size_t>(b0.k1)] < reach_top || ys_[static_cast<size_t>(b0.k0)] > reach_bottom) continue;
    for (int tx = 0; tx < TX; ++tx) {
      const TileBox b = tile_box(tile_j_, tile_k_, tx, ty);
      if (xs_[static_cast<size_t>(b.j1)] < reach_lo || xs_[static_cast<size_t>(b.j0)] > reach_hi) continue;
      out.push_back(ty * TX + tx);
    }
  }
  return out;
}

}  // namespace pathlab
