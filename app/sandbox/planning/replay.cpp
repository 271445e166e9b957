#include "planning/replay.hpp"

#include <algorithm>

namespace pathlab::sandbox {

void ReplayModel::clear() {
  source_ = Source::none;
  width_ = 0;
  events_.clear();
  close_at_.clear();
  poses_.clear();
  finish_load(0);
}

void ReplayModel::load_grid(const std::vector<TraceEvent>& trace, int width, int height) {
  clear();
  source_ = Source::grid;
  width_ = width;
  events_.reserve(trace.size());
  for (const TraceEvent& e : trace) events_.push_back(Event{e.cell.y * width + e.cell.x, e.kind, e.g, e.f});
  finish_load(width * height);
}

void ReplayModel::load_navmesh(const std::vector<NavTraceEvent>& trace, int polygon_count) {
  clear();
  source_ = Source::navmesh;
  for (const NavTraceEvent& e : trace) {
    // An event without a polygon (cannot happen for a found corridor, but a trace is data
    // from outside this file) would index out of range: skip it rather than trust it.
    if (e.polygon < 0 || e.polygon >= polygon_count) continue;
    events_.push_back(Event{e.polygon, e.kind, e.g, e.f});
  }
  finish_load(polygon_count);
}

void ReplayModel::load_poses(const std::vector<Pose>& expanded) {
  clear();
  source_ = Source::poses;
  poses_ = expanded;
  // The heading-aware searches report only expansions, in order: one close per pose.
  for (size_t i = 0; i < expanded.size(); ++i) events_.push_back(Event{static_cast<int>(i), TraceEvent::close, 0, 0});
  finish_load(static_cast<int>(expanded.size()));
}

void ReplayModel::finish_load(int nodes) {
  close_at_.clear();
  for (size_t i = 0; i < events_.size(); ++i)
    if (events_[i].kind == TraceEvent::close) close_at_.push_back(i);
  state_.assign(static_cast<size_t>(nodes), unseen);
  g_.assign(static_cast<size_t>(nodes), 0.0f);
  f_.assign(static_cast<size_t>(nodes), 0.0f);
  playing = false;
  carry_ = 0.0;
  reset_state();
  // A fresh trace opens at its end: the finished search is what people expect to see first;
  // play or the slider takes it back.
  set_step(steps());
}

void ReplayModel::reset_state() {
  std::fill(state_.begin(), state_.end(), uint8_t{unseen});
  applied_ = 0;
  step_ = 0;
  current_ = -1;
  expansions_shown_ = open_count_ = closed_count_ = 0;
  ++version_;
}

void ReplayModel::apply(size_t i) {
  const Event& e = events_[i];
  const size_t n = static_cast<size_t>(e.node);
  if (state_[n] == open) --open_count_;
  if (state_[n] == closed) --closed_count_;
  state_[n] = e.kind == TraceEvent::close ? closed : open;
  if (state_[n] == open) ++open_count_;
  else ++closed_count_;
  g_[n] = e.g;
  f_[n] = e.f;
  if (e.kind == TraceEvent::close) {
    ++expansions_shown_;
    current_ = e.node;
  }
}

void ReplayModel::set_step(int64_t k) {
  k = std::clamp<int64_t>(k, 0, steps());
  // Events before the (k+1)-th close belong to steps 0..k.
  const size_t end = k < steps() ? close_at_[static_cast<size_t>(k)] : events_.size();
  if (end < applied_) reset_state();  // going back: rebuild, states are not reversible
  if (end == applied_ && k == step_) return;
  while (applied_ < end) apply(applied_++);
  step_ = k;
  if (k == 0) current_ = -1;
  ++version_;
}

std::string ReplayModel::steps_vs_expanded(int64_t steps, int64_t expanded) {
  const std::string n = std::to_string(steps), e = std::to_string(expanded);
  // The searches count an expansion when a node's successors are generated; the goal's pop
  // generates none, so the grid and navmesh searches (whose trace records it) show it as an
  // extra last step, and the heading searches (which record expanded poses only) do not.
  const std::string what = expanded == 1 ? " expansion" : " expansions";
  if (steps == expanded + 1) return n + " steps: the " + e + what + " Stats counts, then the goal taken off the open list";
  if (steps == expanded) return n + " steps, one per expansion Stats counts";
  return n + " steps for the " + e + what + " Stats counts (the search stopped early or the trace is partial)";
}

void ReplayModel::tick(double dt) {
  if (!playing) return;
  if (step_ >= steps()) {
    playing = false;
    return;
  }
  carry_ += dt * static_cast<double>(speed);
  const auto whole = static_cast<int64_t>(carry_);
  if (whole <= 0) return;
  carry_ -= static_cast<double>(whole);
  set_step(step_ + whole);
  if (step_ >= steps()) playing = false;
}

}  // namespace pathlab::sandbox
