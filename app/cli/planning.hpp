#pragma once
// Shared by the CLI verbs that plan: the planner/smoother names and one query's pipeline
// (search, then smoothing), returning what the JSON result reports.

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
};

/// Plans one query. Bad queries (outside the map, inside a wall) throw UsageError naming `where`.
class Planner {
 public:
  Planner(const Grid& grid, PlanSettings settings);
  PlanOutcome plan(const PlanQuery& q, const std::string& where);

 private:
  const Grid& grid_;
  PlanSettings settings_;
  GridPlanner grid_planner_;
  GridPathfinder pathfinder_;
};

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
