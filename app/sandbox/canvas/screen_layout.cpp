#include "canvas/screen_layout.hpp"

#include <algorithm>

namespace pathlab::sandbox {

float natural_panel_width(float font) { return 360.0f * font / 14.0f; }

float natural_strip_height(float font) { return 240.0f * font / 14.0f; }

bool timeline_needs_two_rows(float canvas_w, float font) { return canvas_w < font * 40.0f; }

float timeline_strip_height(const LayoutRequest& r, bool two_rows) {
  const float rows = two_rows ? 2.0f : 1.0f;
  const float pad = 4.0f * r.font / 14.0f;  // the timeline's window padding (timeline_strip.cpp)
  return rows * r.frame_height + (rows - 1.0f) * r.item_spacing_y + 2.0f * pad;
}

float strip_splitter_height(float font) { return std::max(4.0f, 6.0f * font / 14.0f); }

float collapsed_strip_height(const LayoutRequest& r) {
  const float pad = 4.0f * r.font / 14.0f;  // the strip's window padding (inspector.cpp)
  return strip_splitter_height(r.font) + r.frame_height + 2.0f * pad;
}

float strip_body_lines(const LayoutRequest& r, float lines) {
  return lines * r.font + std::max(0.0f, lines - 1.0f) * r.item_spacing_y;
}

float strip_height_for_body(const LayoutRequest& r, float body) {
  return collapsed_strip_height(r) + r.item_spacing_y + body;  // the tab bar's gap above the body
}

namespace {

/// The height left under a canvas `canvas_w` wide once it keeps its share of the window. [pixels]
float height_below(float W, float H, float canvas_w) {
  return std::max(0.0f, H - std::min(H, kCanvasMinShare * W * H / std::max(1.0f, canvas_w)));
}

/// The side panel's width: its natural width within kPanelMaxShare, narrowed (not under
/// kPanelMinShare) until the canvas, kept at its share, leaves `needed` pixels under it.
float panel_width(const LayoutRequest& r, float W, float H, float needed) {
  if (!r.side_panel) return 0.0f;
  const float widest = std::min(natural_panel_width(r.font), kPanelMaxShare * W);
  if (height_below(W, H, W - widest) >= needed) return widest;
  const float canvas_h = H - needed;
  const float canvas_w = canvas_h > 0.0f ? kCanvasMinShare * W * H / canvas_h : W;
  return std::clamp(W - canvas_w, std::min(widest, kPanelMinShare * W), widest);
}

}  // namespace

ScreenLayout compute_screen_layout(const LayoutRequest& r) {
  ScreenLayout out;
  const float W = std::max(1.0f, r.display_w), H = std::max(1.0f, r.display_h);
  // What the strip should keep: its useful body, or less when the user dragged it smaller.
  const float wanted = r.strip_wanted > 0.0f ? r.strip_wanted : natural_strip_height(r.font);
  const float useful = r.strip_collapsed ? collapsed_strip_height(r)
                                         : std::min(wanted, strip_height_for_body(r, r.strip_body_useful > 0.0f
                                                                                           ? r.strip_body_useful
                                                                                           : strip_body_lines(r, 2.0f)));
  // The timeline on two rows when the canvas is narrow, on one compact row when two rows would
  // leave the strip under its useful height.
  const float widest = r.side_panel ? std::min(natural_panel_width(r.font), kPanelMaxShare * W) : 0.0f;
  out.timeline_two_rows = r.timeline && timeline_needs_two_rows(W - widest, r.font);
  if (out.timeline_two_rows &&
      height_below(W, H, W - widest) < timeline_strip_height(r, true) + useful) {
    out.timeline_two_rows = false;
    out.timeline_compact = true;
  }
  const float timeline_h = r.timeline ? timeline_strip_height(r, out.timeline_two_rows) : 0.0f;
  const float panel_w = panel_width(r, W, H, timeline_h + useful);
  out.panel = ScreenRect{W - panel_w, 0.0f, panel_w, H};
  const float canvas_w = std::max(1.0f, W - panel_w);

  // Under the canvas: the timeline (its rows, never less) and the strip, which gets what the
  // canvas's share leaves, within its collapsed height and its wanted height.
  const float min_canvas_h = std::min(H, kCanvasMinShare * W * H / canvas_w);
  const float below = std::max(0.0f, H - min_canvas_h);
  out.strip_min = collapsed_strip_height(r);
  out.strip_max = std::max(out.strip_min, below - timeline_h);
  const float strip_h = r.strip_collapsed ? out.strip_min : std::clamp(wanted, out.strip_min, out.strip_max);
  const float canvas_h = std::max(1.0f, H - strip_h - timeline_h);
  out.canvas = ScreenRect{0.0f, 0.0f, canvas_w, canvas_h};
  if (r.timeline) out.timeline = ScreenRect{0.0f, canvas_h, canvas_w, timeline_h};
  out.strip = ScreenRect{0.0f, H - strip_h, canvas_w, strip_h};

  // The legend's band at the canvas's right edge; the map is fitted into the rest.
  const float legend_w = r.legend_wanted > 0.0f ? std::min(r.legend_wanted, kLegendMaxShare * canvas_w) : 0.0f;
  out.map = ScreenRect{0.0f, 0.0f, canvas_w - legend_w, canvas_h};
  if (legend_w > 0.0f) out.legend = ScreenRect{canvas_w - legend_w, 0.0f, legend_w, canvas_h};
  return out;
}

}  // namespace pathlab::sandbox
