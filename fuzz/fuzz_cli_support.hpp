#pragma once
// Runs pathlab-cli verbs in-process for the fuzz targets: argv in, exit status out, with the
// CLI's own exception handling (main.cpp) and stdout sent to /dev/null. Scratch files (a small
// map, the query file) live in a per-process folder under /tmp.

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "fuzz_support.hpp"

namespace pathlab::fuzz {

inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("pathlab_fuzz_" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  return dir;
}

inline std::string write_scratch(const std::string& name, const std::string& bytes) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

/// A 16x12 map with a wall and a swamp, written once.
inline const std::string& small_map() {
  static const std::string path = write_scratch("small.map",
                                                "type octile\nheight 12\nwidth 16\nmap\n"
                                                "................\n"
                                                "................\n"
                                                "..@@@@@@@@@.....\n"
                                                "..........@.....\n"
                                                "..........@..SS.\n"
                                                "....T.....@..SS.\n"
                                                "..........@.....\n"
                                                "..@@@@@@@@@.....\n"
                                                "................\n"
                                                "......W.........\n"
                                                "................\n"
                                                "................\n");
  return path;
}

/// Sends stdout to /dev/null once, so printed results cost no terminal time.
inline void silence_stdout() {
  static const bool done = [] {
    return std::freopen("/dev/null", "w", stdout) != nullptr;
  }();
  (void)done;
}

/// Runs one verb the way main() does: returns its status, 2 for a UsageError or any exception.
inline int run_verb(const std::vector<std::string>& words) {
  std::vector<std::string> storage{"pathlab-cli"};
  storage.insert(storage.end(), words.begin(), words.end());
  std::vector<char*> argv;
  for (std::string& w : storage) argv.push_back(w.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(storage.size());
  if (argc < 2) return 2;
  for (const auto& c : pathlab::cli::kCommands) {
    if (std::strcmp(argv[1], c.name) != 0) continue;
    try {
      return c.run(argc, argv.data());
    } catch (const std::exception& e) {
      // main() prints this line: it must be one line of printable characters.
      const std::string line = pathlab::cli::error_line(e.what());
      FUZZ_CHECK(line.find('\n') == line.size() - 1);
      for (const char ch : line.substr(0, line.size() - 1))
        FUZZ_CHECK(static_cast<unsigned char>(ch) >= 32 && static_cast<unsigned char>(ch) < 127);
      return 2;
    }
  }
  return 2;
}

}  // namespace pathlab::fuzz
