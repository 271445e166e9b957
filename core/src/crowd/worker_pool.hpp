#pragma once
// A small pool of worker threads for the phases of a crowd step whose per-unit work is
// independent (neighbour queries and decisions, crowd_avoid.cpp). The pool only splits an index
// range into contiguous parts and waits for all of them: what a part computes must not depend on
// the split (each unit writes only its own state), which is what makes the crowd's bytes the same
// with 1, 2 or N threads.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pathlab::crowd {

class WorkerPool {
 public:
  /// What one part runs: the units [begin, end) of part `part` (0 <= part < parts()).
  using Job = std::function<void(int begin, int end, int part)>;

  /// `threads` counts the calling thread: 1 runs everything on it and starts no thread.
  /// [Limit: 1..64]
  explicit WorkerPool(int threads) : threads_(threads) {}
  ~WorkerPool() { stop(); }
  /// A copy (Crowd::clone) has the same thread count and threads of its own, started on its first run.
  WorkerPool(const WorkerPool& o) : threads_(o.threads_) {}
  WorkerPool& operator=(const WorkerPool& o);

  int threads() const noexcept { return threads_; }
  /// How many parts run(n) splits n units into: one per thread, with at least kMinUnitsPerPart
  /// units each (a part's wake-up, some microseconds, costs about one unit's decision).
  int parts(int n) const noexcept;
  /// Calls job(begin, end, part) for the contiguous parts of [0, n), part 0 on the calling
  /// thread, and returns when every part is done.
  void run(int n, const Job& job);

  static constexpr int kMinUnitsPerPart = 4;

 private:
  void start();
  void stop();
  /// A worker's loop: runs its part of each job after generation `seen`.
  void work(int part, uint64_t seen);
  static int part_begin(int n, int parts, int part) {
    return static_cast<int>(static_cast<int64_t>(n) * part / parts);
  }

  int threads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;  ///< A new job (generation_) or stop_.
  std::condition_variable done_;  ///< pending_ reached 0.
  const Job* job_ = nullptr;
  int n_ = 0;
  int parts_ = 1;
  int pending_ = 0;          ///< Worker parts of the current job not finished yet.
  uint64_t generation_ = 0;  ///< Counts jobs: a worker runs each generation once.
  bool stop_ = false;
};

}  // namespace pathlab::crowd
