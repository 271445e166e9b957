// The "Units" section of the sandbox panel: spawn presets, play, step, speed, and what the
// units are doing. The model is units.hpp; this file only reads and drives it.

#include "inspector.hpp"
#include "sandbox.hpp"
#include "ui_widgets.hpp"

namespace pathlab::sandbox {

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
