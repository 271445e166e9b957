#pragma once
// A small pool of worker threads for the phases of a crowd step whose per-unit work is
// independent (neighbour queries and decisions, crowd_neighbors.cpp and crowd_avoid.cpp; the
// measurements). The pool hands out an index range in chunks, each thread taking the next chunk
// when it is done with
// its last, and waits for all of them: what a chunk computes must not depend on the split or on
// which thread runs it (each unit writes only its own state, a thread only its own scratch),
// which is what makes the crowd's bytes the same with 1, 2 or N threads. Chunks, not one
// contiguous part per thread: the 8 groups of bench_crowd_scale lie in index order, so one half
// of the units can cost twice the other (a group queueing at a door), and on a shared machine
// a thread that is descheduled for a while leaves its chunks to the others.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pathlab::crowd {

class WorkerPool {
 public:
  /// What one chunk runs: the units [begin, end), on thread `part` (0 <= part < parts(n)), which
  /// may run several chunks one after the other.
  using Job = std::function<void(int begin, int end, int part)>;

  /// `threads` counts the calling thread: 1 runs everything on it and starts no thread.
  /// [Limit: 1..64]
  explicit WorkerPool(int threads) : threads_(threads) {}
  ~WorkerPool() { stop(); }
  /// A copy (Crowd::clone) has the same thread count and threads of its own, started on its first run.
  WorkerPool(const WorkerPool& o) : threads_(o.threads_) {}
  WorkerPool& operator=(const WorkerPool& o);

  int threads() const noexcept { return threads_; }
  /// How many threads run(n) runs n units on: one per thread, with at least kMinUnitsPerPart
  /// units each (a part's wake-up, some microseconds, costs about one unit's decision).
  int parts(int n) const noexcept;
  /// Calls job(begin, end, part) for chunks covering [0, n) once each, on parts(n) threads
  /// (part 0 the calling thread), and returns when every chunk is done.
  void run(int n, const Job& job);
  /// run(n, job) for a few costly items (the flow fields' repairs): one item per chunk, on up
  /// to n threads, so two costly items run side by side.
  void run_each(int n, const Job& job);

  static constexpr int kMinUnitsPerPart = 4;
  /// Chunks per thread and job: enough that a slow thread's share is taken over, few enough
  /// that taking one (an atomic add) costs nothing beside its units.
  static constexpr int kChunksPerPart = 16;

 private:
  /// Runs job over [0, n) in chunks of `chunk` on `parts` threads (parts >= 2).
  void run_parts(int n, int parts, int chunk, const Job& job);
  void start();
  void stop();
  /// A worker's loop: runs its part of each job after generation `seen`.
  void work(int part, uint64_t seen);
  /// Runs chunks of the current job on thread `part` until none is left.
  void take_chunks(const Job& job, int n, int chunk, int part);

  int threads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;  ///< A new job (generation_) or stop_.
  std::condition_variable done_;  ///< pending_ reached 0.
  const Job* job_ = nullptr;
  int n_ = 0;
  int parts_ = 1;
  int chunk_ = 1;                ///< Units per chunk of the current job.
  std::atomic<int> next_{0};     ///< The first unit of the next chunk to take.
  int pending_ = 0;          ///< Worker parts of the current job not finished yet.
  uint64_t generation_ = 0;  ///< Counts jobs: a worker runs each generation once.
  bool stop_ = false;
};

}  // namespace pathlab::crowd
