// pathlab-cli link (issue 29): a scene or a lesson step to a link, and a link back to a new file
// that reads as the same scene or lesson; an existing file is never written over; bad input is
// one "error:" line naming what is wrong.

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_support.hpp"
#include "pathlab/io/lesson_file.hpp"
#include "pathlab/io/scene_link.hpp"
#include "pathlab/plan/scene.hpp"

using namespace pathlab;
using test::check_usage_error;
using test::run_cli;
namespace fs = std::filesystem;

namespace {

const std::string kAssets = PATHLAB_ASSETS_DIR;
const std::string kDemo = kAssets + "/scenes/demo.json";
const std::string kLesson = kAssets + "/lessons/1-why-astar-paths-look-drunk.lesson.json";

/// The link the CLI prints for `args`, without its line break.
std::string link_of(const std::string& args) {
  const test::CliRun r = run_cli("link " + args);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  REQUIRE(!r.out.empty());
  CHECK(r.out.back() == '\n');
  CHECK(r.out.find('\n') == r.out.size() - 1);
  return r.out.substr(0, r.out.size() - 1);
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// A plan's output without its "time_us" (the one figure that differs between two runs).
std::string without_time(const std::string& out) {
  if (!out.empty() && out[0] == '{') {
    nlohmann::json j = nlohmann::json::parse(out);
    j.erase("time_us");
    return j.dump();
  }
  std::string kept;
  size_t at = 0;
  while (at < out.size()) {
    const size_t end = std::min(out.find('\n', at), out.size());
    if (out.compare(at, 8, "time_us:") != 0) kept += out.substr(at, end - at) + "\n";
    at = end + 1;
  }
  return kept;
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// A fresh folder under the temporary folder, removed when the test ends.
struct Scratch {
  fs::path path;
  explicit Scratch(const std::string& name)
      : path(fs::temp_directory_path() / ("pathlab_test_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& f) const { return (path / f).string(); }
};

}  // namespace

TEST_CASE("cli link: --scene prints index.html#scene=..., and --open --out writes the same scene to a new file") {
  const Scratch dir("cli_link_scene");
  const std::string link = link_of("--scene " + kDemo);
  CHECK(link.rfind("index.html#scene=", 0) == 0);
  CHECK(link_of("--scene " + kDemo + " --base https://example.org/pathlab/") ==
        "https://example.org/pathlab/#" + link.substr(link.find('#') + 1));
  const std::string out = dir / "from-link.json";
  const test::CliRun r = run_cli("link --open '" + link + "' --out " + out);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.out.find("wrote " + out) == 0);
  auto written = plan::load_scene(out);
  REQUIRE(written.ok());
  CHECK(io::scene_to_json(*written) == io::scene_to_json(plan::load_scene(kDemo).value()));
  // The same link again: the file exists now and stays as it is.
  const std::string before = bytes_of(out);
  check_usage_error("link --open '" + link + "' --out " + out, "exists; a link never writes over a file");
  CHECK(bytes_of(out) == before);
  // Nor over a user's file of another kind.
  const std::string notes = dir / "notes.json";
  write_text(notes, "my notes\n");
  check_usage_error("link --open '" + link + "' --out " + notes, "never writes over a file");
  CHECK(bytes_of(notes) == "my notes\n");
  // '-' reads the link from stdin (a bench512 link is too long for some shells' argument lists).
  const std::string via_stdin = dir / "stdin.json";
  write_text(dir / "link.txt", link + "\n");
  const test::CliRun s = run_cli("link --open - --out " + via_stdin + " < " + (dir / "link.txt"));
  REQUIRE_MESSAGE(s.status == 0, s.err);
  CHECK(bytes_of(via_stdin) == before);
}

TEST_CASE("cli link: a scene whose map is a file gives a link with the map in it") {
  const Scratch dir("cli_link_arena");
  const std::string arena = kAssets + "/scenes/maps/arena-movingai.json";
  const std::string link = link_of("--scene " + arena);
  const std::string out = dir / "arena.json";
  const test::CliRun r = run_cli("link --open '" + link + "' --out " + out);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(bytes_of(out).find("\"file\"") == std::string::npos);
  CHECK(io::scene_to_json(plan::load_scene(out).value()) == io::scene_to_json(plan::load_scene(arena).value()));
  // The file read back plans as the original does (the CLI's plan of both, byte for byte).
  const test::CliRun a = run_cli("plan --scene " + arena);
  const test::CliRun b = run_cli("plan --scene " + out);
  REQUIRE(a.status == 0);
  CHECK(without_time(a.out) == without_time(b.out));
  // --link gives plan (and simulate, scen) the scene without a file at all.
  const test::CliRun c = run_cli("plan --link '" + link + "'");
  REQUIRE_MESSAGE(c.status == 0, c.err);
  CHECK(without_time(c.out) == without_time(a.out));
  const test::CliRun d = run_cli("plan --json --planner theta --link '" + link + "'");
  const test::CliRun e = run_cli("plan --json --planner theta --scene " + arena);
  REQUIRE_MESSAGE(d.status == 0, d.err);
  CHECK(without_time(d.out) == without_time(e.out));
  CHECK(without_time(d.out).find("\"expanded\":") != std::string::npos);
  check_usage_error("plan --link '" + link + "' --scene " + arena, "give either --link or --scene");
  check_usage_error("plan --link 'index.html#scene=AAAA'", "link: scene:");
}

TEST_CASE("cli link: --lesson --step N links one step; --open writes the lesson to a new .lesson.json") {
  const Scratch dir("cli_link_lesson");
  const std::string link = link_of("--lesson " + kLesson + " --step 2");
  CHECK(link.rfind("index.html#lesson=", 0) == 0);
  CHECK(link.size() > 8);
  CHECK(link.substr(link.size() - 7) == "&step=2");
  const std::string out = dir / "shared.lesson.json";
  const test::CliRun r = run_cli("link --open '" + link + "' --out " + out);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.out.find("the link shows step 2") != std::string::npos);
  CHECK(io::load_lesson(out).value() == io::load_lesson(kLesson).value());
  check_usage_error("link --open '" + link + "' --out " + (dir / "shared.json"), "holds a lesson; name a .lesson.json");
}

TEST_CASE("cli link: bad arguments and bad links are one error line naming what is wrong") {
  const Scratch dir("cli_link_bad");
  check_usage_error("link", "give one of --scene FILE");
  check_usage_error("link --scene " + kDemo + " --lesson " + kLesson, "give one of");
  check_usage_error("link --scene " + kDemo + " --step 2", "--step belongs to --lesson");
  check_usage_error("link --lesson " + kLesson, "--lesson needs --step N");
  check_usage_error("link --lesson " + kLesson + " --step 99", "--step 99");
  check_usage_error("link --scene " + kDemo + " --out x.json", "--out belongs to --open");
  check_usage_error("link --open 'index.html#scene=AAAA'", "--open needs --out FILE");
  check_usage_error("link --scene " + kDemo + " --zoom 2", "zoom");
  check_usage_error("link --scene " + (dir / "missing.json"), "missing.json");
  check_usage_error("link --open 'index.html#scene=AAAA' --out " + (dir / "a.json"), "link: scene:");
  check_usage_error("link --open 'index.html#scene=@@@' --out " + (dir / "a.json"), "not base64url");
  CHECK_FALSE(fs::exists(dir / "a.json"));
  // A lesson with a step that names a scene file cannot travel as a link.
  const std::string own = dir / "own.lesson.json";
  write_text(own, R"({"pathlab_lesson": 1, "title": "t", "steps": [{"scene": "level.json", "caption": "c"}]})");
  check_usage_error("link --lesson " + own + " --step 1", "a link carries no files");
}
