// pathlab-cli smooth: a spline through points given on the command line, sampled the way
// the method defines (N points per segment, or by distance with --points-per-cell).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "pathlab/arc_length.hpp"
#include "pathlab/spline_smoother.hpp"

namespace pathlab::cli {
namespace {

/// Most points `smooth` writes: about 40 MB of text.
constexpr double kMaxSmoothOutputPoints = 1e6;

void check_output_points(double count, const char* arg) {
  if (count <= kMaxSmoothOutputPoints) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s: the curve would be sampled at %.6g points, more than the output limit of %.0f",
                arg, count, kMaxSmoothOutputPoints);
  throw UsageError(buf);
}

std::vector<Vec2> parse_points(const std::string& text) {
  std::istringstream in(text);
  std::vector<Vec2> pts;
  std::string word;
  while (in >> word) {
    const std::string what = "--points: point " + std::to_string(pts.size() + 1);
    if (std::count(word.begin(), word.end(), ',') != 1) throw UsageError(what + ": expected X,Y, got '" + word + "'");
    pts.push_back(parse_point(word, what).pos);
  }
  if (pts.empty()) throw UsageError("--points: no points given (expected \"X,Y X,Y ...\")");
  return pts;
}

}  // namespace

int run_smooth(int argc, char** argv) {
  Args args(argc, argv, 2, {"json"});
  const std::string method_name = args.required("method");
  const std::string points_text = args.required("points");
  const auto subdivisions = args.integer("subdivisions");
  const auto per_cell = args.number("points-per-cell");
  const bool json = args.flag("json");
  args.reject_unknown();
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");

  auto method = parse_spline_method(method_name);
  if (!method) throw UsageError("--method: " + method.error().message);
  if (subdivisions && (*subdivisions < 1 || *subdivisions > kMaxSubdivisions)) {
    throw UsageError("--subdivisions must be in [1, " + std::to_string(kMaxSubdivisions) + "]");
  }
  if (subdivisions && per_cell) throw UsageError("give either --subdivisions or --points-per-cell, not both");
  if (per_cell && !(*per_cell > 0.0 && *per_cell <= 1000.0)) throw UsageError("--points-per-cell must be in (0, 1000]");
  const std::vector<Vec2> pts = parse_points(points_text);

  auto curve = spline_curve(*method, pts);
  if (!curve) throw UsageError("--points: " + curve.error().message);
  std::vector<Vec2> out;
  double length = 0.0;
  if (per_cell) {
    auto table = ArcLengthTable::build(*curve);
    if (!table) throw UsageError("--points: " + table.error().message);
    check_output_points(std::floor(table->length() * *per_cell) + 2.0, "--points-per-cell");
    auto sampled = sample_by_spacing(*table, 1.0 / *per_cell);
    if (!sampled) throw UsageError("--points-per-cell: " + sampled.error().message);
    out = std::move(*sampled);
    length = table->length();
  } else if (pts.size() == 1) {
    out = pts;
  } else {
    const long long n = subdivisions.value_or(8);
    check_output_points(static_cast<double>(pts.size() - 1) * static_cast<double>(n) + 1.0, "--subdivisions");
    auto sampled = sample_per_segment(*curve, static_cast<int>(n));
    if (!sampled) throw UsageError("--subdivisions: " + sampled.error().message);
    out = std::move(*sampled);
    length = curve->length();
  }

  if (json) {
    nlohmann::ordered_json j;
    auto arr = nlohmann::ordered_json::array();
    for (const Vec2& p : out) arr.push_back({p.x, p.y});
    j["points"] = std::move(arr);
    j["length"] = length;
    std::cout << j.dump() << "\n";
  } else {
    std::printf("method: %s\npoints: %zu\nlength: %.17g\n", to_string(*method), out.size(), length);
    for (const Vec2& p : out) std::printf("%.17g %.17g\n", p.x, p.y);
  }
  return 0;
}

}  // namespace pathlab::cli
