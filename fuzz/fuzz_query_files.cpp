// libFuzzer target: the --queries files of `plan` and `curve` (app/cli: read_query_lines and
// each verb's line parser, then the queries themselves on a small map). The first byte picks
// the verb and planner; the rest is the file.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_cli_support.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  pathlab::fuzz::silence_stdout();
  const std::string file = pathlab::fuzz::write_scratch("queries.txt", std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
  static const char* const kPlanners[] = {"astar", "jps", "theta", "navmesh", "dijkstra"};
  static const char* const kCurves[] = {"dubins", "reeds-shepp", "turn-to-point"};
  const unsigned pick = data[0];
  std::vector<std::string> argv;
  if (pick & 1u) {
    argv = {"curve", "--type", kCurves[(pick >> 1) % 3], "--radius", (pick & 8u) ? "0.5" : "3", "--queries", file};
  } else {
    argv = {"plan", "--map", pathlab::fuzz::small_map(), "--planner", kPlanners[(pick >> 1) % 5], "--queries", file};
    if (pick & 0x40u) argv.insert(argv.end(), {"--sample-step", "0.5"});
  }
  const int status = pathlab::fuzz::run_verb(argv);
  FUZZ_CHECK(status == 0 || status == 1 || status == 2);
  return 0;
}
