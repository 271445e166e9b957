#include "pathlab/directional_astar.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <queue>
#include <set>
#include <string>

#include "heading/heading_internal.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/dubins.hpp"

namespace pathlab {
namespace {

constexpr int kHeadings = 8;
constexpr double kHeadingStep = kPi / 4;
// Octile grid distances overestimate straight-line ones by at most 1 / cos(22.5 deg): scaling
// the obstacle-aware distance by this keeps it from overestimating curves that cut across.
constexpr double kOctileToEuclid = 0.92387953251128674;
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
    const double max_angle = std::min(2.0 * std::acos(1.0 - std::min(detail::kArcChordSagitta / seg.radius, 1.0)), kPi / 4);
    const int n = std::max(1, static_cast<int>(std::ceil(std::abs(seg.sweep) / max_angle)));
    const double sagitta = seg.radius * (1.0 - std::cos(0.5 * std::abs(seg.sweep) / n));
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

Result<DirectionalAStar> DirectionalAStar::create(const Grid& grid, const DirectionalAStarOptions& o) {
  if (!(o.turning_radius > 0.0) || !(o.turning_radius <= kMaxTurningRadius))
    return fail(StatusCode::invalid_argument, "turning radius must be in (0, " + std::to_string(static_cast<int>(kMaxTurningRadius)) +
                                                  "] cells, got " + std::to_string(o.turning_radius));
  if (auto ok = check_agent_radius(o.agent_radius); !ok) return ok.error();
  if (o.neighborhood != 0 && o.neighborhood != 4 && o.neighborhood != 8 && o.neighborhood != 24 && o.neighborhood != 48)
    return fail(StatusCode::invalid_argument,
                "neighborhood must be 0 (auto), 4, 8, 24 or 48, got " + std::to_string(o.neighborhood));
  if (!(o.max_move_turn > 0.0) || !(o.max_move_turn <= 2 * kPi + 1e-12))
    return fail(StatusCode::invalid_argument, "max_move_turn must be in (0, 2 pi] radians");
  if (o.max_expansions < 0) return fail(StatusCode::invalid_argument, "max_expansions must be >= 0");
  if (grid.width() <= 0 || grid.height() <= 0) return fail(StatusCode::invalid_argument, "the grid is empty");
  const bool automatic = o.neighborhood == 0;
  if (automatic && directional_auto_reach(o.turning_radius) > kMaxAutoReach)
    return fail(StatusCode::invalid_argument,
                "turning radius " + std::to_string(o.turning_radius) + " needs an automatic neighborhood wider than " +
                    std::to_string(kMaxAutoReach) + " cells; choose a fixed neighborhood (4, 8, 24, 48) or Hybrid A*");

  DirectionalAStar planner(grid, o);
  planner.reach_ = automatic ? directional_auto_reach(o.turning_radius)
                             : o.neighborhood == 48 ? 3 : o.neighborhood == 24 ? 2 : 1;
  const int reach = planner.reach_;
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
          // fixed neighbourhoods keep the seed's rule (max_move_turn only).
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
  planner.checker_ = std::make_shared<detail::SegmentChecker>(grid, o.agent_radius);
  return planner;
}

Result<HeadingPath> DirectionalAStar::plan(const Pose& start_in, const Pose& goal_in) {
  if (auto s = detail::check_pose(*grid_, start_in, "start"); !s) return s.error();
  if (auto s = detail::check_pose(*grid_, goal_in, "goal"); !s) return s.error();
  const Grid& grid = *grid_;
  const int w = grid.width();
  const Cell sc = cell_of(start_in.pos), gc = cell_of(goal_in.pos);
  const int sh = heading_index(start_in.heading), gh = heading_index(goal_in.heading);
  HeadingPath out;
  out.start = lattice_pose(sc, sh);
  out.goal = lattice_pose(gc, gh);
  out.path = SegmentPath(out.start);
  const double r = options_.turning_radius;
  const detail::SegmentChecker& checker = *checker_;
  if (!point_clear(grid, out.start.pos, options_.agent_radius)) {
    out.failure = HeadingFailure::start_in_collision;
    out.reason = "start " + detail::pose_text_deg(out.start) + ": the unit's disc overlaps a wall";
    return out;
  }
  if (!point_clear(grid, out.goal.pos, options_.agent_radius)) {
    out.failure = HeadingFailure::goal_in_collision;
    out.reason = "goal " + detail::pose_text_deg(out.goal) + ": the unit's disc overlaps a wall";
    return out;
  }
  detail::goal_distance_field(grid, gc, options_.agent_radius, field_);
  if (!std::isfinite(field_[static_cast<size_t>(grid.index(sc.x, sc.y))])) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "the goal cell cannot be reached from the start cell by a unit of this size";
    return out;
  }

  const size_t n = static_cast<size_t>(grid.cell_count()) * kHeadings;
  g_.assign(n, std::numeric_limits<double>::infinity());
  parent_move_.assign(n, -1);
  closed_.assign(n, 0);
  auto node_of = [&](Cell c, int h) { return static_cast<int64_t>(grid.index(c.x, c.y)) * kHeadings + h; };
  auto heuristic = [&](Cell c, int h) {
    const double field = kOctileToEuclid * field_[static_cast<size_t>(grid.index(c.x, c.y))];
    const Pose p = lattice_pose(c, h);
    // A Dubins curve is less than kCurveSlackRadii radii longer than the straight line: far
    // from the goal the field wins the max anyway, so skip the trigonometry.
    if (field > glm::length(out.goal.pos - p.pos) + kCurveSlackRadii * r) return field;
    auto d = dubins_length(p, out.goal, r);
    return std::max(field, d ? *d : 0.0);
  };
  struct Item {
    double f, g;
    int64_t node;
    bool operator>(const Item& o) const { return f != o.f ? f > o.f : g < o.g; }  // ties: deepest first
  };
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  const int64_t start_node = node_of(sc, sh), goal_node = node_of(gc, gh);
  g_[static_cast<size_t>(start_node)] = 0.0;
  open.push({heuristic(sc, sh), 0.0, start_node});
  bool found = false;
  while (!open.empty()) {
    const Item it = open.top();
    open.pop();
    const size_t ni = static_cast<size_t>(it.node);
    if (closed_[ni] || it.g > g_[ni]) continue;
    closed_[ni] = 1;
    const int h = static_cast<int>(it.node % kHeadings);
    const int64_t cell = it.node / kHeadings;
    const Cell c{static_cast<int>(cell % w), static_cast<int>(cell / w)};
    if (options_.max_expansions > 0 && out.expanded >= options_.max_expansions) {
      out.failure = HeadingFailure::budget_exhausted;
      out.reason = "expansion budget exhausted (max_expansions = " + std::to_string(options_.max_expansions) +
                   " lattice poses) before reaching the goal; raise max_expansions to search longer";
      return out;
    }
    ++out.expanded;
    if (options_.record_trace) out.trace.push_back(lattice_pose(c, h));
    if (it.node == goal_node) {
      found = true;
      break;
    }
    // Every cell within `room` of c is free: moves reaching no farther need no cell tests.
    const int room = checker.rings(grid.index(c.x, c.y)) - 1;
    for (int mi = first_move_[static_cast<size_t>(h)]; mi < first_move_[static_cast<size_t>(h) + 1]; ++mi) {
      const DirectionalMove& m = moves_[static_cast<size_t>(mi)];
      const Cell to{c.x + m.offset.x, c.y + m.offset.y};
      if (m.extent > room && !grid.is_free(to)) continue;
      const int64_t tn = node_of(to, m.to_heading);
      const double ng = it.g + m.length;
      if (closed_[static_cast<size_t>(tn)] || ng >= g_[static_cast<size_t>(tn)]) continue;
      bool clear = true;
      if (m.extent > room)
        for (const Cell& d : m.footprint)
          if (grid.is_blocked(c.x + d.x, c.y + d.y)) {
            clear = false;
            break;
          }
      if (!clear) continue;
      ++out.generated;
      g_[static_cast<size_t>(tn)] = ng;
      parent_move_[static_cast<size_t>(tn)] = mi;
      open.push({ng + heuristic(to, m.to_heading), ng, tn});
    }
  }
  if (!found) {
    out.failure = HeadingFailure::unreachable;
    out.reason = "no lattice path: every pose reachable with this turning radius was expanded";
    return out;
  }
  // Walk back through the moves, then replay them forwards.
  std::vector<int> chain;
  for (int64_t node = goal_node; node != start_node;) {
    const int mi = parent_move_[static_cast<size_t>(node)];
    chain.push_back(mi);
    const DirectionalMove& m = moves_[static_cast<size_t>(mi)];
    const int64_t cell = node / kHeadings;
    const Cell c{static_cast<int>(cell % w) - m.offset.x, static_cast<int>(cell / w) - m.offset.y};
    node = node_of(c, m.from_heading);
  }
  Cell at = sc;
  for (auto i = chain.rbegin(); i != chain.rend(); ++i) {
    const DirectionalMove& m = moves_[static_cast<size_t>(*i)];
    const Cell to{at.x + m.offset.x, at.y + m.offset.y};
    auto piece = dubins_to_path(lattice_pose(at, m.from_heading), lattice_pose(to, m.to_heading), r, m.curve);
    if (!piece) return piece.error();
    if (auto s = out.path.append(*piece); !s) return s.error();
    at = to;
  }
  if (auto s = out.path.snap_end(out.goal); !s) return s.error();
  out.found = true;
  out.length = out.path.length();
  out.cost = g_[static_cast<size_t>(goal_node)];
  return out;
}

}  // namespace pathlab
