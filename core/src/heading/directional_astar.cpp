#include "pathlab/directional_astar.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "curves/curve_internal.hpp"
#include "heading/heading_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

constexpr int kHeadings = 8;
constexpr double kHeadingStep = kPi / 4;
// Octile grid distances overestimate straight-line ones by at most 1 / cos(22.5 deg): the scale
// of the obstacle-aware distance used before field_scale(), kept for a move set it cannot bound.
constexpr double kOctileToEuclid = 0.92387953251128674;
// field_scale() gives up this fraction: GoalDistance's values are floats (0.1 d), whose rounding
// (half a float ulp at each end, under 1e-3 cells up to distances of 8,000 cells) may put up to
// that much more between a move's ends than its integer steps. Every move is at least 1 cell.
constexpr double kFieldScaleMargin = 1e-3;
// Dubins lengths exceed the straight-line distance by less than this many turning radii
// (the same bound Hybrid A* uses).
constexpr double kCurveSlackRadii = 4.0 * kPi;

/// Cells whose interior the disc of `radius` swept along `path` would overlap (conservative:
/// a cell touched at a corner or an edge by a radius-0 line counts, arcs get kArcMargin).
std::vector<Cell> footprint_of(const SegmentPath& path, double radius) {
  std::set<std::pair<int, int>> cells;
  auto mark = [&](Vec2 a, Vec2 b, double r, bool strict) {
    const int x0 = static_cast<int>(std::floor(std::min(a.x, b.x) - r)) - 1;
    const int x1 = static_cast<int>(std::floor(std::max(a.x, b.x) + r)) + 1;
    const int y0 = static_cast<int>(std::floor(std::min(a.y, b.y) - r)) - 1;
    const int y1 = static_cast<int>(std::floor(std::max(a.y, b.y) + r)) + 1;
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const double d = segment_box_distance(a, b, Vec2(x, y), Vec2(x + 1, y + 1));
        if (strict ? d < r - kClearanceTolerance : d <= 1e-12) cells.insert({x, y});
      }
  };
  for (const Segment& seg : path.segments()) {
    if (seg.kind == SegmentKind::line) {
      mark(segment_state(seg, 0.0).pos, segment_state(seg, seg.length).pos, radius, radius > 0.0);
      continue;
    }
    const double max_angle = std::min(2.0 * dmath::acos(1.0 - std::min(detail::kArcChordSagitta / seg.radius, 1.0)), kPi / 4);
    const int n = std::max(1, static_cast<int>(std::ceil(std::abs(seg.sweep) / max_angle)));
    const double sagitta = seg.radius * (1.0 - dmath::cos(0.5 * std::abs(seg.sweep) / n));
    Vec2 a = segment_state(seg, 0.0).pos;
    for (int k = 1; k <= n; ++k) {
      const Vec2 b = segment_state(seg, seg.length * (static_cast<double>(k) / n)).pos;
      mark(a, b, radius + sagitta + detail::kArcMargin, true);
      a = b;
    }
  }
  if (path.empty()) mark(path.start().pos, path.start().pos, radius, radius > 0.0);
  std::vector<Cell> out;
  out.reserve(cells.size());
  for (const auto& [x, y] : cells) out.push_back(Cell{x, y});
  return out;
}

double total_turn(const DubinsSolution& s) {
  const bool ccc = s.word == DubinsWord::RLR || s.word == DubinsWord::LRL;
  return s.params[0] + s.params[2] + (ccc ? s.params[1] : 0.0);
}

Pose lattice_pose(Cell c, int heading) { return Pose{cell_center(c), heading * kHeadingStep}; }

/// A chain of two moves replaces a move when it is at most this fraction longer. Exact
/// equivalents (a straight piece through a cell centre split off as its own move) alone
/// leave about 90 moves per heading at radius 4; 5% leaves about 25 and 2-3 times faster
/// searches with the same success rates on bench_heading's maps. Paths may therefore be up
/// to 5% longer per replaced move than with the full set, and a dropped move's chain sweeps
/// slightly different cells, so in a tight spot the full set could still fit where the
/// chain does not.
constexpr double kDominanceSlack = 0.05;

/// Clears keep[i] for every candidate that a chain of two shorter candidates replaces (same
/// start and end lattice poses, at most kDominanceSlack longer). Candidates are visited in
/// order of length, so a second link that was itself dropped is replaced by kept moves in
/// turn (by induction on length): every dropped move stays reachable through kept ones.
void prune_dominated(const std::vector<DirectionalMove>& candidates, int reach, std::vector<uint8_t>& keep) {
  const int side = 2 * reach + 1;
  auto slot = [&](int h, Cell off, int h2) {
    return ((static_cast<size_t>(h) * side + static_cast<size_t>(off.y + reach)) * side + static_cast<size_t>(off.x + reach)) *
               kHeadings + static_cast<size_t>(h2);
  };
  std::vector<int32_t> table(static_cast<size_t>(kHeadings) * side * side * kHeadings, -1);
  for (size_t i = 0; i < candidates.size(); ++i) {
    const DirectionalMove& m = candidates[i];
    table[slot(m.from_heading, m.offset, m.to_heading)] = static_cast<int32_t>(i);
  }
  std::vector<int32_t> order(candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return candidates[static_cast<size_t>(a)].length < candidates[static_cast<size_t>(b)].length;
  });
  std::vector<std::vector<int32_t>> kept(kHeadings);  // per from_heading, in length order
  for (const int32_t mi : order) {
    const DirectionalMove& m = candidates[static_cast<size_t>(mi)];
    bool dominated = false;
    for (const int32_t ai : kept[static_cast<size_t>(m.from_heading)]) {
      const DirectionalMove& a = candidates[static_cast<size_t>(ai)];
      if (a.length >= m.length) break;
      const Cell rest{m.offset.x - a.offset.x, m.offset.y - a.offset.y};
      if (std::max(std::abs(rest.x), std::abs(rest.y)) > reach || (rest.x == 0 && rest.y == 0)) continue;
      const int32_t bi = table[slot(a.to_heading, rest, m.to_heading)];
      if (bi < 0) continue;
      const DirectionalMove& b = candidates[static_cast<size_t>(bi)];
      if (b.length < m.length && a.length + b.length <= m.length * (1.0 + kDominanceSlack) + 1e-9) {
        dominated = true;
        break;
      }
    }
    if (dominated)
      keep[static_cast<size_t>(mi)] = 0;
    else
      kept[static_cast<size_t>(m.from_heading)].push_back(mi);
  }
}

/// The largest cost [Units: field distance units, 0.1 cell] GoalDistance may put between the two
/// ends of move `m` when only its footprint's cells are known to be free: the field itself
/// (GoalDistance(true), the planner's own rules) on a patch where every other cell is blocked,
/// settled from the move's end (its steps are symmetric). -1 when no chain joins the ends, or
/// either end is not passable for the agent.
int footprint_field_cost(const DirectionalMove& m, double agent_radius) {
  const double relaxed = std::max(0.0, agent_radius - 0.5 * kSqrt2 - 1e-9);
  const int border = static_cast<int>(std::ceil(relaxed)) + 2;
  const int half = m.extent + border, side = 2 * half + 1;
  Grid patch = Grid::create(side, side).value();
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) patch.set_cost(x, y, kBlocked);
  for (const Cell& d : m.footprint) patch.set_cost(d.x + half, d.y + half, 1.0f);
  detail::GoalDistance field(true);
  const Cell from{half, half}, to{m.offset.x + half, m.offset.y + half};
  (void)field.begin(patch, to, agent_radius, -1, nullptr);
  // The field seeds its goal even where the agent does not fit: both ends must be passable.
  const auto passable = [&](Cell c) { return field.padded_passable()[static_cast<size_t>((c.y + 1) * (side + 2) + c.x + 1)] != 0; };
  if (!passable(from) || !passable(to)) return -1;
  return field.steps_at(patch.index(from.x, from.y));
}

/// The largest factor the obstacle-aware distance may be scaled by and stay a consistent
/// heuristic for these moves: min over moves of length / footprint_field_cost(). For a move
/// from cell a to cell b whose footprint is clear (else the search does not take it), those
/// cells are passable for the field, so field(a) <= field(b) + cost and s field(a) <= s
/// field(b) + length. The planner's field takes (2, 1) steps too (GoalDistance(true)), which the
/// lattice's shallow S-bends hardly undercut: for the service's units (radius 2, agent 0.3) the
/// factor is 0.998 (after kFieldScaleMargin), against the fixed 0.924 before, whose 8-neighbour
/// field made a (3, 1) S-bend of 3.197 cells cost 3.4. For agent radius 0 it is 0.979 at radius 2
/// (a footprint of cells the curve only touches leaves longer chains; with 8 neighbours it was
/// 0.898 there, so the old 0.924 could overestimate on such moves).
double field_scale(const std::vector<DirectionalMove>& moves, double agent_radius) {
  double scale = 1.0;
  for (const DirectionalMove& m : moves) {
    const int cost = footprint_field_cost(m, agent_radius);
    if (cost <= 0) return kOctileToEuclid;
    scale = std::min(scale, m.length / (0.1 * cost));
  }
  return scale * (1.0 - kFieldScaleMargin);
}

}  // namespace

int DirectionalAStar::heading_index(double heading) {
  const double k = std::round(wrap_angle(heading) / kHeadingStep);
  return ((static_cast<int>(k) % kHeadings) + kHeadings) % kHeadings;
}

int directional_auto_reach(double turning_radius) {
  if (!(turning_radius > 0.0) || !std::isfinite(turning_radius)) return 1;
  const double reach = std::ceil(kSqrt2 * turning_radius - 1e-9) + 1.0;
  return reach > kMaxAutoReach + 1 ? kMaxAutoReach + 1 : static_cast<int>(reach);
}

namespace {

/// The options and the grid create() accepts; the first thing wrong, in words.
Status check_options(const Grid& grid, const DirectionalAStarOptions& o) {
  if (!(o.turning_radius > 0.0) || !(o.turning_radius <= kMaxTurningRadius))
    return fail(StatusCode::invalid_argument, "turning radius must be in (0, " + std::to_string(static_cast<int>(kMaxTurningRadius)) +
                                                  "] cells, got " + std::to_string(o.turning_radius));
  if (auto ok = check_agent_radius(o.agent_radius); !ok) return ok.error();
  if (o.neighborhood != 0 && o.neighborhood != 4 && o.neighborhood != 8 && o.neighborhood != 24 && o.neighborhood != 48)
    return fail(StatusCode::invalid_argument,
                "neighborhood must be 0 (auto), 4, 8, 24 or 48, got " + std::to_string(o.neighborhood));
  if (!(o.max_move_turn > 0.0) || !(o.max_move_turn <= 2 * kPi + 1e-12))
    return fail(StatusCode::invalid_argument, "max_move_turn must be in (0, 2 pi] radians");
  if (auto ok = detail::check_budget(o.max_expansions, o.budget); !ok) return ok.error();
  if (grid.width() <= 0 || grid.height() <= 0) return fail(StatusCode::invalid_argument, "the grid is empty");
  if (o.neighborhood == 0 && directional_auto_reach(o.turning_radius) > kMaxAutoReach)
    return fail(StatusCode::invalid_argument,
                "turning radius " + std::to_string(o.turning_radius) + " needs an automatic neighborhood wider than " +
                    std::to_string(kMaxAutoReach) + " cells; choose a fixed neighborhood (4, 8, 24, 48) or Hybrid A*");
  return ok_status();
}

/// Every move of the lattice within `reach` cells, grouped by the heading it starts from: for
/// each pair of headings the shortest Dubins curve without a loop, if its turning is allowed.
Result<std::vector<DirectionalMove>> candidate_moves(const DirectionalAStarOptions& o, int reach) {
  const bool automatic = o.neighborhood == 0;
  const Cell origin{0, 0};
  std::vector<DirectionalMove> candidates;
  for (int h = 0; h < kHeadings; ++h) {
    for (int dy = -reach; dy <= reach; ++dy)
      for (int dx = -reach; dx <= reach; ++dx) {
        if (dx == 0 && dy == 0) continue;
        if (o.neighborhood == 4 && dx != 0 && dy != 0) continue;
        for (int h2 = 0; h2 < kHeadings; ++h2) {
          // Auto: no more total turning than the heading change plus a quarter turn, so
          // S-bends (lane changes) of up to 45 degrees each way stay, loops do not. The
          // fixed neighbourhoods keep Pinter's (2001) rule (max_move_turn only).
          const int steps = std::min((h2 - h + kHeadings) % kHeadings, (h - h2 + kHeadings) % kHeadings);
          const double bound = automatic ? std::min(o.max_move_turn, steps * kHeadingStep + kPi / 2) : o.max_move_turn;
          const Pose from = lattice_pose(origin, h);
          const Pose to = lattice_pose(Cell{dx, dy}, h2);
          // The shortest Dubins word without a loop: with a large radius the overall shortest
          // curve to a nearby pose is often a loop, while an S-bend of another word is not.
          auto all = dubins_all(from, to, o.turning_radius);
          if (!all) return all.error();
          std::optional<DubinsSolution> sol;
          for (const DubinsSolution& cand : *all)
            if (std::isfinite(cand.length) && total_turn(cand) <= bound + 1e-9 && (!sol || cand.length < sol->length))
              sol = cand;
          if (!sol) continue;
          auto path = dubins_to_path(from, to, o.turning_radius, *sol);
          if (!path) return path.error();
          DirectionalMove m;
          m.from_heading = h;
          m.to_heading = h2;
          m.offset = Cell{dx, dy};
          m.length = sol->length;
          m.curve = *sol;
          m.footprint = footprint_of(*path, o.agent_radius);
          for (const Cell& c : m.footprint) m.extent = std::max(m.extent, std::max(std::abs(c.x), std::abs(c.y)));
          candidates.push_back(std::move(m));
        }
      }
  }
  return candidates;
}

}  // namespace

Result<DirectionalAStar> DirectionalAStar::create(const Grid& grid, const DirectionalAStarOptions& o) {
  if (Status ok = check_options(grid, o); !ok) return ok.error();
  const bool automatic = o.neighborhood == 0;
  DirectionalAStar planner(grid, o);
  planner.reach_ = automatic ? directional_auto_reach(o.turning_radius)
                             : o.neighborhood == 48 ? 3 : o.neighborhood == 24 ? 2 : 1;
  const int reach = planner.reach_;
  auto found = candidate_moves(o, reach);
  if (!found) return found.error();
  std::vector<DirectionalMove>& candidates = *found;
  std::vector<uint8_t> keep(candidates.size(), 1);
  if (automatic) prune_dominated(candidates, reach, keep);
  planner.first_move_.assign(kHeadings + 1, 0);
  // candidates are grouped by from_heading already.
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!keep[i]) continue;
    planner.moves_.push_back(std::move(candidates[i]));
  }
  for (int h = 0, i = 0; h <= kHeadings; ++h) {
    while (i < static_cast<int>(planner.moves_.size()) && planner.moves_[static_cast<size_t>(i)].from_heading < h) ++i;
    planner.first_move_[static_cast<size_t>(h)] = i;
  }
  planner.checker_ = std::make_shared<detail::SegmentChecker>(grid, o.agent_radius, true);
  planner.pack_steps();
  planner.field_scale_ = field_scale(planner.moves_, o.agent_radius);
  // The per-query records, allocated and touched once here: a query only refills them, so its
  // time budget is not spent on the first touch of megabytes of fresh pages.
  planner.g_.assign(static_cast<size_t>(grid.cell_count()) * kHeadings, std::numeric_limits<double>::infinity());
  planner.states_.assign(static_cast<size_t>(grid.cell_count()) * kHeadings, State{});
  planner.field_ = std::make_shared<detail::GoalDistance>(true);
  return planner;
}

void DirectionalAStar::pack_steps() {
  pad_ = reach_;
  for (const DirectionalMove& m : moves_) pad_ = std::max(pad_, m.extent);
  const int w = grid_->width(), pw = w + 2 * pad_;
  blocked_ = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(pw) * static_cast<size_t>(grid_->height() + 2 * pad_), 1);
  mend_blocked(*grid_, CellRect{Cell{0, 0}, Cell{w - 1, grid_->height() - 1}});
  steps_.clear();
  footprint_.clear();
  beyond_.clear();
  for (const DirectionalMove& m : moves_) {
    Step st;
    st.length = m.length;
    st.pad_offset = m.offset.y * pw + m.offset.x;
    st.state_offset = (m.offset.y * w + m.offset.x) * kHeadings + m.to_heading - m.from_heading;
    st.extent = m.extent;
    st.dx = static_cast<int16_t>(m.offset.x);
    st.dy = static_cast<int16_t>(m.offset.y);
    // Farthest first: the cells within the start cell's clearance rings are known free, so a
    // search tests only a prefix (and the far cells are the ones that are blocked).
    std::vector<Cell> cells = m.footprint;
    const auto ring = [](Cell d) { return std::max(std::abs(d.x), std::abs(d.y)); };
    std::stable_sort(cells.begin(), cells.end(), [&](Cell a, Cell b) { return ring(a) > ring(b); });
    st.footprint_begin = static_cast<int32_t>(footprint_.size());
    for (const Cell& d : cells) footprint_.push_back(d.y * pw + d.x);
    st.beyond_begin = static_cast<int32_t>(beyond_.size());
    for (int k = -1; k < m.extent; ++k)
      beyond_.push_back(static_cast<int32_t>(std::count_if(cells.begin(), cells.end(), [&](Cell d) { return ring(d) > k; })));
    steps_.push_back(st);
  }
}

void DirectionalAStar::mend_blocked(const Grid& grid, const CellRect& changed) {
  const size_t pw = static_cast<size_t>(grid.width()) + 2 * static_cast<size_t>(pad_);
  const int x0 = std::max(changed.min.x, 0), x1 = std::min(changed.max.x, grid.width() - 1);
  const int y0 = std::max(changed.min.y, 0), y1 = std::min(changed.max.y, grid.height() - 1);
  std::vector<uint8_t>& cells = *blocked_;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      cells[static_cast<size_t>(y + pad_) * pw + static_cast<size_t>(x + pad_)] = grid.is_blocked(x, y) ? 1 : 0;
}

Status DirectionalAStar::edited(const Grid& grid, const CellRect& changed) {
  if (Status s = checker_->update(grid, changed); !s.ok()) return s;  // checks the size first
  field_->edited(grid, changed);
  mend_blocked(grid, changed);
  grid_ = &grid;
  return ok_status();
}

namespace {

/// The open list: the order of a binary heap of every entry (f, then the larger g, then the
/// node: a total order, so the pops do not depend on the heap's insides), kept as buckets of a
/// quarter cell of f after the start's f. Only the bucket being taken is a heap; a later
/// bucket is a plain list until its turn (then made a heap). An entry below the current bucket
/// (the heuristic is consistent, so only by rounding) joins its heap, and the last bucket takes
/// every f beyond the range (+infinity too). Every entry of a later bucket has a larger f than
/// every entry of the heap (the bucket index is monotone in f), so the pops come in the heap's
/// order. The heap of the whole list was 12-19% of a search's instructions (log of 50,000
/// entries a pop); a bucket holds a few hundred.
template <class Item>  // DirectionalAStar::OpenItem
class OpenList {
 public:
  OpenList(std::vector<Item>& heap, std::vector<std::vector<Item>>& buckets, double base)
      : heap_(heap), buckets_(buckets), base_(base) {
    heap_.clear();
    if (buckets_.size() != kBuckets) buckets_.assign(kBuckets, {});
    for (auto& b : buckets_) b.clear();  // a query stopped by its budget leaves entries
  }
  bool empty() {
    while (heap_.empty() && cur_ + 1 < kBuckets) {
      if (buckets_[static_cast<size_t>(++cur_)].empty()) continue;
      heap_.swap(buckets_[static_cast<size_t>(cur_)]);
      std::make_heap(heap_.begin(), heap_.end(), later);
    }
    return heap_.empty();
  }
  /// The first entry; call after empty() said false.
  Item pop() {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Item it = heap_.back();
    heap_.pop_back();
    return it;
  }
  void push(const Item& it) {
    const double k = std::floor((it.f - base_) * kPerCell);
    // Monotone in f; NaN (an infinite start f) goes to the last bucket with +infinity.
    const int b = k < 0.0 ? 0 : k < kBuckets - 1 ? static_cast<int>(k) : kBuckets - 1;
    if (b <= cur_) {
      heap_.push_back(it);
      std::push_heap(heap_.begin(), heap_.end(), later);
    } else {
      buckets_[static_cast<size_t>(b)].push_back(it);
    }
  }

 private:
  static constexpr int kBuckets = 4096;
  static constexpr double kPerCell = 4.0;  // buckets per cell of f
  struct Later {
    bool operator()(const Item& a, const Item& o) const {
      return a.f != o.f ? a.f > o.f : a.g != o.g ? a.g < o.g : a.node > o.node;
    }
  };
  static constexpr Later later{};
  std::vector<Item>& heap_;
  std::vector<std::vector<Item>>& buckets_;
  double base_;
  int cur_ = 0;
};

}  // namespace

/// One query on the lattice: the state of the search and its steps. Nodes are (cell, heading)
/// indices; the open list orders by f, ties to the larger g (deeper first).
struct DirectionalAStar::Search {
  using Item = DirectionalAStar::OpenItem;

  Search(DirectionalAStar& planner, const HeadingPath& out)
      : p(planner), grid(*planner.grid_), checker(*planner.checker_), w(grid.width()), r(planner.options_.turning_radius),
        goal(out.goal), budget(detail::combined_budget(planner.options_.max_expansions, planner.options_.budget)),
        meter(budget) {
    // What dubins_length() works out for each lattice heading, as it does: its input check
    // (lattice poses are finite and within kMaxGridSide, far inside its coordinate limit; r is
    // checked at create(); the span is tested per pose),
    // the start heading's sine and cosine, and the goal's heading change in local_goal().
    const double max_span = kMaxCurveSpanInRadii * r;
    max_span2 = max_span > 1e-150 && r <= kMaxCurveRadius ? max_span * max_span : -1.0;
    for (int h = 0; h < kHeadings; ++h) {
      const Pose q = lattice_pose(Cell{0, 0}, h);
      const auto [s1, c1] = dmath::sincos(q.heading);
      trig[static_cast<size_t>(h)] = HeadingTrig{c1, s1};
      turn[static_cast<size_t>(h)] = detail::local_goal(q, goal, r);
    }
  }

  int64_t node_of(Cell c, int h) const { return static_cast<int64_t>(grid.index(c.x, c.y)) * kHeadings + h; }
  Cell cell_of_node(int64_t node) const {
    const int64_t cell = node / kHeadings;
    return Cell{static_cast<int>(cell % w), static_cast<int>(cell / w)};
  }
  double heuristic(Cell c, int h) const {
    const double field = p.field_scale_ * p.field_->at(grid.index(c.x, c.y));
    const Pose q = lattice_pose(c, h);
    // A Dubins curve is less than kCurveSlackRadii radii longer than the straight line: far
    // from the goal the field wins the max anyway, so skip the trigonometry.
    if (field > glm::length(goal.pos - q.pos) + kCurveSlackRadii * r) return field;
    return std::max(field, curve_length(q, h));
  }
  /// dubins_length(q, goal, r) of the lattice pose q = (c, h), or 0 where it refuses the
  /// poses: the same bits, with the sines and cosines of the query's 8 headings worked out
  /// once (they were a third of the Dubins lengths' work).
  double curve_length(const Pose& q, int h) const {
    const double dx = goal.pos.x - q.pos.x, dy = goal.pos.y - q.pos.y;
    if (!(dx * dx + dy * dy <= max_span2)) {
      auto d = dubins_length(q, goal, r);
      return d ? *d : 0.0;
    }
    detail::LocalGoal g = turn[h];
    const HeadingTrig& t = trig[h];
    g.x = (t.cos * dx + t.sin * dy) * inv_r;
    g.y = (t.cos * dy - t.sin * dx) * inv_r;
    return detail::dubins_length_local(g, r);
  }
  /// heuristic() of state s = (c, h), worked out once per query (the same value: the field's
  /// distances do not depend on when they are settled).
  double heuristic_of(DirectionalAStar::State& s, Cell c, int h) const {
    if (s.h < 0.0) s.h = heuristic(c, h);
    return s.h;
  }

  bool check_ends(HeadingPath& out, Cell sc, Cell gc);
  /// The budget ran out before the search began: the partial path is the (snapped) start alone.
  bool stopped_in_setup(HeadingPath& out) const {
    detail::mark_budget_stop(out, meter.stopped(), budget, "");
    return false;
  }
  void expand(const Item& it, Cell c, int h, HeadingPath& out);
  int64_t run(int64_t start_node, int64_t goal_node, HeadingPath& out);
  Status replay(int64_t start_node, int64_t end_node, HeadingPath& out) const;

  DirectionalAStar& p;
  const Grid& grid;
  const detail::SegmentChecker& checker;
  const int w;
  const double r;
  const Pose goal;
  struct HeadingTrig {
    double cos, sin;
  };
  std::array<HeadingTrig, kHeadings> trig{};       // of each lattice heading
  std::array<detail::LocalGoal, kHeadings> turn{};  // local_goal() to the goal from each heading (x, y unused)
  const double inv_r = 1.0 / r;
  double max_span2 = -1.0;  // squared span [Units: cells^2] up to which dubins_length() takes the poses
  const SearchBudget budget;
  BudgetMeter meter;
  std::optional<OpenList<Item>> open;  // made in run(), from the start's f
  int64_t best = -1;  // the expanded node with the smallest heuristic: the partial path's end
  double best_h = std::numeric_limits<double>::infinity();
};

/// The unit fits at both (snapped) ends, and the goal cell is reachable ignoring the turning radius.
bool DirectionalAStar::Search::check_ends(HeadingPath& out, Cell sc, Cell gc) {
  const double radius = p.options_.agent_radius;
  if (!point_clear(grid, out.start.pos, radius)) {
    out.failure = HeadingFailure::start_in_collision;
    out.reason = "start " + detail::pose_text_deg(out.start) + ": the unit's disc overlaps a wall";
    return false;
  }
  if (!point_clear(grid, out.goal.pos, radius)) {
    out.failure = HeadingFailure::goal_in_collision;
    out.reason = "goal " + detail::pose_text_deg(out.goal) + ": the unit's disc overlaps a wall";
    return false;
  }
  // The field and the goal check are the fixed cost of a query: a time budget spent on them
  // stops the query there, with the start alone as its partial path.
  if (!p.field_->begin(grid, gc, radius, grid.index(sc.x, sc.y), &meter)) return stopped_in_setup(out);
  if (!std::isfinite(p.field_->at(grid.index(sc.x, sc.y)))) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "the goal cell cannot be reached from the start cell by a unit of this size";
    return false;
  }
  // Fast failure of a goal pose no curve of this radius can enter (as Hybrid A* does): every
  // lattice move is such a curve, so none could end there either.
  detail::PocketDef pocket;
  pocket.turning_radius = r;
  pocket.step = std::clamp(r * kPi / 8.0, 0.5, 1.5);
  pocket.start = out.start.pos;
  pocket.meter = &meter;
  const detail::GoalPocket found = detail::goal_pocket(grid, checker, out.goal, pocket);
  if (found.stopped) return stopped_in_setup(out);
  if (found.boxed_in) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "goal " + detail::pose_text_deg(out.goal) + " cannot be entered with turning radius " +
                 detail::fmt_number(r) + ": every way into it ends against a wall within a few steps";
    return false;
  }
  return true;
}

/// Pushes the successors of node it.node = (c, h) through every move of heading h.
void DirectionalAStar::Search::expand(const Item& it, Cell c, int h, HeadingPath& out) {
  // Every cell within `room` of c is free: moves reaching no farther need no cell tests.
  const int room = checker.rings(grid.index(c.x, c.y)) - 1;
  const uint8_t* at = p.blocked_->data() + (static_cast<size_t>(c.y + p.pad_) * static_cast<size_t>(w + 2 * p.pad_) +
                                            static_cast<size_t>(c.x + p.pad_));
  const int32_t* footprint = p.footprint_.data();
  const int32_t* beyond = p.beyond_.data();
  const int end = p.first_move_[static_cast<size_t>(h) + 1];
  const DirectionalAStar::Step* steps = p.steps_.data();
  for (int mi = p.first_move_[static_cast<size_t>(h)]; mi < end; ++mi) {
    const DirectionalAStar::Step& m = steps[mi];
    if (m.extent > room && at[m.pad_offset]) continue;  // the target cell is blocked or outside
    const int64_t tn = it.node + m.state_offset;
    double& sg = p.g_[static_cast<size_t>(tn)];
    const double ng = it.g + m.length;
    if (!(ng < sg)) continue;  // not better, or closed (negated: below every ng >= 0)
    if (m.extent > room) {
      const int32_t* first = footprint + m.footprint_begin;
      if (std::any_of(first, first + beyond[m.beyond_begin + room + 1], [&](int32_t d) { return at[d] != 0; })) continue;
    }
    ++out.generated;
    if (sg == std::numeric_limits<double>::infinity()) p.touched_.push_back(tn);
    sg = ng;
    DirectionalAStar::State& s = p.states_[static_cast<size_t>(tn)];
    s.parent_move = mi;
    const int th = static_cast<int>(tn % kHeadings);
    open->push({ng + heuristic_of(s, Cell{c.x + m.dx, c.y + m.dy}, th), ng, tn});
  }
}

/// The main loop. Returns goal_node when it is expanded, -1 when the open list runs out, -2
/// when the budget stops the search.
int64_t DirectionalAStar::Search::run(int64_t start_node, int64_t goal_node, HeadingPath& out) {
  if (meter.check_clock() != BudgetStop::none) return -2;
  // The tables hold what the last query left: reset the states it set. Refilling all of them
  // (7 MB on 256 x 256) took about 1 ms a query, a tenth of a typical one.
  const size_t n = static_cast<size_t>(grid.cell_count()) * kHeadings;
  if (p.states_.size() != n || p.g_.size() != n) {
    p.g_.assign(n, std::numeric_limits<double>::infinity());
    p.states_.assign(n, DirectionalAStar::State{});
  } else {
    for (const int64_t i : p.touched_) {
      p.g_[static_cast<size_t>(i)] = std::numeric_limits<double>::infinity();
      p.states_[static_cast<size_t>(i)] = DirectionalAStar::State{};
    }
  }
  p.touched_.clear();
  DirectionalAStar::State& start = p.states_[static_cast<size_t>(start_node)];
  p.g_[static_cast<size_t>(start_node)] = 0.0;
  start.h = heuristic(cell_of_node(start_node), static_cast<int>(start_node % kHeadings));
  p.touched_.push_back(start_node);
  open.emplace(p.open_heap_, p.open_buckets_, start.h);
  open->push({start.h, 0.0, start_node});
  // The distance field costs up to O(cells): the budget may be spent already.
  if (meter.check_clock() != BudgetStop::none) return -2;
  while (!open->empty()) {
    const Item it = open->pop();
    double& sg = p.g_[static_cast<size_t>(it.node)];
    if (std::signbit(sg) || it.g > sg) continue;  // closed, or a stale entry
    sg = -sg;  // closed
    const int h = static_cast<int>(it.node % kHeadings);
    const Cell c = cell_of_node(it.node);
    if (meter.on_expansion() != BudgetStop::none) return -2;
    // An expansion tries tens of moves (microseconds), so the clock is read four times as
    // often as BudgetMeter does on its own; a read costs tens of nanoseconds.
    if (out.expanded % (BudgetMeter::kCheckEvery / 4) == 0 && meter.check_clock() != BudgetStop::none) return -2;
    ++out.expanded;
    if (p.options_.record_trace) out.trace.push_back(lattice_pose(c, h));
    if (it.node == goal_node) return goal_node;
    if (it.f - it.g < best_h) {
      best_h = it.f - it.g;
      best = it.node;
    }
    expand(it, c, h, out);
  }
  return -1;
}

/// Walks back from end_node through the moves, then replays them forwards into out.path.
Status DirectionalAStar::Search::replay(int64_t start_node, int64_t end_node, HeadingPath& out) const {
  std::vector<int> chain;
  for (int64_t node = end_node; node != start_node;) {
    const int mi = p.states_[static_cast<size_t>(node)].parent_move;
    chain.push_back(mi);
    const DirectionalMove& m = p.moves_[static_cast<size_t>(mi)];
    const Cell at = cell_of_node(node);
    node = node_of(Cell{at.x - m.offset.x, at.y - m.offset.y}, m.from_heading);
  }
  Cell at = cell_of_node(start_node);
  for (auto i = chain.rbegin(); i != chain.rend(); ++i) {
    const DirectionalMove& m = p.moves_[static_cast<size_t>(*i)];
    const Cell to{at.x + m.offset.x, at.y + m.offset.y};
    auto piece = dubins_to_path(lattice_pose(at, m.from_heading), lattice_pose(to, m.to_heading), r, m.curve);
    if (!piece) return piece.error();
    if (auto s = out.path.append(*piece); !s) return s;
    at = to;
  }
  return ok_status();
}

Result<HeadingPath> DirectionalAStar::plan(const Pose& start_in, const Pose& goal_in) {
  if (auto s = detail::check_pose(*grid_, start_in, "start"); !s) return s.error();
  if (auto s = detail::check_pose(*grid_, goal_in, "goal"); !s) return s.error();
  const Cell sc = cell_of(start_in.pos), gc = cell_of(goal_in.pos);
  const int sh = heading_index(start_in.heading), gh = heading_index(goal_in.heading);
  HeadingPath out;
  out.start = lattice_pose(sc, sh);
  out.goal = lattice_pose(gc, gh);
  out.path = SegmentPath(out.start);
  Search search(*this, out);
  if (!search.check_ends(out, sc, gc)) return out;
  const int64_t start_node = search.node_of(sc, sh), goal_node = search.node_of(gc, gh);
  const int64_t end = search.run(start_node, goal_node, out);
  if (end == -2) {
    detail::mark_budget_stop(out, search.meter.stopped(), search.budget,
                             "expansion budget exhausted (max_expansions = " + std::to_string(search.budget.max_expansions) +
                                 " lattice poses) before reaching the goal; raise max_expansions to search longer");
    if (search.best >= 0) {
      if (auto s = search.replay(start_node, search.best, out); !s) return s.error();
      out.cost = -g_[static_cast<size_t>(search.best)];  // closed: negated
    }
    out.length = out.path.length();
    return out;
  }
  if (end < 0) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "no lattice path: every pose reachable with this turning radius was expanded";
    return out;
  }
  if (auto s = search.replay(start_node, goal_node, out); !s) return s.error();
  if (auto s = out.path.snap_end(out.goal); !s) return s.error();
  out.found = true;
  out.length = out.path.length();
  out.cost = -g_[static_cast<size_t>(goal_node)];  // closed: negated
  return out;
}

}  // namespace pathlab
