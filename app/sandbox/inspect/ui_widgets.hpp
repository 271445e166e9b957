#pragma once
// Small ImGui helpers shared by the sandbox's panels.

#include <imgui.h>

#include <string>

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

/// A greyed "(?)" after the previous item that shows `text` when hovered (the ImGui demo's
/// help marker): every control whose effect is not obvious from its label gets one.
inline void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  hover_tooltip(text);
}

/// SameLine() when an item `width` pixels wide still fits on the line, else the item starts a
/// new line: a row of controls wraps in a narrow strip (a large UI scale) instead of running
/// off its edge.
inline void same_line_if_fits(float width) {
  const float after = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
  if (after + width <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

/// The width of a button labelled `label` (what ImGui::Button makes of it). [pixels]
inline float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;
}

/// The width of a radio button or checkbox labelled `label`. [pixels]
inline float check_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
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
