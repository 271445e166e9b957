#include "units.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include "pathlab/collision.hpp"
#include "inspector.hpp"
#include "sandbox.hpp"
#include "ui_widgets.hpp"

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

FollowPath UnitSwarm::route_for(const io::Scene& scene, const UnitDef& def, const Pose& from, std::string& message) {
  io::PlanSettingsData s = scene.settings;
  s.agent_radius = std::max(s.agent_radius, def.radius);  // a bigger unit needs its own clearance
  const PlanView v = pipeline(def.name).plan(*grid_, from, scene.goal, s, false);
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
  FollowPath path = route_for(scene, def, st.pose, u.message);
  Status ok = sim_.set_path(id, path);
  if (!ok && path.has_reverse() && path.segment_path()) {
    // Steering followers refuse reverse gear; give them the same route as a polyline.
    std::vector<Vec2> pts;
    for (const FollowSample& fs : path.samples()) pts.push_back(fs.pos);
    if (auto fp = FollowPath::from_polyline(pts)) ok = sim_.set_path(id, *fp);
  }
  if (!ok) u.message = ok.error().message;
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
  units_.push_back(Unit{preset, pose, message});
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
  for (const Unit& u : units_) out.push_back(io::UnitData{u.preset, u.spawn});
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
  for (int i = 0; i < count(); ++i) n += sim_.state(i).arrived;
  return n;
}

void UnitSwarm::draw(SdlBatch& batch, const std::function<ImVec2(Vec2)>& to_screen, float scale, bool paths,
                     bool lookahead) const {
  static const ImU32 colours[] = {IM_COL32(40, 120, 230, 255), IM_COL32(230, 140, 20, 255), IM_COL32(90, 110, 60, 255),
                                  IM_COL32(130, 80, 40, 255)};
  auto colour_of = [&](const std::string& preset) {
    const auto& names = unit_preset_names();
    const auto it = std::find(names.begin(), names.end(), preset);
    return colours[it == names.end() ? 0 : static_cast<size_t>(it - names.begin()) % 4];
  };
  if (paths) {
    std::vector<ImVec2> pts;
    for (int i = 0; i < count(); ++i) {
      const auto samples = sim_.path(i).samples();
      pts.clear();
      // Every few samples is enough for a thin guide line, and keeps 50 routes cheap to draw.
      const size_t stride = std::max<size_t>(1, samples.size() / 200);
      for (size_t k = 0; k < samples.size(); k += stride) pts.push_back(to_screen(samples[k].pos));
      if (!samples.empty()) pts.push_back(to_screen(samples.back().pos));
      const ImU32 c = (colour_of(units_[static_cast<size_t>(i)].preset) & 0x00FFFFFFu) | 0x70000000u;
      batch.polyline(pts.data(), static_cast<int>(pts.size()), c);
    }
  }
  for (int i = 0; i < count(); ++i) {
    const UnitState& st = sim_.state(i);
    const float r = std::max(3.0f, static_cast<float>(sim_.unit_def(i).radius) * scale);
    const ImVec2 c = to_screen(st.pose.pos);
    batch.disc(c, r, colour_of(units_[static_cast<size_t>(i)].preset),
               st.blocked ? IM_COL32(255, 0, 0, 255) : IM_COL32(255, 255, 255, 230));
    const Vec2 nose = st.pose.pos + Vec2(std::cos(st.pose.heading), std::sin(st.pose.heading)) *
                                        (static_cast<double>(r) * 1.6 / static_cast<double>(scale));
    const ImVec2 tip = to_screen(nose);
    batch.thick_polyline(std::array<ImVec2, 2>{c, tip}.data(), 2, IM_COL32(255, 255, 255, 255), 2);
    if (lookahead && !st.arrived) {
      // The follower's own look-ahead point, not a reconstruction: it is where the unit steers.
      const ImVec2 la = to_screen(st.lookahead);
      batch.line(c, la, IM_COL32(255, 140, 0, 200));
      batch.disc(la, 2.0f, IM_COL32(255, 140, 0, 255), IM_COL32(120, 60, 0, 255));
    }
  }
}

void Sandbox::draw_units_panel() {
  if (!ImGui::CollapsingHeader("Units", ImGuiTreeNodeFlags_DefaultOpen)) return;
  UnitSwarm& u = *units_;
  const auto& names = unit_preset_names();
  if (ImGui::BeginCombo("preset", names[static_cast<size_t>(unit_preset_)].c_str())) {
    for (size_t i = 0; i < names.size(); ++i)
      if (ImGui::Selectable(names[i].c_str(), static_cast<int>(i) == unit_preset_)) unit_preset_ = static_cast<int>(i);
    ImGui::EndCombo();
  }
  help_marker("The core's presets (seed 004): a person turns on the spot, a car needs a 2-cell circle and may "
              "back up, a tank pivots slowly, a bear runs fast with a 1.5-cell turn.");
  ImGui::SliderInt("how many", &spawn_count_, 1, 50);
  help_marker("Units added per click, all at the start pose. Each plans its own route to the goal with the "
              "settings above (at least its own radius).");
  if (ImGui::Button("Spawn at start")) {
    std::string first;
    for (int i = 0; i < spawn_count_; ++i) {
      const std::string e = u.spawn(scene_, names[static_cast<size_t>(unit_preset_)], scene_.start);
      if (first.empty()) first = e;
    }
    status_ = first.empty() ? std::to_string(u.count()) + " units" : first;
    touched();
  }
  ImGui::SameLine();
  if (ImGui::Button(u.playing() ? "Pause" : "Play")) u.set_playing(!u.playing());
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    u.set_playing(false);
    u.step(scene_);
  }
  help_marker("Step: pause and advance exactly one fixed step (1/60 s of simulated time).");
  float speed = static_cast<float>(u.speed());
  if (ImGui::SliderFloat("speed", &speed, 0.1f, 8.0f, "%.2fx", ImGuiSliderFlags_Logarithmic)) {
    u.set_speed(speed);
    touched();
  }
  help_marker("Simulated seconds per real second. The simulation runs fixed 1/60 s steps, so the "
              "trajectories are the same at any speed.");
  if (ImGui::Button("Reset")) u.reset(scene_);
  help_marker("Puts every unit back at its spawn pose, at rest.");
  ImGui::SameLine();
  if (ImGui::Button("Remove all")) {
    u.clear();
    touched();
  }
  ImGui::SameLine();
  ImGui::Checkbox("routes", &show_unit_paths_);
  help_marker("Draw the route each unit is following.");
  ImGui::Checkbox("look-ahead points", &inspector_->overlays().lookahead);
  help_marker("Each unit's look-ahead point: where its follower steers this step (orange dot and line).");
  ImGui::Text("%d units, %d arrived, t = %.1f s", u.count(), u.arrived(), u.time());
  if (u.pending_replans() > 0) ImGui::TextDisabled("re-planning %d...", u.pending_replans());
  for (int i = 0; i < u.count(); ++i) {
    if (!u.unit_message(i).empty()) {
      ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "unit %d: %s", i, u.unit_message(i).c_str());
      break;  // one line is enough to say something is wrong
    }
  }
}

}  // namespace pathlab::sandbox
