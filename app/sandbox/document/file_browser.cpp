#include "document/file_browser.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace pathlab::sandbox {
namespace fs = std::filesystem;
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Folders first, then by name ignoring case; equal names ignoring case by their bytes, so the
/// order never depends on the order the folder was read in.
bool listed_before(const FileEntry& a, const FileEntry& b) {
  if (a.is_folder != b.is_folder) return a.is_folder;
  const std::string la = lower(a.name), lb = lower(b.name);
  return la != lb ? la < lb : a.name < b.name;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

/// A normalised absolute path without a trailing separator (except the root's).
std::string tidy(const fs::path& p) {
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

bool is_folder(const std::string& path) {
  std::error_code ec;
  return !path.empty() && fs::is_directory(path, ec);
}

std::string reason(const std::error_code& ec) { return ec.message(); }

/// Sizes and times, only for what is listed (each is a stat call); unknown stays unknown.
void add_details(const std::string& folder, std::vector<FileEntry>& entries) {
  for (FileEntry& e : entries) {
    const fs::path p = fs::path(folder) / e.name;
    std::error_code ec;
    if (!e.is_folder) {
      const uintmax_t size = fs::file_size(p, ec);
      if (!ec) e.size = size;
    }
    const auto when = fs::last_write_time(p, ec);
    if (ec) continue;
#if defined(__EMSCRIPTEN__)  // the browser build's libc++ has no file_clock::to_sys: both clocks' now()
    const auto sys = std::chrono::system_clock::now() + (when - fs::file_time_type::clock::now());
#else
    const auto sys = std::chrono::file_clock::to_sys(when);
#endif
    e.modified = std::chrono::duration_cast<std::chrono::seconds>(sys.time_since_epoch()).count();
  }
}

}  // namespace

std::vector<KindFilter> filters_for(BrowseMode mode) {
  const KindFilter all{"All files (*)", {}};
  if (mode == BrowseMode::import)
    return {{"Maps (*.map, *.png)", {".map", ".png"}}, {"Moving AI maps (*.map)", {".map"}},
            {"PNG images (*.png)", {".png"}}, all};
  return {{"Scenes (*.json)", {".json"}}, all};
}

std::string format_size(uintmax_t bytes) {
  static const char* const kUnits[] = {"B", "KB", "MB", "GB", "TB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024.0 && unit < 4) v /= 1024.0, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, v < 10.0 ? "%.1f %s" : "%.0f %s", v, kUnits[unit]);
  return text;
}

std::string format_time(int64_t seconds_since_1970) {
  if (seconds_since_1970 < 0) return "";
  const auto t = static_cast<std::time_t>(seconds_since_1970);
  std::tm local{};
  if (!localtime_r(&t, &local)) return "";
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
  return text;
}

bool matches_kind(const std::string& name, const std::vector<std::string>& extensions) {
  if (extensions.empty()) return true;
  const std::string l = lower(name);
  return std::any_of(extensions.begin(), extensions.end(), [&](const std::string& ext) {
    return l.size() > ext.size() && l.compare(l.size() - ext.size(), ext.size(), ext) == 0;
  });
}

std::vector<Place> recent_places(BrowseMode mode, const std::vector<std::string>& recent_files,
                                 const std::string& assets_dir, const std::string& work_dir, const std::string& home) {
  std::vector<Place> out;
  auto add = [&](std::string label, const std::string& folder) {
    if (!is_folder(folder)) return;
    std::error_code ec;
    const std::string path = tidy(fs::absolute(folder, ec));
    if (ec) return;
    for (Place& p : out) {
      if (p.path != path) continue;
      if (!label.empty()) p.label += ", " + label;  // "working folder, home": both names stay findable
      return;
    }
    if (label.empty()) label = fs::path(path).filename().string();
    if (label.empty()) label = path;  // the root
    out.push_back(Place{std::move(label), path});
  };
  for (const std::string& f : recent_files)
    if (!f.empty()) add("", fs::path(f).parent_path().string());
  if (!assets_dir.empty()) {
    add("bundled scenes", (fs::path(assets_dir) / "scenes").string());
    if (mode == BrowseMode::import) add("bundled maps", (fs::path(assets_dir) / "maps").string());
  }
  add("working folder", work_dir);
  add("home", home);
  return out;
}

FileBrowser::FileBrowser(BrowseMode mode, size_t max_listed, size_t max_scanned)
    : mode_(mode), max_listed_(std::max<size_t>(1, max_listed)), max_scanned_(std::max<size_t>(1, max_scanned)),
      filters_(filters_for(mode)) {
  if (const char* h = std::getenv("HOME"); h && *h) home_ = h;
}

Status FileBrowser::list(const std::string& folder, Listing& out) const {
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return fail(StatusCode::io_error, folder + ": cannot read this folder (" +
                                          (ec ? reason(ec) : std::string("not a folder, or gone")) + ")");
  fs::directory_iterator it(folder, ec);
  if (ec) return fail(StatusCode::io_error, folder + ": cannot read this folder (" + reason(ec) + ")");
  const std::vector<std::string>& kinds = filters_[filter_].extensions;
  size_t scanned = 0;
  for (const fs::directory_iterator end; it != end;) {
    if (++scanned > max_scanned_) {
      out.scan_stopped = true;
      break;
    }
    const fs::directory_entry& e = *it;
    std::string name = e.path().filename().string();
    std::error_code type_ec;
    const bool dir = e.is_directory(type_ec);  // follows symbolic links
    // Only folders and regular files: a socket or a pipe is nothing to open, a broken link neither.
    const bool listed = (show_hidden_ || name.empty() || name[0] != '.') &&
                        (dir || (e.is_regular_file(type_ec) && matches_kind(name, kinds)));
    if (listed) out.entries.push_back(FileEntry{std::move(name), dir, 0, -1});
    it.increment(ec);
    if (ec) return fail(StatusCode::io_error, folder + ": reading this folder failed (" + reason(ec) + ")");
  }
  out.matched = out.entries.size();
  out.truncated = out.scan_stopped || out.entries.size() > max_listed_;
  // Only the first entries in sort order are kept (a huge folder is not sorted whole).
  const size_t keep = std::min(out.entries.size(), max_listed_);
  std::partial_sort(out.entries.begin(), out.entries.begin() + static_cast<std::ptrdiff_t>(keep), out.entries.end(),
                    listed_before);
  out.entries.resize(keep);
  add_details(folder, out.entries);
  return ok_status();
}

void FileBrowser::take(std::string folder, Listing listing) {
  folder_ = std::move(folder);
  entries_ = std::move(listing.entries);
  matched_ = listing.matched;
  truncated_ = listing.truncated;
  scan_stopped_ = listing.scan_stopped;
  error_.clear();
}

Status FileBrowser::enter(const std::string& folder) {
  std::error_code ec;
  const std::string target = tidy(fs::absolute(folder.empty() ? "." : folder, ec));
  if (ec) return fail(StatusCode::io_error, folder + ": " + reason(ec));
  Listing listing;
  if (auto st = list(target, listing); !st) return st;
  take(target, std::move(listing));
  return ok_status();
}

Status FileBrowser::enter_child(const std::string& name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
    return fail(StatusCode::invalid_argument, "\"" + name + "\" is not a folder name in " + folder_);
  return enter((fs::path(folder_) / name).string());
}

Status FileBrowser::up() {
  if (folder_.empty()) return enter(".");
  const fs::path parent = fs::path(folder_).parent_path();
  if (parent.empty() || parent == fs::path(folder_)) return ok_status();  // the root
  return enter(parent.string());
}

Status FileBrowser::refresh() {
  Listing listing;
  if (auto st = list(folder_, listing); !st) {
    entries_.clear();
    matched_ = 0;
    truncated_ = scan_stopped_ = false;
    error_ = st.error().message;
    return st;
  }
  take(folder_, std::move(listing));
  return ok_status();
}

std::string FileBrowser::absolute(const std::string& typed) const {
  std::string t = trimmed(typed);
  // "~" alone or followed by a separator is home ("~user" is taken as typed).
  if (!home_.empty() && !t.empty() && t[0] == '~' && (t.size() == 1 || t[1] == '/')) t = home_ + t.substr(1);
  fs::path p(t);
  if (p.is_relative()) {
    std::error_code ec;
    p = fs::path(folder_.empty() ? fs::current_path(ec).string() : folder_) / p;
  }
  return tidy(p);
}

PathChoice FileBrowser::resolve(const std::string& typed) const {
  PathChoice c;
  if (trimmed(typed).empty()) {
    c.message = "type a folder or a file path";
    return c;
  }
  std::error_code ec;
  c.path = absolute(typed);
  const fs::file_status st = fs::status(c.path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    c.message = c.path + ": " + reason(ec);
    return c;
  }
  if (fs::is_directory(st)) {
    c.kind = PathChoice::Kind::folder;
  } else if (fs::is_regular_file(st)) {
    c.kind = PathChoice::Kind::file;
  } else if (fs::exists(st)) {
    c.message = c.path + ": not a regular file";
  } else if (mode_ == BrowseMode::save_as && is_folder(fs::path(c.path).parent_path().string())) {
    c.kind = PathChoice::Kind::file;  // a new scene in an existing folder
  } else {
    c.message = c.path + ": no such file or folder";
  }
  return c;
}

PathChoice FileBrowser::go(const std::string& typed) {
  PathChoice c = resolve(typed);
  if (c.kind != PathChoice::Kind::folder) return c;
  if (auto st = enter(c.path); !st) {
    c.kind = PathChoice::Kind::refused;
    c.message = st.error().message;
  }
  return c;
}

void FileBrowser::set_filter(size_t index) {
  if (index >= filters_.size() || index == filter_) return;
  filter_ = index;
  if (!folder_.empty()) (void)refresh();  // an error shows through error()
}

void FileBrowser::set_show_hidden(bool show) {
  if (show == show_hidden_) return;
  show_hidden_ = show;
  if (!folder_.empty()) (void)refresh();
}

}  // namespace pathlab::sandbox
