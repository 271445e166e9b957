#pragma once
// The inside of pathlab::Crowd (crowd.hpp), split over the crowd_*.cpp files by concern: routes and
// deadlocks (crowd_route.cpp, crowd_stuck.cpp; the route's points round the next waypoint copied
// into the unit, crowd_route_window.cpp), traffic on the routes and settled units
// (crowd_flow.cpp), keeping right in passages (crowd_passage.cpp), the neighbour buckets and
// wall-edge index (crowd_neighbors.cpp), avoidance (crowd_avoid.cpp), moving and measuring
// (crowd_move.cpp; the progress pass's read-ahead on the worker threads, crowd_read_ahead.cpp),
// vehicles tracking their routes (crowd_track.cpp), slots near a shared goal (crowd_slots.cpp),
// doors and moving obstacles (crowd_dynamic.cpp), the grid a large group's field is searched on,
// its queues dearer (crowd_queue.cpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "crowd/flow_field_crowd.hpp"
#include "crowd/orca.hpp"
#include "crowd/worker_pool.hpp"
#include "pathlab/crowd.hpp"
#include "pathlab/det_math.hpp"
#include "pathlab/grid_search.hpp"

namespace pathlab {

namespace crowd {

/// What a unit's route added to CrowdImpl::flow_: the cells in the order they were marked and
/// one direction per run of them (a route leg). A mark was a (cell, direction) pair of 24 bytes,
/// hundreds per unit on a 512-cell map (most of a unit's memory at 10,000 units); now 4 bytes,
/// and removing the marks subtracts the same directions in the same order.
struct FlowMarks {
  std::vector<int> cells;
  std::vector<std::pair<uint32_t, Vec2>> runs;  ///< (end of the run in cells, its direction)
  bool empty() const noexcept { return cells.empty(); }
  void clear() noexcept {
    cells.clear();
    runs.clear();
  }
};

/// One question keep_right_in_passages asked of the traffic (CrowdImpl::oncoming_across: its
/// arguments and answer). A route kept right is the same again while every question it asked,
/// asked again in order, has the same answer (CrowdImpl::oncoming_answers_hold): the traffic is
/// all it reads that the progress pass changes.
struct OncomingQuestion {
  Vec2 from, to, dir;
  bool answer = false;
};
using OncomingQuestions = std::vector<OncomingQuestion>;

/// A unit's flow-field route read ahead on a worker thread (CrowdImpl::prepare_progress), for
/// a re-plan in the serial progress pass that asks the same (plan_flow_route).
struct FlowSpec {
  bool valid = false;
  const FlowField* field = nullptr;
  int64_t version = -1;  ///< FlowFields::version() when it was read.
  Vec2 from{0.0, 0.0}, to{0.0, 0.0};
  double radius = 0.0;
  std::vector<Vec2> route;
  /// `route` after keep_right_in_passages with the traffic's answers in `reads`: the pass
  /// takes it while the answers are the same. Empty: not worked out.
  std::vector<Vec2> kept;
  OncomingQuestions reads;
};

/// Copies of the few points of a unit's route round its next waypoint, and of route_tail
/// there, kept in the unit's own record (CrowdImpl::window_route). Each unit's route and
/// route_tail are heap blocks of their own, kilobytes long and scattered over the heap: at
/// 10,000 units the decision's loads of route[next], route.back() and the read-ahead's
/// route_tail[next] were a cache and a TLB miss each, a unit a step. The window is filled
/// when the route changes or the waypoint leaves it (every few dozen steps for a walking
/// unit), so a step reads the route's own memory only then. Copies of the same values: the
/// results are bit for bit those of reading the route.
struct RouteWindow {
  static constexpr int kPoints = 4;  ///< next - 1 .. next + 2 when filled.
  uint32_t version = 0;              ///< Agent::route_version when filled; 0: empty.
  int first = 0;                     ///< The route index of pts[0].
  int count = 0;                     ///< pts[0, count) and tail[0, count) are filled.
  const Vec2* data = nullptr;        ///< route.data() and route.size() when filled (a guard).
  size_t size = 0;
  std::array<Vec2, kPoints> pts{};
  std::array<double, kPoints> tail{};  ///< route_tail at those points. [Units: cells]
  Vec2 end{0.0, 0.0};                  ///< route.back(). [Units: cells]
  /// Whether point k of the route is in the window.
  bool holds(size_t k) const noexcept {
    return k >= static_cast<size_t>(first) && k < static_cast<size_t>(first + count);
  }
};

/// One unit with everything the update keeps between steps.
struct Agent {
  CrowdAgentDef def;
  CrowdAgentState st;
  CrowdAgentMetrics m;
  bool holonomic = true;        ///< Free heading (person): velocity changes in any direction.
  /// Its route was last asked of CrowdDef::route_planner with the group's field
  /// (CrowdRouteQuery::group_field): when the field is built afresh it asks again.
  bool field_query = false;
  int group = -1;               ///< Goal group (units sharing a goal settle in slots).
  int slot = -1;                ///< Claimed slot in its group, -1 while far from the goal.
  double best_remaining = 0.0;  ///< Shortest remaining route seen since the last progress.
  double progress_time = 0.0;   ///< When it last made progress. [Units: s]
  double stuck_total = 0.0;     ///< Time spent stuck in all. [Units: s]
  double next_resolve = 0.0;    ///< When the next deadlock resolution is due. [Units: s]
  double next_full_resolve = 0.0;  ///< ... and the next with detours and re-plans (stuck_round). [Units: s]
  double yield_until = -1.0;    ///< Giving way until then. [Units: s]
  Vec2 yield_dir{0.0, 0.0};
  double next_visibility_check = 0.0;
  bool gave_up = false;
  bool at_spot = false;          ///< Within the arrive distance of its target (with hysteresis, crowd_arrive.cpp).
  bool heading_given_up = false; ///< Stopped on its spot facing off the goal heading, and cannot turn there.
  Vec2 lock_anchor{0.0, 0.0};    ///< Where its current lock interval began (crowd_arrive.cpp). [Units: cells]
  double lock_since = 0.0;       ///< When. [Units: s]
  double make_way_until = -1.0; ///< Settled units in its way step aside until then (crowd_make_way.cpp). [Units: s]
  double maneuver_until = -1.0;  ///< Backing up to line up with the route (units that cannot pivot). [Units: s]
  double next_drive = 0.0;       ///< No drivable detour planned before then (crowd_drive.cpp). [Units: s]
  Vec2 route_dir{0.0, 0.0};      ///< Unit vector to the current waypoint (0 when there is none).
  bool near_units = false;       ///< Other units constrain its velocity this step (ORCA lines besides walls and trucks).
  FlowMarks flow_marks;  ///< What its route added to CrowdImpl::flow_.
  // Decided in the avoidance pass, applied in the move pass.
  Vec2 new_velocity{0.0, 0.0};  ///< Holonomic units.
  double target_speed = 0.0;    ///< Heading units.
  double target_turn = 0.0;     ///< Heading units. [Units: rad/s]
  bool ride = false;            ///< A vehicle tracking its route, on the route's line: it drives along it exactly (crowd_move.cpp).
  size_t ride_stop = 0;          ///< The route point a riding vehicle stops at (its end, or a sharp corner to pivot at).
  int sharp_last = -1;           ///< Cache of CrowdImpl::last_sharp_corner for the route with these:
  size_t sharp_key_size = 0;
  Vec2 sharp_key_front{0.0, 0.0}, sharp_key_back{0.0, 0.0};
  bool tracking = false;        ///< A vehicle tracking its route (crowd_track.cpp) in its last move: others avoid it fully.
  /// In its last move tracking its route: the unit within reach of its route ahead that held
  /// its speed (CrowdImpl::route_speed_limit), -1 when none (crowd_track.cpp: right of way).
  int blocked_by = -1;
  /// Per route point k: the route's length from k to its end (CrowdImpl::index_route), so the
  /// distance left is not summed over thousands of points every step. [Units: cells]
  std::vector<double> route_tail;
  double reverse_since = -1.0;  ///< When it began its current run in reverse, -1 going forward (crowd_stuck.cpp). [Units: s]
  int turn_gear = 0;            ///< Turning round to face its route (crowd_turn.cpp): +1 forward, -1 reverse, 0 not turning.
  double turn_best = 0.0;       ///< The smallest heading error to the route in the current turn. [Units: radians]
  double turn_progress = 0.0;   ///< When the current turn round last came closer to facing its route. [Units: s]
  double turn_off_until = -1.0; ///< A turn round that stopped making progress: none again before then. [Units: s]
  // Read ahead on the worker threads for this step's progress pass (CrowdImpl::prepare_progress).
  int sight = -1;               ///< Whether sight_point was in straight sight (1) or not (0); -1: not asked.
  Vec2 sight_point{0.0, 0.0};
  FlowSpec flow_spec;
  /// Counts the routes it has had (index_route): remaining_ahead holds for route_version.
  uint32_t route_version = 0;
  uint32_t remaining_version = 0;  ///< route_version when remaining_ahead was read; 0: never.
  int remaining_next = -1;         ///< ... and next_waypoint.
  double remaining_ahead = 0.0;    ///< remaining_route() then. [Units: cells]
  // The route's next waypoint, noted in the decision (CrowdImpl::note_waypoint), where it is
  // loaded anyway: remaining_route() and the read-ahead's sight check take it while the route
  // and the waypoint are the same.
  uint32_t waypoint_version = 0;  ///< route_version when it was noted; 0: not noted.
  int waypoint_next = -1;         ///< ... and next_waypoint.
  Vec2 waypoint{0.0, 0.0};        ///< route[waypoint_next]. [Units: cells]
  double waypoint_tail = 0.0;     ///< route_tail[waypoint_next] (from the window). [Units: cells]
  RouteWindow window;             ///< The route round next_waypoint (CrowdImpl::window_route).
  // Worked out on the worker threads after its decision, for this step's move (CrowdImpl::plan_move).
  bool move_planned = false;  ///< A person: move() takes the following.
  Vec2 move_v{0.0, 0.0};      ///< Its velocity for the move. [Units: cells/s]
  double move_heading = 0.0;  ///< Its heading after the move. [Units: radians]
  uint16_t move_clear = 0;    ///< Per try k of move(), bits 2k..2k+1: 0 a wall in the way, 1 clear, 2 a moving obstacle in the way, 3 not asked.
};

/// Whether the unit's route is its large group's shared flow field: the crowd's own
/// (CrowdRouteSource::flow_field), or the route planner's read from it (field_query).
inline bool on_group_field(const Agent& a) {
  return a.st.route_source == CrowdRouteSource::flow_field || (a.st.route_source == CrowdRouteSource::planner && a.field_query);
}

/// Units sharing one goal and the free places around it.
struct GoalGroup {
  Vec2 goal{0.0, 0.0};
  std::vector<int> members;
  std::vector<Vec2> slots;      ///< Made on the first claim, nearest the goal first.
  std::vector<int> claimed_by;  ///< Per slot: the unit, or -1.
  double spacing = 0.0;         ///< Distance between neighbouring slots (and between rings). [Units: cells]
  double max_radius = 0.0;      ///< The largest member's radius, found in step max_radius_step (claim_slot). [Units: cells]
  bool holonomic = true;        ///< Every member steps any way (persons), found with max_radius.
  int64_t max_radius_step = -1;
  bool all_settled = false;     ///< Every member with a slot on it, as found in step settled_step (move_in).
  int64_t settled_step = -1;
};

struct Door {
  DoorDef def;
  bool open = true;
  bool want_open = true;
  size_t next_toggle = 0;
};

struct Mover {
  MovingObstacleDef def;
  MovingObstacleState st;
  size_t leg = 0;         ///< Driving from route[leg] to route[leg + 1].
  double along = 0.0;     ///< Distance driven on the current leg. [Units: cells]
  Vec2 velocity{0.0, 0.0};
  double odometer = 0.0;      ///< Net distance driven along the route (backing off subtracts). [Units: cells]
  double lock_odometer = 0.0; ///< odometer when its current lock interval began. [Units: cells]
  double lock_since = 0.0;    ///< When. [Units: s]
  double blocked_since = -1.0;///< When its way was last found blocked after being clear; -1: it is not blocked. [Units: s]
  double backed = 0.0;        ///< How far it has backed off and not driven again. [Units: cells]
  double pause_until = -1.0;  ///< Backed off: it waits until then before it comes on again. [Units: s]
};

/// What one thread's decisions work in (CrowdImpl::decide): the ORCA lines of the unit being
/// decided and the neighbour candidates of its query. One per worker thread.
struct Scratch {
  std::vector<OrcaLine> lines;
  int hard_lines = 0;  ///< lines[0, hard_lines) are walls and moving obstacles.
  int wall_lines = 0;  ///< lines[0, wall_lines) are walls (Crowd::explain tells them apart).
  /// find_neighbors: (gap, id) of the kept ones, nearest first; decide() reads it.
  std::vector<std::pair<double, int>> found;
  std::vector<std::pair<double, int>> bucket_order;  ///< find_neighbors: (squared distance, bucket), its own first.
};

/// A GridPathfinder that can be copied with the crowd (Crowd::clone): a copy starts without a
/// pathfinder, and CrowdImpl::clone() binds it to the copy's own grid with reset() before any
/// search. A pathfinder keeps only buffers and preprocessing of its grid, so a new one finds
/// the same paths.
class Finder {
 public:
  explicit Finder(const Grid& grid) : f_(std::make_unique<GridPathfinder>(grid)) {}
  Finder(const Finder&) {}
  Finder& operator=(const Finder&) {
    f_.reset();
    return *this;
  }
  void reset(const Grid& grid) {
    if (f_) f_->reset(grid);
    else f_ = std::make_unique<GridPathfinder>(grid);
  }
  Result<GridPath> find_path(GridPlanner planner, Cell start, Cell goal, const GridSearchOptions& options) {
    return f_->find_path(planner, start, goal, options);
  }

 private:
  std::unique_ptr<GridPathfinder> f_;
};

/// The unit vector of a heading: det_math's sin and cos in one reduction (the same bits as both).
inline Vec2 heading_dir(double heading) {
  double s = 0.0, c = 0.0;
  dmath::sincos(heading, s, c);
  return Vec2(c, s);
}

/// Asks for a unit's state to be brought into the cache ahead of its use (a hint, no effect on
/// any result). The serial passes run over the units in index order, a kilobyte apart, and
/// their first touch of each unit was most of their time in a profile at 10,000 units.
inline void prefetch_agent(const Agent& a) {
  const char* p = reinterpret_cast<const char*>(&a);
  for (size_t off = 0; off < sizeof(Agent); off += 64) __builtin_prefetch(p + off);
}

inline constexpr int kBucketSide = 4;  ///< Cells per neighbour bucket side (CrowdImpl::buckets_).

/// The turn between two chords of a route a car can drive: a vehicle planner's curve sampled
/// every 0.25 cells at a turning radius of 2 turns 0.125 rad per chord. [Units: radians]
inline constexpr double kChordTurn = 0.15;

/// Distance from p to an oriented box (0 inside) and the box's closest point.
double box_distance(const Pose& box, Vec2 half, Vec2 p, Vec2* closest = nullptr);

}  // namespace crowd

class CrowdImpl {
 public:
  CrowdImpl(const Grid& grid, const CrowdDef& def);

  Result<CrowdAgentId> add_agent(const CrowdAgentDef& agent);
  Result<int> add_door(const DoorDef& door);
  Result<int> add_moving_obstacle(const MovingObstacleDef& obstacle);
  Status set_door_open(int door, bool open);
  Status set_goal(CrowdAgentId id, Vec2 goal, std::optional<double> goal_heading);
  void step();
  /// A copy whose future is the same as this one's (Crowd::clone), routed by `planner`.
  std::unique_ptr<CrowdImpl> clone(CrowdRoutePlanner planner) const;
  size_t memory_bytes() const noexcept;  ///< Crowd::memory_bytes

  CrowdDef def_;
  Grid base_;   ///< The map as loaded.
  Grid grid_;   ///< The map with closed doors as walls.
  crowd::Finder finder_;
  Grid avoid_grid_;  ///< grid_ with the units in the way blocked, for a detour.
  crowd::Finder avoid_finder_;
  Grid local_grid_;  ///< A window of grid_ around one query.
  crowd::Finder local_finder_;
  Cell window_origin_;        ///< Where the last search's grid starts on the map.
  bool window_used_ = false;  ///< The last search ran on local_grid_.
  std::vector<crowd::Agent> agents_;
  std::vector<Vec2> flow_;  ///< Per cell: the sum of the directions of the routes through it.
  std::vector<uint16_t> settled_;   ///< Per cell: how many arrived units stand on it (mark_settled).
  std::vector<int> settled_cells_;  ///< The cells where settled_ is not 0.
  int64_t settled_step_ = -1;       ///< The step settled_ was made for.
  std::vector<int> held_settled_;  ///< The units on their spots this step (make_way_for_held_units).
  std::vector<crowd::GoalGroup> groups_;
  crowd::FlowFields flow_fields_;  ///< Shared routes of large groups (flow_field_crowd.cpp).
  /// Makes the cells of wall_grid_ near walls dearer (crowd_queue.cpp).
  void add_wall_discomfort();
  Grid wall_grid_;                 ///< grid_ with the band along the walls dearer (add_wall_discomfort), as of queue_doors_.
  Grid queue_grid_;                ///< wall_grid_ with the cells where units queue dearer (crowd_queue.cpp), for the fields.
  int64_t queue_step_ = -1;        ///< The step queue_grid_ was taken in; -1: never.
  int64_t queue_version_ = 0;      ///< Counts the times queue_grid_ was taken: the fields sync with it only when this changed.
  std::vector<uint8_t> queue_doors_;  ///< The doors' open flags then.
  std::vector<crowd::Door> doors_;
  std::vector<crowd::Mover> movers_;
  int64_t steps_ = 0;
  double next_drive_plan_ = 0.0;  ///< No drivable detour planned in the crowd before then (crowd_drive.cpp). [Units: s]
  double min_separation_ = 0.0;
  double min_ratio_ = 0.0;
  double min_obstacle_gap_ = 0.0;
  double longest_lock_ = 0.0;       ///< CrowdMetrics::longest_lock. [Units: s]
  int longest_lock_agent_ = -1;
  int longest_lock_obstacle_ = -1;
  double max_radius_ = 0.0;
  double max_speed_ = 0.0;  ///< Fastest unit. [Units: cells/s]
  // Neighbour buckets of kBucketSide cells, kept up to date by rebuild_buckets(): only a unit
  // that changed bucket moves. The order of the ids in a bucket depends on the history, so
  // every reader's result must not (find_neighbors sorts by (gap, id); place_ok asks "any?").
  int bucket_w_ = 0, bucket_h_ = 0;
  std::vector<std::vector<int>> buckets_;
  /// The buckets overlapping the box [lo, hi] (cells), clamped to the map's: {bx0, by0, bx1, by1},
  /// inclusive (empty when bx0 > bx1 or by0 > by1).
  std::array<int, 4> bucket_box(Vec2 lo, Vec2 hi) const {
    return {std::max(0, static_cast<int>(std::floor(lo.x / crowd::kBucketSide))),
            std::max(0, static_cast<int>(std::floor(lo.y / crowd::kBucketSide))),
            std::min(bucket_w_ - 1, static_cast<int>(std::floor(hi.x / crowd::kBucketSide))),
            std::min(bucket_h_ - 1, static_cast<int>(std::floor(hi.y / crowd::kBucketSide)))};
  }
  /// Calls `visit(id)` for the units in the buckets that overlap the box [lo, hi] (cells), as
  /// rebuild_buckets() last placed them, until one call returns true; returns whether one did.
  /// The order is the buckets' (see above: no reader may depend on it).
  template <class Visit>
  bool any_in_buckets(Vec2 lo, Vec2 hi, Visit&& visit) const {
    const auto [bx0, by0, bx1, by1] = bucket_box(lo, hi);
    // From the packed ids (pack_buckets: the buckets' contents, one array): one load less per
    // bucket than buckets_' vectors.
    for (int by = by0; by <= by1; ++by) {
      const size_t row = static_cast<size_t>(by) * static_cast<size_t>(bucket_w_);
      const int end = pack_start_[row + static_cast<size_t>(bx1) + 1];
      for (int slot = pack_start_[row + static_cast<size_t>(bx0)]; slot < end; ++slot)
        if (visit(pack_id_[static_cast<size_t>(slot)])) return true;
    }
    return false;
  }
  std::vector<int> agent_bucket_;  ///< Per unit: its bucket.
  size_t arrays_filled_ = 0;  ///< Units whose entries of pos_, vel_, radius_, top_speed_, tracking_ are set.
  // What the neighbour queries and ORCA read of every unit, as arrays (structure of arrays, one
  // cache line holds several units), equal to the units' state at the start of the step
  // (rebuild_buckets copies a new unit's; move() writes a unit's entries as it moves).
  std::vector<Vec2> pos_;        ///< [Units: cells]
  std::vector<Vec2> vel_;        ///< [Units: cells/s]
  std::vector<double> radius_;   ///< [Units: cells]
  std::vector<double> top_speed_;  ///< UnitDef::max_speed. [Units: cells/s]
  std::vector<uint8_t> tracking_;  ///< Agent::tracking (a vehicle riding its route), 0 or 1.
  // The buckets packed for find_neighbors() by pack_buckets(): bucket b's units are the slots
  // [pack_start_[b], pack_start_[b + 1]) of the arrays below, in the bucket's order.
  std::vector<int> pack_start_;
  std::vector<int> pack_id_;
  std::vector<double> pack_x_, pack_y_, pack_r_;  ///< [Units: cells]
  // Where the grid has wall edges (index_wall_edges): per line of cell edges, running counts of
  // the edges along it between a free cell and a blocked one (or the outside).
  std::vector<int> h_edges_;  ///< Lines y = e, e in [0, height], (width + 1) counts each.
  std::vector<int> v_edges_;  ///< Lines x = e, e in [0, width], (height + 1) counts each.
  bool wall_edges_stale_ = true;  ///< grid_ changed since index_wall_edges() (apply_door).
  /// Per cell of grid_: the distance from its centre to the nearest wall, capped a cell and a
  /// half out (index_wall_room; crowd_clearance.cpp). Empty until a wide unit plans. [Units: cells]
  std::vector<float> wall_room_;
  bool wall_room_stale_ = true;  ///< grid_ changed since index_wall_room() (apply_door).
  std::vector<crowd::Scratch> scratch_;  ///< One per worker thread (scratch_[0]: the caller's).
  crowd::WorkerPool pool_;  ///< CrowdDef::threads; runs the neighbours-and-decisions phase.
  std::function<double()> phase_clock_;  ///< Crowd::set_phase_clock; empty: no profiling.
  std::vector<CrowdPhaseTime> phases_;   ///< Crowd::last_phases.

  /// Runs f() on the calling thread as the step's phase `name` (timed when profiling, less
  /// the caller's share of the nested parallel phases it ran, which are phases of their own).
  template <class F>
  void serial_phase(const char* name, F&& f) {
    if (!phase_clock_) {
      f();
      return;
    }
    nested_caller_ = 0.0;
    const double t0 = phase_clock_();
    f();
    record_phase(name, false, {phase_clock_() - t0 - nested_caller_});
  }
  /// The moves of units 0..n-1 in index order, beside them a share of the flow fields' spread
  /// repair when one is under way (flow_field_spread.cpp).
  void moves_phase(int n);
  /// The progress pass of units 0..n-1 in index order, beside it a share of the flow fields'
  /// spread repair (no copies: FlowFields::set_beside) when one is under way.
  void progress_phase(int n);
  /// The flow fields' spread repair's work a step beside the moves and beside the progress
  /// pass (FlowFields::advance_repair), per unit of the crowd and at least: those serial passes
  /// grow with the units, and the repair's share should take no longer than they do (at 10,000
  /// units 20,000 and 12,000 cells, about 1.3 and 0.8 ms, where the passes take 2-2.4 and 1.3
  /// ms). The 8 fields of bench_crowd_scale's rooms map need 1.1-2 million cells' work after
  /// the queues are taken afresh: 35-60 steps at 10,000 units, twice as many at 5,000.
  /// [Units: cells per unit, cells]
  static constexpr int64_t kRepairWorkBesideMoves = 2, kRepairWorkBesideMovesMin = 4000;
  static constexpr double kRepairWorkBesideProgress = 1.2;
  static constexpr int64_t kRepairWorkBesideProgressMin = 2400;
  /// pool_.run(n, job) as the step's phase `name` (each thread's share timed when profiling).
  void parallel_phase(const char* name, int n, const crowd::WorkerPool::Job& job);
  /// pool_.run_each(n, job) inside a serial phase (or outside a step), timed as a phase of its
  /// own when profiling.
  void nested_parallel_phase(const char* name, int n, const crowd::WorkerPool::Job& job);
  /// Runs `job` on the pool (`one_each`: WorkerPool::run_each, else run) and, with a phase clock,
  /// records it as the parallel phase `name`. Returns the calling thread's CPU in it. [Units: ms]
  double timed_phase(const char* name, int n, const crowd::WorkerPool::Job& job, bool one_each);
  double nested_caller_ = 0.0;  ///< The caller's CPU in nested parallel phases of the current serial phase. [Units: ms]
  void record_phase(const char* name, bool parallel, std::vector<double> per_thread);

  double time() const { return static_cast<double>(steps_) * def_.dt; }

  // crowd_route.cpp (and crowd_passage.cpp: keep_right_in_passages, cross_section, passage_right_half)
  Status check_goal(const UnitDef& unit, Vec2 goal, const std::string& what) const;
  void join_group(int id);
  /// Plans from the unit's position to its target; with `extra_blocked` cells (units in the
  /// way) a failure leaves the route as it was.
  void plan_route(int id, const std::vector<Cell>& extra_blocked = {});
  /// plan_route with CrowdDef::route_planner (set): asks it, "no route" on an error.
  void plan_provided_route(int id, const std::vector<Cell>& extra_blocked = {});
  /// Drops the points of a planned route (starting at the unit's position) before the one
  /// nearest to the unit within its first cells, so the unit does not drive back to its cell's centre.
  void join_route_ahead(std::vector<Vec2>& route, double radius) const;
  /// A grid search from start to goal with traffic costs and `extra` cells blocked; with
  /// `extra` (a detour round units) only within a window round start and goal.
  Result<GridPath> search_cells(Cell start, Cell goal, double radius, const std::vector<Cell>& extra);
  /// The points of the unit's route from the one a detour round units rejoins it at (about
  /// kDetourReach cells along it) to its end; none without a route.
  std::vector<Vec2> detour_rest(const crowd::Agent& a) const;
  void claim_slot(int id);
  /// Moves to `slots` each point of `unlinked` a step from one of them (a neighbour within 1.2
  /// `spacing`, the segment clear of walls for `radius`), until none is; the first slot is the
  /// goal itself, when it is among `unlinked`. [Units: cells]
  void link_slots(std::vector<Vec2>& slots, std::vector<Vec2>& unlinked, Vec2 goal, double spacing, double radius) const;
  /// The `wanted` points of a hexagonal lattice of `spacing` round `goal` nearest to it (fewer
  /// where walls leave fewer) that are clear of walls for `radius` and linked to the goal
  /// (link_slots), nearest first. [Units: cells]
  std::vector<Vec2> lattice_slots(Vec2 goal, size_t wanted, double spacing, double radius) const;
  /// Hexagonal rings round `goal` (ring k: 6k points k `spacing`s out), whole rings until they
  /// hold `wanted` points clear of walls for `radius` and linked to the goal (link_slots), ring
  /// by ring. [Units: cells]
  std::vector<Vec2> ring_slots(Vec2 goal, size_t wanted, double spacing, double radius) const;
  // flow_field_crowd.cpp
  /// plan_route for a unit of a large group (CrowdDef::flow_field_units): its route from the
  /// group's flow field. False, and nothing changed, when that does not apply or finds no route.
  bool plan_flow_route(int id);
  /// Takes queue_grid() afresh when due and has the flow fields follow it (a door's change at
  /// once, the queues' by a spread repair).
  void sync_flow_fields();
  /// The field of a's group (goal cell, radius class) on queue_grid(), built or repaired; null when none can be.
  const FlowField* group_field(const crowd::Agent& a);
  /// goal_flow_field(): the field kept for the group of `goal` and `class_radius` (a copy), or
  /// the one such a group would get on the crowd's grid as it is now.
  Result<FlowField> group_field_view(Cell goal, double class_radius) const;
  /// goal_flow_field_version()
  int64_t group_fields_version() const noexcept { return flow_fields_.version(); }
  /// Has the flow fields of all large groups built anew with their routes spread by traffic
  /// (FlowFields::share_routes, flow_field_share.cpp), the routes traced from where the units stand.
  void share_group_routes();
  /// Whether a unit on its group's field would now be led another way by it (another doorway,
  /// its queues dearer): the field's direction more than 45 degrees off the way to its next corner.
  bool flow_way_changed(int id);
  /// Whether at least CrowdDef::flow_field_units persons of a's radius class go to a's goal cell.
  bool flow_group_large(const crowd::Agent& a) const;
  /// The persons of a's radius class (free heading) bound for a's goal cell, a included,
  /// counted up to `limit`. [Limit: >= 1]
  int flow_group_count(const crowd::Agent& a, int limit) const;
  /// After unit `id` joined its group and planned: when it made the group large, the members of
  /// its radius class that joined before take their routes from the group's field too.
  void route_new_large_group(int id);
  // flow_field_density.cpp
  /// Once every kDensityPeriod: one large group's field (a round robin) built afresh with the
  /// cells where the other groups' units stand dearer, and the group's units whose way ahead
  /// runs into them re-planned on it.
  void follow_density();
  /// Whether `hit` holds for a cell on a's route within `ahead` of it (sampled a cell apart). [Units: cells]
  bool route_meets(const crowd::Agent& a, double ahead, const std::function<bool(Cell)>& hit) const;
  // crowd_queue.cpp
  /// The grid the large groups' flow fields are searched on: grid_ with the cells where units
  /// have queued (held in one place a while) dearer, taken afresh every second and when a door
  /// changes.
  const Grid& queue_grid();
  // crowd_slots.cpp
  /// Sets parked_far and the note from the unit's slot's distance to its goal.
  void update_parked(int id);
  /// Whether a unit of another goal group has settled on, or claimed a slot at, about `p`.
  bool slot_blocked_by_other_group(int id, Vec2 p) const;
  /// Unit `id`, holding a slot of its group, takes `slot` of it instead: the old one is free for
  /// others, the new one its target.
  void take_slot(int id, int slot);
  /// A stuck unit with a slot: takes a nearer free slot, or (stuck kParkHereAfter among the
  /// slots) a new slot where it stands.
  void resettle(int id);
  /// resettle() for a unit with a slot held in one place for kParkHereAfter (and its re-plan);
  /// for a unit on its slot, move_in().
  void park_if_held(int id);
  /// A unit on its slot takes a free slot of its group nearer the goal beside it (once every
  /// kMoveInPeriod), so the slots left free near the goal move out to the group's rim.
  void move_in(int id);
  /// Whether no unit stands at `p` (bodies touching) and none of another group claimed it.
  bool slot_free_of_units(int id, Vec2 p) const;
  Vec2 preferred_velocity(int id);
  /// The pure-pursuit point on the unit's route; with `w` (window_route) its points from there.
  Vec2 lookahead_point(const crowd::Agent& a, const crowd::RouteWindow* w = nullptr) const;
  /// Moves the route's corners in doorways and corridors to the right half of the passage.
  /// With `reads`, the questions it asked of the traffic (oncoming_across) are added to it.
  void keep_right_in_passages(std::vector<Vec2>& route, double radius, crowd::OncomingQuestions* reads = nullptr) const;
  /// Whether oncoming_across still answers each of `reads` as then (so keep_right_in_passages
  /// that asked them would give the same route).
  bool oncoming_answers_hold(const crowd::OncomingQuestions& reads) const;
  /// The cross-section at q along `axis`: free room towards +axis (dr) and -axis (dl); false
  /// in the open or in a passage too narrow for two.
  bool cross_section(Vec2 q, Vec2 axis, double radius, double& dl, double& dr) const;
  /// Where route[k] moves to be in the right half of the passage next to it; none in the open.
  std::optional<Vec2> passage_right_half(const std::vector<Vec2>& route, size_t k, double radius, crowd::OncomingQuestions* reads) const;
  /// Whether other routes cross the segment from-to going against `dir`.
  bool oncoming_across(Vec2 from, Vec2 to, Vec2 dir, crowd::OncomingQuestions* reads) const;
  double remaining_route(const crowd::Agent& a) const;
  /// Notes the unit's next waypoint (crowd::Agent::waypoint) and the route left after it for
  /// remaining_route() and the read-ahead; with `w` (window_route) from the window.
  void note_waypoint(crowd::Agent& a, const crowd::RouteWindow* w = nullptr) const;
  /// Whether a's noted waypoint is its current one (route and next_waypoint unchanged since).
  static bool waypoint_noted(const crowd::Agent& a) {
    return a.waypoint_version != 0 && a.waypoint_version == a.route_version && a.waypoint_next == a.st.next_waypoint;
  }
  /// Fills crowd::Agent::route_tail for the unit's current route: every place that sets a
  /// route calls it (before remaining_route).
  void index_route(crowd::Agent& a) const;
  /// The fastest a heading unit may go for its target at `d` (`dist` away) without circling it.
  double turn_limited_speed(const crowd::Agent& a, Vec2 d, double dist) const;
  /// Moves next_waypoint past waypoints within reach whose successor is in sight; with `w`
  /// (window_route) the route's points from there.
  void advance_waypoints(crowd::Agent& a, const crowd::RouteWindow* w = nullptr) const;
  /// a.window brought up to the unit's route (refilled when the route changed or
  /// next_waypoint - 1 .. next_waypoint + 1 are not all in it); null when the route or its
  /// tail is not indexed (index_route), and then the route is read itself. [crowd_route_window.cpp]
  const crowd::RouteWindow* window_route(crowd::Agent& a) const;
  /// Point k of the unit's route, from the window `w` (window_route; null: none) when it holds it.
  static const Vec2& route_point(const crowd::Agent& a, const crowd::RouteWindow* w, size_t k) {
    return w != nullptr && w->holds(k) ? w->pts[k - static_cast<size_t>(w->first)] : a.st.route[k];
  }
  /// route_tail[k] of the unit, from the window `w` when it holds it (as route_point).
  static double route_tail_at(const crowd::Agent& a, const crowd::RouteWindow* w, size_t k) {
    return w != nullptr && w->holds(k) ? w->tail[k - static_cast<size_t>(w->first)] : a.route_tail[k];
  }
  /// The route's last point, from the window `w` when there is one (as route_point).
  static const Vec2& route_end(const crowd::Agent& a, const crowd::RouteWindow* w) {
    return w != nullptr ? w->end : a.st.route.back();
  }
  void track_progress(int id);
  /// What track_progress(id) may ask of the map alone, asked ahead (on a worker thread: writes
  /// only the unit's sight and flow_spec). [crowd_read_ahead.cpp]
  void prepare_progress(int id);
  /// The unit's route from its group's flow field as plan_flow_route would read it now, into
  /// a.flow_spec (unchanged when plan_flow_route would not apply). [flow_field_crowd.cpp]
  void speculate_flow_route(crowd::Agent& a) const;
  // crowd_arrive.cpp
  /// The arrival rule (CrowdAgentState::arrived): position, goal heading, stopped.
  void update_arrival(int id);
  /// Lock intervals of the unit and of the moving obstacles (CrowdMetrics::longest_lock).
  void track_locks();
  /// Notes when a unit began driving in reverse (crowd::Agent::reverse_since).
  void note_reversing(crowd::Agent& a) const;
  /// The unit's remedies for being stuck: give way by priority, and when `full`, also the
  /// detours, re-plans and the rest (crowd_stuck.cpp).
  void resolve_deadlock(int id, bool full = true);
  /// How long without progress makes unit `a` stuck, `rem` cells from its target along its
  /// route, and how often it then asks for way: CrowdDef::stuck_time, shorter for a unit with
  /// a free heading still on its way (crowd_stuck.cpp). [Units: s]
  double stuck_round(const crowd::Agent& a, double rem) const;
  // crowd_drive.cpp
  /// For a unit that cannot pivot: replaces the route up to its last waypoint within reach by
  /// a path it can drive (Hybrid A*, reversing where the preset may). False, and the route
  /// untouched, when it is not such a unit or no such path is found within the budget.
  bool plan_drivable_route(int id);
  /// Whether the unit is one that plan_drivable_route() is for, alone, and due for a plan.
  bool may_plan_drivable_route(const crowd::Agent& a) const;
  // crowd_flow.cpp
  /// Replaces the unit's marks in flow_ by its current route's (none once arrived or waiting).
  void mark_flow(int id);
  /// A cell's cost multiplier for a search going `dir`: its own, plus the oncoming traffic.
  float traffic_cost(int x, int y, Vec2 dir) const;
  /// Refreshes settled_ for this step (once per step, on demand).
  void mark_settled();
  /// Whether the straight way from `from` to `to` runs over a settled unit (away from `to`) or
  /// against another unit's route: then the search, with its traffic costs, decides.
  bool straight_way_busy(Vec2 from, Vec2 to);
  /// avoid_grid_ := grid_ with traffic costs for a trip going `dir` (unit `id`'s own route
  /// aside; -1: every route). False, and avoid_grid_ untouched, when there is no other traffic.
  /// With a unit of `radius` that needs_clearance(), its clearance costs are added, and the
  /// grid is filled (true) even with no other traffic.
  bool fill_traffic_grid(int id, Vec2 dir, double radius);
  // crowd_clearance.cpp
  /// Whether a unit of this radius has so little room beside a wall at a cell's centre that its
  /// route searches pay the clearance cost.
  static bool needs_clearance(double radius);
  /// Fills wall_room_ from grid_.
  void index_wall_room();
  /// needs_clearance(radius), with wall_room_ brought up to grid_ when it does.
  bool prepare_clearance(double radius);
  /// The extra cost multiplier of map cell (x, y) for a unit of `radius` (wall_room_ current).
  float clearance_cost(int x, int y, double radius) const;
  /// Adds the clearance costs of a unit of `radius` to g, a window of the map starting at
  /// `origin` (nothing for a unit that does not need them).
  void add_clearance_costs(Grid& g, Cell origin, double radius);
  /// The nearest point of a wall (a blocked cell or the map's outside) to p within `reach`.
  std::optional<Vec2> nearest_wall_point(Vec2 p, double reach) const;
  /// Where a vehicle whose `step` a wall blocks goes instead: the step slid along the tangent of
  /// the wall point nearest to it (or half that), clear of walls and units; none when there is
  /// no wall near, the step runs nearly straight at it, or the slide is blocked too.
  std::optional<Vec2> wall_slide(int id, Vec2 step) const;
  /// For a vehicle held a while with its disc against a wall: the unit normal from the wall
  /// towards it (its motion is chosen as sliding along that wall); else zero.
  Vec2 slide_normal(const crowd::Agent& a) const;
  // crowd_neighbors.cpp
  /// Brings the buckets and pos_, vel_, radius_, top_speed_, tracking_ up to the units'
  /// current state, packs the buckets and indexes the wall edges when the grid changed.
  void rebuild_buckets();
  /// Fills pack_start_ and the pack_ arrays from buckets_, pos_ and radius_.
  void pack_buckets();
  /// Fills h_edges_ and v_edges_ from grid_.
  void index_wall_edges();
  /// Whether the line of cell edges y = e (`horizontal`) or x = e may have an edge between a
  /// free and a blocked cell from lo to hi (cells along it, inclusive): false only when the
  /// index shows none; true while the index is stale.
  bool may_have_wall_edge(bool horizontal, int e, int lo, int hi) const;
  /// The unit's st.neighbors (nearest first, ties by id) and s.found; reads pos_, radius_ and
  /// the packed buckets.
  void find_neighbors(int id, crowd::Scratch& s);
  /// The buckets overlapping the box of half side `range` round p, as (squared distance from p
  /// to the bucket's square, bucket index), p's own first, into `order`; returns their count.
  size_t buckets_by_distance(Vec2 p, double range, std::vector<std::pair<double, int>>& order) const;
  // crowd_avoid.cpp
  /// The unit's preferred velocity and its avoidance decision, right after find_neighbors(id, s)
  /// (it reads s.found). Writes only that unit's state and `s`, so units are decided in
  /// parallel (step()).
  void decide(int id, crowd::Scratch& s);
  /// Whether neighbour b is near enough to constrain a's velocity within the time horizon
  /// (positions of pos_, as the step's decisions see them).
  bool constrains(int a, int b) const;
  // crowd_explain.cpp
  Result<CrowdExplanation> explain(int id, CrowdRoutePlanner planner) const;
  void add_wall_lines(const crowd::Agent& a, double range, std::vector<crowd::OrcaLine>& lines) const;
  void add_wall_line(const crowd::Agent& a, Vec2 closest, double range, bool corner, std::vector<crowd::OrcaLine>& lines) const;
  void add_mover_lines(const crowd::Agent& a, std::vector<crowd::OrcaLine>& lines) const;
  void choose_heading_motion(crowd::Agent& a, Vec2 v_orca, const crowd::Scratch& s) const;
  // crowd_move.cpp
  void move(int id);
  /// What move(id) would work out for a person apart from the other units, ahead (on a worker
  /// thread after its decision: writes only the unit's move_* fields).
  void plan_move(int id);
  /// A person's velocity for its move, and `heading` turned for it. Reads only the unit.
  Vec2 holonomic_motion(const crowd::Agent& a, double& heading) const;
  /// A vehicle's velocity for its move; turns it (and may change its speed and riding state).
  Vec2 vehicle_motion(crowd::Agent& a) const;
  /// Turns a settled unit towards its goal heading; wraps `heading` to [-pi, pi].
  void settle_heading(const crowd::Agent& a, Vec2 v, double& heading) const;
  /// The places a move from p0 at velocity v tries, in order: the whole step, half, a quarter, each axis alone.
  std::array<Vec2, 5> move_tries(Vec2 p0, Vec2 v) const;
  /// Whether another unit (pos_, radius_) overlaps unit id's disc at p.
  bool unit_at(int id, Vec2 p) const;
  /// Whether a moving obstacle overlaps the disc of radius r at p.
  bool mover_at(Vec2 p, double r) const;
  /// The last cell of a unit that cannot sidestep: stop on the spot, or turn and drive straight in.
  void final_approach(crowd::Agent& a) const;
  // crowd_track.cpp
  /// A vehicle (a unit whose heading is not free) on a route it can drive: follows the route's
  /// legs (riding it exactly when on it), at the speed that stops it on the route's end, in
  /// its bends and behind other units on the route. False when it does not apply.
  bool track_route(crowd::Agent& a) const;
  /// The last point of the unit's route where it turns more than a vehicle drives as it is
  /// (20 degrees), -1 if none. Cached in the agent.
  int last_sharp_corner(crowd::Agent& a) const;
  // crowd_turn.cpp
  /// A car with no other unit near (alone) that has driven in reverse for kReverseFor facing
  /// more than 40 degrees away from its route's current leg, within a few cells of its line, or
  /// one turning round already (`gear` its gear in the last step's turn): turns round
  /// (turn_around).
  bool turn_round_to_route(crowd::Agent& a, int gear) const;
  /// A vehicle that cannot pivot facing away from its route (`dir`, the leg's direction) with
  /// room ahead along it (`room` cells of route left): turns round in forward and reverse arcs
  /// at full lock (a K-turn) instead of driving the route backwards. False when it cannot, or
  /// when the turn has not come closer to facing the route for a while (it gives up).
  bool turn_around(crowd::Agent& a, Vec2 dir, double room) const;
  /// How far the unit drives on an arc at full lock (`gear` +1 forward, -1 reverse, turning
  /// towards `side` +1 left / -1 right) before a wall (or a unit standing there, with
  /// `units`), up to `reach`. [Units: cells]
  double free_arc(const crowd::Agent& a, int gear, double side, double reach, bool units) const;
  /// No other unit within a couple of cells (crowd_track.cpp: it may stop to pivot at corners).
  bool alone(const crowd::Agent& a) const;
  /// The fastest a vehicle on route leg `leg` may drive now: it can stop before any other unit
  /// (where it is, or where it goes within CrowdDef::time_horizon) comes within reach of the
  /// route ahead, and take the bends ahead. [Units: cells/s]
  /// `blocker`: the unit that held the speed there, -1 when none (units only, not bends).
  double route_speed_limit(const crowd::Agent& a, size_t leg, int& blocker) const;
  /// Whether unit `a` goes first where it and `b` (tracking its route) each hold the other on
  /// their routes: the one with less of its route left (ties: the lower id). [crowd_track.cpp]
  bool has_right_of_way(const crowd::Agent& a, const crowd::Agent& b) const;
  /// Whether unit `a` goes first where its neighbour `j` (tracking its route) waits, through
  /// the units each waits for (crowd::Agent::blocked_by, up to kWaitCycle of them), for `a`
  /// while `a` waits for one of them: `a` has the right of way over each in that cycle (a
  /// cycle of two: the two hold each other). [crowd_track.cpp]
  bool first_in_wait_cycle(const crowd::Agent& a, int j) const;
  /// Where a riding vehicle (crowd::Agent::ride) is after driving `ds` on along its route, and
  /// its heading there: the leg's direction, turning to the goal heading on the last leg.
  Pose ride_pose(const crowd::Agent& a, double ds) const;
  /// The velocity of a riding vehicle at `pos` for the step to `on` (ride_pose) at `speed`.
  /// [Units: cells/s]
  Vec2 ride_velocity(Vec2 pos, const Pose& on, double speed, double top) const;
  bool place_ok(int id, Vec2 p, bool& wall_hit, bool& unit_hit) const;
  /// The run's separation minima after the moves, and prepare_progress() of every unit, on
  /// the worker threads.
  void measure_after_moves();
  /// One unit's part of the measurements: lowers the minima by its pairs (with higher ids) and the movers.
  void measure_unit(int id, double& separation, double& ratio, double& gap) const;
  // crowd_dynamic.cpp
  void update_doors();
  void move_obstacles();
  /// One step of a blocked truck backing along its route; false when it cannot (a unit or the route's start behind it).
  bool back_off(crowd::Mover& m);
  bool door_overlaps_units(const crowd::Door& d) const;
  // crowd_make_way.cpp
  /// Units on a moving obstacle's route ahead of it step off the route (yield_dir).
  void make_way_for_movers();
  /// Settled units (on their spots) in the way ahead of a unit held in one place a while
  /// step off its route, as for a moving obstacle, until it is on its way again.
  void make_way_for_held_units();
  /// make_way_for_held_units() for unit `id`: true when a settled unit was in its way.
  bool clear_settled_ahead(int id);
  /// Where unit `a` stands clear of the corridor `pts` (half width `half_width`): beside it,
  /// else farther along it; none when no such place is in straight reach.
  std::optional<Vec2> aside_point(const crowd::Agent& a, const std::vector<Vec2>& pts, double half_width) const;
  /// Whether one of a's neighbours stands where a would at p.
  bool taken(const crowd::Agent& a, Vec2 p) const;
  void apply_door(const crowd::Door& d);
  /// Opens closed doors under a disc (they close again once clear: closing when clear).
  void reopen_doors_under(Vec2 p, double r);
};

/// The core's readers of a Crowd's own state (Crowd befriends it; crowd_flow_field.hpp).
struct CrowdAccess {
  static const CrowdImpl& impl(const Crowd& crowd) { return *crowd.impl_; }
};

}  // namespace pathlab
