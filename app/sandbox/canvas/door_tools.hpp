#pragma once
// The door and truck tools (issue 13): doors are rectangles of cells dragged on the map, trucks
// (moving obstacles) are routes clicked point by point. Both edit io::Scene::doors and
// io::Scene::moving_obstacles directly; the sandbox records those lists in its scene state, so
// every edit is one undo step and marks the scene unsaved.

#include <memory>
#include <string>
#include <vector>

#include "canvas/canvas_tools.hpp"
#include "canvas/scene_dynamic_draw.hpp"

namespace pathlab::sandbox {

/// The tools' state that outlives one mouse press: the selection, the route being clicked in,
/// and the settings the next door or truck gets.
struct DynamicEdit {
  int door = -1;   ///< selected door (-1: none)
  int truck = -1;  ///< selected truck (-1: none)
  std::vector<Vec2> draft;            ///< route points clicked so far [cells]
  bool door_open = true;              ///< "open at start" of the next door
  MovingObstacleDef next_truck;       ///< size, speed, start and loop of the next truck
  std::string error;                  ///< the last refused edit, for the panel

  DynamicSelection selection() const { return DynamicSelection{door, truck, &draft}; }
  /// Drops a selection the scene no longer has (after an undo).
  void clamp_to(const io::Scene& scene);
};

/// Drag a rectangle: a new door over those cells (selected). Press on a door: select it.
std::unique_ptr<CanvasTool> make_door_tool();
/// Click: a route point (or, with no route started, select the truck under the mouse);
/// double-click ends the route.
std::unique_ptr<CanvasTool> make_truck_tool();

/// The door covering `w` (the last one added wins), -1 when none.
int door_at(const io::Scene& scene, Vec2 w);
/// The truck whose box (at its route start) or route passes within `tolerance` of `w`, -1 when none.
int truck_at(const io::Scene& scene, Vec2 w, double tolerance);
/// Makes the draft route a truck (selected). False, with `edit.error` set, for fewer than 2 points.
bool finish_truck(io::Scene& scene, DynamicEdit& edit);
/// Removes the selected door or truck. False when nothing is selected.
bool delete_selected(io::Scene& scene, DynamicEdit& edit);
/// Parses "1.5, 3, 7" into increasing times >= 0 (at most 64). Empty text: no toggles.
/// Returns "" or what is wrong.
std::string parse_toggle_times(const std::string& text, std::vector<double>& out);

/// Refuses toggle times that the edit adds (in `now`, not in `old`) earlier than `clock`, the
/// crowd's time since the last Reset: door schedules count from there, so such a time would
/// never happen. Empty when fine, else the message for the panel. [Units: s]
std::string check_added_toggle_times(const std::vector<double>& old, const std::vector<double>& now, double clock);

}  // namespace pathlab::sandbox
