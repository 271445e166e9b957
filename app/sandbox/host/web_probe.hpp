#pragma once
// What the browser test (web/test/browser_test.mjs) reads of the page's sandbox, through two
// exported functions of web_main.cpp. Read-only: the test acts through the real controls (mouse
// and keys on the canvas), and reads here where they are and what they did.

#include <string>

namespace pathlab::sandbox {

class Sandbox;

/// "x y w h" of the control drawn last frame under `name` (Sandbox::widget_rect, else
/// Inspector::widget), in canvas pixels; "" when it was not drawn.
std::string web_widget_rect(Sandbox& sb, const std::string& name);

/// One JSON object: the scene shown (`scene`, the console lines' name), the plan (planner,
/// smoother, plans, valid (false: the old scene's plan dropped, the new one not made yet),
/// found, length as %.17g text, error), the presentation and lesson (step from 1, count,
/// caption), the units (count, playing, time, the sum of their positions, the recorded steps
/// and the step shown), the search replay (steps, step) and Compare (shown, busy, and per
/// ticked row: planner, verdict, length).
std::string web_state_json(Sandbox& sb, const std::string& scene);

}  // namespace pathlab::sandbox
