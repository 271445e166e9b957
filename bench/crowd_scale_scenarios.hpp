#pragma once
// The scenarios of bench_crowd_scale (issue 27): 1,000 to 10,000 persons in 8 groups on a
// 512x512 map, each group sent to one goal across the map, so that the routes run through
// doors and corridors. Header-only, bench/ only.
//
//   rooms   generate_rooms(31, 4, seed 27): rooms on a 32-cell pitch (31x31 free cells, walls one
//           cell thick, doorways 4 cells wide), the map of issue 27's measurement and of
//           bench_flow_field's BM_rooms_crowd; group g starts in the room of kRoomStarts[g] (and
//           spills through its doors into the next rooms when the room is full) and is sent to
//           the centre of the room mirrored through the map's centre.
//   berlin  Moving AI's Berlin_0_512 (Sturtevant 2012, "Benchmarks for Grid-Based Pathfinding";
//           tests/data/movingai/SOURCES.md): streets between city blocks; group g starts round
//           the free cell nearest kEdgeAnchors[g] (corners and middles of the edges) and is sent
//           to the free cell reachable from there nearest the mirrored point.
//
// Units are put on every other cell (a checkerboard: centres 1.41 cells apart or more) in
// breadth-first order from the group's anchor over the 4-connected free cells, so starts never
// overlap, also between groups, and every goal is reachable from its group's starts.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "pathlab/grid.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/map_io.hpp"

namespace pathlab::bench {

/// One benchmark scenario: the map and every unit's start and goal (all persons).
struct ScaleScenario {
  std::string map;
  Grid grid;
  std::vector<Vec2> start;  ///< [Units: cells]
  std::vector<Vec2> goal;   ///< [Units: cells]
  std::vector<int> group;   ///< Group of each unit, 0..7.
};

constexpr int kScaleSide = 512, kScaleGroups = 8;
constexpr int kRoomPitch = 32, kRoomSize = 31, kRoomDoor = 4;

/// Breadth-first search over the 4-connected free cells from `from`: the cells in the order
/// reached (`from` first). [Limit: from is free]
inline std::vector<Cell> cells_by_reach(const Grid& g, Cell from, size_t limit) {
  std::vector<uint8_t> seen(static_cast<size_t>(g.width()) * static_cast<size_t>(g.height()), 0);
  std::vector<Cell> order;
  std::deque<Cell> open{from};
  seen[static_cast<size_t>(from.y) * static_cast<size_t>(g.width()) + static_cast<size_t>(from.x)] = 1;
  while (!open.empty() && order.size() < limit) {
    const Cell c = open.front();
    open.pop_front();
    order.push_back(c);
    const Cell next[4] = {{c.x + 1, c.y}, {c.x - 1, c.y}, {c.x, c.y + 1}, {c.x, c.y - 1}};
    for (const Cell& n : next) {
      if (!g.is_free(n)) continue;
      uint8_t& s = seen[static_cast<size_t>(n.y) * static_cast<size_t>(g.width()) + static_cast<size_t>(n.x)];
      if (s) continue;
      s = 1;
      open.push_back(n);
    }
  }
  return order;
}

/// The free cell nearest `p` (squared distance between centres; ties: the first in row order).
/// [Limit: the map has a free cell]
inline Cell nearest_free(const Grid& g, Vec2 p) {
  Cell best{-1, -1};
  double best_d = 1e300;
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) {
      if (!g.is_free(x, y)) continue;
      const double dx = x + 0.5 - p.x, dy = y + 0.5 - p.y, d = dx * dx + dy * dy;
      if (d < best_d) best_d = d, best = Cell{x, y};
    }
  return best;
}

inline Vec2 centre_of(Cell c) { return Vec2(c.x + 0.5, c.y + 0.5); }

/// Adds `count` units of group `group` round `anchor`, all sent to `goal`: the checkerboard
/// cells in breadth-first order from `anchor`, skipping cells already `taken`. Exits with a
/// message if the anchor's region has too few cells.
inline void place_group(ScaleScenario& s, std::vector<uint8_t>& taken, Cell anchor, Vec2 goal, int group, int count) {
  int placed = 0;
  for (const Cell& c : cells_by_reach(s.grid, anchor, static_cast<size_t>(s.grid.width()) * static_cast<size_t>(s.grid.height()))) {
    if (placed == count) return;
    uint8_t& t = taken[static_cast<size_t>(c.y) * static_cast<size_t>(s.grid.width()) + static_cast<size_t>(c.x)];
    if ((c.x + c.y) % 2 != 0 || t) continue;
    t = 1;
    s.start.push_back(centre_of(c));
    s.goal.push_back(goal);
    s.group.push_back(group);
    ++placed;
  }
  if (placed < count) {
    std::fprintf(stderr, "bench_crowd_scale: map %s: group %d has room for %d units, not %d\n", s.map.c_str(), group,
                 placed, count);
    std::exit(2);
  }
}

/// Units of group g: units / 8, the first units % 8 groups one more.
inline int group_size(int units, int g) { return units / kScaleGroups + (g < units % kScaleGroups ? 1 : 0); }

/// The rooms scenario with `units` persons (see the file comment).
inline ScaleScenario rooms_scenario(int units) {
  // The top-left room of each group's block of 2x2 rooms round the map's edge (bench_flow_field).
  constexpr int kRoomStarts[kScaleGroups][2] = {{0, 0}, {7, 0}, {14, 0}, {14, 7}, {14, 14}, {7, 14}, {0, 14}, {0, 7}};
  ScaleScenario s{"rooms", Grid::create(kScaleSide, kScaleSide).value(), {}, {}, {}};
  generate_rooms(s.grid, kRoomSize, kRoomDoor, 27);
  std::vector<uint8_t> taken(static_cast<size_t>(kScaleSide) * kScaleSide, 0);
  auto room_centre = [](int rx, int ry) { return Vec2(rx * kRoomPitch + kRoomSize / 2.0, ry * kRoomPitch + kRoomSize / 2.0); };
  for (int g = 0; g < kScaleGroups; ++g) {
    const int rx = kRoomStarts[g][0], ry = kRoomStarts[g][1];
    const Cell anchor = nearest_free(s.grid, room_centre(rx, ry));
    place_group(s, taken, anchor, room_centre(15 - rx, 15 - ry), g, group_size(units, g));
  }
  return s;
}

/// The Moving AI scenario on `map_name` (a 512x512 map of tests/data/movingai, e.g.
/// Berlin_0_512) with `units` persons (see the file comment). Exits with a message naming the
/// file if it cannot be read.
inline ScaleScenario movingai_scenario(const std::string& map_name, const std::string& dir, int units) {
  const std::string path = dir + "/" + map_name + ".map";
  auto grid = load_movingai_map(path);
  if (!grid) {
    std::fprintf(stderr, "bench_crowd_scale: --maps %s: %s\n", map_name.c_str(), grid.error().message.c_str());
    std::exit(2);
  }
  ScaleScenario s{map_name, std::move(*grid), {}, {}, {}};
  const double w = s.grid.width(), h = s.grid.height();
  const Vec2 anchors[kScaleGroups] = {{0.125 * w, 0.125 * h}, {0.5 * w, 0.08 * h},  {0.875 * w, 0.125 * h},
                                      {0.92 * w, 0.5 * h},    {0.875 * w, 0.875 * h}, {0.5 * w, 0.92 * h},
                                      {0.125 * w, 0.875 * h}, {0.08 * w, 0.5 * h}};
  std::vector<uint8_t> taken(static_cast<size_t>(s.grid.width()) * static_cast<size_t>(s.grid.height()), 0);
  for (int g = 0; g < kScaleGroups; ++g) {
    const Cell anchor = nearest_free(s.grid, anchors[g]);
    const Vec2 mirror(w - anchors[g].x, h - anchors[g].y);
    // The goal: of the cells reachable from the anchor, the one nearest the mirrored point.
    Cell goal = anchor;
    double best = 1e300;
    for (const Cell& c : cells_by_reach(s.grid, anchor, static_cast<size_t>(w * h))) {
      const Vec2 d = centre_of(c) - mirror;
      if (glm::dot(d, d) < best) best = glm::dot(d, d), goal = c;
    }
    place_group(s, taken, anchor, centre_of(goal), g, group_size(units, g));
  }
  return s;
}

}  // namespace pathlab::bench
