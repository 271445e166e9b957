// Compare mode and plots: several planner/smoother combinations on one scene with a legend and
// a table, and curvature / planned speed along the current path.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "inspector.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/unit.hpp"
#include "sandbox.hpp"
#include "ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

constexpr double kClearanceCap = 10.0;
const char* const kUnits[] = {"person", "car", "tank", "bear"};

struct Combo {
  plan::PlannerId planner;
  plan::SmootherId smoother;
  ImU32 colour;
  bool on;
};
// Colours far apart from each other and from the map's greys, the path red and the search tints.
using P = plan::PlannerId;
using S = plan::SmootherId;
const Combo kCombos[] = {
    {P::astar, S::none, IM_COL32(230, 60, 50, 255), true},
    {P::astar, S::los, IM_COL32(40, 150, 60, 255), true},
    {P::astar, S::centripetal, IM_COL32(30, 90, 220, 255), true},
    {P::theta, S::none, IM_COL32(230, 140, 0, 255), true},
    {P::navmesh, S::funnel, IM_COL32(170, 40, 190, 255), true},
    {P::navmesh, S::edge_shift, IM_COL32(0, 160, 170, 255), false},
    {P::jps, S::catmull_rom, IM_COL32(120, 80, 40, 255), false},
    {P::astar, S::hermite, IM_COL32(90, 90, 90, 255), false},
    {P::dubins, S::none, IM_COL32(220, 0, 120, 255), false},
};

}  // namespace

double path_clearance(const Grid& grid, const std::vector<Vec2>& pts, double cap) {
  if (pts.empty()) return 0.0;
  double best = cap;
  const int reach = static_cast<int>(std::ceil(cap));
  for (size_t i = 0; i < pts.size(); ++i) {
    const Vec2 a = pts[i], b = i + 1 < pts.size() ? pts[i + 1] : pts[i];
    // The map's outside is a wall: the distance to the border is linear along a segment, so its
    // minimum is at an end.
    for (const Vec2& q : {a, b})
      best = std::min({best, q.x, q.y, grid.width() - q.x, grid.height() - q.y});
    const int x0 = std::max(0, static_cast<int>(std::floor(std::min(a.x, b.x))) - reach);
    const int x1 = std::min(grid.width() - 1, static_cast<int>(std::floor(std::max(a.x, b.x))) + reach);
    const int y0 = std::max(0, static_cast<int>(std::floor(std::min(a.y, b.y))) - reach);
    const int y1 = std::min(grid.height() - 1, static_cast<int>(std::floor(std::max(a.y, b.y))) + reach);
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        if (grid.is_blocked(x, y)) best = std::min(best, segment_box_distance(a, b, Vec2(x, y), Vec2(x + 1, y + 1)));
  }
  return std::max(0.0, best);
}

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

void Inspector::run_compare(Sandbox& sb) {
  if (compare_.empty()) {
    for (const Combo& c : kCombos) {
      CompareRun r;
      r.planner = plan::planner_name(c.planner);
      r.smoother = plan::smoother_name(c.smoother);
      r.colour = c.colour;
      r.enabled = c.on;
      compare_.push_back(std::move(r));
    }
  }
  if (!compare_pipeline_) compare_pipeline_ = std::make_unique<PlanPipeline>();
  compare_pipeline_->map_changed();  // the map may have been edited since the last run
  io::Scene sc = sb.scene();         // one copy: the pipeline keys its cache on the grid's address
  for (CompareRun& r : compare_) {
    r.view = PlanView{};
    r.clearance = 0.0;
    if (!r.enabled) continue;
    sc.settings = sb.scene().settings;
    sc.settings.planner = r.planner;
    sc.settings.smoother = r.smoother;
    normalize_settings(sc.settings);
    r.view = compare_pipeline_->plan(sc, false);
    if (r.view.found) r.clearance = path_clearance(sc.grid, r.view.points, kClearanceCap);
  }
  compare_plans_ = sb.plan().plans;
  compare_visible_ = true;
}

void Inspector::tab_compare(Sandbox& sb) {
  if (compare_.empty()) run_compare(sb), compare_visible_ = false;
  if (ImGui::Checkbox("draw on the map", &compare_visible_) && compare_visible_) run_compare(sb);
  remember("compare_show");
  help_marker("Draws every ticked combination on the canvas in its colour, with a legend. Key: M.");
  ImGui::SameLine();
  if (ImGui::Button("Run again")) run_compare(sb);
  remember("compare_run");
  help_marker("Plans the scene once per ticked row with the scene's other settings (radius, turn penalty, "
              "subdivisions...). Re-runs by itself when the scene changes while shown.");
  ImGui::SameLine();
  ImGui::TextDisabled("clearance: nearest wall or map edge, capped at %.0f", kClearanceCap);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("compare", 7, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("planner / smoother", ImGuiTableColumnFlags_WidthFixed, 230);
    ImGui::TableSetupColumn("length");
    ImGui::TableSetupColumn("time ms");
    ImGui::TableSetupColumn("nodes");
    ImGui::TableSetupColumn("max curvature");
    ImGui::TableSetupColumn("clearance");
    ImGui::TableSetupColumn("notes", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < compare_.size(); ++i) {
      CompareRun& r = compare_[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      const ImVec4 col = ImGui::ColorConvertU32ToFloat4(r.colour);
      ImGui::ColorButton("##c", col, ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
      ImGui::SameLine();
      const std::string label = r.planner + " / " + r.smoother;
      if (ImGui::Checkbox(label.c_str(), &r.enabled)) run_compare(sb);
      remember(("compare:" + label).c_str());
      ImGui::PopID();
      if (!r.enabled) continue;
      const PlanView& v = r.view;
      if (!v.found) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("no path");
        for (int c = 0; c < 4; ++c) ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(!v.error.empty() ? v.error.c_str() : v.reason.c_str());
        continue;
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", v.length);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", v.time_ms);
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(v.expanded));
      ImGui::TableNextColumn();
      ImGui::Text("%.3f%s", v.max_curvature, v.curvature_exact ? "" : "*");
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", r.clearance);
      ImGui::TableNextColumn();
      std::string notes;
      for (const auto& s : v.violations) notes += (notes.empty() ? "" : "; ") + s;
      for (const auto& s : v.notes) notes += (notes.empty() ? "" : "; ") + s;
      ImGui::TextUnformatted(notes.c_str());
    }
    ImGui::EndTable();
  }
}

void Inspector::draw_compare(const Sandbox& sb, ImDrawList* dl) {
  if (!compare_visible_) return;
  int shown = 0;
  for (const CompareRun& r : compare_) {
    if (!r.enabled || !r.view.found || r.view.points.size() < 2) continue;
    std::vector<ImVec2> pts;
    for (const Vec2& p : r.view.points) pts.push_back(sb.world_to_screen(p));
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), r.colour, 0, 3.0f);
    ++shown;
  }
  // Legend in a corner of the canvas that hides neither the start nor the goal marker.
  const float row = 18.0f, lw = 290.0f;
  int rows = 0;
  for (const CompareRun& r : compare_) rows += r.enabled ? 1 : 0;
  const float lh = 8 + row * static_cast<float>(rows + 1);
  const ImVec2 lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
  const ImVec2 marks[] = {sb.world_to_screen(sb.scene().start.pos), sb.world_to_screen(sb.scene().goal.pos)};
  ImVec2 o(lo.x + 10, lo.y + 10);
  for (const ImVec2 c : {ImVec2(lo.x + 10, lo.y + 10), ImVec2(hi.x - lw - 10, lo.y + 10), ImVec2(lo.x + 10, hi.y - lh - 10),
                         ImVec2(hi.x - lw - 10, hi.y - lh - 10)}) {
    const bool covers = std::any_of(std::begin(marks), std::end(marks), [&](ImVec2 m) {
      return m.x > c.x - 40 && m.x < c.x + lw + 40 && m.y > c.y - 30 && m.y < c.y + lh + 30;
    });
    if (!covers) {
      o = c;
      break;
    }
  }
  legend_at_ = o;
  dl->AddRectFilled(o, ImVec2(o.x + lw, o.y + lh), IM_COL32(255, 255, 255, 225), 4.0f);
  dl->AddText(ImVec2(o.x + 6, o.y + 4), IM_COL32(20, 20, 20, 255), "compare (length, nodes)");
  int i = 1;
  for (const CompareRun& r : compare_) {
    if (!r.enabled) continue;
    const float y = o.y + 4 + row * static_cast<float>(i++);
    dl->AddRectFilled(ImVec2(o.x + 6, y + 5), ImVec2(o.x + 26, y + 10), r.colour);
    char buf[128];
    if (r.view.found)
      std::snprintf(buf, sizeof buf, "%s / %s  %.2f  %lld", r.planner.c_str(), r.smoother.c_str(), r.view.length,
                    static_cast<long long>(r.view.expanded));
    else
      std::snprintf(buf, sizeof buf, "%s / %s  no path", r.planner.c_str(), r.smoother.c_str());
    dl->AddText(ImVec2(o.x + 32, y), IM_COL32(20, 20, 20, 255), buf);
  }
  (void)shown;
}

void Inspector::rebuild_plot_data(const Sandbox& sb) {
  plot_plans_ = sb.plan().plans;
  const PlanView& p = sb.plan();
  plot_k_.clear();
  plot_v_.clear();
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
    plot_v_.push_back(static_cast<float>(profile_.speed[j - 1] + (profile_.speed[j] - profile_.speed[j - 1]) * t));
  }
}

void Inspector::tab_plots(Sandbox& sb) {
  ImGui::SetNextItemWidth(120);
  if (ImGui::Combo("unit", &plot_unit_, kUnits, IM_ARRAYSIZE(kUnits))) plot_plans_ = -1;
  help_marker("Whose limits shape the speed plot: top speed, acceleration, braking and the sideways acceleration "
              "it accepts in a bend (the core's unit presets).");
  if (plot_plans_ != sb.plan().plans) rebuild_plot_data(sb);
  if (plot_k_.empty()) {
    ImGui::TextDisabled("No path to plot.");
    return;
  }
  ImGui::SameLine();
  ImGui::TextWrapped("path length %.2f; x axis: distance along the path. Hover a plot to probe the path.", profile_.s.back());
  const float w = (ImGui::GetContentRegionAvail().x - 20) * 0.5f, h = ImGui::GetContentRegionAvail().y - 24;
  auto probe_from = [&](const std::vector<float>& values) {
    (void)values;
    if (!ImGui::IsItemHovered()) return;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const double f = std::clamp((ImGui::GetIO().MousePos.x - a.x) / std::max(1.0f, b.x - a.x), 0.0f, 1.0f);
    probe_s_ = f * profile_.s.back();
  };
  const auto [kmin, kmax] = std::minmax_element(plot_k_.begin(), plot_k_.end());
  const float kabs = std::max({std::abs(*kmin), std::abs(*kmax), 0.05f});
  char ov[96];
  std::snprintf(ov, sizeof ov, "curvature (1/cells), +-%.2f", static_cast<double>(kabs));
  ImGui::BeginGroup();
  ImGui::PlotLines("##curv", plot_k_.data(), static_cast<int>(plot_k_.size()), 0, ov, -kabs, kabs, ImVec2(w, h));
  remember("plot_curvature");
  probe_from(plot_k_);
  ImGui::EndGroup();
  ImGui::SameLine();
  const float vmax = *std::max_element(plot_v_.begin(), plot_v_.end());
  std::snprintf(ov, sizeof ov, "planned speed (cells/s), top %.2f", static_cast<double>(vmax));
  ImGui::PlotLines("##speed", plot_v_.data(), static_cast<int>(plot_v_.size()), 0, ov, 0.0f, std::max(0.1f, vmax * 1.1f), ImVec2(w, h));
  remember("plot_speed");
  probe_from(plot_v_);
  help_marker("Top speed, slowed where v^2 * curvature would exceed the unit's lateral acceleration, accelerating "
              "from rest and braking to rest at the goal. Curvature of a polyline is the circle through each point "
              "and its neighbours, so grid corners show as spikes.");
}

}  // namespace pathlab::sandbox
