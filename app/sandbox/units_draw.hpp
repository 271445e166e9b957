#pragma once
// Drawing the sandbox's units (SDL batches): discs with a heading line, their routes and the
// followers' look-ahead points. Reads the model (units.hpp), never changes it.

#include <functional>

#include "sdl_layer.hpp"
#include "units.hpp"

#include <imgui.h>

namespace pathlab::sandbox {

/// Draws the units and, when `paths`, the route each follows; when `lookahead`, the point each
/// unit's follower is steering at this step (the core's UnitState::lookahead) joined to the
/// unit by a thin line.
void draw_units(const UnitSwarm& units, SdlBatch& batch, const std::function<ImVec2(Vec2)>& to_screen, float scale,
                bool paths, bool lookahead);

}  // namespace pathlab::sandbox
