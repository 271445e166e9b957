// Patching NavmeshQuery's portal edges after a tiled mesh's update() (issue 28), instead of
// rebuilding them whole. Polygons are numbered tile after tile, and a tile that was not
// rebuilt keeps its polygons in the same order; only the rings of the tiles beside a rebuilt
// one change (their border edges are cut anew where the polygons across changed), and the wall
// flags of vertices a rebuilt tile shares with a diagonal neighbour. So the polygons of the
// rebuilt tiles and of their eight neighbours get their edges filled from the mesh, and the
// other polygons' edges are kept: in place before the first tile that changed (and its row
// above), slid as one block with one polygon and one edge shift after the last (and its row
// below), copied with their far polygon and far edge moved to the new numbering in between.

#include <algorithm>
#include <string>
#include <vector>

#include "navmesh/navmesh_search_internal.hpp"

namespace pathlab {
namespace {

/// Per tile (row-major): 1 when its polygons' edges must be filled anew: a rebuilt tile or
/// one of its eight neighbours.
std::vector<uint8_t> refill_tiles(const NavmeshChange& change, int tiles_x, int tiles_y) {
  std::vector<uint8_t> refill(static_cast<size_t>(tiles_x) * static_cast<size_t>(tiles_y), 0);
  for (const int t : change.tiles) {
    const int tx = t % tiles_x, ty = t / tiles_x;
    for (int y = std::max(ty - 1, 0); y <= std::min(ty + 1, tiles_y - 1); ++y)
      for (int x = std::max(tx - 1, 0); x <= std::min(tx + 1, tiles_x - 1); ++x)
        refill[static_cast<size_t>(y) * static_cast<size_t>(tiles_x) + static_cast<size_t>(x)] = 1;
  }
  return refill;
}

/// The tile holding polygon `poly` by `first` (per tile its first polygon, then the count).
int tile_of_polygon(const std::vector<int>& first, int poly) {
  return static_cast<int>(std::upper_bound(first.begin(), first.end(), poly) - first.begin()) - 1;
}

/// Edges [begin, end) after a slide: their far polygon moved by poly_shift places and their
/// far edge by edge_shift (the tiles after the last refilled one all moved alike).
template <class Edges>
void shift_far_ends(Edges& edges, size_t begin, size_t end, int edge_shift, int poly_shift) {
  if (edge_shift == 0 && poly_shift == 0) return;
  for (size_t i = begin; i < end; ++i) {
    edges[i].poly += poly_shift;
    edges[i].across += edge_shift;
  }
}

}  // namespace

bool NavmeshSearchWorkspace::can_patch(const Navmesh& mesh) const {
  const NavmeshChange& c = mesh.last_change();
  const size_t tiles = static_cast<size_t>(mesh.tiles_x()) * static_cast<size_t>(mesh.tiles_y());
  return mesh_ != nullptr && revision_ != 0 && c.before == revision_ && c.after == mesh.revision() && tiles > 0 &&
         c.old_tile_polygon_first.size() == tiles + 1 && mesh.tile_polygon_first().size() == tiles + 1 &&
         pedge_first_.size() == static_cast<size_t>(c.old_tile_polygon_first.back()) + 1 &&
         static_cast<size_t>(root_g_.size()) == static_cast<size_t>(mesh.vertex_id_count());
}

void NavmeshSearchWorkspace::patch_portal_edges(const NavmeshChange& change) {
  // No tile rebuilt: the mesh's arrays are as they were, and so are the edges.
  if (change.tiles.empty()) return;
  const Navmesh& mesh = *mesh_;
  const std::vector<int>& old_first = change.old_tile_polygon_first;
  const std::vector<int>& new_first = mesh.tile_polygon_first();
  const int tiles_x = mesh.tiles_x();
  const std::vector<uint8_t> refill = refill_tiles(change, tiles_x, mesh.tiles_y());
  const size_t tiles = refill.size();
  ring_edges_ = mesh.ring_vertices().size();
  // Tiles before p0 keep their edges where they are: neither they nor their neighbours were
  // refilled or moved. Tiles from q1 on all moved by the same polygon and edge counts, and so
  // did their neighbours: their edges slide as one block. Only the tiles between are redone.
  size_t lo = tiles, hi = 0;
  for (size_t t = 0; t < tiles; ++t)
    if (refill[t]) lo = std::min(lo, t), hi = t;
  if (lo == tiles) lo = 0, hi = tiles - 1;
  const size_t tx = static_cast<size_t>(tiles_x);
  const size_t p0 = lo >= tx ? lo - tx : 0, q1 = std::min(tiles, hi + tx + 1);
  std::vector<int> first = patched_edge_ranges(old_first, new_first, refill, p0, q1);
  std::vector<int> edge_shift(tiles + 1, 0);
  for (size_t t = 0; t <= tiles; ++t)
    edge_shift[t] = first[static_cast<size_t>(new_first[t])] - pedge_first_[static_cast<size_t>(old_first[t])];
  const size_t a0 = static_cast<size_t>(pedge_first_[static_cast<size_t>(old_first[p0])]);
  const size_t a1 = static_cast<size_t>(pedge_first_[static_cast<size_t>(old_first[q1])]);
  // The middle's old edges aside (into the spare buffers, kept between edits), then the block
  // after it slid to its new place, then the middle written. When the middle is most of the
  // mesh (an edit that reaches every tile row: a cut across the map), setting it aside would
  // copy it twice: then the old arrays become the spare ones whole and only the kept prefix
  // and the slid block are copied back.
  const bool whole = a0 < a1 - a0;
  if (whole) {
    pedges_spare_.swap(pedges_);
    pedge_dir_spare_.swap(pedge_dir_);
    pedges_.resize(static_cast<size_t>(first.back()));
    pedge_dir_.resize(static_cast<size_t>(first.back()));
    std::copy_n(pedges_spare_.begin(), a0, pedges_.begin());
    std::copy_n(pedge_dir_spare_.begin(), a0, pedge_dir_.begin());
    slide_spare_edges(a1, edge_shift[q1], new_first[q1] - old_first[q1]);
  } else {
    pedges_spare_.assign(pedges_.begin() + static_cast<std::ptrdiff_t>(a0), pedges_.begin() + static_cast<std::ptrdiff_t>(a1));
    pedge_dir_spare_.assign(pedge_dir_.begin() + static_cast<std::ptrdiff_t>(a0), pedge_dir_.begin() + static_cast<std::ptrdiff_t>(a1));
    slide_edges(a1, edge_shift[q1], new_first[q1] - old_first[q1]);
  }
  // From here on the new ranges; copy_tile_edges reads the old ones.
  std::vector<int> old_ranges = std::move(pedge_first_);
  pedge_first_ = std::move(first);
  finish_patch(PatchSpan{p0, q1, whole ? 0 : a0}, old_first, old_ranges, refill, edge_shift);
}

void NavmeshSearchWorkspace::finish_patch(const PatchSpan& span, const std::vector<int>& old_first,
                                          const std::vector<int>& old_ranges, const std::vector<uint8_t>& refill,
                                          const std::vector<int>& edge_shift) {
  const Navmesh& mesh = *mesh_;
  const std::vector<int>& new_first = mesh.tile_polygon_first();
  const size_t tiles = refill.size();
  const size_t total = pedges_.size();
  // Portal ids are renumbered by the whole mesh: the mesh lists each polygon's portals in ring
  // order, as pedges_ holds its edges, so the two line up when every neighbour edge has one.
  // Then they are equal polygon for polygon (a polygon's list is never shorter than its edges,
  // and the totals agree), and the copy is all.
  const auto& listed = mesh.polygon_portals();
  const bool aligned = listed.size() == total;
  pedge_portal_.resize(total);
  if (aligned) std::copy(listed.begin(), listed.end(), pedge_portal_.begin());
  auto list_portals = [&](int p) {
    const NavPolygon& P = mesh.polygons()[static_cast<size_t>(p)];
    int at = pedge_first_[static_cast<size_t>(p)];
    for (int e = P.first; e < P.first + P.count; ++e)
      if (const int pid = mesh.ring_portals()[static_cast<size_t>(e)]; pid >= 0) pedge_portal_[static_cast<size_t>(at++)] = pid;
  };
  // Each tile of the middle is finished while its edges are in cache: copied or filled, the
  // far edges of kept ones across a refilled polygon looked up, and the dead ranges set (a
  // separate pass over the whole table cost as much as the copy).
  for (size_t t = span.p0; t < span.q1; ++t) {
    if (refill[t]) {
      for (int p = new_first[t]; p < new_first[t + 1]; ++p) fill_polygon_edges(p);
    } else {
      copy_tile_edges(t, span.spare_base, old_first, new_first, old_ranges, refill, edge_shift);
      if (!aligned)
        for (int p = new_first[t]; p < new_first[t + 1]; ++p) list_portals(p);
      for (int i = pedge_first_[static_cast<size_t>(new_first[t])]; i < pedge_first_[static_cast<size_t>(new_first[t + 1])]; ++i) {
        PortalEdge& pe = pedges_[static_cast<size_t>(i)];
        if (pe.across < 0) pe.across = edge_of_portal(pe.poly, pedge_portal_[static_cast<size_t>(i)]);
      }
    }
    set_dead_ranges(new_first[t], new_first[t + 1]);
  }
  // The kept prefix and the slid block: no polygon of theirs was refilled.
  for (const auto& [from, to] : {std::pair<size_t, size_t>{0, span.p0}, std::pair<size_t, size_t>{span.q1, tiles}}) {
    if (from >= to) continue;
    if (!aligned)
      for (int p = new_first[from]; p < new_first[to]; ++p) list_portals(p);
    set_dead_ranges(new_first[from], new_first[to]);
  }
}

std::vector<int> NavmeshSearchWorkspace::patched_edge_ranges(const std::vector<int>& old_first,
                                                             const std::vector<int>& new_first,
                                                             const std::vector<uint8_t>& refill, size_t p0,
                                                             size_t q1) const {
  const Navmesh& mesh = *mesh_;
  const size_t np = mesh.polygons().size();
  std::vector<int> first(np + 1, 0);
  // Before the middle: the same ranges.
  std::copy_n(pedge_first_.begin(), static_cast<size_t>(new_first[p0]) + 1, first.begin());
  for (size_t t = p0; t < q1; ++t)
    for (int p = new_first[t]; p < new_first[t + 1]; ++p) {
      int n = 0;
      if (refill[t]) {
        const NavPolygon& P = mesh.polygons()[static_cast<size_t>(p)];
        for (int e = P.first; e < P.first + P.count; ++e) n += mesh.ring_portals()[static_cast<size_t>(e)] >= 0 ? 1 : 0;
      } else {  // a copied polygon keeps its edge count
        const size_t op = static_cast<size_t>(p - new_first[t] + old_first[t]);
        n = pedge_first_[op + 1] - pedge_first_[op];
      }
      first[static_cast<size_t>(p) + 1] = first[static_cast<size_t>(p)] + n;
    }
  // After it: the old ranges moved by one polygon count and one edge count.
  const int dp = new_first[q1] - old_first[q1];
  const int de = first[static_cast<size_t>(new_first[q1])] - pedge_first_[static_cast<size_t>(old_first[q1])];
  for (size_t p = static_cast<size_t>(new_first[q1]) + 1; p <= np; ++p)
    first[p] = pedge_first_[static_cast<size_t>(static_cast<int>(p) - dp)] + de;
  return first;
}

void NavmeshSearchWorkspace::slide_edges(size_t from, int edge_shift, int poly_shift) {
  // The edges [from, end) move by edge_shift places. Their far polygons lie in tiles after the
  // last refilled one, all of which moved by the same polygon and edge counts.
  const size_t old_total = pedges_.size();
  const size_t total = static_cast<size_t>(static_cast<std::ptrdiff_t>(old_total) + edge_shift);
  const size_t to = static_cast<size_t>(static_cast<std::ptrdiff_t>(from) + edge_shift);
  if (edge_shift > 0) {
    pedges_.resize(total);
    pedge_dir_.resize(total);
    std::copy_backward(pedges_.begin() + static_cast<std::ptrdiff_t>(from), pedges_.begin() + static_cast<std::ptrdiff_t>(old_total), pedges_.end());
    std::copy_backward(pedge_dir_.begin() + static_cast<std::ptrdiff_t>(from), pedge_dir_.begin() + static_cast<std::ptrdiff_t>(old_total), pedge_dir_.end());
  } else if (edge_shift < 0) {
    std::copy(pedges_.begin() + static_cast<std::ptrdiff_t>(from), pedges_.end(), pedges_.begin() + static_cast<std::ptrdiff_t>(to));
    std::copy(pedge_dir_.begin() + static_cast<std::ptrdiff_t>(from), pedge_dir_.end(), pedge_dir_.begin() + static_cast<std::ptrdiff_t>(to));
    pedges_.resize(total);
    pedge_dir_.resize(total);
  }
  shift_far_ends(pedges_, to, total, edge_shift, poly_shift);
}

void NavmeshSearchWorkspace::slide_spare_edges(size_t from, int edge_shift, int poly_shift) {
  // The old edges [from, end) are in the spare buffers (patch_portal_edges swapped them there);
  // the new arrays are sized already.
  const size_t count = pedges_spare_.size() - from;
  const size_t to = static_cast<size_t>(static_cast<std::ptrdiff_t>(from) + edge_shift);
  std::copy_n(pedges_spare_.begin() + static_cast<std::ptrdiff_t>(from), count, pedges_.begin() + static_cast<std::ptrdiff_t>(to));
  std::copy_n(pedge_dir_spare_.begin() + static_cast<std::ptrdiff_t>(from), count, pedge_dir_.begin() + static_cast<std::ptrdiff_t>(to));
  shift_far_ends(pedges_, to, to + count, edge_shift, poly_shift);
}

void NavmeshSearchWorkspace::copy_tile_edges(size_t t, size_t spare_base, const std::vector<int>& old_first,
                                             const std::vector<int>& new_first, const std::vector<int>& old_ranges,
                                             const std::vector<uint8_t>& refill, const std::vector<int>& edge_shift) {
  const size_t from = static_cast<size_t>(old_ranges[static_cast<size_t>(old_first[t])]);
  const size_t count = static_cast<size_t>(old_ranges[static_cast<size_t>(old_first[t + 1])]) - from;
  const size_t to = from + static_cast<size_t>(edge_shift[t]);
  std::copy_n(pedges_spare_.begin() + static_cast<std::ptrdiff_t>(from - spare_base), count, pedges_.begin() + static_cast<std::ptrdiff_t>(to));
  std::copy_n(pedge_dir_spare_.begin() + static_cast<std::ptrdiff_t>(from - spare_base), count, pedge_dir_.begin() + static_cast<std::ptrdiff_t>(to));
  const int old_lo = old_first[t], old_hi = old_first[t + 1], shift = new_first[t] - old_first[t];
  for (size_t i = to; i < to + count; ++i) {
    PortalEdge& pe = pedges_[i];
    // The far polygon's tile was not rebuilt (else this one would be refilled): its polygons
    // kept their order.
    const size_t ft = pe.poly >= old_lo && pe.poly < old_hi ? t : static_cast<size_t>(tile_of_polygon(old_first, pe.poly));
    pe.poly += ft == t ? shift : new_first[ft] - old_first[ft];
    pe.across = refill[ft] ? -1 : pe.across + edge_shift[ft];  // -1: looked up afterwards
  }
}

}  // namespace pathlab

namespace pathlab {
namespace {

/// "" when a == b, else "<what>[i]" for the first index that differs (or the sizes).
template <class T, class Same>
std::string first_difference(const char* what, const std::vector<T>& a, const std::vector<T>& b, Same same) {
  if (a.size() != b.size()) return std::string(what) + ": " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " entries";
  for (size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return std::string(what) + "[" + std::to_string(i) + "]";
  return {};
}

}  // namespace

std::string NavmeshSearchWorkspace::table_difference(const NavmeshSearchWorkspace& o) const {
  const auto eq = [](const auto& a, const auto& b) { return a == b; };
  const auto same_edge = [](const PortalEdge& a, const PortalEdge& b) {
    return a.u == b.u && a.w == b.w && a.len == b.len && a.across == b.across && a.poly == b.poly &&
           a.u_corner == b.u_corner && a.w_corner == b.w_corner && a.dead_lo == b.dead_lo && a.dead_hi == b.dead_hi;
  };
  for (const std::string& d :
       {first_difference("pedge_first", pedge_first_, o.pedge_first_, eq), first_difference("pedges", pedges_, o.pedges_, same_edge),
        first_difference("pedge_dir", pedge_dir_, o.pedge_dir_, eq), first_difference("pedge_portal", pedge_portal_, o.pedge_portal_, eq),
        first_difference("tree_parent", tree_parent_, o.tree_parent_, eq), first_difference("tree_in", tree_in_, o.tree_in_, eq),
        first_difference("tree_out", tree_out_, o.tree_out_, eq), first_difference("component", component_, o.component_, eq)})
    if (!d.empty()) return d;
  return ring_edges_ == o.ring_edges_ ? std::string() : std::string("ring edge count");
}

std::string NavmeshQuery::table_difference(const NavmeshQuery& other) const { return ws_->table_difference(*other.ws_); }

}  // namespace pathlab
