#include "pathlab/map_io.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace pathlab {
namespace {

/// Splits text into lines, dropping a trailing '\r' on each (CRLF files).
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

std::string where(const std::string& source, int line) { return source + ":" + std::to_string(line) + ": "; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

bool parse_int(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool parse_double(std::string_view s, double& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(out);
}

std::string printable(char c) {
  if (c >= 32 && c < 127) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02X", static_cast<unsigned char>(c));
  return buf;
}

/// A token from the file, safe for a one-line message: quoted, bytes outside printable ASCII
/// shown as \xNN, cut after 40 characters.
std::string quoted(std::string_view token) {
  std::string out = "'";
  for (const char c : token.substr(0, 40)) {
    if (c >= 32 && c < 127) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(c));
      out += buf;
    }
  }
  return out + (token.size() > 40 ? "...'" : "'");
}

}  // namespace

Result<std::string> read_text_file(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(StatusCode::io_error, path + ": cannot open file");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return fail(StatusCode::io_error, path + ": cannot read file (not a regular file?)");
  if (static_cast<uint64_t>(size) > max_bytes) {
    return fail(StatusCode::too_large, path + ": file is " + std::to_string(size) + " bytes, more than the limit of " +
                                           std::to_string(max_bytes));
  }
  in.seekg(0, std::ios::beg);
  std::string text(static_cast<size_t>(size), '\0');
  if (size > 0 && !in.read(text.data(), size)) return fail(StatusCode::io_error, path + ": read failed");
  return text;
}

Result<Grid> parse_movingai_map(std::string_view text, const std::string& source, const MapLoadOptions& options) {
  if (!(options.swamp_cost >= 1.0f) || !(options.water_cost >= 1.0f) || !std::isfinite(options.swamp_cost) ||
      !std::isfinite(options.water_cost)) {
    return fail(StatusCode::invalid_argument, source + ": terrain costs must be finite and >= 1");
  }
  LineReader lines(text);
  std::string_view line;
  int width = -1, height = -1;
  bool saw_type = false, saw_map = false;
  while (lines.next(line)) {
    const auto fields = split_fields(line);
    if (fields.empty()) continue;
    const std::string_view key = fields[0];
    if (key == "map" && fields.size() == 1) {
      saw_map = true;
      break;
    }
    if (fields.size() != 2) {
      return fail(StatusCode::parse_error, where(source, lines.number()) + "expected a header line 'type octile', "
                                                                            "'height H', 'width W' or 'map'");
    }
    if (key == "type") {
      saw_type = true;  // Only octile maps exist in the benchmark; other types are read the same way.
    } else if (key == "height" || key == "width") {
      int v = 0;
      if (!parse_int(fields[1], v) || v <= 0) {
        return fail(StatusCode::parse_error, where(source, lines.number()) + std::string(key) +
                                                 " must be a positive integer, got " + quoted(fields[1]));
      }
      (key == "height" ? height : width) = v;
    } else {
      return fail(StatusCode::parse_error,
                  where(source, lines.number()) + "unknown header field " + quoted(key));
    }
  }
  if (!saw_map) return fail(StatusCode::parse_error, source + ": no 'map' line: not a Moving AI map file");
  if (!saw_type) return fail(StatusCode::parse_error, source + ": the header has no 'type' line");
  if (width < 0 || height < 0) return fail(StatusCode::parse_error, source + ": the header lacks 'width' or 'height'");
  // Refuse absurd sizes before allocating: also a map cannot have more rows than the text has bytes.
  if (static_cast<uint64_t>(width) * static_cast<uint64_t>(height) > text.size()) {
    return fail(StatusCode::parse_error, source + ": header says " + std::to_string(width) + "x" +
                                             std::to_string(height) + " but the file is too short to hold that map");
  }
  auto created = Grid::create(width, height);
  if (!created) return fail(created.error().code, source + ": " + created.error().message);
  Grid grid = std::move(created).value();

  for (int y = 0; y < height; ++y) {
    if (!lines.next(line)) {
      return fail(StatusCode::parse_error, source + ": expected " + std::to_string(height) + " map rows, found " +
                                               std::to_string(y));
    }
    if (static_cast<int>(line.size()) != width) {
      return fail(StatusCode::parse_error, where(source, lines.number()) + "row " + std::to_string(y) + " has " +
                                               std::to_string(line.size()) + " characters, expected " +
                                               std::to_string(width));
    }
    for (int x = 0; x < width; ++x) {
      float cost;
      switch (line[static_cast<size_t>(x)]) {
        case '.': case 'G': cost = 1.0f; break;
        case '@': case 'O': case 'T': cost = kBlocked; break;
        case 'S': cost = options.swamp_cost; break;
        case 'W': cost = options.water_passable ? options.water_cost : kBlocked; break;
        default:
          return fail(StatusCode::parse_error, where(source, lines.number()) + "unknown terrain " +
                                                   printable(line[static_cast<size_t>(x)]) + " at column " +
                                                   std::to_string(x + 1));
      }
      grid.set_cost(x, y, cost);
    }
  }
  while (lines.next(line)) {
    if (!trim(line).empty()) {
      return fail(StatusCode::parse_error,
                  where(source, lines.number()) + "extra text after the " + std::to_string(height) + " map rows");
    }
  }
  return grid;
}

Result<Grid> load_movingai_map(const std::string& path, const MapLoadOptions& options) {
  auto text = read_text_file(path);
  if (!text) return text.error();
  return parse_movingai_map(*text, path, options);
}

std::string format_movingai_map(const Grid& grid) {
  std::string out = "type octile\nheight " + std::to_string(grid.height()) + "\nwidth " +
                    std::to_string(grid.width()) + "\nmap\n";
  out.reserve(out.size() + static_cast<size_t>(grid.cell_count() + grid.height()));
  for (int y = 0; y < grid.height(); ++y) {
    for (int x = 0; x < grid.width(); ++x) {
      const float c = grid.cost(x, y);
      out += c == kBlocked ? '@' : (c > 1.0f ? 'S' : '.');
    }
    out += '\n';
  }
  return out;
}

Result<std::vector<Scenario>> parse_scenarios(std::string_view text, const std::string& source) {
  LineReader lines(text);
  std::string_view line;
  std::vector<Scenario> out;
  bool first = true;
  while (lines.next(line)) {
    const auto fields = split_fields(line);
    if (fields.empty()) continue;
    if (first) {
      first = false;
      if (fields[0] == "version") {
        if (fields.size() != 2 || (fields[1] != "1" && fields[1] != "1.0")) {
          return fail(StatusCode::parse_error,
                      where(source, lines.number()) + "unsupported scenario version (expected 'version 1')");
        }
        continue;
      }
    }
    if (fields.size() != 9) {
      return fail(StatusCode::parse_error, where(source, lines.number()) + "expected 9 fields (bucket map width "
                                                                           "height start_x start_y goal_x goal_y "
                                                                           "length), found " +
                                               std::to_string(fields.size()));
    }
    Scenario s;
    s.line = lines.number();
    const std::string_view map = fields[1];
    const size_t slash = map.find_last_of("/\\");
    s.map_name = std::string(slash == std::string_view::npos ? map : map.substr(slash + 1));
    const char* names[] = {"bucket", "", "map_width", "map_height", "start_x", "start_y", "goal_x", "goal_y"};
    int* targets[] = {&s.bucket, nullptr, &s.map_width, &s.map_height, &s.start.x, &s.start.y, &s.goal.x, &s.goal.y};
    for (int i = 0; i < 8; ++i) {
      if (i == 1) continue;
      if (!parse_int(fields[static_cast<size_t>(i)], *targets[i]) || *targets[i] < 0) {
        return fail(StatusCode::parse_error, where(source, lines.number()) + names[i] +
                                                 " must be a non-negative integer, got " +
                                                 quoted(fields[static_cast<size_t>(i)]));
      }
    }
    if (!parse_double(fields[8], s.optimal_length) || s.optimal_length < 0.0) {
      return fail(StatusCode::parse_error, where(source, lines.number()) +
                                               "optimal length must be a non-negative number, got " +
                                               quoted(fields[8]));
    }
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::vector<Scenario>> load_scenarios(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) return text.error();
  return parse_scenarios(*text, path);
}

Result<Grid> grid_from_pixels(const unsigned char* pixels, int width, int height, int channels,
                              const std::string& source, const ImageLoadOptions& options) {
  if (pixels == nullptr) return fail(StatusCode::invalid_argument, source + ": no pixel data");
  if (channels < 1 || channels > 4) {
    return fail(StatusCode::unsupported, source + ": " + std::to_string(channels) + " channels per pixel");
  }
  if (options.dark_threshold < 1 || options.dark_threshold > 255) {
    return fail(StatusCode::invalid_argument, source + ": dark threshold must be in 1..255");
  }
  auto created = Grid::create(width, height);
  if (!created) return fail(created.error().code, source + ": " + created.error().message);
  Grid grid = std::move(created).value();
  const size_t stride = static_cast<size_t>(channels);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const unsigned char* p = pixels + (static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * stride;
      double lum;
      bool transparent = false;
      if (channels >= 3) {
        lum = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
        transparent = channels == 4 && p[3] == 0;
      } else {
        lum = p[0];
        transparent = channels == 2 && p[1] == 0;
      }
      grid.set_blocked(x, y, !transparent && lum < options.dark_threshold);
    }
  }
  return grid;
}

}  // namespace pathlab
