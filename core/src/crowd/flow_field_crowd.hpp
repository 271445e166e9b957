#pragma once
// The crowd's flow fields (flow_field.hpp): one per goal cell and radius class, shared by the
// routes of the units of a large group (CrowdDef::flow_field_units), repaired in place when the
// crowd's grid changes (a door). A value type: Crowd::clone copies it with the crowd.

#include <cstdint>
#include <functional>
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

  /// The field towards `goal` for units of radius class `class_radius`, built on first use and
  /// repaired for the cells of `grid` that changed since the last call whose stamp differed;
  /// null when it cannot be built (the caller plans otherwise). The repairs run through
  /// `for_each` (empty: one after the other).
  const FlowField* get(const Grid& grid, const GridStamp& stamp, Cell goal, double class_radius, const ForEach& for_each = {});
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

 private:
  /// Repairs every field for the cells of `grid` that differ from seen_.
  void sync(const Grid& grid, const ForEach& for_each);

  struct Entry {
    Cell goal;
    double radius = 0.0;
    FlowField field;
    int64_t used = 0;  ///< uses_ at its last use.
  };
  std::vector<Entry> entries_;
  std::vector<float> seen_;  ///< The grid's costs the fields are up to date with.
  GridStamp stamp_;
  int64_t uses_ = 0;
  int64_t version_ = 0;
};

}  // namespace pathlab::crowd
