#pragma once
/// @file scene_link.hpp
/// Scene links (issue 29, "A link is a scene"): a scene, or one step of a lesson, carried in a
/// URL's fragment so that a teacher shares a lesson and a designer shares a bug as a link.
///
/// Format: `scene=<payload>` or `lesson=<payload>&step=N`, after the '#' of a URL
/// (`index.html#scene=eJy...`). The payload is base64url (RFC 4648 section 5, no padding) of the
/// zlib stream (RFC 1950) of the JSON text a scene file or a lesson file holds; `step` counts
/// from 1, as the sandbox shows it ("2 / 5"). A link carries everything it needs and reads no
/// file: a scene's map is written into it (never "map.file"), and a lesson's steps may name
/// gallery presets only (never a "scene" file).
///
/// Decoding is hardened against hostile links: the text is at most kMaxLinkChars, the payload
/// is decompressed into a buffer that never grows past kMaxLinkJsonBytes (a "zip bomb" of a few
/// kilobytes is refused without allocating more), the zlib stream's Adler-32 checksum must
/// match (a link cut short in a chat message is caught here), and the JSON then goes through
/// the ordinary scene or lesson reader (json_guard's depth and number checks, every key).
/// Every error begins with "link" and says what is wrong: "link: scene: character '%' at 17 is
/// not base64url", "link:12: settings.planner ...".
///
/// Compression is stb's (Sean Barrett, stb_image_write.h's stbi_zlib_compress and stb_image.h's
/// stbi_zlib_decode_buffer, as Debian's libstb ships them).

#include <cstddef>
#include <string>
#include <string_view>

#include "pathlab/io/lesson_file.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/status.hpp"

namespace pathlab::io {

/// Longest link text decode_link reads (URL and all); longer is refused before any work.
/// [Units: bytes]
inline constexpr size_t kMaxLinkChars = size_t{4} << 20;
/// Largest JSON text a link may decompress to; the decompression buffer never grows past it.
/// [Units: bytes]
inline constexpr size_t kMaxLinkJsonBytes = size_t{8} << 20;
/// Largest step number a lesson link may carry (a lesson has at most kMaxLessonSteps).
inline constexpr int kMaxLinkStep = static_cast<int>(kMaxLessonSteps);

/// What a link holds.
enum class LinkKind { scene, lesson };

/// A decoded link: the JSON text it carries, not yet read as a scene or a lesson.
struct LinkPayload {
  LinkKind kind = LinkKind::scene;
  std::string json;  ///< the scene's or the lesson's JSON text
  int step = 1;      ///< lesson links: the step to show [Limit: 1..kMaxLinkStep]
};

/// The fragment (no '#') that carries `json`: "scene=..." or "lesson=...&step=N". `json` is
/// not checked here (scene_link and lesson_link check what they write).
std::string encode_link(LinkKind kind, std::string_view json, int step = 1);

/// The fragment of a scene: its JSON as save_scene writes it (the map written in).
std::string scene_link(const Scene& scene);

/// The fragment of step `step` (from 1) of a lesson. Errors name the step that names a scene
/// file (a link carries no files: only gallery presets) or a step out of range.
Result<std::string> lesson_link(const Lesson& lesson, int step);

/// `base` + "#" + `fragment` (any fragment `base` had is replaced).
std::string link_url(std::string_view base, std::string_view fragment);

/// Splits a link (a whole URL, or just its fragment, with or without the '#') into what it
/// carries, decompressed but not yet read. Errors begin with "link" and say what is wrong: an
/// unknown or repeated key, a bad step, a character that is not base64url, a damaged or
/// truncated zlib stream, one that holds nothing, a scene larger than kMaxLinkJsonBytes.
Result<LinkPayload> decode_link(std::string_view text);

/// Reads a scene link's JSON as a scene (the scene reader with `options`; "map.file" is
/// refused). Errors read "link:LINE: KEY what is wrong" or "link: what is wrong".
Result<Scene> read_link_scene(const LinkPayload& link, const SceneReadOptions& options = {});

/// Reads a lesson link's JSON as a lesson; its step must exist and every step must name a
/// preset. Errors read "link:LINE: KEY what is wrong" or "link: what is wrong".
Result<Lesson> read_link_lesson(const LinkPayload& link, const LessonReadOptions& options = {});

}  // namespace pathlab::io
