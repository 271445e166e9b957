// The events of a recorded run (plan/run_events.hpp) and why a unit moves as it does
// (Crowd::explain): found in known crowd scenes, the same for the same run however it was
// recorded, and explain() neither changes the run nor reports constraints other than the
// step's own.

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/run_events.hpp"
#include "pathlab/plan/scene.hpp"
#include "pathlab/plan/unit_input.hpp"

using namespace pathlab;
using plan::RunEvent;
using plan::RunEventKind;

namespace {

io::Scene crowd_scene(const std::string& name) {
  auto s = plan::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/" + name + ".json");
  REQUIRE_MESSAGE(s.ok(), (s.ok() ? "" : s.error().message));
  return *s;
}

std::vector<RunEvent> of_kind(const std::vector<RunEvent>& events, RunEventKind k) {
  std::vector<RunEvent> out;
  std::copy_if(events.begin(), events.end(), std::back_inserter(out), [&](const RunEvent& e) { return e.kind == k; });
  return out;
}

plan::Recording record(const io::Scene& scene, int steps, const std::vector<io::UnitInput>& inputs = {}) {
  auto r = plan::Recording::start(scene);
  REQUIRE(r.ok());
  for (int s = 0; s < steps; ++s) {
    for (const io::UnitInput& in : inputs)
      if (in.step == s) CHECK(r->input(in).empty());
    r->step();
  }
  return std::move(*r);
}

/// The (sorted) ids of the units whose `flag` turned on in `step`, from a plain run of `scene`.
template <class Flag>
std::vector<std::vector<int>> turned_on(const io::Scene& scene, int steps, Flag flag) {
  auto su = plan::build_scene_units(scene);
  REQUIRE(su.ok());
  std::vector<std::vector<int>> out(static_cast<size_t>(steps) + 1);
  std::vector<bool> before(static_cast<size_t>(su->crowd->agent_count()), false);
  for (int s = 1; s <= steps; ++s) {
    su->crowd->step();
    for (int i = 0; i < su->crowd->agent_count(); ++i) {
      const bool now = flag(su->crowd->state(i));
      if (now && !before[static_cast<size_t>(i)]) out[static_cast<size_t>(s)].push_back(i);
      before[static_cast<size_t>(i)] = now;
    }
  }
  return out;
}

/// The step after which door-closing's door (toggled at 1.5 s) is closed: the first step
/// starting at or after 1.5 s, counted from 1.
int64_t door_step(double dt) {
  int64_t k = 0;
  while (static_cast<double>(k) * dt < 1.5) ++k;
  return k + 1;
}

}  // namespace

TEST_CASE("events: a scheduled door closing is one event, and the units walking to it re-plan because of it") {
  const io::Scene scene = crowd_scene("door-closing");
  const plan::Recording r = record(scene, 180);
  const auto& events = r.events().events();
  const auto doors = of_kind(events, RunEventKind::door);
  REQUIRE(doors.size() == 1);
  const RunEvent& d = doors[0];
  CHECK(d.unit == -1);
  CHECK(d.other == 0);
  CHECK(d.from == static_cast<uint8_t>(DoorState::open));
  CHECK(d.detail == static_cast<uint8_t>(DoorState::closed));
  // Its schedule says 1.5 s: the step that starts at or after it closes it, seen after that step.
  CHECK(d.step == door_step(r.crowd().dt()));
  // Both people were on their way through it: each re-plans in that very step, for the door.
  for (int unit : {0, 1}) {
    const auto it = std::find_if(events.begin(), events.end(), [&](const RunEvent& e) {
      return e.kind == RunEventKind::replan && e.unit == unit && e.step == d.step;
    });
    REQUIRE_MESSAGE(it != events.end(), "unit " << unit);
    CHECK(it->detail == static_cast<uint8_t>(CrowdReplanCause::door));
    CHECK(plan::describe(*it) == "door toggled");
  }
  // Events are kept in step order.
  CHECK(std::is_sorted(events.begin(), events.end(), [](const RunEvent& a, const RunEvent& b) { return a.step < b.step; }));
}

TEST_CASE("events: edits are events at their step; a send re-plans its unit for its new goal in the next step") {
  const io::Scene scene = crowd_scene("door-closing");
  const std::vector<io::UnitInput> inputs = {{30, io::DoorInput{0}}, {60, io::SendInput{{1}, Vec2(2.5, 3.5), std::nullopt}}};
  const plan::Recording r = record(scene, 120, inputs);
  const auto& events = r.events().events();
  const auto edits = of_kind(events, RunEventKind::edit);
  REQUIRE(edits.size() == 2);
  CHECK(edits[0].step == 30);
  CHECK(plan::describe(edits[0]) == "door 0 clicked");
  CHECK(edits[1].step == 60);
  CHECK(edits[1].unit == 1);
  CHECK(plan::describe(edits[1]) == "send 1 unit(s)");
  // The click closes the open door (nobody stands in it at 0.5 s): seen after the next step.
  const auto doors = of_kind(events, RunEventKind::door);
  REQUIRE(!doors.empty());
  CHECK(doors[0].step == 31);
  CHECK(doors[0].detail == static_cast<uint8_t>(DoorState::closed));
  const auto sent = std::find_if(events.begin(), events.end(), [](const RunEvent& e) {
    return e.kind == RunEventKind::replan && e.unit == 1 && e.step == 61;
  });
  REQUIRE(sent != events.end());
  CHECK(sent->detail == static_cast<uint8_t>(CrowdReplanCause::new_goal));
}

TEST_CASE("events: at a one-cell doorway, stuck and giving-way events are exactly where the units' states turn on") {
  const io::Scene scene = crowd_scene("doorway");
  constexpr int kSteps = 1800;
  const plan::Recording r = record(scene, kSteps);
  const auto stuck = turned_on(scene, kSteps, [](const CrowdAgentState& s) { return s.stuck; });
  const auto yielding = turned_on(scene, kSteps, [](const CrowdAgentState& s) { return s.yielding; });
  auto check_kind = [&](RunEventKind kind, const std::vector<std::vector<int>>& want) {
    std::vector<std::vector<int>> got(want.size());
    for (const RunEvent& e : of_kind(r.events().events(), kind)) got[static_cast<size_t>(e.step)].push_back(e.unit);
    CHECK(got == want);
    size_t n = 0;
    for (const auto& w : want) n += w.size();
    return n;
  };
  CHECK(check_kind(RunEventKind::stuck, stuck) > 0);
  CHECK(check_kind(RunEventKind::giving_way, yielding) > 0);
  // A unit that becomes stuck is resolved by a re-plan within stuck_time's round: some re-plan
  // says why (stuck, a detour round units, or another slot).
  const auto replans = of_kind(r.events().events(), RunEventKind::replan);
  CHECK(std::any_of(replans.begin(), replans.end(), [](const RunEvent& e) {
    const auto c = static_cast<CrowdReplanCause>(e.detail);
    return c == CrowdReplanCause::stuck || c == CrowdReplanCause::detour || c == CrowdReplanCause::slot;
  }));
}

TEST_CASE("events: the same run gives the same events, recorded twice, re-simulated after a seek, or branched") {
  const io::Scene scene = crowd_scene("doorway");
  const std::vector<io::UnitInput> inputs = {{150, io::SendInput{{0, 2}, Vec2(3.0, 2.5), std::nullopt}}};
  const plan::Recording a = record(scene, 400, inputs);
  plan::Recording b = record(scene, 400, inputs);
  const auto want = a.events().events();
  // Events that begin and end with a unit's per-step flags (contacts, stuck, giving way): the
  // flags matter. (Contacts alone were 4 or more until units jammed in a doorway asked for way
  // sooner, crowd_stuck.cpp: the doorway's persons then touched no one in these 400 steps.)
  const size_t flagged = of_kind(want, RunEventKind::collision).size() + of_kind(want, RunEventKind::stuck).size() +
                         of_kind(want, RunEventKind::giving_way).size();
  MESSAGE("contacts " << of_kind(want, RunEventKind::collision).size() << ", stuck " << of_kind(want, RunEventKind::stuck).size()
                      << ", giving way " << of_kind(want, RunEventKind::giving_way).size());
  CHECK(flagged > 3);
  CHECK(of_kind(want, RunEventKind::edit).size() == 1);
  CHECK(b.events().events() == want);
  CHECK(b.events().dropped() == 0);
  // Seeking back and playing the recorded run again finds nothing new.
  REQUIRE(b.seek(123).ok());
  for (int s = 123; s < 400; ++s) b.step();
  CHECK(b.events().events() == want);
  // A recording without the send, sought back to 150 and sent there: the first recording's events.
  plan::Recording c = record(scene, 300);
  REQUIRE(c.seek(150).ok());
  CHECK(c.input(inputs[0]).empty());
  CHECK(std::none_of(c.events().events().begin(), c.events().events().end(),
                     [](const RunEvent& e) { return e.step > 150; }));  // the old future's are dropped
  for (int s = 150; s < 400; ++s) c.step();
  CHECK(c.events().events() == want);
}

TEST_CASE("events: a contact is one event when it begins, not one per step it lasts") {
  // bench512's corner jam: units pressed against each other (once walls too) for several steps
  // in a row (since units give way sooner, the small crowd scenes' contacts last one step each).
  auto loaded = plan::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/bench512.json");
  REQUIRE(loaded.ok());
  const io::Scene& scene = *loaded;
  const int steps_run = 600;
  const plan::Recording r = record(scene, steps_run);
  const auto& events = r.events().events();
  // The contacts from a plain run: steps whose move was shortened (the unit's counter grew),
  // and runs of such steps.
  auto su = plan::build_scene_units(scene);
  REQUIRE(su.ok());
  struct Count {
    size_t runs = 0, steps = 0;
    std::vector<int> before;
    std::vector<bool> touching;
    void add(size_t i, int now) {
      const bool t = now > before[i];
      runs += t && !touching[i] ? 1 : 0;
      steps += t ? 1 : 0;
      touching[i] = t;
      before[i] = now;
    }
  };
  const size_t n = static_cast<size_t>(su->crowd->agent_count());
  Count units{0, 0, std::vector<int>(n, 0), std::vector<bool>(n, false)}, walls = units;
  for (int s = 0; s < steps_run; ++s) {
    su->crowd->step();
    for (size_t i = 0; i < n; ++i) {
      units.add(i, su->crowd->metrics(static_cast<int>(i)).unit_contacts);
      walls.add(i, su->crowd->metrics(static_cast<int>(i)).wall_contacts);
    }
  }
  MESSAGE("unit contacts " << units.runs << " runs over " << units.steps << " steps; wall contacts " << walls.runs
                           << " runs over " << walls.steps << " steps");
  // Some contacts last more than a step. Since vehicles that hold each other up take turns
  // (a right of way, crowd_track.cpp), bench512's first 10 s have no wall contact left: the
  // unit contacts carry the check; a wall contact goes through the same test in run_events.cpp.
  CHECK(units.steps > units.runs);
  CHECK(walls.steps >= walls.runs);
  size_t unit_events = 0;
  for (const RunEvent& e : of_kind(events, RunEventKind::collision)) unit_events += e.detail == 0 ? 1 : 0;
  CHECK(unit_events == units.runs);
  CHECK(of_kind(events, RunEventKind::wall_contact).size() == walls.runs);
  // Each contact event begins a run of shortened moves: never two in consecutive steps.
  for (RunEventKind k : {RunEventKind::collision, RunEventKind::wall_contact}) {
    auto c = of_kind(events, k);
    for (size_t i = 1; i < c.size(); ++i)
      if (c[i].unit == c[i - 1].unit && c[i].detail == 0 && c[i - 1].detail == 0) CHECK(c[i].step > c[i - 1].step + 1);
  }
  // Bodies never overlap in this run (the move check): no overlap events.
  CHECK(std::none_of(events.begin(), events.end(),
                     [](const RunEvent& e) { return e.kind == RunEventKind::collision && e.detail == 1; }));
}

TEST_CASE("events: past the cap, later events are counted, not kept; a seek back and edit forgets the dropped ones too") {
  const io::Scene scene = crowd_scene("doorway");
  plan::RecordOptions o;
  o.event_cap = 5;
  auto r = plan::Recording::start(scene, o);
  REQUIRE(r.ok());
  for (int s = 0; s < 1800; ++s) r->step();
  CHECK(r->events().events().size() == 5);
  const size_t dropped = r->events().dropped();
  CHECK(dropped > 0);
  const int64_t last_kept = r->events().events().back().step;
  REQUIRE(r->seek(last_kept).ok());
  CHECK(r->input(io::UnitInput{0, io::DoorInput{99}}).find("door") != std::string::npos);  // no such door: said so
  CHECK(r->events().dropped() < dropped);
}

TEST_CASE("explain: the crowd's next state is the same bytes, and the constraints are the step's own") {
  const io::Scene scene = crowd_scene("corridor-head-on");
  auto su = plan::build_scene_units(scene);
  REQUIRE(su.ok());
  auto twin = plan::build_scene_units(scene);
  REQUIRE(twin.ok());
  int with_units = 0;
  for (int s = 0; s < 240; ++s) {
    std::vector<CrowdExplanation> why;
    for (int i = 0; i < su->crowd->agent_count(); ++i) {
      auto e = plan::explain_unit(*su, i);
      REQUIRE(e.ok());
      CHECK(e->step == su->crowd->step_count() + 1);
      why.push_back(std::move(*e));
    }
    su->crowd->step();
    twin->crowd->step();
    REQUIRE(plan::crowd_state_hash(*su->crowd) == plan::crowd_state_hash(*twin->crowd));
    for (int i = 0; i < su->crowd->agent_count(); ++i) {
      const CrowdExplanation& e = why[static_cast<size_t>(i)];
      const CrowdAgentState& st = su->crowd->state(i);
      // The step chose exactly what the explanation's program chose: the same lines.
      CHECK(e.chosen_velocity.x == st.avoidance_velocity.x);
      CHECK(e.chosen_velocity.y == st.avoidance_velocity.y);
      CHECK(e.preferred_velocity.x == st.preferred_velocity.x);
      CHECK(e.preferred_velocity.y == st.preferred_velocity.y);
      CHECK(e.neighbors == st.neighbors);
      CHECK(glm::length(e.chosen_velocity) <= e.max_speed + 1e-9);
      bool unit_line = false;
      for (const CrowdOrcaConstraint& c : e.constraints) {
        const double off = cross(c.direction, c.point - e.chosen_velocity);
        // Walls are never relaxed (1e-9 cells/s: the LP's rounding); units' lines only when
        // they cannot all be met, by no more than the reported worst.
        if (c.hard) CHECK(off <= 1e-9);
        CHECK(off <= e.worst_violation + 1e-12);
        if (c.source == CrowdOrcaConstraint::Source::unit) {
          unit_line = true;
          CHECK(std::find(e.neighbors.begin(), e.neighbors.end(), c.other) != e.neighbors.end());
        }
      }
      if (unit_line && e.worst_violation == 0.0) ++with_units;
      CHECK(!e.mode.empty());
      CHECK(!e.decision.empty());
    }
  }
  CHECK(with_units > 100);  // the check above met many units constrained by others
}

TEST_CASE("explain: an unknown unit is an error naming it; the routing's records are not touched") {
  const io::Scene scene = crowd_scene("door-closing");
  auto su = plan::build_scene_units(scene);
  REQUIRE(su.ok());
  auto bad = plan::explain_unit(*su, 7);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("agent 7") != std::string::npos);
  while (su->crowd->step_count() + 1 < door_step(su->crowd->dt())) su->crowd->step();
  // The next step closes the door: the copy re-plans both units, the real routing does not.
  const int asked = su->routing->records[0].asked;
  const int replans = su->crowd->metrics(0).replans;
  auto e = plan::explain_unit(*su, 0);
  REQUIRE(e.ok());
  CHECK(su->routing->records[0].asked == asked);
  CHECK(su->crowd->metrics(0).replans == replans);
  su->crowd->step();  // for real: the door closes and unit 0 re-plans, through the routing
  CHECK(su->crowd->door_state(0) == DoorState::closed);
  CHECK(su->crowd->metrics(0).replans == replans + 1);
  CHECK(su->routing->records[0].asked > asked);
}
