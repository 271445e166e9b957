// Flow fields in the crowd: the units of a large group bound for one goal cell (at least
// CrowdDef::flow_field_units persons of one radius class) take their routes from one shared
// distance field instead of a route search each (Emerson, "Crowd Pathfinding and Steering
// Using Flow Field Tiles", Game AI Pro, 2013). The route is the field's way downhill from the
// unit, smoothed by line of sight, then to the unit's own target (its goal or slot); it is a
// route like any other, so waypoints, slots, doors, traffic marks and stuck handling work on it
// unchanged. Units that cannot sidestep (a turning radius, a slow pivot) keep their own routes,
// and so do detours round units standing in the way and the last stretch to a slot near the
// goal (both need the units around, which a shared field does not hold).

#include <algorithm>
#include <cmath>
#include <string>

#include "crowd/crowd_impl.hpp"
#include "pathlab/crowd_flow_field.hpp"

namespace pathlab {
namespace {

/// The field's direction more than 45 degrees off the way to the unit's next corner leads another way.
constexpr double kAnotherWayCos = 0.7071;
/// Only this near its target (the route left) does a stuck unit ask its field for another way;
/// farther, its detour round the units in the way rejoins its route (detour_rest's kDetourFar). [Units: cells]
constexpr double kAnotherWayWithin = 96.0;
/// A stuck unit this near its route's next corner keeps its way (its doorway): turned back in a
/// doorway's mouth it would walk against the queue behind it. [Units: cells]
constexpr double kKeepWayNear = 6.0;

}  // namespace

namespace crowd {

double FlowFields::class_radius(double radius) {
  if (radius <= 0.5) return 0.5;
  return std::ceil(radius * 4.0) / 4.0;
}

void FlowFields::sync(const Grid& grid, const GridStamp& stamp, const ForEach& for_each, bool spread) {
  if (stamp == stamp_ || beside_) return;  // beside a repair's share: nothing may change (see set_beside)
  // Only the queues taken afresh: the fields may see them a few steps late (a spread repair).
  // A door that changed must be seen at once (a field must never lead through a shut door).
  const bool queues_only = stamp.doors_open == stamp_.doors_open && !entries_.empty() && seen_.size() == grid.costs().size();
  if (spread && queues_only) {
    start_repair(grid);
  } else {
    repair_now(grid, for_each);  // a spread repair under way ends here, its cells repaired too
    repair_ = Repair{};
  }
  stamp_ = stamp;
}

const FlowField* FlowFields::get(const Grid& grid, Cell goal, double radius) {
  ++uses_;
  for (Entry& e : entries_) {
    if (e.goal == goal && e.radius == radius) {
      e.used = uses_;
      return &e.field;
    }
  }
  auto field = build_shared(grid, goal, radius);
  if (!field) return nullptr;
  ++version_;
  make_room();
  if (seen_.empty()) seen_ = grid.costs();
  entries_.push_back(Entry{goal, radius, std::move(*field), uses_, ++serials_});
  return &entries_.back().field;
}

void FlowFields::replace(Cell goal, double radius, std::optional<FlowField> built) {
  std::erase_if(entries_, [&](const Entry& e) { return e.goal == goal && e.radius == radius; });
  if (!built) return;
  make_room();
  entries_.push_back(Entry{goal, radius, std::move(*built), ++uses_, ++serials_});
}

void FlowFields::make_room() {
  if (entries_.size() < kMaxFields) return;
  entries_.erase(std::min_element(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; }));
}

Result<FlowField> FlowFields::build_towards(const Grid& grid, Cell goal, double radius) {
  FlowFieldDef def = default_flow_field_def();
  def.agent_radius = radius;
  // The crowd's grid has its queues and the band along walls dearer (crowd_queue.cpp): routes
  // read from the field keep out of them where the way does, not pulled back by the smoothing.
  def.sight_within_costs = true;
  const Cell one[] = {goal};
  auto field = FlowField::build(grid, one, def);
  if (!field || field->passable(goal)) return field;
  // A goal by a wall: its cell's centre is too tight for the class's radius; the field then
  // flows to the neighbouring cells that are not (the route's last leg goes to the goal).
  std::vector<Cell> around;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (field->passable(Cell{goal.x + dx, goal.y + dy})) around.push_back(Cell{goal.x + dx, goal.y + dy});
    }
  }
  if (around.empty()) return fail(StatusCode::blocked, "no room for a unit of radius " + std::to_string(radius) + " at the goal");
  return FlowField::build(grid, around, def);
}

void FlowFields::repair_now(const Grid& grid, const ForEach& for_each) {
  const std::vector<float>& now = grid.costs();
  if (entries_.empty() || seen_.size() != now.size()) {
    if (!entries_.empty()) ++version_;
    entries_.clear();  // none yet, or another map: built afresh on use
    seen_ = now;
    return;
  }
  // Under a spread repair (dropped by the caller), some fields are up to date with its grid,
  // not with seen_: the cells where now differs from either are repaired.
  const std::vector<float>& half = repair_.active && repair_.grid.costs().size() == now.size() ? repair_.grid.costs() : seen_;
  std::vector<Cell> changed;
  for (size_t i = 0; i < now.size(); ++i) {
    if (now[i] != seen_[i] || now[i] != half[i]) changed.push_back(Cell{static_cast<int>(i % static_cast<size_t>(grid.width())),
                                                   static_cast<int>(i / static_cast<size_t>(grid.width()))});
  }
  if (changed.empty()) return;
  ++version_;
  // Each field repaired on its own (on the worker threads): once a second the queues' new
  // costs reach upstream of every doorway, and the 8 fields of bench_crowd_scale's groups took
  // 50-100 ms of one step one after the other. A field's repair reads only the grid and the
  // changed cells and writes only the field, so the order does not change the bytes.
  std::vector<uint8_t> repaired(entries_.size(), 0);
  auto repair = [&](int k) {
    Entry& e = entries_[static_cast<size_t>(k)];
    Grid scratch;  // the share's costs are the same before and after: the changed cells are the grid's
    repaired[static_cast<size_t>(k)] = e.field.update(with_share(grid, e.goal, e.radius, scratch), changed) ? 1 : 0;
  };
  const int n = static_cast<int>(entries_.size());
  if (for_each) {
    for_each(n, repair);
  } else {
    for (int k = 0; k < n; ++k) repair(k);
  }
  size_t kept = 0;  // a field that could not be repaired is dropped (built afresh on use)
  for (size_t k = 0; k < entries_.size(); ++k) {
    if (repaired[k] == 0) continue;
    if (kept != k) entries_[kept] = std::move(entries_[k]);
    ++kept;
  }
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(kept), entries_.end());
  seen_ = now;
}

const FlowField* FlowFields::find(Cell goal, double radius) const {
  for (const Entry& e : entries_) {
    if (e.goal == goal && e.radius == radius) return &e.field;
  }
  return nullptr;
}

size_t FlowFields::memory_bytes() const noexcept {
  size_t b = entries_.capacity() * sizeof(Entry) + seen_.capacity() * sizeof(float) + stamp_.doors_open.capacity();
  for (const Entry& e : entries_) b += e.field.memory_bytes();
  b += repair_.grid.costs().capacity() * sizeof(float) + repair_.changed.capacity() * sizeof(Cell) +
       repair_.copies.capacity() * sizeof(Repair::Copy);
  for (const Repair::Copy& c : repair_.copies) b += c.field.memory_bytes();
  b += spare_.memory_bytes() + shares_.capacity() * sizeof(Share);
  for (const Share& s : shares_) b += s.band.capacity() * sizeof(int32_t) + s.density.capacity() * sizeof(s.density[0]);
  return b;
}

}  // namespace crowd

Result<FlowField> goal_flow_field(const Crowd& crowd, CrowdAgentId id) {
  if (id < 0 || id >= crowd.agent_count()) return fail(StatusCode::invalid_argument, "no unit " + std::to_string(id));
  const CrowdAgentDef& a = crowd.agent_def(id);
  return CrowdAccess::impl(crowd).group_field_view(cell_of(a.goal), flow_field_class_radius(a.unit.radius));
}

int64_t goal_flow_field_version(const Crowd& crowd) { return CrowdAccess::impl(crowd).group_fields_version(); }

Result<FlowField> CrowdImpl::group_field_view(Cell goal, double radius) const {
  // What the units read: the kept field, though the grid may have changed since (a door shut
  // while paused): they follow it until their next step takes the change.
  if (const FlowField* kept = flow_fields_.find(goal, radius)) return *kept;
  return flow_fields_.build_shared(grid_, goal, radius);
}

double flow_field_class_radius(double radius) { return crowd::FlowFields::class_radius(radius); }

int CrowdImpl::flow_group_count(const crowd::Agent& a, int limit) const {
  // The persons of one radius class bound for the goal's cell, counted up to `limit`.
  const Cell goal = cell_of(a.def.goal);
  const double radius = crowd::FlowFields::class_radius(a.def.unit.radius);
  int count = 0;
  for (const crowd::GoalGroup& g : groups_) {
    if (!(cell_of(g.goal) == goal)) continue;
    for (int m : g.members) {
      const crowd::Agent& o = agents_[static_cast<size_t>(m)];
      if (!o.holonomic || crowd::FlowFields::class_radius(o.def.unit.radius) != radius) continue;
      if (++count >= limit) return count;
    }
  }
  return count;
}

bool CrowdImpl::flow_group_large(const crowd::Agent& a) const {
  return def_.flow_field_units > 0 && flow_group_count(a, def_.flow_field_units) >= def_.flow_field_units;
}

void CrowdImpl::route_new_large_group(int id) {
  // The unit that made its group large (exactly CrowdDef::flow_field_units persons of its
  // radius class now go to its goal cell): the members that joined before it searched routes of
  // their own while the group was small. They take theirs from the group's field now, so a group
  // sent at once (the sandbox's right-click, the CLI's agents with one goal) is planned once, as
  // one group, on one field: before, the first 31 of a group drove searches of their own,
  // blind to the other groups' routes (flow_field_share.cpp). Not a re-plan: counts stay.
  const crowd::Agent& a = agents_[static_cast<size_t>(id)];
  if (def_.flow_field_units <= 0 || !a.holonomic) return;
  if (flow_group_count(a, def_.flow_field_units + 1) != def_.flow_field_units) return;
  const Cell goal = cell_of(a.def.goal);
  const double radius = crowd::FlowFields::class_radius(a.def.unit.radius);
  for (const crowd::GoalGroup& g : groups_) {
    if (!(cell_of(g.goal) == goal)) continue;
    for (int m : std::vector<int>(g.members)) {  // a copy: plan_route may claim slots, not members
      crowd::Agent& o = agents_[static_cast<size_t>(m)];
      if (m == id || !o.holonomic || o.slot >= 0 || crowd::FlowFields::class_radius(o.def.unit.radius) != radius) continue;
      const int replans = o.m.replans;
      const CrowdReplanCause cause = o.st.replan_cause;
      plan_route(m);
      o.m.replans = replans;
      o.st.replan_cause = cause;
    }
  }
}

bool CrowdImpl::plan_flow_route(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  // A unit with a slot is in the last stretch, among units settled round the goal: its own
  // search routes round them (their cells cost extra, crowd_flow.cpp); the field does not know them.
  if (def_.flow_field_units <= 0 || !a.holonomic || a.slot >= 0 || !flow_group_large(a)) return false;
  const double r = a.def.unit.radius;
  const FlowField* field = group_field(a);
  if (field == nullptr) return false;
  // The route prepare_progress() read on a worker thread, when it asked the same field the same.
  const crowd::FlowSpec& spec = a.flow_spec;
  const bool same = spec.valid && spec.field == field && spec.version == flow_fields_.version() &&
                    spec.from == a.st.pose.pos && spec.to == a.st.target && spec.radius == r;
  std::vector<Vec2> route = same ? std::move(a.flow_spec.route) : field->route(grid_, a.st.pose.pos, a.st.target, r);
  // Its corners kept right as read ahead too, while the traffic answers the same (the
  // passages' probes were most of the progress pass at 10,000 units: 67 re-plans, 10 ms).
  const bool kept = same && !spec.kept.empty() && oncoming_answers_hold(spec.reads);
  std::vector<Vec2> kept_route = kept ? std::move(a.flow_spec.kept) : std::vector<Vec2>{};
  a.flow_spec = crowd::FlowSpec{};
  // No way from here, or the target out of sight of the way's end: the search decides (and
  // says why when it finds nothing either).
  if (route.size() < 2 || route.back() != a.st.target) return false;
  if (kept) {
    a.st.route = std::move(kept_route);
  } else {
    a.st.route = std::move(route);
    keep_right_in_passages(a.st.route, r);
  }
  a.st.route_source = CrowdRouteSource::flow_field;
  a.st.next_waypoint = 1;
  a.st.waiting = false;
  if (!a.gave_up) a.st.why.clear();
  advance_waypoints(a);  // as the next step will: skipping a waypoint is not progress
  index_route(a);
  a.best_remaining = remaining_route(a);
  mark_flow(id);
  return true;
}

const FlowField* CrowdImpl::group_field(const crowd::Agent& a) {
  sync_flow_fields();
  const Cell goal = cell_of(a.def.goal);
  const double radius = crowd::FlowFields::class_radius(a.def.unit.radius);
  if (!flow_fields_.shared(goal, radius)) share_group_routes();  // a group not seen before
  return flow_fields_.get(queue_grid_, goal, radius);
}

void CrowdImpl::sync_flow_fields() {
  // The grid first: taking it afresh (due once a second, or after a door) changes its version.
  // (Stamped with the step instead, every step compared the whole grid's costs with the
  // fields' copy, 0.4-0.6 ms of the serial progress pass at 512x512, to find nothing changed.)
  const Grid& grid = queue_grid();
  crowd::GridStamp stamp;
  stamp.version = queue_version_;
  stamp.doors_open.reserve(doors_.size());
  for (const crowd::Door& d : doors_) stamp.doors_open.push_back(d.open ? 1 : 0);
  // A door's repair runs its fields on the worker threads, one field a chunk; the queues taken
  // afresh are repaired over the next steps (flow_field_spread.cpp).
  auto on_pool = [this](int n, const std::function<void(int)>& item) {
    nested_parallel_phase("field repair", n, [&](int begin, int end, int) {
      for (int k = begin; k < end; ++k) item(k);
    });
  };
  flow_fields_.sync(grid, stamp, on_pool, true);
}

bool CrowdImpl::flow_way_changed(int id) {
  // A unit on its group's field, stuck in a queue: the field, with the queues of the last
  // second dearer (crowd_queue.cpp), may now lead another way (another doorway). Then it takes
  // that way instead of a detour round the units next to it, which only led it back into the
  // same queue. The field's direction where the unit stands (a few cells of its way) tells.
  // Not on a long way: there a detour rejoins the route a few cells on (detour_rest), cheaper
  // than the field's whole route across the map.
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  if (a.st.route_source != CrowdRouteSource::flow_field || a.slot >= 0 || a.st.route.size() < 2) return false;
  const Vec2 pos = a.st.pose.pos;
  const Vec2 to_corner = a.st.route[static_cast<size_t>(std::max(1, a.st.next_waypoint))] - pos;
  const double dist = glm::length(to_corner);
  if (dist < kKeepWayNear) return false;  // at its doorway: it keeps it
  if (remaining_route(a) > kAnotherWayWithin) return false;
  if (def_.flow_field_units <= 0 || !a.holonomic || !flow_group_large(a)) return false;
  const FlowField* field = group_field(a);
  if (field == nullptr) return false;
  const Vec2 dir = field->direction(grid_, pos, a.def.unit.radius);
  return glm::dot(dir, dir) > 0.5 && glm::dot(dir, to_corner / dist) < kAnotherWayCos;
}

void CrowdImpl::speculate_flow_route(crowd::Agent& a) const {
  // As plan_flow_route() would read it, from the fields as they are (no build, no repair: the
  // version tells plan_flow_route whether that still holds). Reads only the map, the fields,
  // the groups and the unit.
  if (def_.flow_field_units <= 0 || !a.holonomic || a.slot >= 0 || !flow_group_large(a)) return;
  const double r = a.def.unit.radius;
  const FlowField* field = flow_fields_.find(cell_of(a.def.goal), crowd::FlowFields::class_radius(r));
  if (field == nullptr) return;
  crowd::FlowSpec& spec = a.flow_spec;
  spec.field = field;
  spec.version = flow_fields_.version();
  spec.from = a.st.pose.pos;
  spec.to = a.st.target;
  spec.radius = r;
  spec.route = field->route(grid_, spec.from, spec.to, r);
  spec.valid = true;
}

}  // namespace pathlab
