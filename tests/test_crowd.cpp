// The crowd (crowd.hpp) on the scenarios: no two bodies closer than 0.95 x the sum of
// their radii in any step, no wall overlap, no unit under a moving obstacle, every unit
// arrives, and the same bytes twice.

#include <doctest/doctest.h>

#include "crowd_support.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

void check_scenario(const CrowdScenario& sc) {
  CAPTURE(sc.name);
  const CrowdOutcome a = run_crowd(sc);
  for (size_t i = 0; i < a.why.size(); ++i) {
    CAPTURE(i);
    CHECK(a.why[i] == "");
  }
  CHECK(a.all_arrived);
  CHECK(a.worst_ratio >= 0.95);
  CHECK(a.worst_wall == 0.0);
  CHECK(a.worst_mover >= 0.0);
  CHECK(a.metrics.min_separation_ratio >= 0.95);
  MESSAGE(sc.name << ": t " << a.time << " ratio " << a.worst_ratio << " stuck " << a.metrics.stuck_steps
                  << " replans " << a.metrics.replans << " wall contacts " << a.metrics.wall_contacts);
  const CrowdOutcome b = run_crowd(sc);
  CHECK(a.bytes == b.bytes);
}

}  // namespace

TEST_CASE("crowd: two units head-on in the open") { check_scenario(head_on_open()); }
TEST_CASE("crowd: head-on in a corridor") { check_scenario(head_on_corridor()); }
TEST_CASE("crowd: crossing at right angles, people and vehicles") { check_scenario(crossing()); }
TEST_CASE("crowd: a doorway with a queue to a shared goal") { check_scenario(doorway_queue()); }
TEST_CASE("crowd: circle swap of ten mixed units") { check_scenario(circle_swap(10)); }
TEST_CASE("crowd: a door closing in front of a unit") { check_scenario(door_closes()); }
TEST_CASE("crowd: a truck crossing a crowd") { check_scenario(truck_crossing()); }
