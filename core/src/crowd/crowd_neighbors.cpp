// The neighbour query's data: grid buckets of units, packed as arrays for the query, and an
// index of where the map's walls have edges, for the wall lines of ORCA (crowd_avoid.cpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "crowd/crowd_impl.hpp"

namespace pathlab {

using crowd::kBucketSide;

void CrowdImpl::rebuild_buckets() {
  const int w = grid_.width() / kBucketSide + 1, h = grid_.height() / kBucketSide + 1;
  const size_t n = agents_.size();
  if (w != bucket_w_ || h != bucket_h_ || n < agent_bucket_.size()) {  // the first step
    bucket_w_ = w;
    bucket_h_ = h;
    buckets_.assign(static_cast<size_t>(w) * static_cast<size_t>(h), {});
    agent_bucket_.clear();
  }
  auto bucket_of = [&](Vec2 p) {
    const int bx = std::clamp(static_cast<int>(p.x) / kBucketSide, 0, bucket_w_ - 1);
    const int by = std::clamp(static_cast<int>(p.y) / kBucketSide, 0, bucket_h_ - 1);
    return by * bucket_w_ + bx;
  };
  pos_.resize(n);
  vel_.resize(n);
  radius_.resize(n);
  top_speed_.resize(n);
  tracking_.resize(n);
  // Only a unit added since the last step is copied: the arrays are kept equal to the units'
  // state where it changes (move() writes pos_, vel_, tracking_; the radius and the top speed
  // are the unit's for good). A copy of every unit here was most of this serial pass at
  // 10,000 units (its first touch of each unit's record, a kilobyte apart).
  for (size_t i = arrays_filled_; i < n; ++i) {
    const crowd::Agent& a = agents_[i];
    pos_[i] = a.st.pose.pos;
    vel_[i] = a.st.velocity;
    radius_[i] = a.def.unit.radius;
    top_speed_[i] = a.def.unit.max_speed;
    tracking_[i] = a.tracking ? 1 : 0;
  }
  arrays_filled_ = n;
  for (size_t i = 0; i < n; ++i) {
    const int b = bucket_of(pos_[i]);
    if (i == agent_bucket_.size()) {  // added since the last step
      agent_bucket_.push_back(b);
      buckets_[static_cast<size_t>(b)].push_back(static_cast<int>(i));
      continue;
    }
    const int old = agent_bucket_[i];
    if (b == old) continue;
    std::vector<int>& from = buckets_[static_cast<size_t>(old)];
    *std::find(from.begin(), from.end(), static_cast<int>(i)) = from.back();
    from.pop_back();
    buckets_[static_cast<size_t>(b)].push_back(static_cast<int>(i));
    agent_bucket_[i] = b;
  }
  pack_buckets();
  if (wall_edges_stale_) index_wall_edges();
}

void CrowdImpl::pack_buckets() {
  // The query reads a bucket's units one after the other: from one array each, in bucket
  // order, instead of an id per unit and then its entry of pos_ and radius_ somewhere else
  // (the id and position loads were the query's largest costs in a profile at 10,000 units).
  const size_t nb = buckets_.size();
  pack_start_.resize(nb + 1);
  pack_id_.resize(agents_.size());
  pack_x_.resize(agents_.size());
  pack_y_.resize(agents_.size());
  pack_r_.resize(agents_.size());
  int at = 0;
  for (size_t b = 0; b < nb; ++b) {
    pack_start_[b] = at;
    for (int j : buckets_[b]) {
      const size_t k = static_cast<size_t>(j), s = static_cast<size_t>(at++);
      pack_id_[s] = j;
      pack_x_[s] = pos_[k].x;
      pack_y_[s] = pos_[k].y;
      pack_r_[s] = radius_[k];
    }
  }
  pack_start_[nb] = at;
}

void CrowdImpl::find_neighbors(int id, crowd::Scratch& s) {
  const size_t self = static_cast<size_t>(id);
  const Vec2 p = pos_[self];
  const double r = radius_[self];
  const double range = def_.neighbor_distance + r + max_radius_;
  // The nearest `keep` by (gap, id), a total order, kept sorted as the candidates come: the
  // result does not depend on the buckets' order. Sorting every candidate in range (partial_sort
  // of 30-130 in a dense crowd) was a third of the step at 10,000 units; a candidate farther
  // than the current worst kept one is now dropped on its squared distance. The kept ones sit
  // in a small array on the stack (max_neighbors <= 64), a new one shifted in from the back.
  std::array<std::pair<double, int>, 64> best;
  const size_t keep = static_cast<size_t>(def_.max_neighbors);
  size_t kept = 0;
  // The worst gap that may still enter plus r, updated when the kept set changes (not per
  // candidate); a candidate of radius rk is farther than that when its squared distance
  // exceeds (worst_r + rk)^2, widened a little so rounding never drops one the exact test
  // below would keep.
  double worst_r = def_.neighbor_distance + r;
  auto reach2 = [&](double other_radius) {
    const double reach = worst_r + other_radius;
    return reach > 0.0 ? reach * reach * (1.0 + 1e-9) + 1e-12 : std::numeric_limits<double>::infinity();
  };
  // The unit's own bucket first, and no bucket farther than the worst kept unit could still
  // be: in a dense crowd the 10 nearest stand within a cell or two, and scanning every bucket
  // of the whole range was the largest single part of the parallel phase in a profile at
  // 10,000 units. Exact: a bucket is left only when all of its units would be dropped one by one.
  std::vector<std::pair<double, int>>& order = s.bucket_order;
  const size_t nb = buckets_by_distance(p, range, order);
  // Raw pointers: the stores into `best` would otherwise make the compiler load every array's
  // start again for each candidate.
  const int* const start = pack_start_.data();
  const int* const ids = pack_id_.data();
  const double *const xs = pack_x_.data(), *const ys = pack_y_.data(), *const rs = pack_r_.data();
  const double max_gap = def_.neighbor_distance;
  for (size_t b = 0; b < nb; ++b) {
    if (order[b].first > reach2(max_radius_)) continue;
    const size_t bucket = static_cast<size_t>(order[b].second);
    const int end = start[bucket + 1];
    for (int slot = start[bucket]; slot < end; ++slot) {
      const Vec2 d(xs[slot] - p.x, ys[slot] - p.y);
      const double rk = rs[slot];
      if (glm::dot(d, d) > reach2(rk)) continue;  // farther than the worst gap that could still enter
      const int j = ids[slot];
      if (j == id) continue;
      const double gap = glm::length(d) - r - rk;
      if (!(gap < max_gap)) continue;
      const std::pair<double, int> c(gap, j);
      if (kept == keep) {
        if (!(c < best[kept - 1])) continue;
        --kept;
      }
      size_t at = kept++;
      for (; at > 0 && c < best[at - 1]; --at) best[at] = best[at - 1];
      best[at] = c;
      if (kept == keep) worst_r = best[kept - 1].first + r;
    }
  }
  s.found.assign(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(kept));
  std::vector<int>& out = agents_[self].st.neighbors;
  out.clear();
  for (size_t k = 0; k < kept; ++k) out.push_back(best[k].second);
}

size_t CrowdImpl::buckets_by_distance(Vec2 p, double range, std::vector<std::pair<double, int>>& order) const {
  const auto [bx0, by0, bx1, by1] = bucket_box(p - Vec2(range), p + Vec2(range));
  // p's own bucket first, then the rest (not sorted: sorting the 9-16 buckets cost as much as
  // the units it spared). The own bucket's units bring the worst kept gap down at once.
  const int cx = std::clamp(static_cast<int>(std::floor(p.x / kBucketSide)), bx0, bx1);
  const int cy = std::clamp(static_cast<int>(std::floor(p.y / kBucketSide)), by0, by1);
  auto add = [&](int bx, int by) {
    // The squared distance from p to the bucket's square (0 inside).
    const double x0 = bx * kBucketSide, y0 = by * kBucketSide;
    const double dx = std::max({x0 - p.x, 0.0, p.x - (x0 + kBucketSide)});
    const double dy = std::max({y0 - p.y, 0.0, p.y - (y0 + kBucketSide)});
    order.emplace_back(dx * dx + dy * dy, by * bucket_w_ + bx);
  };
  order.clear();
  add(cx, cy);
  for (int by = by0; by <= by1; ++by) {
    for (int bx = bx0; bx <= bx1; ++bx) {
      if (bx != cx || by != cy) add(bx, by);
    }
  }
  return order.size();
}

void CrowdImpl::index_wall_edges() {
  // Per line of cell edges, running counts of the cells along it whose two sides differ (one
  // free, the other blocked or outside the map): add_wall_lines() skips a line with none in its
  // stretch instead of asking is_free() twice per cell of it. Taken again after a door changes.
  const int w = grid_.width(), h = grid_.height();
  const size_t row = static_cast<size_t>(w) + 1, col = static_cast<size_t>(h) + 1;
  h_edges_.assign(col * row, 0);  // lines y = e, e in [0, h], along x
  v_edges_.assign(row * col, 0);  // lines x = e, e in [0, w], along y
  for (int e = 0; e <= h; ++e) {
    int* line = &h_edges_[static_cast<size_t>(e) * row];
    for (int x = 0; x < w; ++x) line[x + 1] = line[x] + (grid_.is_free(x, e - 1) != grid_.is_free(x, e) ? 1 : 0);
  }
  for (int e = 0; e <= w; ++e) {
    int* line = &v_edges_[static_cast<size_t>(e) * col];
    for (int y = 0; y < h; ++y) line[y + 1] = line[y] + (grid_.is_free(e - 1, y) != grid_.is_free(e, y) ? 1 : 0);
  }
  wall_edges_stale_ = false;
}

bool CrowdImpl::may_have_wall_edge(bool horizontal, int e, int lo, int hi) const {
  if (wall_edges_stale_) return true;  // not indexed since the grid changed: scan it
  const int w = grid_.width(), h = grid_.height();
  const int lines = horizontal ? h : w, along = horizontal ? w : h;
  // Off the map on both sides (or along it) no edge: the outside is a wall on either side.
  if (e < 0 || e > lines) return false;
  lo = std::max(lo, 0);
  hi = std::min(hi, along - 1);
  if (lo > hi) return false;
  const int* line = &(horizontal ? h_edges_ : v_edges_)[static_cast<size_t>(e) * (static_cast<size_t>(along) + 1)];
  return line[hi + 1] > line[lo];
}

}  // namespace pathlab
