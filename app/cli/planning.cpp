// One CLI query through the planning service, and the result in the CLI's contract: points
// resampled every --sample-step, headings in degrees, errors as UsageError naming the query.

#include "planning.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "pathlab/sample_limit.hpp"

namespace pathlab::cli {
namespace {

/// Distance between the points of curved paths when --sample-step is not given. [Units: cells]
constexpr double kDefaultCurveStep = 0.25;

/// Points at most `step` apart along the polyline, keeping every original vertex (core's
/// resample_polyline: one sample limit and message for every sampling).
std::vector<Vec2> resample(const std::vector<Vec2>& pts, double step) {
  auto out = resample_polyline(pts, step);
  if (!out) throw UsageError("--sample-step: " + out.error().message);
  return std::move(*out);
}

/// The prefix of a service error: preprocessing names the planner, everything else the query.
std::string error_text(const plan::PlanResult& r, const std::string& planner, const std::string& where) {
  if (r.stage == plan::PlanStage::preprocess) return planner + ": " + r.error;
  return where + r.error;
}

/// Grid paths carry no heading of their own: the direction of travel at each point.
std::vector<double> travel_headings_deg(const std::vector<Vec2>& pts, double fallback_deg) {
  std::vector<double> out;
  for (size_t i = 0; i < pts.size(); ++i) {
    double deg = fallback_deg;
    if (pts.size() >= 2) {
      const Vec2 d = i + 1 < pts.size() ? pts[i + 1] - pts[i] : pts[i] - pts[i - 1];
      deg = rad_to_deg(std::atan2(d.y, d.x));
    }
    out.push_back(deg);
  }
  return out;
}

}  // namespace

Planner::Planner(const Grid& grid, PlanSettings settings) : grid_(grid), settings_(std::move(settings)) {
  check_plan_settings(settings_);
}

plan::PlanResult Planner::plan_raw(const PlanQuery& q, const std::string& where) {
  plan::PlanRequest request;
  request.start = Pose{q.from.pos, q.from.heading_rad()};
  request.goal = Pose{q.to.pos, q.to.heading_rad()};
  request.start_has_heading = q.from.heading_deg.has_value();
  request.goal_has_heading = q.to.heading_deg.has_value();
  request.settings = service_settings(settings_);
  request.navmesh_cost = settings_.navmesh_cost;
  if (settings_.sample_step) request.curve_step = *settings_.sample_step;
  else if (!settings_.scene_curve_step) request.curve_step = kDefaultCurveStep;
  request.analyse = false;
  request.keep_internals = false;
  request.budget.time_ms = settings_.time_budget_ms;
  const plan::PlannerInfo& planner = *plan::find_planner(request.settings.planner);
  // The service plans a turn penalty only where it applies; the CLI says so instead.
  if (request.settings.turn_penalty > 0.0 && (planner.options & plan::option_bit(plan::OptionId::turn_penalty)) == 0 &&
      planner.family == plan::PlannerFamily::grid) {
    std::string which;
    for (const plan::PlannerInfo& p : plan::planners())
      if ((p.options & plan::option_bit(plan::OptionId::turn_penalty)) != 0) which += (which.empty() ? "" : " and ") + std::string(p.name);
    throw UsageError(where + "turn penalty is supported by " + which + ", not " + planner.name);
  }
  plan::PlanResult r = service_.plan(grid_, request);
  if (!r.error.empty()) throw UsageError(error_text(r, planner.name, where));
  if (!r.smoother_error.empty())
    throw UsageError(where + plan::smoother_name(plan::SmootherId::turning) + ": " + r.smoother_error);
  return r;
}

PlanOutcome Planner::plan(const PlanQuery& q, const std::string& where) {
  const auto t0 = std::chrono::steady_clock::now();
  plan::PlanResult r = plan_raw(q, where);
  PlanOutcome out;
  out.found = r.found;
  out.expanded = r.expanded;
  out.reason = r.reason;
  out.stopped = r.budget_stop;
  out.partial = r.partial;
  if (r.heading_failure && !r.found) out.reason = std::string(to_string(*r.heading_failure)) + ": " + r.reason;
  out.length = r.length;
  out.start_snapped = r.start_snapped;
  out.goal_snapped = r.goal_snapped;
  out.shift_passes = r.shift_passes;
  out.notes = r.notes;
  out.segments = std::move(r.segments);
  for (const TurnReport& t : r.turns) out.turns.push_back({t.waypoint, to_string(t.method), t.radius});
  // Curved paths are already sampled every --sample-step, with their own headings.
  const bool curved = !r.headings.empty() || r.family == plan::PlannerFamily::heading;
  out.points = std::move(r.points);
  if (curved) {
    for (double h : r.headings) out.headings_deg.push_back(rad_to_deg(h));
  } else if (settings_.sample_step) {
    out.points = resample(out.points, *settings_.sample_step);
  }
  // time_us is the query's own time, as before the service: the map's preprocessing (navmesh,
  // tables, buffers), built on the first query that needs it, is not part of it.
  out.time_us = std::max(0.0, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() -
                                   1000.0 * r.preprocess_ms);
  if ((q.from.heading_deg || q.to.heading_deg) && !curved)
    out.headings_deg = travel_headings_deg(out.points, q.from.heading_deg.value_or(0.0));
  return out;
}

namespace {

nlohmann::ordered_json points_json(const PlanOutcome& o, bool with_headings) {
  auto pts = nlohmann::ordered_json::array();
  for (size_t i = 0; i < o.points.size(); ++i) {
    if (with_headings && i < o.headings_deg.size()) pts.push_back({o.points[i].x, o.points[i].y, o.headings_deg[i]});
    else pts.push_back({o.points[i].x, o.points[i].y});
  }
  return pts;
}

}  // namespace

nlohmann::ordered_json outcome_json(const PlanOutcome& o, bool with_headings) {
  nlohmann::ordered_json j;
  j["found"] = o.found;
  if (!o.found) {
    if (o.stopped != BudgetStop::none) {  // only a budget stop adds fields: other outputs stay as they were
      j["partial"] = o.partial;
      j["stopped"] = to_string(o.stopped);
    }
    j["reason"] = o.reason;
    if (o.partial) {
      j["length"] = o.length;
      j["points"] = points_json(o, with_headings);
    }
    j["expanded"] = o.expanded;
    j["time_us"] = o.time_us;
    return j;
  }
  j["length"] = o.length;
  j["points"] = points_json(o, with_headings);
  j["expanded"] = o.expanded;
  j["time_us"] = o.time_us;
  if (o.start_snapped) j["start_snapped"] = *o.start_snapped;
  if (o.goal_snapped) j["goal_snapped"] = *o.goal_snapped;
  if (!o.turns.empty()) {
    auto turns = nlohmann::ordered_json::array();
    for (const auto& t : o.turns) turns.push_back({{"waypoint", t.waypoint}, {"method", t.method}, {"radius", t.radius}});
    j["turns"] = std::move(turns);
  }
  if (o.shift_passes) j["shift_passes"] = *o.shift_passes;
  return j;
}

bool stderr_is_terminal() { return isatty(2) != 0; }

}  // namespace pathlab::cli
