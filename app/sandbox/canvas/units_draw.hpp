#pragma once
// Drawing the sandbox's crowd (SDL batches and the canvas draw list): unit bodies of their
// true size with a shape and a colour per preset and a heading mark, doors, trucks, the
// overlays and a legend. Reads the model (units.hpp), never changes it.

#include <functional>
#include <string>

#include "canvas/crowd_ui.hpp"
#include "canvas/sdl_layer.hpp"
#include "units/units.hpp"

#include <imgui.h>

namespace pathlab::sandbox {

/// The colour of a preset (person blue, car orange, tank olive, bear brown).
ImU32 preset_colour(const std::string& preset);

/// One unit's body: a disc of radius `r` pixels in the preset's colour (a sprite in `b` up to
/// 48 pixels, a polygon in `dl` beyond).
void draw_unit_disc(SdlBatch& b, ImDrawList* dl, const std::string& preset, ImVec2 c, float r, bool selected);
/// Its mark, drawn over the disc (in a later batch): the preset's shape pointing along
/// `heading` (person: a wedge; car: a vehicle outline with its windscreen; tank: a hull and
/// barrel; bear: a diamond), below 5 pixels a heading line only; a ring when selected.
void draw_unit_mark(SdlBatch& b, const std::string& preset, ImVec2 c, double heading, float r, bool selected,
                    float ui_scale = 1.0f);

struct CrowdDrawOptions {
  CrowdOverlays overlays;
  bool routes = true;     ///< each unit's remaining route
  bool lookahead = true;  ///< a line to the waypoint each unit steers at
  /// The UI scale (Sandbox::ui_scale(), 1 at 100%): the smallest body, the outlines and the
  /// stuck rings grow with it, so a unit stays visible on a projector. [Limit: >= 1]
  float ui_scale = 1.0f;
};

/// Doors, trucks, routes, overlays and the units (bodies never smaller than 3 pixels times the UI scale).
void draw_crowd(const UnitSwarm& units, const io::Scene& scene, ImDrawList* dl, SdlLayer& layer,
                const std::function<ImVec2(Vec2)>& to_screen, float scale, const CrowdDrawOptions& o);

/// The presets present with their shape, colour and count, in a box above `corner` (the
/// canvas's bottom-left corner).
void draw_crowd_legend(const UnitSwarm& units, ImDrawList* dl, SdlLayer& layer, ImVec2 corner);

}  // namespace pathlab::sandbox
