// SearchBudget / BudgetMeter: the one budget every search takes.
#include <doctest/doctest.h>

#include <thread>

#include "pathlab/search_budget.hpp"

using pathlab::BudgetMeter;
using pathlab::BudgetStop;
using pathlab::SearchBudget;

TEST_CASE("an empty budget never stops a search") {
  BudgetMeter meter(SearchBudget{});
  for (int i = 0; i < 10000; ++i) REQUIRE(meter.on_expansion() == BudgetStop::none);
  CHECK(meter.stopped() == BudgetStop::none);
  CHECK(meter.expansions() == 10000);
}

TEST_CASE("max_expansions allows exactly that many expansions") {
  SearchBudget budget;
  budget.max_expansions = 5;
  BudgetMeter meter(budget);
  for (int i = 0; i < 5; ++i) REQUIRE(meter.on_expansion() == BudgetStop::none);
  CHECK(meter.on_expansion() == BudgetStop::expansions);
  CHECK(meter.stopped() == BudgetStop::expansions);
  CHECK(std::string(pathlab::to_string(meter.stopped())) == "expansions");
}

TEST_CASE("a raised cancel flag stops the search at the next clock check") {
  std::atomic<bool> cancel{false};
  SearchBudget budget;
  budget.cancel = &cancel;
  BudgetMeter meter(budget);
  for (int64_t i = 0; i < 2 * BudgetMeter::kCheckEvery; ++i) REQUIRE(meter.on_expansion() == BudgetStop::none);
  cancel = true;
  BudgetStop stop = BudgetStop::none;
  int64_t steps = 0;
  while (stop == BudgetStop::none && steps <= BudgetMeter::kCheckEvery) {
    stop = meter.on_expansion();
    ++steps;
  }
  CHECK(stop == BudgetStop::cancelled);
  CHECK(steps <= BudgetMeter::kCheckEvery);
}

TEST_CASE("the time budget stops a search once the time has passed") {
  SearchBudget budget;
  budget.time_ms = 50.0;
  BudgetMeter meter(budget);
  CHECK(meter.check_clock() == BudgetStop::none);
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  CHECK(meter.check_clock() == BudgetStop::time);
  CHECK(meter.elapsed_ms() >= 50.0);
}
