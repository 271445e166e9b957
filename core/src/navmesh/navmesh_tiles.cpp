// Tiled navmeshes (NavmeshDef::tile_size), after Recast's tile cache (Mikko Mononen, Recast &
// Detour, 2009-2016): the sub-grid is cut at fixed tile borders, each tile's polygons are built
// from its own sub-cells only (the rectangles, the convex merge or the wall-corner
// triangulation, with the tile border standing in for a wall), and the tiles are stitched:
// along a border, a portal runs wherever the polygons on both sides are open. An edit then
// rebuilds only the tiles whose sub-cells it reaches, and the stitched mesh equals a full
// build polygon for polygon, because a tile's polygons depend on nothing outside the tile.
// With NavmeshDef::tile_threads > 1 the tiles are built on several threads (each writes only
// its own slot), the stitching stays on the calling thread: the same mesh for every count.
// The stitching is navmesh_tile_stitch.cpp (it too redoes only the tiles around the edit);
// NavmeshQuery patches its tables after update() in
// navmesh_search_patch.cpp.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <thread>

#include "navmesh/navmesh_corners.hpp"
#include "navmesh/navmesh_merge.hpp"
#include "navmesh/navmesh_rects.hpp"
#include "navmesh/navmesh_tiles.hpp"
#include "pathlab/navmesh.hpp"

namespace pathlab {
namespace {

/// A tile's sub-cells: [j0, j1) x [k0, k1) in sub-grid line indices.
struct TileBox {
  int j0 = 0, j1 = 0, k0 = 0, k1 = 0;
  int w() const { return j1 - j0; }
  int h() const { return k1 - k0; }
};

/// Tile (tx, ty)'s sub-cells, from the tile borders' sub-grid line indices per axis.
TileBox tile_box(const std::vector<int>& tile_j, const std::vector<int>& tile_k, int tx, int ty) {
  return TileBox{tile_j[static_cast<size_t>(tx)], tile_j[static_cast<size_t>(tx) + 1], tile_k[static_cast<size_t>(ty)],
                 tile_k[static_cast<size_t>(ty) + 1]};
}

using LocalRect = detail::SubRect;  // a tile-local sub-cell range

/// Counts of blocked cells over any rectangle of cells inside a window of the grid in O(1) (a
/// 2D prefix sum). An update sums only the window its tiles read, not the whole map.
class BlockedSums {
 public:
  explicit BlockedSums(const Grid& grid) : BlockedSums(grid, 0, 0, grid.width() - 1, grid.height() - 1) {}
  /// The window: columns [x0, x1] and rows [y0, y1] (both included, inside the grid).
  BlockedSums(const Grid& grid, int x0, int y0, int x1, int y1)
      : x0_(x0), y0_(y0), w_(x1 - x0 + 2), sum_(static_cast<size_t>(w_) * static_cast<size_t>(y1 - y0 + 2), 0) {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const int lx = x - x0, ly = y - y0;
        at(lx + 1, ly + 1) = at(lx, ly + 1) + at(lx + 1, ly) - at(lx, ly) + (grid.is_free(x, y) ? 0 : 1);
      }
  }
  /// Blocked cells in columns [x0, x1] and rows [y0, y1] (both included, inside the window).
  int32_t count(int x0, int y0, int x1, int y1) const {
    x0 -= x0_, x1 -= x0_, y0 -= y0_, y1 -= y0_;
    return get(x1 + 1, y1 + 1) - get(x0, y1 + 1) - get(x1 + 1, y0) + get(x0, y0);
  }

 private:
  int32_t& at(int x, int y) { return sum_[static_cast<size_t>(y) * static_cast<size_t>(w_) + static_cast<size_t>(x)]; }
  int32_t get(int x, int y) const { return sum_[static_cast<size_t>(y) * static_cast<size_t>(w_) + static_cast<size_t>(x)]; }
  int x0_, y0_, w_;
  std::vector<int32_t> sum_;
};

/// The grid cells whose grown walls cover each sub-interval, per axis (covering_cells).
struct Coverage {
  std::vector<int> clo, chi, rlo, rhi;
};

/// Marks the sub-cells of box `b` free of every grown wall in `open` (row-major, nx wide).
void fill_open(const TileBox& b, int nx, const Coverage& cov, const BlockedSums& sums, std::vector<uint8_t>& open) {
  for (int k = b.k0; k < b.k1; ++k)
    for (int j = b.j0; j < b.j1; ++j) {
      const size_t jj = static_cast<size_t>(j), kk = static_cast<size_t>(k);
      const bool none = cov.clo[jj] > cov.chi[jj] || cov.rlo[kk] > cov.rhi[kk];
      open[kk * static_cast<size_t>(nx) + jj] =
          none || sums.count(cov.clo[jj], cov.rlo[kk], cov.chi[jj], cov.rhi[kk]) == 0 ? 1 : 0;
    }
}

/// Box b's flags of `open` (row-major, nx wide), row after row, into `out`.
void copy_box(const std::vector<uint8_t>& open, int nx, const TileBox& b, std::vector<uint8_t>& out) {
  out.clear();
  for (int k = b.k0; k < b.k1; ++k) {
    const auto row = open.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(k) * static_cast<size_t>(nx) + static_cast<size_t>(b.j0));
    out.insert(out.end(), row, row + b.w());
  }
}

/// Whether box b's flags of `open` equal `saved` (copy_box's layout).
bool same_box(const std::vector<uint8_t>& open, int nx, const TileBox& b, const std::vector<uint8_t>& saved) {
  for (int k = b.k0; k < b.k1; ++k) {
    const auto row = open.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(k) * static_cast<size_t>(nx) + static_cast<size_t>(b.j0));
    if (!std::equal(row, row + b.w(), saved.begin() + static_cast<std::ptrdiff_t>((k - b.k0) * b.w()))) return false;
  }
  return true;
}

/// Greedy rectangles of the open sub-cells of one tile, seeded in row-major order and grown
/// within the tile only (detail::greedy_rect_cover, as for the whole map). `owner` gets
/// each local sub-cell's rectangle or -1.
std::vector<LocalRect> tile_rects(const std::vector<uint8_t>& open_all, int nx, const TileBox& b,
                                  const std::vector<double>& xs, const std::vector<double>& ys, bool best_of_two,
                                  std::vector<int>& owner) {
  const int w = b.w(), h = b.h();
  std::vector<uint8_t> open(static_cast<size_t>(w) * static_cast<size_t>(h));
  for (int k = 0; k < h; ++k)
    for (int j = 0; j < w; ++j)
      open[static_cast<size_t>(k * w + j)] = open_all[static_cast<size_t>(k + b.k0) * static_cast<size_t>(nx) + static_cast<size_t>(j + b.j0)];
  owner.assign(open.size(), -1);
  return detail::greedy_rect_cover(open, w, h, xs.data() + b.j0, ys.data() + b.k0, best_of_two, owner);
}

/// The ring of every rectangle of a tile, with a vertex wherever the neighbour across a side
/// changes; outside the tile counts as wall. Vertices are tile-local lattice ids
/// (k * (w + 1) + j); `across` gets, per ring edge, the rectangle across or -1.
void tile_rect_rings(const std::vector<LocalRect>& rects, const std::vector<int>& owner, int w, int h,
                     detail::RectRings& out, std::vector<int>& across) {
  auto own = [&](int j, int k) -> int {
    if (j < 0 || k < 0 || j >= w || k >= h) return -1;
    return owner[static_cast<size_t>(k * w + j)];
  };
  auto emit = [&](int j, int k, int n) {
    out.rings.verts.push_back(k * (w + 1) + j);
    out.wall.push_back(static_cast<uint8_t>(n < 0 ? 1 : 0));
    across.push_back(n);
  };
  for (const LocalRect& r : rects) {
    int cur = own(r.x0, r.y0 - 1);
    emit(r.x0, r.y0, cur);
    for (int j = r.x0 + 1; j < r.x1; ++j)
      if (const int n = own(j, r.y0 - 1); n != cur) emit(j, r.y0, cur = n);
    cur = own(r.x1, r.y0);
    emit(r.x1, r.y0, cur);
    for (int k = r.y0 + 1; k < r.y1; ++k)
      if (const int n = own(r.x1, k); n != cur) emit(r.x1, k, cur = n);
    cur = own(r.x1 - 1, r.y1);
    emit(r.x1, r.y1, cur);
    for (int j = r.x1 - 2; j >= r.x0; --j)
      if (const int n = own(j, r.y1); n != cur) emit(j + 1, r.y1, cur = n);
    cur = own(r.x0 - 1, r.y1 - 1);
    emit(r.x0, r.y1, cur);
    for (int k = r.y1 - 2; k >= r.y0; --k)
      if (const int n = own(r.x0 - 1, k); n != cur) emit(r.x0, k + 1, cur = n);
    out.rings.first.push_back(static_cast<int>(out.rings.verts.size()));
  }
}

}  // namespace

namespace {

/// The sub-grid line indices of the tile borders along one axis: 0, every multiple of `tile`
/// strictly inside the band (lines.front(), lines.back()), and the last line.
std::vector<int> tile_borders(const std::vector<double>& lines, int tile) {
  std::vector<int> out{0};
  for (int x = tile; x < lines.back(); x += tile) {
    if (!(x > lines.front())) continue;
    const auto it = std::lower_bound(lines.begin(), lines.end(), static_cast<double>(x));
    if (it != lines.end() && *it == x) out.push_back(static_cast<int>(it - lines.begin()));
  }
  out.push_back(static_cast<int>(lines.size()) - 1);
  return out;
}

Coverage coverage(const std::vector<double>& xs, const std::vector<double>& ys, const Grid& grid, double s) {
  Coverage c;
  detail::covering_cells(xs, grid.width(), s, c.clo, c.chi);
  detail::covering_cells(ys, grid.height(), s, c.rlo, c.rhi);
  return c;
}

/// Jobs (tiles) per thread below which run_jobs starts no more threads: a tile costs some 0.1-0.5
/// ms and starting a thread some 0.05, and on a busy machine the join may wait for the helper
/// to get a core at all: a brush stroke (1-9 tiles) stays on one thread, a cut (16-40) splits.
constexpr size_t kMinJobsPerThread = 4;

/// Calls job(i) for every i in [0, n) on up to `threads` threads (at most one per
/// kMinJobsPerThread jobs): the calling one and the others started here, each taking the next
/// index from a shared counter (the tiles' costs differ, so no fixed split). The jobs must
/// write disjoint data; which thread ran which job changes no result. The first exception a
/// job throws is rethrown here after every thread has joined.
template <class Job>
void run_jobs(size_t n, int threads, const Job& job) {
  const size_t used = std::max<size_t>(std::min(n / kMinJobsPerThread, static_cast<size_t>(std::max(threads, 1))), 1);
  const size_t helpers = used - 1;
  if (helpers == 0) {
    for (size_t i = 0; i < n; ++i) job(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> errors(helpers + 1);
  auto work = [&](size_t slot) {
    try {
      for (size_t i = next++; i < n; i = next++) job(i);
    } catch (...) {
      errors[slot] = std::current_exception();
      next = n;  // the others stop after their current job
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  for (size_t h = 0; h < helpers; ++h) {
    try {
      pool.emplace_back(work, h + 1);
    } catch (const std::system_error&) {
      break;  // no thread to be had (a process at its limit): the started ones and this one do it all
    }
  }
  work(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace

void Navmesh::build_tiled() {
  const int nx = static_cast<int>(xs_.size()) - 1, ny = static_cast<int>(ys_.size()) - 1;
  tile_j_ = tile_borders(xs_, def_.tile_size);
  tile_k_ = tile_borders(ys_, def_.tile_size);
  sub_open_.assign(static_cast<size_t>(nx) * static_cast<size_t>(ny), 0);
  fill_open(TileBox{0, nx, 0, ny}, nx, coverage(xs_, ys_, grid_, shrink_), BlockedSums(grid_), sub_open_);
  const int TX = static_cast<int>(tile_j_.size()) - 1, TY = static_cast<int>(tile_k_.size()) - 1;
  on_tile_border_.assign(static_cast<size_t>(nx + 1) * static_cast<size_t>(ny + 1), 0);
  for (int t = 1; t < TX; ++t)
    for (int k = 0; k <= ny; ++k) on_tile_border_[static_cast<size_t>(k) * static_cast<size_t>(nx + 1) + static_cast<size_t>(tile_j_[static_cast<size_t>(t)])] = 1;
  for (int t = 1; t < TY; ++t)
    for (int j = 0; j <= nx; ++j) on_tile_border_[static_cast<size_t>(tile_k_[static_cast<size_t>(t)]) * static_cast<size_t>(nx + 1) + static_cast<size_t>(j)] = 1;
  tiles_.assign(static_cast<size_t>(TX) * static_cast<size_t>(TY), nullptr);
  std::vector<int> all(tiles_.size());
  for (size_t t = 0; t < all.size(); ++t) all[t] = static_cast<int>(t);
  build_tiles(all);
  assemble_tiles(all, *this);
}

void Navmesh::build_tiles(const std::vector<int>& tiles) {
  // Each tile reads only sub_open_ and the sub-grid lines and writes only its own slot of
  // tiles_, so the tiles can be built in any order on any thread: the mesh is the same bytes.
  const int TX = static_cast<int>(tile_j_.size()) - 1;
  run_jobs(tiles.size(), def_.tile_threads, [&](size_t i) { build_tile(tiles[i] % TX, tiles[i] / TX); });
}

void Navmesh::build_tile(int tx, int ty) {
  const TileBox b = tile_box(tile_j_, tile_k_, tx, ty);
  const int nx = static_cast<int>(xs_.size()) - 1, w = b.w(), h = b.h();
  std::vector<int> owner, across;
  const std::vector<LocalRect> rects = tile_rects(sub_open_, nx, b, xs_, ys_, def_.best_of_two_growths, owner);
  detail::RectRings rr;
  tile_rect_rings(rects, owner, w, h, rr, across);
  // Everything a tile holds is made anew from here on: a tile another copy shares is replaced,
  // not cloned, but for its side lists, which assemble_tiles compares with the new ones.
  std::shared_ptr<TilePolys>& slot = tiles_[static_cast<size_t>(ty) * (tile_j_.size() - 1) + static_cast<size_t>(tx)];
  if (!slot || slot.use_count() > 1) {
    auto fresh = std::make_shared<TilePolys>();
    if (slot) std::copy(std::begin(slot->sides), std::end(slot->sides), std::begin(fresh->sides));
    slot = std::move(fresh);
  }
  TilePolys& t = *slot;
  auto global = [&](int local) { return (local / (w + 1) + b.k0) * (nx + 1) + local % (w + 1) + b.j0; };
  if (!def_.merge_convex && !def_.corners_only) {  // each rectangle is its own polygon
    t.first = std::move(rr.rings.first);
    t.verts.resize(rr.rings.verts.size());
    for (size_t i = 0; i < t.verts.size(); ++i) t.verts[i] = global(rr.rings.verts[i]);
    t.across = std::move(across);
    return;
  }
  // The merge works on the ring vertices only, numbered compactly.
  std::vector<int> used, compact_of(static_cast<size_t>(w + 1) * static_cast<size_t>(h + 1), -1);
  for (int& v : rr.rings.verts) {
    int& c = compact_of[static_cast<size_t>(v)];
    if (c < 0) {
      c = static_cast<int>(used.size());
      used.push_back(v);
    }
    v = c;
  }
  std::vector<Vec2> pos(used.size());
  for (size_t i = 0; i < used.size(); ++i)
    pos[i] = Vec2(xs_[static_cast<size_t>(used[i] % (w + 1) + b.j0)], ys_[static_cast<size_t>(used[i] / (w + 1) + b.k0)]);
  detail::ConvexPieces pieces;
  if (def_.corners_only) {
    const auto tags_x = detail::line_tags(std::vector<double>(xs_.begin() + b.j0, xs_.begin() + b.j1 + 1), shrink_);
    const auto tags_y = detail::line_tags(std::vector<double>(ys_.begin() + b.k0, ys_.begin() + b.k1 + 1), shrink_);
    std::vector<detail::ExactCoord> exact(used.size());
    for (size_t i = 0; i < used.size(); ++i) {
      const auto [kx, sx] = tags_x[static_cast<size_t>(used[i] % (w + 1))];
      const auto [ky, sy] = tags_y[static_cast<size_t>(used[i] / (w + 1))];
      exact[i] = detail::ExactCoord{kx, ky, sx, sy};
    }
    pieces = detail::merge_convex_rings(detail::corner_triangles(rr, pos, exact, shrink_), pos);
  } else {
    std::vector<uint8_t> on_wall(used.size(), 0);
    for (size_t r = 0; r + 1 < rr.rings.first.size(); ++r) {
      const int f = rr.rings.first[r], n = rr.rings.first[r + 1] - f;
      for (int i = 0; i < n; ++i)
        if (rr.wall[static_cast<size_t>(f + i)]) {
          on_wall[static_cast<size_t>(rr.rings.verts[static_cast<size_t>(f + i)])] = 1;
          on_wall[static_cast<size_t>(rr.rings.verts[static_cast<size_t>(f + (i + 1) % n)])] = 1;
        }
    }
    pieces = detail::merge_convex(rr, pos, on_wall);
  }
  t.first = std::move(pieces.rings.first);
  t.verts.resize(pieces.rings.verts.size());
  for (size_t i = 0; i < t.verts.size(); ++i) t.verts[i] = global(used[static_cast<size_t>(pieces.rings.verts[i])]);
  t.across = std::move(pieces.across);
}

Status Navmesh::update(const Grid& grid, const CellRect& changed) { return update_from(grid, changed, *this); }

Status Navmesh::update_from(const Grid& grid, const CellRect& changed, const Navmesh& old_layout) {
  auto rect_str = [&] {
    return "(" + std::to_string(changed.min.x) + ", " + std::to_string(changed.min.y) + ")-(" +
           std::to_string(changed.max.x) + ", " + std::to_string(changed.max.y) + ")";
  };
  auto size_str = [](const Grid& g) { return std::to_string(g.width()) + "x" + std::to_string(g.height()); };
  if (changed.max.x < changed.min.x || changed.max.y < changed.min.y)
    return fail(StatusCode::invalid_argument, "changed rectangle " + rect_str() + " is empty (max below min)");
  const int x0 = std::max(changed.min.x, 0), y0 = std::max(changed.min.y, 0);
  const int x1 = std::min(changed.max.x, grid.width() - 1), y1 = std::min(changed.max.y, grid.height() - 1);
  if (x0 > x1 || y0 > y1)
    return fail(StatusCode::out_of_bounds, "changed rectangle " + rect_str() + " lies outside the " + size_str(grid) + " map");
  if (grid.width() != grid_.width() || grid.height() != grid_.height())
    return fail(StatusCode::invalid_argument, "the grid is " + size_str(grid) + ", the mesh was built for " +
                                                  size_str(grid_) + ": build a new mesh for another map");
  if (def_.tile_size == 0 || tiles_.empty()) {
    auto rebuilt = build(grid, def_);
    if (!rebuilt) return rebuilt.error();
    *this = std::move(*rebuilt);
    return ok_status();
  }
  for (int y = y0; y <= y1; ++y)  // the rest of the map is the same (the contract above)
    for (int x = x0; x <= x1; ++x) grid_.set_cost(x, y, grid.cost(x, y));
  change_.before = revision_;
  change_.old_tile_polygon_first = tile_poly_first_;
  change_.tiles = tiles_reached(x0, y0, x1, y1);
  const Coverage cov = coverage(xs_, ys_, grid_, shrink_);
  const int nx = static_cast<int>(xs_.size()) - 1, TX = static_cast<int>(tile_j_.size()) - 1;
  // The cells the rebuilt tiles' sub-cells read: those whose grown wall reaches into them.
  int wx0 = grid_.width(), wy0 = grid_.height(), wx1 = -1, wy1 = -1;
  for (const int t : change_.tiles) {
    const TileBox b = tile_box(tile_j_, tile_k_, t % TX, t / TX);
    wx0 = std::min(wx0, static_cast<int>(std::floor(xs_[static_cast<size_t>(b.j0)] - 1.0 - shrink_)));
    wx1 = std::max(wx1, static_cast<int>(std::ceil(xs_[static_cast<size_t>(b.j1)] + shrink_)));
    wy0 = std::min(wy0, static_cast<int>(std::floor(ys_[static_cast<size_t>(b.k0)] - 1.0 - shrink_)));
    wy1 = std::max(wy1, static_cast<int>(std::ceil(ys_[static_cast<size_t>(b.k1)] + shrink_)));
  }
  if (!change_.tiles.empty()) {
    const BlockedSums sums(grid_, std::max(wx0, 0), std::max(wy0, 0), std::min(wx1, grid_.width() - 1),
                           std::min(wy1, grid_.height() - 1));
    // A tile's polygons depend on nothing but its sub-cells, so a tile the rectangle reaches
    // whose sub-cells all stay as they were (a cut whose band ends on a tile border reaches the
    // tile beyond it; a stroke over cells already blocked) is neither rebuilt nor listed.
    std::vector<int> rebuilt;
    std::vector<uint8_t> before;
    for (const int t : change_.tiles) {
      const TileBox b = tile_box(tile_j_, tile_k_, t % TX, t / TX);
      copy_box(sub_open_, nx, b, before);
      fill_open(b, nx, cov, sums, sub_open_);
      if (!same_box(sub_open_, nx, b, before)) rebuilt.push_back(t);
    }
    build_tiles(rebuilt);
    change_.tiles = std::move(rebuilt);
  }
  assemble_tiles(change_.tiles, old_layout);
  revision_ = change_.after = detail::next_navmesh_revision();
  return ok_status();
}

Navmesh::TilePolys& Navmesh::own_tile(size_t t) {
  std::shared_ptr<TilePolys>& slot = tiles_[t];
  if (!slot) {
    slot = std::make_shared<TilePolys>();
  } else if (slot.use_count() > 1) {
    slot = std::make_shared<TilePolys>(*slot);
  } else {
    // The last owner: another thread's copy may just have let go of it; what it read comes
    // before our writes (its release of the count, this fence).
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  return *slot;
}

Result<Navmesh> Navmesh::updated(const Grid& grid, const CellRect& changed) const {
  Navmesh out;
  if (def_.tile_size == 0 || tiles_.empty()) {
    out = *this;  // update() rebuilds an untiled mesh whole
  } else {
    // What update() reads; the polygons, rings, portals and vertex flags are laid out anew
    // from the tiles, the unchanged part copied from this mesh's (update_from), and the
    // tiles themselves are shared.
    out.grid_ = grid_;
    out.def_ = def_;
    out.radius_ = radius_;
    out.shrink_ = shrink_;
    out.revision_ = revision_;
    out.change_ = change_;
    out.xs_ = xs_;
    out.ys_ = ys_;
    out.tiles_ = tiles_;
    out.tile_j_ = tile_j_;
    out.tile_k_ = tile_k_;
    out.sub_open_ = sub_open_;
    out.tile_poly_first_ = tile_poly_first_;
    out.tile_edge_first_ = tile_edge_first_;
    out.tile_portal_first_ = tile_portal_first_;
    out.tile_listed_first_ = tile_listed_first_;
    out.on_tile_border_ = on_tile_border_;
  }
  if (Status s = out.update_from(grid, changed, *this); !s) return s.error();
  return out;
}

std::vector<int> Navmesh::tiles_reached(int x0, int y0, int x1, int y1) const {
  // A changed cell c reaches the sub-cells whose midpoint lies in (c - s, c + 1 + s).
  const double s = shrink_, reach_lo = x0 - s, reach_hi = x1 + 1 + s, reach_top = y0 - s, reach_bottom = y1 + 1 + s;
  const int TX = static_cast<int>(tile_j_.size()) - 1, TY = static_cast<int>(tile_k_.size()) - 1;
  std::vector<int> out;
  for (int ty = 0; ty < TY; ++ty) {
    const TileBox b0 = tile_box(tile_j_, tile_k_, 0, ty);
    if (ys_[static_cast<size_t>(b0.k1)] < reach_top || ys_[static_cast<size_t>(b0.k0)] > reach_bottom) continue;
    for (int tx = 0; tx < TX; ++tx) {
      const TileBox b = tile_box(tile_j_, tile_k_, tx, ty);
      if (xs_[static_cast<size_t>(b.j1)] < reach_lo || xs_[static_cast<size_t>(b.j0)] > reach_hi) continue;
      out.push_back(ty * TX + tx);
    }
  }
  return out;
}

}  // namespace pathlab
