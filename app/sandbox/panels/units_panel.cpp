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
  if (ImGui::BeginCombo(fit_label("preset", help_marker_width()).c_str(), names[static_cast<size_t>(preset)].c_str())) {
    for (size_t i = 0; i < names.size(); ++i)
      if (ImGui::Selectable(names[i].c_str(), static_cast<int>(i) == preset)) preset = static_cast<int>(i);
    ImGui::EndCombo();
  }
  help_marker("The core's presets (after Pinter 2001): a person turns on the spot, a car needs a 2-cell circle and may "
              "back up, a tank pivots slowly, a bear runs fast with a 1.5-cell turn.");
  if (ImGui::Button("Spawn unit")) {
    const std::string e = u.spawn(sb.scene(), names[static_cast<size_t>(preset)], sb.scene().start);
    sb.set_status(e.empty() ? std::to_string(u.count()) + " units" : e, !e.empty());
  }
  sb.remember_widget("Spawn at start");
  help_marker("One unit of the preset at the start pose (the nearest free spot when others stand there).");
  // Logarithmic: 1 to 40 keeps most of the slider; Ctrl+click types a number, which may be
  // beyond the cap (not clamped: the user is told why it will not spawn).
  ImGui::SliderInt(fit_label("crowd size", help_marker_width()).c_str(), &c.spawn_count, 1, kMaxUnits, "%d",
                   ImGuiSliderFlags_Logarithmic);
  sb.remember_widget("crowd size");
  help_marker("Units the spawn-area tool adds per drag (or per click, in a square round it): 1 to 10,000, and "
              "at most 10,000 units in all. Ctrl+click the slider to type a number.");
  if (c.spawn_count < 1 || c.spawn_count > kMaxUnits)
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "crowd size: 1 to %d", kMaxUnits);
  ImGui::TextUnformatted("mix");
  for (size_t i = 0; i < names.size() && i < c.mix.size(); ++i) {
    same_line_if_fits(ImGui::GetFontSize() * 2.2f);
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
  same_line_if_fits(check_width("spawn area"));
  ImGui::RadioButton("spawn area", &t, static_cast<int>(Tool::spawn_area));
  sb.remember_widget("spawn area");
  sb.set_tool(static_cast<Tool>(t));
  help_marker("select: drag a box (shift adds), click a unit, click a door to open or close it; then "
              "right-click to send the selection there (right-drag sets the heading). spawn area: drag a "
              "rectangle to fill it with the crowd.");
}

/// The crowd's thread count (hidden where only one thread can run: the web page).
void threads_control(Sandbox& sb) {
  UnitSwarm& u = sb.units();
  int threads = u.threads();
  if (ImGui::SliderInt(fit_label("threads##crowd", help_marker_width()).c_str(), &threads, 1, UnitSwarm::kMaxThreads))
    u.set_threads(threads);
  sb.remember_widget("crowd threads");
  help_marker("Threads the crowd's step runs on: each unit's neighbours and avoidance are worked out on them "
              "(the other phases run in unit order). The run is the same bytes with any count; more threads "
              "only make a large crowd's step faster, up to the machine's cores. A recording under way keeps "
              "its count until Reset.");
}

void play_controls(Sandbox& sb) {
  UnitSwarm& u = sb.units();
  if (ImGui::Button(u.playing() ? "Pause" : "Play")) u.set_playing(!u.playing());
  same_line_if_fits(button_width("Step"));
  if (ImGui::Button("Step")) {
    u.set_playing(false);
    u.step(sb.scene());
  }
  help_marker("Step: pause and advance exactly one fixed step (1/60 s of simulated time).");
  // A double, the scene's own type (issue 23): a typed 1.3 is saved as 1.3.
  static constexpr double kMinSpeed = 0.1, kMaxSpeed = 8.0;
  double speed = u.speed();
  if (ImGui::SliderScalar(fit_label("speed##sim", help_marker_width()).c_str(), ImGuiDataType_Double, &speed, &kMinSpeed, &kMaxSpeed, "%.2fx", ImGuiSliderFlags_Logarithmic))
    u.set_speed(speed);
  sb.remember_widget("sim speed");
  help_marker("Simulated seconds per real second. The crowd runs fixed 1/60 s steps, so the trajectories are "
              "the same at any speed.");
  if (UnitSwarm::kMaxThreads > 1) threads_control(sb);  // not in the web page: it has one thread
  if (ImGui::Button("Reset")) {
    const size_t held = u.unplaced().size();
    u.reset(sb.scene());
    // The load's "not placed" message would read as still true: say how it stands now.
    if (held > 0 && u.unplaced().empty()) sb.set_status("Reset: every unit placed (" + std::to_string(u.count()) + ")", false);
    else if (held > 0) sb.set_status("Reset: " + std::to_string(u.unplaced().size()) + " unit(s) still not placed (Units panel)", true);
  }
  help_marker("Puts every unit back at its spawn pose, at rest; doors and trucks start over. Units not placed "
              "(listed in red below) are placed where there is room now.");
  same_line_if_fits(button_width("Remove all"));
  if (ImGui::Button("Remove all")) u.clear(sb.scene());
}

void overlay_controls(Sandbox& sb, bool& routes) {
  CrowdOverlays& o = sb.crowd_ui().overlays;
  checkbox_fitted("Draw unit routes", &routes, help_marker_width());
  sb.remember_widget("Draw unit routes");
  help_marker("Each unit's own remaining route in its colour: exactly what it will drive, planned by the scene's "
              "planner and smoother with the unit's radius and turning radius (no other planner stands in). A "
              "unit whose planner found no route has none: it stays put with a red ! badge (hover it for why). "
              "With more than 500 units only the selected units' routes are drawn.");
  checkbox_fitted("steer points", &sb.inspector().overlays().lookahead, help_marker_width());
  help_marker("steer points: the waypoint each unit heads for (orange).");
  ImGui::Checkbox("neighbours", &o.neighbours);
  same_line_if_fits(check_width("velocities"));
  ImGui::Checkbox("velocities", &o.velocities);
  help_marker("neighbours: a line to each unit the avoidance considered this step. velocities (one second of "
              "travel): blue what the route asks for, pink what ORCA avoidance chose (as RecastDemo's crowd tool).");
  ImGui::Checkbox("stuck", &o.stuck);
  same_line_if_fits(check_width("doors"));
  ImGui::Checkbox("doors", &o.doors);
  same_line_if_fits(check_width("trucks"));
  ImGui::Checkbox("trucks", &o.trucks);
  same_line_if_fits(check_width("legend"));
  ImGui::Checkbox("legend", &o.legend);
  help_marker("stuck: red ring = no progress, amber = waiting for a route (e.g. a door is shut). doors: shut ones "
              "brown with a cross, open ones green outlines. trucks: the moving obstacles' routes.");
  checkbox_fitted("flow field", &o.flow_field, help_marker_width());
  sb.remember_widget("flow field");
  help_marker("The flow field of the selected group's goal (the first selected unit's goal cell and size): the "
              "cost of the cheapest way to the goal from every cell, yellow near it, purple far, none where the "
              "goal cannot be reached; arrows point down the field (the step each cell's cost comes through). "
              "When 32 or more persons are sent to one goal and the scene plans with astar or dijkstra + los "
              "(8-connected, no turn penalty), their routes are read from this field instead of a search "
              "each. Select units, right-click to send them, then tick this.");
  if (o.flow_field && sb.units().selection().empty()) ImGui::TextDisabled("select units to see their field");
  else if (o.flow_field && !sb.crowd_ui().flow_field().error().empty())
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "no field: %s", sb.crowd_ui().flow_field().error().c_str());
}

/// Units that wait for a plan or whose planner failed, each with its reason in full: wrapped
/// at the panel's edge (never cut off), at most kShown of them (the hover label tells each).
void unit_messages(const UnitSwarm& u) {
  constexpr int kShown = 6;
  int failed = 0, planning = 0, shown = 0, more = 0;
  for (int i = 0; i < u.count(); ++i) {
    failed += u.plan_failed(i) ? 1 : 0;
    planning += u.planning(i) ? 1 : 0;
  }
  if (failed > 0) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%d unit(s) without a route: they stay put", failed);
  if (planning > 0) ImGui::TextColored(ImVec4(1, 0.75f, 0.2f, 1), "%d unit(s) planning", planning);
  // Wrapped at the panel's visible edge (draw_panel's wrap position: 0 would be its content's
  // edge, which a wide row pushes out).
  for (int i = 0; i < u.count(); ++i) {
    if (u.unit_message(i).empty()) continue;
    if (shown == kShown) {
      ++more;
      continue;
    }
    ++shown;
    ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "%s %d: %s", u.preset_of(i).c_str(), u.list_index(i),
                       u.unit_message(i).c_str());
  }
  if (more > 0) ImGui::TextDisabled("... and %d more (hover a unit)", more);
}

/// The scene's units that cannot be placed (UnplacedUnit): kept in the scene, each on a red line
/// with its index in the scene's list and its reason in full (wrapped at the panel's edge; the
/// hover shows it too), an "x" to delete it from the scene. At most kShown lines.
void unplaced_lines(Sandbox& sb) {
  constexpr size_t kShown = 8;
  UnitSwarm& u = sb.units();
  const auto& held = u.unplaced();
  if (held.empty()) return;
  const ImVec4 red(1.0f, 0.4f, 0.35f, 1.0f);
  ImGui::TextColored(red, "%zu unit(s) not placed", held.size());
  help_marker("Units of the scene that cannot stand where the scene puts them (a wall painted over their start, "
              "a map made smaller, no free spot near it). They stay in the scene exactly as they were, in their "
              "places in the unit list: Save, the autosave and Copy CLI write them back unchanged. Reset places "
              "them once there is room (erase the wall first). x deletes one from the scene.");
  for (size_t k = 0; k < held.size() && k < kShown; ++k) {
    const UnplacedUnit& h = held[k];
    ImGui::PushID(static_cast<int>(k));
    const bool remove = ImGui::SmallButton("x");
    if (k == 0) sb.remember_widget("remove not placed");
    hover_tooltip("Delete this unit from the scene (Ctrl+Z brings it back)");
    ImGui::SameLine();
    const std::string line = "units[" + std::to_string(h.index) + "] " + h.data.preset + ": " + h.reason;
    ImGui::PushStyleColor(ImGuiCol_Text, red);
    text_wrapped_f("%s", line.c_str());
    ImGui::PopStyleColor();
    hover_tooltip(line.c_str());
    ImGui::PopID();
    if (remove) {
      sb.set_status("deleted units[" + std::to_string(h.index) + "] (" + h.data.preset + ", not placed) from the scene", false);
      (void)u.remove_unplaced(k);
      break;  // the list changed under the loop
    }
  }
  if (held.size() > kShown) ImGui::TextDisabled("... and %zu more not placed", held.size() - kShown);
}

void metrics_lines(const UnitSwarm& u) {
  const SwarmMetrics m = u.metrics();
  text_wrapped_f("%d units, %d arrived, t = %.1f s, %zu selected", u.count(), m.arrived, u.time(), u.selection().size());
  if (std::isfinite(m.min_separation)) text_wrapped_f("smallest gap %.3f cells", m.min_separation);
  else text_wrapped_f("smallest gap: fewer than two units");
  help_marker("Smallest distance between two unit bodies (centre distance minus both radii) in any step so far; "
              "below 0 would be an overlap.");
  text_wrapped_f("stuck %d now (%d steps), re-plans %d, wall contacts %d", m.stuck, m.stuck_steps, m.replans,
              m.wall_contacts);
  unit_messages(u);
}

}  // namespace

void Sandbox::draw_units_panel() {
  if (!collapsing_header("Units", ImGuiTreeNodeFlags_DefaultOpen)) return;
  spawn_controls(*this, unit_preset_);
  play_controls(*this);
  overlay_controls(*this, show_unit_paths_);
  metrics_lines(*units_);
  unplaced_lines(*this);
}

}  // namespace pathlab::sandbox
