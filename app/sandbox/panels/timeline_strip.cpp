// The timeline strip under the canvas (issue 25): the units' run since Reset, as recorded
// (UnitSwarm::recording): scrub to any recorded step, step one fixed step back or forward, play
// and pause, the playing speed. The canvas shows the recording's crowd, so it shows the moment
// the handle is at. No keys of its own: Space and the arrows belong to the search replay.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "inspect/inspector.hpp"
#include "inspect/ui_widgets.hpp"
#include "panels/event_list.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

constexpr double kSpeeds[] = {0.1, 0.25, 0.5, 1.0, 2.0, 4.0};
constexpr const char* kSpeedNames[] = {"0.1x", "0.25x", "0.5x", "1x", "2x", "4x"};

/// The speed choice nearest the swarm's speed (the Units panel's slider allows others).
int nearest_speed(double speed) {
  int best = 0;
  for (int i = 1; i < static_cast<int>(std::size(kSpeeds)); ++i)
    if (std::abs(kSpeeds[i] - speed) < std::abs(kSpeeds[best] - speed)) best = i;
  return best;
}

void seek(Sandbox& sb, int64_t step) {
  UnitSwarm& u = sb.units();
  u.set_playing(false);  // a scrub or a step shows one moment: playing would move off it
  if (const Status s = u.seek(step); !s) sb.set_status(s.error().message, true);
}

/// |<, one step back, play/pause, one step forward.
void buttons(Sandbox& sb, const plan::Recording* rec) {
  UnitSwarm& u = sb.units();
  ImGui::BeginDisabled(rec == nullptr);
  if (ImGui::Button("|<")) seek(sb, 0);
  sb.remember_widget("timeline start");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##back", ImGuiDir_Left) && rec && rec->step_index() > 0) seek(sb, rec->step_index() - 1);
  sb.remember_widget("timeline back");
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button(u.playing() ? "Pause##timeline" : "Play##timeline", ImVec2(ImGui::GetFontSize() * 3.5f, 0)))
    u.set_playing(!u.playing());
  sb.remember_widget("timeline play");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##forward", ImGuiDir_Right)) {
    u.set_playing(false);
    u.step(sb.scene());  // re-simulates a recorded step, or records a new one at the end
  }
  sb.remember_widget("timeline forward");
  ImGui::SameLine();
  int speed = nearest_speed(u.speed());
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4.5f);
  if (ImGui::Combo("##speed", &speed, kSpeedNames, static_cast<int>(std::size(kSpeedNames))))
    u.set_speed(kSpeeds[speed]);
  sb.remember_widget("timeline speed");
  ImGui::SameLine();
  ImGui::BeginDisabled(rec == nullptr);
  if (ImGui::Button("Save repro")) sb.save_repro();
  sb.remember_widget("Save repro");
  ImGui::EndDisabled();
  if (u.can_undo_branch()) {
    ImGui::SameLine();
    if (ImGui::Button("Undo branch")) {
      if (const Status s = u.undo_branch(); !s) sb.set_status(s.error().message, true);
    }
    sb.remember_widget("Undo branch");
  }
  help_marker("Save repro writes the run since Reset (scene, edits, state hashes) as a new NAME.repro.json "
              "next to the scene, with the moment shown as its moment of interest: opening it (or "
              "`pathlab FILE.repro.json`) shows that moment again; `pathlab-cli replay FILE --check` checks it. "
              "|< goes back to the Reset moment (the recording is kept; the Units panel's Reset starts a new "
              "one). The arrows step one fixed step (1/60 s) back or forward and pause. Playing from a past "
              "moment replays the recorded run, edits included. The speed: simulated seconds per real second.");
}

/// One compact row (a large UI scale under a short canvas, screen_layout.hpp): play/pause and
/// a "..." menu with the other buttons, so the slider shares their row.
void compact_buttons(Sandbox& sb, const plan::Recording* rec) {
  UnitSwarm& u = sb.units();
  if (ImGui::Button(u.playing() ? "Pause##timeline" : "Play##timeline", ImVec2(ImGui::GetFontSize() * 3.5f, 0)))
    u.set_playing(!u.playing());
  sb.remember_widget("timeline play");
  ImGui::SameLine();
  if (ImGui::Button("...##timeline_more")) ImGui::OpenPopup("timeline_more");
  sb.remember_widget("timeline more");
  hover_tooltip("Back to the start, one step back or forward, the speed, Save repro");
  if (ImGui::BeginPopup("timeline_more")) {
    buttons(sb, rec);
    ImGui::EndPopup();
  }
}

}  // namespace

namespace {

/// A tick over the slider just drawn (the last item) for each mark: brown a door click, blue a
/// send, grey a paint, and a door's scheduled toggle short and pale. At ImGui 1.86's slider
/// geometry (SliderBehaviorT): 2 px padding, an int grab of range-sized width (at least
/// GrabMinSize), its centre travelling over the rest.
void draw_marks(const std::vector<TimelineMark>& marks, int64_t until) {
  if (marks.empty() || until <= 0) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const float slider = hi.x - lo.x - 4.0f;
  const float grab = std::max(slider / static_cast<float>(until + 1), ImGui::GetStyle().GrabMinSize);
  const float x0 = lo.x + 2.0f + grab * 0.5f, span = slider - grab;
  const float w = std::max(2.0f, ImGui::GetFontSize() * 0.15f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const TimelineMark& m : marks) {
    const float x = x0 + span * static_cast<float>(m.step) / static_cast<float>(until);
    ImU32 c = IM_COL32(200, 120, 50, 255);  // a door click
    float top = lo.y;
    if (m.kind == TimelineMark::Kind::send) c = IM_COL32(90, 170, 255, 255);
    if (m.kind == TimelineMark::Kind::paint) c = IM_COL32(200, 200, 200, 255);
    if (m.kind == TimelineMark::Kind::spawn) c = IM_COL32(110, 200, 110, 255);
    if (m.kind == TimelineMark::Kind::goal) c = IM_COL32(230, 200, 60, 255);
    if (m.kind == TimelineMark::Kind::door_schedule) c = IM_COL32(200, 120, 50, 140), top = (lo.y + hi.y) * 0.5f;
    dl->AddRectFilled(ImVec2(x - w * 0.5f, top), ImVec2(x + w * 0.5f, hi.y), c);
  }
}

/// A frame colour as it shows over the window (the style's frame colours are translucent), so a
/// patch of it hides what lies under it.
ImU32 opaque_frame_colour(ImGuiCol which) {
  const ImVec4 f = ImGui::GetStyleColorVec4(which), w = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  const auto mix = [&](float a, float b) { return a * f.w + b * (1.0f - f.w); };
  return ImGui::GetColorU32(ImVec4(mix(f.x, w.x), mix(f.y, w.y), mix(f.z, w.z), 1.0f));
}

/// The slider's label drawn again over the ticks, on a patch of the slider's own colour: on a
/// run with many events the ticks of the lower half crossed the digits ("t = 2,52 s pf 2.52 s"
/// in a real window). ImGui 1.86 centres a slider's text in its frame, so this lands on it.
void redraw_label_over_ticks(const char* label, ImVec2 lo, ImVec2 hi, ImU32 frame) {
  const ImVec2 size = ImGui::CalcTextSize(label);
  const ImVec2 at((lo.x + hi.x - size.x) * 0.5f, (lo.y + hi.y - size.y) * 0.5f);
  const float pad = ImGui::GetFontSize() * 0.2f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(at.x - pad, at.y), ImVec2(at.x + size.x + pad, at.y + size.y), frame);
  dl->AddText(at, ImGui::GetColorU32(ImGuiCol_Text), label);
}

}  // namespace

void Sandbox::follow_recorded_scene() {
  if (units_->moment_version() != units_moment_version_) {
    // The units of another moment (a seek): no edit of the user's, no undo step (undoing it
    // would reload the units and end the recording).
    units_moment_version_ = units_->moment_version();
    committed_state_.units = units_->spawn_list();
  }
  if (units_->shown_scene_version() == units_scene_version_) return;
  units_scene_version_ = units_->shown_scene_version();
  const plan::Recording* rec = units_->recording();
  if (!rec) return;
  // The world at the moment shown: what was painted by then, where the goal was. Not an edit
  // of the document (no undo step, not dirty): the recording holds the edits.
  scene_.grid = units_->shown_map();  // the trail's moment while scrubbing, else the crowd's
  scene_.goal = units_->shown_goal();
  texture_dirty_ = true;
  plan_dirty_ = true;
  map_version_++;
  units_key_ = units_key();  // the units follow the recording: no re-plan of their own
}

void Sandbox::draw_timeline() {
  // Where and how tall: the layout (screen_layout.hpp), which puts the slider on a row of its
  // own when the canvas is narrow (a large UI scale) so it keeps room to scrub.
  const ScreenRect& r = layout_.timeline;
  if (r.empty()) return;
  const float em = ImGui::GetFontSize() / 14.0f;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8.0f * em, 4.0f * em));  // as timeline_strip_height() counts it
  ImGui::Begin("##timeline", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleVar();
  const plan::Recording* rec = units_->recording();
  layout_.timeline_compact ? compact_buttons(*this, rec) : buttons(*this, rec);
  if (!layout_.timeline_two_rows) ImGui::SameLine();
  if (!rec) {
    const std::string& note = units_->recording_note();
    text_fitted(note.empty() ? "the run is recorded from its first step" : note.c_str());
  } else {
    // The slider over the recorded steps, labelled with the moment in seconds.
    // While the crowd re-simulates towards the handle (UnitSwarm::scrub), the handle and the
    // label stay where the mouse put it, and the canvas draws that moment from the trail.
    const auto target = units_->scrub_target();
    int step = static_cast<int>(target.value_or(rec->step_index()));
    const double dt = units_->crowd().dt();
    char label[64];
    // Drawn from the trail while the crowd is not there yet: routes and "why" follow it.
    std::snprintf(label, sizeof label, "t = %.2f s of %.2f s%s", static_cast<double>(step) * dt,
                  static_cast<double>(rec->recorded_until()) * dt, units_->shown_frame() ? " (trail)" : "");
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 2.0f);
    const bool moved = ImGui::SliderInt("##timeline", &step, 0, static_cast<int>(rec->recorded_until()), label,
                                        ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_NoInput);
    const bool held = ImGui::IsItemActive();
    if (moved || (held && target) || (ImGui::IsItemDeactivated() && target)) {
      units_->set_playing(false);  // a scrub shows one moment: playing would move off it
      if (const Status s = units_->scrub(step, held); !s) set_status(s.error().message, true);
    }
    remember_widget("timeline");
    const ImVec2 slider_lo = ImGui::GetItemRectMin(), slider_hi = ImGui::GetItemRectMax();
    const ImU32 frame = opaque_frame_colour(held ? ImGuiCol_FrameBgActive
                                                 : ImGui::IsItemHovered() ? ImGuiCol_FrameBgHovered : ImGuiCol_FrameBg);
    draw_marks(units_->timeline_marks(), rec->recorded_until());
    draw_event_ticks(rec->events().events(), event_filter_, rec->recorded_until());
    redraw_label_over_ticks(label, slider_lo, slider_hi, frame);
    help_marker("The run since Reset, as recorded: drag to see any moment of it (the canvas shows the units, "
                "doors and trucks then). Ticks mark the edits (brown: a door click, blue: a send; short: a door's "
                "scheduled toggle; grey: paint; green: a spawn; yellow: the goal moved); short ticks in the lower half, "
                "the run's events in the Events section's colours. An edit made at a past moment starts a new branch "
                "from there: the recorded future is dropped, and \"Undo branch\" (or Ctrl+Z) brings it back exactly. "
                "\"(trail)\": a long run's moment is drawn from its recorded trail (units, doors, trucks) while the "
                "units are re-simulated to it; routes and \"why\" come back when they are there.");
  }
  ImGui::End();
}

}  // namespace pathlab::sandbox
