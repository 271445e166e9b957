#pragma once
// Planning off the UI thread. The worker owns its own PlanPipeline and plans a copy of the
// scene, so the UI keeps drawing (the last result, and "planning...") while a slow search runs.
// A newer request supersedes an older one: a request still waiting is replaced, and the one
// running has its cancel flag raised (the core's SearchBudget reads such a flag; the pipeline
// passes it on once its searches take a budget), and its result is dropped when it arrives.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "planning/plan_pipeline.hpp"
#include "planning/replay.hpp"
#include "pathlab/io/scene_file.hpp"

namespace pathlab::sandbox {

/// Wall-clock budget of one plan on the worker: a search that runs longer stops and the
/// result says "budget_exhausted: time" (heading-aware searches keep their best partial path).
/// [Units: ms]
inline constexpr double kWorkerPlanBudgetMs = 1000.0;

/// PATHLAB_PLAN_INLINE (the browser build, web/): submit() plans at once on the calling thread
/// and starts no thread. WebAssembly threads need a page served with cross-origin isolation
/// headers, which plain static hosts do not send; the results are the same, only the frame
/// that submits waits for its plan (at most kWorkerPlanBudgetMs).
#ifdef PATHLAB_PLAN_INLINE
inline constexpr bool kPlansInline = true;
#else
inline constexpr bool kPlansInline = false;
#endif

struct WorkerRequest {
  io::Scene scene;  ///< a copy: the UI may edit its own while this one is planned
  bool record_trace = true;
  uint64_t map_version = 0;  ///< the pipeline forgets its per-map caches when this changes
  int shut_doors = 0;        ///< doors drawn into scene.grid as walls (the result notes them)
  uint64_t serial = 0;       ///< set by submit()
  /// Raised when a newer request supersedes this one.
  std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
};

struct WorkerResult {
  PlanView view;
  uint64_t serial = 0;
  double worker_ms = 0.0;  ///< wall time the worker spent on it [ms]
  /// The search's replay for grid and heading-aware searches (a failed Hybrid A* records
  /// 200,000 poses: loading them is the worker's job, not the frame's); null otherwise.
  std::unique_ptr<ReplayModel> replay;
};

class PlanWorker {
 public:
  PlanWorker();
  ~PlanWorker();  ///< cancels the running plan and joins the thread
  PlanWorker(const PlanWorker&) = delete;
  PlanWorker& operator=(const PlanWorker&) = delete;

  /// Queues a plan; returns its serial. Supersedes every earlier request.
  uint64_t submit(WorkerRequest request);
  /// The newest finished result, once (std::nullopt when none arrived since the last call).
  /// Results of superseded requests are never returned.
  std::optional<WorkerResult> take();
  /// Waits up to `ms` for the latest request to finish; true when it has (take() has it).
  bool wait(double ms);
  /// A request is queued or running.
  bool busy() const;
  uint64_t latest_serial() const;

 private:
  void run();
  /// Plans one request with the worker's pipeline (the worker thread's, or the caller's inline).
  WorkerResult plan_request(const WorkerRequest& req);
  /// Publishes a result unless a newer request superseded it, and wakes wait().
  void finish(WorkerResult result);

  mutable std::mutex mu_;
  std::condition_variable wake_, done_;
  std::optional<WorkerRequest> pending_;
  std::shared_ptr<std::atomic<bool>> running_cancel_;
  /// The newest request's cancel flag: raised when a newer one arrives, whether that request is
  /// still pending, running or already finished, so every superseded request reads "stop".
  std::shared_ptr<std::atomic<bool>> latest_cancel_;
  std::optional<WorkerResult> result_;
  uint64_t next_serial_ = 0, latest_ = 0, finished_ = 0;
  bool running_ = false, quit_ = false;
  PlanPipeline pipeline_;  // used by the worker thread only
  uint64_t pipeline_map_version_ = 0;
  std::thread thread_;  // last: started after everything it reads exists (none when inline)
};

}  // namespace pathlab::sandbox
