// NavmeshQuery's dead trees and connected components, built whole for a new mesh and redone
// only around the edit after a tiled mesh's update() (issue 28): a cut across the map used to
// peel and number the whole mesh's forest and join every portal again, though only the tiles
// the patch refilled had changed.
//
// Dead trees: polygons peeled like leaves (at most one unpeeled neighbour left) until none is
// left; tree_parent_ is the neighbour each was peeled towards. After an update the peel is run
// again from the refilled polygons and the dead trees touching them; every other dead tree
// still hangs off the mesh by the same single portal, so it stays as it was. A component that
// is wholly a tree (its last polygon has no parent, which depends on the order of peeling) is
// peeled again alone, in polygon order, as the whole-mesh peel orders it.
//
// Components: per tile, its polygons' components over the portals inside the tile; then those
// (a few per tile) joined over the portals between tiles. A component is named by its smallest
// polygon, which does not depend on how it was found. After an update only the refilled tiles
// are redone, and the join (hundreds of pieces) runs again.

#include <algorithm>
#include <numeric>
#include <vector>

#include "navmesh/navmesh_search_internal.hpp"

namespace pathlab {
namespace {

/// Union-find root with path halving; parents are never larger than their children.
int uf_root(std::vector<int>& parent, int v) {
  while (parent[static_cast<size_t>(v)] != v) {
    const int up = parent[static_cast<size_t>(parent[static_cast<size_t>(v)])];
    parent[static_cast<size_t>(v)] = up;
    v = up;
  }
  return v;
}

void uf_join(std::vector<int>& parent, int a, int b) {
  a = uf_root(parent, a);
  b = uf_root(parent, b);
  if (a != b) parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
}

}  // namespace

// --- Dead trees ---

void NavmeshSearchWorkspace::build_dead_trees() {
  // Peel polygons with at most one remaining neighbour, like leaves off a tree: what comes off
  // are the trees of polygons that hang off the rest of the mesh by a single portal each (dead
  // ends, side rooms, corridors that lead nowhere). A shortest path that enters such a subtree
  // through its one portal must leave through the same portal, which the straight piece along
  // the portal beats, so the search enters one only when the goal is inside.
  const auto& polys = mesh_->polygons();
  const size_t np = polys.size();
  tree_parent_.assign(np, -1);
  peeled_.assign(np, 0);
  peel_mark_.assign(np, 1);
  peel_stamp_ = 1;
  peel_degree_.resize(np);
  std::vector<int> queue;
  queue.reserve(np);
  for (size_t i = 0; i < np; ++i) {
    peel_degree_[i] = pedge_end_[i] - pedge_first_[i];
    // An unused polygon number (tile slack) is no polygon: not peeled.
    if (peel_degree_[i] <= 1 && !polys[i].unused()) queue.push_back(static_cast<int>(i));
  }
  peel(queue);
  set_dead_ranges();
}

int NavmeshSearchWorkspace::neighbour_count(int p) {
  // The neighbours that take part in the peel: all but the dead trees kept as they were.
  int n = 0;
  for (int i = pedge_first_[static_cast<size_t>(p)]; i < pedge_end_[static_cast<size_t>(p)]; ++i) {
    const size_t o = static_cast<size_t>(pedges_[static_cast<size_t>(i)].poly);
    n += peeled_[o] && peel_mark_[o] != peel_stamp_ ? 0 : 1;
  }
  return n;
}

void NavmeshSearchWorkspace::peel(std::vector<int>& queue) {
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    const int p = queue[qi];
    peeled_[static_cast<size_t>(p)] = 1;
    for (int i = pedge_first_[static_cast<size_t>(p)]; i < pedge_end_[static_cast<size_t>(p)]; ++i) {
      const int o = pedges_[static_cast<size_t>(i)].poly;
      const size_t os = static_cast<size_t>(o);
      if (peeled_[os]) continue;
      tree_parent_[static_cast<size_t>(p)] = o;  // at most one: p had at most one neighbour left
      if (peel_mark_[os] != peel_stamp_) {  // first reached in this peel: count its neighbours
        peel_mark_[os] = peel_stamp_;
        peel_degree_[os] = neighbour_count(o);
      }
      if (--peel_degree_[os] == 1) queue.push_back(o);
    }
  }
}

void NavmeshSearchWorkspace::update_dead_trees(const std::vector<uint8_t>& refill) {
  const auto& polys = mesh_->polygons();
  const std::vector<int>& first = mesh_->tile_polygon_first();
  if (peel_stamp_ >= 0xFFFFFFF0u) {  // about to wrap (repeel_tree_components uses stamp + 1)
    std::fill(peel_mark_.begin(), peel_mark_.end(), 0u);
    peel_stamp_ = 0;
  }
  ++peel_stamp_;
  // The polygons peeled again: the refilled ones (only their portals changed), and every dead
  // tree that touches them, found through polygons peeled before (the others' portals are as
  // they were, so the walk reads the same neighbours the last peel saw).
  std::vector<int> redo, queue;
  auto take = [&](int p) {
    peel_mark_[static_cast<size_t>(p)] = peel_stamp_;
    redo.push_back(p);
  };
  for (size_t t = 0; t < refill.size(); ++t)
    if (refill[t])
      for (int p = first[t]; p < first[t + 1]; ++p) take(p);
  for (size_t k = 0; k < redo.size(); ++k) {
    const int p = redo[k];
    for (int i = pedge_first_[static_cast<size_t>(p)]; i < pedge_end_[static_cast<size_t>(p)]; ++i) {
      const int o = pedges_[static_cast<size_t>(i)].poly;
      if (peeled_[static_cast<size_t>(o)] && peel_mark_[static_cast<size_t>(o)] != peel_stamp_) take(o);
    }
  }
  reparented_.clear();
  for (const int q : redo) {
    reparented_.emplace_back(q, tree_parent_[static_cast<size_t>(q)]);
    tree_parent_[static_cast<size_t>(q)] = -1;
    peeled_[static_cast<size_t>(q)] = 0;
  }
  for (const int q : redo) {
    peel_degree_[static_cast<size_t>(q)] = neighbour_count(q);
    if (peel_degree_[static_cast<size_t>(q)] <= 1 && !polys[static_cast<size_t>(q)].unused()) queue.push_back(q);
  }
  // Every polygon outside `redo` that was in no dead tree still has two neighbours or more
  // that take part: only the queue's can start the peel, and what it reaches joins it.
  peel(queue);
  std::vector<int> lasts;
  for (const int q : queue) {
    if (tree_parent_[static_cast<size_t>(q)] < 0) lasts.push_back(q);
    reparented_.emplace_back(q, tree_parent_[static_cast<size_t>(q)]);  // the new parents are marked below
  }
  repeel_tree_components(lasts);
  for (const auto& [q, before] : reparented_)
    if (before >= 0) mark_dead_edges(before, q, 0);
  for (const auto& [q, before] : reparented_) {
    const int parent = tree_parent_[static_cast<size_t>(q)];
    if (parent >= 0) mark_dead_edges(parent, q, 1);
  }
}

void NavmeshSearchWorkspace::repeel_tree_components(const std::vector<int>& lasts) {
  // Which polygon of a tree is peeled last, and so every parent on its way, depends on the
  // order of the peel: the whole-mesh peel's order restricted to one component is that of
  // peeling the component alone, its polygons of at most one neighbour first in polygon order.
  std::vector<int> comp, queue;
  for (const int last : lasts) {
    if (peel_mark_[static_cast<size_t>(last)] == peel_stamp_ + 1) continue;  // done with an earlier one
    comp.assign(1, last);
    peel_mark_[static_cast<size_t>(last)] = peel_stamp_ + 1;
    for (size_t k = 0; k < comp.size(); ++k) {
      const int p = comp[k];
      for (int i = pedge_first_[static_cast<size_t>(p)]; i < pedge_end_[static_cast<size_t>(p)]; ++i) {
        const int o = pedges_[static_cast<size_t>(i)].poly;
        if (peel_mark_[static_cast<size_t>(o)] == peel_stamp_ + 1) continue;
        peel_mark_[static_cast<size_t>(o)] = peel_stamp_ + 1;
        comp.push_back(o);
      }
    }
    std::sort(comp.begin(), comp.end());
    queue.clear();
    for (const int q : comp) {
      reparented_.emplace_back(q, tree_parent_[static_cast<size_t>(q)]);
      tree_parent_[static_cast<size_t>(q)] = -1;
      peeled_[static_cast<size_t>(q)] = 0;
      peel_degree_[static_cast<size_t>(q)] = pedge_end_[static_cast<size_t>(q)] - pedge_first_[static_cast<size_t>(q)];
      if (peel_degree_[static_cast<size_t>(q)] <= 1) queue.push_back(q);
    }
    // peel() counts a polygon's neighbours when it first reaches it unless marked with the
    // current stamp; these have their counts already.
    ++peel_stamp_;
    peel(queue);
    --peel_stamp_;
    for (const int q : comp) peel_mark_[static_cast<size_t>(q)] = peel_stamp_ + 1;
  }
  // The marks of this stamp + 1 would read as the next update's: clear them.
  for (const auto& [q, before] : reparented_)
    if (peel_mark_[static_cast<size_t>(q)] == peel_stamp_ + 1) peel_mark_[static_cast<size_t>(q)] = peel_stamp_;
}

// --- Components ---

void NavmeshSearchWorkspace::build_components() {
  // Connected components over the portals: a goal in another component is answered at once
  // instead of by a search that visits everything the start reaches (the exact search's
  // worst case: on a field of pillars it creates nodes superlinearly in the mesh's size).
  const std::vector<int>& first = mesh_->tile_polygon_first();
  const size_t np = mesh_->polygons().size(), tiles = first.empty() ? 1 : first.size() - 1;
  tile_of_.resize(np);
  comp_local_.resize(np);
  tile_comps_.resize(tiles);
  for (size_t t = 0; t < tiles; ++t) {
    const int lo = first.empty() ? 0 : first[t], hi = first.empty() ? static_cast<int>(np) : first[t + 1];
    std::fill(tile_of_.begin() + lo, tile_of_.begin() + hi, static_cast<int>(t));
  }
  for (size_t t = 0; t < tiles; ++t) tile_components(t);
  join_components();
}

void NavmeshSearchWorkspace::update_components(const std::vector<uint8_t>& refill) {
  if (tile_comps_.size() != refill.size() || tile_of_.size() != mesh_->polygons().size()) {
    build_components();  // (not expected: the patch keeps the tiles' numbers)
    return;
  }
  for (size_t t = 0; t < refill.size(); ++t)
    if (refill[t]) tile_components(t);
  join_components();
}

void NavmeshSearchWorkspace::tile_components(size_t t) {
  const std::vector<int>& first = mesh_->tile_polygon_first();
  const int lo = first.empty() ? 0 : first[t];
  const int hi = first.empty() ? static_cast<int>(mesh_->polygons().size()) : first[t + 1];
  TileComponents& tc = tile_comps_[t];
  tc.smallest.clear();
  tc.links.clear();
  uf_.resize(static_cast<size_t>(hi - lo));
  std::iota(uf_.begin(), uf_.end(), 0);
  for (int p = lo; p < hi; ++p)
    for (int i = pedge_first_[static_cast<size_t>(p)]; i < pedge_end_[static_cast<size_t>(p)]; ++i) {
      const int o = pedges_[static_cast<size_t>(i)].poly;
      if (o >= lo && o < hi) uf_join(uf_, p - lo, o - lo);
      else if (o >= hi) tc.links.emplace_back(p, o);  // each portal between tiles once, from the earlier tile
    }
  // Parents are never larger than their children, so in polygon order each parent already
  // points at its root, the component's smallest polygon.
  const auto& polys = mesh_->polygons();
  for (int p = lo; p < hi; ++p) {
    const size_t i = static_cast<size_t>(p - lo);
    uf_[i] = uf_[static_cast<size_t>(uf_[i])];
    if (polys[static_cast<size_t>(p)].unused()) {
      comp_local_[static_cast<size_t>(p)] = -1;
    } else if (uf_[i] == static_cast<int>(i)) {
      comp_local_[static_cast<size_t>(p)] = static_cast<int>(tc.smallest.size());
      tc.smallest.push_back(p);
    } else {
      comp_local_[static_cast<size_t>(p)] = comp_local_[static_cast<size_t>(lo + uf_[i])];
    }
  }
  for (auto& [a, o] : tc.links) a = comp_local_[static_cast<size_t>(a)];
}

void NavmeshSearchWorkspace::join_components() {
  // The tiles' components are numbered tile after tile, each tile's by its smallest polygon,
  // so a smaller number has a smaller polygon: the union-find's roots name the components.
  const size_t tiles = tile_comps_.size();
  comp_node_first_.resize(tiles + 1);
  comp_node_first_[0] = 0;
  for (size_t t = 0; t < tiles; ++t)
    comp_node_first_[t + 1] = comp_node_first_[t] + static_cast<int>(tile_comps_[t].smallest.size());
  const size_t nodes = static_cast<size_t>(comp_node_first_[tiles]);
  uf_.resize(nodes);
  std::iota(uf_.begin(), uf_.end(), 0);
  for (size_t t = 0; t < tiles; ++t)
    for (const auto& [a, o] : tile_comps_[t].links) {
      const size_t os = static_cast<size_t>(o);
      uf_join(uf_, comp_node_first_[t] + a, comp_node_first_[static_cast<size_t>(tile_of_[os])] + comp_local_[os]);
    }
  comp_label_.resize(nodes);
  for (size_t t = 0, n = 0; t < tiles; ++t)
    for (const int smallest : tile_comps_[t].smallest) {
      uf_[n] = uf_[static_cast<size_t>(uf_[n])];
      comp_label_[n] = uf_[n] == static_cast<int>(n) ? smallest : comp_label_[static_cast<size_t>(uf_[n])];
      ++n;
    }
}

}  // namespace pathlab
