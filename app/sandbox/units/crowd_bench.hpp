#pragma once
// The crowd scenario of `pathlab --bench-crowd` (issue 13's frame-time target): a 256x256 map
// split by a wall with three doorways, 200 units of mixed presets in two blocks on either
// side, each sent to the mirror of its place, so they crowd and queue at the doorways.

#include <string>

#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

class UnitSwarm;

/// The scenario's unit count, and the most --bench-units may ask for.
inline constexpr int kCrowdBenchUnits = 200;
inline constexpr int kMaxCrowdBenchUnits = 10000;

/// The map and poses of the scenario (no units yet).
io::Scene crowd_bench_scene();
/// Spawns `count` units into `units` on `scene` (crowd_bench_scene()), half on each side
/// (kCrowdBenchUnits: the scenario's own two 10 x 10 blocks; more: bigger square blocks, packed
/// closer where they would not fit the map, a unit whose spot is taken nudged to a free one).
/// Returns "" or the first unit that could not be placed. [Limit: 1 .. kMaxCrowdBenchUnits]
std::string spawn_crowd_bench(UnitSwarm& units, const io::Scene& scene, int count = kCrowdBenchUnits);

}  // namespace pathlab::sandbox
