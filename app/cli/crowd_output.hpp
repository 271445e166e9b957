#pragma once
// What `pathlab-cli crowd` prints, shared with `replay` so a replay prints frames as crowd
// does: JSON Lines (a header, frames, a summary) or a human summary. Degrees at this boundary.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pathlab/crowd.hpp"

namespace pathlab::cli {

/// {"agents": [{"preset", "radius", "max_speed", "goal"}, ...], "dt"}; `presets` per agent.
nlohmann::ordered_json header_json(const Crowd& crowd, const std::vector<std::string>& presets);
/// {"t": t, "pos": [[x, y, deg, speed], ...]}: every unit at time `t` [Units: s].
nlohmann::ordered_json frame_json(const Crowd& crowd, double t);
/// {"summary": {...}}: arrivals, times to goal, separation, contacts, locks, why not arrived.
nlohmann::ordered_json summary_json(const Crowd& crowd);
/// The summary for people, at time `t` [Units: s].
void print_human(const Crowd& crowd, double t);

}  // namespace pathlab::cli
