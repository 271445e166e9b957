// Drawing the crowd: unit bodies of their true size with a shape per preset (SDL batches, so
// 200 units stay cheap on the software renderer), doors, trucks, the overlays, the legend and
// the hover label. Reads the model, never changes it.

#include "canvas/units_draw.hpp"
#include "canvas/why_draw.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "canvas/crowd_ui.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

using ToScreen = std::function<ImVec2(Vec2)>;

ImVec2 offset(ImVec2 c, double ang, float len) {
  return ImVec2(c.x + static_cast<float>(std::cos(ang)) * len, c.y + static_cast<float>(std::sin(ang)) * len);
}

void ring(SdlBatch& b, ImVec2 c, float r, ImU32 col, int width) {
  std::array<ImVec2, 21> pts;
  for (size_t k = 0; k < pts.size(); ++k) pts[k] = offset(c, 2.0 * kPi * static_cast<double>(k) / 20.0, r);
  b.thick_polyline(pts.data(), static_cast<int>(pts.size()), col, width);
}

/// An oriented rectangle `len` x `wid` pixels round `c` (the vehicle outline).
void box(SdlBatch& b, ImVec2 c, double h, float len, float wid, ImU32 col, int width) {
  const float ch = static_cast<float>(std::cos(h)), sh = static_cast<float>(std::sin(h));
  auto at = [&](float f, float s) { return ImVec2(c.x + ch * f - sh * s, c.y + sh * f + ch * s); };
  const std::array<ImVec2, 5> p = {at(len / 2, wid / 2), at(len / 2, -wid / 2), at(-len / 2, -wid / 2),
                                   at(-len / 2, wid / 2), at(len / 2, wid / 2)};
  b.thick_polyline(p.data(), 5, col, width);
}

void arrow(SdlBatch& b, ImVec2 from, ImVec2 to, ImU32 col) {
  b.thick_polyline(std::array<ImVec2, 2>{from, to}.data(), 2, col, 2);
  const double a = std::atan2(to.y - from.y, to.x - from.x);
  const float len = std::min(6.0f, std::hypot(to.x - from.x, to.y - from.y) * 0.5f);
  b.line(to, offset(to, a + kPi * 0.8, len), col);
  b.line(to, offset(to, a - kPi * 0.8, len), col);
}

/// `open(d)`: whether door d is open at the moment drawn (the crowd's, or the trail's).
template <class Open>
void draw_doors(const UnitSwarm& units, ImDrawList* dl, const ToScreen& to_screen, Open open) {
  const Crowd& c = units.crowd();
  for (int d = 0; d < c.door_count(); ++d) {
    const DoorDef& def = c.door_def(d);
    const ImVec2 lo = to_screen(Vec2(def.lo.x, def.lo.y)), hi = to_screen(Vec2(def.hi.x + 1.0, def.hi.y + 1.0));
    if (open(d)) {
      dl->AddRect(lo, hi, IM_COL32(90, 200, 110, 255), 0, 0, 2.0f);
      continue;
    }
    dl->AddRectFilled(lo, hi, IM_COL32(150, 85, 40, 255));
    dl->AddLine(lo, hi, IM_COL32(250, 210, 150, 255), 1.5f);  // a cross: "shut"
    dl->AddLine(ImVec2(lo.x, hi.y), ImVec2(hi.x, lo.y), IM_COL32(250, 210, 150, 255), 1.5f);
  }
}

/// `state(k)`: truck k's pose and flags at the moment drawn (the crowd's, or the trail's).
template <class State>
void draw_trucks(const UnitSwarm& units, ImDrawList* dl, SdlBatch& b, const ToScreen& to_screen, bool routes,
                 State state) {
  const Crowd& c = units.crowd();
  for (int k = 0; k < c.moving_obstacle_count(); ++k) {
    const MovingObstacleDef& def = c.moving_obstacle_def(k);
    const auto st = state(k);
    if (routes) {
      std::vector<ImVec2> pts;
      for (const Vec2& p : def.route) pts.push_back(to_screen(p));
      b.polyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(240, 200, 40, 200), def.loop);
      for (const ImVec2& p : pts) b.disc(p, 2.5f, IM_COL32(240, 200, 40, 255), IM_COL32(90, 70, 0, 255));
    }
    const Vec2 f(std::cos(st.pose.heading), std::sin(st.pose.heading)), s(-f.y, f.x);
    const Vec2 hx = f * def.half_extents.x, hy = s * def.half_extents.y;
    const ImVec2 q[4] = {to_screen(st.pose.pos + hx + hy), to_screen(st.pose.pos + hx - hy),
                         to_screen(st.pose.pos - hx - hy), to_screen(st.pose.pos - hx + hy)};
    dl->AddQuadFilled(q[0], q[1], q[2], q[3], IM_COL32(200, 170, 30, 255));
    dl->AddQuad(q[0], q[1], q[2], q[3], st.waiting ? IM_COL32(255, 40, 40, 255) : IM_COL32(60, 50, 10, 255), 2.0f);
    dl->AddLine(q[0], q[1], IM_COL32(60, 50, 10, 255), 3.0f);  // the cab end
  }
}

void draw_overlays(const UnitSwarm& units, SdlBatch& b, const ToScreen& to_screen, const CrowdOverlays& ov,
                   bool lookahead) {
  const Crowd& c = units.crowd();
  for (int i = 0; i < units.count(); ++i) {
    const CrowdAgentState& st = c.state(i);
    const ImVec2 p = to_screen(st.pose.pos);
    if (ov.neighbours)
      for (int j : st.neighbors) b.line(p, to_screen(c.state(j).pose.pos), IM_COL32(150, 230, 150, 140));
    if (ov.velocities) {
      // As RecastDemo's crowd tool: where the route wants to go, and what avoidance chose
      // (one second of travel).
      arrow(b, p, to_screen(st.pose.pos + st.preferred_velocity), IM_COL32(60, 200, 255, 230));
      arrow(b, p, to_screen(st.pose.pos + st.avoidance_velocity), IM_COL32(255, 90, 160, 230));
    }
    if (lookahead && !st.arrived && st.route.size() >= 2) {
      // Where the unit steers: the next waypoint of its route.
      const ImVec2 la = to_screen(st.route[static_cast<size_t>(st.next_waypoint)]);
      b.line(p, la, IM_COL32(255, 140, 0, 200));
      b.disc(la, 3.0f, IM_COL32(255, 140, 0, 255), IM_COL32(120, 60, 0, 255));
    }
  }
}

/// Whether `b` lies on the straight run from `a` to `c`, going on the same way: a grid route's
/// cell centres along a row, a column or a diagonal. [Units: cells]
bool on_straight_run(Vec2 a, Vec2 b, Vec2 c) {
  const Vec2 u = b - a, v = c - b;
  return std::abs(u.x * v.y - u.y * v.x) <= 1e-9 * (glm::length(u) * glm::length(v)) && glm::dot(u, v) > 0.0;
}

/// Above this many units only the selected units' routes are drawn: thousands of translucent
/// routes hide the map and each other, and drawing 5,000 took 25 ms of a frame (issue 27).
constexpr int kAllRoutesMaxUnits = 500;

void draw_routes(const UnitSwarm& units, SdlBatch& b, const ToScreen& to_screen) {
  // The canvas maps cells to pixels by an offset and a scale (Sandbox::world_to_screen):
  // worked out once here, as a grid route of 5,000 units has about a million points. Points in
  // the middle of a straight run are left out: the same line, fewer points.
  const ImVec2 o = to_screen(Vec2(0.0, 0.0)), one = to_screen(Vec2(1.0, 1.0));
  const float sx = one.x - o.x, sy = one.y - o.y;
  auto screen = [&](Vec2 p) { return ImVec2(o.x + static_cast<float>(p.x) * sx, o.y + static_cast<float>(p.y) * sy); };
  std::vector<ImVec2> pts;
  const bool selected_only = units.count() > kAllRoutesMaxUnits;
  for (int i = 0; i < units.count(); ++i) {
    if (selected_only && !units.selected(i)) continue;
    const CrowdAgentState& st = units.crowd().state(i);
    if (st.arrived || st.route.size() < 2) continue;
    pts.clear();
    pts.push_back(screen(st.pose.pos));
    Vec2 last = st.pose.pos;
    const size_t first = static_cast<size_t>(std::max(st.next_waypoint, 0));
    for (size_t k = first; k < st.route.size(); ++k) {
      if (k + 1 < st.route.size() && on_straight_run(last, st.route[k], st.route[k + 1])) continue;
      pts.push_back(screen(st.route[k]));
      last = st.route[k];
    }
    // In the unit's colour, translucent: with hundreds of units the routes must not hide the
    // map (nor the steer points drawn over them).
    b.polyline(pts.data(), static_cast<int>(pts.size()), (preset_colour(units.preset_of(i)) & 0x00FFFFFFu) | 0x70000000u);
  }
}

/// The state of a unit's plan, when it is not simply driving: "!" its planner found no route
/// (it stays put), "..." its route is being planned (an edit's re-plan is pending).
void draw_plan_badge(const UnitSwarm& units, ImDrawList* dl, int i, ImVec2 c, float r) {
  const bool failed = units.plan_failed(i);
  if (!failed && !units.planning(i)) return;
  // At the body's upper right, readable at any zoom (never smaller than the text).
  const float br = std::max(6.5f, ImGui::GetFontSize() * 0.5f);
  const ImVec2 at(c.x + r * 0.75f + br * 0.5f, c.y - r * 0.75f - br * 0.5f);
  const ImU32 fill = failed ? IM_COL32(215, 40, 40, 255) : IM_COL32(240, 170, 20, 255);
  dl->AddCircleFilled(at, br, fill, 16);
  dl->AddCircle(at, br, IM_COL32(20, 20, 20, 255), 16, 1.5f);
  if (failed) {
    const ImVec2 size = ImGui::CalcTextSize("!");
    dl->AddText(ImVec2(at.x - size.x / 2, at.y - size.y / 2), IM_COL32(255, 255, 255, 255), "!");
    return;
  }
  for (int k = -1; k <= 1; ++k)  // three dots: "planning"
    dl->AddCircleFilled(ImVec2(at.x + static_cast<float>(k) * br * 0.45f, at.y), br * 0.16f, IM_COL32(30, 30, 30, 255), 6);
}

void draw_label(const UnitSwarm& units, const io::Scene& scene, int i) {
  const CrowdAgentState& st = units.crowd().state(i);
  const UnitActivity a = units.activity(i);
  const Pose g = units.goal_of(i, scene);
  ImGui::BeginTooltip();
  ImGui::Text("%s #%d  %s", units.preset_of(i).c_str(), units.list_index(i), activity_name(a));
  ImGui::Text("speed %.2f cells/s, radius %.2f", st.speed, units.crowd().agent_def(i).unit.radius);
  ImGui::Text("goal (%.1f, %.1f), re-plans %d", g.pos.x, g.pos.y, units.replans(i));
  const auto& records = units.routing().records;
  const bool from_field = static_cast<size_t>(i) < records.size() && records[static_cast<size_t>(i)].from_flow_field;
  ImGui::Text("route: %s + %s%s", scene.settings.planner.c_str(), scene.settings.smoother.c_str(),
              from_field ? ", read from its group's flow field" : "");
  if (a == UnitActivity::yielding) ImGui::TextUnformatted("giving way to a unit of higher priority");
  // A tooltip sizes itself to its text: wrap at a fixed width, so a long reason is shown in
  // full on several lines instead of one line wider than the screen.
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
  if (units.planning(i)) ImGui::TextUnformatted("planning: re-planned when the edit ends");
  if (units.plan_failed(i)) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "its planner found no route: it stays put");
  if (!units.unit_message(i).empty()) ImGui::Text("why: %s", units.unit_message(i).c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

ImU32 preset_colour(const std::string& preset) {
  static const ImU32 colours[] = {IM_COL32(40, 120, 230, 255), IM_COL32(230, 140, 20, 255), IM_COL32(110, 130, 60, 255),
                                  IM_COL32(140, 80, 40, 255)};
  const auto& names = unit_preset_names();
  const auto it = std::find(names.begin(), names.end(), preset);
  return colours[it == names.end() ? 0 : static_cast<size_t>(it - names.begin()) % 4];
}

void draw_unit_disc(SdlBatch& b, ImDrawList* dl, const std::string& preset, ImVec2 c, float r, bool selected) {
  const ImU32 edge = selected ? IM_COL32(255, 230, 60, 255) : IM_COL32(20, 20, 20, 230);
  if (r <= 48.0f) {
    b.disc(c, r, preset_colour(preset), edge);  // a sprite blit: cheap for hundreds of units
    return;
  }
  // Zoomed in very far (the sprites stop at 48 pixels): a few units, drawn as polygons.
  dl->AddCircleFilled(c, r, preset_colour(preset), 48);
  dl->AddCircle(c, r, edge, 48, 1.0f);
}

void draw_unit_mark(SdlBatch& b, const std::string& preset, ImVec2 c, double heading, float r, bool selected,
                    float ui_scale) {
  const ImU32 white = IM_COL32(255, 255, 255, 255);
  const int bold = std::clamp(static_cast<int>(std::lround(2.0f * ui_scale)), 2, 4);
  if (selected) ring(b, c, r + 2.5f * ui_scale, IM_COL32(255, 230, 60, 255), bold);
  if (r < 5.0f * ui_scale) {
    // Too small for a shape: the heading as a line out of the body.
    b.thick_polyline(std::array<ImVec2, 2>{c, offset(c, heading, r * 1.8f)}.data(), 2, white, bold);
    return;
  }
  const int w = r > 14.0f * ui_scale ? bold : std::max(1, bold - 1);  // bolder marks on big bodies
  if (preset == "car") {
    box(b, c, heading, r * 1.7f, r * 1.0f, white, w);  // the vehicle outline, and its windscreen
    b.line(offset(offset(c, heading, r * 0.45f), heading + kPi / 2, r * 0.5f),
           offset(offset(c, heading, r * 0.45f), heading - kPi / 2, r * 0.5f), white);
  } else if (preset == "tank") {
    box(b, c, heading, r * 1.5f, r * 1.2f, white, w);  // hull and a barrel past the body
    b.thick_polyline(std::array<ImVec2, 2>{c, offset(c, heading, r * 1.5f)}.data(), 2, white, 2);
  } else if (preset == "bear") {
    const std::array<ImVec2, 5> d = {offset(c, heading, r * 0.9f), offset(c, heading + kPi / 2, r * 0.55f),
                                     offset(c, heading + kPi, r * 0.6f), offset(c, heading - kPi / 2, r * 0.55f),
                                     offset(c, heading, r * 0.9f)};
    b.thick_polyline(d.data(), 5, white, w);  // a diamond, longer at the nose
  } else {
    const std::array<ImVec2, 4> wedge = {offset(c, heading, r * 0.9f), offset(c, heading + kPi * 0.78, r * 0.7f),
                                     offset(c, heading - kPi * 0.78, r * 0.7f), offset(c, heading, r * 0.9f)};
    b.thick_polyline(wedge.data(), 4, white, w);  // a wedge pointing where the person faces
  }
}

namespace {

int stroke(float ui_scale) { return std::clamp(static_cast<int>(std::lround(2.0f * ui_scale)), 1, 4); }

/// A unit as drawn: where on screen, facing where, how big.
struct BodyView {
  ImVec2 c;            ///< [Units: pixels]
  double heading;      ///< [Units: radians]
  float true_radius;   ///< the body's radius at this zoom [Units: pixels]
  const std::string* preset;
  bool selected, stuck, waiting;
};

/// Below this radius a body covers less than about 3 pixels across: its shape and heading mark
/// cannot be read, so it is drawn as a dot (level of detail). [Units: pixels]
constexpr float kDotBelowRadiusPx = 1.5f;

/// The bodies of `n` units (`view(i)`): discs in one batch, their marks in the next (a batch
/// draws its lines before its discs); dots for units too small to show a shape; nothing for a
/// unit off the canvas (its clip rect).
template <class View>
void draw_bodies(ImDrawList* dl, SdlLayer& layer, const CrowdDrawOptions& o, size_t n, View view) {
  const float u = o.ui_scale;
  const ImVec2 lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
  const float margin = 8.0f * u;  // a selection or stuck ring round the smallest body
  auto on_canvas = [&](const BodyView& b, float r) {
    return b.c.x + r + margin >= lo.x && b.c.y + r + margin >= lo.y && b.c.x - r - margin < hi.x && b.c.y - r - margin < hi.y;
  };
  SdlBatch& bodies = layer.begin(dl);
  SdlBatch& marks = layer.begin(dl);
  SdlBatch& dots = layer.begin(dl);  // over the marks: a stuck ring is drawn round a dot
  const float dot_side = std::round(4.0f * u);
  for (size_t i = 0; i < n; ++i) {
    const BodyView b = view(i);
    const float r = std::max(3.0f * u, b.true_radius);
    if (!on_canvas(b, r)) continue;
    const ImU32 ring_col = b.stuck ? IM_COL32(255, 30, 30, 255) : IM_COL32(255, 170, 0, 255);
    if (b.true_radius < kDotBelowRadiusPx) {
      if (b.selected) dots.dot(b.c, dot_side + 2.0f * u, IM_COL32(255, 230, 60, 255));
      dots.dot(b.c, dot_side, preset_colour(*b.preset));
      if (o.overlays.stuck && (b.stuck || b.waiting)) ring(marks, b.c, dot_side / 2 + 3.0f * u, ring_col, stroke(u));
      continue;
    }
    draw_unit_disc(bodies, dl, *b.preset, b.c, r, b.selected);
    draw_unit_mark(marks, *b.preset, b.c, b.heading, r, b.selected, u);
    if (o.overlays.stuck && (b.stuck || b.waiting)) ring(marks, b.c, r + 4.0f * u, ring_col, stroke(u));
  }
}

/// A scrubbed moment the crowd has not reached (UnitSwarm::shown_frame): what the trail holds,
/// drawn as draw_crowd draws the crowd (doors, trucks, bodies, marks, stuck rings); routes,
/// overlays and "why" need the crowd itself and come back when it is there.
void draw_trail_frame(const plan::TrailFrame& f, const UnitSwarm& units, ImDrawList* dl, SdlLayer& layer,
                      const ToScreen& to_screen, float scale, const CrowdDrawOptions& o) {
  const size_t doors = f.doors.size(), trucks = f.trucks.size();
  if (o.overlays.doors)
    draw_doors(units, dl, to_screen, [&](int d) {
      return static_cast<size_t>(d) < doors ? f.doors[static_cast<size_t>(d)] != DoorState::closed : units.crowd().door_open(d);
    });
  draw_trucks(units, dl, layer.begin(dl), to_screen, o.overlays.trucks, [&](int k) {
    MovingObstacleState st = units.crowd().moving_obstacle(k);
    if (static_cast<size_t>(k) < trucks) st.pose = f.trucks[static_cast<size_t>(k)].pose, st.waiting = f.trucks[static_cast<size_t>(k)].waiting;
    return st;
  });
  draw_bodies(dl, layer, o, f.units.size(), [&](size_t i) {
    const plan::TrailUnit& t = f.units[i];
    const bool sel = static_cast<int>(i) < units.count() && units.selected(static_cast<int>(i));
    return BodyView{to_screen(t.pos), t.heading, static_cast<float>(t.radius) * scale, &units.trail_preset(t.preset), sel,
                    t.stuck, t.waiting};
  });
}

}  // namespace

/// The scene's units not placed (UnitSwarm::unplaced): a red crossed ring where the scene puts
/// each, so the user sees what a wall covers; the hover names it with its reason in full.
void draw_unplaced_marks(const UnitSwarm& units, ImDrawList* dl, const ToScreen& to_screen, float scale, float ui) {
  const ImU32 red = IM_COL32(225, 45, 45, 255);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (const UnplacedUnit& h : units.unplaced()) {
    if (!is_finite(h.data.pose.pos)) continue;
    const ImVec2 c = to_screen(h.data.pose.pos);
    const float r = std::max(5.0f * ui, 0.5f * scale);
    dl->AddCircle(c, r, red, 20, 2.0f * ui);
    const float d = r * 0.7f;
    dl->AddLine(ImVec2(c.x - d, c.y - d), ImVec2(c.x + d, c.y + d), red, 2.0f * ui);
    dl->AddLine(ImVec2(c.x - d, c.y + d), ImVec2(c.x + d, c.y - d), red, 2.0f * ui);
    const float dx = mouse.x - c.x, dy = mouse.y - c.y;
    if (dx * dx + dy * dy > r * r || ImGui::GetIO().WantCaptureMouse) continue;
    const std::string text = "units[" + std::to_string(h.index) + "] " + h.data.preset + ", not placed: " + h.reason;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void draw_crowd(const UnitSwarm& units, const io::Scene& scene, ImDrawList* dl, SdlLayer& layer,
                const ToScreen& to_screen, float scale, const CrowdDrawOptions& o) {
  if (const plan::TrailFrame* f = units.shown_frame()) {
    draw_trail_frame(*f, units, dl, layer, to_screen, scale, o);
    return;
  }
  const Crowd& crowd = units.crowd();
  if (o.overlays.doors) draw_doors(units, dl, to_screen, [&](int d) { return crowd.door_open(d); });
  SdlBatch& under = layer.begin(dl);
  draw_trucks(units, dl, under, to_screen, o.overlays.trucks, [&](int k) { return crowd.moving_obstacle(k); });
  if (o.routes) draw_routes(units, layer.begin(dl), to_screen);
  draw_overlays(units, layer.begin(dl), to_screen, o.overlays, o.lookahead);
  // One unit selected: why it moves as it does (the Why section), under the bodies.
  if (const std::vector<int> sel = units.selection(); sel.size() == 1)
    if (const CrowdExplanation* why = units.why(sel.front())) draw_why(*why, units.crowd(), dl, to_screen);
  draw_bodies(dl, layer, o, static_cast<size_t>(units.count()), [&](size_t k) {
    const int i = static_cast<int>(k);
    const CrowdAgentState& st = crowd.state(i);
    return BodyView{to_screen(st.pose.pos), st.pose.heading, static_cast<float>(crowd.agent_def(i).unit.radius) * scale,
                    &units.preset_of(i), units.selected(i), st.stuck, st.waiting};
  });
  const float u = o.ui_scale;
  auto radius_px = [&](int i) {
    return std::max(3.0f * u, static_cast<float>(units.crowd().agent_def(i).unit.radius) * scale);
  };
  // Badges last: a batch is drawn at its place in the draw list, so these lie over the marks.
  for (int i = 0; i < units.count(); ++i) draw_plan_badge(units, dl, i, to_screen(units.crowd().state(i).pose.pos), radius_px(i));
  draw_unplaced_marks(units, dl, to_screen, scale, u);
  (void)scene;
}

void draw_crowd_legend(const UnitSwarm& units, ImDrawList* dl, SdlLayer& layer, ImVec2 corner) {
  const auto& names = unit_preset_names();
  std::vector<int> n(names.size(), 0);
  for (int i = 0; i < units.count(); ++i) {
    const auto it = std::find(names.begin(), names.end(), units.preset_of(i));
    if (it != names.end()) ++n[static_cast<size_t>(it - names.begin())];
  }
  const float line = ImGui::GetFontSize() + 6.0f;
  int rows = 0;
  for (int k : n) rows += k > 0 ? 1 : 0;
  if (rows == 0) return;
  const ImVec2 lo(corner.x + 8, corner.y - 8 - line * static_cast<float>(rows) - 6), hi(lo.x + line * 6.8f, corner.y - 8);
  dl->AddRectFilled(lo, hi, IM_COL32(20, 22, 28, 210), 4.0f);
  SdlBatch& b = layer.begin(dl);
  SdlBatch& marks = layer.begin(dl);
  float y = lo.y + 3 + line / 2;
  for (size_t p = 0; p < names.size(); ++p) {
    if (n[p] == 0) continue;
    draw_unit_disc(b, dl, names[p], ImVec2(lo.x + line * 0.6f, y), line * 0.38f, false);
    draw_unit_mark(marks, names[p], ImVec2(lo.x + line * 0.6f, y), -kPi / 2, line * 0.38f, false);
    char text[64];
    std::snprintf(text, sizeof text, "%s  %d", names[p].c_str(), n[p]);
    dl->AddText(ImVec2(lo.x + line * 1.5f, y - ImGui::GetFontSize() / 2), IM_COL32(235, 235, 235, 255), text);
    y += line;
  }
}

void CrowdUi::draw(Sandbox& sb, ImDrawList* dl, bool steer_points) {
  const UnitSwarm& units = sb.units();
  const auto to_screen = [&sb](Vec2 p) { return sb.world_to_screen(p); };
  CrowdDrawOptions o{overlays, sb.show_unit_paths(), steer_points, sb.ui_scale()};
  if (overlays.flow_field && !units.shown_frame())  // under the units: the field of the first selected unit's group
    if (const std::vector<int> sel = units.selection(); !sel.empty())
      flow_field_.draw(units.crowd(), sel.front(), dl, sb.sdl_layer(), to_screen, sb.scale(), sb.ui_scale());
  draw_crowd(units, sb.scene(), dl, sb.sdl_layer(), to_screen, sb.scale(), o);
  if (send_from_) {
    const ImVec2 a = to_screen(*send_from_), b = to_screen(send_to_);
    dl->AddCircle(a, 6.0f, IM_COL32(255, 230, 60, 255), 16, 2.0f);
    if (std::hypot(b.x - a.x, b.y - a.y) > 8.0f) dl->AddLine(a, b, IM_COL32(255, 230, 60, 255), 2.0f);
  }
  if (overlays.legend) draw_crowd_legend(units, dl, sb.sdl_layer(), ImVec2(dl->GetClipRectMin().x, dl->GetClipRectMax().y));
  // The label of the unit under the mouse.
  const ImGuiIO& io = ImGui::GetIO();
  hover_ = -1;
  const ImVec2 m = io.MousePos, lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
  if (io.WantCaptureMouse || sb.presenting() || m.x < lo.x || m.y < lo.y || m.x >= hi.x || m.y >= hi.y) return;
  hover_ = units.unit_at(sb.screen_to_world(m.x, m.y), 3.0 / std::max(1.0f, sb.scale()));
  if (hover_ >= 0) draw_label(units, sb.scene(), hover_);
}

}  // namespace pathlab::sandbox
