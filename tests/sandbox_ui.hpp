#pragma once
// The real sandbox, headless (SDL dummy video driver, software renderer), for scripted UI
// tests: each frame's input is set between the backend's NewFrame and ImGui::NewFrame().

#include <doctest/doctest.h>

#include <cstdlib>
#include <memory>

#include "host.hpp"
#include "scene_file.hpp"

namespace pathlab::test {

struct SandboxUi {
  std::unique_ptr<sandbox::Host> host;

  /// Opens `scene` and renders `warmup` idle frames (the first plan and layout).
  SandboxUi(io::Scene scene, int warmup) {
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    setenv("SDL_RENDER_DRIVER", "software", 1);
    auto h = sandbox::Host::create(1280, 800, true);
    REQUIRE_MESSAGE(h.ok(), (h.ok() ? "" : h.error().message));
    host = std::move(*h);
    ImGui::GetIO().IniFilename = nullptr;  // the host does this too; tests must never write one
    host->set_sandbox(std::make_unique<sandbox::Sandbox>(host->renderer(), std::move(scene), ""));
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
};

}  // namespace pathlab::test
