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

inline std::unique_ptr<DetourMesh> build_detour(const Navmesh& m) {
  constexpr int nvp = DT_VERTS_PER_POLYGON;
  constexpr unsigned short kNull = 0xffff;
  auto out = std::make_unique<DetourMesh>();
  // Vertices: the ring vertices, deduplicated by the mesh's vertex ids, quantised with
  // cs = 1/kQuant (at radius 0 every ring vertex is a lattice point, so exact), plus the
  // centres of split rings (rounded to 1/kQuant cell, far inside any polygon cut into chunks).
  std::vector<int> vid_to_dt(static_cast<size_t>(m.vertex_id_count()), -1);
  std::vector<unsigned short> verts;
  auto vertex = [&](int ring_index) -> unsigned short {
    const int vid = m.ring_vertex_ids()[static_cast<size_t>(ring_index)];
    int& slot = vid_to_dt[static_cast<size_t>(vid)];
    if (slot < 0) {
      const Vec2 p = m.ring_vertices()[static_cast<size_t>(ring_index)];
      slot = static_cast<int>(verts.size() / 3);
      verts.insert(verts.end(), {quant(p.x), 0, quant(p.y)});
    }
    return static_cast<unsigned short>(slot);
  };
  // Pieces: a whole ring when it fits in DT_VERTS_PER_POLYGON, else a fan of chunks.
  struct Piece {
    std::vector<unsigned short> v;
    std::vector<int> ring_edge;  // per piece edge: the ring edge it lies on, or -1 (internal)
    std::vector<int> internal;   // per piece edge: the piece across an internal edge, or -1
  };
  std::vector<Piece> pieces;
  std::vector<int> edge_piece(m.ring_vertices().size(), -1);  // ring edge -> piece holding it
  for (size_t id = 0; id < m.polygons().size(); ++id) {
    const NavPolygon& P = m.polygons()[id];
    if (P.count <= nvp) {
      Piece pc;
      for (int e = P.first; e < P.first + P.count; ++e) {
        pc.v.push_back(vertex(e));
        pc.ring_edge.push_back(e);
        pc.internal.push_back(-1);
      }
      pieces.push_back(std::move(pc));
      continue;
    }
    ++out->split_polys;
    // Fan chunks around the polygon's centroid c:
    // [c, r0 .. rm] with consecutive ring vertices, each spanning less than 180 degrees seen
    // from c so that it is convex; chords c -> r are shared with the neighbouring chunks.
    const Vec2 c = P.centre;
    const auto centre = static_cast<unsigned short>(verts.size() / 3);
    verts.insert(verts.end(), {quant(c.x), 0, quant(c.y)});
    const int first_piece = static_cast<int>(pieces.size());
    auto ring_at = [&](int k) { return P.first + (k % P.count); };
    auto pos = [&](int k) { return m.ring_vertices()[static_cast<size_t>(ring_at(k))]; };
    int k0 = 0;
    while (k0 < P.count) {
      int km = k0 + 1;
      while (km - k0 < nvp - 2 && km < P.count) {
        const Vec2 a0 = pos(k0) - c, a1 = pos(km + 1) - c;
        if (a0.x * a1.y - a0.y * a1.x <= 1e-12) break;  // would reach 180 degrees
        ++km;
      }
      Piece pc;
      pc.v.push_back(centre);
      pc.ring_edge.push_back(-1);
      pc.internal.push_back(static_cast<int>(pieces.size()) - 1);  // fixed up for the first chunk
      for (int k = k0; k <= km; ++k) {
        pc.v.push_back(vertex(ring_at(k)));
        pc.ring_edge.push_back(k < km ? ring_at(k) : -1);
        pc.internal.push_back(k < km ? -1 : static_cast<int>(pieces.size()) + 1);  // fixed up for the last
      }
      pieces.push_back(std::move(pc));
      k0 = km;
    }
    pieces[static_cast<size_t>(first_piece)].internal.front() = static_cast<int>(pieces.size()) - 1;
    pieces.back().internal.back() = first_piece;
  }
  // Detour winds its polygons the other way round (its "left" portal end is the edge's first
  // vertex): reverse every piece, keeping each edge's data with its edge.
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
  for (size_t k = 0; k < pieces.size(); ++k)
    for (size_t j = 0; j < pieces[k].ring_edge.size(); ++j)
      if (pieces[k].ring_edge[j] >= 0) {
        edge_piece[static_cast<size_t>(pieces[k].ring_edge[j])] = static_cast<int>(k);
      }
  // Polygons with their neighbours.
  std::vector<unsigned short> polys(pieces.size() * 2 * nvp, kNull);
  std::vector<unsigned short> flags(pieces.size(), 1);
  std::vector<unsigned char> areas(pieces.size(), 0);
  for (size_t k = 0; k < pieces.size(); ++k) {
    const Piece& pc = pieces[k];
    const int n = static_cast<int>(pc.v.size());
    for (int j = 0; j < n; ++j) {
      polys[k * 2 * nvp + static_cast<size_t>(j)] = pc.v[static_cast<size_t>(j)];
      unsigned short nei = kNull;
      if (pc.internal[static_cast<size_t>(j)] >= 0) {
        nei = static_cast<unsigned short>(pc.internal[static_cast<size_t>(j)]);
      } else if (pc.ring_edge[static_cast<size_t>(j)] >= 0) {
        const int e = pc.ring_edge[static_cast<size_t>(j)];
        const int pid = m.ring_portals()[static_cast<size_t>(e)];
        if (pid >= 0) {
          const NavPortal& p = m.portals()[static_cast<size_t>(pid)];
          const int other_edge = p.edge_a == e ? p.edge_b : p.edge_a;
          nei = static_cast<unsigned short>(edge_piece[static_cast<size_t>(other_edge)]);
        }
      }
      polys[k * 2 * nvp + static_cast<size_t>(nvp + j)] = nei;
    }
  }
  dtNavMeshCreateParams params{};
  params.verts = verts.data();
  params.vertCount = static_cast<int>(verts.size() / 3);
  params.polys = polys.data();
  params.polyFlags = flags.data();
  params.polyAreas = areas.data();
  params.polyCount = static_cast<int>(pieces.size());
  params.nvp = nvp;
  // No detail mesh: Detour triangulates each polygon itself (flat ground needs no more).
  params.detailMeshes = nullptr;
  params.walkableHeight = 1.0f;
  params.walkableRadius = 0.0f;
  params.walkableClimb = 1.0f;
  params.bmin[0] = 0;
  params.bmin[1] = -1;
  params.bmin[2] = 0;
  params.bmax[0] = static_cast<float>(m.grid().width());
  params.bmax[1] = 1;
  params.bmax[2] = static_cast<float>(m.grid().height());
  params.cs = static_cast<float>(1.0 / kQuant);
  params.ch = 1.0f;
  params.buildBvTree = true;
  unsigned char* data = nullptr;
  int size = 0;
  if (!dtCreateNavMeshData(&params, &data, &size)) {
    std::fprintf(stderr, "dtCreateNavMeshData failed\n");
    std::exit(1);
  }
  out->nav = dtAllocNavMesh();
  if (dtStatusFailed(out->nav->init(data, size, DT_TILE_FREE_DATA))) {
    std::fprintf(stderr, "dtNavMesh::init failed\n");
    std::exit(1);
  }
  out->query = dtAllocNavMeshQuery();
  if (dtStatusFailed(out->query->init(out->nav, 65535))) {
    std::fprintf(stderr, "dtNavMeshQuery::init failed\n");
    std::exit(1);
  }
  return out;
}

}  // namespace pathlab::bench
