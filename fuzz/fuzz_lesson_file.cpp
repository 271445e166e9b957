// libFuzzer target: lesson files (app/io/lesson_file.cpp, issue 26), read as the sandbox reads
// them (compare:<planner> views checked against the registry), written back and read again: a
// hostile input must give one clear error naming the file, or a lesson whose bytes survive a
// save and a load unchanged; never a crash. The reader opens no file (a step's scene is a name).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "pathlab/io/lesson_file.hpp"
#include "pathlab/plan/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  pathlab::io::LessonReadOptions options;
  options.check_planner = [](const std::string& name) {
    return pathlab::plan::find_planner(name) ? std::string() : "unknown planner '" + name + "'";
  };
  auto lesson = pathlab::io::parse_lesson(text, "fuzz.lesson.json", options);
  if (!lesson) {
    pathlab::fuzz::check_message(lesson.error().message, "fuzz.lesson.json");
    return 0;
  }
  FUZZ_CHECK(!lesson->steps.empty());
  for (const pathlab::io::LessonStep& s : lesson->steps) FUZZ_CHECK(s.preset.empty() != s.scene.empty());
  // What we write, we read back: the same lesson, the same bytes.
  const std::string written = pathlab::io::lesson_to_json(*lesson);
  auto back = pathlab::io::parse_lesson(written, "again.lesson.json", options);
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(*back == *lesson);
  FUZZ_CHECK(pathlab::io::lesson_to_json(*back) == written);
  return 0;
}
