#pragma once
// The CPU time of the calling thread, which the benchmarks report instead of wall time: the
// machine they run on may be shared. Header-only, bench/ only.

#include <time.h>

namespace pathlab::bench {

/// CPU time of the calling thread. [Units: ms]
inline double thread_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

/// CPU time of the calling thread. [Units: s]
inline double thread_seconds() { return thread_ms() * 1e-3; }

}  // namespace pathlab::bench
