#include "document/gallery.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace pathlab::sandbox {
namespace {

#ifdef PATHLAB_ASSETS_DIR
std::string g_assets = PATHLAB_ASSETS_DIR;
#else
std::string g_assets = "assets";
#endif

// Categories in the order a teacher would walk through them; others follow alphabetically.
int category_rank(const std::string& c) {
  if (c == "articles") return 0;
  if (c == "maps") return 1;
  if (c == "issues") return 2;
  return 3;
}

}  // namespace

std::string current_preset_id(const std::string& id) {
  static const char* const kRenamed[][2] = {
      {"seeds/000-catmull-rom-route", "articles/catmull-rom-route"},
      {"seeds/002-quad-corridor", "articles/tower22-quad-corridor"},
      {"seeds/003a-zigzag", "articles/guesgen-1-zigzag"},
      {"seeds/003b-straightened-in-search", "articles/guesgen-2-straightened-in-search"},
      {"seeds/003c-straightened-afterwards", "articles/guesgen-3-straightened-afterwards"},
      {"seeds/003d-smoothed", "articles/guesgen-4-smoothed"},
      {"seeds/004-tank-figure-8", "articles/pinter-tank-figure-8"},
      {"seed004_tank_turn", "pinter_tank_turn"},
  };
  for (const auto& r : kRenamed)
    if (id == r[0]) return r[1];
  return id;
}

std::string assets_dir() { return g_assets; }
void set_assets_dir(const std::string& dir) { g_assets = dir; }

std::vector<GalleryEntry> scan_gallery(const std::string& scenes_dir) {
  namespace fs = std::filesystem;
  std::vector<GalleryEntry> out;
  std::error_code ec;
  if (!fs::is_directory(scenes_dir, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(scenes_dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".json") continue;
    GalleryEntry e;
    e.path = it->path().string();
    e.title = it->path().stem().string();
    // A scene in a subfolder belongs to that folder's category unless it names one.
    const fs::path rel = fs::relative(it->path().parent_path(), scenes_dir, ec);
    e.category = rel.empty() || rel == "." ? "other" : rel.begin()->string();
    std::ifstream in(it->path());
    std::stringstream ss;
    ss << in.rdbuf();
    try {
      const auto j = nlohmann::json::parse(ss.str());
      if (j.contains("name") && j["name"].is_string()) e.title = j["name"].get<std::string>();
      if (j.contains("gallery") && j["gallery"].is_object()) {
        const auto& g = j["gallery"];
        e.category = g.value("category", e.category);
        e.title = g.value("title", e.title);
        e.teaches = g.value("teaches", std::string());
        e.order = g.value("order", e.order);
        if (g.contains("views") && g["views"].is_array())
          for (const auto& v : g["views"])
            if (v.is_string()) e.views.push_back(v.get<std::string>());
      }
    } catch (const nlohmann::json::exception&) {
      e.teaches = "(this file is not valid JSON; opening it shows the error)";
    }
    out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const GalleryEntry& a, const GalleryEntry& b) {
    const int ra = category_rank(a.category), rb = category_rank(b.category);
    if (ra != rb) return ra < rb;
    if (a.category != b.category) return a.category < b.category;
    if (a.order != b.order) return a.order < b.order;
    return a.title < b.title;
  });
  return out;
}

}  // namespace pathlab::sandbox
