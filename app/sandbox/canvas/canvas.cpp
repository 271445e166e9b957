// The canvas: the map texture, the path, the markers, and the mouse and keys on the map.

#include <algorithm>
#include <cmath>

#include "inspect/inspector.hpp"
#include "sandbox.hpp"
#include "canvas/crowd_ui.hpp"
#include "canvas/units_draw.hpp"

namespace pathlab::sandbox {
namespace {

constexpr float kHandlePx = 12.0f;  // grab distance for start/goal markers and heading handles

float dist(ImVec2 a, ImVec2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

uint32_t abgr(int r, int g, int b) {  // ABGR8888: R, G, B, A in memory order on little-endian
  return 0xFF000000u | static_cast<uint32_t>(b) << 16 | static_cast<uint32_t>(g) << 8 | static_cast<uint32_t>(r);
}

uint32_t cell_colour(float cost) {
  if (cost == kBlocked) return abgr(28, 30, 34);
  if (cost <= 1.0f) return abgr(233, 238, 242);
  // Terrain: the dearer, the darker (logarithmic: cost 3, the classic swamp, sits half way to 10).
  const float t = std::clamp(std::log10(cost), 0.0f, 1.0f);
  auto mix = [t](int a, int b) { return static_cast<int>(static_cast<float>(a) + (static_cast<float>(b) - static_cast<float>(a)) * t); };
  return abgr(mix(178, 52), mix(204, 80), mix(160, 40));
}

// Straight alpha "over": the search tint on the map, done once per change instead of by the
// renderer on every frame.
uint32_t blend_over(uint32_t dst, uint32_t src) {
  const uint32_t a = src >> 24;
  if (a == 0) return dst;
  uint32_t out = 0xFF000000u;
  for (int shift = 0; shift < 24; shift += 8) {
    const uint32_t d = (dst >> shift) & 0xFFu, c = (src >> shift) & 0xFFu;
    out |= ((c * a + d * (255u - a) + 127u) / 255u) << shift;
  }
  return out;
}

}  // namespace

ImVec2 Sandbox::world_to_screen(Vec2 w) const {
  return ImVec2(origin_x_ + static_cast<float>(w.x) * scale_, origin_y_ + static_cast<float>(w.y) * scale_);
}

Vec2 Sandbox::screen_to_world(float sx, float sy) const {
  return Vec2((sx - origin_x_) / scale_, (sy - origin_y_) / scale_);
}

void Sandbox::compose_map() {
  const Grid& g = scene_.grid;
  const size_t n = static_cast<size_t>(g.cell_count());
  if (texture_dirty_ || map_px_.size() != n) {
    map_px_.resize(n);
    for (int y = 0; y < g.height(); ++y)
      for (int x = 0; x < g.width(); ++x) map_px_[static_cast<size_t>(g.index(x, y))] = cell_colour(g.cost(x, y));
  }
  uint64_t search_version = 0;
  const std::vector<uint32_t>* search = inspector_->search_pixels(*this, search_version);
  if (!search || search->size() != n) search = nullptr, search_version = 0;
  const bool resized = !texture_ || tex_w_ != g.width() || tex_h_ != g.height();
  if (!texture_dirty_ && !resized && search_version == composed_search_) return;
  if (resized) {
    if (texture_) SDL_DestroyTexture(texture_);
    texture_ = SDL_CreateTexture(renderer_, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STREAMING, g.width(), g.height());
    SDL_SetTextureScaleMode(texture_, SDL_ScaleModeNearest);
    // Opaque: without this SDL blends the whole map per pixel (textures with an alpha channel
    // default to blending), for nothing.
    SDL_SetTextureBlendMode(texture_, SDL_BLENDMODE_NONE);
    tex_w_ = g.width();
    tex_h_ = g.height();
  }
  composed_px_ = map_px_;
  if (search)
    for (size_t i = 0; i < n; ++i) composed_px_[i] = blend_over(composed_px_[i], (*search)[i]);
  SDL_UpdateTexture(texture_, nullptr, composed_px_.data(), g.width() * 4);
  texture_dirty_ = false;
  composed_search_ = search_version;
}

void Sandbox::fit_view(float w, float h) {
  const Grid& g = scene_.grid;
  const float gw = static_cast<float>(g.width()), gh = static_cast<float>(g.height());
  scale_ = std::max(0.25f, std::min((w - 20) / gw, (h - 20) / gh));
  origin_x_ = canvas_x_ + (w - scale_ * gw) * 0.5f;
  origin_y_ = canvas_y_ + (h - scale_ * gh) * 0.5f;
  view_fitted_ = true;
}

void Sandbox::fit_view() {
  user_zoomed_ = false;
  if (canvas_w_ > 0 && canvas_h_ > 0) fit_view(layout_.map.w, layout_.map.h);
  else view_fitted_ = false;
}

ToolContext Sandbox::tool_context() {
  return ToolContext{scene_,
                     history_,
                     std::clamp(brush_, 1, 16),
                     terrain_cost_,
                     [this] { map_changed(); },
                     [this] { plan_dirty_ = true; },
                     [this](Vec2 w) { return world_to_screen(w); },
                     &dynamic_edit_};
}

void Sandbox::handle_canvas_input(float x0, float y0, float w, float h) {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 m = io.MousePos;
  const bool inside = m.x >= x0 && m.y >= y0 && m.x < x0 + w && m.y < y0 + h;
  const bool free_mouse = !io.WantCaptureMouse && inside && !pending_modal_open_;
  const Vec2 wm = screen_to_world(m.x, m.y);

  if (free_mouse && io.MouseWheel != 0.0f) {
    const float factor = io.MouseWheel > 0 ? 1.2f : 1.0f / 1.2f;
    const float ns = std::clamp(scale_ * factor, 0.25f, 200.0f);
    origin_x_ = m.x - static_cast<float>(wm.x) * ns;  // zoom about the cursor
    origin_y_ = m.y - static_cast<float>(wm.y) * ns;
    scale_ = ns;
    user_zoomed_ = true;
  }
  if (drag_ == Drag::none && crowd_ui_->handle_right(*this, free_mouse, wm)) return;  // sends the selection
  if (free_mouse && drag_ == Drag::none &&
      (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || ImGui::IsMouseClicked(ImGuiMouseButton_Middle))) {
    drag_ = Drag::pan;
  }
  if (drag_ == Drag::pan) {
    origin_x_ += io.MouseDelta.x;
    origin_y_ += io.MouseDelta.y;
    if (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) user_zoomed_ = true;
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Right) && !ImGui::IsMouseDown(ImGuiMouseButton_Middle)) drag_ = Drag::none;
    return;
  }

  const float u = ui_scale_;
  auto heading_handle = [&](const Pose& p) {
    const Vec2 tip = p.pos + Vec2(std::cos(p.heading), std::sin(p.heading)) * (28.0 * u / scale_);
    return world_to_screen(tip);
  };
  ToolContext ctx = tool_context();
  if (free_mouse && drag_ == Drag::none && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    const Pose& st = scene_.start;
    const Pose& go = scene_.goal;
    const float grab = kHandlePx * u;
    if (dist(m, heading_handle(st)) < grab) drag_ = Drag::start_heading;
    else if (dist(m, heading_handle(go)) < grab) drag_ = Drag::goal_heading;
    else if (dist(m, world_to_screen(st.pos)) < grab) drag_ = Drag::start_pos;
    else if (dist(m, world_to_screen(go.pos)) < grab) drag_ = Drag::goal_pos;
    else {
      active_tool_ = make_crowd_tool(tool_, *this);  // each press starts afresh with the tool chosen now
      if (!active_tool_) active_tool_ = make_tool(tool_);
      active_tool_->press(ctx, wm);
      drag_ = Drag::tool;
      return;
    }
  }
  if (drag_ == Drag::none) return;
  const bool held = ImGui::IsMouseDown(ImGuiMouseButton_Left);
  switch (drag_) {
    case Drag::tool:
      if (held) active_tool_->drag(ctx, wm);
      else active_tool_->release(ctx, wm);
      break;
    case Drag::start_pos:
    case Drag::goal_pos: {
      Pose& p = drag_ == Drag::start_pos ? scene_.start : scene_.goal;
      const Vec2 clamped(std::clamp(wm.x, 0.0, scene_.grid.width() - 1e-6), std::clamp(wm.y, 0.0, scene_.grid.height() - 1e-6));
      if (cell_of(clamped) != cell_of(p.pos)) plan_dirty_ = true;
      p.pos = clamped;
      break;
    }
    case Drag::start_heading:
    case Drag::goal_heading: {
      Pose& p = drag_ == Drag::start_heading ? scene_.start : scene_.goal;
      const Vec2 d = wm - p.pos;
      if (glm::length(d) * scale_ > 4.0) {
        p.heading = std::atan2(d.y, d.x);
        plan_dirty_ = true;
      }
      break;
    }
    default: break;
  }
  if (!held) drag_ = Drag::none;
}

void Sandbox::handle_keys() {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard || pending_modal_open_) return;
  // The 1.86 key API has named keys for A, C, V, X, Y, Z only; the SDL backend indexes
  // KeysDown by scancode, so other letters are their scancodes.
  if (io.KeyCtrl) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Z))) io.KeyShift ? redo() : undo();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Y))) redo();
    if (ImGui::IsKeyPressed(SDL_SCANCODE_S)) io.KeyShift ? show_file_dialog(BrowseMode::save_as) : (void)save();
    if (ImGui::IsKeyPressed(SDL_SCANCODE_O)) show_file_dialog(BrowseMode::open);
    if (ImGui::IsKeyPressed(SDL_SCANCODE_Q, false)) request_quit();  // asks when there are unsaved edits
    return;
  }
  if (!io.KeyAlt && ImGui::IsKeyPressed(SDL_SCANCODE_F, false)) fit_view();
}

void Sandbox::draw_path(ImDrawList* dl) {
  // Compare mode draws every combination in its own colour; the main path would be a second red.
  if (!plan_.result.found || plan_.result.points.size() < 2 || inspector_->hides_path() || inspector_->compare_shown()) return;
  SdlBatch& batch = sdl_layer_->begin(dl);
  if (show_raw_path_ && plan_.result.raw_points.size() >= 2) {
    std::vector<ImVec2> raw;
    for (const Vec2& p : plan_.result.raw_points) raw.push_back(world_to_screen(p));
    batch.polyline(raw.data(), static_cast<int>(raw.size()), IM_COL32(70, 70, 70, 255));
  }
  std::vector<ImVec2> pts;
  pts.reserve(plan_.result.points.size());
  for (const Vec2& p : plan_.result.points) pts.push_back(world_to_screen(p));
  // SDL's lines are pixel-wide; up to 4 pixels the path is drawn as a few of them (cheap under
  // the software renderer), beyond that (zoomed far in, few segments on screen) by ImGui.
  const float width = std::max(2.0f * ui_scale_, scale_ * 0.15f);  // ui_scale_: 1 at 100%
  const int px_width = static_cast<int>(std::lround(width));
  auto stroke = [&](size_t from, size_t to, ImU32 col) {  // points [from, to]
    const int n = static_cast<int>(to - from + 1);
    if (px_width <= 4) batch.thick_polyline(&pts[from], n, col, px_width);
    else dl->AddPolyline(&pts[from], n, col, 0, width);
  };
  const bool by_curvature = show_curvature_ && plan_.result.curvature.size() == plan_.result.points.size() && plan_.result.curvature_exact;
  if (by_curvature) {
    // Green where the turn is gentle, red at the turning-radius limit (and beyond). The ramp
    // is cut into 16 steps so runs of segments share a colour and draw as one line.
    const double limit = 1.0 / std::max(1e-6, scene_.settings.turning_radius);
    auto colour = [&](size_t i) {
      const double k = std::max(std::abs(plan_.result.curvature[i - 1]), std::abs(plan_.result.curvature[i]));
      const float t = std::round(static_cast<float>(std::clamp(k / limit, 0.0, 1.0)) * 15.0f) / 15.0f;
      return IM_COL32(static_cast<int>(60 + 180 * t), static_cast<int>(190 - 150 * t), 60, 255);
    };
    size_t run = 0;
    for (size_t i = 1; i < pts.size(); ++i) {
      if (i + 1 == pts.size() || colour(i + 1) != colour(i)) {
        stroke(run, i, colour(i));
        run = i;
      }
    }
  } else {
    stroke(0, pts.size() - 1, IM_COL32(220, 50, 50, 255));
  }
  if (plan_.result.blocked_segment >= 0 && static_cast<size_t>(plan_.result.blocked_segment) + 1 < pts.size()) {
    const size_t b = static_cast<size_t>(plan_.result.blocked_segment);
    dl->AddLine(pts[b], pts[b + 1], IM_COL32(255, 0, 255, 255), width * 2.0f);
  }
  // Waypoint dots only where they are few enough to mean something (not on sampled curves).
  if (pts.size() <= 400 && !plan_.result.curvature_exact) {
    const float r = std::max(2.0f * ui_scale_, scale_ * 0.12f);
    for (const ImVec2& p : pts) batch.disc(p, r, IM_COL32(160, 20, 20, 255), IM_COL32(160, 20, 20, 255));
  }
}

void Sandbox::draw_poses(ImDrawList* dl) {
  const float u = ui_scale_;  // markers grow with the UI scale, like the text
  const double du = u;
  auto draw_pose = [&](const Pose& p, ImU32 col, const char* label) {
    const ImVec2 c = world_to_screen(p.pos);
    const Vec2 dir(std::cos(p.heading), std::sin(p.heading));
    const ImVec2 tip = world_to_screen(p.pos + dir * (28.0 * du / scale_));
    dl->AddLine(c, tip, col, 3.0f * u);
    const Vec2 side(-dir.y, dir.x);
    const ImVec2 l = world_to_screen(p.pos + (dir * 18.0 + side * 6.0) * du / static_cast<double>(scale_));
    const ImVec2 r = world_to_screen(p.pos + (dir * 18.0 - side * 6.0) * du / static_cast<double>(scale_));
    dl->AddTriangleFilled(tip, l, r, col);
    dl->AddCircleFilled(c, 7.0f * u, col);
    dl->AddCircle(c, 7.0f * u, IM_COL32(255, 255, 255, 255), 0, 2.0f * u);
    // A dark shadow under the label keeps it readable on the light floor. Above the marker, or
    // below it at the canvas's top edge where it would be cut off.
    // Left of the marker instead at the canvas's right edge.
    const float lift = ImGui::GetFontSize() + 4.0f * u;
    const float ty = c.y - lift < canvas_y_ ? c.y + 8 * u : c.y - lift;
    const float tw = ImGui::CalcTextSize(label).x;
    const float tx = c.x + 9 * u + tw > canvas_x_ + canvas_w_ ? c.x - 9 * u - tw : c.x + 9 * u;
    dl->AddText(ImVec2(tx + 1, ty + 1), IM_COL32(0, 0, 0, 200), label);
    dl->AddText(ImVec2(tx, ty), IM_COL32(255, 255, 255, 255), label);
  };
  draw_pose(scene_.start, IM_COL32(40, 170, 80, 255), "start");
  draw_pose(scene_.goal, IM_COL32(200, 60, 160, 255), "goal");
}

void Sandbox::update_layout() {
  const ImGuiIO& io = ImGui::GetIO();
  LayoutRequest r;
  r.display_w = io.DisplaySize.x;
  r.display_h = io.DisplaySize.y;
  r.font = ImGui::GetFontSize();
  r.frame_height = ImGui::GetFrameHeight();
  r.item_spacing_y = ImGui::GetStyle().ItemSpacing.y;
  r.side_panel = !presenting_;  // presentation mode (sandbox_present.cpp): the map takes the panel's width
  r.timeline = units_->count() > 0;
  // Presenting, the lesson's caption takes the strip's place at its own height.
  r.strip_collapsed = !presenting_ && inspector_->strip_collapsed();
  r.strip_wanted = presenting_ ? caption_height(r.display_w) : inspector_->strip_wanted();
  r.legend_wanted = inspector_->legend_width();
  r.strip_body_useful = presenting_ ? 0.0f : inspector_->strip_body_useful();
  layout_ = compute_screen_layout(r);
}

namespace {

/// Cell lines only when cells are big enough to read, and only the visible ones: a zoomed-in
/// 1024x1024 map would otherwise queue two thousand clipped lines a frame.
void draw_cell_lines(const Sandbox& sb, SdlBatch& under, const Grid& g, float x, float y, float w, float h) {
  if (sb.scale() < 12.0f) return;
  const ImU32 line = IM_COL32(0, 0, 0, 30);
  const Vec2 lo = sb.screen_to_world(x, y), hi = sb.screen_to_world(x + w, y + h);
  const int x0 = std::max(0, static_cast<int>(lo.x)), x1 = std::min(g.width(), static_cast<int>(hi.x) + 1);
  const int y0 = std::max(0, static_cast<int>(lo.y)), y1 = std::min(g.height(), static_cast<int>(hi.y) + 1);
  for (int cx = x0; cx <= x1; ++cx) under.line(sb.world_to_screen(Vec2(cx, y0)), sb.world_to_screen(Vec2(cx, y1)), line);
  for (int cy = y0; cy <= y1; ++cy) under.line(sb.world_to_screen(Vec2(x0, cy)), sb.world_to_screen(Vec2(x1, cy)), line);
}

/// A navmesh plan's corridor: translucent polygons.
void draw_corridor(const Sandbox& sb, ImDrawList* dl, const plan::PlanResult& result) {
  for (const auto& ring : corridor_rings(result)) {
    std::vector<ImVec2> pts;
    for (const Vec2& v : ring) pts.push_back(sb.world_to_screen(v));
    dl->AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), IM_COL32(80, 130, 230, 60));
    sb.sdl_layer().begin(dl).polyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(60, 100, 200, 160), true);
  }
}

/// Heading-aware searches: each expanded pose as a short tick in its heading (every n-th when
/// there are many, so a big search stays cheap to draw). 5 px long and faint at 100%; longer,
/// bolder and more opaque at a projector's scale.
void draw_pose_ticks(const Sandbox& sb, ImDrawList* dl, const std::vector<Pose>& trace) {
  SdlBatch& ticks = sb.sdl_layer().begin(dl);
  const size_t stride = std::max<size_t>(1, trace.size() / 6000);
  const float u = sb.ui_scale();
  const double len = 5.0 * u / sb.scale();
  const int width = std::clamp(static_cast<int>(std::lround(u)), 1, 3);
  const ImU32 col = IM_COL32(70, 110, 220, static_cast<int>(std::min(230.0f, 110.0f + 120.0f * (u - 1.0f))));
  for (size_t i = 0; i < trace.size(); i += stride) {
    const Pose& q = trace[i];
    const ImVec2 ends[2] = {sb.world_to_screen(q.pos),
                            sb.world_to_screen(q.pos + Vec2(std::cos(q.heading), std::sin(q.heading)) * len)};
    if (width == 1) ticks.line(ends[0], ends[1], col);
    else ticks.thick_polyline(ends, 2, col, width);
  }
}

/// The doors' states and trucks' poses DynamicLive points into.
struct LiveDynamic {
  std::vector<bool> door_open;
  std::vector<DoorState> door_state;
  std::vector<Pose> truck_pose;
};

/// Once the crowd runs, its doors and trucks are where the scene's are drawn: the scene's
/// definition alone would leave a second truck standing at its route's start. "Runs" is the
/// run's clock, not the crowd's: a paint rebuilds the crowd, whose own clock starts at 0.
/// Empty (the scene's definition) until then; else points into `buf`.
DynamicLive live_dynamic(const UnitSwarm& units, const io::Scene& scene, LiveDynamic& buf) {
  const Crowd& c = units.crowd();
  const plan::TrailFrame* f = units.shown_frame();  // a scrubbed moment the crowd has not reached
  if (!(f ? f->step > 0 : units.time() > 0.0) || c.door_count() != static_cast<int>(scene.doors.size()) ||
      c.moving_obstacle_count() != static_cast<int>(scene.moving_obstacles.size())) {
    return DynamicLive{};
  }
  for (int d = 0; d < c.door_count(); ++d) buf.door_state.push_back(f ? f->doors[static_cast<size_t>(d)] : c.door_state(d));
  for (DoorState d : buf.door_state) buf.door_open.push_back(d != DoorState::closed);  // as Crowd::door_open
  for (int k = 0; k < c.moving_obstacle_count(); ++k)
    buf.truck_pose.push_back(f ? f->trucks[static_cast<size_t>(k)].pose : c.moving_obstacle(k).pose);
  return DynamicLive{&buf.door_open, &buf.truck_pose, &buf.door_state};
}

}  // namespace

void Sandbox::draw_canvas() {
  ImGuiIO& io = ImGui::GetIO();
  // The layout puts the timeline and the Inspect strip below, the compare legend in a band at
  // the right. A resized window (or the legend coming or going) re-fits the map, unless the
  // user chose a zoom or pan of their own.
  const ScreenRect& area = layout_.canvas;
  const float legend = layout_.legend.w;
  if ((area.w != canvas_w_ || area.h != canvas_h_ || legend != fitted_legend_) && !user_zoomed_) view_fitted_ = false;
  fitted_legend_ = legend;
  canvas_x_ = area.x;
  canvas_y_ = area.y;
  canvas_w_ = area.w;
  canvas_h_ = area.h;
  if (!view_fitted_) fit_view(layout_.map.w, layout_.map.h);
  handle_canvas_input(canvas_x_, canvas_y_, canvas_w_, canvas_h_);
  handle_keys();
  plan_step();

  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  dl->PushClipRect(ImVec2(canvas_x_, canvas_y_), ImVec2(canvas_x_ + canvas_w_, canvas_y_ + canvas_h_));
  // The canvas background and the map with the search blended in are blitted by render()
  // straight through SDL, under everything queued here.
  draw_cell_lines(*this, sdl_layer_->begin(dl), scene_.grid, canvas_x_, canvas_y_, canvas_w_, canvas_h_);
  if (show_search_) draw_corridor(*this, dl, plan_.result);
  inspector_->draw_under_path(*this, dl);  // the replayed search, under the path
  if (show_search_ && !plan_.result.pose_trace.empty() && !inspector_->owns_search()) {
    draw_pose_ticks(*this, dl, plan_.result.pose_trace);
  }
  LiveDynamic live_buf;
  const DynamicLive live = live_dynamic(*units_, scene_, live_buf);
  draw_scene_dynamic(dl, scene_, [this](Vec2 p) { return world_to_screen(p); }, dynamic_edit_.selection(), live);
  draw_path(dl);
  inspector_->draw_over_path(*this, dl);
  // The units above the start and goal markers: a unit parked on the goal shows its own final
  // heading beside the marker's arrow (issue 24), not hidden under the marker's disc.
  draw_poses(dl);
  crowd_ui_->draw(*this, dl, inspector_->overlays().lookahead);
  if (drag_ == Drag::tool && active_tool_) {
    ToolContext ctx = tool_context();
    active_tool_->draw(ctx, dl, screen_to_world(io.MousePos.x, io.MousePos.y));
  }
  dl->PopClipRect();
}

void Sandbox::render() {
  // The panel and the inspector strip have no ImGui background (NoBackground): the clear
  // colour is it. A window background is a blended rectangle the software renderer fills
  // pixel by pixel every frame; the clear is a plain fill.
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  auto byte = [](float v) { return static_cast<Uint8>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f); };
  SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_NONE);
  SDL_SetRenderDrawColor(renderer_, byte(bg.x), byte(bg.y), byte(bg.z), 255);
  SDL_RenderClear(renderer_);
  compose_map();
  if (!texture_ || canvas_w_ <= 0 || canvas_h_ <= 0) return;
  const SDL_Rect clip{static_cast<int>(canvas_x_), static_cast<int>(canvas_y_), static_cast<int>(canvas_w_),
                      static_cast<int>(canvas_h_)};
  SDL_RenderSetClipRect(renderer_, &clip);
  SDL_SetRenderDrawColor(renderer_, 70, 78, 92, 255);
  SDL_RenderFillRect(renderer_, &clip);
  // Only the visible texels are blitted, so a zoomed-in 1024x1024 map costs what the screen does.
  const Grid& g = scene_.grid;
  const Vec2 lo = screen_to_world(canvas_x_, canvas_y_), hi = screen_to_world(canvas_x_ + canvas_w_, canvas_y_ + canvas_h_);
  const int x0 = std::clamp(static_cast<int>(std::floor(lo.x)), 0, g.width());
  const int y0 = std::clamp(static_cast<int>(std::floor(lo.y)), 0, g.height());
  const int x1 = std::clamp(static_cast<int>(std::ceil(hi.x)), 0, g.width());
  const int y1 = std::clamp(static_cast<int>(std::ceil(hi.y)), 0, g.height());
  if (x1 > x0 && y1 > y0) {
    const SDL_Rect src{x0, y0, x1 - x0, y1 - y0};
    const ImVec2 a = world_to_screen(Vec2(x0, y0)), b = world_to_screen(Vec2(x1, y1));
    const SDL_FRect dst{a.x, a.y, b.x - a.x, b.y - a.y};
    SDL_RenderCopyF(renderer_, texture_, &src, &dst);
  }
  SDL_RenderSetClipRect(renderer_, nullptr);
}

}  // namespace pathlab::sandbox
