// Patching NavmeshQuery's portal edges after a tiled mesh's update() (issue 28), instead of
// rebuilding them whole. A tiled mesh's query keeps each polygon's portal edges where the mesh
// keeps its portal list (NavPolygon::first_portal), and an update() that keeps every tile's
// ranges of numbers (NavmeshChange::kept_numbers) changes only the polygons of the tiles it
// stitched again and, through the vertices' wall flags they share, of their eight
// neighbours: those polygons' edges are filled anew in place, and every other edge, its far
// polygon and its far edge stay as they were.

#include <algorithm>
#include <string>
#include <vector>

#include "navmesh/navmesh_search_internal.hpp"

namespace pathlab {
namespace detail {

std::vector<uint8_t> refill_tiles(const std::vector<int>& restitched, int tiles_x, int tiles_y) {
  std::vector<uint8_t> refill(static_cast<size_t>(tiles_x) * static_cast<size_t>(tiles_y), 0);
  for (const int t : restitched) {
    const int tx = t % tiles_x, ty = t / tiles_x;
    for (int y = std::max(ty - 1, 0); y <= std::min(ty + 1, tiles_y - 1); ++y)
      for (int x = std::max(tx - 1, 0); x <= std::min(tx + 1, tiles_x - 1); ++x)
        refill[static_cast<size_t>(y) * static_cast<size_t>(tiles_x) + static_cast<size_t>(x)] = 1;
  }
  return refill;
}

}  // namespace detail

bool NavmeshSearchWorkspace::can_patch(const Navmesh& mesh) const {
  const NavmeshChange& c = mesh.last_change();
  const size_t tiles = static_cast<size_t>(mesh.tiles_x()) * static_cast<size_t>(mesh.tiles_y());
  return mesh_ != nullptr && revision_ != 0 && c.before == revision_ && c.after == mesh.revision() && c.kept_numbers &&
         tiles > 0 && mesh.tile_polygon_first().size() == tiles + 1 &&
         mesh.tile_portal_list_first().size() == tiles + 1 && pedge_end_.size() == mesh.polygons().size() &&
         pedges_.size() == mesh.polygon_portals().size() && ring_pedge_.size() == mesh.ring_vertices().size() &&
         static_cast<size_t>(root_g_.size()) == static_cast<size_t>(mesh.vertex_id_count());
}

void NavmeshSearchWorkspace::patch_portal_edges(const NavmeshChange& change, const std::vector<uint8_t>& refill) {
  // No tile restitched: the mesh's arrays are as they were, and so are the edges.
  if (change.restitched.empty()) return;
  const Navmesh& mesh = *mesh_;
  const std::vector<int>& poly_first = mesh.tile_polygon_first();
  const std::vector<int>& list_first = mesh.tile_portal_list_first();
  // Every refilled polygon's range first (a filled edge looks its twin up in the polygon
  // across, which may be refilled too), its tile's unused entries cleared as a fresh table
  // has them, then the edges.
  for (size_t t = 0; t < refill.size(); ++t) {
    if (!refill[t]) continue;
    const auto lo = static_cast<std::ptrdiff_t>(list_first[t]), hi = static_cast<std::ptrdiff_t>(list_first[t + 1]);
    std::fill(pedges_.begin() + lo, pedges_.begin() + hi, PortalEdge{});
    std::fill(pedge_dir_.begin() + lo, pedge_dir_.begin() + hi, Vec2(0.0, 0.0));
    std::fill(pedge_portal_.begin() + lo, pedge_portal_.begin() + hi, -1);
    for (int p = poly_first[t]; p < poly_first[t + 1]; ++p) {
      pedge_live_ -= pedge_end_[static_cast<size_t>(p)] - pedge_first_[static_cast<size_t>(p)];
      set_edge_range(p);
      pedge_live_ += pedge_end_[static_cast<size_t>(p)] - pedge_first_[static_cast<size_t>(p)];
    }
  }
  for (size_t t = 0; t < refill.size(); ++t)
    if (refill[t])
      for (int p = poly_first[t]; p < poly_first[t + 1]; ++p) fill_polygon_edges(p);
}

void NavmeshSearchWorkspace::set_edge_range(int poly) {
  const NavPolygon& P = mesh_->polygons()[static_cast<size_t>(poly)];
  int n = P.first_portal;
  for (int e = P.first; e < P.first + P.count; ++e)
    if (mesh_->ring_portals()[static_cast<size_t>(e)] >= 0) ring_pedge_[static_cast<size_t>(e)] = n++;
  pedge_first_[static_cast<size_t>(poly)] = P.first_portal;
  pedge_end_[static_cast<size_t>(poly)] = n;
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
           a.u_corner == b.u_corner && a.w_corner == b.w_corner && a.dead == b.dead;
  };
  // The components by polygon (their per-tile bookkeeping may differ in how it got there).
  std::vector<int> comp(comp_local_.size()), o_comp(o.comp_local_.size());
  for (size_t p = 0; p < comp.size(); ++p) comp[p] = component_of(static_cast<int>(p));
  for (size_t p = 0; p < o_comp.size(); ++p) o_comp[p] = o.component_of(static_cast<int>(p));
  for (const std::string& d :
       {first_difference("pedge_first", pedge_first_, o.pedge_first_, eq), first_difference("pedges", pedges_, o.pedges_, same_edge),
        first_difference("pedge_end", pedge_end_, o.pedge_end_, eq), first_difference("pedge_dir", pedge_dir_, o.pedge_dir_, eq), first_difference("pedge_portal", pedge_portal_, o.pedge_portal_, eq),
        first_difference("tree_parent", tree_parent_, o.tree_parent_, eq), first_difference("peeled", peeled_, o.peeled_, eq),
        first_difference("component", comp, o_comp, eq)})
    if (!d.empty()) return d;
  if (pedge_live_ != o.pedge_live_) return "portal edge count";
  return ring_edges_ == o.ring_edges_ ? std::string() : std::string("ring edge count");
}

std::string NavmeshQuery::table_difference(const NavmeshQuery& other) const { return ws_->table_difference(*other.ws_); }

}  // namespace pathlab
