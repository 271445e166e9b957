// Patching NavmeshQuery's portal edges after a tiled mesh's update() (issue 28), instead of
// rebuilding them whole. Polygons are numbered tile after tile, and a tile that was not
// rebuilt keeps its polygons in the same order; only the rings of the tiles beside a rebuilt
// one change (their border edges are cut anew where the polygons across changed), and the wall
// flags of vertices a rebuilt tile shares with a diagonal neighbour. So the polygons of the
// rebuilt tiles and of their eight neighbours get their edges filled from the mesh, and every
// other polygon's edges are copied, with the far polygon and the far edge moved to the new
// numbering.

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
  const Navmesh& mesh = *mesh_;
  const std::vector<int>& old_first = change.old_tile_polygon_first;
  const std::vector<int>& new_first = mesh.tile_polygon_first();
  const std::vector<uint8_t> refill = refill_tiles(change, mesh.tiles_x(), mesh.tiles_y());
  const size_t np = mesh.polygons().size(), tiles = refill.size();
  ring_edges_ = mesh.ring_vertices().size();
  // The new per-polygon ranges: a copied polygon keeps its edge count.
  std::vector<int> first(np + 1, 0);
  for (size_t t = 0; t < tiles; ++t)
    for (int p = new_first[t]; p < new_first[t + 1]; ++p) {
      int n = 0;
      if (refill[t]) {
        const NavPolygon& P = mesh.polygons()[static_cast<size_t>(p)];
        for (int e = P.first; e < P.first + P.count; ++e) n += mesh.ring_portals()[static_cast<size_t>(e)] >= 0 ? 1 : 0;
      } else {
        const size_t op = static_cast<size_t>(p - new_first[t] + old_first[t]);
        n = pedge_first_[op + 1] - pedge_first_[op];
      }
      first[static_cast<size_t>(p) + 1] = first[static_cast<size_t>(p)] + n;
    }
  const size_t total = static_cast<size_t>(first[np]);
  // Per tile, how far its first edge moved: a kept edge whose far polygon lies in a kept tile
  // moves its far edge by that tile's shift.
  std::vector<int> edge_shift(tiles, 0);
  for (size_t t = 0; t < tiles; ++t)
    edge_shift[t] = first[static_cast<size_t>(new_first[t])] - pedge_first_[static_cast<size_t>(old_first[t])];
  // Into the spare arrays of the last patch (no fresh megabytes per edit), then swapped in.
  pedges_spare_.resize(total);
  pedge_dir_spare_.resize(total);
  for (size_t t = 0; t < tiles; ++t) {
    if (!refill[t]) copy_tile_edges(t, old_first, new_first, refill, edge_shift, pedges_spare_, pedge_dir_spare_);
  }
  pedges_.swap(pedges_spare_);
  pedge_dir_.swap(pedge_dir_spare_);
  pedge_first_ = std::move(first);
  // Portal ids are renumbered by the whole mesh: the mesh lists each polygon's portals in ring
  // order, as pedges_ holds its edges, so the two line up when every neighbour edge has one.
  const auto& listed = mesh.polygon_portals();
  const bool aligned = listed.size() == total;
  pedge_portal_.resize(total);
  if (aligned) std::copy(listed.begin(), listed.end(), pedge_portal_.begin());
  for (size_t t = 0; t < tiles; ++t) {
    for (int p = new_first[t]; p < new_first[t + 1]; ++p) {
      const NavPolygon& P = mesh.polygons()[static_cast<size_t>(p)];
      if (refill[t]) {
        fill_polygon_edges(p);
      } else if (!aligned || P.first_portal != pedge_first_[static_cast<size_t>(p)]) {
        int at = pedge_first_[static_cast<size_t>(p)];
        for (int e = P.first; e < P.first + P.count; ++e)
          if (const int pid = mesh.ring_portals()[static_cast<size_t>(e)]; pid >= 0) pedge_portal_[static_cast<size_t>(at++)] = pid;
      }
    }
  }
  // Kept edges whose far polygon was refilled: their far edge by lookup.
  for (size_t t = 0; t < tiles; ++t) {
    if (refill[t]) continue;
    for (int i = pedge_first_[static_cast<size_t>(new_first[t])]; i < pedge_first_[static_cast<size_t>(new_first[t + 1])]; ++i) {
      PortalEdge& pe = pedges_[static_cast<size_t>(i)];
      if (pe.across < 0) pe.across = edge_of_portal(pe.poly, pedge_portal_[static_cast<size_t>(i)]);
    }
  }
}

void NavmeshSearchWorkspace::copy_tile_edges(size_t t, const std::vector<int>& old_first,
                                             const std::vector<int>& new_first, const std::vector<uint8_t>& refill,
                                             const std::vector<int>& edge_shift, std::vector<PortalEdge>& edges,
                                             std::vector<Vec2>& dirs) const {
  const size_t from = static_cast<size_t>(pedge_first_[static_cast<size_t>(old_first[t])]);
  const size_t count = static_cast<size_t>(pedge_first_[static_cast<size_t>(old_first[t + 1])]) - from;
  const size_t to = from + static_cast<size_t>(edge_shift[t]);
  std::copy_n(pedges_.begin() + static_cast<std::ptrdiff_t>(from), count, edges.begin() + static_cast<std::ptrdiff_t>(to));
  std::copy_n(pedge_dir_.begin() + static_cast<std::ptrdiff_t>(from), count, dirs.begin() + static_cast<std::ptrdiff_t>(to));
  const int old_lo = old_first[t], old_hi = old_first[t + 1], shift = new_first[t] - old_first[t];
  for (size_t i = to; i < to + count; ++i) {
    PortalEdge& pe = edges[i];
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
