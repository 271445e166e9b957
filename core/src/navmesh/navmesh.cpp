#include "pathlab/navmesh.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "navmesh/navmesh_corners.hpp"
#include "navmesh/navmesh_merge.hpp"
#include "navmesh/navmesh_rects.hpp"
#include "navmesh/navmesh_tiles.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {
namespace detail {

std::vector<double> sub_lines(int n, double s, int tile) {
  std::vector<double> v;
  const double lo = s, hi = n - s;
  if (!(lo < hi)) return v;
  v.reserve(2 * static_cast<size_t>(n) + 2);
  v.push_back(lo);
  v.push_back(hi);
  for (int k = 0; k <= n; ++k) {
    const double a = k - s, b = k + s;
    if (a > lo && a < hi) v.push_back(a);
    if (b > lo && b < hi) v.push_back(b);
  }
  for (int k = tile; tile > 0 && k < n; k += tile)
    if (k > lo && k < hi) v.push_back(k);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

void covering_cells(const std::vector<double>& lines, int n, double s, std::vector<int>& lo, std::vector<int>& hi) {
  const size_t m = lines.size() - 1;
  lo.resize(m);
  hi.resize(m);
  for (size_t j = 0; j < m; ++j) {
    const double mid = 0.5 * (lines[j] + lines[j + 1]);
    // c - s < mid < c + 1 + s  <=>  mid - 1 - s < c < mid + s
    lo[j] = std::max(0, static_cast<int>(std::floor(mid - 1.0 - s)) + 1);
    hi[j] = std::min(n - 1, static_cast<int>(std::ceil(mid + s)) - 1);
  }
}

std::vector<std::pair<int32_t, int8_t>> line_tags(const std::vector<double>& lines, double s) {
  std::vector<std::pair<int32_t, int8_t>> tags(lines.size(), {0, 0});
  for (size_t i = 0; i < lines.size(); ++i) {
    const double x = lines[i];
    if (s == 0.0) {
      tags[i] = {static_cast<int32_t>(std::lround(x)), 0};
      continue;
    }
    // x = k - s (k near x + s) or x = k + s (k near x - s); the border lines s and n - s too.
    bool found = false;
    for (const double base : {x - s, x + s}) {
      const int k0 = static_cast<int>(std::floor(base));
      for (int k = k0 - 1; k <= k0 + 1; ++k) {
        if (k - s == x) tags[i] = {k, -1}, found = true;
        if (k + s == x) tags[i] = {k, 1}, found = true;
      }
    }
    // A tile border (NavmeshDef::tile_size) is an integer line.
    if (!found && x == std::round(x)) tags[i] = {static_cast<int32_t>(std::lround(x)), 0};
  }
  return tags;
}

}  // namespace detail
namespace {

using detail::covering_cells;
using detail::line_tags;
using detail::sub_lines;

using Rect = detail::SubRect;

}  // namespace

void Navmesh::merge_into_convex(Navmesh& m, int nx, bool corners_only) {
  // The merge works on the ring vertices only, numbered compactly (the lattice has many more).
  std::vector<int> used, compact_of(static_cast<size_t>(m.vid_count_), -1);
  for (const int vid : m.ring_vid_) {
    int& c = compact_of[static_cast<size_t>(vid)];
    if (c < 0) {
      c = static_cast<int>(used.size());
      used.push_back(vid);
    }
  }
  auto compact = [&](int vid) { return compact_of[static_cast<size_t>(vid)]; };
  std::vector<Vec2> pos(used.size());
  std::vector<uint8_t> on_wall(used.size());
  for (size_t i = 0; i < used.size(); ++i) {
    const size_t v = static_cast<size_t>(used[i]);
    pos[i] = Vec2(m.xs_[v % static_cast<size_t>(nx + 1)], m.ys_[v / static_cast<size_t>(nx + 1)]);
    on_wall[i] = m.vid_wall_[v];
  }
  detail::RectRings rects;
  rects.rings.verts.reserve(m.ring_vid_.size());
  rects.wall.reserve(m.ring_vid_.size());
  for (const NavPolygon& P : m.polys_) {
    for (int e = P.first; e < P.first + P.count; ++e) {
      rects.rings.verts.push_back(compact(m.ring_vid_[static_cast<size_t>(e)]));
      rects.wall.push_back(m.ring_n_[static_cast<size_t>(e)] < 0 ? 1 : 0);
    }
    rects.rings.first.push_back(static_cast<int>(rects.rings.verts.size()));
  }
  detail::ConvexPieces pieces;
  if (corners_only) {
    const auto tx = line_tags(m.xs_, m.shrink_), ty = line_tags(m.ys_, m.shrink_);
    std::vector<detail::ExactCoord> exact(used.size());
    for (size_t i = 0; i < used.size(); ++i) {
      const auto [kx, sx] = tx[static_cast<size_t>(used[i]) % static_cast<size_t>(nx + 1)];
      const auto [ky, sy] = ty[static_cast<size_t>(used[i]) / static_cast<size_t>(nx + 1)];
      exact[i] = detail::ExactCoord{kx, ky, sx, sy};
    }
    pieces = detail::merge_convex_rings(detail::corner_triangles(rects, pos, exact, m.shrink_), pos);
  } else {
    pieces = detail::merge_convex(rects, pos, on_wall);
  }

  const size_t npoly = pieces.rings.first.size() - 1;
  m.polys_.assign(npoly, NavPolygon{});
  m.ring_v_.clear();
  m.ring_vid_.clear();
  m.ring_n_ = std::move(pieces.across);
  for (size_t id = 0; id < npoly; ++id) {
    NavPolygon& P = m.polys_[id];
    P.first = pieces.rings.first[id];
    P.count = pieces.rings.first[id + 1] - P.first;
    const int* r = pieces.rings.verts.data() + P.first;
    for (int i = 0; i < P.count; ++i) {
      m.ring_v_.push_back(pos[static_cast<size_t>(r[i])]);
      m.ring_vid_.push_back(used[static_cast<size_t>(r[i])]);
    }
    detail::set_polygon_box_and_centre(P, m.ring_v_.data() + P.first);
  }
  if (corners_only) {  // the pieces came from triangles, not rectangles: locate by grid cell
    m.index_cells();
  } else {
    m.rect_first_ = std::move(pieces.rect_first);
    m.rect_polys_ = std::move(pieces.rect_polys);
  }
}

/// The steps of Navmesh::build, each on its own (as Recast exposes each build step and only
/// the demo chains them): sub-cells -> rectangles -> rings -> convex merge -> portals.
struct NavmeshBuilder {
  /// Per sub-cell (row-major), 1 when it is free of every wall grown by the shrink.
  static std::vector<uint8_t> open_sub_cells(const Grid& grid, const Navmesh& m);
  /// Greedy rectangles of open sub-cells, seeded in row-major order; fills m.sub_poly_.
  static std::vector<Rect> greedy_rects(Navmesh& m, std::vector<uint8_t>& open, bool best_of_two_growths);
  /// The ring of every rectangle, with a vertex wherever the neighbour across a side changes.
  static void rect_rings(Navmesh& m, const std::vector<Rect>& rects);
  static void rect_ring(Navmesh& m, const Rect& r, NavPolygon& P);
  /// Portals: two convex polygons share at most one segment, so one portal per neighbour pair.
  static void link_portals(Navmesh& m);
};

std::vector<uint8_t> NavmeshBuilder::open_sub_cells(const Grid& grid, const Navmesh& m) {
  const double s = m.shrink_;
  const int W = grid.width(), H = grid.height();
  const int nx = static_cast<int>(m.xs_.size()) - 1, ny = static_cast<int>(m.ys_.size()) - 1;
  // Prefix sums of blocked cells, so each sub-cell's test is O(1) whatever the radius.
  std::vector<int32_t> sum(static_cast<size_t>(W + 1) * static_cast<size_t>(H + 1), 0);
  auto S = [&](int x, int y) -> int32_t& { return sum[static_cast<size_t>(y) * static_cast<size_t>(W + 1) + x]; };
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) S(x + 1, y + 1) = S(x, y + 1) + S(x + 1, y) - S(x, y) + (grid.is_free(x, y) ? 0 : 1);
  std::vector<int> clo, chi, rlo, rhi;
  covering_cells(m.xs_, W, s, clo, chi);
  covering_cells(m.ys_, H, s, rlo, rhi);

  std::vector<uint8_t> open(static_cast<size_t>(nx) * static_cast<size_t>(ny), 0);
  for (int k = 0; k < ny; ++k) {
    for (int j = 0; j < nx; ++j) {
      if (clo[j] > chi[j] || rlo[k] > rhi[k]) {
        open[static_cast<size_t>(k) * nx + j] = 1;
        continue;
      }
      const int32_t blocked = S(chi[j] + 1, rhi[k] + 1) - S(clo[j], rhi[k] + 1) - S(chi[j] + 1, rlo[k]) + S(clo[j], rlo[k]);
      open[static_cast<size_t>(k) * nx + j] = blocked == 0 ? 1 : 0;
    }
  }
  return open;
}

std::vector<Rect> NavmeshBuilder::greedy_rects(Navmesh& m, std::vector<uint8_t>& open, bool best_of_two_growths) {
  const int nx = static_cast<int>(m.xs_.size()) - 1, ny = static_cast<int>(m.ys_.size()) - 1;
  m.sub_poly_.assign(open.size(), -1);
  return detail::greedy_rect_cover(open, nx, ny, m.xs_.data(), m.ys_.data(), best_of_two_growths, m.sub_poly_);
}

void NavmeshBuilder::rect_rings(Navmesh& m, const std::vector<Rect>& rects) {
  const int nx = static_cast<int>(m.xs_.size()) - 1, ny = static_cast<int>(m.ys_.size()) - 1;
  m.polys_.resize(rects.size());
  m.ring_v_.reserve(rects.size() * 6);
  m.ring_n_.reserve(rects.size() * 6);
  m.ring_vid_.reserve(rects.size() * 6);
  m.vid_count_ = (nx + 1) * (ny + 1);
  m.vid_wall_.assign(static_cast<size_t>(m.vid_count_), 0);
  for (size_t id = 0; id < rects.size(); ++id) rect_ring(m, rects[id], m.polys_[id]);
}

void NavmeshBuilder::rect_ring(Navmesh& m, const Rect& r, NavPolygon& P) {
  const int nx = static_cast<int>(m.xs_.size()) - 1, ny = static_cast<int>(m.ys_.size()) - 1;
  const auto& xs = m.xs_;
  const auto& ys = m.ys_;
  auto owner = [&](int j, int k) -> int {
    if (j < 0 || k < 0 || j >= nx || k >= ny) return -1;
    return m.sub_poly_[static_cast<size_t>(k) * nx + j];
  };
  P.first = static_cast<int>(m.ring_v_.size());
  // (j, k) are sub-grid line indices: they give the vertex its mesh-wide id for free.
  auto emit = [&](int j, int k, int n) {
    m.ring_v_.push_back(Vec2(xs[j], ys[k]));
    m.ring_n_.push_back(n);
    const int vid = k * (nx + 1) + j;
    m.ring_vid_.push_back(vid);
    if (n < 0) {  // this wall edge starts here and ends at the next vertex (marked below)
      m.vid_wall_[static_cast<size_t>(vid)] = 1;
    }
  };
  // Top side, left to right.
  int cur = owner(r.x0, r.y0 - 1);
  emit(r.x0, r.y0, cur);
  for (int j = r.x0 + 1; j < r.x1; ++j) {
    const int n = owner(j, r.y0 - 1);
    if (n != cur) emit(j, r.y0, cur = n);
  }
  // Right side, downwards.
  cur = owner(r.x1, r.y0);
  emit(r.x1, r.y0, cur);
  for (int k = r.y0 + 1; k < r.y1; ++k) {
    const int n = owner(r.x1, k);
    if (n != cur) emit(r.x1, k, cur = n);
  }
  // Bottom side, right to left.
  cur = owner(r.x1 - 1, r.y1);
  emit(r.x1, r.y1, cur);
  for (int j = r.x1 - 2; j >= r.x0; --j) {
    const int n = owner(j, r.y1);
    if (n != cur) emit(j + 1, r.y1, cur = n);
  }
  // Left side, upwards.
  cur = owner(r.x0 - 1, r.y1 - 1);
  emit(r.x0, r.y1, cur);
  for (int k = r.y1 - 2; k >= r.y0; --k) {
    const int n = owner(r.x0 - 1, k);
    if (n != cur) emit(r.x0, k + 1, cur = n);
  }
  // The end of each wall edge is on the wall too.
  for (int e = P.first; e < static_cast<int>(m.ring_v_.size()); ++e) {
    const int e1 = e + 1 < static_cast<int>(m.ring_v_.size()) ? e + 1 : P.first;
    if (m.ring_n_[static_cast<size_t>(e)] < 0) m.vid_wall_[static_cast<size_t>(m.ring_vid_[static_cast<size_t>(e1)])] = 1;
  }
  P.count = static_cast<int>(m.ring_v_.size()) - P.first;
  P.lo = Vec2(xs[r.x0], ys[r.y0]);
  P.hi = Vec2(xs[r.x1], ys[r.y1]);
  P.centre = 0.5 * (P.lo + P.hi);
}

void NavmeshBuilder::link_portals(Navmesh& m) {
  m.ring_p_.assign(m.ring_n_.size(), -1);
  m.poly_portals_.reserve(m.ring_n_.size());
  for (size_t id = 0; id < m.polys_.size(); ++id) {
    NavPolygon& P = m.polys_[id];
    P.first_portal = static_cast<int>(m.poly_portals_.size());
    for (int e = P.first; e < P.first + P.count; ++e) {
      const int n = m.ring_n_[e];
      if (n < 0) continue;
      int pid = -1;
      if (static_cast<size_t>(n) > id) {
        pid = static_cast<int>(m.portals_.size());
        const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
        m.portals_.push_back(NavPortal{static_cast<int>(id), n, m.ring_v_[e], m.ring_v_[e1], e, -1});
      } else {
        const NavPolygon& N = m.polys_[n];
        for (int f = N.first; f < N.first + N.count; ++f)
          if (m.ring_n_[f] == static_cast<int>(id)) pid = m.ring_p_[f];
        if (pid >= 0) m.portals_[static_cast<size_t>(pid)].edge_b = e;
      }
      m.ring_p_[e] = pid;
      m.poly_portals_.push_back(pid);
    }
    P.portal_count = static_cast<int>(m.poly_portals_.size()) - P.first_portal;
  }
}

void detail::set_polygon_box_and_centre(NavPolygon& P, const Vec2* ring) {
  const Vec2 origin = ring[0];
  P.lo = P.hi = origin;
  double area2 = 0.0;
  Vec2 c(0.0, 0.0);
  for (int i = 0; i < P.count; ++i) {
    const Vec2 a = ring[i], b = ring[(i + 1) % P.count];
    P.lo = glm::min(P.lo, a);
    P.hi = glm::max(P.hi, a);
    const double cr = cross(a - origin, b - origin);
    area2 += cr;
    c += (a - origin + b - origin) * cr;
  }
  P.centre = origin + (area2 != 0.0 ? c / (3.0 * area2) : Vec2(0.0, 0.0));
}

uint64_t detail::next_navmesh_revision() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

Result<Navmesh> Navmesh::build(const Grid& grid, const NavmeshDef& def) {
  if (auto ok = check_agent_radius(def.agent_radius); !ok) return ok.error();
  if (grid.width() <= 0 || grid.height() <= 0) return fail(StatusCode::invalid_argument, "grid is empty");
  if (def.tile_size != 0 && (def.tile_size < kMinNavTileSize || def.tile_size > kMaxNavTileSize))
    return fail(StatusCode::invalid_argument, "tile_size " + std::to_string(def.tile_size) + " is not 0 or in [" +
                                                  std::to_string(kMinNavTileSize) + ", " +
                                                  std::to_string(kMaxNavTileSize) + "]");
  if (def.tile_threads < 1 || def.tile_threads > kMaxNavTileThreads)
    return fail(StatusCode::invalid_argument, "tile_threads " + std::to_string(def.tile_threads) + " is not in [1, " +
                                                  std::to_string(kMaxNavTileThreads) + "]");
  Navmesh m;
  m.revision_ = detail::next_navmesh_revision();
  m.grid_ = grid;
  m.def_ = def;
  m.radius_ = def.agent_radius;
  // Half the collision tolerance less than the radius: an agent that exactly fits a gap keeps a
  // (1e-9 wide) lane through it instead of losing it to rounding.
  m.shrink_ = def.agent_radius > 0.0 ? std::max(0.0, def.agent_radius - 0.5 * kClearanceTolerance) : 0.0;
  m.xs_ = sub_lines(grid.width(), m.shrink_, def.tile_size);
  m.ys_ = sub_lines(grid.height(), m.shrink_, def.tile_size);
  if (m.xs_.size() < 2 || m.ys_.size() < 2) {
    m.xs_.clear();
    m.ys_.clear();
    return m;
  }
  if (def.tile_size > 0) {
    m.build_tiled();
    return m;
  }
  std::vector<uint8_t> open = NavmeshBuilder::open_sub_cells(grid, m);  // free and not yet in a rectangle
  const std::vector<Rect> rects = NavmeshBuilder::greedy_rects(m, open, def.best_of_two_growths);
  NavmeshBuilder::rect_rings(m, rects);
  const int nx = static_cast<int>(m.xs_.size()) - 1;
  if (def.merge_convex || def.corners_only) merge_into_convex(m, nx, def.corners_only);
  if (!def.merge_convex && !def.corners_only) {  // each rectangle is its own polygon
    m.rect_first_.resize(rects.size() + 1);
    m.rect_polys_.resize(rects.size());
    for (size_t r = 0; r < rects.size(); ++r) {
      m.rect_first_[r] = static_cast<int>(r);
      m.rect_polys_[r] = static_cast<int>(r);
    }
    m.rect_first_[rects.size()] = static_cast<int>(rects.size());
  }
  NavmeshBuilder::link_portals(m);
  return m;
}

void Navmesh::link_all_portals() { NavmeshBuilder::link_portals(*this); }

int Navmesh::locate(Vec2 p) const noexcept {
  if (xs_.size() < 2 || !is_finite(p)) return -1;
  if (p.x < xs_.front() || p.x > xs_.back() || p.y < ys_.front() || p.y > ys_.back()) return -1;
  if (!tile_poly_first_.empty()) return locate_in_tiles(p);
  if (!cell_first_.empty()) return locate_in_cells(p);
  const int nx = static_cast<int>(xs_.size()) - 1, ny = static_cast<int>(ys_.size()) - 1;
  const int j = std::min(nx - 1, static_cast<int>(std::upper_bound(xs_.begin(), xs_.end(), p.x) - xs_.begin()) - 1);
  const int k = std::min(ny - 1, static_cast<int>(std::upper_bound(ys_.begin(), ys_.end(), p.y) - ys_.begin()) - 1);
  // On a sub-grid line the sub-cells on either side both contain p.
  const int j0 = (p.x == xs_[j] && j > 0) ? j - 1 : j;
  const int k0 = (p.y == ys_[k] && k > 0) ? k - 1 : k;
  const int j1 = (p.x == xs_[j + 1]) ? std::min(j + 1, nx - 1) : j;
  const int k1 = (p.y == ys_[k + 1]) ? std::min(k + 1, ny - 1) : k;
  // The polygons of the rectangles around p; a rectangle cut into several needs the test.
  int fallback = -1;
  for (int kk = k0; kk <= k1; ++kk)
    for (int jj = j0; jj <= j1; ++jj) {
      const int rect = sub_poly_[static_cast<size_t>(kk) * nx + jj];
      if (rect < 0) continue;
      const int first = rect_first_[static_cast<size_t>(rect)], last = rect_first_[static_cast<size_t>(rect) + 1];
      if (last - first == 1) return rect_polys_[static_cast<size_t>(first)];
      for (int i = first; i < last; ++i) {
        const int id = rect_polys_[static_cast<size_t>(i)];
        if (contains(id, p)) return id;
        if (fallback < 0) fallback = id;
      }
    }
  return fallback;  // only when rounding put p a hair outside every candidate
}

bool Navmesh::contains(int poly, Vec2 p) const noexcept {
  if (poly < 0 || poly >= static_cast<int>(polys_.size()) || !is_finite(p)) return false;
  const NavPolygon& P = polys_[static_cast<size_t>(poly)];
  if (P.unused()) return false;
  for (int e = P.first; e < P.first + P.count; ++e) {
    const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
    const Vec2 a = ring_v_[static_cast<size_t>(e)], d = ring_v_[static_cast<size_t>(e1)] - a;
    if (cross(d, p - a) < -1e-12 * (std::abs(d.x) + std::abs(d.y))) return false;
  }
  return true;
}

Vec2 Navmesh::closest_point(int poly, Vec2 p) const noexcept {
  const auto r = ring(poly);
  const size_t n = r.size();
  bool inside = true;
  double best = 0.0;
  Vec2 q = p;
  for (size_t i = 0; i < n; ++i) {
    const Vec2 a = r[i], b = r[(i + 1) % n];
    if (cross(b - a, p - a) >= 0.0) continue;
    const Vec2 d = b - a;
    const double l2 = glm::dot(d, d);
    const double t = l2 > 0 ? std::clamp(glm::dot(p - a, d) / l2, 0.0, 1.0) : 0.0;
    const Vec2 c = a + d * t;
    const double dist = glm::length(p - c);
    if (inside || dist < best) {
      best = dist;
      q = c;
    }
    inside = false;
  }
  return q;
}

bool Navmesh::segment_on_mesh(int from_poly, Vec2 a, Vec2 b) const noexcept {
  if (from_poly < 0 || from_poly >= static_cast<int>(polys_.size()) || !is_finite(a) || !is_finite(b)) return false;
  const Vec2 d = b - a;
  constexpr double kTEps = 1e-12;
  int poly = from_poly, prev = -1;
  for (size_t steps = 0; steps <= 2 * polys_.size() + 2; ++steps) {
    const NavPolygon& P = polys_[poly];
    double t_exit = 2.0;
    for (int e = P.first; e < P.first + P.count; ++e) {
      const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
      const Vec2 edge = ring_v_[e1] - ring_v_[e];
      const double den = cross(edge, d);
      if (den >= 0.0) continue;  // moving inwards or along the edge
      t_exit = std::min(t_exit, cross(edge, a - ring_v_[e]) / -den);
    }
    if (t_exit >= 1.0 - kTEps) return true;
    // Leave through the edge holding the exit point (collinear edges split at T-junctions all
    // exit at the same t); where two do (a vertex), prefer a neighbour over a wall.
    const Vec2 x = a + d * t_exit;
    int next = -1;
    for (int e = P.first; e < P.first + P.count; ++e) {
      const int e1 = e + 1 < P.first + P.count ? e + 1 : P.first;
      const Vec2 edge = ring_v_[e1] - ring_v_[e];
      const double den = cross(edge, d);
      if (den >= 0.0) continue;
      const double te = cross(edge, a - ring_v_[e]) / -den;
      if (te > t_exit + kTEps) continue;
      const double l2 = glm::dot(edge, edge);
      const double u = glm::dot(x - ring_v_[e], edge) / l2;
      const double slack = 1e-9 / std::sqrt(l2);
      if (u < -slack || u > 1.0 + slack) continue;
      const int n = ring_n_[e];
      if (n >= 0 && (next < 0 || next == prev)) next = n;
    }
    if (next < 0) return false;
    prev = poly;
    poly = next;
  }
  return false;
}


namespace detail {

std::vector<SubRect> greedy_rect_cover(std::vector<uint8_t>& open, int w, int h, const double* xs, const double* ys,
                                       bool best_of_two, std::vector<int>& owner) {
  auto at = [w](int j, int k) { return static_cast<size_t>(k) * static_cast<size_t>(w) + static_cast<size_t>(j); };
  auto is_open = [&](int j, int k) { return open[at(j, k)] != 0; };
  std::vector<SubRect> rects;
  for (int k = 0; k < h; ++k) {
    for (int j = 0; j < w; ++j) {
      if (!is_open(j, k)) continue;
      // Right, then down.
      int xa = j + 1;
      while (xa < w && is_open(xa, k)) ++xa;
      int ya = k + 1;
      for (; ya < h; ++ya) {
        bool row = true;
        for (int i = j; i < xa && row; ++i) row = is_open(i, ya);
        if (!row) break;
      }
      SubRect best{j, k, xa, ya};
      if (best_of_two) {
        // Down, then right.
        int yb = k + 1;
        while (yb < h && is_open(j, yb)) ++yb;
        int xb = j + 1;
        for (; xb < w; ++xb) {
          bool col = true;
          for (int i = k; i < yb && col; ++i) col = is_open(xb, i);
          if (!col) break;
        }
        const double area_a = (xs[xa] - xs[j]) * (ys[ya] - ys[k]);
        const double area_b = (xs[xb] - xs[j]) * (ys[yb] - ys[k]);
        if (area_b > area_a) best = SubRect{j, k, xb, yb};
      }
      const int id = static_cast<int>(rects.size());
      rects.push_back(best);
      for (int y = best.y0; y < best.y1; ++y)
        for (int x = best.x0; x < best.x1; ++x) {
          open[at(x, y)] = 0;
          owner[at(x, y)] = id;
        }
    }
  }
  return rects;
}

}  // namespace detail

}  // namespace pathlab
