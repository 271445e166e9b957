// Plots of the current path: curvature, steering angle and planned speed along it, for a unit
// preset's limits, with a probe that marks the hovered distance on the map.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "inspect/inspector.hpp"
#include "pathlab/unit.hpp"
#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

const char* const kUnits[] = {"person", "car", "tank", "bear"};

float em() { return ImGui::GetFontSize() / 14.0f; }

}  // namespace

SpeedProfile plan_speed_profile(const std::vector<Vec2>& pts, const std::vector<double>& curvature, double max_speed,
                                double accel, double brake, double lateral_accel) {
  SpeedProfile p;
  const size_t n = pts.size();
  p.s.assign(n, 0.0);
  p.speed.assign(n, max_speed);
  p.curvature.assign(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) p.s[i] = p.s[i - 1] + glm::length(pts[i] - pts[i - 1]);
    const double k = i < curvature.size() ? std::abs(curvature[i]) : 0.0;
    p.curvature[i] = i < curvature.size() ? curvature[i] : 0.0;
    // v^2 * k <= lateral acceleration: the speed a bend allows.
    if (k > 1e-9) p.speed[i] = std::min(max_speed, std::sqrt(lateral_accel / k));
  }
  if (n == 0) return p;
  p.speed.front() = 0.0;  // starts from rest
  for (size_t i = 1; i < n; ++i)
    p.speed[i] = std::min(p.speed[i], std::sqrt(p.speed[i - 1] * p.speed[i - 1] + 2 * accel * (p.s[i] - p.s[i - 1])));
  p.speed.back() = 0.0;  // stops at the goal
  for (size_t i = n - 1; i-- > 0;)
    p.speed[i] = std::min(p.speed[i], std::sqrt(p.speed[i + 1] * p.speed[i + 1] + 2 * brake * (p.s[i + 1] - p.s[i])));
  return p;
}

/// The steering plot's bicycle model: steering angle = atan(wheelbase x curvature). The unit
/// presets have no wheelbase, so it is 1 cell for all of them. [Units: cells]
constexpr double kPlotWheelbase = 1.0;

void Inspector::rebuild_plot_data(const Sandbox& sb) {
  plot_plans_ = sb.plan().plans;
  const plan::PlanResult& p = sb.plan().result;
  plot_k_.clear();
  plot_v_.clear();
  plot_steer_.clear();
  profile_ = SpeedProfile{};
  if (!p.found || p.points.size() < 2) return;
  auto def = unit_preset(kUnits[plot_unit_]);
  if (!def) return;
  profile_ = plan_speed_profile(p.points, p.curvature, def->max_speed, def->acceleration, def->braking, def->max_lateral_accel);
  // Resample at equal distances: PlotLines spaces values evenly, so the x axis becomes distance.
  constexpr int kSamples = 240;
  const double len = profile_.s.back();
  plot_step_ = len / (kSamples - 1);
  size_t j = 1;
  for (int i = 0; i < kSamples; ++i) {
    const double s = plot_step_ * i;
    while (j + 1 < profile_.s.size() && profile_.s[j] < s) ++j;
    const double span = profile_.s[j] - profile_.s[j - 1];
    const double t = span > 0 ? std::clamp((s - profile_.s[j - 1]) / span, 0.0, 1.0) : 0.0;
    // Curvature is a property of the points; between them show the larger of the two neighbours
    // so a corner is never averaged away.
    const double k = std::abs(profile_.curvature[j - 1]) > std::abs(profile_.curvature[j]) ? profile_.curvature[j - 1]
                                                                                            : profile_.curvature[j];
    plot_k_.push_back(static_cast<float>(k));
    plot_steer_.push_back(static_cast<float>(rad_to_deg(std::atan(kPlotWheelbase * k))));
    plot_v_.push_back(static_cast<float>(profile_.speed[j - 1] + (profile_.speed[j] - profile_.speed[j - 1]) * t));
  }
}

namespace {

/// The smallest plot: 120 px, and room at a large UI scale for its title, its x labels and a
/// plot area of two lines' height (so the y labels at its top and bottom do not meet). [pixels]
float min_plot_height() { return std::max(120.0f, ImGui::GetTextLineHeight() * 4.5f + 10.0f * em()); }

/// A line plot with axes: y labelled with its name and unit and ticks at its range's ends (and
/// at 0 when there is room for a third label between them), x the distance along the path
/// [cells] from 0 to `length`. Hovering shows the distance and the value there. Returns the
/// hovered distance, or -1.
double plot_axes(const char* id, const char* name, const char* unit, const std::vector<float>& v, float lo, float hi,
                 double length, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeight();
  const float pad_l = ImGui::CalcTextSize("-0.00").x + 8 * em(), pad_b = line + 6 * em();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(size.x, 80.0f), std::max(size.y, min_plot_height())));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 a(o.x + pad_l, o.y + line + 2 * em()), b(ImGui::GetItemRectMax().x - 4 * em(), ImGui::GetItemRectMax().y - pad_b);
  const ImU32 axis = IM_COL32(180, 180, 180, 255), text = IM_COL32(220, 220, 220, 255);
  dl->AddRectFilled(a, b, IM_COL32(30, 34, 40, 255));
  char buf[96];
  // The title over the plot, without its unit when narrow (the hover tooltip says both), and
  // kept within the plot's own width so neighbours never overprint each other.
  std::snprintf(buf, sizeof buf, "%s [%s]", name, unit);
  const float title_x = ImGui::CalcTextSize(buf).x <= b.x - a.x ? a.x : o.x;
  if (ImGui::CalcTextSize(buf).x > b.x - o.x) std::snprintf(buf, sizeof buf, "%s", name);
  dl->PushClipRect(o, ImGui::GetItemRectMax(), true);
  dl->AddText(ImVec2(title_x, o.y), text, buf);
  dl->PopClipRect();
  auto y_of = [&](float val) { return b.y - (val - lo) / std::max(1e-6f, hi - lo) * (b.y - a.y); };
  // Each label is a line tall and centred on its tick (the top one held under the title): 0
  // only when it is well clear of both ends.
  std::vector<float> ticks{lo, hi};
  if (lo < 0 && hi > 0 && std::min(y_of(lo) - y_of(0.0f), y_of(0.0f) - y_of(hi)) >= line * 1.6f) ticks.push_back(0.0f);
  for (const float t : ticks) {
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(t));
    dl->AddText(ImVec2(o.x, std::max(y_of(t) - line * 0.5f, o.y + line)), text, buf);  // under the title
    dl->AddLine(ImVec2(a.x, y_of(t)), ImVec2(b.x, y_of(t)), IM_COL32(70, 75, 85, 255));
  }
  dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), axis);
  dl->AddLine(ImVec2(a.x, a.y), ImVec2(a.x, b.y), axis);
  dl->AddText(ImVec2(a.x, b.y + 2), text, "0");
  // The x label says what the axis is only when it fits beside the "0".
  std::snprintf(buf, sizeof buf, "distance along the path [cells]   %.1f", length);
  if (ImGui::CalcTextSize(buf).x > b.x - a.x - ImGui::CalcTextSize("0  ").x) std::snprintf(buf, sizeof buf, "%.1f cells", length);
  dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(buf).x, b.y + 2), text, buf);
  std::vector<ImVec2> pts;
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i)
    pts.push_back(ImVec2(a.x + (b.x - a.x) * static_cast<float>(i) / static_cast<float>(std::max<size_t>(1, n - 1)),
                         y_of(std::clamp(v[i], lo, hi))));
  dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(120, 200, 255, 255), 0, 1.5f * em());
  if (!hovered || n < 2) return -1.0;
  const float f = std::clamp((ImGui::GetIO().MousePos.x - a.x) / std::max(1.0f, b.x - a.x), 0.0f, 1.0f);
  const size_t i = static_cast<size_t>(std::lround(f * static_cast<float>(n - 1)));
  dl->AddLine(ImVec2(pts[i].x, a.y), ImVec2(pts[i].x, b.y), IM_COL32(255, 200, 60, 200));
  dl->AddCircleFilled(pts[i], 3.0f * em(), IM_COL32(255, 200, 60, 255));
  const double s = static_cast<double>(f) * length;
  ImGui::SetTooltip("distance %.2f cells\n%s %.3f %s", s, name, static_cast<double>(v[i]), unit);
  return s;
}

}  // namespace

void Inspector::tab_plots(Sandbox& sb) {
  probe_s_ = -1.0;  // set again below while a plot is hovered
  if (plot_plans_ != sb.plan().plans) rebuild_plot_data(sb);
  if (plot_k_.empty()) {
    plot_unit_row();
    ImGui::TextDisabled("No path to plot.");
    return;
  }
  // The three plots side by side first, filling the strip's height but for the unit's row
  // under them, never shorter than min_plot_height(): a shorter strip scrolls.
  const ImGuiStyle& st = ImGui::GetStyle();
  const float w = (ImGui::GetContentRegionAvail().x - 30 * em()) / 3.0f;
  const float h = std::max(min_plot_height(), ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeight() - st.ItemSpacing.y);
  const auto [kmin, kmax] = std::minmax_element(plot_k_.begin(), plot_k_.end());
  const float kabs = std::max({std::abs(*kmin), std::abs(*kmax), 0.05f});
  const double len = profile_.s.back();
  double s = plot_axes("##curv", "curvature", "1/cells", plot_k_, -kabs, kabs, len, ImVec2(w, h));
  remember("plot_curvature");
  ImGui::SameLine();
  const auto [amin, amax] = std::minmax_element(plot_steer_.begin(), plot_steer_.end());
  const float aabs = std::max({std::abs(*amin), std::abs(*amax), 5.0f});
  const double s1 = plot_axes("##steer", "steering angle", "deg", plot_steer_, -aabs, aabs, len, ImVec2(w, h));
  remember("plot_steering");
  if (s1 >= 0) s = s1;
  ImGui::SameLine();
  const float vmax = *std::max_element(plot_v_.begin(), plot_v_.end());
  const double s2 = plot_axes("##speed", "planned speed", "cells/s", plot_v_, 0.0f, std::max(0.1f, vmax * 1.1f), len, ImVec2(w, h));
  remember("plot_speed");
  if (s2 >= 0) s = s2;
  probe_s_ = s;  // -1 when neither plot is hovered: the marker on the map goes away
  help_marker("Top speed, slowed where v^2 * curvature would exceed the unit's lateral acceleration, accelerating "
              "from rest and braking to rest at the goal. Curvature of a polyline is the circle through each point "
              "and its neighbours, so grid corners show as spikes. Steering angle: atan(wheelbase x curvature) for a "
              "wheelbase of 1 cell; it jumps where an arc meets a line (Dubins, Reeds-Shepp) and ramps on the "
              "clothoids of the cc-dubins / cc-reeds-shepp curves. Hover a plot: the distance and value there, "
              "and the point on the map.");
  plot_unit_row();
}

void Inspector::plot_unit_row() {
  ImGui::SetNextItemWidth(120 * em());
  if (ImGui::Combo("unit", &plot_unit_, kUnits, IM_ARRAYSIZE(kUnits))) plot_plans_ = -1;
  help_marker("Whose limits shape the speed plot: top speed, acceleration, braking and the sideways acceleration "
              "it accepts in a bend (the core's unit presets).");
}

}  // namespace pathlab::sandbox
