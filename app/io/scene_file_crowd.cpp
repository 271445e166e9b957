// Scene format version 3: units with their own goals, doors and moving obstacles (issue 13),
// and the locator that turns a key path into a line for error messages.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <filesystem>

#include "pathlab/io/json_guard.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/map_io.hpp"
#include "scene_file_internal.hpp"

namespace pathlab::io::detail {
namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

std::string at(const std::string& base, size_t i) { return base + "[" + std::to_string(i) + "]"; }

double number(const json& j, const std::string& key) {
  if (!j.is_number()) bad_key(key, "must be a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) bad_key(key, "must be finite");
  return v;
}

const json* member(const json& obj, const char* name) {
  const auto it = obj.find(name);
  return it == obj.end() ? nullptr : &*it;
}

const json& array_of(const json& j, const std::string& key, size_t max_size, const char* shape) {
  if (!j.is_array()) bad_key(key, std::string("must be an array") + shape);
  if (j.size() > max_size) bad_key(key, "has more than " + std::to_string(max_size) + " entries");
  return j;
}

/// [x, y] or [x, y, deg] (heading 0 when left out).
Pose pose_of(const json& j, const std::string& key) {
  if (!j.is_array() || (j.size() != 2 && j.size() != 3)) bad_key(key, "must be [x, y, deg]");
  Pose p;
  p.pos = Vec2(number(j[0], key + "[0]"), number(j[1], key + "[1]"));
  p.heading = j.size() == 3 ? deg_to_rad(number(j[2], key + "[2]")) : 0.0;
  return p;
}

bool flag(const json& obj, const char* name, const std::string& key, bool fallback) {
  const json* v = member(obj, name);
  if (v == nullptr) return fallback;
  if (!v->is_boolean()) bad_key(key + "." + name, "must be true or false");
  return v->get<bool>();
}

void read_units(const json& us, Scene& scene) {
  array_of(us, "units", kMaxSceneUnits, " of {\"preset\", \"pose\", \"goal\"}");
  for (size_t i = 0; i < us.size(); ++i) {
    const std::string key = at("units", i);
    if (!us[i].is_object()) bad_key(key, "must be an object");
    UnitData u;
    if (const json* p = member(us[i], "preset")) {
      if (!p->is_string()) bad_key(key + ".preset", "must be a string");
      u.preset = p->get<std::string>();
    }
    const json* pose = member(us[i], "pose");
    if (pose == nullptr) bad_key(key + ".pose", "is missing");
    u.pose = pose_of(*pose, key + ".pose");
    if (const json* goal = member(us[i], "goal")) u.goal = pose_of(*goal, key + ".goal");
    if (const json* r = member(us[i], "turning_radius")) {
      const double radius = number(*r, key + ".turning_radius");
      if (!(radius > 0.0 && radius <= kMaxTurningRadius)) bad_key(key + ".turning_radius", "must be in (0, 1000] cells");
      u.turning_radius = radius;
    }
    scene.units.push_back(std::move(u));
  }
}

int cell_coordinate(const json& j, const std::string& key, int64_t size) {
  if (!j.is_number_integer()) bad_key(key, "must be an integer cell");
  const int64_t v = j.get<int64_t>();
  if (v < 0 || v >= size) bad_key(key, "is outside the map (0.." + std::to_string(size - 1) + ")");
  return static_cast<int>(v);
}

DoorDef read_door(const json& d, const std::string& key, const Grid& grid, size_t& points) {
  if (!d.is_object()) bad_key(key, "must be an object");
  const json* cells = member(d, "cells");
  if (cells == nullptr) bad_key(key + ".cells", "is missing");
  if (!cells->is_array() || cells->size() != 4) bad_key(key + ".cells", "must be [x0, y0, x1, y1]");
  DoorDef door;
  door.lo = Cell{cell_coordinate((*cells)[0], key + ".cells[0]", grid.width()),
                 cell_coordinate((*cells)[1], key + ".cells[1]", grid.height())};
  door.hi = Cell{cell_coordinate((*cells)[2], key + ".cells[2]", grid.width()),
                 cell_coordinate((*cells)[3], key + ".cells[3]", grid.height())};
  if (door.hi.x < door.lo.x || door.hi.y < door.lo.y) bad_key(key + ".cells", "must have x0 <= x1 and y0 <= y1");
  door.open_at_start = flag(d, "open", key, true);
  if (const json* toggles = member(d, "toggles")) {
    array_of(*toggles, key + ".toggles", kMaxScenePoints - points, " of times");
    points += toggles->size();
    for (size_t k = 0; k < toggles->size(); ++k) {
      const double t = number((*toggles)[k], at(key + ".toggles", k));
      if (t < 0.0) bad_key(at(key + ".toggles", k), "must be >= 0");
      if (!door.toggle_times.empty() && t <= door.toggle_times.back()) bad_key(at(key + ".toggles", k), "must be after the toggle before it");
      door.toggle_times.push_back(t);
    }
  }
  return door;
}

double positive(const json& obj, const char* name, const std::string& key, double fallback, double hi) {
  const json* v = member(obj, name);
  if (v == nullptr) return fallback;
  const double x = number(*v, key + "." + name);
  if (!(x > 0.0) || x > hi) bad_key(key + "." + name, "must be in (0, " + std::to_string(static_cast<int>(hi)) + "]");
  return x;
}

void read_route(const json& r, const std::string& key, const Grid& grid, size_t& points, MovingObstacleDef& o) {
  array_of(r, key, kMaxScenePoints - points, " of [x, y] points");
  points += r.size();
  if (r.size() < 2) bad_key(key, "needs at least 2 points");
  for (size_t k = 0; k < r.size(); ++k) {
    const std::string pk = at(key, k);
    if (!r[k].is_array() || r[k].size() != 2) bad_key(pk, "must be [x, y]");
    const Vec2 p(number(r[k][0], pk + "[0]"), number(r[k][1], pk + "[1]"));
    if (!grid.contains(p)) bad_key(pk, "is outside the map");
    if (!o.route.empty() && glm::length(p - o.route.back()) < 1e-9) bad_key(pk, "repeats the point before it");
    o.route.push_back(p);
  }
  if (o.loop && glm::length(o.route.front() - o.route.back()) < 1e-9) bad_key(key, "of a loop must not end where it starts (the loop closes itself)");
}

MovingObstacleDef read_obstacle(const json& m, const std::string& key, const Grid& grid, size_t& points) {
  if (!m.is_object()) bad_key(key, "must be an object");
  MovingObstacleDef o;
  if (const json* size = member(m, "size")) {
    if (!size->is_array() || size->size() != 2) bad_key(key + ".size", "must be [length, width]");
    for (size_t k = 0; k < 2; ++k) {
      const double v = number((*size)[k], at(key + ".size", k));
      if (!(v > 0.0) || v > 2.0 * kMaxAgentRadius) bad_key(at(key + ".size", k), "must be in (0, 128]");
    }
    o.half_extents = Vec2((*size)[0].get<double>() / 2.0, (*size)[1].get<double>() / 2.0);
  }
  o.speed = positive(m, "speed", key, o.speed, 1e6);
  if (const json* start = member(m, "start")) {
    o.start_time = number(*start, key + ".start");
    if (o.start_time < 0.0) bad_key(key + ".start", "must be >= 0");
  }
  o.loop = flag(m, "loop", key, false);
  const json* route = member(m, "route");
  if (route == nullptr) bad_key(key + ".route", "is missing");
  read_route(*route, key + ".route", grid, points, o);
  return o;
}

ojson pose_json(const Pose& p) { return {p.pos.x, p.pos.y, stable_degrees(p.heading)}; }

/// One step of a key path: an object member or an array element.
struct Segment {
  bool index = false;
  std::string name;
  size_t n = 0;
};

std::vector<Segment> split_key(std::string_view key) {
  std::vector<Segment> out;
  size_t i = 0;
  while (i < key.size()) {
    if (key[i] == '.') {
      ++i;
    } else if (key[i] == '[') {
      Segment s{true, {}, 0};
      for (++i; i < key.size() && key[i] >= '0' && key[i] <= '9'; ++i) s.n = s.n * 10 + static_cast<size_t>(key[i] - '0');
      ++i;  // ']'
      out.push_back(s);
    } else {
      Segment s;
      while (i < key.size() && key[i] != '.' && key[i] != '[') s.name += key[i++];
      out.push_back(std::move(s));
    }
  }
  return out;
}

/// An open object or array while scanning: how the value being read inside it is reached.
struct Open {
  bool array = false;
  std::string key;
  size_t n = 0;
};

/// How many leading levels of `stack` match `want` (all of them or fewer).
bool stack_matches(const std::vector<Open>& stack, const std::vector<Segment>& want) {
  if (stack.size() > want.size()) return false;
  for (size_t i = 0; i < stack.size(); ++i) {
    if (stack[i].array != want[i].index) return false;
    if (stack[i].array ? stack[i].n != want[i].n : stack[i].key != want[i].name) return false;
  }
  return true;
}

size_t skip_string(std::string_view text, size_t i, std::string* out) {
  if (out != nullptr) out->clear();
  for (++i; i < text.size(); ++i) {
    if (text[i] == '"') return i + 1;
    if (text[i] == '\\') ++i;
    else if (out != nullptr && out->size() < 256) *out += text[i];
  }
  return text.size();
}

}  // namespace

void bad_key(std::string key, std::string what) { throw SceneError{{}, std::move(key), std::move(what)}; }

double stable_degrees(double rad) {
  const double d = rad_to_deg(rad);
  if (!std::isfinite(d) || deg_to_rad(d) == rad) return d;
  double up = d, down = d;
  for (int i = 0; i < 8; ++i) {
    up = std::nextafter(up, std::numeric_limits<double>::infinity());
    down = std::nextafter(down, -std::numeric_limits<double>::infinity());
    if (deg_to_rad(up) == rad) return up;
    if (deg_to_rad(down) == rad) return down;
  }
  return d;
}

size_t offset_of_key(std::string_view text, std::string_view key) {
  const std::vector<Segment> want = split_key(key);
  std::vector<Open> stack;
  std::string name;
  size_t best = 0, best_depth = 0;
  bool value_next = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      ++i;
      continue;
    }
    if (value_next && c != ']' && c != '}') {
      value_next = false;
      if (stack_matches(stack, want) && (stack.size() > best_depth || best_depth == 0)) {
        best = i;
        best_depth = stack.size();
        if (stack.size() == want.size()) return i;
      }
    }
    if (c == '"') {
      i = skip_string(text, i, stack.empty() || stack.back().array ? nullptr : &name);
      continue;
    }
    if (c == '{' || c == '[') {
      stack.push_back(Open{c == '[', {}, 0});
      value_next = c == '[';
    } else if ((c == '}' || c == ']') && !stack.empty()) {
      stack.pop_back();
    } else if (c == ':' && !stack.empty() && !stack.back().array) {
      stack.back().key = name;
      value_next = true;
    } else if (c == ',' && !stack.empty() && stack.back().array) {
      ++stack.back().n;
      value_next = true;
    }
    ++i;
  }
  return best;
}

void read_crowd_parts(const json& root, const std::string& /*source*/, Scene& scene) {
  if (const json* us = member(root, "units")) read_units(*us, scene);
  size_t points = 0;  // toggle times and route points together, capped by kMaxScenePoints
  if (const json* ds = member(root, "doors")) {
    array_of(*ds, "doors", kMaxSceneDoors, " of {\"cells\", \"open\", \"toggles\"}");
    for (size_t i = 0; i < ds->size(); ++i) scene.doors.push_back(read_door((*ds)[i], at("doors", i), scene.grid, points));
  }
  if (const json* ms = member(root, "moving_obstacles")) {
    array_of(*ms, "moving_obstacles", kMaxSceneMovingObstacles, " of {\"size\", \"route\", \"speed\", \"start\", \"loop\"}");
    for (size_t i = 0; i < ms->size(); ++i) {
      scene.moving_obstacles.push_back(read_obstacle((*ms)[i], at("moving_obstacles", i), scene.grid, points));
    }
  }
}

void write_crowd_parts(const Scene& scene, ojson& j) {
  auto units = ojson::array();
  for (const UnitData& u : scene.units) {
    ojson ju;
    ju["preset"] = u.preset;
    ju["pose"] = pose_json(u.pose);
    if (u.goal) ju["goal"] = pose_json(*u.goal);
    if (u.turning_radius) ju["turning_radius"] = *u.turning_radius;
    units.push_back(std::move(ju));
  }
  j["units"] = std::move(units);
  auto doors = ojson::array();
  for (const DoorDef& d : scene.doors) {
    ojson jd;
    jd["cells"] = {d.lo.x, d.lo.y, d.hi.x, d.hi.y};
    jd["open"] = d.open_at_start;
    jd["toggles"] = d.toggle_times;
    doors.push_back(std::move(jd));
  }
  j["doors"] = std::move(doors);
  auto movers = ojson::array();
  for (const MovingObstacleDef& m : scene.moving_obstacles) {
    ojson jm;
    jm["size"] = {m.half_extents.x * 2.0, m.half_extents.y * 2.0};
    auto route = ojson::array();
    for (const Vec2& p : m.route) route.push_back({p.x, p.y});
    jm["route"] = std::move(route);
    jm["speed"] = m.speed;
    jm["start"] = m.start_time;
    jm["loop"] = m.loop;
    movers.push_back(std::move(jm));
  }
  j["moving_obstacles"] = std::move(movers);
}

}  // namespace pathlab::io::detail

namespace pathlab::io {

Result<UnitDef> scene_unit_def(const UnitData& unit) {
  auto def = unit_preset(unit.preset);
  if (!def) return def.error();
  if (unit.turning_radius) {
    // Its own turning radius is the one it drives with: no pivoting on tracks or feet.
    def->turning_radius = *unit.turning_radius;
    def->pivot_turn_rate = 0.0;
  }
  return def;
}

Result<std::vector<CrowdAgentDef>> crowd_agents(const Scene& scene) {
  std::vector<CrowdAgentDef> out;
  out.reserve(scene.units.size());
  for (size_t i = 0; i < scene.units.size(); ++i) {
    const UnitData& u = scene.units[i];
    auto preset = scene_unit_def(u);
    if (!preset) return fail(preset.error().code, "units[" + std::to_string(i) + "]: " + preset.error().message);
    const Pose goal = u.goal.value_or(scene.goal);
    CrowdAgentDef a;
    a.unit = *preset;
    a.start = u.pose;
    a.goal = goal.pos;
    a.goal_heading = goal.heading;
    out.push_back(std::move(a));
  }
  return out;
}

Result<Crowd> build_crowd(const Scene& scene, const CrowdDef& def) {
  auto agents = crowd_agents(scene);
  if (!agents) return agents.error();
  auto crowd = Crowd::create(scene.grid, def);
  if (!crowd) return crowd.error();
  auto named = [](const char* what, size_t i, const Error& e) {
    return fail(e.code, std::string(what) + "[" + std::to_string(i) + "]: " + e.message);
  };
  for (size_t i = 0; i < scene.doors.size(); ++i)
    if (auto d = crowd->add_door(scene.doors[i]); !d) return named("doors", i, d.error());
  for (size_t i = 0; i < scene.moving_obstacles.size(); ++i)
    if (auto m = crowd->add_moving_obstacle(scene.moving_obstacles[i]); !m) return named("moving_obstacles", i, m.error());
  for (size_t i = 0; i < agents->size(); ++i)
    if (auto a = crowd->add_agent((*agents)[i]); !a) return named("units", i, a.error());
  return crowd;
}

Result<Crowd> load_scene_crowd(const std::string& path, const CrowdDef& def, Scene* scene_out,
                               const SceneReadOptions& options) {
  auto text = read_text_file(path, kMaxSceneFileBytes);
  if (!text) return text.error();
  auto scene = parse_scene(*text, path, std::filesystem::path(path).parent_path().string(), options);
  if (!scene) return scene.error();
  auto crowd = build_crowd(*scene, def);
  if (!crowd) {
    // "units[1]: ..." -> the line of units[1] in the file.
    const std::string& m = crowd.error().message;
    const std::string key = m.substr(0, m.find(':'));
    const int line = line_of_offset(*text, detail::offset_of_key(*text, key));
    return fail(crowd.error().code, path + ":" + std::to_string(line) + ": " + m);
  }
  if (scene_out != nullptr) *scene_out = std::move(*scene);
  return crowd;
}

}  // namespace pathlab::io
