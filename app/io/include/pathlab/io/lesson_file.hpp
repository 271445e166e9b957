#pragma once
/// @file lesson_file.hpp
/// Lesson files (issue 26, "Teaching on a projector"): an ordered list of steps a teacher walks
/// through in the sandbox's presentation mode, each a scene with a caption and the views to
/// switch on. Named NAME.lesson.json; README.md ("Lessons") is the contract.
///
/// Format (version 1):
/// {
///  "pathlab_lesson": 1,
///  "title": "Why A* paths look drunk",
///  "steps": [
///   {"preset": "articles/guesgen-1-zigzag", "caption": "...", "views": ["search", "tab:replay"]},
///   {"scene": "../scenes/my-level.json", "caption": "...", "views": []}
///  ]
/// }
/// A step names exactly one of "preset" (a gallery preset's id: its path under the bundled
/// assets/scenes folder without ".json") or "scene" (a scene file, relative to the lesson
/// file's folder, or absolute). "views" (optional, default none) are names from
/// lesson_view_names() or "compare:<planner>". Every key is checked and unknown keys are refused
/// (a typo would otherwise silently drop a view); errors read "FILE:LINE: KEY what is wrong".
/// Writing is byte-stable: load, save and load again gives the same bytes.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "pathlab/status.hpp"

namespace pathlab::io {

inline constexpr int kLessonVersion = 1;
inline constexpr size_t kMaxLessonSteps = 500;
inline constexpr size_t kMaxLessonViews = 32;          ///< per step
inline constexpr size_t kMaxLessonCaptionChars = 2000;  ///< per caption [Units: bytes]
inline constexpr size_t kMaxLessonTitleChars = 200;     ///< [Units: bytes]
inline constexpr size_t kMaxLessonPathChars = 1024;     ///< a preset id or a scene path [Units: bytes]
/// Largest lesson file read; larger files are refused before reading. [Units: bytes]
inline constexpr size_t kMaxLessonFileBytes = size_t{4} << 20;

/// One step: a scene, the caption shown over the canvas, the views switched on.
struct LessonStep {
  std::string preset;  ///< a gallery preset id ("articles/guesgen-1-zigzag"), or "" when `scene` is set
  std::string scene;   ///< a scene file as written in the lesson (relative to it), or ""
  std::string caption;
  std::vector<std::string> views;
  bool operator==(const LessonStep&) const = default;
};

struct Lesson {
  std::string title;
  std::vector<LessonStep> steps;  ///< at least one
  bool operator==(const Lesson&) const = default;
};

/// The view names a step may switch on (besides "compare:<planner>"): the sandbox's canvas
/// layers ("search", "raw_path", "curvature", "unit_routes"), the inspector's overlays
/// ("navmesh", "corridor", "portals", "funnel", "spline", "tangents", "circles", "dubins",
/// "reeds_shepp", "curvature_ramp", "lookahead"), "compare", "vehicle_rules", "replay" (the
/// search's replay from its first step) and the inspector's tabs ("tab:replay", "tab:overlays",
/// "tab:plots", "tab:compare").
const std::vector<std::string>& lesson_view_names();

struct LessonReadOptions {
  /// Checks the planner of a "compare:<planner>" view: "" when known, else why not. Empty: any
  /// non-empty name is accepted (app/io knows no planner names).
  std::function<std::string(const std::string&)> check_planner;
};

/// Parses lesson JSON text; `source` names it in messages.
Result<Lesson> parse_lesson(const std::string& text, const std::string& source, const LessonReadOptions& options = {});
/// Reads a lesson file (at most kMaxLessonFileBytes).
Result<Lesson> load_lesson(const std::string& path, const LessonReadOptions& options = {});
/// The lesson as JSON text (what save_lesson writes).
std::string lesson_to_json(const Lesson& lesson);
/// "" when `path` may be written by save_lesson (it does not exist, or it is a lesson file this
/// format wrote), else why not.
std::string check_lesson_target(const std::string& path);
/// Writes a lesson atomically. Refuses (and leaves alone) an existing file that is not a lesson.
Status save_lesson(const Lesson& lesson, const std::string& path);
/// A lesson file's name: it ends in ".lesson.json".
bool is_lesson_name(const std::string& path);
/// The scene file of a "scene" step, resolved against the lesson file's folder (an absolute
/// path stays as it is).
std::string lesson_scene_path(const std::string& lesson_path, const LessonStep& step);

}  // namespace pathlab::io
