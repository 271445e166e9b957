// A monkey test: thousands of random inputs (moves, clicks, drags, the wheel, keys, typed text)
// on the real sandbox with a fixed seed. It must not crash (nor, in the sanitizer build, make
// a sanitizer report), and no file outside its scratch folder may be written: the bundled
// assets are checked byte for byte afterwards.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <vector>
#include <map>
#include <random>

#include "document/gallery.hpp"
#include "inspect/inspector.hpp"
#include "panels/file_dialog.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;
namespace fs = std::filesystem;

namespace {

/// Every file under `dir` with its content.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[e.path().string()] = test::file_bytes(e.path().string());
  return out;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

struct Chdir {
  fs::path old = fs::current_path();
  explicit Chdir(const fs::path& to) { fs::current_path(to); }
  ~Chdir() { fs::current_path(old); }
};

}  // namespace

TEST_CASE("monkey: random input for a few seconds, no crash, no file written outside the scratch folder") {
  test::ScratchDir tmp("monkey");
  const auto assets_before = snapshot(PATHLAB_ASSETS_DIR);
  const auto names_before = names_in(fs::current_path());
  Chdir cd(tmp.path);  // relative names typed into file fields land here
  setenv("HOME", tmp.path.c_str(), 1);
  setenv("XDG_STATE_HOME", (tmp.path / "state").c_str(), 1);
  auto demo = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json");
  REQUIRE(demo.ok());
  test::SandboxUi ui(std::move(*demo), 2, std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json");
  ui.sb().set_state_dir((tmp.path / "state").string());
  ui.sb().set_work_dir(tmp.path.string());
  ui.sb().inspector().set_export_dir(tmp.path.string());
  ui.sb().set_plan_wait_ms(0);  // as the app: the worker plans while frames go on

  std::mt19937 rng(20261124u);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  const int keys[] = {ImGui::GetKeyIndex(ImGuiKey_Z), ImGui::GetKeyIndex(ImGuiKey_Y), SDL_SCANCODE_S, SDL_SCANCODE_F,
                      ImGui::GetKeyIndex(ImGuiKey_Space), ImGui::GetKeyIndex(ImGuiKey_LeftArrow),
                      ImGui::GetKeyIndex(ImGuiKey_RightArrow), ImGui::GetKeyIndex(ImGuiKey_Home),
                      ImGui::GetKeyIndex(ImGuiKey_End), ImGui::GetKeyIndex(ImGuiKey_Escape),
                      ImGui::GetKeyIndex(ImGuiKey_Enter), ImGui::GetKeyIndex(ImGuiKey_Tab), SDL_SCANCODE_1,
                      SDL_SCANCODE_2, SDL_SCANCODE_3, SDL_SCANCODE_4, SDL_SCANCODE_5, SDL_SCANCODE_6, SDL_SCANCODE_M,
                      SDL_SCANCODE_F1, ImGui::GetKeyIndex(ImGuiKey_Backspace), SDL_SCANCODE_O};
  ImVec2 mouse(400, 300);
  bool down[3] = {false, false, false};
  int inputs = 0, dialog_frames = 0;
  const int frames = 1100;
  for (int f = 0; f < frames; ++f) {
    // Several inputs per frame: a move (small, as a drag, or a jump), maybe a button change,
    // maybe the wheel, maybe a key with or without Ctrl, maybe typed characters.
    const float w = static_cast<float>(ui.host->width()), h = static_cast<float>(ui.host->height());
    if (pick(4) == 0) mouse = ImVec2(static_cast<float>(pick(static_cast<int>(w))), static_cast<float>(pick(static_cast<int>(h))));
    else mouse = ImVec2(std::clamp(mouse.x + static_cast<float>(pick(61) - 30), 0.0f, w - 1),
                        std::clamp(mouse.y + static_cast<float>(pick(61) - 30), 0.0f, h - 1));
    ++inputs;
    const int b = pick(10) < 8 ? 0 : 1 + pick(2);
    if (pick(3) == 0) down[b] = !down[b], ++inputs;
    const float wheel = pick(8) == 0 ? static_cast<float>(pick(3) - 1) : 0.0f;
    inputs += wheel != 0.0f;
    const int key = pick(3) == 0 ? keys[pick(IM_ARRAYSIZE(keys))] : -1;
    const bool ctrl = pick(3) == 0, shift = pick(6) == 0;
    inputs += key >= 0;
    const char typed = pick(6) == 0 ? "ab./x1j-_son~ "[pick(14)] : '\0';
    inputs += typed != '\0';
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = mouse;
      for (int i = 0; i < 3; ++i) io.MouseDown[i] = down[i];
      io.MouseWheel = wheel;
      io.KeyCtrl = ctrl;
      io.KeyShift = shift;
      for (bool& k : io.KeysDown) k = false;
      if (key >= 0) io.KeysDown[key] = true;
      if (typed) io.AddInputCharacter(static_cast<unsigned>(typed));
    });
    // The file dialogs and the restore question get answered at random too, in time.
    if (f % 97 == 0) ui.sb().request_open((tmp.path / "nothing-here.json").string());
    // The file dialog wanders at random too (Backspace, its up arrow, typed paths): it is closed
    // once it leaves the scratch folder, before a random Enter could save a scene elsewhere.
    FileDialog& dialog = ui.sb().file_dialog();
    dialog_frames += dialog.is_open();
    if (dialog.is_open() && dialog.browser().folder().rfind(tmp.path.string(), 0) != 0) dialog.close();
  }
  MESSAGE(inputs << " random inputs over " << frames << " frames; " << ui.sb().plan().plans << " plans; "
                 << dialog_frames << " frames with the file dialog open");
  CHECK(inputs > 2000);
  ui.host.reset();  // the sandbox, its worker and SDL go before the checks
  CHECK(snapshot(PATHLAB_ASSETS_DIR) == assets_before);
  // The folder the test started in (where a relative name would land without the chdir).
  CHECK(names_in(cd.old) == names_before);
}
