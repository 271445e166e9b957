// Recording the sandbox's units headless (units_record.hpp).

#include "units/units_record.hpp"

#include <algorithm>
#include <cmath>

#include "pathlab/plan/recording.hpp"

namespace pathlab::sandbox {

io::Repro record_units(UnitSwarm& swarm, const io::Scene& scene, int64_t steps) {
  io::Repro r;
  r.scene = scene;
  r.dt = swarm.crowd().dt();
  r.hash_every = std::max<int64_t>(1, std::llround(1.0 / r.dt));  // as plan::RecordOptions' default
  r.until_step = steps;
  r.step_hashes.reserve(static_cast<size_t>(steps));
  for (int64_t s = 1; s <= steps; ++s) {
    swarm.step(scene);
    r.step_hashes.push_back(plan::crowd_state_hash(swarm.crowd()));
    if (s % r.hash_every == 0) r.hashes.push_back(plan::state_hash(swarm.crowd(), s));
  }
  return r;
}

}  // namespace pathlab::sandbox
