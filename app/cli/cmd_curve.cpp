// pathlab-cli curve: Dubins, Reeds-Shepp, continuous-curvature (CC-Dubins, CC-Reeds-Shepp)
// and turn-to-point curves between poses, one query
// (--from/--to) or a file of queries (--queries, JSON Lines out). Degrees at this boundary.

#include <array>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "pathlab/cc_curves.hpp"
#include "pathlab/curve_input.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/turn_to_point.hpp"

namespace pathlab::cli {
namespace {

enum class CurveType { dubins, reeds_shepp, turn_to_point, cc_dubins, cc_reeds_shepp };

bool is_cc(CurveType t) { return t == CurveType::cc_dubins || t == CurveType::cc_reeds_shepp; }

CurveType parse_curve_type(const std::string& name) {
  if (name == "dubins") return CurveType::dubins;
  if (name == "reeds-shepp") return CurveType::reeds_shepp;
  if (name == "turn-to-point") return CurveType::turn_to_point;
  if (name == "cc-dubins") return CurveType::cc_dubins;
  if (name == "cc-reeds-shepp") return CurveType::cc_reeds_shepp;
  throw UsageError("--type: unknown curve type '" + name +
                   "' (expected dubins, reeds-shepp, cc-dubins, cc-reeds-shepp or turn-to-point)");
}

struct CurveQuery {
  Vec2 from;
  double from_deg = 0.0;
  Vec2 to;
  std::optional<double> to_deg;
};

struct CurveOutcome {
  bool found = false;
  double length = 0.0;
  std::string word;
  std::vector<std::array<double, 3>> points;  // x, y, heading in degrees
};

// Degrees in (-180, 180]; exact for the values people type (remainder is exact).
double wrap_degrees(double deg) {
  double w = std::remainder(deg, 360.0);
  if (w <= -180.0) w += 360.0;
  return w;
}

/// Radians of a heading in degrees. Beyond a million degrees the heading is wrapped first
/// (exactly: remainder is exact), so 1e308 is a heading like any other; smaller values are
/// used as given, which keeps the output of ordinary queries bit for bit.
double heading_rad(double deg) { return deg_to_rad(std::abs(deg) > 1e6 ? wrap_degrees(deg) : deg); }

/// Most points one `curve` command writes (all queries together): about 60 MB of JSON.
constexpr double kMaxCurveOutputPoints = 1e6;

/// Names the argument a core input error is about: the radius, or the start or goal pose
/// (--from / --to, or the query line's fields).
[[noreturn]] void curve_input_error(const std::string& where, const std::string& message) {
  std::string arg;
  if (message.rfind("turning radius", 0) == 0) arg = "--radius: ";
  else if (message.rfind("sharpness", 0) == 0) arg = "--sharpness: ";
  else if (where.empty() && message.rfind("start", 0) == 0) arg = "--from: ";
  else if (where.empty() && message.rfind("goal", 0) == 0) arg = "--to: ";
  throw UsageError(where + arg + message);
}

/// Refuses a curve whose samples would push the command's output past kMaxCurveOutputPoints;
/// `written` counts the points of earlier queries. Checked before sampling (an upper bound).
void check_output_size(const SegmentPath& path, double step, double& written, const std::string& where) {
  const double bound = path.length() / step + static_cast<double>(path.segments().size()) + 2.0;
  if (!(written + bound <= kMaxCurveOutputPoints)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "--sample-step: %.6g cells along %.6g cells of curve%s gives more than %.0f points",
                  step, path.length(), written > 0 ? " (with the earlier queries)" : "", kMaxCurveOutputPoints);
    throw UsageError(where + buf + " of output; use a larger step");
  }
  written += bound;
}

/// The CC curve of a query: the shortest CC-Dubins or CC-Reeds-Shepp path.
Result<SegmentPath> cc_query(CurveType type, const Pose& from, const Pose& to, double radius, double sharpness,
                             std::string& word) {
  auto sol = type == CurveType::cc_dubins ? cc_dubins(from, to, radius, sharpness)
                                          : cc_reeds_shepp(from, to, radius, sharpness);
  if (!sol) return sol.error();
  word = sol->word;
  return std::move(sol->path);
}

CurveOutcome run_query(CurveType type, const CurveQuery& q, double radius, double sharpness, double step,
                       double& written, const std::string& where) {
  const Pose from{q.from, heading_rad(q.from_deg)};
  const double to_rad = q.to_deg ? heading_rad(*q.to_deg) : 0.0;
  if (auto ok = check_curve_input(from, q.to, to_rad, radius); !ok) curve_input_error(where, ok.error().message);
  if (is_cc(type))
    if (auto ok = check_cc_sharpness(radius, sharpness); !ok) curve_input_error(where, ok.error().message);
  CurveOutcome out;
  Result<SegmentPath> path = Error{};
  if (type == CurveType::turn_to_point) {
    if (q.to_deg) throw UsageError(where + "turn-to-point ends at a point: give the goal as X,Y without a heading");
    auto sol = turn_to_point(from, q.to, radius);
    if (!sol) throw UsageError(where + sol.error().message);
    out.word = sol->word;
    path = turn_to_point_path(from, q.to, radius);
  } else {
    if (!q.to_deg) throw UsageError(where + "the goal needs a heading: X,Y,DEG");
    const Pose to{q.to, to_rad};
    if (is_cc(type)) {
      path = cc_query(type, from, to, radius, sharpness, out.word);
    } else if (type == CurveType::dubins) {
      auto sol = dubins_shortest(from, to, radius);
      if (!sol) throw UsageError(where + sol.error().message);
      out.word = to_string(sol->word);
      path = dubins_to_path(from, to, radius, *sol);
    } else {
      auto sol = reeds_shepp_shortest(from, to, radius);
      if (!sol) throw UsageError(where + sol.error().message);
      out.word = sol->word();
      path = reeds_shepp_to_path(from, to, radius, *sol);
    }
  }
  if (!path) throw UsageError(where + path.error().message);
  check_output_size(*path, step, written, where);
  auto samples = path->sample(step);
  if (!samples) throw UsageError(where + "--sample-step: " + samples.error().message);
  out.found = true;
  out.length = path->length();
  for (const PathSample& s : *samples)
    out.points.push_back({s.state.pos.x, s.state.pos.y, wrap_degrees(rad_to_deg(s.state.heading))});
  // The ends are the poses as given, in the given degrees (no radian round trip).
  out.points.front()[2] = wrap_degrees(q.from_deg);
  if (q.to_deg) out.points.back()[2] = wrap_degrees(*q.to_deg);
  return out;
}

nlohmann::ordered_json curve_json(const CurveOutcome& o) {
  nlohmann::ordered_json j;
  j["found"] = o.found;
  j["length"] = o.length;
  j["word"] = o.word;
  j["points"] = o.points;
  return j;
}

CurveQuery parse_curve_line(const std::string& line, const std::string& where) {
  std::istringstream in(line);
  std::vector<std::string> f;
  std::string w;
  while (in >> w) f.push_back(w);
  if (f.size() != 5 && f.size() != 6)
    throw UsageError(where + "expected 'X1 Y1 DEG1 X2 Y2 [DEG2]', found " + std::to_string(f.size()) + " fields");
  CurveQuery q;
  q.from = Vec2(parse_number(f[0], where + "X1"), parse_number(f[1], where + "Y1"));
  q.from_deg = parse_number(f[2], where + "DEG1");
  q.to = Vec2(parse_number(f[3], where + "X2"), parse_number(f[4], where + "Y2"));
  if (f.size() == 6) q.to_deg = parse_number(f[5], where + "DEG2");
  return q;
}

}  // namespace

int run_curve(int argc, char** argv) {
  Args args(argc, argv, 2, {"json"});
  const CurveType type = parse_curve_type(args.required("type"));
  const auto radius_arg = args.number("radius");
  const auto step_arg = args.number("sample-step");
  const auto sharpness_arg = args.number("sharpness");
  const auto from = args.point("from");
  const auto to = args.point("to");
  const auto queries_path = args.str("queries");
  const bool json = args.flag("json");
  args.reject_unknown();
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  if (!radius_arg) throw UsageError("missing --radius");
  const double radius = *radius_arg;
  if (!(radius > 0.0)) throw UsageError("--radius: must be a positive number, got " + args.str("radius").value());
  // Default spacing: a tenth of the radius keeps the polyline within 0.13% of an arc's length.
  const double step = step_arg.value_or(radius / 10.0);
  if (!(step > 0.0)) throw UsageError("--sample-step: must be a positive number, got " + args.str("sample-step").value());
  if (is_cc(type) && !sharpness_arg) throw UsageError("missing --sharpness (cc-dubins and cc-reeds-shepp need it)");
  if (!is_cc(type) && sharpness_arg)
    throw UsageError("--sharpness: only the cc-dubins and cc-reeds-shepp curves take a sharpness");
  const double sharpness = sharpness_arg.value_or(0.0);
  if (queries_path && (from || to)) throw UsageError("give either --queries or --from/--to, not both");
  if (!queries_path && (!from || !to)) throw UsageError("missing --from and --to (or --queries FILE)");

  if (!queries_path) {
    if (!from->heading_deg) throw UsageError("--from: the start needs a heading: X,Y,DEG");
    CurveQuery q{from->pos, *from->heading_deg, to->pos, to->heading_deg};
    if (type == CurveType::turn_to_point && q.to_deg)
      throw UsageError("--to: turn-to-point ends at a point: give X,Y without a heading");
    if (type != CurveType::turn_to_point && !q.to_deg) throw UsageError("--to: the goal needs a heading: X,Y,DEG");
    double written = 0.0;
    const CurveOutcome o = run_query(type, q, radius, sharpness, step, written, "");
    if (json) {
      std::cout << curve_json(o).dump() << "\n";
    } else {
      std::printf("found: %s\nword: %s\nlength: %.17g\npoints: %zu\n", o.found ? "yes" : "no", o.word.c_str(),
                  o.length, o.points.size());
      for (const auto& p : o.points) std::printf("  %.17g %.17g %.17g\n", p[0], p[1], p[2]);
    }
    return 0;
  }

  // Batch: parse every line first so that a malformed one fails before any output.
  std::vector<CurveQuery> queries;
  std::vector<std::string> places;
  for (const QueryLine& q : read_query_lines(*queries_path)) {
    queries.push_back(parse_curve_line(q.text, q.where));
    places.push_back(q.where);
  }
  std::string out;
  double written = 0.0;
  for (size_t i = 0; i < queries.size(); ++i) {
    out += curve_json(run_query(type, queries[i], radius, sharpness, step, written, places[i])).dump();
    out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace pathlab::cli
