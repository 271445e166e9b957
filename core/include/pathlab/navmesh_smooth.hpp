#pragma once
/// @file navmesh_smooth.hpp
/// Turning a navmesh corridor into a path, three ways:
/// - funnel: the exact shortest path inside the corridor (funnel.hpp);
/// - edge shift: the Tower22 post's string pulling (edge_shift.hpp) on its node list: the start,
///   the centre of every later corridor polygon, the goal. The goal's polygon keeps its centre
///   node as well, so the last moved node lands on the last portal and the final leg stays
///   inside that polygon;
/// - los: the Tower22 post's "cheating", kept as a comparison: from the raw path through the portal
///   midpoints, skip nodes while the straight line stays on the mesh (any polygon, not only
///   the corridor's).
/// All three stay on the mesh, so they are clear of walls for the mesh's agent radius. When the
/// search's start and goal are the same point, each returns that single point (length 0).

#include <vector>

#include "pathlab/edge_shift.hpp"
#include "pathlab/funnel.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"

namespace pathlab {

/// The exact shortest path through a found corridor. Errors: the result was not found.
Result<FunnelResult> funnel_corridor(const NavSearchResult& result, bool record_events = false);

/// The Tower22 post's string pulling through a found corridor.
Result<std::vector<Vec2>> edge_shift_corridor(const Navmesh& mesh, const NavSearchResult& result,
                                              const EdgeShiftDef& def = default_edge_shift_def(),
                                              EdgeShiftReport* report = nullptr);

/// The raw node path: start, the middle of each portal, goal. Always on the mesh.
std::vector<Vec2> corridor_midpoints(const NavSearchResult& result);

/// The Tower22 post's "cheating": the midpoint path with nodes skipped while the line stays on
/// the mesh.
Result<std::vector<Vec2>> los_corridor(const Navmesh& mesh, const NavSearchResult& result);

}  // namespace pathlab
