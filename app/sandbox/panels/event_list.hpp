#pragma once
// The events of the recorded run (issue 25; plan::RunEvents, in the units' recording): ticks by
// kind over the timeline's slider, and the "Events" section of the side panel listing them
// (time, unit, kind, cause; a filter by kind). A click on an event shows its moment and selects
// its unit. The "Why" section (why_panel.cpp) explains the selected unit at the moment shown.

#include <array>
#include <memory>
#include <vector>

#include <imgui.h>

#include "panels/panel.hpp"
#include "pathlab/plan/run_events.hpp"

namespace pathlab::sandbox {

class Sandbox;

/// Which kinds of event the list and the ticks show (contacts, collisions and wall contacts,
/// are many in a dense crowd: off at first), and the event clicked last.
struct EventFilter {
  std::array<bool, plan::kRunEventKinds> show{true, true, true, true, true, false, false, true};
  size_t picked = static_cast<size_t>(-1);  ///< index in the recording's events; highlighted while its moment is shown
  bool shows(plan::RunEventKind k) const { return show[static_cast<size_t>(k)]; }
};

/// The colour of a kind of event (ticks, the list's kind column).
ImU32 event_colour(plan::RunEventKind kind);

/// Ticks under the slider just drawn (the last item) for the events `filter` shows, in the
/// lower half of its height, one per kind and pixel column at most; `until` is its last step.
void draw_event_ticks(const std::vector<plan::RunEvent>& events, const EventFilter& filter, int64_t until);

/// Shows the moment of event `e` (a seek, paused) and selects its unit (the others deselected).
void go_to_event(Sandbox& sb, const plan::RunEvent& e);

std::unique_ptr<Panel> make_event_panel();  // event_list.cpp: the "Events" section
std::unique_ptr<Panel> make_why_panel();    // why_panel.cpp: the "Why" section

}  // namespace pathlab::sandbox
