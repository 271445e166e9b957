#include "pathlab/io/scene_file.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pathlab/io/json_guard.hpp"
#include "pathlab/io/map_files.hpp"
#include "scene_file_internal.hpp"
#include "pathlab/map_io.hpp"

namespace pathlab::io {
namespace {

using json = nlohmann::json;

constexpr float kSwampCost = 3.0f;

using detail::SceneError;

/// Cell costs are floats in the grid; the file gets the double of the float's shortest decimal
/// (issue 23), so a cost typed as 3.3 reads 3.3 in the file, not the widened 3.299999952316284,
/// and reads back as the same float.
double cost_as_typed(float cost) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text - 1, cost).ptr;
  *end = '\0';
  return std::strtod(text, nullptr);
}

// Messages may quote the file's own bytes (an unknown cell, a preset name): printable_text keeps
// the error one printable line whatever the file holds.
[[noreturn]] void bad(const std::string& source, const std::string& what) {
  throw SceneError{source + ": " + printable_text(what, 300), {}, {}};
}

/// "FILE:LINE: MESSAGE" for a refused name, at the line of the key the message begins with.
std::string names_error(const std::string& message, const std::string& text, const std::string& source) {
  const std::string key = message.substr(0, message.find(':'));
  const int line = line_of_offset(text, detail::offset_of_key(text, key));
  return source + ":" + std::to_string(line) + ": " + printable_text(message, 300);
}

double finite_number(const json& j, const std::string& source, const std::string& field) {
  if (!j.is_number()) bad(source, field + " must be a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) bad(source, field + " must be finite");
  return v;
}

Pose read_pose(const json& root, const char* key, const std::string& source) {
  if (!root.contains(key)) bad(source, std::string("missing \"") + key + "\"");
  const json& p = root[key];
  if (!p.is_array() || (p.size() != 2 && p.size() != 3)) bad(source, std::string("\"") + key + "\" must be [x, y, deg]");
  Pose pose;
  pose.pos.x = finite_number(p[0], source, std::string(key) + "[0]");
  pose.pos.y = finite_number(p[1], source, std::string(key) + "[1]");
  pose.heading = p.size() == 3 ? deg_to_rad(finite_number(p[2], source, std::string(key) + "[2]")) : 0.0;
  return pose;
}

Grid read_map(const json& m, const std::string& source, const std::string& base_dir, bool allow_file) {
  if (!m.is_object()) bad(source, "\"map\" must be an object");
  if (m.contains("file")) {
    if (!allow_file) detail::bad_key("map.file", "cannot be used here: a link carries its map (width, height, rows), never a file name");
    if (!m["file"].is_string()) bad(source, "map.file must be a string");
    std::filesystem::path p(m["file"].get<std::string>());
    if (p.is_relative()) p = std::filesystem::path(base_dir) / p;
    auto g = load_map_file(p.string());
    if (!g) bad(source, "map.file: " + g.error().message);
    return std::move(*g);
  }
  if (!m.contains("width") || !m.contains("height") || !m.contains("rows")) {
    bad(source, "map needs \"width\", \"height\" and \"rows\" (or \"file\")");
  }
  if (!m["width"].is_number_integer() || !m["height"].is_number_integer()) bad(source, "map width/height must be integers");
  const int64_t w = m["width"].get<int64_t>(), h = m["height"].get<int64_t>();
  if (w <= 0 || h <= 0 || w > kMaxGridSide || h > kMaxGridSide) {
    bad(source, "map size " + std::to_string(w) + "x" + std::to_string(h) + " is outside 1.." + std::to_string(kMaxGridSide));
  }
  const json& rows = m["rows"];
  if (!rows.is_array() || static_cast<int64_t>(rows.size()) != h) bad(source, "map.rows must hold " + std::to_string(h) + " strings");
  auto created = Grid::create(static_cast<int>(w), static_cast<int>(h));
  if (!created) bad(source, created.error().message);
  Grid g = std::move(*created);
  for (int y = 0; y < h; ++y) {
    const json& r = rows[static_cast<size_t>(y)];
    if (!r.is_string() || static_cast<int64_t>(r.get_ref<const std::string&>().size()) != w) {
      bad(source, "map.rows[" + std::to_string(y) + "] must be a string of " + std::to_string(w) + " characters");
    }
    const std::string& s = r.get_ref<const std::string&>();
    for (int x = 0; x < w; ++x) {
      switch (s[static_cast<size_t>(x)]) {
        case '.': break;
        case '@': g.set_blocked(x, y, true); break;
        case 'S': g.set_cost(x, y, kSwampCost); break;
        default: bad(source, "map.rows[" + std::to_string(y) + "] column " + std::to_string(x) + ": unknown cell '" + s[static_cast<size_t>(x)] + "'");
      }
    }
  }
  if (m.contains("weights")) {
    if (!m["weights"].is_array()) bad(source, "map.weights must be an array of [x, y, cost]");
    if (static_cast<int64_t>(m["weights"].size()) > w * h) bad(source, "map.weights has more entries than the map has cells");
    size_t i = 0;
    for (const json& wgt : m["weights"]) {
      const std::string where = "map.weights[" + std::to_string(i++) + "]";
      if (!wgt.is_array() || wgt.size() != 3 || !wgt[0].is_number_integer() || !wgt[1].is_number_integer()) {
        bad(source, where + " must be [x, y, cost]");
      }
      const int64_t x = wgt[0].get<int64_t>(), y = wgt[1].get<int64_t>();
      const double c = finite_number(wgt[2], source, where + " cost");
      if (x < 0 || y < 0 || x >= g.width() || y >= g.height()) bad(source, where + " is outside the map");
      if (c < 1.0) bad(source, where + " cost must be >= 1");
      if (c > 1e30) bad(source, where + " cost must be at most 1e30");
      g.set_cost(static_cast<int>(x), static_cast<int>(y), static_cast<float>(c));
    }
  }
  return g;
}

PlanSettingsData read_settings(const json& s, const std::string& source) {
  PlanSettingsData d;
  if (s.is_null()) return d;
  if (!s.is_object()) bad(source, "\"settings\" must be an object");
  auto str = [&](const char* k, std::string& out) {
    if (!s.contains(k)) return;
    if (!s[k].is_string()) bad(source, std::string("settings.") + k + " must be a string");
    out = s[k].get<std::string>();
  };
  auto num = [&](const char* k, double& out, double lo, double hi) {
    if (!s.contains(k)) return;
    out = finite_number(s[k], source, std::string("settings.") + k);
    if (out < lo || out > hi) bad(source, std::string("settings.") + k + " is out of range");
  };
  str("planner", d.planner);
  str("smoother", d.smoother);
  double conn = d.connectivity, subdiv = d.subdivisions;
  num("connectivity", conn, 4, 8);
  if (conn != 4 && conn != 8) bad(source, "settings.connectivity must be 4 or 8");
  d.connectivity = static_cast<int>(conn);
  num("turn_penalty", d.turn_penalty, 0, 1e6);
  num("agent_radius", d.agent_radius, 0, 64);
  num("subdivisions", subdiv, 1, 1000);
  d.subdivisions = static_cast<int>(subdiv);
  num("turning_radius", d.turning_radius, 1e-6, 1e6);
  num("insert_min_chord", d.insert_min_chord, 0, 1e6);
  if (d.insert_min_chord > 0 && d.insert_min_chord < 1) bad(source, "settings.insert_min_chord must be 0 or >= 1");
  num("shift_margin", d.shift_margin, 0, 1e6);
  if (s.contains("navmesh_polygons")) {
    std::string kind;
    str("navmesh_polygons", kind);
    if (kind != "convex" && kind != "rectangles" && kind != "corners") {
      bad(source, "settings.navmesh_polygons must be \"convex\", \"rectangles\" or \"corners\"");
    }
    d.navmesh_convex = kind != "rectangles";
    d.navmesh_corners = kind == "corners";
  }
  double passes = d.shift_passes, headings = d.headings;
  num("shift_passes", passes, 0, 64);
  d.shift_passes = static_cast<int>(passes);
  num("headings", headings, 8, 720);
  d.headings = static_cast<int>(headings);
  double hood = d.neighborhood;
  num("neighborhood", hood, 0, 48);
  if (hood != 0 && hood != 4 && hood != 8 && hood != 24 && hood != 48)
    bad(source, "settings.neighborhood must be 0 (automatic), 4, 8, 24 or 48");
  d.neighborhood = static_cast<int>(hood);
  num("reverse_penalty", d.reverse_penalty, 1, 1e6);
  num("gear_change_penalty", d.gear_change_penalty, 0, 1e6);
  num("min_gear_length", d.min_gear_length, 0, 100);
  if (s.contains("reverse")) {
    if (!s["reverse"].is_boolean()) bad(source, "settings.reverse must be true or false");
    d.reverse = s["reverse"].get<bool>();
  }
  if (s.contains("cc")) {
    if (!s["cc"].is_boolean()) bad(source, "settings.cc must be true or false");
    d.cc = s["cc"].get<bool>();
  }
  return d;
}

}  // namespace

Result<Scene> parse_scene(const std::string& text, const std::string& source, const std::string& base_dir,
                          const SceneReadOptions& options) {
  auto parsed = detail::parse_json_text(text, source);
  if (!parsed) return parsed.error();
  json root = std::move(*parsed);  // not const: a missing key reads as null (operator[])
  return detail::read_located(text, source, [&]() -> Result<Scene> {
    if (!root.is_object() || !root.contains("pathlab_scene")) bad(source, "not a pathlab scene (no \"pathlab_scene\" version)");
    if (!root["pathlab_scene"].is_number_integer() || root["pathlab_scene"].get<int64_t>() < 1) {
      bad(source, "\"pathlab_scene\" must be a positive version number");
    }
    if (root["pathlab_scene"].get<int64_t>() > kSceneVersion) {
      bad(source, "scene version " + std::to_string(root["pathlab_scene"].get<int64_t>()) +
                      " is newer than this pathlab understands (" + std::to_string(kSceneVersion) + ")");
    }
    Scene scene;
    if (root.contains("name") && root["name"].is_string()) scene.name = root["name"].get<std::string>();
    if (!root.contains("map")) bad(source, "missing \"map\"");
    scene.grid = read_map(root["map"], source, base_dir, options.allow_map_file);
    scene.start = read_pose(root, "start", source);
    scene.goal = read_pose(root, "goal", source);
    // By reference: json::value() would copy the whole subtree.
    static const json kNoSettings;
    const auto settings_it = root.find("settings");
    scene.settings = read_settings(settings_it == root.end() ? kNoSettings : *settings_it, source);
    // Unknown names are rejected with the key (issue 14) by the caller's check: the planning
    // layer's registry is the one list of them, and io sits below it.
    if (options.check_names) {
      if (std::string e = options.check_names(scene.settings.planner, scene.settings.smoother); !e.empty())
        return fail(StatusCode::parse_error, names_error(e, text, source));
    }
    detail::read_crowd_parts(root, source, scene);
    if (root.contains("simulation")) {
      const json& sim = root["simulation"];
      if (!sim.is_object()) bad(source, "\"simulation\" must be an object");
      if (sim.contains("speed")) {
        scene.sim_speed = finite_number(sim["speed"], source, "simulation.speed");
        if (scene.sim_speed < 0.05 || scene.sim_speed > 20) bad(source, "simulation.speed must be in [0.05, 20]");
      }
    }
    return scene;
  });
}

Result<Scene> load_scene(const std::string& path, const SceneReadOptions& options) {
  // 128 MiB: a 16384x4096 map inline is 64 MiB of rows; nlohmann's tree takes several times the text.
  auto text = read_text_file(path, kMaxSceneFileBytes);
  if (!text) return text.error();
  return parse_scene(*text, path, std::filesystem::path(path).parent_path().string(), options);
}

std::string scene_to_json(const Scene& scene) {
  nlohmann::ordered_json j;
  j["pathlab_scene"] = kSceneVersion;
  j["name"] = scene.name;
  const Grid& g = scene.grid;
  nlohmann::ordered_json map;
  map["width"] = g.width();
  map["height"] = g.height();
  auto rows = nlohmann::ordered_json::array();
  auto weights = nlohmann::ordered_json::array();
  for (int y = 0; y < g.height(); ++y) {
    std::string r(static_cast<size_t>(g.width()), '.');
    for (int x = 0; x < g.width(); ++x) {
      const float c = g.cost(x, y);
      if (c == kBlocked) r[static_cast<size_t>(x)] = '@';
      else if (c == kSwampCost) r[static_cast<size_t>(x)] = 'S';
      else if (c != 1.0f) weights.push_back({x, y, cost_as_typed(c)});
    }
    rows.push_back(std::move(r));
  }
  map["rows"] = std::move(rows);
  if (!weights.empty()) map["weights"] = std::move(weights);
  j["map"] = std::move(map);
  j["start"] = {scene.start.pos.x, scene.start.pos.y, detail::stable_degrees(scene.start.heading)};
  j["goal"] = {scene.goal.pos.x, scene.goal.pos.y, detail::stable_degrees(scene.goal.heading)};
  const PlanSettingsData& s = scene.settings;
  j["settings"] = {{"planner", s.planner},           {"smoother", s.smoother},
                   {"connectivity", s.connectivity}, {"turn_penalty", s.turn_penalty},
                   {"agent_radius", s.agent_radius}, {"subdivisions", s.subdivisions},
                   {"turning_radius", s.turning_radius}, {"reverse", s.reverse},
                   {"insert_min_chord", s.insert_min_chord}, {"shift_margin", s.shift_margin},
                   {"shift_passes", s.shift_passes}, {"navmesh_polygons", s.navmesh_corners ? "corners" : (s.navmesh_convex ? "convex" : "rectangles")},
                   {"headings", s.headings},
                   {"neighborhood", s.neighborhood}, {"reverse_penalty", s.reverse_penalty},
                   {"gear_change_penalty", s.gear_change_penalty}};
  if (s.cc) j["settings"]["cc"] = true;
  if (s.min_gear_length != PlanSettingsData{}.min_gear_length) j["settings"]["min_gear_length"] = s.min_gear_length;
  detail::write_crowd_parts(scene, j);
  j["simulation"] = {{"speed", scene.sim_speed}};
  return j.dump(1) + "\n";
}

Status write_file_atomic(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp-" + std::to_string(std::hash<std::string>{}(path) % 100000);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return fail(StatusCode::io_error, path + ": cannot write (" + tmp + ")");
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) {
      out.close();
      std::remove(tmp.c_str());
      return fail(StatusCode::io_error, path + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    return fail(StatusCode::io_error, path + ": cannot replace the file (" + ec.message() + ")");
  }
  return ok_status();
}

Status save_scene(const Scene& scene, const std::string& path) { return write_file_atomic(path, scene_to_json(scene)); }

namespace detail {

std::string located(const SceneError& e, std::string_view text, const std::string& source) {
  if (!e.message.empty()) return e.message;  // raised whole, no key
  // JSON allows a key named "": shown as such (an empty key once read as "no key" gave an
  // empty message, found by fuzz_lesson_file).
  const std::string key = e.key.empty() ? "\"\"" : e.key;
  const int line = line_of_offset(text, offset_of_key(text, e.key));
  return source + ":" + std::to_string(line) + ": " + printable_text(key + " " + e.what, 300);
}

Result<nlohmann::json> parse_json_text(const std::string& text, const std::string& source) {
  if (auto checked = check_json_text(text, source); !checked) return checked.error();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return json_syntax_error(text, source, e.byte).error();
  } catch (const nlohmann::json::exception& e) {
    return fail(StatusCode::parse_error, source + ":1: not valid JSON (" + printable_text(e.what()) + ")");
  }
}

}  // namespace detail
}  // namespace pathlab::io
