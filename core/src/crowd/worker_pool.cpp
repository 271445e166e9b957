// crowd::WorkerPool: std::thread workers woken by a condition variable for each job.

#include "crowd/worker_pool.hpp"

#include <algorithm>

namespace pathlab::crowd {

WorkerPool& WorkerPool::operator=(const WorkerPool& o) {
  if (this != &o) {
    stop();
    threads_ = o.threads_;
  }
  return *this;
}

int WorkerPool::parts(int n) const noexcept {
  return std::clamp(n / kMinUnitsPerPart, 1, threads_);
}

void WorkerPool::start() {
  stop_ = false;
  const uint64_t now = generation_;  // no worker runs yet: no lock needed
  for (int part = 1; part < threads_; ++part) workers_.emplace_back([this, part, now] { work(part, now); });
}

void WorkerPool::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
  stop_ = false;
}

void WorkerPool::run(int n, const Job& job) {
  const int parts = this->parts(n);
  if (parts == 1) {
    job(0, n, 0);
    return;
  }
  run_parts(n, parts, std::max(kMinUnitsPerPart, (n + parts * kChunksPerPart - 1) / (parts * kChunksPerPart)), job);
}

void WorkerPool::run_each(int n, const Job& job) {
  const int parts = std::clamp(n, 1, threads_);
  if (parts == 1) {
    job(0, n, 0);
    return;
  }
  run_parts(n, parts, 1, job);
}

void WorkerPool::run_parts(int n, int parts, int chunk, const Job& job) {
  if (workers_.empty()) start();
  {
    std::lock_guard<std::mutex> lock(mu_);
    job_ = &job;
    n_ = n;
    parts_ = parts;
    chunk_ = chunk;
    next_.store(0, std::memory_order_relaxed);
    pending_ = threads_ - 1;  // every worker answers, those without a part at once
    ++generation_;
  }
  wake_.notify_all();
  take_chunks(job, n, chunk, 0);
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [this] { return pending_ == 0; });
  job_ = nullptr;
}

void WorkerPool::work(int part, uint64_t seen) {
  for (;;) {
    const Job* job = nullptr;
    int n = 0, parts = 1, chunk = 1;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
      n = n_;
      parts = parts_;
      chunk = chunk_;
    }
    if (part < parts) take_chunks(*job, n, chunk, part);
    bool last = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      last = --pending_ == 0;
    }
    if (last) done_.notify_one();
  }
}

void WorkerPool::take_chunks(const Job& job, int n, int chunk, int part) {
  for (;;) {
    const int begin = next_.fetch_add(chunk, std::memory_order_relaxed);
    if (begin >= n) return;
    job(begin, std::min(n, begin + chunk), part);
  }
}

}  // namespace pathlab::crowd
