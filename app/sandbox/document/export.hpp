#pragma once
// Exporting the current path so a bug can be shown to someone else: CSV for spreadsheets and
// plotting tools, JSON for scripts, and the scene itself as JSON text for the clipboard.
// Numbers are written with 17 significant digits so that reading a file back gives exactly
// the doubles that were written (the round-trip test relies on it).

#include <string>
#include <vector>

#include "pathlab/geometry.hpp"
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

}  // namespace pathlab::sandbox
