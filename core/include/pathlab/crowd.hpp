#pragma once
/// @file crowd.hpp
/// Crowds: many units following their own planned routes while avoiding each other, the walls,
/// doors and moving obstacles.
///
/// Local avoidance is ORCA (van den Berg, Guy, Lin, Manocha 2011, "Reciprocal n-Body Collision
/// Avoidance"): each unit takes half the responsibility for avoiding every neighbour and solves
/// a small 2D linear program for the velocity closest to the one its route asks for (the 3D
/// program when the constraints cannot all be met). Walls near the unit (the edges of blocked
/// cells) and moving obstacles are constraints with full responsibility. Units whose heading
/// is not free (a car or a bear: turning radius; a tank: slow turn rate) choose among the
/// velocities they can reach within the reaction horizon (standing still among them when
/// asked to stand), backing up when they may reverse. A unit with no route, or on its spot,
/// stands still unless other units push it.
///
/// A vehicle (a unit whose heading is not free) on a route it can drive (no corner sharper
/// than 20 degrees from where it is to the end: a vehicle planner's or a smoother's curve)
/// drives that route itself, among other units too, as the single-unit follower does: on the
/// route's line it rides it exactly (never faster than its speed, closing a sideways offset at
/// most at 20 degrees), else it steers back onto it (Stanley steering), slowing for the bends
/// ahead and braking to stop on the route's end without overshoot; one that can pivot first
/// turns on the spot to face along it. Other units do not steer it, they limit its speed along
/// the route: it stops short of any unit standing on the route ahead or going there within
/// time_horizon, and persons avoid it with the whole ORCA responsibility. A vehicle stuck on
/// its route for 4 s leaves it to the sampler until it gets on; a car asked to give way backs
/// up. Routes with sharper corners (grid routes) are the sampler's, except for a unit that can
/// pivot with no other unit within 2 cells: it drives such a route leg by leg, stopping on each
/// sharp corner to turn on the spot. Persons keep ORCA.
///
/// Units sharing a goal settle in slots round it, nearest first (persons: the points of a
/// hexagonal lattice nearest the goal; a group with vehicles: hexagonal rings). A unit held
/// in one place for 7 s among the slots (or beside its own) takes a nearer free slot, or parks
/// where it stands: CrowdMetrics::longest_lock stays under 10 s in a crowd of 100 bound for
/// one goal.
///
/// Every move is finally checked: a unit never moves to where its disc would overlap another
/// unit, a wall (collision.hpp is the referee) or a moving obstacle; the move is shortened
/// instead. So bodies never overlap, whatever the avoidance decided.
///
/// Deterministic: fixed step, units updated in the order they were added, neighbour buckets
/// filled in index order, no clocks, no unordered containers: the same scenario gives the same
/// trajectories bit for bit.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/status.hpp"
#include "pathlab/unit.hpp"

namespace pathlab {

class FlowField;  // flow_field.hpp

/// One route question the crowd asks CrowdDef::route_planner. The references live for the
/// call only.
struct CrowdRouteQuery {
  const Grid& grid;                   ///< The grid as the units see it now (closed doors are walls).
  Pose from;                          ///< The unit's pose now. [Units: cells, radians]
  Vec2 to;                            ///< Where it settles: its goal, or its free slot near a shared goal. [Units: cells]
  std::optional<double> goal_heading; ///< The agent's goal heading, when it has one. [Units: radians]
  const UnitDef& unit;                ///< Radius, turning radius, whether it may reverse, ...
  int agent = 0;                      ///< The unit's id (CrowdAgentId), in the order added.
  /// `grid` with extra cost where other units' routes come the other way (the same walls): a
  /// planner that honours terrain costs spreads the traffic over doorways and lanes with it.
  /// Null when no other unit has a route.
  const Grid* traffic = nullptr;
  /// The unit belongs to a large group bound for the cell of `goal`: at least
  /// CrowdDef::flow_field_units persons (free heading) of its radius class go there, and it has
  /// no slot near the goal yet (the last stretch weaves among settled units). The built-in
  /// planning then reads the group's shared flow field; a planner may do the same (its route
  /// from one field towards cell_of(goal) for the whole group) where it plans the same routes.
  /// Never set for a detour round units (`grid` has them as walls).
  bool flow_group = false;
  /// With flow_group: gives the group's field as the crowd keeps it, with the costs the
  /// built-in planning reads (the band along the walls, the last second's queues, the other
  /// groups' routes and crowds: flow_field_crowd.cpp), the field goal_flow_field() returns;
  /// null when none can be built. A planner that reads one field for the group reads this one,
  /// so the units drive the field an overlay draws. Built on the first call, valid during the
  /// planner's call only; a planner that calls it is asked again when the field is built
  /// afresh. Empty without flow_group.
  std::function<const FlowField*()> group_field{};
  Vec2 goal{0.0, 0.0};  ///< The unit's goal (`to` may be its slot near it). [Units: cells]
};

/// Who planned a unit's current route (CrowdAgentState::route_source), so an app can check
/// that every route a unit drives came from the planner it was given.
enum class CrowdRouteSource {
  none,     ///< no route (not planned yet, or none found: the unit waits)
  straight, ///< the built-in planning: a straight line, the way being clear
  search,   ///< the built-in grid A* search (windowed, line-of-sight shortcut)
  detour,   ///< the built-in search round units standing in the way (deadlock resolution)
  drive,    ///< the built-in Hybrid A* detour of a car stuck on a turn (crowd_drive.cpp)
  planner,  ///< CrowdDef::route_planner (its detours round units too)
  flow_field,  ///< the built-in flow field shared by a large group (CrowdDef::flow_field_units)
};

/// Plans a route for a unit: waypoints in cells from (about) query.from.pos to (about)
/// query.to. See CrowdDef::route_planner.
using CrowdRoutePlanner = std::function<Result<std::vector<Vec2>>(const CrowdRouteQuery&)>;

/// Tuning of the crowd. Start from default_crowd_def().
struct CrowdDef {
  double dt = 1.0 / 60.0;             ///< Fixed step. [Units: s] [Limit: (0, 1]]
  double time_horizon = 1.0;          ///< ORCA horizon for other units. [Units: s] [Limit: > 0]
  double obstacle_horizon = 0.5;      ///< ORCA horizon for walls. [Units: s] [Limit: > 0]
  double neighbor_distance = 4.0;     ///< Units farther apart (centre to centre) are ignored. [Units: cells] [Limit: > 0]
  int max_neighbors = 10;             ///< Nearest neighbours considered per unit. [Limit: 1..64]
  /// Units that cannot sidestep (heading model) look this far ahead to choose reachable
  /// velocities. [Units: s] [Limit: > 0]
  double reaction_time = 0.5;
  /// "No progress": route left shortened by < `progress_distance` over `stuck_time` (a person still on its
  /// way, as crowd_stuck.cpp's stuck_round says: 0.75 s at most, asking for way each time). [Units: s, cells] [Limit: > 0]
  double stuck_time = 2.0;
  double progress_distance = 0.25;
  /// A unit stuck this long in total says why until it moves on (it keeps re-planning). [Units: s] [Limit: > 0]
  double give_up_time = 60.0;
  /// "Locked" (CrowdMetrics::longest_lock): a unit or moving obstacle that wants to move and
  /// stays within this distance of one spot (a truck: drives less than this far along its
  /// route). [Units: cells] [Limit: > 0]
  double lock_distance = 0.5;
  /// Planner expansion budget per (re-)plan; 0 = no limit. Deterministic. [Limit: >= 0]
  int64_t plan_expansions = 200000;
  /// From this many persons (free heading) of one radius class bound for one goal cell, their
  /// built-in routes come from one shared flow field towards that cell (flow_field.hpp: one
  /// search for the group, kept up to date when doors change) instead of a search each; units
  /// with a turning radius or a slow pivot keep their own. 0: never. [Limit: >= 0]
  int flow_field_units = 32;
  /// Threads that step the crowd, the calling one included: the neighbour queries and the
  /// avoidance decisions of the units run on a pool of this many (contiguous ranges of units);
  /// everything that units share (routes, slots, doors, moves in index order) stays on the
  /// calling thread. The result is the same bytes with any count. 1: no thread is started.
  /// [Limit: 1..64]
  int threads = 1;
  /// Who plans the units' routes. Empty (the default): the crowd's own grid A* with each
  /// unit's radius (windowed, line-of-sight shortcut). Set: called for every plan and re-plan
  /// of a unit's route (added, new goal, door toggled, a slot claimed near a shared goal,
  /// stuck); the crowd follows the returned points as a polyline from the unit's position to
  /// query.to: an end point less than a cell from them (a grid planner's cell centre) is moved
  /// onto them when the way stays clear, else they are added (query.to only when clear). An error,
  /// no points or a point that is not finite is "no route": the unit waits, re-plans later and
  /// its CrowdAgentState::why says "no route to the goal: " and the error. Detours around units
  /// blocking the way (deadlock resolution) are asked of it too, `grid` then having the cells
  /// of those units blocked (only the crowd knows them; no route keeps the old one). A car stuck
  /// on a turn gets no Hybrid A* detour from the crowd: this planner is asked again from where
  /// it stands. So every route a unit drives comes from this planner (route_source says so).
  /// Called on the thread that calls step(), add_agent(),
  /// set_goal() or set_door_open(), never concurrently. Points in cells, expected inside the
  /// map and clear of walls for the unit's radius (the crowd's move check keeps bodies off
  /// walls whatever the route). The crowd is deterministic if the planner is (a wall-clock
  /// budget is not). The expansion budget plan_expansions applies to the built-in search only.
  CrowdRoutePlanner route_planner;
};

inline CrowdDef default_crowd_def() { return CrowdDef{}; }

/// One unit of the crowd: its preset, where it starts and where it goes.
struct CrowdAgentDef {
  UnitDef unit = default_unit_def();
  Pose start;                          ///< [Units: cells, radians]
  Vec2 goal{0.0, 0.0};                 ///< [Units: cells]
  std::optional<double> goal_heading;  ///< Turned to after arriving when the unit can pivot. [Units: radians]
};

/// A door: a rectangle of cells that opens and closes. It is closed (its cells are walls)
/// between toggles as `open_at_start` says; a door never closes on a unit: it waits until
/// its cells are clear.
struct DoorDef {
  Cell lo;                           ///< First cell (inclusive).
  Cell hi;                           ///< Last cell (inclusive). [Limit: >= lo, in the map]
  bool open_at_start = true;
  std::vector<double> toggle_times;  ///< Increasing times at which it switches. [Units: s] [Limit: >= 0, finite]
};

/// What a door is doing now (Crowd::door_state).
enum class DoorState : uint8_t {
  open,
  closed,
  /// Asked to close (by its schedule or a click) while a unit overlaps its cells: it stays
  /// open until they are clear, then closes.
  closing_when_clear,
};

/// "open", "closed", "closing when clear".
const char* to_string(DoorState state) noexcept;

/// A box driving along a route at a constant speed (Tower22's "garbage truck"). It faces
/// along the leg it drives; at the route's end it stops (or starts over when `loop`). It
/// never drives into a unit: units ahead on its route step off it (not only out of the box),
/// and a truck whose way stays blocked waits, then backs off along its route a little to
/// give the units in front room, then comes on again.
struct MovingObstacleDef {
  Vec2 half_extents{1.5, 0.75};  ///< Half length (along travel) and half width. [Units: cells] [Limit: > 0]
  std::vector<Vec2> route;       ///< [Units: cells] [Limit: >= 2 points, in the map]
  double speed = 2.0;            ///< [Units: cells/s] [Limit: > 0, finite]
  double start_time = 0.0;       ///< It waits at route[0] until then. [Units: s] [Limit: >= 0]
  bool loop = false;             ///< Drive the route again from its start (back along a closed route).
};

/// Why a unit's route was last re-planned (CrowdAgentState::replan_cause; the first plan and
/// settling into a slot near a shared goal are not re-plans).
enum class CrowdReplanCause : uint8_t {
  none,         ///< not re-planned yet
  new_goal,     ///< sent to a new goal (Crowd::set_goal)
  door,         ///< a door opened or closed
  out_of_sight, ///< its next waypoint went out of sight (pushed round a corner)
  retry,        ///< it had no route and asked again
  stuck,        ///< no progress for CrowdDef::stuck_time: planned afresh from where it stands
  detour,       ///< no progress: a detour round the units standing in the way
  drive,        ///< a car stuck on a turn it cannot make: a drivable Hybrid A* detour
  slot,         ///< held up near a shared goal: took a nearer slot, or parked where it stands
};

/// "new goal", "door", "waypoint out of sight", ... (for people).
const char* to_string(CrowdReplanCause cause) noexcept;

/// What one unit is doing.
struct CrowdAgentState {
  Pose pose;
  double speed = 0.0;                 ///< Signed (negative when backing up). [Units: cells/s]
  Vec2 velocity{0.0, 0.0};            ///< Last step's velocity. [Units: cells/s]
  Vec2 preferred_velocity{0.0, 0.0};  ///< What the route asked for. [Units: cells/s]
  Vec2 avoidance_velocity{0.0, 0.0};  ///< What ORCA chose. [Units: cells/s]
  Vec2 target{0.0, 0.0};              ///< Where the unit settles (its goal, or a free slot near a shared goal).
  std::vector<Vec2> route;            ///< Current planned waypoints, starting at the plan's start.
  CrowdRouteSource route_source = CrowdRouteSource::none;  ///< Who planned `route`.
  int next_waypoint = 0;
  std::vector<int> neighbors;         ///< Ids considered in the last step, nearest first.
  /// At its target now: within the arrive distance (the larger of 0.1 cells and its preset's
  /// follower.arrive_distance; once there it stays arrived until pushed more than half its
  /// radius off), facing the goal heading within kGoalHeadingTolerance (5 degrees) where one
  /// was given, and stopped (|speed| < 0.05 cells/s). The same rule as Simulation's.
  bool arrived = false;
  bool reached = false;               ///< Has been within the arrive distance of its target at least once.
  /// Its slot near a shared goal is farther from the goal than 3 radii + the slot spacing
  /// (nearer slots are taken); `note` says how far.
  bool parked_far = false;
  std::string note;                   ///< A remark for people that is not a failure, e.g. "parked 4.2 cells from the goal: nearer slots are taken".
  bool stuck = false;                 ///< No progress for CrowdDef::stuck_time.
  bool yielding = false;              ///< Giving way to a unit of higher priority.
  bool waiting = false;               ///< No route right now (e.g. a door is closed); re-plans when things change.
  std::string why;                    ///< When it cannot arrive (or waits): why, for people.
  CrowdReplanCause replan_cause = CrowdReplanCause::none;  ///< Why `route` was last re-planned.
};

/// Measurements of one unit.
struct CrowdAgentMetrics {
  bool arrived = false;        ///< As CrowdAgentState::arrived.
  /// When it arrived (the step that made `arrived` true); none while not arrived (a unit pushed
  /// off its spot has none until it is back). [Units: s]
  std::optional<double> time_to_goal;
  /// Longest time it wanted to move (not arrived, not waiting for a route, not given up at its
  /// goal) and stayed within CrowdDef::lock_distance of one spot. [Units: s]
  double longest_lock = 0.0;
  double distance = 0.0;      ///< Length travelled. [Units: cells]
  int wall_contacts = 0;      ///< Steps whose move was shortened to stay off a wall.
  int unit_contacts = 0;      ///< Steps whose move was shortened to stay off another unit or an obstacle.
  int stuck_steps = 0;        ///< Steps spent stuck.
  int replans = 0;
};

/// Measurements of the whole run.
struct CrowdMetrics {
  int arrived = 0;
  /// Smallest gap between two unit bodies in any step (centre distance - sum of radii);
  /// infinity with fewer than two units. [Units: cells]
  double min_separation = 0.0;
  /// Smallest centre distance / sum of radii in any step (>= 1: never overlapped).
  double min_separation_ratio = 0.0;
  double min_obstacle_gap = 0.0;  ///< Smallest gap between a unit and a moving obstacle. [Units: cells]
  int wall_contacts = 0;
  int stuck_steps = 0;
  int replans = 0;
  /// Longest lock of any unit (CrowdAgentMetrics::longest_lock) or moving obstacle
  /// (MovingObstacleState::longest_lock) so far. [Units: s]
  double longest_lock = 0.0;
  int longest_lock_agent = -1;     ///< Whose lock that was: a unit's id, or -1.
  int longest_lock_obstacle = -1;  ///< ... or a moving obstacle's index, or -1.
};

struct MovingObstacleState {
  Pose pose;           ///< Centre and heading of the box.
  bool waiting = false;///< Held up by a unit in its way.
  bool backing = false;///< Backing off along its route to give units in its way room.
  bool finished = false;
  /// Longest time it wanted to drive (started, not finished) and drove less than
  /// CrowdDef::lock_distance along its route. [Units: s]
  double longest_lock = 0.0;
};

using CrowdAgentId = int;

/// One ORCA constraint on a unit's velocity (CrowdExplanation): the permitted velocities lie to
/// the left of the line through `point` along `direction` (unit length), i.e. v is permitted
/// when cross(direction, point - v) <= 0. [Units: cells/s]
struct CrowdOrcaConstraint {
  enum class Source : uint8_t { wall, obstacle, unit };
  Vec2 point{0.0, 0.0};
  Vec2 direction{1.0, 0.0};
  Source source = Source::wall;
  int other = -1;  ///< the unit's id (Source::unit), else -1
  /// Walls and moving obstacles are never relaxed; other units' lines are, by the least
  /// possible amount, when they cannot all be met.
  bool hard = true;
};

/// Why a unit moves as it does (Crowd::explain): the decision the crowd's next step makes for
/// it, from the state now, with the step's own ORCA program.
struct CrowdExplanation {
  CrowdAgentId agent = -1;
  int64_t step = 0;                   ///< The step deciding: Crowd::step_count() + 1.
  Vec2 position{0.0, 0.0};            ///< [Units: cells]
  double radius = 0.0;                ///< [Units: cells]
  double max_speed = 0.0;             ///< The disc ORCA chooses in. [Units: cells/s]
  Vec2 preferred_velocity{0.0, 0.0};  ///< What its route asks for. [Units: cells/s]
  Vec2 chosen_velocity{0.0, 0.0};     ///< What ORCA chose (CrowdAgentState::avoidance_velocity after the step). [Units: cells/s]
  std::vector<int> neighbors;         ///< Units considered, nearest first.
  std::vector<CrowdOrcaConstraint> constraints;  ///< Walls, then moving obstacles, then units.
  /// How far the chosen velocity lies outside the constraint it breaks most (0: it meets them
  /// all; > 0 when they cannot all be met and ORCA's 3D program relaxed the units' lines).
  /// [Units: cells/s]
  double worst_violation = 0.0;
  bool holonomic = true;              ///< Free heading: ORCA's velocity is its motion; else a reachable motion near it.
  double target_speed = 0.0;          ///< A heading unit's chosen speed (negative: backing up). [Units: cells/s]
  double no_progress_for = 0.0;       ///< Time since its remaining route last got shorter. [Units: s]
  double stuck_after = 0.0;           ///< CrowdDef::stuck_time, or this unit's shorter round. [Units: s]
  double stuck_total = 0.0;           ///< Time spent stuck in all (says why past CrowdDef::give_up_time). [Units: s]
  std::string mode;                   ///< "follows its route", "gives way", "backs up", "waits", "arrived", ...
  std::string decision;               ///< The decision in words, for people.
};

class CrowdImpl;

/// The time one Crowd::step() spent in one of its phases, per thread, read by a profiler
/// (Crowd::set_phase_clock): the serial phases run on the calling thread alone, the parallel
/// ones on the worker pool too. [Units: the clock's, ms in bench_crowd_scale]
struct CrowdPhaseTime {
  const char* name = "";
  bool parallel = false;
  std::vector<double> per_thread;  ///< [0]: the calling thread; then the pool's workers.
};

class Crowd {
 public:
  /// Fails on a bad CrowdDef (naming the field). `grid` is copied: doors edit the copy.
  static Result<Crowd> create(const Grid& grid, const CrowdDef& def = default_crowd_def());
  ~Crowd();
  Crowd(Crowd&&) noexcept;
  Crowd& operator=(Crowd&&) noexcept;

  /// Adds a unit and plans its route with its own radius. Errors: a bad UnitDef, a start or
  /// goal outside the map or not clear of walls for the unit's radius, a start overlapping a
  /// unit already added. No route is not an error: the unit waits and says why.
  Result<CrowdAgentId> add_agent(const CrowdAgentDef& agent);
  /// Errors: a door outside the map, toggles not increasing or not finite.
  Result<int> add_door(const DoorDef& door);
  /// Errors: fewer than two route points, a point outside the map, bad size or speed.
  Result<int> add_moving_obstacle(const MovingObstacleDef& obstacle);
  /// Opens or closes a door now (a click). Closing waits until no unit overlaps it.
  Status set_door_open(int door, bool open);
  /// Sends a unit to a new goal (re-plans). Errors: unknown id, goal outside or blocked.
  Status set_goal(CrowdAgentId id, Vec2 goal, std::optional<double> goal_heading = std::nullopt);

  /// One fixed step of everything.
  void step();
  /// Runs the following steps on `threads` threads (CrowdDef::threads; the calling thread
  /// counts): the crowd's future is the same bytes whatever the count. Errors: outside 1..64.
  Status set_threads(int threads);
  int threads() const noexcept;  ///< CrowdDef::threads as now set.
  /// Profiling (bench_crowd_scale --phases): with a clock (a thread's CPU time, which the
  /// standard library does not give; empty: none, the default), each step() records the
  /// time each thread spent in each phase, read with last_phases(). Changes nothing else.
  void set_phase_clock(std::function<double()> clock);
  /// The phases of the last step() with a clock set, in the order they ended: a nested phase
  /// (the "field repair" inside the progress pass) comes before the phase holding it. Find a
  /// phase by its name, not its position.
  const std::vector<CrowdPhaseTime>& last_phases() const noexcept;

  /// A copy of the whole crowd (units, doors, trucks, metrics, the step count) whose future
  /// steps are bit for bit those of this one, given the same route planner answers: for
  /// keyframes of a recording (replay seeks to one and re-simulates from there). The copy asks
  /// `planner` for routes instead of this crowd's CrowdDef::route_planner (whose captures,
  /// e.g. a planner's cache and records, belong to this crowd); empty: the built-in planning.
  /// Costs a copy of the map (three times) and of every unit's state.
  Crowd clone(CrowdRoutePlanner planner) const;
  /// Why unit `id` moves as it does: the decision the next step() makes for it (its preferred
  /// velocity, its neighbours and the ORCA constraints they and the walls put on it, the
  /// velocity chosen), worked out on a copy of the crowd (clone(planner): the step's phases
  /// before the decisions, doors, trucks, making way and neighbours, then its decision), so
  /// this crowd is not changed: its next state is the same bytes, asked or not. `planner`
  /// answers the copy's route questions (a door toggling in that step re-plans); empty: the
  /// built-in planning. Costs a clone. Errors: an unknown id.
  Result<CrowdExplanation> explain(CrowdAgentId id, CrowdRoutePlanner planner = {}) const;
  /// About the heap bytes this crowd holds (its maps, units, routes, doors, trucks, scratch):
  /// what a clone costs, for a recording's keyframe budget. [Units: bytes]
  size_t memory_bytes() const noexcept;

  double time() const noexcept;
  int64_t step_count() const noexcept;
  double dt() const noexcept;
  int agent_count() const noexcept;
  bool all_arrived() const noexcept;
  const CrowdAgentDef& agent_def(CrowdAgentId id) const;  ///< Precondition: valid id.
  const CrowdAgentState& state(CrowdAgentId id) const;
  const CrowdAgentMetrics& metrics(CrowdAgentId id) const;
  CrowdMetrics run_metrics() const;
  int door_count() const noexcept;
  bool door_open(int door) const;
  DoorState door_state(int door) const;
  const DoorDef& door_def(int door) const;
  int moving_obstacle_count() const noexcept;
  const MovingObstacleState& moving_obstacle(int id) const;
  const MovingObstacleDef& moving_obstacle_def(int id) const;
  /// The grid as the units see it now (closed doors are walls).
  const Grid& grid() const noexcept;

 private:
  friend struct CrowdAccess;  // the core's readers of the crowd's own state (crowd_flow_field.hpp)
  explicit Crowd(std::unique_ptr<CrowdImpl> impl);
  std::unique_ptr<CrowdImpl> impl_;
};

}  // namespace pathlab
