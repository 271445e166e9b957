#include "navmesh/navmesh_merge.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace pathlab::detail {
namespace {

/// Piece rings in one buffer: a merge appends the new ring and abandons the two old ones, so
/// the whole merge allocates a handful of times instead of once per piece.
struct Pieces {
  std::vector<int> verts, twins;  // per ring slot: vertex, and the piece the reverse edge was first part of
  std::vector<int> off, len;      // per piece

  int add(const int* v, size_t n) {
    off.push_back(static_cast<int>(verts.size()));
    len.push_back(static_cast<int>(n));
    verts.insert(verts.end(), v, v + n);
    return static_cast<int>(off.size()) - 1;
  }
  int* ring(int p) { return verts.data() + off[static_cast<size_t>(p)]; }
  int* twin(int p) { return twins.data() + off[static_cast<size_t>(p)]; }
  const int* ring(int p) const { return verts.data() + off[static_cast<size_t>(p)]; }
  const int* twin(int p) const { return twins.data() + off[static_cast<size_t>(p)]; }
  size_t size(int p) const { return static_cast<size_t>(len[static_cast<size_t>(p)]); }
};

/// Scratch for cutting one rectangle, reused across rectangles.
struct SplitScratch {
  std::vector<uint8_t> corner;
  std::vector<std::pair<size_t, size_t>> cuts;
  std::vector<std::vector<int>> parts;
  std::vector<int> one, two;
};

/// The pieces of one rectangle ring. A wall corner in the middle of a side (a T-junction where
/// the side stops facing a neighbour and starts facing a wall) is a step of a staircase: the
/// cut from it to the second rectangle corner along the wall side separates the step's
/// triangle from the rest, whose new edge lies on the stair line. Cuts that would cross an
/// earlier one are skipped.
void split_rect(const int* ring, const uint8_t* wall_after, size_t n, const std::vector<Vec2>& pos,
                const std::vector<uint8_t>& on_wall, SplitScratch& s, Pieces& out) {
  auto P = [&](size_t i) { return pos[static_cast<size_t>(ring[i % n])]; };
  s.corner.resize(n);
  for (size_t i = 0; i < n; ++i) s.corner[i] = cross(P(i) - P(i + n - 1), P(i + 1) - P(i)) != 0.0;
  s.cuts.clear();
  auto crosses = [&](size_t a, size_t b, size_t c, size_t d) {
    auto inside = [&](size_t x) { return ((x + n - a) % n) > 0 && ((x + n - a) % n) < ((b + n - a) % n); };
    if (a == c || a == d || b == c || b == d) return false;
    return inside(c) != inside(d);
  };
  for (size_t i = 0; i < n; ++i) {
    if (!on_wall[static_cast<size_t>(ring[i])] || s.corner[i]) continue;
    // The wall runs forwards from i (edge i is a wall) or backwards (edge i - 1 is).
    for (int dir : {1, -1}) {
      if (!wall_after[dir > 0 ? i : (i + n - 1) % n]) continue;
      size_t j = i, corners = 0;
      while (corners < 2) {
        j = dir > 0 ? (j + 1) % n : (j + n - 1) % n;
        if (j == i) break;
        corners += s.corner[j];
      }
      if (corners < 2) continue;
      bool ok = true;
      for (const auto& [c, d] : s.cuts) {
        ok = ok && !crosses(i, j, c, d) && !(std::min(i, j) == std::min(c, d) && std::max(i, j) == std::max(c, d));
      }
      if (ok) s.cuts.emplace_back(i, j);
    }
  }
  if (s.cuts.empty()) {
    out.add(ring, n);
    return;
  }
  size_t count = 1;
  if (s.parts.empty()) s.parts.emplace_back();
  s.parts[0].assign(ring, ring + n);
  for (const auto& [a, b] : s.cuts) {
    const int va = ring[a], vb = ring[b];
    for (size_t k = 0; k < count; ++k) {
      std::vector<int>& pc = s.parts[k];
      const auto ia = std::find(pc.begin(), pc.end(), va), ib = std::find(pc.begin(), pc.end(), vb);
      if (ia == pc.end() || ib == pc.end()) continue;
      const size_t m = pc.size(), x = static_cast<size_t>(ia - pc.begin()), y = static_cast<size_t>(ib - pc.begin());
      s.one.clear();
      s.two.clear();
      for (size_t t = x;; t = (t + 1) % m) {
        s.one.push_back(pc[t]);
        if (t == y) break;
      }
      for (size_t t = y;; t = (t + 1) % m) {
        s.two.push_back(pc[t]);
        if (t == x) break;
      }
      pc.swap(s.one);
      if (s.parts.size() <= count) s.parts.emplace_back();
      s.parts[count++].swap(s.two);
      break;
    }
  }
  for (size_t k = 0; k < count; ++k) out.add(s.parts[k].data(), s.parts[k].size());
}

/// A merge candidate: a shared edge u -> w between two pieces.
struct Cand {
  // The order key: shared edges between rectangles before the cuts inside one (split_rect),
  // then longer edges first. One integer compare instead of a flag and a double (the sort was
  // a tenth of a wall-corner tile's merge): for lengths >= 0 the bits of a double order as
  // its value, so they are stored complemented below the cut flag.
  uint64_t key;
  int u, w;
  int owner, twin;  // the pieces u -> w and w -> u were first part of
};

/// Cand::key of an edge of length `len` >= 0 [Units: cells], inside one rectangle or not.
uint64_t cand_key(bool cut, double len) {
  uint64_t bits = 0;
  std::memcpy(&bits, &len, sizeof bits);
  return (cut ? uint64_t{1} << 63 : 0) | (~bits & ~(uint64_t{1} << 63));
}

/// The merge's state: the pieces, which piece each merged into (a union-find), and the
/// steps of merge_convex as methods.
class Merger {
 public:
  explicit Merger(const std::vector<Vec2>& pos) : pos_(pos) {}

  void split_all(const RectRings& rects, const std::vector<uint8_t>& on_wall);
  /// Takes convex rings as they are, one piece each (no rectangles: any two may merge).
  void load(const RingSet& rings);
  void link_twins();
  /// Per ring slot, the piece holding the reverse edge (-1: a wall), as link_twins() finds it.
  void set_twins(const std::vector<int>& twins) { pc_.twins = twins; }
  std::vector<Cand> candidates() const;
  void merge_passes(const std::vector<Cand>& cands);
  ConvexPieces collect();

 private:
  int find(int p) {
    while (parent_[static_cast<size_t>(p)] != p)
      p = parent_[static_cast<size_t>(p)] = parent_[static_cast<size_t>(parent_[static_cast<size_t>(p)])];
    return p;
  }
  /// The current piece across edge i of `piece`, or -1.
  int across(int piece, size_t i) {
    const int t = pc_.twin(piece)[i];
    return t < 0 ? -1 : find(t);
  }
  /// Whether the turn prev -> v -> next keeps the interior on the left (straight is fine).
  bool convex_at(int prev, int v, int next) const {
    const Vec2 a = pos_[static_cast<size_t>(prev)], b = pos_[static_cast<size_t>(v)], c = pos_[static_cast<size_t>(next)];
    const Vec2 d1 = b - a, d2 = c - b;
    return cross(d1, d2) >= -1e-12 * (std::abs(d1.x) + std::abs(d1.y)) * (std::abs(d2.x) + std::abs(d2.y));
  }
  bool try_merge(int a, int b, int u, int w);

  const std::vector<Vec2>& pos_;
  Pieces pc_;
  size_t nrect_ = 0;
  bool rects_ = true;  // the input pieces came from rectangles (split_all)
  std::vector<int> rect_first_;  // per rect, its first piece; pieces of a rect are consecutive
  std::vector<int> parent_;
  std::vector<int> merged_, merged_twins_;  // scratch of try_merge
};

void Merger::split_all(const RectRings& rects, const std::vector<uint8_t>& on_wall) {
  nrect_ = rects.rings.first.size() - 1;
  pc_.verts.reserve(rects.rings.verts.size() * 3);
  rect_first_.reserve(nrect_ + 1);
  SplitScratch scratch;
  for (size_t r = 0; r < nrect_; ++r) {
    rect_first_.push_back(static_cast<int>(pc_.off.size()));
    const size_t f = static_cast<size_t>(rects.rings.first[r]), n = static_cast<size_t>(rects.rings.first[r + 1]) - f;
    split_rect(rects.rings.verts.data() + f, rects.wall.data() + f, n, pos_, on_wall, scratch, pc_);
  }
  rect_first_.push_back(static_cast<int>(pc_.off.size()));
  parent_.resize(pc_.off.size());
  for (size_t i = 0; i < parent_.size(); ++i) parent_[i] = static_cast<int>(i);
}

void Merger::load(const RingSet& rings) {
  rects_ = false;
  nrect_ = rings.first.size() - 1;
  pc_.verts.reserve(rings.verts.size() * 2);
  rect_first_.reserve(nrect_ + 1);
  for (size_t r = 0; r < nrect_; ++r) {
    rect_first_.push_back(static_cast<int>(r));
    const size_t f = static_cast<size_t>(rings.first[r]), n = static_cast<size_t>(rings.first[r + 1]) - f;
    pc_.add(rings.verts.data() + f, n);
  }
  rect_first_.push_back(static_cast<int>(nrect_));
  parent_.resize(nrect_);
  for (size_t i = 0; i < parent_.size(); ++i) parent_[i] = static_cast<int>(i);
}

/// Per ring edge, the piece its reverse was first part of (-1: a wall), found through the
/// directed edges by start vertex. Edges survive merges unchanged, so this travels with them.
void Merger::link_twins() {
  const size_t np = pc_.off.size(), nv = pos_.size();
  std::vector<int> out_first(nv + 1, 0);
  for (const int v : pc_.verts) ++out_first[static_cast<size_t>(v) + 1];
  for (size_t v = 0; v < nv; ++v) out_first[v + 1] += out_first[v];
  std::vector<int> out_to(pc_.verts.size()), out_owner(pc_.verts.size());
  std::vector<int> fill(out_first.begin(), out_first.end() - 1);
  for (size_t p = 0; p < np; ++p) {
    const int* r = pc_.ring(static_cast<int>(p));
    const size_t n = pc_.size(static_cast<int>(p));
    for (size_t i = 0; i < n; ++i) {
      const int slot = fill[static_cast<size_t>(r[i])]++;
      out_to[static_cast<size_t>(slot)] = r[(i + 1) % n];
      out_owner[static_cast<size_t>(slot)] = static_cast<int>(p);
    }
  }
  pc_.twins.resize(pc_.verts.size());
  for (size_t p = 0; p < np; ++p) {
    const int* r = pc_.ring(static_cast<int>(p));
    int* t = pc_.twin(static_cast<int>(p));
    const size_t n = pc_.size(static_cast<int>(p));
    for (size_t i = 0; i < n; ++i) {
      const int u = r[(i + 1) % n], w = r[i];  // the reverse edge
      t[i] = -1;
      for (int k = out_first[static_cast<size_t>(u)]; k < out_first[static_cast<size_t>(u) + 1]; ++k)
        if (out_to[static_cast<size_t>(k)] == w) t[i] = out_owner[static_cast<size_t>(k)];
    }
  }
}

/// Merges piece b into piece a across their shared edge u -> w (of a) when the union is
/// convex. Two convex pieces share one straight run of edges: it is found by walking out
/// from u -> w, and only the turns at its two ends can break convexity, so a rejection
/// costs a scan for two vertices and no copying.
bool Merger::try_merge(int a, int b, int u, int w) {
  const int* A = pc_.ring(a);
  const int* B = pc_.ring(b);
  const size_t na = pc_.size(a), nb = pc_.size(b);
  const size_t iu = static_cast<size_t>(std::find(A, A + na, u) - A);
  if (iu == na || A[(iu + 1) % na] != w) return false;
  size_t start = iu, count = 1;  // the run: edges start .. start + count - 1 of A
  while (count < na && across(a, (start + na - 1) % na) == b) {
    start = (start + na - 1) % na;
    ++count;
  }
  while (count < na && across(a, (start + count) % na) == b) ++count;
  if (count >= na) return false;
  const size_t end = (start + count) % na;  // q = A[end], the run's last vertex
  const int p = A[start], q = A[end];
  // B runs q ... p along the run; its own part is p -> ... -> q.
  const size_t ip = static_cast<size_t>(std::find(B, B + nb, p) - B);
  const size_t iq = static_cast<size_t>(std::find(B, B + nb, q) - B);
  if (ip == nb || iq == nb || (iq + count) % nb != ip) return false;
  if (!convex_at(A[(start + na - 1) % na], p, B[(ip + 1) % nb])) return false;
  if (!convex_at(B[(iq + nb - 1) % nb], q, A[(end + 1) % na])) return false;
  const int* TA = pc_.twin(a);
  const int* TB = pc_.twin(b);
  merged_.clear();
  merged_twins_.clear();
  for (size_t k = 0; k <= na - count; ++k) {  // q ... p, with the edges leaving them
    merged_.push_back(A[(end + k) % na]);
    merged_twins_.push_back(TA[(end + k) % na]);
  }
  merged_twins_.back() = TB[ip];  // p now leaves along B
  for (size_t k = (ip + 1) % nb; k != iq; k = (k + 1) % nb) {
    merged_.push_back(B[k]);
    merged_twins_.push_back(TB[k]);
  }
  // The new ring goes at the end of the buffer (A and B may move: copied out above).
  pc_.off[static_cast<size_t>(a)] = static_cast<int>(pc_.verts.size());
  pc_.len[static_cast<size_t>(a)] = static_cast<int>(merged_.size());
  pc_.verts.insert(pc_.verts.end(), merged_.begin(), merged_.end());
  pc_.twins.insert(pc_.twins.end(), merged_twins_.begin(), merged_twins_.end());
  pc_.len[static_cast<size_t>(b)] = 0;
  parent_[static_cast<size_t>(b)] = a;
  return true;
}

/// Shared edges between rectangles first (the cuts inside a rectangle would only put it back
/// together), then the cuts; longest first within each: big pieces first leave fewer pieces.
std::vector<Cand> Merger::candidates() const {
  const size_t np = pc_.off.size();
  std::vector<int> rect_of(np);
  for (size_t r = 0; r < nrect_; ++r)
    for (int p = rect_first_[r]; p < rect_first_[r + 1]; ++p) rect_of[static_cast<size_t>(p)] = static_cast<int>(r);
  std::vector<Cand> cands;
  cands.reserve(pc_.verts.size() / 2);
  const Pieces& pc = pc_;
  for (size_t p = 0; p < np; ++p) {
    const int* r = pc.ring(static_cast<int>(p));
    const int* t = pc.twin(static_cast<int>(p));
    const size_t n = pc.size(static_cast<int>(p));
    for (size_t i = 0; i < n; ++i) {
      const int u = r[i], w = r[(i + 1) % n];
      if (u < w && t[i] >= 0) {
        cands.push_back(Cand{cand_key(rect_of[p] == rect_of[static_cast<size_t>(t[i])],
                                      glm::length(pos_[static_cast<size_t>(w)] - pos_[static_cast<size_t>(u)])),
                             u, w, static_cast<int>(p), t[i]});
      }
    }
  }
  std::sort(cands.begin(), cands.end(), [](const Cand& x, const Cand& y) {
    if (x.key != y.key) return x.key < y.key;
    return x.u != y.u ? x.u < y.u : x.w < y.w;  // a total order: the same mesh on every platform
  });
  return cands;
}

/// A merge can make a rejected neighbour acceptable (the union fills a notch), so passes
/// repeat, each only over edges at pieces that grew in the one before. Two rectangles never
/// make a convex union (no two share a whole side): pairs of still-whole uncut ones are skipped.
void Merger::merge_passes(const std::vector<Cand>& cands) {
  const size_t np = pc_.off.size();
  std::vector<uint8_t> grew(np, 1), grew_next(np, 0), plain(np, 0);
  for (size_t r = 0; r < nrect_ && rects_; ++r)
    if (rect_first_[r + 1] - rect_first_[r] == 1) plain[static_cast<size_t>(rect_first_[r])] = 1;
  for (int pass = 0; pass < 4; ++pass) {
    bool changed = false;
    for (const Cand& c : cands) {
      const int a = find(c.owner), b = find(c.twin);
      if (a == b || !(grew[static_cast<size_t>(a)] || grew[static_cast<size_t>(b)])) continue;
      if (plain[static_cast<size_t>(a)] && plain[static_cast<size_t>(b)]) continue;
      if (try_merge(a, b, c.u, c.w)) {
        changed = true;
        grew_next[static_cast<size_t>(a)] = 1;
        plain[static_cast<size_t>(a)] = 0;
      }
    }
    if (!changed) break;
    grew.swap(grew_next);
    std::fill(grew_next.begin(), grew_next.end(), 0);
  }
}

/// The surviving pieces, numbered in order, and which of them cover each rectangle.
ConvexPieces Merger::collect() {
  const size_t np = pc_.off.size();
  ConvexPieces out;
  std::vector<int> index(np, -1);
  int count = 0;
  for (size_t p = 0; p < np; ++p)
    if (find(static_cast<int>(p)) == static_cast<int>(p)) index[p] = count++;
  // Two pieces whose union was not convex may still share a straight run of several edges;
  // its inner vertices touch only those two, so both rings drop them and every pair of
  // neighbours shares exactly one edge (one portal).
  out.rings.first.reserve(static_cast<size_t>(count) + 1);
  for (size_t p = 0; p < np; ++p) {
    if (index[p] < 0) continue;
    const int* r = pc_.ring(static_cast<int>(p));
    const size_t n = pc_.size(static_cast<int>(p));
    for (size_t i = 0; i < n; ++i) {
      const int before = across(static_cast<int>(p), (i + n - 1) % n), after = across(static_cast<int>(p), i);
      if (before >= 0 && before == after) continue;
      out.rings.verts.push_back(r[i]);
      out.across.push_back(after < 0 ? -1 : index[static_cast<size_t>(after)]);
    }
    out.rings.first.push_back(static_cast<int>(out.rings.verts.size()));
  }
  out.rect_first.reserve(nrect_ + 1);
  for (size_t r = 0; r < nrect_; ++r) {
    out.rect_first.push_back(static_cast<int>(out.rect_polys.size()));
    const size_t from = out.rect_polys.size();
    for (int p = rect_first_[r]; p < rect_first_[r + 1]; ++p) {
      const int id = index[static_cast<size_t>(find(p))];
      if (std::find(out.rect_polys.begin() + static_cast<ptrdiff_t>(from), out.rect_polys.end(), id) == out.rect_polys.end()) {
        out.rect_polys.push_back(id);
      }
    }
  }
  out.rect_first.push_back(static_cast<int>(out.rect_polys.size()));
  return out;
}

}  // namespace

ConvexPieces merge_convex(const RectRings& rects, const std::vector<Vec2>& pos, const std::vector<uint8_t>& on_wall) {
  Merger m(pos);
  m.split_all(rects, on_wall);
  m.link_twins();
  m.merge_passes(m.candidates());
  return m.collect();
}

ConvexPieces merge_convex_rings(const RingSet& rings, const std::vector<Vec2>& pos) {
  Merger m(pos);
  m.load(rings);
  m.link_twins();
  m.merge_passes(m.candidates());
  return m.collect();
}

ConvexPieces merge_convex_rings(const LinkedRings& rings, const std::vector<Vec2>& pos) {
  Merger m(pos);
  m.load(rings.rings);
  m.set_twins(rings.twin);
  m.merge_passes(m.candidates());
  return m.collect();
}

}  // namespace pathlab::detail
