#include "navmesh_merge.hpp"

#include <algorithm>
#include <cmath>

namespace pathlab::detail {
namespace {

double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

/// The pieces of one rectangle ring. A wall corner in the middle of a side (a T-junction where
/// the side stops facing a neighbour and starts facing a wall) is a step of a staircase: the
/// cut from it to the second rectangle corner along the wall side separates the step's
/// triangle from the rest, whose new edge lies on the stair line. Cuts that would cross an
/// earlier one are skipped.
void split_rect(const std::vector<int>& ring, const std::vector<Vec2>& pos, const std::vector<uint8_t>& on_wall,
                const std::vector<uint8_t>& wall_after, std::vector<std::vector<int>>& out) {
  const size_t n = ring.size();
  auto P = [&](size_t i) { return pos[static_cast<size_t>(ring[i % n])]; };
  auto is_corner = [&](size_t i) { return cross(P(i) - P(i + n - 1), P(i + 1) - P(i)) != 0.0; };
  std::vector<std::pair<size_t, size_t>> cuts;  // ring index pairs
  auto crosses = [&](size_t a, size_t b, size_t c, size_t d) {
    auto inside = [&](size_t x) { return ((x + n - a) % n) > 0 && ((x + n - a) % n) < ((b + n - a) % n); };
    if (a == c || a == d || b == c || b == d) return false;
    return inside(c) != inside(d);
  };
  for (size_t i = 0; i < n; ++i) {
    if (!on_wall[static_cast<size_t>(ring[i])] || is_corner(i)) continue;
    // The wall runs forwards from i (edge i is a wall) or backwards (edge i - 1 is).
    for (int dir : {1, -1}) {
      const size_t wall_edge = dir > 0 ? i : (i + n - 1) % n;
      if (!wall_after[wall_edge]) continue;
      size_t j = i, corners = 0;
      while (corners < 2) {
        j = dir > 0 ? (j + 1) % n : (j + n - 1) % n;
        if (j == i) break;
        corners += is_corner(j);
      }
      if (corners < 2) continue;
      bool ok = true;
      for (const auto& [c, d] : cuts) ok = ok && !crosses(i, j, c, d) && !(std::min(i, j) == std::min(c, d) && std::max(i, j) == std::max(c, d));
      if (ok) cuts.emplace_back(i, j);
    }
  }
  if (cuts.empty()) {
    out.push_back(ring);
    return;
  }
  std::vector<std::vector<int>> pieces{ring};
  for (const auto& [a, b] : cuts) {
    const int va = ring[a], vb = ring[b];
    for (size_t k = 0; k < pieces.size(); ++k) {
      std::vector<int>& pc = pieces[k];
      const auto ia = std::find(pc.begin(), pc.end(), va), ib = std::find(pc.begin(), pc.end(), vb);
      if (ia == pc.end() || ib == pc.end()) continue;
      const size_t m = pc.size(), x = static_cast<size_t>(ia - pc.begin()), y = static_cast<size_t>(ib - pc.begin());
      std::vector<int> one, two;
      for (size_t t = x;; t = (t + 1) % m) {
        one.push_back(pc[t]);
        if (t == y) break;
      }
      for (size_t t = y;; t = (t + 1) % m) {
        two.push_back(pc[t]);
        if (t == x) break;
      }
      pc = std::move(one);
      pieces.push_back(std::move(two));
      break;
    }
  }
  for (auto& pc : pieces) out.push_back(std::move(pc));
}

}  // namespace

ConvexPieces merge_convex(const std::vector<std::vector<int>>& rects, const std::vector<std::vector<uint8_t>>& rect_walls,
                          const std::vector<Vec2>& pos, const std::vector<uint8_t>& on_wall) {
  std::vector<std::vector<int>> rings;
  std::vector<int> rect_first;  // per rect, its first piece; pieces of a rect are consecutive
  rect_first.reserve(rects.size() + 1);
  for (size_t r = 0; r < rects.size(); ++r) {
    rect_first.push_back(static_cast<int>(rings.size()));
    split_rect(rects[r], pos, on_wall, rect_walls[r], rings);
  }
  rect_first.push_back(static_cast<int>(rings.size()));

  const size_t np = rings.size();
  std::vector<int> parent(np);
  for (size_t i = 0; i < np; ++i) parent[i] = static_cast<int>(i);
  auto find = [&](int p) {
    while (parent[static_cast<size_t>(p)] != p) p = parent[static_cast<size_t>(p)] = parent[static_cast<size_t>(parent[static_cast<size_t>(p)])];
    return p;
  };
  // Directed edges by start vertex (a vertex has a handful), each with the piece it was first
  // part of: pieces only lose edges in merges, never gain new ones.
  const size_t nv = pos.size();
  std::vector<int> out_first(nv + 1, 0);
  for (const auto& r : rings)
    for (const int v : r) ++out_first[static_cast<size_t>(v) + 1];
  for (size_t v = 0; v < nv; ++v) out_first[v + 1] += out_first[v];
  std::vector<int> out_to(static_cast<size_t>(out_first[nv])), out_owner(out_to.size());
  {
    std::vector<int> fill(out_first.begin(), out_first.end() - 1);
    for (size_t p = 0; p < np; ++p) {
      const auto& r = rings[p];
      for (size_t i = 0; i < r.size(); ++i) {
        const int slot = fill[static_cast<size_t>(r[i])]++;
        out_to[static_cast<size_t>(slot)] = r[(i + 1) % r.size()];
        out_owner[static_cast<size_t>(slot)] = static_cast<int>(p);
      }
    }
  }
  auto edge_owner = [&](int u, int w) {  // the piece u -> w was first part of, or -1
    for (int k = out_first[static_cast<size_t>(u)]; k < out_first[static_cast<size_t>(u) + 1]; ++k)
      if (out_to[static_cast<size_t>(k)] == w) return out_owner[static_cast<size_t>(k)];
    return -1;
  };
  // Per ring edge, the piece its reverse was first part of (-1: a wall). Edges survive merges
  // unchanged, so this is looked up once and travels with the edge.
  std::vector<std::vector<int>> twins(np);
  for (size_t p = 0; p < np; ++p) {
    const auto& r = rings[p];
    twins[p].resize(r.size());
    for (size_t i = 0; i < r.size(); ++i) twins[p][i] = edge_owner(r[(i + 1) % r.size()], r[i]);
  }
  auto across = [&](int piece, size_t i) {  // the current piece across edge i of `piece`, or -1
    const int t = twins[static_cast<size_t>(piece)][i];
    return t < 0 ? -1 : find(t);
  };

  // Whether the turn prev -> v -> next keeps the interior on the left (straight is fine).
  auto convex_at = [&](int prev, int v, int next) {
    const Vec2 a = pos[static_cast<size_t>(prev)], b = pos[static_cast<size_t>(v)], c = pos[static_cast<size_t>(next)];
    const Vec2 d1 = b - a, d2 = c - b;
    return cross(d1, d2) >= -1e-12 * (std::abs(d1.x) + std::abs(d1.y)) * (std::abs(d2.x) + std::abs(d2.y));
  };
  std::vector<int> merged, merged_twins;
  // Merges piece b into piece a across their shared edge u -> w (of a) when the union is
  // convex. Two convex pieces share one straight run of edges: it is found by walking out
  // from u -> w, and only the turns at its two ends can break convexity, so a rejection
  // costs a scan for two vertices and no copying.
  auto try_merge = [&](int a, int b, int u, int w) {
    const std::vector<int>& A = rings[static_cast<size_t>(a)];
    const std::vector<int>& B = rings[static_cast<size_t>(b)];
    const size_t na = A.size(), nb = B.size();
    const size_t iu = static_cast<size_t>(std::find(A.begin(), A.end(), u) - A.begin());
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
    const size_t ip = static_cast<size_t>(std::find(B.begin(), B.end(), p) - B.begin());
    const size_t iq = static_cast<size_t>(std::find(B.begin(), B.end(), q) - B.begin());
    if (ip == nb || iq == nb || (iq + count) % nb != ip) return false;
    if (!convex_at(A[(start + na - 1) % na], p, B[(ip + 1) % nb])) return false;
    if (!convex_at(B[(iq + nb - 1) % nb], q, A[(end + 1) % na])) return false;
    const std::vector<int>& TA = twins[static_cast<size_t>(a)];
    const std::vector<int>& TB = twins[static_cast<size_t>(b)];
    merged.clear();
    merged_twins.clear();
    for (size_t k = 0; k <= na - count; ++k) {  // q ... p, with the edges leaving them
      merged.push_back(A[(end + k) % na]);
      merged_twins.push_back(TA[(end + k) % na]);
    }
    merged_twins.back() = TB[ip];  // p now leaves along B
    for (size_t k = (ip + 1) % nb; k != iq; k = (k + 1) % nb) {
      merged.push_back(B[k]);
      merged_twins.push_back(TB[k]);
    }
    rings[static_cast<size_t>(a)].swap(merged);
    twins[static_cast<size_t>(a)].swap(merged_twins);
    rings[static_cast<size_t>(b)].clear();
    twins[static_cast<size_t>(b)].clear();
    parent[static_cast<size_t>(b)] = a;
    return true;
  };

  // Shared edges between rectangles first (the cuts inside a rectangle would only put it back
  // together), then the cuts; longest first within each: big pieces first leave fewer pieces.
  std::vector<int> rect_of(np);
  for (size_t r = 0; r + 1 < rect_first.size(); ++r)
    for (int p = rect_first[r]; p < rect_first[r + 1]; ++p) rect_of[static_cast<size_t>(p)] = static_cast<int>(r);
  struct Cand {
    bool cut;
    double len;
    int u, w;
    int owner, twin;  // the pieces u -> w and w -> u were first part of
  };
  std::vector<Cand> cands;
  for (size_t p = 0; p < np; ++p) {
    const auto& r = rings[p];
    for (size_t i = 0; i < r.size(); ++i) {
      const int u = r[i], w = r[(i + 1) % r.size()];
      const int twin = twins[p][i];
      if (u < w && twin >= 0) {
        cands.push_back(Cand{rect_of[p] == rect_of[static_cast<size_t>(twin)],
                             glm::length(pos[static_cast<size_t>(w)] - pos[static_cast<size_t>(u)]), u, w,
                             static_cast<int>(p), twin});
      }
    }
  }
  std::sort(cands.begin(), cands.end(), [](const Cand& x, const Cand& y) {
    if (x.cut != y.cut) return !x.cut;
    if (x.len != y.len) return x.len > y.len;
    return x.u != y.u ? x.u < y.u : x.w < y.w;  // a total order: the same mesh on every platform
  });
  // A merge can make a rejected neighbour acceptable (the union fills a notch), so passes
  // repeat, each only over edges at pieces that grew in the one before.
  std::vector<uint8_t> grew(np, 1), grew_next(np, 0);
  // Two rectangles never make a convex union (no two share a whole side): skip pairs of
  // rectangles that are still whole and uncut.
  std::vector<uint8_t> plain(np, 0);
  for (size_t r = 0; r + 1 < rect_first.size(); ++r)
    if (rect_first[r + 1] - rect_first[r] == 1) plain[static_cast<size_t>(rect_first[r])] = 1;
  for (int pass = 0; pass < 4; ++pass) {
    bool changed = false;
    for (const Cand& c : cands) {
      const int a = find(c.owner), b = find(c.twin);
      if (b < 0 || a == b || !(grew[static_cast<size_t>(a)] || grew[static_cast<size_t>(b)])) continue;
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

  ConvexPieces out;
  std::vector<int> index(np, -1);
  for (size_t p = 0; p < np; ++p) {
    if (find(static_cast<int>(p)) != static_cast<int>(p)) continue;
    index[p] = static_cast<int>(out.rings.size());
    out.rings.emplace_back();
  }
  // Two pieces whose union was not convex may still share a straight run of several edges;
  // its inner vertices touch only those two, so both rings drop them and every pair of
  // neighbours shares exactly one edge (one portal).
  for (size_t p = 0; p < np; ++p) {
    if (index[p] < 0) continue;
    const std::vector<int>& r = rings[p];
    const size_t n = r.size();
    std::vector<int>& kept = out.rings[static_cast<size_t>(index[p])];
    std::vector<int>& nbr = out.across.emplace_back();
    for (size_t i = 0; i < n; ++i) {
      const int before = across(static_cast<int>(p), (i + n - 1) % n), after = across(static_cast<int>(p), i);
      if (before >= 0 && before == after) continue;
      kept.push_back(r[i]);
      nbr.push_back(after < 0 ? -1 : index[static_cast<size_t>(after)]);
    }
  }
  out.of_rect.resize(rects.size());
  for (size_t r = 0; r < rects.size(); ++r) {
    for (int p = rect_first[r]; p < rect_first[r + 1]; ++p) {
      const int id = index[static_cast<size_t>(find(p))];
      auto& list = out.of_rect[r];
      if (std::find(list.begin(), list.end(), id) == list.end()) list.push_back(id);
    }
  }
  return out;
}

}  // namespace pathlab::detail
