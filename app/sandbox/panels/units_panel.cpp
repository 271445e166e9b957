// The "Units" section of the sandbox panel: spawn presets or a crowd, the crowd tools, play,
// step, speed, the crowd overlays and the run's metrics. The model is units.hpp; this file
// only reads and drives it.

#include <cmath>

#include "canvas/crowd_ui.hpp"
#include "inspect/inspector.hpp"
#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

void spawn_controls(Sandbox& sb, int& preset) {
  UnitSwarm& u = sb.units();
  CrowdUi& c = sb.crowd_ui();
  const auto& names = unit_preset_names();
  if (ImGui::BeginCombo("preset", names[static_cast<size_t>(preset)].c_str())) {
    for (size_t i = 0; i < names.size(); ++i)
      if (ImGui::Selectable(names[i].c_str(), static_cast<int>(i) == preset)) preset = static_cast<int>(i);
    ImGui::EndCombo();
  }
  help_marker("The core's presets (seed 004): a person turns on the spot, a car needs a 2-cell circle and may "
              "back up, a tank pivots slowly, a bear runs fast with a 1.5-cell turn.");
  if (ImGui::Button("Spawn at start")) {
    const std::string e = u.spawn(sb.scene(), names[static_cast<size_t>(preset)], sb.scene().start);
    sb.set_status(e.empty() ? std::to_string(u.count()) + " units" : e, !e.empty());
  }
  sb.remember_widget("Spawn at start");
  help_marker("One unit of the preset at the start pose (the nearest free spot when others stand there).");
  ImGui::SliderInt("crowd size", &c.spawn_count, 1, 500);
  help_marker("Units the spawn-area tool adds per drag (or per click, in a square round it).");
  ImGui::TextUnformatted("mix");
  for (size_t i = 0; i < names.size() && i < c.mix.size(); ++i) {
    ImGui::SameLine();
    ImGui::PushID(static_cast<int>(i));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 2.2f);
    ImGui::DragInt("##w", &c.mix[i], 0.1f, 0, 10);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: weight in the mix", names[i].c_str());
    ImGui::PopID();
  }
  help_marker("Weights of person, car, tank, bear in a spawned crowd (interleaved in a fixed order).");
  int t = static_cast<int>(sb.tool());
  ImGui::RadioButton("select", &t, static_cast<int>(Tool::select));
  sb.remember_widget("select");
  ImGui::SameLine();
  ImGui::RadioButton("spawn area", &t, static_cast<int>(Tool::spawn_area));
  sb.remember_widget("spawn area");
  sb.set_tool(static_cast<Tool>(t));
  help_marker("select: drag a box (shift adds), click a unit, click a door to open or close it; then "
              "right-click to send the selection there (right-drag sets the heading). spawn area: drag a "
              "rectangle to fill it with the crowd.");
}

void play_controls(Sandbox& sb) {
  UnitSwarm& u = sb.units();
  if (ImGui::Button(u.playing() ? "Pause" : "Play")) u.set_playing(!u.playing());
  ImGui::SameLine();
  if (ImGui::Button("Step")) {
    u.set_playing(false);
    u.step(sb.scene());
  }
  help_marker("Step: pause and advance exactly one fixed step (1/60 s of simulated time).");
  // A double, the scene's own type (issue 23): a typed 1.3 is saved as 1.3.
  static constexpr double kMinSpeed = 0.1, kMaxSpeed = 8.0;
  double speed = u.speed();
  if (ImGui::SliderScalar("speed##sim", ImGuiDataType_Double, &speed, &kMinSpeed, &kMaxSpeed, "%.2fx", ImGuiSliderFlags_Logarithmic))
    u.set_speed(speed);
  sb.remember_widget("sim speed");
  help_marker("Simulated seconds per real second. The crowd runs fixed 1/60 s steps, so the trajectories are "
              "the same at any speed.");
  if (ImGui::Button("Reset")) u.reset(sb.scene());
  help_marker("Puts every unit back at its spawn pose, at rest; doors and trucks start over.");
  ImGui::SameLine();
  if (ImGui::Button("Remove all")) u.clear(sb.scene());
}

void overlay_controls(Sandbox& sb, bool& routes) {
  CrowdOverlays& o = sb.crowd_ui().overlays;
  ImGui::Checkbox("routes", &routes);
  ImGui::SameLine();
  ImGui::Checkbox("steer points", &sb.inspector().overlays().lookahead);
  help_marker("routes: what each unit has left to walk. steer points: the waypoint each unit heads for (orange).");
  ImGui::Checkbox("neighbours", &o.neighbours);
  ImGui::SameLine();
  ImGui::Checkbox("velocities", &o.velocities);
  help_marker("neighbours: a line to each unit the avoidance considered this step. velocities (one second of "
              "travel): blue what the route asks for, pink what ORCA avoidance chose (as RecastDemo's crowd tool).");
  ImGui::Checkbox("stuck", &o.stuck);
  ImGui::SameLine();
  ImGui::Checkbox("doors", &o.doors);
  ImGui::SameLine();
  ImGui::Checkbox("trucks", &o.trucks);
  ImGui::SameLine();
  ImGui::Checkbox("legend", &o.legend);
  help_marker("stuck: red ring = no progress, amber = waiting for a route (e.g. a door is shut). doors: shut ones "
              "brown with a cross, open ones green outlines. trucks: the moving obstacles' routes.");
}

void metrics_lines(const UnitSwarm& u) {
  const SwarmMetrics m = u.metrics();
  ImGui::Text("%d units, %d arrived, t = %.1f s, %zu selected", u.count(), m.arrived, u.time(), u.selection().size());
  if (std::isfinite(m.min_separation)) ImGui::Text("smallest gap %.3f cells", m.min_separation);
  else ImGui::TextDisabled("smallest gap: fewer than two units");
  help_marker("Smallest distance between two unit bodies (centre distance minus both radii) in any step so far; "
              "below 0 would be an overlap.");
  ImGui::Text("stuck %d now (%d steps), re-plans %d, wall contacts %d", m.stuck, m.stuck_steps, m.replans,
              m.wall_contacts);
  for (int i = 0; i < u.count(); ++i) {
    if (!u.unit_message(i).empty()) {
      ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "%s %d: %s", u.preset_of(i).c_str(), i, u.unit_message(i).c_str());
      break;  // one line is enough to say something is wrong; the hover label tells each
    }
  }
}

}  // namespace

void Sandbox::draw_units_panel() {
  if (!ImGui::CollapsingHeader("Units", ImGuiTreeNodeFlags_DefaultOpen)) return;
  spawn_controls(*this, unit_preset_);
  play_controls(*this);
  overlay_controls(*this, show_unit_paths_);
  metrics_lines(*units_);
}

}  // namespace pathlab::sandbox
