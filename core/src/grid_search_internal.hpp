#pragma once
// Internal: the padded grid and search buffers shared by the grid planners.

#include <cstdint>
#include <vector>

#include "pathlab/grid_search.hpp"

namespace pathlab::detail {

/// A grid with a one-cell blocked border, so neighbour lookups need no bounds checks.
/// Node ids are (y + 1) * pw + (x + 1).
struct PaddedGrid {
  int w = 0, h = 0;    // the real grid's size
  int pw = 0, ph = 0;  // padded size
  double radius = -1;  // agent radius the passable flags were built for
  bool uniform = true;
  std::vector<uint8_t> pass;  // 1 = passable for the agent
  std::vector<float> cost;    // cost multiplier (1 outside)

  int id(Cell c) const { return (c.y + 1) * pw + (c.x + 1); }
  Cell cell(int id) const { return Cell{id % pw - 1, id / pw - 1}; }
};

/// Bit rows (and columns) of the passable flags, for block-based JPS scans.
/// Bit (i + 64) of line k is passable(i) on that line, so scans may read 64 bits to either side.
struct BitLines {
  int lines = 0, words = 0;
  std::vector<uint64_t> bits;
  void build(const PaddedGrid& g, bool transpose);
  const uint64_t* line(int k) const { return bits.data() + static_cast<size_t>(k) * static_cast<size_t>(words); }
};

struct HeapEntry {
  double f;
  double g;
  int32_t node;
};

/// Binary min-heap on (f, larger g first, smaller node id): a fixed, deterministic order.
class OpenList {
 public:
  void clear() { heap_.clear(); }
  bool empty() const { return heap_.empty(); }
  void push(HeapEntry e);
  HeapEntry pop();

 private:
  static bool before(const HeapEntry& a, const HeapEntry& b) {
    if (a.f != b.f) return a.f < b.f;
    if (a.g != b.g) return a.g > b.g;
    return a.node < b.node;
  }
  std::vector<HeapEntry> heap_;
};

}  // namespace pathlab::detail

namespace pathlab {

/// Buffers reused across queries. Entries are valid only when their stamp equals the current search id.
class GridSearchWorkspace {
 public:
  const Grid* grid = nullptr;
  detail::PaddedGrid pg;
  detail::BitLines rows, cols;  // built on first JPS query
  bool bits_ready = false;

  uint32_t search_id = 0;
  std::vector<uint32_t> seen;    // stamp: g/parent valid
  std::vector<uint32_t> closed;  // stamp: expanded
  std::vector<double> g;
  std::vector<int32_t> parent;
  detail::OpenList open;

  void prepare(double radius);
  void begin_search(size_t states);
};

}  // namespace pathlab
