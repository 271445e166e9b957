#pragma once
// The check shared by the tests that hand a plan to pathlab-cli and read its JSON back
// (test_cli_scene: `plan --scene`; test_sandbox_cli_command: Export's "Copy CLI command"):
// the CLI printed exactly the planning service's result, bit for bit.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "pathlab/geometry.hpp"
#include "pathlab/plan/plan_service.hpp"

namespace pathlab::test {

/// `j` (the CLI's --json result) equals `r`: found, length, every point and, where `headings`
/// and the plan has one, every heading in degrees (then each point must be [x, y, deg]).
inline void check_cli_prints_plan(const nlohmann::json& j, const plan::PlanResult& r, bool headings) {
  REQUIRE(r.error.empty());
  REQUIRE(j.at("found").get<bool>() == r.found);
  if (!r.found) return;
  CHECK(j.at("length").get<double>() == r.length);
  const auto& points = j.at("points");
  REQUIRE(points.size() == r.points.size());
  for (size_t i = 0; i < r.points.size(); ++i) {
    CHECK(points[i][0].get<double>() == r.points[i].x);
    CHECK(points[i][1].get<double>() == r.points[i].y);
    const bool with_heading = headings && i < r.headings.size();
    REQUIRE(points[i].size() == (with_heading ? 3u : 2u));
    if (with_heading) CHECK(points[i][2].get<double>() == rad_to_deg(r.headings[i]));
  }
}

}  // namespace pathlab::test
