#include "sandbox.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "map_files.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/shortcut.hpp"

namespace pathlab::sandbox {
namespace {

constexpr float kPanelWidth = 330.0f;
constexpr float kSwampCost = 3.0f;
constexpr float kHandlePx = 12.0f;  // grab distance for start/goal markers and heading handles

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

float dist(ImVec2 a, ImVec2 b) { return std::hypot(a.x - b.x, a.y - b.y); }

const char* const kPlanners[] = {"astar", "dijkstra", "jps", "theta"};
const char* const kSmoothers[] = {"none", "los"};

int index_of(const char* const* names, int n, const std::string& s) {
  for (int i = 0; i < n; ++i)
    if (s == names[i]) return i;
  return 0;
}

}  // namespace

void place_default_poses(io::Scene& scene) {
  // The free cells nearest to the top-left and bottom-right corners.
  const Grid& g = scene.grid;
  auto nearest_free = [&](int cx, int cy) {
    Cell best{cx, cy};
    long best_d = -1;
    for (int y = 0; y < g.height(); ++y)
      for (int x = 0; x < g.width(); ++x) {
        if (!g.is_free(x, y)) continue;
        const long d = static_cast<long>(x - cx) * (x - cx) + static_cast<long>(y - cy) * (y - cy);
        if (best_d < 0 || d < best_d) best_d = d, best = Cell{x, y};
      }
    return cell_center(best);
  };
  scene.start = Pose{nearest_free(0, 0), 0.0};
  scene.goal = Pose{nearest_free(g.width() - 1, g.height() - 1), 0.0};
}

Sandbox::Sandbox(SDL_Renderer* renderer, io::Scene scene, std::string scene_path)
    : renderer_(renderer), scene_(std::move(scene)), scene_path_(std::move(scene_path)), pathfinder_(scene_.grid) {
  std::snprintf(path_buf_, sizeof path_buf_, "%s", scene_path_.empty() ? "scene.json" : scene_path_.c_str());
}

Sandbox::~Sandbox() {
  if (texture_) SDL_DestroyTexture(texture_);
  if (search_texture_) SDL_DestroyTexture(search_texture_);
}

ImVec2 Sandbox::world_to_screen(Vec2 w) const {
  return ImVec2(origin_x_ + static_cast<float>(w.x) * scale_, origin_y_ + static_cast<float>(w.y) * scale_);
}

Vec2 Sandbox::screen_to_world(float sx, float sy) const {
  return Vec2((sx - origin_x_) / scale_, (sy - origin_y_) / scale_);
}

void Sandbox::map_changed() {
  texture_dirty_ = true;
  plan_dirty_ = true;
  pathfinder_.reset(scene_.grid);
  touched();
}

void Sandbox::touched() {
  unsaved_ = true;
  changed_at_ms_ = SDL_GetTicks64();
}

void Sandbox::set_state_dir(const std::string& dir) {
  state_dir_ = dir;
  autosave_path_ = dir.empty() ? "" : dir + "/autosave.json";
  recent_.clear();
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ifstream in(dir + "/recent.txt");
  std::string line;
  while (std::getline(in, line) && recent_.size() < 8)
    if (!line.empty()) recent_.push_back(line);
}

void Sandbox::remember_recent(const std::string& path) {
  std::error_code ec;
  const std::string abs = std::filesystem::absolute(path, ec).string();
  recent_.erase(std::remove(recent_.begin(), recent_.end(), abs), recent_.end());
  recent_.insert(recent_.begin(), abs);
  if (recent_.size() > 8) recent_.resize(8);
  if (state_dir_.empty()) return;
  std::string text;
  for (const auto& r : recent_) text += r + "\n";
  (void)io::write_file_atomic(state_dir_ + "/recent.txt", text);  // losing the list is not worth an error
}

bool Sandbox::autosave_now() {
  if (!unsaved_ || autosave_path_.empty()) return false;
  auto st = io::save_scene(scene_, autosave_path_);
  if (!st) {
    status_ = "autosave failed: " + st.error().message;
    return false;
  }
  unsaved_ = false;
  return true;
}

void Sandbox::finish() {
  if (autosave_path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(autosave_path_, ec);
}

void Sandbox::set_scene(io::Scene scene) {
  scene_ = std::move(scene);
  history_.clear();
  view_fitted_ = false;
  map_changed();
}

bool Sandbox::save(const std::string& path) {
  auto st = io::save_scene(scene_, path);
  status_ = st ? "saved " + path : st.error().message;
  if (st) {
    scene_path_ = path;
    unsaved_ = false;
    remember_recent(path);
  }
  return st.ok();
}

bool Sandbox::open(const std::string& path) {
  const bool is_scene = path.size() > 5 && path.substr(path.size() - 5) == ".json";
  if (is_scene) {
    auto sc = io::load_scene(path);
    if (!sc) {
      status_ = sc.error().message;  // the current scene stays as it was
      return false;
    }
    set_scene(std::move(*sc));
    scene_path_ = path;
  } else {
    auto g = io::load_map_file(path);
    if (!g) {
      status_ = g.error().message;
      return false;
    }
    io::Scene sc = scene_;
    sc.grid = std::move(*g);
    sc.name = path;
    place_default_poses(sc);
    set_scene(std::move(sc));
  }
  status_ = "opened " + path;
  unsaved_ = false;
  remember_recent(path);
  return true;
}

void Sandbox::update_texture() {
  const Grid& g = scene_.grid;
  if (!texture_ || tex_w_ != g.width() || tex_h_ != g.height()) {
    if (texture_) SDL_DestroyTexture(texture_);
    texture_ = SDL_CreateTexture(renderer_, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STREAMING, g.width(), g.height());
    SDL_SetTextureScaleMode(texture_, SDL_ScaleModeNearest);
    tex_w_ = g.width();
    tex_h_ = g.height();
  }
  std::vector<uint32_t> px(static_cast<size_t>(g.cell_count()));
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const float c = g.cost(x, y);
      uint32_t rgba;  // ABGR8888 in memory order R, G, B, A on little-endian
      if (c == kBlocked) rgba = 0xFF221E1Cu;
      else if (c > 1.0f) rgba = 0xFF4F7A5Du;  // swamp: muddy green
      else rgba = 0xFFF2EEE9u;
      px[static_cast<size_t>(g.index(x, y))] = rgba;
    }
  }
  SDL_UpdateTexture(texture_, nullptr, px.data(), g.width() * 4);
  texture_dirty_ = false;
}

void Sandbox::update_search_texture() {
  // One texel per cell, drawn over the map in one call however large the search was. Each
  // cell's last event decides its colour: closed blue, still open (the frontier) yellow.
  const Grid& g = scene_.grid;
  if (!search_texture_ || search_w_ != g.width() || search_h_ != g.height()) {
    if (search_texture_) SDL_DestroyTexture(search_texture_);
    search_texture_ = SDL_CreateTexture(renderer_, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STREAMING, g.width(), g.height());
    SDL_SetTextureScaleMode(search_texture_, SDL_ScaleModeNearest);
    SDL_SetTextureBlendMode(search_texture_, SDL_BLENDMODE_BLEND);
    search_w_ = g.width();
    search_h_ = g.height();
  }
  std::vector<uint32_t> px(static_cast<size_t>(g.cell_count()), 0u);
  for (const TraceEvent& e : plan_.trace) {
    px[static_cast<size_t>(g.index(e.cell.x, e.cell.y))] = e.kind == TraceEvent::close ? 0x50E68250u : 0x6428BEFAu;
  }
  SDL_UpdateTexture(search_texture_, nullptr, px.data(), g.width() * 4);
}

void Sandbox::fit_view(float w, float h) {
  const Grid& g = scene_.grid;
  const float gw = static_cast<float>(g.width()), gh = static_cast<float>(g.height());
  scale_ = std::max(0.25f, std::min((w - 20) / gw, (h - 20) / gh));
  origin_x_ = canvas_x_ + (w - scale_ * gw) * 0.5f;
  origin_y_ = canvas_y_ + (h - scale_ * gh) * 0.5f;
  view_fitted_ = true;
}

void Sandbox::replan_now() {
  plan_dirty_ = false;
  const int plans = plan_.plans + 1;
  plan_ = PlanView{};
  plan_.plans = plans;
  plan_.valid = true;
  const io::PlanSettingsData& s = scene_.settings;
  const Grid& g = scene_.grid;
  auto planner = parse_grid_planner(s.planner);
  if (!planner) {
    plan_.error = planner.error().message;
    return;
  }
  GridSearchOptions opt;
  opt.connectivity = s.connectivity == 4 ? Connectivity::four : Connectivity::eight;
  opt.turn_penalty = s.turn_penalty;
  opt.agent_radius = s.agent_radius;
  opt.record_trace = true;
  const Cell a = cell_of(scene_.start.pos), b = cell_of(scene_.goal.pos);
  const auto t0 = std::chrono::steady_clock::now();
  auto r = pathfinder_.find_path(*planner, a, b, opt);
  if (!r) {
    plan_.error = r.error().message;
    return;
  }
  plan_.found = r->found;
  plan_.reason = r->reason;
  plan_.expanded = r->expanded;
  plan_.trace = std::move(r->trace);
  update_search_texture();
  plan_.points = std::move(r->points);
  if (plan_.found && s.smoother == "los") {
    auto cut = los_shortcut(g, plan_.points, s.agent_radius);
    if (cut) plan_.points = std::move(cut->points);
  }
  plan_.length = polyline_length(plan_.points);
  plan_.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void Sandbox::paint_at(Vec2 w) {
  const Cell c = cell_of(w);
  const float cost = tool_ == Tool::paint ? kBlocked : (tool_ == Tool::swamp ? kSwampCost : 1.0f);
  const int r = brush_ - 1;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx)
      if (dx * dx + dy * dy <= r * r + r) history_.set_cell(scene_.grid, c.x + dx, c.y + dy, cost);
  map_changed();
}

void Sandbox::handle_canvas_input(float x0, float y0, float w, float h) {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 m = io.MousePos;
  const bool inside = m.x >= x0 && m.y >= y0 && m.x < x0 + w && m.y < y0 + h;
  const Vec2 wm = screen_to_world(m.x, m.y);

  if (!io.WantCaptureMouse && inside && io.MouseWheel != 0.0f) {
    const float factor = io.MouseWheel > 0 ? 1.2f : 1.0f / 1.2f;
    const float ns = std::clamp(scale_ * factor, 0.25f, 200.0f);
    origin_x_ = m.x - static_cast<float>(wm.x) * ns;  // zoom about the cursor
    origin_y_ = m.y - static_cast<float>(wm.y) * ns;
    scale_ = ns;
  }
  if (!io.WantCaptureMouse && inside && (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || ImGui::IsMouseClicked(ImGuiMouseButton_Middle))) {
    drag_ = Drag::pan;
  }
  if (drag_ == Drag::pan) {
    origin_x_ += io.MouseDelta.x;
    origin_y_ += io.MouseDelta.y;
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Right) && !ImGui::IsMouseDown(ImGuiMouseButton_Middle)) drag_ = Drag::none;
    return;
  }

  auto heading_handle = [&](const Pose& p) {
    const Vec2 tip = p.pos + Vec2(std::cos(p.heading), std::sin(p.heading)) * (28.0 / scale_);
    return world_to_screen(tip);
  };
  if (!io.WantCaptureMouse && inside && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    Pose& st = scene_.start;
    Pose& go = scene_.goal;
    if (dist(m, heading_handle(st)) < kHandlePx) drag_ = Drag::start_heading;
    else if (dist(m, heading_handle(go)) < kHandlePx) drag_ = Drag::goal_heading;
    else if (dist(m, world_to_screen(st.pos)) < kHandlePx) drag_ = Drag::start_pos;
    else if (dist(m, world_to_screen(go.pos)) < kHandlePx) drag_ = Drag::goal_pos;
    else if (tool_ == Tool::start || tool_ == Tool::goal) {
      // Press sets the position, dragging from there sets the heading.
      Pose& p = tool_ == Tool::start ? st : go;
      if (scene_.grid.contains(wm)) {
        p.pos = wm;
        plan_dirty_ = true;
      }
      drag_ = tool_ == Tool::start ? Drag::start_heading : Drag::goal_heading;
    } else if (tool_ == Tool::rect) {
      rect_from_ = wm;
      drag_ = Drag::rect;
    } else {
      history_.begin();
      paint_at(wm);
      drag_ = Drag::stroke;
    }
  }
  if (drag_ == Drag::none) return;
  const bool held = ImGui::IsMouseDown(ImGuiMouseButton_Left);
  switch (drag_) {
    case Drag::stroke:
      if (held) paint_at(wm);
      else history_.commit();
      break;
    case Drag::rect:
      if (!held) {
        const Cell a = cell_of(rect_from_), b = cell_of(wm);
        history_.begin();
        const float cost = tool_ == Tool::rect ? kBlocked : 1.0f;
        for (int y = std::min(a.y, b.y); y <= std::max(a.y, b.y); ++y)
          for (int x = std::min(a.x, b.x); x <= std::max(a.x, b.x); ++x) history_.set_cell(scene_.grid, x, y, cost);
        history_.commit();
        map_changed();
      }
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

void Sandbox::draw_canvas() {
  ImGuiIO& io = ImGui::GetIO();
  canvas_x_ = 0;
  canvas_y_ = 0;
  canvas_w_ = io.DisplaySize.x - kPanelWidth;
  canvas_h_ = io.DisplaySize.y;
  if (!view_fitted_) fit_view(canvas_w_, canvas_h_);
  handle_canvas_input(canvas_x_, canvas_y_, canvas_w_, canvas_h_);

  // Keyboard shortcuts (the 1.86 key API: named keys for A, C, V, X, Y, Z only).
  if (!io.WantCaptureKeyboard && io.KeyCtrl) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Z)) && history_.undo(scene_.grid)) map_changed();
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Y)) && history_.redo(scene_.grid)) map_changed();
  }

  if (texture_dirty_) update_texture();
  if (plan_dirty_) replan_now();

  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  dl->PushClipRect(ImVec2(canvas_x_, canvas_y_), ImVec2(canvas_x_ + canvas_w_, canvas_y_ + canvas_h_));
  dl->AddRectFilled(ImVec2(canvas_x_, canvas_y_), ImVec2(canvas_x_ + canvas_w_, canvas_y_ + canvas_h_), IM_COL32(70, 78, 92, 255));
  const Grid& g = scene_.grid;
  dl->AddImage(reinterpret_cast<ImTextureID>(texture_), world_to_screen(Vec2(0, 0)), world_to_screen(Vec2(g.width(), g.height())));
  if (scale_ >= 12.0f) {  // cell lines only when cells are big enough to read
    const ImU32 line = IM_COL32(0, 0, 0, 30);
    for (int x = 0; x <= g.width(); ++x) dl->AddLine(world_to_screen(Vec2(x, 0)), world_to_screen(Vec2(x, g.height())), line);
    for (int y = 0; y <= g.height(); ++y) dl->AddLine(world_to_screen(Vec2(0, y)), world_to_screen(Vec2(g.width(), y)), line);
  }
  if (show_search_ && search_texture_) {
    dl->AddImage(reinterpret_cast<ImTextureID>(search_texture_), world_to_screen(Vec2(0, 0)),
                 world_to_screen(Vec2(g.width(), g.height())));
  }
  if (plan_.found && plan_.points.size() >= 2) {
    std::vector<ImVec2> pts;
    for (const Vec2& p : plan_.points) pts.push_back(world_to_screen(p));
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(220, 50, 50, 255), 0, std::max(2.0f, scale_ * 0.15f));
    for (const ImVec2& p : pts) dl->AddCircleFilled(p, std::max(2.0f, scale_ * 0.12f), IM_COL32(160, 20, 20, 255));
  }
  auto draw_pose = [&](const Pose& p, ImU32 col, const char* label) {
    const ImVec2 c = world_to_screen(p.pos);
    const Vec2 dir(std::cos(p.heading), std::sin(p.heading));
    const ImVec2 tip = world_to_screen(p.pos + dir * (28.0 / scale_));
    dl->AddLine(c, tip, col, 3.0f);
    const Vec2 side(-dir.y, dir.x);
    const ImVec2 l = world_to_screen(p.pos + (dir * 18.0 + side * 6.0) / static_cast<double>(scale_));
    const ImVec2 r = world_to_screen(p.pos + (dir * 18.0 - side * 6.0) / static_cast<double>(scale_));
    dl->AddTriangleFilled(tip, l, r, col);
    dl->AddCircleFilled(c, 7.0f, col);
    dl->AddCircle(c, 7.0f, IM_COL32(255, 255, 255, 255), 0, 2.0f);
    dl->AddText(ImVec2(c.x + 9, c.y - 18), IM_COL32(255, 255, 255, 255), label);
  };
  draw_pose(scene_.start, IM_COL32(40, 170, 80, 255), "start");
  draw_pose(scene_.goal, IM_COL32(200, 60, 160, 255), "goal");
  if (drag_ == Drag::rect) {
    dl->AddRect(world_to_screen(Vec2(std::floor(rect_from_.x), std::floor(rect_from_.y))),
                world_to_screen(cell_center(cell_of(screen_to_world(io.MousePos.x, io.MousePos.y))) + Vec2(0.5, 0.5)),
                IM_COL32(255, 120, 0, 255), 0, 0, 2.0f);
  }
  dl->PopClipRect();
}

void Sandbox::draw_panel() {
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - kPanelWidth, 0));
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, io.DisplaySize.y));
  ImGui::Begin("pathlab", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  ImGui::PushItemWidth(-120.0f);  // leave room for labels and help markers

  if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::InputText("file", path_buf_, sizeof path_buf_);
    help_marker("A scene (.json) to save or open, or a Moving AI .map / PNG map to import.");
    if (ImGui::Button("Save")) save(path_buf_);
    ImGui::SameLine();
    if (ImGui::Button("Open / import")) open(path_buf_);
    if (!recent_.empty() && ImGui::BeginCombo("recent", "open a recent file")) {
      for (const std::string& r : recent_) {
        if (ImGui::Selectable(r.c_str())) {
          std::snprintf(path_buf_, sizeof path_buf_, "%s", r.c_str());
          open(r);
          break;
        }
      }
      ImGui::EndCombo();
    }
    ImGui::Text("%s  %dx%d", scene_.name.empty() ? "(unnamed)" : scene_.name.c_str(), scene_.grid.width(), scene_.grid.height());
  }
  if (ImGui::CollapsingHeader("Edit", ImGuiTreeNodeFlags_DefaultOpen)) {
    int t = static_cast<int>(tool_);
    ImGui::RadioButton("wall", &t, static_cast<int>(Tool::paint));
    ImGui::SameLine();
    ImGui::RadioButton("erase", &t, static_cast<int>(Tool::erase));
    ImGui::SameLine();
    ImGui::RadioButton("swamp", &t, static_cast<int>(Tool::swamp));
    ImGui::SameLine();
    ImGui::RadioButton("rect", &t, static_cast<int>(Tool::rect));
    ImGui::RadioButton("start", &t, static_cast<int>(Tool::start));
    ImGui::SameLine();
    ImGui::RadioButton("goal", &t, static_cast<int>(Tool::goal));
    help_marker("start/goal: press to place, drag to set the heading. The markers can always be dragged; "
                "drag an arrow's tip to turn it.");
    tool_ = static_cast<Tool>(t);
    ImGui::SliderInt("brush", &brush_, 1, 16);
    help_marker("Brush radius in cells for wall, erase and swamp. Swamp costs 3x to cross.");
    if (ImGui::Button("Undo") && history_.undo(scene_.grid)) map_changed();
    ImGui::SameLine();
    if (ImGui::Button("Redo") && history_.redo(scene_.grid)) map_changed();
    ImGui::SameLine();
    if (ImGui::Button("Clear")) {
      history_.begin();
      for (int y = 0; y < scene_.grid.height(); ++y)
        for (int x = 0; x < scene_.grid.width(); ++x) history_.set_cell(scene_.grid, x, y, 1.0f);
      history_.commit();
      map_changed();
    }
    ImGui::Combo("generator", &gen_kind_, "random\0maze\0rooms\0");
    ImGui::SliderFloat("density", &gen_density_, 0.0f, 0.6f);
    help_marker("random: share of blocked cells. maze: corridor width = 1 + density*10. rooms: room size = 4 + density*40.");
    ImGui::InputInt("seed", &gen_seed_);
    if (ImGui::Button("Generate")) {
      Grid g = scene_.grid;
      const uint32_t seed = static_cast<uint32_t>(gen_seed_);
      if (gen_kind_ == 0) generate_random(g, gen_density_, seed);
      else if (gen_kind_ == 1) generate_maze(g, 1 + static_cast<int>(gen_density_ * 10), seed);
      else generate_rooms(g, 4 + static_cast<int>(gen_density_ * 40), 2, seed);
      history_.begin();
      for (int y = 0; y < g.height(); ++y)
        for (int x = 0; x < g.width(); ++x) history_.set_cell(scene_.grid, x, y, g.cost(x, y));
      history_.commit();
      map_changed();
    }
  }
  if (ImGui::CollapsingHeader("Plan", ImGuiTreeNodeFlags_DefaultOpen)) {
    io::PlanSettingsData& s = scene_.settings;
    int p = index_of(kPlanners, IM_ARRAYSIZE(kPlanners), s.planner);
    if (ImGui::Combo("planner", &p, kPlanners, IM_ARRAYSIZE(kPlanners))) {
      s.planner = kPlanners[p];
      plan_dirty_ = true;
    }
    help_marker("astar: optimal 8-connected. dijkstra: the same without a heuristic (slower). "
                "jps: jump point search, same paths, far fewer expansions. theta: any-angle.");
    int sm = index_of(kSmoothers, IM_ARRAYSIZE(kSmoothers), s.smoother);
    if (ImGui::Combo("smoother", &sm, kSmoothers, IM_ARRAYSIZE(kSmoothers))) {
      s.smoother = kSmoothers[sm];
      plan_dirty_ = true;
    }
    help_marker("los: skip waypoints while the straight line stays clear (seed 002's \"cheating\").");
    bool four = s.connectivity == 4;
    if (ImGui::Checkbox("4-connected", &four)) {
      s.connectivity = four ? 4 : 8;
      plan_dirty_ = true;
    }
    help_marker("A* and Dijkstra only: moves along rows and columns, no diagonals.");
    float tp = static_cast<float>(s.turn_penalty);
    if (ImGui::SliderFloat("turn penalty", &tp, 0.0f, 2.0f)) {
      s.turn_penalty = tp;
      plan_dirty_ = true;
    }
    help_marker("Extra cost for each change of direction, as a fraction of the step (seed 003: 0.5). "
                "Straighter paths; the search expands more nodes. A* and Dijkstra only.");
    float ar = static_cast<float>(s.agent_radius);
    if (ImGui::SliderFloat("agent radius", &ar, 0.0f, 4.0f)) {
      s.agent_radius = ar;
      map_changed();
    }
    help_marker("The unit's radius in cells: paths keep this clearance from walls.");
    ImGui::Checkbox("show search", &show_search_);
    help_marker("Closed cells in blue, open cells in yellow.");
  }
  if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (!plan_.error.empty()) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "cannot plan:");
      ImGui::TextWrapped("%s", plan_.error.c_str());
    } else if (!plan_.found) {
      ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "no path:");
      ImGui::TextWrapped("%s", plan_.reason.c_str());
    } else {
      ImGui::Text("length     %.3f cells", plan_.length);
      ImGui::Text("waypoints  %zu", plan_.points.size());
    }
    ImGui::Text("expanded   %lld nodes", static_cast<long long>(plan_.expanded));
    ImGui::Text("plan time  %.3f ms", plan_.time_ms);
  }
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
  ImGui::PopItemWidth();
  ImGui::End();
}

void Sandbox::frame() {
  draw_panel();
  draw_canvas();
  if (plan_dirty_) touched();  // poses and settings changes re-plan; they are work worth keeping too
  if (unsaved_ && SDL_GetTicks64() - changed_at_ms_ > 1000) autosave_now();
}

void Sandbox::render() {
  SDL_SetRenderDrawColor(renderer_, 40, 44, 52, 255);
  SDL_RenderClear(renderer_);
}

}  // namespace pathlab::sandbox
