#pragma once
/// @file navmesh_search.hpp
/// A* over a navmesh: from a start point to a goal point, the corridor of polygons and the
/// portals between them.
///
/// Two cost models (NavSearchCost):
/// - exact (default): the search nodes are (root, interval) pairs in the manner of Polyanya
///   (Cui, Harabor, Grastien 2017): an interval of a portal seen from a root, the last corner
///   the path bent at (or the start). g is the exact length from the start to the root, h the
///   exact shortest length from the root through the interval to the goal (the goal mirrored
///   across the portal when it lies behind it). f never overestimates and is exact for the
///   path found, so the corridor returned is always the one a shortest path runs through and
///   its funnel path is the Euclidean shortest path on the mesh. Roots are wall corners of the
///   mesh; a root reached again at no smaller cost is pruned. A node with a single successor
///   (on the same root or bending at a new one) is expanded on the spot instead of going
///   through the open list.
/// - portal_points: one node per portal and direction, carrying one point on its portal (the
///   point that minimises |from - x| + |x - goal|); g is the polyline through those points.
///   Cheaper per node but only near-optimal (each portal keeps the first corridor that reached
///   it); kept for comparison. Both beat Detour's fixed edge-midpoint cost.
///
/// Both models skip dead trees: polygons that hang off the rest of the mesh by one portal
/// (peeled in reset(); after a tiled update only around the rebuilt tiles) are entered only toward a goal inside.
/// A goal in another connected component of the mesh is answered without a search.
///
/// Limits: NavQueryOptions::budget (expansions, time, cancel flag; search_budget.hpp) and a
/// node cap proportional to the mesh (kNavNodesPerPortalEdge), so no query grows without
/// limit; a search stopped by either says budget_exhausted and which limit.
///
/// Start == goal (after snapping), or both in one polygon: found at once, with a corridor of
/// that one polygon and the straight length (0 for the same point; the smoothers in
/// navmesh_smooth.hpp then give the single point). Start and goal on a polygon's edge or
/// vertex lie in every polygon around it: the search starts from all of them and ends in any.
///
/// A start or goal in the band the agent radius removed from the mesh is snapped to the
/// nearest mesh point that a straight segment reaches from it without crossing a wall; the
/// result says so. One inside a wall or outside the map is an error. A pinch point, a lattice
/// point where two blocked cells touch only at their corners, is a valid end by default (the
/// Moving AI competition's convention): the search starts from (or ends in) the polygons on
/// both free sides of it, never passing through the point; with an agent radius it is snapped
/// from just inside either free cell. With NavmeshDef::pinch_points_are_wall it counts as wall
/// by the through-a-wall rule (collision.hpp) and the error says "is a pinch point".

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pathlab/funnel.hpp"
#include "pathlab/navmesh.hpp"
#include "pathlab/search_budget.hpp"
#include "pathlab/status.hpp"

namespace pathlab {

/// How the corridor search values partial paths (see the file comment).
enum class NavSearchCost : uint8_t { exact = 0, portal_points = 1 };

/// Default cap on the search nodes one query may create, per portal edge of the mesh (two per
/// portal), on top of kNavMinNodeCap; at about 110 bytes a node, a query stays under 3.5 KB
/// per portal edge. The worst of the 26,537 Moving AI problems (start and goal on cell
/// corners) creates 1.5 nodes per portal edge (random512-10-0: 130k nodes). The exact search
/// can need more: on a field of one-cell pillars every pillar corner becomes a root, and a
/// detour around a wall across the field creates 37 nodes per portal edge on a 120x120 map
/// and 107 on a 240x240 one (2.7 million nodes, 7 s); such a query stops with
/// budget_exhausted ("nodes") unless max_nodes allows more. An unreachable goal costs
/// nothing: it is recognised from the mesh's connected components before any search.
inline constexpr int64_t kNavNodesPerPortalEdge = 32;
/// Smallest default node cap, whatever the mesh's size. [Units: search nodes]
inline constexpr int64_t kNavMinNodeCap = 65536;

/// Search parameters. Start from default_nav_query_options().
struct NavQueryOptions {
  NavSearchCost cost = NavSearchCost::exact;
  bool record_trace = false;   ///< Fill NavSearchResult::trace.
  /// Expansions, wall-clock time, cancel flag (search_budget.hpp). Default: no limit beyond
  /// the node cap below.
  SearchBudget budget;
  /// The older spelling of budget.max_expansions, kept for existing callers: when both are
  /// set the smaller applies. 0 = no limit. [Limit: >= 0]
  int64_t max_expansions = 0;
  /// Give up after creating this many search nodes (the search's memory); 0 = the default for
  /// the mesh: kNavNodesPerPortalEdge per portal edge + kNavMinNodeCap. Every search is bounded
  /// by it, so no query grows without limit. [Units: search nodes] [Limit: >= 0]
  int64_t max_nodes = 0;
};

inline NavQueryOptions default_nav_query_options() { return NavQueryOptions{}; }

/// One step of a navmesh search's history, for replay in the sandbox.
struct NavTraceEvent {
  enum Kind : uint8_t { open = 0, close = 1 };
  int polygon = -1;  ///< The polygon entered through `portal`.
  int portal = -1;
  Kind kind = open;
  float g = 0.0f;    ///< [Units: cells]
  float f = 0.0f;    ///< g plus the straight distance to the goal. [Units: cells]
};

/// The polygons a path runs through and the portals between them, oriented for travel:
/// portals[i] joins polygons[i] and polygons[i+1].
struct NavCorridor {
  std::vector<int> polygons;
  std::vector<int> portal_ids;        ///< Indices into Navmesh::portals().
  std::vector<FunnelPortal> portals;  ///< [Units: cells]
};

struct NavSearchResult {
  bool found = false;
  /// Why not found, for people. A search stopped by a limit says "budget_exhausted: " and the
  /// limit ("expansions", "time", "cancelled", "nodes").
  std::string reason;
  /// The search stopped before it could tell whether a path exists (found is false): a limit
  /// of options.budget (budget_stop) or the node cap (node_cap_reached) was reached.
  bool budget_exhausted = false;
  BudgetStop budget_stop = BudgetStop::none;  ///< Which limit of options.budget, if one.
  bool node_cap_reached = false;              ///< options.max_nodes (or its default) was reached.
  Vec2 start{0, 0}, goal{0, 0};  ///< The query's end points after snapping. [Units: cells]
  bool start_snapped = false;  ///< The start lay in the band the agent radius removed and was moved.
  bool goal_snapped = false;
  NavCorridor corridor;
  int64_t expanded = 0;   ///< Search nodes taken off the open list.
  int64_t generated = 0;  ///< Search nodes pushed onto the open list.
  /// Length of the shortest path through the corridor, when the search knows it (exact cost:
  /// always; otherwise 0). [Units: cells]
  double length = 0.0;
  std::vector<NavTraceEvent> trace;
};

/// A query point resolved against a mesh.
struct NavPoint {
  Vec2 pos{0, 0};  ///< On the mesh. [Units: cells]
  int polygon = -1;
  bool snapped = false;
};

class NavmeshSearchWorkspace;

/// Searches one navmesh, reusing its buffers across queries. The mesh must outlive the query
/// object; after rebuilding the mesh call reset(). Not thread-safe: one per thread.
class NavmeshQuery {
 public:
  explicit NavmeshQuery(const Navmesh& mesh);
  ~NavmeshQuery();
  NavmeshQuery(NavmeshQuery&&) noexcept;
  NavmeshQuery& operator=(NavmeshQuery&&) noexcept;
  /// Points the query at `mesh` and makes its tables (portal edges per polygon, dead trees,
  /// components) for it. When `mesh` is this query's mesh after a tiled Navmesh::update()
  /// (its last_change() starts at the revision the tables are for; the mesh may be a copy),
  /// the portal edges, dead trees and components are patched around the rebuilt tiles instead
  /// of rebuilt whole: the tables equal a fresh query's (table_difference()).
  void reset(const Navmesh& mesh);
  /// For tests: empty when this query's mesh tables equal `other`'s field for field, else the
  /// first table and index that differ.
  std::string table_difference(const NavmeshQuery& other) const;

  /// Locates p on the mesh, snapping it when it lies in the removed band. Errors: not finite
  /// (invalid_argument), outside the map (out_of_bounds), inside a wall, a pinch point or with
  /// no mesh point reachable from it (blocked). `what` names the point in messages ("start",
  /// "goal").
  Result<NavPoint> resolve(Vec2 p, const std::string& what) const;

  /// Finds the corridor from start to goal. No path is not an error: found == false (with
  /// budget_exhausted when a limit stopped the search). Errors: those of resolve() for either
  /// end, and a negative or non-finite limit in `options` (invalid_argument, naming it).
  Result<NavSearchResult> find_corridor(Vec2 start, Vec2 goal,
                                        const NavQueryOptions& options = default_nav_query_options());

 private:
  std::unique_ptr<NavmeshSearchWorkspace> ws_;  // tables and buffers (core/src/navmesh)
};

}  // namespace pathlab
