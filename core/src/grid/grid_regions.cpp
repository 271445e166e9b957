// The connected regions of a pathfinder's padded grid (issue 28): a query whose ends lie in
// different regions is answered "no path" before any search, instead of a search that
// expands the start's whole region. Kept across edits: freed cells join their neighbours'
// regions (union-find), and blocked cells are checked to split nothing, locally, or the
// pieces they cut off are relabelled; only a cut between two large pieces costs a relabelling
// of the map, on the next query.

#include <algorithm>
#include <array>
#include <vector>

#include "grid/grid_search_internal.hpp"

namespace pathlab::detail {

namespace {

/// Window margin of the local check: cells around the blocked ones' box that the floods may
/// use to join the cells next to them again.
constexpr int kWindowMargin = 16;
/// A split piece up to 1/kPieceFraction of the map (or kMinPiece cells) is relabelled in place.
constexpr int64_t kPieceFraction = 32;
constexpr int64_t kMinPiece = 4096;

/// Id steps to a node's four side neighbours in pg (the regions are 4-connected).
std::array<int, 4> side_steps(const PaddedGrid& pg) { return {1, -1, pg.pw, -pg.pw}; }

}  // namespace

int32_t Regions::fresh() {
  const auto id = static_cast<int32_t>(parent.size());
  parent.push_back(id);
  return id;
}

void Regions::unite(int32_t a, int32_t b) {
  a = root(a);
  b = root(b);
  if (a == b) return;
  if (a < b) std::swap(a, b);
  parent[static_cast<size_t>(a)] = b;  // the smaller id is the root: the same forest every run
}

/// Labels every passable node, row by row: each run of passable cells in a row gets an id, and
/// runs that overlap a run of the row above join its region (union-find). 4-connected: with
/// diagonals that never cut corners (a diagonal step needs both orthogonal neighbours
/// passable), the regions of the 8-connected moves are exactly the 4-connected ones, so one
/// labelling serves every planner. Runs instead of a flood: a fill of a label per run, and a
/// union per pair of touching runs (512x512: about a third of a flood's time).
void build_regions(const PaddedGrid& pg, Regions& r) {
  r.label.assign(pg.pass.size(), -1);
  r.parent.clear();
  struct Run {
    int begin, end;  // padded x, end excluded
    int32_t id;
  };
  std::vector<Run> above, here;
  for (int y = 0; y < pg.h; ++y) {
    const size_t row = static_cast<size_t>(pg.id(Cell{-1, y}));
    const uint8_t* pass = pg.pass.data() + row;
    int32_t* label = r.label.data() + row;
    here.clear();
    for (int x = 1; x <= pg.w;) {
      if (!pass[x]) {
        ++x;
        continue;
      }
      const int begin = x;
      while (pass[x]) ++x;  // the blocked border ends every run
      const int32_t id = r.fresh();
      std::fill(label + begin, label + x, id);
      here.push_back(Run{begin, x, id});
    }
    // Runs of this row and the row above that share a column are one region.
    size_t i = 0;
    for (const Run& run : here) {
      while (i < above.size() && above[i].end <= run.begin) ++i;
      for (size_t j = i; j < above.size() && above[j].begin < run.end; ++j) r.unite(run.id, above[j].id);
    }
    std::swap(above, here);
  }
  r.ready = true;
}

bool regions_apart(const PaddedGrid& pg, Regions& r, int s, int t) {
  if (!r.ready) build_regions(pg, r);
  return r.root(r.label[static_cast<size_t>(s)]) != r.root(r.label[static_cast<size_t>(t)]);
}

namespace {

/// The box of the cells `ids`, widened by kWindowMargin and clipped to the map (padded ids).
CellRect window_of(const PaddedGrid& pg, const std::vector<int32_t>& ids) {
  CellRect box{Cell{pg.w, pg.h}, Cell{-1, -1}};
  for (const int32_t id : ids) {
    const Cell c = pg.cell(id);
    box.min = Cell{std::min(box.min.x, c.x), std::min(box.min.y, c.y)};
    box.max = Cell{std::max(box.max.x, c.x), std::max(box.max.y, c.y)};
  }
  return CellRect{Cell{std::max(box.min.x - kWindowMargin, 0), std::max(box.min.y - kWindowMargin, 0)},
                  Cell{std::min(box.max.x + kWindowMargin, pg.w - 1), std::min(box.max.y + kWindowMargin, pg.h - 1)}};
}

/// The passable cells next to the blocked ones, each with the group of the flood inside the
/// window that reached it first: cells of one group are joined again.
struct Border {
  std::vector<int32_t> cells;  // padded ids
  std::vector<int32_t> group;  // per cell
};

Border local_groups(const PaddedGrid& pg, Regions& r, const std::vector<int32_t>& blocked, const CellRect& win) {
  const int ww = win.max.x - win.min.x + 1, wh = win.max.y - win.min.y + 1;
  std::vector<int32_t> seen(static_cast<size_t>(ww) * static_cast<size_t>(wh), -1);
  auto slot = [&](int id) {
    const Cell c = pg.cell(id);
    return static_cast<size_t>(c.y - win.min.y) * static_cast<size_t>(ww) + static_cast<size_t>(c.x - win.min.x);
  };
  auto inside = [&](int id) {
    const Cell c = pg.cell(id);
    return c.x >= win.min.x && c.x <= win.max.x && c.y >= win.min.y && c.y <= win.max.y;
  };
  const std::array<int, 4> off = side_steps(pg);
  Border b;
  int32_t groups = 0;
  for (const int32_t id : blocked)
    for (const int d : off) {
      const int n = id + d;
      if (!pg.pass[static_cast<size_t>(n)] || !inside(n)) continue;
      if (seen[slot(n)] < 0) {  // a new group: flood it inside the window
        const int32_t g = groups++;
        seen[slot(n)] = g;
        r.queue.assign(1, n);
        for (size_t head = 0; head < r.queue.size(); ++head)
          for (const int e : off) {
            const int m = r.queue[head] + e;
            if (!pg.pass[static_cast<size_t>(m)] || !inside(m) || seen[slot(m)] >= 0) continue;
            seen[slot(m)] = g;
            r.queue.push_back(m);
          }
      }
      b.cells.push_back(n);
      b.group.push_back(seen[slot(n)]);
    }
  return b;
}

/// Relabels the piece holding `from` with a new id by a flood of at most `limit` cells.
/// False when the piece is larger: the cells it relabelled then join region `keep` again.
bool relabel_piece(const PaddedGrid& pg, Regions& r, int from, int64_t limit, int32_t keep) {
  const int32_t id = r.fresh();
  const std::array<int, 4> off = side_steps(pg);
  r.queue.assign(1, from);
  r.label[static_cast<size_t>(from)] = id;
  for (size_t head = 0; head < r.queue.size(); ++head) {
    if (static_cast<int64_t>(head) >= limit) {
      r.unite(id, keep);
      return false;
    }
    for (const int d : off) {
      const size_t m = static_cast<size_t>(r.queue[head] + d);
      if (!pg.pass[m] || r.label[m] == id) continue;
      r.label[m] = id;
      r.queue.push_back(static_cast<int32_t>(m));
    }
  }
  return true;
}

/// After cells were blocked: a region whose border cells fall into more than one local group
/// may have been cut. Each of its groups is relabelled when its piece is small; one large piece
/// keeps the old region. Two large pieces (a cut across the map): false, relabel everything.
bool mend_blocked(const PaddedGrid& pg, Regions& r, const std::vector<int32_t>& blocked) {
  const Border b = local_groups(pg, r, blocked, window_of(pg, blocked));
  // (root, group) pairs, sorted: a root listed with two groups may be split.
  std::vector<std::pair<int32_t, int32_t>> by_root;
  by_root.reserve(b.cells.size());
  for (size_t i = 0; i < b.cells.size(); ++i)
    by_root.emplace_back(r.root(r.label[static_cast<size_t>(b.cells[i])]), b.group[i]);
  std::vector<int32_t> first_cell(b.cells.size(), -1);  // per group: one of its cells
  for (size_t i = 0; i < b.cells.size(); ++i)
    if (first_cell[static_cast<size_t>(b.group[i])] < 0) first_cell[static_cast<size_t>(b.group[i])] = b.cells[i];
  std::sort(by_root.begin(), by_root.end());
  by_root.erase(std::unique(by_root.begin(), by_root.end()), by_root.end());
  const int64_t limit = std::max(kMinPiece, static_cast<int64_t>(pg.w) * pg.h / kPieceFraction);
  for (size_t i = 0; i < by_root.size();) {
    size_t j = i;
    while (j < by_root.size() && by_root[j].first == by_root[i].first) ++j;
    if (j - i > 1) {
      int large = 0;
      for (size_t k = i; k < j; ++k) {
        const int from = first_cell[static_cast<size_t>(by_root[k].second)];
        // A group an earlier piece's flood reached is that piece: done.
        if (r.root(r.label[static_cast<size_t>(from)]) != by_root[i].first) continue;
        if (!relabel_piece(pg, r, from, limit, by_root[i].first) && ++large > 1) return false;
      }
    }
    i = j;
  }
  return true;
}

}  // namespace

void mend_regions(const PaddedGrid& pg, Regions& r, const std::vector<int32_t>& pass_changed) {
  if (!r.ready || pass_changed.empty()) return;
  std::vector<int32_t> blocked;
  for (const int32_t id : pass_changed)
    if (!pg.pass[static_cast<size_t>(id)]) blocked.push_back(id);
  for (const int32_t id : pass_changed)
    if (pg.pass[static_cast<size_t>(id)]) r.label[static_cast<size_t>(id)] = r.fresh();
  // Freed cells join every passable neighbour's region: exact, regions only merge.
  const std::array<int, 4> off = side_steps(pg);
  for (const int32_t id : pass_changed) {
    if (!pg.pass[static_cast<size_t>(id)]) continue;
    for (const int d : off)
      if (pg.pass[static_cast<size_t>(id + d)])
        r.unite(r.label[static_cast<size_t>(id)], r.label[static_cast<size_t>(id + d)]);
  }
  for (const int32_t id : blocked) r.label[static_cast<size_t>(id)] = -1;
  // Ids only grow between relabellings; past one a node (kRegionBytesPerCell), start again.
  if (!blocked.empty() && !mend_blocked(pg, r, blocked)) r.ready = false;
  if (r.parent.size() > pg.pass.size()) r.ready = false;
}

}  // namespace pathlab::detail
