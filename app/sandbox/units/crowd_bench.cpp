// The --bench-crowd scenario: deterministic (no random numbers), built in code so the
// benchmark needs no asset file.

#include "units/crowd_bench.hpp"

#include <algorithm>
#include <cmath>

#include "units/units.hpp"

namespace pathlab::sandbox {
namespace {

constexpr int kSide = 256;
constexpr int kWallX = 127;        // the wall's first column (two cells thick)
constexpr int kCols = 10;          // units per row in the scenario's own block
constexpr double kSpacing = 2.2;   // block spacing [cells]: a car's disc and some room
constexpr double kSideRoom = 120.0;  // cells across a side a bigger block may span

bool in_doorway(int y) { return (y >= 100 && y < 108) || (y >= 124 && y < 132) || (y >= 148 && y < 156); }

}  // namespace

io::Scene crowd_bench_scene() {
  io::Scene s;
  s.name = "crowd bench";
  s.grid = Grid::create(kSide, kSide).value();
  for (int y = 0; y < kSide; ++y)
    if (!in_doorway(y))
      for (int x = kWallX; x < kWallX + 2; ++x) s.grid.set_blocked(x, y, true);
  s.start = Pose{Vec2(20.5, 128.5), 0.0};
  s.goal = Pose{Vec2(235.5, 128.5), 0.0};
  return s;
}

std::string spawn_crowd_bench(UnitSwarm& units, const io::Scene& scene, int count) {
  static const char* const kMix[] = {"person", "person", "person", "bear", "car", "person", "tank", "person"};
  count = std::clamp(count, 1, kMaxCrowdBenchUnits);
  const int per_side = (count + 1) / 2;
  // Square blocks (10 x 10 for the scenario's 200), closer than kSpacing only where a block
  // would not fit its side of the map.
  const int cols = std::max(kCols, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(per_side)))));
  const double spacing = std::min(kSpacing, kSideRoom / cols);
  const double x0 = std::max(100.5, 1.5 + spacing * (cols - 1));
  const double y0 = 117.5 - std::max(0.0, spacing * (cols - kCols) / 2.0);
  std::string first;
  for (int i = 0; i < count; ++i) {
    const int k = i % per_side;
    const bool left = i < per_side;
    // Blocks a few cells off the wall, facing it; each unit's goal is its mirror place on the
    // other side, so the two blocks must pass each other through the doorways.
    const double x = x0 - spacing * (k % cols), y = y0 + spacing * (k / cols);
    const double mx = 2.0 * (kWallX + 1) - x;
    const Pose from{Vec2(left ? x : mx, y), left ? 0.0 : kPi};
    const Pose to{Vec2(left ? mx : x, y), left ? 0.0 : kPi};
    const std::string e = units.spawn(scene, kMix[i % 8], from, to);
    if (first.empty()) first = e;
  }
  return first;
}

}  // namespace pathlab::sandbox
