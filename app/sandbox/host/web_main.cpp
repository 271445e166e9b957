// pathlab in the browser (issue 29): the desktop sandbox's Host and Sandbox, compiled to
// WebAssembly by scripts/web.sh. Only what a web page does differently lives here: the scene
// comes from the page's URL (?scene=<path under assets/scenes>, preloaded into Emscripten's
// in-memory file system at /assets), the browser drives the frames (emscripten_set_main_loop),
// and the console says when the sandbox is ready:
//
//   pathlab: ready <scene> length <the first plan's length, %.17g as pathlab-cli prints it>
//
// then one `pathlab: plan <scene> length <L>` line per later plan (naming the file shown then),
// so a test (web/test/) can tell a running sandbox from a blank page and see an edit change the
// path. The exported
// pathlab_path_* functions give the test the path's points in page pixels, to paint across it.
// Autosave: the sandbox's state folder (autosaves, recent files) is /state, an IndexedDB-backed
// folder (IDBFS) read once at start and written back every kStateSyncFrames frames, so work
// left unsaved in a closed tab is offered for restore on the next visit, as on the desktop.
// A link opens from the page's address: `#scene=...` or `#lesson=...&step=N` (the text
// `pathlab-cli link` prints, pathlab/io/scene_link.hpp) at start, where it wins over ?scene=, and
// again whenever the hash changes; it goes through Sandbox::open_link as `pathlab --link` does. A
// link that does not read leaves the sandbox running on what it showed, the error in its status
// line, on the page's note (#note) and on the console (`pathlab: error: link...`). A scene from
// a link is named "link" on the console lines. Export's "Copy link" gives the page's own address
// with the scene's hash, on the clipboard when the browser allows it and in the page's share box
// (as do Copy CLI command, whose scene file comes as a download, Copy scene and Copy path CSV).
// ?bench=crowd opens the desktop's --bench-crowd scenario (200 units through doorways) and,
// after kBenchFrames frames of 1/60 s each (the desktop bench's clock), prints the frames' own
// time (median and p95, the browser's idle wait between animation frames excluded): the figure
// the README compares with the desktop.

#include <emscripten.h>

// EM_ASM's arguments are $0, $1, ... inside its JavaScript (this file is compiled by emcc only).
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "document/gallery.hpp"
#include "host/host.hpp"
#include "host/web_probe.hpp"
#include "units/crowd_bench.hpp"
#include "pathlab/plan/scene.hpp"

using namespace pathlab;

namespace {

/// The page's state: one sandbox for the page's lifetime (the main loop never returns).
struct WebPage {
  std::unique_ptr<sandbox::Host> host;
  std::string scene_name;  ///< as in the URL, e.g. crowds/doorway.json
  int plans_seen = 0;      ///< PlanView::plans of the last plan seen (reported or not)
  bool ready = false;      ///< the ready line was printed
  bool bench = false;      ///< ?bench=crowd: time the frames
  bool scene_from_url = false;  ///< ?scene= or a link named a scene (no restore offer replaces it)
  std::vector<double> frame_ms;  ///< the bench's frame times [ms]
  std::vector<double> frame_gaps;  ///< the bench's times from one frame's start to the next's [ms]
};
WebPage g_page;

constexpr const char* kDemoScene = "demo.json";
constexpr size_t kBenchFrames = 300;  ///< ?bench=crowd: frames timed (5 s at 60 Hz)
constexpr int kStateSyncFrames = 120;  ///< frames between writes of /state to IndexedDB (2 s at 60 Hz)
constexpr const char* kStateDir = "/state";  ///< also named in start_state_folder()'s script

/// Mounts /state on IndexedDB and starts reading it (asynchronous: Module.pathlabStateReady is
/// set when done, or on failure, which leaves /state empty: autosave then lasts the tab's life).
/// The preloaded assets get the time 0, so an autosave from an earlier visit is newer than its
/// bundled scene (MEMFS stamps preloaded files with the page's load time).
void start_state_folder() {
  EM_ASM({
    function stamp(dir) {
      for (const name of FS.readdir(dir)) {
        if (name === "." || name === "..") continue;
        const path = dir + "/" + name;
        if (FS.isDir(FS.stat(path).mode)) stamp(path); else FS.utime(path, 0, 0);
      }
    }
    stamp("/assets");
    Module.pathlabStateReady = 0;
    try {
      FS.mkdir("/state");
      FS.mount(IDBFS, {}, "/state");
      FS.syncfs(true, function(err) {
        if (err) console.error("pathlab: warning: browser storage unavailable, autosave lasts this tab only: " + err);
        Module.pathlabStateReady = 1;
      });
    } catch (e) {
      console.error("pathlab: warning: browser storage unavailable: " + e);
      Module.pathlabStateReady = 1;
    }
  });
}

/// Once /state is read: hands it to the sandbox (and offers a restore when the URL named no
/// scene); afterwards writes it back to IndexedDB every kStateSyncFrames frames.
void state_folder_step(sandbox::Sandbox& sb) {
  static bool attached = false;
  static int frames = 0;
  if (!attached) {
    if (EM_ASM_INT({ return Module.pathlabStateReady; }) == 0) return;
    attached = true;
    sb.set_state_dir(std::string(kStateDir) + "/pathlab");
    if (!g_page.scene_from_url) sb.reopen_last_unsaved();
    if (!sb.restore_offer().empty())  // the dialog offers it; the console tells a test
      std::printf("pathlab: unsaved work from the last visit is offered for restore: %s\n", sb.restore_offer().c_str());
    return;
  }
  if (++frames % kStateSyncFrames == 0) EM_ASM({ FS.syncfs(false, function(err) { if (err) console.error("pathlab: autosave: " + err); }); });
}

std::string url_parameter(const char* name) {
  const std::string js = std::string("new URLSearchParams(location.search).get('") + name + "') || ''";
  const char* v = emscripten_run_script_string(js.c_str());
  return v ? v : "";
}

/// The page's hash ("#scene=..." or "#lesson=...&step=N"), "" when it carries nothing.
std::string page_hash() {
  const char* v = emscripten_run_script_string("location.hash.length > 1 ? location.hash : ''");
  return v ? v : "";
}

/// Shows `text` in the page's file bar (#note, web/shell.html), red when `error`.
void page_note(const std::string& text, bool error) {
  EM_ASM({ Module.pathlabNote(UTF8ToString($0), $1); }, text.c_str(), error ? 1 : 0);
}

/// Opens the link `hash` holds (Sandbox::open_link); a link that does not read changes nothing
/// but the messages.
void open_page_link(sandbox::Sandbox& sb, const std::string& hash) {
  if (const Status st = sb.open_link(hash); !st) {
    std::fprintf(stderr, "pathlab: error: %s\n", st.error().message.c_str());
    page_note("this page's link did not open: " + st.error().message, true);
    return;
  }
  if (sb.document().source().empty()) g_page.scene_name = "link";  // a lesson link shows a preset
  page_note("", false);
}

/// Every file the sandbox writes for the user (Save, Save repro, Save lesson, Export's files:
/// Sandbox::set_file_handoff) goes to the browser as a download too (web/shell.html's
/// pathlabDownload): in the page it was written into the in-memory file system, which is ours,
/// not the user's.
void hand_to_browser(const std::string& path) { EM_ASM({ Module.pathlabDownload(UTF8ToString($0)); }, path.c_str()); }

/// What Export copies on the page (Copy link, Copy CLI command, Copy scene, Copy path CSV): the
/// text goes to the page's share box (selected, so the browser's own Copy works when the
/// clipboard is refused) and to the clipboard if allowed (web/shell.html's pathlabShareText).
std::string share_text(const std::string& what, const std::string& text) {
  EM_ASM({ Module.pathlabShareText(UTF8ToString($0), UTF8ToString($1)); }, what.c_str(), text.c_str());
  if (what == "link")
    return "link (" + std::to_string(text.size()) + " characters) in the box above the canvas, and on the "
           "clipboard if the browser allowed it: it opens this scene in any browser";
  return what + " in the box above the canvas, and on the clipboard if the browser allowed it";
}

/// Why `name` is not a bundled scene path ("" when it is one): relative, below assets/scenes,
/// plain characters only (the name comes from a URL anyone can write).
std::string check_scene_name(const std::string& name) {
  if (name.empty() || name.size() > 200) return "a scene path of 1 to 200 characters is needed";
  if (name.front() == '/' || name.find("..") != std::string::npos) return "only paths under assets/scenes are bundled";
  for (const char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '-' || c == '_' || c == '.'))
      return "letters, digits and / - _ . only";
  if (name.size() < 6 || name.substr(name.size() - 5) != ".json") return "a scene file ends in .json";
  return "";
}

/// The scene the URL names (?scene=...), else the demo. A scene that cannot open is reported on
/// the console with the reason, and the demo opens instead (a page must not stay blank).
io::Scene open_initial_scene(std::string& name) {
  name = url_parameter("scene");
  if (!name.empty()) {
    std::string why = check_scene_name(name);
    if (why.empty()) {
      name = sandbox::current_preset_id(name.substr(0, name.size() - 5)) + ".json";  // links from before a rename
      auto s = plan::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/" + name);
      if (s) return std::move(*s);
      why = s.error().message;
    }
    std::fprintf(stderr, "pathlab: error: ?scene=%s: %s; opening %s instead\n", name.c_str(), why.c_str(), kDemoScene);
  }
  name = kDemoScene;
  auto demo = plan::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/" + kDemoScene);
  if (demo) return std::move(*demo);
  std::fprintf(stderr, "pathlab: error: %s\n", demo.error().message.c_str());
  io::Scene empty;
  empty.name = "empty";
  empty.grid = Grid::create(64, 40).value();
  return empty;
}

/// Reports a plan that finished since the last frame: the ready line for the first, a plan line
/// after each later one.
void report_plan(const sandbox::Sandbox& sb) {
  const sandbox::PlanView& view = sb.plan();
  if (sb.planning() || view.plans == g_page.plans_seen) return;
  g_page.plans_seen = view.plans;
  // Opening a scene drops the old scene's plan (an empty view, Sandbox::set_scene) before the
  // new one is planned: that is no plan, and a "no path ()" line for it misled the test.
  if (!view.valid) return;
  const char* what = g_page.ready ? "plan" : "ready";
  g_page.ready = true;
  // After Open file or a gallery preset, the lines name the file now shown (bundled scenes
  // under their assets/scenes path, as in the URL).
  const std::string bundled = std::string(PATHLAB_ASSETS_DIR) + "/scenes/";
  const std::string& source = sb.document().source();
  if (!g_page.bench && !source.empty())
    g_page.scene_name = source.rfind(bundled, 0) == 0 ? source.substr(bundled.size()) : source;
  if (view.result.found)
    std::printf("pathlab: %s %s length %.17g\n", what, g_page.scene_name.c_str(), view.result.length);
  else
    std::printf("pathlab: %s %s no path (%s)\n", what, g_page.scene_name.c_str(),
                view.error.empty() ? view.result.reason.c_str() : view.error.c_str());
  std::fflush(stdout);
}

/// ?bench=crowd: the frame's own time and the time since the last frame began, and the
/// figures once kBenchFrames were timed. The own time is the page's thread only: the browser
/// rasterises the WebGL commands in its GPU process, which the interval includes (it is what
/// the user sees, frames per second), with the wait for the next animation frame.
void bench_frame(double t0, double ms) {
  static double last_t0 = -1.0;
  std::vector<double>& v = g_page.frame_ms;
  std::vector<double>& gaps = g_page.frame_gaps;
  if (last_t0 >= 0.0) gaps.push_back(t0 - last_t0);
  last_t0 = t0;
  v.push_back(ms);
  if (v.size() != kBenchFrames) return;
  std::sort(v.begin(), v.end());
  std::sort(gaps.begin(), gaps.end());
  sandbox::Sandbox& sb = g_page.host->sandbox();
  std::printf("pathlab: bench %zu frames, %d units, %.2f s simulated: median %.2f ms, p95 %.2f ms, max %.2f ms; "
              "frame to frame median %.2f ms, p95 %.2f ms\n",
              v.size(), sb.units().count(), sb.units().time(), v[v.size() / 2], v[v.size() * 95 / 100], v.back(),
              gaps[gaps.size() / 2], gaps[gaps.size() * 95 / 100]);
  std::fflush(stdout);
}

void frame_step() {
  sandbox::Host& host = *g_page.host;
  const double t0 = emscripten_get_now();
  host.pump_events();  // the page never quits: closing the tab ends it
  host.frame();
  report_plan(host.sandbox());
  if (!g_page.bench) state_folder_step(host.sandbox());
  if (g_page.bench) bench_frame(t0, emscripten_get_now() - t0);
}

}  // namespace

extern "C" {
/// The current path's point count, and point i in page pixels (CSS pixels from the canvas's
/// top-left corner), for the browser test to paint across the path. [Limit: 0 <= i < count]
EMSCRIPTEN_KEEPALIVE int pathlab_path_count() { return static_cast<int>(g_page.host->sandbox().plan().result.points.size()); }
EMSCRIPTEN_KEEPALIVE double pathlab_path_x(int i) {
  const sandbox::Sandbox& sb = g_page.host->sandbox();
  return sb.world_to_screen(sb.plan().result.points.at(static_cast<size_t>(i))).x;
}
/// The page's "Open file" button (web/shell.html): the browser's file picker wrote the chosen
/// file into /uploads; it opens as the desktop's Open does (asking first about unsaved edits).
EMSCRIPTEN_KEEPALIVE void pathlab_open_file(const char* path) { g_page.host->sandbox().request_open(path); }
/// The page's hashchange handler: a link pasted into the address bar opens. The hash is read
/// here, on the heap (ccall would copy a link of up to 4 MiB onto the stack).
EMSCRIPTEN_KEEPALIVE void pathlab_open_page_link() {
  if (const std::string hash = page_hash(); !hash.empty()) open_page_link(g_page.host->sandbox(), hash);
}
/// The page's "Download" button: saves the scene (units included, as Save does) as a new scene
/// file under /downloads, named after the scene's file (Save hands it to the browser as a
/// download, hand_to_browser), and returns that path; "" when saving failed (the sandbox's
/// status says why).
EMSCRIPTEN_KEEPALIVE const char* pathlab_save_for_download() {
  static std::string path;
  sandbox::Sandbox& sb = g_page.host->sandbox();
  std::string base = sb.document().save_path().empty() ? sb.document().source() : sb.document().save_path();
  base = base.substr(base.find_last_of('/') + 1);
  if (base.size() < 6 || base.substr(base.size() - 5) != ".json") base = "scene.json";
  EM_ASM({ try { FS.mkdir("/downloads"); } catch (e) {} });
  path = "/downloads/" + base;
  return sb.save(path) ? path.c_str() : "";
}
EMSCRIPTEN_KEEPALIVE double pathlab_path_y(int i) {
  const sandbox::Sandbox& sb = g_page.host->sandbox();
  return sb.world_to_screen(sb.plan().result.points.at(static_cast<size_t>(i))).y;
}
/// For the browser test, which clicks the real controls: "x y w h" of the control drawn last
/// frame under `name` (canvas pixels), "" when it was not drawn (web_probe.hpp).
EMSCRIPTEN_KEEPALIVE const char* pathlab_widget(const char* name) {
  static std::string text;
  text = sandbox::web_widget_rect(g_page.host->sandbox(), name);
  return text.c_str();
}
/// For the browser test: what the sandbox shows now, one JSON object (web_probe.hpp).
EMSCRIPTEN_KEEPALIVE const char* pathlab_state() {
  static std::string text;
  text = sandbox::web_state_json(g_page.host->sandbox(), g_page.scene_name);
  return text.c_str();
}
}

int main() {
  std::string name;
  g_page.bench = url_parameter("bench") == "crowd";
  io::Scene scene = g_page.bench ? sandbox::crowd_bench_scene() : open_initial_scene(name);
  if (g_page.bench) name = "crowd-bench";
  const std::string hash = g_page.bench ? "" : page_hash();
  g_page.scene_from_url = !url_parameter("scene").empty() || !hash.empty();
  start_state_folder();
  g_page.scene_name = name;
  const int width = std::max(sandbox::Host::kMinWidth, EM_ASM_INT({ return window.innerWidth; }));
  // The page's file bar (web/shell.html, #files) takes the top of the window.
  const int height = std::max(sandbox::Host::kMinHeight,
                              EM_ASM_INT({ return window.innerHeight - document.getElementById("files").offsetHeight; }));
  auto host = sandbox::Host::create(width, height, false);
  if (!host) {
    std::fprintf(stderr, "pathlab: error: %s\n", host.error().message.c_str());
    return 1;
  }
  g_page.host = std::move(*host);
  // The bench's scene is made in code, as the desktop's --bench-crowd: no file behind it.
  const std::string path = g_page.bench ? "" : std::string(PATHLAB_ASSETS_DIR) + "/scenes/" + name;
  g_page.host->set_sandbox(std::make_unique<sandbox::Sandbox>(g_page.host->renderer(), std::move(scene), path, true));
  sandbox::Sandbox& sb = g_page.host->sandbox();
  // Copy link gives this page's address (no ?query: a hash link wins over ?scene=).
  sb.set_link_base(emscripten_run_script_string("location.href.split(/[?#]/)[0]"));
  sb.set_text_sharer(share_text);
  sb.set_file_handoff(hand_to_browser);
  if (!hash.empty()) open_page_link(sb, hash);  // before the first frame: its plan is the ready line's
  EM_ASM({ window.addEventListener("hashchange", function() {
    if (location.hash.length > 1) Module.ccall("pathlab_open_page_link", null, [], []);
  }); });
  if (g_page.bench) {
    // As the desktop's --bench-frames: every frame is 1/60 s of simulation whatever it took, so
    // both time the same 300 frames (5 s) of the same crowd.
    g_page.host->set_fixed_frame_seconds(1.0f / 60.0f);
    if (const std::string e = sandbox::spawn_crowd_bench(sb.units(), sb.scene()); !e.empty())
      std::fprintf(stderr, "pathlab: warning: %s\n", e.c_str());
  }
  emscripten_set_main_loop(frame_step, 0, true);  // the browser's frame rate (requestAnimationFrame)
  return 0;
}
