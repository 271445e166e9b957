// Slots near a shared goal (crowd_route.cpp makes them: hexagonal rings round the goal, an
// outer ring only once the inner ones are full, claimed nearest first): saying when a unit is
// parked far from its goal, so a unit counted arrived several cells off says why.

#include <cmath>
#include <cstdio>
#include <string>

#include "crowd/crowd_impl.hpp"

namespace pathlab {
namespace {

constexpr double kFarRadii = 3.0;      ///< A slot farther than this many radii + one ring spacing from the goal is "far".

}  // namespace

void CrowdImpl::update_parked(int id) {
  crowd::Agent& a = agents_[static_cast<size_t>(id)];
  a.st.parked_far = false;
  a.st.note.clear();
  if (a.group < 0 || a.slot < 0) return;
  const crowd::GoalGroup& g = groups_[static_cast<size_t>(a.group)];
  const double d = glm::length(a.st.target - g.goal);
  if (d <= kFarRadii * a.def.unit.radius + g.spacing) return;
  char buf[96];
  std::snprintf(buf, sizeof buf, "parked %.1f cells from the goal: nearer slots are taken", d);
  a.st.parked_far = true;
  a.st.note = buf;
}

}  // namespace pathlab
