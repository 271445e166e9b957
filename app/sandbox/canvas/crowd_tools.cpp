// The crowd's canvas tools: select (a box, shift adds; a click on a door toggles it), spawn
// area (drag a rectangle, N units of the preset mix appear in it), and the right-click
// command that sends the selection to a point with an optional heading.

#include <algorithm>
#include <cmath>
#include <string>

#include "canvas/crowd_ui.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

/// Mouse movement below this is a click, not a drag. [Units: screen pixels]
constexpr float kClickPx = 4.0f;

float screen_dist(const ToolContext& ctx, Vec2 a, Vec2 b) {
  const ImVec2 p = ctx.to_screen(a), q = ctx.to_screen(b);
  return std::hypot(p.x - q.x, p.y - q.y);
}

void draw_box(const ToolContext& ctx, ImDrawList* dl, Vec2 a, Vec2 b, ImU32 col) {
  const ImVec2 p = ctx.to_screen(a), q = ctx.to_screen(b);
  const ImVec2 lo(std::min(p.x, q.x), std::min(p.y, q.y)), hi(std::max(p.x, q.x), std::max(p.y, q.y));
  dl->AddRectFilled(lo, hi, (col & 0x00FFFFFFu) | 0x30000000u);
  dl->AddRect(lo, hi, col, 0, 0, 1.5f);
}

class SelectTool final : public CanvasTool {
 public:
  explicit SelectTool(Sandbox& sb) : sb_(sb) {}
  void press(ToolContext&, Vec2 w) override { from_ = w; }
  void drag(ToolContext&, Vec2) override {}
  void release(ToolContext& ctx, Vec2 w) override {
    UnitSwarm& u = sb_.units();
    const bool add = ImGui::GetIO().KeyShift;
    if (screen_dist(ctx, from_, w) >= kClickPx) {
      const int n = u.select_box(from_, w, add);
      sb_.set_status(std::to_string(n) + " selected: right-click sends them", false);
      return;
    }
    // A click: a unit (shift toggles it in the selection), else a door, else nothing.
    const int hit = u.unit_at(w, 3.0 / std::max(1.0f, sb_.scale()));
    if (hit >= 0) {
      if (!add) u.select_none();
      u.select(hit, !(add && u.selected(hit)));
      return;
    }
    if (const int d = door_at(ctx.scene.doors, w); d >= 0) {
      u.toggle_door(d);
      return;
    }
    if (!add) u.select_none();
  }
  void draw(ToolContext& ctx, ImDrawList* dl, Vec2 m) const override {
    if (screen_dist(ctx, from_, m) >= kClickPx) draw_box(ctx, dl, from_, m, IM_COL32(255, 230, 80, 255));
  }

 private:
  Sandbox& sb_;
  Vec2 from_{0, 0};
};

class SpawnAreaTool final : public CanvasTool {
 public:
  explicit SpawnAreaTool(Sandbox& sb) : sb_(sb) {}
  void press(ToolContext&, Vec2 w) override { from_ = w; }
  void drag(ToolContext&, Vec2) override {}
  void release(ToolContext& ctx, Vec2 w) override {
    const CrowdUi& c = sb_.crowd_ui();
    Vec2 a = from_, b = w;
    if (screen_dist(ctx, from_, w) < kClickPx) {
      // A click: a square round it, about big enough for the count.
      const double side = std::ceil(std::sqrt(static_cast<double>(c.spawn_count))) * 1.3;
      a = w - Vec2(side / 2), b = w + Vec2(side / 2);
    }
    UnitSwarm& u = sb_.units();
    const int before = u.count();
    const std::string e = u.spawn_area(ctx.scene, c.spawn_count, c.mix, a, b);  // it checks the count
    sb_.set_status(e.empty() ? std::to_string(u.count() - before) + " units spawned" : e, !e.empty());
  }
  void draw(ToolContext& ctx, ImDrawList* dl, Vec2 m) const override {
    draw_box(ctx, dl, from_, m, IM_COL32(80, 220, 120, 255));
  }

 private:
  Sandbox& sb_;
  Vec2 from_{0, 0};
};

}  // namespace

std::unique_ptr<CanvasTool> make_crowd_tool(Tool t, Sandbox& sb) {
  if (t == Tool::select) return std::make_unique<SelectTool>(sb);
  if (t == Tool::spawn_area) return std::make_unique<SpawnAreaTool>(sb);
  return nullptr;
}

int door_at(const std::vector<DoorDef>& doors, Vec2 p) {
  for (size_t d = 0; d < doors.size(); ++d) {
    const DoorDef& door = doors[d];
    if (p.x >= door.lo.x && p.x < door.hi.x + 1 && p.y >= door.lo.y && p.y < door.hi.y + 1) return static_cast<int>(d);
  }
  return -1;
}

bool CrowdUi::handle_right(Sandbox& sb, bool free_mouse, Vec2 world) {
  UnitSwarm& u = sb.units();
  if (!send_from_) {
    if (!free_mouse || sb.tool() != Tool::select || !ImGui::IsMouseClicked(ImGuiMouseButton_Right)) return false;
    if (u.selection().empty()) return false;  // nothing to command: the right button pans
    send_from_ = world;
    send_to_ = world;
    return true;
  }
  send_to_ = world;
  if (ImGui::IsMouseDown(ImGuiMouseButton_Right)) return true;
  // Released: a drag longer than a few pixels gave a heading.
  const Vec2 d = send_to_ - *send_from_;
  std::optional<double> heading;
  if (glm::length(d) * sb.scale() >= kClickPx * 2) heading = std::atan2(d.y, d.x);
  const std::vector<int> ids = u.selection();
  const std::string e = u.send(ids, *send_from_, heading);
  sb.set_status(e.empty() ? std::to_string(ids.size()) + " units sent" : e, !e.empty());
  send_from_.reset();
  return true;
}

}  // namespace pathlab::sandbox
