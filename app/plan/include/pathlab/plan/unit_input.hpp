#pragma once
/// @file unit_input.hpp
/// Edits during a crowd run as data (io::UnitInput: paint cells, click a door, send units to
/// a goal, spawn a unit, move the scene's goal), applied to a scene's units by one function,
/// so a recorded run replays its edits exactly as they were made (recording.hpp). The sandbox's door clicks and "send the
/// selection" go through toggle_door and send_unit below too.

#include <optional>
#include <string>

#include "pathlab/crowd.hpp"
#include "pathlab/io/repro_file.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/plan/scene_units.hpp"
#include "pathlab/status.hpp"

namespace pathlab::plan {

using io::UnitInput;

/// A click on door `door`: opens it, or closes it when clear; a click on a door closing when
/// clear cancels the close. Errors: no such door.
Status toggle_door(Crowd& crowd, int door);

/// Sends unit `id` to `goal` (moved to the nearest point where it fits, fit_goal), facing
/// `heading` there when given. Errors: unknown unit, no room near the goal, the core's refusal.
Status send_unit(Crowd& crowd, CrowdAgentId id, Vec2 goal, std::optional<double> heading);

/// Rebuilds the crowd of `units` on `scene`'s map (edited) from the units' current states, as
/// the sandbox does after a map edit: every unit re-plans from where it stands (an arrived one
/// stays), doors carry on from their state now and trucks from where they are. A unit with no
/// room left is dropped (the ids after it move down). The crowd's clock starts again at 0
/// (SceneUnits::step_offset keeps the count).
void rebuild_scene_units(SceneUnits& units, const io::Scene& scene);

/// Applies one input now: paint edits `scene.grid` and rebuilds the crowd
/// (rebuild_scene_units), a door click is toggle_door, a send is send_unit for each listed unit
/// (unknown ids skipped, as the sandbox skips them), a spawn places a unit (place_unit; the
/// next agent id; listed in `scene.units` where it stands), a goal move sets `scene.goal` and
/// re-targets the units without their own goal. Returns "" or the first problem for people
/// (the run goes on: a replay meets the same problem at the same step).
std::string apply_unit_input(SceneUnits& units, io::Scene& scene, const UnitInput& input);

}  // namespace pathlab::plan
