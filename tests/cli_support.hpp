#pragma once
// Runs the built pathlab-cli and captures its exit status, stdout and stderr; the checks
// every CLI test shares.

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pathlab/geometry.hpp"

namespace pathlab::test {

struct CliRun {
  int status = -1;
  std::string out, err;
};

/// `args` is appended to the CLI path as shell words (quote what needs quoting).
inline CliRun run_cli(const std::string& args) {
  static int counter = 0;
  const std::string err_path = (std::filesystem::temp_directory_path() /
                                ("pathlab_cli_err_" + std::to_string(getpid()) + "_" + std::to_string(counter++)))
                                   .string();
  const std::string cmd = std::string(PATHLAB_CLI) + " " + args + " 2>" + err_path;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream e(err_path);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::filesystem::remove(err_path);
  return r;
}

inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / ("pathlab_" + name)).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// The CLI's contract for bad input: exit status 2, nothing on stdout, and exactly one
/// stderr line that starts with "error:" and mentions `word`.
inline void check_usage_error(const std::string& args, const std::string& word) {
  CAPTURE(args);
  const CliRun r = run_cli(args);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("error:", 0) == 0);
  CHECK(r.err.find('\n') == r.err.size() - 1);
  CHECK(r.err.find(word) != std::string::npos);
}

/// The [x, y] (or [x, y, deg]) entries of a result's "points", as positions.
inline std::vector<Vec2> points_of(const nlohmann::json& j) {
  std::vector<Vec2> pts;
  for (const auto& p : j.at("points")) pts.emplace_back(p.at(0).get<double>(), p.at(1).get<double>());
  return pts;
}

}  // namespace pathlab::test
