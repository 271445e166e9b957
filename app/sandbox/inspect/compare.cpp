// Compare mode and plots: several planner/smoother combinations on one scene with a legend and
// a table, and curvature / planned speed along the current path.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "inspect/inspector.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/unit.hpp"
#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

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
// Colours far apart from each other and from everything else on the canvas: the walls' dark
// grey, the search's blue and yellow, the start's green and the goal's magenta (the main path is
// not drawn in compare mode, so its red is free). After Brewer's qualitative "Set1"/"Dark2"
// schemes (Harrower and Brewer, "ColorBrewer.org", 2003).
using P = plan::PlannerId;
using S = plan::SmootherId;
const Combo kCombos[] = {
    {P::astar, S::none, IM_COL32(228, 26, 28, 255), true},
    {P::astar, S::los, IM_COL32(255, 127, 0, 255), true},
    {P::astar, S::centripetal, IM_COL32(31, 90, 200, 255), true},
    {P::theta, S::none, IM_COL32(140, 81, 10, 255), true},
    {P::navmesh, S::funnel, IM_COL32(0, 140, 140, 255), true},
    {P::navmesh, S::edge_shift, IM_COL32(128, 128, 0, 255), false},
    {P::jps, S::catmull_rom, IM_COL32(106, 61, 154, 255), false},
    {P::astar, S::hermite, IM_COL32(10, 20, 90, 255), false},
    {P::dubins, S::none, IM_COL32(120, 120, 120, 255), false},
};

float em() { return ImGui::GetFontSize() / 14.0f; }

/// A polyline drawn dashed (dash and gap in pixels along the line).
void dashed_polyline(ImDrawList* dl, const std::vector<ImVec2>& pts, ImU32 col, float width, float dash, float gap) {
  float phase = 0.0f;  // distance into the current dash+gap period
  for (size_t i = 1; i < pts.size(); ++i) {
    const ImVec2 a = pts[i - 1], b = pts[i];
    const float len = std::hypot(b.x - a.x, b.y - a.y);
    float t = 0.0f;
    while (t < len) {
      const bool on = phase < dash;
      const float step = std::min(len - t, on ? dash - phase : dash + gap - phase);
      if (on) {
        const float t0 = t / len, t1 = (t + step) / len;
        dl->AddLine(ImVec2(a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0),
                    ImVec2(a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1), col, width);
      }
      t += step;
      phase = std::fmod(phase + step, dash + gap);
    }
  }
}

/// Index of the best value among `values` (NaN = no value), the smallest or the largest.
int best_of(const std::vector<double>& values, bool smallest) {
  int best = -1;
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::isnan(values[i])) continue;
    if (best < 0 || (smallest ? values[i] < values[static_cast<size_t>(best)] : values[i] > values[static_cast<size_t>(best)]))
      best = static_cast<int>(i);
  }
  return best;
}

/// Per run, which of its five numeric columns (length, time, nodes, max curvature, clearance)
/// holds the best value among the enabled runs with a path: shortest, fastest, fewest nodes,
/// gentlest, widest. The table draws those in green.
std::vector<std::array<bool, 5>> best_columns(const std::vector<CompareRun>& runs) {
  std::vector<std::array<bool, 5>> best(runs.size(), std::array<bool, 5>{});
  std::vector<double> col[5];
  for (const CompareRun& r : runs) {
    const bool ok = r.enabled && r.view.result.found;
    const double nan = std::nan("");
    col[0].push_back(ok ? r.view.result.length : nan);
    col[1].push_back(ok ? r.view.result.time_ms : nan);
    col[2].push_back(ok ? static_cast<double>(r.view.result.expanded) : nan);
    col[3].push_back(ok ? r.view.result.max_curvature : nan);
    col[4].push_back(ok ? r.clearance : nan);
  }
  for (int c = 0; c < 5; ++c)
    if (const int b = best_of(col[c], c != 4); b >= 0) best[static_cast<size_t>(b)][static_cast<size_t>(c)] = true;
  return best;
}

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
  io::Scene sc = sb.plan_scene();    // one copy: the pipeline keys its cache on the grid's address
  for (CompareRun& r : compare_) {
    r.view = PlanView{};
    r.clearance = 0.0;
    if (!r.enabled) continue;
    sc.settings = sb.scene().settings;
    sc.settings.planner = r.planner;
    sc.settings.smoother = r.smoother;
    normalize_settings(sc.settings);
    r.view = compare_pipeline_->plan(sc, false);
    if (r.view.result.found) r.clearance = path_clearance(sc.grid, r.view.result.points, kClearanceCap);
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
    ImGui::TableSetupColumn("planner / smoother", ImGuiTableColumnFlags_WidthFixed, 230 * em());
    ImGui::TableSetupColumn("length");
    ImGui::TableSetupColumn("time ms");
    ImGui::TableSetupColumn("nodes");
    ImGui::TableSetupColumn("max curvature");
    ImGui::TableSetupColumn("clearance");
    ImGui::TableSetupColumn("notes", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    const std::vector<std::array<bool, 5>> best_cols = best_columns(compare_);
    help_marker("Green: the best value of its column (shortest, fastest, fewest nodes, smallest curvature, most clearance).");
    for (size_t i = 0; i < compare_.size(); ++i) {
      CompareRun& r = compare_[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      const ImVec4 col = ImGui::ColorConvertU32ToFloat4(r.colour);
      ImGui::ColorButton("##c", col, ImGuiColorEditFlags_NoTooltip, ImVec2(14 * em(), 14 * em()));
      ImGui::SameLine();
      const std::string label = r.planner + " / " + r.smoother;
      if (ImGui::Checkbox(label.c_str(), &r.enabled)) run_compare(sb);
      remember(("compare:" + label).c_str());
      ImGui::PopID();
      if (!r.enabled) continue;
      const PlanView& v = r.view;
      if (!v.result.found) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("no path");
        for (int c = 0; c < 4; ++c) ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(!v.error.empty() ? v.error.c_str() : v.result.reason.c_str());
        continue;
      }
      const bool* best = best_cols[i].data();
      auto cell = [&](bool is_best, const char* fmt, auto... args) {
        ImGui::TableNextColumn();
        if (is_best) ImGui::TextColored(ImVec4(0.45f, 0.95f, 0.45f, 1.0f), fmt, args...);
        else ImGui::Text(fmt, args...);
      };
      cell(best[0], "%.3f", v.result.length);
      cell(best[1], "%.3f", v.result.time_ms);
      cell(best[2], "%lld", static_cast<long long>(v.result.expanded));
      cell(best[3], "%.3f%s", v.result.max_curvature, v.result.curvature_exact ? "" : "*");
      cell(best[4], "%.3f", r.clearance);
      ImGui::TableNextColumn();
      std::string notes;
      for (const auto& s : v.result.violations) notes += (notes.empty() ? "" : "; ") + s;
      for (const auto& s : v.result.notes) notes += (notes.empty() ? "" : "; ") + s;
      ImGui::TextUnformatted(notes.c_str());
    }
    ImGui::EndTable();
  }
}

float Inspector::legend_width() const {
  return compare_visible_ ? 300.0f * ImGui::GetFontSize() / 14.0f : 0.0f;
}

void Inspector::draw_compare(const Sandbox& sb, ImDrawList* dl) {
  if (!compare_visible_) return;
  // Paths that coincide stay visible: each run is shifted by its own few pixels and every
  // other one is dashed, so two runs on the same line show as two stripes.
  int k = 0;
  for (const CompareRun& r : compare_) {
    if (!r.enabled) continue;
    const int i = k++;
    if (!r.view.result.found || r.view.result.points.size() < 2) continue;
    const float dx = static_cast<float>(i % 3 - 1) * 2.0f * em(), dy = static_cast<float>(i / 3 % 3 - 1) * 2.0f * em();
    std::vector<ImVec2> pts;
    for (const Vec2& p : r.view.result.points) {
      const ImVec2 q = sb.world_to_screen(p);
      pts.push_back(ImVec2(q.x + dx, q.y + dy));
    }
    if (i % 2 == 0) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), r.colour, 0, 2.5f * em());
    else dashed_polyline(dl, pts, r.colour, 2.5f * em(), 9.0f * em(), 5.0f * em());
  }
  // The legend sits beside the map, in the strip the sandbox keeps free at the canvas's right
  // edge (legend_width()), never over the paths.
  const float row = ImGui::GetTextLineHeightWithSpacing(), lw = legend_width() - 8.0f * em();
  int rows = 0;
  for (const CompareRun& r : compare_) rows += r.enabled ? 1 : 0;
  const float lh = 8 + row * static_cast<float>(rows + 1);
  const ImVec2 hi = dl->GetClipRectMax(), lo = dl->GetClipRectMin();
  const ImVec2 o(hi.x - lw - 4.0f * em(), lo.y + 4.0f * em());
  legend_at_ = o;
  dl->AddRectFilled(o, ImVec2(o.x + lw, o.y + lh), IM_COL32(255, 255, 255, 235), 4.0f);
  dl->AddText(ImVec2(o.x + 6, o.y + 4), IM_COL32(20, 20, 20, 255), "compare: length, nodes");
  int i = 1;
  for (const CompareRun& r : compare_) {
    if (!r.enabled) continue;
    const float y = o.y + 4 + row * static_cast<float>(i);
    const float sw = 26.0f * em(), mid = y + row * 0.45f;
    if (i % 2 == 1) dl->AddLine(ImVec2(o.x + 6, mid), ImVec2(o.x + 6 + sw, mid), r.colour, 3.0f * em());
    else dashed_polyline(dl, {ImVec2(o.x + 6, mid), ImVec2(o.x + 6 + sw, mid)}, r.colour, 3.0f * em(), 8.0f * em(), 4.0f * em());
    ++i;
    char buf[128];
    if (r.view.result.found)
      std::snprintf(buf, sizeof buf, "%s / %s  %.2f  %lld", r.planner.c_str(), r.smoother.c_str(), r.view.result.length,
                    static_cast<long long>(r.view.result.expanded));
    else
      std::snprintf(buf, sizeof buf, "%s / %s  no path", r.planner.c_str(), r.smoother.c_str());
    dl->AddText(ImVec2(o.x + 12 + sw, y), IM_COL32(20, 20, 20, 255), buf);
  }
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

/// A line plot with axes: y labelled with its name, unit and range, x the distance along the
/// path [cells] from 0 to `length`. Hovering shows the distance and the value there. Returns
/// the hovered distance, or -1.
double plot_axes(const char* id, const char* name, const char* unit, const std::vector<float>& v, float lo, float hi,
                 double length, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float pad_l = ImGui::CalcTextSize("-0.00").x + 8 * em(), pad_b = ImGui::GetTextLineHeight() + 6 * em();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(std::max(size.x, 80.0f), std::max(size.y, 60.0f)));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 a(o.x + pad_l, o.y + ImGui::GetTextLineHeight() + 2), b(ImGui::GetItemRectMax().x - 4, ImGui::GetItemRectMax().y - pad_b);
  const ImU32 axis = IM_COL32(180, 180, 180, 255), text = IM_COL32(220, 220, 220, 255);
  dl->AddRectFilled(a, b, IM_COL32(30, 34, 40, 255));
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s [%s]", name, unit);
  dl->AddText(ImVec2(a.x, o.y), text, buf);
  auto y_of = [&](float val) { return b.y - (val - lo) / std::max(1e-6f, hi - lo) * (b.y - a.y); };
  for (const float t : {lo, hi, lo < 0 && hi > 0 ? 0.0f : lo}) {
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(t));
    dl->AddText(ImVec2(o.x, y_of(t) - ImGui::GetTextLineHeight() * 0.5f), text, buf);
    dl->AddLine(ImVec2(a.x, y_of(t)), ImVec2(b.x, y_of(t)), IM_COL32(70, 75, 85, 255));
  }
  dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, b.y), axis);
  dl->AddLine(ImVec2(a.x, a.y), ImVec2(a.x, b.y), axis);
  dl->AddText(ImVec2(a.x, b.y + 2), text, "0");
  std::snprintf(buf, sizeof buf, "distance along the path [cells]   %.1f", length);
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
  ImGui::SetNextItemWidth(120 * em());
  if (ImGui::Combo("unit", &plot_unit_, kUnits, IM_ARRAYSIZE(kUnits))) plot_plans_ = -1;
  help_marker("Whose limits shape the speed plot: top speed, acceleration, braking and the sideways acceleration "
              "it accepts in a bend (the core's unit presets).");
  if (plot_plans_ != sb.plan().plans) rebuild_plot_data(sb);
  if (plot_k_.empty()) {
    ImGui::TextDisabled("No path to plot.");
    return;
  }
  ImGui::SameLine();
  ImGui::TextWrapped("path length %.2f cells. Hover a plot: the distance and value, and the point on the map.",
                     profile_.s.back());
  const float w = (ImGui::GetContentRegionAvail().x - 30 * em()) / 3.0f, h = ImGui::GetContentRegionAvail().y - 4 * em();
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
              "clothoids of the cc-dubins / cc-reeds-shepp curves.");
}

}  // namespace pathlab::sandbox
