// Recording and replaying a scene's crowd run (recording.hpp): hashes, keyframes, seeking.

#include "pathlab/plan/recording.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <variant>

namespace pathlab::plan {
namespace {

constexpr uint64_t kFnvOffset = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

void fnv(uint64_t& h, double v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  for (int k = 0; k < 8; ++k) {
    h ^= (bits >> (8 * k)) & 0xffu;
    h *= kFnvPrime;
  }
}

/// Feeds one unit's state into both hashes.
void hash_unit(const CrowdAgentState& s, uint64_t& all, uint64_t& own) {
  for (double v : {s.pose.pos.x, s.pose.pos.y, s.pose.heading, s.velocity.x, s.velocity.y, s.speed}) {
    fnv(all, v);
    fnv(own, v);
  }
}

uint32_t fold(uint64_t h) { return static_cast<uint32_t>(h ^ (h >> 32)); }

void hash_dynamic(const Crowd& crowd, uint64_t& h) {
  for (int k = 0; k < crowd.moving_obstacle_count(); ++k) {
    const Pose& p = crowd.moving_obstacle(k).pose;
    for (double v : {p.pos.x, p.pos.y, p.heading}) fnv(h, v);
  }
  for (int d = 0; d < crowd.door_count(); ++d) fnv(h, static_cast<double>(crowd.door_state(d)));
}

/// About the heap bytes of a crowd and its routing (keyframe_bytes): what a keyframe holds.
size_t units_bytes(const SceneUnits& u) {
  size_t b = u.crowd->memory_bytes() + sizeof(UnitRouting) + u.routing->planned_on.costs().capacity() * sizeof(float) +
             u.routing->records.capacity() * sizeof(UnitRouteRecord) + u.routing->failed_on.capacity() * sizeof(int64_t);
  for (const UnitRouteRecord& rec : u.routing->records)
    b += rec.points.capacity() * sizeof(Vec2) + rec.why.capacity() + rec.planner.capacity() + rec.smoother.capacity();
  return b;
}

/// `u` with a copy of its crowd routed by a copy of its routing: a future the same as u's.
SceneUnits copy_units(const SceneUnits& u) {
  SceneUnits c;
  c.presets = u.presets;
  c.scene_index = u.scene_index;
  c.messages = u.messages;
  c.skipped = u.skipped;
  c.goals = u.goals;
  c.step_offset = u.step_offset;
  c.def = u.def;
  c.routing = copy_routing(*u.routing);
  c.crowd.emplace(u.crowd->clone(unit_route_planner(c.routing)));
  return c;
}

}  // namespace

uint64_t crowd_state_hash(const Crowd& crowd) {
  uint64_t all = kFnvOffset;
  for (int i = 0; i < crowd.agent_count(); ++i) {
    uint64_t own = kFnvOffset;
    hash_unit(crowd.state(i), all, own);
  }
  hash_dynamic(crowd, all);
  return all;
}

uint32_t unit_state_hash(const Crowd& crowd, CrowdAgentId id) {
  uint64_t all = kFnvOffset, own = kFnvOffset;
  hash_unit(crowd.state(id), all, own);
  return fold(own);
}

io::StateHash state_hash(const Crowd& crowd, int64_t step) {
  io::StateHash h;
  h.step = step;
  h.state = kFnvOffset;
  h.units.reserve(static_cast<size_t>(crowd.agent_count()));
  for (int i = 0; i < crowd.agent_count(); ++i) {
    uint64_t own = kFnvOffset;
    hash_unit(crowd.state(i), h.state, own);
    h.units.push_back(fold(own));
  }
  hash_dynamic(crowd, h.state);
  return h;
}

/// The whole run's state after `step` steps, before that step's inputs.
struct Recording::Keyframe {
  int64_t step = 0;
  Grid grid;  ///< scene_.grid then (paint inputs edit it)
  std::vector<io::UnitData> scene_units;  ///< scene_.units then (spawn inputs add to it)
  Pose goal;                              ///< scene_.goal then (goal inputs move it)
  SceneUnits units;  ///< its crowd a clone routed by its own copy of the routing
  RunEvents::Seen seen;  ///< what the events of the step after it are found against
  Carried carried;       ///< the metrics of the crowds before its crowd
  size_t bytes = 0;
};

/// A recorded future: what an input at a past moment drops, kept so the branch can be undone.
struct Recording::Future {
  int64_t at = 0;  ///< the step the branch started at
  std::vector<io::UnitInput> inputs;
  std::vector<io::StateHash> hashes;
  std::vector<uint64_t> step_hashes;
  std::vector<std::shared_ptr<const Keyframe>> keyframes;
  int64_t keyframe_every = 0;
  RunEvents events;  ///< the events up to the end of the dropped future
  size_t evented_inputs = 0;
  Trail trail;
};

Status Recording::check_options(const RecordOptions& options) {
  if (options.keyframe_every < 1) return fail(StatusCode::invalid_argument, "keyframe_every must be >= 1");
  if (options.hash_every < 0) return fail(StatusCode::invalid_argument, "hash_every must be >= 0");
  return ok_status();
}

Result<Recording> Recording::start(const io::Scene& scene, const RecordOptions& options) {
  if (const Status s = check_options(options); !s) return s.error();
  auto built = build_scene_units(scene, options.def);
  if (!built) return built.error();
  return start_from(scene, std::move(*built), options);
}

Result<Recording> Recording::start_from(const io::Scene& scene, SceneUnits units, const RecordOptions& options) {
  if (const Status s = check_options(options); !s) return s.error();
  if (!units.crowd || !units.routing) return fail(StatusCode::invalid_argument, "the units have no crowd");
  if (units.crowd->step_count() != 0 || units.step_offset != 0)
    return fail(StatusCode::invalid_argument, "the units have run already: a recording starts at step 0");
  Recording r;
  r.start_scene_ = scene;
  r.scene_ = scene;
  r.units_ = std::move(units);
  r.options_ = options;
  r.events_ = RunEvents(options.event_cap);
  r.keyframe_every_ = options.keyframe_every;
  r.hash_every_ = options.hash_every > 0 ? options.hash_every : std::max<int64_t>(1, std::llround(1.0 / options.def.dt));
  constexpr double inf = std::numeric_limits<double>::infinity();
  r.carried_.run.min_separation = r.carried_.run.min_separation_ratio = r.carried_.run.min_obstacle_gap = inf;
  r.trail_.record(*r.units_.crowd, r.units_.presets, true);
  r.take_keyframe();
  return r;
}

Result<Recording> Recording::replay(const io::Repro& repro, int64_t keyframe_every) {
  RecordOptions o;
  o.def.dt = repro.dt;
  o.keyframe_every = keyframe_every;
  o.hash_every = repro.hash_every;
  auto r = start(repro.scene, o);
  if (!r) return r.error();
  r->inputs_ = repro.inputs;
  return r;
}

void Recording::take_keyframe() {
  auto k = std::make_shared<Keyframe>();
  k->step = step_;
  k->grid = scene_.grid;
  k->scene_units = scene_.units;
  k->goal = scene_.goal;
  k->units = copy_units(units_);
  events_.observe(*units_.crowd, step_);
  k->seen = events_.seen();
  k->carried = carried_;
  k->bytes = sizeof(Keyframe) + units_bytes(k->units) + k->grid.costs().capacity() * sizeof(float) +
             k->seen.units.capacity() * sizeof(k->seen.units[0]) + k->seen.doors.capacity() * sizeof(DoorState);
  keyframes_.push_back(std::move(k));
}

void Recording::restore(const Keyframe& k) {
  step_ = k.step;
  scene_.grid = k.grid;
  scene_.units = k.scene_units;
  scene_.goal = k.goal;
  units_ = copy_units(k.units);  // the keyframe stays as it was, for the next seek
  events_.restore(k.seen);
  carried_ = k.carried;
  ++revision_;
  next_input_ = static_cast<size_t>(
      std::lower_bound(inputs_.begin(), inputs_.end(), step_, [](const io::UnitInput& in, int64_t s) { return in.step < s; }) -
      inputs_.begin());
}

void Recording::apply_due_inputs(bool at_frontier) {
  while (next_input_ < inputs_.size() && inputs_[next_input_].step <= step_) {
    if (at_frontier && next_input_ >= evented_inputs_) {  // a replay's input, first applied now
      events_.add_input(inputs_[next_input_]);
      evented_inputs_ = next_input_ + 1;
    }
    apply(inputs_[next_input_]);
    ++next_input_;
    ++revision_;
  }
}

void Recording::simulate_step(bool new_step) {
  events_.observe(*units_.crowd, step_);  // (it follows the state: only a fresh start observes here)
  apply_due_inputs(new_step);
  units_.crowd->step();
  ++step_;
  events_.detect(*units_.crowd, step_, new_step);
}

void Recording::step() {
  const bool recording = step_ == recorded_until();  // else re-simulating what is recorded (after a seek)
  simulate_step(recording);
  if (!recording) return;
  step_hashes_.push_back(crowd_state_hash(*units_.crowd));
  if (step_ % hash_every_ == 0) hashes_.push_back(state_hash(*units_.crowd, step_));
  trail_.record(*units_.crowd, units_.presets, revision_ != trail_revision_);
  trail_revision_ = revision_;
  if (step_ % keyframe_every_ == 0) {
    take_keyframe();
    keep_keyframe_budget();
  }
}

void Recording::keep_keyframe_budget() {
  if (options_.keyframe_budget == 0) return;
  while (keyframes_.size() > 1 && keyframe_bytes() + trail_.bytes() > options_.keyframe_budget) {
    keyframe_every_ *= 2;
    std::erase_if(keyframes_, [&](const auto& k) { return k->step % keyframe_every_ != 0; });  // step 0 stays
  }
}

std::string Recording::input(io::UnitInput in) {
  in.step = step_;
  if (step_ < recorded_until()) {
    // Another course from here: the recorded future no longer happens (inputs recorded for
    // this very step stay, and apply before this one). It is kept whole for undo_branch.
    auto future = std::make_shared<Future>();
    *future = Future{step_, inputs_, hashes_, step_hashes_, keyframes_, keyframe_every_, events_, evented_inputs_, trail_};
    dropped_ = std::move(future);
    const auto later = std::upper_bound(inputs_.begin(), inputs_.end(), step_,
                                        [](int64_t s, const io::UnitInput& i) { return s < i.step; });
    inputs_.erase(later, inputs_.end());
    evented_inputs_ = std::min(evented_inputs_, inputs_.size());
    step_hashes_.resize(static_cast<size_t>(step_));
    std::erase_if(hashes_, [&](const io::StateHash& h) { return h.step > step_; });
    std::erase_if(keyframes_, [&](const auto& k) { return k->step > step_; });
    events_.drop_after(step_);
    trail_.truncate(step_);
  }
  events_.observe(*units_.crowd, step_);  // (it follows the state: only a fresh start observes here)
  // Inputs due now that were recorded before this one apply first, in their order.
  apply_due_inputs(true);
  inputs_.insert(inputs_.begin() + static_cast<std::ptrdiff_t>(next_input_), in);
  ++next_input_;
  events_.add_input(in);
  evented_inputs_ = next_input_;
  ++revision_;
  std::string error;
  apply(in, &error);
  return error;
}

int64_t Recording::branch_step() const noexcept { return dropped_ ? dropped_->at : 0; }

Status Recording::undo_branch() {
  if (!dropped_) return fail(StatusCode::invalid_argument, "no branch to undo");
  const std::shared_ptr<const Future> f = std::move(dropped_);
  dropped_.reset();
  inputs_ = f->inputs;
  hashes_ = f->hashes;
  step_hashes_ = f->step_hashes;
  keyframes_ = f->keyframes;
  keyframe_every_ = f->keyframe_every;
  events_ = f->events;
  evented_inputs_ = f->evented_inputs;
  trail_ = f->trail;
  // The state shown is the branch's: restore the old future's keyframe and re-simulate.
  const auto it = std::upper_bound(keyframes_.begin(), keyframes_.end(), f->at,
                                   [](int64_t s, const auto& k) { return s < k->step; });
  restore(**std::prev(it));
  while (step_ < f->at) simulate_step(false);
  return ok_status();
}

void Recording::apply(const io::UnitInput& input, std::string* error) {
  if (!std::holds_alternative<io::PaintInput>(input.what)) {
    std::string e = apply_unit_input(units_, scene_, input);
    if (error) *error = std::move(e);
    return;
  }
  // A paint rebuilds the crowd: what the old one measured is carried, per scene unit.
  const Crowd& old = *units_.crowd;
  std::vector<std::pair<int, CrowdAgentMetrics>> before;
  for (int i = 0; i < old.agent_count(); ++i) before.emplace_back(units_.scene_index[static_cast<size_t>(i)], old.metrics(i));
  const CrowdMetrics run = old.run_metrics();
  std::string e = apply_unit_input(units_, scene_, input);
  if (error) *error = std::move(e);
  CrowdMetrics& c = carried_.run;
  c.min_separation = std::min(c.min_separation, run.min_separation);
  c.min_separation_ratio = std::min(c.min_separation_ratio, run.min_separation_ratio);
  c.min_obstacle_gap = std::min(c.min_obstacle_gap, run.min_obstacle_gap);
  c.wall_contacts += run.wall_contacts;
  c.stuck_steps += run.stuck_steps;
  c.replans += run.replans + units_.crowd->agent_count();  // the rebuild plans each kept unit again
  c.longest_lock = std::max(c.longest_lock, run.longest_lock);
  if (carried_.units.size() < scene_.units.size()) carried_.units.resize(scene_.units.size());
  for (const auto& [key, m] : before) {
    CrowdAgentMetrics& u = carried_.units[static_cast<size_t>(key)];
    u.distance += m.distance;
    u.wall_contacts += m.wall_contacts;
    u.unit_contacts += m.unit_contacts;
    u.stuck_steps += m.stuck_steps;
    u.replans += m.replans + 1;
    u.longest_lock = std::max(u.longest_lock, m.longest_lock);
  }
}

void Recording::map_at(int64_t step, Grid& grid, Pose& goal) const {
  grid = start_scene_.grid;
  goal = start_scene_.goal;
  for (const io::UnitInput& in : inputs_) {
    if (in.step >= step) break;
    if (const auto* g = std::get_if<io::GoalInput>(&in.what)) goal = g->goal;
    if (const auto* paint = std::get_if<io::PaintInput>(&in.what))
      for (const Cell& c : paint->cells)
        if (grid.in_bounds(c.x, c.y)) grid.set_cost(c.x, c.y, paint->wall ? kBlocked : 1.0f);  // as apply_unit_input
  }
}

CrowdAgentMetrics Recording::unit_metrics(CrowdAgentId id) const {
  CrowdAgentMetrics m = units_.crowd->metrics(id);
  const size_t key = static_cast<size_t>(units_.scene_index[static_cast<size_t>(id)]);
  if (key >= carried_.units.size()) return m;
  const CrowdAgentMetrics& c = carried_.units[key];
  m.distance += c.distance;
  m.wall_contacts += c.wall_contacts;
  m.unit_contacts += c.unit_contacts;
  m.stuck_steps += c.stuck_steps;
  m.replans += c.replans;
  m.longest_lock = std::max(m.longest_lock, c.longest_lock);
  return m;
}

CrowdMetrics Recording::run_metrics() const {
  CrowdMetrics m = units_.crowd->run_metrics();
  const CrowdMetrics& c = carried_.run;
  m.min_separation = std::min(m.min_separation, c.min_separation);
  m.min_separation_ratio = std::min(m.min_separation_ratio, c.min_separation_ratio);
  m.min_obstacle_gap = std::min(m.min_obstacle_gap, c.min_obstacle_gap);
  m.wall_contacts += c.wall_contacts;
  m.stuck_steps += c.stuck_steps;
  m.replans += c.replans;
  if (c.longest_lock > m.longest_lock) m.longest_lock = c.longest_lock, m.longest_lock_agent = -1, m.longest_lock_obstacle = -1;
  return m;
}

int64_t Recording::keyframe_before(int64_t step) const {
  const auto it = std::upper_bound(keyframes_.begin(), keyframes_.end(), step,
                                   [](int64_t s, const auto& k) { return s < k->step; });
  return it == keyframes_.begin() ? 0 : (*std::prev(it))->step;
}

int64_t Recording::seek_steps(int64_t step) const {
  const int64_t k = keyframe_before(step);
  return step_ <= step && step_ >= k ? step - step_ : step - k;
}

Status Recording::seek(int64_t step) {
  if (step < 0 || step > recorded_until())
    return fail(StatusCode::out_of_bounds, "step " + std::to_string(step) + " is outside the recording (0.." +
                                               std::to_string(recorded_until()) + ")");
  // The keyframe at or before `step`; going forward from where the run is may be shorter.
  const auto it = std::upper_bound(keyframes_.begin(), keyframes_.end(), step,
                                   [](int64_t s, const auto& k) { return s < k->step; });
  const Keyframe& k = **std::prev(it);  // keyframes_[0] is step 0
  if (!(step_ <= step && step_ >= k.step)) restore(k);
  while (step_ < step) simulate_step(false);
  return ok_status();
}

size_t Recording::keyframe_bytes() const {
  size_t b = 0;
  for (const auto& k : keyframes_) b += k->bytes;
  return b;
}

io::Repro Recording::repro(std::optional<int64_t> moment) const {
  io::Repro r;
  r.scene = start_scene_;
  r.dt = options_.def.dt;
  r.hash_every = hash_every_;
  r.until_step = recorded_until();
  r.moment = moment;
  r.inputs = inputs_;
  r.hashes = hashes_;
  r.step_hashes = step_hashes_;
  return r;
}

}  // namespace pathlab::plan
