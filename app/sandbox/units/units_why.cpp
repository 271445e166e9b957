// Why a unit moves as it does (units.hpp, UnitSwarm::why): the core's explanation of the next
// step's decision, cached for the moment shown (it costs a copy of the crowd).

#include "units/units.hpp"

namespace pathlab::sandbox {

const CrowdExplanation* UnitSwarm::why(int id) const {
  // While the trail shows a moment the crowd has not reached, there is no decision to explain.
  if (id < 0 || id >= count() || shown_) return nullptr;
  const Crowd& c = cur();
  const uint64_t state = plan::crowd_state_hash(c);
  const size_t inputs = rec_ ? rec_->inputs().size() : 0;
  const Vec2 target = c.state(id).target;
  if (why_.why && why_.id == id && why_.crowd == &c && why_.crowd_step == c.step_count() && why_.state == state &&
      why_.inputs == inputs && why_.target == target)
    return &*why_.why;
  auto e = plan::explain_unit(c, rec_ ? rec_->units().routing.get() : routing_.get(), id);
  why_ = WhyCache{id, c.step_count(), state, inputs, target, &c, std::nullopt};
  if (!e) return nullptr;
  why_.why = std::move(*e);
  return &*why_.why;
}

}  // namespace pathlab::sandbox
