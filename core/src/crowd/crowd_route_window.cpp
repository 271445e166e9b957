// The route's points round a unit's next waypoint, copied into the unit's own record
// (crowd::RouteWindow): the decisions read them there instead of in the route's heap block.

#include <algorithm>

#include "crowd/crowd_impl.hpp"

namespace pathlab {

const crowd::RouteWindow* CrowdImpl::window_route(crowd::Agent& a) const {
  crowd::RouteWindow& w = a.window;
  const auto& route = a.st.route;
  // The version alone says the route is the one indexed (every place that sets a route calls
  // index_route before the next decision); the route's address and size guard against a
  // route changed in place between those calls (then the route is read itself).
  if (a.route_version == 0 || route.size() < 2 || a.route_tail.size() != route.size()) {
    w.version = 0;
    return nullptr;
  }
  const size_t next = static_cast<size_t>(std::max(0, a.st.next_waypoint));
  const bool same = w.version == a.route_version && w.data == route.data() && w.size == route.size();
  if (same && w.holds(next == 0 ? 0 : next - 1) && w.holds(std::min(next + 1, route.size() - 1))) return &w;
  w.version = a.route_version;
  w.data = route.data();
  w.size = route.size();
  w.first = static_cast<int>(next == 0 ? 0 : next - 1);
  w.count = static_cast<int>(std::min<size_t>(crowd::RouteWindow::kPoints, route.size() - static_cast<size_t>(w.first)));
  for (int i = 0; i < w.count; ++i) {
    w.pts[static_cast<size_t>(i)] = route[static_cast<size_t>(w.first + i)];
    w.tail[static_cast<size_t>(i)] = a.route_tail[static_cast<size_t>(w.first + i)];
  }
  w.end = route.back();
  return &w;
}

}  // namespace pathlab
