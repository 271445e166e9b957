// The per-map speed table (issue 18): for every Moving AI map with a scenario file, microseconds
// per query for A*, JPS, Theta*, the exact navmesh search (agent radius 0, corridor + funnel,
// on the wall-corner mesh `--planner navmesh` uses) and Detour (findNearestPoly x2 + findPath +
// findStraightPath on the convex mesh's polygons, as in bench_navmesh), on one fixed sample of the map's scenario problems (cell centre to cell
// centre), in one process. Each round runs every planner once over the whole sample, planners
// interleaved; a cell of the table is the median over the rounds of thread CPU time / queries.
//
//   bench_table [--rounds N] [--queries N] [--maps a,b,...] [--planners a,b,...] [--save FILE.csv]
//               [--baseline FILE.csv] [--load FILE.csv]
//   bench_table --lengths [--maps a,b,...] [--planners astar,jps] [--dump FILE]
//
// Defaults: 5 rounds, 100 queries a map, every map, every planner. --save writes the figures as
// CSV (after each map); --baseline reads such a CSV back and adds "now / before" ratios to the
// table (below 1 = faster now); --load prints a saved CSV instead of measuring.
//
// --lengths runs every problem of every scenario file with A* and JPS instead, checks each
// length against the file's optimum and prints per map two checksums of the lengths: of their
// bits (equal = bit-identical lengths) and of their values rounded to 1e-9 (equal = the same
// lengths, whatever order a path's runs were summed in).
//
// Not a Google Benchmark program: the table needs its own layout and a saved-run comparison.

#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "detour_mesh.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/map_io.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/navmesh_search.hpp"
#include "pathlab/navmesh_smooth.hpp"
#include "thread_clock.hpp"

using namespace pathlab;

namespace {

enum Planner { kAstar, kJps, kTheta, kNavmesh, kDetour, kPlanners };
const char* const kPlannerNames[kPlanners] = {"astar", "jps", "theta", "navmesh", "detour"};
const char* const kPlannerTitles[kPlanners] = {"A*", "JPS", "Theta*", "navmesh exact", "Detour"};

struct Args {
  int rounds = 5;
  size_t queries = 100;
  std::vector<std::string> maps;  // empty = every map with a .scen
  bool use[kPlanners] = {true, true, true, true, true};
  std::string save, baseline, load;
  bool lengths = false;
  std::string dump;  // --lengths: every length, one a line, to this file
};

[[noreturn]] void usage_error(const std::string& msg) {
  std::fprintf(stderr,
               "bench_table: %s\nusage: bench_table [--rounds N] [--queries N] [--maps a,b] [--planners a,b] "
               "[--save FILE.csv] [--baseline FILE.csv] [--load FILE.csv] | --lengths [--maps a,b] [--dump FILE]\n",
               msg.c_str());
  std::exit(2);
}

long parse_count(const char* opt, const char* text, long lo, long hi) {
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < lo || v > hi) {
    usage_error(std::string(opt) + " wants a whole number in " + std::to_string(lo) + ".." + std::to_string(hi) +
                ", got '" + text + "'");
  }
  return v;
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string o = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage_error(o + " needs a value");
      return argv[++i];
    };
    if (o == "--rounds") a.rounds = static_cast<int>(parse_count("--rounds", value(), 1, 1000));
    else if (o == "--queries") a.queries = static_cast<size_t>(parse_count("--queries", value(), 1, 100000));
    else if (o == "--save") a.save = value();
    else if (o == "--baseline") a.baseline = value();
    else if (o == "--load") a.load = value();
    else if (o == "--lengths") a.lengths = true;
    else if (o == "--dump") a.dump = value();
    else if (o == "--maps") {
      std::stringstream ss(value());
      for (std::string m; std::getline(ss, m, ',');)
        if (!m.empty()) a.maps.push_back(m);
    } else if (o == "--planners") {
      std::fill(std::begin(a.use), std::end(a.use), false);
      std::stringstream ss(value());
      for (std::string m; std::getline(ss, m, ',');) {
        const auto* it = std::find_if(std::begin(kPlannerNames), std::end(kPlannerNames),
                                      [&](const char* n) { return m == n; });
        if (it == std::end(kPlannerNames))
          usage_error("unknown planner '" + m + "' (astar, jps, theta, navmesh, detour)");
        a.use[it - std::begin(kPlannerNames)] = true;
      }
    } else {
      usage_error("unknown argument '" + o + "'");
    }
  }
  return a;
}

/// Every map of the Moving AI folder that has a scenario file, sorted by name.
std::vector<std::string> all_maps() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(PATHLAB_MOVINGAI_DIR)) {
    const std::string f = e.path().filename().string();
    const std::string suffix = ".map.scen";
    if (f.size() > suffix.size() && f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(f.substr(0, f.size() - suffix.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct MapData {
  Grid grid;
  std::vector<Scenario> scen;
};

MapData load_map(const std::string& name) {
  const std::string base = std::string(PATHLAB_MOVINGAI_DIR) + "/" + name;
  auto grid = load_movingai_map(base + ".map");
  auto scen = load_scenarios(base + ".map.scen");
  if (!grid) usage_error(grid.error().message);
  if (!scen) usage_error(scen.error().message);
  if (scen->empty()) usage_error(base + ".map.scen: no problems");
  return MapData{std::move(*grid), std::move(*scen)};
}

constexpr int kMaxPath = 4096;

/// One Detour query between two points; the path length, or -1 when Detour does not reach
/// the goal (its node pool or path buffer ran out, or no polygon under a point).
double detour_query(bench::DetourMesh& d, Vec2 s, Vec2 t, std::vector<dtPolyRef>& path, std::vector<float>& pts) {
  const float sp[3] = {static_cast<float>(s.x), 0.0f, static_cast<float>(s.y)};
  const float tp[3] = {static_cast<float>(t.x), 0.0f, static_cast<float>(t.y)};
  const float ext[3] = {0.5f, 1.0f, 0.5f};
  dtPolyRef sr = 0, tr = 0;
  float sn[3], tn[3];
  d.query->findNearestPoly(sp, ext, &d.filter, &sr, sn);
  d.query->findNearestPoly(tp, ext, &d.filter, &tr, tn);
  if (!sr || !tr) return -1;
  int npath = 0, nstraight = 0;
  d.query->findPath(sr, tr, sn, tn, &d.filter, path.data(), &npath, kMaxPath);
  if (npath == 0 || path[static_cast<size_t>(npath - 1)] != tr) return -1;
  d.query->findStraightPath(sn, tn, path.data(), npath, pts.data(), nullptr, nullptr, &nstraight, kMaxPath);
  double len = 0;
  for (int i = 1; i < nstraight; ++i) {
    const size_t k = static_cast<size_t>(3 * i);
    len += std::hypot(pts[k] - pts[k - 3], pts[k + 2] - pts[k - 1]);
  }
  return len;
}

/// Whether build_detour can take the mesh: Detour numbers vertices and polygons with 16 bits
/// (a ring longer than DT_VERTS_PER_POLYGON becomes at most one chunk per edge plus a centre).
bool detour_fits(const Navmesh& m) {
  std::vector<char> used(static_cast<size_t>(m.vertex_id_count()), 0);
  size_t verts = 0, polys = 0;
  for (const NavPolygon& P : m.polygons()) {
    for (int e = P.first; e < P.first + P.count; ++e) {
      char& u = used[static_cast<size_t>(m.ring_vertex_ids()[static_cast<size_t>(e)])];
      verts += u == 0;
      u = 1;
    }
    const bool split = P.count > DT_VERTS_PER_POLYGON;
    verts += split;
    polys += split ? static_cast<size_t>(P.count) : 1;
  }
  return verts < 0xffff && polys < 0xffff;
}

/// Everything one map's table row needs: the searches with their preprocessing done.
struct Runner {
  const MapData& md;
  std::vector<size_t> sample;  // scenario indices, evenly spaced
  GridPathfinder grid_pf;
  Navmesh mesh;         // what `--planner navmesh` searches: wall-corner polygons
  Navmesh convex_mesh;  // Detour's: the convex mesh, as bench_navmesh gives it
  std::unique_ptr<NavmeshQuery> nav;
  std::unique_ptr<bench::DetourMesh> detour;
  std::vector<dtPolyRef> dpath = std::vector<dtPolyRef>(kMaxPath);
  std::vector<float> dpts = std::vector<float>(3 * kMaxPath);

  Runner(const MapData& m, size_t queries, bool need_mesh) : md(m), grid_pf(m.grid) {
    const size_t n = std::min(queries, md.scen.size());
    for (size_t i = 0; i < n; ++i) sample.push_back(i * md.scen.size() / n);
    if (!need_mesh) return;
    NavmeshDef corners = default_navmesh_def();
    corners.corners_only = true;
    auto built = Navmesh::build(md.grid, corners);
    auto convex = Navmesh::build(md.grid);
    if (!built || !convex) usage_error("navmesh build failed: " + (built ? convex : built).error().message);
    mesh = std::move(*built);
    convex_mesh = std::move(*convex);
    nav = std::make_unique<NavmeshQuery>(mesh);
    if (detour_fits(convex_mesh)) detour = bench::build_detour(convex_mesh);
  }

  /// One query; its length, or -1 when the planner did not find the path.
  double query(Planner p, const Scenario& s) {
    const Vec2 a(s.start.x + 0.5, s.start.y + 0.5), b(s.goal.x + 0.5, s.goal.y + 0.5);
    switch (p) {
      case kAstar:
      case kJps:
      case kTheta: {
        const GridPlanner gp = p == kAstar ? GridPlanner::astar : p == kJps ? GridPlanner::jps : GridPlanner::theta;
        auto r = grid_pf.find_path(gp, s.start, s.goal);
        return r && r->found ? r->length : -1.0;
      }
      case kNavmesh: {
        auto r = nav->find_corridor(a, b);
        if (!r || !r->found) return -1.0;
        auto f = funnel_corridor(*r);
        return f ? f->length : -1.0;
      }
      case kDetour: return detour ? detour_query(*detour, a, b, dpath, dpts) : -1.0;
      case kPlanners: break;
    }
    return -1.0;
  }
};

struct Row {
  std::string map;
  size_t queries = 0;
  double us[kPlanners] = {};
  int failed[kPlanners] = {};  // queries the planner did not answer (Detour's limits)
  bool measured[kPlanners] = {};
  bool no_detour = false;  // the mesh is too large for Detour's 16-bit indices
};

Row measure_map(const std::string& name, const Args& args) {
  const MapData md = load_map(name);
  Runner run(md, args.queries, args.use[kNavmesh] || args.use[kDetour]);
  Row row;
  row.map = name;
  row.queries = run.sample.size();
  row.no_detour = (args.use[kNavmesh] || args.use[kDetour]) && !run.detour;
  for (int p = 0; p < kPlanners; ++p)  // one query each first: one-time preprocessing (JPS's tables)
    if (args.use[p]) run.query(static_cast<Planner>(p), md.scen[run.sample.front()]);
  std::vector<double> times[kPlanners];
  for (int r = 0; r < args.rounds; ++r) {
    for (int p = 0; p < kPlanners; ++p) {
      if (!args.use[p] || (p == kDetour && row.no_detour)) continue;
      double sink = 0.0;
      const double t0 = bench::thread_seconds();
      int failed = 0;
      for (size_t i : run.sample) {
        const double len = run.query(static_cast<Planner>(p), md.scen[i]);
        sink += len;
        failed += len < 0.0;
      }
      const double t1 = bench::thread_seconds();
      row.failed[p] = failed;
      if (sink == -12345.678) std::fprintf(stderr, " ");  // keeps the queries' results alive
      times[p].push_back((t1 - t0) * 1e6 / static_cast<double>(row.queries));
    }
  }
  for (int p = 0; p < kPlanners; ++p) {
    std::vector<double>& v = times[p];
    if (v.empty()) continue;
    row.measured[p] = true;
    std::sort(v.begin(), v.end());
    row.us[p] = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  }
  std::fprintf(stderr, "%s: %zu queries x %d rounds done\n", name.c_str(), row.queries, args.rounds);
  return row;
}

struct Before {
  double us = 0.0;
  size_t queries = 0;
};
using Baseline = std::map<std::pair<std::string, std::string>, Before>;  // (map, planner) -> figures

Baseline read_baseline(const std::string& path) {
  Baseline b;
  std::ifstream in(path);
  if (!in) usage_error("cannot read baseline '" + path + "'");
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (lineno == 1 || line.empty()) continue;  // header
    std::stringstream ss(line);
    std::string map, planner, us, queries;
    if (!std::getline(ss, map, ',') || !std::getline(ss, planner, ',') || !std::getline(ss, us, ',') ||
        !std::getline(ss, queries, ',')) {
      usage_error(path + ":" + std::to_string(lineno) + ": expected map,planner,us_per_query,queries");
    }
    char* end = nullptr;
    const double v = std::strtod(us.c_str(), &end);
    if (end == us.c_str() || !(v > 0.0) || !std::isfinite(v))
      usage_error(path + ":" + std::to_string(lineno) + ": bad us_per_query '" + us + "'");
    b[{map, planner}] = Before{v, static_cast<size_t>(std::strtoul(queries.c_str(), nullptr, 10))};
  }
  return b;
}

/// The rows of a saved run (--load), maps in the file's order; marks the planners it holds.
std::vector<Row> load_rows(const std::string& path, Args& args) {
  const Baseline b = read_baseline(path);
  std::vector<Row> rows;
  std::fill(std::begin(args.use), std::end(args.use), false);
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    const std::string map = line.substr(0, line.find(','));
    if (map.empty() || (!rows.empty() && rows.back().map == map)) continue;
    Row r;
    r.map = map;
    for (int p = 0; p < kPlanners; ++p) {
      if (auto it = b.find({map, kPlannerNames[p]}); it != b.end()) {
        r.us[p] = it->second.us, r.queries = it->second.queries, r.measured[p] = true, args.use[p] = true;
      }
    }
    rows.push_back(r);
  }
  return rows;
}

void save_csv(const std::string& path, const std::vector<Row>& rows, int rounds) {
  std::ofstream out(path);
  if (!out) usage_error("cannot write '" + path + "'");
  out << "map,planner,us_per_query,queries,rounds\n";
  char buf[64];
  for (const Row& r : rows) {
    for (int p = 0; p < kPlanners; ++p) {
      if (!r.measured[p]) continue;
      std::snprintf(buf, sizeof buf, "%.6g", r.us[p]);
      out << r.map << ',' << kPlannerNames[p] << ',' << buf << ',' << r.queries << ',' << rounds << '\n';
    }
  }
}

std::string first_line_of(const char* path, const char* key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key, 0) == 0) return line.substr(line.find(':') + 1);
  return "";
}

std::string fmt_us(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100.0 ? "%.0f" : v >= 10.0 ? "%.1f" : v >= 1.0 ? "%.2f" : "%.3f", v);
  return buf;
}

void print_table(const std::vector<Row>& rows, const Args& args, const Baseline& base) {
  const char* ratio_note = base.empty() ? "" : " In brackets: now / before (below 1 = faster now).";
  if (!args.load.empty()) {
    std::printf("Microseconds per query, from the saved run %s.%s\n\n", args.load.c_str(), ratio_note);
  } else {
    std::string load;
    std::ifstream la("/proc/loadavg");
    la >> load;
    std::printf("Microseconds per query (thread CPU time, median of %d rounds) on up to %zu evenly spaced problems "
                "of each scenario file, cell centre to cell centre.\nMachine:%s, %u cores online, load average %s at "
                "the end.%s\n\n",
                args.rounds, args.queries, first_line_of("/proc/cpuinfo", "model name").c_str(),
                static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN)), load.c_str(), ratio_note);
  }
  std::printf("| map | queries |");
  for (int p = 0; p < kPlanners; ++p)
    if (args.use[p]) std::printf(" %s |", kPlannerTitles[p]);
  std::printf("\n|---|---:|");
  for (int p = 0; p < kPlanners; ++p)
    if (args.use[p]) std::printf("---:|");
  std::printf("\n");
  std::string notes;
  for (const Row& r : rows) {
    std::printf("| %s | %zu |", r.map.c_str(), r.queries);
    for (int p = 0; p < kPlanners; ++p) {
      if (!args.use[p]) continue;
      if (!r.measured[p]) {
        std::printf(" - |");
        if (p == kDetour) notes += "- " + r.map + ": the mesh is too large for Detour's 16-bit indices.\n";
        continue;
      }
      std::string cell = fmt_us(r.us[p]);
      if (auto it = base.find({r.map, kPlannerNames[p]}); it != base.end()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " (%.2f)", r.us[p] / it->second.us);
        cell += buf;
        if (it->second.queries != r.queries) {
          cell += " !";
          notes += "! " + r.map + ", " + kPlannerTitles[p] + ": the baseline timed " +
                   std::to_string(it->second.queries) + " queries, this run " + std::to_string(r.queries) + ".\n";
        }
      }
      if (r.failed[p] > 0) {
        cell += " *";
        notes += "* " + r.map + ", " + kPlannerTitles[p] + ": " + std::to_string(r.failed[p]) + " of " +
                 std::to_string(r.queries) + " queries not answered.\n";
      }
      std::printf(" %s |", cell.c_str());
    }
    std::printf("\n");
  }
  if (!notes.empty()) std::printf("\n%s", notes.c_str());
}

/// FNV-1a over the bit patterns of lengths: equal checksums mean bit-identical lengths.
struct Checksum {
  uint64_t h = 1469598103934665603ull;
  void add(double v) {
    const uint64_t b = std::bit_cast<uint64_t>(v);
    for (int i = 0; i < 8; ++i) h = (h ^ ((b >> (8 * i)) & 0xffu)) * 1099511628211ull;
  }
};

/// Lengths rounded to 1e-9 (far above rounding noise, far below any real difference), for a
/// checksum that does not depend on the order in which a path's runs were summed.
int64_t nano(double v) { return v < 0.0 ? -1 : std::llround(v * 1e9); }

/// Every problem of every scenario file with A* and JPS (--planners astar,jps picks): lengths
/// against the files' optima (the tolerance of tests/test_scenarios.cpp) and checksums of the
/// lengths per planner, of their bits and of their values rounded to 1e-9.
int run_lengths(const Args& args) {
  const std::vector<std::string> maps = args.maps.empty() ? all_maps() : args.maps;
  const bool use[2] = {args.use[kAstar], args.use[kJps]};
  size_t total = 0, bad = 0;
  Checksum all[2], all_round[2];
  std::ofstream dump;
  if (!args.dump.empty()) {
    dump.open(args.dump);
    if (!dump) usage_error("cannot write '" + args.dump + "'");
    dump.precision(17);
  }
  std::printf("| map | problems | A* bits | A* 1e-9 | JPS bits | JPS 1e-9 | mismatches |\n"
              "|---|---:|---|---|---|---|---:|\n");
  auto hex = [](const Checksum& c) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(c.h));
    return std::string(buf);
  };
  for (const std::string& name : maps) {
    const MapData md = load_map(name);
    GridPathfinder pf(md.grid);
    Checksum c[2], cr[2];
    size_t mismatches = 0;
    for (const Scenario& s : md.scen) {
      const double tol = 1e-5 * std::max(1.0, s.optimal_length) + 1e-6;
      double len[2] = {-1.0, -1.0};
      for (int k = 0; k < 2; ++k) {
        if (!use[k]) continue;
        auto r = pf.find_path(k == 0 ? GridPlanner::astar : GridPlanner::jps, s.start, s.goal);
        len[k] = r && r->found ? r->length : -1.0;
        mismatches += std::abs(len[k] - s.optimal_length) > tol;
        c[k].add(len[k]), all[k].add(len[k]);
        cr[k].add(static_cast<double>(nano(len[k]))), all_round[k].add(static_cast<double>(nano(len[k])));
      }
      if (dump) dump << name << ' ' << s.line << ' ' << len[0] << ' ' << len[1] << '\n';
    }
    std::printf("| %s | %zu | %s | %s | %s | %s | %zu |\n", name.c_str(), md.scen.size(), hex(c[0]).c_str(),
                hex(cr[0]).c_str(), hex(c[1]).c_str(), hex(cr[1]).c_str(), mismatches);
    std::fflush(stdout);
    total += md.scen.size();
    bad += mismatches;
  }
  std::printf("| all | %zu | %s | %s | %s | %s | %zu |\n", total, hex(all[0]).c_str(), hex(all_round[0]).c_str(),
              hex(all[1]).c_str(), hex(all_round[1]).c_str(), bad);
  return bad == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Args args = parse_args(argc, argv);
  if (args.lengths) return run_lengths(args);
  const Baseline base = args.baseline.empty() ? Baseline{} : read_baseline(args.baseline);
  std::vector<Row> rows;
  if (!args.load.empty()) {
    rows = load_rows(args.load, args);
  } else {
    for (const std::string& m : args.maps.empty() ? all_maps() : args.maps) {
      rows.push_back(measure_map(m, args));
      if (!args.save.empty()) save_csv(args.save, rows, args.rounds);  // after each map: a long run keeps what it has
    }
  }
  print_table(rows, args, base);
  return 0;
}
