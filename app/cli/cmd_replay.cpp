// pathlab-cli replay: re-simulates a repro file headless (recording.hpp) and prints frames as
// `crowd` does; --check compares the run with the file's hashes and names the first step and
// unit that differ (exit 1), so a game's CI can guard a fixed bug.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "commands.hpp"
#include "crowd_output.hpp"
#include "pathlab/io/repro_file.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene.hpp"

namespace pathlab::cli {
namespace {

constexpr const char* kReplayUsage =
    "usage: pathlab-cli replay FILE [--until T] [--every N] [--json] [--check]\n"
    "Re-simulates a repro file (pathlab-cli record, the sandbox's --save-repro) with its inputs at\n"
    "their steps and prints what `crowd` prints: a summary, or with --json a header, every N-th\n"
    "frame and a summary as JSON Lines. --until T stops at T seconds (default: the end of the\n"
    "recording). --check compares every step with the file's hashes: exit 0 when they agree,\n"
    "1 naming the first step and unit that differ. See README.md, section Repro files.\n";

/// The first difference between the run and the file's hashes, for people.
struct Divergence {
  int64_t step = 0;
  std::string what;
};

/// Names the first unit whose hash differs at the file's first per-unit hash at or after
/// `step` (the run is simulated on to it); "" when none is recorded there.
std::string first_unit_differing(plan::Recording& rec, const io::Repro& file, int64_t step) {
  const auto it = std::find_if(file.hashes.begin(), file.hashes.end(), [&](const io::StateHash& h) { return h.step >= step; });
  if (it == file.hashes.end()) return "";
  while (rec.step_index() < it->step) rec.step();
  const io::StateHash now = plan::state_hash(rec.crowd(), rec.step_index());
  const size_t n = std::min(now.units.size(), it->units.size());
  for (size_t u = 0; u < n; ++u) {
    if (now.units[u] != it->units[u])
      return "unit " + std::to_string(u) + " (" + rec.units().presets[u] + ") differs (first at the hash of step " +
             std::to_string(it->step) + ")";
  }
  if (now.units.size() != it->units.size())
    return "the run has " + std::to_string(now.units.size()) + " units, the file " + std::to_string(it->units.size());
  return "no unit differs at step " + std::to_string(it->step) + ": a door or truck does";
}

}  // namespace

int run_replay(int argc, char** argv) {
  for (int k = 2; k < argc; ++k) {
    if (std::string(argv[k]) == "--help" || std::string(argv[k]) == "-h") {
      std::fputs(kReplayUsage, stdout);
      return 0;
    }
  }
  Args args(argc, argv, 2, {"json", "check"});
  const bool json = args.flag("json");
  const bool check = args.flag("check");
  const auto until_arg = args.number("until");
  const long long every = args.integer("every").value_or(1);
  args.reject_unknown();
  if (args.positional().size() != 1) throw UsageError("replay needs one repro FILE");
  if (every < 1) throw UsageError("--every must be >= 1");
  const std::string path = args.positional()[0];
  auto file = io::load_repro(path, plan::scene_read_options());
  if (!file) throw UsageError(file.error().message);
  int64_t until = file->until_step;
  if (until_arg) {
    if (!(*until_arg >= 0.0) || !std::isfinite(*until_arg)) throw UsageError("--until must be >= 0 seconds");
    until = std::min<int64_t>(io::kMaxReproSteps, static_cast<int64_t>(std::round(*until_arg / file->dt)));
  }
  auto rec = plan::Recording::replay(*file);
  if (!rec) throw UsageError(path + ": " + rec.error().message);
  if (json) std::cout << header_json(rec->crowd(), rec->units().presets).dump() << "\n" << frame_json(rec->crowd(), 0.0).dump() << "\n";
  std::optional<Divergence> diverged;
  while (rec->step_index() < until) {
    rec->step();
    const int64_t s = rec->step_index();
    if (json && (s % every == 0 || s == until)) std::cout << frame_json(rec->crowd(), rec->time()).dump() << "\n";
    const size_t k = static_cast<size_t>(s - 1);
    if (check && !diverged && k < file->step_hashes.size() && rec->step_hashes()[k] != file->step_hashes[k])
      diverged = Divergence{s, ""};
  }
  if (json) std::cout << summary_json(rec->crowd()).dump() << "\n";
  else print_human(rec->crowd(), rec->time());
  std::cout.flush();
  if (!check) return 0;
  if (!diverged) {
    std::fprintf(stderr, "check: %lld steps agree with %s\n", static_cast<long long>(std::min(until, file->until_step)), path.c_str());
    return 0;
  }
  const std::string unit = first_unit_differing(*rec, *file, diverged->step);
  const std::string version = file->version == io::pathlab_version()
                                  ? ""
                                  : " (recorded by pathlab " + file->version + ", this is " + io::pathlab_version() + ")";
  std::fprintf(stderr, "check failed: %s diverges at step %lld (t = %.6g s)%s%s\n", path.c_str(),
               static_cast<long long>(diverged->step), static_cast<double>(diverged->step) * file->dt,
               unit.empty() ? "" : (": " + unit).c_str(), version.c_str());
  return 1;
}

}  // namespace pathlab::cli
