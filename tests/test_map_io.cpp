#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "pathlab/io/map_files.hpp"
#include "pathlab/map_io.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("pathlab_test_" + name)).string();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("map_io: every terrain letter, CRLF, non-square") {
  const std::string text = "type octile\r\nheight 2\r\nwidth 5\r\nmap\r\n.G@OT\r\nSW..@\r\n";
  auto g = parse_movingai_map(text, "t.map");
  REQUIRE(g.ok());
  CHECK(g->width() == 5);
  CHECK(g->height() == 2);
  CHECK(g->is_free(0, 0));
  CHECK(g->is_free(1, 0));
  CHECK(g->is_blocked(2, 0));
  CHECK(g->is_blocked(3, 0));
  CHECK(g->is_blocked(4, 0));
  CHECK(g->cost(0, 1) == doctest::Approx(3.0));  // swamp: hog2's factor by default
  CHECK(g->is_blocked(1, 1));                    // water: another terrain class
  MapLoadOptions opt;
  opt.water_passable = true;
  opt.swamp_cost = 1.0f;
  auto g2 = parse_movingai_map(text, "t.map", opt);
  REQUIRE(g2.ok());
  CHECK(g2->is_free(1, 1));
  CHECK(g2->cost(0, 1) == 1.0f);
}

TEST_CASE("map_io: malformed maps name the file and line") {
  struct Case {
    std::string text, expect;
  };
  const Case cases[] = {
      {"type octile\nheight 2\nwidth 3\nmap\n...\n..\n", "t.map:6: row 1 has 2 characters, expected 3"},
      {"type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", "t.map:6: unknown terrain 'x' at column 2"},
      {"type octile\nheight 3\nwidth 3\nmap\n...\n...\n", "expected 3 map rows, found 2"},
      {"type octile\nheight two\nwidth 3\nmap\n", "t.map:2: height must be a positive integer"},
      {"type octile\nwidth 3\nmap\n...\n", "lacks 'width' or 'height'"},
      {"hello\n", "t.map:1: expected a header line"},
      {"", "no 'map' line"},
      {"type octile\nheight 1\nwidth 2\nmap\n..\n..\n", "t.map:6: extra text"},
      {"type octile\nheight 100000\nwidth 100000\nmap\n..\n", "too short to hold that map"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto g = parse_movingai_map(c.text, "t.map");
    REQUIRE_FALSE(g.ok());
    CHECK_MESSAGE(contains(g.error().message, c.expect), g.error().message);
  }
  auto missing = load_movingai_map("/nonexistent/dir/x.map");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == StatusCode::io_error);
  CHECK(contains(missing.error().message, "/nonexistent/dir/x.map"));
}

TEST_CASE("map_io: round trip through the Moving AI format") {
  Grid g = test::random_grid(17, 9, 0.3, 5);
  g.set_cost(3, 3, 3.0f);
  auto back = parse_movingai_map(format_movingai_map(g), "round.map");
  REQUIRE(back.ok());
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) CHECK(back->cost(x, y) == g.cost(x, y));
}

TEST_CASE("map_io: the shared benchmark maps load with their stated sizes") {
  struct Expect {
    const char* name;
    int w, h;
  };
  const Expect maps[] = {{"arena.map", 49, 49},        {"den520d.map", 256, 257},   {"Berlin_0_256.map", 256, 256},
                         {"arena2.map", 281, 209},     {"brc202d.map", 530, 481},   {"lak303d.map", 194, 194}};
  for (const auto& m : maps) {
    CAPTURE(m.name);
    auto g = load_movingai_map(test::movingai(m.name));
    REQUIRE(g.ok());
    CHECK(g->width() == m.w);
    CHECK(g->height() == m.h);
  }
}

TEST_CASE("map_io: scenarios in the 2011 and the current format") {
  auto old = load_scenarios(test::movingai("arena.map.scen"));
  REQUIRE(old.ok());
  CHECK(old->size() == 160);
  CHECK((*old)[0].map_name == "arena.map");
  CHECK((*old)[0].start == Cell{1, 11});
  CHECK((*old)[0].goal == Cell{1, 12});
  CHECK((*old)[0].optimal_length == 1.0);
  CHECK((*old)[0].line == 2);
  auto cur = load_scenarios(test::movingai("arena2.map.scen"));
  REQUIRE(cur.ok());
  CHECK(cur->size() == 910);
  CHECK((*cur)[0].map_name == "arena2.map");
  CHECK((*cur)[0].optimal_length == doctest::Approx(3.82842712).epsilon(1e-9));

  auto bad = parse_scenarios("version 1\n0\ta.map\t4\t4\t1\t1\t2\n", "bad.scen");
  REQUIRE_FALSE(bad.ok());
  CHECK(contains(bad.error().message, "bad.scen:2: expected 9 fields"));
  auto bad2 = parse_scenarios("version 1\n0\ta.map\t4\t4\t1\t-1\t2\t2\t1.5\n", "bad.scen");
  REQUIRE_FALSE(bad2.ok());
  CHECK(contains(bad2.error().message, "bad.scen:2: start_y"));
  auto bad3 = parse_scenarios("version 7\n", "bad.scen");
  REQUIRE_FALSE(bad3.ok());
  CHECK(contains(bad3.error().message, "bad.scen:1: unsupported scenario version"));
  auto bad4 = parse_scenarios("version 1\n0\ta.map\t4\t4\t1\t1\t2\t2\tnan\n", "bad.scen");
  REQUIRE_FALSE(bad4.ok());
}

TEST_CASE("map_io: PNG maps, dark is blocked") {
  const std::string path = temp_path("map.png");
  // 3x2 RGBA: black, white, dark grey / light grey, transparent black, red.
  const unsigned char px[] = {0,   0,   0,   255, 255, 255, 255, 255, 60, 60, 60, 255,
                              200, 200, 200, 255, 0,   0,   0,   0,   255, 0,  0,  255};
  REQUIRE(io::write_png_rgba(path, 3, 2, px).ok());
  auto g = io::load_map_file(path);
  REQUIRE(g.ok());
  CHECK(g->width() == 3);
  CHECK(g->height() == 2);
  CHECK(g->is_blocked(0, 0));
  CHECK(g->is_free(1, 0));
  CHECK(g->is_blocked(2, 0));
  CHECK(g->is_free(0, 1));
  CHECK(g->is_free(1, 1));     // fully transparent counts as free
  CHECK(g->is_blocked(2, 1));  // pure red: luminance 76 < 128

  Grid grid = test::random_grid(20, 11, 0.4, 9);
  REQUIRE(io::save_png_map(grid, path).ok());
  auto back = io::load_png_map(path);
  REQUIRE(back.ok());
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x) CHECK(back->is_free(x, y) == grid.is_free(x, y));
  std::remove(path.c_str());
}

TEST_CASE("map_io: broken PNG files give errors naming the file") {
  const std::string path = temp_path("broken.png");
  write_file(path, "\x89PNG\r\n\x1a\nthis is not really a png");
  auto g = io::load_map_file(path);
  REQUIRE_FALSE(g.ok());
  CHECK(g.error().code == StatusCode::parse_error);
  CHECK(contains(g.error().message, path));
  // A valid header claiming an absurd size is refused before decoding.
  const unsigned char header[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',  // signature
                                  0, 0, 0, 13, 'I', 'H', 'D', 'R',               // IHDR chunk
                                  0, 0x10, 0, 0, 0, 0x10, 0, 0,                   // 1048576 x 1048576
                                  8, 6, 0, 0, 0, 0, 0, 0, 0};                     // RGBA8, CRC
  const std::string huge(reinterpret_cast<const char*>(header), sizeof header);
  write_file(path, huge);
  auto h = io::load_map_file(path);
  REQUIRE_FALSE(h.ok());
  CHECK_MESSAGE(contains(h.error().message, path), h.error().message);
  std::remove(path.c_str());
  auto missing = io::load_map_file("/nonexistent/map.png");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == StatusCode::io_error);
}

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void put_be32(std::string& s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + static_cast<size_t>(i)] = static_cast<char>((v >> (24 - 8 * i)) & 0xFF);
}

/// A valid 4x3 PNG written by stb, as bytes.
std::string small_png() {
  const std::string path = temp_path("small.png");
  std::vector<unsigned char> px(4 * 3 * 4, 255);
  REQUIRE(io::write_png_rgba(path, 4, 3, px.data()).ok());
  std::string bytes = read_file(path);
  std::remove(path.c_str());
  return bytes;
}

size_t chunk_offset(const std::string& png, const char* type) {
  const size_t at = png.find(type);
  REQUIRE(at != std::string::npos);
  return at - 4;
}

}  // namespace

// Issue 17: a PNG whose IDAT declared 2 GiB made stb reallocate 2 GiB; an unknown critical
// chunk type put raw file bytes (a newline, control bytes) into the error message.
TEST_CASE("map_io: PNG chunk lengths are checked against the file before decoding") {
  const std::string good = small_png();
  const std::string path = temp_path("lying.png");
  write_file(path, good);
  REQUIRE(io::load_png_map(path).ok());
  for (const uint32_t lie : {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 1000u}) {
    std::string bad = good;
    put_be32(bad, chunk_offset(bad, "IDAT"), lie);
    write_file(path, bad);
    auto g = io::load_png_map(path);
    REQUIRE_FALSE(g.ok());
    CHECK_MESSAGE(contains(g.error().message, path + ": PNG chunk "), g.error().message);
    CHECK_MESSAGE(contains(g.error().message, "('IDAT')"), g.error().message);
    CHECK_MESSAGE(contains(g.error().message, "declares " + std::to_string(lie) + " bytes"), g.error().message);
  }
  // Truncated after IDAT (no IEND) and no signature at all (stb would decode other formats).
  write_file(path, good.substr(0, chunk_offset(good, "IEND")));
  auto cut = io::load_png_map(path);
  REQUIRE_FALSE(cut.ok());
  CHECK_MESSAGE(contains(cut.error().message, "truncated file"), cut.error().message);
  write_file(path, "BM" + good);
  auto sig = io::load_png_map(path);
  REQUIRE_FALSE(sig.ok());
  CHECK_MESSAGE(contains(sig.error().message, "no PNG signature"), sig.error().message);
  std::remove(path.c_str());
}

TEST_CASE("map_io: PNG errors are one printable line") {
  const std::string good = small_png();
  // An unknown critical chunk (upper-case first letter) whose type holds a newline and a
  // control byte, inserted before IDAT: stb quotes the type in its reason.
  std::string chunk("\0\0\0\0A\n\x01z\0\0\0\0", 12);
  std::string bad = good;
  bad.insert(chunk_offset(bad, "IDAT"), chunk);
  const std::string path = temp_path("control.png");
  write_file(path, bad);
  auto g = io::load_png_map(path);
  REQUIRE_FALSE(g.ok());
  const std::string& m = g.error().message;
  CHECK_MESSAGE(contains(m, path), m);
  for (const char c : m) CHECK_MESSAGE((c >= 32 && c < 127), m);
  std::remove(path.c_str());
}

// Found by fuzz_movingai_map / fuzz_scenarios (issue 17): tokens from the file were quoted raw,
// so a control byte or a newline-free binary field reached the one-line error message.
TEST_CASE("map_io: tokens quoted in errors are printable and short") {
  auto m = parse_movingai_map("ty\x01\x01pe octile\nheight 2\nwidth 2\nmap\n..\n..\n", "ctrl.map");
  REQUIRE_FALSE(m.ok());
  CHECK_MESSAGE(contains(m.error().message, "ctrl.map:1: unknown header field 'ty\\x01\\x01pe'"), m.error().message);
  auto s = parse_scenarios("version 1\n0\ta.map\t4\t4\t1\t1\t2\t\xD0\xB0\t1\n", "ctrl.scen");
  REQUIRE_FALSE(s.ok());
  CHECK_MESSAGE(contains(s.error().message, "'\\xD0\\xB0'"), s.error().message);
  auto h = parse_movingai_map("type octile\nheight " + std::string(5000, '9') + "\nwidth 2\nmap\n", "long.map");
  REQUIRE_FALSE(h.ok());
  CHECK(h.error().message.size() < 200);
  for (const auto* msg : {&m.error().message, &s.error().message, &h.error().message})
    for (const char c : *msg) CHECK((c >= 32 && c < 127));
}
