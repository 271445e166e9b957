// Locating points on a wall-corner mesh (NavmeshDef::corners_only): its polygons come from
// triangles, not from the rectangles of the sub-grid, so a per-grid-cell list of the polygons
// touching each cell stands in for the rectangle lookup of Navmesh::locate.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "pathlab/navmesh.hpp"

namespace pathlab {

void Navmesh::index_cells() {
  // Each polygon goes into every grid cell its closure touches (a hair more: 1e-9 cells), so a
  // point's cell lists every polygon that holds it. A convex polygon's x-range within a row
  // band is its boundary's there; along an edge x is monotone in y, so the edge's part in the
  // band spans x between its points at the band's two lines (clamped to the edge).
  const int W = grid_.width(), H = grid_.height();
  constexpr double kPad = 1e-9;  // [Units: cells]
  std::vector<double> lo_x, hi_x;  // per row of the polygon's span
  auto for_cells = [&](const NavPolygon& P, auto&& f) {
    const auto r = ring(static_cast<int>(&P - polys_.data()));
    const int y_lo = std::max(0, static_cast<int>(std::floor(P.lo.y - kPad)));
    const int y_hi = std::min(H - 1, static_cast<int>(std::floor(P.hi.y + kPad)));
    if (y_hi < y_lo) return;
    lo_x.assign(static_cast<size_t>(y_hi - y_lo + 1), std::numeric_limits<double>::infinity());
    hi_x.assign(lo_x.size(), -std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < r.size(); ++i) {
      const Vec2 a = r[i], b = r[(i + 1) % r.size()];
      const double y0 = std::min(a.y, b.y), y1 = std::max(a.y, b.y);
      auto x_at = [&](double y) {
        y = std::clamp(y, y0, y1);
        return a.y == b.y ? (y == a.y ? a.x : b.x) : a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y);
      };
      const int k0 = std::max(y_lo, static_cast<int>(std::floor(y0 - kPad)));
      const int k1 = std::min(y_hi, static_cast<int>(std::floor(y1 + kPad)));
      for (int k = k0; k <= k1; ++k) {
        double xa = x_at(k), xb = x_at(k + 1.0);
        if (a.y == b.y) xa = a.x, xb = b.x;
        const size_t row = static_cast<size_t>(k - y_lo);
        lo_x[row] = std::min({lo_x[row], xa, xb});
        hi_x[row] = std::max({hi_x[row], xa, xb});
      }
    }
    for (int y = y_lo; y <= y_hi; ++y) {
      const size_t row = static_cast<size_t>(y - y_lo);
      if (!(lo_x[row] <= hi_x[row])) continue;
      const int c0 = std::max(0, static_cast<int>(std::floor(lo_x[row] - kPad)));
      const int c1 = std::min(W - 1, static_cast<int>(std::floor(hi_x[row] + kPad)));
      for (int c = c0; c <= c1; ++c) f(static_cast<size_t>(y) * static_cast<size_t>(W) + static_cast<size_t>(c));
    }
  };
  cell_first_.assign(static_cast<size_t>(W) * static_cast<size_t>(H) + 1, 0);
  for (const NavPolygon& P : polys_) for_cells(P, [&](size_t c) { ++cell_first_[c + 1]; });
  for (size_t c = 0; c + 1 < cell_first_.size(); ++c) cell_first_[c + 1] += cell_first_[c];
  cell_polys_.resize(static_cast<size_t>(cell_first_.back()));
  std::vector<int> fill(cell_first_.begin(), cell_first_.end() - 1);
  for (const NavPolygon& P : polys_) {
    const int id = static_cast<int>(&P - polys_.data());
    for_cells(P, [&](size_t c) { cell_polys_[static_cast<size_t>(fill[c]++)] = id; });
  }
}

int Navmesh::locate_in_cells(Vec2 p) const noexcept {
  const int W = grid_.width(), H = grid_.height();
  const size_t c = static_cast<size_t>(std::min(H - 1, static_cast<int>(p.y))) * static_cast<size_t>(W) +
                   static_cast<size_t>(std::min(W - 1, static_cast<int>(p.x)));
  for (int i = cell_first_[c]; i < cell_first_[c + 1]; ++i)
    if (contains(cell_polys_[static_cast<size_t>(i)], p)) return cell_polys_[static_cast<size_t>(i)];
  return -1;
}

}  // namespace pathlab
