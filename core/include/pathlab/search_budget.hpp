#pragma once
/// @file search_budget.hpp
/// How much work one search may do before it gives up: an expansion count, a wall-clock time
/// and a cancel flag another thread may raise. Every search of the core (grid, navmesh,
/// heading-aware) takes a SearchBudget and reports which limit stopped it, so a caller (the
/// sandbox's planning worker, the CLI's --time-budget-ms) can bound any query the same way.
///
/// The expansion limit is deterministic; the time limit and the cancel flag are not (they
/// depend on the machine and on another thread), so a simulation that must replay bit for bit
/// uses only the expansion limit.

#include <atomic>
#include <chrono>
#include <cstdint>

namespace pathlab {

/// Limits for one search. The default limits nothing but memory-proportional bounds that a
/// search applies on its own (each search documents its own cap).
struct SearchBudget {
  int64_t max_expansions = 0;  ///< Give up after this many expansions; 0 = no limit. [Limit: >= 0]
  double time_ms = 0.0;        ///< Give up after this much wall-clock time; 0 = no limit. [Units: ms] [Limit: >= 0]
  /// Give up as soon as this flag reads true (checked with the clock); null = never.
  const std::atomic<bool>* cancel = nullptr;
};

/// Why a budgeted search stopped before finishing.
enum class BudgetStop {
  none = 0,       ///< The budget did not stop the search.
  expansions,     ///< max_expansions was reached.
  time,           ///< time_ms ran out.
  cancelled,      ///< The cancel flag was raised.
};

/// Short lower-case name: "none", "expansions", "time", "cancelled".
constexpr const char* to_string(BudgetStop stop) noexcept {
  switch (stop) {
    case BudgetStop::expansions: return "expansions";
    case BudgetStop::time: return "time";
    case BudgetStop::cancelled: return "cancelled";
    case BudgetStop::none: break;
  }
  return "none";
}

/// Counts a search's expansions against its budget. Reading the clock costs tens of
/// nanoseconds, so the time and the cancel flag are looked at only every kCheckEvery
/// expansions: a search overruns its time budget by at most that many expansions.
class BudgetMeter {
 public:
  static constexpr int64_t kCheckEvery = 256;

  explicit BudgetMeter(const SearchBudget& budget)
      : budget_(budget), start_(std::chrono::steady_clock::now()) {}

  /// Call once per expansion; returns the reason to stop, or BudgetStop::none.
  BudgetStop on_expansion() {
    ++expansions_;
    if (budget_.max_expansions > 0 && expansions_ > budget_.max_expansions) return stop(BudgetStop::expansions);
    if (expansions_ % kCheckEvery != 0) return BudgetStop::none;
    return check_clock();
  }

  /// Checks the clock and the cancel flag now (for searches whose steps are expensive).
  BudgetStop check_clock() {
    if (budget_.cancel != nullptr && budget_.cancel->load(std::memory_order_relaxed)) return stop(BudgetStop::cancelled);
    if (budget_.time_ms > 0.0 && elapsed_ms() > budget_.time_ms) return stop(BudgetStop::time);
    return BudgetStop::none;
  }

  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  int64_t expansions() const { return expansions_; }
  BudgetStop stopped() const { return stopped_; }

 private:
  BudgetStop stop(BudgetStop why) { stopped_ = why; return why; }

  SearchBudget budget_;
  std::chrono::steady_clock::time_point start_;
  int64_t expansions_ = 0;
  BudgetStop stopped_ = BudgetStop::none;
};

}  // namespace pathlab
