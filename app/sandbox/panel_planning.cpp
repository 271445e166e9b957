// The "Plan" and "Stats" sections of the sandbox panel: every planner and smoother the
// pipeline offers with the parameters that apply to the current choice, and what the last
// plan measured.

#include <cmath>

#include "pathlab/collision.hpp"
#include "pathlab/hermite.hpp"
#include "sandbox.hpp"
#include "ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

/// A combo over MethodInfo names; the hovered entry's help shows as a tooltip.
bool method_combo(const char* label, std::string& value, const std::vector<MethodInfo>& methods) {
  bool changed = false;
  if (ImGui::BeginCombo(label, value.c_str())) {
    for (const MethodInfo& m : methods) {
      const bool selected = value == m.name;
      if (ImGui::Selectable(m.name, selected)) {
        changed = value != m.name;
        value = m.name;
      }
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

bool slider_double(const char* label, double& v, float lo, float hi, const char* fmt = "%.2f") {
  float f = static_cast<float>(v);
  if (!ImGui::SliderFloat(label, &f, lo, hi, fmt)) return false;
  v = f;
  return true;
}

}  // namespace

void Sandbox::draw_plan_panel() {
  if (!ImGui::CollapsingHeader("Plan", ImGuiTreeNodeFlags_DefaultOpen)) return;
  io::PlanSettingsData& s = scene_.settings;
  bool changed = false;
  bool radius_changed = false;
  if (method_combo("planner", s.planner, planner_methods())) {
    normalize_settings(s);
    changed = true;
  }
  help_marker(help_of(planner_methods(), s.planner));
  const PlannerFamily family = planner_family(s.planner);
  if (family != PlannerFamily::curve) {
    changed |= method_combo("smoother", s.smoother, smoother_methods(s.planner));
    help_marker(help_of(smoother_methods(s.planner), s.smoother));
  }

  if (family == PlannerFamily::grid) {
    const bool penalised = s.planner == "astar" || s.planner == "dijkstra";
    bool four = s.connectivity == 4;
    if (penalised) {
      if (ImGui::Checkbox("4-connected", &four)) {
        s.connectivity = four ? 4 : 8;
        changed = true;
      }
      help_marker("Moves along rows and columns only, no diagonals (A* and Dijkstra; JPS and Theta* are 8-connected).");
      changed |= slider_double("turn penalty", s.turn_penalty, 0.0f, 2.0f);
      help_marker("Extra cost for each change of direction, as a fraction of the step (seed 003: 0.5). "
                  "Straighter paths; the search expands more nodes.");
    }
  }
  radius_changed |= slider_double("agent radius", s.agent_radius, 0.0f, 4.0f);
  help_marker("The unit's radius in cells: paths keep this clearance from walls (grid searches, splines "
              "and the navmesh). Curve planners only check it and report a violation.");

  if (family == PlannerFamily::grid && is_spline_smoother(s.smoother)) {
    if (ImGui::SliderInt("subdivisions", &s.subdivisions, 1, 64)) changed = true;
    remember_widget("subdivisions");
    help_marker("Output points per spline span: more points follow the curve more closely (ctrl+click to type up to 4096).");
    s.subdivisions = std::clamp(s.subdivisions, 1, kMaxSubdivisions);
    changed |= slider_double("insert chord", s.insert_min_chord, 0.0f, 16.0f, "%.1f cells");
    help_marker("Repair step 1: a span whose chord is at least this long gets control points inserted near its ends, "
                "so the bend stays near the corner. 0 turns insertion off (values in (0, 1) count as 1).");
    if (s.insert_min_chord > 0 && s.insert_min_chord < 1) s.insert_min_chord = 1;
  }
  if (family == PlannerFamily::navmesh) {
    if (ImGui::Checkbox("convex polygons", &s.navmesh_convex)) changed = true;
    remember_widget("convex polygons");
    help_marker("On: rectangles are cut at staircase corners and merged into larger convex polygons, so a corridor "
                "crosses fewer of them and the search expands fewer. Off: the seed's grid-shaped mesh of rectangles "
                "(builds about 3x faster). The exact search finds the same shortest paths on either.");
  }
  if (family == PlannerFamily::navmesh && s.smoother == "edge-shift") {
    changed |= slider_double("shift margin", s.shift_margin, 0.0f, 1.0f, "%.3f cells");
    help_marker("How far each node stays from the ends of the edge it slides on.");
    if (ImGui::SliderInt("shift passes", &s.shift_passes, 0, 16)) changed = true;
    help_marker("Passes of string pulling over the nodes; 0 keeps the polygon centres.");
  }
  changed |= slider_double("turning radius", s.turning_radius, 0.1f, 16.0f, "%.2f cells");
  help_marker("Curve and heading-aware planners and the turning smoother drive circles of this radius. For splines "
              "it is the limit the stats panel checks the curvature against.");
  if (s.turning_radius < 0.1) s.turning_radius = 0.1;
  if (s.planner == "directional") {
    // The values scene files accept; 0 lets the core size the moves to the turning radius.
    static const int kHoods[] = {0, 4, 8, 24, 48};
    static const char* const kHoodNames[] = {"auto (sized to the radius)", "4 (adjacent)", "8 (adjacent + diagonal)",
                                             "24 (5x5)", "48 (7x7)"};
    int h = 0;
    for (int i = 0; i < 5; ++i)
      if (kHoods[i] == s.neighborhood) h = i;
    if (ImGui::Combo("neighbourhood", &h, kHoodNames, 5)) {
      s.neighborhood = kHoods[h];
      changed = true;
    }
    remember_widget("neighbourhood");
    help_marker("Cells one move of directional A* may reach. Larger: smoother, shorter paths and more turns possible "
                "for a given radius, slower search. The seed's fixed neighbourhoods only turn for radii up to about 2; auto "
                "reaches as far as the turning radius needs.");
  }
  if (s.planner == "hybrid") {
    if (ImGui::SliderInt("heading bins", &s.headings, 8, 360)) changed = true;
    remember_widget("heading bins");
    help_marker("Hybrid A*'s heading resolution: poses in the same cell whose headings fall in the same bin count as "
                "one. More bins find paths through tighter places; the search grows with them.");
    s.headings = std::clamp(s.headings, 8, 720);
    if (ImGui::Checkbox("reverse", &s.reverse)) changed = true;
    help_marker("Hybrid A* may drive backwards (three-point turns). For the curve planners pick reeds-shepp.");
    if (s.reverse) {
      changed |= slider_double("reverse penalty", s.reverse_penalty, 1.0f, 10.0f, "%.1fx");
      help_marker("Cost multiplier on reversed length.");
      changed |= slider_double("gear change", s.gear_change_penalty, 0.0f, 20.0f, "%.1f cells");
      help_marker("Extra cost for each change between forward and reverse.");
    }
  }

  if (ImGui::Checkbox("show search", &show_search_)) changed = true;
  help_marker("Grid searches: closed cells in blue, the open frontier in yellow. Navmesh: the corridor's polygons.");
  ImGui::SameLine();
  ImGui::Checkbox("raw path", &show_raw_path_);
  help_marker("Draw the planner's waypoints before smoothing as a thin grey line.");
  ImGui::Checkbox("curvature colours", &show_curvature_);
  help_marker("Colour the path by curvature: green gentle, red at the turning-radius limit or tighter.");
  if (radius_changed) map_changed();  // also clears the navmesh for the old radius
  else if (changed) plan_dirty_ = true;
}

void Sandbox::draw_stats_panel() {
  if (!ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const PlanView& p = plan_;
  if (!p.error.empty()) {
    ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "cannot plan:");
    ImGui::TextWrapped("%s", p.error.c_str());
  } else if (!p.found) {
    ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "no path:");
    ImGui::TextWrapped("%s", p.reason.empty() ? "the goal cannot be reached" : p.reason.c_str());
  } else {
    ImGui::Text("length      %.3f cells", p.length);
    ImGui::Text("points      %zu", p.points.size());
    if (!p.word.empty()) ImGui::Text("curve       %s", p.word.c_str());
    if (p.max_curvature > 0) {
      ImGui::Text("max curv.   %.3f /cell (r %.2f)", p.max_curvature, 1.0 / p.max_curvature);
    } else {
      ImGui::Text("max curv.   0 (straight)");
    }
    help_marker(p.curvature_exact
                    ? "Measured on the curve itself (the spline or the arcs)."
                    : "A polyline's corners are sharp; this is the circle through each corner and its neighbours, "
                      "a comparison figure rather than a drivable radius.");
    if (p.sharp_corners > 0) ImGui::Text("corners     %d sharper than 30 deg", p.sharp_corners);
  }
  ImGui::Text("expanded    %lld nodes", static_cast<long long>(p.expanded));
  ImGui::Text("plan time   %.3f ms", p.time_ms);
  if (p.found) {
    if (p.violations.empty()) {
      ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1), "no violations");
    } else {
      ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%zu violation(s):", p.violations.size());
      for (const std::string& v : p.violations) {
        ImGui::Bullet();
        ImGui::TextWrapped("%s", v.c_str());
      }
    }
  }
  for (const std::string& n : p.notes) ImGui::TextDisabled("note: %s", n.c_str());
}

}  // namespace pathlab::sandbox
