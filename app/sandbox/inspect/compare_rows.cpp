// Compare mode's rows: built from the registry, checked from their plan results, ranked.

#include "inspect/compare_rows.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "pathlab/plan/registry.hpp"

namespace pathlab::sandbox {
namespace {

// Colours far apart from each other and from everything else on the canvas: the walls' dark
// grey, the search's blue and yellow, the start's green and the goal's magenta (the main path is
// not drawn in compare mode, so its red is free). After Brewer's qualitative "Set1"/"Dark2"/
// "Paired" schemes (Harrower and Brewer, "ColorBrewer.org", 2003). One per registry planner, in
// menu order; a longer registry cycles through them.
constexpr std::array<ImU32, 12> kPalette = {
    IM_COL32(228, 26, 28, 255),   IM_COL32(255, 127, 0, 255),  IM_COL32(106, 61, 154, 255),
    IM_COL32(140, 81, 10, 255),   IM_COL32(0, 140, 140, 255),  IM_COL32(31, 90, 200, 255),
    IM_COL32(10, 20, 90, 255),    IM_COL32(120, 120, 120, 255), IM_COL32(128, 128, 0, 255),
    IM_COL32(190, 100, 130, 255), IM_COL32(150, 150, 210, 255), IM_COL32(200, 160, 100, 255),
};

/// Ticked when compare first opens: one planner of each kind people compare (grid, any-angle,
/// navmesh, both heading-aware searches, a curve that ignores walls). Ids, not names.
bool on_by_default(plan::PlannerId id) {
  using P = plan::PlannerId;
  return id == P::astar || id == P::theta || id == P::navmesh || id == P::directional || id == P::hybrid ||
         id == P::dubins;
}

template <typename... A>
std::string fmt(const char* f, A... args) {
  char buf[160];
  std::snprintf(buf, sizeof buf, f, args...);
  return buf;
}

/// A found path: valid, or why the unit cannot use it.
RowCheck check_found(const plan::PlanResult& r, const CompareRules& rules) {
  RowCheck c;
  c.verdict = RowVerdict::valid;
  if (r.curve_blocked_at) {
    c.verdict = RowVerdict::through_wall;
    const double s = *r.curve_blocked_at;
    auto at = r.segments ? r.segments->at_distance(s) : Result<PathState>(Error{});
    c.reason = at ? fmt("through a wall at (%.1f, %.1f), %.2f cells along", at->pos.x, at->pos.y, s)
                  : fmt("through a wall %.2f cells along", s);
    return c;
  }
  if (r.blocked_segment >= 0) {
    c.verdict = RowVerdict::through_wall;
    c.reason = "through a wall: segment " + std::to_string(r.blocked_segment) + " overlaps one for the agent radius";
    return c;
  }
  if (!r.smoother_error.empty()) {
    c.verdict = RowVerdict::smoother_failed;
    c.reason = "not drivable: " + r.smoother_error;
    return c;
  }
  const double R = rules.turning_radius;
  if (r.curvature_exact) {
    if (R > 0 && r.max_curvature > 1.0 / R * (1 + plan::kTurningRadiusTolerance)) {
      c.verdict = RowVerdict::too_tight;
      c.reason = fmt("tighter than the turning radius: radius %.2f < %.2f cells", 1.0 / r.max_curvature, R);
    }
    return c;
  }
  // A polyline: corners of radius 0 and no headings, by design of grid and navmesh planners.
  if (rules.vehicle && R > 0) {
    c.verdict = RowVerdict::ignores_turning;
    c.reason = "ignores headings and the turning radius (vehicle rules)";
  } else if (R > 0) {
    c.note = "ignores the turning radius";
  }
  return c;
}

}  // namespace

RowCheck check_row(const CompareRun& row, const CompareRules& rules) {
  RowCheck c;
  if (!row.enabled) return c;
  if (!row.view.valid) return c.verdict = RowVerdict::pending, c;
  const plan::PlanResult& r = row.view.result;
  if (!row.view.error.empty() || !r.found) {
    c.verdict = RowVerdict::no_path;
    c.reason = !row.view.error.empty() ? row.view.error : (r.reason.empty() ? "no path" : r.reason);
    return c;
  }
  return check_found(r, rules);
}

CompareRanking rank_rows(const std::vector<CompareRun>& rows, const CompareRules& rules) {
  CompareRanking out;
  for (const CompareRun& r : rows) out.checks.push_back(check_row(r, rules));
  out.order.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) out.order[i] = i;
  // Groups: valid, invalid, pending, off; by length inside the valid group; registry order
  // breaks ties and orders the rest (stable sort).
  auto group = [&](size_t i) {
    const RowCheck& c = out.checks[i];
    return c.valid() ? 0 : c.invalid() ? 1 : c.verdict == RowVerdict::pending ? 2 : 3;
  };
  std::stable_sort(out.order.begin(), out.order.end(), [&](size_t a, size_t b) {
    const int ga = group(a), gb = group(b);
    if (ga != gb) return ga < gb;
    return ga == 0 && rows[a].view.result.length < rows[b].view.result.length;
  });
  out.rank.assign(rows.size(), 0);
  int place = 0;
  for (size_t i : out.order)
    if (out.checks[i].valid()) out.rank[i] = ++place;
  if (!out.order.empty() && out.checks[out.order.front()].valid()) out.best = out.order.front();
  return out;
}

std::vector<CompareRun> compare_rows_from_registry() {
  std::vector<CompareRun> rows;
  for (const plan::PlannerInfo& p : plan::planners()) {
    CompareRun r;
    r.planner = p.name;
    r.colour = kPalette[rows.size() % kPalette.size()];
    r.enabled = on_by_default(p.id);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string row_smoother(const CompareRun& row, const io::PlanSettingsData& scene) {
  const plan::PlannerInfo* p = plan::find_planner(row.planner);
  if (!p) return row.smoother_pick;  // the service names the unknown planner in its error
  if (!row.smoother_pick.empty() && plan::find_smoother(row.smoother_pick, p->family)) return row.smoother_pick;
  // Only within the scene planner's family: "none" after A* is its cells, after a navmesh the
  // portal midpoints, after Hybrid A* the search's wobble; the same word is not the same choice.
  const plan::PlannerInfo* scene_planner = plan::find_planner(scene.planner);
  if (scene_planner && scene_planner->family == p->family && plan::find_smoother(scene.smoother, p->family))
    return scene.smoother;
  return plan::smoothers_for(p->family).front().name;
}

}  // namespace pathlab::sandbox
