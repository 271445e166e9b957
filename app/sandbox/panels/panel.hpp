#pragma once
// A section of the sandbox's side panel behind one small interface, so the sandbox only lists
// its panels and a new panel is one class (RecastDemo's SampleTool idea, applied to panels).

#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace pathlab::sandbox {

class Sandbox;

class Panel {
 public:
  virtual ~Panel() = default;
  /// Draws the panel's widgets into the current ImGui window (its collapsing header included).
  virtual void draw(Sandbox& sb) = 0;
};

/// A panel drawn by a function (the planning, stats and units sections, which live with the
/// code they configure).
class FunctionPanel final : public Panel {
 public:
  explicit FunctionPanel(std::function<void(Sandbox&)> fn) : fn_(std::move(fn)) {}
  void draw(Sandbox& sb) override { fn_(sb); }

 private:
  std::function<void(Sandbox&)> fn_;
};

/// Width of the side panel [pixels]: 350 at the default font, growing with the UI scale but
/// never more than 45% of the window.
float side_panel_width();
/// Presentation mode hides the side panel: side_panel_width() is 0 while `hidden`, so the
/// canvas, the timeline and the strip take the whole width. (One sandbox per process.)
void set_side_panel_hidden(bool hidden);

std::unique_ptr<Panel> make_scene_panel();  // panel_scene.cpp: open, import, save, recent files
std::unique_ptr<Panel> make_edit_panel();   // panel_edit.cpp: tools, brush, undo, generators, view
/// The "Doors and trucks" panel (door_panel.cpp): the two tools, the selected door's or truck's
/// fields, and the keys (Enter ends a route, Delete removes the selection, Esc drops the route).
std::unique_ptr<Panel> make_dynamic_panel();

}  // namespace pathlab::sandbox
