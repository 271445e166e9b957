#pragma once
// The pathlab sandbox: paint a map, place start and goal with a heading, pick a planner and
// watch the path update live. SDL_Renderer + Dear ImGui 1.86; everything it shows comes from
// the core as data (paths, traces) and is drawn here.
//
// The Sandbox ties the parts together and owns the scene; the parts each have one job:
//  - SceneDocument (document.hpp): which file the scene belongs to, the rules of saving;
//  - FileDialog (file_dialog.hpp): the Open / Import / Save As dialog over FileBrowser;
//  - PlanWorker (plan_worker.hpp): planning off the UI thread;
//  - EditHistory (edit_history.hpp): undo/redo of every edit;
//  - CanvasTool (canvas_tools.hpp): what a mouse press on the map does;
//  - Panel (panel.hpp): the side panel's sections;
//  - Inspector (inspector.hpp): replay, overlays, plots, compare, gallery, export, help.
// Files: sandbox.cpp (frame, planning, undo), sandbox_files.cpp (open, save, autosave, the
// unsaved-changes and restore dialogs, the status toast), canvas.cpp (the map view and its input).

#include <SDL.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canvas/canvas_tools.hpp"
#include "canvas/door_tools.hpp"
#include "canvas/screen_layout.hpp"
#include "document/document.hpp"
#include "document/edit_history.hpp"
#include "document/file_browser.hpp"
#include "document/gallery.hpp"
#include "panels/event_list.hpp"
#include "document/lesson_deck.hpp"
#include "panels/panel.hpp"
#include "planning/plan_pipeline.hpp"
#include "planning/replay.hpp"
#include "pathlab/io/scene_file.hpp"
#include "canvas/sdl_layer.hpp"
#include "units/units.hpp"

#include <imgui.h>

namespace pathlab::sandbox {

/// Puts start and goal on the free cells nearest to the map's top-left and bottom-right corners.
void place_default_poses(io::Scene& scene);
/// A repro file's name (it ends in .repro.json): opening it restores a recorded run.
bool is_repro_name(const std::string& path);

class FileDialog; // file_dialog.hpp: the Open / Import / Save As dialog
class CrowdUi;    // crowd_ui.hpp: crowd tools, right-click command, crowd overlays
class Inspector;  // inspector.hpp: replay, overlays, compare, plots, gallery, export, help
class PlanWorker;

/// What the user asked for that would replace or close a scene with unsaved edits.
struct PendingAction {
  enum class Kind { none, open, preset, quit } kind = Kind::none;
  std::string path;
  GalleryEntry preset;
};

class Sandbox {
 public:
  /// `scene_path` is the file the scene was read from ("" for none); `is_scene` false when it
  /// is an imported map (which is never written).
  Sandbox(SDL_Renderer* renderer, io::Scene scene, std::string scene_path, bool is_scene = true);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  /// Builds the UI and handles canvas input. Call between ImGui::NewFrame() and ImGui::Render().
  void frame();
  /// Clears the screen and draws ImGui's draw data. Call after ImGui::Render().
  void render();

  io::Scene& scene() { return scene_; }
  const io::Scene& scene() const { return scene_; }
  const PlanView& plan() const { return plan_; }
  /// The scene as the start -> goal plan and compare mode plan it: no units, and each door
  /// shut at the moment (shut_doors()) drawn into the map as a wall, as the units see it.
  io::Scene plan_scene() const;
  /// Bumped on every map edit (and load): what depends on the map alone can be kept until it moves.
  uint64_t map_version() const { return map_version_; }
  UnitSwarm& units() { return *units_; }
  CrowdUi& crowd_ui() { return *crowd_ui_; }
  bool show_unit_paths() const { return show_unit_paths_; }
  /// Which kinds of the recorded run's events the Events list and the timeline's ticks show.
  EventFilter& event_filter() { return event_filter_; }
  /// Screen rectangle (min, max) of a panel control drawn last frame, by label; scripted UI
  /// tests click on it. Zero-sized when it was not drawn.
  std::pair<ImVec2, ImVec2> widget_rect(const std::string& label) const {
    auto it = widget_rects_.find(label);
    return it == widget_rects_.end() ? std::pair<ImVec2, ImVec2>{} : it->second;
  }
  void remember_widget(const char* label) { widget_rects_[label] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()}; }
  Inspector& inspector() { return *inspector_; }
  const std::string& status() const { return status_; }
  bool status_is_error() const { return status_error_; }
  /// Screen position (pixels) of a world point, and back.
  ImVec2 world_to_screen(Vec2 w) const;
  Vec2 screen_to_world(float sx, float sy) const;
  Tool tool() const { return tool_; }
  void set_tool(Tool t);
  int brush() const { return brush_; }
  void set_brush(int radius) { brush_ = radius; }
  float terrain_cost() const { return terrain_cost_; }
  void set_terrain_cost(float c) { terrain_cost_ = c; }
  /// Switches on every canvas layer and every inspector overlay (--all-overlays, the bench).
  void show_all_overlays();
  /// Canvas batches drawn by SDL itself (see sdl_layer.hpp); the inspector queues into it too.
  SdlLayer& sdl_layer() const { return *sdl_layer_; }
  float scale() const { return scale_; }
  /// UI scale for projectors and high-DPI screens: 1 = 100%, at most 2.5 (250%). Remembered in
  /// the state folder; the host rebuilds the font at the new size before the next frame. The
  /// one factor the canvas's drawing reads: line widths, markers, search ticks and the smallest
  /// unit bodies are their 100% size times it.
  float ui_scale() const { return ui_scale_; }
  void set_ui_scale(float s);
  /// Where this frame put the side panel, the canvas, the legend, the timeline and the Inspect
  /// strip (screen_layout.hpp); read-only, for the strip, the timeline and the layout tests.
  const ScreenLayout& layout() const { return layout_; }
  /// Fits the whole map into the canvas (the "fit view" button and the F key).
  void fit_view();
  bool user_zoomed() const { return user_zoomed_; }

  // ---- Files (sandbox_files.cpp) ----
  /// Saves to the scene's own file, or, for an import, a bundled scene or an untitled one, to a
  /// new scene name derived from it (arena.map -> arena.json). Never writes an asset or over a
  /// file that is not a pathlab scene.
  bool save();
  /// Saves as `path` (a .json that is not an asset and not another kind of file).
  bool save(const std::string& path);
  /// Opens a scene or imports a map now, without asking. A failure changes nothing.
  bool open(const std::string& path);
  /// At a start that names no scene: reopens the scene autosaved last (a bundled preset too:
  /// state folder's last_unsaved.txt), else the most recent file, whose autosave is newer than
  /// the file itself (work a signal, a crash or kill -9 left unsaved), so the restore is on
  /// offer whichever scene was open when the app ended. Returns the file reopened, or "".
  std::string reopen_last_unsaved();
  /// Writes the units' recorded run as a new repro file next to where Save would write the
  /// scene, the moment shown as its moment of interest (sandbox_repro.cpp). Returns its path,
  /// or "" (the status says why).
  std::string save_repro();
  /// Opens a repro file: its scene (untitled), its run replayed, the timeline at its moment.
  /// open() does this for a name ending in .repro.json.
  bool open_repro(const std::string& path);
  /// Opens what a scene link holds (scene_link.hpp; a whole URL or just its fragment): a scene
  /// opens untitled, never written by itself (Save asks for a file name); a lesson link presents
  /// its lesson at the link's step. The one entry for `pathlab --link` and the web build's URL.
  /// A link that does not read changes nothing (a lesson stays open at a step that fails); errors begin "link".
  Status open_link(std::string_view url_or_fragment);
  /// The link of the scene shown (units as Save would write them), after `base` ("index.html"
  /// by default; the web build sets the page's address): what Export's "Copy link" copies.
  std::string scene_link_url() const;
  void set_link_base(std::string base) { link_base_ = std::move(base); }
  /// Who takes the text Export copies for the user (Copy link, Copy CLI command, Copy scene to
  /// clipboard, Copy path CSV): `what` names it ("link", "CLI command", ...). The web page puts
  /// it in its share box and on the clipboard when the browser allows; it returns what the
  /// Export panel then says. Unset (the desktop): share_text puts it on the clipboard (SDL's).
  using TextSharer = std::function<std::string(const std::string& what, const std::string& text)>;
  void set_text_sharer(TextSharer sharer) { text_sharer_ = std::move(sharer); }
  /// Hands `text` to the user as set_text_sharer says; returns the sharer's words, "" when the
  /// text went to the clipboard (the caller says what was copied).
  std::string share_text(const std::string& what, const std::string& text) const;
  /// Who also gets each file the sandbox wrote for the user (Save / Save As, Save repro, Save
  /// lesson, Export's path files; never an autosave or the state folder): the web page hands it
  /// to the browser as a download, its in-memory files being out of the user's reach. Unset (the
  /// desktop): the file written is all. The one place user files leave the sandbox.
  using FileHandoff = std::function<void(const std::string& path)>;
  void set_file_handoff(FileHandoff handoff) { file_handoff_ = std::move(handoff); }
  /// Called once a user's file was written, with its path.
  void wrote_user_file(const std::string& path) const {
    if (file_handoff_) file_handoff_(path);
  }
  /// True when the files the sandbox writes reach the user only through the handoff (the web
  /// page): a file's path inside the sandbox means nothing to them, its download does.
  bool files_go_through_handoff() const { return static_cast<bool>(file_handoff_); }
  /// Opens when there are no unsaved edits, else asks save / discard / cancel first.
  void request_open(const std::string& path);
  void request_preset(const GalleryEntry& e);
  /// The window's close button: quits at once when nothing is unsaved, else asks.
  void request_quit();
  bool quit_confirmed() const { return quit_confirmed_; }
  const PendingAction& pending() const { return pending_; }
  enum class Choice { save, discard, cancel };
  /// What the unsaved-changes dialog does with the user's answer.
  void resolve_pending(Choice c);
  const SceneDocument& document() const { return doc_; }
  bool unsaved() const { return doc_.dirty(); }
  /// Folder where derived scene names go when the source has no folder of its own (a bundled
  /// preset, an untitled scene). Default: the current directory.
  void set_work_dir(const std::string& dir) { work_dir_ = dir; }

  /// Where the autosaves and the recent-files list live; empty disables both. Unsaved work is
  /// written to the document's own autosave a second after each change. Setting it offers a
  /// crash copy of the current scene, if one newer than the file is found.
  void set_state_dir(const std::string& dir);
  std::string autosave_path() const { return doc_.autosave_path(state_dir_); }
  /// Writes the autosave now if there are unsaved changes. Returns true when it wrote. Never
  /// while a crash copy waits for the user's answer.
  bool autosave_now();
  /// A crash copy waiting for the user's answer ("" when none).
  const std::string& restore_offer() const { return restore_offer_; }
  /// Restore (true) or drop (false) the crash copy on offer.
  void resolve_restore(bool restore);
  /// Exit: drops the autosave when the user has nothing unsaved (saved or discarded), else
  /// writes it (a quit signal does not ask; the next start offers it). True when it wrote.
  bool finish();
  const std::vector<std::string>& recent_files() const { return recent_; }
  void set_status(std::string text, bool error);
  /// set_status(text) after set_scene: its message naming units it could not place stays
  /// beside `text`, as an error (a wall painted over a spawn spot must not drop units unsaid).
  void set_status_after_load(std::string text);
  /// Opens the Open / Import / Save As dialog (file_dialog.cpp; Ctrl+O, Ctrl+Shift+S). What it
  /// returns goes through request_open() and save(path). Not while another question is asked.
  void show_file_dialog(BrowseMode mode);
  FileDialog& file_dialog() { return *file_dialog_; }

  // ---- Presentation and lessons (sandbox_present.cpp; issue 26) ----
  /// Presentation mode (F5 or "Present"; Esc leaves): no side panel and no Inspect strip, the
  /// canvas takes the window above the lesson's caption (and the units' timeline), no hover
  /// tooltips, no "opened ..." banner, and units wait for Play (Space) in every scene opened.
  bool presenting() const { return presenting_; }
  void set_presenting(bool on);
  /// Opens a lesson file and presents its first step. A failure changes nothing (the status says why).
  bool open_lesson(const std::string& path);
  /// Opens step `index` of the lesson (clamped): its scene, its views on, units paused. False
  /// when the scene cannot open, or when the scene shown has unsaved edits (saying so).
  bool show_lesson_step(int index);
  const LessonShow& lesson() const { return lesson_; }
  LessonDraft& lesson_draft() { return draft_; }
  /// Switches on one view of a lesson step: a canvas layer ("search", "raw_path", "curvature",
  /// "unit_routes"), "replay" (the search from its first step) or an inspector view. False for
  /// a name nobody knows.
  bool apply_view(const std::string& v);
  /// Whether view `v` (a lesson view name) is on now: what a lesson step switched on can be seen.
  bool view_on(const std::string& v) const;
  /// "Add this view" (Lesson section): the scene shown (its file, or its preset id), `caption` and the
  /// views on now become the draft's next step. "" when added, else why not.
  std::string add_view_to_lesson(const std::string& caption);
  /// "Save lesson": the draft to a new NAME.lesson.json next to where Save puts scenes (then
  /// back to that file). Returns its path, or "" (the status says why).
  std::string save_lesson_draft();

  // ---- Planning (sandbox.cpp) ----
  /// Plans now and waits for the result.
  void replan_now();
  /// How long a frame waits for a plan it just asked for before drawing the previous result
  /// [ms]; tests wait long so each frame shows the plan of its own inputs.
  void set_plan_wait_ms(double ms) { plan_wait_ms_ = ms; }
  double plan_wait_ms() const { return plan_wait_ms_; }
  /// A plan is running on the worker ("planning..." shows).
  bool planning() const { return planning_; }
  /// The replay of the last plan's search, built on the worker (null when none was built
  /// there); the inspector takes it instead of rebuilding it on the UI thread.
  std::unique_ptr<ReplayModel> take_prepared_replay() { return std::move(prepared_replay_); }
  /// Marks the map changed (texture and plan refresh on the next frame).
  void map_changed();
  /// Something moves (units, a replay, a plan, a drag): the app should not sleep between frames.
  bool animating() const;

  // ---- Undo (sandbox.cpp) ----
  bool undo();
  bool redo();
  EditHistory& history() { return history_; }
  /// The door and truck tools' selection, route draft and next-object settings (door_tools.hpp).
  DynamicEdit& dynamic_edit() { return dynamic_edit_; }

 private:
  void draw_panel();
  void draw_plan_panel();   // panel_planning.cpp: planner, smoother and their parameters
  void draw_stats_panel();  // panel_planning.cpp
  void draw_units_panel();  // units.cpp
  void draw_timeline();     // timeline_strip.cpp: the units' recorded run, under the canvas
  void update_layout();     // canvas.cpp: layout_ for this frame (screen_layout.hpp)
  /// The map and goal of the moment the timeline shows (a seek before a recorded paint or goal
  /// move), copied from the units' recording when it changed them (timeline_strip.cpp).
  void follow_recorded_scene();
  void draw_presentation();  // sandbox_present.cpp: the caption, its buttons and keys (instead of the panel)
  void draw_lesson_panel();  // sandbox_present.cpp: the side panel's "Lesson" section
  void present_keys();
  float caption_height(float width) const;
  void draw_canvas();       // canvas.cpp
  void draw_path(ImDrawList* dl);
  void draw_poses(ImDrawList* dl);
  void handle_canvas_input(float x0, float y0, float w, float h);
  void handle_keys();
  void compose_map();
  void fit_view(float w, float h);
  void set_scene(io::Scene scene);
  void plan_step();  // submits a plan when inputs changed, takes a finished one
  void submit_plan();
  std::vector<bool> shut_doors() const;  // per scene door: shut now (the running crowd's state, else at t = 0)
  io::Scene scene_with_shut_doors(const std::vector<bool>& shut) const;  // plan_scene() for given doors
  void take_plan();
  void apply_plan(PlanView view);
  SceneState scene_state() const;
  void apply_state(const SceneState& s);
  void record_state_edits();
  ToolContext tool_context();
  // sandbox_files.cpp
  void draw_dialogs();
  void draw_status();
  void check_restore();
  void remove_autosave(const std::string& path);
  bool run_pending();  // true when the action happened (the file opened, the app quits)
  void open_document(const std::string& path, bool is_scene);
  void sync_units_to_scene();  // the spawn list and speed go into scene_ before saving
  void touched();  // something the user would not want to lose changed
  void remember_recent(const std::string& path);
  void forget_scene_messages();  // the status toast and the inspector's message, when a scene is replaced

  SDL_Renderer* renderer_;
  io::Scene scene_;
  SceneDocument doc_;
  // The map with the search layer already blended in: one opaque texture, re-composed only
  // when the map or the search's pixels change, so a frame blits it once without blending.
  SDL_Texture* texture_ = nullptr;
  int tex_w_ = 0, tex_h_ = 0;
  std::vector<uint32_t> map_px_, composed_px_;  // the bare map, and map + search
  uint64_t composed_search_ = 0;                // search pixels' version in texture_ (0: none)
  std::unique_ptr<SdlLayer> sdl_layer_;
  bool texture_dirty_ = true;
  bool plan_dirty_ = true;
  std::unique_ptr<PlanWorker> worker_;
  double plan_wait_ms_ = 2.0;
  bool planning_ = false;
  int plans_ = 0;
  std::unique_ptr<ReplayModel> prepared_replay_;
  std::unique_ptr<Inspector> inspector_;
  PlanView plan_;
  std::unique_ptr<UnitSwarm> units_;
  std::unique_ptr<CrowdUi> crowd_ui_;
  int unit_preset_ = 0;
  bool show_unit_paths_ = true;
  EventFilter event_filter_;
  uint64_t map_version_ = 0;  // bumped by map_changed(): units re-plan when it, the goal or a setting moves
  // The start -> goal plan treats shut doors as walls: the doors it was planned with, and a
  // version of its grid (the map's and the doors') for the pipeline's per-map caches.
  std::vector<bool> planned_shut_doors_;
  uint64_t planned_map_version_ = 0;
  uint64_t plan_grid_version_ = 0;
  std::string units_key_;  // what the units' routes were planned for (units_key())
  uint64_t units_scene_version_ = 0;  // UnitSwarm::shown_scene_version() last followed
  uint64_t units_moment_version_ = 0;  // UnitSwarm::moment_version() last followed
  uint64_t units_branches_ = 0;       // UnitSwarm::branches_made() last seen
  uint64_t edits_at_branch_ = 0;      // history_.edits() then: Ctrl+Z undoes the branch until an edit follows
  uint64_t edits_at_frame_start_ = 0; // history_.edits() when this frame began
  bool branch_edit_in_history_ = false;  // the edit that started the branch is history_'s last (a paint, a goal move)
  std::string units_key() const;
  std::map<std::string, std::pair<ImVec2, ImVec2>> widget_rects_;
  std::vector<std::unique_ptr<Panel>> panels_;
  EditHistory history_;
  SceneState committed_state_;  // the scene state the history last recorded

  // View: screen = origin + world * scale.
  float origin_x_ = 0, origin_y_ = 0, scale_ = 8;
  float ui_scale_ = 1.0f;
  bool view_fitted_ = false, user_zoomed_ = false;
  float fitted_legend_ = 0.0f;
  float canvas_x_ = 0, canvas_y_ = 0, canvas_w_ = 0, canvas_h_ = 0;
  ScreenLayout layout_;

  // Interaction.
  Tool tool_ = Tool::paint;
  DynamicEdit dynamic_edit_;
  std::unique_ptr<CanvasTool> active_tool_;
  int brush_ = 1;
  float terrain_cost_ = 3.0f;  // what the terrain brush paints (3: the swamp of the scene format)
  enum class Drag { none, tool, pan, start_pos, goal_pos, start_heading, goal_heading };
  Drag drag_ = Drag::none;
  bool show_search_ = true;
  bool show_raw_path_ = false;
  bool show_curvature_ = true;

  // Files and messages.
  std::string status_, shown_status_;
  bool status_error_ = false;
  uint64_t status_at_ms_ = 0;
  std::string state_dir_, work_dir_;
  std::vector<std::string> recent_;
  std::string last_unsaved_;  // the scene autosaved last, as last_unsaved.txt names it
  PendingAction pending_;
  bool pending_modal_open_ = false, quit_confirmed_ = false;
  std::string restore_offer_;
  std::unique_ptr<FileDialog> file_dialog_;

  // Presentation and lessons (sandbox_present.cpp).
  bool presenting_ = false;
  LessonShow lesson_;
  std::string link_base_ = "index.html";  ///< what scene_link_url() puts before the '#'
  TextSharer text_sharer_;
  FileHandoff file_handoff_;

  LessonDraft draft_;
  int replay_from_start_after_ = -1;  // a step's "replay": rewind once a plan newer than this shows
  char caption_buf_[2048] = "";
  char title_buf_[200] = "My lesson";  // LessonDraft's default title
};

}  // namespace pathlab::sandbox
