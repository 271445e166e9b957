#include "planning.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>

#include "pathlab/collision.hpp"
#include "pathlab/sample_limit.hpp"

namespace pathlab::cli {


PlanSettings read_plan_settings(Args& args) {
  PlanSettings s;
  if (auto p = args.str("planner")) s.planner = *p;
  if (auto p = args.str("smoother")) s.smoother = *p;
  if (auto r = args.number("agent-radius")) {
    if (*r < 0 || *r > kMaxAgentRadius) {
      throw UsageError("--agent-radius must be in [0, " + std::to_string(static_cast<int>(kMaxAgentRadius)) + "]");
    }
    s.search.agent_radius = *r;
  }
  if (auto p = args.number("turn-penalty")) {
    if (*p < 0) throw UsageError("--turn-penalty must be >= 0");
    s.search.turn_penalty = *p;
  }
  if (auto c = args.integer("connectivity")) {
    if (*c != 4 && *c != 8) throw UsageError("--connectivity must be 4 or 8");
    s.search.connectivity = *c == 4 ? Connectivity::four : Connectivity::eight;
  }
  s.turning_radius = args.number("radius");
  s.subdivisions = args.integer("subdivisions");
  s.sample_step = args.number("sample-step");
  s.reverse = args.flag("reverse");

  if (s.planner == "navmesh") {
    read_navmesh_settings(args, s);
  } else if (is_heading_planner(s.planner)) {
    read_heading_settings(args, s);
  } else {
    if (!parse_grid_planner(s.planner)) {
      throw UsageError("--planner: unknown planner '" + s.planner + "' (astar, dijkstra, jps, theta, navmesh, directional, hybrid)");
    }
    check_smoother_settings(s);
    if (s.smoother == "turning" && !s.turning_radius) throw UsageError("--smoother turning needs --radius R (the turning radius in cells)");
  }
  if (s.turning_radius && !is_heading_planner(s.planner) && s.smoother != "turning")
    throw UsageError("--radius (turning radius) is used by --planner directional|hybrid and --smoother turning only");
  if (s.reverse && s.planner != "hybrid") throw UsageError("--reverse is used by --planner hybrid only");
  if (s.sample_step && !(*s.sample_step > 0)) throw UsageError("--sample-step must be > 0");
  return s;
}

Planner::Planner(const Grid& grid, PlanSettings settings)
    : grid_(grid),
      settings_(std::move(settings)),
      grid_planner_(parse_grid_planner(settings_.planner).ok() ? *parse_grid_planner(settings_.planner) : GridPlanner::astar),
      pathfinder_(grid) {
  if (settings_.planner == "navmesh") navmesh_ = make_navmesh_planner(grid, settings_);
  if (is_heading_planner(settings_.planner)) heading_ = make_heading_planner(grid, settings_);
}

namespace {

Cell query_cell(const Grid& grid, Vec2 p, const std::string& what) {
  if (!grid.contains(p) || p.x >= grid.width() || p.y >= grid.height()) {
    throw UsageError(what + " (" + std::to_string(p.x) + "," + std::to_string(p.y) + ") is outside the " +
                     std::to_string(grid.width()) + "x" + std::to_string(grid.height()) + " map");
  }
  return cell_of(p);
}

/// Points at most `step` apart along the polyline, keeping every original vertex (core's
/// resample_polyline: one sample limit and message for every sampling).
std::vector<Vec2> resample(const std::vector<Vec2>& pts, double step) {
  auto out = resample_polyline(pts, step);
  if (!out) throw UsageError("--sample-step: " + out.error().message);
  return std::move(*out);
}

}  // namespace

PlanOutcome Planner::search_grid(const PlanQuery& q, const std::string& where) {
  const Cell start = query_cell(grid_, q.from.pos, where + "start");
  const Cell goal = query_cell(grid_, q.to.pos, where + "goal");
  auto path = pathfinder_.find_path(grid_planner_, start, goal, settings_.search);
  if (!path) throw UsageError(where + path.error().message);
  PlanOutcome out;
  out.found = path->found;
  out.expanded = path->expanded;
  out.reason = path->reason;
  out.points = std::move(path->points);
  if (out.found && settings_.smoother == "turning") apply_turning(grid_, settings_, q, out, where);
  else if (out.found) out.points = apply_smoother(grid_, settings_, std::move(out.points), where);
  if (settings_.smoother != "turning") out.length = polyline_length(out.points);
  return out;
}

PlanOutcome Planner::plan(const PlanQuery& q, const std::string& where) {
  const auto t0 = std::chrono::steady_clock::now();
  PlanOutcome out = navmesh_ ? plan_navmesh(*navmesh_, q, where)
                    : heading_ ? plan_heading(*heading_, q, where) : search_grid(q, where);
  // Curved paths are already sampled every --sample-step, with their own headings.
  const bool curved = heading_ || settings_.smoother == "turning";
  if (settings_.sample_step && !curved) out.points = resample(out.points, *settings_.sample_step);
  const auto t1 = std::chrono::steady_clock::now();
  out.time_us = std::chrono::duration<double, std::micro>(t1 - t0).count();
  if ((q.from.heading_deg || q.to.heading_deg) && !curved) {
    // Grid paths carry no heading of their own: report the direction of travel at each point.
    for (size_t i = 0; i < out.points.size(); ++i) {
      double deg = q.from.heading_deg.value_or(0.0);
      if (out.points.size() >= 2) {
        const Vec2 d = i + 1 < out.points.size() ? out.points[i + 1] - out.points[i] : out.points[i] - out.points[i - 1];
        deg = rad_to_deg(std::atan2(d.y, d.x));
      }
      out.headings_deg.push_back(deg);
    }
  }
  return out;
}

nlohmann::ordered_json outcome_json(const PlanOutcome& o, bool with_headings) {
  nlohmann::ordered_json j;
  j["found"] = o.found;
  if (!o.found) {
    j["reason"] = o.reason;
    j["expanded"] = o.expanded;
    j["time_us"] = o.time_us;
    return j;
  }
  j["length"] = o.length;
  auto pts = nlohmann::ordered_json::array();
  for (size_t i = 0; i < o.points.size(); ++i) {
    if (with_headings && i < o.headings_deg.size()) pts.push_back({o.points[i].x, o.points[i].y, o.headings_deg[i]});
    else pts.push_back({o.points[i].x, o.points[i].y});
  }
  j["points"] = std::move(pts);
  j["expanded"] = o.expanded;
  j["time_us"] = o.time_us;
  if (o.start_snapped) j["start_snapped"] = *o.start_snapped;
  if (o.goal_snapped) j["goal_snapped"] = *o.goal_snapped;
  if (!o.turns.empty()) {
    auto turns = nlohmann::ordered_json::array();
    for (const auto& t : o.turns) turns.push_back({{"waypoint", t.waypoint}, {"method", t.method}, {"radius", t.radius}});
    j["turns"] = std::move(turns);
  }
  return j;
}

bool stderr_is_terminal() { return isatty(2) != 0; }

}  // namespace pathlab::cli
