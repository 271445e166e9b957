// pathlab: the sandbox.
//
//   pathlab [SCENE] [--screenshot OUT.png] [--frames N] [--bench-frames N]
//
// SCENE is a scene .json, a Moving AI .map or a PNG map (default: the demo scene).
// --screenshot renders N frames (default 3) and saves the last as a PNG, then exits.
// --bench-frames renders N frames and prints frame-time statistics, then exits.
// Headless: SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "host.hpp"
#include "map_files.hpp"
#include "scene_file.hpp"

using namespace pathlab;

namespace {

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "error: %s\nusage: pathlab [SCENE] [--screenshot OUT.png] [--frames N] [--bench-frames N]\n",
               msg.c_str());
  return 2;
}

bool parse_count(const char* s, long& out) {
  char* end = nullptr;
  out = std::strtol(s, &end, 10);
  return end && *end == '\0' && out > 0 && out <= 1000000;
}

io::Scene empty_scene() {
  io::Scene s;
  s.name = "empty";
  s.grid = Grid::create(64, 40).value();
  s.start.pos = Vec2(4.5, 20.5);
  s.goal.pos = Vec2(59.5, 20.5);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string scene_path, screenshot;
  long frames = 3, bench_frames = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)name;
      return argv[++i];
    };
    if (a == "--screenshot") {
      const char* v = value("--screenshot");
      if (!v) return usage_error("--screenshot needs a file name");
      screenshot = v;
    } else if (a == "--frames") {
      const char* v = value("--frames");
      if (!v || !parse_count(v, frames)) return usage_error("--frames needs a count from 1 to 1000000");
    } else if (a == "--bench-frames") {
      const char* v = value("--bench-frames");
      if (!v || !parse_count(v, bench_frames)) return usage_error("--bench-frames needs a count from 1 to 1000000");
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: pathlab [SCENE] [--screenshot OUT.png] [--frames N] [--bench-frames N]\n");
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option " + a);
    } else if (scene_path.empty()) {
      scene_path = a;
    } else {
      return usage_error("more than one scene given");
    }
  }

  io::Scene scene;
  const bool explicit_scene = !scene_path.empty();
  if (!explicit_scene) scene_path = std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json";
  const bool is_scene = scene_path.size() > 5 && scene_path.substr(scene_path.size() - 5) == ".json";
  if (is_scene) {
    auto s = io::load_scene(scene_path);
    if (!s) {
      if (explicit_scene) return usage_error(s.error().message);
      std::fprintf(stderr, "warning: %s; starting with an empty map\n", s.error().message.c_str());
      scene = empty_scene();
    } else {
      scene = std::move(*s);
    }
  } else {
    auto g = io::load_map_file(scene_path);
    if (!g) return usage_error(g.error().message);
    scene = empty_scene();
    scene.grid = std::move(*g);
    scene.name = scene_path;
    sandbox::place_default_poses(scene);
    scene_path.clear();
  }

  const bool headless = !screenshot.empty() || bench_frames > 0;
  // Unsaved work is autosaved here; an autosave left at start-up means the last session
  // crashed, so it is reopened instead of the demo (interactive runs only).
  std::string state_dir;
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) state_dir = std::string(xdg) + "/pathlab";
  else if (const char* home = std::getenv("HOME"); home && *home) state_dir = std::string(home) + "/.local/state/pathlab";
  std::string restored;
  if (!headless && !explicit_scene && !state_dir.empty()) {
    if (auto a = io::load_scene(state_dir + "/autosave.json")) {
      scene = std::move(*a);
      restored = state_dir + "/autosave.json";
    }
  }
  auto host = sandbox::Host::create(1280, 800, headless);
  if (!host) return usage_error((*host.error().message.c_str()) ? host.error().message : "cannot start");
  (*host)->set_sandbox(std::make_unique<sandbox::Sandbox>((*host)->renderer(), std::move(scene), is_scene ? scene_path : ""));
  if (!headless) (*host)->sandbox().set_state_dir(state_dir);
  if (!restored.empty()) std::fprintf(stderr, "restored unsaved work from %s\n", restored.c_str());

  if (bench_frames > 0) {
    std::vector<double> ms;
    for (long i = 0; i < bench_frames; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      (*host)->pump_events();
      (*host)->frame();
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    auto pct = [&](double p) { return ms[std::min(ms.size() - 1, static_cast<size_t>(p * static_cast<double>(ms.size())))]; };
    std::printf("%ld frames at %dx%d: median %.2f ms, p95 %.2f ms, max %.2f ms\n", bench_frames, (*host)->width(),
                (*host)->height(), pct(0.5), pct(0.95), ms.back());
    return 0;
  }
  if (!screenshot.empty()) {
    std::vector<uint8_t> pixels;
    for (long i = 0; i < frames; ++i) {
      (*host)->pump_events();
      (*host)->frame({}, i + 1 == frames ? &pixels : nullptr);
    }
    auto st = sandbox::save_capture(screenshot, (*host)->width(), (*host)->height(), pixels);
    if (!st) return usage_error(st.error().message);
    std::printf("saved %s\n", screenshot.c_str());
    return 0;
  }
  while ((*host)->pump_events()) (*host)->frame();
  (*host)->sandbox().finish();
  return 0;
}
