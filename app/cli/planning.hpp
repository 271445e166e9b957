#pragma once
// Shared by the CLI verbs that plan: the planner/smoother names and one query's pipeline
// (search, then smoothing), returning what the JSON result reports.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/grid_search.hpp"

namespace pathlab::cli {

/// Every option of `plan` that shapes a query, parsed and checked once.
struct PlanSettings {
  std::string planner = "astar";
  std::string smoother = "none";
  GridSearchOptions search = default_grid_search_options();
  std::optional<double> turning_radius;  // --radius
  std::optional<long long> subdivisions; // --subdivisions
  std::optional<double> sample_step;     // --sample-step
  bool reverse = false;                  // --reverse
  std::optional<double> shift_margin;    // --shift-margin (navmesh, edge-shift)
  std::optional<long long> shift_passes; // --shift-passes (navmesh, edge-shift)
  std::string navmesh_cost = "exact";    // --navmesh-cost (navmesh): exact | portal-points
  std::string navmesh_polygons = "convex";  // --navmesh-polygons (navmesh): convex | rectangles
  std::optional<long long> neighborhood; // --neighborhood (directional)
  std::optional<long long> heading_bins; // --heading-bins (hybrid)
};

/// Reads the planning options from `args` and checks that they fit together.
PlanSettings read_plan_settings(Args& args);

struct PlanQuery {
  PointArg from, to;
};

struct PlanOutcome {
  bool found = false;
  std::vector<Vec2> points;
  std::vector<double> headings_deg;  // per point, filled when the query had headings
  double length = 0.0;
  int64_t expanded = 0;
  double time_us = 0.0;
  std::string reason;
  std::optional<bool> start_snapped, goal_snapped;  // navmesh: an end was moved out of the radius band
  struct Turn {
    int waypoint;
    std::string method;
    double radius;
  };
  std::vector<Turn> turns;  // --smoother turning: how each corner was made
};

class NavmeshPlanner;  // plan_navmesh.cpp
class HeadingPlanner;  // plan_heading.cpp

/// Plans one query. Bad queries (outside the map, inside a wall) throw UsageError naming `where`.
class Planner {
 public:
  Planner(const Grid& grid, PlanSettings settings);
  PlanOutcome plan(const PlanQuery& q, const std::string& where);

 private:
  PlanOutcome search_grid(const PlanQuery& q, const std::string& where);

  const Grid& grid_;
  PlanSettings settings_;
  GridPlanner grid_planner_;
  GridPathfinder pathfinder_;
  std::shared_ptr<NavmeshPlanner> navmesh_;  // set for --planner navmesh
  std::shared_ptr<HeadingPlanner> heading_;  // set for --planner directional|hybrid
};

/// Navmesh planner (plan_navmesh.cpp): reads its options (smoother default funnel), builds the
/// mesh for the agent radius, and plans one query with the corridor smoother applied.
void read_navmesh_settings(Args& args, PlanSettings& settings);
std::shared_ptr<NavmeshPlanner> make_navmesh_planner(const Grid& grid, const PlanSettings& settings);
PlanOutcome plan_navmesh(NavmeshPlanner& planner, const PlanQuery& q, const std::string& where);

/// Heading-aware planners (plan_heading.cpp): directional and hybrid need --radius; their
/// paths come out sampled every --sample-step (default 0.25) with headings. `turning`
/// (apply_turning) rounds a grid path's corners for the turning radius.
bool is_heading_planner(const std::string& name);
void read_heading_settings(Args& args, PlanSettings& settings);
std::shared_ptr<HeadingPlanner> make_heading_planner(const Grid& grid, const PlanSettings& settings);
PlanOutcome plan_heading(HeadingPlanner& planner, const PlanQuery& q, const std::string& where);
void apply_turning(const Grid& grid, const PlanSettings& settings, const PlanQuery& q, PlanOutcome& out,
                   const std::string& where);

/// Smoothers (smoothers.cpp): checks the smoother name and its options (--subdivisions, ...).
void check_smoother_settings(const PlanSettings& settings);
/// Applies settings.smoother to a found path's points. Errors throw UsageError prefixed by `where`.
std::vector<Vec2> apply_smoother(const Grid& grid, const PlanSettings& settings, std::vector<Vec2> points,
                                 const std::string& where);

/// The result object of the CLI contract: {"found", "length", "points", "expanded", "time_us"}.
nlohmann::ordered_json outcome_json(const PlanOutcome& o, bool with_headings);

/// True when stderr is a terminal (progress lines are shown only then).
bool stderr_is_terminal();

}  // namespace pathlab::cli
