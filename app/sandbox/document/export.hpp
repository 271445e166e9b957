#pragma once
// Exporting the current path so a bug can be shown to someone else: CSV for spreadsheets and
// plotting tools, JSON for scripts, the scene itself as JSON text for the clipboard, and the
// pathlab-cli command that reproduces the plan (or the units' run) on screen.
// Numbers are written with 17 significant digits so that reading a file back gives exactly
// the doubles that were written (the round-trip test relies on it).

#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/status.hpp"

namespace pathlab::sandbox {

/// What gets exported: the path's points and, per point, distance along it and curvature.
struct ExportedPath {
  std::string scene;     ///< scene name, for people
  std::string planner;
  std::string smoother;
  std::vector<Vec2> points;      ///< [cells]
  std::vector<double> curvature; ///< signed, per point [1/cells]; empty = all zero
  double length = 0.0;           ///< [cells]
};

/// `index,x,y,s,heading_deg,curvature` with a header line; s is the distance along the polyline.
std::string path_to_csv(const ExportedPath& p);
/// {"scene", "planner", "smoother", "length", "points": [[x, y], ...], "s": [...], "curvature": [...]}
std::string path_to_json(const ExportedPath& p);

/// Reads back what path_to_csv wrote (x and y columns, curvature when present).
/// Errors name the line.
Result<ExportedPath> parse_path_csv(const std::string& text);
/// Reads back what path_to_json wrote. Errors say what is missing.
Result<ExportedPath> parse_path_json(const std::string& text);

/// What "Copy CLI command" hands a programmer: the command, and for people what it rests on.
struct CliCommand {
  std::string command;  ///< one shell line; "" when none reproduces what is shown
  std::string note;     ///< how it was made, or why there is none
  std::string written;  ///< a new file the sandbox created for it ("" when none)
};

/// `pathlab-cli plan ...` reproducing, bit for bit, the plan of `scene`'s start -> goal searched
/// on `plan_grid` (the map with the doors shut now drawn in). `scene_file` is the document's own
/// scene file ("" when none):
///  - it plans the same map: `pathlab-cli plan --scene FILE`, plus one option for each setting
///    or pose edited since (--from 3.5,4.5,90 --radius 3 ...; headings as degrees that convert
///    back exactly, else as RADrad);
///  - otherwise (no file, the map edited or doors switched, an edit no option can express):
///    the scene is written to a new file in `temp_dir` (created, never over an existing file;
///    `reuse` is such a file from before, used again when its bytes are what would be written)
///    and the command names it.
/// Numbers are written with 17 significant digits. A scene `pathlab-cli plan` cannot plan (a
/// curve planner) gives no command and a note saying so.
CliCommand plan_cli_command(const io::Scene& scene, const Grid& plan_grid, const std::string& scene_file,
                            const std::string& temp_dir, const std::string& reuse = "");

/// `pathlab-cli crowd --scene FILE` running the scene's units: its own file when `clean`, else a
/// copy written as plan_cli_command writes one. `run_time` > 0 (the simulated seconds the units
/// have run on a paused screen) adds `--max-time T`, so the command stops where the screen is. [Units: s]
CliCommand crowd_cli_command(const io::Scene& scene, const std::string& scene_file, bool clean,
                             const std::string& temp_dir, const std::string& reuse = "", double run_time = 0.0);

/// `v` with 17 significant digits ("%.17g"): reading it back gives exactly `v`.
std::string exact_number(double v);

/// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
std::string shell_word(const std::string& text);

}  // namespace pathlab::sandbox
