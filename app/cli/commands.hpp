#pragma once
// The verbs of pathlab-cli. Each lives in its own cmd_<verb>.cpp and is listed in kCommands.

#include "args.hpp"

namespace pathlab::cli {

/// Returns the process exit status: 0 success, 1 a check failed, 2 bad input (via UsageError).
using CommandFn = int (*)(int argc, char** argv);

int run_plan(int argc, char** argv);
int run_scen(int argc, char** argv);
int run_smooth(int argc, char** argv);
int run_curve(int argc, char** argv);
int run_simulate(int argc, char** argv);
int run_crowd(int argc, char** argv);
int run_record(int argc, char** argv);
int run_replay(int argc, char** argv);
int run_link(int argc, char** argv);

struct Command {
  const char* name;
  CommandFn run;
  const char* summary;
};

inline constexpr Command kCommands[] = {
    {"plan", run_plan, "plan paths on a map or a --scene (one query, or a file of queries as JSON Lines)"},
    {"scen", run_scen, "check a Moving AI .map.scen file's optimal lengths (on its map or a --scene's)"},
    {"smooth", run_smooth, "sample a Catmull-Rom or Hermite spline through given points"},
    {"curve", run_curve, "Dubins, Reeds-Shepp or turn-to-point curve between poses (JSON Lines for --queries)"},
    {"simulate", run_simulate,
     "drive a unit (person, car, tank, bear) along a planned path, on a map or a --scene; trajectory and metrics"},
    {"crowd", run_crowd, "many units following their routes around each other, doors and moving obstacles (JSON Lines)"},
    {"record", run_record, "run a scene's crowd headless with inputs as data and write a repro file of the run"},
    {"replay", run_replay, "re-simulate a repro file, print frames as crowd does; --check against its hashes"},
    {"link", run_link, "a scene or a lesson step as a link (index.html#scene=...), and a link back to a new file"},
};

}  // namespace pathlab::cli
