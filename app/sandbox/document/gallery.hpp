#pragma once
// The preset scene gallery: every scene under assets/scenes, grouped by category, each with a
// title and a note on what it teaches. Scene files carry this in an optional "gallery" object
// ({"category", "title", "teaches"}) that the scene loader ignores, so a preset stays an
// ordinary scene that the CLI and "Open" read like any other.

#include <string>
#include <vector>

namespace pathlab::sandbox {

struct GalleryEntry {
  std::string path;      ///< absolute or as found under the scenes folder
  std::string category;  ///< "articles", "maps", "issues", ... ("other" when not given)
  std::string title;
  std::string teaches;   ///< a paragraph for people
  int order = 1000;      ///< sort key inside the category (then the title)
  /// Views switched on when opened from the gallery: overlay names ("navmesh", "spline", ...),
  /// "compare", and "tab:<name>" for the tab to show.
  std::vector<std::string> views;
};

/// Scans `scenes_dir` (and its subfolders) for *.json scenes. A file whose JSON cannot be read
/// still appears, titled with its file name, so a broken preset is visible rather than lost.
std::vector<GalleryEntry> scan_gallery(const std::string& scenes_dir);

/// The id a preset has now for one it had before a rename ("seeds/003a-zigzag" is
/// "articles/guesgen-1-zigzag" since the presets were named after their articles), else `id`
/// itself: lessons and links written before the rename keep opening. Ids are paths under
/// assets/scenes without ".json".
std::string current_preset_id(const std::string& id);

/// The folder of bundled assets (the build's PATHLAB_ASSETS_DIR unless overridden).
std::string assets_dir();
void set_assets_dir(const std::string& dir);

}  // namespace pathlab::sandbox
