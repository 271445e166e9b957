#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "heading/heading_internal.hpp"
#include "pathlab/collision.hpp"
#include "base/angle_dir.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {

const char* to_string(HeadingFailure failure) noexcept {
  switch (failure) {
    case HeadingFailure::none: return "none";
    case HeadingFailure::start_in_collision: return "start_in_collision";
    case HeadingFailure::goal_in_collision: return "goal_in_collision";
    case HeadingFailure::unreachable: return "unreachable";
    case HeadingFailure::budget_exhausted: return "budget_exhausted";
  }
  return "?";
}

namespace detail {

namespace {

// GoalDistance's steps in the order settle() relaxes them (bit k of a cell's mask is step k):
// the 4 orthogonal and the 4 diagonal neighbours, then per diagonal k = 4..7 its two (2, 1)
// steps, long along x first. Integer costs: 10 (orthogonal), 14 (diagonal, a slight
// underestimate of 10 sqrt 2), 22 (knight, of 10 sqrt 5).
constexpr int kStepDx[16] = {1, -1, 0, 0, 1, 1, -1, -1, 2, 1, 2, 1, -2, -1, -2, -1};
constexpr int kStepDy[16] = {0, 0, 1, -1, 1, -1, 1, -1, 1, 2, -1, -2, 1, 2, -1, -2};
constexpr int32_t kStepCost[16] = {10, 10, 10, 10, 14, 14, 14, 14, 22, 22, 22, 22, 22, 22, 22, 22};

/// The step masks of 8 cells in a row at once (SWAR: one byte lane per cell), the first cell's
/// passability byte at `p` in the padded map (row stride `s`; bytes 0 or 1), every cell at
/// least 1 from the map's edge so that every cell up to 2 away is in the padded map: the same
/// rules as the guarded tests of GoalDistance::mark_steps() without branches, about 15
/// instructions a cell instead of 120 (a whole-map pass per grid and radius). Little-endian.
void row_step_masks(const uint8_t* p, ptrdiff_t s, bool knight, uint16_t* out) {
  const auto at = [p](ptrdiff_t o) {
    uint64_t v = 0;
    std::memcpy(&v, p + o, sizeof v);
    return v;
  };
  const uint64_t e = at(1), wst = at(-1), so = at(s), no = at(-s);
  const uint64_t dse = at(s + 1), dne = at(-s + 1), dsw = at(s - 1), dnw = at(-s - 1);
  // Each lane holds 0 or 1, shifted by at most 7: no carry into the next lane.
  const uint64_t lo = e | wst << 1 | so << 2 | no << 3 | (dse & (e | so)) << 4 | (dne & (e | no)) << 5 |
                      (dsw & (wst | so)) << 6 | (dnw & (wst | no)) << 7;
  uint64_t hi = 0;
  if (knight) {
    // A knight step needs its diagonal cell (not the diagonal's corner rule), the cell one step
    // along its long axis and its target.
    hi = (dse & e & at(s + 2)) | (dse & so & at(2 * s + 1)) << 1 | (dne & e & at(-s + 2)) << 2 |
         (dne & no & at(-2 * s + 1)) << 3 | (dsw & wst & at(s - 2)) << 4 | (dsw & so & at(2 * s - 1)) << 5 |
         (dnw & wst & at(-s - 2)) << 6 | (dnw & no & at(-2 * s - 1)) << 7;
  }
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<uint16_t>(((lo >> (8 * i)) & 0xffu) | ((hi >> (8 * i)) & 0xffu) << 8);
}

}  // namespace

bool GoalDistance::begin(const Grid& grid, Cell goal, double agent_radius, int64_t until, BudgetMeter* meter) {
  const double relaxed = std::max(0.0, agent_radius - 0.5 * kSqrt2 - 1e-9);
  if (intact_ && grid_ == &grid && w_ == grid.width() && h_ == grid.height() && goal_ == goal && relaxed_ == relaxed)
    return until < 0 || settle(until, meter);  // the same goal again: keep what is settled
  // The passable cells depend on the grid and the radius, not on the goal: a new goal on the
  // same grid keeps them (a whole-map pass, a tenth of a short query's goal distances).
  if (grid_ != &grid || w_ != grid.width() || h_ != grid.height() || relaxed_ != relaxed || pass_.empty())
    pad_passable(grid, relaxed);
  grid_ = &grid;
  goal_ = goal;
  relaxed_ = relaxed;
  intact_ = true;
  w_ = grid.width();
  h_ = grid.height();
  dist_.assign(static_cast<size_t>(w_) * static_cast<size_t>(h_), kUnreached);
  for (auto& b : buckets_) b.clear();
  pending_ = 0;
  until_clock_ = 4096;
  if (!grid.in_bounds(goal)) return true;  // nothing reachable: every at() is +infinity
  // Aimed for Directional A* (knight steps) only. Hybrid A*'s field (8 neighbours) gains as
  // much (its search about 10% in bench_vehicle_replan), but its smoother's budget of tries
  // per expansion was set against the old search cost (README, seventeenth round): 6 of its 40
  // smoothers then cost more than their search. Unaimed, the settling is Dijkstra's as before.
  aim(knight_ ? until : -1);
  const int32_t gi = goal.y * w_ + goal.x;
  dist_[static_cast<size_t>(gi)] = 0;
  key_ = bound_(goal.x, goal.y);
  buckets_[static_cast<size_t>(key_ % kBuckets)].push_back(Entry{gi, 0});
  pending_ = 1;
  return until < 0 || settle(until, meter);
}

void GoalDistance::aim(int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(w_) * h_) {
    bound_ = Bound{};
    return;
  }
  // The norm of the steps (see Bound): with knight steps a (2, 1) step costs 22 =
  // 10 * 2 + 2 * 1 = 8 * 2 + 6 * 1, a diagonal 14 = 8 + 6 > 10 + 2, a straight one 10 > 8.
  bound_ = Bound{Cell{static_cast<int>(index % w_), static_cast<int>(index / w_)}, 10, knight_ ? 2 : 4,
                 knight_ ? 8 : 10, knight_ ? 6 : 4};
}

void GoalDistance::pad_passable(const Grid& grid, double relaxed) {
  const int w = grid.width(), h = grid.height();
  const std::vector<uint8_t> inner = passable_cells(grid, relaxed);
  pass_.assign(static_cast<size_t>(w + 2) * static_cast<size_t>(h + 2), 0);
  for (int y = 0; y < h; ++y)
    std::copy_n(inner.begin() + static_cast<ptrdiff_t>(y) * w, w,
                pass_.begin() + static_cast<ptrdiff_t>(y + 1) * (w + 2) + 1);
  w_ = w;
  h_ = h;
  steps_.assign(static_cast<size_t>(w) * static_cast<size_t>(h), 0);
  ready_.assign((steps_.size() + (size_t{1} << kBlockShift) - 1) >> kBlockShift, 0);
}

void GoalDistance::mark_block(size_t b) {
  const int64_t first = static_cast<int64_t>(b) << kBlockShift;
  const int64_t last = std::min(first + (int64_t{1} << kBlockShift), static_cast<int64_t>(steps_.size())) - 1;
  for (int64_t row_start = first; row_start <= last;) {  // the block's pieces of rows
    const int y = static_cast<int>(row_start / w_), x = static_cast<int>(row_start % w_);
    const int x_end = static_cast<int>(std::min<int64_t>(w_ - 1, x + (last - row_start)));
    mark_steps(Cell{x, y}, Cell{x_end, y});
    row_start += x_end - x + 1;
  }
  ready_[b] = 1;
}

void GoalDistance::mark_steps(Cell lo, Cell hi) {
  // The tests settle() made per expanded cell before the masks, in the same order: a diagonal
  // step needs one of its two orthogonal cells, a (2, 1) step its diagonal cell, the cell one
  // step along its long axis and its target (a crossed cell outside the map is the border's,
  // so the target is read only inside the border: x and y stay >= -1 here).
  const size_t stride = static_cast<size_t>(w_) + 2;
  auto ok = [&](int x, int y) { return pass_[static_cast<size_t>(y + 1) * stride + static_cast<size_t>(x + 1)] != 0; };
  constexpr bool kSwar = std::endian::native == std::endian::little;
  for (int y = std::max(lo.y, 0); y <= std::min(hi.y, h_ - 1); ++y)
    for (int x = std::max(lo.x, 0); x <= std::min(hi.x, w_ - 1); ++x) {
      const size_t cell = static_cast<size_t>(y) * static_cast<size_t>(w_) + static_cast<size_t>(x);
      if (kSwar && x >= 1 && y >= 1 && x + 9 <= w_ && y + 2 <= h_ && x + 7 <= hi.x) {
        row_step_masks(&pass_[static_cast<size_t>(y + 1) * stride + static_cast<size_t>(x + 1)],
                       static_cast<ptrdiff_t>(stride), knight_, &steps_[cell]);
        x += 7;
        continue;
      }
      uint32_t m = 0;
      for (int k = 0; k < 8; ++k) {
        const int nx = x + kStepDx[k], ny = y + kStepDy[k];
        if (!ok(nx, ny) || (k >= 4 && !ok(nx, y) && !ok(x, ny))) continue;
        m |= 1u << k;
      }
      for (int k = 4; k < 8 && knight_; ++k) {
        if (!ok(x + kStepDx[k], y + kStepDy[k])) continue;
        if (ok(x + kStepDx[k], y) && ok(x + 2 * kStepDx[k], y + kStepDy[k])) m |= 1u << (8 + 2 * (k - 4));
        if (ok(x, y + kStepDy[k]) && ok(x + kStepDx[k], y + 2 * kStepDy[k])) m |= 1u << (9 + 2 * (k - 4));
      }
      steps_[cell] = static_cast<uint16_t>(m);
    }
}

void GoalDistance::edited(const Grid& grid, const CellRect& changed) {
  intact_ = false;  // the settled distances start over at the next begin()
  if (pass_.empty() || grid_ != &grid || w_ != grid.width() || h_ != grid.height()) return;
  // A cell is passable when the disc of radius relaxed_ around its centre is clear: a changed
  // cell decides it for cells less than relaxed_ + 1/2 away. The piece passable_cells() runs
  // on reaches as far again, so the cells mended see every wall the whole-map pass saw.
  const int reach = static_cast<int>(std::ceil(relaxed_)) + 1;
  const Cell lo{std::max(changed.min.x - reach, 0), std::max(changed.min.y - reach, 0)};
  const Cell hi{std::min(changed.max.x + reach, w_ - 1), std::min(changed.max.y + reach, h_ - 1)};
  if (hi.x < lo.x || hi.y < lo.y) return;
  const Cell plo{std::max(lo.x - reach, 0), std::max(lo.y - reach, 0)};
  const Cell phi{std::min(hi.x + reach, w_ - 1), std::min(hi.y + reach, h_ - 1)};
  Grid piece = Grid::create(phi.x - plo.x + 1, phi.y - plo.y + 1).value();
  for (int y = plo.y; y <= phi.y; ++y)
    for (int x = plo.x; x <= phi.x; ++x) piece.set_cost(x - plo.x, y - plo.y, grid.cost(x, y));
  const std::vector<uint8_t> inner = passable_cells(piece, relaxed_);
  const size_t stride = static_cast<size_t>(w_) + 2;
  for (int y = lo.y; y <= hi.y; ++y)
    for (int x = lo.x; x <= hi.x; ++x)
      pass_[static_cast<size_t>(y + 1) * stride + static_cast<size_t>(x + 1)] =
          inner[static_cast<size_t>(piece.index(x - plo.x, y - plo.y))];
  // A cell's steps read the cells up to 2 away (a (2, 1) step's target): their blocks are
  // worked out again when settle() next expands one of their cells.
  for (int y = std::max(lo.y - 2, 0); y <= std::min(hi.y + 2, h_ - 1); ++y) {
    const int64_t row = static_cast<int64_t>(y) * w_;
    const int64_t b0 = (row + std::max(lo.x - 2, 0)) >> kBlockShift, b1 = (row + std::min(hi.x + 2, w_ - 1)) >> kBlockShift;
    std::fill(ready_.begin() + b0, ready_.begin() + b1 + 1, uint8_t{0});
  }
}

bool GoalDistance::settle(int64_t index, BudgetMeter* meter) {
  if (dist_[static_cast<size_t>(index)] < 0) return true;
  return bound_.aimed() ? settle_run<true>(index, meter) : settle_run<false>(index, meter);
}

template <bool kAimed>
bool GoalDistance::settle_run(int64_t index, BudgetMeter* meter) {
  // A* over Dial's buckets (keys: distance + bound_(), integers) with the integer
  // step costs of kStepCost: every key it files is at least the one expanded (the bound is
  // consistent), so the buckets are taken in key order, and a cell is settled when expanded.
  // Each bucket is a stack, so of equal keys the cell filed last (nearer the target along its
  // way) goes first and the target is reached with fewer cells of its key. A cell's steps
  // come from its mask (steps_, its block worked out at the first expansion in it), the
  // targets as offsets in the row-major map; a settled target's ~d is negative, so no step
  // tries it again. The loop's state is kept in locals (a push may reallocate a bucket, which
  // would make the compiler reload members).
  int32_t offset[16];
  for (int k = 0; k < 16; ++k) offset[k] = kStepDy[k] * w_ + kStepDx[k];
  const uint32_t w = static_cast<uint32_t>(w_);
  const Bound bound = bound_;
  int32_t* dist = dist_.data();
  uint32_t key = static_cast<uint32_t>(key_);
  size_t pending = pending_;
  bool stopped = false, reached = false;
  while (pending > 0 && !reached && !stopped) {
    std::vector<Entry>& bucket = buckets_[key % kBuckets];
    while (!bucket.empty()) {
      if (meter != nullptr && --until_clock_ == 0) {
        until_clock_ = 4096;
        if ((stopped = meter->check_clock() != BudgetStop::none)) break;  // nothing lost: it may resume
      }
      const Entry e = bucket.back();
      bucket.pop_back();
      --pending;
      const size_t id = static_cast<size_t>(e.cell);
      if (dist[id] != e.dist) continue;  // stale
      dist[id] = ~e.dist;
      if (ready_[id >> kBlockShift] == 0) mark_block(id >> kBlockShift);
      const int x = kAimed ? static_cast<int>(static_cast<uint32_t>(e.cell) % w) : 0;
      const int y = kAimed ? static_cast<int>(static_cast<uint32_t>(e.cell) / w) : 0;
      for (uint32_t m = steps_[id]; m != 0; m &= m - 1) {
        const int k = std::countr_zero(m);
        const int32_t ni = e.cell + offset[k], nd = e.dist + kStepCost[k];
        if (nd < dist[ni]) {
          dist[ni] = nd;
          uint32_t nkey = static_cast<uint32_t>(nd);
          if constexpr (kAimed) nkey += static_cast<uint32_t>(bound(x + kStepDx[k], y + kStepDy[k]));
          buckets_[nkey % kBuckets].push_back(Entry{ni, nd});
          ++pending;
        }
      }
      if ((reached = e.cell == index)) break;
    }
    if (!reached && !stopped) ++key;
  }
  key_ = static_cast<int32_t>(key);
  pending_ = pending;
  return !stopped;
}

SearchBudget combined_budget(int64_t max_expansions, const SearchBudget& budget) {
  SearchBudget b = budget;
  if (max_expansions > 0 && (b.max_expansions <= 0 || max_expansions < b.max_expansions)) b.max_expansions = max_expansions;
  return b;
}

Status check_budget(int64_t max_expansions, const SearchBudget& budget) {
  if (max_expansions < 0) return fail(StatusCode::invalid_argument, "max_expansions must be >= 0");
  if (budget.max_expansions < 0) return fail(StatusCode::invalid_argument, "budget.max_expansions must be >= 0");
  if (!(budget.time_ms >= 0.0) || !std::isfinite(budget.time_ms))
    return fail(StatusCode::invalid_argument, "budget.time_ms must be a finite number >= 0 (0 = no limit)");
  return ok_status();
}

void mark_budget_stop(HeadingPath& out, BudgetStop why, const SearchBudget& budget, const std::string& expansion_text) {
  out.failure = HeadingFailure::budget_exhausted;
  out.partial = true;
  out.budget_stop = why;
  if (why == BudgetStop::time) {
    out.reason = "time budget exhausted (time_ms = " + fmt_number(budget.time_ms) +
                 ") before reaching the goal; the path is the best partial one";
  } else if (why == BudgetStop::cancelled) {
    out.reason = "cancelled before reaching the goal; the path is the best partial one";
  } else {
    out.reason = expansion_text;
  }
}

SegmentChecker::SegmentChecker(const Grid& grid, double agent_radius, bool with_field)
    : grid_(&grid), width_(grid.width()), radius_(agent_radius) {
  if (with_field) field_ = ClearanceField(grid);
  const int w = grid.width(), h = grid.height();
  rings_.assign(static_cast<size_t>(w) * static_cast<size_t>(h), 0);
  // Two-pass Chebyshev distance transform; the border counts as a wall one cell outside.
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int32_t v = grid.is_free(x, y) ? std::min(std::min(x + 1, y + 1), std::min(w - x, h - y)) : 0;
      if (v > 0) {
        if (x > 0) v = std::min(v, rings_[static_cast<size_t>(y) * w + x - 1] + 1);
        if (y > 0) {
          for (int dx = -1; dx <= 1; ++dx)
            if (x + dx >= 0 && x + dx < w) v = std::min(v, rings_[static_cast<size_t>(y - 1) * w + x + dx] + 1);
        }
      }
      rings_[static_cast<size_t>(y) * w + x] = v;
    }
  for (int y = h - 1; y >= 0; --y)
    for (int x = w - 1; x >= 0; --x) {
      int32_t& v = rings_[static_cast<size_t>(y) * w + x];
      if (v == 0) continue;
      if (x + 1 < w) v = std::min(v, rings_[static_cast<size_t>(y) * w + x + 1] + 1);
      if (y + 1 < h)
        for (int dx = -1; dx <= 1; ++dx)
          if (x + dx >= 0 && x + dx < w) v = std::min(v, rings_[static_cast<size_t>(y + 1) * w + x + dx] + 1);
    }
}

namespace {

/// The Chebyshev distance transform's value of a free cell before its neighbours are read: the
/// map's border counts as a wall one cell outside.
int32_t border_rings(int x, int y, int w, int h) { return std::min(std::min(x + 1, y + 1), std::min(w - x, h - y)); }

}  // namespace

Status SegmentChecker::update(const Grid& grid, const CellRect& changed) {
  const int w = grid.width(), h = grid.height();
  if (static_cast<size_t>(w) * static_cast<size_t>(h) != rings_.size() || w != width_)
    return fail(StatusCode::invalid_argument, "the grid is " + std::to_string(w) + "x" + std::to_string(h) +
                                                  ", another size than the planner's: make a new planner");
  if (field_.fits(grid)) {
    if (Status s = field_.update(grid, changed); !s.ok()) return s;
  } else if (changed.max.x < changed.min.x || changed.max.y < changed.min.y) {
    return fail(StatusCode::invalid_argument, "changed rectangle is empty");
  }
  grid_ = &grid;
  const int cx0 = std::max(changed.min.x, 0), cy0 = std::max(changed.min.y, 0);
  const int cx1 = std::min(changed.max.x, w - 1), cy1 = std::min(changed.max.y, h - 1);
  if (cx0 > cx1 || cy0 > cy1) return fail(StatusCode::out_of_bounds, "changed rectangle lies outside the map");
  auto at = [&](int x, int y) -> int32_t& { return rings_[static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)]; };
  // A cell whose old distance is below its distance to the change has its nearest wall outside
  // the change, and keeps its distance. So the window grown until every cell on its frame is
  // such a cell is recomputed with the frame's distances fixed (a two-pass chessboard
  // transform, as in the constructor, reading the frame where it reaches out), which is exact.
  int x0 = cx0, y0 = cy0, x1 = cx1, y1 = cy1;
  for (int grow = 2;; grow *= 2) {
    x0 = std::max(cx0 - grow, 0), y0 = std::max(cy0 - grow, 0), x1 = std::min(cx1 + grow, w - 1), y1 = std::min(cy1 + grow, h - 1);
    bool frame_kept = true;
    auto check = [&](int x, int y) {
      if (x < 0 || y < 0 || x >= w || y >= h) return;
      const int d = std::max(std::max(cx0 - x, x - cx1), std::max(cy0 - y, y - cy1));
      if (at(x, y) >= d) frame_kept = false;
    };
    for (int x = x0 - 1; x <= x1 + 1 && frame_kept; ++x) check(x, y0 - 1), check(x, y1 + 1);
    for (int y = y0; y <= y1 && frame_kept; ++y) check(x0 - 1, y), check(x1 + 1, y);
    if (frame_kept || (x0 == 0 && y0 == 0 && x1 == w - 1 && y1 == h - 1)) break;
  }
  auto inside = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h; };
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      int32_t v = grid.is_free(x, y) ? border_rings(x, y, w, h) : 0;
      if (v > 0) {
        if (inside(x - 1, y)) v = std::min(v, at(x - 1, y) + 1);
        for (int dx = -1; dx <= 1; ++dx)
          if (inside(x + dx, y - 1)) v = std::min(v, at(x + dx, y - 1) + 1);
      }
      at(x, y) = v;
    }
  for (int y = y1; y >= y0; --y)
    for (int x = x1; x >= x0; --x) {
      int32_t& v = at(x, y);
      if (v == 0) continue;
      if (inside(x + 1, y)) v = std::min(v, at(x + 1, y) + 1);
      for (int dx = -1; dx <= 1; ++dx)
        if (inside(x + dx, y + 1)) v = std::min(v, at(x + dx, y + 1) + 1);
    }
  return ok_status();
}

bool SegmentChecker::point_clear(Vec2 p) const { return pathlab::point_clear(*grid_, field_, p, radius_); }

/// The point `s` along line `seg` whose heading's cosine and sine are `dir`: segment_state()'s
/// own arithmetic, with the sine and cosine worked out once per check instead of once per point
/// (a line check asks for up to four points). [Units: cells]
static Vec2 line_point(const Segment& seg, Vec2 dir, double s) {
  const double d = (seg.gear == Gear::reverse ? -1.0 : 1.0) * s;
  return seg.start + d * dir;
}

/// Rotates `v` by the angle whose cosine and sine are c and s.
static Vec2 rotated(Vec2 v, double c, double s) { return Vec2(c * v.x - s * v.y, s * v.x + c * v.y); }
/// Rotates `v` by the angle whose unit vector (cosine, sine) is `cs`.
static Vec2 rotated(Vec2 v, Vec2 cs) { return rotated(v, cs.x, cs.y); }

ArcTurns arc_turns(double sweep) {
  const dmath::SinCos half = dmath::sincos(0.5 * sweep), full = dmath::sincos(sweep);
  return ArcTurns{sweep, half.cos, half.sin, full.cos, full.sin};
}

bool SegmentChecker::clear(const Segment& seg, const ArcTurns* turns) const {
  // An arc's points are its centre plus its start radius turned (what segment_state() computes
  // with a sine and cosine per point, to rounding): one sine and cosine per arc here, as the
  // planners check thousands of arcs per query and the trigonometry was a third of the check
  // (none with `turns`).
  const bool arc = seg.kind == SegmentKind::arc;
  if (turns != nullptr && !(arc && turns->sweep == seg.sweep)) turns = nullptr;
  const Vec2 radial = seg.start - seg.center;
  const bool line = seg.kind == SegmentKind::line;
  const Vec2 dir = line ? angle_dir(seg.heading) : Vec2(0.0);
  const Vec2 mid = line ? line_point(seg, dir, 0.5 * seg.length)
                   : !arc ? segment_state(seg, 0.5 * seg.length).pos
                   : turns != nullptr ? seg.center + rotated(radial, turns->half_cos, turns->half_sin)
                                      : seg.center + rotated(radial, angle_dir(0.5 * seg.sweep));
  if (!is_finite(mid)) return false;
  const Cell c = cell_of(mid);
  if (grid_->in_bounds(c)) {
    const double room = rings_[static_cast<size_t>(grid_->index(c.x, c.y))] - 1.0;
    if (room > 0.5 * seg.length + radius_ + kArcMargin) return true;
  }
  // The same test with the exact distance bound of the field, tighter than the rings by up to 1.5
  // cells. It demands room for the widest chord below (sagitta kArcChordSagitta), so whatever
  // it accepts the chord checks would accept too: the answers stay the same.
  // (1e-9: the rotated middle point may differ from segment_state()'s by rounding.)
  if (field_.fits(*grid_) && field_.lower_bound(mid) > 0.5 * seg.length + radius_ + kArcChordSagitta + kArcMargin + 1e-9)
    return true;
  if (field_.fits(*grid_) && seg.kind != SegmentKind::clothoid) {
    const int answer = field_answer(seg, mid, turns, dir);
    if (answer != 0) return answer > 0;
  }
  if (line) return segment_clear(*grid_, field_, line_point(seg, dir, 0.0), line_point(seg, dir, seg.length), radius_);
  const double ratio = std::min(kArcChordSagitta / seg.radius, 1.0);
  const double max_angle = std::min(2.0 * dmath::acos(1.0 - ratio), kPi / 4);
  const int n = std::max(1, static_cast<int>(std::ceil(std::abs(seg.sweep) / max_angle)));
  const double step = seg.sweep / n;
  const double sagitta = seg.radius * (1.0 - dmath::cos(0.5 * std::abs(step)));
  if (!arc) return clothoid_clear(seg, n, sagitta);
  // Chord ends k / n of the way: the start radius turned k times by step. The rounding of the
  // turns (about 1e-16 cells per chord) is far inside kArcMargin, the room kept beyond the
  // referee's own chord tolerance.
  const auto [sn, cs] = dmath::sincos(step);
  Vec2 a = seg.start, r = radial;
  for (int k = 1; k <= n; ++k) {
    r = rotated(r, cs, sn);
    const Vec2 b = seg.center + r;
    if (!segment_clear(*grid_, field_, a, b, radius_ + sagitta + kArcMargin)) return false;
    a = b;
  }
  return true;
}

int SegmentChecker::field_answer(const Segment& seg, Vec2 mid, const ArcTurns* turns, Vec2 dir) const {
  // Near walls, where the test above fails, three points decide most primitives. Every point of
  // a line or arc is within a quarter of its length of its start, middle or end (an arc's half
  // is split at its middle point: the chord over an eighth of the sweep is shorter than the arc
  // over it), and every chord point of the check below is within its sagitta of the arc; so
  // room for a quarter length plus the radius plus twice the widest sagitta at all three
  // points means every chord disc is clear. And a disc of the agent's radius around the end or
  // middle point that the field shows overlapping a wall means a chord through that point is
  // blocked. Both give the chord checks' answer with one to three lookups instead of 3 chords
  // walked (half of a maze query's expansions end here). 1e-9 covers the rounding of the
  // rotated points.
  const bool arc = seg.kind == SegmentKind::arc;
  const Vec2 radial = seg.start - seg.center;
  const Vec2 end = !arc ? line_point(seg, dir, seg.length)
                   : turns != nullptr ? seg.center + rotated(radial, turns->cos, turns->sin)
                                      : seg.center + rotated(radial, angle_dir(seg.sweep));
  if (!is_finite(end)) return 0;
  const double blocked = radius_ - 1e-6;
  if (field_.upper_bound(end) < blocked || field_.upper_bound(mid) < blocked) return -1;
  const double room = 0.25 * seg.length + radius_ + (arc ? 2.0 * kArcChordSagitta + kArcMargin : 0.0) + 1e-9;
  if (field_.lower_bound(mid) > room && field_.lower_bound(end) > room && field_.lower_bound(seg.start) > room) return 1;
  return 0;
}

bool SegmentChecker::clothoid_clear(const Segment& seg, int n, double sagitta) const {
  // A clothoid's sweep and radius are arc-like bounds (segment_path.hpp): its chords at n
  // equal lengths are within `sagitta` of it.
  Vec2 a = segment_state(seg, 0.0).pos;
  for (int k = 1; k <= n; ++k) {
    const Vec2 b = segment_state(seg, seg.length * (static_cast<double>(k) / n)).pos;
    if (!segment_clear(*grid_, field_, a, b, radius_ + sagitta + kArcMargin)) return false;
    a = b;
  }
  return true;
}

bool SegmentChecker::clear(const SegmentPath& path) const {
  if (path.empty()) return point_clear(path.start().pos);
  for (const Segment& s : path.segments())
    if (!clear(s)) return false;
  return true;
}

std::string fmt_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string pose_text_deg(const Pose& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%g, %g, %g deg)", p.pos.x, p.pos.y, rad_to_deg(p.heading));
  return buf;
}

Status check_pose(const Grid& grid, const Pose& pose, const char* what) {
  if (!is_finite(pose.pos) || !std::isfinite(pose.heading))
    return fail(StatusCode::invalid_argument, std::string(what) + " pose is not finite");
  if (!grid.contains(pose.pos) || pose.pos.x >= grid.width() || pose.pos.y >= grid.height())
    return fail(StatusCode::out_of_bounds, std::string(what) + " " + pose_text_deg(pose) + " is outside the " +
                                               std::to_string(grid.width()) + "x" + std::to_string(grid.height()) + " map");
  return ok_status();
}

}  // namespace detail
}  // namespace pathlab
