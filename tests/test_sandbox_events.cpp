// The sandbox's events and "why" (issue 25): the Events section lists the recorded run's
// events; a click on one shows its moment and selects its unit; the Why section and the canvas
// explain the selected unit. Headless screenshots (PATHLAB_TEST_SHOTS) at 100% UI scale.

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "pathlab/io/map_files.hpp"
#include "sandbox_ui.hpp"

using namespace pathlab;
using plan::RunEvent;
using plan::RunEventKind;
using sandbox::UnitSwarm;

namespace {

void shot(test::SandboxUi& ui, const std::string& name) {
  std::vector<uint8_t> px;
  ui.host->frame([](ImGuiIO& io) { io.MousePos = ImVec2(-1, -1); }, &px);
  if (const char* dir = std::getenv("PATHLAB_TEST_SHOTS"))
    (void)io::write_png_rgba(std::string(dir) + "/" + name + ".png", ui.host->width(), ui.host->height(), px.data());
}

/// Scrolls the side panel until the control `name` is on screen (the Events and Why sections
/// are below the others). False when it never shows.
bool scroll_to(test::SandboxUi& ui, const std::string& name) {
  const float panel_x = static_cast<float>(ui.host->width()) - 40.0f;
  for (int k = 0; k < 40; ++k) {
    const auto r = ui.sb().widget_rect(name);
    if (r.second.x > r.first.x && r.first.y >= 0.0f && r.second.y <= static_cast<float>(ui.host->height()) - 20.0f)
      return true;
    ui.host->frame([&](ImGuiIO& io) {
      io.MousePos = ImVec2(panel_x, 300.0f);
      io.MouseWheel = -2.0f;
    });
  }
  return false;
}

}  // namespace

TEST_CASE("events list: a click on an event shows its moment and selects its unit; Why explains it") {
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/door-closing.json");
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 0);
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  for (int s = 0; s < 150; ++s) u.step(ui.sb().scene());
  const plan::Recording* rec = u.recording();
  REQUIRE(rec != nullptr);
  const auto& events = rec->events().events();
  // The door's re-plan of unit 1: listed (re-plans are shown at first), with a unit.
  const auto it = std::find_if(events.begin(), events.end(), [](const RunEvent& e) {
    return e.kind == RunEventKind::replan && e.unit == 1 && e.detail == static_cast<uint8_t>(CrowdReplanCause::door);
  });
  REQUIRE(it != events.end());
  const size_t index = static_cast<size_t>(it - events.begin());
  const std::string row = "event " + std::to_string(index);
  ui.idle(2);
  REQUIRE_MESSAGE(scroll_to(ui, row), "the event's row never showed");
  CHECK(rec->step_index() == 150);
  CHECK(u.selection().empty());
  ui.click_widget(row);
  CHECK(rec->step_index() == it->step);
  CHECK(u.selection() == std::vector<int>{1});
  CHECK_FALSE(u.playing());
  ui.idle(1);
  REQUIRE(scroll_to(ui, row));
  shot(ui, "events_list_100");
  // The Why section shows the unit at that moment; the canvas draws its constraints.
  ui.idle(2);
  REQUIRE(scroll_to(ui, "why"));
  const CrowdExplanation* why = u.why(1);
  REQUIRE(why != nullptr);
  CHECK(why->step == it->step + 1);
  shot(ui, "events_why_100");

  SUBCASE("the filter hides a kind from the list") {
    REQUIRE(scroll_to(ui, "show re-plan"));
    ui.click_widget("show re-plan");
    CHECK_FALSE(ui.sb().event_filter().shows(RunEventKind::replan));
    ui.idle(1);
    const auto r = ui.sb().widget_rect(row);
    CHECK(r.second.x <= r.first.x);  // its row is gone
  }
}

TEST_CASE("why: the garbage truck scene, a person held back by the truck, at 100% UI scale") {
  auto scene = io::load_scene(std::string(PATHLAB_ASSETS_DIR) + "/scenes/crowds/garbage-truck.json");
  REQUIRE(scene.ok());
  test::SandboxUi ui(*scene, 0);
  UnitSwarm& u = ui.sb().units();
  u.set_playing(false);
  u.reset(ui.sb().scene());
  // The first moment a person's velocity is bent by the truck: a truck constraint it breaks.
  int who = -1;
  for (int s = 0; s < 900 && who < 0; ++s) {
    u.step(ui.sb().scene());
    for (int i = 0; i < u.count() && who < 0; ++i) {
      const CrowdExplanation* e = u.why(i);
      REQUIRE(e != nullptr);
      for (const CrowdOrcaConstraint& c : e->constraints)
        if (c.source == CrowdOrcaConstraint::Source::obstacle &&
            cross(c.direction, c.point - e->preferred_velocity) > 0.1)
          who = i;
    }
  }
  REQUIRE(who >= 0);
  u.select_none();
  u.select(who, true);
  const CrowdExplanation* why = u.why(who);
  REQUIRE(why != nullptr);
  CHECK(why->decision.find("a truck") != std::string::npos);
  ui.idle(2);
  REQUIRE(scroll_to(ui, "why"));
  shot(ui, "why_garbage_truck_100");
}
