#pragma once
// Where the sandbox's regions go in the window (issue 26): the side panel on the right, the
// canvas (the map) top left, the units' timeline under it and the Inspect strip at the bottom,
// and the compare legend in a band at the canvas's right edge. Pure geometry: the callers
// measure the font and say what is shown; this decides the rectangles, so the rules live in
// one place and a mode that hides a region (presentation mode) is one flag.
//
// The rules, at any UI scale and window size:
//  - the side panel is at most kPanelMaxShare of the window's width (its content scrolls);
//  - the canvas keeps at least kCanvasMinShare of the window's area: the timeline and the strip
//    share what is left under it, the strip shrinking first;
//  - the strip keeps its body's useful height (strip_body_useful) where it can: first the
//    timeline drops to one row (timeline_compact), then the side panel narrows, down to
//    kPanelMinShare, so the canvas is wide enough to be shorter (issue 26: at 250% with units
//    the strip showed its tab row only, and Compare its table's header only);
//  - the compare legend is at most kLegendMaxShare of the canvas's width, so the map beside it
//    keeps the rest.

namespace pathlab::sandbox {

/// A screen rectangle. [Units: pixels]
struct ScreenRect {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  float area() const { return w * h; }
  bool empty() const { return w <= 0 || h <= 0; }
};

/// What the layout needs to know about this frame. [Units: pixels]
struct LayoutRequest {
  float display_w = 1280, display_h = 800;  ///< the window [Limit: > 0]
  float font = 14;                          ///< the UI font's size (14 at 100%) [Limit: > 0]
  float frame_height = 20;                  ///< one row of controls (ImGui::GetFrameHeight())
  float item_spacing_y = 4;                 ///< vertical gap between rows of controls
  bool side_panel = true;                   ///< false: the canvas takes the panel's width too
  bool timeline = false;                    ///< the units' timeline shows (there are units)
  bool strip_collapsed = false;             ///< the Inspect strip shows its tab row only
  float strip_wanted = 0;                   ///< the strip's height the user dragged to; 0: the default
  float legend_wanted = 0;                  ///< the compare legend's natural width; 0: no legend
  /// The strip's body height below which the shown tab is not usable (a few lines of text,
  /// Compare's header and rows); 0: strip_body_lines() of the font. [pixels]
  float strip_body_useful = 0;
};

struct ScreenLayout {
  ScreenRect panel;     ///< the side panel (empty when hidden)
  ScreenRect canvas;    ///< the map view, legend band included
  ScreenRect map;       ///< the part of the canvas the map is fitted into (the canvas minus the legend)
  ScreenRect legend;    ///< the compare legend's band (empty without a legend)
  ScreenRect timeline;  ///< the units' timeline (empty without units)
  ScreenRect strip;     ///< the Inspect strip, its splitter included
  bool timeline_two_rows = false;  ///< the timeline's slider sits on a row of its own
  bool timeline_compact = false;   ///< one row: play, the slider and a menu of the other buttons
  float strip_min = 0, strip_max = 0;  ///< the heights the strip's splitter may drag it to
};

constexpr float kPanelMaxShare = 0.30f;   ///< of the window's width
constexpr float kPanelMinShare = 0.25f;   ///< of the window's width: narrower, its labels go above its controls
constexpr float kCanvasMinShare = 0.5f;   ///< of the window's area
constexpr float kLegendMaxShare = 0.35f;  ///< of the canvas's width

/// The side panel's natural width at a font size: 360 px at 14 px, growing with the font. [pixels]
float natural_panel_width(float font);
/// The strip's natural height at a font size: 240 px at 14 px. [pixels]
float natural_strip_height(float font);
/// The timeline's height for its rows (its window padding included). [pixels]
float timeline_strip_height(const LayoutRequest& r, bool two_rows);
/// The timeline puts its slider on a row of its own below this canvas width (its buttons take
/// about 20 font heights). [pixels]
bool timeline_needs_two_rows(float canvas_w, float font);
/// The strip's height collapsed: its splitter and tab row. [pixels]
float collapsed_strip_height(const LayoutRequest& r);
/// The splitter's grip at the strip's top edge. [pixels]
float strip_splitter_height(float font);
/// The strip's body height for `lines` lines of text (the default useful height: 2). [pixels]
float strip_body_lines(const LayoutRequest& r, float lines);
/// The strip's height for a body of `body` pixels: its collapsed height and the gap under the tabs. [pixels]
float strip_height_for_body(const LayoutRequest& r, float body);

/// The rectangles for `r`, by the rules above.
ScreenLayout compute_screen_layout(const LayoutRequest& r);

}  // namespace pathlab::sandbox
