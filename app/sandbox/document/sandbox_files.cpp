// The sandbox's files: open, import, save, the autosave and crash restore, the recent-files
// list, the unsaved-changes and restore dialogs, and the status toast. The rules of what may be
// written live in document.hpp; this file applies them to the scene on screen.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "inspect/inspector.hpp"
#include "pathlab/io/map_files.hpp"
#include "pathlab/plan/scene.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace fs = std::filesystem;
namespace {

bool is_scene_name(const std::string& path) { return fs::path(path).extension() == ".json"; }

/// The autosave is newer than the file it belongs to (or the file is gone).
bool newer_than_source(const std::string& autosave, const std::string& source) {
  std::error_code ec, ec2;
  const auto a = fs::last_write_time(autosave, ec);
  if (ec) return false;
  if (source.empty()) return true;
  const auto s = fs::last_write_time(source, ec2);
  return ec2 || a > s;
}

}  // namespace

void Sandbox::set_status(std::string text, bool error) {
  status_ = std::move(text);
  shown_status_ = status_;
  status_error_ = error;
  status_at_ms_ = SDL_GetTicks64();
}

void Sandbox::set_status_after_load(std::string text) {
  if (status_error_) text += "; " + status_;
  set_status(std::move(text), status_error_);
}

void Sandbox::forget_scene_messages() {
  // A message about the previous scene (an error, "saved ...", an export) would read as one
  // about the scene now open (issue 23).
  status_.clear();
  shown_status_.clear();
  status_error_ = false;
  inspector_->forget_messages();
}

void Sandbox::set_state_dir(const std::string& dir) {
  state_dir_ = dir;
  recent_.clear();
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(fs::path(dir) / "autosave", ec);
  std::ifstream in(fs::path(dir) / "recent.txt");
  std::string line;
  while (std::getline(in, line) && recent_.size() < 8) {
    if (line.empty()) continue;
    line = normalized_path(line);  // lists written before issue 23 may name a file twice
    if (std::find(recent_.begin(), recent_.end(), line) == recent_.end()) recent_.push_back(line);
  }
  std::ifstream ui(fs::path(dir) / "ui_scale.txt");
  float scale = 1.0f;
  if (ui >> scale && std::isfinite(scale)) ui_scale_ = std::clamp(scale, 1.0f, 2.5f);
  // A file named on the command line was opened as much as one picked in the dialog; a bundled
  // preset (the demo at every plain start) would only push the user's files down the list.
  if (!doc_.source().empty() && doc_.origin() != Origin::bundled) remember_recent(doc_.source());
  check_restore();
}

void Sandbox::set_ui_scale(float s) {
  if (!std::isfinite(s)) return;
  ui_scale_ = std::clamp(s, 1.0f, 2.5f);
  view_fitted_ = user_zoomed_;  // the panels change size: re-fit unless the user zoomed
  if (state_dir_.empty()) return;
  char text[32];
  std::snprintf(text, sizeof text, "%.2f\n", static_cast<double>(ui_scale_));
  (void)io::write_file_atomic((fs::path(state_dir_) / "ui_scale.txt").string(), text);
}

void Sandbox::remember_recent(const std::string& path) {
  // One entry per file: "mylevel.json", "./mylevel.json" and a link to it are the same file.
  const std::string abs = normalized_path(path);
  recent_.erase(std::remove(recent_.begin(), recent_.end(), abs), recent_.end());
  recent_.insert(recent_.begin(), abs);
  if (recent_.size() > 8) recent_.resize(8);
  if (state_dir_.empty()) return;
  std::string text;
  for (const auto& r : recent_) text += r + "\n";
  (void)io::write_file_atomic((fs::path(state_dir_) / "recent.txt").string(), text);  // losing the list is not worth an error
}

// ---- Autosave and crash restore ----

void Sandbox::check_restore() {
  restore_offer_.clear();
  const std::string a = autosave_path();
  if (a.empty() || !newer_than_source(a, doc_.source())) return;
  restore_offer_ = a;  // autosaves stop until the user has answered
}

std::string Sandbox::reopen_last_unsaved() {
  if (state_dir_.empty() || !restore_offer_.empty() || doc_.dirty()) return "";
  // The scene autosaved last first: a bundled preset edited and never saved is in no recent
  // list, and its copy would otherwise wait until the user happened to open that preset again.
  std::vector<std::string> files = recent_;
  if (std::ifstream in(fs::path(state_dir_) / "last_unsaved.txt"); std::getline(in, last_unsaved_) && !last_unsaved_.empty())
    files.insert(files.begin(), last_unsaved_);
  for (const std::string& file : files) {
    SceneDocument d;
    d.reset(file, is_scene_name(file));
    if (!newer_than_source(d.autosave_path(state_dir_), file)) continue;
    // open() runs check_restore, which puts this copy on offer; a file that cannot be read any
    // more keeps its copy for when it can (remove_autosave never runs on a failed open).
    if (open(file)) return file;
  }
  return "";
}

bool Sandbox::autosave_now() {
  const std::string path = autosave_path();
  if (!doc_.dirty() || path.empty() || !restore_offer_.empty()) return false;
  sync_units_to_scene();
  auto st = io::save_scene(scene_, path);
  doc_.autosaved();
  if (!st) {
    set_status("autosave failed: " + st.error().message, true);
    return false;
  }
  // A scene with no file (untitled, from a link) cannot be reopened by name: its copy is offered
  // when that kind of scene is opened again, as before.
  if (const std::string source = doc_.source().empty() ? "" : normalized_path(doc_.source());
      !source.empty() && source != last_unsaved_) {
    last_unsaved_ = source;  // written once per scene, not at every autosave
    (void)io::write_file_atomic((fs::path(state_dir_) / "last_unsaved.txt").string(), source + "\n");
  }
  return true;
}

void Sandbox::remove_autosave(const std::string& path) {
  if (path.empty() || path == restore_offer_) return;  // a crash copy on offer stays until answered
  std::error_code ec;
  fs::remove(path, ec);
}

void Sandbox::resolve_restore(bool restore) {
  const std::string copy = restore_offer_;
  restore_offer_.clear();
  if (copy.empty()) return;
  if (restore) {
    auto sc = plan::load_scene(copy);
    if (!sc) {
      set_status("cannot restore: " + sc.error().message + " (the copy is kept)", true);
      return;
    }
    const SceneDocument keep = doc_;
    set_scene(std::move(*sc));
    doc_ = keep;  // the restored work still belongs to its file
    touched();
    set_status_after_load("restored unsaved work from " + copy);
  } else {
    std::error_code ec;
    fs::remove(copy, ec);
    set_status("dropped the unsaved work from the last session", false);
  }
}

bool Sandbox::finish() {
  // Nothing unsaved (saved or discarded by the user): the crash copy has served its purpose.
  if (!doc_.dirty()) {
    remove_autosave(autosave_path());
    return false;
  }
  return autosave_now();
}

// ---- Save ----

void Sandbox::sync_units_to_scene() {
  scene_.units = units_->spawn_list();
  scene_.sim_speed = units_->speed();
}

bool Sandbox::save() {
  if (doc_.from_link()) {  // a link names no file: the user chooses one (sandbox_link.cpp)
    show_file_dialog(BrowseMode::save_as);
    set_status("this scene came from a link: choose a file name to save it", false);
    return false;
  }
  const std::string target = doc_.suggested_save_path(work_dir_);
  const bool new_name = doc_.save_path().empty();
  const std::string from = doc_.source();
  if (!save(target)) return false;
  if (new_name && !from.empty())
    set_status("saved as a new scene " + target + " (" + fs::path(from).filename().string() + " is unchanged)", false);
  return true;
}

bool Sandbox::save(const std::string& path) {
  if (!is_scene_name(path)) {
    set_status(path + ": scene files end in .json; not saved", true);
    return false;
  }
  if (auto ok = check_save_target(path); !ok) {
    set_status(ok.error().message, true);
    return false;
  }
  sync_units_to_scene();
  auto st = io::save_scene(scene_, path);
  if (!st) {
    set_status(st.error().message, true);
    return false;
  }
  const std::string old_autosave = autosave_path();
  doc_.saved_as(path);
  remove_autosave(old_autosave);
  remove_autosave(autosave_path());
  set_status("saved " + path, false);
  remember_recent(path);
  wrote_user_file(path);
  return true;
}

// ---- Open ----

void Sandbox::open_document(const std::string& path, bool is_scene) {
  doc_.reset(path, is_scene);
  check_restore();
}

bool Sandbox::open(const std::string& path) {
  if (is_repro_name(path)) return open_repro(path);
  if (io::is_lesson_name(path)) return open_lesson(path);
  const bool is_scene = is_scene_name(path);
  if (is_scene) {
    auto sc = plan::load_scene(path);
    if (!sc) {
      set_status(sc.error().message, true);  // the scene and its file stay as they were
      return false;
    }
    set_scene(std::move(*sc));
  } else {
    auto g = io::load_map_file(path);
    if (!g) {
      set_status(g.error().message, true);
      return false;
    }
    // A fresh scene (issue 23): nothing of the previous one (its doors, trucks, units, poses,
    // settings) carries over into the import or its first save; the view and UI preferences
    // live in the Sandbox, not in the scene, and stay. The same as an import on the command line.
    io::Scene sc;
    sc.grid = std::move(*g);
    sc.name = fs::path(path).filename().string();
    place_default_poses(sc);
    set_scene(std::move(sc));
  }
  open_document(path, is_scene);
  if (!status_error_) set_status("opened " + path, false);  // an error about the new scene (its units) stays
  remember_recent(path);
  return true;
}

void Sandbox::request_open(const std::string& path) {
  pending_ = PendingAction{PendingAction::Kind::open, path, {}};
  if (!doc_.dirty()) run_pending();
}

void Sandbox::request_preset(const GalleryEntry& e) {
  pending_ = PendingAction{PendingAction::Kind::preset, e.path, e};
  if (!doc_.dirty()) run_pending();
}

void Sandbox::request_quit() {
  pending_ = PendingAction{PendingAction::Kind::quit, "", {}};
  if (!doc_.dirty()) run_pending();
}

bool Sandbox::run_pending() {
  const PendingAction a = std::move(pending_);
  pending_ = PendingAction{};
  switch (a.kind) {
    case PendingAction::Kind::open: return open(a.path);
    case PendingAction::Kind::preset: return inspector_->open_preset(*this, a.preset);
    case PendingAction::Kind::quit: quit_confirmed_ = true; return true;
    case PendingAction::Kind::none: break;
  }
  return false;
}

void Sandbox::resolve_pending(Choice c) {
  if (pending_.kind == PendingAction::Kind::none) return;
  if (c == Choice::cancel) {
    pending_ = PendingAction{};
    set_status("kept the scene open", false);
    return;
  }
  if (c == Choice::save) {
    if (!save()) pending_ = PendingAction{};  // not saved: stay, the status says why
    else run_pending();
    return;
  }
  // Discard: the edits and their crash copy go only once the other scene is really open (a
  // failed open keeps both) or the app really quits.
  const std::string old_autosave = autosave_path();
  if (pending_.kind == PendingAction::Kind::quit) doc_.mark_clean();
  if (run_pending()) remove_autosave(old_autosave);
}

// ---- Dialogs and the status toast ----

void Sandbox::draw_dialogs() {
  const ImGuiIO& io = ImGui::GetIO();
  auto centre = [&] { ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.4f), ImGuiCond_Always, ImVec2(0.5f, 0.5f)); };
  auto button = [&](const char* label, const char* name) {
    const bool b = ImGui::Button(label);
    remember_widget(name);
    ImGui::SameLine();
    return b;
  };
  pending_modal_open_ = pending_.kind != PendingAction::Kind::none || !restore_offer_.empty();
  if (!restore_offer_.empty()) {
    if (!ImGui::IsPopupOpen("Restore unsaved work?")) ImGui::OpenPopup("Restore unsaved work?");
    centre();
    if (ImGui::BeginPopupModal("Restore unsaved work?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
      ImGui::Text("The last session ended with unsaved edits of this scene:");
      ImGui::TextDisabled("%s", restore_offer_.c_str());
      if (button("Restore", "modal:restore")) resolve_restore(true);
      if (button("Discard the copy", "modal:drop")) resolve_restore(false);
      if (restore_offer_.empty()) ImGui::CloseCurrentPopup();
      ImGui::EndPopup();
    }
    return;
  }
  if (pending_.kind == PendingAction::Kind::none) return;
  if (!ImGui::IsPopupOpen("Unsaved changes")) ImGui::OpenPopup("Unsaved changes");
  centre();
  if (ImGui::BeginPopupModal("Unsaved changes", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    const char* what = pending_.kind == PendingAction::Kind::quit ? "Quit" : "Open another scene";
    ImGui::Text("%s: this scene has unsaved edits.", what);
    ImGui::TextDisabled("Save writes %s", doc_.suggested_save_path(work_dir_).c_str());
    if (button("Save", "modal:save")) resolve_pending(Choice::save);
    if (button("Discard", "modal:discard")) resolve_pending(Choice::discard);
    if (button("Cancel", "modal:cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) resolve_pending(Choice::cancel);
    if (pending_.kind == PendingAction::Kind::none) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
  }
}

void Sandbox::draw_status() {
  // Code that sets status_ directly (the units panel) gets a toast too; errors are told apart
  // by their wording there.
  if (status_ != shown_status_) {
    shown_status_ = status_;
    status_at_ms_ = SDL_GetTicks64();
    status_error_ = status_.find("cannot") != std::string::npos || status_.find("error") != std::string::npos;
  }
  const uint64_t age = SDL_GetTicks64() - status_at_ms_;
  // On a projector only errors show: "opened ..." and "planning..." would sit over the lesson.
  const bool show_message = !status_.empty() && (status_error_ || (age < 6000 && !presenting_));
  const bool show_planning = planning_ && !presenting_;
  if (!show_message && !show_planning) return;
  ImGui::SetNextWindowPos(ImVec2(canvas_x_ + 8, canvas_y_ + 8));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(std::max(120.0f, canvas_w_ - 16), canvas_h_ * 0.5f));
  ImGui::SetNextWindowBgAlpha(0.85f);
  const ImGuiWindowFlags f = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##status", nullptr, f)) {
    if (show_planning) ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "planning...");
    if (show_message) {
      ImGui::PushTextWrapPos(std::max(120.0f, canvas_w_ - 32));
      if (status_error_) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", status_.c_str());
      else ImGui::TextUnformatted(status_.c_str());
      ImGui::PopTextWrapPos();
      if (status_error_ && ImGui::IsWindowHovered() && ImGui::IsMouseClicked(0)) status_.clear(), shown_status_.clear();
    }
  }
  ImGui::End();
}

}  // namespace pathlab::sandbox
