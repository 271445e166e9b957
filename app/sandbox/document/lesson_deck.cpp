#include "document/lesson_deck.hpp"

#include <cctype>
#include <filesystem>

#include "document/document.hpp"
#include "document/gallery.hpp"

namespace pathlab::sandbox {
namespace fs = std::filesystem;

std::string step_scene_file(const std::string& lesson_path, const io::LessonStep& s) {
  if (!s.preset.empty()) return (fs::path(assets_dir()) / "scenes" / (current_preset_id(s.preset) + ".json")).string();
  return io::lesson_scene_path(lesson_path, s);
}

std::string preset_id_of(const std::string& path) {
  if (path.empty()) return "";
  const fs::path scenes = normalized_path((fs::path(assets_dir()) / "scenes").string());
  const fs::path file = normalized_path(path);
  if (file.extension() != ".json") return "";
  const fs::path rel = file.lexically_relative(scenes);
  if (rel.empty() || *rel.begin() == "..") return "";
  std::string id = rel.generic_string();
  return id.substr(0, id.size() - 5);
}

std::string free_lesson_name(const std::string& dir, const std::string& stem) {
  for (int n = 1; n < 1000; ++n) {
    const fs::path p = fs::path(dir) / (stem + (n == 1 ? "" : "-" + std::to_string(n)) + ".lesson.json");
    std::error_code ec;
    if (!fs::exists(p, ec) && !ec) return p.string();
  }
  return "";
}

std::string lesson_stem(const std::string& title) {
  std::string out;
  for (const char c : title) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) && u < 128) out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '-') out += '-';
    if (out.size() >= 60) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "lesson" : out;
}

std::string LessonDraft::add(const std::string& scene_file, const std::string& caption, std::vector<std::string> views) {
  if (scene_file.empty()) return "the scene has no file yet: save it first (Ctrl+S), then add it to the lesson";
  if (steps_.size() >= io::kMaxLessonSteps) return "a lesson holds at most " + std::to_string(io::kMaxLessonSteps) + " steps";
  io::LessonStep s;
  s.preset = preset_id_of(scene_file);
  if (s.preset.empty()) s.scene = normalized_path(scene_file);
  s.caption = caption.substr(0, io::kMaxLessonCaptionChars);
  s.views = std::move(views);
  if (s.views.size() > io::kMaxLessonViews) s.views.resize(io::kMaxLessonViews);
  steps_.push_back(std::move(s));
  return "";
}

io::Lesson LessonDraft::lesson_at(const std::string& lesson_path) const {
  io::Lesson l;
  l.title = title.substr(0, io::kMaxLessonTitleChars);
  const fs::path dir = fs::path(normalized_path(lesson_path)).parent_path();
  for (io::LessonStep s : steps_) {
    if (!s.scene.empty()) {
      // Relative to the lesson, so a folder of lesson and scenes can be moved or shared whole.
      const fs::path rel = fs::path(s.scene).lexically_relative(dir);
      if (!rel.empty()) s.scene = rel.generic_string();
    }
    l.steps.push_back(std::move(s));
  }
  return l;
}

Result<std::string> LessonDraft::save(const std::string& dir) {
  if (steps_.empty()) return fail(StatusCode::invalid_argument, "the lesson has no steps yet: \"Add this view\" first");
  std::string path = file_;
  if (path.empty()) {
    if (is_bundled_path(dir)) return fail(StatusCode::invalid_argument, dir + ": the bundled assets are never written");
    path = free_lesson_name(dir, lesson_stem(title));
    if (path.empty()) return fail(StatusCode::invalid_argument, "no free lesson name in " + dir);
  }
  // save_lesson refuses a file that is not a lesson (one put there by hand since the last save).
  if (const Status st = io::save_lesson(lesson_at(path), path); !st) return st.error();
  file_ = path;
  return path;
}

}  // namespace pathlab::sandbox
