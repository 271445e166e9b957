#pragma once
// Small ImGui helpers shared by the sandbox's panels.

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>

#include "inspect/wrapped_text.hpp"

namespace pathlab::sandbox {

/// `text` whole, wrapped at 30 font heights, in a tooltip while the last item is hovered.
inline void hover_tooltip(const char* text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

/// SameLine() when an item `width` pixels wide still fits on the line, else the item starts a
/// new line: a row of controls wraps in a narrow strip (a large UI scale) instead of running
/// off its edge.
inline void same_line_if_fits(float width) {
  const float after = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
  if (after + width <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

/// The width a help marker takes after a control's label: its "(?)" and the gap before it. [pixels]
inline float help_marker_width() { return ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x; }

/// Where the next labelled control (slider, combo, text field) puts its label: beside it, as
/// ImGui does, when the control at its item width and the label fit the window's visible width;
/// else on a line of its own above it (wrapped at the text wrap position), the control taking
/// the line's width. So at 200-250% no control runs past a narrow panel's edge and no label
/// needs sideways scrolling. `after` is what follows the label on its line (help_marker_width()
/// for a help marker). Returns the label to give the control: `label`, or "##" + `label`
/// (nothing shown, its own id) once drawn above.
inline std::string fit_label(const char* label, float after = 0.0f) {
  const std::string id(label);
  const std::string shown = id.substr(0, id.find("##"));
  if (shown.empty()) return id;
  const ImGuiStyle& st = ImGui::GetStyle();
  const float right = ImGui::GetCursorScreenPos().x + ImGui::CalcItemWidth() + st.ItemInnerSpacing.x +
                      ImGui::CalcTextSize(shown.c_str()).x + after;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) return id;
  text_wrapped_f("%s", shown.c_str());
  ImGui::SetNextItemWidth(-std::max(1.0f, after));
  return "##" + id;
}

/// A greyed "(?)" after the previous item that shows `text` when hovered (the ImGui demo's
/// help marker): every control whose effect is not obvious from its label gets one. On the
/// next line when the line has no room left for it.
inline void help_marker(const char* text) {
  same_line_if_fits(ImGui::CalcTextSize("(?)").x);
  ImGui::TextDisabled("(?)");
  hover_tooltip(text);
}

/// ImGui::CollapsingHeader, its label cut at the window's visible edge (the whole label in a
/// tooltip): ImGui counts the label's whole width as the window's content, so at 250% "Doors
/// and trucks" alone made the narrow side panel scroll sideways.
inline bool collapsing_header(const char* label, ImGuiTreeNodeFlags flags = 0) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float content_x = w->DC.CursorMaxPos.x;
  const bool open = ImGui::CollapsingHeader(label, flags);
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (w->DC.CursorMaxPos.x > right) {
    w->DC.CursorMaxPos.x = std::max(content_x, right);
    const std::string id(label);
    hover_tooltip(id.substr(0, id.find("##")).c_str());
  }
  return open;
}

/// The width of a button labelled `label` (what ImGui::Button makes of it). [pixels]
inline float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

/// The width of a radio button or checkbox labelled `label`. [pixels]
inline float check_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

/// A checkbox whose label wraps beside it (ImGui's does not) when it would run past the
/// window's visible edge, leaving `after` for what follows (a help marker); a click on the
/// wrapped label ticks it too.
inline bool checkbox_fitted(const char* label, bool* v, float after = 0.0f) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetCursorScreenPos().x + check_width(label) + after <= right) return ImGui::Checkbox(label, v);
  const std::string id(label);
  bool changed = ImGui::Checkbox(("##" + id).c_str(), v);
  ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
  const float origin = ImGui::GetWindowPos().x - ImGui::GetScrollX();  // the wrap position is window-local
  ImGui::PushTextWrapPos(std::max(ImGui::GetCursorScreenPos().x + ImGui::GetFontSize(), right - after) - origin);
  ImGui::TextUnformatted(id.substr(0, id.find("##")).c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemClicked()) *v = !*v, changed = true;
  return changed;
}

/// Greyed text on the rest of the line: whole when it fits, else cut at the line's end with
/// "..." and shown whole, wrapped, in a tooltip on hover. For a one-line strip where wrapping
/// would need a height it does not have.
inline void text_fitted(const char* text) {
  const float room = ImGui::GetContentRegionAvail().x;
  if (ImGui::CalcTextSize(text).x <= room) {
    ImGui::TextDisabled("%s", text);
    return;
  }
  std::string cut(text);
  while (!cut.empty() && ImGui::CalcTextSize((cut + "...").c_str()).x > room) {
    // One whole UTF-8 character off the end: its continuation bytes, then its first byte.
    while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
    if (!cut.empty()) cut.pop_back();
  }
  ImGui::TextDisabled("%s...", cut.c_str());
  hover_tooltip(text);
}

}  // namespace pathlab::sandbox
