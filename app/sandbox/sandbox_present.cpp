// Presentation mode and lessons (issue 26, "Teaching on a projector"). F5 (or "Present")
// hides the side panel and the Inspect strip so the map takes the window; a lesson file
// (pathlab/io/lesson_file.hpp) is stepped through with Right/Left or PageDown/PageUp (what a
// presenter's clicker sends), each step opening its scene with its views on and its caption in
// large text under the map. Units wait for Play (Space) in every scene opened; hover tooltips
// and the "opened ..." banner stay off. The side panel's "Lesson" section builds a lesson from
// the views on screen and saves it as a new file. The sandbox's own frame only checks the flag.

#include <algorithm>
#include <cfloat>
#include <filesystem>

#include "inspect/inspector.hpp"
#include "inspect/ui_widgets.hpp"
#include "panels/file_dialog.hpp"
#include "pathlab/plan/registry.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace fs = std::filesystem;
namespace {

constexpr float kCaptionScale = 1.5f;  // the caption's text against the UI font: read from the back row

/// A key pressed this frame (not repeated: one press, one step). The SDL backend indexes
/// KeysDown by scancode, and ImGui's named keys map to theirs.
bool pressed(int scancode) { return ImGui::IsKeyPressed(scancode, false); }
bool pressed_named(ImGuiKey key) { return pressed(ImGui::GetKeyIndex(key)); }

std::string check_planner(const std::string& name) {
  return plan::find_planner(name) ? "" : "unknown planner '" + name + "'";
}

}  // namespace

void Sandbox::set_presenting(bool on) {
  if (on == presenting_) return;
  presenting_ = on;
  inspector_->set_presenting(on);
  user_zoomed_ = false;  // the canvas changes size: the map fits the new one
  view_fitted_ = false;
  if (on) units_->set_playing(false);  // nothing moves before the teacher says so
  // Back at the desk, "opened ..." of the last step is old news; an error stays.
  if (!on && !status_error_) status_.clear(), shown_status_.clear();
}

bool Sandbox::open_lesson(const std::string& path) {
  io::LessonReadOptions options;
  options.check_planner = check_planner;
  auto lesson = io::load_lesson(path, options);
  if (!lesson) {
    set_status(lesson.error().message, true);
    return false;
  }
  lesson_ = LessonShow{std::move(*lesson), path, -1};
  set_presenting(true);
  remember_recent(path);
  show_lesson_step(0);  // a step that cannot open says so; the lesson stays open to step past it
  return true;
}

bool Sandbox::show_lesson_step(int index) {
  if (!lesson_.open()) return false;
  index = std::clamp(index, 0, lesson_.count() - 1);
  if (doc_.dirty()) {
    set_status("this scene has unsaved edits: save them (Ctrl+S) or undo them (Ctrl+Z), then step on", true);
    return false;
  }
  const io::LessonStep& step = lesson_.lesson.steps[static_cast<size_t>(index)];
  lesson_.step = index;
  const std::string file = step_scene_file(lesson_.path, step);
  if (!open(file)) {
    set_status("step " + std::to_string(index + 1) + ": " + status_, true);
    return false;
  }
  // Each step starts from the default layers and overlays, then switches on its own.
  show_search_ = true;
  show_raw_path_ = false;
  show_curvature_ = true;
  show_unit_paths_ = true;
  replay_from_start_after_ = -1;
  std::vector<std::string> inspector_views;
  for (const std::string& v : step.views)
    if (v == "search" || v == "raw_path" || v == "curvature" || v == "unit_routes" || v == "replay") apply_view(v);
    else inspector_views.push_back(v);
  inspector_->show_views(*this, inspector_views);
  units_->set_playing(false);
  plan_dirty_ = true;
  return true;
}

bool Sandbox::apply_view(const std::string& v) {
  if (v == "search") show_search_ = true;
  else if (v == "raw_path") show_raw_path_ = true;
  else if (v == "curvature") show_curvature_ = true;
  else if (v == "unit_routes") show_unit_paths_ = true;
  else if (v == "replay") {
    // The search from its first step, the path hidden until its end: Space plays it. The
    // replay is rewound once the plan of this scene has arrived (draw_presentation).
    show_search_ = true;
    replay_from_start_after_ = plan_.plans;
  } else {
    return inspector_->apply_preset_view(v);
  }
  plan_dirty_ = true;  // the search is recorded only when shown
  return true;
}

bool Sandbox::view_on(const std::string& v) const {
  if (v == "search") return show_search_;
  if (v == "raw_path") return show_raw_path_;
  if (v == "curvature") return show_curvature_;
  if (v == "unit_routes") return show_unit_paths_;
  if (v == "replay") return show_search_ && (replay_from_start_after_ >= 0 || inspector_->replay().step() == 0);
  // A tab is chosen now and shown when the strip is (after presenting).
  auto tab = [&](Inspector::Tab t) { return inspector_->tab() == t || inspector_->requested_tab() == t; };
  if (v == "tab:replay") return tab(Inspector::Tab::replay);
  if (v == "tab:overlays") return tab(Inspector::Tab::overlays);
  if (v == "tab:plots") return tab(Inspector::Tab::plots);
  if (v == "tab:compare") return tab(Inspector::Tab::compare);
  if (v == "compare") return inspector_->compare_shown();
  if (v.rfind("compare:", 0) == 0) {
    for (const CompareRun& r : inspector_->compare_runs())
      if (r.planner == v.substr(8)) return inspector_->compare_shown() && r.enabled;
    return false;
  }
  if (v == "vehicle_rules") return inspector_->compare_rules().vehicle;
  const Inspector::Overlays& o = inspector_->overlays();
  const std::pair<const char*, bool> overlays[] = {
      {"navmesh", o.navmesh}, {"corridor", o.corridor}, {"portals", o.portals},   {"funnel", o.funnel},
      {"spline", o.spline},   {"tangents", o.tangents}, {"circles", o.circles},   {"dubins", o.dubins},
      {"reeds_shepp", o.reeds_shepp}, {"curvature_ramp", o.curvature_ramp}, {"lookahead", o.lookahead}};
  for (const auto& [name, on] : overlays)
    if (v == name) return on;
  return false;
}

// ---- The caption, its buttons and keys ----

float Sandbox::caption_height(float width) const {
  const ImGuiStyle& st = ImGui::GetStyle();
  float h = ImGui::GetFrameHeight() + 2.0f * st.WindowPadding.y;  // the bar with the buttons
  if (lesson_.open() && lesson_.step >= 0) {
    const std::string& caption = lesson_.lesson.steps[static_cast<size_t>(lesson_.step)].caption;
    const float wrap = std::max(1.0f, width - 2.0f * st.WindowPadding.x);
    const ImVec2 text = ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize() * kCaptionScale, FLT_MAX, wrap,
                                                        caption.c_str(), caption.c_str() + caption.size());
    h += st.ItemSpacing.y + text.y + 2.0f;
  }
  // Never more than 40% of the window: a longer caption scrolls (the wheel over it), the map keeps the rest.
  return std::min(h, ImGui::GetIO().DisplaySize.y * 0.4f);
}

void Sandbox::present_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard || pending_modal_open_ || file_dialog_->is_open() || io.KeyCtrl || io.KeyAlt) return;
  if (pressed_named(ImGuiKey_Escape) || pressed(SDL_SCANCODE_F5)) {
    set_presenting(false);
    return;
  }
  if (pressed_named(ImGuiKey_RightArrow) || pressed_named(ImGuiKey_PageDown)) show_lesson_step(lesson_.step + 1);
  else if (pressed_named(ImGuiKey_LeftArrow) || pressed_named(ImGuiKey_PageUp)) show_lesson_step(lesson_.step - 1);
  else if (pressed_named(ImGuiKey_Home)) show_lesson_step(0);
  else if (pressed_named(ImGuiKey_End)) show_lesson_step(lesson_.count() - 1);
  if (pressed_named(ImGuiKey_Space)) {
    // Play: the search's replay while it has steps to go (a step's "replay"), else the units
    // when the scene has any, else the replay again from its start.
    ReplayModel& r = inspector_->replay();
    if (!r.empty() && (r.step() < r.steps() || units_->count() == 0)) {
      if (r.step() >= r.steps()) r.set_step(0);
      r.playing = !r.playing;
    } else if (units_->count() > 0) {
      units_->set_playing(!units_->playing());
    }
  }
}

void Sandbox::draw_presentation() {
  widget_rects_.clear();  // only the caption's buttons are on screen
  present_keys();
  if (!presenting_) return draw_panel();  // Esc: the layout brings the panel back next frame
  if (replay_from_start_after_ >= 0 && !planning_ && !plan_dirty_ && plan_.plans > replay_from_start_after_) {
    inspector_->replay().set_step(0);
    inspector_->replay().playing = false;
    replay_from_start_after_ = -1;
  }
  // The caption takes the Inspect strip's place (Sandbox::update_layout asks the layout for
  // caption_height() there), so the canvas and the timeline end above it.
  const ScreenRect& r = layout_.strip;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  // No background: the sandbox clears the screen to the window colour (see render()).
  ImGui::Begin("##lesson_caption", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoFocusOnAppearing);
  auto button = [&](const char* label, const char* name) {
    const bool b = ImGui::Button(label);
    remember_widget(name);
    ImGui::SameLine();
    return b;
  };
  const bool lesson = lesson_.open();
  if (lesson) {
    if (button("< Back", "present:back")) show_lesson_step(lesson_.step - 1);
    if (button("Next >", "present:next")) show_lesson_step(lesson_.step + 1);
  }
  if (units_->count() > 0 && button(units_->playing() ? "Pause" : "Play", "present:play"))
    units_->set_playing(!units_->playing());
  if (button("Exit (Esc)", "present:exit")) set_presenting(false);
  if (lesson) {
    ImGui::TextDisabled("%d / %d  %s", lesson_.step + 1, lesson_.count(), lesson_.lesson.title.c_str());
    if (lesson_.step >= 0) {
      ImGui::SetWindowFontScale(kCaptionScale);
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(lesson_.lesson.steps[static_cast<size_t>(lesson_.step)].caption.c_str());
      remember_widget("present:caption");
      ImGui::PopTextWrapPos();
      ImGui::SetWindowFontScale(1.0f);
    }
  } else {
    ImGui::TextDisabled("Presentation (F5 or Esc to leave). Open a .lesson.json to step through a lesson.");
  }
  ImGui::End();
}

// ---- The side panel's "Lesson" section: present, and build a lesson from what is shown ----

std::string Sandbox::add_view_to_lesson(const std::string& caption) {
  // The step must open what is on screen: a preset as it is, or the user's scene as saved.
  std::string file;
  if (doc_.dirty()) file.clear();
  else if (doc_.origin() == Origin::bundled) file = doc_.source();
  else if (doc_.origin() == Origin::scene) file = doc_.save_path();
  std::vector<std::string> views;
  if (show_raw_path_) views.push_back("raw_path");
  if (const ReplayModel& r = inspector_->replay(); !r.empty() && r.step() < r.steps()) views.push_back("replay");
  for (std::string& v : inspector_->current_views()) views.push_back(std::move(v));
  std::string e = doc_.dirty() ? "the scene has unsaved edits: save it (Ctrl+S) first, so the lesson opens what you see"
                               : draft_.add(file, caption, std::move(views));
  if (!e.empty()) set_status(e, true);
  else set_status("added step " + std::to_string(draft_.count()) + " to the lesson", false);
  return e;
}

std::string Sandbox::save_lesson_draft() {
  std::string dir = fs::path(doc_.suggested_save_path(work_dir_)).parent_path().string();
  if (dir.empty()) dir = work_dir_.empty() ? "." : work_dir_;
  auto saved = draft_.save(dir);
  if (!saved) {
    set_status(saved.error().message, true);
    return "";
  }
  set_status("saved lesson " + *saved + " (" + std::to_string(draft_.count()) + " steps; open it to present it)", false);
  remember_recent(*saved);
  wrote_user_file(*saved);
  return *saved;
}

void Sandbox::draw_lesson_panel() {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureKeyboard && !pending_modal_open_ && !io.KeyCtrl && pressed(SDL_SCANCODE_F5)) set_presenting(true);
  if (!collapsing_header("Lesson")) return;
  if (ImGui::Button("Present (F5)")) set_presenting(true);
  remember_widget("present");
  help_marker("Presentation mode for a projector: the side panel and the Inspect strip go, the map takes the window, "
              "no hover tooltips, units wait for Space. With a lesson open, Right/Left (or a clicker's PageDown/PageUp) "
              "step through it. Esc or F5 leaves.");
  if (lesson_.open()) {
    text_wrapped_f("Lesson open: %s (%d steps)", lesson_.lesson.title.c_str(), lesson_.count());
    if (ImGui::Button("Present it")) {
      set_presenting(true);
      show_lesson_step(0);
    }
    remember_widget("present_lesson");
  }
  ImGui::Separator();
  text_wrapped_f("Make a lesson from what is shown:");
  if (ImGui::InputText(fit_label("title##lesson", help_marker_width()).c_str(), title_buf_, sizeof title_buf_)) draft_.title = title_buf_;
  ImGui::TextUnformatted("caption");  // above: the field takes the whole width
  ImGui::InputTextMultiline("##caption##lesson", caption_buf_, sizeof caption_buf_, ImVec2(-FLT_MIN, ImGui::GetTextLineHeight() * 4));
  remember_widget("lesson_caption");
  if (ImGui::Button("Add this view") && add_view_to_lesson(caption_buf_).empty()) caption_buf_[0] = '\0';
  remember_widget("lesson_add");
  help_marker("Adds a step: this scene (a preset by its id, or your saved scene file), the caption above and the views "
              "switched on now (overlays, compare rows, the replay when rewound, the raw path). Save an edited scene "
              "first.");
  same_line_if_fits(button_width("Save lesson") + help_marker_width());
  ImGui::BeginDisabled(draft_.count() == 0);
  if (ImGui::Button("Save lesson")) save_lesson_draft();
  remember_widget("lesson_save");
  ImGui::EndDisabled();
  help_marker("Writes NAME.lesson.json next to where Save puts the scene: a new file the first time (never over "
              "another file), then that same file again. Open it (Open..., or pathlab FILE.lesson.json) to present.");
  text_wrapped_f("%d step(s)%s%s", draft_.count(), draft_.file().empty() ? "" : ", saved as ",
              draft_.file().empty() ? "" : fs::path(draft_.file()).filename().string().c_str());
}

}  // namespace pathlab::sandbox
