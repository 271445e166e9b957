#pragma once
// Internal: the open list of the library's A* searches (grid, JPS, Theta*, navmesh).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pathlab::detail {

__extension__ typedef unsigned __int128 HeapKey;

/// An open-list entry packed into one 128-bit key that sorts by (f, larger g first, node id):
/// the high half is f's bit pattern (non-negative doubles order like their bits), the low
/// half the complemented bits of g as a float (g only breaks ties, so float precision is
/// enough) and the node id. One integer comparison, no data-dependent branches.
struct HeapEntry {
  HeapKey key;
  HeapEntry() = default;
  HeapEntry(double f_, double g_, int32_t node_) {
    const uint64_t fb = std::bit_cast<uint64_t>(f_ + 0.0);  // + 0.0 turns -0.0 into +0.0
    const uint32_t gb = ~std::bit_cast<uint32_t>(static_cast<float>(g_) + 0.0f);
    key = (static_cast<HeapKey>(fb) << 64) | (static_cast<HeapKey>(gb) << 32) | static_cast<uint32_t>(node_);
  }
  double f() const { return std::bit_cast<double>(static_cast<uint64_t>(key >> 64)); }
  int32_t node() const { return static_cast<int32_t>(static_cast<uint32_t>(key)); }
};

/// kArity-ary min-heap of HeapEntry: a fixed, deterministic order (keys are unique, so any
/// heap shape pops them in the same sequence). Four children per slot halve the depth of a
/// binary heap (half the dependent loads and slot writes per pop and per sift-up), which pays
/// for A*, Dijkstra and JPS; Theta*, with its many reopened nodes, runs faster on a binary heap.
/// Indexed: each node is in it at most once and its slot is kept in `pos[node]`, so an
/// improved node moves up instead of leaving a stale copy behind (fewer, cheaper pops).
template <size_t kArity>
class BasicOpenList {
 public:
  void bind(int32_t* pos) { pos_ = pos; }
  void clear() { heap_.clear(); }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  /// Inserts a node that is not in the list.
  void push(HeapEntry e) {
    heap_.push_back(e);
    sift_up(heap_.size() - 1, e);
  }
  /// Lowers the key of a node that is in the list (pushes it if it is not in the heap).
  void decrease(HeapEntry e) {
    const int32_t i = pos_[e.node()];
    if (i < 0) return push(e);
    sift_up(static_cast<size_t>(i), e);
  }
  HeapEntry pop();  // defined in open_list.cpp for kArity 2 and 4

 private:
  static bool before(const HeapEntry& a, const HeapEntry& b) { return a.key < b.key; }
  void place(size_t i, const HeapEntry& e) {
    heap_[i] = e;
    pos_[e.node()] = static_cast<int32_t>(i);
  }
  void sift_up(size_t i, const HeapEntry& e) {
    while (i > 0) {
      const size_t p = (i - 1) / kArity;
      if (!before(e, heap_[p])) break;
      place(i, heap_[p]);
      i = p;
    }
    place(i, e);
  }
  std::vector<HeapEntry> heap_;
  int32_t* pos_ = nullptr;
};

extern template class BasicOpenList<2>;
extern template class BasicOpenList<4>;
using OpenList = BasicOpenList<4>;

}  // namespace pathlab::detail
