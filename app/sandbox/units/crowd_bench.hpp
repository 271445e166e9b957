#pragma once
// The crowd scenario of `pathlab --bench-crowd` (issue 13's frame-time target): a 256x256 map
// split by a wall with three doorways, 200 units of mixed presets in two blocks on either
// side, each sent to the mirror of its place, so they crowd and queue at the doorways.

#include <string>

#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

class UnitSwarm;

/// The map and poses of the scenario (no units yet).
io::Scene crowd_bench_scene();
/// Spawns the scenario's 200 units into `units` on `scene` (crowd_bench_scene()). Returns ""
/// or the first unit that could not be placed.
std::string spawn_crowd_bench(UnitSwarm& units, const io::Scene& scene);

}  // namespace pathlab::sandbox
