#include "map_files.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace pathlab::io {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

}  // namespace

Result<Grid> load_png_map(const std::string& path, const ImageLoadOptions& options) {
  auto bytes = read_text_file(path, size_t{64} << 20);
  if (!bytes) return bytes.error();
  int w = 0, h = 0, channels = 0;
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes->data());
  const int len = static_cast<int>(bytes->size());
  // Check the header's size before decoding, so an absurd image is refused before allocating.
  if (!stbi_info_from_memory(data, len, &w, &h, &channels)) {
    return fail(StatusCode::parse_error, path + ": not a readable PNG image (" + stbi_failure_reason() + ")");
  }
  if (w <= 0 || h <= 0 || w > kMaxGridSide || h > kMaxGridSide ||
      static_cast<int64_t>(w) * h > kMaxGridCells) {
    return fail(StatusCode::too_large, path + ": image is " + std::to_string(w) + "x" + std::to_string(h) +
                                           ", above the limit of " + std::to_string(kMaxGridSide) + " a side");
  }
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(stbi_load_from_memory(data, len, &w, &h, &channels, 0),
                                                   stbi_image_free);
  if (!pixels) return fail(StatusCode::parse_error, path + ": cannot decode PNG (" + stbi_failure_reason() + ")");
  return grid_from_pixels(pixels.get(), w, h, channels, path, options);
}

Result<Grid> load_map_file(const std::string& path) {
  if (ends_with(path, ".png")) return load_png_map(path);
  return load_movingai_map(path);
}

Status write_png_rgba(const std::string& path, int width, int height, const unsigned char* rgba) {
  if (!stbi_write_png(path.c_str(), width, height, 4, rgba, width * 4)) {
    return fail(StatusCode::io_error, path + ": cannot write PNG");
  }
  return ok_status();
}

Status save_png_map(const Grid& grid, const std::string& path) {
  std::vector<unsigned char> px(static_cast<size_t>(grid.cell_count()) * 4);
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) {
      const float c = grid.cost(x, y);
      const unsigned char v = c == kBlocked ? 0 : (c > 1.0f ? 160 : 255);
      unsigned char* p = &px[static_cast<size_t>(grid.index(x, y)) * 4];
      p[0] = p[1] = p[2] = v;
      p[3] = 255;
    }
  }
  return write_png_rgba(path, grid.width(), grid.height(), px.data());
}

}  // namespace pathlab::io
