#pragma once
// The real sandbox, headless (SDL dummy video driver, software renderer), for scripted UI
// tests: each frame's input is set between the backend's NewFrame and ImGui::NewFrame().

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <unistd.h>

#include "host/host.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::test {

struct SandboxUi {
  std::unique_ptr<sandbox::Host> host;

  /// Opens `scene` and renders `warmup` idle frames (the first plan and layout). `path` is the
  /// file it came from ("" for none), `is_scene` false for an imported map.
  SandboxUi(io::Scene scene, int warmup, const std::string& path = "", bool is_scene = true) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    setenv("SDL_RENDER_DRIVER", "software", 1);
    auto h = sandbox::Host::create(1280, 800, true);
    REQUIRE_MESSAGE(h.ok(), (h.ok() ? "" : h.error().message));
    host = std::move(*h);
    host->set_fixed_frame_seconds(1.0f / 60.0f);  // the same run on a loaded machine (double-clicks, units)
    ImGui::GetIO().IniFilename = nullptr;  // the host does this too; tests must never write one
    host->set_sandbox(std::make_unique<sandbox::Sandbox>(host->renderer(), std::move(scene), path, is_scene));
    // Each frame shows the plan of its own inputs (the app waits only a few ms, then draws the
    // last result while the worker finishes).
    sb().set_plan_wait_ms(60000);
    idle(warmup);
  }
  sandbox::Sandbox& sb() { return host->sandbox(); }
  /// Frames with the mouse away from every window and no button held.
  void idle(int frames) {
    for (int i = 0; i < frames; ++i)
      host->frame([](ImGuiIO& io) {
        io.MousePos = ImVec2(-1, -1);
        for (bool& b : io.MouseDown) b = false;
      });
  }
  /// One frame with the mouse at `p` (screen pixels), the left button held or not.
  void mouse_at(ImVec2 p, bool down) {
    host->frame([&](ImGuiIO& io) {
      io.MousePos = p;
      for (bool& b : io.MouseDown) b = false;
      io.MouseDown[0] = down;
    });
  }
  /// A left click at `p`: move there, press, release.
  void click(ImVec2 p) {
    mouse_at(p, false);
    mouse_at(p, true);
    mouse_at(p, false);
  }
  /// Clicks the centre of a control the sandbox remembered (Sandbox::widget_rect). Fails the
  /// test when it was not drawn last frame.
  void click_widget(const std::string& name) {
    const std::pair<ImVec2, ImVec2> lo_hi = sb().widget_rect(name);  // no structured binding: lambdas capture these (clang 14)
    const ImVec2 lo = lo_hi.first, hi = lo_hi.second;
    REQUIRE_MESSAGE(hi.x > lo.x, "control not on screen: " << name);
    click(ImVec2((lo.x + hi.x) / 2, (lo.y + hi.y) / 2));
  }
  /// A key (an ImGui KeysDown index: an SDL scancode) pressed for one frame, with Ctrl or not.
  void key(int index, bool ctrl = false, bool shift = false) {
    host->frame([&](ImGuiIO& io) {
      io.MousePos = ImVec2(-1, -1);
      io.KeyCtrl = ctrl;
      io.KeyShift = shift;
      io.KeysDown[index] = true;
    });
    host->frame([&](ImGuiIO& io) {
      io.KeyCtrl = false;
      io.KeyShift = false;
      io.KeysDown[index] = false;
    });
  }
};

/// A fresh scratch folder under the system's temporary folder, removed when the test ends.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& name) {
    path = std::filesystem::temp_directory_path() / ("pathlab_test_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

/// An open map of `width` x `height` cells named `name`, start and goal on row 8 (the middle of
/// the default 16 rows), 2.5 cells in from the left and right edges. [Units: cells]
inline io::Scene small_scene(const std::string& name, int width = 30, int height = 16) {
  io::Scene s;
  s.name = name;
  s.grid = Grid::create(width, height).value();
  s.start.pos = Vec2(2.5, 8.5);
  s.goal.pos = Vec2(width - 2.5, 8.5);
  return s;
}

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace pathlab::test
