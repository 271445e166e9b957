#pragma once
// Shared by the libFuzzer targets: a check that aborts (so libFuzzer records the input) and
// the CLI's contract for error messages: one line, printable ASCII, naming the source.

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond)                                                             \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)

namespace pathlab::fuzz {

inline void check_message(const std::string& message, const std::string& source) {
  if (message.find(source) == std::string::npos) {
    std::fprintf(stderr, "error message does not name %s: %s\n", source.c_str(), message.c_str());
    std::abort();
  }
  for (const char c : message) {
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) >= 127) {
      std::fprintf(stderr, "error message has a non-printable byte 0x%02X\n", static_cast<unsigned char>(c));
      std::abort();
    }
  }
}

}  // namespace pathlab::fuzz
