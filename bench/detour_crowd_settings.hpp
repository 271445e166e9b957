#pragma once
// DetourCrowd set up as RecastDemo's CrowdTool sets it, shared by bench_crowd,
// bench_crowd_scale and bench_doorway so all compare against the same peer.

#include <DetourCrowd.h>

#include "detour_mesh.hpp"

namespace pathlab::bench {

/// CrowdTool's agent settings for a unit of this radius, top speed and acceleration
/// [Units: cells, cells/s, cells/s^2]: collisionQueryRange 12 radii, pathOptimizationRange 30
/// radii, every update flag (anticipate turns, optimise visibility and topology, obstacle
/// avoidance, separation), separationWeight 2, obstacle avoidance type 3 ("high").
inline dtCrowdAgentParams recastdemo_agent_params(double radius, double speed, double accel) {
  dtCrowdAgentParams p{};
  p.radius = static_cast<float>(radius);
  p.height = 2.0f;
  p.maxAcceleration = static_cast<float>(accel);
  p.maxSpeed = static_cast<float>(speed);
  p.collisionQueryRange = p.radius * 12.0f;
  p.pathOptimizationRange = p.radius * 30.0f;
  p.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                  DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
  p.obstacleAvoidanceType = 3;
  p.separationWeight = 2.0f;
  return p;
}

/// CrowdTool's "high" obstacle avoidance in slot 3: velBias 0.5, adaptiveDivs 7, adaptiveRings 3,
/// adaptiveDepth 3 (the rest as dtCrowd::init leaves it).
inline void set_recastdemo_high_avoidance(dtCrowd& crowd) {
  dtObstacleAvoidanceParams high = *crowd.getObstacleAvoidanceParams(3);
  high.velBias = 0.5f;
  high.adaptiveDivs = 7;
  high.adaptiveRings = 3;
  high.adaptiveDepth = 3;
  crowd.setObstacleAvoidanceParams(3, &high);
}

/// Sends agent `idx` (-1: not added, nothing to do) to the polygon point nearest `goal` on
/// `d`'s mesh (within a cell); false when none is found or DetourCrowd refuses.
inline bool request_move_target(dtCrowd& crowd, DetourMesh& d, int idx, Vec2 goal) {
  const float pos[3] = {static_cast<float>(goal.x), 0.0f, static_cast<float>(goal.y)};
  const float ext[3] = {1.0f, 1.0f, 1.0f};
  dtPolyRef ref = 0;
  float nearest[3];
  if (idx < 0 || dtStatusFailed(d.query->findNearestPoly(pos, ext, &d.filter, &ref, nearest)) || ref == 0) return false;
  return crowd.requestMoveTarget(idx, ref, nearest);
}

}  // namespace pathlab::bench
