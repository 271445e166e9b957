// The serial moves of a crowd of persons only, split in two (CrowdImpl::moves_phase): in index
// order, each person's try that no unit moved before it stands in, from the step's arrays
// alone (split_move); then on the worker threads, the move written into each unit's record
// (apply_split_move). Same arithmetic and order as move(), so the same bytes.

#include <array>
#include <cmath>

#include "crowd/crowd_impl.hpp"
#include "pathlab/collision.hpp"

namespace pathlab {

void CrowdImpl::split_move(int id) {
  // move()'s tries for a person whose motion plan_move() worked out, reading only pos_,
  // radius_ and the plan's arrays: the serial pass no longer touches the unit's kilobyte of
  // state (at 10,000 units its first touch of each record, and the prefetch of all of it, were
  // most of the pass). pos_[id] is the unit's position until its move (rebuild_buckets copied
  // it, and only this move writes it).
  const size_t i = static_cast<size_t>(id);
  const Vec2 p0 = pos_[i];
  const double r = radius_[i];
  const std::array<Vec2, 5> tries = move_tries(p0, move_v_[i]);
  const unsigned clear = move_clear_[i];
  bool wall_hit = false, unit_hit = false;
  Vec2 p1 = p0;
  for (size_t k = 0; k < tries.size(); ++k) {
    bool ok = false;
    const unsigned planned = (clear >> (2 * k)) & 3u;
    if (planned == 3u) {  // as place_ok()
      if (!segment_clear(grid_, p0, tries[k], r)) {
        wall_hit = true;
      } else if (unit_at(id, tries[k]) || mover_at(tries[k], r)) {
        unit_hit = true;
      } else {
        ok = true;
      }
    } else if (planned == 0u) {
      wall_hit = true;
    } else if (unit_at(id, tries[k]) || (planned & 2u) != 0) {
      unit_hit = true;
    } else {
      ok = true;
    }
    if (ok) {
      p1 = tries[k];
      break;
    }
  }
  move_hit_[i] = static_cast<uint8_t>((wall_hit ? 1u : 0u) | (unit_hit ? 2u : 0u));
  pos_[i] = p1;  // the later moves of this step see it here
}

void CrowdImpl::apply_split_move(int id) {
  // The rest of move() for a person (a holonomic unit: no manoeuvre after a wall hit).
  const size_t i = static_cast<size_t>(id);
  crowd::Agent& a = agents_[i];
  Pose& pose = a.st.pose;
  pose.heading = a.move_heading;
  a.move_planned = false;
  if ((move_hit_[i] & 1u) != 0) ++a.m.wall_contacts;
  if ((move_hit_[i] & 2u) != 0) ++a.m.unit_contacts;
  const Vec2 p1 = pos_[i];
  const Vec2 moved = p1 - pose.pos;
  pose.pos = p1;
  a.st.velocity = moved / def_.dt;
  vel_[i] = a.st.velocity;
  a.m.distance += glm::length(moved);
  a.st.speed = glm::length(a.st.velocity);
}

}  // namespace pathlab
