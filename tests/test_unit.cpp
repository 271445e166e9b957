// Units: presets, validation of nonsense parameters, the turn-rate rule.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "pathlab/unit.hpp"

using namespace pathlab;

TEST_CASE("unit presets are valid and differ the way Pinter (2001) says") {
  for (const char* name : {"person", "car", "tank", "bear"}) {
    auto def = unit_preset(name);
    REQUIRE(def.ok());
    CHECK(def->name == name);
    CHECK(validate_unit_def(*def).ok());
  }
  const UnitDef person = person_unit_def(), car = car_unit_def(), tank = tank_unit_def(), bear = bear_unit_def();
  // A person turns on the spot, a car cannot; the bear's circle is wider than the person's.
  CHECK(person.turning_radius == 0.0);
  CHECK(car.pivot_turn_rate == 0.0);
  CHECK(car.turning_radius > bear.turning_radius);
  CHECK(bear.turning_radius > person.turning_radius);
  CHECK(tank.max_turn_rate < person.max_turn_rate);
  CHECK(car.can_reverse);
  CHECK_FALSE(unit_preset("dragon").ok());
  CHECK(unit_preset("dragon").error().message.find("dragon") != std::string::npos);
}

TEST_CASE("nonsense unit parameters are refused with the parameter's name") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    const char* field;
    void (*spoil)(UnitDef&, double);
    double value;
  };
  const Case cases[] = {
      {"max_speed", [](UnitDef& d, double v) { d.max_speed = v; }, -1.0},
      {"max_speed", [](UnitDef& d, double v) { d.max_speed = v; }, nan},
      {"max_turn_rate", [](UnitDef& d, double v) { d.max_turn_rate = v; }, 0.0},
      {"acceleration", [](UnitDef& d, double v) { d.acceleration = v; }, 0.0},
      {"braking", [](UnitDef& d, double v) { d.braking = v; }, std::numeric_limits<double>::infinity()},
      {"radius", [](UnitDef& d, double v) { d.radius = v; }, -0.1},
      {"radius", [](UnitDef& d, double v) { d.radius = v; }, 100.0},
      {"turning_radius", [](UnitDef& d, double v) { d.turning_radius = v; }, nan},
      {"pivot_turn_rate", [](UnitDef& d, double v) { d.pivot_turn_rate = v; }, 100.0},
      {"max_lateral_accel", [](UnitDef& d, double v) { d.max_lateral_accel = v; }, -2.0},
      {"follower.lookahead_min", [](UnitDef& d, double v) { d.follower.lookahead_min = v; }, 0.0},
      {"follower.stop_turn_angle", [](UnitDef& d, double v) { d.follower.stop_turn_angle = v; }, 4.0},
      {"follower.damping_time", [](UnitDef& d, double v) { d.follower.damping_time = v; }, nan},
  };
  for (const Case& c : cases) {
    UnitDef d = person_unit_def();
    c.spoil(d, c.value);
    const Status st = validate_unit_def(d);
    CAPTURE(c.field);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == StatusCode::invalid_argument);
    CHECK(st.error().message.find(std::string("unit.") + c.field + " ") != std::string::npos);
  }
  UnitDef d = car_unit_def();
  d.max_reverse_speed = 0.0;  // may reverse but at no speed
  REQUIRE_FALSE(validate_unit_def(d).ok());
  CHECK(validate_unit_def(d).error().message.find("max_reverse_speed") != std::string::npos);
}

TEST_CASE("heading rate: turn rate cap, turning circle while moving, pivot rate when stopped") {
  const UnitDef car = car_unit_def();
  CHECK(max_heading_rate(car, 0.0) == 0.0);                                      // cannot pivot
  CHECK(max_heading_rate(car, 1.0) == doctest::Approx(1.0 / car.turning_radius));  // v / r
  CHECK(max_heading_rate(car, -1.0) == doctest::Approx(1.0 / car.turning_radius)); // reversing too
  CHECK(max_heading_rate(car, 100.0) == car.max_turn_rate);                      // capped
  const UnitDef bear = bear_unit_def();
  CHECK(max_heading_rate(bear, 0.0) == bear.pivot_turn_rate);
  CHECK(max_heading_rate(bear, 0.1) == bear.pivot_turn_rate);  // slow: the pivot rate is the floor
  const UnitDef person = person_unit_def();
  CHECK(max_heading_rate(person, 1.5) == person.max_turn_rate);
}

TEST_CASE("follower names round-trip") {
  for (FollowerKind k : {FollowerKind::track, FollowerKind::steer, FollowerKind::damped}) {
    auto parsed = parse_follower_kind(to_string(k));
    REQUIRE(parsed.ok());
    CHECK(*parsed == k);
  }
  CHECK_FALSE(parse_follower_kind("teleport").ok());
}
