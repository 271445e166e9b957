// A game's use of pathlab through its installed CMake package (ctest: install_consumer): load a
// designer's scene, plan it through the planning service exactly as `pathlab-cli plan --map
// SCENE.json` does, print the plan, and drive one unit along it with the core simulation.
// run.sh compares the printed plan with the CLI's JSON on the same file.
//
// Usage: consumer SCENE.json [PRESET]   (PRESET: a core unit preset, default "person")
// Prints:
//   found: yes|no
//   length: L                 (full precision, %.17g)
//   points: N
//   point: X Y [DEG]          (N lines; DEG for heading-aware plans)
//   unit: PRESET arrived: yes time_to_goal: T | unit: PRESET arrived: no after: T
#include <cstdio>
#include <string>

#include <pathlab/pathlab.hpp>
#include <pathlab/plan/plan_service.hpp>
#include <pathlab/plan/scene.hpp>

namespace {

/// Longest simulated time before the unit counts as not arrived. [Units: s]
constexpr double kMaxSimulatedTime = 600.0;

int fail(const std::string& message) {
  std::fprintf(stderr, "consumer: %s\n", message.c_str());
  return 1;
}

void print_plan(const pathlab::plan::PlanResult& plan, bool headings) {
  std::printf("found: %s\nlength: %.17g\npoints: %zu\n", plan.found ? "yes" : "no", plan.length, plan.points.size());
  for (size_t i = 0; i < plan.points.size(); ++i) {
    std::printf("point: %.17g %.17g", plan.points[i].x, plan.points[i].y);
    if (headings && i < plan.headings.size()) std::printf(" %.17g", pathlab::rad_to_deg(plan.headings[i]));
    std::printf("\n");
  }
}

/// One unit of `preset` from the plan's first point to its last, stepped at the default 60 Hz.
int simulate(const pathlab::Grid& grid, const pathlab::plan::PlanResult& plan, const std::string& preset) {
  auto unit = pathlab::unit_preset(preset);
  if (!unit) return fail(unit.error().message);
  auto path = pathlab::FollowPath::from_polyline(plan.points);
  if (!path) return fail(path.error().message);
  auto sim = pathlab::Simulation::create(grid);
  if (!sim) return fail(sim.error().message);
  auto id = sim->add_unit(*unit, std::move(*path));
  if (!id) return fail(id.error().message);
  while (!sim->state(*id).arrived && sim->time() < kMaxSimulatedTime) sim->step();
  const pathlab::RunMetrics& m = sim->metrics(*id);
  if (m.time_to_goal) std::printf("unit: %s arrived: yes time_to_goal: %.17g\n", preset.c_str(), *m.time_to_goal);
  else std::printf("unit: %s arrived: no after: %.17g\n", preset.c_str(), sim->time());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) return fail("usage: consumer SCENE.json [PRESET]");
  const std::string preset = argc == 3 ? argv[2] : "person";
  // The scene with the registry's names check (an unknown planner is refused at its line).
  auto scene = pathlab::plan::load_scene(argv[1]);
  if (!scene) return fail(scene.error().message);
  // What `pathlab-cli plan --map SCENE.json` asks of the service.
  auto request = pathlab::plan::scene_request(*scene);
  if (!request) return fail(request.error().message);
  pathlab::plan::PlanService service;  // keep it for the map's next plans: it keeps their preprocessing
  // The scene's map with its doors shut at t = 0 as walls, as the CLI and the sandbox plan it.
  const pathlab::plan::PlanResult plan = service.plan(pathlab::plan::scene_grid(*scene), *request);
  if (!plan.error.empty()) return fail(plan.error);
  print_plan(plan, request->start_has_heading);
  if (!plan.found || plan.points.size() < 2) return 0;
  return simulate(scene->grid, plan, preset);
}
