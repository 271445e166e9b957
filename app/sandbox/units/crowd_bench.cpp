// The --bench-crowd scenario: deterministic (no random numbers), built in code so the
// benchmark needs no asset file.

#include "units/crowd_bench.hpp"

#include "units/units.hpp"

namespace pathlab::sandbox {
namespace {

constexpr int kSide = 256;
constexpr int kWallX = 127;        // the wall's first column (two cells thick)
constexpr int kPerSide = 100;      // units on each side
constexpr int kCols = 10;          // units per row in a block
constexpr double kSpacing = 2.2;   // block spacing [cells]: a car's disc and some room

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

std::string spawn_crowd_bench(UnitSwarm& units, const io::Scene& scene) {
  static const char* const kMix[] = {"person", "person", "person", "bear", "car", "person", "tank", "person"};
  std::string first;
  for (int i = 0; i < 2 * kPerSide; ++i) {
    const int k = i % kPerSide;
    const bool left = i < kPerSide;
    // Blocks of 10 x 10 a few cells off the wall, facing it; each unit's goal is its mirror
    // place on the other side, so the two blocks must pass each other through the doorways.
    const double x = 100.5 - kSpacing * (k % kCols), y = 117.5 + kSpacing * (k / kCols);
    const double mx = 2.0 * (kWallX + 1) - x;
    const Pose from{Vec2(left ? x : mx, y), left ? 0.0 : kPi};
    const Pose to{Vec2(left ? mx : x, y), left ? 0.0 : kPi};
    const std::string e = units.spawn(scene, kMix[i % 8], from, to);
    if (first.empty()) first = e;
  }
  return first;
}

}  // namespace pathlab::sandbox
