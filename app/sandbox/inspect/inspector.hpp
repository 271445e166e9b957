#pragma once
// "Seeing inside": the sandbox views that show why a path looks the way it does.
//  - Replay of the search's open/close order (play, pause, step, scrub, speed; hover for costs);
//  - method overlays (navmesh, corridor and portals, funnel apex and legs, spline control
//    points and tangents, turning circles with the Dubins / Reeds-Shepp words, a curvature
//    colour ramp, the look-ahead point);
//  - plots of curvature and planned speed along the path;
//  - compare mode: every registry planner on one scene (the user ticks which), planned on a
//    worker thread one row after another, checked for walls and the turning radius, ranked;
//  - the preset gallery, path export and a help window with the keyboard shortcuts.
// The Inspector is owned by the Sandbox and only reads it, except for opening gallery scenes.
// Everything it shows comes from the core's results; it draws them, it never plans differently.

#include <SDL.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "canvas/screen_layout.hpp"
#include "document/export.hpp"
#include "document/gallery.hpp"
#include "inspect/compare_rows.hpp"
#include "pathlab/funnel.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/segment_path.hpp"
#include "planning/plan_pipeline.hpp"
#include "planning/plan_worker.hpp"
#include "planning/replay.hpp"

namespace pathlab::sandbox {

class Sandbox;

/// Smallest distance from a polyline to any blocked cell or the map's edge, at most `cap`. [cells]
double path_clearance(const Grid& grid, const std::vector<Vec2>& pts, double cap);

/// A planned speed profile along a path: the unit's top speed, slowed where the curvature would
/// need more than its lateral acceleration, accelerating from rest at the start and braking to
/// rest at the end. s and speed have one entry per path point. [cells, cells/s]
struct SpeedProfile {
  std::vector<double> s, speed, curvature;
};
SpeedProfile plan_speed_profile(const std::vector<Vec2>& pts, const std::vector<double>& curvature, double max_speed,
                                double accel, double brake, double lateral_accel);

class Inspector {
 public:
  enum class Tab { replay, overlays, plots, compare, gallery, export_ };

  explicit Inspector(SDL_Renderer* renderer);
  ~Inspector();
  Inspector(const Inspector&) = delete;
  Inspector& operator=(const Inspector&) = delete;

  /// The strip window (tabs), the help window and the keyboard shortcuts. Call once per frame
  /// after the sandbox planned.
  void frame(Sandbox& sb);
  /// Canvas layers: under the path (the replayed search) and over it (overlays, compare paths,
  /// legend, hover tooltips). The draw list's clip rect is the canvas.
  void draw_under_path(Sandbox& sb, ImDrawList* dl);
  void draw_over_path(Sandbox& sb, ImDrawList* dl);
  /// The strip shows its tab row only (the arrow left of the tabs).
  bool strip_collapsed() const { return strip_collapsed_; }
  /// The strip's height the user dragged its splitter to; 0 until they do (the layout's
  /// default). The layout keeps it within bounds (screen_layout.hpp). [pixels]
  float strip_wanted() const { return strip_wanted_; }
  /// True when the replay draws the search, so the sandbox skips its own search layer.
  bool owns_search() const { return !replay_.empty(); }
  /// True while a replay is short of its end: the final path is not drawn before the search
  /// that finds it has finished.
  bool hides_path() const { return !replay_.empty() && replay_.step() < replay_.steps(); }
  /// The replayed grid search as one ABGR8888 pixel per cell, for the sandbox to blend into its
  /// map texture; null when the replay is not of a grid search on this map. `version` is
  /// non-zero and changes whenever the pixels do (a step, a new search).
  const std::vector<uint32_t>* search_pixels(const Sandbox& sb, uint64_t& version);
  /// Switches every overlay on (--all-overlays).
  void all_overlays_on();
  /// Another scene replaced this one: the export tab's message was about the old one.
  void forget_messages() { message_.clear(); }
  /// The export tab's last message ("wrote ...", an error), "" when none.
  const std::string& message() const { return message_; }

  // For the scripted tests and the keyboard shortcuts.
  ReplayModel& replay() { return replay_; }
  void show_tab(Tab t) { requested_tab_ = t; }
  Tab tab() const { return tab_; }
  /// The tab asked for (show_tab, a preset's "tab:<name>") and not drawn yet.
  std::optional<Tab> requested_tab() const { return requested_tab_; }
  /// Screen rectangle of a named control as drawn in the last frame ("scrub", "play", "step",
  /// "back", "speed", "compare_run", "export_csv", "export_json", "copy_scene", "help", ...).
  /// Zero-size when the control was not drawn.
  std::pair<ImVec2, ImVec2> widget(const std::string& name) const;
  std::vector<CompareRun>& compare_runs() { return compare_; }
  bool compare_shown() const { return compare_visible_; }
  /// Rows still waiting for (or being planned by) the compare worker.
  bool compare_busy() const { return compare_row_ >= 0; }
  /// The table's order, validity and best row for the rows as they are now.
  CompareRanking compare_ranking() const { return rank_rows(compare_, compare_rules()); }
  CompareRules compare_rules() const { return {compare_scene_.settings.turning_radius, compare_vehicle_rules_}; }
  void set_compare_vehicle_rules(bool on) { compare_vehicle_rules_ = on; }
  /// The width the compare legend would like at the canvas's right edge (0 when compare is not
  /// shown), so the legend sits beside the map rather than over it; the layout gives it at most
  /// kLegendMaxShare of the canvas, and its lines wrap. [pixels]
  float legend_width() const;
  /// The strip's body height the shown tab needs to be usable, for the layout (0: its default
  /// of two lines); Compare: its table's header and two rows, with the controls unless the
  /// legend carries them. [pixels]
  float strip_body_useful() const;
  /// Top-left corner of the compare legend's window as last drawn (screen pixels).
  ImVec2 legend_at() const { return legend_at_; }
  /// Plans every ticked row again with the scene as it is now (on the compare worker; the rows
  /// fill in over the next frames, or at once when the sandbox's plan wait allows).
  void run_compare(Sandbox& sb);
  /// The distance along the path a plot is hovered at [cells]; -1 when no plot is hovered.
  double probe() const { return probe_s_; }
  /// The steering plot's values, evenly spaced along the path (built when the Plots tab shows). [degrees]
  const std::vector<float>& steering_plot() const { return plot_steer_; }
  const std::vector<GalleryEntry>& gallery() const { return gallery_; }
  /// Scans the gallery now (the Gallery tab does it when first shown).
  void scan() { gallery_ = scan_gallery(assets_dir() + "/scenes"), gallery_scanned_ = true; }
  /// Opens a preset and switches on the views its "gallery.views" asks for.
  bool open_preset(Sandbox& sb, const GalleryEntry& e);
  /// Back to the default overlays and compare rows, then `views` switched on (apply_preset_view;
  /// names it does not know are skipped): what a preset or a lesson step shows when opened.
  void show_views(Sandbox& sb, const std::vector<std::string>& views);
  /// The views switched on now beyond the defaults, as apply_preset_view names them ("compare",
  /// "compare:<planner>" for each ticked row, overlays, "vehicle_rules"): a lesson step's views.
  std::vector<std::string> current_views() const;
  /// Presentation mode (issue 26): the strip is not drawn and gives its place (the layout's
  /// strip rectangle) to the lesson's caption; hover tooltips are off and Space, the arrows,
  /// Home and End are the presentation's keys.
  void set_presenting(bool on) { presenting_ = on; }
  /// Switches on one view of a preset's "gallery.views": an overlay name ("navmesh", "spline",
  /// ...), "compare", "compare:<planner>" (that row ticked), "vehicle_rules" (Compare holds
  /// polylines to the turning radius) or "tab:<name>". False for a name it does not know.
  bool apply_preset_view(const std::string& v);
  const std::string& export_dir() const { return export_dir_; }
  void set_export_dir(const std::string& d) { export_dir_ = d; }
  const std::string& last_export() const { return last_export_; }
  bool help_open() const { return help_open_; }
  ExportedPath exported_path(const Sandbox& sb) const;
  /// What "Copy CLI command" builds now: the plan's command, or the units' run's when
  /// set_cli_units(true). May write a new scene file to the temporary folder (CliCommand::written).
  CliCommand cli_command(Sandbox& sb);
  /// The last command the button made ("" before the first click).
  const CliCommand& last_cli_command() const { return cli_; }
  void set_cli_units(bool units) { cli_units_ = units, cli_units_int_ = units ? 1 : 0; }
  /// Pixel colour the replay uses for each node state (RGBA) — tests check the screen with them.
  static std::array<uint8_t, 4> replay_colour(ReplayModel::State s, bool current);

  struct Overlays {
    bool navmesh = false, corridor = true, portals = true, funnel = true;
    bool spline = true, tangents = true;
    bool circles = false, dubins = false, reeds_shepp = false;
    bool curvature_ramp = false;
    bool lookahead = true;
  };
  Overlays& overlays() { return ov_; }

 private:
  void refresh(Sandbox& sb);  // the plan changed: reload the replay, drop cached internals
  void tab_replay(Sandbox& sb);
  void tab_overlays(Sandbox& sb);
  void tab_plots(Sandbox& sb);
  void tab_compare(Sandbox& sb);
  void tab_gallery(Sandbox& sb);
  void tab_export(Sandbox& sb);
  void cli_command_row(Sandbox& sb);  // "Copy CLI command", its plan/units choice and the command
  void strip_splitter(const ScreenRect& strip, float lo, float hi);  // drag to resize the strip
  void tab_bar(Sandbox& sb);
  void help_window();
  void shortcuts(Sandbox& sb);
  void remember(const char* name);  // stores the last item's rect under `name`
  void update_replay_pixels(const Sandbox& sb);
  void ensure_internals(const Sandbox& sb);  // navmesh, corridor, funnel, spline for overlays
  void draw_replay_hover(const Sandbox& sb, ImDrawList* dl);
  void draw_curves(const Sandbox& sb, ImDrawList* dl);
  void draw_navmesh(const Sandbox& sb, ImDrawList* dl);
  void draw_spline(const Sandbox& sb, ImDrawList* dl);
  void draw_ramp_and_probe(const Sandbox& sb, ImDrawList* dl);
  void draw_compare(Sandbox& sb, ImDrawList* dl);
  void draw_compare_legend(Sandbox& sb, const CompareRanking& ranking);
  void compare_controls(Sandbox& sb);  // draw on the map, run again, vehicle rules, the note
  /// The strip's body is too short for Compare's controls over its table's header and three
  /// rows, and the legend shows: the legend carries the controls, the body the table only.
  bool compare_controls_in_legend(const Sandbox& sb) const;
  void compare_row_cells(size_t i, const CompareRanking& ranking, const std::vector<std::array<bool, 5>>& best);
  void submit_compare_row();         // the next ticked row without a result goes to the worker
  void compare_step(const Sandbox& sb);  // takes finished rows (waiting as the sandbox's plan wait allows)
  void replan_compare_row(size_t i);  // a row's tick or smoother changed
  void rebuild_plot_data(const Sandbox& sb);
  void plot_unit_row();  // the plots' unit choice

  SDL_Renderer* renderer_;
  ReplayModel replay_;
  std::vector<uint32_t> replay_px_;  // the replay's states as colours, one per cell
  uint64_t replay_px_version_ = ~uint64_t{0};  // replay_.version() they show
  uint64_t replay_px_serial_ = 0;             // bumped on every refill (what search_pixels reports)
  int seen_plans_ = -1;
  Tab tab_ = Tab::replay;
  std::optional<Tab> requested_tab_;
  bool strip_collapsed_ = false;
  float strip_wanted_ = 0.0f;
  bool presenting_ = false;
  bool help_open_ = false;
  std::vector<std::pair<std::string, std::pair<ImVec2, ImVec2>>> widgets_;

  Overlays ov_;
  // Method internals recomputed from the scene for the overlays (the pipeline keeps only the
  // result), valid for plan number internals_plans_.
  int internals_plans_ = -1;
  std::unique_ptr<Navmesh> mesh_;
  uint64_t mesh_map_version_ = 0;  // the sandbox's map version mesh_ was built for
  bool mesh_convex_ = true;
  bool mesh_corners_ = false;
  std::optional<NavSearchResult> corridor_;
  std::optional<FunnelResult> funnel_;
  int funnel_step_ = -1;  // -1 = the finished funnel
  std::vector<Vec2> spline_controls_, spline_tangents_;
  std::optional<SegmentPath> dubins_, reeds_shepp_;
  std::string dubins_word_, rs_word_;

  // Plots and the probe (a point along the path picked by hovering a plot).
  int plot_unit_ = 0;
  int plot_plans_ = -1;
  SpeedProfile profile_;
  std::vector<float> plot_k_, plot_v_, plot_steer_;  // plot_steer_: steering angle [degrees]
  double plot_step_ = 0.0;
  double probe_s_ = -1.0;

  // Compare mode.
  std::vector<CompareRun> compare_;
  bool compare_visible_ = false;
  ImVec2 legend_at_{0, 0};
  int compare_plans_ = -1;
  bool compare_vehicle_rules_ = false;
  io::Scene compare_scene_;        // the scene the rows plan (settings: the scene's)
  uint64_t compare_map_version_ = 0;  // bumped per run: the worker forgets its per-map caches
  int compare_row_ = -1;           // the row on the worker, -1 when idle
  uint64_t compare_serial_ = 0;    // its request's serial
  std::unique_ptr<PlanWorker> compare_worker_;

  // Gallery and export.
  std::vector<GalleryEntry> gallery_;
  bool gallery_scanned_ = false;
  std::string export_dir_;
  char export_stem_[128] = "path";
  std::string last_export_;
  std::string message_;
  bool cli_units_ = false;      // "Copy CLI command" reproduces the units' run, not the plan
  int cli_units_int_ = 0;       // the radio buttons' copy of it
  CliCommand cli_;              // the last command built
  std::string cli_written_;     // the last file written for it, reused while its bytes fit
};

}  // namespace pathlab::sandbox
