#include "canvas/scene_dynamic_draw.hpp"

#include <algorithm>
#include <cmath>

namespace pathlab::sandbox {
namespace {

constexpr ImU32 kSelected = IM_COL32(255, 230, 40, 255);
constexpr ImU32 kClosing = IM_COL32(255, 170, 0, 255);

/// 45-degree hatch lines over the screen rectangle [a, b], `gap` pixels apart.
void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, float gap, ImU32 col, float thickness) {
  const float w = b.x - a.x, h = b.y - a.y;
  if (w <= 0.0f || h <= 0.0f) return;
  gap = std::max(gap, std::max(w, h) / 200.0f);  // at most ~400 lines, however large the door
  // Lines y - a.y = (x - a.x) - c for c in (-h, w): each clipped to the rectangle.
  for (float c = -h + std::fmod(h, gap); c < w; c += gap) {
    const float x0 = std::max(0.0f, c), x1 = std::min(w, c + h);
    if (x1 <= x0) continue;
    dl->AddLine(ImVec2(a.x + x0, a.y + (x0 - c)), ImVec2(a.x + x1, a.y + (x1 - c)), col, thickness);
  }
}

}  // namespace

void draw_door(ImDrawList* dl, const DoorDef& d, bool open, bool selected, const std::function<ImVec2(Vec2)>& to_screen,
               bool closing) {
  const ImVec2 a = to_screen(Vec2(d.lo.x, d.lo.y)), b = to_screen(Vec2(d.hi.x + 1, d.hi.y + 1));
  const float cell = std::max(1.0f, to_screen(Vec2(1, 0)).x - to_screen(Vec2(0, 0)).x);
  if (open) {  // passable: light green, sparse hatch, dashed-looking double border
    dl->AddRectFilled(a, b, IM_COL32(70, 210, 100, 90));
    hatch(dl, a, b, std::max(5.0f, cell * 0.35f), IM_COL32(20, 140, 50, 200), 1.5f);
    dl->AddRect(a, b, IM_COL32(10, 120, 40, 255), 0.0f, 0, 2.5f);
    if (closing) {  // asked to close, a unit still in it: amber, and said in words where there is room
      dl->AddRect(ImVec2(a.x - 2.0f, a.y - 2.0f), ImVec2(b.x + 2.0f, b.y + 2.0f), kClosing, 0.0f, 0, 3.5f);
      const char* text = "closing when clear";
      const ImVec2 size = ImGui::CalcTextSize(text);
      if (b.x - a.x >= size.x || cell >= 24.0f) {
        const ImVec2 at(0.5f * (a.x + b.x - size.x), a.y - size.y - 4.0f);
        dl->AddRectFilled(ImVec2(at.x - 2.0f, at.y - 1.0f), ImVec2(at.x + size.x + 2.0f, at.y + size.y + 1.0f), IM_COL32(30, 20, 0, 200));
        dl->AddText(at, kClosing, text);
      }
    }
  } else {  // a wall for now: dark red, dense bright hatch
    dl->AddRectFilled(a, b, IM_COL32(90, 20, 20, 220));
    hatch(dl, a, b, std::max(3.0f, cell * 0.2f), IM_COL32(250, 90, 60, 240), 1.5f);
    dl->AddRect(a, b, IM_COL32(250, 60, 40, 255), 0.0f, 0, 2.5f);
  }
  if (!d.toggle_times.empty() && cell >= 10.0f) {  // a clock mark: this door switches on a schedule
    const ImVec2 c(b.x - 5.0f, a.y + 5.0f);
    dl->AddCircleFilled(c, 4.0f, IM_COL32(255, 255, 255, 230));
    dl->AddLine(c, ImVec2(c.x, c.y - 3.0f), IM_COL32(0, 0, 0, 255));
    dl->AddLine(c, ImVec2(c.x + 2.5f, c.y), IM_COL32(0, 0, 0, 255));
  }
  if (selected) dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), kSelected, 0.0f, 0, 2.0f);
}

Pose truck_start_pose(const MovingObstacleDef& m) {
  if (m.route.empty()) return Pose{};
  if (m.route.size() < 2) return Pose{m.route[0], 0.0};
  const Vec2 d = m.route[1] - m.route[0];
  return Pose{m.route[0], std::atan2(d.y, d.x)};
}

void draw_truck(ImDrawList* dl, const MovingObstacleDef& m, const Pose& box, bool selected, bool route,
                const std::function<ImVec2(Vec2)>& to_screen) {
  const ImU32 line = IM_COL32(255, 150, 30, 220);
  if (route && m.route.size() >= 2) {
    for (size_t k = 0; k + 1 < m.route.size(); ++k) dl->AddLine(to_screen(m.route[k]), to_screen(m.route[k + 1]), line, 2.0f);
    if (m.loop) dl->AddLine(to_screen(m.route.back()), to_screen(m.route.front()), IM_COL32(255, 150, 30, 110), 1.5f);
    for (const Vec2& p : m.route) dl->AddCircleFilled(to_screen(p), 3.0f, line);
    // An arrow head at the end of the route: the way it drives.
    const Vec2 e = m.route.back(), f = m.route[m.route.size() - 2];
    const ImVec2 tip = to_screen(e), from = to_screen(f);
    const float dx = tip.x - from.x, dy = tip.y - from.y, len = std::max(1e-3f, std::hypot(dx, dy));
    const float ux = dx / len * 10.0f, uy = dy / len * 10.0f;
    dl->AddTriangleFilled(tip, ImVec2(tip.x - ux - uy * 0.5f, tip.y - uy + ux * 0.5f),
                          ImVec2(tip.x - ux + uy * 0.5f, tip.y - uy - ux * 0.5f), line);
  }
  const double c = std::cos(box.heading), s = std::sin(box.heading);
  const Vec2 ax(c * m.half_extents.x, s * m.half_extents.x), ay(-s * m.half_extents.y, c * m.half_extents.y);
  const ImVec2 q[4] = {to_screen(box.pos + ax + ay), to_screen(box.pos + ax - ay), to_screen(box.pos - ax - ay),
                       to_screen(box.pos - ax + ay)};
  dl->AddQuadFilled(q[0], q[1], q[2], q[3], IM_COL32(200, 110, 20, 210));
  dl->AddQuad(q[0], q[1], q[2], q[3], selected ? kSelected : IM_COL32(60, 30, 0, 255), selected ? 3.0f : 1.5f);
  // The cab: a band at the front, so the way it faces reads at any zoom.
  const Vec2 cab = ax * 0.55;
  dl->AddQuadFilled(q[0], q[1], to_screen(box.pos + cab - ay), to_screen(box.pos + cab + ay), IM_COL32(90, 50, 10, 230));
}

void draw_scene_dynamic(ImDrawList* dl, const io::Scene& scene, const std::function<ImVec2(Vec2)>& to_screen,
                        const DynamicSelection& sel, const DynamicLive& live) {
  for (size_t i = 0; i < scene.doors.size(); ++i) {
    const bool open = live.door_open && i < live.door_open->size() ? (*live.door_open)[i] : scene.doors[i].open_at_start;
    const bool closing = live.door_state && i < live.door_state->size() && (*live.door_state)[i] == DoorState::closing_when_clear;
    draw_door(dl, scene.doors[i], open, static_cast<int>(i) == sel.door, to_screen, closing);
  }
  for (size_t i = 0; i < scene.moving_obstacles.size(); ++i) {
    const MovingObstacleDef& m = scene.moving_obstacles[i];
    const Pose box = live.truck_pose && i < live.truck_pose->size() ? (*live.truck_pose)[i] : truck_start_pose(m);
    draw_truck(dl, m, box, static_cast<int>(i) == sel.truck, true, to_screen);
  }
  if (sel.draft && !sel.draft->empty()) {
    const ImU32 col = IM_COL32(255, 200, 80, 255);
    for (size_t k = 0; k + 1 < sel.draft->size(); ++k) dl->AddLine(to_screen((*sel.draft)[k]), to_screen((*sel.draft)[k + 1]), col, 2.0f);
    for (const Vec2& p : *sel.draft) dl->AddCircle(to_screen(p), 5.0f, col, 12, 2.0f);
  }
}

}  // namespace pathlab::sandbox
