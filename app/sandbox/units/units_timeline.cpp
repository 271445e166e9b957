// The units' recording (units.hpp, "The timeline"): starting it at Reset, recorded edits,
// seeking, and handing the crowd back when an edit the recording cannot hold comes.

#include "units/units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

namespace pathlab::sandbox {
namespace {

/// Keyframes every simulated second: a seek re-simulates at most 59 steps (a few ms for tens
/// of units), where the recording's default (600) suits long headless runs.
constexpr int64_t kTimelineKeyframeEvery = 60;

/// "12.35": a moment for people (std::to_string's six decimals are noise).
std::string seconds(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", t);
  return buf;
}

}  // namespace

void UnitSwarm::start_recording(const io::Scene& scene) {
  record_due_ = false;
  rec_.reset();
  rec_note_.clear();
  if (count() == 0 || time() != 0.0) return;
  // The run as a file would hold it: the scene with the units where Reset puts them.
  io::Scene start = scene;
  start.units = placed_list();  // the units not placed are not in the run (tried again at Reset)
  plan::RecordOptions o;
  o.def.dt = crowd_->dt();
  o.def.threads = threads_;  // the recording's rebuilds (a paint) step on as many threads
  o.keyframe_every = kTimelineKeyframeEvery;
  // From a copy of the units shown (their routes planned already): building them again from
  // the scene re-planned every unit in the first frame. The copy is what the file's scene
  // builds (load and spawn place units as build_scene_units does; tests/test_sandbox_repro.cpp
  // and the timeline's tests compare a fresh build with it).
  plan::SceneUnits live;
  live.routing = plan::copy_routing(*routing_);
  live.crowd.emplace(crowd_->clone(plan::unit_route_planner(live.routing)));
  for (size_t k = 0; k < units_.size(); ++k) {
    units_[k].key = static_cast<int>(k);
    live.presets.push_back(units_[k].preset);
    live.scene_index.push_back(static_cast<int>(k));
    live.messages.push_back(units_[k].message);
    live.goals.push_back(units_[k].goal);
  }
  live.def = o.def;
  auto r = plan::Recording::start_from(start, std::move(live), o);
  if (!r) {
    rec_note_ = "not recorded: " + r.error().message;
    return;
  }
  rec_ = std::make_unique<plan::Recording>(std::move(*r));
  synced_revision_ = rec_->revision();
}

void UnitSwarm::sync_from_recording() {
  if (!rec_ || rec_->revision() == synced_revision_) return;
  synced_revision_ = rec_->revision();
  const plan::SceneUnits& su = rec_->units();
  const Crowd& c = *su.crowd;
  // What the recording does not hold (the selection, re-plans in crowds before a rebuild) stays
  // with the unit it belongs to: its key, the recording's scene unit.
  std::vector<const Unit*> by_key(rec_->scene().units.size(), nullptr);
  for (const Unit& u : units_)
    if (u.key >= 0 && static_cast<size_t>(u.key) < by_key.size()) by_key[static_cast<size_t>(u.key)] = &u;
  std::vector<Unit> next;
  next.reserve(static_cast<size_t>(c.agent_count()));
  for (int i = 0; i < c.agent_count(); ++i) {
    const size_t k = static_cast<size_t>(i);
    const int key = su.scene_index[k];
    // Where Reset puts it: its place in the recording's scene (a spawned one where it stood).
    const io::UnitData& d = rec_->scene().units[static_cast<size_t>(key)];
    const Unit* was = by_key[static_cast<size_t>(key)];
    next.push_back(Unit{su.presets[k], c.agent_def(i).unit, d.pose, su.goals[k], d.turning_radius, su.messages[k],
                        was ? was->replans_before : 0, was && was->selected, key});
  }
  units_ = std::move(next);
  if (!(rec_->scene().grid == built_on_) || !(rec_->scene().goal.pos == scene_goal_.pos) ||
      rec_->scene().goal.heading != scene_goal_.heading) {
    built_on_ = rec_->scene().grid;
    scene_goal_ = rec_->scene().goal;
    ++shown_scene_version_;
  }
}

std::string UnitSwarm::record_paint(const io::Scene& scene) {
  settle();  // painted at the moment shown: the crowd there, built_on_ its map
  const Grid& now = scene.grid;
  if (now.width() != built_on_.width() || now.height() != built_on_.height())
    return "the map was resized (a recording holds one map size)";
  io::PaintInput walls{{}, true}, ground{{}, false};
  for (int y = 0; y < now.height(); ++y)
    for (int x = 0; x < now.width(); ++x) {
      const float c = now.cost(x, y);
      if (c == built_on_.cost(x, y)) continue;
      if (c == kBlocked) walls.cells.push_back(Cell{x, y});
      else if (c == 1.0f) ground.cells.push_back(Cell{x, y});
      else return "a terrain cost was painted (a recorded paint makes walls or ground of cost 1)";
    }
  // Recorded at the step shown (after a seek back this starts a branch); each rebuilds the
  // recording's crowd with plan::rebuild_scene_units, as a replay does (the recording carries
  // the old crowd's metrics: Recording::unit_metrics).
  if (!walls.cells.empty()) (void)record_input(io::UnitInput{0, std::move(walls)});
  if (!ground.cells.empty()) (void)record_input(io::UnitInput{0, std::move(ground)});
  sync_from_recording();
  built_on_ = scene.grid;  // the recording's map now (a paint outside it would differ: none is)
  return "";
}

std::string UnitSwarm::spawn_recorded(const std::string& preset, const Pose& pose, std::optional<Pose> goal) {
  const std::string e = record_input(io::UnitInput{0, io::SpawnInput{preset, pose, goal}});
  sync_from_recording();
  return e;
}

Status UnitSwarm::undo_branch() {
  if (!rec_) return fail(StatusCode::invalid_argument, "the units are not recorded");
  playing_ = false;
  accumulator_ = 0.0;
  scrub_target_.reset();  // the branch's moment is shown: no scrub goes on
  if (shown_) ++shown_scene_version_;  // the crowd's map again
  shown_.reset();
  shown_inputs_ = kNoInputs;
  const Status s = rec_->undo_branch();
  ++moment_version_;
  sync_from_recording();
  return s;
}

void UnitSwarm::detach(const char* why) {
  if (!rec_) return;
  settle();
  // The run's metrics so far go on with the swarm's own crowd (a clone: its own metrics too).
  const CrowdMetrics run = rec_->run_metrics(), now = rec_->crowd().run_metrics();
  carried_.min_separation = run.min_separation;
  carried_.stuck_steps = run.stuck_steps - now.stuck_steps;
  carried_.wall_contacts = run.wall_contacts - now.wall_contacts;
  for (int i = 0; i < count(); ++i)
    units_[static_cast<size_t>(i)].replans_before = rec_->unit_metrics(i).replans - rec_->crowd().metrics(i).replans;
  routing_ = plan::copy_routing(*rec_->units().routing);
  crowd_ = std::make_unique<Crowd>(rec_->crowd().clone(plan::unit_route_planner(routing_)));
  time_offset_ = rec_->time() - crowd_->time();
  // The goals as the recording has them at the step shown (a seek may have gone before a send).
  for (int i = 0; i < count(); ++i) units_[static_cast<size_t>(i)].goal = rec_->units().goals[static_cast<size_t>(i)];
  rec_.reset();
  rec_note_ = why[0] ? std::string("not recorded since t = ") + seconds(time()) + " s: " + why +
                           " (Reset records again)"
                     : "";
}

std::string UnitSwarm::replay(const io::Repro& repro) {
  playing_ = false;
  record_due_ = false;
  rec_.reset();
  auto r = plan::Recording::replay(repro, kTimelineKeyframeEvery);
  if (!r) return r.error().message;
  if (r->crowd().agent_count() != count() || plan::crowd_state_hash(r->crowd()) != plan::crowd_state_hash(*crowd_))
    return "its units do not start as the sandbox places them";
  rec_ = std::make_unique<plan::Recording>(std::move(*r));
  synced_revision_ = rec_->revision();
  while (rec_->recorded_until() < repro.until_step) rec_->step();
  const std::string differs = rec_->step_hashes() == repro.step_hashes ? "" : "the replay differs from the file's hashes";
  (void)seek(repro.moment.value_or(repro.until_step));  // in 0..until_step: the reader checked
  return differs;
}

std::vector<TimelineMark> UnitSwarm::timeline_marks() const {
  std::vector<TimelineMark> out;
  if (!rec_) return out;
  const auto& inputs = rec_->inputs();
  for (size_t i = 0; i < inputs.size(); ++i) {
    TimelineMark m{inputs[i].step, TimelineMark::Kind::paint, static_cast<int>(i)};
    if (const auto* d = std::get_if<io::DoorInput>(&inputs[i].what)) m.kind = TimelineMark::Kind::door_click, m.index = d->door;
    else if (std::holds_alternative<io::SendInput>(inputs[i].what)) m.kind = TimelineMark::Kind::send;
    else if (std::holds_alternative<io::SpawnInput>(inputs[i].what)) m.kind = TimelineMark::Kind::spawn;
    else if (std::holds_alternative<io::GoalInput>(inputs[i].what)) m.kind = TimelineMark::Kind::goal;
    out.push_back(m);
  }
  // Scheduled toggles: seconds since Reset, the step whose simulation crosses them.
  const double dt = rec_->crowd().dt();
  const auto& doors = rec_->scene().doors;
  for (size_t d = 0; d < doors.size(); ++d)
    for (double t : doors[d].toggle_times) {
      const auto step = static_cast<int64_t>(std::floor(t / dt));
      if (step >= 0 && step <= rec_->recorded_until())
        out.push_back({step, TimelineMark::Kind::door_schedule, static_cast<int>(d)});
    }
  std::stable_sort(out.begin(), out.end(), [](const TimelineMark& a, const TimelineMark& b) { return a.step < b.step; });
  return out;
}

Status UnitSwarm::seek(int64_t step) {
  if (!rec_) return fail(StatusCode::invalid_argument, "the units are not recorded");
  accumulator_ = 0.0;
  const bool was_trail = shown_.has_value();
  scrub_target_.reset();
  shown_.reset();
  shown_inputs_ = kNoInputs;
  const Status s = rec_->seek(step);
  ++moment_version_;
  synced_revision_ = was_trail ? rec_->revision() - 1 : synced_revision_;  // the trail's map: show the crowd's again
  if (was_trail) ++shown_scene_version_;
  sync_from_recording();
  return s;
}

void UnitSwarm::show_trail(int64_t step) {
  shown_ = rec_->trail().frame(step);
  scrub_target_ = step;
  ++moment_version_;
  // The map and goal then: recomputed when a paint or goal input lies between the moments.
  const auto& in = rec_->inputs();
  const size_t before = static_cast<size_t>(
      std::lower_bound(in.begin(), in.end(), step, [](const io::UnitInput& i, int64_t s) { return i.step < s; }) - in.begin());
  if (before != shown_inputs_) {
    shown_inputs_ = before;
    rec_->map_at(step, shown_grid_, shown_goal_);
    ++shown_scene_version_;
  }
}

Status UnitSwarm::scrub(int64_t step, bool dragging) {
  scrub_held_ = dragging;
  if (!rec_ || step < 0 || step > rec_->recorded_until()) return seek(step);
  const int64_t per_frame = std::max<int64_t>(1, kScrubUnitSteps / std::max(1, count()));
  if (rec_->seek_steps(step) <= per_frame) return seek(step);
  // Too far to re-simulate in one frame: the trail draws the moment now; the crowd follows.
  if (!shown_ || shown_->step != step) show_trail(step);
  return ok_status();
}

void UnitSwarm::close_in() {
  if (!rec_ || !scrub_target_) return;
  const int64_t step = *scrub_target_;
  const int64_t per_frame = std::max<int64_t>(1, kScrubUnitSteps / std::max(1, count()));
  if (rec_->seek_steps(step) <= per_frame) {
    (void)seek(step);
    return;
  }
  // From the keyframe before it, or on from the crowd's step when that is on the way.
  const int64_t at = rec_->step_index(), key = rec_->keyframe_before(step);
  const int64_t from = at >= key && at <= step ? at : key;
  (void)rec_->seek(std::min(step, from + per_frame));
  sync_from_recording();
}

void UnitSwarm::settle() {
  if (rec_ && scrub_target_) (void)seek(*scrub_target_);
  scrub_held_ = false;
}

const std::string& UnitSwarm::trail_preset(int preset) const {
  static const std::string none;
  if (!rec_ || preset < 0 || static_cast<size_t>(preset) >= rec_->trail().preset_names().size()) return none;
  return rec_->trail().preset_names()[static_cast<size_t>(preset)];
}

const Grid& UnitSwarm::shown_map() const { return shown_ ? shown_grid_ : rec_ ? rec_->scene().grid : built_on_; }

Pose UnitSwarm::shown_goal() const { return shown_ ? shown_goal_ : rec_ ? rec_->scene().goal : scene_goal_; }

std::string UnitSwarm::record_input(io::UnitInput input) {
  settle();
  const bool branches = rec_->step_index() < rec_->recorded_until();
  std::string e = rec_->input(std::move(input));
  if (branches) ++branches_made_;
  return e;
}

std::string UnitSwarm::send_recorded(const std::vector<int>& ids, Vec2 goal, std::optional<double> heading) {
  std::vector<int> valid;
  for (int id : ids)
    if (id >= 0 && id < count()) valid.push_back(id);
  // Recorded at the step shown; after a seek back this drops the recorded future.
  std::string first = record_input(io::UnitInput{0, io::SendInput{valid, goal, heading}});
  sync_from_recording();
  return first;
}

}  // namespace pathlab::sandbox
