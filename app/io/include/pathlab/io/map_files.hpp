#pragma once
/// @file map_files.hpp
/// Map files of every kind the tools open: Moving AI `.map`, and PNG images (dark pixels
/// are walls). Errors name the file.

#include <string>
#include <string_view>

#include "pathlab/grid.hpp"
#include "pathlab/map_io.hpp"

namespace pathlab::io {

/// Checks a PNG's signature and that every chunk's declared length fits in the file, up to
/// IEND, before any decoder sees it. Errors name `path`, the chunk and its byte offset.
Status check_png_chunks(std::string_view bytes, const std::string& path);

/// Decodes PNG bytes into a grid, one cell per pixel; `path` names them in errors. Checks the
/// chunks (check_png_chunks) and the image size (kMaxGridSide, kMaxGridCells) before decoding.
Result<Grid> decode_png_map(std::string_view bytes, const std::string& path, const ImageLoadOptions& options = {});

/// Decodes a PNG file into a grid, one cell per pixel.
Result<Grid> load_png_map(const std::string& path, const ImageLoadOptions& options = {});

/// Loads a map by its file name: `.png` as an image, anything else as a Moving AI map.
Result<Grid> load_map_file(const std::string& path);

/// Writes the grid as a PNG: free cells white, walls black, costly cells darker grey.
Status save_png_map(const Grid& grid, const std::string& path);

/// Writes RGBA pixels (width x height x 4, top row first) as a PNG.
Status write_png_rgba(const std::string& path, int width, int height, const unsigned char* rgba);

}  // namespace pathlab::io
