#pragma once
// The pathlab sandbox: paint a map, place start and goal with a heading, pick a planner and
// watch the path update live. SDL_Renderer + Dear ImGui 1.86; everything it shows comes from
// the core as data (paths, traces) and is drawn here.

#include <SDL.h>

#include <functional>
#include <map>
#include <utility>
#include <memory>
#include <string>
#include <vector>

#include "edit_history.hpp"
#include "plan_pipeline.hpp"
#include "sdl_layer.hpp"
#include "units.hpp"
#include "scene_file.hpp"

#include <imgui.h>

namespace pathlab::sandbox {

/// `terrain` paints cells with the cost chosen in the panel (default 3, the classic swamp).
enum class Tool { paint, erase, terrain, rect, start, goal };

/// Puts start and goal on the free cells nearest to the map's top-left and bottom-right corners.
void place_default_poses(io::Scene& scene);

class Inspector;  // inspector.hpp: replay, overlays, compare, plots, gallery, export, help

class Sandbox {
 public:
  Sandbox(SDL_Renderer* renderer, io::Scene scene, std::string scene_path);
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
  /// Bumped on every map edit (and load): what depends on the map alone can be kept until it moves.
  uint64_t map_version() const { return map_version_; }
  UnitSwarm& units() { return *units_; }
  /// Screen rectangle (min, max) of a panel control drawn last frame, by label; scripted UI
  /// tests click on it. Zero-sized when it was not drawn.
  std::pair<ImVec2, ImVec2> widget_rect(const std::string& label) const {
    auto it = widget_rects_.find(label);
    return it == widget_rects_.end() ? std::pair<ImVec2, ImVec2>{} : it->second;
  }
  Inspector& inspector() { return *inspector_; }
  const std::string& status() const { return status_; }
  /// Screen position (pixels) of a world point, and back.
  ImVec2 world_to_screen(Vec2 w) const;
  Vec2 screen_to_world(float sx, float sy) const;
  void set_tool(Tool t) { tool_ = t; }
  void set_brush(int radius) { brush_ = radius; }
  float terrain_cost() const { return terrain_cost_; }
  /// Switches on every canvas layer and every inspector overlay (--all-overlays, the bench).
  void show_all_overlays();
  /// Canvas batches drawn by SDL itself (see sdl_layer.hpp); the inspector queues into it too.
  SdlLayer& sdl_layer() const { return *sdl_layer_; }
  float scale() const { return scale_; }

  bool save(const std::string& path);
  bool open(const std::string& path);
  void replan_now();
  /// Marks the map changed (texture and plan refresh on the next frame).
  void map_changed();

  /// Where the autosave and the recent-files list live; empty disables both.
  /// Unsaved work is written to `dir/autosave.json` a second after each change; a clean exit
  /// (finish()) deletes it, so finding one at start-up means the last session crashed.
  void set_state_dir(const std::string& dir);
  const std::string& autosave_path() const { return autosave_path_; }
  /// Writes the autosave now if there are unsaved changes. Returns true when it wrote.
  bool autosave_now();
  /// Clean exit: drops the autosave.
  void finish();
  const std::vector<std::string>& recent_files() const { return recent_; }

 private:
  void draw_panel();
  void draw_plan_panel();   // panel_planning.cpp: planner, smoother and their parameters
  void draw_stats_panel();  // panel_planning.cpp
  void draw_units_panel();  // units.cpp
  void draw_canvas();
  void draw_path(ImDrawList* dl);
  void handle_canvas_input(float x0, float y0, float w, float h);
  void paint_at(Vec2 world);
  void compose_map();
  void fit_view(float w, float h);
  void set_scene(io::Scene scene);

  SDL_Renderer* renderer_;
  io::Scene scene_;
  std::string scene_path_;
  // The map with the search layer already blended in: one opaque texture, re-composed only
  // when the map or the search's pixels change, so a frame blits it once without blending.
  SDL_Texture* texture_ = nullptr;
  int tex_w_ = 0, tex_h_ = 0;
  std::vector<uint32_t> map_px_, composed_px_;  // the bare map, and map + search
  uint64_t composed_search_ = 0;                // search pixels' version in texture_ (0: none)
  std::unique_ptr<SdlLayer> sdl_layer_;
  bool texture_dirty_ = true;
  bool plan_dirty_ = true;
  PlanPipeline pipeline_;
  std::unique_ptr<Inspector> inspector_;
  PlanView plan_;
  std::unique_ptr<UnitSwarm> units_;
  int unit_preset_ = 0;
  int spawn_count_ = 1;
  bool show_unit_paths_ = true;
  uint64_t map_version_ = 0;  // bumped by map_changed(): units re-plan when it, the goal or a setting moves
  std::string units_key_;  // what the units' routes were planned for (units_key())
  std::string units_key() const;
  std::map<std::string, std::pair<ImVec2, ImVec2>> widget_rects_;
  void remember_widget(const char* label) { widget_rects_[label] = {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()}; }
  EditHistory history_;

  // View: screen = origin + world * scale.
  float origin_x_ = 0, origin_y_ = 0, scale_ = 8;
  bool view_fitted_ = false;
  float canvas_x_ = 0, canvas_y_ = 0, canvas_w_ = 0, canvas_h_ = 0;

  // Interaction.
  Tool tool_ = Tool::paint;
  int brush_ = 1;
  float terrain_cost_ = 3.0f;  // what the terrain brush paints (3: the swamp of the scene format)
  enum class Drag { none, stroke, rect, pan, start_pos, goal_pos, start_heading, goal_heading };
  Drag drag_ = Drag::none;
  Vec2 drag_anchor_{0, 0};
  Vec2 rect_from_{0, 0};
  bool show_search_ = true;
  bool show_raw_path_ = false;
  bool show_curvature_ = true;
  int gen_kind_ = 0;
  float gen_density_ = 0.25f;
  int gen_seed_ = 1;
  char path_buf_[512] = {};
  std::string status_;
  std::string state_dir_, autosave_path_;
  std::vector<std::string> recent_;
  bool unsaved_ = false;
  uint64_t changed_at_ms_ = 0;
  void sync_units_to_scene();  // the spawn list and speed go into scene_ before saving
  void touched();  // something the user would not want to lose changed
  void remember_recent(const std::string& path);
};

}  // namespace pathlab::sandbox
