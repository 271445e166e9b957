#pragma once
// Internal to app/io: the pieces of the scene reader and writer shared by scene_file.cpp and
// scene_file_crowd.cpp (units with goals, doors, moving obstacles). Not installed.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pathlab/io/json_guard.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::io::detail {

/// Thrown by the readers, caught in parse_scene. With a `key` (e.g. "doors[2].toggles[1]"),
/// parse_scene finds the key's line in the text and reports "FILE:LINE: KEY WHAT".
struct SceneError {
  std::string message;  ///< the whole message (no key); empty when raised by bad_key
  std::string key;
  std::string what;
};

[[noreturn]] void bad_key(std::string key, std::string what);

/// "FILE:LINE: KEY what" for an error raised with a key (bad_key), at the key's line in
/// `text`; else the message as raised. The scene, repro and lesson readers all report so.
std::string located(const SceneError& e, std::string_view text, const std::string& source);

/// `text` as JSON, guarded first (check_json_text: depth, number range; nlohmann copies values
/// recursively and throws on 1e400): the scene, repro and lesson readers' first step. A syntax
/// error reads "FILE:LINE: not valid JSON (byte N)".
Result<nlohmann::json> parse_json_text(const std::string& text, const std::string& source);

/// Runs `read()` (a reader over a parsed document) and turns what the readers throw into a
/// parse error: a SceneError located at its key's line in `text`, any other nlohmann error as
/// "FILE: what". The scene, repro and lesson readers' second step, after parse_json_text.
template <class Read>
auto read_located(const std::string& text, const std::string& source, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const SceneError& e) {
    return fail(StatusCode::parse_error, located(e, text, source));
  } catch (const nlohmann::json::exception& e) {
    return fail(StatusCode::parse_error, source + ": " + printable_text(e.what()));
  }
}

/// A heading in degrees for the file: rad_to_deg(rad), moved by a few ulps when that makes
/// deg_to_rad give back exactly `rad`. Without this, about 2 in 100 headings change their last
/// digit on every save, load and save; with it, the bytes stay the same.
double stable_degrees(double rad);

/// Byte offset of the value at `key` (a path like `doors[2].cells` as nlohmann sees the
/// document: the last of duplicate keys is not tracked, the first wins); when the full path is
/// absent, the offset of its longest present prefix; 0 when none is present. Iterative.
size_t offset_of_key(std::string_view text, std::string_view key);

/// Reads "units", "doors" and "moving_obstacles" of `root` into `scene` (whose grid is read).
void read_crowd_parts(const nlohmann::json& root, const std::string& source, Scene& scene);

/// Writes "units", "doors" and "moving_obstacles" of `scene` into `j`.
void write_crowd_parts(const Scene& scene, nlohmann::ordered_json& j);

}  // namespace pathlab::io::detail
