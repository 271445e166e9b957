// The passability bits JPS's block-based jumping scans (jps_blocks.hpp): one pass over the
// padded grid builds the row-major and the transposed copy; an edit sets single bits.

#include "grid/grid_search_internal.hpp"

namespace pathlab::detail {

void PassBits::build(const PaddedGrid& pg) {
  row_words = (pg.pw + 63) / 64;
  col_words = (pg.ph + 63) / 64;
  rows.assign(static_cast<size_t>(pg.ph) * static_cast<size_t>(row_words), 0);
  cols.assign(static_cast<size_t>(pg.pw) * static_cast<size_t>(col_words), 0);
  const uint8_t* pass = pg.pass.data();
  for (int y = 1; y < pg.ph - 1; ++y) {  // the padding rows and columns stay blocked (0)
    uint64_t* row = rows.data() + static_cast<size_t>(y) * static_cast<size_t>(row_words);
    const uint64_t col_bit = uint64_t{1} << (y & 63);
    const size_t col_word = static_cast<size_t>(y >> 6);
    for (int x = 1; x < pg.pw - 1; ++x) {
      if (pass[y * pg.pw + x] == 0) continue;
      row[x >> 6] |= uint64_t{1} << (x & 63);
      cols[static_cast<size_t>(x) * static_cast<size_t>(col_words) + col_word] |= col_bit;
    }
  }
}

void PassBits::set(const PaddedGrid& pg, int id) {
  const int y = pg.row(id), x = id - y * pg.pw;
  const bool on = pg.pass[static_cast<size_t>(id)] != 0;
  auto put = [on](uint64_t& word, int bit) {
    const uint64_t m = uint64_t{1} << bit;
    word = on ? (word | m) : (word & ~m);
  };
  put(rows[static_cast<size_t>(y) * static_cast<size_t>(row_words) + static_cast<size_t>(x >> 6)], x & 63);
  put(cols[static_cast<size_t>(x) * static_cast<size_t>(col_words) + static_cast<size_t>(y >> 6)], y & 63);
}

}  // namespace pathlab::detail
