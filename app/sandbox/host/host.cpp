#include "host/host.hpp"

#include <backends/imgui_impl_sdl.h>
#include <backends/imgui_impl_sdlrenderer.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <vector>

#include "host/quit_signal.hpp"
#include "pathlab/io/map_files.hpp"

namespace pathlab::sandbox {
namespace {

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// A scalable TTF from Debian's fonts-dejavu-core when installed; ImGui's built-in bitmap-like
// font otherwise (crisp only at its own 13 px).
const char* const kFontFiles[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"};

void base_style(bool software) {
  ImGuiStyle& st = ImGui::GetStyle();
  st = ImGuiStyle();
  ImGui::StyleColorsDark();
  if (software) {
    // SDL's software renderer draws arbitrary triangles one at a time and slowly (only
    // axis-aligned quads take its rectangle path); anti-aliasing adds feathered fringe
    // triangles to every line and disc, or rotated textured quads for thick lines. Without it
    // edges are a pixel harder and the frame is measurably cheaper (README, frame time).
    st.AntiAliasedLines = false;
    st.AntiAliasedLinesUseTex = false;
    st.AntiAliasedFill = false;
  }
}

}  // namespace

void Host::apply_ui_scale(float scale) {
  scale = std::clamp(scale, 1.0f, 2.5f);
  ImGuiIO& io = ImGui::GetIO();
  // Rebuild the atlas at the scaled size, so text is rasterised for the pixels it gets
  // (scaling a 13 px atlas up would blur it), then the renderer's font texture.
  io.Fonts->Clear();
  ImFont* font = nullptr;
  std::error_code ec;
  for (const char* f : kFontFiles)
    if (!font && std::filesystem::exists(f, ec)) font = io.Fonts->AddFontFromFileTTF(f, std::round(14.0f * scale));
  if (!font) {
    ImFontConfig cfg;
    cfg.SizePixels = std::round(13.0f * scale);
    io.Fonts->AddFontDefault(&cfg);
  }
  io.Fonts->Build();
  if (imgui_ready_) {
    ImGui_ImplSDLRenderer_DestroyFontsTexture();
    ImGui_ImplSDLRenderer_CreateFontsTexture();
  }
  base_style(software_);
  ImGui::GetStyle().ScaleAllSizes(scale);
  ui_scale_ = scale;
}

Result<std::unique_ptr<Host>> Host::create(int width, int height, bool headless) {
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    return fail(StatusCode::io_error, std::string("cannot start SDL video: ") + SDL_GetError());
  }
  std::unique_ptr<Host> h(new Host());
  h->width_ = width;
  h->height_ = height;
  const Uint32 flags = SDL_WINDOW_ALLOW_HIGHDPI | (headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
  h->window_ = SDL_CreateWindow("pathlab", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  if (!h->window_) return fail(StatusCode::io_error, std::string("cannot open a window: ") + SDL_GetError());
  SDL_SetWindowMinimumSize(h->window_, kMinWidth, kMinHeight);
  // Interactive: vsync, so a frame never runs faster than the screen shows it.
  h->renderer_ = SDL_CreateRenderer(h->window_, -1, headless ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
  if (!h->renderer_) h->renderer_ = SDL_CreateRenderer(h->window_, -1, SDL_RENDERER_SOFTWARE);
  if (!h->renderer_) return fail(StatusCode::io_error, std::string("cannot create a renderer: ") + SDL_GetError());
  SDL_RendererInfo info{};
  h->software_ = SDL_GetRendererInfo(h->renderer_, &info) == 0 && (info.flags & SDL_RENDERER_SOFTWARE) != 0;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // layout is fixed; nothing to remember between runs
  h->apply_ui_scale(1.0f);
  ImGui_ImplSDL2_InitForSDLRenderer(h->window_);
  ImGui_ImplSDLRenderer_Init(h->renderer_);
  h->imgui_ready_ = true;
  return h;
}

Host::~Host() {
  sandbox_.reset();  // frees its texture while the renderer still exists
  if (imgui_ready_) {
    ImGui_ImplSDLRenderer_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  if (renderer_) SDL_DestroyRenderer(renderer_);
  if (window_) SDL_DestroyWindow(window_);
  SDL_Quit();
}

bool Host::pump_events(int wait_ms) {
  SDL_Event e;
  bool have = wait_ms > 0 ? SDL_WaitEventTimeout(&e, wait_ms) == 1 : SDL_PollEvent(&e) == 1;
  events_ = 0;
  // ImGui 1.86 sees a key as held or not once a frame: a key pressed and let go between two
  // frames (a presenter's clicker, a quick tap while a slow frame draws) was never seen
  // pressed, and a lesson step was skipped. Such a key's release waits for the next frame.
  std::vector<SDL_Event> later;
  std::vector<SDL_Scancode> pressed;
  while (have) {
    ++events_;
    if (e.type == SDL_KEYUP && std::find(pressed.begin(), pressed.end(), e.key.keysym.scancode) != pressed.end()) {
      later.push_back(e);
      have = SDL_PollEvent(&e) == 1;
      continue;
    }
    if (e.type == SDL_KEYDOWN) pressed.push_back(e.key.keysym.scancode);
    ImGui_ImplSDL2_ProcessEvent(&e);
    const bool close = e.type == SDL_QUIT || (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE);
    // Closing with unsaved edits asks first (the sandbox's dialog); without a sandbox, quit.
    if (close && sandbox_) sandbox_->request_quit();
    else if (close) quit_ = true;
    have = SDL_PollEvent(&e) == 1;
  }
  for (SDL_Event& up : later) SDL_PushEvent(&up);
  // A quit signal ends the app without asking (quit_signal.hpp); the caller writes the autosave.
  if (quit_signal() != 0) return false;
  return !quit_ && !(sandbox_ && sandbox_->quit_confirmed());
}

void Host::frame(const std::function<void(ImGuiIO&)>& input, std::vector<uint8_t>* capture) {
  if (sandbox_ && sandbox_->ui_scale() != ui_scale_) apply_ui_scale(sandbox_->ui_scale());  // between frames only
  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  if (fixed_frame_seconds_ > 0.0f) io.DeltaTime = fixed_frame_seconds_;
  if (input) input(io);
  const double t0 = thread_cpu_ms();
  ImGui::NewFrame();
  sandbox_->frame();
  ImGui::Render();
  const double t1 = thread_cpu_ms();
  SDL_RenderSetScale(renderer_, io.DisplayFramebufferScale.x, io.DisplayFramebufferScale.y);
  sandbox_->render();
  const double t2 = thread_cpu_ms();
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
  const double t3 = thread_cpu_ms();
  if (capture) {
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(renderer_, &w, &h);
    width_ = w;
    height_ = h;
    capture->assign(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, 0);
    SDL_RenderReadPixels(renderer_, nullptr, SDL_PIXELFORMAT_ABGR8888, capture->data(), w * 4);
  }
  SDL_RenderPresent(renderer_);
  times_ = FrameTimes{t1 - t0, t2 - t1, t3 - t2, thread_cpu_ms() - t3};
}

Status save_capture(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba) {
  return io::write_png_rgba(path, width, height, rgba.data());
}

}  // namespace pathlab::sandbox
