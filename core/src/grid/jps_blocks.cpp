// The passability bits JPS's block-based jumping scans (jps_blocks.hpp): one pass over the
// padded grid builds the row-major and the transposed copy; an edit sets single bits.

#include <cstring>

#include "grid/grid_search_internal.hpp"

namespace pathlab::detail {

namespace {

/// Bits i of the result = bytes i of `v` (each 0 or 1): one multiply moves byte i's low bit to
/// bit 56 + i, with no carries between them.
uint64_t pack_bytes(uint64_t v) { return (v * 0x0102040810204080ull) >> 56; }

/// Transposes a 64x64 bit matrix in place: bit j of a[i] and bit i of a[j] trade places (the
/// block-swap transposition of Warren, "Hacker's Delight", 2012, 7-3, widened to 64 bits).
void transpose64(uint64_t* a) {
  uint64_t m = 0x00000000FFFFFFFFull;
  for (int j = 32; j != 0; j >>= 1, m ^= (m << j)) {
    for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
      const uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
      a[k] ^= t << j;
      a[k | j] ^= t;
    }
  }
}

}  // namespace

void PassBits::build(const PaddedGrid& pg) {
  row_words = (pg.pw + 63) / 64;
  col_words = (pg.ph + 63) / 64;
  rows.assign(static_cast<size_t>(pg.ph) * static_cast<size_t>(row_words), 0);
  cols.assign(static_cast<size_t>(pg.pw) * static_cast<size_t>(col_words), 0);
  const uint8_t* pass = pg.pass.data();
  // Rows: eight cells a multiply. Rows 0 and ph - 1 (padding) stay 0; a row's last group may
  // read into the next row (which exists), masked off below.
  for (int y = 1; y < pg.ph - 1; ++y) {
    uint64_t* row = rows.data() + static_cast<size_t>(y) * static_cast<size_t>(row_words);
    const uint8_t* src = pass + static_cast<size_t>(y) * static_cast<size_t>(pg.pw);
    for (int x = 0; x < pg.pw; x += 8) {
      uint64_t v;
      std::memcpy(&v, src + x, 8);
      row[x >> 6] |= pack_bytes(v) << (x & 63);
    }
    if (pg.pw & 63) row[row_words - 1] &= (uint64_t{1} << (pg.pw & 63)) - 1;
  }
  // Columns: the row bits transposed 64x64 at a time.
  uint64_t block[64];
  for (int by = 0; by < col_words; ++by) {
    for (int bx = 0; bx < row_words; ++bx) {
      for (int i = 0; i < 64; ++i) {
        const int y = (by << 6) + i;
        block[i] = y < pg.ph ? rows[static_cast<size_t>(y) * static_cast<size_t>(row_words) + static_cast<size_t>(bx)] : 0;
      }
      transpose64(block);
      for (int i = 0; i < 64; ++i) {
        const int x = (bx << 6) + i;
        if (x < pg.pw) cols[static_cast<size_t>(x) * static_cast<size_t>(col_words) + static_cast<size_t>(by)] = block[i];
      }
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
