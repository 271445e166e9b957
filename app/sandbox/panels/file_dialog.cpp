#include "panels/file_dialog.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "document/gallery.hpp"
#include "inspect/ui_widgets.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace fs = std::filesystem;
namespace {

// "###": one popup id whatever the title says.
constexpr const char* kPopup = "###file_dialog";
constexpr const char* kReplace = "Replace the scene?###file_dialog_replace";
const ImVec4 kErrorColour(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kFolderColour(0.55f, 0.78f, 1.0f, 1.0f);

const char* title(BrowseMode m) {
  switch (m) {
    case BrowseMode::import: return "Import a map###file_dialog";
    case BrowseMode::save_as: return "Save the scene as###file_dialog";
    case BrowseMode::open: break;
  }
  return "Open a scene###file_dialog";
}

const char* action(BrowseMode m) {
  switch (m) {
    case BrowseMode::import: return "Import";
    case BrowseMode::save_as: return "Save";
    case BrowseMode::open: break;
  }
  return "Open";
}

size_t mode_index(BrowseMode m) { return static_cast<size_t>(m); }

bool key_pressed(ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); }

void remember(Sandbox& sb, const std::string& name) { sb.remember_widget(name.c_str()); }

/// Width the help marker "(?)" takes after an item.
float marker_width() { return ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x; }

}  // namespace

// ---- Opening and closing ----

void FileDialog::show(BrowseMode mode, const std::string& folder, const std::string& name, std::vector<Place> places,
                      const std::string& work_dir) {
  browser_ = FileBrowser(mode);
  browser_.set_show_hidden(show_hidden_);
  places_ = std::move(places);
  // Open and Import come back to where the user last was; Save As starts at the scene's own folder.
  const std::string last = mode == BrowseMode::save_as ? "" : last_folder_[mode_index(mode)];
  std::string first_error;
  for (const std::string& f : {last, folder, work_dir, browser_.home(), std::string("/")}) {
    if (f.empty()) continue;
    auto st = browser_.enter(f);
    if (st) break;
    if (first_error.empty()) first_error = st.error().message;
  }
  std::snprintf(name_buf_, sizeof name_buf_, "%s", name.c_str());
  open_ = open_requested_ = true;
  after_move();
  if (!first_error.empty() && !browser_.folder().empty()) refuse(first_error + "; showing " + browser_.folder());
  else if (browser_.folder().empty()) refuse("no folder could be read (" + first_error + ")");
}

void FileDialog::close() {
  open_ = false;
  replace_path_.clear();
  asked_path_.clear();
}

void FileDialog::refuse(std::string why) {
  message_ = std::move(why);
  message_error_ = true;
}

// ---- Moving around ----

void FileDialog::after_move() {
  selected_.clear();
  message_.clear();
  message_error_ = false;
  shown_folder_.clear();  // the path field shows the new folder
  scroll_top_ = true;
}

void FileDialog::enter_folder(const std::string& path) {
  if (auto st = browser_.enter(path); !st) refuse(st.error().message);
  else after_move();
}

void FileDialog::go_typed(Sandbox& sb, const std::string& typed) {
  const PathChoice c = browser_.go(typed);
  if (c.kind == PathChoice::Kind::refused) return refuse(c.message);  // the typed text stays to be corrected
  if (c.kind == PathChoice::Kind::folder) return after_move();
  // A file: its folder becomes current and the file is the choice (Enter confirms it).
  const fs::path file(c.path);
  if (browser_.enter(file.parent_path().string())) after_move();
  selected_ = file.filename().string();
  scroll_to_selected_ = true;
  if (mode() == BrowseMode::save_as) {
    std::snprintf(name_buf_, sizeof name_buf_, "%s", selected_.c_str());
    confirm_save(sb, c.path);
  } else {
    open_file(sb, c.path);
  }
}

void FileDialog::select(const FileEntry& e) {
  selected_ = e.name;
  message_.clear();
  if (!e.is_folder && mode() == BrowseMode::save_as) std::snprintf(name_buf_, sizeof name_buf_, "%s", e.name.c_str());
}

void FileDialog::activate(Sandbox& sb, const std::string& name) {
  const auto& entries = browser_.entries();
  const auto it = std::find_if(entries.begin(), entries.end(), [&](const FileEntry& e) { return e.name == name; });
  if (it == entries.end()) return;
  const std::string path = (fs::path(browser_.folder()) / name).string();
  if (it->is_folder) return enter_folder(path);
  if (mode() == BrowseMode::save_as) {
    std::snprintf(name_buf_, sizeof name_buf_, "%s", name.c_str());
    return confirm_save(sb, path);
  }
  open_file(sb, path);
}

void FileDialog::confirm(Sandbox& sb) {
  const auto& entries = browser_.entries();
  const auto sel = std::find_if(entries.begin(), entries.end(), [&](const FileEntry& e) { return e.name == selected_; });
  const bool folder_selected = sel != entries.end() && sel->is_folder;
  if (mode() == BrowseMode::save_as && !folder_selected) return confirm_save(sb, name_buf_);
  if (sel != entries.end()) return activate(sb, selected_);
  // Nothing chosen in the listing: a path typed in the path bar counts (its button is "Go").
  if (std::string(path_buf_) != browser_.folder()) return go_typed(sb, path_buf_);
  refuse(mode() == BrowseMode::import ? "choose a map to import" : "choose a scene to open");
}

// ---- What a choice does: the sandbox's own open and save ----

void FileDialog::open_file(Sandbox& sb, const std::string& path) {
  last_folder_[mode_index(mode())] = fs::path(path).parent_path().string();
  sb.request_open(path);
  // Opened at once (nothing unsaved) but refused: the reason shows here and the dialog stays.
  if (sb.pending().kind == PendingAction::Kind::none && sb.status_is_error()) return refuse(sb.status());
  // With unsaved edits the sandbox asks first, so the dialog makes way for its question and
  // keeps its place: Cancel there comes back here (resume_after_question).
  asked_path_ = sb.pending().kind == PendingAction::Kind::open ? path : "";
  open_ = false;
  replace_path_.clear();
}

void FileDialog::resume_after_question(Sandbox& sb) {
  if (asked_path_.empty() || sb.pending().kind != PendingAction::Kind::none) return;
  const std::string asked = std::move(asked_path_);
  asked_path_.clear();
  // Opened (after a save or a discard): no unsaved edits are left, the dialog's work is done.
  // Cancelled, or the save or the open failed: the edits are still there (a failed open keeps
  // them), so back to the folder and the file the user was at, with the reason when there is one.
  if (!sb.unsaved()) return;
  if (fs::path(asked).parent_path() == fs::path(browser_.folder())) selected_ = fs::path(asked).filename().string();
  open_ = open_requested_ = true;
  if (sb.status_is_error()) refuse(sb.status());
}

void FileDialog::confirm_save(Sandbox& sb, std::string typed) {
  PathChoice c = browser_.resolve(typed);
  if (c.kind == PathChoice::Kind::folder) {
    name_buf_[0] = '\0';
    return enter_folder(c.path);
  }
  if (c.kind == PathChoice::Kind::file && fs::path(c.path).extension().empty()) c = browser_.resolve(c.path + ".json");
  if (c.kind == PathChoice::Kind::folder) return refuse(c.path + ": is a folder");
  if (c.kind != PathChoice::Kind::file) return refuse(c.message);
  if (fs::path(c.path).extension() != ".json")
    return refuse(c.path + ": scene files end in .json; not saved (maps and images are never written)");
  if (auto ok = check_save_target(c.path); !ok) return refuse(ok.error().message);
  std::error_code ec;
  if (fs::exists(c.path, ec)) {
    replace_path_ = c.path;  // an existing pathlab scene: ask first
    return;
  }
  save_file(sb, c.path);
}

void FileDialog::save_file(Sandbox& sb, const std::string& path) {
  if (!sb.save(path)) return refuse(sb.status());
  last_folder_[mode_index(BrowseMode::save_as)] = fs::path(path).parent_path().string();
  close();
}

// ---- Drawing ----

void FileDialog::draw(Sandbox& sb) {
  resume_after_question(sb);
  if (!open_) return;
  if (open_requested_) {
    ImGui::OpenPopup(kPopup);
    open_requested_ = false;
  }
  const ImGuiIO& io = ImGui::GetIO();
  const float f = ImGui::GetFontSize();
  // Sized to the window (a 1280x800 window at 200% UI scale still shows a usable listing).
  const ImVec2 size(std::min(io.DisplaySize.x * 0.94f, 75.0f * f), std::min(io.DisplaySize.y * 0.92f, 46.0f * f));
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(1.0f);  // the map and the panel do not show through the listing
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  if (!ImGui::BeginPopupModal(title(mode()), nullptr, flags)) {
    open_ = false;  // closed by something else (another question took the screen)
    return;
  }
  draw_path_bar(sb);
  const float body = std::max(4.0f * f, ImGui::GetContentRegionAvail().y - footer_height());
  draw_places(sb, body);
  ImGui::SameLine();
  draw_listing(sb, body);
  if (!activate_.empty()) {  // after the listing: entering a folder replaces what it drew from
    const std::string name = std::move(activate_);
    activate_.clear();
    activate(sb, name);
  }
  draw_footer(sb);
  handle_keys(sb);
  draw_replace_question(sb);
  if (!open_) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void FileDialog::draw_path_bar(Sandbox& sb) {
  if (browser_.folder() != shown_folder_) {
    shown_folder_ = browser_.folder();
    std::snprintf(path_buf_, sizeof path_buf_, "%s", shown_folder_.c_str());
  }
  if (ImGui::ArrowButton("##up", ImGuiDir_Up)) {
    if (auto st = browser_.up(); !st) refuse(st.error().message);
    else after_move();
  }
  remember(sb, "dialog:up");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Up to the parent folder (Backspace)");
  ImGui::SameLine();
  const ImGuiStyle& st = ImGui::GetStyle();
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button_width("Go") - st.ItemSpacing.x - marker_width());
  const bool entered = ImGui::InputText("##path", path_buf_, sizeof path_buf_,
                                        ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
  remember(sb, "dialog:path");
  ImGui::SameLine();
  const bool go = ImGui::Button("Go");
  remember(sb, "dialog:go");
  help_marker("Type a folder and press Enter to go there, or a file to choose it. ~ is your home folder; a "
              "relative path starts from the folder shown.");
  if (entered || go) go_typed(sb, path_buf_);
}

void FileDialog::draw_places(Sandbox& sb, float height) {
  const float width = std::clamp(ImGui::GetFontSize() * 10.0f, 80.0f, ImGui::GetContentRegionAvail().x * 0.25f);
  ImGui::BeginChild("##places", ImVec2(width, height), true);
  ImGui::TextDisabled("Places");
  std::string go_to;
  for (const Place& p : places_) {
    ImGui::PushID(p.path.c_str());
    if (ImGui::Selectable(p.label.c_str(), p.path == browser_.folder(), ImGuiSelectableFlags_DontClosePopups))
      go_to = p.path;
    ImGui::PopID();
    remember(sb, "dialog:place:" + p.label);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.path.c_str());
  }
  ImGui::EndChild();
  if (!go_to.empty()) enter_folder(go_to);
}

void FileDialog::draw_listing(Sandbox& sb, float height) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersOuter |
                                ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_NoSavedSettings;
  if (!ImGui::BeginTable("##entries", 3, flags, ImVec2(0.0f, height))) return;
  const float pad = ImGui::GetFontSize();
  ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Size", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("1023 KB").x + pad * 0.5f);
  ImGui::TableSetupColumn("Modified", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("2026-12-31 23:59").x + pad * 0.5f);
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableHeadersRow();
  if (scroll_top_) ImGui::SetScrollY(0.0f), scroll_top_ = false;
  const auto& entries = browser_.entries();
  const auto sel = std::find_if(entries.begin(), entries.end(), [&](const FileEntry& e) { return e.name == selected_; });
  ImGuiListClipper clipper;  // an enormous folder draws only the rows in view
  clipper.Begin(static_cast<int>(entries.size()));
  if (scroll_to_selected_ && sel != entries.end()) {
    const int i = static_cast<int>(sel - entries.begin());
    clipper.ForceDisplayRangeByIndices(i, i + 1);
  }
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_entry(sb, entries[static_cast<size_t>(i)]);
  scroll_to_selected_ = false;
  if (entries.empty()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", browser_.error().empty() ? "(no folders or files of this kind here)" : "(cannot read this folder)");
  }
  ImGui::EndTable();
}

void FileDialog::draw_entry(Sandbox& sb, const FileEntry& e) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  const bool selected = e.name == selected_;
  ImGui::PushID(e.name.c_str());
  // The label is drawn apart from the selectable, so a "##" in a file name shows as typed.
  const ImGuiSelectableFlags flags =
      ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick | ImGuiSelectableFlags_DontClosePopups;
  if (ImGui::Selectable("##row", selected, flags)) {
    select(e);
    if (ImGui::IsMouseDoubleClicked(0)) activate_ = e.name;  // acted on after the listing is drawn
  }
  ImGui::PopID();
  remember(sb, "dialog:entry:" + e.name);
  if (selected && scroll_to_selected_) ImGui::SetScrollHereY();
  ImGui::SameLine();
  if (e.is_folder) ImGui::TextColored(kFolderColour, "%s/", e.name.c_str());
  else ImGui::TextUnformatted(e.name.c_str());
  ImGui::TableNextColumn();
  if (!e.is_folder) {
    const std::string size = format_size(e.size);
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(size.c_str()).x);
    ImGui::TextUnformatted(size.c_str());
  }
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(format_time(e.modified).c_str());
}

float FileDialog::footer_height() const {
  const ImGuiStyle& st = ImGui::GetStyle();
  const int rows = mode() == BrowseMode::save_as ? 2 : 1;
  // The rows of controls and two lines of message under them.
  return static_cast<float>(rows) * ImGui::GetFrameHeightWithSpacing() + 2.0f * ImGui::GetTextLineHeightWithSpacing() +
         st.ItemSpacing.y;
}

void FileDialog::draw_footer(Sandbox& sb) {
  if (mode() == BrowseMode::save_as) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("File name");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - marker_width());
    if (ImGui::InputText("##name", name_buf_, sizeof name_buf_,
                         ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll))
      confirm_save(sb, name_buf_);
    remember(sb, "dialog:name");
    help_marker("A new name (\".json\" is added when there is none), an existing scene (you are asked before it is "
                "replaced) or a path. A map, an image or any other file is never written over, and nothing is "
                "written into the bundled assets.");
  }
  draw_kind_and_buttons(sb);
  draw_message();
}

void FileDialog::draw_kind_and_buttons(Sandbox& sb) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const auto& filters = browser_.filters();
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 13.0f, ImGui::GetContentRegionAvail().x * 0.35f));
  if (ImGui::BeginCombo("##kind", filters[browser_.filter_index()].label.c_str())) {
    for (size_t i = 0; i < filters.size(); ++i)
      if (ImGui::Selectable(filters[i].label.c_str(), i == browser_.filter_index())) {
        browser_.set_filter(i);
        selected_.clear();
      }
    ImGui::EndCombo();
  }
  remember(sb, "dialog:kind");
  help_marker("Which files are listed (folders always are). A file of another kind typed in the path bar is "
              "still accepted.");
  ImGui::SameLine();
  bool hidden = show_hidden_;
  if (ImGui::Checkbox("hidden", &hidden)) {
    show_hidden_ = hidden;
    browser_.set_show_hidden(hidden);
  }
  remember(sb, "dialog:hidden");
  help_marker("Also list files and folders whose names start with a dot.");
  const char* ok = action(mode());
  const float buttons = button_width(ok) + st.ItemSpacing.x + button_width("Cancel");
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - buttons));
  if (ImGui::Button(ok)) confirm(sb);
  remember(sb, "dialog:ok");
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) close();
  remember(sb, "dialog:cancel");
}

void FileDialog::draw_message() const {
  if (!message_.empty() || !browser_.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, message_error_ || message_.empty() ? kErrorColour : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    text_wrapped_f("%s", message_.empty() ? browser_.error().c_str() : message_.c_str());
    ImGui::PopStyleColor();
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (browser_.truncated())
    text_wrapped_f("Showing the first %zu of %s%zu entries: this folder is very large. Type a name in the path "
                       "bar to reach the others.",
                       browser_.entries().size(), browser_.scan_stopped() ? "over " : "", browser_.matched());
  else if (!selected_.empty())
    text_wrapped_f("%s", (fs::path(browser_.folder()) / selected_).string().c_str());
  else {
    const auto& entries = browser_.entries();
    const auto folders = std::count_if(entries.begin(), entries.end(), [](const FileEntry& e) { return e.is_folder; });
    const size_t files = entries.size() - static_cast<size_t>(folders);
    text_wrapped_f("%zu folder%s, %zu file%s", static_cast<size_t>(folders), folders == 1 ? "" : "s", files,
                       files == 1 ? "" : "s");
  }
  ImGui::PopStyleColor();
}

// ---- Keys and the replace question ----

void FileDialog::handle_keys(Sandbox& sb) {
  if (!replace_path_.empty() || !open_) return;  // the question has the keys
  if (key_pressed(ImGuiKey_Escape)) return close();
  if (ImGui::GetIO().WantTextInput) return;  // Enter and Backspace belong to the field being typed in
  if (key_pressed(ImGuiKey_Enter) || key_pressed(ImGuiKey_KeyPadEnter)) return confirm(sb);
  if (key_pressed(ImGuiKey_Backspace)) {
    if (auto st = browser_.up(); !st) refuse(st.error().message);
    else after_move();
    return;
  }
  const int step = key_pressed(ImGuiKey_DownArrow) ? 1 : key_pressed(ImGuiKey_UpArrow) ? -1 : 0;
  const auto& entries = browser_.entries();
  if (step == 0 || entries.empty()) return;
  const auto sel = std::find_if(entries.begin(), entries.end(), [&](const FileEntry& e) { return e.name == selected_; });
  const long at = sel == entries.end() ? (step > 0 ? -1 : 0) : static_cast<long>(sel - entries.begin());
  const long next = std::clamp(at + step, 0L, static_cast<long>(entries.size()) - 1);
  select(entries[static_cast<size_t>(next)]);
  scroll_to_selected_ = true;
}

void FileDialog::draw_replace_question(Sandbox& sb) {
  if (replace_path_.empty()) return;
  if (!ImGui::IsPopupOpen(kReplace)) ImGui::OpenPopup(kReplace);
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kReplace, nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings))
    return;
  ImGui::Text("%s already exists.", fs::path(replace_path_).filename().string().c_str());
  ImGui::TextDisabled("%s", replace_path_.c_str());
  ImGui::TextUnformatted("It is a pathlab scene. Replace it with this scene?");
  std::string save_to;
  if (ImGui::Button("Replace")) save_to = replace_path_;
  remember(sb, "dialog:replace");
  ImGui::SameLine();
  if (ImGui::Button("Keep it") || key_pressed(ImGuiKey_Escape)) replace_path_.clear();
  remember(sb, "dialog:keep");
  if (!save_to.empty()) replace_path_.clear();
  if (replace_path_.empty()) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  if (!save_to.empty()) save_file(sb, save_to);
}

// ---- The sandbox's side ----

void Sandbox::show_file_dialog(BrowseMode mode) {
  // Another question on screen (unsaved changes, a crash copy) is answered first.
  if (pending_.kind != PendingAction::Kind::none || !restore_offer_.empty()) return;
  std::error_code ec;
  const std::string work = work_dir_.empty() ? fs::current_path(ec).string() : work_dir_;
  std::string folder, name;
  if (mode == BrowseMode::save_as) {
    const fs::path target = doc_.save_path().empty() ? doc_.suggested_save_path(work) : doc_.save_path();
    folder = target.parent_path().string();
    name = target.filename().string();
  } else if (!doc_.source().empty()) {
    folder = fs::path(doc_.source()).parent_path().string();
  } else if (!recent_.empty()) {
    folder = fs::path(recent_.front()).parent_path().string();
  }
  const char* home = std::getenv("HOME");
  file_dialog_->show(mode, folder, name, recent_places(mode, recent_, assets_dir(), work, home ? home : ""), work);
}

}  // namespace pathlab::sandbox
