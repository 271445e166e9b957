#include "document/export.hpp"

// Export of the current path as CSV and JSON, and reading both back (the round-trip test).

#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

namespace pathlab::sandbox {
namespace {

std::vector<double> distances(const std::vector<Vec2>& pts) {
  std::vector<double> s(pts.size(), 0.0);
  for (size_t i = 1; i < pts.size(); ++i) s[i] = s[i - 1] + glm::length(pts[i] - pts[i - 1]);
  return s;
}

double heading_deg(const std::vector<Vec2>& pts, size_t i) {
  // Direction of travel leaving the point (arriving, for the last one).
  if (pts.size() < 2) return 0.0;
  const size_t a = i + 1 < pts.size() ? i : i - 1;
  const Vec2 d = pts[a + 1] - pts[a];
  return rad_to_deg(std::atan2(d.y, d.x));
}

double curvature_at(const ExportedPath& p, size_t i) { return i < p.curvature.size() ? p.curvature[i] : 0.0; }

}  // namespace

std::string exact_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string path_to_csv(const ExportedPath& p) {
  std::string out = "index,x,y,s,heading_deg,curvature\n";
  const auto s = distances(p.points);
  for (size_t i = 0; i < p.points.size(); ++i) {
    out += std::to_string(i) + "," + exact_number(p.points[i].x) + "," + exact_number(p.points[i].y) + "," +
           exact_number(s[i]) + "," + exact_number(heading_deg(p.points, i)) + "," + exact_number(curvature_at(p, i)) + "\n";
  }
  return out;
}

std::string path_to_json(const ExportedPath& p) {
  nlohmann::ordered_json j;
  j["scene"] = p.scene;
  j["planner"] = p.planner;
  j["smoother"] = p.smoother;
  j["length"] = p.length;
  nlohmann::ordered_json pts = nlohmann::ordered_json::array(), ss = nlohmann::ordered_json::array(),
                         ks = nlohmann::ordered_json::array();
  const auto s = distances(p.points);
  for (size_t i = 0; i < p.points.size(); ++i) {
    pts.push_back({p.points[i].x, p.points[i].y});
    ss.push_back(s[i]);
    ks.push_back(curvature_at(p, i));
  }
  j["points"] = std::move(pts);
  j["s"] = std::move(ss);
  j["curvature"] = std::move(ks);
  // nlohmann prints doubles with max_digits10 digits, so they read back bit for bit.
  return j.dump(1) + "\n";
}

Result<ExportedPath> parse_path_csv(const std::string& text) {
  ExportedPath p;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line_no == 1 || line.empty()) continue;  // the header
    std::vector<std::string> cols;
    std::stringstream ls(line);
    std::string c;
    while (std::getline(ls, c, ',')) cols.push_back(c);
    if (cols.size() < 3) return fail(StatusCode::parse_error, "path CSV line " + std::to_string(line_no) + ": fewer than 3 columns");
    try {
      size_t used = 0;
      const double x = std::stod(cols[1], &used);
      const double y = std::stod(cols[2], &used);
      if (!std::isfinite(x) || !std::isfinite(y)) throw std::invalid_argument("not finite");
      p.points.emplace_back(x, y);
      p.curvature.push_back(cols.size() >= 6 ? std::stod(cols[5]) : 0.0);
    } catch (const std::exception&) {
      return fail(StatusCode::parse_error, "path CSV line " + std::to_string(line_no) + ": not a number");
    }
  }
  for (size_t i = 1; i < p.points.size(); ++i) p.length += glm::length(p.points[i] - p.points[i - 1]);
  return p;
}

Result<ExportedPath> parse_path_json(const std::string& text) {
  try {
    const auto j = nlohmann::json::parse(text);
    ExportedPath p;
    if (!j.is_object() || !j.contains("points") || !j["points"].is_array())
      return fail(StatusCode::parse_error, "path JSON: missing \"points\" array");
    p.scene = j.value("scene", "");
    p.planner = j.value("planner", "");
    p.smoother = j.value("smoother", "");
    p.length = j.value("length", 0.0);
    for (const auto& q : j["points"]) {
      if (!q.is_array() || q.size() < 2 || !q[0].is_number() || !q[1].is_number())
        return fail(StatusCode::parse_error, "path JSON: a point is not [x, y]");
      p.points.emplace_back(q[0].get<double>(), q[1].get<double>());
    }
    if (j.contains("curvature") && j["curvature"].is_array())
      for (const auto& k : j["curvature"]) p.curvature.push_back(k.is_number() ? k.get<double>() : 0.0);
    return p;
  } catch (const nlohmann::json::exception& e) {
    return fail(StatusCode::parse_error, std::string("path JSON: ") + e.what());
  }
}

}  // namespace pathlab::sandbox
