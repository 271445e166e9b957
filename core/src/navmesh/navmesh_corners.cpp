// The wall-corner triangulation (NavmeshDef::corners_only): the free area's triangles with
// vertices only where walls turn, as in Polyanya's meshes (Cui, Harabor, Grastien 2017,
// "Compromise-free Pathfinding on a Navigation Mesh", IJCAI: a constrained Delaunay
// triangulation merged into convex polygons). Built here without a general triangulator: the
// rectangles are already a valid subdivision, so each is cut into triangles, the vertices a
// shortest path can never bend at are removed one by one (their star re-triangulated by ear
// clipping), and Lawson's edge flips keep the triangles Delaunay throughout (Lawson, "Software
// for C1 surface interpolation", 1977; vertex removal as in Devillers, "On deletion in
// Delaunay triangulations", 2002, with plain ears and flips instead of Delaunay ears).

#include "navmesh/navmesh_corners.hpp"

#include <array>
#include <cmath>

namespace pathlab::detail {
namespace {

/// a + b as an unevaluated sum hi + lo, exactly (Knuth's two-sum).
inline void two_sum(double a, double b, double& hi, double& lo) {
  hi = a + b;
  const double bv = hi - a, av = hi - bv;
  lo = (a - av) + (b - bv);
}

/// c0 + c1 s + c2 s^2 for integers c0, c1, c2 (below 2^53): the plain value when it is clearly
/// away from 0, else a value of the exact sign, from an exact expansion of the sum (products
/// split by fma, then Shewchuk's grow-expansion: "Adaptive Precision Floating-Point Arithmetic
/// and Fast Robust Geometric Predicates", 1997). 0 exactly when the true value is 0.
double exact_value(double c0, double c1, double c2, double s) {
  // Only c0 left (agent radius 0, or no k + sigma s term differs): an integer, exact as it is.
  // Collinear points (c0 = 0) are common on a grid and took the expansion below every time.
  if (s == 0.0 || (c1 == 0.0 && c2 == 0.0)) return c0;
  const double approx = c0 + s * (c1 + s * c2);
  const double bound = 1e-14 * (std::abs(c0) + std::abs(s * c1) + std::abs(s * s * c2));
  if (std::abs(approx) > bound) return approx;
  const double p1 = c1 * s, e1 = std::fma(c1, s, -p1);
  const double ss = s * s, es = std::fma(s, s, -ss);
  const double p2 = c2 * ss, e2 = std::fma(c2, ss, -p2);
  const double p3 = c2 * es, e3 = std::fma(c2, es, -p3);
  const double terms[] = {c0, p1, e1, p2, e2, p3, e3};
  // A nonoverlapping expansion in increasing magnitude: its largest nonzero part has the sign.
  double h[8] = {};
  size_t n = 0;
  for (const double b : terms) {
    double q = b;
    for (size_t i = 0; i < n; ++i) two_sum(q, h[i], q, h[i]);
    h[n++] = q;
  }
  for (size_t i = n; i-- > 0;)
    if (h[i] != 0.0) return h[i];
  return 0.0;
}

/// A triangulation with adjacency: triangle t has vertices v[t] counter-clockwise and, across
/// edge i (v[t][i] -> v[t][i + 1]), the triangle n[t][i] or -1 for a wall.
class Triangulation {
 public:
  Triangulation(const std::vector<Vec2>& pos, const std::vector<ExactCoord>& exact, double s)
      : pos_(pos), ex_(exact), s_(s), vert_tri_(pos.size(), -1) {}

  /// Cuts one convex ring (collinear vertices allowed) into triangles; adjacency comes later.
  void add_convex_ring(const int* ring, size_t n);
  /// Finds every triangle's neighbours from the shared edges; an edge without a twin is a wall.
  void link();
  /// Flips every edge that is not locally Delaunay, then removes each vertex in `removable`.
  void make_delaunay();
  /// Removes every vertex that is not a wall corner, keeping the triangles Delaunay.
  void remove_vertices();
  /// The live triangles, numbered in order, with the triangle across each edge.
  LinkedRings output() const;

 private:
  /// Orientation of a -> b -> c, exactly (> 0: counter-clockwise). k + sigma s differences
  /// multiply into c0 + c1 s + c2 s^2 with integer c0, c1, c2; its sign comes from
  /// exact_value: a 1e-9 lane (an agent that exactly fits a gap) has orientations of 1e-18.
  double orient(int a, int b, int c) const {
    const ExactCoord &A = ex_[static_cast<size_t>(a)], &B = ex_[static_cast<size_t>(b)], &C = ex_[static_cast<size_t>(c)];
    const int64_t x1 = B.kx - A.kx, y1 = B.ky - A.ky, x2 = C.kx - A.kx, y2 = C.ky - A.ky;
    const int64_t u1 = B.sx - A.sx, v1 = B.sy - A.sy, u2 = C.sx - A.sx, v2 = C.sy - A.sy;
    const int64_t c0 = x1 * y2 - y1 * x2, c1 = x1 * v2 + u1 * y2 - y1 * u2 - v1 * x2, c2 = u1 * v2 - v1 * u2;
    return exact_value(static_cast<double>(c0), static_cast<double>(c1), static_cast<double>(c2), s_);
  }
  /// d lies inside the circle through a, b, c (counter-clockwise) by more than rounding: a flip
  /// is made only when it surely improves, so the flips end.
  bool in_circle(int a, int b, int c, int d) const;
  bool in_triangle(int a, int b, int c, int x) const {
    // The ears tested are a ring's (convex, or star-shaped around the removed vertex): its other
    // vertices lie beyond the ear's chord c -> a, so that test comes first and most end there.
    return orient(c, a, x) >= 0.0 && orient(a, b, x) >= 0.0 && orient(b, c, x) >= 0.0;
  }
  int index_of(int t, int v) const {
    const auto& a = v_[static_cast<size_t>(t)];
    return a[0] == v ? 0 : (a[1] == v ? 1 : 2);
  }
  int slot_of(int t, int a, int b) const {  // the edge a -> b of triangle t, or -1
    for (int i = 0; i < 3; ++i)
      if (v_[static_cast<size_t>(t)][static_cast<size_t>(i)] == a && v_[static_cast<size_t>(t)][static_cast<size_t>((i + 1) % 3)] == b)
        return i;
    return -1;
  }
  /// Points the triangle across edge a -> b of `t` (if any) back at `t`.
  void relink(int t, int i);
  /// Flips edge i of t when it is not locally Delaunay; true when it did.
  bool flip(int t, int i);
  void flip_pending();
  /// The triangles around v counter-clockwise and their outer vertices; false when v is on a
  /// wall, with the triangles from one wall edge to the other.
  bool star(int v, bool& closed);
  bool ear_clip();
  void remove(int v);

  const std::vector<Vec2>& pos_;
  const std::vector<ExactCoord>& ex_;
  double s_;
  std::vector<std::array<int, 3>> v_, n_;
  std::vector<uint8_t> dead_;
  std::vector<int> vert_tri_;
  std::vector<std::pair<int, int>> pending_;  // edges to check for flipping: (triangle, slot)
  // Scratch of remove(): the star (triangles, link polygon, the neighbour across each polygon
  // edge and its slot there), the ears (polygon index triples) and ear clipping's list.
  std::vector<int> star_t_, link_, outer_t_, outer_i_;
  std::vector<std::array<int, 3>> ears_;
  std::vector<int> prev_, next_;
  std::vector<int> ring_;  // add_convex_ring's ring being clipped
  struct Across {
    int t, slot;  // slot < 0: an old triangle (relinked by its edge), or a wall when t < 0
  };
  std::vector<Across> across_;  // remove()'s neighbour across each link polygon edge
};

void Triangulation::add_convex_ring(const int* ring, size_t n) {
  // Ears at strictly convex vertices whose triangle holds no other vertex (a collinear vertex on
  // the chord would be a T-junction); a convex ring always has one while three vertices are not
  // collinear.
  std::vector<int>& r = ring_;  // scratch kept across rings: a tile has hundreds of them
  r.assign(ring, ring + n);
  size_t i = 0, tries = 0;
  while (r.size() > 3 && tries < r.size()) {
    const size_t m = r.size(), p = (i + m - 1) % m, q = (i + 1) % m;
    bool ear = orient(r[p], r[i], r[q]) > 0.0;
    for (size_t k = 0; k < m && ear; ++k)
      if (k != p && k != i && k != q) ear = !in_triangle(r[p], r[i], r[q], r[k]);
    if (!ear) {
      i = (i + 1) % m;
      ++tries;
      continue;
    }
    v_.push_back({r[p], r[i], r[q]});
    r.erase(r.begin() + static_cast<std::ptrdiff_t>(i));
    i = i % r.size();
    tries = 0;
  }
  if (r.size() == 3 && orient(r[0], r[1], r[2]) > 0.0) v_.push_back({r[0], r[1], r[2]});
}

void Triangulation::link() {
  const size_t nt = v_.size(), nv = pos_.size();
  n_.assign(nt, {-1, -1, -1});
  dead_.assign(nt, 0);
  // Directed edges by start vertex; an edge's twin is the reverse edge.
  std::vector<int> first(nv + 1, 0);
  for (const auto& t : v_)
    for (const int a : t) ++first[static_cast<size_t>(a) + 1];
  for (size_t k = 0; k < nv; ++k) first[k + 1] += first[k];
  // Each directed edge's end vertex is kept beside its triangle, so the twin search reads one
  // contiguous list instead of a triangle per candidate.
  std::vector<int> fill(first.begin(), first.end() - 1), tri(3 * nt), to(3 * nt);
  for (size_t t = 0; t < nt; ++t)
    for (int i = 0; i < 3; ++i) {
      const size_t k = static_cast<size_t>(fill[static_cast<size_t>(v_[t][static_cast<size_t>(i)])]++);
      tri[k] = static_cast<int>(t);
      to[k] = v_[t][static_cast<size_t>((i + 1) % 3)];
    }
  for (size_t t = 0; t < nt; ++t) {
    for (int i = 0; i < 3; ++i) {
      const int a = v_[t][static_cast<size_t>(i)], b = v_[t][static_cast<size_t>((i + 1) % 3)];
      vert_tri_[static_cast<size_t>(a)] = static_cast<int>(t);
      for (int k = first[static_cast<size_t>(b) + 1]; k-- > first[static_cast<size_t>(b)];)  // the last match, as before
        if (to[static_cast<size_t>(k)] == a) {
          n_[t][static_cast<size_t>(i)] = tri[static_cast<size_t>(k)];
          break;
        }
    }
  }
}

bool Triangulation::in_circle(int a, int b, int c, int d) const {
  const Vec2 D = pos_[static_cast<size_t>(d)];
  const Vec2 A = pos_[static_cast<size_t>(a)] - D, B = pos_[static_cast<size_t>(b)] - D, C = pos_[static_cast<size_t>(c)] - D;
  const double la = glm::dot(A, A), lb = glm::dot(B, B), lc = glm::dot(C, C);
  const double bc = B.x * C.y - C.x * B.y, ca = C.x * A.y - A.x * C.y, ab = A.x * B.y - B.x * A.y;
  const double det = la * bc + lb * ca + lc * ab;
  // Most edges tested are Delaunay already (d outside, or on the circle: det <= 0), and the
  // margin below is never negative: no bound needed for them.
  if (!(det > 0.0)) return false;
  const double perm = la * (std::abs(B.x * C.y) + std::abs(C.x * B.y)) + lb * (std::abs(C.x * A.y) + std::abs(A.x * C.y)) +
                      lc * (std::abs(A.x * B.y) + std::abs(B.x * A.y));
  return det > 1e-12 * perm;
}

void Triangulation::relink(int t, int i) {
  const int o = n_[static_cast<size_t>(t)][static_cast<size_t>(i)];
  if (o < 0) return;
  const int a = v_[static_cast<size_t>(t)][static_cast<size_t>(i)], b = v_[static_cast<size_t>(t)][static_cast<size_t>((i + 1) % 3)];
  const int j = slot_of(o, b, a);
  if (j >= 0) n_[static_cast<size_t>(o)][static_cast<size_t>(j)] = t;
}

bool Triangulation::flip(int t, int i) {
  const size_t ts = static_cast<size_t>(t);
  const int o = n_[ts][static_cast<size_t>(i)];
  if (o < 0 || dead_[ts]) return false;
  const int a = v_[ts][static_cast<size_t>(i)], b = v_[ts][static_cast<size_t>((i + 1) % 3)], c = v_[ts][static_cast<size_t>((i + 2) % 3)];
  const int j = slot_of(o, b, a);
  if (j < 0) return false;
  const size_t os = static_cast<size_t>(o);
  const int d = v_[os][static_cast<size_t>((j + 2) % 3)];
  if (!in_circle(a, b, c, d) || orient(c, a, d) <= 0.0 || orient(d, b, c) <= 0.0) return false;
  const int n_ca = n_[ts][static_cast<size_t>((i + 2) % 3)], n_bc = n_[ts][static_cast<size_t>((i + 1) % 3)];
  const int n_ad = n_[os][static_cast<size_t>((j + 1) % 3)], n_db = n_[os][static_cast<size_t>((j + 2) % 3)];
  v_[ts] = {c, a, d};
  n_[ts] = {n_ca, n_ad, o};
  v_[os] = {d, b, c};
  n_[os] = {n_db, n_bc, t};
  relink(t, 0);
  relink(t, 1);
  relink(o, 0);
  relink(o, 1);
  vert_tri_[static_cast<size_t>(a)] = t;
  vert_tri_[static_cast<size_t>(c)] = t;
  vert_tri_[static_cast<size_t>(d)] = t;
  vert_tri_[static_cast<size_t>(b)] = o;
  pending_.emplace_back(t, 0);
  pending_.emplace_back(t, 1);
  pending_.emplace_back(o, 0);
  pending_.emplace_back(o, 1);
  return true;
}

void Triangulation::flip_pending() {
  // Each flip surely lowers the lifted surface (in_circle's margin), so this ends; the cap is
  // a guard against a bug turning into a hang.
  size_t budget = 64 * v_.size() + 1024;
  while (!pending_.empty() && budget > 0) {
    const auto [t, i] = pending_.back();
    pending_.pop_back();
    if (flip(t, i)) --budget;
  }
  pending_.clear();
}

void Triangulation::make_delaunay() {
  for (size_t t = 0; t < v_.size(); ++t)
    for (int i = 0; i < 3; ++i) pending_.emplace_back(static_cast<int>(t), i);
  flip_pending();
}

bool Triangulation::star(int v, bool& closed) {
  // Counter-clockwise around v: in (v, a, b) the next triangle lies across b -> v, the one
  // before across v -> a. On a wall the star runs from one wall edge to the other.
  star_t_.clear();
  link_.clear();
  outer_t_.clear();
  const int t0 = vert_tri_[static_cast<size_t>(v)];
  if (t0 < 0) return false;
  constexpr size_t kMaxStar = 256;  // a larger star keeps its vertex (ear clipping is cubic)
  int start = t0;
  closed = false;
  for (size_t guard = 0;; ++guard) {
    const int o = n_[static_cast<size_t>(start)][static_cast<size_t>(index_of(start, v))];
    if (o < 0) break;
    start = o;
    if (start == t0) {
      closed = true;
      break;
    }
    if (guard > kMaxStar) return false;
  }
  for (int t = start;;) {
    const size_t ts = static_cast<size_t>(t);
    const int i = index_of(t, v);
    if (link_.empty()) link_.push_back(v_[ts][static_cast<size_t>((i + 1) % 3)]);
    link_.push_back(v_[ts][static_cast<size_t>((i + 2) % 3)]);
    star_t_.push_back(t);
    outer_t_.push_back(n_[ts][static_cast<size_t>((i + 1) % 3)]);
    t = n_[ts][static_cast<size_t>((i + 2) % 3)];
    if (t < 0 || t == start) break;
    if (star_t_.size() > kMaxStar) return false;
  }
  if (closed) link_.pop_back();  // the first vertex again
  else outer_t_.push_back(-1);   // the polygon's closing edge is the straightened wall
  return true;
}

bool Triangulation::ear_clip() {
  // Ears of the link polygon (simple, and star-shaped from the removed vertex), as index triples.
  const size_t m = link_.size();
  ears_.clear();
  prev_.resize(m);
  next_.resize(m);
  for (size_t k = 0; k < m; ++k) {
    prev_[k] = static_cast<int>((k + m - 1) % m);
    next_[k] = static_cast<int>((k + 1) % m);
  }
  auto L = [&](int k) { return link_[static_cast<size_t>(k)]; };
  int i = 0;
  for (size_t left = m, tries = 0; left > 3;) {
    const int p = prev_[static_cast<size_t>(i)], q = next_[static_cast<size_t>(i)];
    bool ear = orient(L(p), L(i), L(q)) > 0.0;
    for (int k = next_[static_cast<size_t>(q)]; ear && k != p; k = next_[static_cast<size_t>(k)]) ear = !in_triangle(L(p), L(i), L(q), L(k));
    if (!ear) {
      if (++tries > left) return false;
      i = q;
      continue;
    }
    ears_.push_back({p, i, q});
    next_[static_cast<size_t>(p)] = q;
    prev_[static_cast<size_t>(q)] = p;
    --left;
    tries = 0;
    i = q;
  }
  const int p = prev_[static_cast<size_t>(i)], q = next_[static_cast<size_t>(i)];
  if (!(orient(L(p), L(i), L(q)) > 0.0)) return false;
  ears_.push_back({p, i, q});
  return true;
}

void Triangulation::remove(int v) {
  // The link polygon's edge k (from link_[k]) faces outer_t_[k] now; a new triangle's edge
  // along it takes that neighbour. A clipped ear (p, i, q) leaves the diagonal q -> p, which
  // then faces the ear's third edge.
  std::vector<Across>& across = across_;
  across.resize(link_.size());
  for (size_t k = 0; k < link_.size(); ++k) across[k] = Across{outer_t_[k], -1};
  auto attach = [&](int t, int s, Across x) {
    n_[static_cast<size_t>(t)][static_cast<size_t>(s)] = x.t;
    if (x.t < 0) return;
    if (x.slot >= 0) n_[static_cast<size_t>(x.t)][static_cast<size_t>(x.slot)] = t;
    else relink(t, s);
  };
  for (size_t e = 0; e < ears_.size(); ++e) {
    const int t = star_t_[e];  // the star has more triangles than the polygon has ears
    const auto [p, i, q] = ears_[e];
    v_[static_cast<size_t>(t)] = {link_[static_cast<size_t>(p)], link_[static_cast<size_t>(i)], link_[static_cast<size_t>(q)]};
    attach(t, 0, across[static_cast<size_t>(p)]);
    attach(t, 1, across[static_cast<size_t>(i)]);
    if (e + 1 == ears_.size()) attach(t, 2, across[static_cast<size_t>(q)]);
    across[static_cast<size_t>(p)] = Across{t, 2};
    for (const int a : v_[static_cast<size_t>(t)]) vert_tri_[static_cast<size_t>(a)] = t;
    for (int s = 0; s < 3; ++s) pending_.emplace_back(t, s);
  }
  for (size_t k = ears_.size(); k < star_t_.size(); ++k) dead_[static_cast<size_t>(star_t_[k])] = 1;
  vert_tri_[static_cast<size_t>(v)] = -1;
  flip_pending();
}

void Triangulation::remove_vertices() {
  // Wall edges are the edges without a neighbour: an interior vertex has none, a vertex on a
  // straight wall two (one in, one out, collinear); every other vertex is a wall corner.
  std::vector<int> wall_ends(pos_.size(), 0);
  for (size_t t = 0; t < v_.size(); ++t)
    for (int i = 0; i < 3; ++i)
      if (n_[t][static_cast<size_t>(i)] < 0) {
        ++wall_ends[static_cast<size_t>(v_[t][static_cast<size_t>(i)])];
        ++wall_ends[static_cast<size_t>(v_[t][static_cast<size_t>((i + 1) % 3)])];
      }
  for (size_t v = 0; v < pos_.size(); ++v) {
    const int ends = wall_ends[v];
    bool closed = false;
    if ((ends != 0 && ends != 2) || !star(static_cast<int>(v), closed) || closed != (ends == 0)) continue;
    if (!closed) {  // on a wall: removable only where the wall runs straight through
      const int a = link_.front(), b = link_.back();
      const Vec2 d1 = pos_[v] - pos_[static_cast<size_t>(b)], d2 = pos_[static_cast<size_t>(a)] - pos_[v];
      if (orient(b, static_cast<int>(v), a) != 0.0 || glm::dot(d1, d2) <= 0.0) continue;
    }
    if (link_.size() < 3 || !ear_clip()) continue;
    remove(static_cast<int>(v));
  }
}

LinkedRings Triangulation::output() const {
  LinkedRings out;
  std::vector<int> index(v_.size(), -1);
  int live = 0;
  for (size_t t = 0; t < v_.size(); ++t)
    if (!dead_[t]) index[t] = live++;
  out.rings.verts.reserve(3 * static_cast<size_t>(live));
  out.rings.first.reserve(static_cast<size_t>(live) + 1);
  out.twin.reserve(3 * static_cast<size_t>(live));
  for (size_t t = 0; t < v_.size(); ++t) {
    if (dead_[t]) continue;
    out.rings.verts.insert(out.rings.verts.end(), v_[t].begin(), v_[t].end());
    out.rings.first.push_back(static_cast<int>(out.rings.verts.size()));
    for (const int o : n_[t]) out.twin.push_back(o < 0 ? -1 : index[static_cast<size_t>(o)]);
  }
  return out;
}

}  // namespace

LinkedRings corner_triangles(const RectRings& rects, const std::vector<Vec2>& pos, const std::vector<ExactCoord>& exact,
                             double s) {
  Triangulation tri(pos, exact, s);
  const size_t nr = rects.rings.first.size() - 1;
  for (size_t r = 0; r < nr; ++r) {
    const size_t f = static_cast<size_t>(rects.rings.first[r]), n = static_cast<size_t>(rects.rings.first[r + 1]) - f;
    tri.add_convex_ring(rects.rings.verts.data() + f, n);
  }
  tri.link();
  tri.make_delaunay();
  tri.remove_vertices();
  return tri.output();
}

}  // namespace pathlab::detail
