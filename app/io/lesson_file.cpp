// Lesson files (lesson_file.hpp): reading with every key checked, byte-stable writing.

#include "pathlab/io/lesson_file.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pathlab/io/json_guard.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/map_io.hpp"
#include "scene_file_internal.hpp"

namespace pathlab::io {
namespace {

using json = nlohmann::json;

/// The readers below raise "KEY WHAT" as the scene reader does (detail::bad_key); parse_lesson
/// reports it at the key's line (detail::located).
[[noreturn]] void bad(std::string key, std::string what) { detail::bad_key(std::move(key), std::move(what)); }

/// The first bytes save_lesson writes: what check_lesson_target recognises as a lesson.
constexpr const char* kLessonHead = "{\n \"pathlab_lesson\": ";

void only_keys(const json& obj, const std::string& key, std::initializer_list<const char*> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return it.key() == a; })) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      bad(key.empty() ? it.key() : key + "." + it.key(), "is not a key of a lesson" + std::string(key.empty() ? "" : " step") +
                                                             " (" + list + ")");
    }
  }
}

/// A string of at most `max_chars` bytes without control characters (a newline only where
/// `newlines`).
const std::string& text(const json& j, const std::string& key, size_t max_chars, bool newlines) {
  if (!j.is_string()) bad(key, "must be a string");
  const std::string& s = j.get_ref<const std::string&>();
  if (s.size() > max_chars) bad(key, "is longer than " + std::to_string(max_chars) + " bytes");
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 32 && !(newlines && c == '\n')) || u == 127) bad(key, "holds a control character");
  }
  return s;
}

/// A preset id: a relative path of names made of letters, digits, '.', '_' and '-'.
void check_preset_id(const std::string& id, const std::string& key) {
  if (id.empty()) bad(key, "must not be empty");
  size_t start = 0;
  while (start <= id.size()) {
    const size_t end = std::min(id.find('/', start), id.size());
    const std::string part = id.substr(start, end - start);
    if (part.empty() || part == "." || part == "..")
      bad(key, "must be a preset's path under assets/scenes without \".json\" (e.g. articles/guesgen-1-zigzag)");
    for (const char c : part)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
        bad(key, "may hold only letters, digits, '.', '_', '-' and '/'");
    start = end + 1;
  }
  if (id.size() > 5 && id.compare(id.size() - 5, 5, ".json") == 0) bad(key, "is a preset id: leave out \".json\"");
}

void read_views(const json& j, const std::string& key, const LessonReadOptions& options, LessonStep& step) {
  if (!j.is_array()) bad(key, "must be an array of view names");
  if (j.size() > kMaxLessonViews) bad(key, "has more than " + std::to_string(kMaxLessonViews) + " entries");
  const std::vector<std::string>& names = lesson_view_names();
  for (size_t k = 0; k < j.size(); ++k) {
    const std::string vk = key + "[" + std::to_string(k) + "]";
    const std::string& v = text(j[k], vk, 64, false);
    if (v.rfind("compare:", 0) == 0) {
      const std::string planner = v.substr(8);
      if (planner.empty()) bad(vk, "names no planner (compare:<planner>)");
      if (options.check_planner)
        if (const std::string e = options.check_planner(planner); !e.empty()) bad(vk, e);
    } else if (std::find(names.begin(), names.end(), v) == names.end()) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      bad(vk, "'" + v + "' is not a view (" + list + ", compare:<planner>)");
    }
    step.views.push_back(v);
  }
}

LessonStep read_step(const json& j, const std::string& key, const LessonReadOptions& options) {
  if (!j.is_object()) bad(key, "must be an object {\"preset\" or \"scene\", \"caption\", \"views\"}");
  only_keys(j, key, {"preset", "scene", "caption", "views"});
  LessonStep step;
  const bool preset = j.contains("preset"), scene = j.contains("scene");
  if (preset == scene) bad(key, "needs exactly one of \"preset\" and \"scene\"");
  if (preset) {
    step.preset = text(j["preset"], key + ".preset", kMaxLessonPathChars, false);
    check_preset_id(step.preset, key + ".preset");
  } else {
    step.scene = text(j["scene"], key + ".scene", kMaxLessonPathChars, false);
    const std::string& s = step.scene;
    if (s.size() < 6 || s.compare(s.size() - 5, 5, ".json") != 0) bad(key + ".scene", "must name a scene file (.json)");
  }
  if (!j.contains("caption")) bad(key, "needs \"caption\"");
  step.caption = text(j["caption"], key + ".caption", kMaxLessonCaptionChars, true);
  if (j.contains("views")) read_views(j["views"], key + ".views", options, step);
  return step;
}

Lesson read_lesson(const json& root, const LessonReadOptions& options) {
  only_keys(root, "", {"pathlab_lesson", "title", "steps"});
  const json& version = root["pathlab_lesson"];
  if (!version.is_number_integer() || version.get<int64_t>() < 1) bad("pathlab_lesson", "must be a positive version number");
  if (version.get<int64_t>() > kLessonVersion)
    bad("pathlab_lesson", "version " + std::to_string(version.get<int64_t>()) + " is newer than this pathlab understands (" +
                              std::to_string(kLessonVersion) + ")");
  Lesson lesson;
  if (!root.contains("title")) bad("title", "is missing");
  lesson.title = text(root["title"], "title", kMaxLessonTitleChars, false);
  if (!root.contains("steps")) bad("steps", "is missing");
  const json& steps = root["steps"];
  if (!steps.is_array()) bad("steps", "must be an array of steps");
  if (steps.empty()) bad("steps", "must hold at least one step");
  if (steps.size() > kMaxLessonSteps) bad("steps", "has more than " + std::to_string(kMaxLessonSteps) + " entries");
  for (size_t k = 0; k < steps.size(); ++k) lesson.steps.push_back(read_step(steps[k], "steps[" + std::to_string(k) + "]", options));
  return lesson;
}

}  // namespace

const std::vector<std::string>& lesson_view_names() {
  static const std::vector<std::string> names = {
      "search", "raw_path", "curvature", "unit_routes", "navmesh", "corridor", "portals", "funnel", "spline",
      "tangents", "circles", "dubins", "reeds_shepp", "curvature_ramp", "lookahead", "compare", "vehicle_rules",
      "replay", "tab:replay", "tab:overlays", "tab:plots", "tab:compare"};
  return names;
}

Result<Lesson> parse_lesson(const std::string& text_in, const std::string& source, const LessonReadOptions& options) {
  auto parsed = detail::parse_json_text(text_in, source);
  if (!parsed) return parsed.error();
  const json root = std::move(*parsed);
  return detail::read_located(text_in, source, [&]() -> Result<Lesson> {
    if (!root.is_object() || !root.contains("pathlab_lesson"))
      return fail(StatusCode::parse_error, source + ":1: not a pathlab lesson (no \"pathlab_lesson\" version)");
    return read_lesson(root, options);
  });
}

Result<Lesson> load_lesson(const std::string& path, const LessonReadOptions& options) {
  auto bytes = read_text_file(path, kMaxLessonFileBytes);
  if (!bytes) return bytes.error();
  return parse_lesson(*bytes, path, options);
}

std::string lesson_to_json(const Lesson& lesson) {
  // One step per line: a lesson stays readable and diffable, and a teacher can edit it by hand.
  auto dump = [](const nlohmann::ordered_json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); };
  std::string out = kLessonHead + std::to_string(kLessonVersion) + ",\n";
  out += " \"title\": " + dump(lesson.title) + ",\n \"steps\": [";
  for (size_t k = 0; k < lesson.steps.size(); ++k) {
    const LessonStep& s = lesson.steps[k];
    nlohmann::ordered_json j;
    if (!s.preset.empty()) j["preset"] = s.preset;
    else j["scene"] = s.scene;
    j["caption"] = s.caption;
    j["views"] = s.views;
    out += (k ? ",\n  " : "\n  ") + dump(j);
  }
  out += lesson.steps.empty() ? "]\n}\n" : "\n ]\n}\n";
  return out;
}

std::string check_lesson_target(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.empty()) return "no file name to save the lesson to";
  if (!is_lesson_name(path)) return path + ": lesson files end in .lesson.json";
  if (fs::is_directory(path, ec)) return path + ": is a folder";
  if (!fs::exists(path, ec)) return "";
  // Only a file this format wrote (a lesson) is replaced: it begins with the lesson's key.
  std::ifstream in(path, std::ios::binary);
  std::string head(std::char_traits<char>::length(kLessonHead), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head != kLessonHead) return path + ": exists and is not a pathlab lesson; not overwritten";
  return "";
}

Status save_lesson(const Lesson& lesson, const std::string& path) {
  if (const std::string e = check_lesson_target(path); !e.empty()) return fail(StatusCode::invalid_argument, e);
  return write_file_atomic(path, lesson_to_json(lesson));
}

bool is_lesson_name(const std::string& path) {
  const std::string tail = ".lesson.json";
  return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
}

std::string lesson_scene_path(const std::string& lesson_path, const LessonStep& step) {
  const std::filesystem::path p(step.scene);
  if (p.is_absolute()) return p.string();
  return (std::filesystem::path(lesson_path).parent_path() / p).lexically_normal().string();
}

}  // namespace pathlab::io
