#pragma once
/// @file json_guard.hpp
/// A pass over JSON text before nlohmann parses it, so hostile files fail with a message that
/// names the file, the line and the key instead of overflowing the stack or throwing deep in
/// the parser: nesting deeper than kMaxJsonDepth and numbers that overflow a double (1e400) are
/// refused. The pass is iterative (no recursion) and does not allocate per value.

#include <string>
#include <string_view>

#include "pathlab/status.hpp"

namespace pathlab::io {

/// The deepest nesting of objects and arrays a scene (or any JSON file the tools read) may
/// have. A scene needs 4 levels; anything near this is not a scene. [Limit: >= 1]
inline constexpr int kMaxJsonDepth = 64;

/// Checks `text` for nesting deeper than `max_depth` and for numbers outside the range of a
/// double. Errors read "SOURCE:LINE: ..." and name the key path (e.g. settings.agent_radius).
/// Syntax errors are left to the parser (this pass tolerates them).
Status check_json_text(std::string_view text, const std::string& source, int max_depth = kMaxJsonDepth);

/// The 1-based line of byte `offset` in `text` (offsets past the end count to the end).
int line_of_offset(std::string_view text, size_t offset);

/// The error for a JSON syntax error the parser met at byte `byte` of `text` (nlohmann's
/// parse_error::byte, 1-based; 0 when unknown): "SOURCE:LINE: not valid JSON (byte N)", the line
/// that of the byte before it, where the parser stopped reading.
Status json_syntax_error(std::string_view text, const std::string& source, size_t byte);

/// `text` with every byte outside printable ASCII shown as \xNN, cut to `max_chars`: safe to
/// put into a one-line error message.
std::string printable_text(std::string_view text, size_t max_chars = 200);

}  // namespace pathlab::io
