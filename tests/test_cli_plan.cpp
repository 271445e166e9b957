// `pathlab-cli plan` through the planning service: bad queries fail before any preprocessing
// (issue 17), and scenes naming an unknown planner are rejected naming the key (issue 14).

#include <array>
#include <cstdint>
#include <string>

#include "cli_support.hpp"

using namespace pathlab::test;

namespace {

/// CRC-32 (the PNG and zlib polynomial, ISO 3309).
uint32_t crc32(const std::string& bytes) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put_be32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xFF));
}

/// Writes bits least significant first, as deflate does (RFC 1951, 3.1.1).
struct BitWriter {
  std::string bytes;
  uint32_t acc = 0;
  int count = 0;
  void put(uint32_t value, int bits) {
    for (int i = 0; i < bits; ++i) {
      acc |= ((value >> i) & 1u) << count;
      if (++count == 8) {
        bytes.push_back(static_cast<char>(acc));
        acc = 0;
        count = 0;
      }
    }
  }
  /// Huffman codes go most significant bit first.
  void code(uint32_t value, int bits) {
    for (int i = bits - 1; i >= 0; --i) put((value >> i) & 1u, 1);
  }
  void flush() {
    if (count > 0) bytes.push_back(static_cast<char>(acc));
    acc = 0;
    count = 0;
  }
};

/// A zlib stream of `n` zero bytes: one fixed-Huffman deflate block of a literal 0 and then
/// copies of length 258 at distance 1, so a 64 MiB image compresses to about 400 KB.
std::string zlib_zeros(uint64_t n) {
  BitWriter w;
  w.put(1, 1);     // BFINAL
  w.put(1, 2);     // BTYPE 01: fixed Huffman codes
  w.code(0x30, 8); // literal 0
  uint64_t left = n - 1;
  for (; left >= 258; left -= 258) {
    w.code(0xC5, 8);  // length code 285 (258)
    w.code(0, 5);     // distance code 0 (1)
  }
  for (; left > 0; --left) w.code(0x30, 8);
  w.code(0, 7);  // end of block
  w.flush();
  std::string out = "\x78\x01";
  out += w.bytes;
  const uint32_t adler = (static_cast<uint32_t>(n % 65521u) << 16) | 1u;  // every byte 0: a = 1, b = n
  put_be32(out, adler);
  return out;
}

void put_chunk(std::string& png, const char* type, const std::string& data) {
  put_be32(png, static_cast<uint32_t>(data.size()));
  const std::string body = std::string(type) + data;
  png += body;
  put_be32(png, crc32(body));
}

/// An 8-bit greyscale PNG of black pixels: every cell a wall.
std::string black_png(uint32_t width, uint32_t height) {
  std::string png = "\x89PNG\r\n\x1a\n";
  std::string header;
  put_be32(header, width);
  put_be32(header, height);
  header += std::string("\x08\x00\x00\x00\x00", 5);  // 8-bit grey, no interlace
  put_chunk(png, "IHDR", header);
  put_chunk(png, "IDAT", zlib_zeros(static_cast<uint64_t>(height) * (width + 1)));  // filter byte 0 per row
  put_chunk(png, "IEND", "");
  return png;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

}  // namespace

TEST_CASE("cli plan: a start inside the walls of a huge all-black PNG fails before the navmesh is built") {
  // Issue 17: the navmesh of this 16384x4096 map took 33 s and 1.6 GB before saying the start
  // is in a wall. Now the start is checked first: the same message, and the memory of the map
  // itself only. The memory cap (1 GB of address space) makes "before" fail with bad_alloc;
  // sanitizer builds reserve far more address space, so they run uncapped.
  const std::string path = write_temp("black_16384x4096.png", black_png(16384, 4096));
  const std::string cap = kSanitized ? "" : "ulimit -v 1000000; ";
  for (const char* planner : {"navmesh", "astar", "hybrid --radius 2"}) {
    CAPTURE(planner);
    const std::string to = std::string(planner) == "hybrid --radius 2" ? " --from 10,10,0 --to 100,100,0" : " --from 10,10 --to 100,100";
    // run_cli puts the CLI path first; the cap needs the shell before it, so run sh here.
    const std::string cmd = cap + std::string(PATHLAB_CLI) + " plan --map " + path + to + " --planner " + planner;
    FILE* p = popen(("sh -c '" + cmd + "' 2>&1").c_str(), "r");
    REQUIRE(p != nullptr);
    std::string out;
    char buf[512];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = pclose(p);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    if (std::string(planner) == "navmesh") CHECK(out == "error: start (10.000000,10.000000) is inside a wall\n");
    else if (std::string(planner) == "astar") CHECK(out == "error: start cell (10,10) is inside a wall\n");
    else CHECK(out == "error: start (10, 10, 0 deg): the unit's disc overlaps a wall\n");
  }
  std::filesystem::remove(path);
}

TEST_CASE("cli plan: a scene naming an unknown planner or smoother is rejected naming the key") {
  const std::string rows = R"("map": {"width": 4, "height": 3, "rows": ["....", "....", "...."]},
    "start": [0.5, 0.5, 0], "goal": [3.5, 2.5, 0])";
  const std::string bad_planner = write_temp("warp_planner.json", "{\"pathlab_scene\": 2, " + rows +
                                                                      ", \"settings\": {\"planner\": \"warp-drive\"}}");
  check_usage_error("plan --map " + bad_planner, "settings.planner: unknown planner 'warp-drive'");
  const std::string bad_smoother = write_temp("warp_smoother.json", "{\"pathlab_scene\": 2, " + rows +
                                                                        ", \"settings\": {\"smoother\": \"butter\"}}");
  check_usage_error("plan --map " + bad_smoother, "settings.smoother: unknown smoother 'butter'");
  const std::string good = write_temp("good_planner.json", "{\"pathlab_scene\": 2, " + rows +
                                                               ", \"settings\": {\"planner\": \"theta\"}}");
  const CliRun r = run_cli("plan --map " + good + " --json");
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(r.out)["found"] == true);
}
