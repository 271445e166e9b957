#pragma once
// The pathlab sandbox: paint a map, place start and goal with a heading, pick a planner and
// watch the path update live. SDL_Renderer + Dear ImGui 1.86; everything it shows comes from
// the core as data (paths, traces) and is drawn here.

#include <SDL.h>

#include <functional>
#include <string>
#include <vector>

#include "edit_history.hpp"
#include "pathlab/grid_search.hpp"
#include "scene_file.hpp"

#include <imgui.h>

namespace pathlab::sandbox {

enum class Tool { paint, erase, swamp, rect, start, goal };

/// What the last plan produced, for drawing and for the stats panel.
struct PlanView {
  bool valid = false;        // a plan was attempted with the current inputs
  bool found = false;
  std::string error;         // why planning failed (bad start/goal), or empty
  std::string reason;        // why no path exists, or empty
  std::vector<Vec2> points;  // world coordinates
  std::vector<TraceEvent> trace;
  double length = 0.0;
  int64_t expanded = 0;
  double time_ms = 0.0;
  int plans = 0;  // how many times the sandbox planned (tests use it)
};

/// Puts start and goal on the free cells nearest to the map's top-left and bottom-right corners.
void place_default_poses(io::Scene& scene);

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
  const PlanView& plan() const { return plan_; }
  const std::string& status() const { return status_; }
  /// Screen position (pixels) of a world point, and back.
  ImVec2 world_to_screen(Vec2 w) const;
  Vec2 screen_to_world(float sx, float sy) const;
  void set_tool(Tool t) { tool_ = t; }
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
  void draw_canvas();
  void handle_canvas_input(float x0, float y0, float w, float h);
  void paint_at(Vec2 world);
  void update_texture();
  void update_search_texture();
  void fit_view(float w, float h);
  void set_scene(io::Scene scene);

  SDL_Renderer* renderer_;
  io::Scene scene_;
  std::string scene_path_;
  SDL_Texture* texture_ = nullptr;
  int tex_w_ = 0, tex_h_ = 0;
  SDL_Texture* search_texture_ = nullptr;  // the last search's closed/open cells
  int search_w_ = 0, search_h_ = 0;
  bool texture_dirty_ = true;
  bool plan_dirty_ = true;
  GridPathfinder pathfinder_;
  PlanView plan_;
  EditHistory history_;

  // View: screen = origin + world * scale.
  float origin_x_ = 0, origin_y_ = 0, scale_ = 8;
  bool view_fitted_ = false;
  float canvas_x_ = 0, canvas_y_ = 0, canvas_w_ = 0, canvas_h_ = 0;

  // Interaction.
  Tool tool_ = Tool::paint;
  int brush_ = 1;
  enum class Drag { none, stroke, rect, pan, start_pos, goal_pos, start_heading, goal_heading };
  Drag drag_ = Drag::none;
  Vec2 drag_anchor_{0, 0};
  Vec2 rect_from_{0, 0};
  bool show_search_ = true;
  int gen_kind_ = 0;
  float gen_density_ = 0.25f;
  int gen_seed_ = 1;
  char path_buf_[512] = {};
  std::string status_;
  std::string state_dir_, autosave_path_;
  std::vector<std::string> recent_;
  bool unsaved_ = false;
  uint64_t changed_at_ms_ = 0;
  void touched();  // something the user would not want to lose changed
  void remember_recent(const std::string& path);
};

}  // namespace pathlab::sandbox
