#pragma once
// The "why" of one unit on the canvas (issue 25; the Why section, panels/why_panel.cpp): its
// preferred and chosen velocity as arrows, its ORCA neighbours, and the half-plane constraints
// they and the walls put on its velocity, drawn in velocity space round the unit (one second
// of travel per cells/s) with the forbidden side shaded, as RecastDemo's crowd tool draws its
// velocity obstacles. Reads the model, never changes it.

#include <functional>

#include <imgui.h>

#include "pathlab/crowd.hpp"

namespace pathlab::sandbox {

/// Draws `e` (Crowd::explain of one unit) with `to_screen` mapping world cells to pixels.
void draw_why(const CrowdExplanation& e, const Crowd& crowd, ImDrawList* dl, const std::function<ImVec2(Vec2)>& to_screen);

}  // namespace pathlab::sandbox
