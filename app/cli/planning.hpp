#pragma once
// Shared by the CLI verbs that plan: the planning options read from the command line, and one
// query run through the planning service (app/plan), returning what the JSON result reports.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "pathlab/grid.hpp"
#include "pathlab/plan/plan_service.hpp"

namespace pathlab::cli {

/// Every option of `plan` that shapes a query, parsed and checked once.
struct PlanSettings {
  io::PlanSettingsData data;  ///< planner, smoother and options, as the service takes them
  NavSearchCost navmesh_cost = NavSearchCost::exact;  // --navmesh-cost (navmesh)
  std::optional<double> sample_step;                  // --sample-step
  std::optional<long long> neighborhood;              // --neighborhood (directional), checked later
  std::optional<long long> heading_bins;              // --heading-bins (hybrid), checked later
  double time_budget_ms = 0.0;                        // --time-budget-ms; 0 = no limit
  /// A scene's settings (--scene): without --sample-step, curves are sampled at the service's
  /// default step, as the sandbox samples them, instead of the CLI's 0.25 cells.
  bool scene_curve_step = false;
};

/// Largest --time-budget-ms: a day. [Units: ms]
inline constexpr double kMaxTimeBudgetMs = 86400000.0;
/// Reads --time-budget-ms MS (for every search of plan, simulate, scen): 0 when not given;
/// UsageError naming the option when not a number in (0, kMaxTimeBudgetMs].
double read_time_budget(Args& args);

/// Reads the planning options from `args` and checks that they fit together (plan_options.cpp).
/// `base`: a scene's settings (scene_base_request in scene_args.hpp) that the options given are
/// applied to one by one; the scene already settles the smoother, the turning radius and the
/// navmesh polygons, and its switches (reverse, cc) stay on. Null: the CLI's defaults. Options
/// given that do not apply to the planner are refused either way.
PlanSettings read_plan_settings(Args& args, const io::PlanSettingsData* base = nullptr);
/// The checks that wait until the map is loaded: ranges of --radius, --neighborhood, --heading-bins.
void check_plan_settings(const PlanSettings& settings);
/// The settings block the service takes (the checked --neighborhood and --heading-bins in it).
io::PlanSettingsData service_settings(const PlanSettings& settings);

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
  BudgetStop stopped = BudgetStop::none;  // which budget limit stopped the search, if one
  bool partial = false;                   // stopped, and `points` hold the best partial path
  std::optional<bool> start_snapped, goal_snapped;  // navmesh: an end was moved out of the radius band
  struct Turn {
    int waypoint;
    std::string method;
    double radius;
  };
  std::vector<Turn> turns;  // --smoother turning: how each corner was made
  std::optional<int> shift_passes;  // --smoother edge-shift: passes run
  std::vector<std::string> notes;   // the service's notes (e.g. "the goal pose was snapped to the lattice ...")
  std::optional<SegmentPath> segments;  // pose plans: the exact path (gears, cusps) the points sample
};

/// Plans queries on one map through the planning service, which keeps the map's
/// preprocessing between them. Bad queries (outside the map, inside a wall) throw UsageError
/// prefixed by `where`.
class Planner {
 public:
  Planner(const Grid& grid, PlanSettings settings);
  PlanOutcome plan(const PlanQuery& q, const std::string& where);
  /// The service's own result for a query (errors thrown as by plan()).
  plan::PlanResult plan_raw(const PlanQuery& q, const std::string& where);

 private:
  const Grid& grid_;
  PlanSettings settings_;
  plan::PlanService service_;
};

/// The result object of the CLI contract: {"found", "length", "points", "expanded", "time_us"};
/// a search stopped by its budget adds "partial" and "stopped" (and a partial path's
/// "length" and "points") after "found": false.
nlohmann::ordered_json outcome_json(const PlanOutcome& o, bool with_headings);

/// True when stderr is a terminal (progress lines are shown only then).
bool stderr_is_terminal();

}  // namespace pathlab::cli
