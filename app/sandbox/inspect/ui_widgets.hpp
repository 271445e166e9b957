#pragma once
// Small ImGui helpers shared by the sandbox's panels.

#include <imgui.h>

namespace pathlab::sandbox {

/// A greyed "(?)" after the previous item that shows `text` when hovered (the ImGui demo's
/// help marker): every control whose effect is not obvious from its label gets one.
inline void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace pathlab::sandbox
