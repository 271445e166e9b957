#pragma once
// The crowd's side of the canvas: the select and spawn-area tools, the right-click command
// (send the selection to a point; drag to set the heading), what the crowd overlays show, and
// the spawn settings of the Units panel. The model is units/units.hpp; drawing units_draw.hpp.

#include <memory>
#include <optional>
#include <vector>

#include <imgui.h>

#include "canvas/canvas_tools.hpp"
#include "canvas/flow_field_draw.hpp"
#include "pathlab/geometry.hpp"

namespace pathlab::sandbox {

class Sandbox;

/// Crowd overlays (the Units panel's toggles).
struct CrowdOverlays {
  bool neighbours = false;  ///< a line from each unit to each neighbour its avoidance considered
  bool velocities = false;  ///< preferred (route) and avoidance (ORCA) velocity arrows
  bool stuck = true;        ///< a red ring round stuck units
  bool doors = true;        ///< doors: closed ones filled, open ones outlined
  bool trucks = true;       ///< moving obstacles' routes
  bool legend = true;       ///< the presets present, by shape and colour
  bool flow_field = false;  ///< the flow field of the selected group's goal (flow_field_draw.hpp)
};

class CrowdUi {
 public:
  int spawn_count = 40;                    ///< units per spawn-area drag [Limit: 1..kMaxUnits]
  std::vector<int> mix = {3, 1, 1, 1};     ///< weights per unit_preset_names() entry [Limit: 0..10]
  CrowdOverlays overlays;

  /// The right mouse button with the select tool and a selection: press at the goal, drag to
  /// set the heading, release to send. Returns true while it owns the mouse (no panning).
  bool handle_right(Sandbox& sb, bool free_mouse, Vec2 world);
  /// Draws doors, trucks, units, overlays, the legend, the hover label and the command preview;
  /// `steer_points`: a line from each unit to the waypoint it steers at (an inspector overlay).
  void draw(Sandbox& sb, ImDrawList* dl, bool steer_points);
  /// The unit under the mouse last frame, or -1.
  int hovered() const { return hover_; }
  /// The flow field overlay (what it showed last).
  const FlowFieldOverlay& flow_field() const { return flow_field_; }

 private:
  FlowFieldOverlay flow_field_;
  std::optional<Vec2> send_from_;
  Vec2 send_to_{0.0, 0.0};
  int hover_ = -1;
};

/// The canvas tool for `t` when it is a crowd tool (select, spawn area), else null.
std::unique_ptr<CanvasTool> make_crowd_tool(Tool t, Sandbox& sb);

/// The door (index into the scene's doors) whose cells contain `p`, or -1.
int door_at(const std::vector<DoorDef>& doors, Vec2 p);

}  // namespace pathlab::sandbox
