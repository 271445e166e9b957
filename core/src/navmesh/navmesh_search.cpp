#include "pathlab/navmesh_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/open_list.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {
namespace {

/// The point x of segment a-b minimising |p - x| + |x - t|: the crossing of p-t with the
/// segment's line, or of p-t' with t mirrored when both lie on the same side, clamped to the
/// segment (the sum is convex along the line, so clamping keeps it minimal).
Vec2 taut_point(Vec2 p, Vec2 t, Vec2 a, Vec2 b) {
  const Vec2 e = b - a;
  const double l2 = glm::dot(e, e);
  if (!(l2 > 0.0)) return a;
  // Signed distances (times |e|) from the line, and positions along it (times l2). Mirroring t
  // flips its side and keeps its position, so the crossing of p-t' with the line sits at
  // (up * -st' + ut * sp) / (sp - st') along it: one division for the whole point.
  const Vec2 pa = p - a, ta = t - a;
  const double sp = cross(e, pa);
  double st = cross(e, ta);
  if ((sp > 0.0 && st > 0.0) || (sp < 0.0 && st < 0.0)) st = -st;
  const double up = glm::dot(pa, e), ut = glm::dot(ta, e);
  const double den = sp - st;
  // den == 0: both on the line, where any point between them will do.
  const double u = den != 0.0 ? (ut * sp - up * st) / (den * l2) : up / l2;
  return a + e * std::clamp(u, 0.0, 1.0);
}

/// The shortest length from r through the segment [q0, q1] to t, where d is the unit direction
/// of q0 -> q1 (given, so that no division is needed): straight to t (mirrored across the
/// segment's line when on r's side) when that line crosses the segment, else over the nearer end.
double through_length(Vec2 r, Vec2 t, Vec2 q0, Vec2 q1, Vec2 d) {
  const Vec2 nrm(-d.y, d.x);
  const Vec2 rq = r - q0, tq = t - q0;
  const double dr = glm::dot(rq, nrm);
  double dt = glm::dot(tq, nrm);
  if ((dr > 0.0 && dt > 0.0) || (dr < 0.0 && dt < 0.0)) dt = -dt;  // mirror t
  const double ar = glm::dot(rq, d), at = glm::dot(tq, d), len = glm::dot(q1 - q0, d);
  // r-t' crosses the line at num / den along it; den's sign is fixed by the sides.
  const double den = dr - dt, num = at * dr - ar * dt;
  int end;  // -1: over q0, 0: straight through, 1: over q1
  if (den > 0.0) {
    end = num < 0.0 ? -1 : (num > len * den ? 1 : 0);
  } else if (den < 0.0) {
    end = num > 0.0 ? -1 : (num < len * den ? 1 : 0);
  } else {  // both on the line: the path runs along it, through the segment's nearest point
    const Vec2 x = q0 + (q1 - q0) * std::clamp(ar / std::max(len, 1e-300), 0.0, 1.0);
    return glm::length(x - r) + glm::length(t - x);
  }
  if (end == 0) return std::sqrt((ar - at) * (ar - at) + den * den);
  const Vec2 x = end < 0 ? q0 : q1;
  return glm::length(x - r) + glm::length(t - x);
}

/// Whether p lies on the segment [u, w]: within a distance a little looser than the one under
/// which the exact search treats a root as lying on an entry edge's line (1e-12 of the
/// root's distance to the edge), so that whatever the search would call "on the edge" is
/// found here first. [Units: cells]
bool on_segment(Vec2 p, Vec2 u, Vec2 w) {
  const Vec2 e = w - u, pu = p - u;
  const double l2 = glm::dot(e, e);
  const double s = l2 > 0.0 ? std::clamp(glm::dot(pu, e) / l2, 0.0, 1.0) : 0.0;
  const Vec2 off = pu - e * s;
  const double tol = 1e-11 * std::max({1.0, glm::length(pu), glm::length(p - w)});
  return glm::dot(off, off) <= tol * tol;
}

/// A lattice point where two blocked cells touch only at their corners (the other two cells
/// around it free): wall by the through-a-wall rule (collision.hpp).
bool is_pinch_point(const Grid& grid, Vec2 p) {
  const double fx = std::floor(p.x), fy = std::floor(p.y);
  if (fx != p.x || fy != p.y) return false;
  const int x = static_cast<int>(fx), y = static_cast<int>(fy);
  if (x <= 0 || y <= 0 || x >= grid.width() || y >= grid.height()) return false;
  const bool b00 = !grid.is_free(x - 1, y - 1), b10 = !grid.is_free(x, y - 1);
  const bool b01 = !grid.is_free(x - 1, y), b11 = !grid.is_free(x, y);
  return (b00 && b11 && !b10 && !b01) || (b10 && b01 && !b00 && !b11);
}

struct HeapLess {
  // A min-heap on f; among equal f the deeper node (larger g) first.
  template <class E>
  bool operator()(const E& x, const E& y) const {
    return x.f > y.f || (x.f == y.f && x.g < y.g);
  }
};

}  // namespace

NavmeshQuery::NavmeshQuery(const Navmesh& mesh) : mesh_(&mesh), open_(std::make_unique<detail::OpenList>()) {
  reset(mesh);
}
NavmeshQuery::~NavmeshQuery() = default;
NavmeshQuery::NavmeshQuery(NavmeshQuery&&) noexcept = default;
NavmeshQuery& NavmeshQuery::operator=(NavmeshQuery&&) noexcept = default;

void NavmeshQuery::reset(const Navmesh& mesh) {
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
  const auto& rv = mesh.ring_vertices();
  ring_edges_ = rv.size();
  pedges_.clear();
  pedge_first_.clear();
  pedge_first_.reserve(mesh.polygons().size() + 1);
  for (const NavPolygon& P : mesh.polygons()) {
    pedge_first_.push_back(static_cast<int>(pedges_.size()));
    for (int e = P.first; e < P.first + P.count; ++e) {
      const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
      const Vec2 u = rv[static_cast<size_t>(e)], w = rv[static_cast<size_t>(e1)];
      const int pid = mesh.ring_portals()[static_cast<size_t>(e)];
      if (pid < 0) continue;
      const NavPortal& pt = mesh.portals()[static_cast<size_t>(pid)];
      const bool from_a = pt.edge_a == e;
      PortalEdge pe;
      pe.u = u;
      pe.w = w;
      pe.len = glm::length(w - u);
      pe.dir = pe.len > 0.0 ? (w - u) / pe.len : Vec2(1.0, 0.0);
      pe.ring_edge = e;
      pe.across = from_a ? pt.edge_b : pt.edge_a;  // a ring edge for now, made an index below
      pe.poly = from_a ? pt.poly_b : pt.poly_a;
      pe.portal = pid;
      pe.u_vid = mesh.ring_vertex_ids()[static_cast<size_t>(e)];
      pe.w_vid = mesh.ring_vertex_ids()[static_cast<size_t>(e1)];
      pe.u_wall = mesh.vertex_on_wall()[static_cast<size_t>(pe.u_vid)] != 0;
      pe.w_wall = mesh.vertex_on_wall()[static_cast<size_t>(pe.w_vid)] != 0;
      pedges_.push_back(pe);
    }
  }
  pedge_first_.push_back(static_cast<int>(pedges_.size()));
  std::vector<int> of_ring_edge(rv.size(), -1);
  for (size_t i = 0; i < pedges_.size(); ++i) of_ring_edge[static_cast<size_t>(pedges_[i].ring_edge)] = static_cast<int>(i);
  for (PortalEdge& pe : pedges_) pe.across = of_ring_edge[static_cast<size_t>(pe.across)];
}

void NavmeshQuery::build_components() {
  // Connected components over the portals: a goal in another component is answered at once
  // instead of by a search that visits everything the start reaches (the exact search's
  // worst case: on a field of pillars it creates nodes superlinearly in the mesh's size).
  const auto& polys = mesh_->polygons();
  const auto& portals = mesh_->portals();
  const auto& plist = mesh_->polygon_portals();
  component_.assign(polys.size(), -1);
  std::vector<int> stack;
  int next = 0;
  for (size_t seed = 0; seed < polys.size(); ++seed) {
    if (component_[seed] >= 0) continue;
    component_[seed] = next;
    stack.push_back(static_cast<int>(seed));
    while (!stack.empty()) {
      const NavPolygon& P = polys[static_cast<size_t>(stack.back())];
      const int p = stack.back();
      stack.pop_back();
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

void NavmeshQuery::build_dead_trees() {
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
  tree_in_.assign(np, -1);
  tree_out_.assign(np, -1);
  std::vector<int> degree(np), queue;
  std::vector<uint8_t> peeled(np, 0);
  queue.reserve(np);
  for (size_t i = 0; i < np; ++i) {
    degree[i] = polys[i].portal_count;
    if (degree[i] <= 1) queue.push_back(static_cast<int>(i));
  }
  auto other = [&](int pid, int poly) {
    const NavPortal& p = portals[static_cast<size_t>(pid)];
    return p.poly_a == poly ? p.poly_b : p.poly_a;
  };
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    const int p = queue[qi];
    peeled[static_cast<size_t>(p)] = 1;
    const NavPolygon& P = polys[static_cast<size_t>(p)];
    for (int k = P.first_portal; k < P.first_portal + P.portal_count; ++k) {
      const int o = other(plist[static_cast<size_t>(k)], p);
      if (peeled[static_cast<size_t>(o)]) continue;
      tree_parent_[static_cast<size_t>(p)] = o;  // at most one: p's degree was <= 1
      if (--degree[static_cast<size_t>(o)] == 1) queue.push_back(o);
    }
  }
  // Pre-order numbers of the peeled forest: q's subtree is [tree_in_[q], tree_out_[q]).
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

Result<NavPoint> NavmeshQuery::resolve(Vec2 p, const std::string& what) const {
  const Grid& grid = mesh_->grid();
  if (!is_finite(p)) return fail(StatusCode::invalid_argument, what + " is not a finite point");
  // Built on the error paths only: formatting two numbers per query costs as much as a short search.
  auto where = [&] { return what + " (" + std::to_string(p.x) + "," + std::to_string(p.y) + ")"; };
  if (!grid.contains(p)) {
    return fail(StatusCode::out_of_bounds, where() + " is outside the " + std::to_string(grid.width()) + "x" +
                                               std::to_string(grid.height()) + " map");
  }
  NavPoint out;
  out.polygon = mesh_->locate(p);
  out.pos = p;
  // Mesh polygons cover free space only, so a point strictly inside one is clear without the
  // grid test (the common case; boundary points, where the through-a-wall rule has corner
  // cases, still go to collision.hpp).
  if (out.polygon >= 0) {
    const auto ring = mesh_->ring(out.polygon);
    bool interior = true;
    for (size_t i = 0; i < ring.size() && interior; ++i) {
      const Vec2 a = ring[i], b = ring[i + 1 < ring.size() ? i + 1 : 0];
      interior = cross(b - a, p - a) > 0.0;
    }
    if (interior) return out;
  }
  if (!point_clear(grid, p, 0.0)) {
    if (is_pinch_point(grid, p)) {
      return fail(StatusCode::blocked, where() + " is a pinch point: two blocked cells touch only at their corners there, "
                                                 "which counts as wall (no path may pass through it)");
    }
    return fail(StatusCode::blocked, where() + " is inside a wall");
  }
  if (out.polygon >= 0) return out;
  // In the band the radius removed: the nearest mesh point a straight segment reaches.
  const auto& polys = mesh_->polygons();
  std::vector<std::pair<double, int>> cand;
  cand.reserve(polys.size());
  for (size_t i = 0; i < polys.size(); ++i) {
    const Vec2 lo = polys[i].lo, hi = polys[i].hi;
    const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x}), dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
    cand.emplace_back(dx * dx + dy * dy, static_cast<int>(i));
  }
  std::sort(cand.begin(), cand.end());
  double best = std::numeric_limits<double>::infinity();
  for (const auto& [box_d2, id] : cand) {
    if (box_d2 >= best) break;
    const Vec2 q = mesh_->closest_point(id, p);
    const double d2 = glm::dot(q - p, q - p);
    if (d2 < best && segment_clear(grid, p, q, 0.0)) {
      best = d2;
      out.pos = q;
      out.polygon = id;
    }
  }
  if (out.polygon < 0) {
    return fail(StatusCode::blocked, where() + " has no navmesh point within reach for agent radius " +
                                         std::to_string(mesh_->agent_radius()));
  }
  out.snapped = true;
  return out;
}

namespace {

/// The options' limits checked, and the expansion limit of the two spellings folded into one.
Result<SearchBudget> effective_budget(const NavQueryOptions& o) {
  auto bad = [](const std::string& what, double v) {
    return fail(StatusCode::invalid_argument, "navmesh search: " + what + " (got " + std::to_string(v) + ")");
  };
  if (o.max_expansions < 0) return bad("max_expansions must be >= 0", static_cast<double>(o.max_expansions));
  if (o.budget.max_expansions < 0) return bad("budget.max_expansions must be >= 0", static_cast<double>(o.budget.max_expansions));
  if (!(o.budget.time_ms >= 0.0) || !std::isfinite(o.budget.time_ms)) return bad("budget.time_ms must be finite and >= 0", o.budget.time_ms);
  if (o.max_nodes < 0) return bad("max_nodes must be >= 0", static_cast<double>(o.max_nodes));
  SearchBudget b = o.budget;
  if (o.max_expansions > 0 && (b.max_expansions == 0 || o.max_expansions < b.max_expansions)) b.max_expansions = o.max_expansions;
  return b;
}

}  // namespace

bool NavmeshQuery::over_budget(BudgetMeter& meter, int64_t node_cap, NavSearchResult& r) {
  const BudgetStop stop = meter.on_expansion();
  if (stop == BudgetStop::none && r.generated <= node_cap) return false;
  r.budget_exhausted = true;
  r.budget_stop = stop;
  r.node_cap_reached = stop == BudgetStop::none;
  switch (stop) {
    case BudgetStop::expansions:
      r.reason = "budget_exhausted: expansions (gave up after " + std::to_string(meter.expansions() - 1) + " expansions)";
      break;
    case BudgetStop::time:
      r.reason = "budget_exhausted: time (gave up after " + std::to_string(meter.elapsed_ms()) + " ms)";
      break;
    case BudgetStop::cancelled: r.reason = "budget_exhausted: cancelled"; break;
    case BudgetStop::none:
      r.reason = "budget_exhausted: nodes (gave up after creating " + std::to_string(r.generated) +
                 " search nodes, the cap for this query)";
      break;
  }
  return true;
}

Result<NavSearchResult> NavmeshQuery::find_corridor(Vec2 start, Vec2 goal, const NavQueryOptions& options) {
  auto budget = effective_budget(options);
  if (!budget) return budget.error();
  auto s = resolve(start, "start");
  if (!s) return s.error();
  auto t = resolve(goal, "goal");
  if (!t) return t.error();
  NavSearchResult r;
  r.start = s->pos;
  r.goal = t->pos;
  r.start_snapped = s->snapped;
  r.goal_snapped = t->snapped;
  if (s->polygon == t->polygon) return straight(t->polygon, r);  // convex: the straight segment
  if (nodes_.size() != 2 * mesh_->portals().size() + 1 || tree_parent_.size() != mesh_->polygons().size() ||
      ring_edges_ != mesh_->ring_vertices().size() ||
      pedge_first_.size() != mesh_->polygons().size() + 1 || component_.size() != mesh_->polygons().size() || goal_mark_.size() != mesh_->polygons().size() ||
      root_g_.size() != static_cast<size_t>(mesh_->vertex_id_count())) {
    reset(*mesh_);
  }
  if (++stamp_ == 0) {  // wrapped: forget every stamp
    for (Node& n : nodes_) n.stamp = 0;
    std::fill(root_stamp_.begin(), root_stamp_.end(), 0u);
    std::fill(goal_mark_.begin(), goal_mark_.end(), 0u);
    stamp_ = 1;
  }
  heap_.clear();
  // An end on a polygon's edge or vertex lies in every polygon around that point: the search
  // starts from all of them and ends in any of them.
  touching_polygons(r.start, s->polygon, start_polys_);
  touching_polygons(r.goal, t->polygon, goal_polys_);
  for (const int p : goal_polys_) goal_mark_[static_cast<size_t>(p)] = stamp_;
  for (const int p : start_polys_)
    if (goal_mark_[static_cast<size_t>(p)] == stamp_) return straight(p, r);
  if (component_[static_cast<size_t>(s->polygon)] != component_[static_cast<size_t>(t->polygon)]) {
    r.reason = unreachable_reason();
    return r;
  }
  BudgetMeter meter(*budget);
  const int64_t node_cap =
      options.max_nodes > 0 ? options.max_nodes
                            : kNavNodesPerPortalEdge * static_cast<int64_t>(pedges_.size()) + kNavMinNodeCap;
  if (options.cost == NavSearchCost::exact) {
    search_exact(*t, options.record_trace, meter, node_cap, r);
  } else {
    search_portal_points(*s, *t, options.record_trace, meter, node_cap, r);
  }
  return r;
}

std::string NavmeshQuery::unreachable_reason() const {
  return "the goal is not reachable from the start for agent radius " + std::to_string(mesh_->agent_radius());
}

Result<NavSearchResult> NavmeshQuery::straight(int poly, NavSearchResult& r) const {
  r.found = true;
  r.corridor.polygons.push_back(poly);
  r.length = glm::length(r.goal - r.start);
  return std::move(r);
}

void NavmeshQuery::touching_polygons(Vec2 p, int poly, std::vector<int>& out) const {
  // Breadth first over portal edges that p lies on: one polygon for an interior point, two
  // for a point on a portal, the whole fan around a vertex.
  out.clear();
  out.push_back(poly);
  for (size_t i = 0; i < out.size(); ++i) {
    const PortalEdge* e = pedges_.data() + pedge_first_[static_cast<size_t>(out[i])];
    const PortalEdge* end = pedges_.data() + pedge_first_[static_cast<size_t>(out[i]) + 1];
    for (; e != end; ++e) {
      if (on_segment(p, e->u, e->w) && std::find(out.begin(), out.end(), e->poly) == out.end()) out.push_back(e->poly);
    }
  }
}

int NavmeshQuery::vertex_at(Vec2 p, const std::vector<int>& polys) const {
  for (const int poly : polys) {
    const NavPolygon& P = mesh_->polygons()[static_cast<size_t>(poly)];
    for (int k = P.first; k < P.first + P.count; ++k)
      if (mesh_->ring_vertices()[static_cast<size_t>(k)] == p) return mesh_->ring_vertex_ids()[static_cast<size_t>(k)];
  }
  return -1;
}

void NavmeshQuery::fill_corridor(int start_poly, const std::vector<std::pair<int, int>>& crossings,
                                 NavSearchResult& r) const {
  const auto& portals = mesh_->portals();
  NavCorridor& c = r.corridor;
  c.polygons.reserve(crossings.size() + 1);
  c.portal_ids.reserve(crossings.size());
  c.portals.reserve(crossings.size());
  c.polygons.push_back(start_poly);
  for (const auto& [pid, entered] : crossings) {
    const NavPortal& p = portals[static_cast<size_t>(pid)];
    // Crossing from poly_a (whose ring runs a -> b with its interior on the left): b is on
    // the traveller's left.
    const bool forward = entered == p.poly_b;
    c.portal_ids.push_back(pid);
    c.portals.push_back(forward ? FunnelPortal{p.b, p.a} : FunnelPortal{p.a, p.b});
    c.polygons.push_back(entered);
  }
}

void NavmeshQuery::search_portal_points(const NavPoint& s, const NavPoint& t, bool trace, BudgetMeter& meter,
                                        int64_t node_cap, NavSearchResult& r) {
  const Vec2 gp = r.goal;
  const int goal_poly = t.polygon;
  const auto& portals = mesh_->portals();
  const auto& polys = mesh_->polygons();
  const auto& plist = mesh_->polygon_portals();
  // Two nodes per portal, one per direction of crossing (2 * pid: into poly_b), and the goal.
  const int goal_node = 2 * static_cast<int>(portals.size());
  auto relax = [&](int id, int parent, int poly, Vec2 pt, double g) {
    Node& n = nodes_[static_cast<size_t>(id)];
    if (n.stamp == stamp_ && g >= n.g) return;
    n.stamp = stamp_;
    n.g = g;
    n.f = g + glm::length(gp - pt);
    n.pt = pt;
    n.parent = parent;
    n.poly = poly;
    n.closed = false;
    heap_.push_back(HeapEntry{n.f, g, id});
    std::push_heap(heap_.begin(), heap_.end(), HeapLess{});
    ++r.generated;
    if (trace) r.trace.push_back(NavTraceEvent{poly, id < goal_node ? id / 2 : -1, NavTraceEvent::open, static_cast<float>(g), static_cast<float>(n.f)});
  };
  auto expand_from = [&](int poly, int came_by, Vec2 from, double g) {
    const NavPolygon& P = polys[static_cast<size_t>(poly)];
    for (int k = P.first_portal; k < P.first_portal + P.portal_count; ++k) {
      const int pid = plist[static_cast<size_t>(k)];
      if (came_by >= 0 && pid == came_by / 2) continue;
      const NavPortal& pt = portals[static_cast<size_t>(pid)];
      if (leads_nowhere(poly, pt.poly_a == poly ? pt.poly_b : pt.poly_a, goal_poly)) continue;
      const Vec2 x = taut_point(from, gp, pt.a, pt.b);
      const bool forward = pt.poly_a == poly;
      relax(2 * pid + (forward ? 0 : 1), came_by, forward ? pt.poly_b : pt.poly_a, x, g + glm::length(x - from));
    }
    if (poly == goal_poly) relax(goal_node, came_by, poly, gp, g + glm::length(gp - from));
  };
  expand_from(s.polygon, -1, r.start, 0.0);
  bool found = false;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), HeapLess{});
    const HeapEntry e = heap_.back();
    heap_.pop_back();
    Node& n = nodes_[static_cast<size_t>(e.node)];
    if (n.closed || e.g != n.g) continue;  // stale entry
    n.closed = true;
    if (trace) r.trace.push_back(NavTraceEvent{n.poly, e.node < goal_node ? e.node / 2 : -1, NavTraceEvent::close, static_cast<float>(n.g), static_cast<float>(n.f)});
    if (e.node == goal_node) {
      found = true;
      break;
    }
    ++r.expanded;
    if (over_budget(meter, node_cap, r)) return;
    expand_from(n.poly, e.node, n.pt, n.g);
  }
  if (!found) {
    r.reason = unreachable_reason();
    return;
  }
  std::vector<std::pair<int, int>>& chain = chain_;
  chain.clear();
  for (int id = nodes_[static_cast<size_t>(goal_node)].parent; id >= 0; id = nodes_[static_cast<size_t>(id)].parent) {
    chain.emplace_back(id / 2, nodes_[static_cast<size_t>(id)].poly);
  }
  std::reverse(chain.begin(), chain.end());
  fill_corridor(s.polygon, chain, r);
  r.found = true;
}

namespace {

/// The sub-range of [lo, hi] within [0, 1] where A + s B >= 0 (empty when lo > hi on return).
/// The sign at s = 0 and s = 1 settles most edges (wholly inside or outside the cone) without
/// the division.
inline __attribute__((always_inline)) void keep_nonnegative(double A, double B, double& lo, double& hi) {
  if (B > 0.0) {
    if (A >= 0.0) return;
    if (A + B < 0.0) {
      hi = lo - 1.0;
      return;
    }
    lo = std::max(lo, -A / B);
  } else if (B < 0.0) {
    if (A + B >= 0.0) return;
    if (A < 0.0) {
      hi = lo - 1.0;
      return;
    }
    hi = std::min(hi, -A / B);
  } else if (A < 0.0) {
    hi = lo - 1.0;
  }
}

/// The point at parameter s of u -> w, exactly u or w at (and within rounding of) the ends, so
/// that "the interval ends at a vertex" can be tested with ==: a cone through a vertex must
/// let the path bend there even when the parameter came out as 0.9999999999999999.
inline __attribute__((always_inline)) Vec2 at(Vec2 u, Vec2 w, double s, double len) {
  constexpr double kSnap = 1e-10;  // [Units: cells] far below the mesh's smallest feature (1e-9)
  if (s * len <= kSnap) return u;
  if ((1.0 - s) * len <= kSnap) return w;
  return u + (w - u) * s;
}

}  // namespace

void NavmeshQuery::search_exact(const NavPoint& t, bool trace, BudgetMeter& meter, int64_t node_cap,
                                NavSearchResult& r) {
  const Vec2 gp = r.goal;
  const int goal_poly = t.polygon;
  inodes_.clear();
  // Intervals shorter than this carry no path worth having; they only arise from rounding
  // where a cone grazes a vertex. [Units: cells]
  constexpr double kMinInterval = 1e-12;

  // g plus the exact shortest length from the root through the interval to the goal (p0 -> p1
  // runs along the entry edge of n.poly's ring). One formula for the open list and the trace.
  auto f_of = [&](const INode& n) {
    return n.g + through_length(n.root, gp, n.p0, n.p1, pedges_[static_cast<size_t>(n.entry)].dir);
  };

  // Pushes the node (root, [q0, q1] on portal edge pe of the polygon being expanded, u -> w).
  auto push = [&](int parent, Vec2 root, int root_vid, double g, Vec2 q0, Vec2 q1, const PortalEdge& pe)
                  __attribute__((always_inline)) {
    INode n;
    n.root = root;
    n.root_vid = root_vid;
    // In the far polygon's ring the shared edge runs the other way: its p0 is our q1.
    n.p0 = q1;
    n.p1 = q0;
    n.g = g;
    n.parent = parent;
    n.poly = pe.poly;
    n.entry = pe.across;
    n.portal = pe.portal;
    // f waits for the open list (to_heap): a lone successor walked through on the spot needs none.
    if (trace) n.f = f_of(n);
    succ_.push_back(static_cast<int>(inodes_.size()));
    inodes_.push_back(n);
    ++r.generated;
    if (trace) r.trace.push_back(NavTraceEvent{pe.poly, pe.portal, NavTraceEvent::open, static_cast<float>(g), static_cast<float>(n.f)});
  };
  // The portal edges of polygon p, and whether crossing one is worth it: never into a dead
  // tree without the goal.
  auto portal_edges = [&](int p) {
    const PortalEdge* base = pedges_.data();
    return std::pair<const PortalEdge*, const PortalEdge*>(base + pedge_first_[static_cast<size_t>(p)],
                                                           base + pedge_first_[static_cast<size_t>(p) + 1]);
  };
  auto worth_entering = [&](int p, const PortalEdge& pe) { return !leads_nowhere(p, pe.poly, goal_poly); };
  // Root-level pruning: a corner already reached more cheaply makes this node redundant.
  auto root_improves = [&](int v, double g) {
    const size_t i = static_cast<size_t>(v);
    if (root_stamp_[i] == stamp_ && root_g_[i] <= g) return false;
    root_stamp_[i] = stamp_;
    root_g_[i] = g;
    return true;
  };
  // Every portal edge of P except `skip`, whole, as seen from `root`.
  auto push_all = [&](int parent, int poly, const PortalEdge* skip, Vec2 root, int root_vid, double g) {
    const auto [first, last] = portal_edges(poly);
    for (const PortalEdge* pe = first; pe != last; ++pe) {
      if (pe == skip || !worth_entering(poly, *pe)) continue;
      // From the start, an edge through the start leads into a polygon the search started in.
      if (g == 0.0 && on_segment(root, pe->u, pe->w)) continue;
      push(parent, root, root_vid, g, pe->u, pe->w, *pe);
    }
  };

  // Expands node `id`: its successors go to succ_. Returns nothing; successors are pushed by
  // the caller, which may instead walk straight on into a lone successor.
  auto expand = [&](const int id) {
    const INode n = inodes_[static_cast<size_t>(id)];  // a copy: push() may grow inodes_
    const PortalEdge* entry = pedges_.data() + n.entry;
    const Vec2 a = entry->u, b = entry->w;
    const Vec2 ab = b - a;
    const Vec2 rt = n.root;
    const double side = cross(ab, rt - a);  // < 0: the root is behind the entry edge, as it should be
    // On the line: side >= -1e-12 |ab| max(1, |rt - a|), squared to spare two square roots.
    const Vec2 ra = rt - a;
    if (side >= 0.0 || side * side <= 1e-24 * glm::dot(ab, ab) * std::max(1.0, glm::dot(ra, ra))) {
      // The root lies on the entry edge's line: from a point of the interval all of P is
      // visible; from beyond it the path runs along the line to the interval's nearer end
      // and may bend there only if that end is a wall corner.
      const double l2 = glm::dot(ab, ab);
      const double tr = glm::dot(rt - a, ab) / l2;
      const double t0 = glm::dot(n.p0 - a, ab) / l2, t1 = glm::dot(n.p1 - a, ab) / l2;
      const double tol = 1e-12 * std::max(1.0, std::abs(tr));
      if (tr >= t0 - tol && tr <= t1 + tol) {
        push_all(id, n.poly, entry, rt, n.root_vid, n.g);
      } else {
        const bool before = tr < t0;
        const Vec2 x = before ? n.p0 : n.p1;
        const int xv = before ? entry->u_vid : entry->w_vid;
        if (x == (before ? a : b) && (before ? entry->u_wall : entry->w_wall)) {
          const double g = n.g + glm::length(x - rt);
          if (root_improves(xv, g)) push_all(id, n.poly, entry, x, xv, g);
        }
      }
      return;
    }
    // The cone from the root through [p0, p1]: q is inside when it is counter-clockwise of
    // root -> p1 and clockwise of root -> p0 (P lies on the left of a -> b).
    const Vec2 d1 = n.p1 - rt, d0 = n.p0 - rt;
    // A wall corner at either end of the interval, where the path may bend to see past the
    // cone; whether bending there improves on the corner's best root is asked once.
    struct Bend {
      bool possible = false;
      Vec2 at;
      int vertex = -1;
      double g = 0.0;
      bool checked = false, improves = false;
    };
    auto corner = [&](Vec2 end, Vec2 vertex, int vertex_id, bool on_wall) {
      Bend c;
      c.vertex = vertex_id;
      c.possible = on_wall && end == vertex;
      c.at = vertex;
      return c;
    };
    Bend bend_a = corner(n.p0, a, entry->u_vid, entry->u_wall), bend_b = corner(n.p1, b, entry->w_vid, entry->w_wall);
    // The part of edge [u, w] beyond the ray through one interval end (the side where
    // A + t B < 0), seen only by bending at that end's corner.
    auto push_beyond = [&](Bend& c, double A, double B, Vec2 u, Vec2 w, double len, const PortalEdge& pe)
                           __attribute__((always_inline)) {
      if (!c.possible) return;
      double lo = 0.0, hi = 1.0;
      keep_nonnegative(-A, -B, lo, hi);
      if ((hi - lo) * len <= kMinInterval) return;
      if (!c.checked) {
        c.g = n.g + glm::length(c.at - rt);
        c.improves = root_improves(c.vertex, c.g);
        c.checked = true;
      }
      if (c.improves) push(id, c.at, c.vertex, c.g, at(u, w, lo, len), at(u, w, hi, len), pe);
    };
    // The other portal edges, in ring order from the entry edge on (the order successors are
    // generated in breaks ties between equal f).
    const auto [first, last] = portal_edges(n.poly);
    const PortalEdge* pe_ptr = entry;
    for (ptrdiff_t i = 1, count = last - first; i < count; ++i) {
      if (++pe_ptr == last) pe_ptr = first;
      const PortalEdge& pe = *pe_ptr;
      if (!worth_entering(n.poly, pe)) continue;
      const Vec2 u = pe.u, w = pe.w;
      const double len = pe.len;
      const double A1 = cross(d1, u - rt), B1 = cross(d1, w - u);
      const double A0 = -cross(d0, u - rt), B0 = -cross(d0, w - u);
      // Visible part.
      double lo = 0.0, hi = 1.0;
      keep_nonnegative(A1, B1, lo, hi);
      keep_nonnegative(A0, B0, lo, hi);
      if ((hi - lo) * len > kMinInterval) push(id, rt, n.root_vid, n.g, at(u, w, lo, len), at(u, w, hi, len), pe);
      // Beyond the ray through p1 (bending at b), then beyond the ray through p0 (at a).
      push_beyond(bend_b, A1, B1, u, w, len, pe);
      push_beyond(bend_a, A0, B0, u, w, len, pe);
    }
  };
  auto to_heap = [&] {
    open_pos_.resize(inodes_.size(), -1);  // a slot per interval node; may move, so bound again
    open_->bind(open_pos_.data());
    for (const int c : succ_) {
      INode& n = inodes_[static_cast<size_t>(c)];
      if (!trace) n.f = f_of(n);
      open_->push(detail::HeapEntry(n.f, n.g, c));
    }
  };

  open_->clear();
  succ_.clear();
  // The start is a root like a wall corner when it sits on a mesh vertex, so that bending there
  // later is pruned; its nodes come from every polygon around it (touching_polygons), never
  // through an edge it lies on: such an edge leads into another of those polygons, and a
  // search entering the fan around a vertex that way would go round it for ever.
  const int start_vid = vertex_at(r.start, start_polys_);
  if (start_vid >= 0) {
    root_stamp_[static_cast<size_t>(start_vid)] = stamp_;
    root_g_[static_cast<size_t>(start_vid)] = 0.0;
  }
  for (const int p : start_polys_) push_all(-1, p, nullptr, r.start, start_vid, 0.0);
  to_heap();
  int goal_node = -1;
  while (!open_->empty() && goal_node < 0) {
    int id = open_->pop().node();
    {
      const INode& n = inodes_[static_cast<size_t>(id)];
      // A root reached more cheaply since this node was pushed.
      if (n.root_vid >= 0 && root_stamp_[static_cast<size_t>(n.root_vid)] == stamp_ &&
          root_g_[static_cast<size_t>(n.root_vid)] < n.g) {
        continue;
      }
      if (trace) r.trace.push_back(NavTraceEvent{n.poly, n.portal, NavTraceEvent::close, static_cast<float>(n.g), static_cast<float>(n.f)});
      if (goal_mark_[static_cast<size_t>(n.poly)] == stamp_) {  // f is exact here: root, the taut point of the interval, goal
        goal_node = id;
        r.length = n.f;
        break;
      }
    }
    // Walk on without the open list while a node has exactly one successor with the same root
    // (Polyanya's intermediate pruning; corridors are mostly chains of such nodes). Expanding a
    // node early cannot cost optimality: the goal is accepted only off the open list, with the
    // smallest f, so a successor in the goal polygon always goes there; and a corner reached
    // early at a higher g is taken over (root_improves) when a cheaper route arrives.
    for (;;) {
      ++r.expanded;
      if (over_budget(meter, node_cap, r)) return;
      succ_.clear();
      expand(id);
      if (succ_.size() != 1) break;
      const INode& c = inodes_[static_cast<size_t>(succ_.front())];
      if (goal_mark_[static_cast<size_t>(c.poly)] == stamp_ || c.root_vid != inodes_[static_cast<size_t>(id)].root_vid) break;
      id = succ_.front();
      if (trace) r.trace.push_back(NavTraceEvent{c.poly, c.portal, NavTraceEvent::close, static_cast<float>(c.g), static_cast<float>(c.f)});
    }
    to_heap();
  }
  if (goal_node < 0) {
    r.reason = unreachable_reason();
    return;
  }
  std::vector<std::pair<int, int>>& chain = chain_;
  chain.clear();
  for (int id = goal_node; id >= 0; id = inodes_[static_cast<size_t>(id)].parent) {
    chain.emplace_back(inodes_[static_cast<size_t>(id)].portal, inodes_[static_cast<size_t>(id)].poly);
  }
  std::reverse(chain.begin(), chain.end());
  // The polygon the first crossing leaves: one of the polygons around the start.
  const NavPortal& first = mesh_->portals()[static_cast<size_t>(chain.front().first)];
  fill_corridor(first.poly_a == chain.front().second ? first.poly_b : first.poly_a, chain, r);
  r.found = true;
}

}  // namespace pathlab
