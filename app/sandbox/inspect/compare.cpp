// Compare mode: every registry planner on one scene (compare_rows.hpp decides which rows are
// valid and how they rank) with a legend beside the map and a table. The plots are plots.cpp.

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <span>

#include "inspect/inspector.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/plan/registry.hpp"
#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

constexpr double kClearanceCap = 10.0;

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
/// holds the best value among the valid runs: shortest, fastest, fewest nodes, gentlest,
/// widest. The table draws those in green; an invalid run's numbers are never the best.
std::vector<std::array<bool, 5>> best_columns(const std::vector<CompareRun>& runs, const CompareRanking& ranking) {
  std::vector<std::array<bool, 5>> best(runs.size(), std::array<bool, 5>{});
  std::vector<double> col[5];
  for (size_t i = 0; i < runs.size(); ++i) {
    const CompareRun& r = runs[i];
    const bool ok = ranking.checks[i].valid();
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

void Inspector::run_compare(Sandbox& sb) {
  if (compare_.empty()) compare_ = compare_rows_from_registry();
  if (!compare_worker_) compare_worker_ = std::make_unique<PlanWorker>();
  compare_scene_ = sb.plan_scene();  // the scene's poses, radius, turning radius and options for every row
  ++compare_map_version_;            // the map may have been edited since the last run
  for (CompareRun& r : compare_) {
    r.smoother = row_smoother(r, compare_scene_.settings);
    r.view = PlanView{};
    r.clearance = 0.0;
  }
  compare_row_ = -1;
  compare_plans_ = sb.plan().plans;
  compare_visible_ = true;
  submit_compare_row();
  compare_step(sb);
}

void Inspector::submit_compare_row() {
  compare_row_ = -1;
  for (size_t i = 0; i < compare_.size(); ++i) {
    CompareRun& r = compare_[i];
    if (!r.enabled || r.view.valid) continue;
    WorkerRequest req;
    req.scene = compare_scene_;
    req.scene.settings.planner = r.planner;
    req.scene.settings.smoother = r.smoother;
    req.record_trace = false;  // only the path and its numbers are shown
    req.map_version = compare_map_version_;
    compare_serial_ = compare_worker_->submit(std::move(req));
    compare_row_ = static_cast<int>(i);
    return;
  }
}

void Inspector::compare_step(const Sandbox& sb) {
  if (compare_row_ < 0 || !compare_worker_) return;
  // Like the main plan: wait a little for results (tests wait long, so every row of a run is
  // in before the frame draws), then draw what is there and come back next frame.
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    const double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!compare_worker_->wait(std::max(0.0, sb.plan_wait_ms() - spent))) return;
    std::optional<WorkerResult> done = compare_worker_->take();
    CompareRun& r = compare_[static_cast<size_t>(compare_row_)];
    if (done && done->serial == compare_serial_ && r.enabled) {
      r.view = std::move(done->view);
      if (r.view.result.found) r.clearance = path_clearance(compare_scene_.grid, r.view.result.points, kClearanceCap);
    }
    submit_compare_row();
    if (compare_row_ < 0) return;
  }
}

void Inspector::replan_compare_row(size_t i) {
  CompareRun& r = compare_[i];
  r.smoother = row_smoother(r, compare_scene_.settings);
  r.view = PlanView{};
  r.clearance = 0.0;
  // An idle worker starts on it; a busy one gets to it after the row it is planning (a row
  // changed while on the worker is sent again, superseding the stale request).
  if (compare_worker_ && (compare_row_ < 0 || compare_row_ == static_cast<int>(i))) submit_compare_row();
}

namespace {

/// Two or three words for the legend, where the table's full reason does not fit.
const char* verdict_word(RowVerdict v) {
  switch (v) {
    case RowVerdict::through_wall: return "through a wall";
    case RowVerdict::too_tight: return "too tight";
    case RowVerdict::smoother_failed: return "not drivable";
    case RowVerdict::ignores_turning: return "ignores radius";
    case RowVerdict::no_path: return "no path";
    case RowVerdict::pending: return "planning...";
    default: return "";
  }
}

/// A "(?)" in front of a column header (a marker after it would overlap the header's label).
void header_with_help(int column, const char* name, const char* help) {
  ImGui::TableSetColumnIndex(column);
  if (help) {
    ImGui::TextDisabled("(?)");
    hover_tooltip(help);
    ImGui::SameLine();
  }
  ImGui::TableHeader(name);
}

constexpr const char* kRankHelp =
    "Ranked by path length (cells), shortest first, among the valid rows only; equal lengths keep the registry's "
    "order. Time is not the criterion: it depends on the machine. Invalid rows (red x) come after the valid ones "
    "and are never best, however short.";
constexpr const char* kValidityHelp =
    "Invalid: no path; through a wall (the service's referee: the unit's disc along an exact curve, or a polyline "
    "segment, overlaps a wall for the agent radius); tighter than the turning radius (a path of exact curves whose "
    "curvature exceeds 1 / radius by more than 1e-6 relative); not drivable (the turning smoother failed). Grid and "
    "navmesh paths without a turning smoother are polylines that ignore headings and the turning radius: a note, "
    "unless \"vehicle rules\" is ticked, which makes them invalid.";

const ImVec4 kGreen(0.45f, 0.95f, 0.45f, 1.0f), kRed(1.0f, 0.45f, 0.4f, 1.0f);

}  // namespace

void Inspector::compare_row_cells(size_t i, const CompareRanking& ranking,
                                  const std::vector<std::array<bool, 5>>& best_cols) {
  CompareRun& r = compare_[i];
  const RowCheck& check = ranking.checks[i];
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  if (ranking.best == i) ImGui::TextColored(kGreen, "1 best");
  else if (check.valid()) ImGui::Text("%d", ranking.rank[i]);
  else if (check.invalid()) ImGui::TextColored(kRed, "x");
  ImGui::TableNextColumn();
  ImGui::ColorButton("##c", ImGui::ColorConvertU32ToFloat4(r.colour), ImGuiColorEditFlags_NoTooltip,
                     ImVec2(14 * em(), 14 * em()));
  ImGui::SameLine();
  if (ImGui::Checkbox(r.planner.c_str(), &r.enabled)) replan_compare_row(i);
  remember(("compare:" + r.planner).c_str());
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##smoother", r.smoother.c_str())) {
    const plan::PlannerInfo* p = plan::find_planner(r.planner);
    if (ImGui::Selectable("auto (the scene's for its kind, else the default)", r.smoother_pick.empty()))
      r.smoother_pick.clear(), replan_compare_row(i);
    for (const plan::SmootherInfo& s : p ? plan::smoothers_for(p->family) : std::span<const plan::SmootherInfo>{})
      if (ImGui::Selectable(s.name, r.smoother_pick == s.name)) r.smoother_pick = s.name, replan_compare_row(i);
    ImGui::EndCombo();
  }
  remember(("compare_smoother:" + r.planner).c_str());
  if (!r.enabled) return;
  const PlanView& v = r.view;
  if (check.verdict == RowVerdict::pending || check.verdict == RowVerdict::no_path) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", verdict_word(check.verdict));
    for (int c = 0; c < 4; ++c) ImGui::TableNextColumn();
    ImGui::TableNextColumn();
    if (check.invalid()) ImGui::TextColored(kRed, "%s", check.reason.c_str());
    remember(("compare_reason:" + r.planner).c_str());
    return;
  }
  const bool* best = best_cols[i].data();
  auto cell = [&](bool is_best, const char* fmt, auto... args) {
    ImGui::TableNextColumn();
    if (check.invalid()) ImGui::TextDisabled(fmt, args...);
    else if (is_best) ImGui::TextColored(kGreen, fmt, args...);
    else ImGui::Text(fmt, args...);
  };
  cell(best[0], "%.3f", v.result.length);
  cell(best[1], "%.3f", v.result.time_ms);
  cell(best[2], "%lld", static_cast<long long>(v.result.expanded));
  cell(best[3], "%.3f%s", v.result.max_curvature, v.result.curvature_exact ? "" : "*");
  cell(best[4], "%.3f", r.clearance);
  ImGui::TableNextColumn();
  std::string notes = check.note;
  for (const auto& s : v.result.violations) notes += (notes.empty() ? "" : "; ") + s;
  for (const auto& s : v.result.notes) notes += (notes.empty() ? "" : "; ") + s;
  ImGui::BeginGroup();
  if (check.invalid()) {
    ImGui::TextColored(kRed, "%s", check.reason.c_str());
    remember(("compare_reason:" + r.planner).c_str());
    if (!notes.empty()) ImGui::SameLine(), ImGui::TextDisabled("(%s)", notes.c_str());
  } else {
    ImGui::TextUnformatted(notes.c_str());
  }
  ImGui::EndGroup();
  // The column is narrow at 100% scale: the whole text on hover.
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s%s%s", check.reason.c_str(), check.reason.empty() || notes.empty() ? "" : "\n", notes.c_str());
}

namespace {

/// The table's frames and cells are tighter than elsewhere (a row at 250% is 45 px, not 60), so
/// a short strip shows two whole rows under the header. [pixels]
ImVec2 table_frame_padding() { return ImVec2(ImGui::GetStyle().FramePadding.x, ImGui::GetFontSize() / 14.0f); }
ImVec2 table_cell_padding() { return ImVec2(ImGui::GetStyle().CellPadding.x, ImGui::GetFontSize() / 14.0f); }
/// A row of Compare's table: a frame (the tick box, the smoother's combo) in the cell's padding. [pixels]
float compare_row_height() { return ImGui::GetFontSize() + 2.0f * table_frame_padding().y + 2.0f * table_cell_padding().y; }
/// The controls' row over the table. [pixels]
float compare_controls_height() { return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y; }

}  // namespace

float Inspector::strip_body_useful() const {
  if (tab_ != Tab::compare) return 0.0f;
  // The header, two rows and the sideways scrollbar.
  return (compare_visible_ ? 0.0f : compare_controls_height()) + 3.0f * compare_row_height() + ImGui::GetStyle().ScrollbarSize;
}

bool Inspector::compare_controls_in_legend(const Sandbox& sb) const {
  const ScreenLayout& l = sb.layout();
  // Presenting, the lesson step has set them: the projector shows the legend only.
  if (presenting_ || !compare_visible_ || l.legend.empty()) return false;
  const float body = l.strip.h - l.strip_min - ImGui::GetStyle().ItemSpacing.y;
  return body < compare_controls_height() + 4.0f * compare_row_height() + ImGui::GetStyle().ScrollbarSize;
}

void Inspector::compare_controls(Sandbox& sb) {
  // Each control's help on hovering it (no "(?)" beside it: the row stays one line at 200%).
  if (checkbox_fitted("draw on the map", &compare_visible_) && compare_visible_) run_compare(sb);
  remember("compare_show");
  hover_tooltip("Draws every ticked row on the canvas in its colour, with a legend: valid rows solid (the best one "
                "thicker), invalid rows dashed and faded, a cross where a path meets a wall. Key: M.");
  same_line_if_fits(button_width("Run again"));
  if (ImGui::Button("Run again")) run_compare(sb);
  remember("compare_run");
  hover_tooltip("Plans the scene once per ticked row: every planner of the registry with the scene's start and goal "
                "poses (headings included), agent radius, turning radius and other options. Rows are planned one "
                "after another on a worker thread, so the window keeps drawing. Re-runs by itself when the scene "
                "changes while shown.");
  same_line_if_fits(check_width("vehicle rules"));
  checkbox_fitted("vehicle rules", &compare_vehicle_rules_);  // changes the ranking only: nothing to plan
  remember("compare_vehicle");
  hover_tooltip(kValidityHelp);
  const CompareRanking ranking = rank_rows(compare_, compare_rules());
  int shown = 0, done = 0;
  for (const RowCheck& c : ranking.checks) shown += c.verdict != RowVerdict::off, done += c.valid() || c.invalid();
  char note[96];
  if (compare_busy()) std::snprintf(note, sizeof note, "planning %d/%d", done, shown);
  else std::snprintf(note, sizeof note, "clearance: nearest wall or map edge, capped at %.0f", kClearanceCap);
  same_line_if_fits(ImGui::GetFontSize() * 6.0f);
  text_fitted(note);  // whole on hover when the strip is narrow
}

void Inspector::tab_compare(Sandbox& sb) {
  // The table shows the rows even when the map does not: they follow the scene while the tab is open.
  if (compare_.empty() || compare_plans_ != sb.plan().plans) {
    const bool shown = compare_visible_;
    run_compare(sb);
    compare_visible_ = shown;
  }
  if (!compare_controls_in_legend(sb)) compare_controls(sb);
  const CompareRanking ranking = rank_rows(compare_, compare_rules());
  // Every column as wide as its header and cells (a narrow strip scrolls sideways rather than
  // cutting "length" to "l"); the header row stays while the rows scroll.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, table_frame_padding());
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, table_cell_padding());
  // As wide as the body, as tall as what is left of it.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool table = ImGui::BeginTable("compare", 9, flags, ImVec2(std::max(1.0f, avail.x), avail.y));
  ImGui::PopStyleVar(2);
  if (!table) return;
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, table_frame_padding());
  ImGui::TableSetupScrollFreeze(2, 1);  // the rank and the planner stay while scrolling sideways
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 70 * em());
  ImGui::TableSetupColumn("planner", ImGuiTableColumnFlags_WidthFixed, 150 * em());
  ImGui::TableSetupColumn("smoother", ImGuiTableColumnFlags_WidthFixed, 110 * em());
  for (const char* c : {"length", "time ms", "nodes", "max curvature", "clearance"}) ImGui::TableSetupColumn(c);
  ImGui::TableSetupColumn("validity / notes");
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  const char* help[9] = {kRankHelp, "Tick the planners to compare.",
                         "auto: the scene's smoother for planners of the scene planner's kind (grid, navmesh, heading, "
                         "curve), else the planner's default. Pick another per row."};
  help[8] = kValidityHelp;
  for (int c = 0; c < 9; ++c) header_with_help(c, ImGui::TableGetColumnName(c), help[c]);
  const std::vector<std::array<bool, 5>> best_cols = best_columns(compare_, ranking);
  for (size_t i : ranking.order) {
    ImGui::PushID(static_cast<int>(i));
    compare_row_cells(i, ranking, best_cols);
    ImGui::PopID();
  }
  ImGui::PopStyleVar();
  ImGui::EndTable();
}

float Inspector::legend_width() const {
  return compare_visible_ ? 320.0f * ImGui::GetFontSize() / 14.0f : 0.0f;
}

void Inspector::draw_compare(Sandbox& sb, ImDrawList* dl) {
  if (!compare_visible_) return;
  const CompareRanking ranking = rank_rows(compare_, compare_rules());
  // Paths that coincide stay visible: each row is shifted by its own few pixels. Invalid rows
  // are dashed and faded so they never read as a way to go; the best is drawn last and thicker.
  std::vector<int> slot(compare_.size(), 0);
  int k = 0;
  for (size_t i = 0; i < compare_.size(); ++i) slot[i] = compare_[i].enabled ? k++ : 0;
  // The rows' paths are every planner's final path: while the replay is short of its end they
  // wait with the scene's own path (the legend stays, so the rows can still be read).
  for (auto it = ranking.order.rbegin(); it != ranking.order.rend() && !hides_path(); ++it) {
    const CompareRun& r = compare_[*it];
    const RowCheck& check = ranking.checks[*it];
    if (!(check.valid() || check.invalid()) || r.view.result.points.size() < 2) continue;
    const int s = slot[*it];
    const float dx = static_cast<float>(s % 3 - 1) * 2.0f * em(), dy = static_cast<float>(s / 3 % 3 - 1) * 2.0f * em();
    std::vector<ImVec2> pts;
    for (const Vec2& p : r.view.result.points) {
      const ImVec2 q = sb.world_to_screen(p);
      pts.push_back(ImVec2(q.x + dx, q.y + dy));
    }
    if (check.valid()) {
      const float w = (ranking.best == *it ? 3.5f : 2.5f) * em();
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), r.colour, 0, w);
      continue;
    }
    const ImU32 faded = (r.colour & ~IM_COL32_A_MASK) | (static_cast<ImU32>(150) << IM_COL32_A_SHIFT);
    dashed_polyline(dl, pts, faded, 2.0f * em(), 7.0f * em(), 6.0f * em());
    // Where it meets a wall: a cross on the map, so the reason in the table has a place.
    std::optional<Vec2> hit;
    const plan::PlanResult& res = r.view.result;
    if (res.curve_blocked_at && res.segments)
      if (auto at = res.segments->at_distance(*res.curve_blocked_at)) hit = at->pos;
    if (res.blocked_segment >= 0 && static_cast<size_t>(res.blocked_segment) < res.points.size())
      hit = res.points[static_cast<size_t>(res.blocked_segment)];
    if (hit) {
      const ImVec2 c = sb.world_to_screen(*hit);
      const float h = 6.0f * em();
      for (const auto& [col, w] : {std::pair{IM_COL32(20, 20, 20, 255), 4.5f}, std::pair{r.colour, 2.5f}}) {
        dl->AddLine(ImVec2(c.x - h, c.y - h), ImVec2(c.x + h, c.y + h), col, w * em());
        dl->AddLine(ImVec2(c.x - h, c.y + h), ImVec2(c.x + h, c.y - h), col, w * em());
      }
    }
  }
  draw_compare_legend(sb, ranking);
}

void Inspector::draw_compare_legend(Sandbox& sb, const CompareRanking& ranking) {
  // A window in the band the layout keeps free at the canvas's right edge (never over the map):
  // its lines wrap to the band's width, and it scrolls when taller than the canvas. Rows in the
  // table's order.
  const ScreenRect& band = sb.layout().legend;
  if (band.empty()) return;
  const float margin = 4.0f * em();
  ImGui::SetNextWindowPos(ImVec2(band.x + margin, band.y + margin), ImGuiCond_Always);
  const float w = std::max(1.0f, band.w - 2.0f * margin);
  ImGui::SetNextWindowSizeConstraints(ImVec2(w, 0.0f), ImVec2(w, std::max(1.0f, band.h - 2.0f * margin)));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(1.0f, 1.0f, 1.0f, 0.92f));
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.08f, 0.08f, 0.08f, 1.0f));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 4.0f * em());
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##compare_legend", nullptr, flags)) {
    legend_at_ = ImGui::GetWindowPos();
    if (compare_controls_in_legend(sb)) {
      // The strip's body is short (a large UI scale): the table keeps it, the controls come here.
      compare_controls(sb);
      ImGui::Separator();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted("compare: shortest valid first");
    // The row's line style (solid when valid, dashed when not, as on the map) left of its text,
    // or, in a narrow legend (a large UI scale), under it so the words keep the whole width.
    const float sw = 26.0f * em(), line = ImGui::GetTextLineHeight();
    const bool beside = ImGui::GetContentRegionAvail().x >= 280.0f * em();  // as at 100%
    auto swatch = [&](const RowCheck& c, ImU32 colour, float length) {
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float h = beside ? line : 8.0f * em(), mid = p.y + h * 0.5f;
      ImDrawList* dl = ImGui::GetWindowDrawList();
      if (c.valid()) dl->AddLine(ImVec2(p.x, mid), ImVec2(p.x + length, mid), colour, 3.0f * em());
      else dashed_polyline(dl, {ImVec2(p.x, mid), ImVec2(p.x + length, mid)}, colour, 2.0f * em(), 7.0f * em(), 6.0f * em());
      ImGui::Dummy(ImVec2(length, h));
    };
    for (size_t i : ranking.order) {
      const CompareRun& r = compare_[i];
      const RowCheck& c = ranking.checks[i];
      if (c.verdict == RowVerdict::off) continue;
      if (beside) {
        swatch(c, r.colour, sw);
        ImGui::SameLine();
      }
      // The names wrap between words; the length is one piece (ImGui would break "60.45" at
      // its point), on the same line when it fits.
      char name[128], length[64] = "";
      if (c.valid()) std::snprintf(name, sizeof name, "%d. %s / %s", ranking.rank[i], r.planner.c_str(), r.smoother.c_str());
      else std::snprintf(name, sizeof name, "%s %s / %s", c.invalid() ? "x" : " ", r.planner.c_str(), r.smoother.c_str());
      if (c.valid()) std::snprintf(length, sizeof length, "%.2f%s", r.view.result.length, ranking.best == i ? "  best" : "");
      else if (r.view.result.found) std::snprintf(length, sizeof length, "%.2f  %s", r.view.result.length, verdict_word(c.verdict));
      else std::snprintf(length, sizeof length, "%s", verdict_word(c.verdict));
      const ImVec4 red(0.6f, 0.16f, 0.12f, 1.0f), ink = ImGui::GetStyleColorVec4(ImGuiCol_Text);
      ImGui::TextColored(c.invalid() ? red : ink, "%s", name);
      if (length[0] != '\0') {
        same_line_if_fits(ImGui::CalcTextSize(length).x);
        ImGui::PushTextWrapPos(-1.0f);  // one piece
        ImGui::TextColored(c.invalid() ? red : ink, "%s", length);
        ImGui::PopTextWrapPos();
      }
      if (!beside) swatch(c, r.colour, ImGui::GetContentRegionAvail().x);
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(2);
}

}  // namespace pathlab::sandbox
