// Panel text wraps at spaces only (app/sandbox/inspect/wrapped_text.hpp): Dear ImGui 1.86's
// own wrapping also breaks after '.', which cut "1.48 cells/s" into "1." and "48 cells/s" in
// the Why panel.

#include <doctest/doctest.h>

#include <imgui.h>

#include <sstream>
#include <string>
#include <vector>

#include "inspect/wrapped_text.hpp"

using namespace pathlab::sandbox;

namespace {

/// An ImGui context with its default font, inside a frame (CalcTextSize needs both).
struct FontFrame {
  FontFrame() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
  }
  ~FontFrame() {
    ImGui::EndFrame();
    ImGui::DestroyContext();
  }
};

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("wrapped text: numbers stay whole and no line is wider than the room") {
  FontFrame frame;
  const std::string text = "follows its route at 2.00 cells/s; its route asks 1.56 cells/s, ORCA allows 1.48 cells/s, 0.38 cells/s off";
  for (float width : {60.0f, 90.0f, 140.0f, 230.0f, 400.0f}) {
    CAPTURE(width);
    const std::string out = break_at_spaces(text.c_str(), width);
    // Only spaces became line breaks: joining the lines with spaces gives the text back.
    std::string joined;
    for (const std::string& l : lines_of(out)) {
      CHECK(ImGui::CalcTextSize(l.c_str()).x <= width + 0.01f);
      joined += (joined.empty() ? "" : " ") + l;
    }
    CHECK(joined == text);
    CHECK(out.find("1.\n") == std::string::npos);
  }
  // ImGui's own wrap cuts after the '.' of "1.48" at some width; ours never does.
  bool imgui_cuts_a_number = false;
  for (float width = 40.0f; width < 400.0f; width += 1.0f) {
    const char* end = text.c_str() + text.size();
    const char* cut = ImGui::GetFont()->CalcWordWrapPositionA(1.0f, text.c_str(), end, width);
    if (cut > text.c_str() && cut < end && cut[-1] == '.' && cut[0] >= '0' && cut[0] <= '9') imgui_cuts_a_number = true;
  }
  CHECK(imgui_cuts_a_number);
}

TEST_CASE("wrapped text: its own line breaks stay and a word wider than the room is cut, not lost") {
  FontFrame frame;
  const std::string out = break_at_spaces("first line\nsecond", 1000.0f);
  CHECK(out == "first line\nsecond");
  const std::string word = "/a/very/long/path/without/any/space/in/it/scene.json";
  const std::string cut = break_at_spaces(word.c_str(), 80.0f);
  std::string joined;
  for (const std::string& l : lines_of(cut)) {
    CHECK(ImGui::CalcTextSize(l.c_str()).x <= 80.01f);
    joined += l;
  }
  CHECK(joined == word);
  CHECK(lines_of(cut).size() > 1);
}
