// NavmeshQuery's per-mesh tables: portal edges per polygon, dead trees, components. After a
// tiled mesh's update() the portal edges are patched (navmesh_search_patch.cpp).

#include <algorithm>
#include <limits>
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
  build_dead_trees();
  build_components();
  if (patch) {
    patch_portal_edges(mesh.last_change());
  } else {
    build_portal_edges();
    dead_edges_.clear();  // their indices are of the old table
  }
  set_dead_ranges();
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
}

bool NavmeshSearchWorkspace::stale() const {
  const size_t np = mesh_->polygons().size();
  return revision_ != mesh_->revision() || nodes_.size() != 2 * mesh_->portals().size() + 1 ||
         tree_parent_.size() != np || ring_edges_ != mesh_->ring_vertices().size() || pedge_first_.size() != np + 1 ||
         pedge_end_.size() != np ||
         component_.size() != np || goal_mark_.size() != np ||
         root_g_.size() != static_cast<size_t>(mesh_->vertex_id_count());
}

void NavmeshSearchWorkspace::build_portal_edges() {
  const Navmesh& mesh = *mesh_;
  const size_t np = mesh.polygons().size();
  ring_edges_ = mesh.ring_vertices().size();
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
      int n = 0;
      for (int e = P.first; e < P.first + P.count; ++e) n += mesh.ring_portals()[static_cast<size_t>(e)] >= 0 ? 1 : 0;
      pedge_first_[poly] = poly == 0 ? 0 : pedge_end_[poly - 1];
      pedge_end_[poly] = pedge_first_[poly] + n;
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
    pe.across = edge_of_portal(pe.poly, pid);
    pe.u_corner = corner(e);
    pe.w_corner = corner(e1);
    pe.dead_lo = std::numeric_limits<int>::min();  // no dead tree (set_dead_ranges marks them)
    pe.dead_hi = std::numeric_limits<int>::max();
    pedges_[at] = pe;
    pedge_dir_[at] = pe.len > 0.0 ? (pe.w - pe.u) / pe.len : Vec2(1.0, 0.0);
    pedge_portal_[at] = pid;
    ++at;
  }
}

int NavmeshSearchWorkspace::edge_of_portal(int poly, int pid) const {
  const NavPolygon& P = mesh_->polygons()[static_cast<size_t>(poly)];
  int at = pedge_first_[static_cast<size_t>(poly)];
  for (int e = P.first; e < P.first + P.count; ++e) {
    const int q = mesh_->ring_portals()[static_cast<size_t>(e)];
    if (q == pid) return at;
    at += q >= 0 ? 1 : 0;
  }
  return -1;
}

void NavmeshSearchWorkspace::set_dead_ranges() {
  // Needs the dead trees (build_dead_trees). An edge is marked when the polygon across hangs
  // off its polygon as a dead tree: from each peeled polygon q to the edges of its parent that
  // lead to q, instead of a look-up per edge of the whole table (random reads of the trees for
  // every edge were the largest share of an edit's table time). The edges marked last time are
  // cleared first (a patched table keeps them; a refilled edge is clear already).
  constexpr int kLo = std::numeric_limits<int>::min(), kHi = std::numeric_limits<int>::max();
  for (const int i : dead_edges_) {
    PortalEdge& pe = pedges_[static_cast<size_t>(i)];
    if (pe.poly >= 0) pe.dead_lo = kLo, pe.dead_hi = kHi;  // (a gap entry stays as a fresh table has it)
  }
  dead_edges_.clear();
  const size_t np = tree_parent_.size();
  for (size_t q = 0; q < np; ++q) {
    const int p = tree_parent_[q];
    if (p < 0) continue;
    for (int i = pedge_first_[static_cast<size_t>(p)]; i < pedge_end_[static_cast<size_t>(p)]; ++i) {
      PortalEdge& pe = pedges_[static_cast<size_t>(i)];
      if (pe.poly != static_cast<int>(q)) continue;
      pe.dead_lo = tree_in_[q], pe.dead_hi = tree_out_[q];
      dead_edges_.push_back(i);
    }
  }
}

void NavmeshSearchWorkspace::build_dead_trees() {
  // Peel polygons with at most one remaining neighbour, like leaves off a tree: what comes off
  // are the trees of polygons that hang off the rest of the mesh by a single portal each (dead
  // ends, side rooms, corridors that lead nowhere). A shortest path that enters such a subtree
  // through its one portal must leave through the same portal, which the straight piece along
  // the portal beats, so the search enters one only when the goal is inside.
  const auto& polys = mesh_->polygons();
  const auto& portals = mesh_->portals();
  const auto& plist = mesh_->polygon_portals();
  const size_t np = polys.size();
  tree_parent_.assign(np, -1);
  std::vector<int> degree(np), queue;
  std::vector<uint8_t> peeled(np, 0);
  queue.reserve(np);
  for (size_t i = 0; i < np; ++i) {
    degree[i] = polys[i].portal_count;
    // An unused polygon number (tile slack) is no polygon: neither peeled nor numbered.
    if (degree[i] <= 1 && !polys[i].unused()) queue.push_back(static_cast<int>(i));
  }
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    const int p = queue[qi];
    peeled[static_cast<size_t>(p)] = 1;
    const NavPolygon& P = polys[static_cast<size_t>(p)];
    for (int k = P.first_portal; k < P.first_portal + P.portal_count; ++k) {
      const NavPortal& pt = portals[static_cast<size_t>(plist[static_cast<size_t>(k)])];
      const int o = pt.poly_a == p ? pt.poly_b : pt.poly_a;
      if (peeled[static_cast<size_t>(o)]) continue;
      tree_parent_[static_cast<size_t>(p)] = o;  // at most one: p's degree was <= 1
      if (--degree[static_cast<size_t>(o)] == 1) queue.push_back(o);
    }
  }
  number_dead_trees(peeled);
}

void NavmeshSearchWorkspace::number_dead_trees(const std::vector<uint8_t>& peeled) {
  // Pre-order numbers of the peeled forest: q's subtree is [tree_in_[q], tree_out_[q]).
  const size_t np = peeled.size();
  tree_in_.assign(np, -1);
  tree_out_.assign(np, -1);
  std::vector<int> child_first(np + 1, 0), children(np);
  for (size_t i = 0; i < np; ++i)
    if (peeled[i] && tree_parent_[i] >= 0) ++child_first[static_cast<size_t>(tree_parent_[i]) + 1];
  for (size_t i = 0; i < np; ++i) child_first[i + 1] += child_first[i];
  {
    std::vector<int> fill(child_first.begin(), child_first.end() - 1);
    for (size_t i = 0; i < np; ++i)
      if (peeled[i] && tree_parent_[i] >= 0) children[static_cast<size_t>(fill[static_cast<size_t>(tree_parent_[i])]++)] = static_cast<int>(i);
  }
  int tick = 0;
  std::vector<std::pair<int, int>> stack;  // (polygon, next child index)
  for (size_t top = 0; top < np; ++top) {
    // Tops: peeled polygons hanging off an unpeeled one, or the last of a component that is a tree.
    if (!peeled[top] || (tree_parent_[top] >= 0 && peeled[static_cast<size_t>(tree_parent_[top])])) continue;
    stack.emplace_back(static_cast<int>(top), child_first[top]);
    tree_in_[top] = tick++;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next < child_first[static_cast<size_t>(v) + 1]) {
        const int c = children[static_cast<size_t>(next++)];
        tree_in_[static_cast<size_t>(c)] = tick++;
        stack.emplace_back(c, child_first[static_cast<size_t>(c)]);
      } else {
        tree_out_[static_cast<size_t>(v)] = tick;
        stack.pop_back();
      }
    }
  }
}

void NavmeshSearchWorkspace::build_components() {
  // Connected components over the portals: a goal in another component is answered at once
  // instead of by a search that visits everything the start reaches (the exact search's
  // worst case: on a field of pillars it creates nodes superlinearly in the mesh's size).
  // Union-find over the portal list, read in order: a walk from polygon to polygon jumped
  // about the mesh's arrays and cost most of a tiled edit's table time.
  const size_t np = mesh_->polygons().size();
  std::vector<int>& parent = component_;  // the forest first, the component numbers after
  parent.resize(np);
  for (size_t i = 0; i < np; ++i) parent[i] = static_cast<int>(i);
  auto root = [&](int v) {
    while (parent[static_cast<size_t>(v)] != v) {
      const int up = parent[static_cast<size_t>(parent[static_cast<size_t>(v)])];
      parent[static_cast<size_t>(v)] = up;  // path halving
      v = up;
    }
    return v;
  };
  for (const NavPortal& pt : mesh_->portals()) {
    if (pt.unused()) continue;
    const int a = root(pt.poly_a), b = root(pt.poly_b);
    if (a != b) parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
  }
  // A parent is never larger than its child, so in polygon order each parent already points
  // at its root; roots are their component's smallest polygon, so numbering them in polygon
  // order gives the numbers a walk from the first polygon gave.
  for (size_t i = 0; i < np; ++i) parent[i] = parent[static_cast<size_t>(parent[i])];
  int next = 0;
  for (size_t i = 0; i < np; ++i)
    parent[i] = parent[i] == static_cast<int>(i) ? next++ : parent[static_cast<size_t>(parent[i])];
}

}  // namespace pathlab
