// The "Doors and trucks" panel (door_tools.hpp): picks the door or truck tool, edits the
// selected door (open at start, toggle times) or truck (size, speed, start, loop), and handles
// the tools' keys. Edits go straight into the scene; the sandbox turns them into undo steps.
#include <SDL.h>

#include <cstdio>

#include "canvas/door_tools.hpp"
#include "panels/panel.hpp"
#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

std::string times_text(const std::vector<double>& times) {
  std::string s;
  char buf[32];
  for (double t : times) {
    std::snprintf(buf, sizeof buf, "%s%g", s.empty() ? "" : ", ", t);
    s += buf;
  }
  return s;
}

/// Size, speed, start and loop of a truck (the selected one or the next one).
/// The sliders edit doubles, the scene's own type (issue 23): a value typed as 2.3 is saved as 2.3.
void truck_fields(Sandbox& sb, MovingObstacleDef& m) {
  static constexpr double kMinSize = 0.5, kMaxSize = 12.0, kMinSpeed = 0.1, kMaxSpeed = 20.0, kMinStart = 0.0, kMaxStart = 120.0;
  double size[2] = {m.half_extents.x * 2.0, m.half_extents.y * 2.0};
  if (ImGui::SliderScalarN(fit_label("size (length, width)", help_marker_width()).c_str(), ImGuiDataType_Double, size, 2, &kMinSize, &kMaxSize, "%.2f")) {
    m.half_extents = Vec2(std::clamp(size[0], kMinSize, kMaxSize) / 2.0, std::clamp(size[1], kMinSize, kMaxSize) / 2.0);
  }
  sb.remember_widget("truck size");
  double speed = m.speed, start = m.start_time;
  // "##truck": the Units section has a "speed" too; one ID for both made typing into one edit the other.
  if (ImGui::SliderScalar(fit_label("speed##truck", help_marker_width()).c_str(), ImGuiDataType_Double, &speed, &kMinSpeed, &kMaxSpeed, "%.2f cells/s"))
    m.speed = std::clamp(speed, kMinSpeed, kMaxSpeed);
  sb.remember_widget("truck speed");
  if (ImGui::SliderScalar(fit_label("start", help_marker_width()).c_str(), ImGuiDataType_Double, &start, &kMinStart, &kMaxStart, "%.1f s"))
    m.start_time = std::clamp(start, kMinStart, kMaxStart);
  sb.remember_widget("truck start");
  ImGui::Checkbox("loop", &m.loop);
  sb.remember_widget("truck loop");
  help_marker("A truck waits at its first route point until 'start', then drives the route; with loop it drives "
              "from the last point back to the first and on. It never drives into a unit: it waits.");
}

class DynamicPanel final : public Panel {
 public:
  void draw(Sandbox& sb) override {
    DynamicEdit& e = sb.dynamic_edit();
    io::Scene& scene = sb.scene();
    e.clamp_to(scene);
    keys(sb, e);
    if (!collapsing_header("Doors and trucks", ImGuiTreeNodeFlags_DefaultOpen)) return;
    int t = static_cast<int>(sb.tool());
    ImGui::RadioButton("door", &t, static_cast<int>(Tool::door));
    sb.remember_widget("door tool");
    same_line_if_fits(check_width("truck"));
    ImGui::RadioButton("truck", &t, static_cast<int>(Tool::truck));
    sb.remember_widget("truck tool");
    help_marker("door: drag a rectangle of cells; click a door to select it. truck: click route points, "
                "double-click or Enter ends the route; click a truck to select it. Delete removes the "
                "selection, Esc drops a route being clicked. Saved with the scene; Ctrl+Z undoes.");
    if (t != static_cast<int>(sb.tool())) sb.set_tool(static_cast<Tool>(t));
    text_wrapped_f("%zu doors, %zu trucks", scene.doors.size(), scene.moving_obstacles.size());
    if (!e.error.empty()) ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "%s", e.error.c_str());
    if (e.door >= 0) door_fields(sb, scene.doors[static_cast<size_t>(e.door)], e);
    else toggles_for_ = -1;
    if (e.truck >= 0) {
      ImGui::Text("truck %d: %zu route points", e.truck, scene.moving_obstacles[static_cast<size_t>(e.truck)].route.size());
      truck_fields(sb, scene.moving_obstacles[static_cast<size_t>(e.truck)]);
    } else if (sb.tool() == Tool::truck) {
      ImGui::Text("next truck: %zu route points", e.draft.size());
      truck_fields(sb, e.next_truck);
      if (ImGui::Button("End route")) finish_truck(scene, e);
      sb.remember_widget("end route");
    } else if (sb.tool() == Tool::door) {
      ImGui::Checkbox("next door open at start", &e.door_open);
    }
    if ((e.door >= 0 || e.truck >= 0) && ImGui::Button(e.door >= 0 ? "Delete door" : "Delete truck")) delete_selected(scene, e);
    sb.remember_widget("delete dynamic");
  }

 private:
  void keys(Sandbox& sb, DynamicEdit& e) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureKeyboard || io.KeyCtrl) return;
    if (!e.draft.empty() && (ImGui::IsKeyPressed(SDL_SCANCODE_RETURN, false) || ImGui::IsKeyPressed(SDL_SCANCODE_KP_ENTER, false)))
      finish_truck(sb.scene(), e);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) e.draft.clear();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Delete), false) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Backspace), false))
      delete_selected(sb.scene(), e);
  }

  void door_fields(Sandbox& sb, DoorDef& d, DynamicEdit& e) {
    ImGui::Text("door %d: cells (%d, %d) to (%d, %d)", e.door, d.lo.x, d.lo.y, d.hi.x, d.hi.y);
    const Crowd& c = sb.units().crowd();
    if (c.time() > 0.0 && e.door < c.door_count()) {
      // What the running crowd's door does now; "closing when clear": a unit is still in it.
      const DoorState state = c.door_state(e.door);
      ImGui::SameLine();
      if (state == DoorState::closing_when_clear) ImGui::TextColored(ImVec4(1.0f, 0.67f, 0.0f, 1.0f), "- %s", to_string(state));
      else ImGui::Text("- %s", to_string(state));
    }
    ImGui::Checkbox("open at start", &d.open_at_start);
    sb.remember_widget("door open");
    // The text follows the door unless it is being typed into.
    if (toggles_for_ != e.door || (!ImGui::IsAnyItemActive() && times_text(d.toggle_times) != buf_)) {
      std::snprintf(buf_, sizeof buf_, "%s", times_text(d.toggle_times).c_str());
      toggles_for_ = e.door;
    }
    ImGui::InputText(fit_label("toggle times (s)", help_marker_width()).c_str(), buf_, sizeof buf_);
    sb.remember_widget("door toggles");
    if (ImGui::IsItemDeactivatedAfterEdit()) {
      std::vector<double> times;
      e.error = parse_toggle_times(buf_, times);
      if (e.error.empty()) e.error = check_added_toggle_times(d.toggle_times, times, sb.units().time());
      if (e.error.empty()) d.toggle_times = std::move(times);
      else toggles_for_ = -1;  // show the door's times again
    }
    // The schedule counts from the last Reset: the clock it is read against.
    ImGui::Text("t = %.1f s (since Reset)", sb.units().time());
    sb.remember_widget("door clock");
    help_marker("The times at which the door switches between open and closed, increasing, e.g. \"2, 6.5\", "
                "in seconds since the last Reset; a time already past is refused. A door never closes on a "
                "unit: it stays open, 'closing when clear', until its cells are clear.");
  }

  char buf_[512] = {};
  int toggles_for_ = -1;
};

}  // namespace

std::unique_ptr<Panel> make_dynamic_panel() { return std::make_unique<DynamicPanel>(); }

}  // namespace pathlab::sandbox
