// pathlab-cli: the scriptable front of the pathlab core. See README.md for the reference.

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "commands.hpp"

namespace {

void usage(std::FILE* out) {
  std::fprintf(out, "usage: pathlab-cli <verb> [options]\n\nverbs:\n");
  for (const auto& c : pathlab::cli::kCommands) std::fprintf(out, "  %-8s %s\n", c.name, c.summary);
  std::fprintf(out,
               "\n--scene FILE (plan, simulate, scen, crowd; plan, simulate and scen also take --map FILE.json):\n"
               "a sandbox scene gives the map, the start and goal poses with their headings, the planner, the\n"
               "smoother and every setting (simulate: its first unit's preset); each option given overrides\n"
               "only itself (--planner keeps the poses and the settings that still apply). --link LINK gives the\n"
               "scene a scene link holds (pathlab-cli link; plan, simulate, scen).\n"
               "\nSee README.md for every option.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const auto& c : pathlab::cli::kCommands) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    try {
      return c.run(argc, argv);
    } catch (const std::exception& e) {
      // UsageError and anything else: one printable line (error_line escapes control bytes).
      std::fputs(pathlab::cli::error_line(e.what()).c_str(), stderr);
      return 2;
    }
  }
  std::fputs(pathlab::cli::error_line(std::string("unknown verb '") + argv[1] + "' (try pathlab-cli --help)").c_str(),
             stderr);
  return 2;
}
