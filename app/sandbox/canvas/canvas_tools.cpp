#include "canvas/canvas_tools.hpp"

#include "canvas/door_tools.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pathlab::sandbox {
namespace {

void stamp(Grid& grid, EditHistory& history, Cell c, int radius, float cost) {
  const int r = radius - 1;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx)
      if (dx * dx + dy * dy <= r * r + r) history.set_cell(grid, c.x + dx, c.y + dy, cost);
}

float brush_cost(Tool t, float terrain) {
  return t == Tool::paint ? kBlocked : (t == Tool::terrain ? terrain : 1.0f);
}

class BrushTool final : public CanvasTool {
 public:
  explicit BrushTool(Tool kind) : kind_(kind) {}
  void press(ToolContext& ctx, Vec2 w) override {
    ctx.history.begin();
    last_ = w;
    paint_segment(ctx.scene.grid, ctx.history, w, w, ctx.brush, brush_cost(kind_, ctx.terrain_cost));
    ctx.map_changed();
  }
  void drag(ToolContext& ctx, Vec2 w) override {
    if (w == last_) return;
    paint_segment(ctx.scene.grid, ctx.history, last_, w, ctx.brush, brush_cost(kind_, ctx.terrain_cost));
    last_ = w;
    ctx.map_changed();
  }
  void release(ToolContext& ctx, Vec2 w) override {
    drag(ctx, w);
    ctx.history.commit();
  }

 private:
  Tool kind_;
  Vec2 last_{0, 0};
};

class RectTool final : public CanvasTool {
 public:
  void press(ToolContext&, Vec2 w) override { from_ = w; }
  void drag(ToolContext&, Vec2) override {}
  void release(ToolContext& ctx, Vec2 w) override {
    const Cell a = cell_of(from_), b = cell_of(w);
    ctx.history.begin();
    for (int y = std::min(a.y, b.y); y <= std::max(a.y, b.y); ++y)
      for (int x = std::min(a.x, b.x); x <= std::max(a.x, b.x); ++x) ctx.history.set_cell(ctx.scene.grid, x, y, kBlocked);
    if (ctx.history.commit()) ctx.map_changed();
  }
  void draw(ToolContext& ctx, ImDrawList* dl, Vec2 m) const override {
    const Cell a = cell_of(from_), b = cell_of(m);
    const Vec2 lo(std::min(a.x, b.x), std::min(a.y, b.y)), hi(std::max(a.x, b.x) + 1, std::max(a.y, b.y) + 1);
    dl->AddRect(ctx.to_screen(lo), ctx.to_screen(hi), IM_COL32(255, 120, 0, 255), 0, 0, 2.0f);
  }

 private:
  Vec2 from_{0, 0};
};

/// Press places the start (or goal), dragging from there sets its heading.
class PoseTool final : public CanvasTool {
 public:
  explicit PoseTool(bool start) : start_(start) {}
  void press(ToolContext& ctx, Vec2 w) override {
    Pose& p = start_ ? ctx.scene.start : ctx.scene.goal;
    if (!ctx.scene.grid.contains(w)) return;
    p.pos = w;
    ctx.poses_changed();
  }
  void drag(ToolContext& ctx, Vec2 w) override {
    Pose& p = start_ ? ctx.scene.start : ctx.scene.goal;
    const ImVec2 a = ctx.to_screen(p.pos), b = ctx.to_screen(w);
    if (std::hypot(b.x - a.x, b.y - a.y) <= 4.0f) return;  // a click, not a drag: keep the heading
    const Vec2 d = w - p.pos;
    p.heading = std::atan2(d.y, d.x);
    ctx.poses_changed();
  }
  void release(ToolContext& ctx, Vec2 w) override { drag(ctx, w); }

 private:
  bool start_;
};

}  // namespace

std::unique_ptr<CanvasTool> make_tool(Tool t) {
  switch (t) {
    case Tool::rect: return std::make_unique<RectTool>();
    case Tool::start: return std::make_unique<PoseTool>(true);
    case Tool::goal: return std::make_unique<PoseTool>(false);
    case Tool::door: return make_door_tool();
    case Tool::truck: return make_truck_tool();
    default: return std::make_unique<BrushTool>(t);
  }
}

void paint_segment(Grid& grid, EditHistory& history, Vec2 a, Vec2 b, int radius, float cost) {
  Cell c = cell_of(a);
  const Cell end = cell_of(b);
  const Vec2 d = b - a;
  const int sx = d.x > 0 ? 1 : -1, sy = d.y > 0 ? 1 : -1;
  // Parameter t along a->b at which the segment crosses the next vertical / horizontal cell line.
  auto first = [](double p, int cell, double dp, int step) {
    if (dp == 0.0) return std::numeric_limits<double>::infinity();
    const double line = step > 0 ? cell + 1.0 : static_cast<double>(cell);
    return (line - p) / dp;
  };
  double tx = first(a.x, c.x, d.x, sx), ty = first(a.y, c.y, d.y, sy);
  const double inf = std::numeric_limits<double>::infinity();
  const double dtx = d.x == 0.0 ? inf : 1.0 / std::abs(d.x), dty = d.y == 0.0 ? inf : 1.0 / std::abs(d.y);
  // At most one step per cell line crossed; the bound guards against rounding at the end.
  const long steps = std::labs(static_cast<long>(end.x) - c.x) + std::labs(static_cast<long>(end.y) - c.y);
  stamp(grid, history, c, radius, cost);
  for (long i = 0; i < steps && c != end; ++i) {
    if (tx < ty) {
      c.x += sx;
      tx += dtx;
    } else if (ty < tx) {
      c.y += sy;
      ty += dty;
    } else {  // through a corner: paint both neighbours so the wall has no diagonal leak
      stamp(grid, history, Cell{c.x + sx, c.y}, radius, cost);
      c.x += sx;
      c.y += sy;
      tx += dtx;
      ty += dty;
      ++i;
    }
    stamp(grid, history, c, radius, cost);
  }
}

}  // namespace pathlab::sandbox
