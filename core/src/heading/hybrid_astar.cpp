#include "pathlab/hybrid_astar.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <queue>
#include <string>

#include "heading/heading_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/cc_curves.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

// A primitive's chord must be longer than a cell's diagonal, so that every successor lands
// in another cell (or at least another heading bin) than its parent.
constexpr double kMinPrimitiveChord = 1.5;

// Dubins and Reeds-Shepp lengths exceed the straight-line distance by less than this many
// turning radii, so when the 2D distance is larger than straight line + this, the curve
// length cannot win the max and is not computed.
constexpr double kCurveSlackRadii = 4.0 * kPi;

/// Smallest size of the closed set's table (a power of two).
constexpr size_t kMinSlots = size_t{1} << 12;

/// Slot of `key` in a table of `mask + 1` slots: Fibonacci hashing (Knuth, The Art of Computer
/// Programming vol. 3, 6.4), which spreads the neighbouring keys of one cell's heading bins.
size_t slot_hash(int32_t key, size_t mask) {
  return static_cast<size_t>((static_cast<uint64_t>(static_cast<uint32_t>(key)) * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

}  // namespace

Result<HybridAStar> HybridAStar::create(const Grid& grid, const HybridAStarOptions& o) {
  if (!(o.turning_radius > 0.0) || !(o.turning_radius <= kMaxTurningRadius))
    return fail(StatusCode::invalid_argument, "turning radius must be in (0, 1000] cells, got " + std::to_string(o.turning_radius));
  if (auto ok = check_agent_radius(o.agent_radius); !ok) return ok.error();
  if (o.heading_bins < 8 || o.heading_bins > 720)
    return fail(StatusCode::invalid_argument, "heading_bins must be in [8, 720], got " + std::to_string(o.heading_bins));
  if (!(o.reverse_penalty >= 1.0) || !std::isfinite(o.reverse_penalty))
    return fail(StatusCode::invalid_argument, "reverse_penalty must be a finite number >= 1");
  if (!(o.gear_change_penalty >= 0.0) || !std::isfinite(o.gear_change_penalty))
    return fail(StatusCode::invalid_argument, "gear_change_penalty must be a finite number >= 0");
  if (!(o.min_gear_length >= 0.0) || !std::isfinite(o.min_gear_length))
    return fail(StatusCode::invalid_argument, "min_gear_length must be a finite number >= 0");
  if (!(o.analytic_ratio > 0.0) || !std::isfinite(o.analytic_ratio))
    return fail(StatusCode::invalid_argument, "analytic_ratio must be a finite number > 0");
  if (auto ok = detail::check_budget(o.max_expansions, o.budget); !ok) return ok.error();
  if (o.cc_sharpness != 0.0)
    if (auto ok = check_cc_sharpness(o.turning_radius, o.cc_sharpness); !ok)
      return fail(StatusCode::invalid_argument, "cc_" + ok.error().message);  // "cc_sharpness ..."
  const int64_t keys = grid.cell_count() * o.heading_bins;
  if (keys <= 0 || keys > (int64_t{1} << 30))
    return fail(StatusCode::too_large, "grid cells x heading_bins = " + std::to_string(keys) + " exceeds 2^30");

  HybridAStar p(grid, o);
  const double bin = 2.0 * kPi / o.heading_bins;
  // Smallest whole number of bins whose arc has a chord of at least kMinPrimitiveChord
  // (chord = 2 r sin(angle / 2)); at most a quarter turn, straight length for huge radii.
  int k = 1;
  while (k * bin < kPi / 2 && 2.0 * o.turning_radius * dmath::sin(0.5 * k * bin) < kMinPrimitiveChord) ++k;
  p.turn_ = k * bin;
  p.step_ = std::max(o.turning_radius * p.turn_, kMinPrimitiveChord);
  // When even a quarter turn is shorter than the cell diagonal (a tiny radius), the arc
  // still turns by its whole number of bins: length = r * turn.
  if (o.turning_radius * p.turn_ < kMinPrimitiveChord) p.step_ = o.turning_radius * p.turn_;
  p.slots_.assign(kMinSlots, Slot{});
  p.checker_ = std::make_shared<detail::SegmentChecker>(grid, o.agent_radius, true);
  p.field_ = std::make_shared<detail::GoalDistance>();
  return p;
}

Status HybridAStar::edited(const Grid& grid, const CellRect& changed) {
  if (Status s = checker_->update(grid, changed); !s.ok()) return s;  // checks the size first
  field_->edited(grid, changed);
  grid_ = &grid;
  return ok_status();
}

/// One query: the state of the search and its steps. The open list orders by f, ties to the
/// larger g (deeper first).
struct HybridAStar::Search {
  struct Item {
    double f, g;
    int32_t node;
    // A total order (node last): ties must not depend on the heap's insides, which differ
    // between standard libraries (libstdc++ on the desktop, libc++ in the browser).
    bool operator>(const Item& b) const { return f != b.f ? f > b.f : g != b.g ? g < b.g : node > b.node; }
  };

  Search(HybridAStar& planner, const Pose& s, const Pose& g)
      : p(planner), grid(*planner.grid_), checker(*planner.checker_), o(planner.options_), start(s), goal(g),
        r(o.turning_radius), bins(o.heading_bins), bin(2.0 * kPi / bins), budget(detail::combined_budget(o.max_expansions, o.budget)),
        meter(budget) {
    // Every arc primitive sweeps one of four angles (steer and gear each way): their turns are
    // worked out here once instead of in each of the search's arc checks.
    for (int gear = 1, k = 0; gear >= -1; gear -= 2)
      for (int steer = -1; steer <= 1; steer += 2, ++k) {
        turns[static_cast<size_t>(k)] = detail::arc_turns(primitive(Pose{}, steer, gear).sweep);
        arc_end[static_cast<size_t>(k)] = segment_end(primitive(Pose{}, steer, gear)).pos;
      }
  }
  /// The worked-out turns of an arc primitive (null for a straight one).
  const detail::ArcTurns* turns_of(int steer, int gear) const {
    return steer == 0 ? nullptr : &turns[arc_index(steer, gear)];
  }
  static size_t arc_index(int steer, int gear) { return static_cast<size_t>((gear > 0 ? 0 : 2) + (steer > 0 ? 1 : 0)); }

  double field_at(Vec2 q) const {
    const Cell c = cell_of(q);
    return grid.in_bounds(c) ? static_cast<double>(p.field_->at(grid.index(c.x, c.y)))
                             : std::numeric_limits<double>::infinity();
  }
  /// The larger of the 2D obstacle-aware distance and the obstacle-free curve length.
  double heuristic(const Pose& q) const {
    const double h2d = field_at(q.pos);
    const double euclid = glm::length(goal.pos - q.pos);
    if (h2d > euclid + kCurveSlackRadii * r) return h2d;
    auto c = o.allow_reverse ? reeds_shepp_length(q, goal, r) : dubins_length(q, goal, r);
    return std::max(h2d, c ? *c : euclid);
  }
  int32_t key_of(const Pose& q) const {
    const Cell c = cell_of(q.pos);
    // wrap_angle() returns a heading in (-pi, pi] as it is (std::remainder, exact), and its
    // remainder was a twentieth of a maze query: asked only for the headings outside.
    const double h = q.heading > -kPi && q.heading <= kPi ? q.heading : wrap_angle(q.heading);
    int b = static_cast<int>(std::lround(h / bin)) % bins;
    if (b < 0) b += bins;
    return static_cast<int32_t>(grid.index(c.x, c.y) * bins + b);
  }
  /// The node of pose bin `key`, or -1.
  int32_t lookup(int32_t key) const {
    const size_t mask = p.slots_.size() - 1;
    for (size_t h = slot_hash(key, mask);; h = (h + 1) & mask) {
      const Slot& s = p.slots_[h];
      if (s.key == key) return s.node;
      if (s.key < 0) return -1;
    }
  }
  /// Makes `node` the node of pose bin `key`; the table doubles when half full.
  void remember(int32_t key, int32_t node) {
    if (2 * (p.used_ + 1) > p.slots_.size()) {
      std::vector<Slot> old(p.slots_.size() * 2);
      old.swap(p.slots_);
      p.used_ = 0;
      for (const Slot& s : old)
        if (s.key >= 0) remember(s.key, s.node);
    }
    const size_t mask = p.slots_.size() - 1;
    for (size_t h = slot_hash(key, mask);; h = (h + 1) & mask) {
      Slot& s = p.slots_[h];
      if (s.key < 0) ++p.used_;
      if (s.key < 0 || s.key == key) {
        s = Slot{key, node};
        return;
      }
    }
  }
  /// Empties the table; a table grown far beyond what the last query needed shrinks, so one
  /// long query does not make every later one clear a large table.
  void forget_all() {
    const size_t wanted = std::max(kMinSlots, std::bit_ceil(4 * p.used_));
    if (p.slots_.size() > 4 * wanted) p.slots_.assign(wanted, Slot{});
    else std::fill(p.slots_.begin(), p.slots_.end(), Slot{});
    p.used_ = 0;
  }
  /// Cost of a piece of path driven in `gear` after a piece in `prev_gear` (0: none yet).
  double piece_cost(double length, int gear, int prev_gear) const {
    return length * (gear < 0 ? o.reverse_penalty : 1.0) + (prev_gear != 0 && gear != prev_gear ? o.gear_change_penalty : 0.0);
  }
  double analytic_cost(const SegmentPath& path, int prev_gear) const {
    double c = 0.0;
    for (const Segment& seg : path.segments()) {
      const int gear = seg.gear == Gear::reverse ? -1 : 1;
      c += piece_cost(seg.length, gear, prev_gear);
      prev_gear = gear;
    }
    return c;
  }
  /// The primitive that leads from the node's parent pose to it.
  Segment primitive(const Pose& from, int steer, int gear) const {
    const Gear g = gear > 0 ? Gear::forward : Gear::reverse;
    return steer == 0 ? line_from_pose(from, p.step_, g) : arc_from_pose(from, r, steer, p.step_, g);
  }
  /// primitive(from, steer, gear) given cos and sin of from.heading: the same segment, every
  /// field computed as line_from_pose() and arc_from_pose() compute it.
  Segment primitive(const Pose& from, double c, double sn, int steer, int gear) const {
    const Gear g = gear > 0 ? Gear::forward : Gear::reverse;
    if (steer == 0) return line_from_pose(from, p.step_, g);
    const double st = steer < 0 ? -1.0 : 1.0;
    Segment s;
    s.kind = SegmentKind::arc;
    s.gear = g;
    s.center = from.pos + r * st * Vec2(-sn, c);
    s.radius = r;
    s.start_angle = from.heading - st * (kPi / 2);
    s.sweep = st * static_cast<double>(gear) * p.step_ / r;
    s.length = p.step_;
    s.start = from.pos;
    s.heading = from.heading;
    return s;
  }
  /// Where primitive(from, steer, gear) ends: segment_end() of it, the position of an arc's end
  /// turned from arc_end (equal up to rounding, about 1e-15 cells), the heading the same.
  Pose primitive_end(const Pose& from, double c, double sn, int steer, int gear) const {
    if (steer == 0) return Pose{from.pos + (static_cast<double>(gear) * p.step_) * Vec2(c, sn), from.heading};
    const Vec2 e = arc_end[arc_index(steer, gear)];
    const double turned = (steer < 0 ? -1.0 : 1.0) * static_cast<double>(gear) * p.step_ / r;
    return Pose{from.pos + Vec2(c * e.x - sn * e.y, sn * e.x + c * e.y), from.heading + turned};
  }

  bool check_ends(HeadingPath& out);
  /// The budget ran out before the search began: the partial path is the start alone.
  bool stopped_in_setup(HeadingPath& out) const {
    detail::mark_budget_stop(out, meter.stopped(), budget, "");
    return false;
  }
  std::vector<SegmentPath> finishing_curves(const Node& n, bool near) const;
  bool gear_runs_ok(const SegmentPath& curve, int32_t node) const;
  std::optional<SegmentPath> try_analytic(int32_t node, bool near, HeadingPath& out) const;
  void expand(int32_t node, HeadingPath& out);
  int32_t run(std::optional<SegmentPath>& finish, HeadingPath& out);
  Status chain_path(int32_t last, HeadingPath& out) const;

  HybridAStar& p;
  const Grid& grid;
  const detail::SegmentChecker& checker;
  const HybridAStarOptions& o;
  const Pose start, goal;
  const double r;
  const int bins;
  const double bin;
  const SearchBudget budget;
  BudgetMeter meter;
  std::array<detail::ArcTurns, 4> turns{};
  /// Where each arc primitive ends when it starts at the origin heading along +x (index as
  /// turns): a successor's position is its parent's plus this turned by the parent's heading,
  /// one sine and cosine per expansion instead of two per primitive. [Units: cells]
  std::array<Vec2, 4> arc_end{};
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  int32_t best = 0;  // the expanded node with the smallest heuristic: the partial path's end
  double best_h = std::numeric_limits<double>::infinity();
};

/// The unit fits at both ends, and the goal is reachable ignoring the turning radius.
bool HybridAStar::Search::check_ends(HeadingPath& out) {
  if (!checker.point_clear(start.pos)) {
    out.failure = HeadingFailure::start_in_collision;
    out.reason = "start " + detail::pose_text_deg(start) + ": the unit's disc overlaps a wall";
    return false;
  }
  if (!checker.point_clear(goal.pos)) {
    out.failure = HeadingFailure::goal_in_collision;
    out.reason = "goal " + detail::pose_text_deg(goal) + ": the unit's disc overlaps a wall";
    return false;
  }
  // The field and the goal check are the fixed cost of a query: a time budget spent on them
  // stops the query there, with the start alone as its partial path.
  const Cell sc = cell_of(start.pos);
  const int64_t until = grid.in_bounds(sc) ? grid.index(sc.x, sc.y) : -1;
  if (!p.field_->begin(grid, cell_of(goal.pos), o.agent_radius, until, &meter)) return stopped_in_setup(out);
  if (!std::isfinite(field_at(start.pos))) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "the goal cannot be reached from the start by a unit of this size, even ignoring its turning radius";
    return false;
  }
  // Half steps: a primitive is two of them, and a finishing curve's last piece is met closer.
  detail::PocketDef pocket;
  pocket.turning_radius = r;
  pocket.step = 0.5 * p.step_;
  pocket.allow_reverse = o.allow_reverse;
  pocket.start = start.pos;
  pocket.meter = &meter;
  const detail::GoalPocket found = detail::goal_pocket(grid, checker, goal, pocket);
  if (found.stopped) return stopped_in_setup(out);
  if (found.boxed_in) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "goal " + detail::pose_text_deg(goal) + " cannot be entered with turning radius " +
                 detail::fmt_number(r) + (o.allow_reverse ? "" : " driving forward") +
                 ": every way into it ends against a wall within a few steps";
    return false;
  }
  return true;
}

/// Finishing curves from a node to the goal, walls not checked: the one shortest CC curve; else
/// the shortest Dubins curve (every Dubins word near the goal) and, with reverse, the shortest
/// Reeds-Shepp curve. The Reeds-Shepp curve is the shortest, not the cheapest: with the reverse
/// penalty a forward Dubins curve often costs less (a long straight reverse costs twice its
/// length), so try_analytic() ranks them by cost.
std::vector<SegmentPath> HybridAStar::Search::finishing_curves(const Node& n, bool near) const {
  std::vector<SegmentPath> out;
  if (o.cc_sharpness > 0.0) {
    auto cc = o.allow_reverse ? cc_reeds_shepp(n.pose, goal, r, o.cc_sharpness)
                              : cc_dubins(n.pose, goal, r, o.cc_sharpness);
    if (cc) out.push_back(std::move(cc->path));
    return out;
  }
  if (o.allow_reverse)
    if (auto rs = reeds_shepp_path(n.pose, goal, r)) out.push_back(std::move(*rs));
  if (!near) {
    if (auto d = dubins_path(n.pose, goal, r)) out.push_back(std::move(*d));
    return out;
  }
  auto all = dubins_all(n.pose, goal, r);
  if (!all) return out;
  for (const DubinsSolution& w : *all)
    if (std::isfinite(w.length))
      if (auto d = dubins_to_path(n.pose, goal, r, w)) out.push_back(std::move(*d));
  return out;
}

/// True when finishing from `node` with `curve` leaves no gear segment shorter than
/// min_gear_length where the path changes gear: each run of the curve (the first one together
/// with the node's own run when it goes on in the same gear), and the node's run when the curve
/// starts with a change of gear (there at least one primitive, which may be shorter).
bool HybridAStar::Search::gear_runs_ok(const SegmentPath& curve, int32_t node) const {
  std::vector<std::pair<int, double>> runs;  // (gear, length) of the curve's runs
  for (const Segment& seg : curve.segments()) {
    if (seg.length <= 0.0) continue;
    const int gear = seg.gear == Gear::reverse ? -1 : 1;
    if (runs.empty() || runs.back().first != gear) runs.emplace_back(gear, 0.0);
    runs.back().second += seg.length;
  }
  if (runs.empty()) return true;
  // The node's run: its primitives back to the last change of gear, and whether there was one.
  const int node_gear = p.nodes_[static_cast<size_t>(node)].gear;
  double node_run = 0.0;
  int32_t i = node;
  while (i > 0 && p.nodes_[static_cast<size_t>(i)].gear == node_gear) {
    node_run += p.step_;
    i = p.nodes_[static_cast<size_t>(i)].parent;
  }
  const bool earlier_change = node_gear != 0 && i > 0;
  const double min = o.min_gear_length - 1e-9;
  bool change_before = earlier_change;
  if (node_gear != 0 && runs.front().first == node_gear) {
    runs.front().second += node_run;
  } else if (node_gear != 0) {
    if (node_run < std::min(min, p.step_ - 1e-9)) return false;
    change_before = true;
  }
  for (size_t k = 0; k < runs.size(); ++k) {
    const bool bounded = k > 0 || k + 1 < runs.size() || change_before;
    if (bounded && runs[k].second < min) return false;
  }
  return true;
}

/// The cheapest clear finishing curve from `node` by cost (length, reverse penalty, gear
/// changes, also the one where it joins the node's gear) that keeps every gear segment at least
/// min_gear_length long, or nothing.
std::optional<SegmentPath> HybridAStar::Search::try_analytic(int32_t node, bool near, HeadingPath& out) const {
  ++out.analytic_tries;
  const Node& n = p.nodes_[static_cast<size_t>(node)];
  std::vector<std::pair<double, SegmentPath>> ranked;
  for (SegmentPath& c : finishing_curves(n, near)) {
    const double cost = analytic_cost(c, n.gear);
    ranked.emplace_back(cost, std::move(c));
  }
  // Stable: equal costs keep the order above (Reeds-Shepp first, then Dubins by word).
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& candidate : ranked)
    if (gear_runs_ok(candidate.second, node) && checker.clear(candidate.second)) return std::move(candidate.second);
  return std::nullopt;
}

/// Pushes the clear successors of `node` (straight, left, right; reversed too if allowed).
void HybridAStar::Search::expand(int32_t node, HeadingPath& out) {
  const Node parent = p.nodes_[static_cast<size_t>(node)];  // copy: nodes_ may grow below
  const auto [sn, c] = dmath::sincos(parent.pose.heading);
  for (int gear = 1; gear >= (o.allow_reverse ? -1 : 1); gear -= 2) {
    for (int steer = -1; steer <= 1; ++steer) {
      const Pose to = primitive_end(parent.pose, c, sn, steer, gear);
      const Cell tc = cell_of(to.pos);
      if (!grid.in_bounds(tc) || to.pos.x >= grid.width() || to.pos.y >= grid.height()) continue;
      const int32_t key = key_of(to);
      const double ng = parent.g + piece_cost(p.step_, gear, parent.gear);
      const int32_t existing = lookup(key);
      if (existing >= 0 && (p.nodes_[static_cast<size_t>(existing)].closed || p.nodes_[static_cast<size_t>(existing)].g <= ng))
        continue;
      if (!checker.clear(primitive(parent.pose, c, sn, steer, gear), turns_of(steer, gear))) continue;
      const double hn = heuristic(to);
      if (!std::isfinite(hn)) continue;
      Node child;
      child.pose = to;
      child.g = ng;
      child.parent = node;
      child.key = key;
      child.steer = static_cast<int8_t>(steer);
      child.gear = static_cast<int8_t>(gear);
      const int32_t ci = static_cast<int32_t>(p.nodes_.size());
      p.nodes_.push_back(child);
      remember(key, ci);
      ++out.generated;
      open.push({ng + hn, ng, ci});
    }
  }
}

/// The main loop. Returns the node the finishing curve starts from, or -1 (open list
/// exhausted: unreachable) or -2 (the budget stopped the search).
int32_t HybridAStar::Search::run(std::optional<SegmentPath>& finish, HeadingPath& out) {
  p.nodes_.clear();
  forget_all();
  Node root;
  root.pose = start;
  root.key = key_of(start);
  p.nodes_.push_back(root);
  remember(root.key, 0);
  open.push({heuristic(start), 0.0, 0});
  int countdown = 0;
  while (!open.empty()) {
    const Item it = open.top();
    open.pop();
    Node& cur = p.nodes_[static_cast<size_t>(it.node)];
    if (cur.closed || lookup(cur.key) != it.node) continue;
    cur.closed = true;
    if (meter.on_expansion() != BudgetStop::none) return -2;
    // An expansion costs microseconds (collision checks, curve lengths): the clock is read
    // four times as often as BudgetMeter does on its own, so a time budget overruns less.
    if (out.expanded % (BudgetMeter::kCheckEvery / 4) == 0 && meter.check_clock() != BudgetStop::none) return -2;
    ++out.expanded;
    if (o.record_trace) out.trace.push_back(cur.pose);
    const double h = it.f - it.g;
    if (h < best_h) {
      best_h = h;
      best = it.node;
    }
    const bool near = glm::length(goal.pos - cur.pose.pos) < 4.0 * r;
    if (--countdown <= 0 || near) {
      countdown = std::max(1, static_cast<int>(h / o.analytic_ratio));
      if (auto f = try_analytic(it.node, near, out)) {
        finish = std::move(f);
        return it.node;
      }
      // Analytic tries are the expensive steps: look at the clock after each.
      if (meter.check_clock() != BudgetStop::none) return -2;
    }
    expand(it.node, out);
  }
  return -1;
}

/// Appends the primitives from the root to node `last` to out.path.
Status HybridAStar::Search::chain_path(int32_t last, HeadingPath& out) const {
  std::vector<int32_t> chain;
  for (int32_t i = last; i > 0; i = p.nodes_[static_cast<size_t>(i)].parent) chain.push_back(i);
  for (auto i = chain.rbegin(); i != chain.rend(); ++i) {
    const Node& n = p.nodes_[static_cast<size_t>(*i)];
    const Node& from = p.nodes_[static_cast<size_t>(n.parent)];
    if (auto st = out.path.append(primitive(from.pose, n.steer, n.gear)); !st) return st;
  }
  return ok_status();
}

Result<HeadingPath> HybridAStar::plan(const Pose& start, const Pose& goal) {
  if (auto s = detail::check_pose(*grid_, start, "start"); !s) return s.error();
  if (auto s = detail::check_pose(*grid_, goal, "goal"); !s) return s.error();
  HeadingPath out;
  out.start = start;
  out.goal = goal;
  out.path = SegmentPath(start);
  Search search(*this, start, goal);
  if (!search.check_ends(out)) return out;
  std::optional<SegmentPath> finish;
  const int32_t last = search.run(finish, out);
  if (last == -2) {
    // Say what ran out and what it means: the 2D check passed, so the goal is reachable
    // for a unit that turns on the spot; with this turning radius it may not be.
    detail::mark_budget_stop(out, search.meter.stopped(), search.budget,
                             "expansion budget exhausted (max_expansions = " + std::to_string(search.budget.max_expansions) +
                                 " poses) before reaching the goal; it may be unreachable with turning radius " +
                                 detail::fmt_number(options_.turning_radius) + ", or raise max_expansions");
    if (auto s = search.chain_path(search.best, out); !s) return s.error();
    out.length = out.path.length();
    out.cost = nodes_[static_cast<size_t>(search.best)].g;
    return out;
  }
  if (last < 0) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "no path: every reachable pose bin was expanded without a clear connection to the goal";
    return out;
  }
  if (auto s = search.chain_path(last, out); !s) return s.error();
  if (auto s = out.path.append(*finish); !s) return s.error();
  out.found = true;
  out.length = out.path.length();
  out.cost = nodes_[static_cast<size_t>(last)].g + search.analytic_cost(*finish, nodes_[static_cast<size_t>(last)].gear);
  return out;
}

}  // namespace pathlab
