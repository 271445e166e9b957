#pragma once
// The lesson in the sandbox (issue 26): the lesson being presented (its file, the step shown)
// and the one a teacher is putting together from views of the sandbox ("Add this view to
// lesson", "Save lesson"). No drawing, no ImGui: the rules (which file a step opens, where a
// lesson may be saved) are tested without a window. The presentation itself (keys, caption,
// opening each step's scene) is sandbox_present.cpp.

#include <string>
#include <vector>

#include "pathlab/io/lesson_file.hpp"
#include "pathlab/status.hpp"

namespace pathlab::sandbox {

/// The scene file step `s` of the lesson at `lesson_path` opens: a preset's file under the
/// bundled assets/scenes folder, or a scene file resolved against the lesson's folder.
std::string step_scene_file(const std::string& lesson_path, const io::LessonStep& s);
/// The gallery preset id of a bundled scene file ("articles/guesgen-1-zigzag"), "" when `path` is not
/// a scene under assets/scenes.
std::string preset_id_of(const std::string& path);
/// `dir`/STEM.lesson.json, else STEM-2.lesson.json, ... : the first name no file has. "" when
/// there is none below STEM-999.
std::string free_lesson_name(const std::string& dir, const std::string& stem);
/// A file name stem from a title: lower-case letters and digits, runs of others as one '-'
/// ("Why A* paths look drunk" -> "why-a-paths-look-drunk"); "lesson" when nothing is left.
std::string lesson_stem(const std::string& title);

/// The lesson being presented.
struct LessonShow {
  io::Lesson lesson;
  std::string path;  ///< the lesson file ("" when none is open)
  int step = -1;     ///< the step shown (-1: none yet)
  bool open() const { return !lesson.steps.empty(); }
  int count() const { return static_cast<int>(lesson.steps.size()); }
};

/// The lesson being authored: steps added from the sandbox's views, saved as a new file the
/// first time and back to that file (which it created) after.
class LessonDraft {
 public:
  std::string title = "My lesson";
  /// Adds a step: the scene in `scene_file` (a bundled preset becomes its id), the caption,
  /// the views. The error says why not ("" when added).
  std::string add(const std::string& scene_file, const std::string& caption, std::vector<std::string> views);
  int count() const { return static_cast<int>(steps_.size()); }
  void clear() { steps_.clear(); }
  /// The lesson as written at `lesson_path`: scene steps relative to its folder.
  io::Lesson lesson_at(const std::string& lesson_path) const;
  /// Saves the draft: to the file it created before, else to a new free name in `dir`. Never
  /// over a file that is not a lesson it wrote. Returns the file written.
  Result<std::string> save(const std::string& dir);
  /// The file the draft was saved to ("" before the first save).
  const std::string& file() const { return file_; }

 private:
  std::vector<io::LessonStep> steps_;  ///< scene steps hold the absolute file until saved
  std::string file_;
};

}  // namespace pathlab::sandbox
