// The "Why" section of the side panel (event_list.hpp): why the selected unit moves as it does
// at the moment shown: its plan and planner, its preferred and chosen velocity, its ORCA
// neighbours and the constraints they put on it (drawn on the canvas by canvas/why_draw.cpp),
// its stuck timer and its decision in words. Every line wraps at the panel's edge.

#include <cmath>
#include <cstdio>
#include <string>

#include "inspect/ui_widgets.hpp"
#include "inspect/wrapped_text.hpp"
#include "panels/event_list.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

const char* route_source_name(CrowdRouteSource s) {
  switch (s) {
    case CrowdRouteSource::none: return "none (it waits)";
    case CrowdRouteSource::straight: return "the crowd: a straight line";
    case CrowdRouteSource::search: return "the crowd's grid A*";
    case CrowdRouteSource::detour: return "the crowd: a detour round units";
    case CrowdRouteSource::drive: return "the crowd: a drivable Hybrid A* detour";
    case CrowdRouteSource::planner: return "the scene's planner";
    case CrowdRouteSource::flow_field: return "the crowd's flow field, shared by its group";
  }
  return "?";
}

/// A velocity for people: "1.20 cells/s towards 35 deg".
std::string velocity_words(Vec2 v) {
  char buf[64];
  const double s = glm::length(v);
  if (s < 1e-6) return "0 (stands)";
  std::snprintf(buf, sizeof buf, "%.2f cells/s towards %.0f deg", s, rad_to_deg(std::atan2(v.y, v.x)));
  return buf;
}

/// Wrapped text: a label in colour, then the text.
void line(const char* label, const std::string& text, ImVec4 colour = ImVec4(0.7f, 0.85f, 1.0f, 1.0f)) {
  ImGui::TextColored(colour, "%s", label);
  ImGui::SameLine();
  text_wrapped(text.c_str());
}

void plan_lines(const Sandbox& sb, const UnitSwarm& u, int id) {
  const CrowdAgentState& st = u.crowd().state(id);
  const auto& records = u.routing().records;
  std::string plan = sb.scene().settings.planner + " + " + sb.scene().settings.smoother;
  if (static_cast<size_t>(id) < records.size()) {
    const plan::UnitRouteRecord& r = records[static_cast<size_t>(id)];
    const std::string found = r.from_flow_field ? ", last asked: read its group's flow field (the same routes, one field for the group)"
                                                : ", last asked: found a route";
    plan = r.planner + " + " + r.smoother + (r.found ? found : ", last asked: no route: " + r.why) + " (" +
           std::to_string(r.expanded) + " expansions, " + std::to_string(r.asked) + " questions)";
  }
  line("plan", plan);
  const int left = static_cast<int>(st.route.size()) - st.next_waypoint;
  line("route", std::string("from ") + route_source_name(st.route_source) + ", " + std::to_string(std::max(0, left)) +
                    " waypoint(s) to go; re-plans " + std::to_string(u.replans(id)) + ", the last: " +
                    to_string(st.replan_cause));
}

void why_lines(const Sandbox& sb, const UnitSwarm& u, int id, const CrowdExplanation& e) {
  const CrowdAgentState& st = u.crowd().state(id);
  ImGui::Text("%s #%d at t = %.2f s:", u.preset_of(id).c_str(), u.list_index(id), u.time());
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(1, 0.85f, 0.3f, 1), "%s", e.mode.c_str());
  line("decision", e.decision, ImVec4(1, 0.85f, 0.3f, 1));
  plan_lines(sb, u, id);
  line("preferred", velocity_words(e.preferred_velocity) + " (blue arrow)");
  char drives[96];
  std::snprintf(drives, sizeof drives, "; it drives %.2f cells/s, the reachable motion nearest to it", e.target_speed);
  line("chosen", velocity_words(e.chosen_velocity) + " by ORCA (pink arrow)" + (e.holonomic ? "" : drives));
  line("moving", velocity_words(st.velocity) + " in the last step");
  int walls = 0, trucks = 0, units = 0;
  std::string who;
  for (const CrowdOrcaConstraint& c : e.constraints) {
    walls += c.source == CrowdOrcaConstraint::Source::wall ? 1 : 0;
    trucks += c.source == CrowdOrcaConstraint::Source::obstacle ? 1 : 0;
    if (c.source == CrowdOrcaConstraint::Source::unit) {
      ++units;
      who += (who.empty() ? "" : ", ") + std::to_string(c.other);
    }
  }
  line("ORCA", std::to_string(e.neighbors.size()) + " neighbour(s) considered; constraints: " + std::to_string(units) +
                   " from units" + (who.empty() ? "" : " (" + who + ")") + ", " + std::to_string(walls) + " from walls, " +
                   std::to_string(trucks) + " from trucks" +
                   (e.worst_violation > 1e-6 ? "; not all can be met" : "; the chosen velocity meets them all"));
  char stuck[160];
  std::snprintf(stuck, sizeof stuck, "no progress for %.1f s (stuck after %.1f s)%s; stuck %.1f s in all", e.no_progress_for,
                e.stuck_after, st.stuck ? ": STUCK" : "", e.stuck_total);
  line("stuck timer", stuck);
  ImGui::TextDisabled("the decision of step %lld, from the moment shown", static_cast<long long>(e.step));
}

class WhyPanel final : public Panel {
 public:
  void draw(Sandbox& sb) override {
    if (!collapsing_header("Why (selected unit)", ImGuiTreeNodeFlags_DefaultOpen)) return;
    help_marker("Why the selected unit moves as it does at the moment shown: the decision the next step makes for "
                "it, worked out on a copy of the crowd with the step's own ORCA program (the run is not changed). "
                "On the canvas: its preferred velocity (blue) and ORCA's choice (pink) as one second of travel, the "
                "disc of its top speed, and each constraint as a line in that velocity space with the side it "
                "forbids shaded (red: a unit's, grey: a wall's, orange: a truck's), as RecastDemo's crowd tool draws "
                "velocity obstacles.");
    const UnitSwarm& u = sb.units();
    const std::vector<int> sel = u.selection();
    if (sel.empty()) {
      ImGui::TextDisabled("select a unit (click it, or click an event)");
      return;
    }
    const int id = sel.front();
    if (sel.size() > 1) ImGui::TextDisabled("%zu selected: the first, #%d", sel.size(), id);
    const CrowdExplanation* e = u.why(id);
    if (!e) {
      if (u.shown_frame()) ImGui::TextDisabled("the units are being re-simulated to the moment shown");
      else ImGui::TextDisabled("no explanation for unit %d", id);
      return;
    }
    why_lines(sb, u, id, *e);
    sb.remember_widget("why");
  }
};

}  // namespace

std::unique_ptr<Panel> make_why_panel() { return std::make_unique<WhyPanel>(); }

}  // namespace pathlab::sandbox
