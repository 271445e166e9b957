#include "canvas/door_tools.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pathlab::sandbox {
namespace {

/// Pixels per cell of the current view.
double pixels_per_cell(const ToolContext& ctx) {
  return std::max(1e-3, static_cast<double>(ctx.to_screen(Vec2(1, 0)).x - ctx.to_screen(Vec2(0, 0)).x));
}

Cell clamp_cell(const Grid& g, Cell c) { return Cell{std::clamp(c.x, 0, g.width() - 1), std::clamp(c.y, 0, g.height() - 1)}; }

double segment_distance(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const double len2 = glm::dot(ab, ab);
  const double t = len2 > 0.0 ? std::clamp(glm::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return glm::length(p - (a + ab * t));
}

class DoorTool final : public CanvasTool {
 public:
  void press(ToolContext& ctx, Vec2 w) override {
    from_ = w;
    const int hit = door_at(ctx.scene, w);
    selecting_ = hit >= 0;
    if (selecting_ && ctx.dynamic) {
      ctx.dynamic->door = hit;
      ctx.dynamic->truck = -1;
    }
  }
  void drag(ToolContext&, Vec2) override {}
  void release(ToolContext& ctx, Vec2 w) override {
    if (selecting_ || !ctx.dynamic || ctx.scene.grid.width() == 0) return;
    const Cell a = clamp_cell(ctx.scene.grid, cell_of(from_)), b = clamp_cell(ctx.scene.grid, cell_of(w));
    DoorDef d;
    d.lo = Cell{std::min(a.x, b.x), std::min(a.y, b.y)};
    d.hi = Cell{std::max(a.x, b.x), std::max(a.y, b.y)};
    d.open_at_start = ctx.dynamic->door_open;
    if (ctx.scene.doors.size() >= io::kMaxSceneDoors) {
      ctx.dynamic->error = "at most " + std::to_string(io::kMaxSceneDoors) + " doors";
      return;
    }
    ctx.scene.doors.push_back(d);
    ctx.dynamic->door = static_cast<int>(ctx.scene.doors.size()) - 1;
    ctx.dynamic->truck = -1;
    ctx.dynamic->error.clear();
  }
  void draw(ToolContext& ctx, ImDrawList* dl, Vec2 m) const override {
    if (selecting_) return;
    const Cell a = cell_of(from_), b = cell_of(m);
    DoorDef d;
    d.lo = Cell{std::min(a.x, b.x), std::min(a.y, b.y)};
    d.hi = Cell{std::max(a.x, b.x), std::max(a.y, b.y)};
    draw_door(dl, d, ctx.dynamic ? ctx.dynamic->door_open : true, true, ctx.to_screen);
  }

 private:
  Vec2 from_{0, 0};
  bool selecting_ = false;
};

class TruckTool final : public CanvasTool {
 public:
  void press(ToolContext& ctx, Vec2 w) override {
    if (!ctx.dynamic) return;
    DynamicEdit& e = *ctx.dynamic;
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && !e.draft.empty()) {
      finish_truck(ctx.scene, e);  // the first click of the double-click placed the last point
      return;
    }
    if (e.draft.empty()) {
      const int hit = truck_at(ctx.scene, w, 6.0 / pixels_per_cell(ctx));
      if (hit >= 0) {
        e.truck = hit;
        e.door = -1;
        return;
      }
    }
    if (!ctx.scene.grid.contains(w)) return;
    if (!e.draft.empty() && glm::length(w - e.draft.back()) < 1e-6) return;
    if (e.draft.size() >= 1000) {
      e.error = "a route has at most 1000 points";
      return;
    }
    e.draft.push_back(w);
    e.truck = -1;
    e.error.clear();
  }
  void drag(ToolContext&, Vec2) override {}
  void release(ToolContext&, Vec2) override {}
};

}  // namespace

void DynamicEdit::clamp_to(const io::Scene& scene) {
  if (door >= static_cast<int>(scene.doors.size())) door = -1;
  if (truck >= static_cast<int>(scene.moving_obstacles.size())) truck = -1;
}

std::unique_ptr<CanvasTool> make_door_tool() { return std::make_unique<DoorTool>(); }
std::unique_ptr<CanvasTool> make_truck_tool() { return std::make_unique<TruckTool>(); }

int door_at(const io::Scene& scene, Vec2 w) {
  const Cell c = cell_of(w);
  for (int i = static_cast<int>(scene.doors.size()) - 1; i >= 0; --i) {
    const DoorDef& d = scene.doors[static_cast<size_t>(i)];
    if (c.x >= d.lo.x && c.x <= d.hi.x && c.y >= d.lo.y && c.y <= d.hi.y) return i;
  }
  return -1;
}

int truck_at(const io::Scene& scene, Vec2 w, double tolerance) {
  for (int i = static_cast<int>(scene.moving_obstacles.size()) - 1; i >= 0; --i) {
    const MovingObstacleDef& m = scene.moving_obstacles[static_cast<size_t>(i)];
    const Pose box = truck_start_pose(m);
    const double c = std::cos(box.heading), s = std::sin(box.heading);
    const Vec2 d = w - box.pos;
    if (std::abs(c * d.x + s * d.y) <= m.half_extents.x + tolerance && std::abs(-s * d.x + c * d.y) <= m.half_extents.y + tolerance)
      return i;
    for (size_t k = 0; k + 1 < m.route.size(); ++k)
      if (segment_distance(w, m.route[k], m.route[k + 1]) <= tolerance) return i;
  }
  return -1;
}

bool finish_truck(io::Scene& scene, DynamicEdit& edit) {
  if (edit.draft.size() < 2) {
    edit.error = "a truck's route needs at least 2 points";
    return false;
  }
  if (scene.moving_obstacles.size() >= io::kMaxSceneMovingObstacles) {
    edit.error = "at most " + std::to_string(io::kMaxSceneMovingObstacles) + " moving obstacles";
    return false;
  }
  MovingObstacleDef m = edit.next_truck;
  m.route = std::move(edit.draft);
  edit.draft.clear();
  // A loop back to its own start would have a leg of length zero: the loop closes itself.
  if (m.loop && m.route.size() > 2 && glm::length(m.route.back() - m.route.front()) < 0.5) m.route.pop_back();
  scene.moving_obstacles.push_back(std::move(m));
  edit.truck = static_cast<int>(scene.moving_obstacles.size()) - 1;
  edit.door = -1;
  edit.error.clear();
  return true;
}

bool delete_selected(io::Scene& scene, DynamicEdit& edit) {
  edit.clamp_to(scene);
  if (edit.door >= 0) {
    scene.doors.erase(scene.doors.begin() + edit.door);
    edit.door = -1;
    return true;
  }
  if (edit.truck >= 0) {
    scene.moving_obstacles.erase(scene.moving_obstacles.begin() + edit.truck);
    edit.truck = -1;
    return true;
  }
  return false;
}

std::string parse_toggle_times(const std::string& text, std::vector<double>& out) {
  std::vector<double> times;
  const char* p = text.c_str();
  while (*p != '\0') {
    while (*p == ' ' || *p == ',' || *p == ';' || *p == '\t') ++p;
    if (*p == '\0') break;
    char* end = nullptr;
    const double t = std::strtod(p, &end);
    if (end == p) return "not a number at \"" + std::string(p).substr(0, 12) + "\"";
    if (!std::isfinite(t) || t < 0.0) return "times must be finite and >= 0";
    if (!times.empty() && t <= times.back()) return "times must increase";
    if (times.size() >= 64) return "at most 64 times";
    times.push_back(t);
    p = end;
  }
  out = std::move(times);
  return {};
}

std::string check_added_toggle_times(const std::vector<double>& old, const std::vector<double>& now, double clock) {
  for (double t : now) {
    if (t >= clock || std::find(old.begin(), old.end(), t) != old.end()) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf, "toggle time %g s is already past: t = %.1f s since Reset (Reset to start the schedule again)", t, clock);
    return buf;
  }
  return {};
}

}  // namespace pathlab::sandbox
