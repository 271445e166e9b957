// The sandbox's layout at 100-250% UI scale in a 1280x800 window (issue 26, "every view at
// 150-250%"): in every mode (compare, plots, replay, gallery, units with the timeline) the
// canvas keeps at least half of the window, no ImGui window or child is outside the window,
// plots are at least 120 px tall, the compare legend leaves the map most of the canvas and
// every Inspect tab is on screen (none behind the tab bar's arrows); the strip's body keeps a
// useful height (two lines, Compare's header and two rows) and nothing in it or in the side
// panel needs sideways scrolling (labels go above their controls in a narrow panel).
// Set PATHLAB_TEST_SHOTS to a folder to keep a PNG of each mode at each scale.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "canvas/screen_layout.hpp"
#include "inspect/inspector.hpp"
#include "pathlab/io/map_files.hpp"
#include "planning/plan_pipeline.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using namespace pathlab::sandbox;

namespace {

constexpr float kScales[] = {1.0f, 1.5f, 2.0f, 2.5f};
constexpr float kTol = 0.5f;  // rectangles are in float pixels; half a pixel is rounding [pixels]

io::Scene load(const std::string& rel) {
  auto s = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/" + rel);
  REQUIRE_MESSAGE(s.ok(), rel);
  return *s;
}

void shot(test::SandboxUi& ui, const std::string& name) {
  const char* dir = std::getenv("PATHLAB_TEST_SHOTS");
  if (!dir) return;
  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  (void)io::write_png_rgba(std::string(dir) + "/layout_" + name + ".png", ui.host->width(), ui.host->height(), px.data());
}

bool inside(const ImRect& r, float w, float h) {
  return r.Min.x >= -kTol && r.Min.y >= -kTol && r.Max.x <= w + kTol && r.Max.y <= h + kTol;
}

/// The checks every mode shares, on the frame just drawn.
void check_common(test::SandboxUi& ui, const std::string& what) {
  INFO(what);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  REQUIRE(display.x == 1280.0f);
  REQUIRE(display.y == 800.0f);
  const ScreenLayout& l = ui.sb().layout();
  CHECK(l.canvas.area() >= kCanvasMinShare * display.x * display.y - kTol * display.x);
  CHECK(l.canvas.x >= 0.0f);
  CHECK(l.canvas.bottom() <= display.y + kTol);
  // Every window drawn this frame (panels, the strip, its children and tables, the legend,
  // tooltips) lies inside the window: nothing is drawn past its edges.
  int windows = 0;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!w->Active || w->Hidden || std::string(w->Name) == "Debug##Default") continue;
    ++windows;
    const ImRect r = w->Rect();
    CHECK_MESSAGE(inside(r, display.x, display.y), "window '" << w->Name << "' at (" << r.Min.x << ", " << r.Min.y
                                                              << ")-(" << r.Max.x << ", " << r.Max.y << ")");
  }
  CHECK(windows >= 3);  // the side panel, the strip and its body at least
  // Rows of buttons and radio buttons in the side panel wrap instead of running past its
  // visible edge (the panel scrolls sideways only for a slider's label).
  if (!l.panel.empty()) {
    for (const char* w : {"open_dialog", "import_dialog", "save", "save_as_dialog", "undo", "redo", "fit", "wall",
                          "erase", "terrain", "rect", "start", "goal"}) {
      const auto [lo, hi] = ui.sb().widget_rect(w);
      if (hi.x <= lo.x) continue;  // not drawn (its section collapsed or scrolled away)
      CHECK_MESSAGE(hi.x <= l.panel.right() + kTol, std::string(w) << " ends at x " << hi.x << ", the panel at " << l.panel.right());
    }
  }
  // Every Inspect tab shows in full on the strip (none scrolled away behind arrows).
  for (const char* tab : {"tab:Replay", "tab:Overlays", "tab:Plots", "tab:Compare", "tab:Gallery", "tab:Export"}) {
    const auto [lo, hi] = ui.sb().inspector().widget(tab);
    CHECK_MESSAGE(hi.x > lo.x, tab << " not drawn");
    CHECK_MESSAGE(lo.x >= l.strip.x - kTol, tab);
    CHECK_MESSAGE(hi.x <= l.strip.right() + kTol, tab);
  }
}

/// The strip's body: the shown tab's child window, as drawn last frame (null when not drawn).
ImGuiWindow* strip_body() {
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->Active && w->ParentWindow && std::string(w->ParentWindow->Name) == "Inspect##strip" &&
        std::string(w->Name).rfind("Inspect##strip/##body", 0) == 0)
      return w;
  return nullptr;
}

ImGuiWindow* window_named(const char* name) {
  ImGuiWindow* w = ImGui::FindWindowByName(name);
  return w && w->Active ? w : nullptr;
}

/// The strip shows its tab's content, not only its tab row: its body is at least two lines of
/// text tall (the layout's useful minimum, or `useful` when the tab asks for more), lies inside
/// the strip and needs no sideways scrolling; the side panel needs none either.
void check_strip_usable(test::SandboxUi& ui, const std::string& what, float useful = 0.0f) {
  INFO(what);
  const ScreenLayout& l = ui.sb().layout();
  const float font = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.y;
  REQUIRE_FALSE(ui.sb().inspector().strip_collapsed());
  ImGuiWindow* body = strip_body();
  REQUIRE(body != nullptr);
  const ImRect r = body->Rect();
  CHECK(r.GetHeight() >= std::max(useful, 2.0f * font + gap) - kTol);
  CHECK(r.Min.y >= l.strip.y - kTol);
  CHECK(r.Max.y <= l.strip.bottom() + kTol);
  CHECK(r.Max.x <= l.strip.right() + kTol);
  // Half an em: ImGui counts the blank ending a wrapped line in the text's width.
  CHECK_MESSAGE(body->ScrollMax.x <= 0.5f * font, "the strip's body is " << body->ScrollMax.x << " px wider than the strip");
  if (ImGuiWindow* panel = window_named("pathlab"))
    CHECK_MESSAGE(panel->ScrollMax.x <= kTol, "the side panel is " << panel->ScrollMax.x << " px wider than shown");
}

void set_scale(test::SandboxUi& ui, float scale) {
  ui.sb().set_ui_scale(scale);
  ui.idle(3);  // the font is rebuilt between frames; the layout settles in the next
  REQUIRE(ui.host->ui_scale() == scale);
}

std::string name(const char* mode, float scale) { return std::string(mode) + "_" + std::to_string(static_cast<int>(scale * 100)); }

}  // namespace

TEST_CASE("layout: the replay and the gallery at 100-250%") {
  test::SandboxUi ui(load("pinter_tank_turn.json"), 3);
  for (float scale : kScales) {
    set_scale(ui, scale);
    ui.sb().inspector().show_tab(Inspector::Tab::replay);
    ui.idle(2);
    check_common(ui, name("replay", scale));
    check_strip_usable(ui, name("replay", scale));
    shot(ui, name("replay", scale));
    ui.sb().inspector().show_tab(Inspector::Tab::gallery);
    ui.idle(2);
    check_common(ui, name("gallery", scale));
    check_strip_usable(ui, name("gallery", scale));
    shot(ui, name("gallery", scale));
  }
}

TEST_CASE("layout: plots at 100-250% are at least 120 px tall") {
  test::SandboxUi ui(load("articles/guesgen-4-smoothed.json"), 3);
  REQUIRE(ui.sb().plan().result.found);
  for (float scale : kScales) {
    set_scale(ui, scale);
    ui.sb().inspector().show_tab(Inspector::Tab::plots);
    ui.idle(2);
    check_common(ui, name("plots", scale));
    check_strip_usable(ui, name("plots", scale));
    for (const char* plot : {"plot_curvature", "plot_steering", "plot_speed"}) {
      INFO(plot << " at " << scale);
      const auto [lo, hi] = ui.sb().inspector().widget(plot);
      CHECK(hi.y - lo.y >= 120.0f);
      CHECK(hi.x - lo.x >= 120.0f);
    }
    shot(ui, name("plots", scale));
  }
}

/// Compare's table shows its header and at least two whole rows (their tick boxes inside the
/// table's visible part), and its controls are on screen, in the tab or in the legend.
void check_compare_rows(test::SandboxUi& ui, const std::string& what) {
  INFO(what);
  const float row = ImGui::GetFontSize() + 4.0f * ImGui::GetFontSize() / 14.0f;  // compare.cpp's tighter rows
  check_strip_usable(ui, what, 3.0f * row + ImGui::GetStyle().ScrollbarSize);
  ImGuiWindow* table = nullptr;  // the table's scrolling child inside the body
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->Active && w->ParentWindow == strip_body()) table = w;
  REQUIRE(table != nullptr);
  const ImRect clip = table->InnerClipRect;
  int whole = 0;
  for (const CompareRun& r : ui.sb().inspector().compare_runs()) {
    const auto [lo, hi] = ui.sb().inspector().widget("compare:" + r.planner);
    if (hi.x > lo.x && lo.y >= clip.Min.y - kTol && hi.y <= clip.Max.y + kTol) ++whole;
  }
  CHECK(whole >= 2);
  for (const char* c : {"compare_show", "compare_run", "compare_vehicle"}) {
    const auto [lo, hi] = ui.sb().inspector().widget(c);
    CHECK_MESSAGE(hi.x > lo.x, c << " not drawn");
    CHECK_MESSAGE(hi.y <= 800.0f + kTol, c);
  }
}

TEST_CASE("layout: compare at 100-250% keeps the map beside its legend") {
  test::SandboxUi ui(load("maps/arena-movingai.json"), 3);
  Inspector& in = ui.sb().inspector();
  in.show_tab(Inspector::Tab::compare);
  ui.idle(2);
  in.run_compare(ui.sb());
  ui.idle(2);
  REQUIRE(in.compare_shown());
  for (float scale : kScales) {
    set_scale(ui, scale);
    check_common(ui, name("compare", scale));
    const ScreenLayout& l = ui.sb().layout();
    // The map is fitted beside the legend, never under it, and keeps most of the canvas.
    CHECK(l.legend.w > 0.0f);
    CHECK(l.map.w >= (1.0f - kLegendMaxShare) * l.canvas.w - kTol);
    CHECK(l.legend.x >= l.map.right() - kTol);
    const ImVec2 at = in.legend_at();
    CHECK(at.x >= l.map.right() - kTol);
    const ImVec2 map_right = ui.sb().world_to_screen(Vec2(ui.sb().scene().grid.width(), 0));
    CHECK(map_right.x <= l.map.right() + kTol);
    check_compare_rows(ui, name("compare", scale));
    shot(ui, name("compare", scale));
  }
}

TEST_CASE("layout: units with the timeline at 100-250%") {
  test::SandboxUi ui(load("crowds/doorway.json"), 3);
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  for (int s = 0; s < 30; ++s) u.step(ui.sb().scene());
  REQUIRE(u.recording() != nullptr);
  for (float scale : kScales) {
    set_scale(ui, scale);
    check_common(ui, name("units", scale));
    const ScreenLayout& l = ui.sb().layout();
    CHECK(l.timeline.h > 0.0f);
    CHECK(l.timeline.bottom() <= l.strip.y + kTol);  // above the strip, not under it
    const auto r = ui.sb().widget_rect("timeline");
    CHECK(r.second.x - r.first.x > 200.0f * scale);  // the slider keeps room to scrub
    // The strip under it shows its tab's content too, for every tab a crowd scene uses.
    for (Inspector::Tab t : {Inspector::Tab::replay, Inspector::Tab::compare, Inspector::Tab::export_}) {
      ui.sb().inspector().show_tab(t);
      ui.idle(6);  // the layout follows the tab (Compare asks for more), then the body its width
      check_common(ui, name("units", scale));
      check_strip_usable(ui, name("units", scale) + " tab " + std::to_string(static_cast<int>(t)));
    }
    ui.sb().inspector().show_tab(Inspector::Tab::replay);
    ui.idle(2);
    // The replay's controls are in the body, or reached by scrolling it.
    const auto play = ui.sb().inspector().widget("play");
    ImGuiWindow* body = strip_body();
    REQUIRE(body != nullptr);
    CHECK(play.first.y >= body->InnerRect.Min.y - kTol);
    CHECK(play.second.y <= body->InnerRect.Max.y + body->ScrollMax.y - body->Scroll.y + kTol);
    shot(ui, name("units", scale));
  }
}

TEST_CASE("layout: the Inspect strip's splitter resizes it within its bounds") {
  test::SandboxUi ui(load("articles/guesgen-4-smoothed.json"), 3);
  for (float scale : {1.0f, 2.0f}) {
    set_scale(ui, scale);
    INFO("scale " << scale);
    const float before = ui.sb().layout().strip.h;
    const auto [lo, hi] = ui.sb().inspector().widget("strip_splitter");
    REQUIRE(hi.x > lo.x);
    const ImVec2 grip((lo.x + hi.x) / 2, (lo.y + hi.y) / 2);
    // Drag down by 60 px: the strip is 60 px shorter (the map taller).
    ui.mouse_at(grip, false);
    ui.mouse_at(grip, true);
    ui.mouse_at(ImVec2(grip.x, grip.y + 30), true);
    ui.mouse_at(ImVec2(grip.x, grip.y + 60), true);
    ui.mouse_at(ImVec2(grip.x, grip.y + 60), false);
    ui.idle(1);
    const ScreenLayout& l = ui.sb().layout();
    CHECK(l.strip.h == doctest::Approx(std::max(l.strip_min, before - 60.0f)).epsilon(0.01));
    CHECK(l.canvas.h > 0.0f);
    // Dragged far up, it stops where the map would drop under half of the window.
    const auto [lo2, hi2] = ui.sb().inspector().widget("strip_splitter");
    const ImVec2 grip2((lo2.x + hi2.x) / 2, (lo2.y + hi2.y) / 2);
    ui.mouse_at(grip2, false);
    ui.mouse_at(grip2, true);
    ui.mouse_at(ImVec2(grip2.x, 10), true);
    ui.mouse_at(ImVec2(grip2.x, 10), false);
    ui.idle(1);
    CHECK(ui.sb().layout().strip.h == doctest::Approx(ui.sb().layout().strip_max).epsilon(0.01));
    CHECK(ui.sb().layout().canvas.area() >= kCanvasMinShare * 1280.0f * 800.0f - kTol * 1280.0f);
    // The arrow collapses it to its tab row and opens it again.
    const auto [clo, chi] = ui.sb().inspector().widget("strip_collapse");
    ui.click(ImVec2((clo.x + chi.x) / 2, (clo.y + chi.y) / 2));
    ui.idle(1);
    CHECK(ui.sb().inspector().strip_collapsed());
    CHECK(ui.sb().layout().strip.h == doctest::Approx(ui.sb().layout().strip_min).epsilon(0.01));
    const auto [clo2, chi2] = ui.sb().inspector().widget("strip_collapse");
    ui.click(ImVec2((clo2.x + chi2.x) / 2, (clo2.y + chi2.y) / 2));
    ui.idle(1);
    CHECK_FALSE(ui.sb().inspector().strip_collapsed());
  }
}

TEST_CASE("layout: no control of the side panel needs sideways scrolling at 100-250%, for every planner") {
  test::SandboxUi ui(load("articles/pinter-tank-figure-8.json"), 3);
  for (float scale : kScales) {
    set_scale(ui, scale);
    if (ImGuiWindow* panel = window_named("pathlab")) panel->StateStorage.SetInt(panel->GetID("Lesson"), 1);
    for (const char* planner : {"astar", "theta", "navmesh", "directional", "hybrid", "dubins"}) {
      for (const char* smoother : {"", "catmull-rom", "edge-shift"}) {
        io::PlanSettingsData& st = ui.sb().scene().settings;
        st.planner = planner;
        st.smoother = smoother;
        (void)normalize_settings(st);
        ui.sb().replan_now();
        ui.idle(2);
        INFO(std::string(planner) << " / " << st.smoother << " at " << scale);
        ImGuiWindow* panel = window_named("pathlab");
        REQUIRE(panel != nullptr);
        CHECK_MESSAGE(panel->ScrollMax.x <= kTol, "the side panel is " << panel->ScrollMax.x << " px wider than shown");
      }
    }
  }
}
