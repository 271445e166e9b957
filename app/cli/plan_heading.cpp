// `plan --planner directional|hybrid` (issue 6, heading-aware search) and `--smoother turning`
// (seed 004's basic methods on a grid path). Paths come out sampled along their lines and
// arcs, every point with the heading of the unit there.

#include <cmath>
#include <string>

#include "pathlab/directional_astar.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/turning_smoother.hpp"
#include "planning.hpp"

namespace pathlab::cli {

/// Distance between output points when --sample-step is not given. [Units: cells]
constexpr double kDefaultCurveStep = 0.25;

class HeadingPlanner {
 public:
  std::optional<DirectionalAStar> directional;
  std::optional<HybridAStar> hybrid;
  PlanSettings settings;
};

bool is_heading_planner(const std::string& name) { return name == "directional" || name == "hybrid"; }

void read_heading_settings(Args& args, PlanSettings& s) {
  if (!s.turning_radius) throw UsageError("--planner " + s.planner + " needs --radius R (the turning radius in cells)");
  if (s.smoother != "none") throw UsageError("--smoother: the " + s.planner + " planner makes curves itself; use --smoother none");
  if (s.subdivisions) throw UsageError("--subdivisions is used by spline smoothers only");
  if (s.search.turn_penalty != 0.0) throw UsageError("--turn-penalty is used by grid planners only");
  if (s.reverse && s.planner != "hybrid") throw UsageError("--reverse is used by --planner hybrid only");
  if (s.planner == "directional") {
    s.neighborhood = args.integer("neighborhood");
  } else {
    s.heading_bins = args.integer("heading-bins");
  }
}

void check_turning_radius(const PlanSettings& s) {
  if (s.turning_radius && !(*s.turning_radius > 0.0 && *s.turning_radius <= kMaxTurningRadius))
    throw UsageError("--radius must be in (0, " + std::to_string(static_cast<int>(kMaxTurningRadius)) + "]");
}

std::shared_ptr<HeadingPlanner> make_heading_planner(const Grid& grid, const PlanSettings& s) {
  check_turning_radius(s);
  auto p = std::make_shared<HeadingPlanner>();
  p->settings = s;
  if (s.planner == "directional") {
    DirectionalAStarOptions o;
    o.turning_radius = *s.turning_radius;
    o.agent_radius = s.search.agent_radius;
    if (s.neighborhood) {
      if (*s.neighborhood != 0 && *s.neighborhood != 4 && *s.neighborhood != 8 && *s.neighborhood != 24 && *s.neighborhood != 48)
        throw UsageError("--neighborhood must be 0 (auto, the default), 4, 8, 24 or 48");
      o.neighborhood = static_cast<int>(*s.neighborhood);
    }
    auto d = DirectionalAStar::create(grid, o);
    if (!d) throw UsageError("directional: " + d.error().message);
    p->directional.emplace(std::move(*d));
  } else {
    HybridAStarOptions o;
    o.turning_radius = *s.turning_radius;
    o.agent_radius = s.search.agent_radius;
    o.allow_reverse = s.reverse;
    if (s.heading_bins) {
      if (*s.heading_bins < 8 || *s.heading_bins > 720) throw UsageError("--heading-bins must be in [8, 720]");
      o.heading_bins = static_cast<int>(*s.heading_bins);
    }
    auto h = HybridAStar::create(grid, o);
    if (!h) throw UsageError("hybrid: " + h.error().message);
    p->hybrid.emplace(std::move(*h));
  }
  return p;
}

namespace {

Pose query_pose(const PointArg& a) { return Pose{a.pos, deg_to_rad(a.heading_deg.value_or(0.0))}; }

/// Appends the samples of `path` (skipping a first point equal to the last one already there).
void append_samples(const SegmentPath& path, double step, PlanOutcome& out, const std::string& where) {
  auto samples = path.sample(step);
  if (!samples) throw UsageError(where + samples.error().message);
  for (const PathSample& s : *samples) {
    if (!out.points.empty() && out.points.back() == s.state.pos &&
        std::abs(wrap_angle(deg_to_rad(out.headings_deg.back()) - s.state.heading)) < 1e-12)
      continue;
    out.points.push_back(s.state.pos);
    out.headings_deg.push_back(rad_to_deg(wrap_angle(s.state.heading)));
  }
}

}  // namespace

PlanOutcome plan_heading(HeadingPlanner& p, const PlanQuery& q, const std::string& where) {
  const Pose start = query_pose(q.from), goal = query_pose(q.to);
  auto r = p.directional ? p.directional->plan(start, goal) : p.hybrid->plan(start, goal);
  if (!r) throw UsageError(where + r.error().message);
  // The CLI contract: an end inside a wall is bad input, not "no path".
  if (r->failure == HeadingFailure::start_in_collision || r->failure == HeadingFailure::goal_in_collision)
    throw UsageError(where + r->reason);
  PlanOutcome out;
  out.found = r->found;
  out.expanded = r->expanded;
  out.reason = r->found ? "" : std::string(to_string(r->failure)) + ": " + r->reason;
  if (!r->found) return out;
  append_samples(r->path, p.settings.sample_step.value_or(kDefaultCurveStep), out, where);
  out.length = r->length;
  return out;
}

void apply_turning(const Grid& grid, const PlanSettings& s, const PlanQuery& q, PlanOutcome& out,
                   const std::string& where) {
  check_turning_radius(s);
  TurningSmoothDef def;
  def.turning_radius = *s.turning_radius;
  def.min_radius = std::min(def.min_radius, def.turning_radius);
  def.agent_radius = s.search.agent_radius;
  def.has_start_heading = q.from.heading_deg.has_value();
  def.start_heading = deg_to_rad(q.from.heading_deg.value_or(0.0));
  def.has_goal_heading = q.to.heading_deg.has_value();
  def.goal_heading = deg_to_rad(q.to.heading_deg.value_or(0.0));
  auto r = turning_smooth(grid, out.points, def);
  if (!r) throw UsageError(where + "turning: " + r.error().message);
  out.points.clear();
  out.headings_deg.clear();
  for (const SegmentPath& piece : r->pieces) append_samples(piece, s.sample_step.value_or(kDefaultCurveStep), out, where);
  out.length = r->length;
  for (const TurnReport& t : r->turns) out.turns.push_back({t.waypoint, to_string(t.method), t.radius});
}

}  // namespace pathlab::cli
