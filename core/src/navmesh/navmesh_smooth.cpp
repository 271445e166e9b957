#include "pathlab/navmesh_smooth.hpp"

namespace pathlab {
namespace {

Status check_found(const NavSearchResult& r) {
  if (!r.found) return fail(StatusCode::invalid_argument, "the navmesh search found no corridor to smooth");
  if (r.corridor.polygons.size() != r.corridor.portals.size() + 1) {
    return fail(StatusCode::invalid_argument, "corridor has " + std::to_string(r.corridor.polygons.size()) +
                                                  " polygons for " + std::to_string(r.corridor.portals.size()) + " portals");
  }
  return ok_status();
}

}  // namespace

Result<FunnelResult> funnel_corridor(const NavSearchResult& r, bool record_events) {
  if (auto st = check_found(r); !st) return st.error();
  return funnel_path(r.start, r.goal, r.corridor.portals, record_events);
}

Result<std::vector<Vec2>> edge_shift_corridor(const Navmesh& mesh, const NavSearchResult& r, const EdgeShiftDef& def,
                                              EdgeShiftReport* report) {
  if (auto st = check_found(r); !st) return st.error();
  if (r.start == r.goal && r.corridor.portals.empty()) return std::vector<Vec2>{r.start};  // one point
  const auto& c = r.corridor;
  std::vector<Vec2> nodes{r.start};
  for (size_t i = 1; i < c.polygons.size(); ++i) {
    const int id = c.polygons[i];
    if (id < 0 || static_cast<size_t>(id) >= mesh.polygons().size()) {
      return fail(StatusCode::invalid_argument, "corridor polygon " + std::to_string(id) + " is not in the mesh");
    }
    nodes.push_back(mesh.polygons()[id].centre);
  }
  nodes.push_back(r.goal);
  std::vector<EdgeSegment> edges;
  edges.reserve(c.portals.size());
  for (const FunnelPortal& p : c.portals) edges.push_back(EdgeSegment{p.right, p.left});
  return edge_shift(nodes, edges, def, report);
}

std::vector<Vec2> corridor_midpoints(const NavSearchResult& r) {
  std::vector<Vec2> pts{r.start};
  if (r.start == r.goal && r.corridor.portals.empty()) return pts;  // start == goal: one point
  for (const FunnelPortal& p : r.corridor.portals) pts.push_back(0.5 * (p.left + p.right));
  pts.push_back(r.goal);
  return pts;
}

Result<std::vector<Vec2>> los_corridor(const Navmesh& mesh, const NavSearchResult& r) {
  if (auto st = check_found(r); !st) return st.error();
  const std::vector<Vec2> nodes = corridor_midpoints(r);
  const auto& polys = r.corridor.polygons;
  // Node i (i >= 1) lies on portal i-1, on the border of corridor polygon i (the goal: the last).
  auto poly_of = [&](size_t i) { return polys[std::min(i, polys.size() - 1)]; };
  std::vector<Vec2> out{nodes[0]};
  size_t i = 0;
  while (i + 1 < nodes.size()) {
    size_t next = i + 1;
    for (size_t j = nodes.size() - 1; j > i + 1; --j) {
      if (mesh.segment_on_mesh(poly_of(i), nodes[i], nodes[j])) {
        next = j;
        break;
      }
    }
    out.push_back(nodes[next]);
    i = next;
  }
  return out;
}

}  // namespace pathlab
