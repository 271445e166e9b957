// Repro files (repro_file.hpp): reading with every field checked, byte-stable writing.

#include "pathlab/io/repro_file.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pathlab/io/json_guard.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/unit.hpp"
#include "scene_file_internal.hpp"

#ifndef PATHLAB_VERSION_STRING
#define PATHLAB_VERSION_STRING "unknown"
#endif

namespace pathlab::io {
namespace {

using json = nlohmann::json;

/// The readers below raise "KEY WHAT" as the scene reader does (detail::bad_key); parse_repro
/// reports it at the key's line (detail::located).
[[noreturn]] void bad(std::string key, std::string what) { detail::bad_key(std::move(key), std::move(what)); }

const json& field(const json& obj, const std::string& parent, const char* name) {
  const auto it = obj.find(name);
  if (it == obj.end()) bad(parent.empty() ? name : parent, std::string("needs \"") + name + "\"");
  return *it;
}

int64_t integer(const json& j, const std::string& key, int64_t lo, int64_t hi) {
  if (!j.is_number_integer()) bad(key, "must be an integer");
  const std::string range = "must be in " + std::to_string(lo) + ".." + std::to_string(hi);
  // Unsigned values above INT64_MAX read as negative through get<int64_t>: range them first.
  if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(hi))
    bad(key, range + " (got " + std::to_string(j.get<uint64_t>()) + ")");
  const int64_t v = j.get<int64_t>();
  if (v < lo || v > hi) bad(key, range + " (got " + std::to_string(v) + ")");
  return v;
}

double number(const json& j, const std::string& key) {
  if (!j.is_number()) bad(key, "must be a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) bad(key, "must be finite");
  return v;
}

const json& array(const json& j, const std::string& key, size_t max_size) {
  if (!j.is_array()) bad(key, "must be an array");
  if (j.size() > max_size) bad(key, "has more than " + std::to_string(max_size) + " entries");
  return j;
}

uint64_t hex(std::string_view s, const std::string& key, size_t digits) {
  if (s.size() != digits) bad(key, "must be " + std::to_string(digits) + " hex digits");
  uint64_t v = 0;
  for (char c : s) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (d < 0) bad(key, "must be lower-case hex digits");
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  return v;
}

std::string hex_of(uint64_t v, int digits) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

PaintInput read_paint(const json& j, const std::string& key, const Grid& grid) {
  if (!j.is_object()) bad(key, "must be an object");
  PaintInput p;
  const json& cells = array(field(j, key, "cells"), key + ".cells", kMaxReproPaintCells);
  p.cells.reserve(cells.size());
  for (size_t k = 0; k < cells.size(); ++k) {
    const std::string ck = key + ".cells[" + std::to_string(k) + "]";
    if (!cells[k].is_array() || cells[k].size() != 2) bad(ck, "must be [x, y]");
    const int x = static_cast<int>(integer(cells[k][0], ck + "[0]", 0, grid.width() - 1));
    const int y = static_cast<int>(integer(cells[k][1], ck + "[1]", 0, grid.height() - 1));
    p.cells.push_back(Cell{x, y});
  }
  const json& wall = field(j, key, "wall");
  if (!wall.is_boolean()) bad(key + ".wall", "must be true or false");
  p.wall = wall.get<bool>();
  return p;
}

SendInput read_send(const json& j, const std::string& key) {
  if (!j.is_object()) bad(key, "must be an object");
  SendInput s;
  const json& units = array(field(j, key, "units"), key + ".units", kMaxSceneUnits);
  for (size_t k = 0; k < units.size(); ++k)
    s.units.push_back(static_cast<int>(integer(units[k], key + ".units[" + std::to_string(k) + "]", 0, kMaxSceneUnits - 1)));
  const json& goal = field(j, key, "goal");
  if (!goal.is_array() || (goal.size() != 2 && goal.size() != 3)) bad(key + ".goal", "must be [x, y] or [x, y, deg]");
  s.goal = Vec2(number(goal[0], key + ".goal[0]"), number(goal[1], key + ".goal[1]"));
  if (goal.size() == 3) s.goal_heading = deg_to_rad(number(goal[2], key + ".goal[2]"));
  return s;
}

/// [x, y, deg] (or [x, y]: heading 0) inside the map `grid` covers. [Units: cells]
Pose read_pose(const json& j, const std::string& key, const Grid& grid) {
  if (!j.is_array() || (j.size() != 2 && j.size() != 3)) bad(key, "must be [x, y] or [x, y, deg]");
  Pose p{Vec2(number(j[0], key + "[0]"), number(j[1], key + "[1]")), 0.0};
  if (j.size() == 3) p.heading = deg_to_rad(number(j[2], key + "[2]"));
  if (!grid.contains(p.pos))
    bad(key, "is outside the map (0.." + std::to_string(grid.width()) + ", 0.." + std::to_string(grid.height()) + ")");
  return p;
}

SpawnInput read_spawn(const json& j, const std::string& key, const Grid& grid) {
  if (!j.is_object()) bad(key, "must be an object");
  SpawnInput s;
  const json& preset = field(j, key, "preset");
  if (!preset.is_string()) bad(key + ".preset", "must be a string");
  s.preset = preset.get<std::string>();
  // Checked here, not when the input applies: a replay must not meet an unknown preset.
  if (const auto def = unit_preset(s.preset); !def) bad(key + ".preset", printable_text(def.error().message, 120));
  s.pose = read_pose(field(j, key, "pose"), key + ".pose", grid);
  const json& goal = field(j, key, "goal");
  if (!goal.is_null()) s.goal = read_pose(goal, key + ".goal", grid);
  return s;
}

/// The input kinds a repro holds (version 1 knew the first three).
constexpr const char* kInputKinds[] = {"paint", "door", "send", "spawn", "goal"};

UnitInput read_input(const json& j, const std::string& key, const Repro& r) {
  if (!j.is_object()) bad(key, "must be an object");
  UnitInput in;
  in.step = integer(field(j, key, "step"), key + ".step", 0, r.until_step);
  int kinds = 0;
  for (const char* kind : kInputKinds) kinds += static_cast<int>(j.contains(kind));
  if (kinds != 1) bad(key, "needs exactly one of \"paint\", \"door\", \"send\", \"spawn\", \"goal\"");
  if (j.contains("paint")) in.what = read_paint(j["paint"], key + ".paint", r.scene.grid);
  if (j.contains("send")) in.what = read_send(j["send"], key + ".send");
  if (j.contains("spawn")) in.what = read_spawn(j["spawn"], key + ".spawn", r.scene.grid);
  if (j.contains("goal")) in.what = GoalInput{read_pose(j["goal"], key + ".goal", r.scene.grid)};
  if (j.contains("door")) {
    if (r.scene.doors.empty()) bad(key + ".door", "the scene has no doors");
    in.what = DoorInput{static_cast<int>(integer(j["door"], key + ".door", 0, static_cast<int64_t>(r.scene.doors.size()) - 1))};
  }
  return in;
}

StateHash read_hash(const json& j, const std::string& key) {
  if (!j.is_object()) bad(key, "must be an object");
  StateHash h;
  h.step = integer(field(j, key, "step"), key + ".step", 1, kMaxReproSteps);
  const json& state = field(j, key, "state");
  if (!state.is_string()) bad(key + ".state", "must be a string of 16 hex digits");
  h.state = hex(state.get_ref<const std::string&>(), key + ".state", 16);
  const json& units = array(field(j, key, "units"), key + ".units", kMaxSceneUnits);
  h.units.reserve(units.size());
  for (size_t k = 0; k < units.size(); ++k) {
    const std::string uk = key + ".units[" + std::to_string(k) + "]";
    if (!units[k].is_string()) bad(uk, "must be a string of 8 hex digits");
    h.units.push_back(static_cast<uint32_t>(hex(units[k].get_ref<const std::string&>(), uk, 8)));
  }
  return h;
}

/// The scene object's text span [begin, end) in `text`: found where nlohmann would (the
/// key's offset), ended by matching braces outside strings. So the scene reader reports lines
/// of the repro file itself.
std::pair<size_t, size_t> scene_span(const std::string& text) {
  size_t b = detail::offset_of_key(text, "scene");
  while (b < text.size() && (text[b] == ' ' || text[b] == '\n' || text[b] == '\r' || text[b] == '\t')) ++b;
  if (b >= text.size() || text[b] != '{') bad("scene", "must be an object");
  int depth = 0;
  bool in_string = false;
  for (size_t k = b; k < text.size(); ++k) {
    const char c = text[k];
    if (in_string) {
      if (c == '\\') ++k;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return {b, k + 1};
    }
  }
  bad("scene", "is not closed");
}

void read_header(const json& root, Repro& r) {
  const json& version = field(root, "", "pathlab_repro");
  if (!version.is_number_integer() || version.get<int64_t>() < 1) bad("pathlab_repro", "must be a positive version number");
  if (version.get<int64_t>() > kReproVersion) {
    bad("pathlab_repro", "version " + std::to_string(version.get<int64_t>()) + " is newer than this pathlab understands (" +
                             std::to_string(kReproVersion) + ")");
  }
  const json& v = field(root, "", "pathlab_version");
  if (!v.is_string() || v.get_ref<const std::string&>().size() > 64) bad("pathlab_version", "must be a string (at most 64 characters)");
  r.version = v.get<std::string>();
  const json& s = field(root, "", "settings");
  if (!s.is_object()) bad("settings", "must be an object");
  r.dt = number(field(s, "settings", "dt"), "settings.dt");
  if (!(r.dt > 0.0 && r.dt <= 1.0)) bad("settings.dt", "must be in (0, 1] seconds");
  r.hash_every = integer(field(s, "settings", "hash_every"), "settings.hash_every", 1, kMaxReproSteps);
  r.until_step = integer(field(root, "", "until_step"), "until_step", 0, kMaxReproSteps);
  const json& moment = field(root, "", "moment");
  if (!moment.is_null()) r.moment = integer(moment, "moment", 0, r.until_step);
}

void read_inputs(const json& root, Repro& r) {
  const json& inputs = array(field(root, "", "inputs"), "inputs", kMaxReproInputs);
  for (size_t k = 0; k < inputs.size(); ++k) {
    const std::string key = "inputs[" + std::to_string(k) + "]";
    r.inputs.push_back(read_input(inputs[k], key, r));
    if (k > 0 && r.inputs[k].step < r.inputs[k - 1].step) bad(key + ".step", "is before the input above it (inputs are in step order)");
  }
}

void read_body(const json& root, Repro& r) {
  read_inputs(root, r);
  const json& hashes = array(field(root, "", "hashes"), "hashes", static_cast<size_t>(r.until_step / r.hash_every));
  for (size_t k = 0; k < hashes.size(); ++k) {
    const std::string key = "hashes[" + std::to_string(k) + "]";
    r.hashes.push_back(read_hash(hashes[k], key));
    if (r.hashes[k].step != static_cast<int64_t>(k + 1) * r.hash_every)
      bad(key + ".step", "must be " + std::to_string(static_cast<int64_t>(k + 1) * r.hash_every) + " (every settings.hash_every steps)");
  }
  const json& steps = field(root, "", "step_hashes");
  if (!steps.is_string()) bad("step_hashes", "must be a string of hex digits");
  const std::string& sh = steps.get_ref<const std::string&>();
  if (sh.size() != static_cast<size_t>(r.until_step) * 16)
    bad("step_hashes", "must hold 16 hex digits for each of the " + std::to_string(r.until_step) + " steps");
  r.step_hashes.reserve(static_cast<size_t>(r.until_step));
  for (size_t k = 0; k < sh.size(); k += 16) r.step_hashes.push_back(hex(std::string_view(sh).substr(k, 16), "step_hashes", 16));
}

}  // namespace

const char* pathlab_version() noexcept { return PATHLAB_VERSION_STRING; }

Result<Repro> parse_repro(const std::string& text, const std::string& source, const std::string& base_dir,
                          const SceneReadOptions& options) {
  auto parsed = detail::parse_json_text(text, source);
  if (!parsed) return parsed.error();
  const json root = std::move(*parsed);
  return detail::read_located(text, source, [&]() -> Result<Repro> {
    if (!root.is_object() || !root.contains("pathlab_repro")) return fail(StatusCode::parse_error, source + ": not a pathlab repro (no \"pathlab_repro\" version)");
    Repro r;
    read_header(root, r);
    if (!root.contains("scene")) bad("scene", "is missing");
    const auto [b, e] = scene_span(text);
    // Newlines in front keep the scene reader's line numbers those of this file.
    const std::string scene_text = std::string(static_cast<size_t>(line_of_offset(text, b) - 1), '\n') + text.substr(b, e - b);
    auto scene = parse_scene(scene_text, source, base_dir, options);
    if (!scene) return fail(scene.error().code, scene.error().message + " (in \"scene\")");
    r.scene = std::move(*scene);
    read_body(root, r);
    return r;
  });
}

/// Parses `text` (guarded) and runs `read` on its root; errors located in `text`.
template <class Read>
Status parse_guarded(const std::string& text, const std::string& source, Read read) {
  auto parsed = detail::parse_json_text(text, source);
  if (!parsed) return parsed.error();
  return detail::read_located(text, source, [&]() -> Status {
    read(*parsed);
    return ok_status();
  });
}

Result<std::vector<UnitInput>> parse_unit_inputs(const std::string& text, const std::string& source, const Scene& scene,
                                                 int64_t until_step) {
  Repro r;
  r.scene = scene;
  r.until_step = until_step;
  const Status s = parse_guarded(text, source, [&](const json& root) {
    if (!root.is_object()) bad("inputs", "the file must be an object {\"inputs\": [...]}");
    read_inputs(root, r);
  });
  if (!s) return s.error();
  return std::move(r.inputs);
}

Result<Repro> load_repro(const std::string& path, const SceneReadOptions& options) {
  auto text = read_text_file(path, kMaxReproFileBytes);
  if (!text) return text.error();
  return parse_repro(*text, path, std::filesystem::path(path).parent_path().string(), options);
}

namespace {

nlohmann::ordered_json pose_json(const Pose& p) {
  return {p.pos.x, p.pos.y, detail::stable_degrees(p.heading)};
}

nlohmann::ordered_json input_json(const UnitInput& in) {
  nlohmann::ordered_json j;
  j["step"] = in.step;
  if (const auto* p = std::get_if<PaintInput>(&in.what)) {
    auto cells = nlohmann::ordered_json::array();
    for (const Cell& c : p->cells) cells.push_back({c.x, c.y});
    j["paint"] = {{"cells", std::move(cells)}, {"wall", p->wall}};
  } else if (const auto* d = std::get_if<DoorInput>(&in.what)) {
    j["door"] = d->door;
  } else if (const auto* s = std::get_if<SendInput>(&in.what)) {
    nlohmann::ordered_json goal = {s->goal.x, s->goal.y};
    if (s->goal_heading) goal.push_back(detail::stable_degrees(*s->goal_heading));
    j["send"] = {{"units", s->units}, {"goal", std::move(goal)}};
  } else if (const auto* sp = std::get_if<SpawnInput>(&in.what)) {
    j["spawn"] = {{"preset", sp->preset}, {"pose", pose_json(sp->pose)}, {"goal", sp->goal ? pose_json(*sp->goal) : nullptr}};
  } else if (const auto* g = std::get_if<GoalInput>(&in.what)) {
    j["goal"] = pose_json(g->goal);
  }
  return j;
}

}  // namespace

std::string repro_to_json(const Repro& r) {
  // Written by hand around nlohmann's compact dumps: one input or hash per line keeps a long
  // recording readable and diffable, and the scene is indented as a scene file is.
  std::string out = "{\n \"pathlab_repro\": " + std::to_string(kReproVersion) + ",\n";
  out += " \"pathlab_version\": " + json(r.version).dump() + ",\n";
  out += " \"settings\": " + nlohmann::ordered_json{{"dt", r.dt}, {"hash_every", r.hash_every}}.dump() + ",\n";
  out += " \"until_step\": " + std::to_string(r.until_step) + ",\n";
  out += " \"moment\": " + (r.moment ? std::to_string(*r.moment) : std::string("null")) + ",\n";
  out += " \"inputs\": [";
  for (size_t k = 0; k < r.inputs.size(); ++k) out += (k ? ",\n  " : "\n  ") + input_json(r.inputs[k]).dump();
  out += r.inputs.empty() ? "],\n" : "\n ],\n";
  out += " \"hashes\": [";
  for (size_t k = 0; k < r.hashes.size(); ++k) {
    const StateHash& h = r.hashes[k];
    out += (k ? ",\n  " : "\n  ") + std::string("{\"step\":") + std::to_string(h.step) + ",\"state\":\"" + hex_of(h.state, 16) + "\",\"units\":[";
    for (size_t u = 0; u < h.units.size(); ++u) out += (u ? ",\"" : "\"") + hex_of(h.units[u], 8) + "\"";
    out += "]}";
  }
  out += r.hashes.empty() ? "],\n" : "\n ],\n";
  out += " \"step_hashes\": \"";
  out.reserve(out.size() + r.step_hashes.size() * 16 + 64);
  for (uint64_t h : r.step_hashes) out += hex_of(h, 16);
  out += "\",\n \"scene\": ";
  std::string scene = scene_to_json(r.scene);
  while (!scene.empty() && scene.back() == '\n') scene.pop_back();
  // Indented one more level: each of its lines after the first.
  for (char c : scene) {
    out += c;
    if (c == '\n') out += ' ';
  }
  out += "\n}\n";
  return out;
}

std::string check_repro_target(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.empty()) return "no file name to save the repro to";
  if (fs::is_directory(path, ec)) return path + ": is a folder";
  if (!fs::exists(path, ec)) return "";
  // Only a file this program wrote (a repro) is replaced: it begins with the repro's key.
  std::ifstream in(path, std::ios::binary);
  std::string head(40, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head.rfind("{\n \"pathlab_repro\": ", 0) != 0) return path + ": exists and is not a pathlab repro; not overwritten";
  return "";
}

Status save_repro(const Repro& repro, const std::string& path) {
  if (const std::string e = check_repro_target(path); !e.empty()) return fail(StatusCode::invalid_argument, e);
  return write_file_atomic(path, repro_to_json(repro));
}

}  // namespace pathlab::io
