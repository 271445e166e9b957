#include "inspect/inspector.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "inspect/ui_widgets.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

// Replay colours (RGBA). Closed and open match the sandbox's search layer so switching between
// the finished search and its replay does not change what a colour means.
constexpr std::array<uint8_t, 4> kClosedRgba{80, 130, 230, 110};
constexpr std::array<uint8_t, 4> kOpenRgba{250, 190, 40, 150};
constexpr std::array<uint8_t, 4> kCurrentRgba{230, 40, 40, 230};

uint32_t abgr(std::array<uint8_t, 4> c) {
  // SDL_PIXELFORMAT_ABGR8888 stores R, G, B, A in memory order on little-endian machines.
  return static_cast<uint32_t>(c[0]) | static_cast<uint32_t>(c[1]) << 8 | static_cast<uint32_t>(c[2]) << 16 |
         static_cast<uint32_t>(c[3]) << 24;
}

/// One "em" of the UI scale: 1 at the 14 px font of 100%.
float em() { return ImGui::GetFontSize() / 14.0f; }

ImU32 im(std::array<uint8_t, 4> c) { return IM_COL32(c[0], c[1], c[2], c[3]); }

/// What the search did with a node by the replay's step. A node it never touched is a wall
/// (blocked cells are never searched), not reached yet (the replay has steps to go), or not
/// reached at all (the search found the goal, or gave up, before it).
const char* state_name(ReplayModel::State s, bool wall, bool replay_at_end) {
  switch (s) {
    case ReplayModel::open: return "open (frontier)";
    case ReplayModel::closed: return "closed (expanded)";
    default: return wall ? "wall (never searched)" : replay_at_end ? "not reached by this search" : "not reached yet";
  }
}

bool key_pressed(int scancode_or_index) {
  return scancode_or_index >= 0 && scancode_or_index < IM_ARRAYSIZE(ImGui::GetIO().KeysDown) &&
         ImGui::IsKeyPressed(scancode_or_index, true);
}

}  // namespace

std::array<uint8_t, 4> Inspector::replay_colour(ReplayModel::State s, bool current) {
  if (current) return kCurrentRgba;
  if (s == ReplayModel::closed) return kClosedRgba;
  if (s == ReplayModel::open) return kOpenRgba;
  return {0, 0, 0, 0};
}

Inspector::Inspector(SDL_Renderer* renderer) : renderer_(renderer) {
  std::error_code ec;
  export_dir_ = std::filesystem::current_path(ec).string();
}

Inspector::~Inspector() = default;

void Inspector::all_overlays_on() {
  ov_.navmesh = ov_.corridor = ov_.portals = ov_.funnel = true;
  ov_.spline = ov_.tangents = true;
  ov_.circles = ov_.dubins = ov_.reeds_shepp = true;
  ov_.curvature_ramp = true;
  ov_.lookahead = true;
  internals_plans_ = -1;  // the whole navmesh is only built when asked for
}

std::pair<ImVec2, ImVec2> Inspector::widget(const std::string& name) const {
  for (const auto& [n, r] : widgets_)
    if (n == name) return r;
  return {ImVec2(0, 0), ImVec2(0, 0)};
}

void Inspector::remember(const char* name) {
  const std::pair<ImVec2, ImVec2> r{ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
  for (auto& [n, rect] : widgets_)
    if (n == name) {
      rect = r;
      return;
    }
  widgets_.emplace_back(name, r);
}

void Inspector::refresh(Sandbox& sb) {
  seen_plans_ = sb.plan().plans;
  const PlanView& p = sb.plan();
  const Grid& g = sb.scene().grid;
  internals_plans_ = -1;
  plot_plans_ = -1;
  probe_s_ = -1.0;
  funnel_step_ = -1;
  const float speed = replay_.speed;
  if (auto prepared = sb.take_prepared_replay()) {
    replay_ = std::move(*prepared);  // built on the planning worker
    replay_.speed = speed;
    replay_px_version_ = ~uint64_t{0};  // its version counts from its own start: repaint
  } else if (!p.result.trace.empty()) {
    replay_.load_grid(p.result.trace, g.width(), g.height());
  } else if (!p.result.nav_trace.empty()) {
    // Polygon ids index the mesh the plan searched, which the plan carries.
    ensure_internals(sb);
    if (p.result.navmesh) replay_.load_navmesh(p.result.nav_trace, static_cast<int>(p.result.navmesh->polygons().size()));
    else replay_.clear();
  } else if (!p.result.pose_trace.empty()) {
    replay_.load_poses(p.result.pose_trace);
  } else {
    replay_.clear();
  }
  // Compare results belong to the scene they ran on; a new plan means the scene changed.
  if (compare_visible_ && compare_plans_ != seen_plans_) run_compare(sb);
}

void Inspector::update_replay_pixels(const Sandbox& sb) {
  if (replay_.source() != ReplayModel::Source::grid || replay_px_version_ == replay_.version()) return;
  if (replay_.node_count() != sb.scene().grid.cell_count()) return;  // the map changed under an old trace
  replay_px_.resize(static_cast<size_t>(replay_.node_count()));
  for (int n = 0; n < replay_.node_count(); ++n)
    replay_px_[static_cast<size_t>(n)] = abgr(replay_colour(replay_.state(n), n == replay_.current()));
  replay_px_version_ = replay_.version();
  ++replay_px_serial_;
}

const std::vector<uint32_t>* Inspector::search_pixels(const Sandbox& sb, uint64_t& version) {
  version = 0;
  if (replay_.empty() || replay_.source() != ReplayModel::Source::grid) return nullptr;
  if (replay_.node_count() != sb.scene().grid.cell_count()) return nullptr;
  update_replay_pixels(sb);
  version = replay_px_serial_;
  return &replay_px_;
}

void Inspector::frame(Sandbox& sb) {
  if (sb.plan().plans != seen_plans_) refresh(sb);
  compare_step(sb);  // rows the compare worker finished since the last frame
  replay_.tick(static_cast<double>(ImGui::GetIO().DeltaTime));
  shortcuts(sb);
  probe_s_ = -1.0;  // the probe marker shows only while a plot is hovered (tab_plots sets it)

  if (presenting_) return help_window();  // the lesson's caption shows instead (sandbox_present.cpp)
  // The strip spans the canvas's width under it (the layout's rectangle, screen_layout.hpp):
  // a splitter at its top edge, then the collapse arrow and the tabs, then the tab's body,
  // which scrolls when the strip is shorter than it.
  const ScreenLayout& layout = sb.layout();
  const ScreenRect& r = layout.strip;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f * em(), 4.0f * em()));  // as collapsed_strip_height() counts it
  // No ImGui background: the sandbox clears the screen to the window colour (see render()).
  const bool open = ImGui::Begin("Inspect##strip", nullptr,
                                 ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                     ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollbar |
                                     ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::PopStyleVar();
  if (open) {
    strip_splitter(r, layout.strip_min, layout.strip_max);
    tab_bar(sb);
  }
  ImGui::End();
  help_window();
}

void Inspector::strip_splitter(const ScreenRect& strip, float lo, float hi) {
  // A band across the strip's top edge: drag it up or down to give the strip more or less of
  // the window, within the layout's bounds (the map keeps at least half of the window).
  const float h = strip_splitter_height(ImGui::GetFontSize());
  const ImVec2 at(strip.x, strip.y);
  ImGui::SetCursorScreenPos(at);
  ImGui::InvisibleButton("##strip_splitter", ImVec2(std::max(1.0f, strip.w), h));
  remember("strip_splitter");
  const bool active = ImGui::IsItemActive(), hovered = ImGui::IsItemHovered();
  if (active || hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
  const float dy = ImGui::GetIO().MouseDelta.y;
  if (active && dy != 0.0f) {
    strip_wanted_ = std::clamp(strip.h - dy, lo, hi);
    strip_collapsed_ = false;
  }
  // The grip: a short bar in the middle, brighter while it can be dragged.
  const ImU32 col = active ? IM_COL32(200, 210, 230, 255) : hovered ? IM_COL32(150, 160, 180, 255) : IM_COL32(90, 98, 112, 255);
  const float cx = at.x + strip.w * 0.5f, cy = strip.y + h * 0.5f;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(cx - 24.0f * em(), cy - 1.0f * em()), ImVec2(cx + 24.0f * em(), cy + 1.0f * em()),
                                            col, 1.0f * em());
  if (hovered && !active) ImGui::SetTooltip("Drag to resize the Inspect strip");
}

void Inspector::tab_bar(Sandbox& sb) {
  if (ImGui::ArrowButton("##strip_collapse", strip_collapsed_ ? ImGuiDir_Up : ImGuiDir_Down)) strip_collapsed_ = !strip_collapsed_;
  remember("strip_collapse");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Inspect: see inside the method (F1 for help).\n%s; drag the bar above to resize.",
                      strip_collapsed_ ? "Show the views" : "Hide the views");
  ImGui::SameLine();
  // Taken before the bar: a tab's body (the gallery opening a preset) may ask for the next one.
  const std::optional<Tab> requested = requested_tab_;
  requested_tab_.reset();
  // Tabs that do not fit shrink (their full label in a tooltip) rather than hide behind arrows.
  if (!ImGui::BeginTabBar("views", ImGuiTabBarFlags_FittingPolicyResizeDown)) return;
  auto tab = [&](const char* label, Tab t, void (Inspector::*body)(Sandbox&)) {
    const ImGuiTabItemFlags f = requested == t ? ImGuiTabItemFlags_SetSelected : 0;
    const bool selected = ImGui::BeginTabItem(label, nullptr, f);
    remember((std::string("tab:") + label).c_str());
    if (ImGui::IsItemClicked()) strip_collapsed_ = false;  // a tab of a collapsed strip opens it
    if (!selected) return;
    tab_ = t;
    if (!strip_collapsed_) {
      ImGui::BeginChild("##body", ImVec2(0, 0), false, ImGuiWindowFlags_NoSavedSettings);
      (this->*body)(sb);
      ImGui::EndChild();
    }
    ImGui::EndTabItem();
  };
  tab("Replay", Tab::replay, &Inspector::tab_replay);
  tab("Overlays", Tab::overlays, &Inspector::tab_overlays);
  tab("Plots", Tab::plots, &Inspector::tab_plots);
  tab("Compare", Tab::compare, &Inspector::tab_compare);
  tab("Gallery", Tab::gallery, &Inspector::tab_gallery);
  tab("Export", Tab::export_, &Inspector::tab_export);
  ImGui::EndTabBar();
}

void Inspector::shortcuts(Sandbox& sb) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard || io.KeyCtrl || io.KeyAlt) return;
  if (key_pressed(SDL_SCANCODE_F1)) help_open_ = !help_open_;
  if (presenting_) return;  // the presentation steps through its lesson with these keys
  if (key_pressed(ImGui::GetKeyIndex(ImGuiKey_Space)) && !replay_.empty()) {
    if (replay_.step() >= replay_.steps()) replay_.set_step(0);  // play again from the start
    replay_.playing = !replay_.playing;
  }
  if (key_pressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) replay_.set_step(replay_.step() + (io.KeyShift ? 10 : 1));
  if (key_pressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) replay_.set_step(replay_.step() - (io.KeyShift ? 10 : 1));
  if (key_pressed(ImGui::GetKeyIndex(ImGuiKey_Home))) replay_.set_step(0);
  if (key_pressed(ImGui::GetKeyIndex(ImGuiKey_End))) replay_.set_step(replay_.steps());
  const int tab_keys[] = {SDL_SCANCODE_1, SDL_SCANCODE_2, SDL_SCANCODE_3, SDL_SCANCODE_4, SDL_SCANCODE_5, SDL_SCANCODE_6};
  for (int i = 0; i < 6; ++i)
    if (key_pressed(tab_keys[i])) {
      requested_tab_ = static_cast<Tab>(i);
      strip_collapsed_ = false;
    }
  if (key_pressed(SDL_SCANCODE_M)) {
    compare_visible_ = !compare_visible_;
    if (compare_visible_) run_compare(sb);
  }
}

void Inspector::tab_replay(Sandbox& sb) {
  if (replay_.empty()) {
    text_wrapped_f("Nothing to replay: this planner records no search (curve planners), the plan failed, or "
                       "\"show search\" is off in the Plan panel.");
    return;
  }
  const char* what = replay_.source() == ReplayModel::Source::grid      ? "grid cells"
                     : replay_.source() == ReplayModel::Source::navmesh ? "navmesh polygons (entered through a portal)"
                                                                        : "heading-aware poses";
  // Wrapped: on a narrow window one line of this would run off the strip. The step count is
  // said against Stats' expansion count, which it may exceed by the goal's pop.
  // Hybrid and Directional A* record their expansions only: no frontier to colour or count.
  const bool poses = replay_.source() == ReplayModel::Source::poses;
  text_wrapped_f("Search over %s: %s. %s The path shows at the last step.", what,
                 ReplayModel::steps_vs_expanded(replay_.steps(), sb.plan().result.expanded).c_str(),
                 poses ? "Red: the pose expanded at this step; blue: those expanded before. These searches record "
                         "expansions only: no frontier."
                       : "Red: expanded at this step; yellow: frontier; blue: closed.");
  if (ImGui::Button(replay_.playing ? "Pause" : "Play", ImVec2(60 * em(), 0))) {
    if (!replay_.playing && replay_.step() >= replay_.steps()) replay_.set_step(0);
    replay_.playing = !replay_.playing;
  }
  remember("play");
  // The row wraps in a narrow strip (a large UI scale) rather than running past its edge.
  same_line_if_fits(button_width("|<"));
  if (ImGui::Button("|<")) replay_.set_step(0);
  remember("first");
  same_line_if_fits(button_width("< back"));
  if (ImGui::Button("< back")) replay_.set_step(replay_.step() - 1);
  remember("back");
  same_line_if_fits(button_width("step >"));
  if (ImGui::Button("step >")) replay_.set_step(replay_.step() + 1);
  remember("step");
  same_line_if_fits(button_width(">|"));
  if (ImGui::Button(">|")) replay_.set_step(replay_.steps());
  remember("last");
  same_line_if_fits(180 * em() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("speed").x + help_marker_width());
  ImGui::SetNextItemWidth(180 * em());
  ImGui::SliderFloat(fit_label("speed", help_marker_width()).c_str(), &replay_.speed, 1.0f, 20000.0f, "%.0f exp/s", ImGuiSliderFlags_Logarithmic);
  remember("speed");
  help_marker("Expansions per second while playing. Logarithmic: drag right for big searches.");

  // ImGui's int slider is 32-bit; a search larger than that is out of reach of the screen anyway.
  int k = static_cast<int>(std::min<int64_t>(replay_.step(), INT32_MAX));
  const int kmax = static_cast<int>(std::min<int64_t>(replay_.steps(), INT32_MAX));
  ImGui::SetNextItemWidth(-160 * em());
  if (ImGui::SliderInt(fit_label("step", help_marker_width()).c_str(), &k, 0, kmax, "step %d")) {
    replay_.playing = false;
    replay_.set_step(k);
  }
  remember("scrub");
  help_marker("Scrub through the search. Step k shows the first k expansions and the nodes they opened. "
              "Keys: Space play/pause, Left/Right step (Shift: 10), Home/End. Hover a cell for its costs.");
  if (poses) {
    text_wrapped_f("shown: %lld of %lld poses expanded", static_cast<long long>(replay_.expansions_shown()),
                   static_cast<long long>(replay_.steps()));
  } else {
    text_wrapped_f("shown: %lld expanded, %lld open, %lld closed", static_cast<long long>(replay_.expansions_shown()),
                   static_cast<long long>(replay_.open_count()), static_cast<long long>(replay_.closed_count()));
  }
  help_marker(poses ? "Each expansion is a pose (a cell and a heading): a cell is expanded once per heading it is reached "
                      "with, so one cell can show several ticks."
                    : "\"closed\" counts nodes whose latest event is a close. With a turn penalty a cell is searched once "
                      "per direction, and Theta* can reopen nodes, so closed nodes may be fewer than expansions.");
  if (const int c = replay_.current(); c >= 0) {
    if (replay_.source() == ReplayModel::Source::grid && replay_.grid_width() > 0) {
      text_wrapped_f("step %lld expanded cell (%d, %d): g = %.3f, h = %.3f, f = %.3f", static_cast<long long>(replay_.step()),
                  c % replay_.grid_width(), c / replay_.grid_width(), static_cast<double>(replay_.g(c)),
                  static_cast<double>(replay_.f(c) - replay_.g(c)), static_cast<double>(replay_.f(c)));
    } else if (replay_.source() == ReplayModel::Source::navmesh) {
      text_wrapped_f("step %lld expanded polygon %d: g = %.3f, f = %.3f", static_cast<long long>(replay_.step()), c,
                  static_cast<double>(replay_.g(c)), static_cast<double>(replay_.f(c)));
    }
  }
}

void Inspector::help_window() {
  if (!help_open_) return;
  ImGui::SetNextWindowSize(ImVec2(520, 420), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(200, 80), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Help: keyboard shortcuts", &help_open_)) {
    static const char* const kKeys[][2] = {
        {"F1", "show / hide this help"},
        {"Ctrl+Z / Ctrl+Y", "undo / redo any edit (cells, start and goal, settings, units)"},
        {"Ctrl+S", "save the scene to its own file (an import or a preset: to a new scene name)"},
        {"Ctrl+Q", "quit (asks first when there are unsaved edits)"},
        {"F", "fit the whole map into the view"},
        {"F5 / Esc", "presentation mode on / off: no side panel, the map takes the window, units wait for Space"},
        {"Right, PageDown / Left, PageUp", "presenting a lesson: next / previous step (a clicker sends PageDown/PageUp)"},
        {"Space", "replay: play / pause (from the start when at the end)"},
        {"Left / Right", "replay: one expansion back / forward (Shift: 10)"},
        {"Home / End", "replay: first / last step"},
        {"1 .. 6", "Replay, Overlays, Plots, Compare, Gallery, Export tab"},
        {"M", "compare mode on / off (draws every chosen combination)"},
        {"mouse wheel", "zoom about the cursor"},
        {"right or middle drag", "pan"},
        {"left drag", "paint with the current tool; drag start/goal markers and their arrow tips"},
        {"hover a cell", "replay: its state and costs g, h, f"},
    };
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed, 150 * em());
      ImGui::TableSetupColumn("does");
      ImGui::TableHeadersRow();
      for (const auto& k : kKeys) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k[0]);
        ImGui::TableNextColumn();
        text_wrapped_f("%s", k[1]);
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
    text_wrapped_f("Shortcuts work when no text field has the keyboard. Every \"(?)\" explains the control before "
                       "it.");
  }
  ImGui::End();
}

void Inspector::draw_under_path(Sandbox& sb, ImDrawList* dl) {
  if (sb.plan().plans != seen_plans_) refresh(sb);
  if (replay_.empty()) return;
  // A grid search is blended into the sandbox's map texture (search_pixels()); the other
  // sources are drawn here.
  if (replay_.source() == ReplayModel::Source::grid) {
    return;
  } else if (const Navmesh* mesh = sb.plan().result.navmesh.get(); replay_.source() == ReplayModel::Source::navmesh && mesh) {
    const int n = std::min(replay_.node_count(), static_cast<int>(mesh->polygons().size()));
    for (int p = 0; p < n; ++p) {
      const auto st = replay_.state(p);
      if (st == ReplayModel::unseen) continue;
      std::vector<ImVec2> pts;
      for (const Vec2& v : mesh->ring(p)) pts.push_back(sb.world_to_screen(v));
      dl->AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), im(replay_colour(st, p == replay_.current())));
    }
  } else if (replay_.source() == ReplayModel::Source::poses) {
    const auto& poses = replay_.poses();
    const int shown = static_cast<int>(std::min<int64_t>(replay_.expansions_shown(), static_cast<int64_t>(poses.size())));
    // Every n-th pose when there are many (a failed Hybrid A* expands 200,000): a frame stays
    // cheap, and the current pose is always drawn.
    const int stride = std::max(1, shown / 6000);
    auto tick = [&](int i) {
      const Pose& p = poses[static_cast<size_t>(i)];
      const Vec2 d(std::cos(p.heading), std::sin(p.heading));
      // Thin and faint at 100%; bolder and more opaque at a projector's scale.
      std::array<uint8_t, 4> c = replay_colour(ReplayModel::closed, i == replay_.current());
      c[3] = std::max(c[3], static_cast<uint8_t>(std::min(230.0f, 110.0f + 120.0f * (sb.ui_scale() - 1.0f))));
      dl->AddLine(sb.world_to_screen(p.pos - d * 0.3), sb.world_to_screen(p.pos + d * 0.3), im(c), 2.0f * sb.ui_scale());
    };
    for (int i = 0; i < shown; i += stride) tick(i);
    if (shown > 0 && (shown - 1) % stride != 0) tick(shown - 1);
  }
}

void Inspector::draw_replay_hover(const Sandbox& sb, ImDrawList* dl) {
  const ImGuiIO& io = ImGui::GetIO();
  if (replay_.empty() || io.WantCaptureMouse || presenting_) return;  // no tooltips on a projector
  const ImVec2 m = io.MousePos, lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
  if (m.x < lo.x || m.y < lo.y || m.x >= hi.x || m.y >= hi.y) return;
  const Vec2 w = sb.screen_to_world(m.x, m.y);
  int node = -1;
  bool wall = false;
  char where[64] = "";
  if (replay_.source() == ReplayModel::Source::grid) {
    if (!sb.scene().grid.contains(w) || replay_.node_count() != sb.scene().grid.cell_count()) return;
    const Cell c = cell_of(w);
    node = static_cast<int>(sb.scene().grid.index(c.x, c.y));
    wall = sb.scene().grid.is_blocked(c.x, c.y);
    std::snprintf(where, sizeof where, "cell (%d, %d)", c.x, c.y);
  } else if (const Navmesh* mesh = sb.plan().result.navmesh.get(); replay_.source() == ReplayModel::Source::navmesh && mesh) {
    node = mesh->locate(w);
    if (node < 0 || node >= replay_.node_count()) return;
    std::snprintf(where, sizeof where, "polygon %d", node);
  } else {
    return;
  }
  const auto st = replay_.state(node);
  ImGui::BeginTooltip();
  ImGui::Text("%s: %s", where, state_name(st, wall, replay_.step() >= replay_.steps()));
  if (st != ReplayModel::unseen) {
    const double gv = static_cast<double>(replay_.g(node)), fv = static_cast<double>(replay_.f(node));
    ImGui::Text("g = %.3f  (cost from the start)", gv);
    ImGui::Text("h = %.3f  (estimate to the goal)", fv - gv);
    ImGui::Text("f = %.3f  (g + h: the open list's order)", fv);
  }
  ImGui::EndTooltip();
}

}  // namespace pathlab::sandbox
