#pragma once
// Runs the built pathlab-cli and captures its exit status, stdout and stderr.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace pathlab::test
