// The events of the recorded run: the timeline's ticks and the "Events" section (event_list.hpp).

#include "panels/event_list.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "inspect/ui_widgets.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

using plan::RunEvent;
using plan::RunEventKind;

constexpr int kListRows = 9;  ///< Events visible at once; the list scrolls. [Limit: >= 1]

/// The filter's checkboxes, in the kinds' colours, as many to a row as fit.
void filter_boxes(Sandbox& sb, EventFilter& f) {
  float x = 0.0f;
  const float room = ImGui::GetContentRegionAvail().x;
  for (int k = 0; k < plan::kRunEventKinds; ++k) {
    const auto kind = static_cast<RunEventKind>(k);
    const char* name = plan::to_string(kind);
    const float w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(name).x;
    if (k > 0 && x + ImGui::GetStyle().ItemSpacing.x + w <= room) {
      ImGui::SameLine();
      x += ImGui::GetStyle().ItemSpacing.x;
    } else {
      x = 0.0f;
    }
    x += w;
    ImGui::PushStyleColor(ImGuiCol_CheckMark, ImGui::ColorConvertU32ToFloat4(event_colour(kind)));
    bool on = f.show[static_cast<size_t>(k)];
    if (ImGui::Checkbox(name, &on)) f.show[static_cast<size_t>(k)] = on;
    ImGui::PopStyleColor();
    sb.remember_widget((std::string("show ") + name).c_str());
  }
}

/// One event's row: time, unit, kind and (wrapped under it) its cause. True when clicked.
bool event_row(Sandbox& sb, const RunEvent& e, size_t index, bool current, double dt) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  char t[32];
  std::snprintf(t, sizeof t, "%.2f##ev%zu", static_cast<double>(e.step) * dt, index);
  const float h = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetTextLineHeight();
  const bool clicked = ImGui::Selectable(t, current, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap,
                                         ImVec2(0, h));
  sb.remember_widget(("event " + std::to_string(index)).c_str());
  ImGui::TableNextColumn();
  if (e.unit >= 0) ImGui::Text("%d", sb.units().list_index(e.unit));  // its index in the scene's list
  else ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(event_colour(e.kind)), "%s", plan::to_string(e.kind));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", plan::describe(e).c_str());
  ImGui::PopTextWrapPos();
  return clicked;
}

/// The filtered events in a scrolling table; the last one at or before the moment shown is
/// highlighted.
void event_table(Sandbox& sb, const plan::Recording& rec, const std::vector<size_t>& shown) {
  const auto& events = rec.events().events();
  const double dt = rec.crowd().dt();
  const float row = ImGui::GetTextLineHeightWithSpacing() * 2.0f + ImGui::GetStyle().CellPadding.y * 2.0f;
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH;
  if (!ImGui::BeginTable("##events", 3, flags, ImVec2(0, row * kListRows))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("t (s)", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("000.00").x);
  ImGui::TableSetupColumn("unit", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("unit").x);
  ImGui::TableSetupColumn("event", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  // The event the moment shown is at: the one clicked, else the last one at or before it.
  const auto at = std::upper_bound(shown.begin(), shown.end(), rec.step_index(),
                                   [&](int64_t s, size_t i) { return s < events[i].step; });
  size_t current = at == shown.begin() ? shown.size() : static_cast<size_t>(at - shown.begin()) - 1;
  const size_t picked = sb.event_filter().picked;
  if (picked < events.size() && events[picked].step == rec.step_index()) {
    const auto p = std::lower_bound(shown.begin(), shown.end(), picked);
    if (p != shown.end() && *p == picked) current = static_cast<size_t>(p - shown.begin());
  }
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(shown.size()));
  while (clip.Step()) {
    for (int r = clip.DisplayStart; r < clip.DisplayEnd; ++r) {
      const size_t i = shown[static_cast<size_t>(r)];
      if (event_row(sb, events[i], i, static_cast<size_t>(r) == current, dt)) {
        go_to_event(sb, events[i]);
        sb.event_filter().picked = i;
      }
    }
  }
  ImGui::EndTable();
}

class EventPanel final : public Panel {
 public:
  void draw(Sandbox& sb) override {
    if (!collapsing_header("Events", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const plan::Recording* rec = sb.units().recording();
    if (!rec) {
      ImGui::TextDisabled("no recorded run (Reset records one)");
      return;
    }
    const auto& events = rec->events().events();
    EventFilter& f = sb.event_filter();
    filter_boxes(sb, f);
    help_marker("What happened in the recorded run, as ticks under the timeline and listed here: re-plans and "
                "their cause, units becoming stuck, giving way or backing up, doors toggling, collisions (a move "
                "shortened to stay off another unit or a truck; bodies never overlap, an overlap would be listed "
                "too), wall contacts and the edits made. A contact is listed when it begins. Click an event to see "
                "its moment and select its unit; the Why section then says why the unit moves as it does.");
    std::vector<size_t> shown;
    for (size_t i = 0; i < events.size(); ++i)
      if (f.shows(events[i].kind)) shown.push_back(i);
    ImGui::Text("%zu events, %zu shown", events.size(), shown.size());
    if (rec->events().dropped() > 0)
      ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "%zu later events not kept (the list keeps %zu)",
                         rec->events().dropped(), rec->events().cap());
    event_table(sb, *rec, shown);
  }
};

}  // namespace

ImU32 event_colour(RunEventKind kind) {
  switch (kind) {
    case RunEventKind::replan: return IM_COL32(120, 200, 255, 255);
    case RunEventKind::stuck: return IM_COL32(255, 70, 60, 255);
    case RunEventKind::giving_way: return IM_COL32(130, 220, 120, 255);
    case RunEventKind::backing_up: return IM_COL32(200, 140, 255, 255);
    case RunEventKind::door: return IM_COL32(210, 140, 60, 255);
    case RunEventKind::collision: return IM_COL32(255, 220, 60, 255);
    case RunEventKind::wall_contact: return IM_COL32(170, 170, 170, 255);
    case RunEventKind::edit: return IM_COL32(255, 255, 255, 255);
  }
  return IM_COL32(255, 255, 255, 255);
}

void draw_event_ticks(const std::vector<RunEvent>& events, const EventFilter& filter, int64_t until) {
  if (events.empty() || until <= 0) return;
  // As draw_marks in timeline_strip.cpp: ImGui 1.86's slider puts the grab's centre at x0 + span * t.
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const float slider = hi.x - lo.x - 4.0f;
  const float grab = std::max(slider / static_cast<float>(until + 1), ImGui::GetStyle().GrabMinSize);
  const float x0 = lo.x + 2.0f + grab * 0.5f, span = slider - grab;
  const float w = std::max(1.0f, ImGui::GetFontSize() * 0.1f);
  const float top = lo.y + (hi.y - lo.y) * 0.55f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // One tick per kind and pixel column: thousands of contacts stay one mark per column.
  std::array<int, plan::kRunEventKinds> last_x;
  last_x.fill(-1);
  for (const RunEvent& e : events) {
    if (!filter.shows(e.kind) || e.step > until) continue;
    const float x = x0 + span * static_cast<float>(e.step) / static_cast<float>(until);
    int& last = last_x[static_cast<size_t>(e.kind)];
    if (static_cast<int>(x) == last) continue;
    last = static_cast<int>(x);
    dl->AddRectFilled(ImVec2(x - w * 0.5f, top), ImVec2(x + w * 0.5f, hi.y - 1.0f), event_colour(e.kind));
  }
}

void go_to_event(Sandbox& sb, const RunEvent& e) {
  UnitSwarm& u = sb.units();
  u.set_playing(false);
  if (const Status s = u.seek(e.step); !s) {
    sb.set_status(s.error().message, true);
    return;
  }
  if (e.unit >= 0 && e.unit < u.count()) {
    u.select_none();
    u.select(e.unit, true);
  }
}

std::unique_ptr<Panel> make_event_panel() { return std::make_unique<EventPanel>(); }

}  // namespace pathlab::sandbox
