#pragma once
// Canvas tools, each behind one small interface (after RecastDemo's SampleTool): a tool gets a
// press, drags and a release in world coordinates and may draw a preview. The canvas decides
// which tool gets the mouse; a tool edits the scene only through its ToolContext, so map edits
// always land in the undo history.

#include <functional>
#include <memory>

#include <imgui.h>

#include "document/edit_history.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

/// `terrain` paints cells with the cost chosen in the panel (default 3, the classic swamp).
/// `select` and `spawn_area` are the crowd's (crowd_ui.hpp); `door` drags a rectangle of door
/// cells, `truck` clicks a moving obstacle's route (door_tools.hpp).
enum class Tool { paint, erase, terrain, rect, start, goal, select, spawn_area, door, truck };

struct DynamicEdit;  // door_tools.hpp

/// What a tool may touch.
struct ToolContext {
  io::Scene& scene;
  EditHistory& history;
  int brush = 1;               ///< brush radius [cells] [Limit: 1..16]
  float terrain_cost = 3.0f;   ///< cost the terrain brush paints
  std::function<void()> map_changed;   ///< after cells changed
  std::function<void()> poses_changed; ///< after start/goal moved or turned
  std::function<ImVec2(Vec2)> to_screen;
  DynamicEdit* dynamic = nullptr;      ///< selection and draft of the door and truck tools
};

class CanvasTool {
 public:
  virtual ~CanvasTool() = default;
  virtual void press(ToolContext& ctx, Vec2 world) = 0;
  virtual void drag(ToolContext& ctx, Vec2 world) = 0;
  virtual void release(ToolContext& ctx, Vec2 world) = 0;
  /// A preview while the mouse is held (the rectangle being dragged).
  virtual void draw(ToolContext&, ImDrawList*, Vec2 /*mouse world*/) const {}
};

/// The tool for `t`.
std::unique_ptr<CanvasTool> make_tool(Tool t);

/// Sets every cell the segment a-b passes through (Amanatides and Woo, "A Fast Voxel Traversal
/// Algorithm for Ray Tracing", 1987), with the brush disc of `radius` cells around each, to
/// `cost`, recording the changes in `history`. A fast stroke thus leaves no gap between the
/// mouse samples.
void paint_segment(Grid& grid, EditHistory& history, Vec2 a, Vec2 b, int radius, float cost);

}  // namespace pathlab::sandbox
