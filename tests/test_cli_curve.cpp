// pathlab-cli curve: Dubins, Reeds-Shepp, CC-Dubins, CC-Reeds-Shepp and turn-to-point through the CLI, one query and a
// queries file, against the core's answers; and the usage errors.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "pathlab/cc_curves.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/turn_to_point.hpp"

using namespace pathlab;
using pathlab::test::run_cli;
using pathlab::test::check_usage_error;
using pathlab::test::write_temp;

namespace {

struct Pt {
  double x, y, deg;
};

std::vector<Pt> points_of(const nlohmann::json& j) {
  std::vector<Pt> pts;
  for (const auto& p : j.at("points")) pts.push_back({p.at(0).get<double>(), p.at(1).get<double>(), p.at(2).get<double>()});
  return pts;
}

double polyline(const std::vector<Pt>& pts) {
  double total = 0.0;
  for (size_t i = 1; i < pts.size(); ++i) total += std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
  return total;
}

}  // namespace

TEST_CASE("cli curve: dubins as JSON matches the core, starts and ends at the poses") {
  const auto r = run_cli("curve --type dubins --from 0,0,0 --to 4,4,90 --radius 2 --sample-step 0.1 --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("found").get<bool>());
  const Pose a{{0.0, 0.0}, 0.0}, b{{4.0, 4.0}, kPi / 2};
  const auto sol = dubins_shortest(a, b, 2.0).value();
  CHECK(j.at("word").get<std::string>() == to_string(sol.word));
  CHECK(j.at("length").get<double>() == sol.length);  // full round-trip precision
  const auto pts = points_of(j);
  REQUIRE(pts.size() >= 2);
  CHECK(pts.front().x == 0.0);
  CHECK(pts.front().y == 0.0);
  CHECK(pts.front().deg == 0.0);
  CHECK(pts.back().x == 4.0);
  CHECK(pts.back().y == 4.0);
  CHECK(pts.back().deg == 90.0);
  // Spacing at most the step; the polyline loses at most c^3 / (24 r^2) per chord.
  for (size_t i = 1; i < pts.size(); ++i)
    CHECK(std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y) <= 0.1 + 1e-12);
  const double loss = static_cast<double>(pts.size()) * 0.001 / (24.0 * 4.0);
  CHECK(polyline(pts) <= sol.length + 1e-12);
  CHECK(polyline(pts) >= sol.length - loss - 1e-12);
}

TEST_CASE("cli curve: reeds-shepp U-turn on the spot is a three-point turn") {
  const auto r = run_cli("curve --type reeds-shepp --from 3,3,0 --to 3,3,180 --radius 2 --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(std::abs(j.at("length").get<double>() - 2.0 * kPi) <= 1e-12);
  CHECK(j.at("word").get<std::string>() == "L+R-L+");
  const auto pts = points_of(j);
  CHECK(pts.back().deg == 180.0);
  CHECK(pts.back().x == 3.0);
}

TEST_CASE("cli curve: turn-to-point takes a point and reaches it, inside the circle too") {
  const auto r = run_cli("curve --type turn-to-point --from 0,0,0 --to 0.5,1 --radius 2 --json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto sol = turn_to_point(Pose{{0.0, 0.0}, 0.0}, Vec2(0.5, 1.0), 2.0).value();
  CHECK(j.at("word").get<std::string>() == sol.word);
  CHECK(j.at("length").get<double>() == sol.length);
  const auto pts = points_of(j);
  CHECK(pts.back().x == 0.5);
  CHECK(pts.back().y == 1.0);
  CHECK(std::abs(pts.back().deg - rad_to_deg(wrap_angle(sol.final_heading))) <= 1e-9);
}

TEST_CASE("cli curve: a queries file gives JSON Lines in order, the same as single queries") {
  const std::string file = write_temp("curve_queries.txt",
                                      "# start goal\n0 0 0 4 4 90\n\n1 1 0 -3 2 45\n  # indented comment\n5 5 30 5 5 -150\n");
  const auto r = run_cli("curve --type reeds-shepp --radius 1.5 --queries " + file);
  REQUIRE(r.status == 0);
  std::vector<nlohmann::json> lines;
  size_t at = 0;
  while (at < r.out.size()) {
    const size_t nl = r.out.find('\n', at);
    REQUIRE(nl != std::string::npos);
    lines.push_back(nlohmann::json::parse(r.out.substr(at, nl - at)));
    at = nl + 1;
  }
  REQUIRE(lines.size() == 3);
  const Pose q[3][2] = {{{{0, 0}, 0}, {{4, 4}, deg_to_rad(90)}},
                        {{{1, 1}, 0}, {{-3, 2}, deg_to_rad(45)}},
                        {{{5, 5}, deg_to_rad(30)}, {{5, 5}, deg_to_rad(-150)}}};
  for (int i = 0; i < 3; ++i) {
    const auto sol = reeds_shepp_shortest(q[i][0], q[i][1], 1.5).value();
    // The CLI prints the built path's length (its segments summed), bit for bit; the word's own
    // length is the same sum in another order, so within a few units in the last place.
    const double printed = lines[static_cast<size_t>(i)].at("length").get<double>();
    CHECK(printed == reeds_shepp_to_path(q[i][0], q[i][1], 1.5, sol).value().length());
    CHECK(printed == doctest::Approx(sol.length).epsilon(1e-14));
    CHECK(lines[static_cast<size_t>(i)].at("word").get<std::string>() == sol.word());
  }
  // A malformed line names the file and the line; nothing is printed before it.
  const std::string bad = write_temp("curve_bad.txt", "0 0 0 4 4 90\n1 1 x -3 2 45\n");
  check_usage_error("curve --type dubins --radius 1 --queries " + bad, "curve_bad.txt:2");
  const std::string short_line = write_temp("curve_short.txt", "0 0 0 4\n");
  check_usage_error("curve --type dubins --radius 1 --queries " + short_line, "curve_short.txt:1");
  // Dubins needs a goal heading on every line.
  const std::string no_heading = write_temp("curve_noheading.txt", "0 0 0 4 4\n");
  check_usage_error("curve --type dubins --radius 1 --queries " + no_heading, "heading");
}

TEST_CASE("cli curve: human output") {
  const auto r = run_cli("curve --type dubins --from 0,0,0 --to 10,0,0 --radius 1");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("word: LSL") != std::string::npos);
  CHECK(r.out.find("length: 10") != std::string::npos);
}

TEST_CASE("cli curve: usage errors name the argument") {
  check_usage_error("curve --type dubins --from 0,0,0 --to 4,4 --radius 2", "--to");
  check_usage_error("curve --type dubins --from 0,0 --to 4,4,0 --radius 2", "--from");
  check_usage_error("curve --type turn-to-point --from 0,0,0 --to 4,4,30 --radius 2", "--to");
  check_usage_error("curve --type dubins --from 0,0,0 --to 4,4,0 --radius 0", "--radius");
  check_usage_error("curve --type dubins --from 0,0,0 --to 4,4,0 --radius -1", "--radius");
  check_usage_error("curve --type dubins --from 0,0,0 --to 4,4,0 --radius nan", "--radius");
  check_usage_error("curve --type dubins --from 0,0,0 --to 4,4,0", "--radius");
  check_usage_error("curve --type spiral --from 0,0,0 --to 4,4,0 --radius 1", "--type");
  check_usage_error("curve --type dubins --from 0,0,0 --to 4,4,0 --radius 1 --sample-step 0", "--sample-step");
  check_usage_error("curve --type dubins --from nan,0,0 --to 4,4,0 --radius 1", "--from");
  check_usage_error("curve --type dubins --radius 1 --from 0,0,0 --to 4,4,0 --queries x.txt", "--queries");
  check_usage_error("curve --type dubins --radius 1 --queries /nonexistent/q.txt", "/nonexistent/q.txt");
  // Too many points for the step is refused, not a huge output.
  check_usage_error("curve --type dubins --from 0,0,0 --to 1000,0,0 --radius 1 --sample-step 1e-6", "--sample-step");
}

TEST_CASE("cli curve: cc-dubins and cc-reeds-shepp match the core, end exactly, longer than Dubins") {
  const Pose a{{0.0, 0.0}, 0.0}, b{{4.0, 4.0}, kPi / 2};
  for (const std::string type : {"cc-dubins", "cc-reeds-shepp"}) {
    const auto r = run_cli("curve --type " + type + " --from 0,0,0 --to 4,4,90 --radius 2 --sharpness 0.3 --sample-step 0.1 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("found").get<bool>());
    const auto sol = type == "cc-dubins" ? cc_dubins(a, b, 2.0, 0.3).value() : cc_reeds_shepp(a, b, 2.0, 0.3).value();
    CHECK(j.at("word").get<std::string>() == sol.word);
    CHECK(j.at("length").get<double>() == sol.length);
    CHECK(sol.length > dubins_length(a, b, 2.0).value());
    const auto pts = points_of(j);
    REQUIRE(pts.size() >= 2);
    CHECK(pts.front().x == 0.0);
    CHECK(pts.back().x == 4.0);
    CHECK(pts.back().y == 4.0);
    CHECK(pts.back().deg == 90.0);
    for (size_t i = 1; i < pts.size(); ++i)
      CHECK(std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y) <= 0.1 + 1e-12);
    CHECK(polyline(pts) <= sol.length + 1e-12);
  }
}

TEST_CASE("cli curve: --sharpness is checked and only taken by the cc curves") {
  const std::string q = " --from 0,0,0 --to 4,4,0 --radius 2";
  check_usage_error("curve --type cc-dubins" + q, "--sharpness");
  check_usage_error("curve --type dubins" + q + " --sharpness 1", "--sharpness");
  for (const std::string bad : {"0", "-1", "nan", "inf", "1e10", "0.01"}) {
    check_usage_error("curve --type cc-reeds-shepp" + q + " --sharpness " + bad, "--sharpness");
  }
  // The lower limit names itself: 1 / (pi r^2).
  const auto r = run_cli("curve --type cc-dubins" + q + " --sharpness 0.01");
  CHECK(r.err.find("1 / (pi radius^2)") != std::string::npos);
}

TEST_CASE("cli simulate: a car on the track follower rides a cc-reeds-shepp planner's path (sharpness 1/r^2)") {
  std::string text = "type octile\nheight 16\nwidth 20\nmap\n";
  for (int y = 0; y < 16; ++y) text += std::string(20, '.') + "\n";
  const std::string map = write_temp("cc_open.map", text);
  for (const std::string planner : {"cc-dubins", "cc-reeds-shepp"}) {
    const auto r = run_cli("simulate --map " + map + " --from 5,7,0 --to 9.5,9,180 --planner " + planner +
                           " --unit car --follower track --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j.at("found").get<bool>());
    CHECK(j.at("metrics").at("arrived").get<bool>());
    // The path is the core's CC curve with the car's radius 2 and sharpness 1/4.
    const Pose a{{5.0, 7.0}, 0.0}, b{{9.5, 9.0}, kPi};
    const double want = planner == "cc-dubins" ? cc_dubins_length(a, b, 2.0, 0.25).value()
                                               : cc_reeds_shepp_length(a, b, 2.0, 0.25).value();
    CHECK(j.at("path_length").get<double>() == doctest::Approx(want).epsilon(1e-12));
    const auto& last = j.at("samples").back();
    CHECK(last.at(1).get<double>() == doctest::Approx(9.5).epsilon(1e-9));
    CHECK(last.at(2).get<double>() == doctest::Approx(9.0).epsilon(1e-9));
  }
}
