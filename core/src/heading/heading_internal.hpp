#pragma once
// Shared by the heading-aware planners (directional_astar.cpp, hybrid_astar.cpp,
// turning_smoother.cpp): the 2D obstacle-aware distance to the goal, a cheap conservative
// clearance map, and a swept-disc check of single segments that is never less strict than
// check_swept_path() with its default chord tolerance (so what the planners accept, the
// referee accepts too).

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "pathlab/collision.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/heading_path.hpp"
#include "pathlab/search_budget.hpp"
#include "pathlab/segment_path.hpp"

namespace pathlab::detail {

/// Extra clearance demanded around arcs, on top of each chord's sagitta. It covers the
/// referee's own chord approximation (check_swept_path's default max_sagitta 1e-3). [Units: cells]
inline constexpr double kArcMargin = 2e-3;

/// Largest sagitta of the chords the arc check uses. [Units: cells]
inline constexpr double kArcChordSagitta = 0.02;

/// Obstacle-aware distance [cells] from the centre of each cell to the centre of the goal cell:
/// 8-connected Dijkstra with octile step lengths (16-connected with knight_steps) over the cells a unit of `agent_radius` could
/// have its centre in (a disc of agent_radius - sqrt(2)/2 around the cell centre is clear: a
/// relaxation, so no drivable route is cut off). A diagonal step needs one of its two orthogonal
/// cells passable. Unreachable cells get +infinity. Computed lazily: the values a whole-map
/// Dijkstra gives (the distances are unique), but only as far as the search asks. With knight
/// steps (Directional A*'s field) the cells are settled by A* from the goal towards the query's
/// start (Silver, "Cooperative Pathfinding", AIIDE 2005: Reverse Resumable A*), in Dial's
/// buckets keyed by distance plus a consistent bound on the distance to the start: a settled
/// cell's distance is exact whatever the order, and cells off the way between the ends are
/// settled only when asked for; without, in the order of distance (see begin()). begin()
/// settles the start's cell; at() resumes when a cell is not settled yet. A search that stays
/// near the route between its ends never pays for the rest of the map, which was the largest
/// fixed cost of a query (2-3 ms on 256 x 256, the whole map each time). Reused between queries: its memory is kept, and a query to the same goal on the same
/// grid with the same radius (a unit re-planning on its way) keeps the cells already settled, as
/// the settled distances do not depend on the start. The grid must not change in between (the
/// planners' own rule: rebuild them after editing the grid).
class GoalDistance {
 public:
  /// `knight_steps`: also the 8 steps of (2, 1) shape, cost 22 (a slight underestimate of 10
  /// sqrt 5), each needing the two cells its straight line crosses passable (Directional A*:
  /// its moves' shallow S-bends cost little more than such a step; see field_scale() there).
  explicit GoalDistance(bool knight_steps = false) : knight_(knight_steps) {}
  /// Starts from `goal` (the rules above), aimed at `until` (row-major index; -1: none; with
  /// knight steps only, see begin() in heading_common.cpp), and settles cells until `until` is
  /// settled. The same goal again keeps what is settled and the aim (any aim gives the same
  /// distances; a re-plan's start lies near the first one's way). With a `meter`, its clock is
  /// read every 4096 cells: false when the time budget or the cancel flag stopped it (what was
  /// settled stays: the next begin() for this goal resumes).
  bool begin(const Grid& grid, Cell goal, double agent_radius, int64_t until, BudgetMeter* meter = nullptr);
  /// The cells inside `changed` of `grid` (the grid the field was begun on, edited in place)
  /// changed. Mends the passable cells within the agent radius of them only (passable_cells()
  /// on a piece of the map around them, so equal to a whole-map pass) and drops the settled
  /// distances: the next begin() settles them again lazily, as far as its query needs, and
  /// they equal a fresh field's. A field begun on another grid (or none) is left to begin().
  void edited(const Grid& grid, const CellRect& changed);
  /// The padded passable cells (tests compare them with a fresh field's).
  const std::vector<uint8_t>& padded_passable() const { return pass_; }
  /// The allowed steps per cell, all of them worked out (tests compare them with a fresh
  /// field's; settle() works out only the blocks of cells it expands).
  const std::vector<uint16_t>& step_masks() {
    for (size_t b = 0; b < ready_.size(); ++b)
      if (ready_[b] == 0) mark_block(b);
    return steps_;
  }
  /// at() in the field's integer steps (10 a cell; see settle()), -1 when unreachable: for
  /// callers that compare step costs exactly (Directional A*'s field_scale()).
  int32_t steps_at(int64_t index) {
    (void)at(index);  // settles it
    const int32_t d = steps_of(dist_[static_cast<size_t>(index)]);
    return d == kUnreached ? -1 : d;
  }
  /// The distance [cells] from cell `index` (row-major) to the goal, +infinity when unreachable.
  float at(int64_t index) {
    const int32_t d = dist_[static_cast<size_t>(index)];
    if (d < 0) return value(~d);  // settled
    if (pending_ > 0 && settle(index, nullptr)) return value(steps_of(dist_[static_cast<size_t>(index)]));
    return value(d);
  }

 private:
  /// Dial's buckets, a ring: a cell's key (distance plus the bound to the start) exceeds the one
  /// being expanded by at most twice the largest step (44; the bound is consistent).
  static constexpr int kBuckets = 64;
  static float value(int32_t d) {
    return d == kUnreached ? std::numeric_limits<float>::infinity() : 0.1f * static_cast<float>(d);
  }
  /// dist_ holds a settled cell's distance d as ~d (negative), a tentative one as d.
  static int32_t steps_of(int32_t stored) { return stored < 0 ? ~stored : stored; }
  static constexpr int32_t kUnreached = std::numeric_limits<int32_t>::max();
  /// A bucket entry: the cell and the tentative distance it was filed with (stale once the
  /// cell's distance is lower or settled).
  struct Entry {
    int32_t cell, dist;
  };
  /// The consistent lower bound [field steps] from a cell to the cell the settling heads for,
  /// 0 without one: the norm of the field's own steps (8 neighbours: octile 10 long + 4 short;
  /// with knight steps max(10 long + 2 short, 8 long + 6 short), which no step undercuts).
  struct Bound {
    Cell target{0, 0};      ///< the first start asked for this goal
    int32_t a = 0, b = 0;   ///< a long + b short
    int32_t c = 0, d = 0;   ///< c long + d short
    bool aimed() const { return a != 0 || b != 0 || c != 0 || d != 0; }
    int32_t operator()(int x, int y) const {
      const int32_t dx = std::abs(x - target.x), dy = std::abs(y - target.y);
      const int32_t lo = std::min(dx, dy), hi = std::max(dx, dy);
      return std::max(a * hi + b * lo, c * hi + d * lo);
    }
  };
  /// Aims the settling at cell `index` (-1: none, plain Dijkstra) for the goal just begun.
  void aim(int64_t index);
  /// Runs the buckets until cell `index` is settled (or no cell is left); false when the meter stopped it.
  bool settle(int64_t index, BudgetMeter* meter);
  /// settle()'s loop; without kAimed no bound (Dijkstra's order, no coordinates worked out).
  template <bool kAimed>
  bool settle_run(int64_t index, BudgetMeter* meter);
  bool knight_ = false;
  int w_ = 0, h_ = 0;
  const Grid* grid_ = nullptr;  // what the kept state was settled for (see begin())
  Cell goal_{-1, -1};
  double relaxed_ = -1.0;
  bool intact_ = false;  // false after edited(): the next begin() starts over
  /// Fills pass_: passable_cells() of the grid with a border of blocked cells around it (and
  /// marks every block of steps_ stale).
  void pad_passable(const Grid& grid, double relaxed);
  /// Works out steps_ for the map's cells in [lo, hi] (clipped to the map) from pass_.
  void mark_steps(Cell lo, Cell hi);
  /// Works out steps_ for block `b` (row-major cells 64 b to 64 b + 63) and marks it ready.
  void mark_block(size_t b);
  static constexpr int kBlockShift = 6;  // 64 cells a block of steps_
  std::vector<uint8_t> pass_;  // (w + 2) x (h + 2), row-major, the map's cells inside a blocked border
  /// Per map cell (row-major), the steps settle() may take from it, bit k for step k of
  /// kStepDx / kStepDy (heading_common.cpp): the step's target and the cells it crosses
  /// passable. Read once per expanded cell instead of up to 24 reads of pass_ (the knight
  /// steps doubled the field's cost); valid where ready_ says so, always what pass_ gives.
  std::vector<uint16_t> steps_;
  /// Per block of 64 cells of steps_: 1 when worked out. Lazily, like the distances: a new
  /// grid or radius pays for the blocks its queries expand, not for the whole map (a fresh
  /// service's first plan), and edited() only marks the blocks around a change stale.
  std::vector<uint8_t> ready_;
  std::vector<int32_t> dist_;  // see steps_of()
  std::vector<Entry> buckets_[kBuckets];  // each a stack: the deepest cell of a key first
  int32_t key_ = 0;  // the bucket being expanded; no entry has a lower key
  Bound bound_;  ///< all 0: not aimed (Dijkstra's order)
  size_t pending_ = 0;
  uint32_t until_clock_ = 4096;
};

/// The rotations SegmentChecker::clear() makes for an arc of one sweep (by half of it to the
/// middle point, by all of it to the end), worked out once by a planner whose primitives all
/// sweep alike: the same numbers clear() would compute.
struct ArcTurns {
  double sweep = 0.0;  ///< the sweep they are for [Units: radians]
  double half_cos = 1.0, half_sin = 0.0, cos = 1.0, sin = 0.0;
};
ArcTurns arc_turns(double sweep);

/// Sweeps a disc along single segments against a grid.
class SegmentChecker {
 public:
  /// With `with_field`, also builds the map's clearance field (collision.hpp; a few ms on 256 x
  /// 256, worth it for a planner that is kept and checks thousands of primitives per query):
  /// the answers are the same, most of them faster.
  SegmentChecker(const Grid& grid, double agent_radius, bool with_field = false);
  /// The cells inside `changed` of `grid` (of the size the checker was made for; a copy or the
  /// same grid edited in place) changed: mends the rings and the clearance field where the
  /// change reaches, so that both equal a fresh checker's. `changed` is clipped to the map.
  /// Errors: another map size, `changed` empty or outside the map; then nothing changed.
  Status update(const Grid& grid, const CellRect& changed);
  /// True when the disc swept along `seg` does not overlap a wall (lines exactly as
  /// segment_clear(); arcs with chords grown by their sagitta plus kArcMargin).
  bool clear(const Segment& seg) const { return clear(seg, nullptr); }
  /// The same answer; `turns` (used when it is for the segment's sweep) spares the arc's
  /// sines and cosines.
  bool clear(const Segment& seg, const ArcTurns* turns) const;
  bool clear(const SegmentPath& path) const;
  /// True when the disc at `p` fits.
  bool point_clear(Vec2 p) const;
  double agent_radius() const { return radius_; }
  /// Chebyshev distance in cells from cell `index` (row-major) to the nearest blocked or
  /// outside cell: every cell within rings - 1 of it is free and inside the map.
  int32_t rings(int64_t index) const { return rings_[static_cast<size_t>(index)]; }

 private:
  /// The answer of the field alone for a line or arc whose middle point is `mid`: 1 clear, -1
  /// blocked, 0 when it cannot tell. `turns`: null, or for the arc's sweep; `dir`: a line's
  /// heading as (cosine, sine).
  int field_answer(const Segment& seg, Vec2 mid, const ArcTurns* turns, Vec2 dir) const;
  /// The chord check of a clothoid: n chords at equal lengths, grown by `sagitta`.
  bool clothoid_clear(const Segment& seg, int n, double sagitta) const;
  const Grid* grid_;
  int width_ = 0;  // of the grid the rings were made for
  double radius_;
  // rings_[cell]: Chebyshev distance in cells to the nearest blocked or outside cell, so
  // every point of the cell is at least rings_ - 1 from any wall (the fast accept test).
  std::vector<int32_t> rings_;
  ClearanceField field_;  // empty (fits no grid) without with_field
};

/// The budget a heading-aware search runs with: `budget`, its expansion limit lowered to the
/// options' own max_expansions where that is smaller (0 = no limit on either).
SearchBudget combined_budget(int64_t max_expansions, const SearchBudget& budget);

/// Checks the budget's numbers; `max_expansions` is the options' own cap.
Status check_budget(int64_t max_expansions, const SearchBudget& budget);

/// Marks `out` as stopped by the budget (failure, partial, budget_stop) and says which limit
/// ran out. `expansion_text` is the message for an expansion stop (each planner words it for
/// its own options); time and cancel get a common one.
void mark_budget_stop(HeadingPath& out, BudgetStop why, const SearchBudget& budget, const std::string& expansion_text);

/// Settings of goal_pocket().
struct PocketDef {
  double turning_radius = 1.0;  ///< [Units: cells] [Limit: > 0]
  double step = 1.0;            ///< length of one backward step [Units: cells] [Limit: > 0]
  bool allow_reverse = false;   ///< the unit may arrive driving backwards
  Vec2 start{0, 0};             ///< reaching the start's cell ends the flood (not boxed in)
  int max_states = 2000;        ///< flood states before giving up (not boxed in)
  BudgetMeter* meter = nullptr; ///< read every 256 states: a time budget or cancel stops the flood
};

/// What goal_pocket() found.
struct GoalPocket {
  bool boxed_in = false;  ///< no way into the goal leads out of its pocket
  int states = 0;         ///< flood states taken
  bool stopped = false;   ///< the meter stopped the flood (boxed_in is then false)
};

/// Fast failure of goals that cannot be entered: floods backwards from `goal` (the poses from
/// which steps of `step` with full or no steering, clear by `checker`, arrive at it), most
/// open cells first, deduplicated by quarter cell and 5-degree heading bin. It stops, not
/// boxed in, at the first pose in open space (Chebyshev clearance >= 2 turning radii + agent
/// radius + 2 cells: the unit can turn around there), at the first pose farther than 2 turning radii + 4
/// steps + 1 cell from the goal (out of the goal's pocket), at the start's cell, or after
/// max_states; it is boxed in when the flood runs out first: every way into the goal ends
/// against a wall within a few steps. Its steps have one length, so it stands for the curves
/// of a search only near the goal: hence the distance limit, and callers use it only to fail
/// fast. A goal deep in a long dead end (farther than that limit) is not caught.
GoalPocket goal_pocket(const Grid& grid, const SegmentChecker& checker, const Pose& goal, const PocketDef& def);

/// Checks a pose argument: finite and inside the map; `what` names it in the message.
Status check_pose(const Grid& grid, const Pose& pose, const char* what);

/// A number for messages, shortest form ("4", "2.5").
std::string fmt_number(double v);

/// "(x, y, deg)" for messages.
std::string pose_text_deg(const Pose& p);

}  // namespace pathlab::detail
