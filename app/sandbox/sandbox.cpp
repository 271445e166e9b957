#include "sandbox.hpp"

#include <algorithm>
#include <cmath>

#include "canvas/crowd_ui.hpp"
#include "inspect/inspector.hpp"
#include "panels/file_dialog.hpp"
#include "planning/plan_worker.hpp"

namespace pathlab::sandbox {

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

Sandbox::Sandbox(SDL_Renderer* renderer, io::Scene scene, std::string scene_path, bool is_scene)
    : renderer_(renderer), scene_(std::move(scene)) {
  doc_.reset(scene_path, is_scene);
  if (std::string note = normalize_settings(scene_.settings); !note.empty()) status_ = note;
  units_ = std::make_unique<UnitSwarm>(scene_.grid);  // reads scene_.grid in place: never copied
  if (std::string e = units_->load(scene_); !e.empty()) set_status(e, true);
  units_key_ = units_key();  // load() planned every unit for this scene already
  crowd_ui_ = std::make_unique<CrowdUi>();
  committed_state_ = scene_state();
  worker_ = std::make_unique<PlanWorker>();
  inspector_ = std::make_unique<Inspector>(renderer_);
  sdl_layer_ = std::make_unique<SdlLayer>(renderer_);
  file_dialog_ = std::make_unique<FileDialog>();
  panels_.push_back(make_scene_panel());
  panels_.push_back(make_edit_panel());
  panels_.push_back(make_dynamic_panel());
  panels_.push_back(std::make_unique<FunctionPanel>([](Sandbox& sb) { sb.draw_plan_panel(); }));
  panels_.push_back(std::make_unique<FunctionPanel>([](Sandbox& sb) { sb.draw_stats_panel(); }));
  panels_.push_back(std::make_unique<FunctionPanel>([](Sandbox& sb) { sb.draw_units_panel(); }));
  panels_.push_back(make_why_panel());
  panels_.push_back(make_event_panel());
  panels_.push_back(std::make_unique<FunctionPanel>([](Sandbox& sb) { sb.draw_lesson_panel(); }));
}

Sandbox::~Sandbox() {
  worker_.reset();  // stops a running plan before the scene goes
  if (texture_) SDL_DestroyTexture(texture_);
}

void Sandbox::show_all_overlays() {
  show_search_ = true;
  show_raw_path_ = true;
  show_curvature_ = true;
  show_unit_paths_ = true;
  crowd_ui_->overlays = CrowdOverlays{true, true, true, true, true, true, true};
  inspector_->all_overlays_on();
  plan_dirty_ = true;  // the search is only recorded when it is shown
}

void Sandbox::set_tool(Tool t) { tool_ = t; }  // a stroke in progress keeps its tool (made at the press)

void Sandbox::map_changed() {
  texture_dirty_ = true;
  plan_dirty_ = true;
  map_version_++;
  touched();
}

void Sandbox::touched() { doc_.mark_dirty(SDL_GetTicks64()); }

void Sandbox::set_scene(io::Scene scene) {
  scene_ = std::move(scene);
  forget_scene_messages();
  history_.clear();
  dynamic_edit_ = DynamicEdit{};
  view_fitted_ = false;
  user_zoomed_ = false;
  map_changed();
  if (std::string e = units_->load(scene_); !e.empty()) set_status(e, true);
  units_key_ = units_key();  // load() planned every unit for this scene already
  committed_state_ = scene_state();
  // The last plan belongs to the old scene: drop it rather than draw it on the new map.
  apply_plan(PlanView{});
  if (presenting_) units_->set_playing(false);  // on a projector, units wait for Play
}

// ---- Planning ----

std::vector<bool> Sandbox::shut_doors() const {
  std::vector<bool> shut(scene_.doors.size());
  const Crowd& c = units_->crowd();
  const bool live = c.time() > 0.0 && c.door_count() == static_cast<int>(scene_.doors.size());
  for (size_t d = 0; d < shut.size(); ++d)
    shut[d] = live ? !c.door_open(static_cast<int>(d)) : !scene_.doors[d].open_at_start;
  return shut;
}

io::Scene Sandbox::scene_with_shut_doors(const std::vector<bool>& shut) const {
  io::Scene sc = scene_;
  sc.units.clear();  // the pipeline plans start -> goal only
  // A shut door is a wall for the path drawn, as it is for the units: a line through a shut
  // door read as a way the units refused to take.
  for (size_t d = 0; d < shut.size(); ++d) {
    if (!shut[d]) continue;
    const DoorDef& door = scene_.doors[d];
    for (int y = door.lo.y; y <= door.hi.y; ++y)
      for (int x = door.lo.x; x <= door.hi.x; ++x)
        if (sc.grid.in_bounds(x, y)) sc.grid.set_blocked(x, y, true);
  }
  return sc;
}

io::Scene Sandbox::plan_scene() const { return scene_with_shut_doors(shut_doors()); }

void Sandbox::submit_plan() {
  plan_dirty_ = false;
  WorkerRequest req;
  std::vector<bool> shut = shut_doors();
  req.scene = scene_with_shut_doors(shut);
  req.shut_doors = static_cast<int>(std::count(shut.begin(), shut.end(), true));
  req.record_trace = show_search_;
  if (shut != planned_shut_doors_ || map_version_ != planned_map_version_) ++plan_grid_version_;
  planned_shut_doors_ = std::move(shut);
  planned_map_version_ = map_version_;
  req.map_version = plan_grid_version_;
  worker_->submit(std::move(req));
  planning_ = true;
}

void Sandbox::take_plan() {
  if (!planning_) return;
  if (auto r = worker_->take()) {
    planning_ = worker_->busy();
    prepared_replay_ = std::move(r->replay);
    apply_plan(std::move(r->view));
  }
}

void Sandbox::apply_plan(PlanView view) {
  plan_ = std::move(view);
  plan_.plans = ++plans_;
  const std::string key = units_key();
  if (units_key_ != key) {
    units_key_ = key;
    units_->request_replan();
  }
}

void Sandbox::plan_step() {
  // A door that opens or shuts (on its schedule, by a click or an edit) changes the plan's map.
  if (!plan_dirty_ && shut_doors() != planned_shut_doors_) plan_dirty_ = true;
  if (plan_dirty_) submit_plan();
  if (planning_ && plan_wait_ms_ > 0) worker_->wait(plan_wait_ms_);
  take_plan();
}

void Sandbox::replan_now() {
  submit_plan();
  worker_->wait(1e9);
  take_plan();
}

bool Sandbox::animating() const {
  const ImGuiIO& io = ImGui::GetIO();
  const bool mouse_held = std::any_of(std::begin(io.MouseDown), std::end(io.MouseDown), [](bool b) { return b; });
  return planning_ || plan_dirty_ || drag_ != Drag::none || mouse_held || ImGui::IsAnyItemActive() ||
         units_->moving() || units_->pending_replans() > 0 || inspector_->replay().playing ||
         inspector_->compare_busy();
}

std::string Sandbox::units_key() const {
  // Units re-plan when what their routes depend on changed: the map, the goal, a setting
  // (not the start, which only matters for spawning).
  const io::PlanSettingsData& s = scene_.settings;
  char key[512];
  std::snprintf(key, sizeof key,
                "%llu %.9g %.9g %.9g %s %s %d %.9g %.9g %d %.9g %d %.9g %.9g %d %d %d %.9g %.9g %d %.9g %d %d",
                static_cast<unsigned long long>(map_version_), scene_.goal.pos.x, scene_.goal.pos.y,
                scene_.goal.heading, s.planner.c_str(), s.smoother.c_str(), s.connectivity, s.turn_penalty,
                s.agent_radius, s.subdivisions, s.turning_radius, s.reverse ? 1 : 0, s.insert_min_chord,
                s.shift_margin, s.shift_passes, s.headings, s.neighborhood, s.reverse_penalty, s.gear_change_penalty,
                s.cc ? 1 : 0, s.min_gear_length, s.navmesh_convex ? 1 : 0, s.navmesh_corners ? 1 : 0);
  return key;
}

// ---- Undo ----

SceneState Sandbox::scene_state() const {
  SceneState s;
  s.start = scene_.start;
  s.goal = scene_.goal;
  s.settings = scene_.settings;
  s.units = units_->spawn_list();
  s.sim_speed = units_->speed();
  s.doors = scene_.doors;
  s.moving_obstacles = scene_.moving_obstacles;
  return s;
}

void Sandbox::apply_state(const SceneState& s) {
  const bool radius_changed = s.settings.agent_radius != scene_.settings.agent_radius ||
                              s.settings.navmesh_convex != scene_.settings.navmesh_convex ||
                              s.settings.navmesh_corners != scene_.settings.navmesh_corners;
  scene_.start = s.start;
  scene_.goal = s.goal;
  scene_.settings = s.settings;
  scene_.doors = s.doors;
  scene_.moving_obstacles = s.moving_obstacles;
  dynamic_edit_.clamp_to(scene_);
  units_->set_speed(s.sim_speed);
  if (!same_units(s.units, units_->spawn_list())) {
    scene_.units = s.units;
    scene_.sim_speed = s.sim_speed;
    if (std::string e = units_->load(scene_); !e.empty()) set_status(e, true);
    units_key_ = units_key();
  }
  committed_state_ = scene_state();
  if (radius_changed) map_version_++;  // the pipeline's navmesh was built for the old radius
  plan_dirty_ = true;
  touched();
}

void Sandbox::record_state_edits() {
  // A change of poses, settings or units becomes one undo step once the control that makes it
  // is let go (a slider drag or a marker drag is one step, not one per frame).
  if (drag_ != Drag::none || ImGui::IsAnyItemActive()) return;
  SceneState now = scene_state();
  if (now == committed_state_) return;
  history_.record_state(committed_state_, now);
  committed_state_ = std::move(now);
  touched();
}

bool Sandbox::undo() {
  std::optional<SceneState> state;
  record_state_edits();  // a change not yet recorded is undone first
  if (units_->can_undo_branch() && units_->branches_made() == units_branches_ && history_.edits() == edits_at_branch_) {
    // The last edit started a branch at a past moment: undoing it brings the old future back
    // (as "Undo branch"), not only the edit (which would start yet another branch).
    if (const Status s = units_->undo_branch(); !s) {
      set_status(s.error().message, true);
    } else if (branch_edit_in_history_) {
      // The edit that started it (a paint, a goal moved) is in the undo list: the old future
      // has no such edit, so its undo step goes too, unapplied (left behind, the next Ctrl+Z
      // would undo a wall already gone; Redo makes the edit again).
      std::optional<SceneState> unused;
      (void)history_.undo(scene_.grid, unused);
      branch_edit_in_history_ = false;
      texture_dirty_ = true;
      plan_dirty_ = true;
      map_version_++;
    }
    return true;
  }
  if (!history_.undo(scene_.grid, state)) return false;
  if (state) apply_state(*state);
  else map_changed();
  return true;
}

bool Sandbox::redo() {
  std::optional<SceneState> state;
  if (!history_.redo(scene_.grid, state)) return false;
  if (state) apply_state(*state);
  else map_changed();
  return true;
}

// ---- Frame ----

void Sandbox::draw_panel() {
  const ScreenRect& r = layout_.panel;
  if (r.empty()) return;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y));
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h));
  // Narrowed below its natural width (a large UI scale, screen_layout.hpp), the panel keeps
  // more of it for its controls: a thinner scrollbar and margin (100% is unchanged).
  const bool narrow = r.w < natural_panel_width(ImGui::GetFontSize()) - 0.5f;
  const float em = ImGui::GetFontSize() / 14.0f;
  if (narrow) {
    ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, 9.0f * em);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(4.0f * em, ImGui::GetStyle().WindowPadding.y));
  }
  // At a large UI scale the panel is narrower than its content (it keeps 30% of the window at
  // most): a label that does not fit scrolls into view sideways rather than being cut.
  ImGui::Begin("pathlab", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_HorizontalScrollbar);
  // Leave room for the longest label, its help marker and the scrollbar; in a narrow panel the
  // controls keep half of it.
  ImGui::PushItemWidth(-std::min(ImGui::GetFontSize() * 11.5f, ImGui::GetContentRegionAvail().x * 0.5f));
  // Text wraps at the panel's visible edge (not at its scrolled content's), so a note is read
  // whole without scrolling sideways.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::PushTextWrapPos(std::max(ImGui::GetFontSize() * 8.0f, r.w - style.WindowPadding.x - style.ScrollbarSize));
  widget_rects_.clear();
  for (auto& p : panels_) p->draw(*this);
  ImGui::PopTextWrapPos();
  ImGui::PopItemWidth();
  ImGui::End();
  if (narrow) ImGui::PopStyleVar(2);
}

void Sandbox::frame() {
  sdl_layer_->new_frame();  // last frame's batches were drawn by now
  edits_at_frame_start_ = history_.edits();
  update_layout();  // canvas.cpp: where the panel, canvas, timeline and strip go this frame
  presenting_ ? draw_presentation() : draw_panel();
  draw_timeline();  // before the canvas: a seek shows in this frame's drawing
  follow_recorded_scene();
  draw_canvas();  // plans (plan_step) after its input, before drawing the path
  inspector_->frame(*this);
  // Re-plans of units get a slice of the frame; the rest waits for the next frames. While a
  // modal question is open (restore a crash copy? save before quitting?) the clock stands
  // still: the user decides which world runs, so none runs on behind the dialog.
  const bool asking = pending_.kind != PendingAction::Kind::none || !restore_offer_.empty();
  const double real_dt = asking ? 0.0 : static_cast<double>(ImGui::GetIO().DeltaTime);
  // A stroke or a goal drag in progress: its rebuild, or its recorded goal move, waits for its end.
  const bool editing = drag_ == Drag::tool || drag_ == Drag::goal_pos || drag_ == Drag::goal_heading;
  units_->update(scene_, real_dt, editing);
  follow_recorded_scene();
  record_state_edits();
  if (units_->branches_made() != units_branches_) {  // an edit started a branch (Ctrl+Z undoes it)
    units_branches_ = units_->branches_made();
    edits_at_branch_ = history_.edits();
    branch_edit_in_history_ = edits_at_branch_ != edits_at_frame_start_;
  }
  draw_status();
  draw_dialogs();
  file_dialog_->draw(*this);
  if (doc_.autosave_due(SDL_GetTicks64(), 1000)) autosave_now();
}

}  // namespace pathlab::sandbox
