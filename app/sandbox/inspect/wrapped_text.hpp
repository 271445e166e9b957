#pragma once
// Wrapped panel text that breaks lines at spaces only. Dear ImGui 1.86's own wrapping
// (TextWrapped, PushTextWrapPos) may also break after '.' and ',', so "allows 1.48 cells/s"
// came out as "allows 1." over "48 cells/s" in the Why panel: a number cut in two reads as two
// numbers on a projector.

#include <imgui.h>
#include <imgui_internal.h>

#include <cstdarg>
#include <cstdio>
#include <string>

namespace pathlab::sandbox {

/// The last byte index <= `end` that starts a UTF-8 character of `s` (a cut there never splits
/// a character).
inline size_t utf8_boundary(const std::string& s, size_t end) {
  while (end > 0 && end < s.size() && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return end;
}

/// `line` (no '\n') cut into lines of at most `width` pixels: at spaces, and inside a word only
/// when the word alone is wider than a line. [width: pixels, Limit: > 0]
inline void break_line_at_spaces(const std::string& line, float width, std::string& out) {
  std::string current;
  size_t i = 0;
  while (i <= line.size()) {
    size_t space = line.find(' ', i);
    if (space == std::string::npos) space = line.size();
    std::string word = line.substr(i, space - i);
    const std::string joined = current.empty() ? word : current + " " + word;
    if (current.empty() || ImGui::CalcTextSize(joined.c_str()).x <= width) {
      current = joined;
    } else {
      out += current + "\n";
      current = word;
    }
    // A word wider than the line on its own: cut it where it runs out of room.
    while (current.size() > 1 && ImGui::CalcTextSize(current.c_str()).x > width) {
      size_t cut = current.size() - 1;
      while (cut > 1 && ImGui::CalcTextSize(current.c_str(), current.c_str() + cut).x > width) --cut;
      cut = utf8_boundary(current, cut);
      if (cut == 0) break;
      out += current.substr(0, cut) + "\n";
      current = current.substr(cut);
    }
    i = space + 1;
  }
  out += current;
}

/// `text` with line breaks inserted so no line is wider than `width` pixels; its own '\n'
/// breaks are kept. [width: pixels, Limit: > 0]
inline std::string break_at_spaces(const char* text, float width) {
  const std::string all(text);
  std::string out;
  size_t start = 0;
  while (true) {
    const size_t nl = all.find('\n', start);
    break_line_at_spaces(all.substr(start, nl == std::string::npos ? std::string::npos : nl - start), width, out);
    if (nl == std::string::npos) break;
    out += "\n";
    start = nl + 1;
  }
  return out;
}

/// `text` wrapped where ImGui::TextWrapped would wrap it (the pushed text wrap position, else
/// the content region's edge; every line starts where the first does), broken at spaces only.
inline void text_wrapped(const char* text) {
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float wrap_pos = window->DC.TextWrapPos < 0.0f ? 0.0f : window->DC.TextWrapPos;
  const float width = ImGui::CalcWrapWidthForPos(ImGui::GetCursorScreenPos(), wrap_pos);
  if (width <= ImGui::GetFontSize()) {
    ImGui::TextUnformatted(text);
    return;
  }
  ImGui::TextUnformatted(break_at_spaces(text, width).c_str());
}

/// printf-style text_wrapped(): ImGui::TextWrapped's arguments, wrapped at spaces only.
inline void text_wrapped_f(const char* fmt, ...) IM_FMTARGS(1);
inline void text_wrapped_f(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string text(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, fmt, again);
  va_end(again);
  text_wrapped(text.c_str());
}

}  // namespace pathlab::sandbox
