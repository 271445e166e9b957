#include "planning/plan_worker.hpp"

#include <chrono>
#include <string>

namespace pathlab::sandbox {

PlanWorker::PlanWorker() {
  if (!kPlansInline) thread_ = std::thread([this] { run(); });
}

PlanWorker::~PlanWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    quit_ = true;
    if (running_cancel_) running_cancel_->store(true);
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t PlanWorker::submit(WorkerRequest request) {
  uint64_t serial = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    serial = ++next_serial_;
    request.serial = serial;
    latest_ = serial;
    if (pending_) pending_->cancel->store(true);
    if (running_cancel_) running_cancel_->store(true);  // superseded: stop as soon as the search looks
    // A request the worker finished before this call is superseded too; before, its flag stayed
    // down when the worker won the race, and callers holding it could not tell.
    if (latest_cancel_) latest_cancel_->store(true);
    latest_cancel_ = request.cancel;
    if (!kPlansInline) pending_ = std::move(request);
  }
  if (kPlansInline) {
    finish(plan_request(request));
    return serial;
  }
  wake_.notify_one();
  return serial;
}

std::optional<WorkerResult> PlanWorker::take() {
  std::lock_guard<std::mutex> lock(mu_);
  std::optional<WorkerResult> r = std::move(result_);
  result_.reset();
  return r;
}

bool PlanWorker::wait(double ms) {
  std::unique_lock<std::mutex> lock(mu_);
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(ms);
  return done_.wait_until(lock, until, [this] { return finished_ >= latest_; });
}

bool PlanWorker::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return finished_ < latest_;
}

uint64_t PlanWorker::latest_serial() const {
  std::lock_guard<std::mutex> lock(mu_);
  return latest_;
}

void PlanWorker::run() {
  for (;;) {
    WorkerRequest req;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [this] { return quit_ || pending_.has_value(); });
      if (quit_) return;
      req = std::move(*pending_);
      pending_.reset();
      running_ = true;
      running_cancel_ = req.cancel;
    }
    finish(plan_request(req));
  }
}

WorkerResult PlanWorker::plan_request(const WorkerRequest& req) {
  if (req.map_version != pipeline_map_version_) {
    pipeline_.map_changed();
    pipeline_map_version_ = req.map_version;
  }
  const auto t0 = std::chrono::steady_clock::now();
  SearchBudget budget;  // a newer request or a long search stops this one, with its reason
  budget.time_ms = kWorkerPlanBudgetMs;
  budget.cancel = req.cancel.get();
  PlanView view = pipeline_.plan(req.scene, req.record_trace, budget);
  if (req.shut_doors > 0) {
    const std::string doors = std::to_string(req.shut_doors) + " shut door(s) count as walls for this path";
    if (view.error.empty()) view.result.notes.push_back(doors);
    else view.error += " (" + doors + ")";  // a start or goal in a shut door reads "in a wall"
  }
  std::unique_ptr<ReplayModel> replay;
  if (!view.result.trace.empty()) {
    replay = std::make_unique<ReplayModel>();
    replay->load_grid(view.result.trace, req.scene.grid.width(), req.scene.grid.height());
  } else if (!view.result.pose_trace.empty()) {
    replay = std::make_unique<ReplayModel>();
    replay->load_poses(view.result.pose_trace);
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return WorkerResult{std::move(view), req.serial, ms, std::move(replay)};
}

void PlanWorker::finish(WorkerResult result) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    running_ = false;
    running_cancel_.reset();
    if (result.serial == latest_) {  // a superseded result is never shown
      finished_ = result.serial;
      result_ = std::move(result);
    }
  }
  done_.notify_all();
}

}  // namespace pathlab::sandbox
