#pragma once
// The crowd's flow fields (flow_field.hpp): one per goal cell and radius class, shared by the
// routes of the units of a large group (CrowdDef::flow_field_units), repaired in place when the
// crowd's grid changes (a door). A value type: Crowd::clone copies it with the crowd.

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "pathlab/flow_field.hpp"
#include "pathlab/grid.hpp"

namespace pathlab::crowd {

/// When the crowd's grid may have changed: its version (CrowdImpl::queue_version_, which
/// changes whenever the grid is taken afresh) and the doors' open flags. A field is checked
/// against the grid again only when this differs from the last call's.
struct GridStamp {
  int64_t version = -1;
  std::vector<uint8_t> doors_open;
  friend bool operator==(const GridStamp&, const GridStamp&) = default;
};

class FlowFields {
 public:
  /// Calls item(k) once for each k in [0, n), in any order and on any thread, and returns
  /// when all are done (the crowd's worker pool); each item touches only its own field.
  using ForEach = std::function<void(int n, const std::function<void(int k)>& item)>;

  /// At most this many fields are kept; the one used longest ago makes room.
  static constexpr size_t kMaxFields = 16;

  /// Repairs the fields for the cells of `grid` that changed since the last call whose stamp
  /// differed (none while set_beside). The repairs run through `for_each` (empty: one after the
  /// other). With `spread`, a stamp that differs from the last only in its version (the queues
  /// taken afresh, no door changed) starts a spread repair instead (advance_repair,
  /// finish_repair): the fields stay as they were until it has repaired them.
  void sync(const Grid& grid, const GridStamp& stamp, const ForEach& for_each = {}, bool spread = false);
  /// The field towards `goal` for units of radius class `class_radius`, built on `grid` (the
  /// grid of the last sync()) on first use; null when it cannot be built (the caller plans
  /// otherwise).
  const FlowField* get(const Grid& grid, Cell goal, double class_radius);
  /// While on, a share of the spread repair (advance_repair without copies) runs on another
  /// thread: sync() changes nothing (the crowd syncs before, and nothing changes its grid
  /// meanwhile), and get() only reads or builds fields.
  void set_beside(bool on) noexcept { beside_ = on; }
  bool beside() const noexcept { return beside_; }  ///< set_beside
  /// Whether a spread repair is under way.
  bool repairing() const noexcept { return repair_.active; }
  /// Does up to about `budget` cells' work of the spread repair (FlowField::continue_update's
  /// cells, a field's copy counted as kCopyWork), field after field in the order they were
  /// kept, stopping at a field repaired until finish_repair takes it: how far it gets depends
  /// only on the budgets, never on time or threads.
  /// Writes only the repair's own copies and reads the fields without changing them, so it may
  /// run beside anything but get() and finish_repair(). [Limit: budget >= 1]
  /// Without `may_copy`, it neither compares the grid nor copies a field (it reads nothing
  /// get() may change), stopping at a field not copied yet.
  void advance_repair(int64_t budget, bool may_copy = true);
  /// The field the spread repair has finished replaces the one read until then (a version
  /// change); true when one did. A field dropped or built meanwhile is left as it is. The
  /// repair ends when the last is done.
  bool finish_repair();
  /// advance_repair's cost of copying a field before it is repaired (a copy of 3.5 MB on a
  /// 512x512 map takes about as long as this many cells of the repair). [Units: cells]
  static constexpr int64_t kCopyWork = 6000;
  /// The field towards `goal` for radius `class_radius` on `grid`: towards the goal cell, or
  /// where its centre is too tight for the radius, towards its neighbours that are not.
  /// Errors: no room at or around the goal, a bad radius.
  static Result<FlowField> build_towards(const Grid& grid, Cell goal, double class_radius);
  /// The radius a unit's field is built for: 0.5 for every radius up to 0.5 (where a cell is
  /// passable when it is free), else the radius rounded up to a quarter cell. [Units: cells]
  static double class_radius(double radius);
  size_t memory_bytes() const noexcept;  ///< Heap bytes of the fields and the grid copy. [Units: bytes]
  /// The field towards `goal` for `class_radius` as it is now, without building or repairing
  /// one (null when there is none): for reading on worker threads between calls of get().
  const FlowField* find(Cell goal, double class_radius) const;
  /// Changes when a field is built, dropped or repaired: a route read from find()'s field
  /// stands for get()'s while this is the same.
  int64_t version() const noexcept { return version_; }

  /// A large group as share_routes() sees it: its field's key and the cells its units stand on.
  struct GroupFrom {
    Cell goal;
    double radius = 0.0;
    std::vector<Cell> from;
  };
  /// The field a group towards `goal` for `class_radius` gets on `grid`, built afresh: with the
  /// other groups' routes made dearer once share_routes() has spread them (as get() builds it).
  /// Errors: as build_towards().
  Result<FlowField> build_shared(const Grid& grid, Cell goal, double class_radius) const;
  /// Whether share_routes() gave the field towards `goal` for `class_radius` its share.
  bool shared(Cell goal, double class_radius) const;
  /// Spreads the groups' routes by traffic (flow_field_share.cpp): each group's field is built
  /// with the cells where the other groups' routes run made dearer, and keeps that cost through
  /// its repairs and rebuilds. Replaces the fields of these groups (built on `grid`, the grid of
  /// the last sync()); the second pass runs through `for_each`. Deterministic: the same groups
  /// in the same order give the same bytes. [Limit: at most kMaxFields groups are shared]
  void share_routes(const Grid& grid, const std::vector<GroupFrom>& groups, const ForEach& for_each = {});
  /// How many groups share_routes() shared (their fields pay for the others' routes).
  int shared_count() const noexcept;
  /// The goal and class radius of the k-th shared group, in share_routes()'s order. [Limit: 0 <= k < shared_count()]
  std::pair<Cell, double> shared_group(int k) const;
  /// The squares rebuild_with_density() takes costs by: this many cells a side, row after row
  /// from the map's corner (0, 0). [Units: cells]
  static constexpr int kDensitySquare = 4;
  /// Builds the k-th shared group's field afresh on `grid` (the grid of the last sync()) with
  /// `density` (square index, extra cost multiplier of its free cells; in index order) added
  /// to its share: the other groups' units as they stand now (flow_field_density.cpp). The cost
  /// goes with the field through its repairs until the next call for the group or
  /// share_routes(). False, and the field left as it was, when it cannot be built.
  /// [Limit: 0 <= k < shared_count()]
  bool rebuild_with_density(const Grid& grid, int k, std::vector<std::pair<int32_t, float>> density);

 private:
  /// Repairs every field for the cells of `grid` that differ from seen_ (or from a spread
  /// repair's grid), at once.
  void repair_now(const Grid& grid, const ForEach& for_each);

  struct Entry {
    Cell goal;
    double radius = 0.0;
    FlowField field;
    int64_t used = 0;  ///< uses_ at its last use.
    int64_t serial = 0;  ///< Tells a field built anew (share_routes) from the one a spread repair copied.
  };
  /// A group's route as share_routes() traced it: the band round it, cells in index order.
  /// Each group's field pays for the other groups' bands (add_bands); kept as bands, not as
  /// each group's costs, which took 4.4 MB for bench_crowd_scale's 8 groups.
  struct Share {
    Cell goal;
    double radius = 0.0;
    std::vector<int32_t> band;
    /// Extra cost multipliers of the group's own field, by square (rebuild_with_density): kept
    /// by square, not by cell, 16 times smaller (a crowd of 10,000 covers thousands of squares).
    std::vector<std::pair<int32_t, float>> density;
  };
  /// Drops the field used longest ago when kMaxFields are kept (for one more).
  void make_room();
  /// The group's (goal, radius) field built anew: the one kept before (and a spread repair's
  /// copy of it: the serials differ) dropped, then `built` kept, if any, as the one used last
  /// (make_room() first).
  void replace(Cell goal, double radius, std::optional<FlowField> built);
  /// The index in shares_ of the group of `goal` and `radius`; -1 when none.
  int share_of(Cell goal, double radius) const;
  /// `grid` with the cells of the bands of `shares` other than the k-th dearer (kShareCost per
  /// band, at most kShareCostMax in all) and the k-th's own density cost added (by square), into
  /// `scratch`; `grid` itself when there is neither.
  static const Grid& add_bands(const Grid& grid, const std::vector<Share>& shares, int k, Grid& scratch);
  /// The grid a group's field is built and repaired on: `grid` with its share (add_bands).
  const Grid& with_share(const Grid& grid, Cell goal, double radius, Grid& scratch) const;
  /// A repair spread over calls of advance_repair: each kept field's copy is repaired for the
  /// cells of `grid` (the crowd's grid when it began) that differ from seen_, and replaces the
  /// field (finish_repair): until the last, some fields are up to date with seen_, the others
  /// with `grid`.
  struct Repair {
    bool active = false;
    Grid grid;
    bool diffed = false;        ///< `changed` holds the cells that differ.
    std::vector<Cell> changed;
    struct Copy {
      Cell goal;
      double radius = 0.0;
      FlowField field;
      int64_t serial = 0;  ///< The serial of the entry it copied.
      int stage = 0;  ///< 0: not copied yet, 1: searching, 2: repaired, 3: left as it is, 4: failed (to be dropped), 5: taken
    };
    std::vector<Copy> copies;  ///< One per field kept when it began, in their order.
    size_t next = 0;           ///< The first copy not repaired yet.
  };
  /// Starts a spread repair towards `grid` (finishing one under way first, at once).
  void start_repair(const Grid& grid);
  /// One copy's share of advance_repair's work; returns the work done. [Units: cells]
  int64_t advance_copy(Repair::Copy& copy, int64_t budget);
  std::vector<Entry> entries_;
  std::vector<Share> shares_;  ///< share_routes()'s, one per group it was given.
  int64_t serials_ = 0;  ///< Counts the fields built, for Entry::serial.
  Repair repair_;
  FlowField spare_;  ///< The storage of the field a spread repair replaced last, for its next copy.
  bool beside_ = false;  ///< set_beside
  std::vector<float> seen_;  ///< The grid's costs the fields are up to date with.
  GridStamp stamp_;
  int64_t uses_ = 0;
  int64_t version_ = 0;
};

}  // namespace pathlab::crowd
