// The crowd's flow fields repaired over several steps (issue 27). Once a second the queue costs
// are taken afresh (crowd_queue.cpp) and reach upstream of every doorway, so a field's repair
// searches again most of the cells beyond its doorways: the 8 fields of bench_crowd_scale's
// 10,000 units took 27-57 ms of one step on the busiest of 2 threads (a step is about 13 ms).
// Here the repair works on a copy of one field at a time, a fixed amount of work a step beside
// the serial moves and the serial progress pass (which leave the other threads idle), and the
// copy replaces its field when it is done; the units read the fields of the last queues
// meanwhile, a few steps longer, and the queues are not taken afresh until the repair is done.
// How much is done a step is counted in cells, not timed, so the bytes are the same with any
// thread count.

#include <algorithm>
#include <limits>

#include "crowd/flow_field_crowd.hpp"

namespace pathlab::crowd {

void FlowFields::start_repair(const Grid& grid) {
  while (repair_.active) {  // a repair not finished (the crowd waits for it) ends now
    advance_repair(std::numeric_limits<int64_t>::max());
    finish_repair();
  }
  repair_.active = true;
  repair_.grid = grid;  // copied: the crowd's grid may be taken afresh before the repair ends
  repair_.diffed = false;
  repair_.changed.clear();
  repair_.copies.clear();
  for (const Entry& e : entries_) repair_.copies.push_back(Repair::Copy{e.goal, e.radius, FlowField{}, e.serial, 0});
  repair_.next = 0;
}

void FlowFields::advance_repair(int64_t budget, bool may_copy) {
  if (!repair_.active || (!may_copy && !repair_.diffed)) return;
  if (!repair_.diffed) {  // the whole grid's compare, a small part of one field's repair
    const std::vector<float>& now = repair_.grid.costs();
    const size_t w = static_cast<size_t>(repair_.grid.width());
    for (size_t i = 0; i < now.size(); ++i) {
      if (now[i] != seen_[i]) repair_.changed.push_back(Cell{static_cast<int>(i % w), static_cast<int>(i / w)});
    }
    repair_.diffed = true;
  }
  while (budget > 0 && repair_.next < repair_.copies.size()) {
    Repair::Copy& c = repair_.copies[repair_.next];
    if (c.stage == 2 || c.stage == 4) break;  // one field a step: finish_repair takes it first
    if (c.stage == 0 && !may_copy) break;
    budget -= advance_copy(c, budget);
    if (c.stage == 3) ++repair_.next;
  }
}

int64_t FlowFields::advance_copy(Repair::Copy& c, int64_t budget) {
  if (c.stage == 0) {
    const FlowField* live = nullptr;
    for (const Entry& e : entries_) {
      if (e.goal == c.goal && e.radius == c.radius && e.serial == c.serial) live = &e.field;
    }
    if (live == nullptr || repair_.changed.empty()) {
      c.stage = 3;  // dropped or built anew meanwhile, or nothing to repair: the field stays as it is
      return 1;
    }
    c.field = std::move(spare_);  // the storage of the field replaced last: no fresh pages
    c.field = *live;
    Grid scratch;
    auto set = c.field.begin_update(with_share(repair_.grid, c.goal, c.radius, scratch), repair_.changed);
    if (!set) {
      c.stage = 4;  // as in sync(), the field is dropped (built afresh on use)
      return kCopyWork;
    }
    c.stage = c.field.update_done() ? 2 : 1;
    return kCopyWork + *set;
  }
  const int64_t work = c.field.continue_update(budget);
  if (c.field.update_done()) c.stage = 2;
  return std::max<int64_t>(work, 1);
}

bool FlowFields::finish_repair() {
  if (!repair_.active) return false;
  // Each field as soon as it is repaired: only one copy is held at a time (3.5 MB on a 512x512
  // map), and the version changes here, before the step's read-ahead reads the fields, so no
  // route read ahead is lost to it.
  bool any = false;
  if (repair_.next < repair_.copies.size()) {
    Repair::Copy& c = repair_.copies[repair_.next];
    // A field built anew since it was copied (share_routes) is up to date with the repair's
    // grid already: the copy is dropped.
    auto same = [&](const Entry& e) { return e.goal == c.goal && e.radius == c.radius && e.serial == c.serial; };
    if (c.stage == 4) std::erase_if(entries_, same);
    for (Entry& e : entries_) {
      if (c.stage == 2 && same(e)) std::swap(e.field, c.field);
    }
    if (c.stage == 2 || c.stage == 4) {
      spare_ = std::move(c.field);  // the old field's storage, for the next copy
      ++repair_.next;
      any = true;
    }
  }
  if (any) ++version_;
  if (repair_.next < repair_.copies.size()) return any;
  seen_ = repair_.grid.costs();  // every field is up to date with it now
  repair_ = Repair{};
  return any;
}

}  // namespace pathlab::crowd
