#pragma once
// FNV-1a over raw bytes, for the benchmarks that print a hash of their results so that two
// builds can be shown to give the same bytes (bench_vehicle_replan's plans, bench_crowd_scale's
// crowd state). Not a checksum of anything stored.

#include <cstddef>
#include <cstdint>

namespace pathlab::bench {

struct Fnv1a {
  uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, size_t n) {
    const unsigned char* b = static_cast<const unsigned char*>(p);
    for (size_t k = 0; k < n; ++k) h = (h ^ b[k]) * 1099511628211ull;
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof v);
  }
};

}  // namespace pathlab::bench
