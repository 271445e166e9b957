#pragma once
/// @file map_io.hpp
/// Readers for the Moving AI grid benchmark formats (https://movingai.com/benchmarks/formats.html)
/// and a converter from raw image pixels. Reading files from disk is done here with
/// the standard library only; PNG decoding lives in the app's I/O library.
///
/// Every error message names the file (the `source` argument) and, for text
/// formats, the 1-based line.

#include <string>
#include <string_view>
#include <vector>

#include "pathlab/grid.hpp"

namespace pathlab {

/// How Moving AI terrain letters map to cells.
///
/// `.` and `G` are ground (cost 1); `@`, `O` and `T` are always blocked.
/// `S` (swamp) is passable with `swamp_cost`. `W` (water) forms a terrain class of its
/// own that ground units cannot enter, so it is blocked unless `water_passable`.
struct MapLoadOptions {
  float swamp_cost = 3.0f;      ///< [Limit: >= 1] hog2 triples the cost of moving from swamp; no benchmark map has any.
  bool water_passable = false;  ///< Treat `W` as ground with `water_cost`.
  float water_cost = 1.0f;      ///< [Limit: >= 1]
};

inline MapLoadOptions default_map_load_options() { return MapLoadOptions{}; }

/// Parses the text of a Moving AI `.map` file. `source` names it in error messages.
/// Accepts LF and CRLF line endings, any header order, non-square maps.
Result<Grid> parse_movingai_map(std::string_view text, const std::string& source,
                                const MapLoadOptions& options = default_map_load_options());

/// Reads and parses a Moving AI `.map` file.
Result<Grid> load_movingai_map(const std::string& path,
                               const MapLoadOptions& options = default_map_load_options());

/// Writes a grid as a Moving AI `.map` text: `.` free, `@` blocked, `S` for cost > 1.
std::string format_movingai_map(const Grid& grid);

/// One benchmark problem of a `.map.scen` file.
struct Scenario {
  int bucket = 0;
  std::string map_name;   ///< The map field with its directory part removed.
  int map_width = 0;      ///< [Units: cells]
  int map_height = 0;     ///< [Units: cells]
  Cell start;
  Cell goal;
  double optimal_length = 0.0;  ///< Octile length, no corner cutting. [Units: cells]
  int line = 0;                 ///< 1-based line in the file.
};

/// Parses a `.map.scen` file's text: `version 1` files with either the 2011 map paths
/// (`maps/dao/arena.map`) or the current bare names; tab- or space-separated fields.
Result<std::vector<Scenario>> parse_scenarios(std::string_view text, const std::string& source);
Result<std::vector<Scenario>> load_scenarios(const std::string& path);

/// Pixel threshold rule of image maps: a pixel whose luminance is below `dark_threshold`
/// (0..255) is blocked, brighter ones are free. Fully transparent pixels are free.
struct ImageLoadOptions {
  int dark_threshold = 128;  ///< [Limit: 1..255]
};

/// Builds a grid from 8-bit pixels (1 to 4 channels, row-major, top row first), one cell per pixel.
Result<Grid> grid_from_pixels(const unsigned char* pixels, int width, int height, int channels,
                              const std::string& source, const ImageLoadOptions& options = {});

/// Reads a whole file into a string, with an io_error naming it on failure.
/// Files above `max_bytes` are refused before reading.
Result<std::string> read_text_file(const std::string& path, size_t max_bytes = size_t{256} << 20);

}  // namespace pathlab
