// libFuzzer target: the Moving AI .map reader (core/src/grid/map_io.cpp). Any text must give
// a grid within the size limits or an error naming the source and a line, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "pathlab/map_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto grid = pathlab::parse_movingai_map(text, "fuzz.map");
  if (grid) {
    FUZZ_CHECK(grid->width() >= 1 && grid->width() <= pathlab::kMaxGridSide);
    FUZZ_CHECK(grid->height() >= 1 && grid->height() <= pathlab::kMaxGridSide);
    // The writer's output reads back as the same grid.
    const std::string again = pathlab::format_movingai_map(*grid);
    auto back = pathlab::parse_movingai_map(again, "again.map");
    FUZZ_CHECK(back.ok() && back->width() == grid->width() && back->height() == grid->height());
  } else {
    pathlab::fuzz::check_message(grid.error().message, "fuzz.map");
  }
  return 0;
}
