#include "pathlab/io/json_guard.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace pathlab::io {
namespace {

/// One open object or array: the key or index it was reached by.
struct Level {
  bool is_array = false;
  std::string key;  ///< the last key seen in this object
  size_t index = 0; ///< the current element of this array
};

std::string key_path(const std::vector<Level>& stack) {
  std::string path;
  for (const Level& l : stack) {
    if (l.is_array) {
      path += "[" + std::to_string(l.index) + "]";
    } else if (!l.key.empty()) {
      if (!path.empty()) path += '.';
      path += l.key;
    }
  }
  // Keys are quoted from the file as written: raw bytes become \xNN, long paths are cut.
  return path.empty() ? std::string("the top level") : printable_text(path, 200);
}

/// Scans a string starting at the opening quote; returns the index after the closing quote
/// (or text.size() if unterminated) and its raw contents, escapes kept as written.
size_t scan_string(std::string_view text, size_t i, std::string& contents) {
  contents.clear();
  for (++i; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') return i + 1;
    if (c == '\\' && i + 1 < text.size()) {
      contents += c;
      ++i;
    }
    if (contents.size() < 64) contents += text[i];
  }
  return text.size();
}

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

int line_of_offset(std::string_view text, size_t offset) {
  int line = 1;
  const size_t end = std::min(offset, text.size());
  for (size_t i = 0; i < end; ++i)
    if (text[i] == '\n') ++line;
  return line;
}

Status json_syntax_error(std::string_view text, const std::string& source, size_t byte) {
  return fail(StatusCode::parse_error, source + ":" + std::to_string(line_of_offset(text, byte == 0 ? 0 : byte - 1)) +
                                           ": not valid JSON (byte " + std::to_string(byte) + ")");
}

std::string printable_text(std::string_view text, size_t max_chars) {
  std::string out;
  for (const char c : text) {
    if (out.size() >= max_chars) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u >= 32 && u < 127) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    }
  }
  return out;
}

Status check_json_text(std::string_view text, const std::string& source, int max_depth) {
  std::vector<Level> stack;
  std::string last_string, number;
  auto where = [&](size_t at) { return source + ":" + std::to_string(line_of_offset(text, at)) + ": "; };
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      i = scan_string(text, i, last_string);
      continue;
    }
    if (c == ':' && !stack.empty() && !stack.back().is_array) stack.back().key = printable_text(last_string, 64);
    if (c == ',' && !stack.empty() && stack.back().is_array) ++stack.back().index;
    if (c == '{' || c == '[') {
      if (static_cast<int>(stack.size()) >= max_depth) {
        return fail(StatusCode::parse_error, where(i) + "nesting deeper than " + std::to_string(max_depth) +
                                                 " levels under " + key_path(stack));
      }
      stack.push_back(Level{c == '[', {}, 0});
    } else if ((c == '}' || c == ']') && !stack.empty()) {
      stack.pop_back();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const size_t start = i;
      while (i < text.size() && is_number_char(text[i])) ++i;
      number.assign(text.substr(start, i - start));
      // strtod gives HUGE_VAL on overflow; nlohmann refuses such a number with an exception.
      if (std::isinf(std::strtod(number.c_str(), nullptr))) {
        return fail(StatusCode::parse_error, where(start) + key_path(stack) + ": the number " +
                                                 printable_text(number, 40) + " is outside the range of a double");
      }
      continue;
    }
    ++i;
  }
  return ok_status();
}

}  // namespace pathlab::io
