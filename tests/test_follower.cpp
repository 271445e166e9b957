// Followers: track (exact by arc length, with a speed profile), steer (turn-rate limited chase that
// slows for bends and never enters a wall) and damped (Guesgen's lagging heading).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <vector>

#include "pathlab/arc_length.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/follow_path.hpp"
#include "pathlab/follower.hpp"
#include "pathlab/grid_search.hpp"
#include "pathlab/hermite.hpp"
#include "pathlab/quadrature.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/simulation.hpp"
#include "pathlab/spline_smoother.hpp"
#include "test_support.hpp"

using namespace pathlab;

namespace {

bool sanitized() { return std::getenv("PATHLAB_SANITIZED") != nullptr; }

/// A two-segment Hermite curve whose curvature goes from nearly straight to a tight hook:
/// long tangents make the Hermite post's parameter-stepping speed swing widely.
HermiteCurve hooked_curve() {
  HermiteCurve c;
  c.segments.push_back(make_hermite({2, 2}, {12, 4}, {30, 0}, {0, 25}).value());
  c.segments.push_back(make_hermite({12, 4}, {6, 9}, {0, 25}, {-3, -1}).value());
  return c;
}

Grid open_grid(int w, int h) { return Grid::create(w, h).value(); }

FollowPath polyline(std::vector<Vec2> pts) { return FollowPath::from_polyline(pts).value(); }

int cusp_count(const SegmentPath& p) {
  int n = 0;
  for (size_t i = 1; i < p.segments().size(); ++i) n += p.segments()[i].gear != p.segments()[i - 1].gear;
  return n;
}

/// Checks a run along a path with gear changes: on the path at the distance driven (within
/// `tol` cells), speed sign = gear, within the gear's top speed and the heading-rate limit,
/// at rest for a step between gears and at the end. Returns the gear changes seen.
int check_gear_run(const SingleRun& run, const SegmentPath& rs, const UnitDef& def, double dt, double tol) {
  int flips = 0;
  double driven = 0.0, last = 0.0;
  for (size_t k = 1; k < run.samples.size(); ++k) {
    const TrajectorySample& a = run.samples[k - 1];
    const TrajectorySample& b = run.samples[k];
    driven += std::abs(b.speed) * dt;
    const PathState ps = rs.at_distance(driven).value();
    CHECK(glm::length(ps.pos - b.pose.pos) <= tol);
    CHECK(b.speed <= def.max_speed * (1 + 1e-12));
    CHECK(-b.speed <= def.max_reverse_speed * (1 + 1e-12));
    const double rate = std::abs(wrap_angle(b.pose.heading - a.pose.heading)) / dt;
    CHECK(rate <= max_heading_rate(def, std::max(std::abs(a.speed), std::abs(b.speed))) * (1 + 1e-9) + 1e-9);
    CHECK(a.speed * b.speed >= 0.0);  // never straight from one gear into the other
    if (b.speed != 0.0) {
      if (last != 0.0 && (last < 0.0) != (b.speed < 0.0)) ++flips;
      last = b.speed;
    }
  }
  CHECK(run.samples.back().speed == 0.0);
  return flips;
}

}  // namespace

TEST_CASE("track: exact by arc length, slowing for the hook, on a curve of strongly varying curvature (the Hermite post)") {
  const HermiteCurve curve = hooked_curve();
  const ArcLengthTable table = ArcLengthTable::build(curve).value();

  // The curve really is uneven: stepping the parameter (as that post does) changes speed a lot.
  {
    const double dt_u = 1e-3;
    double lo = 1e300, hi = 0;
    for (double u = 0; u + dt_u <= 2.0; u += dt_u) {
      const double chord = glm::length(curve.point_at(u + dt_u) - curve.point_at(u));
      lo = std::min(lo, chord);
      hi = std::max(hi, chord);
    }
    CHECK(hi / lo > 5.0);
    double kmin = 1e300, kmax = 0;
    for (double s = 0; s <= table.length(); s += 0.05) {
      kmin = std::min(kmin, std::abs(table.curvature_at_distance(s)));
      kmax = std::max(kmax, std::abs(table.curvature_at_distance(s)));
    }
    CHECK(kmax > 20 * kmin);
  }

  UnitDef def = person_unit_def();
  def.follower.kind = FollowerKind::track;
  const Grid grid = open_grid(20, 20);
  const SimulationDef sd = default_simulation_def();
  auto run = simulate_unit(grid, def, FollowPath::from_curve(table).value(), std::nullopt, sd, 60.0);
  REQUIRE(run.ok());
  REQUIRE(run->metrics.arrived);
  const auto& smp = run->samples;
  REQUIRE(smp.size() > 100);
  // Each position is on the curve at the distance driven so far (the sum of speed * dt); the
  // arc between consecutive positions, measured by an independent quadrature between their
  // parameters, is speed * dt. The speed never exceeds the top speed and slows for the hook
  // so that the heading rate stays within the person's limit.
  const ParametricCurve pc = parametric(curve);
  double prev_u = 0.0, driven = 0.0, top = 0.0;
  for (size_t k = 1; k < smp.size(); ++k) {
    driven += std::abs(smp[k].speed) * sd.dt;
    const double u = table.parameter_at(std::min(driven, table.length()));
    CHECK(glm::length(curve.point_at(u) - smp[k].pose.pos) < 1e-9);
    const double arc = gauss_legendre_length(pc.derivative, prev_u, u);
    CHECK(std::abs(arc / sd.dt - std::abs(smp[k].speed)) <= 1e-6 * def.max_speed);
    CHECK(smp[k].speed <= def.max_speed * (1 + 1e-12));
    CHECK(smp[k].speed >= 0.0);
    const double rate = std::abs(wrap_angle(smp[k].pose.heading - smp[k - 1].pose.heading)) / sd.dt;
    CHECK(rate <= max_heading_rate(def, smp[k].speed) * 1.02 + 1e-9);  // 2%: curvature sampled every 0.1 cells
    top = std::max(top, smp[k].speed);
    prev_u = u;
  }
  CHECK(top == doctest::Approx(def.max_speed));  // the straight part at full speed
  CHECK(driven == doctest::Approx(table.length()).epsilon(1e-9));
  CHECK(smp.back().speed == 0.0);  // at rest at the end
  REQUIRE(run->metrics.time_to_goal.has_value());
  CHECK(*run->metrics.time_to_goal >= table.length() / def.max_speed);
  CHECK(*run->metrics.time_to_goal <= 3.0 * table.length() / def.max_speed);
  CHECK(run->metrics.max_deviation == 0.0);
}

TEST_CASE("track: Reeds-Shepp path with gear changes: stops at each cusp, never over the turn-rate limit") {
  const Pose from{{5, 5}, 0.0};
  const Pose to{{5.5, 6}, kPi};  // behind and facing back: needs reversing
  UnitDef def = car_unit_def();
  def.follower.kind = FollowerKind::track;
  auto rs = reeds_shepp_path(from, to, def.turning_radius);
  REQUIRE(rs.ok());
  auto fp = FollowPath::from_segment_path(*rs);
  REQUIRE(fp.ok());
  REQUIRE(fp->has_reverse());
  const Grid grid = open_grid(20, 20);
  const SimulationDef sd = default_simulation_def();
  auto run = simulate_unit(grid, def, *fp, std::nullopt, sd, 60.0);
  REQUIRE(run.ok());
  REQUIRE(run->metrics.arrived);
  CHECK(check_gear_run(*run, *rs, def, sd.dt, 1e-9) == cusp_count(*rs));
  const Pose end = run->samples.back().pose;
  CHECK(glm::length(end.pos - to.pos) < 1e-9);
  CHECK(std::abs(wrap_angle(end.heading - to.heading)) < 1e-9);
  CHECK(run->metrics.max_deviation == 0.0);
}

TEST_CASE("steer: a car tracks a Reeds-Shepp path with cusps and parks on its end pose") {
  const Pose from{{5, 5}, 0.0};
  const Pose to{{5.5, 6}, kPi};
  const UnitDef def = car_unit_def();
  auto rs = reeds_shepp_path(from, to, def.turning_radius);
  REQUIRE(rs.ok());
  REQUIRE(cusp_count(*rs) >= 1);
  const Grid grid = open_grid(20, 20);
  const SimulationDef sd = default_simulation_def();
  auto run = simulate_unit(grid, def, FollowPath::from_segment_path(*rs, 0.05).value(), std::nullopt, sd, 60.0);
  REQUIRE(run.ok());
  CHECK(run->ended_because == "");
  REQUIRE(run->metrics.arrived);
  // A tracker, not a replay: a few hundredths of a cell off the exact pose at the distance driven.
  CHECK(check_gear_run(*run, *rs, def, sd.dt, 0.05) == cusp_count(*rs));
  CHECK(run->metrics.max_deviation <= 0.05);
  CHECK(run->metrics.collisions == 0);
  const Pose end = run->samples.back().pose;
  CHECK(glm::length(end.pos - to.pos) <= 0.05);
  CHECK(std::abs(wrap_angle(end.heading - to.heading)) <= deg_to_rad(2.0));
}

TEST_CASE("steer: respects its turn rate, never collides and reaches the goal on random maps") {
  const int maps = sanitized() ? 4 : 16;
  int runs = 0;
  for (const char* unit : {"person", "tank", "bear", "car"}) {
    for (int seed = 1; seed <= maps; ++seed) {
      const Grid grid = test::random_grid(32, 32, 0.22, static_cast<uint32_t>(seed * 7919));
      UnitDef def = unit_preset(unit).value();
      // Corners of random maps; pick free start/goal far apart.
      Cell a{1, 1}, b{30, 30};
      for (int t = 0; t < 60 && !grid.is_free(a); ++t) a = Cell{1 + t % 6, 1 + t / 6};
      for (int t = 0; t < 60 && !grid.is_free(b); ++t) b = Cell{30 - t % 6, 30 - t / 6};
      GridSearchOptions opt;
      opt.agent_radius = def.radius;
      auto path = find_grid_path(grid, GridPlanner::astar, a, b, opt);
      REQUIRE(path.ok());
      if (!path->found) continue;
      ++runs;
      auto sim = Simulation::create(grid).value();
      const Vec2 d0 = path->points.size() > 1 ? path->points[1] - path->points[0] : Vec2(1, 0);
      const Pose start{path->points[0], std::atan2(d0.y, d0.x) + 2.0};  // facing away: it must turn first
      const UnitId id = sim.add_unit(def, polyline(path->points), start).value();
      // Generous: 3 s per cell plus 20 s (the slowest, the car, averages about 1.1 s per cell).
      const int max_steps = static_cast<int>((path->length * 3.0 + 20.0) * 60.0);
      for (int k = 0; k < max_steps && !sim.state(id).arrived; ++k) {
        const double h0 = sim.state(id).pose.heading;
        sim.step();
        const UnitState& st = sim.state(id);
        const double rate = std::abs(wrap_angle(st.pose.heading - h0)) / sim.dt();
        if (rate > max_heading_rate(def, st.speed) * (1 + 1e-12) + 1e-12) {
          FAIL_CHECK(unit << " seed " << seed << " step " << k << ": turn rate " << rate << " > "
                          << max_heading_rate(def, st.speed));
        }
      }
      CAPTURE(std::string(unit));
      CAPTURE(seed);
      const RunMetrics& m = sim.metrics(id);
      CHECK(m.collisions == 0);
      CHECK(m.arrived);
      CHECK(glm::length(sim.state(id).pose.pos - path->points.back()) <= def.follower.arrive_distance);
      CHECK(m.max_turn_rate <= def.max_turn_rate * (1 + 1e-12));
      CHECK(m.max_lateral_accel <= def.max_lateral_accel * (1 + 1e-9));
      // A car cannot pivot: it swings wide round grid corners and backs up where it must.
      CHECK(m.max_deviation < (def.pivot_turn_rate > 0 ? 0.75 : 3.0));
    }
  }
  CHECK(runs >= (sanitized() ? 8 : 40));
}

TEST_CASE("steer: brakes and stops for a sharp corner, takes a gentle one rolling") {
  const Grid grid = open_grid(30, 30);
  UnitDef def = person_unit_def();
  // 90 degrees after 10 cells.
  auto run = simulate_unit(grid, def, polyline({{2.5, 2.5}, {12.5, 2.5}, {12.5, 12.5}}), std::nullopt,
                           default_simulation_def(), 60.0);
  REQUIRE(run.ok());
  REQUIRE(run->metrics.arrived);
  CHECK(run->metrics.stops == 1);
  double min_speed_near_corner = 1e9, max_speed = 0;
  for (const auto& s : run->samples) {
    max_speed = std::max(max_speed, s.speed);
    if (glm::length(s.pose.pos - Vec2(12.5, 2.5)) < 0.2) min_speed_near_corner = std::min(min_speed_near_corner, s.speed);
  }
  CHECK(max_speed == doctest::Approx(def.max_speed));
  CHECK(min_speed_near_corner == 0.0);
  CHECK(run->metrics.max_deviation < 0.05);  // it turned on the spot at the corner

  // 30 degrees: slows down a little, never stops, cuts the corner by at most corner_cut-ish.
  const Vec2 c{12.5, 2.5};
  const Vec2 end = c + Vec2(std::cos(deg_to_rad(30)), std::sin(deg_to_rad(30))) * 10.0;
  auto gentle = simulate_unit(grid, def, polyline({{2.5, 2.5}, c, end}), std::nullopt, default_simulation_def(), 60.0);
  REQUIRE(gentle.ok());
  REQUIRE(gentle->metrics.arrived);
  CHECK(gentle->metrics.stops == 0);
  CHECK(gentle->metrics.max_deviation < 2 * def.follower.corner_cut);
  CHECK(gentle->metrics.max_lateral_accel < def.max_lateral_accel * 2);
}

TEST_CASE("steer on a spline; damped swings wider than steer on the same zigzag (Guesgen 2004)") {
  const Grid grid = open_grid(40, 20);
  const std::vector<Vec2> zig{{2.5, 10.5}, {8.5, 4.5}, {14.5, 10.5}, {20.5, 4.5}, {26.5, 10.5}, {32.5, 4.5}};
  UnitDef steer = person_unit_def();
  UnitDef damped = steer;
  damped.follower.kind = FollowerKind::damped;
  auto rs = simulate_unit(grid, steer, polyline(zig), std::nullopt, default_simulation_def(), 120.0);
  auto rd = simulate_unit(grid, damped, polyline(zig), std::nullopt, default_simulation_def(), 120.0);
  REQUIRE(rs.ok());
  REQUIRE(rd.ok());
  CHECK(rs->metrics.arrived);
  CHECK(rd->metrics.arrived);
  CHECK(rd->metrics.max_deviation > 2.0 * rs->metrics.max_deviation);
  CHECK(rd->metrics.collisions == 0);

  // The same waypoints as a centripetal spline: steer follows the curve closely.
  auto curve = spline_curve(SplineMethod::centripetal, zig);
  REQUIRE(curve.ok());
  auto fp = FollowPath::from_curve(*curve);
  REQUIRE(fp.ok());
  auto rc = simulate_unit(grid, steer, *fp, std::nullopt, default_simulation_def(), 120.0);
  REQUIRE(rc.ok());
  CHECK(rc->metrics.arrived);
  CHECK(rc->metrics.stops == 0);
  CHECK(rc->metrics.max_deviation < 0.2);
  CHECK(rc->metrics.max_lateral_accel <= steer.max_lateral_accel * 1.5);
}

TEST_CASE("follow paths: bad input is refused, projection and cusps") {
  CHECK_FALSE(FollowPath::from_polyline(std::vector<Vec2>{}).ok());
  CHECK_FALSE(FollowPath::from_polyline(std::vector<Vec2>{{0, 0}, {NAN, 1}}).ok());
  CHECK(FollowPath::from_polyline(std::vector<Vec2>{{0, 0}, {NAN, 1}}).error().message.find("point 1") != std::string::npos);
  CHECK_FALSE(FollowPath::from_curve(hooked_curve(), 0.0).ok());
  CHECK_FALSE(FollowPath::from_curve(hooked_curve(), -1.0).ok());

  const FollowPath p = polyline({{0, 0}, {4, 0}, {4, 3}});
  CHECK(p.length() == doctest::Approx(7.0));
  CHECK(p.samples()[1].corner == doctest::Approx(kPi / 2));
  const PathProjection pr = p.project({5, 1}, 0.0, 7.0);
  CHECK(pr.s == doctest::Approx(5.0));
  CHECK(pr.distance == doctest::Approx(1.0));
  CHECK(p.state_at(2.0).pos.x == doctest::Approx(2.0));
  CHECK(p.next_cusp_after(0.0) == doctest::Approx(7.0));

  auto rs = reeds_shepp_path(Pose{{5, 5}, 0.0}, Pose{{5.5, 6}, kPi}, 1.0).value();
  auto fp = FollowPath::from_segment_path(rs).value();
  const double cusp = fp.next_cusp_after(0.0);
  CHECK(cusp > 0.0);
  CHECK(cusp < fp.length());
}

TEST_CASE("steer: a car cannot turn on the spot, so it backs up to turn round (three-point turn)") {
  const Grid grid = open_grid(30, 30);
  UnitDef car = car_unit_def();
  // Goal beside the car, inside the circle it would turn on: driving forward it can only
  // circle round it, never reach it.
  const Pose start{{15, 15}, 0.0};
  auto sim = Simulation::create(grid).value();
  const UnitId id = sim.add_unit(car, polyline({{15, 15}, {15, 16.5}}), start).value();
  double min_speed = 0;
  for (int k = 0; k < 60 * 60 && !sim.state(id).arrived; ++k) {
    const double h0 = sim.state(id).pose.heading;
    sim.step();
    const UnitState& st = sim.state(id);
    min_speed = std::min(min_speed, st.speed);
    CHECK(std::abs(wrap_angle(st.pose.heading - h0)) <= max_heading_rate(car, st.speed) * sim.dt() * (1 + 1e-12) + 1e-15);
    CHECK(std::abs(st.speed) <= car.max_speed);
    if (st.speed < 0) CHECK(-st.speed <= car.max_reverse_speed);
  }
  CHECK(sim.state(id).arrived);
  CHECK(min_speed < 0.0);  // it reversed at some point
  CHECK(sim.metrics(id).collisions == 0);
}

TEST_CASE("steer: turns on the spot to the goal heading after arriving") {
  const Grid grid = open_grid(20, 20);
  UnitDef def = tank_unit_def();
  FollowPath p = polyline({{3.5, 3.5}, {12.5, 3.5}});
  REQUIRE(p.set_goal_heading(deg_to_rad(-120.0)).ok());
  CHECK_FALSE(p.set_goal_heading(NAN).ok());
  auto run = simulate_unit(grid, def, p, std::nullopt, default_simulation_def(), 60.0);
  REQUIRE(run.ok());
  REQUIRE(run->metrics.arrived);
  const Pose end = run->samples.back().pose;
  CHECK(std::abs(wrap_angle(end.heading - deg_to_rad(-120.0))) < 1e-12);
  CHECK(glm::length(end.pos - Vec2(12.5, 3.5)) <= def.follower.arrive_distance);
  CHECK(run->metrics.max_turn_rate <= def.max_turn_rate * (1 + 1e-12));
  // 120 degrees at the tank's 60 deg/s pivot: about two seconds after it stopped.
  double stopped_at = 0;
  for (const auto& s : run->samples)
    if (s.speed != 0) stopped_at = s.t;
  REQUIRE(run->metrics.time_to_goal.has_value());
  CHECK(*run->metrics.time_to_goal - stopped_at == doctest::Approx(2.0).epsilon(0.05));
}

TEST_CASE("steer: a path that passes its own start and end twice (two circles) is followed loop by loop") {
  // A full left circle then a full right circle of radius 3 from (15, 15): the path comes back
  // through its start (and its end) half-way. A projection onto the whole path would jump to
  // the end there and stop; the tracker's progress only moves forward within its window.
  const Pose start{{15, 15}, 0.0};
  const Move moves[] = {{1, 2.0 * kPi}, {-1, 2.0 * kPi}};
  const SegmentPath eight = path_from_moves(start, 3.0, moves).value();
  REQUIRE(glm::length(eight.end().pos - start.pos) < 1e-9);
  const Grid grid = open_grid(30, 30);
  for (FollowerKind kind : {FollowerKind::steer, FollowerKind::track}) {
    CAPTURE(to_string(kind));
    UnitDef def = car_unit_def();
    def.follower.kind = kind;
    auto run = simulate_unit(grid, def, FollowPath::from_segment_path(eight, 0.05).value(), std::nullopt,
                             default_simulation_def(), 60.0);
    REQUIRE(run.ok());
    REQUIRE(run->metrics.arrived);
    CHECK(run->metrics.distance == doctest::Approx(eight.length()).epsilon(0.01));
    CHECK(run->metrics.max_deviation <= 0.05);
    // Half-way it is back at the start, turning the other way.
    bool crossed_right = false;
    for (const TrajectorySample& s : run->samples) crossed_right = crossed_right || s.pose.pos.y < 15.0 - 5.0;
    CHECK(crossed_right);
  }
}

TEST_CASE("track: a unit that can pivot stops at a polyline corner, turns on the spot, and ends on the goal heading") {
  const Grid grid = open_grid(20, 20);
  UnitDef def = tank_unit_def();
  def.follower.kind = FollowerKind::track;
  FollowPath p = polyline({{2.5, 2.5}, {9.5, 2.5}, {9.5, 8.5}});
  REQUIRE(p.set_goal_heading(kPi).ok());
  const SimulationDef sd = default_simulation_def();
  auto run = simulate_unit(grid, def, p, std::nullopt, sd, 60.0);
  REQUIRE(run.ok());
  REQUIRE(run->metrics.arrived);
  CHECK(run->metrics.max_deviation == 0.0);
  int turning_at_rest = 0;
  for (size_t k = 1; k < run->samples.size(); ++k) {
    const TrajectorySample& a = run->samples[k - 1];
    const TrajectorySample& b = run->samples[k];
    const double rate = std::abs(wrap_angle(b.pose.heading - a.pose.heading)) / sd.dt;
    CHECK(rate <= max_heading_rate(def, std::max(std::abs(a.speed), std::abs(b.speed))) * (1 + 1e-9));
    if (rate > 0.0) {
      // It only turns standing still, on a vertex of the path.
      CHECK(b.speed == 0.0);
      CHECK(glm::length(b.pose.pos - a.pose.pos) == 0.0);
      const bool on_vertex = glm::length(b.pose.pos - Vec2(9.5, 2.5)) < 1e-9 || glm::length(b.pose.pos - Vec2(9.5, 8.5)) < 1e-9;
      CHECK(on_vertex);
      ++turning_at_rest;
    }
  }
  // 90 degrees at the corner and 90 at the end, at 60 deg/s and 60 steps/s: 90 steps each.
  CHECK(turning_at_rest == doctest::Approx(180).epsilon(0.02));
  const Pose end = run->samples.back().pose;
  CHECK(glm::length(end.pos - Vec2(9.5, 8.5)) < 1e-9);
  CHECK(std::abs(wrap_angle(end.heading - kPi)) < 1e-9);
  CHECK(run->samples.back().speed == 0.0);
}
