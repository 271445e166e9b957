#pragma once
// Internal: NavmeshQuery's workspace. The mesh tables the searches read (portal edges per
// polygon, dead trees, components), rebuilt by reset(), and the buffers one query reuses.

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/open_list.hpp"
#include "pathlab/navmesh_search.hpp"

namespace pathlab {

namespace detail {

/// Whether p lies on the segment [u, w]: within a distance a little looser than the one under
/// which the exact search treats a root as lying on an entry edge's line (1e-12 of the
/// root's distance to the edge), so that whatever the search would call "on the edge" is
/// found here first. [Units: cells]
inline bool on_segment(Vec2 p, Vec2 u, Vec2 w) {
  const Vec2 e = w - u, pu = p - u, pw = p - w;
  const double l2 = glm::dot(e, e);
  // Far from the edge's line (the common case): no square root. The distance to the line is
  // |cross| / |e|, and the tolerance below is at most 1e-11 max(1, |pu|, |pw|).
  const double c = cross(e, pu);
  if (c * c > 1e-22 * l2 * std::max({1.0, glm::dot(pu, pu), glm::dot(pw, pw)})) return false;
  const double s = l2 > 0.0 ? std::clamp(glm::dot(pu, e) / l2, 0.0, 1.0) : 0.0;
  const Vec2 off = pu - e * s;
  const double tol = 1e-11 * std::max({1.0, glm::length(pu), glm::length(pw)});
  return glm::dot(off, off) <= tol * tol;
}

/// Per tile (row-major): 1 when its polygons' portal edges must be filled anew after an
/// update that restitched `restitched`: those tiles and their eight neighbours (the others keep
/// their polygons, portals and wall flags).
std::vector<uint8_t> refill_tiles(const std::vector<int>& restitched, int tiles_x, int tiles_y);

}  // namespace detail

/// The exact search's open list: a 4-ary min-heap of the grid searches' 128-bit keys
/// (open_list.hpp: f, larger g first, node id), without their slot index: an interval node
/// is pushed once and never decreased, so no position table needs growing and writing per
/// push. Keys are unique, so nodes pop in the same order as from detail::OpenList.
class NodeHeap {
 public:
  void clear() { h_.clear(); }
  bool empty() const { return h_.empty(); }
  void push(detail::HeapEntry e) {
    size_t i = h_.size();
    h_.push_back(e);
    detail::HeapEntry* h = h_.data();
    while (i > 0) {
      const size_t p = (i - 1) / 4;
      if (!(e.key < h[p].key)) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }
  detail::HeapEntry pop() {
    detail::HeapEntry* h = h_.data();
    const detail::HeapEntry top = h[0], last = h_.back();
    h_.pop_back();
    const size_t n = h_.size();
    if (n == 0) return top;
    size_t i = 0;
    for (;;) {  // the hole goes down along the smallest children, then `last` drops into it
      const size_t c = 4 * i + 1;
      if (c >= n) break;
      size_t best = c;
      if (c + 3 < n) {
        const size_t a = c + static_cast<size_t>(h[c + 1].key < h[c].key);
        const size_t b = c + 2 + static_cast<size_t>(h[c + 3].key < h[c + 2].key);
        best = h[b].key < h[a].key ? b : a;
      } else {
        for (size_t k = c + 1; k < n; ++k)
          if (h[k].key < h[best].key) best = k;
      }
      if (!(h[best].key < last.key)) break;
      h[i] = h[best];
      i = best;
    }
    h[i] = last;
    return top;
  }

 private:
  std::vector<detail::HeapEntry> h_;
};

class NavmeshSearchWorkspace {
 public:
  explicit NavmeshSearchWorkspace(const Navmesh& mesh) { reset(mesh); }
  void reset(const Navmesh& mesh);
  std::string table_difference(const NavmeshSearchWorkspace& o) const;
  Result<NavPoint> resolve(Vec2 p, const std::string& what) const;
  Result<NavSearchResult> find_corridor(Vec2 start, Vec2 goal, const NavQueryOptions& options);

  /// A ring edge with a polygon across it, with what the exact search reads when it crosses:
  /// kept per polygon in ring order, back to back, so an expansion walks one short array
  /// instead of the whole ring and the portal table. 64 bytes, one cache line: what only the
  /// open list, the trace and the corridor read (the unit direction, the portal id) lives in
  /// pedge_dir_ and pedge_portal_.
  struct PortalEdge {
    Vec2 u{0, 0}, w{0, 0};  // the edge, in its polygon's ring order
    double len = 0.0;
    int across = -1;  // the same edge in the far polygon's list (index into pedges_)
    int poly = -1;    // the far polygon
    // Mesh-wide vertex ids of u and w when a path may bend there (a wall corner), else -1.
    int u_corner = -1, w_corner = -1;
    // Dead trees: 1 when the far polygon hangs off this one as a dead tree (tree_parent_):
    // crossing then leads nowhere unless the far polygon is a goal polygon or one of its
    // ancestors in the peeled forest (goal_side_).
    int dead = 0;
    int unused_ = 0;  // keeps the edge at 64 bytes, one cache line
  };

  /// Exact search node: a root (a wall corner or the start), an interval [p0, p1] of a
  /// portal, and the polygon `poly` on its far side, entered through portal edge `entry` (an
  /// index into pedges_; p0 lies towards its u, p1 towards its w; the portal is
  /// pedge_portal_[entry]). f lives in the open list only.
  struct INode {
    Vec2 root{0, 0};
    Vec2 p0{0, 0}, p1{0, 0};
    double g = 0.0;
    int parent = -1;  // the crumb of the node it came from (crumbs_), -1 for a seed
    int poly = -1;
    int entry = -1;
    int root_vid = -1;  // vertex id of the root, -1 for a start off the mesh's vertices
  };
  /// What the corridor needs of an expanded exact node: where it came from and what it crossed.
  struct Crumb {
    int parent = -1;  // the parent's crumb, -1 for a seed
    int entry = -1;   // the portal edge crossed (pedges_), into polygon `poly`
    int poly = -1;
  };

  /// Portal-points search node: a portal crossed in one direction, with its point.
  struct Node {
    double g = 0.0;
    double f = 0.0;
    Vec2 pt{0, 0};
    int parent = -1;
    int poly = -1;
    uint32_t stamp = 0;
    bool closed = false;
  };
  struct HeapEntry {
    double f;
    double g;
    int node;
  };

 private:
  // --- Mesh tables (reset; navmesh_search_tables.cpp, navmesh_search_patch.cpp) ---
  /// Sizes the per-portal, per-vertex and per-polygon buffers for the mesh without clearing
  /// what they hold: stamps of earlier queries stay below stamp_, so none reads as current.
  void size_buffers();
  void build_portal_edges();
  /// Fills polygon `poly`'s portal edges at pedges_[pedge_first_[poly] ...) from the mesh
  /// (its dead range clear: set_dead_ranges() marks the dead ones).
  void fill_polygon_edges(int poly);
  /// Marks every portal edge from a polygon into a dead tree hanging off it (PortalEdge::dead).
  void set_dead_ranges();
  /// Sets PortalEdge::dead on `parent`'s edges into `child` to `dead`.
  void mark_dead_edges(int parent, int child, int dead);
  /// True when the tables of the mesh at `change.before` (this workspace's revision_) can be
  /// patched to the mesh now: a tiled mesh whose last update() started from them.
  bool can_patch(const Navmesh& mesh) const;
  /// Patches the portal edges after a tiled update() that kept the mesh's numbers: the
  /// polygons of the restitched tiles and their eight neighbours are filled anew in place,
  /// every other edge is kept (navmesh_search_patch.cpp). The dead ranges are set afterwards.
  void patch_portal_edges(const NavmeshChange& change, const std::vector<uint8_t>& refill);
  /// Polygon `poly`'s range in pedges_ (a tiled mesh's at its portal list entries), and its
  /// ring edges' entries in ring_pedge_.
  void set_edge_range(int poly);
  // Dead trees and components (navmesh_search_trees.cpp).
  /// Peels the whole mesh's dead trees into tree_parent_ and peeled_, and marks the edges.
  void build_dead_trees();
  /// After a patch: peels again only around the refilled tiles' polygons (`refill`, per tile)
  /// and re-marks the edges whose dead tree changed; the result equals build_dead_trees().
  void update_dead_trees(const std::vector<uint8_t>& refill);
  /// Peels the polygons in `queue` (those with at most one unpeeled neighbour left, in order)
  /// and every one whose count of unpeeled neighbours (neighbour_count) falls to one on the way.
  void peel(std::vector<int>& queue);
  int neighbour_count(int p);
  /// Peels anew, as build_dead_trees() would, each component of the mesh that is a tree and
  /// holds one of `lasts` (peeled polygons without a parent).
  void repeel_tree_components(const std::vector<int>& lasts);
  /// Per tile (one for an untiled mesh), its polygons' components over the portals inside it,
  /// then the tiles' components joined over the portals between tiles (component_of()).
  void build_components();
  void update_components(const std::vector<uint8_t>& refill);
  void tile_components(size_t t);
  void join_components();
  /// The connected component of polygon p: the smallest polygon number in it.
  int component_of(int p) const {
    const size_t i = static_cast<size_t>(p);
    const int local = comp_local_[i];
    if (local < 0) return p;  // an unused number
    return comp_label_[static_cast<size_t>(comp_node_first_[static_cast<size_t>(tile_of_[i])] + local)];
  }
  bool stale() const;
  /// True when stepping from polygon p into its neighbour q goes down a dead tree that holds
  /// no goal polygon (goal_side_): no shortest path does that.
  bool leads_nowhere_any_goal(int p, int q) const noexcept {
    const size_t i = static_cast<size_t>(q);
    return tree_parent_[i] == p && goal_side_[i] != stamp_;
  }
  /// leads_nowhere_any_goal for a portal edge of the polygon being expanded.
  bool leads_nowhere(const PortalEdge& pe) const noexcept {
    return pe.dead != 0 && goal_side_[static_cast<size_t>(pe.poly)] != stamp_;
  }
  std::pair<const PortalEdge*, const PortalEdge*> portal_edges(int poly) const {
    const PortalEdge* base = pedges_.data();
    return {base + pedge_first_[static_cast<size_t>(poly)], base + pedge_end_[static_cast<size_t>(poly)]};
  }

  // --- One query (navmesh_search.cpp) ---
  bool snap_to_mesh(Vec2 p, NavPoint& out) const;
  // Pinch points under the competition's convention: points a hair inside each free cell
  // beside p, and snapping from them when p is off the mesh.
  std::vector<Vec2> pinch_exits(Vec2 p) const;
  bool snap_from_pinch_point(Vec2 p, NavPoint& out) const;
  // Whether some start polygon and some goal polygon share a connected component.
  bool same_component() const;
  /// Starts a query: fresh stamps, the polygons around both ends.
  void begin_query(const NavPoint& s, const NavPoint& t, NavSearchResult& r);
  Result<NavSearchResult> straight(int poly, NavSearchResult& r) const;
  /// Every polygon whose boundary or interior holds p, starting from `poly` (which does).
  void touching_polygons(Vec2 p, int poly, std::vector<int>& out, int (&pinch_seeds)[2]) const;
  /// The mesh vertex id of a ring vertex of one of `polys` exactly at p, or -1.
  int vertex_at(Vec2 p, const std::vector<int>& polys) const;
  std::string unreachable_reason() const;
  /// Counts one expansion against the limits; when one is reached, says which in r.
  bool over_budget(NavSearchResult& r) {
    const BudgetStop stop = meter_.on_expansion();
    if (stop == BudgetStop::none && r.generated <= node_cap_) [[likely]] return false;
    stop_search(stop, r);
    return true;
  }
  void stop_search(BudgetStop stop, NavSearchResult& r) const;
  /// Fills r.corridor from the start polygon and the crossings (portal id, polygon entered).
  void fill_corridor(int start_poly, NavSearchResult& r) const;
  bool is_goal_polygon(int poly) const { return goal_mark_[static_cast<size_t>(poly)] == stamp_; }

  // --- Portal-points cost (navmesh_search.cpp) ---
  void search_portal_points(const NavPoint& s, NavSearchResult& r);
  void pp_relax(int id, int parent, int poly, Vec2 pt, double g, NavSearchResult& r);
  void pp_expand(int poly, int came_by, Vec2 from, double g, NavSearchResult& r);

  // --- Exact cost (navmesh_search_exact.cpp) ---
  void search_exact(NavSearchResult& r);
  void seed_start(NavSearchResult& r);
  /// Expands node `id` and the chain of lone successors after it; false
  /// when a limit stopped the search.
  bool expand_chain(INode n, NavSearchResult& r);
  /// Pushes the successors of n, whose crumb is `id`, into succ_.
  void expand(int id, const INode& n, NavSearchResult& r);
  void expand_collinear(int id, const INode& n, const PortalEdge& entry, NavSearchResult& r);
  void expand_cone(int id, const INode& n, const PortalEdge& entry, NavSearchResult& r);
  void push(int parent, Vec2 root, int root_vid, double g, Vec2 q0, Vec2 q1, const PortalEdge& pe,
            NavSearchResult& r);
  int portal_of(const PortalEdge& pe) const { return pedge_portal_[static_cast<size_t>(&pe - pedges_.data())]; }
  void push_all(int parent, int poly, const PortalEdge* skip, Vec2 root, int root_vid, double g, NavSearchResult& r);
  /// Root-level pruning: false when corner v was already reached at no higher cost.
  bool root_improves(int v, double g);
  double f_of(const INode& n) const;
  void successors_to_heap();
  void exact_corridor(const INode& goal_node, NavSearchResult& r);

  const Navmesh* mesh_ = nullptr;
  uint64_t revision_ = 0;  // Navmesh::revision() of the mesh the tables are for
  // Mesh tables.
  size_t ring_edges_ = 0;  // ring edges of the mesh reset() last saw
  // Per ring edge of the mesh: its portal edge (index into pedges_), -1 for a wall; a filled
  // edge finds its twin through the portal's far ring edge here instead of a walk around the
  // far polygon's ring.
  std::vector<int> ring_pedge_;
  std::vector<PortalEdge> pedges_;
  // Per polygon its range [pedge_first_[p], pedge_end_[p]) in pedges_: back to back for an
  // untiled mesh; for a tiled one at the polygon's portal list entries (NavPolygon::
  // first_portal), so that the ranges stay where the mesh's numbers stay and the entries of
  // unused numbers are gaps. pedge_first_ has one more entry: the table's size.
  std::vector<int> pedge_first_, pedge_end_;
  int64_t pedge_live_ = 0;  // edges in the ranges (the gaps left out)
  std::vector<Vec2> pedge_dir_;   // per portal edge: unit vector u -> w
  std::vector<int> pedge_portal_;  // per portal edge: the portal id
  // Per polygon: the neighbour it was peeled off towards (-1: not peeled, or a tree's last),
  // and whether it was peeled.
  std::vector<int> tree_parent_;
  std::vector<uint8_t> peeled_;
  // Scratch of update_dead_trees, per polygon: == peel_stamp_ when the polygon takes part in
  // this peel (not a dead tree kept as it was), and then its count of unpeeled neighbours.
  std::vector<uint32_t> peel_mark_;
  std::vector<int> peel_degree_;
  uint32_t peel_stamp_ = 0;
  std::vector<std::pair<int, int>> reparented_;  // (polygon, its parent before) of this peel
  // Components: per polygon its tile and its component among the tile's polygons (-1: an
  // unused number); per tile the number of its first such component in comp_label_, which
  // holds per tile component the smallest polygon of the mesh's component it is part of.
  struct TileComponents {
    std::vector<int> smallest;                // per component of the tile: its smallest polygon
    std::vector<std::pair<int, int>> links;   // (component of the tile, polygon of another tile) per portal out
  };
  std::vector<int> tile_of_, comp_local_;
  std::vector<TileComponents> tile_comps_;
  std::vector<int> comp_node_first_, comp_label_;
  std::vector<int> uf_;  // union-find scratch

  // The query being answered.
  Vec2 goal_{0, 0};
  int goal_poly_ = -1;
  // A pinch-point end (the competition's convention): the polygons just inside the free cells
  // beside it, besides the located one (-1: none).
  int start_alt_[2] = {-1, -1}, goal_alt_[2] = {-1, -1};
  // Per polygon: == stamp_ when it is the goal polygon, a pinch-point goal's other seed, or
  // an ancestor of one in the peeled forest: the dead trees the search may enter.
  std::vector<uint32_t> goal_side_;
  bool trace_ = false;
  BudgetMeter meter_{SearchBudget{}};
  int64_t node_cap_ = 0;
  uint32_t stamp_ = 0;
  std::vector<int> start_polys_, goal_polys_;  // the polygons around the query's ends
  std::vector<uint32_t> goal_mark_;            // per polygon: == stamp_ when it holds the goal
  std::vector<std::pair<int, int>> chain_;     // corridor reconstruction: (portal, polygon entered)

  // Exact search buffers.
  std::vector<INode> inodes_;  // the nodes on the open list, by the open list's node id
  std::vector<Crumb> crumbs_;  // one per expansion
  std::vector<INode> succ_;    // the successors of the node being expanded (reused)
  std::vector<double> root_g_;  // per vertex id: best g seen (valid when root_stamp_ matches)
  std::vector<uint32_t> root_stamp_;
  NodeHeap open_;

  // Portal-points search buffers.
  std::vector<Node> nodes_;
  std::vector<HeapEntry> heap_;
};

}  // namespace pathlab
