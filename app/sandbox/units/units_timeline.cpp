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
  start.units = spawn_list();
  plan::RecordOptions o;
  o.def.dt = crowd_->dt();
  o.keyframe_every = kTimelineKeyframeEvery;
  auto r = plan::Recording::start(start, o);
  if (!r) {
    rec_note_ = "not recorded: " + r.error().message;
    return;
  }
  // The recording must run exactly the units shown, or the timeline would show another run.
  if (r->crowd().agent_count() != count() || plan::crowd_state_hash(r->crowd()) != plan::crowd_state_hash(*crowd_)) {
    rec_note_ = "not recorded: the units Reset places differ from the ones shown";
    return;
  }
  rec_ = std::make_unique<plan::Recording>(std::move(*r));
}

void UnitSwarm::detach(const char* why) {
  if (!rec_) return;
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
  return rec_->seek(step);
}

std::string UnitSwarm::send_recorded(const std::vector<int>& ids, Vec2 goal, std::optional<double> heading) {
  std::vector<int> valid;
  for (int id : ids)
    if (id >= 0 && id < count()) valid.push_back(id);
  // Recorded at the step shown; after a seek back this drops the recorded future.
  std::string first = rec_->input(io::UnitInput{0, io::SendInput{valid, goal, heading}});
  for (int id : valid) {
    Unit& u = units_[static_cast<size_t>(id)];
    u.goal = Pose{goal, heading.value_or(0.0)};
    u.message = rec_->units().messages[static_cast<size_t>(id)];
  }
  return first;
}

}  // namespace pathlab::sandbox
