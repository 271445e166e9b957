#include "pathlab/io/map_files.hpp"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "pathlab/io/json_guard.hpp"

namespace pathlab::io {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

uint32_t read_be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

}  // namespace

Status check_png_chunks(std::string_view bytes, const std::string& path) {
  static constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 8 || !std::equal(kSignature, kSignature + 8, data))
    return fail(StatusCode::parse_error, path + ": not a PNG file (no PNG signature)");
  // Each chunk: 4-byte big-endian length, 4-byte type, data, 4-byte CRC (PNG spec, W3C 2003, 5.3).
  size_t pos = 8;
  for (int index = 0;; ++index) {
    if (bytes.size() - pos < 12)
      return fail(StatusCode::parse_error, path + ": PNG ends inside chunk " + std::to_string(index) + " at byte " +
                                               std::to_string(pos) + " (truncated file, no IEND chunk)");
    const uint32_t length = read_be32(data + pos);
    const std::string type = printable_text(bytes.substr(pos + 4, 4), 16);
    if (length > (uint32_t{1} << 31) - 1 || length > bytes.size() - pos - 12) {
      return fail(StatusCode::parse_error, path + ": PNG chunk " + std::to_string(index) + " ('" + type + "') at byte " +
                                               std::to_string(pos) + " declares " + std::to_string(length) +
                                               " bytes, but only " + std::to_string(bytes.size() - pos - 12) +
                                               " remain in the file");
    }
    pos += 12 + size_t{length};
    if (type == "IEND") return ok_status();
  }
}

Result<Grid> decode_png_map(std::string_view bytes, const std::string& path, const ImageLoadOptions& options) {
  // Chunk lengths before stb sees the file: it grows its buffer to whatever IDAT declares.
  if (auto chunks = check_png_chunks(bytes, path); !chunks) return chunks.error();
  int w = 0, h = 0, channels = 0;
  const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
  const int len = static_cast<int>(bytes.size());
  // Check the header's size before decoding, so an absurd image is refused before allocating.
  // stb's reasons may quote bytes of the file (an unknown chunk's type): made printable.
  if (!stbi_info_from_memory(data, len, &w, &h, &channels)) {
    return fail(StatusCode::parse_error, path + ": not a readable PNG image (" + printable_text(stbi_failure_reason()) + ")");
  }
  if (w <= 0 || h <= 0 || w > kMaxGridSide || h > kMaxGridSide ||
      static_cast<int64_t>(w) * h > kMaxGridCells) {
    return fail(StatusCode::too_large, path + ": image is " + std::to_string(w) + "x" + std::to_string(h) +
                                           ", above the limit of " + std::to_string(kMaxGridSide) + " a side");
  }
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(stbi_load_from_memory(data, len, &w, &h, &channels, 0),
                                                   stbi_image_free);
  if (!pixels) {
    return fail(StatusCode::parse_error, path + ": cannot decode PNG (" + printable_text(stbi_failure_reason()) + ")");
  }
  return grid_from_pixels(pixels.get(), w, h, channels, path, options);
}

Result<Grid> load_png_map(const std::string& path, const ImageLoadOptions& options) {
  auto bytes = read_text_file(path, size_t{64} << 20);
  if (!bytes) return bytes.error();
  return decode_png_map(*bytes, path, options);
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
