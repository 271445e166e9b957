// Method overlays: each draws one method's internals from the plan's own results (the mesh it
// searched, its corridor and funnel, the spline's control points), never a second computation.
// Only the geometric curves (Dubins, Reeds-Shepp between the poses) and the whole mesh while
// another planner is chosen are computed here, since no plan made them.

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "inspect/inspector.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

// Green (straight) through yellow to red (at the turning radius's curvature or beyond).
ImU32 ramp(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const double r = t < 0.5 ? 2 * t : 1.0, g = t < 0.5 ? 1.0 : 2 * (1 - t);
  return IM_COL32(static_cast<int>(40 + 215 * r), static_cast<int>(40 + 180 * g), 40, 255);
}

void arrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick) {
  dl->AddLine(a, b, col, thick);
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
  if (len < 4) return;
  const float ux = dx / len, uy = dy / len;
  dl->AddTriangleFilled(b, ImVec2(b.x - 8 * ux + 4 * uy, b.y - 8 * uy - 4 * ux), ImVec2(b.x - 8 * ux - 4 * uy, b.y - 8 * uy + 4 * ux), col);
}

void draw_segment_path(const Sandbox& sb, ImDrawList* dl, const SegmentPath& path, ImU32 fwd, ImU32 rev) {
  auto samples = path.sample(std::max(0.05, path.length() / 400.0));
  if (!samples) return;
  for (size_t i = 1; i < samples->size(); ++i) {
    const PathSample& a = (*samples)[i - 1];
    const PathSample& b = (*samples)[i];
    dl->AddLine(sb.world_to_screen(a.state.pos), sb.world_to_screen(b.state.pos), b.state.gear == Gear::forward ? fwd : rev, 2.5f);
  }
  // Segment joints, where the word's letters change.
  for (const Segment& s : path.segments()) dl->AddCircleFilled(sb.world_to_screen(segment_start(s).pos), 3.5f, fwd);
}

}  // namespace

void Inspector::ensure_internals(const Sandbox& sb) {
  const int plans = sb.plan().plans;
  if (internals_plans_ == plans) return;
  internals_plans_ = plans;
  const io::Scene& sc = sb.scene();
  const io::PlanSettingsData& s = sc.settings;
  corridor_.reset();
  funnel_.reset();
  spline_controls_.clear();
  spline_tangents_.clear();
  dubins_.reset();
  reeds_shepp_.reset();

  // Navmesh, corridor and funnel: the plan's own. With another planner the mesh overlay needs
  // a mesh of its own (no plan built one).
  const PlanView& p = sb.plan();
  if (p.result.navmesh) {
    mesh_.reset();
    if (p.result.found && p.result.nav_corridor) corridor_ = p.result.nav_corridor;
    funnel_ = p.result.funnel;
  } else if (ov_.navmesh) {
    // The mesh depends on the map and two settings only: dragging a pose keeps it.
    const bool same_settings = mesh_ && mesh_->agent_radius() == s.agent_radius &&
                               mesh_convex_ == s.navmesh_convex && mesh_corners_ == s.navmesh_corners;
    if (same_settings && mesh_map_version_ != sb.map_version()) {
      // An edit: mend the tiles it touched, as the planning service does (a rebuild of the
      // wall-corner mesh takes a quarter of a second on a 512 x 512 map).
      const Grid& before = mesh_->grid();
      if (before.width() != sc.grid.width() || before.height() != sc.grid.height()) {
        mesh_.reset();
      } else if (const std::optional<CellRect> changed = changed_cells(before, sc.grid)) {
        if (!mesh_->update(sc.grid, *changed).ok()) mesh_.reset();
      }
      mesh_map_version_ = sb.map_version();
    }
    if (!mesh_ || !same_settings) {
      const NavmeshDef def = plan::service_navmesh_def(s.agent_radius, s.navmesh_convex, s.navmesh_corners);
      if (auto m = Navmesh::build(sc.grid, def)) mesh_ = std::make_unique<Navmesh>(std::move(*m));
      else mesh_.reset();
      mesh_map_version_ = sb.map_version();
      mesh_convex_ = s.navmesh_convex;
      mesh_corners_ = s.navmesh_corners;
    }
  } else {
    mesh_.reset();
  }

  // Spline: the control points after the smoother's repairs, and the tangent at each.
  if (p.result.found && is_spline_smoother(s.smoother)) {
    spline_controls_ = p.result.spline_controls;
    spline_tangents_ = p.result.spline_tangents;
  }

  // Curves between the start and goal poses for the unit's turning radius.
  if (auto d = dubins_shortest(sc.start, sc.goal, s.turning_radius)) {
    dubins_word_ = to_string(d->word);
    if (auto path = dubins_to_path(sc.start, sc.goal, s.turning_radius, *d)) dubins_ = std::move(*path);
  }
  if (auto r = reeds_shepp_shortest(sc.start, sc.goal, s.turning_radius)) {
    rs_word_ = r->word();
    if (auto path = reeds_shepp_to_path(sc.start, sc.goal, s.turning_radius, *r)) reeds_shepp_ = std::move(*path);
  }
}

void Inspector::tab_overlays(Sandbox& sb) {
  const io::PlanSettingsData& s = sb.scene().settings;
  const bool nav = planner_family(s.planner) == PlannerFamily::navmesh;
  bool changed = false;
  ImGui::Columns(3, "ov_cols", false);
  ImGui::TextDisabled("navmesh");
  changed |= ImGui::Checkbox("all polygons", &ov_.navmesh);
  help_marker("The whole mesh: convex polygons of free space shrunk by the agent radius (Tower22's quads).");
  ImGui::BeginDisabled(!nav);
  ImGui::Checkbox("corridor", &ov_.corridor);
  help_marker("The polygons the navmesh A* chose, start to goal. Needs the navmesh planner.");
  ImGui::Checkbox("portals", &ov_.portals);
  help_marker("The shared edges the path crosses, in order; green end = left, red end = right of travel.");
  ImGui::Checkbox("funnel apex & legs", &ov_.funnel);
  help_marker("The simple stupid funnel: from the apex, two legs to the tightest left and right portal ends "
              "seen so far. When one end crosses the other leg, that leg's end becomes a corner (the next apex).");
  if (funnel_ && ov_.funnel) {
    ImGui::SetNextItemWidth(-1);
    ImGui::SliderInt("##funnel", &funnel_step_, -1, static_cast<int>(funnel_->events.size()) - 1,
                     funnel_step_ < 0 ? "funnel: finished" : "funnel event %d");
    remember("funnel");
  }
  ImGui::EndDisabled();
  ImGui::NextColumn();
  ImGui::TextDisabled("splines");
  ImGui::BeginDisabled(!is_spline_smoother(s.smoother));
  ImGui::Checkbox("control points", &ov_.spline);
  help_marker("The points the spline passes through: the planner's waypoints, plus any the smoother inserted "
              "to keep a bend off a wall. Needs a spline smoother.");
  ImGui::Checkbox("tangents", &ov_.tangents);
  help_marker("The curve's direction and speed at each control point (drawn at 1/3 length: the Bezier handle). "
              "Long tangents swing wide; the repairs shorten them near walls and reshape loops and hooks.");
  ImGui::EndDisabled();
  ImGui::Checkbox("curvature ramp", &ov_.curvature_ramp);
  help_marker("Colours the path by |curvature|: green straight, red where it turns as tight as the turning radius "
              "or tighter (a unit with that radius cannot follow it).");
  ImGui::Checkbox("look-ahead points", &ov_.lookahead);
  help_marker("For every unit, the point its follower is steering at this step (the simulation's own look-ahead, "
              "max(lookahead_min, speed * lookahead_time) along its route), joined to the unit by an orange line.");
  ImGui::NextColumn();
  ImGui::TextDisabled("turning radius %.2f", s.turning_radius);
  changed |= ImGui::Checkbox("turning circles", &ov_.circles);
  help_marker("The tightest left and right circles at the start and goal poses: every curve below starts and ends "
              "on them (Pinter 2001, figures 5 and 6).");
  changed |= ImGui::Checkbox("Dubins (forward)", &ov_.dubins);
  help_marker("Shortest forward-only path between the poses; its word (e.g. LSR) names the turns and the straight.");
  changed |= ImGui::Checkbox("Reeds-Shepp (reverse ok)", &ov_.reeds_shepp);
  help_marker("Shortest path when the unit may reverse (+ forward, - reverse; dashed orange = reverse). "
              "Like Pinter's three-point turn. Both ignore walls: they show the geometry, not a plan.");
  if (ov_.dubins && dubins_) ImGui::Text("Dubins %s: %.2f", dubins_word_.c_str(), dubins_->length());
  if (ov_.reeds_shepp && reeds_shepp_) ImGui::Text("Reeds-Shepp %s: %.2f", rs_word_.c_str(), reeds_shepp_->length());
  ImGui::Columns(1);
  if (changed) internals_plans_ = -1;  // the mesh is only built when asked for
}

void Inspector::draw_navmesh(const Sandbox& sb, ImDrawList* dl) {
  const Navmesh* mesh = sb.plan().result.navmesh ? sb.plan().result.navmesh.get() : mesh_.get();
  if (!mesh) return;
  if (ov_.navmesh) {
    // Thousands of outlines on a big map: SDL lines, not ImGui triangles (sdl_layer.hpp).
    SdlBatch& batch = sb.sdl_layer().begin(dl);
    std::vector<ImVec2> pts;
    for (int p = 0; p < static_cast<int>(mesh->polygons().size()); ++p) {
      if (mesh->polygons()[static_cast<size_t>(p)].unused()) continue;  // a tile's spare room
      pts.clear();
      for (const Vec2& v : mesh->ring(p)) pts.push_back(sb.world_to_screen(v));
      batch.polyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(30, 120, 60, 200), true);
    }
  }
  // The corridor, its portals and the funnel are the search's answer: hidden with the final
  // path until the replay reaches its end, as the spline's control points are.
  if (!corridor_ || hides_path()) return;
  if (ov_.corridor) {
    for (int p : corridor_->corridor.polygons) {
      std::vector<ImVec2> pts;
      for (const Vec2& v : mesh->ring(p)) pts.push_back(sb.world_to_screen(v));
      dl->AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), IM_COL32(60, 200, 110, 50));
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(20, 140, 70, 230), ImDrawFlags_Closed, 2.0f);
    }
  }
  if (ov_.portals) {
    int i = 0;
    for (const FunnelPortal& po : corridor_->corridor.portals) {
      const ImVec2 l = sb.world_to_screen(po.left), r = sb.world_to_screen(po.right);
      dl->AddLine(l, r, IM_COL32(40, 60, 200, 255), 3.0f);
      dl->AddCircleFilled(l, 4.0f, IM_COL32(30, 170, 60, 255));
      dl->AddCircleFilled(r, 4.0f, IM_COL32(210, 40, 40, 255));
      char buf[16];
      std::snprintf(buf, sizeof buf, "%d", i++);
      dl->AddText(ImVec2((l.x + r.x) * 0.5f + 3, (l.y + r.y) * 0.5f), IM_COL32(20, 30, 140, 255), buf);
    }
  }
  if (ov_.funnel && funnel_ && !funnel_->events.empty()) {
    // One event: its apex and legs. Finished: the last event of each apex (the legs it had
    // when it produced the next corner), which shows the whole pull-tight at once.
    auto draw_event = [&](const FunnelEvent& e, int alpha) {
      const ImVec2 a = sb.world_to_screen(e.apex);
      dl->AddLine(a, sb.world_to_screen(e.left), IM_COL32(30, 170, 60, alpha), 2.0f);
      dl->AddLine(a, sb.world_to_screen(e.right), IM_COL32(210, 40, 40, alpha), 2.0f);
      dl->AddCircleFilled(a, 6.0f, IM_COL32(120, 30, 160, alpha));
    };
    if (funnel_step_ >= 0 && funnel_step_ < static_cast<int>(funnel_->events.size())) {
      const FunnelEvent& e = funnel_->events[static_cast<size_t>(funnel_step_)];
      draw_event(e, 255);
      static const char* const kinds[] = {"left leg tightens", "right leg tightens", "corner on the left", "corner on the right"};
      dl->AddText(ImVec2(sb.world_to_screen(e.apex).x + 8, sb.world_to_screen(e.apex).y + 4), IM_COL32(90, 20, 120, 255),
                  kinds[e.kind]);
    } else {
      for (size_t i = 0; i < funnel_->events.size(); ++i) {
        const bool last_of_apex = i + 1 == funnel_->events.size() || funnel_->events[i + 1].apex != funnel_->events[i].apex;
        if (last_of_apex) draw_event(funnel_->events[i], 150);
      }
    }
    for (const Vec2& c : funnel_->points) dl->AddCircle(sb.world_to_screen(c), 7.0f, IM_COL32(120, 30, 160, 255), 0, 2.0f);
  }
}

void Inspector::draw_spline(const Sandbox& sb, ImDrawList* dl) {
  // The control points and tangents are the final path's: hidden with it until the replay ends.
  if (spline_controls_.empty() || hides_path()) return;
  if (ov_.tangents && spline_tangents_.size() == spline_controls_.size()) {
    for (size_t i = 0; i < spline_controls_.size(); ++i) {
      const Vec2 p = spline_controls_[i], t = spline_tangents_[i] / 3.0;
      dl->AddLine(sb.world_to_screen(p - t), sb.world_to_screen(p), IM_COL32(40, 110, 220, 200), 1.5f);
      arrow(dl, sb.world_to_screen(p), sb.world_to_screen(p + t), IM_COL32(40, 110, 220, 255), 1.5f);
    }
  }
  if (ov_.spline) {
    for (const Vec2& c : spline_controls_) {
      const ImVec2 s = sb.world_to_screen(c);
      dl->AddRectFilled(ImVec2(s.x - 4, s.y - 4), ImVec2(s.x + 4, s.y + 4), IM_COL32(255, 255, 255, 255));
      dl->AddRect(ImVec2(s.x - 4, s.y - 4), ImVec2(s.x + 4, s.y + 4), IM_COL32(20, 60, 160, 255), 0, 0, 2.0f);
    }
  }
}

void Inspector::draw_curves(const Sandbox& sb, ImDrawList* dl) {
  const io::Scene& sc = sb.scene();
  const double r = sc.settings.turning_radius;
  if (ov_.circles) {
    for (const Pose* p : {&sc.start, &sc.goal}) {
      const Vec2 d(std::cos(p->heading), std::sin(p->heading)), left(-d.y, d.x);
      // "Left" (heading increases) circles lie at +90 degrees from the heading in math axes.
      for (int side : {1, -1}) {
        const Vec2 c = p->pos + left * (r * side);
        dl->AddCircle(sb.world_to_screen(c), static_cast<float>(r) * (sb.world_to_screen(Vec2(1, 0)).x - sb.world_to_screen(Vec2(0, 0)).x),
                      side > 0 ? IM_COL32(200, 120, 0, 200) : IM_COL32(0, 140, 180, 200), 64, 1.5f);
        dl->AddText(sb.world_to_screen(c), side > 0 ? IM_COL32(200, 120, 0, 255) : IM_COL32(0, 140, 180, 255), side > 0 ? "L" : "R");
      }
    }
  }
  auto label = [&](const SegmentPath& path, const std::string& text, ImU32 col) {
    if (path.segments().empty()) return;
    auto mid = path.at_distance(path.length() * 0.5);
    if (!mid) return;
    const ImVec2 m = sb.world_to_screen(mid->pos);
    dl->AddRectFilled(ImVec2(m.x + 6, m.y - 2), ImVec2(m.x + 10 + ImGui::CalcTextSize(text.c_str()).x, m.y + 16), IM_COL32(255, 255, 255, 210));
    dl->AddText(ImVec2(m.x + 8, m.y), col, text.c_str());
  };
  if (ov_.dubins && dubins_) {
    draw_segment_path(sb, dl, *dubins_, IM_COL32(150, 40, 200, 255), IM_COL32(150, 40, 200, 255));
    label(*dubins_, "Dubins " + dubins_word_, IM_COL32(110, 20, 160, 255));
  }
  if (ov_.reeds_shepp && reeds_shepp_) {
    draw_segment_path(sb, dl, *reeds_shepp_, IM_COL32(20, 150, 150, 255), IM_COL32(240, 130, 20, 255));
    label(*reeds_shepp_, "Reeds-Shepp " + rs_word_, IM_COL32(10, 110, 110, 255));
  }
}

void Inspector::draw_ramp_and_probe(const Sandbox& sb, ImDrawList* dl) {
  const PlanView& p = sb.plan();
  if (!p.result.found || p.result.points.size() < 2) return;
  // The ramp draws the final path too, so it waits for the replay's end like the path itself.
  if (ov_.curvature_ramp && p.result.curvature.size() == p.result.points.size() && !hides_path()) {
    const double kmax = 1.0 / std::max(1e-6, sb.scene().settings.turning_radius);
    for (size_t i = 1; i < p.result.points.size(); ++i) {
      const double k = std::max(std::abs(p.result.curvature[i - 1]), std::abs(p.result.curvature[i]));
      dl->AddLine(sb.world_to_screen(p.result.points[i - 1]), sb.world_to_screen(p.result.points[i]), ramp(k / kmax), 5.0f);
    }
  }
  if (probe_s_ >= 0 && !profile_.s.empty()) {
    // The probe: the path point at the distance hovered in a plot, with the planned speed
    // there. (Where a follower actually steers is the units' look-ahead overlay, drawn from
    // the simulation's state, not estimated here.)
    const auto it = std::upper_bound(profile_.s.begin(), profile_.s.end(), probe_s_);
    const size_t i = std::clamp<size_t>(static_cast<size_t>(it - profile_.s.begin()), 1, p.result.points.size() - 1);
    const double span = profile_.s[i] - profile_.s[i - 1];
    const double t = span > 0 ? std::clamp((probe_s_ - profile_.s[i - 1]) / span, 0.0, 1.0) : 0.0;
    const ImVec2 at = sb.world_to_screen(p.result.points[i - 1] + (p.result.points[i] - p.result.points[i - 1]) * t);
    dl->AddCircleFilled(at, 6.0f, IM_COL32(20, 20, 20, 255));
    dl->AddCircle(at, 6.0f, IM_COL32(255, 255, 255, 255), 0, 2.0f);
    char buf[64];
    std::snprintf(buf, sizeof buf, "s %.1f, %.2f cells/s", probe_s_, profile_.speed[i]);
    dl->AddText(ImVec2(at.x + 9, at.y - 6), IM_COL32(20, 20, 20, 255), buf);
  }
}

void Inspector::draw_over_path(Sandbox& sb, ImDrawList* dl) {
  ensure_internals(sb);
  draw_navmesh(sb, dl);
  draw_spline(sb, dl);
  draw_curves(sb, dl);
  draw_ramp_and_probe(sb, dl);
  draw_compare(sb, dl);
  draw_replay_hover(sb, dl);
}

}  // namespace pathlab::sandbox
