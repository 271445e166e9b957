// The "Plan" and "Stats" sections of the sandbox panel: every planner and smoother the
// pipeline offers with the parameters that apply to the current choice, and what the last
// plan measured.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "pathlab/collision.hpp"
#include "pathlab/hermite.hpp"
#include "sandbox.hpp"
#include "inspect/inspector.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

using plan::OptionId;
using Remember = std::function<void(const char*)>;

/// A combo over MethodInfo names; the hovered entry's help shows as a tooltip. Its list is as
/// tall as the screen allows (the 12 planners without a scroll bar, where the default shows 8).
/// Remembered for scripted UI tests: the closed combo as `label`, each entry of the open list
/// as "label:name".
bool method_combo(const char* label, std::string& value, const std::vector<MethodInfo>& methods, const Remember& remember) {
  bool changed = false;
  const bool open = ImGui::BeginCombo(fit_label(label, help_marker_width()).c_str(), value.c_str(), ImGuiComboFlags_HeightLargest);
  if (!open) remember(label);  // once open, the last item is the list's window
  if (open) {
    for (const MethodInfo& m : methods) {
      const bool selected = value == m.name;
      if (ImGui::Selectable(m.name, selected)) {
        changed = value != m.name;
        value = m.name;
      }
      remember((std::string(label) + ":" + m.name).c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.help);
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

const char* help_of(const std::vector<MethodInfo>& methods, const std::string& name) {
  for (const MethodInfo& m : methods)
    if (name == m.name) return m.help;
  return "";
}

/// The "(?)" marker of a registry option: its meaning, its range and how to type a value.
void option_help(const plan::OptionInfo& o) {
  char range[192];
  std::snprintf(range, sizeof range, "\n\nCtrl+click the slider to type a value in [%g, %g]%s.", o.min, o.max,
                o.logarithmic ? "; the slider moves by ratios, finer at small values" : "");
  help_marker((std::string(o.help) + range).c_str());
}

/// A slider for a registry option (issue 14): the registry's span and scale, typed values
/// (Ctrl+click) kept within the option's range, and its help marker. It edits the double
/// itself (issue 23): a float slider widened 0.45 into 0.44999998807907104 in the saved scene.
bool option_slider(OptionId id, double& value, const Remember& remember) {
  const plan::OptionInfo& o = plan::option_info(id);
  double v = value;
  const ImGuiSliderFlags flags = o.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None;
  const bool changed = ImGui::SliderScalar(fit_label(o.label, help_marker_width()).c_str(), ImGuiDataType_Double, &v, &o.slider_min, &o.slider_max, o.format, flags);
  remember(o.label);
  option_help(o);
  if (!changed) return false;
  value = std::clamp(v, o.min, o.max);
  return true;
}

bool option_slider(OptionId id, int& value, const Remember& remember) {
  const plan::OptionInfo& o = plan::option_info(id);
  const ImGuiSliderFlags flags = o.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None;
  const bool changed = ImGui::SliderInt(fit_label(o.label, help_marker_width()).c_str(), &value, static_cast<int>(o.slider_min), static_cast<int>(o.slider_max),
                                        "%d", flags);
  remember(o.label);
  option_help(o);
  value = std::clamp(value, static_cast<int>(o.min), static_cast<int>(o.max));
  return changed;
}

bool applies(const plan::PlannerInfo& planner, OptionId id) { return (planner.options & plan::option_bit(id)) != 0; }

bool grid_search_rows(const plan::PlannerInfo& planner, io::PlanSettingsData& s, const Remember& remember) {
  bool changed = false;
  if (applies(planner, OptionId::connectivity)) {
    bool four = s.connectivity == 4;
    if (checkbox_fitted(plan::option_info(OptionId::connectivity).label, &four, help_marker_width())) {
      s.connectivity = four ? 4 : 8;
      changed = true;
    }
    help_marker(plan::option_info(OptionId::connectivity).help);
  }
  if (applies(planner, OptionId::turn_penalty)) changed |= option_slider(OptionId::turn_penalty, s.turn_penalty, remember);
  return changed;
}

bool smoother_rows(const plan::SmootherInfo& smoother, io::PlanSettingsData& s, const Remember& remember) {
  bool changed = false;
  if (smoother.spline) {
    changed |= option_slider(OptionId::subdivisions, s.subdivisions, remember);
    changed |= option_slider(OptionId::insert_min_chord, s.insert_min_chord, remember);
    if (s.insert_min_chord > 0 && s.insert_min_chord < 1) s.insert_min_chord = 1;
  }
  if (smoother.id == plan::SmootherId::edge_shift) {
    changed |= option_slider(OptionId::shift_margin, s.shift_margin, remember);
    changed |= option_slider(OptionId::shift_passes, s.shift_passes, remember);
  }
  return changed;
}

bool navmesh_rows(io::PlanSettingsData& s, const Remember& remember) {
  const plan::OptionInfo& o = plan::option_info(OptionId::navmesh_convex);
  bool changed = checkbox_fitted(o.label, &s.navmesh_convex, help_marker_width());
  remember(o.label);
  help_marker(o.help);
  const plan::OptionInfo& c = plan::option_info(OptionId::navmesh_corners);
  changed |= checkbox_fitted(c.label, &s.navmesh_corners, help_marker_width());
  remember(c.label);
  help_marker(c.help);
  return changed;
}

bool directional_rows(io::PlanSettingsData& s, const Remember& remember) {
  // The values scene files accept; 0 lets the core size the moves to the turning radius.
  static const int kHoods[] = {0, 4, 8, 24, 48};
  static const char* const kHoodNames[] = {"auto (sized to the radius)", "4 (adjacent)", "8 (adjacent + diagonal)",
                                           "24 (5x5)", "48 (7x7)"};
  const plan::OptionInfo& o = plan::option_info(OptionId::neighborhood);
  int h = 0;
  for (int i = 0; i < 5; ++i)
    if (kHoods[i] == s.neighborhood) h = i;
  bool changed = false;
  if (ImGui::Combo(fit_label(o.label, help_marker_width()).c_str(), &h, kHoodNames, 5)) {
    s.neighborhood = kHoods[h];
    changed = true;
  }
  remember(o.label);
  help_marker(o.help);
  return changed;
}

bool hybrid_rows(io::PlanSettingsData& s, const Remember& remember) {
  bool changed = option_slider(OptionId::heading_bins, s.headings, remember);
  const plan::OptionInfo& reverse = plan::option_info(OptionId::reverse);
  if (checkbox_fitted(reverse.label, &s.reverse, help_marker_width())) changed = true;
  help_marker(reverse.help);
  if (s.reverse) {
    changed |= option_slider(OptionId::reverse_penalty, s.reverse_penalty, remember);
    changed |= option_slider(OptionId::gear_change_penalty, s.gear_change_penalty, remember);
    changed |= option_slider(OptionId::min_gear_length, s.min_gear_length, remember);
  }
  return changed;
}

}  // namespace

void Sandbox::draw_plan_panel() {
  if (!collapsing_header("Plan", ImGuiTreeNodeFlags_DefaultOpen)) return;
  io::PlanSettingsData& s = scene_.settings;
  const Remember remember = [this](const char* label) { remember_widget(label); };
  bool changed = false;
  if (method_combo("planner", s.planner, planner_methods(), remember)) {
    normalize_settings(s);
    changed = true;
  }
  help_marker(help_of(planner_methods(), s.planner));
  const plan::PlannerInfo* planner = plan::find_planner(s.planner);
  if (!planner) return;  // the pipeline reports the unknown name
  if (planner->family != plan::PlannerFamily::curve) {
    changed |= method_combo("smoother", s.smoother, smoother_methods(s.planner), remember);
    help_marker(help_of(smoother_methods(s.planner), s.smoother));
  }
  if (planner->family == plan::PlannerFamily::grid) changed |= grid_search_rows(*planner, s, remember);
  const bool radius_changed = option_slider(OptionId::agent_radius, s.agent_radius, remember);
  if (const plan::SmootherInfo* smoother = plan::find_smoother(s.smoother, planner->family))
    changed |= smoother_rows(*smoother, s, remember);
  if (applies(*planner, OptionId::navmesh_convex)) changed |= navmesh_rows(s, remember);
  changed |= option_slider(OptionId::turning_radius, s.turning_radius, remember);
  if (applies(*planner, OptionId::neighborhood)) changed |= directional_rows(s, remember);
  if (applies(*planner, OptionId::heading_bins)) changed |= hybrid_rows(s, remember);
  const plan::SmootherInfo* smoother = plan::find_smoother(s.smoother, planner->family);
  if (applies(*planner, OptionId::cc) || (smoother && (smoother->options & plan::option_bit(OptionId::cc)) != 0)) {
    const plan::OptionInfo& cc = plan::option_info(OptionId::cc);
    if (checkbox_fitted(cc.label, &s.cc, help_marker_width())) changed = true;
    remember(cc.label);
    help_marker(cc.help);
  }

  if (checkbox_fitted("show search", &show_search_, help_marker_width())) changed = true;
  help_marker("Grid searches: closed cells in blue, the open frontier in yellow. Navmesh: the corridor's polygons.");
  same_line_if_fits(check_width("raw path") + help_marker_width());
  checkbox_fitted("raw path", &show_raw_path_, help_marker_width());
  help_marker("Draw the planner's waypoints before smoothing as a thin grey line.");
  checkbox_fitted("curvature colours", &show_curvature_, help_marker_width());
  help_marker("Colour the path by curvature: green gentle, red at the turning-radius limit or tighter.");
  if (radius_changed) map_changed();  // also clears the navmesh for the old radius
  else if (changed) plan_dirty_ = true;
}

void Sandbox::draw_stats_panel() {
  if (!collapsing_header("Stats", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const PlanView& p = plan_;
  if (!p.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "cannot plan:");
    text_wrapped_f("%s", p.error.c_str());
  } else if (!p.result.found) {
    ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "no path:");
    text_wrapped_f("%s", p.result.reason.empty() ? "the goal cannot be reached" : p.result.reason.c_str());
  } else {
    text_wrapped_f("length      %.3f cells", p.result.length);
    text_wrapped_f("points      %zu", p.result.points.size());
    if (!p.result.word.empty()) {
      text_wrapped_f("curve       %s", p.result.word.c_str());
      // The words keep the maths frame (OMPL's and the CLI's), which the y-down map mirrors.
      help_marker("The curve's pieces in order: L and R turns, S straight, + forward, - reverse. As in the "
                  "CLI and OMPL, L and R are named in the maths frame: the map's y grows down, so on screen "
                  "an L piece turns clockwise (right, seen from the driver) and an R piece anticlockwise.");
    }
    if (p.result.max_curvature > 0) {
      text_wrapped_f("max curv.   %.3f /cell (r %.2f)", p.result.max_curvature, 1.0 / p.result.max_curvature);
    } else {
      ImGui::Text("max curv.   0 (straight)");
    }
    help_marker(p.result.curvature_exact
                    ? "Measured on the curve itself (the spline or the arcs)."
                    : "A polyline's corners are sharp; this is the circle through each corner and its neighbours, "
                      "a comparison figure rather than a drivable radius.");
    if (p.result.sharp_corners > 0) text_wrapped_f("corners     %d sharper than 30 deg", p.result.sharp_corners);
  }
  text_wrapped_f("expanded    %lld nodes", static_cast<long long>(p.result.expanded));
  if (const ReplayModel& r = inspector_->replay(); !r.empty() && r.steps() != p.result.expanded) {
    // Both numbers are on screen: say why the replay has a step more than the expansions.
    // Wrapped at the panel's visible edge (draw_panel's wrap position).
    ImGui::TextDisabled("replay: %s", ReplayModel::steps_vs_expanded(r.steps(), p.result.expanded).c_str());
  }
  text_wrapped_f("plan time   %.3f ms", p.result.time_ms);
  if (p.result.found) {
    if (p.result.violations.empty()) {
      ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1), "no violations");
    } else {
      ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%zu violation(s):", p.result.violations.size());
      for (const std::string& v : p.result.violations) {
        ImGui::Bullet();
        text_wrapped_f("%s", v.c_str());
      }
    }
  }
  // A long note wraps at the panel's visible edge (draw_panel's wrap position) instead of being cut.
  for (const std::string& n : p.result.notes) ImGui::TextDisabled("note: %s", n.c_str());
}

}  // namespace pathlab::sandbox
