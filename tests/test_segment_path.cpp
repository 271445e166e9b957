// Segment paths: lines and arcs in both gears, queries by distance and by time (Pinter's 2001
// Listing 2), sampling, concatenation with continuity checks, and bad input.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "curve_support.hpp"
#include "curves/segment_heading.hpp"
#include "pathlab/det_math.hpp"
#include "pathlab/segment_path.hpp"

using namespace pathlab;
using namespace pathlab::test;

namespace {

constexpr double kTol = 1e-12;

bool near(Vec2 a, Vec2 b, double tol = kTol) { return glm::length(a - b) <= tol; }
bool near_angle(double a, double b, double tol = kTol) { return std::abs(wrap_angle(a - b)) <= tol; }

}  // namespace

TEST_CASE("segment path: a forward left quarter circle") {
  // Start at the origin heading +x; a left arc of radius 2 is centred at (0, 2).
  const Pose start{{0.0, 0.0}, 0.0};
  const Segment arc = arc_from_pose(start, 2.0, +1, kPi);  // pi cells = a quarter turn
  CHECK(arc.kind == SegmentKind::arc);
  CHECK(near(arc.center, Vec2(0.0, 2.0)));
  CHECK(std::abs(arc.sweep - kPi / 2) <= kTol);
  const PathState mid = segment_state(arc, kPi / 2);  // an eighth of the circle
  CHECK(near(mid.pos, Vec2(2.0 * std::sin(kPi / 4), 2.0 - 2.0 * std::cos(kPi / 4))));
  CHECK(near_angle(mid.heading, kPi / 4));
  CHECK(mid.curvature == doctest::Approx(0.5).epsilon(1e-15));
  const Pose end = segment_end(arc);
  CHECK(near(end.pos, Vec2(2.0, 2.0)));
  CHECK(near_angle(end.heading, kPi / 2));
  // make_arc() describes the same arc from its circle.
  const Segment same = make_arc(Vec2(0.0, 2.0), 2.0, -kPi / 2, kPi / 2);
  CHECK(near(same.start, start.pos));
  CHECK(near_angle(same.heading, start.heading));
  CHECK(std::abs(same.length - kPi) <= kTol);
}

TEST_CASE("segment path: reversing with the wheel left turns the heading right (curvature stays +1/r)") {
  const Pose start{{1.0, 1.0}, 0.0};
  const Segment arc = arc_from_pose(start, 1.0, +1, kPi / 2, Gear::reverse);
  CHECK(near(arc.center, Vec2(1.0, 2.0)));  // the turn's centre is still on the left
  const PathState st = segment_state(arc, kPi / 2);
  // Backing up a quarter turn round (1, 2): the unit ends at (0, 2), nose pointing -y.
  CHECK(near(st.pos, Vec2(0.0, 2.0)));
  CHECK(near_angle(st.heading, -kPi / 2));
  CHECK(st.curvature == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(st.gear == Gear::reverse);
  const Segment back = line_from_pose(Pose{{0.0, 0.0}, 0.0}, 3.0, Gear::reverse);
  CHECK(near(segment_end(back).pos, Vec2(-3.0, 0.0)));
  CHECK(segment_end(back).heading == 0.0);
}

TEST_CASE("segment path: queries by distance and by time follow Pinter's Listing 2") {
  // Arc then line, the article's two-segment path.
  const Pose start{{5.0, 5.0}, kPi / 2};
  const double r = 3.0;
  const Move moves[2] = {{-1, kPi / 2}, {0, 2.0}};  // right quarter turn, then 2 r straight
  auto path = path_from_moves(start, r, moves);
  REQUIRE(path.ok());
  REQUIRE(path->segments().size() == 2);
  CHECK(std::abs(path->length() - (r * kPi / 2 + 2.0 * r)) <= kTol);
  // Heading pi/2, turning right: the centre is at heading - pi/2 = direction +x.
  CHECK(near(path->segments()[0].center, Vec2(8.0, 5.0)));
  // Listing 2 by hand: at distance d < arc length the angle on the arc moves by d / r.
  const double speed = 1.5;
  for (double t = 0.0; t <= path->length() / speed + 1.0; t += 0.173) {
    const double d = std::min(speed * t, path->length());
    Vec2 pos;
    double heading;
    const double arc_len = r * kPi / 2;
    if (d < arc_len) {
      const double theta = kPi - d / r;  // start angle pi seen from (8, 5), decreasing (right turn)
      pos = Vec2(8.0, 5.0) + r * Vec2(std::cos(theta), std::sin(theta));
      heading = theta - kPi / 2;
    } else {
      const Vec2 q = Vec2(8.0, 5.0) + r * Vec2(std::cos(kPi / 2), std::sin(kPi / 2));
      pos = q + (d - arc_len) * Vec2(1.0, 0.0);
      heading = 0.0;
    }
    const auto st = path->at_time(t, speed);
    REQUIRE(st.ok());
    CHECK(near(st->pos, pos, 1e-12 * 10));
    CHECK(near_angle(st->heading, heading, 1e-12));
    CHECK(st->curvature == (d < arc_len ? -1.0 / r : 0.0));
    CHECK(path->sample_at(d)->pos == st->pos);
  }
  // Outside [0, length] the queries clamp to the ends.
  CHECK(path->at_distance(-4.0)->pos == start.pos);
  CHECK(path->at_distance(1e9)->pos == path->end().pos);
  CHECK(path->segment_index_at(0.0) == 0);
  CHECK(path->segment_index_at(r * kPi / 2) == 1);  // the later segment at a boundary
}

TEST_CASE("segment path: sampling keeps every segment end, cusps included") {
  const Pose start{{0.0, 0.0}, 0.3};
  const double r = 1.7;
  // Forward left, reverse right (a cusp), reverse straight, forward left (another cusp).
  const Move moves[4] = {{1, 1.0}, {-1, -0.8}, {0, -0.5}, {1, 2.5}};
  auto path = path_from_moves(start, r, moves);
  REQUIRE(path.ok());
  CHECK(path->segments().size() == 4);
  CHECK(std::abs(path->length() - r * (1.0 + 0.8 + 0.5 + 2.5)) <= kTol);
  for (const double step : {0.05, 0.3, 1.0, 100.0}) check_sampled(*path, start, path->end(), r, step);
  // The gears change at the cusps.
  auto samples = path->sample(0.1).value();
  int changes = 0;
  for (size_t i = 1; i < samples.size(); ++i) changes += samples[i].state.gear != samples[i - 1].state.gear ? 1 : 0;
  CHECK(changes == 2);
}

TEST_CASE("segment path: concatenation checks continuity") {
  const Pose a{{0.0, 0.0}, 0.0};
  const Move first[1] = {{1, 1.0}};
  auto p1 = path_from_moves(a, 2.0, first);
  REQUIRE(p1.ok());
  const Move second[2] = {{0, 3.0}, {-1, 0.5}};
  auto p2 = path_from_moves(p1->end(), 2.0, second);
  REQUIRE(p2.ok());
  auto both = concatenate(*p1, *p2);
  REQUIRE(both.ok());
  CHECK(both->segments().size() == 3);
  CHECK(std::abs(both->length() - (p1->length() + p2->length())) <= kTol);
  CHECK(both->end().pos == p2->end().pos);
  // A path that starts elsewhere, or with another heading, is refused with a message.
  auto moved = path_from_moves(Pose{p1->end().pos + Vec2(0.01, 0.0), p1->end().heading}, 2.0, second);
  auto turned = path_from_moves(Pose{p1->end().pos, p1->end().heading + 0.01}, 2.0, second);
  for (const auto* other : {&*moved, &*turned}) {
    auto bad = concatenate(*p1, *other);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("starts at") != std::string::npos);
  }
  SegmentPath grow(a);
  CHECK(grow.append(line_from_pose(a, 2.0)).ok());
  CHECK_FALSE(grow.append(line_from_pose(a, 2.0)).ok());  // starts at a, but the path ends at (2, 0)
  CHECK(grow.append(line_from_pose(grow.end(), 0.0)).ok());  // zero length: accepted, dropped
  CHECK(grow.segments().size() == 1);
}

TEST_CASE("segment path: append_run gives the path of appending one by one, bit for bit") {
  const Pose a{{3.25, -1.5}, 0.7};
  const Move moves[5] = {{1, 0.9}, {0, 2.5}, {-1, 1.3}, {0, 0.75}, {1, -0.6}};  // the last one reverses
  auto src = path_from_moves(a, 2.0, moves);
  REQUIRE(src.ok());
  REQUIRE(src->segments().size() == 5);
  // Segments 1..3 after segment 0, both ways.
  SegmentPath one(a), run(a);
  REQUIRE(one.append(src->segments()[0]).ok());
  REQUIRE(run.append(src->segments()[0]).ok());
  for (size_t k = 1; k <= 3; ++k) REQUIRE(one.append(src->segments()[k]).ok());
  REQUIRE(run.append_run(*src, 1, 3).ok());
  REQUIRE(run.segments().size() == one.segments().size());
  CHECK(run.length() == one.length());  // the same sums in the same order
  CHECK(run.end().pos == one.end().pos);
  CHECK(run.end().heading == one.end().heading);
  for (const double s : {0.3, 2.0, 4.4, 6.1})
    CHECK(run.at_distance(s).value().pos == one.at_distance(s).value().pos);
  CHECK(run.append_run(*src, 4, 0).ok());  // nothing to append
  CHECK(run.segments().size() == 4);
  // Out of range, or a first segment that does not start where the path ends: refused, unchanged.
  CHECK_FALSE(run.append_run(*src, 4, 2).ok());
  CHECK_FALSE(run.append_run(*src, 6, 1).ok());
  auto gap = run.append_run(*src, 0, 1);
  REQUIRE_FALSE(gap.ok());
  CHECK(gap.error().message.find("starts at") != std::string::npos);
  CHECK(run.segments().size() == 4);
  CHECK(run.length() == one.length());
}

TEST_CASE("segment path: bad input is an error naming the argument") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const Pose a{{0.0, 0.0}, 0.0};
  const Move one[1] = {{1, 1.0}};
  for (const double r : {0.0, -2.0, nan, inf}) {
    auto res = path_from_moves(a, r, one);
    REQUIRE_FALSE(res.ok());
    CHECK(res.error().message.find("radius") != std::string::npos);
  }
  CHECK_FALSE(path_from_moves(Pose{{nan, 0.0}, 0.0}, 1.0, one).ok());
  const Move bad_move[1] = {{1, nan}};
  CHECK_FALSE(path_from_moves(a, 1.0, bad_move).ok());
  auto path = path_from_moves(a, 1.0, one).value();
  CHECK(path.at_distance(nan).error().message.find("distance") != std::string::npos);
  CHECK(path.at_time(1.0, 0.0).error().message.find("speed") != std::string::npos);
  CHECK(path.at_time(1.0, -1.0).error().message.find("speed") != std::string::npos);
  CHECK(path.at_time(inf, 1.0).error().message.find("time") != std::string::npos);
  CHECK(path.sample(0.0).error().message.find("step") != std::string::npos);
  CHECK(path.sample(nan).error().message.find("step") != std::string::npos);
  CHECK(path.sample(1e-12).error().code == StatusCode::too_large);
  SegmentPath p(a);
  Segment broken = make_arc(Vec2(0.0, 1.0), -1.0, -kPi / 2, 1.0);
  CHECK(p.append(broken).error().message.find("radius") != std::string::npos);
}

TEST_CASE("segment path: wrap_angle") {
  CHECK(wrap_angle(0.0) == 0.0);
  CHECK(wrap_angle(kPi) == kPi);
  CHECK(wrap_angle(-kPi) == kPi);  // (-pi, pi]
  CHECK(std::abs(wrap_angle(3.0 * kPi + 0.25) - (-kPi + 0.25)) <= 1e-12);
  CHECK(std::abs(wrap_angle(-1e6) - std::remainder(-1e6, 2.0 * kPi)) <= 1e-9);
}

TEST_CASE("segment path: segment_heading_at() is segment_state()'s heading bit for bit") {
  // The vehicle smoother's pose table takes segment ends' headings from it: any other bits
  // would move its poses and change plans.
  std::vector<Segment> segs;
  for (const double h : {0.0, -0.0, 0.3, -2.9, 3.0 * kPi + 0.1}) {
    const Pose p{Vec2(1.5, -2.25), h};
    for (const Gear g : {Gear::forward, Gear::reverse}) {
      segs.push_back(line_from_pose(p, 2.5, g));
      segs.push_back(arc_from_pose(p, 1.7, 1, 2.5, g));
      segs.push_back(arc_from_pose(p, 1.7, -1, 2.5, g));
      segs.push_back(make_clothoid(p, 0.2, -0.15, 2.5, g));
      segs.push_back(make_clothoid(p, 0.0, 0.3, 2.5, g));
    }
  }
  int compared = 0;
  for (const Segment& seg : segs)
    for (const double s : {0.0, 0.7, seg.length}) {
      const double a = detail::segment_heading_at(seg, s), b = segment_state(seg, s).heading;
      CHECK(a == b);
      CHECK(std::signbit(a) == std::signbit(b));  // -0 and +0 are different bits
      ++compared;
    }
  CHECK(compared == 150);
}

TEST_CASE("segment path: a line's points and an arc's centre have the bits of a fresh sine and cosine, headings in any order") {
  // segment_state() and arc_from_pose() keep the last heading's sine and cosine: asking about
  // other headings in between, or about +0 after -0 (whose sines differ in sign), must not
  // change a bit of the answer.
  const double headings[] = {0.0, -0.0, 0.0, 1.25, 1.25, -2.5, 0.0, std::nextafter(1.25, 2.0), 1.25, -0.0};
  for (const double h : headings) {
    const Segment line = line_from_pose(Pose{Vec2(3.5, -2.0), h}, 4.0);
    const PathState at = segment_state(line, 2.5);
    const double s = dmath::sin(h), c = dmath::cos(h);
    CHECK(std::signbit(at.pos.x) == std::signbit(3.5 + 2.5 * c));
    CHECK(at.pos.x == 3.5 + 2.5 * c);
    CHECK(at.pos.y == -2.0 + 2.5 * s);
    const Segment arc = arc_from_pose(Pose{Vec2(1.0, 1.0), h}, 2.0, 1, 1.0);
    CHECK(arc.center.x == 1.0 + 2.0 * -s);
    CHECK(arc.center.y == 1.0 + 2.0 * c);
  }
  // -0 against +0: the sine's sign reaches a point at the origin.
  const PathState neg = segment_state(line_from_pose(Pose{Vec2(0.0, -0.0), -0.0}, 1.0), 1.0);
  const PathState pos = segment_state(line_from_pose(Pose{Vec2(0.0, -0.0), 0.0}, 1.0), 1.0);
  CHECK(std::signbit(neg.pos.y));
  CHECK(!std::signbit(pos.pos.y));
}
