// Issue 17 (hostile input): every reproducer of the fuzzing report, as a test. Each failed
// before the fix (crash, hang, huge allocation, undefined behaviour or a multi-line message)
// and must now give one clear error or a bounded answer.

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "cli_support.hpp"
#include "pathlab/sample_limit.hpp"

using namespace pathlab;
using test::check_usage_error;
using test::run_cli;

namespace {

const std::string kDemoMap = std::string(PATHLAB_ASSETS_DIR) + "/maps/demo.map";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("sample limit: one helper, counts in double, checked before any cast") {
  const std::vector<Vec2> line{Vec2(0, 0), Vec2(10, 0)};
  auto ok = resample_polyline(line, 0.5);
  REQUIRE(ok.ok());
  CHECK(ok->size() == 21);
  for (size_t i = 1; i < ok->size(); ++i) CHECK(glm::length((*ok)[i] - (*ok)[i - 1]) <= 0.5 + 1e-12);
  for (double step : {1e-9, 1e-300, 5e-324}) {
    CAPTURE(step);
    auto r = resample_polyline(line, step);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == StatusCode::too_large);
    CHECK(contains(r.error().message, "more than the limit of 10000000"));
  }
  for (double step : {0.0, -1.0, std::nan(""), static_cast<double>(INFINITY)}) CHECK_FALSE(resample_polyline(line, step).ok());
  CHECK_FALSE(checked_piece_count(1e300, 1e-300).ok());
  CHECK(checked_piece_count(2.0, 0.5).value() == 4);
  CHECK(checked_piece_count(0.0, 0.5).value() == 1);
  CHECK(check_sample_count(kMaxSamples, 1.0).ok());
  CHECK_FALSE(check_sample_count(kMaxSamples + 1, 1.0).ok());
  CHECK_FALSE(check_sample_count(std::nan(""), 1.0).ok());
}

TEST_CASE("plan --sample-step: 1e-9 and 1e-300 are refused at once with the shared message") {
  // Before: 1e-9 grew memory for about 50 s until bad_alloc; 1e-300 overflowed an int cast
  // and printed points 1.4 cells apart with exit 0.
  for (const char* step : {"1e-9", "1e-300"}) {
    const std::string args = "plan --map " + kDemoMap + " --from 2.5,2.5 --to 36.5,2.5 --json --sample-step " + step;
    check_usage_error(args, "--sample-step: sampling every");
    check_usage_error(args, "more than the limit of 10000000");
  }
  // A sane step keeps every point at most S apart.
  const auto r = run_cli("plan --map " + kDemoMap + " --from 2.5,2.5 --to 36.5,2.5 --json --sample-step 0.3");
  REQUIRE(r.status == 0);
  const auto pts = test::points_of(nlohmann::json::parse(r.out));
  REQUIRE(pts.size() > 100);
  for (size_t i = 1; i < pts.size(); ++i) CHECK(glm::length(pts[i] - pts[i - 1]) <= 0.3 + 1e-9);
}
