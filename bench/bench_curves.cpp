// Length of the shortest Dubins and Reeds-Shepp paths: ours against OMPL's
// DubinsStateSpace / ReedsSheppStateSpace distance(), on the same pose pairs in the same
// process. Each iteration runs over a fixed set of 1024 random pairs (within 50 turning radii,
// a mix of near and far), so the reported time per iteration / 1024 is ns per call; the
// counter per_call says it directly (seconds, SI prefix). CC-Dubins and CC-Reeds-Shepp
// (cc_curves.hpp) on the same pairs: the length alone and the whole path (segments built).
//
//   bench_curves --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include <ompl/base/spaces/DubinsStateSpace.h>
#include <ompl/base/spaces/ReedsSheppStateSpace.h>

#include "pathlab/cc_curves.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/turn_to_point.hpp"

namespace {

namespace ob = ompl::base;
using pathlab::Pose;

constexpr double kRadius = 2.5;
// CC curves: kappa_max^2 / sigma = 1 rad (full lock over 2.5 cells), the ratio of Banzhaf et
// al.'s 2017 benchmark (kappa 1 / m, sigma 1 / m^2), so the clothoids take the same share.
constexpr double kSharpness = 1.0 / (kRadius * kRadius);
constexpr size_t kPairs = 1024;

struct Pairs {
  std::vector<Pose> from, to;
};

const Pairs& pairs() {
  static const Pairs p = [] {
    Pairs out;
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> heading(-pathlab::kPi, pathlab::kPi);
    for (size_t i = 0; i < kPairs; ++i) {
      const double span = (i % 2 == 0 ? 5.0 : 50.0) * kRadius;
      std::uniform_real_distribution<double> coord(-span, span);
      out.from.push_back(Pose{{coord(rng), coord(rng)}, heading(rng)});
      out.to.push_back(Pose{{coord(rng), coord(rng)}, heading(rng)});
    }
    return out;
  }();
  return p;
}

// Seconds per call, printed with an SI prefix (e.g. "95.2n" = 95.2 ns).
void count_calls(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPairs));
  state.counters["per_call"] = benchmark::Counter(static_cast<double>(kPairs),
                                                  benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}

template <class Fn>
void run_ours(benchmark::State& state, Fn fn) {
  const Pairs& p = pairs();
  for (auto _ : state) {
    double sum = 0.0;
    for (size_t i = 0; i < kPairs; ++i) sum += fn(p.from[i], p.to[i]);
    benchmark::DoNotOptimize(sum);
  }
  count_calls(state);
}

template <class Space>
void run_ompl(benchmark::State& state) {
  const Pairs& p = pairs();
  Space space(kRadius);
  std::vector<ob::State*> a, b;
  for (size_t i = 0; i < kPairs; ++i) {
    a.push_back(space.allocState());
    b.push_back(space.allocState());
    auto* sa = a.back()->template as<ob::SE2StateSpace::StateType>();
    auto* sb = b.back()->template as<ob::SE2StateSpace::StateType>();
    sa->setXY(p.from[i].pos.x, p.from[i].pos.y);
    sa->setYaw(p.from[i].heading);
    sb->setXY(p.to[i].pos.x, p.to[i].pos.y);
    sb->setYaw(p.to[i].heading);
  }
  for (auto _ : state) {
    double sum = 0.0;
    for (size_t i = 0; i < kPairs; ++i) sum += space.distance(a[i], b[i]);
    benchmark::DoNotOptimize(sum);
  }
  count_calls(state);
  for (size_t i = 0; i < kPairs; ++i) {
    space.freeState(a[i]);
    space.freeState(b[i]);
  }
}

void BM_DubinsLength_pathlab(benchmark::State& state) {
  run_ours(state, [](const Pose& a, const Pose& b) { return *pathlab::dubins_length(a, b, kRadius); });
}
void BM_DubinsLength_ompl(benchmark::State& state) { run_ompl<ob::DubinsStateSpace>(state); }
void BM_ReedsSheppLength_pathlab(benchmark::State& state) {
  run_ours(state, [](const Pose& a, const Pose& b) { return *pathlab::reeds_shepp_length(a, b, kRadius); });
}
void BM_ReedsSheppLength_ompl(benchmark::State& state) { run_ompl<ob::ReedsSheppStateSpace>(state); }
void BM_DubinsPath_pathlab(benchmark::State& state) {
  run_ours(state, [](const Pose& a, const Pose& b) { return pathlab::dubins_path(a, b, kRadius)->length(); });
}
void BM_ReedsSheppPath_pathlab(benchmark::State& state) {
  run_ours(state, [](const Pose& a, const Pose& b) { return pathlab::reeds_shepp_path(a, b, kRadius)->length(); });
}
void BM_TurnToPoint_pathlab(benchmark::State& state) {
  run_ours(state, [](const Pose& a, const Pose& b) { return pathlab::turn_to_point(a, b.pos, kRadius)->length; });
}

void BM_CcDubinsLength_pathlab(benchmark::State& state) {
  run_ours(state, [](const Pose& a, const Pose& b) { return *pathlab::cc_dubins_length(a, b, kRadius, kSharpness); });
}
void BM_CcDubinsPath_pathlab(benchmark::State& state) {
  run_ours(state, [](const Pose& a, const Pose& b) { return pathlab::cc_dubins(a, b, kRadius, kSharpness)->length; });
}
void BM_CcReedsSheppLength_pathlab(benchmark::State& state) {
  run_ours(state,
           [](const Pose& a, const Pose& b) { return *pathlab::cc_reeds_shepp_length(a, b, kRadius, kSharpness); });
}
void BM_CcReedsSheppPath_pathlab(benchmark::State& state) {
  run_ours(state,
           [](const Pose& a, const Pose& b) { return pathlab::cc_reeds_shepp(a, b, kRadius, kSharpness)->length; });
}

}  // namespace

BENCHMARK(BM_CcDubinsLength_pathlab);
BENCHMARK(BM_CcDubinsPath_pathlab);
BENCHMARK(BM_CcReedsSheppLength_pathlab);
BENCHMARK(BM_CcReedsSheppPath_pathlab);
BENCHMARK(BM_DubinsLength_pathlab);
BENCHMARK(BM_DubinsLength_ompl);
BENCHMARK(BM_ReedsSheppLength_pathlab);
BENCHMARK(BM_ReedsSheppLength_ompl);
BENCHMARK(BM_DubinsPath_pathlab);
BENCHMARK(BM_ReedsSheppPath_pathlab);
BENCHMARK(BM_TurnToPoint_pathlab);

BENCHMARK_MAIN();
