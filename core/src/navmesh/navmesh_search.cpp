// NavmeshQuery: resolving query points, one query's set-up and limits, the corridor, and the
// portal-points cost. The exact cost is in navmesh_search_exact.cpp, the per-mesh tables in
// navmesh_search_tables.cpp.

#include "pathlab/navmesh_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "navmesh/navmesh_search_internal.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {

NavmeshQuery::NavmeshQuery(const Navmesh& mesh) : ws_(std::make_unique<NavmeshSearchWorkspace>(mesh)) {}
NavmeshQuery::~NavmeshQuery() = default;
NavmeshQuery::NavmeshQuery(NavmeshQuery&&) noexcept = default;
NavmeshQuery& NavmeshQuery::operator=(NavmeshQuery&&) noexcept = default;
void NavmeshQuery::reset(const Navmesh& mesh) { ws_->reset(mesh); }
Result<NavPoint> NavmeshQuery::resolve(Vec2 p, const std::string& what) const { return ws_->resolve(p, what); }
Result<NavSearchResult> NavmeshQuery::find_corridor(Vec2 start, Vec2 goal, const NavQueryOptions& options) {
  return ws_->find_corridor(start, goal, options);
}

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
  // A min-heap on f; among equal f the deeper node (larger g) first, then the lower node
  // number: a total order, so ties do not depend on the standard library's heap layout.
  template <class E>
  bool operator()(const E& x, const E& y) const {
    if (x.f != y.f) return x.f > y.f;
    if (x.g != y.g) return x.g < y.g;
    return x.node > y.node;
  }
};

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

Result<NavPoint> NavmeshSearchWorkspace::resolve(Vec2 p, const std::string& what) const {
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
      if (mesh_->def().pinch_points_are_wall) {
        return fail(StatusCode::blocked, where() + " is a pinch point: two blocked cells touch only at their corners there, "
                                                   "which counts as wall (no path may pass through it)");
      }
      // The competition's convention: a valid end, left through either free cell beside it.
      if (out.polygon >= 0) return out;
      if (snap_from_pinch_point(p, out)) return out;
      return fail(StatusCode::blocked, where() + " (a pinch point) has no navmesh point within reach for agent radius " +
                                           std::to_string(mesh_->agent_radius()));
    }
    return fail(StatusCode::blocked, where() + " is inside a wall");
  }
  if (out.polygon >= 0) return out;
  if (!snap_to_mesh(p, out)) {
    return fail(StatusCode::blocked, where() + " has no navmesh point within reach for agent radius " +
                                         std::to_string(mesh_->agent_radius()));
  }
  return out;
}

std::vector<Vec2> NavmeshSearchWorkspace::pinch_exits(Vec2 p) const {
  // Points a hair inside each free cell beside the pinch point p, on its diagonal.
  constexpr double kNudge = 1e-7;  // [Units: cells]
  std::vector<Vec2> out;
  const int x = static_cast<int>(p.x), y = static_cast<int>(p.y);
  for (const int dy : {-1, 0})
    for (const int dx : {-1, 0})
      if (mesh_->grid().is_free(x + dx, y + dy)) out.push_back(p + kNudge * Vec2(dx == 0 ? 1.0 : -1.0, dy == 0 ? 1.0 : -1.0));
  return out;
}

bool NavmeshSearchWorkspace::snap_from_pinch_point(Vec2 p, NavPoint& out) const {
  // With an agent radius the pinch point lies in the removed band: snap from just inside each
  // free cell beside it and keep the nearer result.
  bool found = false;
  double best = 0.0;
  for (const Vec2 q : pinch_exits(p)) {
    NavPoint cand;
    if (!snap_to_mesh(q, cand)) continue;
    const double d = glm::length(cand.pos - p);
    if (!found || d < best) out = cand, best = d, found = true;
  }
  return found;
}

bool NavmeshSearchWorkspace::snap_to_mesh(Vec2 p, NavPoint& out) const {
  // In the band the radius removed: the nearest mesh point a straight segment reaches.
  const auto& polys = mesh_->polygons();
  std::vector<std::pair<double, int>> cand;
  cand.reserve(polys.size());
  for (size_t i = 0; i < polys.size(); ++i) {
    if (polys[i].unused()) continue;
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
    if (d2 < best && segment_clear(mesh_->grid(), p, q, 0.0)) {
      best = d2;
      out.pos = q;
      out.polygon = id;
    }
  }
  out.snapped = out.polygon >= 0;
  return out.snapped;
}

Result<NavSearchResult> NavmeshSearchWorkspace::find_corridor(Vec2 start, Vec2 goal, const NavQueryOptions& options) {
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
  if (stale()) reset(*mesh_);
  begin_query(*s, *t, r);
  for (const int p : start_polys_)
    if (is_goal_polygon(p)) return straight(p, r);
  if (!same_component()) {
    r.reason = unreachable_reason();
    return r;
  }
  meter_ = BudgetMeter(*budget);
  node_cap_ = options.max_nodes > 0 ? options.max_nodes
                                    : kNavNodesPerPortalEdge * pedge_live_ + kNavMinNodeCap;
  trace_ = options.record_trace;
  if (options.cost == NavSearchCost::exact) {
    search_exact(r);
  } else {
    search_portal_points(*s, r);
  }
  return r;
}

void NavmeshSearchWorkspace::begin_query(const NavPoint& s, const NavPoint& t, NavSearchResult& r) {
  if (++stamp_ == 0) {  // wrapped: forget every stamp
    for (Node& n : nodes_) n.stamp = 0;
    std::fill(root_stamp_.begin(), root_stamp_.end(), 0u);
    std::fill(goal_mark_.begin(), goal_mark_.end(), 0u);
    std::fill(goal_side_.begin(), goal_side_.end(), 0u);
    stamp_ = 1;
  }
  heap_.clear();
  goal_ = r.goal;
  goal_poly_ = t.polygon;
  // An end on a polygon's edge or vertex lies in every polygon around that point: the search
  // starts from all of them and ends in any of them.
  touching_polygons(r.start, s.polygon, start_polys_, start_alt_);
  touching_polygons(r.goal, t.polygon, goal_polys_, goal_alt_);
  for (const int p : goal_polys_) goal_mark_[static_cast<size_t>(p)] = stamp_;
  // The dead trees the search may enter: those holding the goal polygon or a pinch-point
  // goal's other seed, i.e. their ancestors in the peeled forest (a walk up a few parents
  // per query instead of numbering the whole forest per edit).
  for (const int g : {goal_poly_, goal_alt_[0], goal_alt_[1]})
    for (int q = g; q >= 0 && goal_side_[static_cast<size_t>(q)] != stamp_; q = tree_parent_[static_cast<size_t>(q)])
      goal_side_[static_cast<size_t>(q)] = stamp_;
}

void NavmeshSearchWorkspace::stop_search(BudgetStop stop, NavSearchResult& r) const {
  r.budget_exhausted = true;
  r.budget_stop = stop;
  r.node_cap_reached = stop == BudgetStop::none;
  switch (stop) {
    case BudgetStop::expansions:
      r.reason = "budget_exhausted: expansions (gave up after " + std::to_string(meter_.expansions() - 1) + " expansions)";
      break;
    case BudgetStop::time:
      r.reason = "budget_exhausted: time (gave up after " + std::to_string(meter_.elapsed_ms()) + " ms)";
      break;
    case BudgetStop::cancelled: r.reason = "budget_exhausted: cancelled"; break;
    case BudgetStop::none:
      r.reason = "budget_exhausted: nodes (gave up after creating " + std::to_string(r.generated) +
                 " search nodes, the cap for this query)";
      break;
  }
}

std::string NavmeshSearchWorkspace::unreachable_reason() const {
  return "the goal is not reachable from the start for agent radius " + std::to_string(mesh_->agent_radius());
}

Result<NavSearchResult> NavmeshSearchWorkspace::straight(int poly, NavSearchResult& r) const {
  r.found = true;
  r.corridor.polygons.push_back(poly);
  r.length = glm::length(r.goal - r.start);
  return std::move(r);
}

bool NavmeshSearchWorkspace::same_component() const {
  for (const int a : start_polys_)
    for (const int b : goal_polys_)
      if (component_of(a) == component_of(b)) return true;
  return false;
}

void NavmeshSearchWorkspace::touching_polygons(Vec2 p, int poly, std::vector<int>& out, int (&pinch_seeds)[2]) const {
  // Breadth first over portal edges that p lies on: one polygon for an interior point, two
  // for a point on a portal, the whole fan around a vertex. A pinch point (accepted by the
  // competition's convention) has a fan on each free side, not joined by any portal: the
  // polygons just inside each free cell seed the search too.
  out.clear();
  out.push_back(poly);
  pinch_seeds[0] = pinch_seeds[1] = -1;
  if (!mesh_->def().pinch_points_are_wall && is_pinch_point(mesh_->grid(), p)) {
    int seeds = 0;
    for (const Vec2 q : pinch_exits(p)) {
      const int other = mesh_->locate(q);
      if (other >= 0 && seeds < 2 && mesh_->contains(other, p) && std::find(out.begin(), out.end(), other) == out.end()) {
        out.push_back(other);
        pinch_seeds[seeds++] = other;
      }
    }
  }
  for (size_t i = 0; i < out.size(); ++i) {
    const auto [first, last] = portal_edges(out[i]);
    for (const PortalEdge* e = first; e != last; ++e) {
      if (detail::on_segment(p, e->u, e->w) && std::find(out.begin(), out.end(), e->poly) == out.end()) {
        out.push_back(e->poly);
      }
    }
  }
}

int NavmeshSearchWorkspace::vertex_at(Vec2 p, const std::vector<int>& polys) const {
  for (const int poly : polys) {
    const NavPolygon& P = mesh_->polygons()[static_cast<size_t>(poly)];
    for (int k = P.first; k < P.first + P.count; ++k)
      if (mesh_->ring_vertices()[static_cast<size_t>(k)] == p) return mesh_->ring_vertex_ids()[static_cast<size_t>(k)];
  }
  return -1;
}

void NavmeshSearchWorkspace::fill_corridor(int start_poly, NavSearchResult& r) const {
  const auto& portals = mesh_->portals();
  NavCorridor& c = r.corridor;
  c.polygons.reserve(chain_.size() + 1);
  c.portal_ids.reserve(chain_.size());
  c.portals.reserve(chain_.size());
  c.polygons.push_back(start_poly);
  for (const auto& [pid, entered] : chain_) {
    const NavPortal& p = portals[static_cast<size_t>(pid)];
    // Crossing from poly_a (whose ring runs a -> b with its interior on the left): b is on
    // the traveller's left.
    const bool forward = entered == p.poly_b;
    c.portal_ids.push_back(pid);
    c.portals.push_back(forward ? FunnelPortal{p.b, p.a} : FunnelPortal{p.a, p.b});
    c.polygons.push_back(entered);
  }
}

// --- Portal-points cost: two nodes per portal, one per direction of crossing (2 * pid: into
// poly_b), and the goal (2 * portal count).

void NavmeshSearchWorkspace::pp_relax(int id, int parent, int poly, Vec2 pt, double g, NavSearchResult& r) {
  Node& n = nodes_[static_cast<size_t>(id)];
  if (n.stamp == stamp_ && g >= n.g) return;
  n.stamp = stamp_;
  n.g = g;
  n.f = g + glm::length(goal_ - pt);
  n.pt = pt;
  n.parent = parent;
  n.poly = poly;
  n.closed = false;
  heap_.push_back(HeapEntry{n.f, g, id});
  std::push_heap(heap_.begin(), heap_.end(), HeapLess{});
  ++r.generated;
  if (trace_) {
    const int goal_node = 2 * static_cast<int>(mesh_->portals().size());
    r.trace.push_back(NavTraceEvent{poly, id < goal_node ? id / 2 : -1, NavTraceEvent::open, static_cast<float>(g),
                                    static_cast<float>(n.f)});
  }
}

void NavmeshSearchWorkspace::pp_expand(int poly, int came_by, Vec2 from, double g, NavSearchResult& r) {
  const auto& portals = mesh_->portals();
  const auto& plist = mesh_->polygon_portals();
  const NavPolygon& P = mesh_->polygons()[static_cast<size_t>(poly)];
  for (int k = P.first_portal; k < P.first_portal + P.portal_count; ++k) {
    const int pid = plist[static_cast<size_t>(k)];
    if (came_by >= 0 && pid == came_by / 2) continue;
    const NavPortal& pt = portals[static_cast<size_t>(pid)];
    if (leads_nowhere_any_goal(poly, pt.poly_a == poly ? pt.poly_b : pt.poly_a)) continue;
    const Vec2 x = taut_point(from, goal_, pt.a, pt.b);
    const bool forward = pt.poly_a == poly;
    pp_relax(2 * pid + (forward ? 0 : 1), came_by, forward ? pt.poly_b : pt.poly_a, x, g + glm::length(x - from), r);
  }
  if (poly == goal_poly_ || poly == goal_alt_[0] || poly == goal_alt_[1]) pp_relax(2 * static_cast<int>(portals.size()), came_by, poly, goal_, g + glm::length(goal_ - from), r);
}

void NavmeshSearchWorkspace::search_portal_points(const NavPoint& s, NavSearchResult& r) {
  const int goal_node = 2 * static_cast<int>(mesh_->portals().size());
  pp_expand(s.polygon, -1, r.start, 0.0, r);
  for (const int p : start_alt_)  // a pinch-point start leaves through either free cell
    if (p >= 0 && p != s.polygon) pp_expand(p, -1, r.start, 0.0, r);
  bool found = false;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), HeapLess{});
    const HeapEntry e = heap_.back();
    heap_.pop_back();
    Node& n = nodes_[static_cast<size_t>(e.node)];
    if (n.closed || e.g != n.g) continue;  // stale entry
    n.closed = true;
    if (trace_) {
      r.trace.push_back(NavTraceEvent{n.poly, e.node < goal_node ? e.node / 2 : -1, NavTraceEvent::close,
                                      static_cast<float>(n.g), static_cast<float>(n.f)});
    }
    if (e.node == goal_node) {
      found = true;
      break;
    }
    ++r.expanded;
    if (over_budget(r)) return;
    pp_expand(n.poly, e.node, n.pt, n.g, r);
  }
  if (!found) {
    r.reason = unreachable_reason();
    return;
  }
  chain_.clear();
  for (int id = nodes_[static_cast<size_t>(goal_node)].parent; id >= 0; id = nodes_[static_cast<size_t>(id)].parent) {
    chain_.emplace_back(id / 2, nodes_[static_cast<size_t>(id)].poly);
  }
  std::reverse(chain_.begin(), chain_.end());
  // The polygon the path left the start from: s's own, or the other side of a pinch point.
  int first_poly = nodes_[static_cast<size_t>(goal_node)].poly;
  if (!chain_.empty()) {
    const NavPortal& first = mesh_->portals()[static_cast<size_t>(chain_.front().first)];
    first_poly = first.poly_a == chain_.front().second ? first.poly_b : first.poly_a;
  }
  fill_corridor(first_poly, r);
  r.found = true;
}

}  // namespace pathlab
