// pathlab::Crowd: validation, adding units, and the order of one step.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {
namespace {

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

Status positive(double v, const char* field) {
  if (!std::isfinite(v) || !(v > 0.0)) {
    return fail(StatusCode::invalid_argument, std::string("crowd.") + field + " must be finite and > 0 (got " + num(v) + ")");
  }
  return ok_status();
}

Status validate_crowd_def(const CrowdDef& d) {
  if (!(d.dt > 0.0 && d.dt <= 1.0)) {
    return fail(StatusCode::invalid_argument, "crowd.dt must be in (0, 1] (got " + num(d.dt) + ")");
  }
  const std::pair<double, const char*> fields[] = {
      {d.time_horizon, "time_horizon"},     {d.obstacle_horizon, "obstacle_horizon"},
      {d.neighbor_distance, "neighbor_distance"}, {d.reaction_time, "reaction_time"},
      {d.stuck_time, "stuck_time"},         {d.progress_distance, "progress_distance"},
      {d.give_up_time, "give_up_time"},     {d.lock_distance, "lock_distance"}};
  for (const auto& [v, name] : fields) {
    if (auto s = positive(v, name); !s) return s;
  }
  if (d.neighbor_distance > 64.0) return fail(StatusCode::invalid_argument, "crowd.neighbor_distance must be <= 64");
  if (d.max_neighbors < 1 || d.max_neighbors > 64) {
    return fail(StatusCode::invalid_argument, "crowd.max_neighbors must be in 1..64 (got " + std::to_string(d.max_neighbors) + ")");
  }
  if (d.plan_expansions < 0) return fail(StatusCode::invalid_argument, "crowd.plan_expansions must be >= 0");
  if (d.flow_field_units < 0) return fail(StatusCode::invalid_argument, "crowd.flow_field_units must be >= 0");
  if (d.threads < 1 || d.threads > 64) {
    return fail(StatusCode::invalid_argument, "crowd.threads must be in 1..64 (got " + std::to_string(d.threads) + ")");
  }
  return ok_status();
}

}  // namespace

CrowdImpl::CrowdImpl(const Grid& grid, const CrowdDef& def)
    : def_(def), base_(grid), grid_(grid), finder_(grid_), avoid_grid_(grid), avoid_finder_(avoid_grid_), local_finder_(local_grid_),
      pool_(def.threads) {
  scratch_.resize(static_cast<size_t>(def.threads));
  min_separation_ = std::numeric_limits<double>::infinity();
  min_ratio_ = std::numeric_limits<double>::infinity();
  min_obstacle_gap_ = std::numeric_limits<double>::infinity();
  flow_.assign(static_cast<size_t>(grid.cell_count()), Vec2(0.0));
}

Result<CrowdAgentId> CrowdImpl::add_agent(const CrowdAgentDef& agent) {
  const int id = static_cast<int>(agents_.size());
  const std::string who = "agent " + std::to_string(id) + " (" + agent.unit.name + ")";
  if (auto s = validate_unit_def(agent.unit); !s) return fail(s.error().code, who + ": " + s.error().message);
  const Pose& p = agent.start;
  if (!is_finite(p.pos) || !std::isfinite(p.heading)) return fail(StatusCode::invalid_argument, who + ": start is not finite");
  if (!grid_.contains(p.pos)) return fail(StatusCode::out_of_bounds, who + ": start is outside the map");
  if (!point_clear(grid_, p.pos, agent.unit.radius) && point_clear(base_, p.pos, agent.unit.radius)) {
    reopen_doors_under(p.pos, agent.unit.radius);  // a door never closes on a unit
  }
  if (!point_clear(grid_, p.pos, agent.unit.radius)) {
    return fail(StatusCode::blocked, who + ": start is not clear of walls for radius " + num(agent.unit.radius));
  }
  if (auto s = check_goal(agent.unit, agent.goal, who + ": goal"); !s) return s.error();
  for (size_t j = 0; j < agents_.size(); ++j) {
    const crowd::Agent& o = agents_[j];
    if (glm::length(o.st.pose.pos - p.pos) < o.def.unit.radius + agent.unit.radius) {
      return fail(StatusCode::blocked, who + ": start overlaps agent " + std::to_string(j));
    }
  }
  for (const crowd::Mover& m : movers_) {
    if (crowd::box_distance(m.st.pose, m.def.half_extents, p.pos) < agent.unit.radius) {
      return fail(StatusCode::blocked, who + ": start overlaps a moving obstacle");
    }
  }
  crowd::Agent a;
  a.def = agent;
  a.st.pose = p;
  a.st.target = agent.goal;
  // Only a unit that turns on the spot as fast as a person may sidestep freely.
  a.holonomic = agent.unit.turning_radius == 0.0 && agent.unit.pivot_turn_rate >= deg_to_rad(359.0);
  agents_.push_back(std::move(a));
  max_radius_ = std::max(max_radius_, agent.unit.radius);
  max_speed_ = std::max(max_speed_, std::max(agent.unit.max_speed, agent.unit.max_reverse_speed));
  join_group(id);
  plan_route(id);
  agents_.back().m.replans = 0;  // the first plan is not a re-plan
  agents_.back().progress_time = time();
  agents_.back().lock_anchor = p.pos;
  agents_.back().lock_since = time();
  route_new_large_group(id);
  return id;
}

Status CrowdImpl::set_goal(CrowdAgentId id, Vec2 goal, std::optional<double> goal_heading) {
  if (id < 0 || id >= static_cast<int>(agents_.size())) {
    return fail(StatusCode::invalid_argument, "unknown agent " + std::to_string(id));
  }
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  if (auto s = check_goal(a.def.unit, goal, "agent " + std::to_string(id) + ": goal"); !s) return s;
  if (a.group >= 0) {
    crowd::GoalGroup& g = groups_[static_cast<size_t>(a.group)];
    if (a.slot >= 0) g.claimed_by[static_cast<size_t>(a.slot)] = -1;
    std::erase(g.members, id);
  }
  a.def.goal = goal;
  a.def.goal_heading = goal_heading;
  a.st.target = goal;
  a.st.arrived = false;
  a.st.reached = false;
  a.st.parked_far = false;
  a.st.note.clear();
  a.m.arrived = false;
  a.m.time_to_goal.reset();
  a.at_spot = false;
  a.heading_given_up = false;
  a.slot = -1;
  a.gave_up = false;
  a.stuck_total = 0.0;
  join_group(id);
  a.st.replan_cause = CrowdReplanCause::new_goal;
  plan_route(id);
  route_new_large_group(id);
  a.progress_time = time();
  return ok_status();
}

void CrowdImpl::step() {
  phases_.clear();
  serial_phase("doors, trucks, buckets", [this] {
    update_doors();
    move_obstacles();
    make_way_for_movers();
    rebuild_buckets();
    make_way_for_held_units();  // reads the buckets
  });
  const int n = static_cast<int>(agents_.size());
  // Neighbours and decisions on the worker threads: a unit's find_neighbors() and decide()
  // write only its own state and its thread's scratch, and read what no one writes in this
  // phase (pos_, vel_, the map, the routes), so any split of the units gives the same bytes.
  // Everything shared (routes, slots, flow marks, doors) changes in the serial phases. A
  // person's move apart from the other units is worked out here too (plan_move).
  parallel_phase("neighbours, decisions", n, [this](int begin, int end, int part) {
    crowd::Scratch& s = scratch_[static_cast<size_t>(part)];
    for (int i = begin; i < end; ++i) {
      find_neighbors(i, s);
      decide(i, s);
      plan_move(i);
    }
  });
  moves_phase(n);
  ++steps_;
  // A spread repair of the flow fields that is done (flow_field_spread.cpp) replaces them here,
  // before the read-ahead reads them.
  flow_fields_.finish_repair();
  follow_density();  // a large group's field follows the other groups' units (flow_field_density.cpp)
  // The measurements and what the progress pass asks of the map alone, on the worker threads
  // (measure_after_moves); then the progress pass itself in index order, as re-plans, slots
  // and deadlock remedies change what the units after see (flow marks, claims, giving way).
  measure_after_moves();
  progress_phase(n);
  track_locks();
}

void CrowdImpl::moves_phase(int n) {
  auto moves = [this, n] {
    for (int i = 0; i < n; ++i) {  // in index order: a move sees the moves before it
      if (i + 2 < n) crowd::prefetch_agent(agents_[static_cast<size_t>(i + 2)]);
      move(i);
    }
  };
  if (!flow_fields_.repairing()) {
    serial_phase("moves", moves);
    return;
  }
  // The serial moves leave the other threads idle: a share of the flow fields' spread repair
  // runs beside them. It writes only the repair's copies and reads the fields, which no move
  // touches, and its share is counted in cells: the same bytes with any thread count.
  std::vector<double> per_thread(static_cast<size_t>(pool_.threads()), 0.0);
  pool_.run_each(2, [&](int begin, int end, int part) {
    const double t0 = phase_clock_ ? phase_clock_() : 0.0;
    for (int k = begin; k < end; ++k) {
      if (k == 0) {
        moves();
      } else {
        flow_fields_.advance_repair(std::max<int64_t>(kRepairWorkBesideMovesMin, kRepairWorkBesideMoves * n));
      }
    }
    if (phase_clock_) per_thread[static_cast<size_t>(part)] += phase_clock_() - t0;
  });
  if (phase_clock_) record_phase("moves, field repair", true, std::move(per_thread));
}

void CrowdImpl::progress_phase(int n) {
  auto progress = [this, n] {
    for (int i = 0; i < n; ++i) {
      if (i + 2 < n) crowd::prefetch_agent(agents_[static_cast<size_t>(i + 2)]);
      track_progress(i);
    }
  };
  // A door's change is seen before (it ends a spread repair); then nothing in the pass changes
  // the fields' grid (the queues are not taken afresh while a repair is under way).
  if (flow_fields_.repairing()) sync_flow_fields();
  if (!flow_fields_.repairing()) {
    serial_phase("progress", progress);
    return;
  }
  // Beside the serial pass, the repair searches on in the field it copied (FlowFields::set_beside).
  std::vector<double> per_thread(static_cast<size_t>(pool_.threads()), 0.0);
  flow_fields_.set_beside(true);
  pool_.run_each(2, [&](int begin, int end, int part) {
    const double t0 = phase_clock_ ? phase_clock_() : 0.0;
    for (int k = begin; k < end; ++k) {
      if (k == 0) {
        progress();
      } else {
        const int64_t share = std::llround(kRepairWorkBesideProgress * n);
        flow_fields_.advance_repair(std::max<int64_t>(kRepairWorkBesideProgressMin, share), false);
      }
    }
    if (phase_clock_) per_thread[static_cast<size_t>(part)] += phase_clock_() - t0;
  });
  flow_fields_.set_beside(false);
  if (phase_clock_) record_phase("progress, field repair", true, std::move(per_thread));
}

void CrowdImpl::parallel_phase(const char* name, int n, const crowd::WorkerPool::Job& job) {
  timed_phase(name, n, job, false);
}

void CrowdImpl::nested_parallel_phase(const char* name, int n, const crowd::WorkerPool::Job& job) {
  nested_caller_ += timed_phase(name, n, job, true);
}

double CrowdImpl::timed_phase(const char* name, int n, const crowd::WorkerPool::Job& job, bool one_each) {
  const auto run = [&](const crowd::WorkerPool::Job& j) { one_each ? pool_.run_each(n, j) : pool_.run(n, j); };
  if (!phase_clock_) {
    run(job);
    return 0.0;
  }
  std::vector<double> per_thread(static_cast<size_t>(pool_.threads()), 0.0);
  run([&](int begin, int end, int part) {
    const double t0 = phase_clock_();
    job(begin, end, part);
    per_thread[static_cast<size_t>(part)] += phase_clock_() - t0;  // one part per thread
  });
  const double caller = per_thread[0];
  record_phase(name, true, std::move(per_thread));
  return caller;
}

void CrowdImpl::record_phase(const char* name, bool parallel, std::vector<double> per_thread) {
  CrowdPhaseTime p;
  p.name = name;
  p.parallel = parallel;
  p.per_thread = std::move(per_thread);
  phases_.push_back(std::move(p));
}

// ---- the public wrapper ----

Result<Crowd> Crowd::create(const Grid& grid, const CrowdDef& def) {
  if (auto s = validate_crowd_def(def); !s) return s.error();
  if (grid.width() <= 0 || grid.height() <= 0) return fail(StatusCode::invalid_argument, "crowd: empty grid");
  return Crowd(std::make_unique<CrowdImpl>(grid, def));
}

Crowd::Crowd(std::unique_ptr<CrowdImpl> impl) : impl_(std::move(impl)) {}
Crowd::~Crowd() = default;
Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;

Result<CrowdAgentId> Crowd::add_agent(const CrowdAgentDef& agent) { return impl_->add_agent(agent); }
Result<int> Crowd::add_door(const DoorDef& door) { return impl_->add_door(door); }
Result<int> Crowd::add_moving_obstacle(const MovingObstacleDef& o) { return impl_->add_moving_obstacle(o); }
Status Crowd::set_door_open(int door, bool open) { return impl_->set_door_open(door, open); }
Status Crowd::set_goal(CrowdAgentId id, Vec2 goal, std::optional<double> heading) {
  return impl_->set_goal(id, goal, heading);
}
void Crowd::step() { impl_->step(); }
Status Crowd::set_threads(int threads) {
  if (threads < 1 || threads > 64) {
    return fail(StatusCode::invalid_argument, "crowd.threads must be in 1..64 (got " + std::to_string(threads) + ")");
  }
  impl_->def_.threads = threads;
  impl_->pool_ = crowd::WorkerPool(threads);  // the old pool's threads end here
  impl_->scratch_.resize(static_cast<size_t>(threads));
  return ok_status();
}
int Crowd::threads() const noexcept { return impl_->def_.threads; }
void Crowd::set_phase_clock(std::function<double()> clock) {
  impl_->phase_clock_ = std::move(clock);
  impl_->phases_.clear();
}
const std::vector<CrowdPhaseTime>& Crowd::last_phases() const noexcept { return impl_->phases_; }
Crowd Crowd::clone(CrowdRoutePlanner planner) const { return Crowd(impl_->clone(std::move(planner))); }

size_t Crowd::memory_bytes() const noexcept { return impl_->memory_bytes(); }

namespace {
template <class T>
size_t bytes_of(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
}  // namespace

size_t CrowdImpl::memory_bytes() const noexcept {
  size_t b = sizeof(*this) + bytes_of(base_.costs()) + bytes_of(grid_.costs()) + bytes_of(avoid_grid_.costs()) +
             bytes_of(local_grid_.costs()) + bytes_of(queue_grid_.costs()) + bytes_of(wall_grid_.costs()) + bytes_of(flow_) + bytes_of(wall_room_) + bytes_of(settled_) + bytes_of(settled_cells_) + bytes_of(held_settled_) +
             bytes_of(buckets_) + bytes_of(agent_bucket_) + bytes_of(pos_) + bytes_of(vel_) + bytes_of(radius_) +
             bytes_of(scratch_) + bytes_of(agents_) + flow_fields_.memory_bytes();
  for (const std::vector<int>& ids : buckets_) b += bytes_of(ids);
  for (const crowd::Scratch& s : scratch_) b += bytes_of(s.lines) + bytes_of(s.found) + bytes_of(s.bucket_order);
  for (const crowd::Agent& a : agents_) {
    b += bytes_of(a.st.route) + bytes_of(a.route_tail) + bytes_of(a.st.neighbors) + bytes_of(a.flow_marks.cells) + bytes_of(a.flow_marks.runs) + a.st.why.capacity() +
         a.st.note.capacity() + a.def.unit.name.capacity();
  }
  for (const crowd::GoalGroup& g : groups_) b += sizeof g + bytes_of(g.members) + bytes_of(g.slots) + bytes_of(g.claimed_by);
  for (const crowd::Door& d : doors_) b += sizeof d + bytes_of(d.def.toggle_times);
  for (const crowd::Mover& m : movers_) b += sizeof m + bytes_of(m.def.route);
  return b;
}

std::unique_ptr<CrowdImpl> CrowdImpl::clone(CrowdRoutePlanner planner) const {
  auto c = std::make_unique<CrowdImpl>(*this);  // the pathfinders are copied unbound (crowd::Finder)
  c->def_.route_planner = std::move(planner);
  c->finder_.reset(c->grid_);
  c->avoid_finder_.reset(c->avoid_grid_);
  c->local_finder_.reset(c->local_grid_);
  return c;
}
double Crowd::time() const noexcept { return impl_->time(); }
int64_t Crowd::step_count() const noexcept { return impl_->steps_; }
double Crowd::dt() const noexcept { return impl_->def_.dt; }
int Crowd::agent_count() const noexcept { return static_cast<int>(impl_->agents_.size()); }
bool Crowd::all_arrived() const noexcept {
  for (const auto& a : impl_->agents_) {
    if (!a.m.arrived) return false;
  }
  return true;
}
const CrowdAgentDef& Crowd::agent_def(CrowdAgentId id) const { return impl_->agents_[static_cast<size_t>(id)].def; }
const CrowdAgentState& Crowd::state(CrowdAgentId id) const { return impl_->agents_[static_cast<size_t>(id)].st; }
const CrowdAgentMetrics& Crowd::metrics(CrowdAgentId id) const { return impl_->agents_[static_cast<size_t>(id)].m; }
CrowdMetrics Crowd::run_metrics() const {
  CrowdMetrics r;
  for (const auto& a : impl_->agents_) {
    r.arrived += a.m.arrived ? 1 : 0;
    r.wall_contacts += a.m.wall_contacts;
    r.stuck_steps += a.m.stuck_steps;
    r.replans += a.m.replans;
  }
  r.min_separation = impl_->min_separation_;
  r.min_separation_ratio = impl_->min_ratio_;
  r.min_obstacle_gap = impl_->min_obstacle_gap_;
  r.longest_lock = impl_->longest_lock_;
  r.longest_lock_agent = impl_->longest_lock_agent_;
  r.longest_lock_obstacle = impl_->longest_lock_obstacle_;
  return r;
}
int Crowd::door_count() const noexcept { return static_cast<int>(impl_->doors_.size()); }
bool Crowd::door_open(int door) const { return impl_->doors_[static_cast<size_t>(door)].open; }
DoorState Crowd::door_state(int door) const {
  const crowd::Door& d = impl_->doors_[static_cast<size_t>(door)];
  if (!d.open) return DoorState::closed;
  return d.want_open ? DoorState::open : DoorState::closing_when_clear;
}

const char* to_string(DoorState state) noexcept {
  switch (state) {
    case DoorState::open: return "open";
    case DoorState::closed: return "closed";
    case DoorState::closing_when_clear: return "closing when clear";
  }
  return "?";
}
const DoorDef& Crowd::door_def(int door) const { return impl_->doors_[static_cast<size_t>(door)].def; }
int Crowd::moving_obstacle_count() const noexcept { return static_cast<int>(impl_->movers_.size()); }
const MovingObstacleState& Crowd::moving_obstacle(int id) const { return impl_->movers_[static_cast<size_t>(id)].st; }
const MovingObstacleDef& Crowd::moving_obstacle_def(int id) const { return impl_->movers_[static_cast<size_t>(id)].def; }
const Grid& Crowd::grid() const noexcept { return impl_->grid_; }

}  // namespace pathlab
