#pragma once
// Drawing the scene's doors and moving obstacles ("trucks") on the canvas. While editing, the
// scene's definitions are drawn (a door as hatched cells, open and closed told apart; a truck
// as its box at the route's start with the route line); while a crowd runs, the caller passes
// the live door states and truck poses and the same function draws those.

#include <functional>
#include <vector>

#include <imgui.h>

#include "pathlab/crowd.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

/// What is selected or being drawn by the door and truck tools (-1: nothing).
struct DynamicSelection {
  int door = -1;
  int truck = -1;
  const std::vector<Vec2>* draft = nullptr;  ///< a truck route being clicked in
};

/// Live state from a running crowd; null members mean "draw the scene's definitions".
struct DynamicLive {
  const std::vector<bool>* door_open = nullptr;  ///< one per door
  const std::vector<Pose>* truck_pose = nullptr; ///< one per moving obstacle
  const std::vector<DoorState>* door_state = nullptr;  ///< one per door (closing when clear is drawn)
};

/// Door colours: closed is a dense red hatch on a dark fill, open a sparse green hatch; an open
/// door waiting for units to pass before it closes (`closing`) has a thick amber border and,
/// when the cells are large enough, the words "closing when clear".
void draw_door(ImDrawList* dl, const DoorDef& d, bool open, bool selected, const std::function<ImVec2(Vec2)>& to_screen,
               bool closing = false);

/// A truck's box (centre, heading, half extents) and, with `route`, its route polyline.
void draw_truck(ImDrawList* dl, const MovingObstacleDef& m, const Pose& box, bool selected, bool route,
                const std::function<ImVec2(Vec2)>& to_screen);

/// Where a truck stands before it starts: at route[0], facing along the first leg.
Pose truck_start_pose(const MovingObstacleDef& m);

/// Every door and truck of `scene` (and the draft route), in that order, under the units.
void draw_scene_dynamic(ImDrawList* dl, const io::Scene& scene, const std::function<ImVec2(Vec2)>& to_screen,
                        const DynamicSelection& sel = {}, const DynamicLive& live = {});

}  // namespace pathlab::sandbox
