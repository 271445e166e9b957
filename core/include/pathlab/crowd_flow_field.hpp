#pragma once
/// @file crowd_flow_field.hpp
/// What an app reads to show a crowd group's flow field (the core never draws).

#include "pathlab/crowd.hpp"
#include "pathlab/flow_field.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// The flow field towards the cell of unit `id`'s goal for `id`'s radius class (a radius up to
/// 0.5 counts as 0.5, a larger one is rounded up to a quarter cell), on the crowd's grid as it
/// is now (Crowd::grid: closed doors are walls): the field a large group bound there follows
/// (CrowdDef::flow_field_units), built afresh (a 256 x 256 map takes a few ms: an app keeps it
/// while the goal, the radius class and the grid stay the same). Where the goal cell's centre
/// is too tight for the class, the field flows to its neighbours that are not, as the crowd's.
/// Errors: an unknown id, no room for the class at or around the goal.
Result<FlowField> goal_flow_field(const Crowd& crowd, CrowdAgentId id);

/// The radius class a unit of `radius` shares a flow field with (see goal_flow_field).
/// [Units: cells]
double flow_field_class_radius(double radius);

}  // namespace pathlab
