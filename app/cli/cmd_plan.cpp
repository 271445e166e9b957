// pathlab-cli plan: one query (--from/--to, or a scene's poses) or a file of queries (--queries),
// JSON Lines out. A scene (--scene) gives the map, the poses and the settings; options override.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "pathlab/io/map_files.hpp"
#include "planning.hpp"
#include "scene_args.hpp"

namespace pathlab::cli {
namespace {

/// Draws the map with the path on it, for people at a terminal ('#' wall, '*' path, S/G ends).
void print_ascii(const Grid& grid, const PlanOutcome& o) {
  if (grid.width() > 400) {
    std::printf("(map too wide to draw: %d columns)\n", grid.width());
    return;
  }
  std::vector<std::string> rows(static_cast<size_t>(grid.height()), std::string(static_cast<size_t>(grid.width()), '.'));
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x)
      if (!grid.is_free(x, y)) rows[y][x] = '#';
      else if (grid.cost(x, y) > 1.0f) rows[y][x] = '~';
  for (size_t i = 0; i + 1 < o.points.size(); ++i) {
    const Vec2 a = o.points[i], b = o.points[i + 1];
    const int n = std::max(1, static_cast<int>(std::ceil(glm::length(b - a) * 3)));
    for (int k = 0; k <= n; ++k) {
      const Cell c = cell_of(a + (b - a) * (static_cast<double>(k) / n));
      if (grid.in_bounds(c)) rows[c.y][c.x] = '*';
    }
  }
  if (!o.points.empty()) {
    const Cell s = cell_of(o.points.front()), g = cell_of(o.points.back());
    rows[s.y][s.x] = 'S';
    rows[g.y][g.x] = 'G';
  }
  for (const auto& r : rows) std::printf("%s\n", r.c_str());
}

PlanQuery parse_query_line(const std::string& line, const std::string& where) {
  std::istringstream in(line);
  std::vector<std::string> f;
  std::string w;
  while (in >> w) f.push_back(w);
  PlanQuery q;
  if (f.size() == 4) {
    q.from.pos = Vec2(parse_number(f[0], where + "X1"), parse_number(f[1], where + "Y1"));
    q.to.pos = Vec2(parse_number(f[2], where + "X2"), parse_number(f[3], where + "Y2"));
  } else if (f.size() == 6) {
    q.from.pos = Vec2(parse_number(f[0], where + "X1"), parse_number(f[1], where + "Y1"));
    q.from.heading_deg = parse_number(f[2], where + "DEG1");
    q.to.pos = Vec2(parse_number(f[3], where + "X2"), parse_number(f[4], where + "Y2"));
    q.to.heading_deg = parse_number(f[5], where + "DEG2");
  } else {
    throw UsageError(where + "expected 'X1 Y1 X2 Y2' or 'X1 Y1 DEG1 X2 Y2 DEG2', found " + std::to_string(f.size()) +
                     " fields");
  }
  return q;
}

}  // namespace

int run_plan(int argc, char** argv) {
  Args args(argc, argv, 2, {"json", "reverse", "cc", "ascii"});
  // A scene (--scene, or --map FILE.json): its request is the base, the options given override
  // it one by one; its poses are the query unless --from / --to (each alone) or --queries replace them.
  std::optional<CliScene> scene;
  std::optional<plan::PlanRequest> base;
  scene = scene_arg(args);
  if (scene) base = scene_base_request(*scene, args);
  const std::string map_path = scene ? scene->path : args.required("map");
  const auto queries_path = args.str("queries");
  auto from = args.point("from");
  auto to = args.point("to");
  const bool json = args.flag("json");
  const bool ascii = args.flag("ascii");
  PlanSettings settings = read_plan_settings(args, base ? &base->settings : nullptr);
  args.reject_unknown();
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  if (queries_path && (from || to)) throw UsageError("give either --queries or --from/--to, not both");
  if (base && !queries_path) {
    if (!from) from = scene_point(base->start, base->start_has_heading);
    if (!to) to = scene_point(base->goal, base->goal_has_heading);
  }
  if (!queries_path && (!from || !to)) throw UsageError("missing --from and --to (or --queries FILE)");

  auto grid = scene ? Result<Grid>(std::move(scene->grid)) : io::load_map_file(map_path);
  if (!grid) throw UsageError(grid.error().message);
  Planner planner(*grid, settings);

  if (!queries_path) {
    const PlanQuery q{*from, *to};
    const PlanOutcome o = planner.plan(q, "");
    const bool headings = from->heading_deg || to->heading_deg;
    if (json) {
      std::cout << outcome_json(o, headings).dump() << "\n";
    } else {
      if (o.found) {
        std::printf("found: yes\nlength: %.17g\nwaypoints: %zu\n", o.length, o.points.size());
        if (o.shift_passes) std::printf("shift_passes: %d\n", *o.shift_passes);
      } else {
        std::printf("found: no (%s)\n", o.reason.c_str());
        if (o.stopped != BudgetStop::none) std::printf("partial: %s\nstopped: %s\n", o.partial ? "yes" : "no", to_string(o.stopped));
        if (o.partial) std::printf("length: %.17g\nwaypoints: %zu\n", o.length, o.points.size());
      }
      std::printf("expanded: %lld\ntime_us: %.1f\n", static_cast<long long>(o.expanded), o.time_us);
      if (ascii) print_ascii(*grid, o);
    }
    return 0;
  }

  // Batch: read every query first, so a malformed line fails before any output.
  std::vector<PlanQuery> queries;
  std::vector<bool> has_heading;
  for (const QueryLine& q : read_query_lines(*queries_path)) {
    queries.push_back(parse_query_line(q.text, q.where));
    has_heading.push_back(queries.back().from.heading_deg.has_value());
  }
  const bool progress = stderr_is_terminal();
  auto last = std::chrono::steady_clock::now();
  std::string out;
  for (size_t i = 0; i < queries.size(); ++i) {
    const PlanOutcome o = planner.plan(queries[i], *queries_path + ": query " + std::to_string(i + 1) + ": ");
    out += outcome_json(o, has_heading[i]).dump();
    out += '\n';
    if (progress && std::chrono::steady_clock::now() - last > std::chrono::milliseconds(200)) {
      std::fprintf(stderr, "\r%zu/%zu queries", i + 1, queries.size());
      last = std::chrono::steady_clock::now();
    }
  }
  if (progress) std::fprintf(stderr, "\r%zu/%zu queries\n", queries.size(), queries.size());
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace pathlab::cli
