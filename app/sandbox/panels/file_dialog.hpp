#pragma once
// The sandbox's own Open / Import / Save As dialog (issue 23; SDL2 and Debian offer no file
// dialog library): a modal popup sized to the window with a path bar that takes typed paths,
// a places column, the listing of the current folder filtered by kind (size and modified
// columns), a file-name field for Save As and a clear message when a choice is refused.
// What it shows comes from FileBrowser (document/file_browser.hpp); what it returns goes
// through the sandbox's own open, import and save (request_open, save(path)), so the rules of
// document.hpp apply unchanged: Save As never writes over a file that is not a pathlab scene
// nor into the bundled assets, and it asks before replacing an existing scene.

#include <string>
#include <vector>

#include "document/file_browser.hpp"

namespace pathlab::sandbox {

class Sandbox;

class FileDialog {
 public:
  /// Opens the dialog for `mode` in `folder` (or, for Open and Import, the folder last used in
  /// that mode this session); `name` fills the file-name field of Save As. When the folder
  /// cannot be read, the working folder, then home, then the root are tried.
  void show(BrowseMode mode, const std::string& folder, const std::string& name, std::vector<Place> places,
            const std::string& work_dir);
  bool is_open() const { return open_; }
  /// Closes the dialog without a choice (its Cancel button, Escape).
  void close();
  /// Draws the dialog when it is open (call once a frame, outside any window). A confirmed
  /// choice is handed to `sb` and the dialog closes; a refused one keeps it open with the reason.
  /// When the sandbox first asks about unsaved edits, the dialog steps aside and comes back as
  /// it was if that question is cancelled (or the save or open it led to fails).
  void draw(Sandbox& sb);

  BrowseMode mode() const { return browser_.mode(); }
  const FileBrowser& browser() const { return browser_; }
  const std::vector<Place>& places() const { return places_; }
  /// What Save As's file-name field holds.
  std::string file_name() const { return name_buf_; }
  /// The entry selected in the listing ("" when none).
  const std::string& selected() const { return selected_; }
  /// What the dialog says under the listing (a refusal, or a note such as a capped listing).
  const std::string& message() const { return message_; }
  bool message_is_error() const { return message_error_; }
  /// A Save As waiting for "replace the existing scene?" ("" when none).
  const std::string& replace_question() const { return replace_path_; }

 private:
  void draw_path_bar(Sandbox& sb);
  void draw_places(Sandbox& sb, float height);
  void draw_listing(Sandbox& sb, float height);
  void draw_entry(Sandbox& sb, const FileEntry& e);
  void draw_footer(Sandbox& sb);
  void draw_kind_and_buttons(Sandbox& sb);
  void draw_message() const;
  void draw_replace_question(Sandbox& sb);
  void handle_keys(Sandbox& sb);
  float footer_height() const;

  void go_typed(Sandbox& sb, const std::string& typed);
  void enter_folder(const std::string& path);
  void after_move();  // the folder changed: selection, path field, message
  void select(const FileEntry& e);
  void activate(Sandbox& sb, const std::string& name);  // double-click or Enter on an entry
  void confirm(Sandbox& sb);
  void confirm_save(Sandbox& sb, std::string typed);
  void open_file(Sandbox& sb, const std::string& path);
  void resume_after_question(Sandbox& sb);  // the sandbox's "unsaved changes?" was answered
  void save_file(Sandbox& sb, const std::string& path);
  void refuse(std::string why);

  FileBrowser browser_;
  std::vector<Place> places_;
  bool open_ = false, open_requested_ = false, scroll_to_selected_ = false, scroll_top_ = false;
  bool show_hidden_ = false;       // kept between openings
  std::string last_folder_[3];     // per BrowseMode, this session
  std::string selected_, activate_, message_, replace_path_;
  std::string asked_path_;  // handed to the sandbox, which asks about unsaved edits first
  bool message_error_ = false;
  char path_buf_[1024] = "";
  char name_buf_[256] = "";
  std::string shown_folder_;  // the folder path_buf_ was last filled from
};

}  // namespace pathlab::sandbox
