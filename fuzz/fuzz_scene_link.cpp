// libFuzzer target: scene links (app/io/scene_link.cpp, issue 29), decoded as the sandbox and
// `pathlab-cli link --open` decode them: arbitrary text must give one printable error beginning
// with "link", or a payload that survives encode -> decode unchanged and, when it reads as a
// scene or a lesson, one whose own link reads back to the same thing. Never a crash, never more
// than the decoder's 8 MiB (scripts/fuzz.sh runs with -malloc_limit_mb). No file is opened:
// "map.file" and a lesson's "scene" steps are refused.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "pathlab/io/scene_link.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"

namespace {

void check_link_error(const std::string& message) {
  FUZZ_CHECK(message.rfind("link", 0) == 0);
  pathlab::fuzz::check_message(message, "link");
}

void check_scene(const pathlab::io::LinkPayload& link) {
  auto scene = pathlab::io::read_link_scene(link, pathlab::plan::scene_read_options());
  if (!scene) return check_link_error(scene.error().message);
  const std::string json = pathlab::io::scene_to_json(*scene);
  auto again = pathlab::io::decode_link(pathlab::io::scene_link(*scene));
  FUZZ_CHECK(again.ok());
  auto back = pathlab::io::read_link_scene(*again, pathlab::plan::scene_read_options());
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(pathlab::io::scene_to_json(*back) == json);
}

void check_lesson(const pathlab::io::LinkPayload& link) {
  pathlab::io::LessonReadOptions options;
  options.check_planner = [](const std::string& name) {
    return pathlab::plan::find_planner(name) ? std::string() : "unknown planner '" + name + "'";
  };
  auto lesson = pathlab::io::read_link_lesson(link, options);
  if (!lesson) return check_link_error(lesson.error().message);
  auto fragment = pathlab::io::lesson_link(*lesson, link.step);
  FUZZ_CHECK(fragment.ok());
  auto again = pathlab::io::decode_link(*fragment);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->step == link.step);
  auto back = pathlab::io::read_link_lesson(*again, options);
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(*back == *lesson);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto link = pathlab::io::decode_link(text);
  if (!link) {
    check_link_error(link.error().message);
    return 0;
  }
  FUZZ_CHECK(link->json.size() <= pathlab::io::kMaxLinkJsonBytes);
  FUZZ_CHECK(link->step >= 1 && link->step <= pathlab::io::kMaxLinkStep);
  // Whatever decodes, encodes and decodes again to the same payload.
  auto again = pathlab::io::decode_link(pathlab::io::encode_link(link->kind, link->json, link->step));
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(again->kind == link->kind);
  FUZZ_CHECK(again->json == link->json);
  FUZZ_CHECK(again->step == link->step);
  if (link->kind == pathlab::io::LinkKind::scene) check_scene(*link);
  else check_lesson(*link);
  return 0;
}
