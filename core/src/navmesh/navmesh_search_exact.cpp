// The exact navmesh search: A* over (root, interval) nodes in the manner of Polyanya (Cui,
// Harabor, Grastien 2017, "Compromise-free Pathfinding on a Navigation Mesh", IJCAI). Each
// expansion is a named step: the start's seeds, a node whose root lies on its entry edge's
// line (expand_collinear), the ordinary cone (expand_cone), the chain of lone successors.

#include <algorithm>
#include <cmath>

#include "navmesh/navmesh_search_internal.hpp"

namespace pathlab {
namespace {

// Intervals shorter than this carry no path worth having; they only arise from rounding
// where a cone grazes a vertex. [Units: cells]
constexpr double kMinInterval = 1e-12;

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

/// The sub-range of [lo, hi] within [0, 1] where A + s B >= 0; empty when hi - lo <= 0 on
/// return (with lo, hi starting within [0, 1]). Without branches: which side of a ray an edge
/// lies on is a coin toss to the branch predictor, and a mispredicted branch costs more than
/// the division. Whenever the range is not empty, lo and hi are exactly what the branching
/// form (return early when s = 0 and s = 1 agree) gives: for B > 0 and A >= 0, -A / B <= 0
/// leaves lo alone; for B < 0 and A + B >= 0, -A / B >= 1 leaves hi alone (division rounds
/// monotonically); B == 0 with A < 0 empties the range.
inline __attribute__((always_inline)) void keep_nonnegative(double A, double B, double& lo, double& hi) {
  const double s = -A / B;  // inf or NaN when B == 0: then neither end moves
  lo = B > 0.0 && s > lo ? s : lo;
  hi = B < 0.0 && s < hi ? s : hi;
  hi = B == 0.0 && A < 0.0 ? lo - 1.0 : hi;
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

double NavmeshSearchWorkspace::f_of(const INode& n) const {
  // g plus the exact shortest length from the root through the interval to the goal (p0 -> p1
  // runs along the entry edge of n.poly's ring). One formula for the open list and the trace.
  return n.g + through_length(n.root, goal_, n.p0, n.p1, pedge_dir_[static_cast<size_t>(n.entry)]);
}

// Pushes the node (root, [q0, q1] on portal edge pe of the polygon being expanded, u -> w).
__attribute__((always_inline)) inline void NavmeshSearchWorkspace::push(int parent, Vec2 root, int root_vid, double g,
                                                                        Vec2 q0, Vec2 q1, const PortalEdge& pe,
                                                                        NavSearchResult& r) {
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
  // Into the successor buffer, small and hot: a lone successor walked through on the spot
  // (expand_chain) never reaches inodes_, and f waits for the open list (successors_to_heap).
  succ_.push_back(n);
  ++r.generated;
  if (trace_) {
    r.trace.push_back(NavTraceEvent{pe.poly, portal_of(pe), NavTraceEvent::open, static_cast<float>(g), static_cast<float>(f_of(n))});
  }
}

bool NavmeshSearchWorkspace::root_improves(int v, double g) {
  const size_t i = static_cast<size_t>(v);
  if (root_stamp_[i] == stamp_ && root_g_[i] <= g) return false;
  root_stamp_[i] = stamp_;
  root_g_[i] = g;
  return true;
}

// Every portal edge of polygon `poly` except `skip`, whole, as seen from `root`; never into a
// dead tree without the goal.
void NavmeshSearchWorkspace::push_all(int parent, int poly, const PortalEdge* skip, Vec2 root, int root_vid, double g,
                                      NavSearchResult& r) {
  const auto [first, last] = portal_edges(poly);
  for (const PortalEdge* pe = first; pe != last; ++pe) {
    if (pe == skip || leads_nowhere(*pe)) continue;
    // From the start, an edge through the start leads into a polygon the search started in.
    if (g == 0.0 && detail::on_segment(root, pe->u, pe->w)) continue;
    push(parent, root, root_vid, g, pe->u, pe->w, *pe, r);
  }
}

void NavmeshSearchWorkspace::seed_start(NavSearchResult& r) {
  // The start is a root like a wall corner when it sits on a mesh vertex, so that bending there
  // later is pruned; its nodes come from every polygon around it (touching_polygons), never
  // through an edge it lies on: such an edge leads into another of those polygons, and a
  // search entering the fan around a vertex that way would go round it for ever.
  const int start_vid = vertex_at(r.start, start_polys_);
  if (start_vid >= 0) {
    root_stamp_[static_cast<size_t>(start_vid)] = stamp_;
    root_g_[static_cast<size_t>(start_vid)] = 0.0;
  }
  for (const int p : start_polys_) push_all(-1, p, nullptr, r.start, start_vid, 0.0, r);
}

__attribute__((always_inline)) inline void NavmeshSearchWorkspace::expand(int id, const INode& n, NavSearchResult& r) {
  const PortalEdge& entry = pedges_[static_cast<size_t>(n.entry)];
  const Vec2 ab = entry.w - entry.u, ra = n.root - entry.u;
  const double side = cross(ab, ra);  // < 0: the root is behind the entry edge, as it should be
  // On the line: side >= -1e-12 |ab| max(1, |rt - a|), squared to spare two square roots.
  if (side >= 0.0 || side * side <= 1e-24 * glm::dot(ab, ab) * std::max(1.0, glm::dot(ra, ra))) {
    expand_collinear(id, n, entry, r);
  } else {
    expand_cone(id, n, entry, r);
  }
}

void NavmeshSearchWorkspace::expand_collinear(int id, const INode& n, const PortalEdge& entry, NavSearchResult& r) {
  // The root lies on the entry edge's line: from a point of the interval all of the polygon is
  // visible; from beyond it the path runs along the line to the interval's nearer end and may
  // bend there only if that end is a wall corner.
  const Vec2 a = entry.u, b = entry.w, ab = b - a, rt = n.root;
  const double l2 = glm::dot(ab, ab);
  const double tr = glm::dot(rt - a, ab) / l2;
  const double t0 = glm::dot(n.p0 - a, ab) / l2, t1 = glm::dot(n.p1 - a, ab) / l2;
  const double tol = 1e-12 * std::max(1.0, std::abs(tr));
  if (tr >= t0 - tol && tr <= t1 + tol) {
    push_all(id, n.poly, &entry, rt, n.root_vid, n.g, r);
    return;
  }
  const bool before = tr < t0;
  const Vec2 x = before ? n.p0 : n.p1;
  const int xv = before ? entry.u_corner : entry.w_corner;
  if (x == (before ? a : b) && xv >= 0) {
    const double g = n.g + glm::length(x - rt);
    if (root_improves(xv, g)) push_all(id, n.poly, &entry, x, xv, g, r);
  }
}

__attribute__((always_inline)) inline void NavmeshSearchWorkspace::expand_cone(int id, const INode& n, const PortalEdge& entry,
                                                                               NavSearchResult& r) {
  // The cone from the root through [p0, p1]: q is inside when it is counter-clockwise of
  // root -> p1 and clockwise of root -> p0 (the polygon lies on the left of u -> w).
  const Vec2 rt = n.root, d1 = n.p1 - rt, d0 = n.p0 - rt;
  // A wall corner at either end of the interval, where the path may bend to see past the
  // cone; whether bending there improves on the corner's best root is asked once.
  struct Bend {
    bool possible = false;
    Vec2 at;
    int vertex = -1;
    double g = 0.0;
    bool checked = false, improves = false;
  };
  Bend bend_a{entry.u_corner >= 0 && n.p0 == entry.u, entry.u, entry.u_corner};
  Bend bend_b{entry.w_corner >= 0 && n.p1 == entry.w, entry.w, entry.w_corner};
  // The part of edge [u, w] beyond the ray through one interval end (the side where
  // A + t B < 0), seen only by bending at that end's corner.
  auto push_beyond = [&](Bend& c, double A, double B, const PortalEdge& pe) __attribute__((always_inline)) {
    if (!c.possible) return;
    double lo = 0.0, hi = 1.0;
    keep_nonnegative(-A, -B, lo, hi);
    if ((hi - lo) * pe.len <= kMinInterval) return;
    if (!c.checked) {
      c.g = n.g + glm::length(c.at - rt);
      c.improves = root_improves(c.vertex, c.g);
      c.checked = true;
    }
    if (c.improves) push(id, c.at, c.vertex, c.g, at(pe.u, pe.w, lo, pe.len), at(pe.u, pe.w, hi, pe.len), pe, r);
  };
  // The other portal edges, in ring order from the entry edge on (the order successors are
  // generated in breaks ties between equal f).
  const auto [first, last] = portal_edges(n.poly);
  const PortalEdge* pe_ptr = &entry;
  for (ptrdiff_t i = 1, count = last - first; i < count; ++i) {
    if (++pe_ptr == last) pe_ptr = first;
    const PortalEdge& pe = *pe_ptr;
    if (leads_nowhere(pe)) continue;
    const Vec2 u = pe.u, w = pe.w;
    const double A1 = cross(d1, u - rt), B1 = cross(d1, w - u);
    const double A0 = -cross(d0, u - rt), B0 = -cross(d0, w - u);
    // Visible part.
    double lo = 0.0, hi = 1.0;
    keep_nonnegative(A1, B1, lo, hi);
    keep_nonnegative(A0, B0, lo, hi);
    if ((hi - lo) * pe.len > kMinInterval) push(id, rt, n.root_vid, n.g, at(u, w, lo, pe.len), at(u, w, hi, pe.len), pe, r);
    // Beyond the ray through p1 (bending at w), then beyond the ray through p0 (at u).
    push_beyond(bend_b, A1, B1, pe);
    push_beyond(bend_a, A0, B0, pe);
  }
}

void NavmeshSearchWorkspace::successors_to_heap() {
  for (const INode& n : succ_) {
    const int id = static_cast<int>(inodes_.size());
    inodes_.push_back(n);
    open_.push(detail::HeapEntry(f_of(n), n.g, id));
  }
}

bool NavmeshSearchWorkspace::expand_chain(INode n, NavSearchResult& r) {
  // Walk on without the open list while a node has exactly one successor (Polyanya's
  // intermediate pruning; corridors are mostly chains of such nodes), whether or not it bends
  // at a new root: in a maze every turn is a new root, and sending those through the open list
  // cost maze512-1-0 40% of its time. Expanding a node early cannot cost optimality: the goal is accepted only off the open list, with the
  // smallest f, so a successor in a goal polygon always goes there; and a corner reached
  // early at a higher g is taken over (root_improves) when a cheaper route arrives. Each node
  // expanded leaves a crumb (parent crumb, portal edge, polygon) for the corridor; the node
  // itself stays in a local.
  for (;;) {
    ++r.expanded;
    if (over_budget(r)) return false;
    const int crumb = static_cast<int>(crumbs_.size());
    crumbs_.push_back(Crumb{n.parent, n.entry, n.poly});
    succ_.clear();
    expand(crumb, n, r);
    if (succ_.size() != 1) return true;
    const INode& c = succ_.front();
    if (is_goal_polygon(c.poly)) return true;
    if (trace_) {
      r.trace.push_back(NavTraceEvent{c.poly, pedge_portal_[static_cast<size_t>(c.entry)], NavTraceEvent::close,
                                      static_cast<float>(c.g), static_cast<float>(f_of(c))});
    }
    n = c;
  }
}

void NavmeshSearchWorkspace::search_exact(NavSearchResult& r) {
  inodes_.clear();
  crumbs_.clear();
  open_.clear();
  succ_.clear();
  seed_start(r);
  successors_to_heap();
  while (!open_.empty()) {
    const INode n = inodes_[static_cast<size_t>(open_.pop().node())];
    // A root reached more cheaply since this node was pushed.
    if (n.root_vid >= 0 && root_stamp_[static_cast<size_t>(n.root_vid)] == stamp_ &&
        root_g_[static_cast<size_t>(n.root_vid)] < n.g) {
      continue;
    }
    if (trace_) {
      r.trace.push_back(NavTraceEvent{n.poly, pedge_portal_[static_cast<size_t>(n.entry)], NavTraceEvent::close,
                                      static_cast<float>(n.g), static_cast<float>(f_of(n))});
    }
    if (is_goal_polygon(n.poly)) {  // f is exact here: root, the taut point of the interval, goal
      r.length = f_of(n);
      exact_corridor(n, r);
      return;
    }
    if (!expand_chain(n, r)) return;
    successors_to_heap();
  }
  r.reason = unreachable_reason();
}

void NavmeshSearchWorkspace::exact_corridor(const INode& goal_node, NavSearchResult& r) {
  chain_.clear();
  chain_.emplace_back(pedge_portal_[static_cast<size_t>(goal_node.entry)], goal_node.poly);
  for (int id = goal_node.parent; id >= 0; id = crumbs_[static_cast<size_t>(id)].parent) {
    const Crumb& c = crumbs_[static_cast<size_t>(id)];
    chain_.emplace_back(pedge_portal_[static_cast<size_t>(c.entry)], c.poly);
  }
  std::reverse(chain_.begin(), chain_.end());
  // The polygon the first crossing leaves: one of the polygons around the start.
  const NavPortal& first = mesh_->portals()[static_cast<size_t>(chain_.front().first)];
  fill_corridor(first.poly_a == chain_.front().second ? first.poly_b : first.poly_a, r);
  r.found = true;
}

}  // namespace pathlab
