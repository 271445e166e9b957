#pragma once
/// @file crowd_flow_field.hpp
/// What an app reads to show a crowd group's flow field (the core never draws).

#include <cstdint>

#include "pathlab/crowd.hpp"
#include "pathlab/flow_field.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// The flow field unit `id` follows with its group: towards the cell of its goal for its radius
/// class (a radius up to 0.5 counts as 0.5, a larger one is rounded up to a quarter cell). The
/// crowd's own field while it keeps one (CrowdDef::flow_field_units: with the band along the
/// walls, the queues of the last second and the other groups' routes made dearer, as the units
/// read it); else built afresh on the crowd's grid as it is now (Crowd::grid: closed doors are
/// walls) with the other groups' routes made dearer, the field such a group would get (a 256 x
/// 256 map takes a few ms). An app keeps it while goal_flow_field_version(), the crowd's grid,
/// the goal cell and the radius class stay the same. Where the goal cell's centre is too tight
/// for the class, the field flows to its neighbours that are not, as the crowd's.
/// Errors: an unknown id, no room for the class at or around the goal.
Result<FlowField> goal_flow_field(const Crowd& crowd, CrowdAgentId id);

/// Changes whenever a field the crowd keeps is built, dropped or repaired (goal_flow_field()
/// may then answer otherwise; a changed grid is the app's to notice).
int64_t goal_flow_field_version(const Crowd& crowd);

/// The radius class a unit of `radius` shares a flow field with (see goal_flow_field).
/// [Units: cells]
double flow_field_class_radius(double radius);

}  // namespace pathlab
