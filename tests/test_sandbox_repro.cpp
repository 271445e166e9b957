// The sandbox records headless (`pathlab SCENE --record-until T --save-repro OUT`, issue 25)
// the same file as `pathlab-cli record --scene SCENE --until T --out OUT`, byte for byte: the
// sandbox's units and the CLI's simulate the same, and a repro made in either replays in both.

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_support.hpp"

namespace fs = std::filesystem;
using pathlab::test::run_cli;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs the sandbox headless (dummy video driver, its own state folder); its exit status.
int run_app(const std::string& args, const fs::path& dir) {
  const std::string cmd = "SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software XDG_STATE_HOME='" + (dir / "state").string() +
                          "' " + std::string(PATHLAB_APP) + " " + args + " >'" + (dir / "app.out").string() + "' 2>&1";
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace

TEST_CASE("the sandbox's headless recording and pathlab-cli record of the same scene are the same bytes") {
  const fs::path dir = fs::temp_directory_path() / ("pathlab_sandbox_repro_" + std::to_string(getpid()));
  fs::create_directories(dir);
  // People through a doorway; a door closing on units; a truck the units step aside for.
  for (const char* name : {"doorway", "door-closing", "garbage-truck"}) {
    CAPTURE(name);
    const std::string scene = std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/" + name + ".json";
    const std::string from_app = (dir / (std::string(name) + ".app.repro.json")).string();
    const std::string from_cli = (dir / (std::string(name) + ".cli.repro.json")).string();
    REQUIRE_MESSAGE(run_app("'" + scene + "' --record-until 6 --save-repro '" + from_app + "'", dir) == 0,
                    read_file((dir / "app.out").string()));
    const auto r = run_cli("record --scene '" + scene + "' --until 6 --out '" + from_cli + "'");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string a = read_file(from_app), c = read_file(from_cli);
    CHECK(a.size() > 1000);
    CHECK(a == c);
    const auto check = run_cli("replay '" + from_app + "' --check");
    CHECK_MESSAGE(check.status == 0, check.err);
  }
  SUBCASE("a file that is not a repro is never written over") {
    const std::string mine = (dir / "mine.txt").string();
    std::ofstream(mine) << "my notes\n";
    const std::string scene = std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/doorway.json";
    CHECK(run_app("'" + scene + "' --record-until 1 --save-repro '" + mine + "'", dir) == 2);
    CHECK(read_file(mine) == "my notes\n");
    CHECK(read_file((dir / "app.out").string()).find("not a pathlab repro") != std::string::npos);
  }
  fs::remove_all(dir);
}
