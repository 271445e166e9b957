// libFuzzer target: pathlab-cli argument vectors (app/cli/args.cpp and every verb's option
// checks). The input is split at NUL or newline bytes into words. Words may not name files
// (no '/'): the word "MAP" stands for a small map, so the verbs that read one still run, and
// nothing else on the disk (a FIFO, /dev/stdin) can be opened.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_cli_support.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;
  pathlab::fuzz::silence_stdout();
  std::vector<std::string> words{""};
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      words.emplace_back();
    } else {
      words.back() += c;
    }
  }
  if (words.size() > 64) return -1;
  for (std::string& w : words) {
    if (w.find('/') != std::string::npos) return -1;
    if (w == "MAP") w = pathlab::fuzz::small_map();
  }
  const int status = pathlab::fuzz::run_verb(words);
  FUZZ_CHECK(status == 0 || status == 1 || status == 2);
  return 0;
}
