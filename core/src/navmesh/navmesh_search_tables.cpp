// NavmeshQuery's per-mesh tables: portal edges per polygon, dead trees, components. After a
// tiled mesh's update() the portal edges are patched (navmesh_search_patch.cpp).

#include <algorithm>
#include <vector>

#include "navmesh/navmesh_search_internal.hpp"

namespace pathlab {

void NavmeshSearchWorkspace::reset(const Navmesh& mesh) {
  const bool patch = can_patch(mesh);
  mesh_ = &mesh;
  revision_ = mesh.revision();
  size_buffers();
  heap_.clear();
  inodes_.clear();
  if (patch) {
    // Only the restitched tiles and their eight neighbours changed (none: the mesh's arrays
    // are as they were, and so are the tables): their portal edges are filled anew, and the
    // dead trees and components redone around them.
    const NavmeshChange& change = mesh.last_change();
    if (change.restitched.empty()) return;
    const std::vector<uint8_t> refill = detail::refill_tiles(change.restitched, mesh.tiles_x(), mesh.tiles_y());
    patch_portal_edges(change, refill);
    update_dead_trees(refill);
    update_components(refill);
  } else {
    build_portal_edges();
    build_dead_trees();
    build_components();
  }
}

void NavmeshSearchWorkspace::size_buffers() {
  // resize, not assign: a tiled update keeps the sizes about the same, and clearing megabytes
  // of stamps per edit cost more than the tables themselves. Kept entries hold stamps below
  // stamp_ (it only grows; on wrap-around begin_query() clears them all).
  const Navmesh& mesh = *mesh_;
  nodes_.resize(2 * mesh.portals().size() + 1);
  root_g_.resize(static_cast<size_t>(mesh.vertex_id_count()));
  root_stamp_.resize(static_cast<size_t>(mesh.vertex_id_count()));
  goal_mark_.resize(mesh.polygons().size());
  goal_side_.resize(mesh.polygons().size());
}

bool NavmeshSearchWorkspace::stale() const {
  const size_t np = mesh_->polygons().size();
  return revision_ != mesh_->revision() || nodes_.size() != 2 * mesh_->portals().size() + 1 ||
         tree_parent_.size() != np || peeled_.size() != np || ring_edges_ != mesh_->ring_vertices().size() || pedge_first_.size() != np + 1 ||
         pedge_end_.size() != np ||
         comp_local_.size() != np || goal_mark_.size() != np || goal_side_.size() != np ||
         root_g_.size() != static_cast<size_t>(mesh_->vertex_id_count());
}

void NavmeshSearchWorkspace::build_portal_edges() {
  const Navmesh& mesh = *mesh_;
  const size_t np = mesh.polygons().size();
  ring_edges_ = mesh.ring_vertices().size();
  ring_pedge_.assign(ring_edges_, -1);
  pedge_first_.assign(np + 1, 0);
  pedge_end_.assign(np, 0);
  pedge_live_ = 0;
  // A tiled mesh: each polygon's edges where its portal list is (they keep their place while
  // the mesh keeps its numbers: patch_portal_edges); else back to back.
  const bool tiled = !mesh.tile_polygon_first().empty();
  for (size_t poly = 0; poly < np; ++poly) {
    if (tiled) {
      set_edge_range(static_cast<int>(poly));
    } else {
      const NavPolygon& P = mesh.polygons()[poly];
      int n = poly == 0 ? 0 : pedge_end_[poly - 1];
      pedge_first_[poly] = n;
      for (int e = P.first; e < P.first + P.count; ++e)
        if (mesh.ring_portals()[static_cast<size_t>(e)] >= 0) ring_pedge_[static_cast<size_t>(e)] = n++;
      pedge_end_[poly] = n;
    }
    pedge_live_ += pedge_end_[poly] - pedge_first_[poly];
  }
  const size_t total = tiled ? mesh.polygon_portals().size() : static_cast<size_t>(np == 0 ? 0 : pedge_end_[np - 1]);
  pedge_first_[np] = static_cast<int>(total);
  pedges_.assign(total, PortalEdge{});
  pedge_dir_.assign(total, Vec2(0.0, 0.0));
  pedge_portal_.assign(total, -1);
  for (size_t poly = 0; poly < np; ++poly) fill_polygon_edges(static_cast<int>(poly));
}

void NavmeshSearchWorkspace::fill_polygon_edges(int poly) {
  const Navmesh& mesh = *mesh_;
  const auto& rv = mesh.ring_vertices();
  const auto& vids = mesh.ring_vertex_ids();
  auto corner = [&](int e) {
    const int v = vids[static_cast<size_t>(e)];
    return mesh.vertex_on_wall()[static_cast<size_t>(v)] != 0 ? v : -1;
  };
  const NavPolygon& P = mesh.polygons()[static_cast<size_t>(poly)];
  size_t at = static_cast<size_t>(pedge_first_[static_cast<size_t>(poly)]);
  for (int e = P.first; e < P.first + P.count; ++e) {
    const int pid = mesh.ring_portals()[static_cast<size_t>(e)];
    if (pid < 0) continue;
    const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
    const NavPortal& pt = mesh.portals()[static_cast<size_t>(pid)];
    PortalEdge pe;
    pe.u = rv[static_cast<size_t>(e)];
    pe.w = rv[static_cast<size_t>(e1)];
    pe.len = glm::length(pe.w - pe.u);
    pe.poly = pt.edge_a == e ? pt.poly_b : pt.poly_a;
    pe.across = ring_pedge_[static_cast<size_t>(pt.edge_a == e ? pt.edge_b : pt.edge_a)];
    pe.u_corner = corner(e);
    pe.w_corner = corner(e1);
    pe.dead = 0;  // set_dead_ranges() or update_dead_trees() marks the edges into dead trees
    pedges_[at] = pe;
    pedge_dir_[at] = pe.len > 0.0 ? (pe.w - pe.u) / pe.len : Vec2(1.0, 0.0);
    pedge_portal_[at] = pid;
    ++at;
  }
}

void NavmeshSearchWorkspace::set_dead_ranges() {
  // From each peeled polygon q to the edges of its parent that lead to q, instead of a look-up
  // per edge of the whole table (random reads of the trees for every edge were the largest
  // share of an edit's table time). The edges are fresh (unmarked).
  const size_t np = tree_parent_.size();
  for (size_t q = 0; q < np; ++q)
    if (tree_parent_[q] >= 0) mark_dead_edges(tree_parent_[q], static_cast<int>(q), 1);
}

void NavmeshSearchWorkspace::mark_dead_edges(int parent, int child, int dead) {
  for (int i = pedge_first_[static_cast<size_t>(parent)]; i < pedge_end_[static_cast<size_t>(parent)]; ++i) {
    PortalEdge& pe = pedges_[static_cast<size_t>(i)];
    if (pe.poly == child) pe.dead = dead;
  }
}

}  // namespace pathlab
