#pragma once
// Detour data for one of our navmeshes, shared by bench_navmesh and bench_crowd so both peers
// get exactly the same polygons (ring vertices deduplicated by id, rings with more than
// DT_VERTS_PER_POLYGON vertices cut into a fan of convex chunks, neighbours from our portals, no
// detail mesh). Detour's x is our x, its z our y, height 0.

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "pathlab/navmesh.hpp"

namespace pathlab::bench {

/// Detour's view of our mesh: x -> x, y -> z, height 0.
struct DetourMesh {
  dtNavMesh* nav = nullptr;
  dtNavMeshQuery* query = nullptr;
  dtQueryFilter filter;
  int split_polys = 0;  // our polygons cut into several Detour polygons
  ~DetourMesh() {
    dtFreeNavMeshQuery(query);
    dtFreeNavMesh(nav);
  }
};

constexpr double kQuant = 32.0;  // Detour vertex units per cell: 65535 / 32 allows maps up to 2047 cells

inline unsigned short quant(double v) { return static_cast<unsigned short>(std::lround(v * kQuant)); }

namespace detail {

constexpr int kNvp = DT_VERTS_PER_POLYGON;
constexpr unsigned short kNull = 0xffff;

/// One Detour polygon: a whole ring of ours, or one convex chunk of a ring cut into a fan.
struct Piece {
  std::vector<unsigned short> v;
  std::vector<int> ring_edge;  // per piece edge: the ring edge it lies on, or -1 (internal)
  std::vector<int> internal;   // per piece edge: the piece across an internal edge, or -1
};

/// Vertices: the ring vertices, deduplicated by the mesh's vertex ids, quantised with
/// cs = 1/kQuant (at radius 0 every ring vertex is a lattice point, so exact), plus the
/// centres of split rings (rounded to 1/kQuant cell, far inside any polygon cut into chunks).
struct DetourVerts {
  const Navmesh& m;
  std::vector<int> vid_to_dt;
  std::vector<unsigned short> verts;
  explicit DetourVerts(const Navmesh& mesh) : m(mesh), vid_to_dt(static_cast<size_t>(mesh.vertex_id_count()), -1) {}
  unsigned short ring(int ring_index) {
    const int vid = m.ring_vertex_ids()[static_cast<size_t>(ring_index)];
    int& slot = vid_to_dt[static_cast<size_t>(vid)];
    if (slot < 0) slot = add(m.ring_vertices()[static_cast<size_t>(ring_index)]);
    return static_cast<unsigned short>(slot);
  }
  unsigned short add(Vec2 p) {
    const auto index = static_cast<unsigned short>(verts.size() / 3);
    verts.insert(verts.end(), {quant(p.x), 0, quant(p.y)});
    return index;
  }
};

/// Fan chunks of a polygon with more than kNvp vertices around its centre c:
/// [c, r0 .. rm] with consecutive ring vertices, each spanning less than 180 degrees seen
/// from c so that it is convex; chords c -> r are shared with the neighbouring chunks.
inline void add_fan(const Navmesh& m, const NavPolygon& P, DetourVerts& dv, std::vector<Piece>& pieces) {
  const Vec2 c = P.centre;
  const unsigned short centre = dv.add(c);
  const int first_piece = static_cast<int>(pieces.size());
  auto ring_at = [&](int k) { return P.first + (k % P.count); };
  auto pos = [&](int k) { return m.ring_vertices()[static_cast<size_t>(ring_at(k))]; };
  int k0 = 0;
  while (k0 < P.count) {
    int km = k0 + 1;
    while (km - k0 < kNvp - 2 && km < P.count) {
      const Vec2 a0 = pos(k0) - c, a1 = pos(km + 1) - c;
      if (a0.x * a1.y - a0.y * a1.x <= 1e-12) break;  // would reach 180 degrees
      ++km;
    }
    Piece pc;
    pc.v.push_back(centre);
    pc.ring_edge.push_back(-1);
    pc.internal.push_back(static_cast<int>(pieces.size()) - 1);  // fixed up for the first chunk
    for (int k = k0; k <= km; ++k) {
      pc.v.push_back(dv.ring(ring_at(k)));
      pc.ring_edge.push_back(k < km ? ring_at(k) : -1);
      pc.internal.push_back(k < km ? -1 : static_cast<int>(pieces.size()) + 1);  // fixed up for the last
    }
    pieces.push_back(std::move(pc));
    k0 = km;
  }
  pieces[static_cast<size_t>(first_piece)].internal.front() = static_cast<int>(pieces.size()) - 1;
  pieces.back().internal.back() = first_piece;
}

/// Pieces in Detour's winding: Detour winds its polygons the other way round (its "left"
/// portal end is the edge's first vertex), so every piece is reversed, each edge keeping its data.
inline std::vector<Piece> detour_pieces(const Navmesh& m, DetourVerts& dv, int& split_polys) {
  std::vector<Piece> pieces;
  for (const NavPolygon& P : m.polygons()) {
    if (P.count > kNvp) {
      ++split_polys;
      add_fan(m, P, dv, pieces);
      continue;
    }
    Piece pc;
    for (int e = P.first; e < P.first + P.count; ++e) {
      pc.v.push_back(dv.ring(e));
      pc.ring_edge.push_back(e);
      pc.internal.push_back(-1);
    }
    pieces.push_back(std::move(pc));
  }
  for (Piece& pc : pieces) {
    const size_t n = pc.v.size();
    Piece r;
    for (size_t i = 0; i < n; ++i) {
      r.v.push_back(pc.v[n - 1 - i]);
      const size_t e = (2 * n - 2 - i) % n;  // old edge v[n-2-i] -> v[n-1-i]
      r.ring_edge.push_back(pc.ring_edge[e]);
      r.internal.push_back(pc.internal[e]);
    }
    pc = std::move(r);
  }
  return pieces;
}

/// Detour's polygon array: kNvp vertex indices then kNvp neighbours per polygon, the
/// neighbours from the chunks' shared chords and from our portals.
inline std::vector<unsigned short> detour_polys(const Navmesh& m, const std::vector<Piece>& pieces) {
  std::vector<int> edge_piece(m.ring_vertices().size(), -1);  // ring edge -> piece holding it
  for (size_t k = 0; k < pieces.size(); ++k)
    for (const int e : pieces[k].ring_edge)
      if (e >= 0) edge_piece[static_cast<size_t>(e)] = static_cast<int>(k);
  std::vector<unsigned short> polys(pieces.size() * 2 * kNvp, kNull);
  for (size_t k = 0; k < pieces.size(); ++k) {
    const Piece& pc = pieces[k];
    for (size_t j = 0; j < pc.v.size(); ++j) {
      polys[k * 2 * kNvp + j] = pc.v[j];
      unsigned short nei = kNull;
      if (pc.internal[j] >= 0) {
        nei = static_cast<unsigned short>(pc.internal[j]);
      } else if (pc.ring_edge[j] >= 0) {
        const int e = pc.ring_edge[j];
        const int pid = m.ring_portals()[static_cast<size_t>(e)];
        if (pid >= 0) {
          const NavPortal& p = m.portals()[static_cast<size_t>(pid)];
          const int other_edge = p.edge_a == e ? p.edge_b : p.edge_a;
          nei = static_cast<unsigned short>(edge_piece[static_cast<size_t>(other_edge)]);
        }
      }
      polys[k * 2 * kNvp + kNvp + j] = nei;
    }
  }
  return polys;
}

[[noreturn]] inline void detour_failed(const char* what) {
  std::fprintf(stderr, "%s failed\n", what);
  std::exit(1);
}

/// Detour's nav mesh and query over the given vertices and polygons (one tile, no detail mesh:
/// Detour triangulates each polygon itself, and flat ground needs no more).
inline void create_detour(DetourMesh& out, const Grid& grid, std::vector<unsigned short>& verts,
                          std::vector<unsigned short>& polys, int poly_count) {
  std::vector<unsigned short> flags(static_cast<size_t>(poly_count), 1);
  std::vector<unsigned char> areas(static_cast<size_t>(poly_count), 0);
  dtNavMeshCreateParams params{};
  params.verts = verts.data();
  params.vertCount = static_cast<int>(verts.size() / 3);
  params.polys = polys.data();
  params.polyFlags = flags.data();
  params.polyAreas = areas.data();
  params.polyCount = poly_count;
  params.nvp = kNvp;
  params.detailMeshes = nullptr;
  params.walkableHeight = 1.0f;
  params.walkableRadius = 0.0f;
  params.walkableClimb = 1.0f;
  params.bmin[1] = -1;
  params.bmax[0] = static_cast<float>(grid.width());
  params.bmax[1] = 1;
  params.bmax[2] = static_cast<float>(grid.height());
  params.cs = static_cast<float>(1.0 / kQuant);
  params.ch = 1.0f;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&params, &data, &size)) detour_failed("dtCreateNavMeshData");
  out.nav = dtAllocNavMesh();
  if (dtStatusFailed(out.nav->init(data, size, DT_TILE_FREE_DATA))) detour_failed("dtNavMesh::init");
  out.query = dtAllocNavMeshQuery();
  if (dtStatusFailed(out.query->init(out.nav, 65535))) detour_failed("dtNavMeshQuery::init");
}

}  // namespace detail

/// Detour's copy of our mesh: the same polygons (rings over DT_VERTS_PER_POLYGON vertices cut
/// into convex chunks), the same neighbours. Exits the process if Detour refuses it.
inline std::unique_ptr<DetourMesh> build_detour(const Navmesh& m) {
  auto out = std::make_unique<DetourMesh>();
  detail::DetourVerts dv(m);
  const std::vector<detail::Piece> pieces = detail::detour_pieces(m, dv, out->split_polys);
  std::vector<unsigned short> polys = detail::detour_polys(m, pieces);
  detail::create_detour(*out, m.grid(), dv.verts, polys, static_cast<int>(pieces.size()));
  return out;
}

}  // namespace pathlab::bench
