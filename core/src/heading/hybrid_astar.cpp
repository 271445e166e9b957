#include "pathlab/hybrid_astar.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <limits>
#include <optional>
#include <queue>
#include <string>

#include "heading/heading_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"

namespace pathlab {
namespace {

// A primitive's chord must be longer than a cell's diagonal, so that every successor lands
// in another cell (or at least another heading bin) than its parent.
constexpr double kMinPrimitiveChord = 1.5;

// Dubins and Reeds-Shepp lengths exceed the straight-line distance by less than this many
// turning radii, so when the 2D distance is larger than straight line + this, the curve
// length cannot win the max and is not computed.
constexpr double kCurveSlackRadii = 4.0 * kPi;

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
  if (!(o.analytic_ratio > 0.0) || !std::isfinite(o.analytic_ratio))
    return fail(StatusCode::invalid_argument, "analytic_ratio must be a finite number > 0");
  if (o.max_expansions < 0) return fail(StatusCode::invalid_argument, "max_expansions must be >= 0");
  const int64_t keys = grid.cell_count() * o.heading_bins;
  if (keys <= 0 || keys > (int64_t{1} << 30))
    return fail(StatusCode::too_large, "grid cells x heading_bins = " + std::to_string(keys) + " exceeds 2^30");

  HybridAStar p(grid, o);
  const double bin = 2.0 * kPi / o.heading_bins;
  // Smallest whole number of bins whose arc has a chord of at least kMinPrimitiveChord
  // (chord = 2 r sin(angle / 2)); at most a quarter turn, straight length for huge radii.
  int k = 1;
  while (k * bin < kPi / 2 && 2.0 * o.turning_radius * std::sin(0.5 * k * bin) < kMinPrimitiveChord) ++k;
  p.turn_ = k * bin;
  p.step_ = std::max(o.turning_radius * p.turn_, kMinPrimitiveChord);
  // When even a quarter turn is shorter than the cell diagonal (a tiny radius), the arc
  // still turns by its whole number of bins: length = r * turn.
  if (o.turning_radius * p.turn_ < kMinPrimitiveChord) p.step_ = o.turning_radius * p.turn_;
  p.slot_.assign(static_cast<size_t>(keys), 0);
  p.checker_ = std::make_shared<detail::SegmentChecker>(grid, o.agent_radius);
  return p;
}

Result<HeadingPath> HybridAStar::plan(const Pose& start, const Pose& goal) {
  if (auto s = detail::check_pose(*grid_, start, "start"); !s) return s.error();
  if (auto s = detail::check_pose(*grid_, goal, "goal"); !s) return s.error();
  const Grid& grid = *grid_;
  const detail::SegmentChecker& checker = *checker_;
  const HybridAStarOptions& o = options_;
  const double r = o.turning_radius;
  const int bins = o.heading_bins;
  const double bin = 2.0 * kPi / bins;
  HeadingPath out;
  out.start = start;
  out.goal = goal;
  out.path = SegmentPath(start);
  if (!checker.point_clear(start.pos)) {
    out.failure = HeadingFailure::start_in_collision;
    out.reason = "start " + detail::pose_text_deg(start) + ": the unit's disc overlaps a wall";
    return out;
  }
  if (!checker.point_clear(goal.pos)) {
    out.failure = HeadingFailure::goal_in_collision;
    out.reason = "goal " + detail::pose_text_deg(goal) + ": the unit's disc overlaps a wall";
    return out;
  }
  const Cell gc = cell_of(goal.pos);
  detail::goal_distance_field(grid, gc, o.agent_radius, field_);
  auto field_at = [&](Vec2 p) {
    const Cell c = cell_of(p);
    return grid.in_bounds(c) ? static_cast<double>(field_[static_cast<size_t>(grid.index(c.x, c.y))])
                             : std::numeric_limits<double>::infinity();
  };
  if (!std::isfinite(field_at(start.pos))) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "the goal cannot be reached from the start by a unit of this size, even ignoring its turning radius";
    return out;
  }
  auto heuristic = [&](const Pose& p) {
    const double h2d = field_at(p.pos);
    const double euclid = glm::length(goal.pos - p.pos);
    if (h2d > euclid + kCurveSlackRadii * r) return h2d;
    auto c = o.allow_reverse ? reeds_shepp_length(p, goal, r) : dubins_length(p, goal, r);
    return std::max(h2d, c ? *c : euclid);
  };
  auto key_of = [&](const Pose& p) {
    const Cell c = cell_of(p.pos);
    int b = static_cast<int>(std::lround(wrap_angle(p.heading) / bin)) % bins;
    if (b < 0) b += bins;
    return static_cast<int32_t>(grid.index(c.x, c.y) * bins + b);
  };
  auto lookup = [&](int32_t key) -> int32_t {
    const int32_t i = slot_[static_cast<size_t>(key)];
    return i >= 0 && static_cast<size_t>(i) < nodes_.size() && nodes_[static_cast<size_t>(i)].key == key ? i : -1;
  };
  // Cost of a piece of path driven in `gear` after a piece in `prev_gear` (0: none yet).
  auto piece_cost = [&](double length, int gear, int prev_gear) {
    return length * (gear < 0 ? o.reverse_penalty : 1.0) + (prev_gear != 0 && gear != prev_gear ? o.gear_change_penalty : 0.0);
  };
  auto analytic_cost = [&](const SegmentPath& path, int prev_gear) {
    double c = 0.0;
    for (const Segment& s : path.segments()) {
      const int gear = s.gear == Gear::reverse ? -1 : 1;
      c += piece_cost(s.length, gear, prev_gear);
      prev_gear = gear;
    }
    return c;
  };
  // Finishing curves from `p` to the goal, clear of walls, best first; empty when none.
  auto try_analytic = [&](const Node& n, bool near) -> std::optional<SegmentPath> {
    ++out.analytic_tries;
    if (o.allow_reverse) {
      if (auto rs = reeds_shepp_path(n.pose, goal, r); rs && checker.clear(*rs)) return std::move(*rs);
      if (!near) return std::nullopt;
    }
    if (!near) {
      if (auto d = dubins_path(n.pose, goal, r); d && checker.clear(*d)) return std::move(*d);
      return std::nullopt;
    }
    auto all = dubins_all(n.pose, goal, r);
    if (!all) return std::nullopt;
    std::array<DubinsSolution, 6> words = *all;
    std::sort(words.begin(), words.end(), [](const auto& a, const auto& b) { return a.length < b.length; });
    for (const DubinsSolution& w : words) {
      if (!std::isfinite(w.length)) break;
      if (auto d = dubins_to_path(n.pose, goal, r, w); d && checker.clear(*d)) return std::move(*d);
    }
    return std::nullopt;
  };

  nodes_.clear();
  struct Item {
    double f, g;
    int32_t node;
    bool operator>(const Item& b) const { return f != b.f ? f > b.f : g < b.g; }
  };
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  Node root;
  root.pose = start;
  root.key = key_of(start);
  nodes_.push_back(root);
  slot_[static_cast<size_t>(root.key)] = 0;
  open.push({heuristic(start), 0.0, 0});

  int32_t last = -1;
  std::optional<SegmentPath> finish;
  int countdown = 0;
  while (!open.empty()) {
    const Item it = open.top();
    open.pop();
    Node& cur = nodes_[static_cast<size_t>(it.node)];
    if (cur.closed || lookup(cur.key) != it.node) continue;
    cur.closed = true;
    if (o.max_expansions > 0 && out.expanded >= o.max_expansions) {
      out.failure = HeadingFailure::budget_exhausted;
      // Say what ran out and what it means: the 2D check passed, so the goal is reachable
      // for a unit that turns on the spot; with this turning radius it may not be.
      out.reason = "expansion budget exhausted (max_expansions = " + std::to_string(o.max_expansions) +
                   " poses) before reaching the goal; it may be unreachable with turning radius " + detail::fmt_number(r) +
                   ", or raise max_expansions";
      return out;
    }
    ++out.expanded;
    if (o.record_trace) out.trace.push_back(cur.pose);
    const double h = it.f - it.g;
    const bool near = glm::length(goal.pos - cur.pose.pos) < 4.0 * r;
    if (--countdown <= 0 || near) {
      countdown = std::max(1, static_cast<int>(h / o.analytic_ratio));
      if (auto f = try_analytic(cur, near)) {
        finish = std::move(f);
        last = it.node;
        break;
      }
    }
    const Node parent = cur;  // copy: nodes_ may grow below
    for (int gear = 1; gear >= (o.allow_reverse ? -1 : 1); gear -= 2) {
      for (int steer = -1; steer <= 1; ++steer) {
        const Gear g = gear > 0 ? Gear::forward : Gear::reverse;
        const Segment seg = steer == 0 ? line_from_pose(parent.pose, step_, g) : arc_from_pose(parent.pose, r, steer, step_, g);
        const Pose to = segment_end(seg);
        const Cell tc = cell_of(to.pos);
        if (!grid.in_bounds(tc) || to.pos.x >= grid.width() || to.pos.y >= grid.height()) continue;
        const int32_t key = key_of(to);
        const double ng = parent.g + piece_cost(step_, gear, parent.gear);
        const int32_t existing = lookup(key);
        if (existing >= 0 && (nodes_[static_cast<size_t>(existing)].closed || nodes_[static_cast<size_t>(existing)].g <= ng))
          continue;
        if (!checker.clear(seg)) continue;
        const double hn = heuristic(to);
        if (!std::isfinite(hn)) continue;
        Node child;
        child.pose = to;
        child.g = ng;
        child.parent = it.node;
        child.key = key;
        child.steer = static_cast<int8_t>(steer);
        child.gear = static_cast<int8_t>(gear);
        const int32_t ci = static_cast<int32_t>(nodes_.size());
        nodes_.push_back(child);
        slot_[static_cast<size_t>(key)] = ci;
        ++out.generated;
        open.push({ng + hn, ng, ci});
      }
    }
  }
  if (!finish) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "no path: every reachable pose bin was expanded without a clear connection to the goal";
    return out;
  }
  std::vector<int32_t> chain;
  for (int32_t i = last; i > 0; i = nodes_[static_cast<size_t>(i)].parent) chain.push_back(i);
  for (auto i = chain.rbegin(); i != chain.rend(); ++i) {
    const Node& n = nodes_[static_cast<size_t>(*i)];
    const Node& p = nodes_[static_cast<size_t>(n.parent)];
    const Gear g = n.gear > 0 ? Gear::forward : Gear::reverse;
    const Segment seg = n.steer == 0 ? line_from_pose(p.pose, step_, g) : arc_from_pose(p.pose, r, n.steer, step_, g);
    if (auto s = out.path.append(seg); !s) return s.error();
  }
  if (auto s = out.path.append(*finish); !s) return s.error();
  out.found = true;
  out.length = out.path.length();
  out.cost = nodes_[static_cast<size_t>(last)].g + analytic_cost(*finish, nodes_[static_cast<size_t>(last)].gear);
  return out;
}

}  // namespace pathlab
