#include "base/open_list.hpp"

namespace pathlab::detail {

template <size_t kArity>
HeapEntry BasicOpenList<kArity>::pop() {
  HeapEntry* h = heap_.data();
  const HeapEntry top = h[0];
  pos_[top.node()] = -1;
  const HeapEntry last = heap_.back();
  heap_.pop_back();
  const size_t n = heap_.size();
  if (n == 0) return top;
  // Move the hole at the root down along the smallest children, then drop `last` into it.
  size_t i = 0;
  for (;;) {
    const size_t c = kArity * i + 1;
    if (c >= n) break;
    size_t best = c;
    if constexpr (kArity == 4) {
      if (c + 3 < n) {  // all four children: pairwise minima, no data-dependent branches
        const size_t a = c + static_cast<size_t>(h[c + 1].key < h[c].key);
        const size_t b = c + 2 + static_cast<size_t>(h[c + 3].key < h[c + 2].key);
        best = h[b].key < h[a].key ? b : a;
      } else {
        for (size_t k = c + 1; k < n; ++k)
          if (h[k].key < h[best].key) best = k;
      }
    } else {
      static_assert(kArity == 2, "BasicOpenList supports 2 and 4 children");
      if (c + 1 < n && before(h[c + 1], h[c])) best = c + 1;
    }
    if (!before(h[best], last)) break;
    place(i, h[best]);
    i = best;
  }
  place(i, last);
  return top;
}

template class BasicOpenList<2>;
template class BasicOpenList<4>;

}  // namespace pathlab::detail
