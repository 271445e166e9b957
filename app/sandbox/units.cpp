// The unit model: spawning, re-planning through the planning service, arrival. No drawing.

#include "units.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "pathlab/collision.hpp"

namespace pathlab::sandbox {
namespace {

Simulation make_simulation(const Grid& grid) {
  // default_simulation_def() is always valid; create() only fails on a bad def.
  return std::move(*Simulation::create(grid, default_simulation_def()));
}

}  // namespace

const std::vector<std::string>& unit_preset_names() {
  static const std::vector<std::string> names = {"person", "car", "tank", "bear"};
  return names;
}

UnitSwarm::UnitSwarm(const Grid& grid) : grid_(&grid), sim_(make_simulation(grid)) {}

PlanPipeline& UnitSwarm::pipeline(const std::string& preset) {
  auto& p = pipelines_[preset];
  if (!p) p = std::make_unique<PlanPipeline>();
  return *p;
}

io::PlanSettingsData unit_plan_settings(const io::PlanSettingsData& scene_settings, const UnitDef& def) {
  io::PlanSettingsData s = scene_settings;
  s.agent_radius = std::max(s.agent_radius, def.radius);  // a bigger unit needs its own clearance
  if (def.turning_radius > 0.0) s.turning_radius = def.turning_radius;  // a car and a bear turn differently
  return s;
}

FollowPath UnitSwarm::route_for(const io::Scene& scene, const UnitDef& def, const Pose& from, std::string& message) {
  // Units still plan on the UI thread: a budget keeps a failing heading-aware search from
  // stalling the frame (it reports budget_exhausted and the unit waits for the next change).
  SearchBudget budget;
  budget.time_ms = kUnitPlanBudgetMs;
  const PlanView v =
      pipeline(def.name).plan(*grid_, from, scene.goal, unit_plan_settings(scene.settings, def), false, budget);
  message.clear();
  if (!v.error.empty()) message = v.error;
  else if (!v.found) message = v.reason.empty() ? "no path" : v.reason;
  if (message.empty() && v.segments) {
    if (auto fp = FollowPath::from_segment_path(*v.segments)) return std::move(*fp);
  }
  if (message.empty() && !v.points.empty()) {
    // Grid planners start at the centre of the unit's cell: splice the route onto its real
    // position so a re-plan never makes it jump or walk back.
    const std::vector<Vec2> pts = splice_start(*grid_, from.pos, v.points, def.radius);
    if (auto fp = FollowPath::from_polyline(pts)) return std::move(*fp);
  }
  // No route: a path of one point keeps the unit where it is until the next re-plan.
  const Vec2 here[1] = {from.pos};
  return std::move(*FollowPath::from_polyline(here));
}

bool UnitSwarm::plan_unit(const io::Scene& scene, int id) {
  Unit& u = units_[static_cast<size_t>(id)];
  const UnitDef& def = sim_.unit_def(id);
  const UnitState& st = sim_.state(id);
  // A unit stopped at the (unchanged) goal stays: a route from the goal to itself would send a
  // car round a loop to meet the goal heading again.
  if (at_goal(id) && glm::length(st.pose.pos - scene.goal.pos) <= kAtGoalDistance) return true;
  FollowPath path = route_for(scene, def, st.pose, u.message);
  u.goal = u.message.empty() ? std::optional<Vec2>(scene.goal.pos) : std::nullopt;
  Status ok = sim_.set_path(id, path);
  if (!ok && path.has_reverse() && path.segment_path()) {
    // Steering followers refuse reverse gear; give them the same route as a polyline.
    std::vector<Vec2> pts;
    for (const FollowSample& fs : path.samples()) pts.push_back(fs.pos);
    if (auto fp = FollowPath::from_polyline(pts)) ok = sim_.set_path(id, *fp);
  }
  if (!ok) {
    u.message = ok.error().message;
    u.goal.reset();
  }
  return ok.ok();
}

std::string UnitSwarm::spawn(const io::Scene& scene, const std::string& preset, const Pose& pose) {
  auto def = unit_preset(preset);
  if (!def) return def.error().message;
  std::string message;
  FollowPath path = route_for(scene, *def, pose, message);
  auto id = sim_.add_unit(*def, path, pose);
  if (!id && path.has_reverse()) {
    std::vector<Vec2> pts;
    for (const FollowSample& fs : path.samples()) pts.push_back(fs.pos);
    if (auto fp = FollowPath::from_polyline(pts)) id = sim_.add_unit(*def, *fp, pose);
  }
  if (!id) return preset + ": " + id.error().message;
  units_.push_back(Unit{preset, pose, message, message.empty() ? std::optional<Vec2>(scene.goal.pos) : std::nullopt});
  return message.empty() ? "" : preset + ": " + message;
}

void UnitSwarm::clear() {
  const bool was_playing = playing();
  const double speed = sim_.time_scale();
  sim_ = make_simulation(*grid_);
  sim_.set_paused(!was_playing);
  (void)sim_.set_time_scale(speed);
  units_.clear();
  queue_.clear();
}

std::vector<io::UnitData> UnitSwarm::spawn_list() const {
  std::vector<io::UnitData> out;
  for (const Unit& u : units_) out.push_back(io::UnitData{u.preset, u.spawn, std::nullopt});
  return out;
}

void UnitSwarm::reset(const io::Scene& scene) {
  const std::vector<io::UnitData> list = spawn_list();
  clear();
  for (const io::UnitData& u : list) (void)spawn(scene, u.preset, u.pose);
}

std::string UnitSwarm::load(const io::Scene& scene) {
  clear();
  (void)sim_.set_time_scale(scene.sim_speed);
  std::string first;
  for (const io::UnitData& u : scene.units) {
    std::string e = spawn(scene, u.preset, u.pose);
    if (first.empty()) first = e;
  }
  return first;
}

void UnitSwarm::request_replan() {
  // The trigger may be a map edit: drop every pipeline's per-map preprocessing.
  for (auto& [name, p] : pipelines_) p->map_changed();
  queue_.clear();
  for (int i = 0; i < count(); ++i) queue_.push_back(i);
}

void UnitSwarm::run_queue(const io::Scene& scene, double budget_ms) {
  using ms = std::chrono::duration<double, std::milli>;
  const auto t0 = std::chrono::steady_clock::now();
  bool first = true;
  while (!queue_.empty()) {
    // Stop before a plan that would overrun the budget (judged by the plans so far), not
    // after it: on a big map one plan is several milliseconds, and overshooting by one every
    // frame is what made re-planning frames slow. At least one plan runs each frame.
    const double elapsed = ms(std::chrono::steady_clock::now() - t0).count();
    if (!first && elapsed + plan_ms_ > budget_ms) break;
    first = false;
    const int id = queue_.front();
    queue_.pop_front();
    const auto p0 = std::chrono::steady_clock::now();
    if (sim_.valid(id)) plan_unit(scene, id);
    const double took = ms(std::chrono::steady_clock::now() - p0).count();
    plan_ms_ = plan_ms_ <= 0 ? took : 0.7 * plan_ms_ + 0.3 * took;  // a running estimate
  }
}

void UnitSwarm::update(const io::Scene& scene, double real_seconds, double budget_ms) {
  run_queue(scene, budget_ms);
  if (count() > 0 && std::isfinite(real_seconds) && real_seconds >= 0) sim_.advance(real_seconds);
}

void UnitSwarm::step(const io::Scene& scene) {
  run_queue(scene, 1e9);
  sim_.step();
}

int UnitSwarm::arrived() const {
  int n = 0;
  for (int i = 0; i < count(); ++i) n += at_goal(i);
  return n;
}

bool UnitSwarm::at_goal(int id) const {
  const Unit& u = units_[static_cast<size_t>(id)];
  const UnitState& st = sim_.state(id);
  return st.arrived && u.goal && glm::length(st.pose.pos - *u.goal) <= kAtGoalDistance;
}

}  // namespace pathlab::sandbox
