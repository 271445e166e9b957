// pathlab: the sandbox.
//
//   pathlab [SCENE] [--screenshot OUT.png] [--frames N] [--bench-frames N] [--bench-replan] [--all-overlays]
//           [--ui-scale PCT] [--bench-crowd [--bench-units N]] [--paused] [--planner NAME] [--record-until T --save-repro OUT] [--link TEXT]
//
// SCENE is a scene .json, a Moving AI .map or a PNG map (default: the demo scene), a repro
// (.repro.json: its run replayed) or a lesson (.lesson.json: presented from its first step).
// --screenshot renders N frames (default 3) and saves the last as a PNG, then exits.
// --frames N alone renders N frames headless, prints what the last plan found, then exits.
// --bench-frames renders N frames and prints frame-time statistics, then exits.
// --bench-replan (with --bench-frames) marks the map edited before every frame, as painting
//   does, so the figures include a full re-plan each frame.
// --all-overlays switches on every canvas layer: the search, the raw path, curvature colours,
//   unit routes and look-ahead points, and every overlay of the inspector (the frame-time
//   target is measured with them all on).
// --bench-crowd replaces the scene by the crowd scenario (crowd_bench.hpp: 200 units crowding
//   through doorways on a 256x256 map), for --bench-frames or --screenshot; --bench-units N
//   (1..10000) spawns N units in blocks of the same mix instead of 200.
// --paused opens with the units standing still (with --bench-frames: frames that time the
//   drawing of the units, not their steps).
// --ui-scale PCT (100..250) sets the UI scale for this run (otherwise the remembered one).
// --planner NAME opens the scene with another planner (its default smoother), as an unsaved
//   edit: try a shared scene or bug report with theta or hybrid without editing its file first;
//   Ctrl+S keeps the change, Ctrl+Z undoes it.
// --record-until T --save-repro OUT steps the scene's units for T simulated seconds headless
//   (as the Step button does) and writes the repro file of the run, the same bytes as
//   `pathlab-cli record --scene SCENE --until T --out OUT` (issue 25). An existing OUT is
//   replaced only if it is a repro.
// --link TEXT opens what a scene link holds (a URL with #scene=... or #lesson=...&step=N, or
//   just the fragment; see README.md, "Scene links") instead of SCENE: the scene untitled, never
//   written by itself (Save asks for a file name), or the lesson presented at the link's step.
// Interactive runs quit on SIGTERM, SIGINT and SIGHUP without asking: unsaved edits go to the
// autosave, which the next start offers to restore (host/quit_signal.hpp). Ctrl+Q or closing
// the window asks first when there are unsaved edits. A broken X connection (xkill, the window
// destroyed under the app) ends the process inside Xlib; its exit still keeps the edits.
// Headless: SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "units/crowd_bench.hpp"
#include "units/units_record.hpp"
#include "host/host.hpp"
#include "pathlab/io/lesson_file.hpp"
#include "pathlab/io/map_files.hpp"
#include "host/quit_signal.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"

using namespace pathlab;

namespace {

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "error: %s\nusage: pathlab [SCENE] [--screenshot OUT.png] [--frames N] [--bench-frames N] [--bench-replan] [--all-overlays] [--ui-scale PCT] [--bench-crowd [--bench-units N]] [--paused] [--planner NAME] [--record-until T --save-repro OUT] [--link TEXT]\n",
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

std::string plan_names() {
  std::string out;
  for (const plan::PlannerInfo& p : plan::planners()) out += (out.empty() ? "" : ", ") + std::string(p.name);
  return out;
}

struct Options {
  std::string scene_path, screenshot, planner, save_repro, link;
  double record_until = -1.0;  ///< [Units: s]; < 0: not recording
  long frames = 3, bench_frames = 0, ui_scale_pct = 0;
  long bench_units = 0;  ///< --bench-units: the crowd bench's unit count; 0: its 200
  bool frames_given = false, bench_replan = false, all_overlays = false, bench_crowd = false;
  bool paused = false;  ///< --paused: the units stand still (a bench then times the drawing alone)
};

/// Reads the command line into `o`. Returns -1 to go on, else the exit status.
int parse_args(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--screenshot") {
      const char* v = value();
      if (!v) return usage_error("--screenshot needs a file name");
      o.screenshot = v;
    } else if (a == "--frames") {
      const char* v = value();
      if (!v || !parse_count(v, o.frames)) return usage_error("--frames needs a count from 1 to 1000000");
      o.frames_given = true;
    } else if (a == "--ui-scale") {
      const char* v = value();
      if (!v || !parse_count(v, o.ui_scale_pct) || o.ui_scale_pct < 100 || o.ui_scale_pct > 250)
        return usage_error("--ui-scale needs a percentage from 100 to 250");
    } else if (a == "--planner") {
      const char* v = value();
      if (!v || !plan::find_planner(v))
        return usage_error(std::string("--planner needs a planner name: ") + (v ? "unknown planner '" + std::string(v) + "' (" : "(") +
                           plan_names() + ")");
      o.planner = v;
    } else if (a == "--record-until") {
      const char* v = value();
      char* end = nullptr;
      o.record_until = v ? std::strtod(v, &end) : -1.0;
      if (!v || *end != '\0' || !(o.record_until > 0.0 && o.record_until <= 1e5))
        return usage_error("--record-until needs simulated seconds, more than 0 and at most 100000");
    } else if (a == "--save-repro") {
      const char* v = value();
      if (!v || !*v) return usage_error("--save-repro needs a file name");
      o.save_repro = v;
    } else if (a == "--link") {
      const char* v = value();
      if (!v || !*v) return usage_error("--link needs a link (a URL with #scene=... or #lesson=...&step=N)");
      o.link = v;
    } else if (a == "--bench-replan") {
      o.bench_replan = true;
    } else if (a == "--bench-crowd") {
      o.bench_crowd = true;
    } else if (a == "--bench-units") {
      const char* v = value();
      if (!v || !parse_count(v, o.bench_units) || o.bench_units > sandbox::kMaxCrowdBenchUnits)
        return usage_error("--bench-units needs a count from 1 to " + std::to_string(sandbox::kMaxCrowdBenchUnits));
    } else if (a == "--paused") {
      o.paused = true;
    } else if (a == "--all-overlays") {
      o.all_overlays = true;
    } else if (a == "--bench-frames") {
      const char* v = value();
      if (!v || !parse_count(v, o.bench_frames)) return usage_error("--bench-frames needs a count from 1 to 1000000");
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: pathlab [SCENE] [--screenshot OUT.png] [--frames N] [--bench-frames N] [--bench-replan] [--all-overlays] [--ui-scale PCT] [--bench-crowd [--bench-units N]] [--paused] [--planner NAME] [--record-until T --save-repro OUT] [--link TEXT]\n");
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option " + a);
    } else if (o.scene_path.empty()) {
      o.scene_path = a;
    } else {
      return usage_error("more than one scene given");
    }
  }
  if (!o.link.empty() && (!o.scene_path.empty() || o.bench_crowd)) return usage_error("--link replaces SCENE and --bench-crowd: give one");
  if (o.bench_replan && o.bench_frames == 0) return usage_error("--bench-replan needs --bench-frames N");
  if (o.bench_units > 0 && !o.bench_crowd) return usage_error("--bench-units N needs --bench-crowd");
  if ((o.record_until > 0.0) != !o.save_repro.empty()) return usage_error("--record-until T and --save-repro OUT go together");
  if (!o.save_repro.empty()) {
    // Checked before anything runs: a user's file is never written over.
    if (const std::string e = io::check_repro_target(o.save_repro); !e.empty()) return usage_error("--save-repro: " + e);
  }
  return -1;
}

/// The scene to start with: the one named, else the demo. Sets `path` to the file it came
/// from ("" for the built-in empty map) and `is_scene` false for an imported map. Returns -1 to
/// go on, else the exit status.
int load_initial(std::string& path, io::Scene& scene, bool& is_scene) {
  const bool explicit_scene = !path.empty();
  if (!explicit_scene) path = std::string(PATHLAB_ASSETS_DIR) + "/scenes/demo.json";
  is_scene = path.size() > 5 && path.substr(path.size() - 5) == ".json";
  if (is_scene) {
    auto s = plan::load_scene(path);
    if (!s) {
      if (explicit_scene) return usage_error(s.error().message);
      std::fprintf(stderr, "warning: %s; starting with an empty map\n", s.error().message.c_str());
      scene = empty_scene();
      path.clear();
    } else {
      scene = std::move(*s);
    }
    return -1;
  }
  auto g = io::load_map_file(path);
  if (!g) return usage_error(g.error().message);
  scene = empty_scene();
  scene.grid = std::move(*g);
  scene.name = path;
  sandbox::place_default_poses(scene);
  return -1;
}

// Headless runs advance the frame clock by 1/60 s a frame, as a 60 Hz display would, so N
// frames are N/60 s of simulation on any machine and a screenshot after N frames is the same
// picture every time: a fast headless frame would otherwise step the units a few ms only, and
// the crowd bench would never reach the crowding it is meant to time.
void sixty_hz_clock(ImGuiIO& io) { io.DeltaTime = 1.0f / 60.0f; }

int run_bench(sandbox::Host& host, const Options& o) {
  // Wall time is what the user sees; CPU time of this thread is what the frame costs, and
  // stays meaningful on a loaded machine (CI, a shared build box) where wall time is not.
  sandbox::Sandbox& sb = host.sandbox();
  std::vector<double> ms, cpu, build, map, raster;
  auto cpu_ms = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
  };
  for (long i = 0; i < o.bench_frames; ++i) {
    if (o.bench_replan) sb.map_changed();
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_ms();
    host.pump_events();
    host.frame(sixty_hz_clock);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    cpu.push_back(cpu_ms() - c0);
    const sandbox::Host::FrameTimes& t = host.last_times();
    build.push_back(t.build);
    map.push_back(t.map);
    raster.push_back(t.imgui + t.present);  // SDL may defer drawing to the present
  }
  std::sort(ms.begin(), ms.end());
  for (auto* v : {&cpu, &build, &map, &raster}) std::sort(v->begin(), v->end());
  auto pct_of = [](const std::vector<double>& v, double p) {
    return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
  };
  auto pct = [&](double p) { return pct_of(ms, p); };
  std::printf("%ld frames at %dx%d, map %dx%d, %d units%s: wall median %.2f ms, p95 %.2f ms, max %.2f ms; "
              "cpu median %.2f ms, p95 %.2f ms; last plan %.2f ms; %d/%d units arrived\n",
              o.bench_frames, host.width(), host.height(), sb.scene().grid.width(), sb.scene().grid.height(),
              sb.units().count(), o.bench_replan ? ", re-plan every frame" : "", pct(0.5), pct(0.95), ms.back(),
              pct_of(cpu, 0.5), pct_of(cpu, 0.95), sb.plan().result.time_ms, sb.units().arrived(), sb.units().count());
  // Planning runs on the worker thread: the UI thread's CPU no longer includes it.
  std::printf("cpu medians: ui %.2f ms, map blit %.2f ms, imgui raster + present %.2f ms%s\n",
              pct_of(build, 0.5), pct_of(map, 0.5), pct_of(raster, 0.5), o.all_overlays ? " (all overlays on)" : "");
  return 0;
}

int run_frames(sandbox::Host& host, const Options& o) {
  std::vector<uint8_t> pixels;
  const bool shot = !o.screenshot.empty();
  for (long i = 0; i < o.frames; ++i) {
    host.pump_events();
    host.frame(sixty_hz_clock, shot && i + 1 == o.frames ? &pixels : nullptr);
  }
  if (shot) {
    auto st = sandbox::save_capture(o.screenshot, host.width(), host.height(), pixels);
    if (!st) return usage_error(st.error().message);
    std::printf("saved %s\n", o.screenshot.c_str());
    return 0;
  }
  const sandbox::PlanView& p = host.sandbox().plan();
  if (!p.error.empty()) std::printf("%ld frames; cannot plan: %s\n", o.frames, p.error.c_str());
  else if (!p.result.found) std::printf("%ld frames; no path: %s\n", o.frames, p.result.reason.c_str());
  else std::printf("%ld frames; path length %.6f, %zu violation(s), %d/%d units arrived\n", o.frames, p.result.length,
                   p.result.violations.size(), host.sandbox().units().arrived(), host.sandbox().units().count());
  return 0;
}

/// --record-until T --save-repro OUT: the units of the scene as opened, stepped headless.
int run_record(sandbox::Sandbox& sb, const Options& o) {
  const io::Scene scene = sb.scene();  // as it was before the first step (the repro's scene)
  const auto steps = static_cast<int64_t>(std::llround(o.record_until / sb.units().crowd().dt()));
  const io::Repro repro = sandbox::record_units(sb.units(), scene, steps);
  if (auto st = io::save_repro(repro, o.save_repro); !st) return usage_error(st.error().message);
  std::printf("recorded %lld steps of %d units: %s\n", static_cast<long long>(steps), sb.units().count(), o.save_repro.c_str());
  return 0;
}

/// The sandbox whose unsaved edits keep_unsaved_at_exit() saves: set while the main loop runs.
sandbox::Sandbox* g_running_sandbox = nullptr;

/// Says on stderr where the unsaved edits went when the app quit without asking (`why`).
void report_unsaved_kept(const sandbox::Sandbox& sb, const char* why, bool kept) {
  if (kept) std::fprintf(stderr, "pathlab: %s: unsaved edits kept in %s; the next start offers to restore them\n", why,
                         sb.autosave_path().c_str());
  else if (!sb.restore_offer().empty())  // autosaves wait for the answer: the offered copy is not overwritten
    std::fprintf(stderr,
                 "pathlab: %s: quitting; the copy from the last session is still offered for restore at the next start (%s); "
                 "the edits made before answering that offer are not kept\n",
                 why, sb.restore_offer().c_str());
  else std::fprintf(stderr, "pathlab: %s: quitting; the unsaved edits could not be kept\n", why);
}

/// Xlib ends the process with exit(1) when the connection to the X server breaks (xkill, the
/// window destroyed under the app, the server gone), from inside SDL: the loop never returns,
/// and the edits since the last autosave (up to a second) would be lost. exit() still runs
/// this, on the UI thread that owns the scene.
void keep_unsaved_at_exit() {
  sandbox::Sandbox* sb = std::exchange(g_running_sandbox, nullptr);
  if (sb != nullptr && sb->unsaved()) report_unsaved_kept(*sb, "the window went away", sb->finish());
}

int run_interactive(sandbox::Host& host) {
  // Idle frame-rate cap: full speed while something moves or input arrives, otherwise sleep
  // in the event wait (a frame every 250 ms keeps toasts and the autosave timely).
  sandbox::Sandbox& sb = host.sandbox();
  g_running_sandbox = &sb;
  std::atexit(keep_unsaved_at_exit);
  int calm = 0;
  int wait_ms = 0;
  while (host.pump_events(wait_ms)) {
    host.frame();
    calm = (host.events() > 0 || sb.animating()) ? 0 : calm + 1;
    wait_ms = calm < 4 ? 0 : 250;  // at most 250 ms: a quit signal is noticed within that
  }
  g_running_sandbox = nullptr;
  const bool unsaved = sb.unsaved();
  const bool kept = sb.finish();
  if (const int sig = sandbox::quit_signal(); sig != 0 && unsaved) report_unsaved_kept(sb, sandbox::quit_signal_name(sig), kept);
  return 0;
}

/// --planner: the scene's planner changes after it is open, as the planner combo would change
/// it, so it is an unsaved edit (undoable, autosaved) and not a different file content. It is
/// also how the signal test (tests/test_sandbox_signals.cpp) gets an unsaved edit into a
/// running app without an input-injection backdoor: an option a user has a reason to type.
void apply_planner_option(sandbox::Sandbox& sb, const std::string& planner) {
  if (planner.empty() || planner == sb.scene().settings.planner) return;
  sb.scene().settings.planner = planner;
  (void)sandbox::normalize_settings(sb.scene().settings);  // its default smoother, as the combo does
  sb.map_changed();  // re-plans (and rebuilds what depends on the settings), marks the scene edited
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (const int rc = parse_args(argc, argv, o); rc >= 0) return rc;
  io::Scene scene;
  bool is_scene = true;
  const bool explicit_scene = !o.scene_path.empty() || !o.link.empty();
  std::string repro_path;  // a repro opens in the sandbox once it exists (Sandbox::open_repro)
  if (sandbox::is_repro_name(o.scene_path)) repro_path = std::exchange(o.scene_path, "");
  std::string lesson_path;  // a lesson opens presented, at its first step (Sandbox::open_lesson)
  if (io::is_lesson_name(o.scene_path)) lesson_path = std::exchange(o.scene_path, "");
  if (!repro_path.empty() || !lesson_path.empty() || !o.link.empty()) {
    scene = empty_scene();
  } else if (o.bench_crowd) {
    scene = sandbox::crowd_bench_scene();
    o.scene_path.clear();
  } else if (const int rc = load_initial(o.scene_path, scene, is_scene); rc >= 0) return rc;
  const bool headless = !o.screenshot.empty() || o.bench_frames > 0 || o.frames_given || !o.save_repro.empty();
  // Unsaved work is autosaved per scene under the state folder; a crash copy newer than the
  // scene being opened is offered for restore (interactive runs only).
  std::string state_dir;
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) state_dir = std::string(xdg) + "/pathlab";
  else if (const char* home = std::getenv("HOME"); home && *home) state_dir = std::string(home) + "/.local/state/pathlab";
  if (!headless) sandbox::install_quit_signal_handlers();  // before SDL_Init, which would install its own
  auto host = sandbox::Host::create(1280, 800, headless);
  if (!host) return usage_error((*host.error().message.c_str()) ? host.error().message : "cannot start");
  (*host)->set_sandbox(std::make_unique<sandbox::Sandbox>((*host)->renderer(), std::move(scene), o.scene_path, is_scene));
  sandbox::Sandbox& sb = (*host)->sandbox();
  if (!repro_path.empty() && !sb.open_repro(repro_path)) return usage_error(sb.status());
  if (!lesson_path.empty() && !sb.open_lesson(lesson_path)) return usage_error(sb.status());
  if (!o.link.empty()) {
    if (auto st = sb.open_link(o.link); !st) return usage_error(st.error().message);
  }
  if (headless) sb.set_plan_wait_ms(60000);  // scripted runs show the plan of their own inputs
  else sb.set_state_dir(state_dir);
  if (!headless && !explicit_scene) sb.reopen_last_unsaved();  // the next start offers the restore
  if (!sb.restore_offer().empty())  // also tells a terminal (and the signal test) what the dialog offers
    std::printf("pathlab: unsaved work from the last session is offered for restore: %s\n", sb.restore_offer().c_str());
  std::fflush(stdout);
  apply_planner_option(sb, o.planner);
  if (o.all_overlays) sb.show_all_overlays();
  if (o.bench_crowd) {
    const int n = o.bench_units > 0 ? static_cast<int>(o.bench_units) : sandbox::kCrowdBenchUnits;
    if (std::string e = sandbox::spawn_crowd_bench(sb.units(), sb.scene(), n); !e.empty()) std::fprintf(stderr, "warning: %s\n", e.c_str());
  }
  if (o.paused) sb.units().set_playing(false);
  if (o.ui_scale_pct > 0) sb.set_ui_scale(static_cast<float>(o.ui_scale_pct) / 100.0f);
  if (!o.save_repro.empty()) return run_record(sb, o);
  if (o.bench_frames > 0) return run_bench(**host, o);
  if (headless) return run_frames(**host, o);
  return run_interactive(**host);
}
