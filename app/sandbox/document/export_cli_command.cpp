// Export's "Copy CLI command": the pathlab-cli command that reproduces the plan (or the units'
// run) on screen, and the scene copy it names when the document's own file cannot be used.

#include "document/export.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"

namespace pathlab::sandbox {

namespace {

using plan::OptionId;

/// A heading as the CLI reads it back exactly: degrees when some double converts back to it,
/// else radians ("RADrad").
std::string heading_text(double rad) {
  const double deg = plan::exact_degrees(rad);
  return deg_to_rad(deg) == rad ? exact_number(deg) : exact_number(rad) + "rad";
}

std::string point_text(const Pose& p, bool heading) {
  return exact_number(p.pos.x) + "," + exact_number(p.pos.y) + (heading ? "," + heading_text(p.heading) : "");
}

std::string navmesh_kind(const io::PlanSettingsData& s) {
  return s.navmesh_corners ? "corners" : s.navmesh_convex ? "convex" : "rectangles";
}

/// A setting's value as the CLI option takes it (switches: 1 or 0).
double option_value(const io::PlanSettingsData& s, OptionId id) {
  switch (id) {
    case OptionId::connectivity: return s.connectivity;
    case OptionId::turn_penalty: return s.turn_penalty;
    case OptionId::agent_radius: return s.agent_radius;
    case OptionId::subdivisions: return s.subdivisions;
    case OptionId::insert_min_chord: return s.insert_min_chord;
    case OptionId::turning_radius: return s.turning_radius;
    case OptionId::navmesh_convex: return s.navmesh_convex;
    case OptionId::shift_margin: return s.shift_margin;
    case OptionId::shift_passes: return s.shift_passes;
    case OptionId::neighborhood: return s.neighborhood;
    case OptionId::heading_bins: return s.headings;
    case OptionId::reverse: return s.reverse;
    case OptionId::reverse_penalty: return s.reverse_penalty;
    case OptionId::gear_change_penalty: return s.gear_change_penalty;
    case OptionId::cc: return s.cc;
    case OptionId::navmesh_corners: return s.navmesh_corners;
    case OptionId::min_gear_length: return s.min_gear_length;
  }
  return 0.0;
}

/// The options that turn `base` (what `--scene FILE` plans with this planner and smoother) into
/// `want`, appended to `out`; false when a setting the plan uses differs and no option of
/// `pathlab-cli plan` sets it (a flag-less setting, a switch to turn off).
bool append_setting_options(const plan::PlanRequest& base, const plan::PlanRequest& want, std::string& out) {
  const io::PlanSettingsData &b = base.settings, &w = want.settings;
  const plan::PlannerInfo& planner = *plan::find_planner(w.planner);
  const plan::SmootherInfo& smoother = *plan::find_smoother(w.smoother, planner.family);
  const plan::OptionMask takes = planner.options | smoother.options;
  for (const plan::OptionInfo& o : plan::options()) {
    const double from = option_value(b, o.id), to = option_value(w, o.id);
    if (from == to) continue;
    // The CLI takes an option where the registry lists it; the vehicle smoother also drives
    // the reverse setting, which only Hybrid A*'s --reverse sets.
    bool used = (takes & plan::option_bit(o.id)) != 0;
    if (o.id == OptionId::reverse) used = used || (smoother.options & plan::option_bit(OptionId::reverse_penalty)) != 0;
    if (!used) continue;  // the service does not read it for this planner and smoother
    if ((takes & plan::option_bit(o.id)) == 0 || o.flag[0] == '\0') return false;
    if (o.id == OptionId::navmesh_convex || o.id == OptionId::navmesh_corners) {
      if (out.find("--navmesh-polygons") == std::string::npos) out += " --navmesh-polygons " + navmesh_kind(w);
    } else if (o.id == OptionId::reverse || o.id == OptionId::cc) {
      if (to == 0.0) return false;  // a switch the command line cannot turn off
      out += std::string(" --") + o.flag;
    } else {
      const bool whole = o.id == OptionId::connectivity || o.id == OptionId::subdivisions ||
                         o.id == OptionId::shift_passes || o.id == OptionId::neighborhood || o.id == OptionId::heading_bins;
      out += std::string(" --") + o.flag + " " + (whole ? std::to_string(static_cast<long long>(to)) : exact_number(to));
    }
  }
  return true;
}

/// `pathlab-cli plan --scene FILE [options]` for `want` on `plan_grid`, or "" when FILE does
/// not load, plans another map, or an edit has no option.
std::string command_on_file(const std::string& file, const plan::PlanRequest& want, const Grid& plan_grid) {
  auto loaded = plan::load_scene(file);
  if (!loaded || !(plan::scene_grid(*loaded) == plan_grid)) return "";
  std::string options;
  io::Scene with = *loaded;  // what --scene FILE --planner P --smoother S starts from
  if (with.settings.planner != want.settings.planner) options += " --planner " + want.settings.planner;
  if (with.settings.smoother != want.settings.smoother) options += " --smoother " + want.settings.smoother;
  with.settings.planner = want.settings.planner;
  with.settings.smoother = want.settings.smoother;
  auto base = plan::scene_request(with);
  if (!base) return "";
  const auto moved = [](const Pose& a, const Pose& b, bool heading) {
    return a.pos != b.pos || (heading && a.heading != b.heading);
  };
  if (moved(base->start, want.start, want.start_has_heading)) options += " --from " + point_text(want.start, want.start_has_heading);
  if (moved(base->goal, want.goal, want.goal_has_heading)) options += " --to " + point_text(want.goal, want.goal_has_heading);
  if (!append_setting_options(*base, want, options)) return "";
  return "pathlab-cli plan --scene " + shell_word(file) + options;
}

/// Writes `text` to a new file in `dir` (never over an existing one), or reuses `reuse` when it
/// already holds exactly `text`. Returns the file, or "" when none could be created.
std::string write_new_file(const std::string& dir, const std::string& stem, const std::string& text,
                           const std::string& reuse) {
  if (!reuse.empty()) {
    std::ifstream in(reuse, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    if (in.good() && ss.str() == text) return reuse;
  }
  for (int n = 0; n < 1000; ++n) {
    const std::string path =
        (std::filesystem::path(dir) / (stem + "-" + std::to_string(getpid()) + "-" + std::to_string(n) + ".json")).string();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);  // O_EXCL: only a file we create
    if (fd < 0) {
      if (errno == EEXIST) continue;
      return "";
    }
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (ok) return path;
    std::filesystem::remove(path);
    return "";
  }
  return "";
}

}  // namespace

std::string shell_word(const std::string& text) {
  const bool safe = !text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                            "0123456789_-+=.,:/@%") == std::string::npos;
  if (safe) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

CliCommand plan_cli_command(const io::Scene& scene, const Grid& plan_grid, const std::string& scene_file,
                            const std::string& temp_dir, const std::string& reuse) {
  CliCommand out;
  auto want = plan::scene_request(scene);
  if (!want) {
    out.note = "pathlab-cli plan cannot plan this scene: " + want.error().message;
    return out;
  }
  if (!scene_file.empty()) out.command = command_on_file(scene_file, *want, plan_grid);
  if (!out.command.empty()) {
    out.note = out.command.find(" --", out.command.find("--scene") + 8) == std::string::npos
                   ? "the scene file as saved"
                   : "the scene file with the unsaved edits as options";
    return out;
  }
  // The map on screen is not a file's (edited, doors switched, never saved): a new file of the
  // plan's scene, its doors drawn into the map as they stand now.
  io::Scene copy;
  copy.name = scene.name;
  copy.grid = plan_grid;
  copy.start = scene.start;
  copy.goal = scene.goal;
  copy.settings = scene.settings;
  out.written = write_new_file(temp_dir, "pathlab-plan", io::scene_to_json(copy), reuse);
  if (out.written.empty()) {
    out.note = "save the scene first: no new file could be created in " + temp_dir;
    return out;
  }
  out.command = command_on_file(out.written, *want, plan_grid);
  out.note = out.command.empty() ? "the scene written to " + out.written + " does not read back as it is shown"
                                 : "the map on screen is in no saved file: the scene was written to a new file, " +
                                       out.written + " (save the scene to keep it)";
  return out;
}

CliCommand crowd_cli_command(const io::Scene& scene, const std::string& scene_file, bool clean,
                             const std::string& temp_dir, const std::string& reuse, double run_time) {
  CliCommand out;
  if (scene.units.empty()) {
    out.note = "the scene has no units";
    return out;
  }
  std::string file = clean ? scene_file : "";
  if (file.empty()) {
    out.written = file = write_new_file(temp_dir, "pathlab-crowd", io::scene_to_json(scene), reuse);
    if (file.empty()) {
      out.note = "save the scene first: no new file could be created in " + temp_dir;
      return out;
    }
    out.note = "the units on screen are in no saved file: the scene was written to a new file, " + file +
               " (save the scene to keep it)";
  } else {
    out.note = "the scene file as saved";
  }
  out.command = "pathlab-cli crowd --scene " + shell_word(file);
  if (run_time > 0.0) out.command += " --max-time " + exact_number(run_time);
  return out;
}

}  // namespace pathlab::sandbox
