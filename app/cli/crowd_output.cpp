// What `crowd` prints (crowd_output.hpp), shared with `replay`.

#include "crowd_output.hpp"

#include <cmath>
#include <cstdio>

#include "pathlab/geometry.hpp"

namespace pathlab::cli {

nlohmann::ordered_json frame_json(const Crowd& crowd, double t) {
  auto pos = nlohmann::ordered_json::array();
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const CrowdAgentState& s = crowd.state(i);
    pos.push_back({s.pose.pos.x, s.pose.pos.y, rad_to_deg(s.pose.heading), s.speed});
  }
  nlohmann::ordered_json j;
  j["t"] = t;
  j["pos"] = std::move(pos);
  return j;
}

nlohmann::ordered_json header_json(const Crowd& crowd, const std::vector<std::string>& presets) {
  auto agents = nlohmann::ordered_json::array();
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const CrowdAgentDef& a = crowd.agent_def(i);
    nlohmann::ordered_json o;
    o["preset"] = presets[static_cast<size_t>(i)];
    o["radius"] = a.unit.radius;
    o["max_speed"] = a.unit.max_speed;
    o["goal"] = {a.goal.x, a.goal.y};
    agents.push_back(std::move(o));
  }
  nlohmann::ordered_json j;
  j["agents"] = std::move(agents);
  j["dt"] = crowd.dt();
  return j;
}

namespace {

/// Who was locked longest: "agent 3", "moving obstacle 0", or empty when nothing was.
std::string longest_lock_by(const CrowdMetrics& m) {
  if (m.longest_lock_agent >= 0) return "agent " + std::to_string(m.longest_lock_agent);
  if (m.longest_lock_obstacle >= 0) return "moving obstacle " + std::to_string(m.longest_lock_obstacle);
  return "";
}

}  // namespace

nlohmann::ordered_json summary_json(const Crowd& crowd) {
  const CrowdMetrics m = crowd.run_metrics();
  auto times = nlohmann::ordered_json::array();
  auto why = nlohmann::ordered_json::array();
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const CrowdAgentMetrics& am = crowd.metrics(i);
    times.push_back(am.time_to_goal ? nlohmann::ordered_json(*am.time_to_goal) : nlohmann::ordered_json(nullptr));
    const std::string& w = crowd.state(i).why;
    why.push_back(am.arrived || w.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(w));
  }
  nlohmann::ordered_json s;
  s["arrived"] = m.arrived;
  s["agents"] = crowd.agent_count();
  s["time_to_goal"] = std::move(times);
  s["min_separation"] = std::isfinite(m.min_separation) ? nlohmann::ordered_json(m.min_separation) : nlohmann::ordered_json(nullptr);
  s["wall_contacts"] = m.wall_contacts;
  s["stuck_steps"] = m.stuck_steps;
  s["replans"] = m.replans;
  s["longest_lock"] = m.longest_lock;
  const std::string by = longest_lock_by(m);
  s["longest_lock_by"] = by.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(by);
  s["why"] = std::move(why);
  nlohmann::ordered_json j;
  j["summary"] = std::move(s);
  return j;
}

void print_human(const Crowd& crowd, double t) {
  const CrowdMetrics m = crowd.run_metrics();
  // With fewer than two units there is no gap to measure: null, as in the JSON summary.
  char separation[32] = "null";
  if (std::isfinite(m.min_separation)) std::snprintf(separation, sizeof separation, "%.17g", m.min_separation);
  std::printf("arrived: %d/%d\ntime: %.17g\nmin_separation: %s\nwall_contacts: %d\nstuck_steps: %d\nreplans: %d\n",
              m.arrived, crowd.agent_count(), t, separation, m.wall_contacts, m.stuck_steps, m.replans);
  // Locked: wanted to move and stayed within CrowdDef::lock_distance of one spot.
  const std::string by = longest_lock_by(m);
  std::printf("longest_lock: %.17g%s%s\n", m.longest_lock, by.empty() ? "" : " ", by.c_str());
  std::printf("# agent preset time_to_goal (or why not)\n");
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const CrowdAgentMetrics& am = crowd.metrics(i);
    if (am.time_to_goal) {
      std::printf("%d %s %.17g\n", i, crowd.agent_def(i).unit.name.c_str(), *am.time_to_goal);
    } else {
      const std::string& w = crowd.state(i).why;
      std::printf("%d %s - %s\n", i, crowd.agent_def(i).unit.name.c_str(), w.empty() ? "not arrived in time" : w.c_str());
    }
  }
}

}  // namespace pathlab::cli
