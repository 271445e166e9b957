// The browser test's view of the page's sandbox (web_probe.hpp). Compiled into the web page
// only (web/CMakeLists.txt); it reads the same accessors the desktop's UI tests read.

#include "host/web_probe.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "inspect/compare_rows.hpp"
#include "inspect/inspector.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

const char* verdict_name(RowVerdict v) {
  switch (v) {
    case RowVerdict::valid: return "valid";
    case RowVerdict::through_wall: return "through_wall";
    case RowVerdict::too_tight: return "too_tight";
    case RowVerdict::smoother_failed: return "smoother_failed";
    case RowVerdict::ignores_turning: return "ignores_turning";
    case RowVerdict::no_path: return "no_path";
    case RowVerdict::pending: return "pending";
    case RowVerdict::off: return "off";
  }
  return "?";
}

/// %.17g, as the console lines and pathlab-cli print a length: compared as text, every digit.
std::string digits(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

nlohmann::json compare_json(Inspector& in) {
  nlohmann::json rows = nlohmann::json::array();
  const CompareRanking ranking = in.compare_ranking();
  const std::vector<CompareRun>& runs = in.compare_runs();
  for (size_t i = 0; i < runs.size(); ++i) {
    if (!runs[i].enabled) continue;
    const RowCheck& c = ranking.checks[i];
    rows.push_back({{"planner", runs[i].planner}, {"smoother", runs[i].smoother}, {"verdict", verdict_name(c.verdict)},
                    {"reason", c.reason}, {"length", runs[i].view.result.found ? digits(runs[i].view.result.length) : ""}});
  }
  return {{"shown", in.compare_shown()}, {"busy", in.compare_busy()}, {"rows", rows}};
}

nlohmann::json units_json(Sandbox& sb) {
  UnitSwarm& u = sb.units();
  const Crowd& crowd = u.crowd();
  double sx = 0.0, sy = 0.0;
  for (int i = 0; i < crowd.agent_count(); ++i) {
    sx += crowd.state(i).pose.pos.x;
    sy += crowd.state(i).pose.pos.y;
  }
  const plan::Recording* rec = u.recording();
  return {{"count", u.count()},
          {"playing", u.playing()},
          {"time", u.time()},
          {"arrived", u.arrived()},
          {"pos_sum", {sx, sy}},
          {"recorded", rec ? rec->recorded_until() : 0},
          {"step", rec ? rec->step_index() : 0}};
}

}  // namespace

std::string web_widget_rect(Sandbox& sb, const std::string& name) {
  std::pair<ImVec2, ImVec2> r = sb.widget_rect(name);
  if (r.second.x <= r.first.x) r = sb.inspector().widget(name);
  if (r.second.x <= r.first.x) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.1f %.1f %.1f %.1f", static_cast<double>(r.first.x), static_cast<double>(r.first.y),
                static_cast<double>(r.second.x - r.first.x), static_cast<double>(r.second.y - r.first.y));
  return buf;
}

std::string web_state_json(Sandbox& sb, const std::string& scene) {
  const PlanView& p = sb.plan();
  const LessonShow& lesson = sb.lesson();
  nlohmann::json lesson_json = nullptr;
  if (lesson.open()) {
    const std::string caption = lesson.step >= 0 ? lesson.lesson.steps[static_cast<size_t>(lesson.step)].caption : "";
    lesson_json = {{"title", lesson.lesson.title}, {"step", lesson.step + 1}, {"count", lesson.count()}, {"caption", caption}};
  }
  Inspector& in = sb.inspector();
  nlohmann::json j = {
      {"scene", scene},
      {"source", sb.document().source()},
      {"planner", sb.scene().settings.planner},
      {"smoother", sb.scene().settings.smoother},
      {"plans", p.plans},
      {"valid", p.valid},
      {"planning", sb.planning()},
      {"found", p.result.found},
      {"length", p.result.found ? digits(p.result.length) : ""},
      {"error", p.error.empty() ? p.result.reason : p.error},
      {"expanded", p.result.expanded},
      {"notes", p.result.notes},
      {"status", sb.status()},
      {"status_error", sb.status_is_error()},
      {"presenting", sb.presenting()},
      {"lesson", lesson_json},
      {"tab", static_cast<int>(in.tab())},
      {"replay", {{"steps", in.replay().steps()}, {"step", in.replay().step()}}},
      {"units", units_json(sb)},
      {"compare", compare_json(in)},
  };
  return j.dump();
}

}  // namespace pathlab::sandbox
