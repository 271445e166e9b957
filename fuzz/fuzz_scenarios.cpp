// libFuzzer target: the Moving AI .map.scen reader (core/src/grid/map_io.cpp).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "pathlab/map_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto scen = pathlab::parse_scenarios(text, "fuzz.scen");
  if (scen) {
    for (const pathlab::Scenario& s : *scen) {
      FUZZ_CHECK(s.line >= 1);
      FUZZ_CHECK(s.optimal_length == s.optimal_length);  // never NaN
    }
  } else {
    pathlab::fuzz::check_message(scen.error().message, "fuzz.scen");
  }
  return 0;
}
