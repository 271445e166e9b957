// pathlab-cli record: runs a scene's crowd headless (as `crowd --scene` and the sandbox do)
// with inputs given as data, and writes the repro file of the run (repro_file.hpp): what
// `replay --check` and the sandbox's --save-repro also make.

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "commands.hpp"
#include "pathlab/io/repro_file.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene.hpp"

namespace pathlab::cli {
namespace {

constexpr const char* kRecordUsage =
    "usage: pathlab-cli record --scene FILE --until T --out REPRO [--inputs FILE] [--moment T] [--dt S]\n"
    "Runs the scene's units, doors and trucks for T seconds (as `crowd --scene` and the sandbox do)\n"
    "and writes one repro file: the scene, the inputs with their steps, the settings, the version\n"
    "and a state hash per simulated second, for `pathlab-cli replay`. --inputs: a JSON file\n"
    "{\"inputs\": [...]} of edits (paint, door, send) at their steps, as in a repro. --moment: the\n"
    "time of interest. An existing REPRO is replaced only if it is a repro. See README.md, section\n"
    "Repro files.\n";

/// Steps for `seconds` of simulated time at `dt`; errors name the option.
int64_t steps_of(double seconds, double dt, const char* option) {
  if (!(seconds >= 0.0) || !std::isfinite(seconds)) throw UsageError(std::string("--") + option + " must be >= 0 seconds");
  const double steps = std::round(seconds / dt);
  if (steps > static_cast<double>(io::kMaxReproSteps))
    throw UsageError(std::string("--") + option + ": more than " + std::to_string(io::kMaxReproSteps) + " steps");
  return static_cast<int64_t>(steps);
}

}  // namespace

int run_record(int argc, char** argv) {
  for (int k = 2; k < argc; ++k) {
    if (std::string(argv[k]) == "--help" || std::string(argv[k]) == "-h") {
      std::fputs(kRecordUsage, stdout);
      return 0;
    }
  }
  Args args(argc, argv, 2, {});
  const std::string scene_path = args.required("scene");
  const double until = args.number("until").value_or(-1.0);
  if (!args.number("until")) throw UsageError("missing --until T (seconds to record)");
  const std::string out = args.required("out");
  const auto inputs_path = args.str("inputs");
  const auto moment_arg = args.number("moment");
  const auto dt_arg = args.number("dt");
  args.reject_unknown();
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  plan::RecordOptions options;
  if (dt_arg) {
    if (!(*dt_arg > 0.0 && *dt_arg <= 1.0)) throw UsageError("--dt must be in (0, 1] seconds");
    options.def.dt = *dt_arg;
  }
  const int64_t steps = steps_of(until, options.def.dt, "until");
  std::optional<int64_t> moment;
  if (moment_arg) {
    moment = steps_of(*moment_arg, options.def.dt, "moment");
    if (*moment > steps) throw UsageError("--moment is after --until");
  }
  // Checked before the run: a user's file is never written over, and not after minutes of work.
  if (const std::string e = io::check_repro_target(out); !e.empty()) throw UsageError("--out: " + e);
  auto scene = plan::load_scene(scene_path);
  if (!scene) throw UsageError(scene.error().message);
  std::vector<io::UnitInput> inputs;
  if (inputs_path) {
    auto text = read_text_file(*inputs_path, io::kMaxReproFileBytes);
    if (!text) throw UsageError(text.error().message);
    auto parsed = io::parse_unit_inputs(*text, *inputs_path, *scene, steps);
    if (!parsed) throw UsageError(parsed.error().message);
    inputs = std::move(*parsed);
  }
  auto rec = plan::Recording::start(*scene, options);
  if (!rec) throw UsageError(rec.error().message);
  size_t next = 0;
  for (int64_t s = 0; s <= steps; ++s) {
    // Each input at its step, before that step runs: as a click between two frames.
    for (; next < inputs.size() && inputs[next].step == s; ++next) {
      if (const std::string problem = rec->input(inputs[next]); !problem.empty())
        std::fprintf(stderr, "note: step %lld: %s\n", static_cast<long long>(s), problem.c_str());
    }
    if (s < steps) rec->step();
  }
  if (auto st = io::save_repro(rec->repro(moment), out); !st) throw UsageError(st.error().message);
  std::printf("recorded %lld steps (%.6g s) of %d units, %zu inputs, %zu hashes: %s\n", static_cast<long long>(steps),
              rec->time(), rec->crowd().agent_count(), inputs.size(), rec->hashes().size(), out.c_str());
  for (const std::string& skipped : rec->units().skipped) std::printf("skipped %s\n", skipped.c_str());
  return 0;
}

}  // namespace pathlab::cli
