#include "pathlab/unit.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "pathlab/collision.hpp"

namespace pathlab {

Result<FollowerKind> parse_follower_kind(const std::string& name) {
  if (name == "track") return FollowerKind::track;
  if (name == "steer") return FollowerKind::steer;
  if (name == "damped") return FollowerKind::damped;
  return fail(StatusCode::invalid_argument, "unknown follower '" + name + "' (track, steer, damped)");
}

const char* to_string(FollowerKind kind) noexcept {
  switch (kind) {
    case FollowerKind::track: return "track";
    case FollowerKind::steer: return "steer";
    case FollowerKind::damped: return "damped";
  }
  return "?";
}

// Presets. One cell is about a metre. The numbers are game-feel values, not measurements; what
// matters is how they differ (Pinter 2001, "Toward More Realistic Pathfinding"): a person turns
// on the spot, a car cannot and needs a wide circle but may back up, a tank pivots slowly on
// its tracks, a bear runs fast but lumbers through wide turns and only turns slowly once
// stopped.

UnitDef person_unit_def() {
  UnitDef d;
  d.name = "person";
  d.radius = 0.3;
  d.max_speed = 2.0;  // a brisk walk / jog
  d.acceleration = 4.0;
  d.braking = 6.0;
  d.turning_radius = 0.0;
  d.max_turn_rate = deg_to_rad(360.0);
  d.pivot_turn_rate = deg_to_rad(360.0);
  d.max_lateral_accel = 4.0;
  return d;
}

UnitDef car_unit_def() {
  UnitDef d;
  d.name = "car";
  d.radius = 0.45;  // still fits a one-cell corridor
  d.max_speed = 8.0;
  d.max_reverse_speed = 2.0;
  d.acceleration = 3.0;
  d.braking = 6.0;
  d.turning_radius = 2.0;
  d.max_turn_rate = deg_to_rad(120.0);
  d.pivot_turn_rate = 0.0;  // wheels, not tracks
  d.max_lateral_accel = 5.0;
  d.can_reverse = true;
  d.follower.lookahead_min = 2.5;  // beyond its turning circle, or it would circle its target
  d.follower.arrive_distance = 0.25;  // parks near the spot: landing on a point takes manoeuvres
  return d;
}

UnitDef tank_unit_def() {
  UnitDef d;
  d.name = "tank";
  d.radius = 0.45;
  d.max_speed = 3.0;
  d.max_reverse_speed = 1.5;
  d.acceleration = 1.5;
  d.braking = 3.0;
  d.turning_radius = 0.0;  // tracks: turns on the spot
  d.max_turn_rate = deg_to_rad(60.0);
  d.pivot_turn_rate = deg_to_rad(60.0);
  d.max_lateral_accel = 2.0;
  d.can_reverse = true;
  return d;
}

UnitDef bear_unit_def() {
  UnitDef d;
  d.name = "bear";
  d.radius = 0.4;
  d.max_speed = 5.0;
  d.acceleration = 3.0;
  d.braking = 4.0;
  d.turning_radius = 1.5;
  d.max_turn_rate = deg_to_rad(150.0);
  d.pivot_turn_rate = deg_to_rad(90.0);
  d.max_lateral_accel = 5.0;
  return d;
}

Result<UnitDef> unit_preset(const std::string& name) {
  if (name == "person") return person_unit_def();
  if (name == "car") return car_unit_def();
  if (name == "tank") return tank_unit_def();
  if (name == "bear") return bear_unit_def();
  return fail(StatusCode::invalid_argument, "unknown unit '" + name + "' (person, car, tank, bear)");
}

namespace {

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

/// Error "unit.<field> must be <rule> (got v)" unless `ok`.
bool check(bool ok, const char* field, const char* rule, double v, Status& out) {
  if (!ok && out.ok()) {
    out = fail(StatusCode::invalid_argument,
               std::string("unit.") + field + " must be " + rule + " (got " + number_text(v) + ")");
  }
  return ok;
}

}  // namespace

Status validate_unit_def(const UnitDef& d) {
  Status st = ok_status();
  const auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
  const auto non_negative = [](double v) { return std::isfinite(v) && v >= 0.0; };
  check(check_agent_radius(d.radius).ok(), "radius", "in [0, 64]", d.radius, st);
  check(positive(d.max_speed), "max_speed", "finite and > 0", d.max_speed, st);
  check(non_negative(d.max_reverse_speed), "max_reverse_speed", "finite and >= 0", d.max_reverse_speed, st);
  if (d.can_reverse) {
    check(d.max_reverse_speed > 0.0, "max_reverse_speed", "> 0 when can_reverse", d.max_reverse_speed, st);
  }
  check(positive(d.acceleration), "acceleration", "finite and > 0", d.acceleration, st);
  check(positive(d.braking), "braking", "finite and > 0", d.braking, st);
  check(non_negative(d.turning_radius), "turning_radius", "finite and >= 0", d.turning_radius, st);
  check(positive(d.max_turn_rate), "max_turn_rate", "finite and > 0", d.max_turn_rate, st);
  check(non_negative(d.pivot_turn_rate) && d.pivot_turn_rate <= d.max_turn_rate, "pivot_turn_rate",
        "in [0, max_turn_rate]", d.pivot_turn_rate, st);
  check(positive(d.max_lateral_accel), "max_lateral_accel", "finite and > 0", d.max_lateral_accel, st);
  const FollowerDef& f = d.follower;
  check(positive(f.lookahead_min), "follower.lookahead_min", "finite and > 0", f.lookahead_min, st);
  check(non_negative(f.lookahead_time), "follower.lookahead_time", "finite and >= 0", f.lookahead_time, st);
  check(positive(f.stop_turn_angle) && f.stop_turn_angle <= kPi, "follower.stop_turn_angle", "in (0, pi]",
        f.stop_turn_angle, st);
  check(positive(f.corner_cut), "follower.corner_cut", "finite and > 0", f.corner_cut, st);
  check(positive(f.damping_time), "follower.damping_time", "finite and > 0", f.damping_time, st);
  check(positive(f.arrive_distance), "follower.arrive_distance", "finite and > 0", f.arrive_distance, st);
  return st;
}

double max_heading_rate(const UnitDef& d, double speed) noexcept {
  double rate = d.max_turn_rate;
  if (d.turning_radius > 0.0) rate = std::min(rate, std::abs(speed) / d.turning_radius);
  return std::max(rate, d.pivot_turn_rate);
}

}  // namespace pathlab
