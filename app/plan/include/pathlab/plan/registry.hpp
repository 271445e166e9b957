#pragma once
/// @file registry.hpp
/// The one table of planners and smoothers the app offers: their names (as scene files, the
/// CLI and the sandbox spell them), their family, which options apply to them, the ranges and
/// slider scales of those options, help text, and which smoothers follow which planner. The
/// CLI's option parsing, the scene loaders' validation, the sandbox's combos, compare mode,
/// overlays and units all ask this table; no other file spells a planner or smoother name.
///
/// Adding a grid planner: the core search (named in the core's parse_grid_planner), one
/// PlannerId and one row in registry.cpp. A planner of another family also needs its case in
/// that family's step of the service (plan_navmesh.cpp, plan_curves.cpp), which builds it.
/// Part of pathlab::plan; the scene reader (app/io, below this layer) gets the names check
/// through pathlab/plan/scene.hpp, never by including this file.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pathlab::plan {

/// How a planner works, which decides how the service runs it and what it can be smoothed with.
enum class PlannerFamily {
  grid,     ///< search over cells (A*, Dijkstra, JPS, Theta*); any grid smoother follows
  navmesh,  ///< corridor search over a navmesh; a corridor smoother follows
  heading,  ///< search over poses with a turning radius (directional A*, Hybrid A*)
  curve,    ///< one exact curve from pose to pose, ignoring walls (Dubins, Reeds-Shepp, ...)
};

enum class PlannerId {
  astar, dijkstra, jps, theta, navmesh, directional, hybrid, dubins, reeds_shepp, turn_to_point, cc_dubins, cc_reeds_shepp
};

enum class SmootherId { none, los, catmull_rom, centripetal, chordal, hermite, turning, funnel, edge_shift, vehicle };

/// The tunable options of planners and smoothers (the fields of io::PlanSettingsData).
enum class OptionId : uint8_t {
  connectivity,
  turn_penalty,
  agent_radius,
  subdivisions,
  insert_min_chord,
  turning_radius,
  navmesh_convex,
  shift_margin,
  shift_passes,
  neighborhood,
  heading_bins,
  reverse,
  reverse_penalty,
  gear_change_penalty,
  cc,
  navmesh_corners,
  min_gear_length,
};

/// A set of OptionId, as bits.
using OptionMask = uint32_t;
constexpr OptionMask option_bit(OptionId id) { return OptionMask{1} << static_cast<unsigned>(id); }

/// One option: where it lives in a scene file and on the command line, its range, the
/// sandbox slider's scale, and what it means.
struct OptionInfo {
  OptionId id;
  const char* key;    ///< scene file key under "settings"
  const char* flag;   ///< pathlab-cli option without "--", or "" when the CLI has none
  const char* label;  ///< sandbox label
  double min, max;    ///< accepted range [Limit: min <= value <= max]
  double slider_min, slider_max;  ///< the sandbox slider's span (typed values may go to min/max)
  bool logarithmic;   ///< the slider moves by ratios (radii, penalties): fine near small values
  const char* format; ///< printf format of the slider's value
  const char* help;
};

struct PlannerInfo {
  PlannerId id;
  const char* name;
  PlannerFamily family;
  bool in_cli_plan;  ///< offered by `pathlab-cli plan --planner` (curve planners are the `curve` verb's)
  OptionMask options;  ///< options that apply to the planner itself
  const char* help;
};

struct SmootherInfo {
  SmootherId id;
  const char* name;
  PlannerFamily family;  ///< the family whose paths it smooths (los and none appear for two)
  bool spline;           ///< a spline smoother (subdivisions, insert chord)
  OptionMask options;
  const char* help;
};

/// Every planner, in menu order.
std::span<const PlannerInfo> planners();
/// Every option, in panel order.
std::span<const OptionInfo> options();
/// The smoothers that follow `family`'s planners, in menu order; the first is the default.
std::span<const SmootherInfo> smoothers_for(PlannerFamily family);

const PlannerInfo* find_planner(std::string_view name);
const PlannerInfo& planner_info(PlannerId id);
const char* planner_name(PlannerId id);
/// The smoother row of `name` for `family`, or null when it does not follow that family.
const SmootherInfo* find_smoother(std::string_view name, PlannerFamily family);
/// Any smoother of that name (for validating names before the planner is known).
const SmootherInfo* find_any_smoother(std::string_view name);
const char* smoother_name(SmootherId id);
const OptionInfo& option_info(OptionId id);
/// The option a scene file key or a CLI flag names, or null.
const OptionInfo* find_option_by_flag(std::string_view flag);

/// "astar, dijkstra, ..." for error messages: the planners `pathlab-cli plan` takes.
std::string cli_planner_list();
/// "none, los, ..." for error messages: the smoothers of `family`.
std::string smoother_list(PlannerFamily family);

/// Checks a scene's planner and smoother names. Returns "" when both are known, else a
/// message naming the key: `settings.planner: unknown planner 'warp-drive' (astar, ...)`.
std::string check_scene_names(std::string_view planner, std::string_view smoother);

}  // namespace pathlab::plan
