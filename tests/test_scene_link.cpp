// Scene links (issue 29, app/io/scene_link.hpp): every bundled scene and every step of every
// shipped lesson survives encode -> decode -> read; each kind of malformed link gives its own
// error beginning with "link"; a link that decompresses to more than 8 MiB is refused without
// allocating more than that.
//
// Link lengths of the bundled scenes (PATHLAB_LINK_LENGTHS=1 makes the first case print every
// one; stb's deflate at quality 32, base64url, "scene=" included), against the JSON the link
// carries (scene_to_json):
//   demo.json                3,527 bytes of JSON ->    777 characters
//   crowds/doorway.json      2,199 bytes         ->    877 characters (6 units, a door)
//   bench256.json           68,013 bytes         ->  4,486 characters
//   bench512.json          270,177 bytes         -> 16,062 characters (512 x 512 cells, 50 units)
// The small scenes are 650-1,000 characters, most of it the settings every scene writes.
// Browsers take URLs of 2 MB and more (Chromium's limit); chat tools often cut near 2,000-4,000
// characters, so the small scenes travel in a message and bench512 as a file or a paste.

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

#include "pathlab/io/lesson_file.hpp"
#include "pathlab/io/scene_link.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"

using namespace pathlab;
namespace fs = std::filesystem;

// The largest single allocation while `g_track_allocations` is on: the zip-bomb case shows the
// decoder's buffer never grows past its cap. operator new is replaced for this test binary
// only; it forwards to malloc (and delete to free) as the default does.
namespace {
std::atomic<bool> g_track_allocations{false};
std::atomic<size_t> g_largest_allocation{0};
}  // namespace

void* operator new(size_t size) {
  if (g_track_allocations.load(std::memory_order_relaxed)) {
    size_t seen = g_largest_allocation.load(std::memory_order_relaxed);
    while (size > seen && !g_largest_allocation.compare_exchange_weak(seen, size)) {
    }
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace {

const std::string kAssets = PATHLAB_ASSETS_DIR;

std::vector<std::string> files_under(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string p = e.path().string();
    if (e.is_regular_file() && p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  return out;
}

io::LessonReadOptions lesson_names() {
  io::LessonReadOptions o;
  o.check_planner = [](const std::string& n) { return plan::find_planner(n) ? std::string() : "unknown planner '" + n + "'"; };
  return o;
}

/// The error decode_link and then the reader give for `text` ("" when it reads).
std::string scene_link_error(const std::string& text) {
  auto link = io::decode_link(text);
  if (!link) return link.error().message;
  auto scene = io::read_link_scene(*link, plan::scene_read_options());
  return scene ? "" : scene.error().message;
}

/// A scene file's JSON with one line replaced: how the malformed scenes below are made.
std::string demo_with(const std::string& from, const std::string& to) {
  std::string json = io::scene_to_json(plan::load_scene(kAssets + "/scenes/demo.json").value());
  const size_t at = json.find(from);
  REQUIRE(at != std::string::npos);
  return json.replace(at, from.size(), to);
}

void check_error(const std::string& text, const std::string& expected) {
  const std::string e = scene_link_error(text);
  CAPTURE(text.substr(0, 120));
  CAPTURE(e);
  CHECK(e.rfind("link", 0) == 0);
  CHECK(e.find(expected) != std::string::npos);
}

}  // namespace

TEST_CASE("scene links: every bundled scene reads back from its link as the same scene") {
  const std::vector<std::string> files = files_under(kAssets + "/scenes", ".json");
  REQUIRE(files.size() >= 25);
  for (const std::string& f : files) {
    INFO(f);
    auto scene = plan::load_scene(f);
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    const std::string fragment = io::scene_link(*scene);
    CHECK(fragment.rfind("scene=", 0) == 0);
    auto link = io::decode_link(io::link_url("https://example.org/pathlab/index.html", fragment));
    REQUIRE_MESSAGE(link.ok(), (link.ok() ? "" : link.error().message));
    CHECK(link->kind == io::LinkKind::scene);
    auto back = io::read_link_scene(*link, plan::scene_read_options());
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
    CHECK(io::scene_to_json(*back) == io::scene_to_json(*scene));  // map, poses, settings, units, doors, trucks
    const size_t json_size = io::scene_to_json(*scene).size();
    if (json_size > 50000) CHECK(fragment.size() * 10 < json_size);  // the large maps compress at least 10:1
    if (std::getenv("PATHLAB_LINK_LENGTHS"))
      MESSAGE(fs::path(f).filename().string() << ": " << json_size << " bytes of JSON, link " << fragment.size()
                                              << " characters");
  }
}

TEST_CASE("scene links: a scene whose map is a file carries the map itself, and a link naming a file is refused") {
  const std::string arena = kAssets + "/scenes/maps/arena-movingai.json";
  auto scene = plan::load_scene(arena);
  REQUIRE(scene.ok());
  auto link = io::decode_link(io::scene_link(*scene));
  REQUIRE(link.ok());
  CHECK(link->json.find("\"file\"") == std::string::npos);
  auto back = io::read_link_scene(*link, plan::scene_read_options());
  REQUIRE(back.ok());
  CHECK(back->grid.width() == scene->grid.width());
  CHECK(back->grid.height() == scene->grid.height());
  CHECK(io::scene_to_json(*back) == io::scene_to_json(*scene));
  // A hostile link must not make the reader open a file of the machine it is opened on.
  const std::string file_map = R"({"pathlab_scene": 3, "map": {"file": "/etc/hostname"}, "start": [1, 1], "goal": [2, 2]})";
  check_error(io::encode_link(io::LinkKind::scene, file_map), "map.file cannot be used here");
}

TEST_CASE("scene links: every step of every shipped lesson reads back as the same lesson at that step") {
  const std::vector<std::string> files = files_under(kAssets + "/lessons", ".lesson.json");
  REQUIRE(files.size() == 5);
  for (const std::string& f : files) {
    INFO(f);
    auto lesson = io::load_lesson(f, lesson_names());
    REQUIRE(lesson.ok());
    for (int step = 1; step <= static_cast<int>(lesson->steps.size()); ++step) {
      auto fragment = io::lesson_link(*lesson, step);
      REQUIRE_MESSAGE(fragment.ok(), (fragment.ok() ? "" : fragment.error().message));
      CHECK(fragment->find("&step=" + std::to_string(step)) != std::string::npos);
      auto link = io::decode_link("index.html#" + *fragment);
      REQUIRE(link.ok());
      CHECK(link->kind == io::LinkKind::lesson);
      CHECK(link->step == step);
      auto back = io::read_link_lesson(*link, lesson_names());
      REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
      CHECK(*back == *lesson);
    }
  }
}

TEST_CASE("scene links: a whole URL, the fragment alone, with '#' and with spaces around all decode the same") {
  const std::string fragment = io::scene_link(plan::load_scene(kAssets + "/scenes/demo.json").value());
  const std::string json = io::decode_link(fragment).value().json;
  for (const std::string& text : {"#" + fragment, "https://example.org/p/index.html?x=1#" + fragment,
                                  "  index.html#" + fragment + "\n", fragment + "=="}) {
    CAPTURE(text.substr(0, 60));
    auto link = io::decode_link(text);
    REQUIRE_MESSAGE(link.ok(), (link.ok() ? "" : link.error().message));
    CHECK(link->json == json);
  }
  CHECK(io::link_url("a.html#old", "scene=x") == "a.html#scene=x");
}

TEST_CASE("scene links: each malformed link gives its own error, beginning with \"link\"") {
  const std::string good = io::scene_link(plan::load_scene(kAssets + "/scenes/demo.json").value());
  const std::string payload = good.substr(6);
  check_error("", "nothing after the '#'");
  check_error("index.html#", "nothing after the '#'");
  check_error("index.html", "is not KEY=VALUE");
  check_error("#" + good + "&zoom=2", "unknown key 'zoom' (scene, lesson, step)");
  check_error("#" + good + "&" + good, "'scene' is given twice");
  check_error("#" + good + "&lesson=" + payload, "holds both scene and lesson");
  check_error("#step=2", "holds no scene and no lesson");
  check_error("#" + good + "&step=2", "'step' belongs to lesson links");
  check_error("#lesson=" + payload + "&step=0", "must be a step number from 1 to 500");
  check_error("#lesson=" + payload + "&step=two", "must be a step number");
  check_error("#scene=", "scene is empty");
  check_error("#scene=eJz%2B" + payload, "character '%' at 4 is not base64url");
  check_error("#scene=eJzA" + std::string("A"), "cannot be base64url (cut short?)");
  check_error("#scene=AAAA", "too few for a zlib stream");
  // A well-formed zlib stream of nothing (a fixed block holding only its end), as another
  // compressor writes it: stb's compressor could not write it back, so it is refused.
  check_error("#scene=eAEDAAAAAAE", "holds nothing (its compressed data is empty)");
  // Not zlib at all ("hello, this is no zlib" in base64url), a link cut short, a character changed.
  check_error("#scene=aGVsbG8sIHRoaXMgaXMgbm8gemxpYg", "the compressed data is damaged");
  check_error("#" + good.substr(0, good.size() - 12), "the compressed data is damaged");
  std::string changed = good;
  changed[good.size() / 2] = changed[good.size() / 2] == 'A' ? 'B' : 'A';
  check_error("#" + changed, "damaged");
  check_error(std::string(io::kMaxLinkChars + 1, 'A'), "a link may have at most");
  // What decompresses is read as any scene file is: JSON syntax, json_guard's depth, every key.
  check_error(io::encode_link(io::LinkKind::scene, "{\"pathlab_scene\": 3,"), "link:1: not valid JSON");
  check_error(io::encode_link(io::LinkKind::scene, std::string(100, '[') + std::string(100, ']')), "nesting deeper than 64");
  check_error(io::encode_link(io::LinkKind::scene, demo_with("\"planner\": \"astar\"", "\"planner\": \"warp-drive\"")),
              "settings.planner: unknown planner 'warp-drive'");
  check_error(io::encode_link(io::LinkKind::scene, demo_with("\"pathlab_scene\": 3", "\"pathlab_scene\": 99")),
              "newer than this pathlab understands");
  // A lesson link is not a scene, and a scene link is not a lesson.
  const std::string lesson = io::lesson_link(io::load_lesson(kAssets + "/lessons/4-turning-radius.lesson.json").value(), 1).value();
  check_error(lesson, "holds a lesson, not a scene");
  CHECK(io::read_link_lesson(io::decode_link(good).value()).error().message == "link: holds a scene, not a lesson");
}

TEST_CASE("scene links: a lesson link holds presets only, and its step must be in the lesson") {
  io::Lesson lesson;
  lesson.title = "mine";
  lesson.steps.push_back(io::LessonStep{"articles/guesgen-1-zigzag", "", "a", {}});
  lesson.steps.push_back(io::LessonStep{"", "../scenes/my-level.json", "b", {}});
  auto refused = io::lesson_link(lesson, 1);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("steps[1] (step 2) names the scene file '../scenes/my-level.json'") != std::string::npos);
  // Made by hand (encode_link checks nothing): the reader refuses it too.
  auto link = io::decode_link(io::encode_link(io::LinkKind::lesson, io::lesson_to_json(lesson), 1));
  REQUIRE(link.ok());
  auto read = io::read_link_lesson(*link, lesson_names());
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message == "link: steps[1].scene: a link carries no files, only gallery presets");
  lesson.steps.pop_back();
  CHECK_FALSE(io::lesson_link(lesson, 2).ok());
  auto past_end = io::decode_link(io::encode_link(io::LinkKind::lesson, io::lesson_to_json(lesson), 3));
  REQUIRE(past_end.ok());
  CHECK(io::read_link_lesson(*past_end).error().message == "link: step 3 is past the lesson's end (1 steps)");
}

TEST_CASE("scene links: a zip bomb (a small link, a huge scene) is refused without allocating more than the cap") {
  // 32 MiB of spaces: stb's deflate makes ~330 KB of it, a link of < 1 MiB.
  const std::string bomb = io::encode_link(io::LinkKind::scene, std::string(size_t{32} << 20, ' '));
  REQUIRE(bomb.size() < (size_t{1} << 20));
  g_largest_allocation = 0;
  g_track_allocations = true;
  auto link = io::decode_link(bomb);
  g_track_allocations = false;
  REQUIRE_FALSE(link.ok());
  CHECK(link.error().code == StatusCode::too_large);
  CHECK(link.error().message == "link: scene: decompresses to more than 8 MiB (the most a link may hold)");
  CHECK(g_largest_allocation.load() <= io::kMaxLinkJsonBytes + 1);
  CHECK(g_largest_allocation.load() >= io::kMaxLinkJsonBytes);  // the cap was reached, so the test measured it
  // The cap itself is allowed: exactly kMaxLinkJsonBytes decompresses, one byte more does not.
  auto at_cap = io::decode_link(io::encode_link(io::LinkKind::scene, std::string(io::kMaxLinkJsonBytes, ' ')));
  REQUIRE(at_cap.ok());
  CHECK(at_cap->json.size() == io::kMaxLinkJsonBytes);
  CHECK_FALSE(io::decode_link(io::encode_link(io::LinkKind::scene, std::string(io::kMaxLinkJsonBytes + 1, ' '))).ok());
}
