// libFuzzer target: PNG maps (app/io/map_files.cpp): the chunk walk, stb's decoder and the
// pixel threshold. Errors are one printable line naming the source.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "pathlab/io/map_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto grid = pathlab::io::decode_png_map(bytes, "fuzz.png");
  if (grid) {
    FUZZ_CHECK(grid->cell_count() <= pathlab::kMaxGridCells);
  } else {
    pathlab::fuzz::check_message(grid.error().message, "fuzz.png");
  }
  return 0;
}
