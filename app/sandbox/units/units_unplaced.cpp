// The scene's units the swarm cannot place (units.hpp, UnplacedUnit): kept in their places in
// the spawn list, so a save writes the scene's units back as they were, and tried again at
// Reset. Found driving the sandbox: a wall painted over three units' spawn spots, the work
// restored, saved: the file held 25 of its 28 units.

#include "units/units.hpp"

#include <algorithm>

namespace pathlab::sandbox {

std::vector<io::UnitData> UnitSwarm::placed_list() const {
  std::vector<io::UnitData> out;
  out.reserve(units_.size());
  for (const Unit& u : units_) out.push_back(u.data());
  return out;
}

std::vector<io::UnitData> UnitSwarm::spawn_list() const {
  std::vector<io::UnitData> out = placed_list();
  // By index, ascending: each goes where it stood in the list the scene had.
  for (const UnplacedUnit& h : unplaced_) {
    const size_t at = std::min(static_cast<size_t>(h.index), out.size());
    out.insert(out.begin() + static_cast<std::ptrdiff_t>(at), h.data);
  }
  return out;
}

int UnitSwarm::list_index(int id) const {
  int at = id;
  for (const UnplacedUnit& h : unplaced_) {
    if (h.index > at) break;
    ++at;  // a unit not placed stands before it in the list
  }
  return at;
}

bool UnitSwarm::remove_unplaced(size_t k) {
  if (k >= unplaced_.size()) return false;
  unplaced_.erase(unplaced_.begin() + static_cast<std::ptrdiff_t>(k));
  for (size_t j = k; j < unplaced_.size(); ++j) --unplaced_[j].index;  // the list closes up
  return true;
}

void UnitSwarm::keep_unplaced(io::UnitData d, int index, std::string reason) {
  const auto at = std::find_if(unplaced_.begin(), unplaced_.end(), [&](const UnplacedUnit& h) { return h.index > index; });
  unplaced_.insert(at, UnplacedUnit{std::move(d), index, std::move(reason)});
}

std::string UnitSwarm::place_unplaced(const io::Scene& scene, const io::UnitData& d) {
  auto def = io::scene_unit_def(d);
  if (!def) return def.error().message;
  // As plan::build_scene_units (opening the scene, pathlab-cli crowd --scene): a start in a wall
  // or off the map is not nudged out, so Reset places what opening the saved file places.
  const Vec2 p = d.pose.pos;
  if (!is_finite(p) || !scene.grid.contains(p) || scene.grid.is_blocked(cell_of(p).x, cell_of(p).y))
    return "start (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ") is inside a wall or outside the map";
  Unit u{d.preset, *def, d.pose, d.goal, d.turning_radius, "", 0, false};
  auto id = place(scene, u, d.pose);
  if (!id) return id.error().message;
  u.spawn = crowd_->state(*id).pose;  // where it really stands, as load() keeps it
  units_.push_back(std::move(u));
  return "";
}

}  // namespace pathlab::sandbox
