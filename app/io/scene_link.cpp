#include "pathlab/io/scene_link.hpp"

#include <stb_image.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "pathlab/io/json_guard.hpp"

// stb_image_write.h declares stbi_zlib_compress only in its implementation section; Debian's
// libstb exports it (the PNG writer's deflate) with C linkage, so it is declared here as the
// library defines it. The result is malloc'ed (STBIW_MALLOC) and freed with free().
extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int data_len, int* out_len, int quality);

namespace pathlab::io {
namespace {

/// stb's deflate: how many earlier positions per hash bucket it keeps to find matches.
/// Measured on bench512.json (267,093 bytes): 8 -> 12,247 bytes, 16 -> 11,947, 32 -> 11,893,
/// 128 -> 11,544 at about twice 32's time (~50 ms on a busy machine); small scenes are the same
/// from 8 up. The JSON stays as save_scene writes it (one key per line): compact JSON saves 1%
/// on bench512 and would put every error of a decoded link on line 1.
constexpr int kDeflateQuality = 32;
/// The first decompression buffer; it grows (x4) up to kMaxLinkJsonBytes when stb says full.
constexpr size_t kFirstInflateBytes = size_t{64} << 10;

constexpr char kBase64Url[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string base64url_encode(const unsigned char* data, size_t size) {
  std::string out;
  out.reserve((size + 2) / 3 * 4);
  for (size_t i = 0; i < size; i += 3) {
    const size_t n = std::min<size_t>(3, size - i);
    uint32_t v = uint32_t{data[i]} << 16;
    if (n > 1) v |= uint32_t{data[i + 1]} << 8;
    if (n > 2) v |= data[i + 2];
    for (size_t k = 0; k < n + 1; ++k) out += kBase64Url[(v >> (18 - 6 * k)) & 63];
  }
  return out;
}

/// The 6-bit value of a base64url character, or -1.
int base64url_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

/// Decodes base64url; '=' padding at the end is accepted (some tools add it).
Result<std::string> base64url_decode(std::string_view text, const std::string& key) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.empty()) return fail(StatusCode::parse_error, "link: " + key + " is empty");
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  uint32_t bits = 0;
  int count = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const int v = base64url_value(text[i]);
    if (v < 0)
      return fail(StatusCode::parse_error, "link: " + key + ": character '" + printable_text(text.substr(i, 1)) + "' at " +
                                               std::to_string(i + 1) + " is not base64url (A-Z a-z 0-9 - _)");
    bits = (bits << 6) | static_cast<uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xFF);
    }
  }
  // Checked after the characters: a mistyped character is the more useful message.
  if (text.size() % 4 == 1)
    return fail(StatusCode::parse_error, "link: " + key + ": " + std::to_string(text.size()) +
                                             " characters cannot be base64url (cut short?)");
  return out;
}

/// RFC 1950's Adler-32 of `data`.
uint32_t adler32(std::string_view data) {
  constexpr uint32_t kMod = 65521;
  uint32_t a = 1, b = 0;
  for (const char c : data) {
    a = (a + static_cast<unsigned char>(c)) % kMod;
    b = (b + a) % kMod;
  }
  return (b << 16) | a;
}

/// The zlib stream's trailer: the Adler-32 of what it holds, big-endian, its last 4 bytes.
uint32_t stream_adler(std::string_view z) {
  uint32_t v = 0;
  for (size_t i = z.size() - 4; i < z.size(); ++i) v = (v << 8) | static_cast<unsigned char>(z[i]);
  return v;
}

/// Sets stb's (thread-local) failure reason to "bad zlib header" by decoding nothing: some of
/// its decoder's failures (a reserved block type) return without setting a reason, and a stale
/// "output buffer limit" from an earlier call must not read as "the buffer is full".
void reset_stb_failure_reason() {
  char none = 0;
  (void)stbi_zlib_decode_buffer(&none, 1, &none, 0);
}

/// Decompresses a zlib stream into a buffer that starts small and never grows past
/// kMaxLinkJsonBytes: stb's fixed-buffer decoder stops with "output buffer limit" when the
/// stream holds more, so a few kilobytes that expand to gigabytes cost at most that much.
Result<std::string> inflate_capped(const std::string& z, const std::string& key) {
  if (z.size() < 6)
    return fail(StatusCode::parse_error, "link: " + key + ": " + std::to_string(z.size()) +
                                             " bytes are too few for a zlib stream (cut short?)");
  size_t cap = std::min(kMaxLinkJsonBytes, std::max(kFirstInflateBytes, z.size() * 8));
  std::string out;
  for (;;) {
    out = std::string();  // freed first, then allocated at exactly `cap` (a resize could double past it)
    out.resize(cap);
    reset_stb_failure_reason();
    const int n = stbi_zlib_decode_buffer(out.data(), static_cast<int>(cap), z.data(), static_cast<int>(z.size()));
    if (n >= 0) {
      out.resize(static_cast<size_t>(n));
      break;
    }
    const char* why = stbi_failure_reason();
    if (!why || std::strcmp(why, "output buffer limit") != 0)
      return fail(StatusCode::parse_error, "link: " + key + ": the compressed data is damaged (zlib: " +
                                               std::string(why ? why : "unknown error") + "; cut short or mistyped?)");
    if (cap >= kMaxLinkJsonBytes)
      return fail(StatusCode::too_large, "link: " + key + ": decompresses to more than " +
                                             std::to_string(kMaxLinkJsonBytes >> 20) + " MiB (the most a link may hold)");
    cap = std::min(kMaxLinkJsonBytes, cap * 4);
  }
  if (adler32(out) != stream_adler(z))
    return fail(StatusCode::parse_error, "link: " + key + ": the compressed data is damaged (checksum mismatch; cut short?)");
  // An empty text is no scene and no lesson; refused here because stb's compressor cannot write
  // it back (for no data it writes a header and a checksum but no block, which its own decoder
  // calls corrupt), so such a link could not be shared on again. Found by fuzz_scene_link.
  if (out.empty()) return fail(StatusCode::parse_error, "link: " + key + ": holds nothing (its compressed data is empty)");
  return out;
}

/// A step number: digits only, 1..kMaxLinkStep.
Result<int> parse_step(std::string_view text) {
  int step = 0;
  bool digits = !text.empty() && text.size() <= 6;
  for (const char c : text) {
    if (c < '0' || c > '9') digits = false;
    else if (digits) step = step * 10 + (c - '0');
  }
  if (!digits || step < 1 || step > kMaxLinkStep)
    return fail(StatusCode::parse_error, "link: step '" + printable_text(text, 20) + "' must be a step number from 1 to " +
                                             std::to_string(kMaxLinkStep));
  return step;
}

/// The fragment of a link: after the first '#', else the whole text; spaces and line breaks
/// around it (a copy from a chat message) are dropped.
std::string_view fragment_of(std::string_view text) {
  if (const size_t hash = text.find('#'); hash != std::string_view::npos) text.remove_prefix(hash + 1);
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

/// The fragment's KEY=VALUE parts: "scene" or "lesson" (the payload), "step".
struct LinkParts {
  std::string_view payload;
  std::string kind;  ///< "scene" or "lesson"
  std::string_view step;
  bool has_step = false;
};

Result<LinkParts> split_link(std::string_view fragment) {
  constexpr const char* kExpected = " (a link's fragment is scene=... or lesson=...&step=N)";
  if (fragment.empty()) return fail(StatusCode::parse_error, std::string("link: nothing after the '#'") + kExpected);
  LinkParts parts;
  while (!fragment.empty()) {
    const size_t amp = std::min(fragment.find('&'), fragment.size());
    const std::string_view part = fragment.substr(0, amp);
    fragment.remove_prefix(std::min(amp + 1, fragment.size()));
    if (part.empty()) continue;  // "a&&b", a trailing '&'
    const size_t eq = part.find('=');
    if (eq == std::string_view::npos)
      return fail(StatusCode::parse_error, "link: '" + printable_text(part, 40) + "' is not KEY=VALUE" + kExpected);
    const std::string key(part.substr(0, eq));
    const std::string_view value = part.substr(eq + 1);
    if (key == "scene" || key == "lesson") {
      if (!parts.kind.empty())
        return fail(StatusCode::parse_error, "link: " + (parts.kind == key ? "'" + key + "' is given twice"
                                                                           : std::string("holds both scene and lesson")));
      parts.kind = key;
      parts.payload = value;
    } else if (key == "step") {
      if (parts.has_step) return fail(StatusCode::parse_error, "link: 'step' is given twice");
      parts.has_step = true;
      parts.step = value;
    } else {
      return fail(StatusCode::parse_error, "link: unknown key '" + printable_text(key, 40) + "' (scene, lesson, step)");
    }
  }
  if (parts.kind.empty()) return fail(StatusCode::parse_error, std::string("link: holds no scene and no lesson") + kExpected);
  if (parts.kind == "scene" && parts.has_step)
    return fail(StatusCode::parse_error, "link: 'step' belongs to lesson links, not to a scene");
  return parts;
}

}  // namespace

std::string encode_link(LinkKind kind, std::string_view json, int step) {
  int zlen = 0;
  std::vector<unsigned char> bytes(json.begin(), json.end());
  std::unique_ptr<unsigned char, decltype(&std::free)> z(
      stbi_zlib_compress(bytes.data(), static_cast<int>(bytes.size()), &zlen, kDeflateQuality), &std::free);
  const std::string payload = z ? base64url_encode(z.get(), static_cast<size_t>(zlen)) : std::string();
  if (kind == LinkKind::scene) return "scene=" + payload;
  return "lesson=" + payload + "&step=" + std::to_string(step);
}

std::string scene_link(const Scene& scene) { return encode_link(LinkKind::scene, scene_to_json(scene)); }

Result<std::string> lesson_link(const Lesson& lesson, int step) {
  if (step < 1 || step > static_cast<int>(lesson.steps.size()))
    return fail(StatusCode::invalid_argument, "step " + std::to_string(step) + " is not in the lesson (it has " +
                                                  std::to_string(lesson.steps.size()) + " steps, from 1)");
  for (size_t i = 0; i < lesson.steps.size(); ++i) {
    if (!lesson.steps[i].scene.empty())
      return fail(StatusCode::unsupported, "steps[" + std::to_string(i) + "] (step " + std::to_string(i + 1) +
                                               ") names the scene file '" + lesson.steps[i].scene +
                                               "': a link carries no files, only gallery presets");
  }
  return encode_link(LinkKind::lesson, lesson_to_json(lesson), step);
}

std::string link_url(std::string_view base, std::string_view fragment) {
  base = base.substr(0, std::min(base.find('#'), base.size()));
  return std::string(base) + "#" + std::string(fragment);
}

Result<LinkPayload> decode_link(std::string_view text) {
  if (text.size() > kMaxLinkChars)
    return fail(StatusCode::too_large, "link: " + std::to_string(text.size()) + " characters; a link may have at most " +
                                           std::to_string(kMaxLinkChars));
  auto parts = split_link(fragment_of(text));
  if (!parts) return parts.error();
  LinkPayload link;
  link.kind = parts->kind == "scene" ? LinkKind::scene : LinkKind::lesson;
  if (parts->has_step) {
    auto step = parse_step(parts->step);
    if (!step) return step.error();
    link.step = *step;
  }
  auto z = base64url_decode(parts->payload, parts->kind);
  if (!z) return z.error();
  auto json = inflate_capped(*z, parts->kind);
  if (!json) return json.error();
  link.json = std::move(*json);
  return link;
}

Result<Scene> read_link_scene(const LinkPayload& link, const SceneReadOptions& options) {
  if (link.kind != LinkKind::scene) return fail(StatusCode::parse_error, "link: holds a lesson, not a scene");
  SceneReadOptions no_files = options;
  no_files.allow_map_file = false;
  return parse_scene(link.json, "link", "", no_files);
}

Result<Lesson> read_link_lesson(const LinkPayload& link, const LessonReadOptions& options) {
  if (link.kind != LinkKind::lesson) return fail(StatusCode::parse_error, "link: holds a scene, not a lesson");
  auto lesson = parse_lesson(link.json, "link", options);
  if (!lesson) return lesson;
  for (size_t i = 0; i < lesson->steps.size(); ++i) {
    if (!lesson->steps[i].scene.empty())
      return fail(StatusCode::parse_error, "link: steps[" + std::to_string(i) +
                                               "].scene: a link carries no files, only gallery presets");
  }
  if (link.step > static_cast<int>(lesson->steps.size()))
    return fail(StatusCode::parse_error, "link: step " + std::to_string(link.step) + " is past the lesson's end (" +
                                             std::to_string(lesson->steps.size()) + " steps)");
  return lesson;
}

}  // namespace pathlab::io
