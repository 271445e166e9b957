// The unit model: a core Crowd, spawning into it, rebuilding it after a map edit, the fixed
// step. No drawing. (Selection, metrics and queries: units_query.cpp.)

#include "units/units.hpp"

#include "pathlab/plan/unit_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>


namespace pathlab::sandbox {
namespace {

std::unique_ptr<Crowd> make_crowd(const Grid& grid, const std::shared_ptr<plan::UnitRouting>& routing) {
  // default_crowd_def() is always valid; create() only fails on a bad def.
  return std::make_unique<Crowd>(plan::make_unit_crowd(grid, routing).value());
}

bool same_door(const DoorDef& a, const DoorDef& b) {
  return a.lo == b.lo && a.hi == b.hi && a.open_at_start == b.open_at_start && a.toggle_times == b.toggle_times;
}

bool same_truck(const MovingObstacleDef& a, const MovingObstacleDef& b) {
  return a.half_extents == b.half_extents && a.route == b.route && a.speed == b.speed &&
         a.start_time == b.start_time && a.loop == b.loop;
}

template <class T, class Same>
bool same_list(const std::vector<T>& a, const std::vector<T>& b, Same same) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same);
}

}  // namespace

const std::vector<std::string>& unit_preset_names() {
  static const std::vector<std::string> names = {"person", "car", "tank", "bear"};
  return names;
}

const char* activity_name(UnitActivity a) {
  switch (a) {
    case UnitActivity::moving: return "moving";
    case UnitActivity::arrived: return "arrived";
    case UnitActivity::stuck: return "stuck";
    case UnitActivity::yielding: return "yielding";
    case UnitActivity::waiting: return "waiting";
  }
  return "?";
}

UnitSwarm::UnitSwarm(const Grid& grid)
    : built_on_(grid), routing_(std::make_shared<plan::UnitRouting>()), crowd_(make_crowd(grid, routing_)) {
  carried_.min_separation = std::numeric_limits<double>::infinity();
  (void)crowd_->set_threads(threads_);
}

void UnitSwarm::set_threads(int threads) {
  threads_ = std::clamp(threads, 1, kMaxThreads);
  (void)crowd_->set_threads(threads_);  // in 1..64: cannot fail
}

Result<CrowdAgentId> UnitSwarm::place(const io::Scene& scene, Unit& u, Pose at, bool stay) {
  detach("a unit was added");
  routing_->settings = scene.settings;  // the route planner plans with the scene's settings
  routing_->scene_goal = scene.goal;
  return plan::place_unit(*crowd_, plan::UnitPlacement{u.def, at, u.goal, scene.goal, stay, &scene.grid}, u.message);
}

std::string UnitSwarm::spawn(const io::Scene& scene, const std::string& preset, const Pose& pose,
                             std::optional<Pose> goal) {
  auto def = unit_preset(preset);
  if (!def) return def.error().message;
  if (rec_) return spawn_recorded(preset, pose, goal);  // a spawn during the run is a recorded input
  Unit u{preset, *def, pose, goal, std::nullopt, "", 0, false};
  auto id = place(scene, u, pose);
  if (!id) return preset + ": " + id.error().message;
  u.spawn = crowd_->state(*id).pose;  // where it really stands (nudged off others)
  units_.push_back(std::move(u));
  record_due_ = time() == 0.0;  // spawned before the run: the recording starts with it
  return "";
}

std::string UnitSwarm::spawn_area(const io::Scene& scene, int n, const std::vector<int>& weights, Vec2 a, Vec2 b) {
  const auto& names = unit_preset_names();
  int total = 0;
  for (size_t p = 0; p < names.size() && p < weights.size(); ++p) total += std::max(0, weights[p]);
  if (total <= 0) return "choose at least one preset for the mix";
  if (n < 1 || n > kMaxUnits)
    return "crowd size " + std::to_string(n) + " is out of range: spawn 1 to " + std::to_string(kMaxUnits) + " units at a time";
  if (n > kMaxUnits - count())
    return "the sandbox holds at most " + std::to_string(kMaxUnits) + " units: " + std::to_string(count()) +
           " are here, so at most " + std::to_string(kMaxUnits - count()) + " more (crowd size " + std::to_string(n) + ")";
  const Vec2 lo = glm::min(a, b), hi = glm::max(a, b);
  double big = 0.0;  // the largest unit in the mix sets the spacing
  for (size_t p = 0; p < names.size() && p < weights.size(); ++p)
    if (weights[p] > 0) big = std::max(big, unit_preset(names[p])->radius);
  const double spacing = 2.0 * big + 0.2;
  const int cols = std::max(1, static_cast<int>((hi.x - lo.x) / spacing));
  std::vector<int> made(names.size(), 0);
  int placed = 0;
  std::string first;
  for (int i = 0; i < n; ++i) {
    // The preset furthest behind its share so far (largest remainder): a fixed interleaving.
    size_t pick = 0;
    double behind = -1e300;
    for (size_t p = 0; p < names.size() && p < weights.size(); ++p) {
      if (weights[p] <= 0) continue;
      const double d = static_cast<double>(weights[p]) * (i + 1) / total - made[p];
      if (d > behind + 1e-12) behind = d, pick = p;
    }
    ++made[pick];
    // Filled row by row from the area's corner, at the spacing of the largest unit; a unit
    // whose spot is taken goes to the nearest free one.
    const Vec2 at = lo + Vec2(spacing * (0.5 + i % cols), spacing * (0.5 + i / cols));
    if (i > 0 && at.y > hi.y) break;  // the area is full
    const std::string e = spawn(scene, names[pick], Pose{at, 0.0});
    if (e.empty()) ++placed;
    else if (first.empty()) first = e;
  }
  if (placed < n) return std::to_string(placed) + " of " + std::to_string(n) + " fit" + (first.empty() ? "" : ": " + first);
  return "";
}

void UnitSwarm::rebuild(const io::Scene& scene, bool from_current, const char* why) {
  detach(from_current ? why : "");
  const double t = from_current ? time() : 0.0;
  std::vector<Pose> poses;
  std::vector<bool> arrived;
  std::vector<int> old_replans;
  std::vector<bool> door_open;
  std::vector<MovingObstacleDef> trucks = scene.moving_obstacles;
  if (from_current) {
    const SwarmMetrics m = metrics();
    carried_ = m;
    for (int i = 0; i < count(); ++i) {
      poses.push_back(crowd_->state(i).pose);
      arrived.push_back(crowd_->state(i).arrived);
      old_replans.push_back(replans(i) + 1);  // the rebuild re-plans it
    }
    // A door closing when clear is carried on as closing (it closes once its cells are clear).
    for (int d = 0; d < crowd_->door_count(); ++d) door_open.push_back(crowd_->door_state(d) == DoorState::open);
    for (int k = 0; k < crowd_->moving_obstacle_count() && k < static_cast<int>(trucks.size()); ++k) {
      const size_t i = static_cast<size_t>(k);
      // A truck the user did not edit drives on from where it is; an edited one starts afresh.
      if (i < built_trucks_.size() && same_truck(built_trucks_[i], trucks[i]))
        trucks[i] = plan::remaining_route(crowd_->moving_obstacle_def(k), crowd_->moving_obstacle(k), crowd_->time());
    }
  } else {
    carried_ = SwarmMetrics{};
    carried_.min_separation = std::numeric_limits<double>::infinity();
  }
  // Arrived units stay put unless their goal moved with this rebuild.
  const bool scene_goal_same = scene_goal_.pos == scene.goal.pos && scene_goal_.heading == scene.goal.heading;
  time_offset_ = t;
  accumulator_ = 0.0;
  built_on_ = scene.grid;
  built_doors_ = scene.doors;
  built_trucks_ = scene.moving_obstacles;
  scene_goal_ = scene.goal;
  routing_->settings = scene.settings;
  routing_->scene_goal = scene.goal;
  crowd_ = make_crowd(scene.grid, routing_);
  (void)crowd_->set_threads(threads_);
  std::vector<DoorDef> doors = scene.doors;
  for (size_t d = 0; d < doors.size() && d < door_open.size(); ++d) {
    // Carry on from now: its state now, the toggles still to come, shifted to the new clock.
    DoorDef& door = doors[d];
    door.open_at_start = door_open[d];
    std::erase_if(door.toggle_times, [&](double s) { return s <= t; });
    for (double& s : door.toggle_times) s -= t;
  }
  plan::add_scene_dynamic(*crowd_, doors, trucks);
  // In list order, the units not placed among them: one that cannot be placed now is kept
  // where it stands in the list; at Reset one not placed is tried again.
  std::vector<Unit> old = std::move(units_);
  std::vector<UnplacedUnit> held = std::move(unplaced_);
  units_.clear();
  unplaced_.clear();
  size_t i = 0, h = 0;
  for (int pos = 0; i < old.size() || h < held.size(); ++pos) {
    if (h < held.size() && (held[h].index <= pos || i == old.size())) {
      UnplacedUnit& k = held[h++];
      std::string why_not = from_current ? k.reason : place_unplaced(scene, k.data);
      if (!why_not.empty()) keep_unplaced(std::move(k.data), pos, std::move(why_not));
      continue;
    }
    Unit u = std::move(old[i]);
    const bool stay = from_current && arrived[i] && (u.goal || scene_goal_same);
    auto id = place(scene, u, from_current ? poses[i] : u.spawn, stay);
    if (id) {
      u.replans_before = from_current ? old_replans[i] : 0;
      units_.push_back(std::move(u));
    } else {
      keep_unplaced(u.data(), pos, id.error().message);
    }
    ++i;
  }
  record_due_ = time() == 0.0;  // Reset (or an edit before the first step): record from here
}

void UnitSwarm::rebuild_after_map_edit(const io::Scene& scene) {
  carried_ = metrics();
  std::vector<int> replans_now;
  for (int i = 0; i < count(); ++i) replans_now.push_back(replans(i) + 1);  // the rebuild re-plans it
  plan::SceneUnits su;
  su.routing = routing_;
  su.def = default_crowd_def();  // make_crowd's
  su.def.route_planner = nullptr;
  su.def.threads = threads_;
  su.crowd.emplace(std::move(*crowd_));
  for (size_t k = 0; k < units_.size(); ++k) {
    su.presets.push_back(units_[k].preset);
    su.scene_index.push_back(static_cast<int>(k));
    su.messages.push_back(units_[k].message);
    su.goals.push_back(units_[k].goal);
  }
  time_offset_ += su.crowd->time();  // the new crowd's clock starts at 0
  plan::rebuild_scene_units(su, scene);
  crowd_ = std::make_unique<Crowd>(std::move(*su.crowd));
  std::vector<Unit> kept;
  std::vector<bool> placed(units_.size(), false);
  for (size_t k = 0; k < su.scene_index.size(); ++k) placed[static_cast<size_t>(su.scene_index[k])] = true;
  std::vector<int> at_index;  // each unit's place in the list before the rebuild
  for (size_t k = 0; k < units_.size(); ++k) at_index.push_back(list_index(static_cast<int>(k)));
  for (size_t k = 0; k < su.scene_index.size(); ++k) {
    const size_t was = static_cast<size_t>(su.scene_index[k]);
    Unit u = std::move(units_[was]);
    u.replans_before = replans_now[was];
    u.message = su.messages[k];
    kept.push_back(std::move(u));
  }
  for (size_t k = 0; k < placed.size(); ++k) {
    if (placed[k]) continue;  // a unit with no room left is kept, not placed, where it stands in the list
    keep_unplaced(units_[k].data(), at_index[k], "no room left after the map edit");
  }
  units_ = std::move(kept);
  built_on_ = scene.grid;
  accumulator_ = 0.0;
  record_due_ = time() == 0.0;  // an edit before the first step: record from here
}

std::string UnitSwarm::load(const io::Scene& scene) {
  units_.clear();
  unplaced_.clear();
  speed_ = std::clamp(scene.sim_speed, 0.05, 20.0);
  rebuild(scene, false);
  replan_pending_ = false;
  // The planning layer's model of the scene's units, as `pathlab-cli crowd --scene` builds it.
  auto built = plan::build_scene_units(scene);
  if (!built) return built.error().message;  // default_crowd_def() is valid: not reached
  routing_ = built->routing;
  crowd_ = std::make_unique<Crowd>(std::move(*built->crowd));
  (void)crowd_->set_threads(threads_);
  for (size_t k = 0; k < built->presets.size(); ++k) {
    const io::UnitData& d = scene.units[static_cast<size_t>(built->scene_index[k])];
    const int id = static_cast<int>(k);
    // Where it really stands (nudged off others) is where Reset puts it back.
    units_.push_back(Unit{d.preset, crowd_->agent_def(id).unit, crowd_->state(id).pose, d.goal, d.turning_radius,
                          built->messages[k], 0, false});
  }
  // The others are kept as the scene has them, in their places in the list.
  std::vector<bool> placed(scene.units.size(), false);
  for (int k : built->scene_index) placed[static_cast<size_t>(k)] = true;
  size_t why = 0;
  for (size_t k = 0; k < placed.size(); ++k) {
    if (placed[k]) continue;
    std::string reason = why < built->skipped.size() ? built->skipped[why++] : "not placed";
    // build_scene_units' "units[3]: person: ": the panel shows the index and the preset itself.
    const std::string where = "units[" + std::to_string(k) + "]: " + scene.units[k].preset + ": ";
    if (reason.starts_with(where)) reason.erase(0, where.size());
    unplaced_.push_back(UnplacedUnit{scene.units[k], static_cast<int>(k), std::move(reason)});
  }
  if (built->skipped.empty()) return "";
  const size_t more = built->skipped.size() - 1;  // the first named, the others counted
  return built->skipped.front() + (more == 0 ? "" : " (and " + std::to_string(more) + " more not placed)") +
         ": kept in the scene's unit list (Units panel), placed again at Reset once there is room";
}

void UnitSwarm::clear(const io::Scene& scene) {
  units_.clear();
  unplaced_.clear();
  rebuild(scene, false);
}

void UnitSwarm::reset(const io::Scene& scene) {
  rebuild(scene, false);
  replan_pending_ = false;
}

void UnitSwarm::apply_replan(const io::Scene& scene, bool defer_rebuild) {
  // Another planner or setting: every unit re-plans with it (a rebuild from where they are).
  const bool settings_changed = !(scene.settings == routing().settings);
  // While the trail draws a moment the crowd has not reached, the sandbox shows that moment's
  // map and goal: an edit is a change from those (record_paint and record_input bring the
  // crowd there first).
  const bool map_edited = !(scene.grid == (shown_ ? shown_grid_ : built_on_));
  if (map_edited || !same_dynamic(scene) || settings_changed) {
    if (defer_rebuild) return;  // still pending: the units walk the old map until the stroke ends
    replan_pending_ = false;
    // Painting walls or ground is a recorded input (the recording rebuilds its crowd as a
    // replay does); what it cannot hold ends it, saying which edit and why.
    std::string why = settings_changed ? "a planner setting was changed (a recording holds the settings it started with)"
                      : !same_dynamic(scene) ? "a door or truck was edited (a recording holds the scene's doors and trucks as they started)"
                                             : "";
    if (why.empty()) {
      // A map edit alone: recorded as paint while recording, else the same rebuild a replay
      // makes (plan::rebuild_scene_units) on the swarm's own crowd.
      why = rec_ ? record_paint(scene) : "";
      if (why.empty() && !rec_) rebuild_after_map_edit(scene);
    }
    if (!why.empty()) {
      rebuild(scene, true, why.c_str());
      return;
    }
  }
  const Pose& goal_shown = shown_ ? shown_goal_ : scene_goal_;
  if (goal_shown.pos == scene.goal.pos && goal_shown.heading == scene.goal.heading) {
    replan_pending_ = false;
    return;
  }
  if (rec_) {
    // A goal drag in progress: one recorded move when it ends, not one per re-plan on the way
    // (a replay of the file then gives the live run: the move it recorded is the one applied).
    if (defer_rebuild) return;
    replan_pending_ = false;
    (void)record_input(io::UnitInput{0, io::GoalInput{scene.goal}});  // recorded at the step shown
    scene_goal_ = scene.goal;
    sync_from_recording();
    return;
  }
  replan_pending_ = false;
  scene_goal_ = scene.goal;
  routing_->scene_goal = scene.goal;  // before set_goal re-plans
  for (int i = 0; i < count(); ++i) {
    Unit& u = units_[static_cast<size_t>(i)];
    if (u.goal) continue;  // has its own goal
    const auto fit = fit_goal(crowd_->grid(), scene.goal.pos, u.def.radius);
    const Status s = fit ? crowd_->set_goal(i, *fit) : Status(fail(StatusCode::blocked, "the goal has no room for this unit"));
    u.message = s ? "" : s.error().message;
  }
  record_due_ = time() == 0.0;
}

void UnitSwarm::run_steps(int n) {
  for (int i = 0; i < n; ++i) {
    if (rec_) rec_->step();
    else crowd_->step();
  }
  if (rec_ && rec_->revision() != synced_revision_) ++moment_version_;
  sync_from_recording();  // a replayed spawn, paint or goal move shows in the lists
}

bool UnitSwarm::same_dynamic(const io::Scene& scene) const {
  return same_list(scene.doors, built_doors_, same_door) && same_list(scene.moving_obstacles, built_trucks_, same_truck);
}

void UnitSwarm::update(const io::Scene& scene, double real_seconds, bool defer_rebuild) {
  if (!same_dynamic(scene)) replan_pending_ = true;  // a door or truck was placed or edited
  if (replan_pending_) apply_replan(scene, defer_rebuild);
  // A scrubbed moment drawn from the trail: playing goes on from the crowd there; paused, the
  // crowd closes in on it a frame's worth at a time once the handle is let go.
  if (scrub_target_ && playing_) settle();
  else if (scrub_target_ && !scrub_held_) close_in();
  if (!playing_ || !std::isfinite(real_seconds) || real_seconds < 0) return;
  accumulator_ += real_seconds * speed_;
  const double dt = crowd_->dt();
  int n = static_cast<int>(std::floor(accumulator_ / dt + 1e-9));
  accumulator_ -= n * dt;
  if (n > kMaxStepsPerFrame) {
    n = kMaxStepsPerFrame;
    accumulator_ = 0.0;  // behind the clock: drop the rest rather than fall further behind
  }
  if (n > 0 && record_due_) start_recording(scene);
  run_steps(n);
}

void UnitSwarm::step(const io::Scene& scene) {
  settle();  // one step on from the moment shown
  if (replan_pending_) apply_replan(scene, false);
  if (record_due_) start_recording(scene);
  run_steps(1);
}

std::string UnitSwarm::send(const std::vector<int>& ids, Vec2 goal, std::optional<double> heading) {
  if (rec_) return send_recorded(ids, goal, heading);
  std::string first;
  for (int id : ids) {
    if (id < 0 || id >= count()) continue;
    Unit& u = units_[static_cast<size_t>(id)];
    u.goal = Pose{goal, heading.value_or(0.0)};
    const Status s = plan::send_unit(*crowd_, id, goal, heading);  // as a recorded send replays
    u.message = s ? "" : s.error().message;
    if (!s && first.empty()) first = u.preset + " " + std::to_string(id) + ": " + u.message;
  }
  return first;
}

void UnitSwarm::toggle_door(int door) {
  if (rec_) {
    (void)record_input(io::UnitInput{0, io::DoorInput{door}});  // recorded at the step shown
    return;
  }
  (void)plan::toggle_door(*crowd_, door);  // as a recorded click replays; no such door: nothing
}

}  // namespace pathlab::sandbox
