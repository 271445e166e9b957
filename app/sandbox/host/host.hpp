#pragma once
// Owns the SDL window and renderer, the ImGui context and the Sandbox, and runs frames.
// Shared by the desktop app and the headless UI tests (which inject mouse input per frame).

#include <SDL.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pathlab/status.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {

class Host {
 public:
  /// The smallest window the layout is made for (nothing is clipped at 100% UI scale). [pixels]
  static constexpr int kMinWidth = 960, kMinHeight = 600;
  /// Creates the window (hidden when headless), the renderer and ImGui. Errors name SDL's reason.
  static Result<std::unique_ptr<Host>> create(int width, int height, bool headless);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  void set_sandbox(std::unique_ptr<Sandbox> sandbox) { sandbox_ = std::move(sandbox); }
  Sandbox& sandbox() { return *sandbox_; }
  SDL_Renderer* renderer() { return renderer_; }
  SDL_Window* window() { return window_; }

  /// Handles pending SDL events, first waiting up to `wait_ms` for one (0: no wait; the idle
  /// app sleeps here instead of drawing frames nobody needs). Returns false once the app
  /// should exit: the window was closed and the sandbox had nothing unsaved or the user chose,
  /// or a quit signal arrived (quit_signal.hpp: no asking, the caller autosaves).
  bool pump_events(int wait_ms = 0);
  /// How many events the last pump_events() handled.
  int events() const { return events_; }
  /// One frame. `input` runs after the platform backend's NewFrame and before ImGui::NewFrame,
  /// the only place where a scripted mouse position and buttons stick (the 1.86 backend polls
  /// the real mouse). When `capture` is set, the frame's pixels are read before presenting.
  void frame(const std::function<void(ImGuiIO&)>& input = {}, std::vector<uint8_t>* capture = nullptr);
  /// Every frame lasts `seconds` of UI time (io.DeltaTime, set before `input` runs, which may
  /// still change it), whatever the wall clock says; 0: the wall clock (the default). Scripted
  /// runs use it so that double-click detection (0.3 s) and the units' steps do not depend on
  /// how loaded the machine is. [Units: s] [Limit: >= 0]
  void set_fixed_frame_seconds(float seconds) { fixed_frame_seconds_ = seconds; }
  /// Rebuilds the font atlas and the style for a UI scale (1 = 100%, up to 2.5). Frame() calls
  /// it when the sandbox's scale changed.
  void apply_ui_scale(float scale);
  float ui_scale() const { return ui_scale_; }
  int width() const { return width_; }
  int height() const { return height_; }
  bool software() const { return software_; }

  /// This thread's CPU time spent in each part of the last frame [ms]: building the UI and
  /// planning (Sandbox::frame), blitting the map (Sandbox::render), rasterising ImGui's draw
  /// data (which runs the canvas's SDL batches too), and presenting. The bench prints them so a
  /// slow frame says where it went.
  struct FrameTimes {
    double build = 0, map = 0, imgui = 0, present = 0;
  };
  const FrameTimes& last_times() const { return times_; }

 private:
  Host() = default;
  SDL_Window* window_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  bool imgui_ready_ = false;
  int width_ = 0, height_ = 0;
  bool software_ = false;
  bool quit_ = false;
  float ui_scale_ = 0.0f;
  float fixed_frame_seconds_ = 0.0f;
  int events_ = 0;
  FrameTimes times_;
  std::unique_ptr<Sandbox> sandbox_;
};

/// Writes captured RGBA pixels as a PNG.
Status save_capture(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace pathlab::sandbox
