// Stitching a tiled navmesh's tiles into one mesh (NavmeshDef::tile_size; split from
// navmesh_tiles.cpp, which builds the tiles): each tile's rings with the vertices that only split
// a tile side dropped, every polygon edge on a side cut where the polygon across changes, and
// the mesh's rings, portals and per-tile polygon ranges laid out from them. Each tile keeps
// its stitched rings, their twins across and its polygons' boxes: after an update() only the
// rebuilt tiles and their four neighbours are stitched again (a tile's cut edges depend on
// its own polygons and its neighbours' side edges only), the twins are looked up again one
// tile further. Each tile owns ranges of polygon, ring edge, portal and portal list numbers
// (as Detour's tiles own their polygon references, Mononen, Recast & Detour): while the
// relinked tiles fit theirs, only they are laid out again and every other number stays put;
// a tile that outgrows a range lays the whole mesh out anew with a quarter's spare room per
// tile. Unused numbers are empty polygons and cleared portals. Leaving them out, the result
// is the same as stitching every tile.

#include <algorithm>
#include <array>
#include <iterator>
#include <utility>
#include <vector>

#include "navmesh/navmesh_tiles.hpp"
#include "pathlab/navmesh.hpp"

namespace pathlab {

/// The steps of Navmesh::assemble_tiles on single tiles.
struct TileStitcher {
  Navmesh& m;
  int nx = 0, tiles_x = 0, tiles_y = 0;
  std::vector<std::pair<int, int>> pieces_;  // emit_side_edge's scratch, kept across edges

  explicit TileStitcher(Navmesh& mesh)
      : m(mesh),
        nx(static_cast<int>(mesh.xs_.size()) - 1),
        tiles_x(static_cast<int>(mesh.tile_j_.size()) - 1),
        tiles_y(static_cast<int>(mesh.tile_k_.size()) - 1) {}

  int vj(int v) const { return v % (nx + 1); }
  int vk(int v) const { return v / (nx + 1); }
  /// Tile t for writing (cloned when a copy of the mesh shares it) and for reading.
  Navmesh::TilePolys& tile(int t) { return m.own_tile(static_cast<size_t>(t)); }
  const Navmesh::TilePolys& tile_c(int t) const { return m.tile_at(static_cast<size_t>(t)); }

  /// The side of tile `t` (0 left, 1 right, 2 top, 3 bottom) the edge u -> v of one of its
  /// polygons lies on; -1 when the edge is not on a side shared with another tile.
  int side_of(int t, int u, int v) const {
    if (!m.on_tile_border_[static_cast<size_t>(u)] || !m.on_tile_border_[static_cast<size_t>(v)]) return -1;
    const int tx = t % tiles_x, ty = t / tiles_x;
    if (vj(u) == vj(v)) {
      if (vj(u) == m.tile_j_[static_cast<size_t>(tx)] && tx > 0) return 0;
      if (vj(u) == m.tile_j_[static_cast<size_t>(tx) + 1] && tx + 1 < tiles_x) return 1;
    }
    if (vk(u) == vk(v)) {
      if (vk(u) == m.tile_k_[static_cast<size_t>(ty)] && ty > 0) return 2;
      if (vk(u) == m.tile_k_[static_cast<size_t>(ty) + 1] && ty + 1 < tiles_y) return 3;
    }
    return -1;
  }
  /// The tile across side `side` of tile t.
  int across_side(int t, int side) const { return side == 0 ? t - 1 : side == 1 ? t + 1 : side == 2 ? t - tiles_x : t + tiles_x; }

  /// Drops from tile t's rings every vertex between two edges on the same tile side (a tile
  /// sees its sides as walls and may keep such vertices; stitching puts back the ones where
  /// the polygon across changes) and lists the edges on each side.
  void prepare(int t) {
    Navmesh::TilePolys& tp = tile(t);
    std::vector<int> first{0}, verts, across;
    verts.reserve(tp.verts.size());
    across.reserve(tp.verts.size());
    for (auto& s : tp.sides) s.clear();
    for (size_t p = 0; p + 1 < tp.first.size(); ++p) {
      const int f = tp.first[p], n = tp.first[p + 1] - f;
      auto vert = [&](int i) { return tp.verts[static_cast<size_t>(f + (i + n) % n)]; };
      for (int i = 0; i < n; ++i) {
        const int side = side_of(t, vert(i - 1), vert(i));
        if (side >= 0 && side == side_of(t, vert(i), vert(i + 1))) continue;
        verts.push_back(vert(i));
        across.push_back(tp.across[static_cast<size_t>(f + i)]);
      }
      first.push_back(static_cast<int>(verts.size()));
      const int g = first[p], k = first[p + 1] - g;
      for (int i = 0; i < k; ++i) {
        const int u = verts[static_cast<size_t>(g + i)], v = verts[static_cast<size_t>(g + (i + 1) % k)];
        const int side = side_of(t, u, v);
        if (side < 0) continue;
        const int cu = side < 2 ? vk(u) : vj(u), cv = side < 2 ? vk(v) : vj(v);
        tp.sides[side].push_back(Navmesh::TileSeg{std::min(cu, cv), std::max(cu, cv), static_cast<int>(p)});
      }
    }
    for (auto& s : tp.sides)
      std::sort(s.begin(), s.end(), [](const Navmesh::TileSeg& a, const Navmesh::TileSeg& b) { return a.lo < b.lo; });
    tp.first = std::move(first);
    tp.verts = std::move(verts);
    tp.across = std::move(across);
  }

  /// Appends to tile t's stitched ring the edge u -> v on its side `side`, cut where the
  /// polygon across (in the neighbour's opposite side list) starts or ends: each piece gets its
  /// start vertex and the tile and polygon across, or -1 where the other side is not open.
  void emit_side_edge(int t, int u, int v, int side) {
    Navmesh::TilePolys& tp = tile(t);
    const bool vert = side < 2;
    const int fixed = vert ? vj(u) : vk(u);
    const int cu = vert ? vk(u) : vj(u), cv = vert ? vk(v) : vj(v);
    const int lo = std::min(cu, cv), hi = std::max(cu, cv), nb = across_side(t, side);
    const std::vector<Navmesh::TileSeg>& other = tile_c(nb).sides[side ^ 1];
    std::vector<std::pair<int, int>>& pieces = pieces_;  // ascending: (start, polygon across)
    pieces.clear();
    auto it = std::partition_point(other.begin(), other.end(), [&](const Navmesh::TileSeg& s) { return s.hi <= lo; });
    int cursor = lo;
    for (; it != other.end() && it->lo < hi; ++it) {
      const int a = std::max(it->lo, lo), b = std::min(it->hi, hi);
      if (a > cursor) pieces.emplace_back(cursor, -1);
      pieces.emplace_back(a, it->poly);
      cursor = b;
    }
    if (cursor < hi) pieces.emplace_back(cursor, -1);
    auto push = [&](int c, int poly) {
      tp.ring_vid.push_back(vert ? c * (nx + 1) + fixed : fixed * (nx + 1) + c);
      tp.ring_tile.push_back(poly < 0 ? -1 : nb);
      tp.ring_poly.push_back(poly);
    };
    if (cu < cv) {
      for (const auto& [start, poly] : pieces) push(start, poly);
      return;
    }
    for (size_t i = pieces.size(); i-- > 0;)  // descending: each piece starts at its upper end
      push(i + 1 < pieces.size() ? pieces[i + 1].first : hi, pieces[i].second);
  }

  /// Tile t's stitched rings, their vertices' points and its polygons' boxes and centres.
  void stitch(int t) {
    Navmesh::TilePolys& tp = tile(t);
    tp.ring_vid.clear(), tp.ring_tile.clear(), tp.ring_poly.clear();
    const size_t np = tp.first.size() - 1;
    tp.polys.assign(np, NavPolygon{});
    for (size_t p = 0; p < np; ++p) {
      const int f = tp.first[p], n = tp.first[p + 1] - f;
      NavPolygon& P = tp.polys[p];
      P.first = static_cast<int>(tp.ring_vid.size());
      for (int i = 0; i < n; ++i) {
        const int u = tp.verts[static_cast<size_t>(f + i)], v = tp.verts[static_cast<size_t>(f + (i + 1) % n)];
        if (const int side = side_of(t, u, v); side >= 0) {
          emit_side_edge(t, u, v, side);
          continue;
        }
        const int a = tp.across[static_cast<size_t>(f + i)];
        tp.ring_vid.push_back(u);
        tp.ring_tile.push_back(a < 0 ? -1 : t);
        tp.ring_poly.push_back(a);
      }
      P.count = static_cast<int>(tp.ring_vid.size()) - P.first;
    }
    tp.ring_v.resize(tp.ring_vid.size());
    for (size_t i = 0; i < tp.ring_vid.size(); ++i)
      tp.ring_v[i] = Vec2(m.xs_[static_cast<size_t>(vj(tp.ring_vid[i]))], m.ys_[static_cast<size_t>(vk(tp.ring_vid[i]))]);
    for (NavPolygon& P : tp.polys) detail::set_polygon_box_and_centre(P, tp.ring_v.data() + P.first);
    // What lay_out_tile() will write, so the mesh's arrays are sized once: a polygon makes the
    // portal of an edge whose polygon across comes after it (a later tile, or later in this one).
    tp.open_edges = tp.own_portals = 0;
    for (size_t p = 0; p < np; ++p)
      for (int e = tp.polys[p].first; e < tp.polys[p].first + tp.polys[p].count; ++e) {
        const int ta = tp.ring_tile[static_cast<size_t>(e)];
        if (ta < 0) continue;
        ++tp.open_edges;
        if (ta > t || (ta == t && tp.ring_poly[static_cast<size_t>(e)] > static_cast<int>(p))) ++tp.own_portals;
      }
  }

  /// For each ring edge of tile t with a polygon across, the index of the twin edge (the one
  /// running back) in the rings of the tile across; -1 for walls. A tile whose own rings were
  /// kept (`restitched[t]` 0) keeps its twins but those in the tiles restitched.
  void link(int t, const std::vector<uint8_t>& restitched) {
    Navmesh::TilePolys& tp = tile(t);
    const bool all = restitched[static_cast<size_t>(t)] != 0;
    if (all) tp.ring_twin.assign(tp.ring_vid.size(), -1);
    for (size_t p = 0; p < tp.polys.size(); ++p) {
      const NavPolygon& P = tp.polys[p];
      for (int e = P.first; e < P.first + P.count; ++e) {
        const int ta = tp.ring_tile[static_cast<size_t>(e)];
        if (ta < 0 || (!all && !restitched[static_cast<size_t>(ta)])) continue;
        const Navmesh::TilePolys& o = tile_c(ta);
        const NavPolygon& Q = o.polys[static_cast<size_t>(tp.ring_poly[static_cast<size_t>(e)])];
        int twin = -1;  // two convex polygons share at most one edge: the first match is it
        for (int f = Q.first; f < Q.first + Q.count; ++f)
          if (o.ring_poly[static_cast<size_t>(f)] == static_cast<int>(p) && o.ring_tile[static_cast<size_t>(f)] == t) {
            twin = f;
            break;
          }
        tp.ring_twin[static_cast<size_t>(e)] = twin;
      }
    }
  }

  /// The wall flags of the sub-grid vertices (a path may bend where a wall edge ends): kept
  /// from `old` but in the closed boxes of the restitched tiles (the only tiles whose rings
  /// changed), which are cleared and set again from every tile touching them (the eight
  /// neighbours: a box shares its corners with the diagonal ones). They do not depend on the
  /// polygon numbering, so an edit across every tile row still redoes only its own tiles'.
  void wall_flags(const std::vector<uint8_t>& restitched, const Navmesh& old) {
    const size_t count = static_cast<size_t>(m.vid_count_);
    const bool fresh = (&old == &m ? m.vid_wall_.size() : old.vid_wall_.size()) != count;
    if (&old != &m && !fresh) m.vid_wall_ = old.vid_wall_;
    if (fresh) m.vid_wall_.assign(count, 0);
    std::vector<uint8_t> mark(restitched.size(), 0);
    for (int t = 0; t < tiles_x * tiles_y; ++t) {
      if (!restitched[static_cast<size_t>(t)]) continue;
      const int tx = t % tiles_x, ty = t / tiles_x;
      for (int y = std::max(ty - 1, 0); y <= std::min(ty + 1, tiles_y - 1); ++y)
        for (int x = std::max(tx - 1, 0); x <= std::min(tx + 1, tiles_x - 1); ++x) mark[static_cast<size_t>(y * tiles_x + x)] = 1;
      if (fresh) continue;
      const int j0 = m.tile_j_[static_cast<size_t>(tx)], j1 = m.tile_j_[static_cast<size_t>(tx) + 1];
      for (int k = m.tile_k_[static_cast<size_t>(ty)]; k <= m.tile_k_[static_cast<size_t>(ty) + 1]; ++k)
        std::fill_n(m.vid_wall_.begin() + static_cast<std::ptrdiff_t>(k * (nx + 1) + j0), j1 - j0 + 1, uint8_t{0});
    }
    for (size_t t = 0; t < mark.size(); ++t)
      if (fresh || mark[t]) m.mark_wall_vertices(*m.tiles_[t]);
  }

  /// The tiles to stitch again after the tiles `changed` (a mark per tile) were rebuilt: those
  /// and every neighbour whose side facing a rebuilt tile got segments of other extents. A
  /// neighbour facing only segments of the same extents (an edit that does not reach the tile
  /// border between them) keeps its stitched rings: only the rebuilt tile's polygon numbers
  /// across change, and they are renumbered in place (`old_sides`: per rebuilt tile, in the
  /// order of `rebuilt`, its side lists before the rebuild).
  std::vector<uint8_t> restitch_and_renumber(const std::vector<int>& rebuilt, const std::vector<uint8_t>& changed,
                                             const std::vector<std::array<std::vector<Navmesh::TileSeg>, 4>>& old_sides) {
    std::vector<uint8_t> out(changed);
    // (neighbour, rebuilt tile, the rebuilt tile's new local polygon per old one on that side)
    struct Renumber {
      int nb, t;
      std::vector<int> to;
    };
    std::vector<Renumber> renumber;
    for (size_t i = 0; i < rebuilt.size(); ++i) {
      const int t = rebuilt[i], tx = t % tiles_x, ty = t / tiles_x;
      for (int side = 0; side < 4; ++side) {
        const bool exists = side == 0 ? tx > 0 : side == 1 ? tx + 1 < tiles_x : side == 2 ? ty > 0 : ty + 1 < tiles_y;
        if (!exists) continue;
        const int nb = across_side(t, side);
        if (changed[static_cast<size_t>(nb)] || out[static_cast<size_t>(nb)]) continue;
        const std::vector<Navmesh::TileSeg>& was = old_sides[i][static_cast<size_t>(side)];
        const std::vector<Navmesh::TileSeg>& now = tile_c(t).sides[side];
        bool same = was.size() == now.size();
        for (size_t k = 0; same && k < now.size(); ++k) same = was[k].lo == now[k].lo && was[k].hi == now[k].hi;
        if (!same) {
          out[static_cast<size_t>(nb)] = 1;
          continue;
        }
        Renumber r{nb, t, {}};
        for (size_t k = 0; k < now.size(); ++k) {
          const size_t from = static_cast<size_t>(was[k].poly);
          if (r.to.size() <= from) r.to.resize(from + 1, -1);
          r.to[from] = now[k].poly;
        }
        renumber.push_back(std::move(r));
      }
    }
    for (const Renumber& r : renumber) {
      if (out[static_cast<size_t>(r.nb)]) continue;  // stitched again whole after all
      Navmesh::TilePolys& tp = tile(r.nb);
      for (size_t e = 0; e < tp.ring_tile.size(); ++e)
        if (tp.ring_tile[e] == r.t) tp.ring_poly[e] = r.to[static_cast<size_t>(tp.ring_poly[e])];
    }
    return out;
  }

  /// The tiles of `tiles` (a mark per tile) and their four neighbours, marked.
  std::vector<uint8_t> grown(const std::vector<uint8_t>& tiles) const {
    std::vector<uint8_t> out(tiles);
    for (int t = 0; t < tiles_x * tiles_y; ++t) {
      if (!tiles[static_cast<size_t>(t)]) continue;
      const int tx = t % tiles_x, ty = t / tiles_x;
      if (tx > 0) out[static_cast<size_t>(t - 1)] = 1;
      if (tx + 1 < tiles_x) out[static_cast<size_t>(t + 1)] = 1;
      if (ty > 0) out[static_cast<size_t>(t - tiles_x)] = 1;
      if (ty + 1 < tiles_y) out[static_cast<size_t>(t + tiles_x)] = 1;
    }
    return out;
  }
};

void Navmesh::assemble_tiles(const std::vector<int>& rebuilt, const Navmesh& old_layout) {
  TileStitcher st(*this);
  const bool rebuilt_all = rebuilt.size() == tiles_.size() && &old_layout == this && tile_edge_first_.empty();
  std::vector<uint8_t> changed(tiles_.size(), 0);
  // The rebuilt tiles' side lists before: build_tile keeps them until prepare() (after a
  // build they are empty, and every tile is rebuilt).
  std::vector<std::array<std::vector<TileSeg>, 4>> old_sides(rebuilt.size());
  for (size_t i = 0; i < rebuilt.size(); ++i) {
    const size_t t = static_cast<size_t>(rebuilt[i]);
    std::copy(std::begin(tiles_[t]->sides), std::end(tiles_[t]->sides), old_sides[i].begin());
    st.prepare(rebuilt[i]);
    changed[t] = 1;
  }
  // A tile's stitched rings depend on its own polygons and its neighbours' side edges; its
  // twins on its neighbours' stitched rings.
  const std::vector<uint8_t> restitch = st.restitch_and_renumber(rebuilt, changed, old_sides), relink = st.grown(restitch);
  for (size_t t = 0; t < tiles_.size(); ++t)
    if (restitch[t]) st.stitch(static_cast<int>(t));
  for (size_t t = 0; t < tiles_.size(); ++t)
    if (relink[t]) st.link(static_cast<int>(t), restitch);
  // The relinked tiles are the only ones whose rings, neighbours, twins or portal ids can have
  // changed (a tile's portal ids follow its own open edges, which only restitching changes;
  // its neighbours refer to them). When each fits its ranges, only they are laid out again.
  change_.restitched.clear();
  for (size_t t = 0; t < tiles_.size(); ++t)
    if (restitch[t]) change_.restitched.push_back(static_cast<int>(t));
  const bool fresh = tile_edge_first_.size() != tiles_.size() + 1;
  change_.kept_numbers = !fresh && fits_ranges(relink);
  if (change_.kept_numbers) {
    if (&old_layout != this) {  // updated(): the other mesh's arrays, then the relinked tiles
      polys_ = old_layout.polys_, portals_ = old_layout.portals_, poly_portals_ = old_layout.poly_portals_;
      ring_v_ = old_layout.ring_v_, ring_vid_ = old_layout.ring_vid_, ring_n_ = old_layout.ring_n_, ring_p_ = old_layout.ring_p_;
      vid_count_ = old_layout.vid_count_;
    }
    for (size_t t = 0; t < tiles_.size(); ++t)
      if (relink[t]) lay_out_tile(t);
  } else {
    // A build: no spare room, the arrays as compact as before. An update that outgrew a
    // range: spare room in every tile, so the edits after it renumber only their tiles.
    lay_out_all(!rebuilt_all);
  }
  st.wall_flags(restitch, old_layout);
}

void Navmesh::mark_wall_vertices(const TilePolys& tp) {
  for (const NavPolygon& P : tp.polys)
    for (int e = P.first; e < P.first + P.count; ++e) {
      if (tp.ring_tile[static_cast<size_t>(e)] >= 0) continue;
      const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
      vid_wall_[static_cast<size_t>(tp.ring_vid[static_cast<size_t>(e)])] = vid_wall_[static_cast<size_t>(tp.ring_vid[static_cast<size_t>(e1)])] = 1;
    }
}

namespace {

/// Spare room of a tile range holding n entries after a layout anew: a quarter more, and at
/// least 24, so that an edit that adds polygons to a tile (a wall drawn through it) still fits,
/// also in the tiles of a sparse map that hold a dozen polygons.
int with_spare(int n) { return n + std::max(n / 4, 24); }

}  // namespace

bool Navmesh::fits_ranges(const std::vector<uint8_t>& tiles) const {
  for (size_t t = 0; t < tiles_.size(); ++t) {
    if (!tiles[t]) continue;
    const TilePolys& tp = *tiles_[t];
    if (static_cast<int>(tp.polys.size()) > tile_poly_first_[t + 1] - tile_poly_first_[t] ||
        static_cast<int>(tp.ring_vid.size()) > tile_edge_first_[t + 1] - tile_edge_first_[t] ||
        tp.own_portals > tile_portal_first_[t + 1] - tile_portal_first_[t] ||
        tp.open_edges > tile_listed_first_[t + 1] - tile_listed_first_[t])
      return false;
  }
  return true;
}

void Navmesh::lay_out_all(bool spare) {
  const int nx = static_cast<int>(xs_.size()) - 1, ny = static_cast<int>(ys_.size()) - 1;
  const size_t n = tiles_.size();
  for (std::vector<int>* v : {&tile_poly_first_, &tile_edge_first_, &tile_portal_first_, &tile_listed_first_}) v->assign(n + 1, 0);
  auto room = [spare](size_t count) { return spare ? with_spare(static_cast<int>(count)) : static_cast<int>(count); };
  for (size_t t = 0; t < n; ++t) {
    const TilePolys& tp = *tiles_[t];
    tile_poly_first_[t + 1] = tile_poly_first_[t] + room(tp.polys.size());
    tile_edge_first_[t + 1] = tile_edge_first_[t] + room(tp.ring_vid.size());
    tile_portal_first_[t + 1] = tile_portal_first_[t] + room(static_cast<size_t>(tp.own_portals));
    tile_listed_first_[t + 1] = tile_listed_first_[t] + room(static_cast<size_t>(tp.open_edges));
  }
  const size_t ne = static_cast<size_t>(tile_edge_first_.back());
  polys_.resize(static_cast<size_t>(tile_poly_first_.back()));
  ring_vid_.resize(ne), ring_v_.resize(ne), ring_n_.resize(ne), ring_p_.resize(ne);
  portals_.resize(static_cast<size_t>(tile_portal_first_.back()));
  poly_portals_.resize(static_cast<size_t>(tile_listed_first_.back()));
  vid_count_ = (nx + 1) * (ny + 1);
  // (The wall flags are set by assemble_tiles: they do not depend on the numbering.)
  for (size_t t = 0; t < n; ++t) lay_out_tile(t);
  sub_poly_.clear(), rect_first_.clear(), rect_polys_.clear(), cell_first_.clear(), cell_polys_.clear();
}

void Navmesh::lay_out_tile(size_t t) {
  const TilePolys& tp = *tiles_[t];
  const int e0 = tile_edge_first_[t];
  int portal_at = tile_portal_first_[t], listed_at = tile_listed_first_[t];
  std::copy(tp.ring_vid.begin(), tp.ring_vid.end(), ring_vid_.begin() + e0);
  std::copy(tp.ring_v.begin(), tp.ring_v.end(), ring_v_.begin() + e0);
  // Raw pointers: through the vectors every store made the compiler load each vector's data
  // pointer again per edge.
  const int* const tile_first = tile_poly_first_.data();
  const int* const edge_start = tile_edge_first_.data();
  const int *const ring_tile = tp.ring_tile.data(), *const ring_poly = tp.ring_poly.data(), *const ring_twin = tp.ring_twin.data();
  const Vec2* const ring_v = ring_v_.data();
  int *const ring_n = ring_n_.data(), *const ring_p = ring_p_.data(), *const listed = poly_portals_.data();
  NavPortal* const portals = portals_.data();
  for (size_t p = 0; p < tp.polys.size(); ++p) {
    const int id = tile_first[t] + static_cast<int>(p);
    NavPolygon& P = polys_[static_cast<size_t>(id)];
    P = tp.polys[p];
    P.first += e0;
    P.first_portal = listed_at;
    for (int e = P.first; e < P.first + P.count; ++e) {
      const size_t le = static_cast<size_t>(e - e0);
      const int ta = ring_tile[le];
      ring_p[e] = -1;
      if (ta < 0) {  // a wall
        ring_n[e] = -1;
        continue;
      }
      const int n = tile_first[ta] + ring_poly[le];
      const int twin = ring_twin[le] < 0 ? -1 : edge_start[ta] + ring_twin[le];
      ring_n[e] = n;
      int pid = -1;  // one portal per neighbour pair, made by the lower-numbered polygon
      if (n > id) {
        pid = portal_at++;
        NavPortal& pt = portals[pid];
        const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
        pt.poly_a = id, pt.poly_b = n, pt.edge_a = e, pt.edge_b = twin;
        pt.a = ring_v[e], pt.b = ring_v[e1];
      } else if (twin >= 0) {
        // The twin's polygon comes first, so its tile is this one, one laid out before it or
        // one not laid out again (its portal ids did not change): its portal id is in place.
        pid = ring_p[twin];
      }
      ring_p[e] = pid;
      listed[listed_at++] = pid;
    }
    P.portal_count = listed_at - P.first_portal;
  }
  // The numbers the tile does not use: unused polygons (no ring, no portal), walls, -1.
  const int e_end = e0 + static_cast<int>(tp.ring_vid.size());
  for (int id = tile_first[t] + static_cast<int>(tp.polys.size()); id < tile_first[t + 1]; ++id) {
    NavPolygon& P = polys_[static_cast<size_t>(id)];
    P = NavPolygon{};
    P.first = e_end, P.first_portal = listed_at;
  }
  std::fill(ring_vid_.begin() + e_end, ring_vid_.begin() + edge_start[t + 1], 0);
  std::fill(ring_v_.begin() + e_end, ring_v_.begin() + edge_start[t + 1], Vec2(0.0, 0.0));
  std::fill(ring_n_.begin() + e_end, ring_n_.begin() + edge_start[t + 1], -1);
  std::fill(ring_p_.begin() + e_end, ring_p_.begin() + edge_start[t + 1], -1);
  std::fill(portals_.begin() + portal_at, portals_.begin() + tile_portal_first_[t + 1], NavPortal{});
  std::fill(poly_portals_.begin() + listed_at, poly_portals_.begin() + tile_listed_first_[t + 1], -1);
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
    if (P.unused()) continue;
    if (p.x < P.lo.x - 1e-9 || p.x > P.hi.x + 1e-9 || p.y < P.lo.y - 1e-9 || p.y > P.hi.y + 1e-9) continue;
    if (contains(id, p)) return id;
  }
  return -1;
}

}  // namespace pathlab
