#include "pathlab/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pathlab/collision.hpp"

namespace pathlab {

namespace {

/// How far a track unit may stand from its path's start and still be "on" it. [Units: cells]
constexpr double kOnPathTolerance = 1e-6;

std::string point_text(Vec2 p) { return "(" + std::to_string(p.x) + "," + std::to_string(p.y) + ")"; }

}  // namespace

Result<Simulation> Simulation::create(const Grid& grid, const SimulationDef& def) {
  if (!(def.dt > 0.0 && def.dt <= 1.0)) {
    return fail(StatusCode::invalid_argument, "simulation dt must be in (0, 1] seconds (got " + std::to_string(def.dt) + ")");
  }
  if (def.max_steps_per_advance < 1) {
    return fail(StatusCode::invalid_argument, "simulation max_steps_per_advance must be >= 1");
  }
  return Simulation(grid, def);
}

Status Simulation::check_path(const UnitDef& def, const FollowPath& path, const Pose& start) const {
  if (Status st = validate_unit_def(def); !st) return st;
  if (path.samples().empty()) return fail(StatusCode::invalid_argument, "path: empty (build it with FollowPath::from_*)");
  if (!is_finite(start.pos) || !std::isfinite(start.heading)) {
    return fail(StatusCode::invalid_argument, "start pose is not finite");
  }
  if (def.follower.kind == FollowerKind::track) {
    const double gap = glm::length(path.start_pose().pos - start.pos);
    if (gap > kOnPathTolerance) {
      return fail(StatusCode::invalid_argument, "track follower: the path must start at the unit's position " +
                                                    point_text(start.pos) + ", it starts " + std::to_string(gap) +
                                                    " cells away at " + point_text(path.start_pose().pos));
    }
  } else if (path.has_reverse() && def.follower.kind != FollowerKind::steer) {
    return fail(StatusCode::unsupported, std::string(to_string(def.follower.kind)) +
                                             " follower: the path reverses; use the track or steer follower for it");
  }
  return ok_status();
}

Result<UnitId> Simulation::add_unit(const UnitDef& def, FollowPath path, std::optional<Pose> start) {
  const Pose pose = start.value_or(path.start_pose());
  if (Status st = check_path(def, path, pose); !st) return st.error();
  if (!point_clear(*grid_, pose.pos, def.radius)) {
    return fail(StatusCode::blocked, "start " + point_text(pose.pos) + " is not clear of walls for unit radius " +
                                         std::to_string(def.radius));
  }
  Unit u;
  u.def = def;
  u.state = initial_unit_state(path, pose);
  u.path = std::move(path);
  u.metrics.max_deviation = u.state.deviation;
  units_.push_back(std::move(u));
  return static_cast<UnitId>(units_.size() - 1);
}

Status Simulation::set_path(UnitId id, FollowPath path) {
  if (!valid(id)) return fail(StatusCode::invalid_argument, "unit id " + std::to_string(id) + " does not exist");
  Unit& u = units_[static_cast<size_t>(id)];
  if (Status st = check_path(u.def, path, u.state.pose); !st) return st;
  // Keep pose, speed and heading; only the progress along the (new) path starts over.
  const UnitState old = u.state;
  UnitState fresh = initial_unit_state(path, old.pose);
  fresh.speed = old.speed;
  fresh.turn_rate = old.turn_rate;
  fresh.gear = old.gear;
  fresh.rotating = old.rotating;
  u.state = fresh;
  u.path = std::move(path);
  u.metrics.arrived = false;
  u.metrics.time_to_goal.reset();
  ++u.metrics.replans;
  return ok_status();
}

void Simulation::step_one(Unit& u) {
  if (u.state.arrived || u.state.gave_up != GiveUp::none) return;
  const UnitState before = u.state;
  step_unit(*grid_, u.def, u.path, u.state, def_.dt);
  const UnitState& now = u.state;
  RunMetrics& m = u.metrics;
  const double moved = glm::length(now.pose.pos - before.pose.pos);
  m.distance += moved;
  // The referee is collision.hpp, whatever the follower believed.
  if (moved > 0.0 && !segment_clear(*grid_, before.pose.pos, now.pose.pos, u.def.radius)) ++m.collisions;
  if (now.blocked) ++m.blocked_steps;
  m.max_deviation = std::max(m.max_deviation, now.deviation);
  const double rate = std::abs(wrap_angle(now.pose.heading - before.pose.heading)) / def_.dt;
  m.max_turn_rate = std::max(m.max_turn_rate, rate);
  m.max_lateral_accel = std::max(m.max_lateral_accel, std::abs(now.speed) * rate);
  if (before.speed != 0.0 && now.speed == 0.0 && !now.arrived) ++m.stops;
  if (now.arrived && !m.arrived) {
    m.arrived = true;
    m.time_to_goal = static_cast<double>(steps_ + 1) * def_.dt;
  }
}

void Simulation::step() {
  for (Unit& u : units_) step_one(u);
  ++steps_;
}

int Simulation::advance(double real_seconds) {
  if (paused_ || !(real_seconds > 0.0) || !std::isfinite(real_seconds)) return 0;
  accumulator_ += real_seconds * time_scale_;
  int n = 0;
  while (accumulator_ >= def_.dt && n < def_.max_steps_per_advance) {
    step();
    accumulator_ -= def_.dt;
    ++n;
  }
  if (n == def_.max_steps_per_advance && accumulator_ >= def_.dt) accumulator_ = std::fmod(accumulator_, def_.dt);
  return n;
}

Status Simulation::set_time_scale(double scale) {
  if (!(scale >= 0.0) || !std::isfinite(scale)) {
    return fail(StatusCode::invalid_argument, "time scale must be finite and >= 0 (got " + std::to_string(scale) + ")");
  }
  time_scale_ = scale;
  return ok_status();
}

bool Simulation::all_arrived() const noexcept {
  return std::all_of(units_.begin(), units_.end(), [](const Unit& u) { return u.state.arrived; });
}

Result<SingleRun> simulate_unit(const Grid& grid, const UnitDef& def, FollowPath path, std::optional<Pose> start,
                                const SimulationDef& sim_def, double max_time) {
  if (!(max_time > 0.0) || !std::isfinite(max_time)) {
    return fail(StatusCode::invalid_argument, "max_time must be finite and > 0 (got " + std::to_string(max_time) + ")");
  }
  auto sim = Simulation::create(grid, sim_def);
  if (!sim) return sim.error();
  auto id = sim->add_unit(def, std::move(path), start);
  if (!id) return id.error();
  const double steps_d = std::ceil(max_time / sim_def.dt);
  if (steps_d > 1e8) return fail(StatusCode::too_large, "max_time / dt is more than 1e8 steps");
  const auto max_steps = static_cast<int64_t>(steps_d);
  SingleRun run;
  auto record = [&] {
    const UnitState& st = sim->state(*id);
    run.samples.push_back(TrajectorySample{sim->time(), st.pose, st.speed});
  };
  record();
  Pose anchor = sim->state(*id).pose;  // where the current stall window started
  double anchor_t = 0.0;
  while (!sim->state(*id).arrived && sim->step_count() < max_steps) {
    sim->step();
    record();
    const UnitState& st = sim->state(*id);
    if (st.arrived) break;
    if (st.gave_up != GiveUp::none) {
      run.ended_because = to_string(st.gave_up);
      break;
    }
    if (glm::length(st.pose.pos - anchor.pos) > kStallDistance ||
        std::abs(wrap_angle(st.pose.heading - anchor.heading)) > kStallTurn) {
      anchor = st.pose;
      anchor_t = sim->time();
    } else if (sim->time() - anchor_t >= kStallSeconds) {
      run.ended_because = "no progress for " + std::to_string(kStallSeconds) + " s at " + point_text(st.pose.pos) +
                          ", " + std::to_string(glm::length(sim->path(*id).end_point() - st.pose.pos)) +
                          " cells from the path's end";
      break;
    }
  }
  run.metrics = sim->metrics(*id);
  return run;
}

}  // namespace pathlab
