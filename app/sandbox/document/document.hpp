#pragma once
// The scene document: which file a scene came from, where it is saved, whether it has unsaved
// edits and where its crash copy (autosave) lives. The rules that keep the user's work safe
// live here, apart from any drawing, so they can be tested without a window:
//  - an import (.map, .png) or a bundled preset is never written: Save derives a new scene
//    name (arena.map -> arena.json) outside the assets folder;
//  - Save never writes over a file that is not a pathlab scene (its content is checked);
//  - every document has its own autosave, so a crash copy of one scene is never overwritten
//    by another scene's edits.

#include <cstdint>
#include <string>

#include "pathlab/status.hpp"

namespace pathlab::sandbox {

/// How the scene in the sandbox came to be.
enum class Origin {
  untitled,  ///< made in the sandbox (or the built-in empty map): no file yet
  scene,     ///< a pathlab scene file the user owns: Save writes back to it
  import,    ///< a Moving AI .map or a PNG: never written, Save derives a scene name
  bundled,   ///< a scene under the assets folder (demo, gallery): never written
};

/// True when `path` names an existing file whose content is a pathlab scene (a JSON object with
/// a "pathlab_scene" version). Reads at most the first 16 MiB.
bool is_pathlab_scene_file(const std::string& path);
/// `path` absolute and in normal form, symbolic links resolved as far as the path exists: one
/// spelling per file ("a.json", "./a.json" and a link to it give the same). "" stays "".
std::string normalized_path(const std::string& path);
/// True when `path` lies inside the bundled assets folder (assets_dir()), after resolving
/// "..", symbolic links and relative parts.
bool is_bundled_path(const std::string& path);
/// May a scene be written to `path`? Not inside the assets folder, and not over an existing
/// file that is not a pathlab scene (a map, an image, a text). The error says why, naming the file.
Status check_save_target(const std::string& path);
/// A scene file name for saving a document that has no scene file of its own: the source's
/// stem with ".json" (arena.map -> arena.json), in the source's folder, or in `work_dir` when
/// the source is bundled or there is none. Never an existing file: "arena-2.json", ... then.
std::string derive_save_path(const std::string& source, const std::string& work_dir, const std::string& fallback_stem);

class SceneDocument {
 public:
  /// What was opened: `path` is the file read ("" for untitled). The origin follows from the
  /// file: a bundled scene, a user's scene, or an import.
  void reset(const std::string& path, bool is_scene);
  /// A scene opened from a link (scene_link.hpp): untitled, and Save asks for a file name
  /// instead of deriving one (a link names no file, and nothing is written by itself). Its
  /// crash copy is its own, keyed by the link's text (`link`), apart from the untitled scene's.
  void reset_from_link(const std::string& link);
  /// The document came from a link and has no file yet: Save must ask for a name.
  bool from_link() const { return from_link_; }
  Origin origin() const { return origin_; }
  /// The file the scene was read from ("" when untitled).
  const std::string& source() const { return source_; }
  /// The scene file Save writes ("" until the document has one of its own).
  const std::string& save_path() const { return save_path_; }
  /// After a successful save to `path`: the document is now that scene file and clean.
  void saved_as(const std::string& path);
  /// Where Save would write when the document has no scene file yet.
  std::string suggested_save_path(const std::string& work_dir) const;

  bool dirty() const { return dirty_; }
  void mark_dirty(uint64_t now_ms) {
    dirty_ = true;
    autosave_due_ = true;
    changed_at_ms_ = now_ms;
  }
  void mark_clean() { dirty_ = autosave_due_ = false; }
  /// An autosave should be written now (unsaved changes older than `delay_ms`).
  bool autosave_due(uint64_t now_ms, uint64_t delay_ms) const {
    return autosave_due_ && now_ms - changed_at_ms_ >= delay_ms;
  }
  void autosaved() { autosave_due_ = false; }

  /// The crash copy of this document in `state_dir`: one file per source (the untitled scene
  /// has its own), "" when state_dir is empty.
  std::string autosave_path(const std::string& state_dir) const;

 private:
  Origin origin_ = Origin::untitled;
  std::string source_, save_path_;
  bool dirty_ = false, autosave_due_ = false;
  bool from_link_ = false;
  std::string link_tag_;  ///< FNV-1a of the link's text, for its autosave's name
  uint64_t changed_at_ms_ = 0;
};

}  // namespace pathlab::sandbox
