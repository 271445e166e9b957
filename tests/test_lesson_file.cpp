// Lesson files (issue 26, app/io/lesson_file.hpp): the shipped lessons load and name presets
// that exist; every key is checked, and a hostile file gives one error "FILE:LINE: KEY what"
// (never a crash); writing is byte-stable; a file that is not a lesson is never written over.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

#include "pathlab/io/lesson_file.hpp"
#include "pathlab/plan/registry.hpp"

using namespace pathlab;
namespace fs = std::filesystem;

namespace {

const std::string kAssets = PATHLAB_ASSETS_DIR;

io::LessonReadOptions registry_names() {
  io::LessonReadOptions o;
  o.check_planner = [](const std::string& n) { return plan::find_planner(n) ? std::string() : "unknown planner '" + n + "'"; };
  return o;
}

std::vector<std::string> shipped_lessons() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kAssets + "/lessons"))
    if (io::is_lesson_name(e.path().string())) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

const char* kGood = R"({
 "pathlab_lesson": 1,
 "title": "t",
 "steps": [
  {"preset": "articles/guesgen-1-zigzag", "caption": "a\nb", "views": ["search", "compare:astar"]},
  {"scene": "../scenes/x.json", "caption": "c"}
 ]
})";

}  // namespace

TEST_CASE("lessons: the five shipped lessons load, each step a preset that exists, with a caption") {
  const std::vector<std::string> files = shipped_lessons();
  REQUIRE(files.size() == 5);
  std::vector<std::string> titles;
  for (const std::string& f : files) {
    INFO(f);
    auto l = io::load_lesson(f, registry_names());
    REQUIRE_MESSAGE(l.ok(), (l.ok() ? "" : l.error().message));
    titles.push_back(l->title);
    CHECK(l->steps.size() >= 4);
    for (const io::LessonStep& s : l->steps) {
      REQUIRE_FALSE(s.preset.empty());  // shipped lessons are built from the gallery's presets
      CHECK_MESSAGE(fs::is_regular_file(kAssets + "/scenes/" + s.preset + ".json"), s.preset);
      CHECK(s.caption.size() >= 40);
      CHECK(s.caption.size() <= 330);  // about five lines of the caption at 200% in a 1280-pixel window
    }
  }
  CHECK(titles == std::vector<std::string>{"Why A* paths look drunk", "Splines that move at the right speed",
                                            "String pulling on a navmesh", "Turning radius", "Crowds"});
}

TEST_CASE("lessons: written byte-stable, and read back the same") {
  auto l = io::parse_lesson(kGood, "good.lesson.json", registry_names());
  REQUIRE_MESSAGE(l.ok(), (l.ok() ? "" : l.error().message));
  REQUIRE(l->steps.size() == 2);
  CHECK(l->steps[0].preset == "articles/guesgen-1-zigzag");
  CHECK(l->steps[0].caption == "a\nb");
  CHECK(l->steps[0].views == std::vector<std::string>{"search", "compare:astar"});
  CHECK(l->steps[1].scene == "../scenes/x.json");
  CHECK(l->steps[1].views.empty());
  const std::string text = io::lesson_to_json(*l);
  auto back = io::parse_lesson(text, "again.lesson.json");
  REQUIRE(back.ok());
  CHECK(*back == *l);
  CHECK(io::lesson_to_json(*back) == text);
  CHECK(io::lesson_scene_path("/a/lessons/l.lesson.json", l->steps[1]) == "/a/scenes/x.json");
  io::LessonStep abs;
  abs.scene = "/b/s.json";
  CHECK(io::lesson_scene_path("/a/l.lesson.json", abs) == "/b/s.json");
}

TEST_CASE("lessons: a hostile or mistaken file gives one error naming the file, the line and the key") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"", "h.lesson.json:1: not valid JSON"},
      {"[1, 2]", "h.lesson.json:1: not a pathlab lesson"},
      {"{\"title\": \"t\"}", "h.lesson.json:1: not a pathlab lesson"},
      {"{\"pathlab_lesson\": 2, \"title\": \"t\", \"steps\": []}", "h.lesson.json:1: pathlab_lesson version 2 is newer"},
      {"{\"pathlab_lesson\": \"1\"}", "pathlab_lesson must be a positive version number"},
      {"{\"pathlab_lesson\": 1,\n\"steps\": []}", "h.lesson.json:1: title is missing"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\",\n \"steps\": []}", "h.lesson.json:2: steps must hold at least one step"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\",\n \"stepz\": []}", "h.lesson.json:2: stepz is not a key of a lesson"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"\": 1, \"steps\": [{\"preset\": \"a\", \"caption\": \"c\"}]}",
       "h.lesson.json:1: \"\" is not a key of a lesson"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [\n{\"preset\": \"a\", \"caption\": \"c\", \"view\": []}]}",
       "h.lesson.json:2: steps[0].view is not a key of a lesson step"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"caption\": \"c\"}]}",
       "steps[0] needs exactly one of \"preset\" and \"scene\""},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\", \"scene\": \"b.json\", \"caption\": \"c\"}]}",
       "steps[0] needs exactly one of"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\"}]}", "steps[0] needs \"caption\""},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"../../etc/x\", \"caption\": \"c\"}]}",
       "steps[0].preset must be a preset's path under assets/scenes"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"articles/a.json\", \"caption\": \"c\"}]}",
       "steps[0].preset is a preset id: leave out \".json\""},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a b\", \"caption\": \"c\"}]}",
       "steps[0].preset may hold only letters"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"scene\": \"level.map\", \"caption\": \"c\"}]}",
       "steps[0].scene must name a scene file (.json)"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\", \"caption\": 3}]}",
       "steps[0].caption must be a string"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\", \"caption\": \"x\\u0007y\"}]}",
       "steps[0].caption holds a control character"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\\nu\", \"steps\": [{\"preset\": \"a\", \"caption\": \"c\"}]}",
       "title holds a control character"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\", \"caption\": \"c\", \"views\": \"search\"}]}",
       "steps[0].views must be an array of view names"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [\n{\"preset\": \"a\", \"caption\": \"c\",\n \"views\": [\"search\", \"x-ray\"]}]}",
       "h.lesson.json:3: steps[0].views[1] 'x-ray' is not a view (search, raw_path"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\", \"caption\": \"c\", \"views\": [\"compare:warp\"]}]}",
       "steps[0].views[0] unknown planner 'warp'"},
      {"{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\", \"caption\": \"c\", \"views\": [\"compare:\"]}]}",
       "steps[0].views[0] names no planner"},
      {"{\"pathlab_lesson\": 1e400}", "the number 1e400 is outside the range of a double"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto l = io::parse_lesson(c.text, "h.lesson.json", registry_names());
    REQUIRE_FALSE(l.ok());
    CHECK_MESSAGE(l.error().message.find(c.message) != std::string::npos, l.error().message);
    CHECK(l.error().message.rfind("h.lesson.json", 0) == 0);
    CHECK(l.error().message.find('\n') == std::string::npos);
  }
  // Nesting far deeper than any lesson: refused by the JSON guard, not by the stack.
  std::string deep = "{\"pathlab_lesson\": 1, \"title\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  auto d = io::parse_lesson(deep, "deep.lesson.json");
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().message.find("nesting deeper than") != std::string::npos);
  // Too many steps, too long a caption.
  std::string many = "{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [";
  for (size_t i = 0; i <= io::kMaxLessonSteps; ++i) many += std::string(i ? "," : "") + "{\"preset\": \"a\", \"caption\": \"c\"}";
  auto m = io::parse_lesson(many + "]}", "many.lesson.json");
  REQUIRE_FALSE(m.ok());
  CHECK(m.error().message.find("steps has more than 500 entries") != std::string::npos);
  const std::string long_caption = "{\"pathlab_lesson\": 1, \"title\": \"t\", \"steps\": [{\"preset\": \"a\", \"caption\": \"" +
                                   std::string(io::kMaxLessonCaptionChars + 1, 'x') + "\"}]}";
  auto lc = io::parse_lesson(long_caption, "long.lesson.json");
  REQUIRE_FALSE(lc.ok());
  CHECK(lc.error().message.find("steps[0].caption is longer than 2000 bytes") != std::string::npos);
}

TEST_CASE("lessons: save_lesson writes a new file or a lesson, never over another file") {
  const fs::path dir = fs::temp_directory_path() / ("pathlab_test_lesson_file_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  io::Lesson l = io::parse_lesson(kGood, "good.lesson.json").value();
  const std::string path = (dir / "mine.lesson.json").string();
  REQUIRE(io::save_lesson(l, path).ok());
  auto back = io::load_lesson(path);
  REQUIRE(back.ok());
  CHECK(*back == l);
  l.title = "changed";
  CHECK(io::save_lesson(l, path).ok());  // a lesson it wrote: replaced
  CHECK(io::load_lesson(path)->title == "changed");
  const std::string other = (dir / "notes.lesson.json").string();
  { std::ofstream(other) << "{\"my\": \"notes\"}"; }
  const Status refused = io::save_lesson(l, other);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("is not a pathlab lesson; not overwritten") != std::string::npos);
  std::ifstream in(other);
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(kept == "{\"my\": \"notes\"}");
  CHECK_FALSE(io::save_lesson(l, (dir / "plain.json").string()).ok());  // not a lesson's name
  fs::remove_all(dir);
}
