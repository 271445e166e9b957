#pragma once
/// @file map_generators.hpp
/// Procedural maps for the sandbox and for tests: scattered obstacles, a perfect maze, rooms
/// joined by doors. All are deterministic for a given seed.

#include <cstdint>

#include "pathlab/grid.hpp"

namespace pathlab {

/// Blocks each cell independently with probability `density` [Limit: 0..1].
void generate_random(Grid& grid, double density, uint32_t seed);

/// A perfect maze (exactly one route between any two open cells) with corridors
/// `corridor` cells wide [Limit: >= 1] and walls one cell thick.
void generate_maze(Grid& grid, int corridor, uint32_t seed);

/// Rooms of about `room` cells a side [Limit: >= 3], walls one cell thick, every room reachable
/// through doors `door` cells wide [Limit: >= 1].
void generate_rooms(Grid& grid, int room, int door, uint32_t seed);

}  // namespace pathlab
