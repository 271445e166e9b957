#pragma once
// What the sandbox's file dialog shows, apart from any drawing, so it can be tested without a
// window (issue 23): the current folder and its entries (folders first, then files, sorted
// case-insensitively, dot-files hidden unless asked), filtered by kind, going up, into a folder
// or to a typed path, the places column (recent places) and a cap on enormous folders.
// Every file-system call uses the error_code overloads: an unreadable or vanished folder is an
// error value naming the path, never an exception.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pathlab/status.hpp"

namespace pathlab::sandbox {

/// What the dialog is for; it decides the kind filters and whether a new file name is allowed.
enum class BrowseMode {
  open,     ///< open a scene (*.json)
  import,   ///< import a map (*.map, *.png)
  save_as,  ///< save the scene (*.json); the name may be new
};

/// One entry of a kind filter: what the user reads ("Scenes (*.json)") and the extensions it
/// lets through, lower case with the dot (none: every file).
struct KindFilter {
  std::string label;
  std::vector<std::string> extensions;
};
/// The filters a mode offers, its default first; the last one is "All files".
std::vector<KindFilter> filters_for(BrowseMode mode);

/// A folder or file in the listing.
struct FileEntry {
  std::string name;  ///< the file name alone
  bool is_folder = false;
  uintmax_t size = 0;      ///< bytes (files only; 0 when unknown)
  int64_t modified = -1;   ///< last write, seconds since 1970 (UTC); -1 when unknown
};

/// A place in the dialog's left column.
struct Place {
  std::string label;  ///< short: "home", "bundled scenes", a folder's name
  std::string path;   ///< absolute folder
};

/// Where a typed path leads.
struct PathChoice {
  enum class Kind { folder, file, refused } kind = Kind::refused;
  std::string path;     ///< absolute, normalised (folder or file)
  std::string message;  ///< why it was refused, naming the path
};

/// "12 B", "3.4 KB", "1.2 MB", ... (powers of 1024).
std::string format_size(uintmax_t bytes);
/// "2026-11-27 04:05" in local time; "" when unknown (< 0).
std::string format_time(int64_t seconds_since_1970);
/// True when `name` ends in one of `extensions` (lower case, with the dot), ignoring case; an
/// empty list lets every name through.
bool matches_kind(const std::string& name, const std::vector<std::string>& extensions);

/// The places column: the folders of the recent files (newest first), the bundled scenes (and,
/// for an import, the bundled maps), the working folder and home. Only folders that exist, each
/// once (a folder that is two of them carries both names); empty inputs are skipped.
std::vector<Place> recent_places(BrowseMode mode, const std::vector<std::string>& recent_files,
                                 const std::string& assets_dir, const std::string& work_dir, const std::string& home);

class FileBrowser {
 public:
  /// Listing more entries than this [count] would make an enormous folder slow to read and to
  /// scroll; the first ones (in sort order) are listed and the rest counted.
  static constexpr size_t kDefaultMaxListed = 5000;
  /// Reading stops after this many directory entries [count] (a folder of millions).
  static constexpr size_t kDefaultMaxScanned = 200000;

  explicit FileBrowser(BrowseMode mode = BrowseMode::open, size_t max_listed = kDefaultMaxListed,
                       size_t max_scanned = kDefaultMaxScanned);

  BrowseMode mode() const { return mode_; }
  /// A leading `~` in typed paths expands to this folder (default: the HOME environment
  /// variable; "" leaves `~` as typed).
  void set_home(const std::string& home) { home_ = home; }
  const std::string& home() const { return home_; }

  /// Makes `folder` current and lists it. When it cannot be read (gone, not a folder, permission
  /// denied) the browser stays where it was, listing included, and the error names the folder.
  Status enter(const std::string& folder);
  /// Into a folder of the listing, by name.
  Status enter_child(const std::string& name);
  /// To the parent folder (nothing happens at the root).
  Status up();
  /// Reads the current folder again. When it is gone or unreadable now, the listing is empty and
  /// the error (also kept in error()) names it.
  Status refresh();

  /// Where `typed` leads, without going there: `~` expands, a relative path is taken against the
  /// current folder. An existing folder -> folder; an existing file -> file; in save_as mode a
  /// new name in an existing folder -> file; anything else is refused with a reason.
  PathChoice resolve(const std::string& typed) const;
  /// resolve(), and when it is a folder, enter it (a refusal to read it becomes `refused`).
  PathChoice go(const std::string& typed);

  const std::string& folder() const { return folder_; }
  /// The listing: folders first, then files of the current kind, each group sorted by name
  /// ignoring case; dot-files only when show_hidden(). At most max_listed entries.
  const std::vector<FileEntry>& entries() const { return entries_; }
  /// The last error reading the current folder ("" when it read fine).
  const std::string& error() const { return error_; }
  /// How many entries matched (folders and files of the kind) before the cap, and whether the
  /// listing was cut (by max_listed, or because reading stopped at max_scanned).
  size_t matched() const { return matched_; }
  bool truncated() const { return truncated_; }
  bool scan_stopped() const { return scan_stopped_; }

  const std::vector<KindFilter>& filters() const { return filters_; }
  size_t filter_index() const { return filter_; }
  /// Chooses a kind filter (index into filters(); out of range is ignored) and re-lists.
  void set_filter(size_t index);
  bool show_hidden() const { return show_hidden_; }
  void set_show_hidden(bool show);

 private:
  struct Listing {
    std::vector<FileEntry> entries;
    size_t matched = 0;
    bool truncated = false, scan_stopped = false;
  };
  /// Reads `folder` into `out` (nothing of the browser changes here).
  Status list(const std::string& folder, Listing& out) const;
  void take(std::string folder, Listing listing);
  std::string absolute(const std::string& typed) const;

  BrowseMode mode_;
  size_t max_listed_, max_scanned_;
  std::vector<KindFilter> filters_;
  size_t filter_ = 0;
  bool show_hidden_ = false;
  std::string home_, folder_, error_;
  std::vector<FileEntry> entries_;
  size_t matched_ = 0;
  bool truncated_ = false, scan_stopped_ = false;
};

}  // namespace pathlab::sandbox
