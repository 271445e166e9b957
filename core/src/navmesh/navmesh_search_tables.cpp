// NavmeshQuery's per-mesh tables: portal edges per polygon, dead trees, components.

#include <algorithm>
#include <limits>
#include <vector>

#include "navmesh/navmesh_search_internal.hpp"

namespace pathlab {

void NavmeshSearchWorkspace::reset(const Navmesh& mesh) {
  mesh_ = &mesh;
  nodes_.assign(2 * mesh.portals().size() + 1, Node{});
  heap_.clear();
  inodes_.clear();
  root_g_.assign(static_cast<size_t>(mesh.vertex_id_count()), 0.0);
  root_stamp_.assign(static_cast<size_t>(mesh.vertex_id_count()), 0);
  goal_mark_.assign(mesh.polygons().size(), 0);
  stamp_ = 0;
  build_dead_trees();
  build_components();
  build_portal_edges();
}

bool NavmeshSearchWorkspace::stale() const {
  const size_t np = mesh_->polygons().size();
  return nodes_.size() != 2 * mesh_->portals().size() + 1 || tree_parent_.size() != np ||
         ring_edges_ != mesh_->ring_vertices().size() || pedge_first_.size() != np + 1 || component_.size() != np ||
         goal_mark_.size() != np || root_g_.size() != static_cast<size_t>(mesh_->vertex_id_count());
}

void NavmeshSearchWorkspace::build_portal_edges() {
  // Needs the dead trees (build_dead_trees) for each edge's dead range.
  const Navmesh& mesh = *mesh_;
  const auto& rv = mesh.ring_vertices();
  const auto& vids = mesh.ring_vertex_ids();
  ring_edges_ = rv.size();
  pedges_.clear();
  pedge_first_.clear();
  pedge_dir_.clear();
  pedge_portal_.clear();
  pedge_first_.reserve(mesh.polygons().size() + 1);
  std::vector<int> ring_edge;  // per portal edge: its ring edge, for `across` below
  auto corner = [&](int e) {
    const int v = vids[static_cast<size_t>(e)];
    return mesh.vertex_on_wall()[static_cast<size_t>(v)] != 0 ? v : -1;
  };
  for (size_t poly = 0; poly < mesh.polygons().size(); ++poly) {
    const NavPolygon& P = mesh.polygons()[poly];
    pedge_first_.push_back(static_cast<int>(pedges_.size()));
    for (int e = P.first; e < P.first + P.count; ++e) {
      const int pid = mesh.ring_portals()[static_cast<size_t>(e)];
      if (pid < 0) continue;
      const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
      const NavPortal& pt = mesh.portals()[static_cast<size_t>(pid)];
      const bool from_a = pt.edge_a == e;
      PortalEdge pe;
      pe.u = rv[static_cast<size_t>(e)];
      pe.w = rv[static_cast<size_t>(e1)];
      pe.len = glm::length(pe.w - pe.u);
      pe.across = from_a ? pt.edge_b : pt.edge_a;  // a ring edge for now, made an index below
      pe.poly = from_a ? pt.poly_b : pt.poly_a;
      pe.u_corner = corner(e);
      pe.w_corner = corner(e1);
      const size_t q = static_cast<size_t>(pe.poly);
      const bool dead = tree_parent_[q] == static_cast<int>(poly);  // a dead tree hangs off poly here
      pe.dead_lo = dead ? tree_in_[q] : std::numeric_limits<int>::min();
      pe.dead_hi = dead ? tree_out_[q] : std::numeric_limits<int>::max();
      pedges_.push_back(pe);
      pedge_dir_.push_back(pe.len > 0.0 ? (pe.w - pe.u) / pe.len : Vec2(1.0, 0.0));
      pedge_portal_.push_back(pid);
      ring_edge.push_back(e);
    }
  }
  pedge_first_.push_back(static_cast<int>(pedges_.size()));
  std::vector<int> of_ring_edge(rv.size(), -1);
  for (size_t i = 0; i < pedges_.size(); ++i) of_ring_edge[static_cast<size_t>(ring_edge[i])] = static_cast<int>(i);
  for (PortalEdge& pe : pedges_) pe.across = of_ring_edge[static_cast<size_t>(pe.across)];
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
    if (degree[i] <= 1) queue.push_back(static_cast<int>(i));
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
  const auto& polys = mesh_->polygons();
  const auto& portals = mesh_->portals();
  const auto& plist = mesh_->polygon_portals();
  component_.assign(polys.size(), -1);
  std::vector<int> stack;
  int next = 0;
  for (size_t first = 0; first < polys.size(); ++first) {
    if (component_[first] >= 0) continue;
    component_[first] = next;
    stack.push_back(static_cast<int>(first));
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      const NavPolygon& P = polys[static_cast<size_t>(p)];
      for (int k = P.first_portal; k < P.first_portal + P.portal_count; ++k) {
        const NavPortal& pt = portals[static_cast<size_t>(plist[static_cast<size_t>(k)])];
        const int o = pt.poly_a == p ? pt.poly_b : pt.poly_a;
        if (component_[static_cast<size_t>(o)] >= 0) continue;
        component_[static_cast<size_t>(o)] = next;
        stack.push_back(o);
      }
    }
    ++next;
  }
}

}  // namespace pathlab
