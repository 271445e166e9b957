#include "document/document.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "document/gallery.hpp"

namespace pathlab::sandbox {
namespace fs = std::filesystem;
namespace {

fs::path resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path, ec).lexically_normal() : p;
}

bool inside(const fs::path& child, const fs::path& dir) {
  auto c = child.begin();
  for (auto d = dir.begin(); d != dir.end(); ++d, ++c) {
    if (d->empty()) continue;  // a trailing separator
    if (c == child.end() || *c != *d) return false;
  }
  return true;
}

// FNV-1a (Fowler, Noll, Vo): a short stable tag for a path, to keep autosaves apart.
uint32_t fnv1a(const std::string& s) {
  uint32_t h = 2166136261u;
  for (unsigned char ch : s) h = (h ^ ch) * 16777619u;
  return h;
}

}  // namespace

std::string normalized_path(const std::string& path) { return path.empty() ? path : resolved(path).string(); }

bool is_pathlab_scene_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  const auto size = fs::file_size(path, ec);
  if (ec || size > (16u << 20)) return false;
  std::ifstream in(path, std::ios::binary);
  std::string text(static_cast<size_t>(size), '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(size))) return false;
  const auto j = nlohmann::json::parse(text, nullptr, false);
  return !j.is_discarded() && j.is_object() && j.contains("pathlab_scene");
}

bool is_bundled_path(const std::string& path) {
  if (path.empty()) return false;
  return inside(resolved(path), resolved(assets_dir()));
}

Status check_save_target(const std::string& path) {
  if (path.empty()) return fail(StatusCode::invalid_argument, "no file name to save to");
  if (is_bundled_path(path))
    return fail(StatusCode::invalid_argument,
                path + ": a bundled asset, never written (save the scene under another name)");
  std::error_code ec;
  if (fs::exists(path, ec) && !is_pathlab_scene_file(path))
    return fail(StatusCode::invalid_argument, path + ": exists and is not a pathlab scene; not overwritten");
  if (fs::is_directory(path, ec)) return fail(StatusCode::invalid_argument, path + ": is a folder");
  return ok_status();
}

std::string derive_save_path(const std::string& source, const std::string& work_dir, const std::string& fallback_stem) {
  fs::path dir = work_dir.empty() ? fs::path(".") : fs::path(work_dir);
  std::string stem = fallback_stem.empty() ? "scene" : fallback_stem;
  if (!source.empty()) {
    const fs::path s(source);
    stem = s.stem().string();
    if (stem.empty()) stem = "scene";
    if (!is_bundled_path(source)) dir = s.parent_path().empty() ? fs::path(".") : s.parent_path();
  }
  std::error_code ec;
  for (int n = 1; n < 10000; ++n) {
    const fs::path p = dir / (n == 1 ? stem + ".json" : stem + "-" + std::to_string(n) + ".json");
    if (!fs::exists(p, ec) && !is_bundled_path(p.string())) return p.string();
  }
  return (dir / (stem + "-new.json")).string();
}

void SceneDocument::reset(const std::string& path, bool is_scene) {
  source_ = path;
  dirty_ = autosave_due_ = from_link_ = false;
  if (path.empty()) {
    origin_ = Origin::untitled;
    save_path_.clear();
  } else if (!is_scene) {
    origin_ = Origin::import;
    save_path_.clear();
  } else if (is_bundled_path(path)) {
    origin_ = Origin::bundled;
    save_path_.clear();
  } else {
    origin_ = Origin::scene;
    save_path_ = path;
  }
}

void SceneDocument::reset_from_link(const std::string& link) {
  reset("", true);
  from_link_ = true;
  char tag[16];
  std::snprintf(tag, sizeof tag, "%08x", fnv1a(link));
  link_tag_ = tag;
}

void SceneDocument::saved_as(const std::string& path) {
  from_link_ = false;
  // The document is now that scene file (an import or a preset becomes the user's scene); its
  // crash copy moves to the new key with the next autosave (the caller removes the old one).
  save_path_ = path;
  source_ = path;
  origin_ = Origin::scene;
  mark_clean();
}

std::string SceneDocument::suggested_save_path(const std::string& work_dir) const {
  if (!save_path_.empty()) return save_path_;
  return derive_save_path(source_, work_dir, "untitled");
}

std::string SceneDocument::autosave_path(const std::string& state_dir) const {
  if (state_dir.empty()) return "";
  if (from_link_) return (fs::path(state_dir) / "autosave" / ("link-" + link_tag_ + ".json")).string();
  if (source_.empty()) return (fs::path(state_dir) / "autosave" / "untitled.json").string();
  const fs::path abs = resolved(source_);
  char tag[16];
  std::snprintf(tag, sizeof tag, "%08x", fnv1a(abs.string()));
  return (fs::path(state_dir) / "autosave" / (abs.stem().string() + "-" + tag + ".json")).string();
}

}  // namespace pathlab::sandbox
