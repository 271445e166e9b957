// The vehicle smoother (pose_smoother.hpp): straight corridors give straight paths, a U-turn in a
// parking lane takes at most one three-point turn, results never collide, never turn tighter than
// the turning radius, never cost or measure more than the input, honour the gear penalties and are
// deterministic; and the planning service offers it (and the turning smoother) on navmesh paths.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "generated_maps.hpp"
#include "heading_support.hpp"
#include "pathlab/cc_curves.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/hybrid_astar.hpp"
#include "pathlab/map_generators.hpp"
#include "pathlab/pose_smoother.hpp"
#include "pathlab/plan/plan_service.hpp"
#include "pathlab/swept_check.hpp"

using namespace pathlab;

namespace {

constexpr double kR = 2.0;      // turning radius [cells]
constexpr double kAgent = 0.5;  // agent radius [cells]

/// A corridor `length` cells long and 7 wide (5 free rows between walls).
Grid corridor(int length) {
  Grid g = Grid::create(length, 7).value();
  for (int x = 0; x < length; ++x) g.set_blocked(x, 0, true), g.set_blocked(x, 6, true);
  return g;
}

PoseSmoothDef def_for(bool reverse) {
  PoseSmoothDef d = default_pose_smooth_def();
  d.turning_radius = kR;
  d.agent_radius = kAgent;
  d.allow_reverse = reverse;
  return d;
}

int gear_changes(const SegmentPath& p) {
  int n = 0;
  const auto segs = p.segments();
  for (size_t i = 1; i < segs.size(); ++i) n += segs[i].gear != segs[i - 1].gear;
  return n;
}

/// Legal for the unit: exact ends, arcs of at least kR, clear at a fine sagitta and at fine samples.
void check_drivable(const Grid& g, const SegmentPath& in, const SegmentPath& out) {
  CHECK(out.start().pos == in.start().pos);
  CHECK(out.start().heading == in.start().heading);
  CHECK(out.end().pos == in.end().pos);
  CHECK(out.end().heading == in.end().heading);
  for (const Segment& s : out.segments())
    if (s.kind != SegmentKind::line) CHECK(s.radius >= kR * (1.0 - 1e-12));  // clothoids: their tightest radius
  SweptCheckDef fine;
  fine.agent_radius = kAgent;
  fine.max_sagitta = 1e-4;
  auto swept = check_swept_path(g, out, fine);
  REQUIRE(swept.ok());
  CHECK_MESSAGE(swept->clear, "blocked at s = ", swept->blocked_at_s);
  auto samples = out.sample(0.02);
  REQUIRE(samples.ok());
  int overlaps = 0;
  for (const PathSample& p : *samples) overlaps += !point_clear(g, p.state.pos, kAgent - 1e-9);
  CHECK(overlaps == 0);
}

/// Largest heading deviation from `heading` over the middle half of the path. [radians]
double middle_half_deviation(const SegmentPath& p, double heading) {
  double worst = 0.0;
  for (double s = p.length() * 0.25; s <= p.length() * 0.75; s += 0.05) {
    auto st = p.at_distance(s);
    REQUIRE(st.ok());
    worst = std::max(worst, test::heading_gap(st->heading, heading));
  }
  return worst;
}

/// An S-wobble down the corridor's centre line: left and right arcs of radius 6 around y = 3.5.
SegmentPath wobbly_corridor_path() {
  SegmentPath p(Pose{Vec2(3.0, 3.5), 0.0});
  Pose at = p.start();
  const double sweep = 0.3;
  for (int k = 0; k < 8; ++k) {
    const int steer = k % 4 == 0 || k % 4 == 3 ? 1 : -1;
    const Segment arc = arc_from_pose(at, 6.0, steer, 6.0 * sweep);
    REQUIRE(p.append(arc).ok());
    at = segment_end(arc);
  }
  return p;
}

}  // namespace

TEST_CASE("pose smoother: a wobbling path down a straight corridor becomes a straight line") {
  const Grid g = corridor(60);
  const SegmentPath wobbly = wobbly_corridor_path();
  REQUIRE(std::abs(wobbly.end().heading) < 1e-9);
  REQUIRE(std::abs(wobbly.end().pos.y - 3.5) < 1e-9);
  CHECK(middle_half_deviation(wobbly, 0.0) > 0.2);  // the input really wobbles
  auto r = smooth_pose_path(g, wobbly, def_for(false));
  REQUIRE(r.ok());
  check_drivable(g, wobbly, r->path);
  CHECK(middle_half_deviation(r->path, 0.0) < 1.0 * kPi / 180.0);
  CHECK(r->path.length() <= wobbly.length());
  CHECK(r->path.length() == doctest::Approx(wobbly.end().pos.x - 3.0).epsilon(1e-9));
}

TEST_CASE("pose smoother: directional and hybrid A* down a straight corridor drive straight") {
  const Grid g = corridor(60);
  const Pose start{Vec2(3.5, 3.5), 0.0}, goal{Vec2(56.5, 3.5), 0.0};
  DirectionalAStarOptions d = default_directional_astar_options();
  d.turning_radius = kR;
  d.agent_radius = kAgent;
  HybridAStarOptions h = default_hybrid_astar_options();
  h.turning_radius = kR;
  h.agent_radius = kAgent;
  auto dir = DirectionalAStar::create(g, d);
  auto hyb = HybridAStar::create(g, h);
  REQUIRE(dir.ok());
  REQUIRE(hyb.ok());
  for (auto planned : {dir->plan(start, goal), hyb->plan(start, goal)}) {
    REQUIRE(planned.ok());
    REQUIRE(planned->found);
    auto r = smooth_pose_path(g, planned->path, def_for(false));
    REQUIRE(r.ok());
    check_drivable(g, planned->path, r->path);
    CHECK(middle_half_deviation(r->path, 0.0) < 1.0 * kPi / 180.0);
    CHECK(r->path.length() <= planned->path.length() + 1e-9);
  }
}

TEST_CASE("pose smoother: a U-turn in a narrow parking lane takes at most one three-point turn") {
  // A lane 4 cells wide between two rows of parked cars (2 x 4 each, no gaps): a unit of radius
  // 0.5 turning on circles of radius 2 cannot U-turn forward in it (it needs 2 R + 2 a = 5).
  Grid g = Grid::create(40, 16).value();
  for (int x = 0; x < 40; ++x)
    for (int y : {0, 1, 2, 3, 8, 9, 10, 11, 15}) g.set_blocked(x, y, true);
  for (int y = 0; y < 16; ++y) g.set_blocked(0, y, true), g.set_blocked(39, y, true);
  const Pose start{Vec2(20.0, 6.0), 0.0}, goal{Vec2(20.0, 6.0), kPi};
  HybridAStarOptions h = default_hybrid_astar_options();
  h.turning_radius = kR;
  h.agent_radius = kAgent;
  h.allow_reverse = true;
  auto planner = HybridAStar::create(g, h);
  REQUIRE(planner.ok());
  auto planned = planner->plan(start, goal);
  REQUIRE(planned.ok());
  REQUIRE(planned->found);
  auto r = smooth_pose_path(g, planned->path, def_for(true));
  REQUIRE(r.ok());
  check_drivable(g, planned->path, r->path);
  CHECK(r->gear_changes == gear_changes(r->path));
  CHECK(r->gear_changes <= 2);  // forward, back, forward: one three-point turn
  CHECK(r->short_gear_runs == 0);
  CHECK(r->path.length() <= planned->path.length() + 1e-9);
}

TEST_CASE("pose smoother: random parking-lot and room queries stay legal, no longer, no dearer, deterministic") {
  Grid rooms = Grid::create(64, 64).value();
  generate_rooms(rooms, 16, 6, 2001);
  const Grid maps[] = {test::parking_lot(1001), rooms};
  int smoothed = 0;
  for (const Grid& g : maps) {
    for (bool reverse : {false, true}) {
      HybridAStarOptions h = default_hybrid_astar_options();
      h.turning_radius = kR;
      h.agent_radius = kAgent;
      h.allow_reverse = reverse;
      auto planner = HybridAStar::create(g, h);
      REQUIRE(planner.ok());
      std::mt19937 rng(7);
      std::uniform_real_distribution<double> ux(1.0, 63.0), uy(1.0, g.height() - 1.0), uh(-kPi, kPi);
      for (int q = 0, guard = 0; q < 8 && guard < 400; ++guard) {
        const Pose s{Vec2(ux(rng), uy(rng)), uh(rng)}, t{Vec2(ux(rng), uy(rng)), uh(rng)};
        if (!point_clear(g, s.pos, 1.5) || !point_clear(g, t.pos, 1.5) || glm::length(s.pos - t.pos) < 12) continue;
        auto planned = planner->plan(s, t);
        REQUIRE(planned.ok());
        if (!planned->found) continue;
        ++q;
        PoseSmoothDef d = def_for(reverse);
        d.relax = q % 2 == 1;  // the relaxation keeps every guarantee too
        if (q % 4 == 2) d.cc_sharpness = 1.0 / (kR * kR);  // and so do CC connections
        auto a = smooth_pose_path(g, planned->path, d);
        auto b = smooth_pose_path(g, planned->path, d);
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        check_drivable(g, planned->path, a->path);
        CHECK(a->path.length() <= planned->path.length() + 1e-9);
        CHECK(a->cost <= pose_path_cost(planned->path, d) + 1e-9);
        REQUIRE(a->path.segments().size() == b->path.segments().size());
        for (size_t k = 0; k < a->path.segments().size(); ++k) {
          const Segment &x = a->path.segments()[k], &y = b->path.segments()[k];
          CHECK(x.length == y.length);
          CHECK(x.start == y.start);
          CHECK(x.heading == y.heading);
          CHECK(x.center == y.center);
          CHECK(x.sweep == y.sweep);
        }
        smoothed += a->shortcuts > 0;
      }
    }
  }
  CHECK(smoothed >= 16);  // most queries are shortened (32 planned)
}

/// Left <-> right changes of the steering along `p` (straights in between do not reset it),
/// from samples every 0.1 cells, as bench_vehicle_paths counts them.
int steering_changes(const SegmentPath& p) {
  auto samples = p.sample(0.1);
  REQUIRE(samples.ok());
  int sign = 0, changes = 0;
  for (const PathSample& s : *samples) {
    const int k = s.state.curvature > 1e-9 ? 1 : (s.state.curvature < -1e-9 ? -1 : 0);
    if (k != 0 && sign != 0 && k != sign) ++changes;
    if (k != 0) sign = k;
  }
  return changes;
}

TEST_CASE("pose smoother: on 256 x 256 maps of five kinds paths stay legal at agent radius 0.3 and lose their wobble") {
  // The maps of bench_vehicle_replan (issue 24), where the smoother probes ~30 shortcut targets a
  // pose instead of 400: it must stay as safe and about as smooth as the exhaustive version was
  // (there: 3.8 steering changes per 100 cells, median over 78 plans, from 25.6 unsmoothed).
  Grid maps[5] = {Grid::create(256, 256).value(), Grid::create(256, 256).value(), Grid::create(256, 256).value(),
                  test::parking_lot(2430, 256, 256), Grid::create(256, 256).value()};
  generate_random(maps[0], 0.10, 2400);
  generate_rooms(maps[1], 16, 4, 2410);
  generate_maze(maps[2], 6, 2420);
  generate_rooms(maps[4], 32, 8, 2440);
  constexpr double kSmallAgent = 0.3;
  std::vector<double> per_100;
  int raw_changes = 0, smooth_changes = 0;
  for (const Grid& g : maps) {
    HybridAStarOptions h = default_hybrid_astar_options();
    h.turning_radius = kR;
    h.agent_radius = kSmallAgent;
    h.max_expansions = 30000;
    auto planner = HybridAStar::create(g, h);
    REQUIRE(planner.ok());
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(1.0, 255.0), uh(-kPi, kPi);
    for (int q = 0, guard = 0; q < 2 && guard < 40; ++guard) {
      const Pose s{Vec2(u(rng), u(rng)), uh(rng)}, t{Vec2(u(rng), u(rng)), uh(rng)};
      if (!point_clear(g, s.pos, 1.0) || !point_clear(g, t.pos, 1.0) || glm::length(s.pos - t.pos) < 20) continue;
      auto planned = planner->plan(s, t);
      REQUIRE(planned.ok());
      if (!planned->found) continue;
      ++q;
      PoseSmoothDef d = def_for(false);
      d.agent_radius = kSmallAgent;
      auto a = smooth_pose_path(g, planned->path, d);
      REQUIRE(a.ok());
      // The referee at a fine sagitta and fine samples, arcs of the turning radius, exact ends.
      CHECK(a->path.start().pos == planned->path.start().pos);
      CHECK(a->path.end().pos == planned->path.end().pos);
      CHECK(a->path.end().heading == planned->path.end().heading);
      for (const Segment& seg : a->path.segments())
        if (seg.kind != SegmentKind::line) CHECK(seg.radius >= kR * (1.0 - 1e-12));
      SweptCheckDef fine;
      fine.agent_radius = kSmallAgent;
      fine.max_sagitta = 1e-4;
      auto swept = check_swept_path(g, a->path, fine);
      REQUIRE(swept.ok());
      CHECK_MESSAGE(swept->clear, "blocked at s = ", swept->blocked_at_s);
      auto samples = a->path.sample(0.02);
      REQUIRE(samples.ok());
      for (const PathSample& p : *samples) CHECK(point_clear(g, p.state.pos, kSmallAgent - 1e-9));
      CHECK(a->path.length() <= planned->path.length() + 1e-9);
      CHECK(a->cost <= pose_path_cost(planned->path, d) + 1e-9);
      const int changes = steering_changes(a->path);
      CHECK(changes <= steering_changes(planned->path));
      raw_changes += steering_changes(planned->path);
      smooth_changes += changes;
      per_100.push_back(100.0 * changes / a->path.length());
    }
  }
  REQUIRE(per_100.size() >= 8);
  std::sort(per_100.begin(), per_100.end());
  const double median = per_100[per_100.size() / 2];
  MESSAGE("steering changes per 100 cells, median ", median, "; all queries ", raw_changes, " -> ", smooth_changes);
  CHECK(median <= 6.0);                       // the bench's figures: 1.4 to 6.7 per map kind
  CHECK(smooth_changes * 4 <= raw_changes);  // the search's wobble (about 25 per 100 cells) is mostly gone
}

TEST_CASE("pose smoother: max_tries bounds its work; the result stays legal, no longer, no dearer") {
  // Issue 24: the smoother must never cost more than the search it smooths, counted in steps
  // so that plans do not depend on the machine's speed.
  Grid g = Grid::create(128, 128).value();
  generate_random(g, 0.10, 2400);
  constexpr double kSmallAgent = 0.3;
  HybridAStarOptions h = default_hybrid_astar_options();
  h.turning_radius = kR;
  h.agent_radius = kSmallAgent;
  auto planner = HybridAStar::create(g, h);
  REQUIRE(planner.ok());
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(1.0, 127.0), uh(-kPi, kPi);
  int queries = 0, spent = 0;
  for (int guard = 0; queries < 4 && guard < 60; ++guard) {
    const Pose s{Vec2(u(rng), u(rng)), uh(rng)}, t{Vec2(u(rng), u(rng)), uh(rng)};
    if (!point_clear(g, s.pos, 1.0) || !point_clear(g, t.pos, 1.0) || glm::length(s.pos - t.pos) < 40) continue;
    auto planned = planner->plan(s, t);
    REQUIRE(planned.ok());
    if (!planned->found) continue;
    ++queries;
    PoseSmoothDef d = def_for(false);
    d.agent_radius = kSmallAgent;
    const ClearanceField field(g);
    auto free = smooth_pose_path(g, planned->path, d, field);
    REQUIRE(free.ok());
    CHECK_FALSE(free->budget_spent);
    REQUIRE(free->tries > 40);
    for (const int64_t limit : {int64_t{1}, free->tries / 4, free->tries / 2, free->tries}) {
      d.max_tries = limit;
      auto bounded = smooth_pose_path(g, planned->path, d, field);
      REQUIRE(bounded.ok());
      CHECK(bounded->tries <= limit);
      CHECK(bounded->budget_spent == (bounded->tries >= limit));
      spent += bounded->budget_spent;
      SweptCheckDef fine;
      fine.agent_radius = kSmallAgent;
      fine.max_sagitta = 1e-4;
      auto swept = check_swept_path(g, bounded->path, fine);
      REQUIRE(swept.ok());
      CHECK(swept->clear);
      CHECK(bounded->path.end().pos == planned->path.end().pos);
      CHECK(bounded->path.length() <= planned->path.length() + 1e-9);
      CHECK(bounded->cost <= pose_path_cost(planned->path, d) + 1e-9);
      // The same budget gives the same path (deterministic), and the whole budget the free one.
      auto again = smooth_pose_path(g, planned->path, d, field);
      REQUIRE(again.ok());
      CHECK(again->path.length() == bounded->path.length());
      if (limit == free->tries) CHECK(bounded->path.length() == free->path.length());
    }
  }
  CHECK(queries == 4);
  CHECK(spent >= 8);  // the smaller budgets did stop it
  // The service's budget: 3.2 tries per expansion (in integers, the same everywhere), never
  // under 0.8 of a short search's share (320).
  CHECK(pose_smooth_tries_for(0) == pose_smooth_tries_for(1));
  CHECK(pose_smooth_tries_for(0) == 320);
  CHECK(pose_smooth_tries_for(100) == 320);
  CHECK(pose_smooth_tries_for(101) == 323);  // 323.2, rounded down
  CHECK(pose_smooth_tries_for(204) == 652);  // bench_vehicle_replan's wide-rooms q4
  CHECK(pose_smooth_tries_for(1000000) == 3200000);
  CHECK(pose_smooth_tries_for(2000000) > pose_smooth_tries_for(1000000));
}

TEST_CASE("pose smoother: the gear-change and reverse penalties decide whether it reverses") {
  // Turning around in an open lot: forward-only input (a Dubins loop), Reeds-Shepp allowed.
  const Grid g = Grid::create(40, 40).value();
  const Pose start{Vec2(20, 20), 0.0}, goal{Vec2(20.5, 20), kPi};
  auto loop = dubins_path(start, goal, kR);
  REQUIRE(loop.ok());
  PoseSmoothDef cheap = def_for(true);
  cheap.reverse_penalty = 1.0;
  cheap.gear_change_penalty = 0.0;
  auto a = smooth_pose_path(g, *loop, cheap);
  REQUIRE(a.ok());
  CHECK(a->gear_changes >= 1);  // reversing pays: shorter than the loop
  CHECK(a->path.length() < loop->length());
  PoseSmoothDef dear = cheap;
  dear.gear_change_penalty = 1000.0;
  auto b = smooth_pose_path(g, *loop, dear);
  REQUIRE(b.ok());
  CHECK(b->gear_changes == 0);
  PoseSmoothDef slow_back = cheap;
  slow_back.reverse_penalty = 1000.0;
  auto c = smooth_pose_path(g, *loop, slow_back);
  REQUIRE(c.ok());
  CHECK(c->gear_changes == 0);
  // No gear segment shorter than the minimum, however cheap reversing is.
  PoseSmoothDef long_runs = cheap;
  long_runs.min_gear_length = 3.0;
  auto d = smooth_pose_path(g, *loop, long_runs);
  REQUIRE(d.ok());
  CHECK(d->short_gear_runs == 0);
}

TEST_CASE("pose smoother: with cc_sharpness the connections are CC curves, steering never jumps") {
  // A wobbling path across an open lot that ends a quarter turn to the left: one CC-Dubins
  // curve from its start to its end is clear and shorter, so it replaces the whole path.
  const Grid g = Grid::create(60, 40).value();
  SegmentPath wobbly(Pose{Vec2(5.0, 10.0), 0.0});
  for (int k = 0; k < 4; ++k)
    REQUIRE(wobbly.append(arc_from_pose(wobbly.end(), 6.0, k % 3 == 0 ? 1 : -1, 1.8)).ok());
  REQUIRE(wobbly.append(arc_from_pose(wobbly.end(), 3.0, 1, 3.0 * (kPi / 2 - wobbly.end().heading))).ok());
  REQUIRE(wobbly.append(line_from_pose(wobbly.end(), 12.0)).ok());
  const double sharpness = 1.0 / (kR * kR);
  auto cc = cc_dubins(wobbly.start(), wobbly.end(), kR, sharpness);
  REQUIRE(cc.ok());
  REQUIRE(cc->length < wobbly.length());
  PoseSmoothDef d = def_for(false);
  d.cc_sharpness = sharpness;
  auto r = smooth_pose_path(g, wobbly, d);
  REQUIRE(r.ok());
  check_drivable(g, wobbly, r->path);
  CHECK(r->path.length() == doctest::Approx(cc->length).epsilon(1e-9));
  int clothoids = 0;
  for (const Segment& seg : r->path.segments()) clothoids += seg.kind == SegmentKind::clothoid;
  CHECK(clothoids >= 2);
  // The curve checks over the whole result: |curvature| <= 1/R, its change between
  // samples <= sharpness x ds (+1e-6), wheels straight at both ends.
  auto samples = r->path.sample(0.05);
  REQUIRE(samples.ok());
  double worst_k = 0.0, worst_dk = 0.0;
  for (size_t i = 0; i < samples->size(); ++i) {
    const PathSample& p = (*samples)[i];
    worst_k = std::max(worst_k, std::abs(p.state.curvature) - 1.0 / kR);
    if (i > 0) {
      const PathSample& q = (*samples)[i - 1];
      worst_dk = std::max(worst_dk, std::abs(p.state.curvature - q.state.curvature) - sharpness * (p.s - q.s));
    }
  }
  CHECK(worst_k <= 1e-9);
  CHECK(worst_dk <= 1e-6);
  CHECK(std::abs(samples->front().state.curvature) <= 1e-9);
  CHECK(std::abs(samples->back().state.curvature) <= 1e-9);
  // The plain smoother makes the same path from Dubins arcs, shorter, with steering jumps.
  auto plain = smooth_pose_path(g, wobbly, def_for(false));
  REQUIRE(plain.ok());
  CHECK(plain->path.length() < r->path.length());
  // A sharpness below 1 / (pi R^2) is refused, naming the field.
  d.cc_sharpness = 0.5 / (kPi * kR * kR);
  auto bad = smooth_pose_path(g, wobbly, d);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("cc_sharpness") != std::string::npos);
}

TEST_CASE("pose smoother: bad definitions are errors naming the field") {
  const Grid g = corridor(20);
  const SegmentPath p = wobbly_corridor_path();
  const auto message = [&](PoseSmoothDef d) {
    auto r = smooth_pose_path(g, p, d);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == StatusCode::invalid_argument);
    return r.error().message;
  };
  PoseSmoothDef d = def_for(false);
  d.turning_radius = 0.0;
  CHECK(message(d).find("turning_radius") != std::string::npos);
  d = def_for(false);
  d.pose_step = 0.0;
  CHECK(message(d).find("pose_step") != std::string::npos);
  d = def_for(false);
  d.reverse_penalty = std::nan("");
  CHECK(message(d).find("reverse_penalty") != std::string::npos);
  d = def_for(false);
  d.min_gear_length = -1.0;
  CHECK(message(d).find("min_gear_length") != std::string::npos);
  d = def_for(false);
  d.max_rounds = 0;
  CHECK(message(d).find("max_rounds") != std::string::npos);
  d = def_for(false);
  d.min_round_gain = -0.1;
  CHECK(message(d).find("min_round_gain") != std::string::npos);
  d = def_for(false);
  d.max_tries = -1;
  CHECK(message(d).find("max_tries") != std::string::npos);
  auto empty = smooth_pose_path(g, SegmentPath(Pose{Vec2(3, 3), 0}), def_for(false));
  REQUIRE(empty.ok());
  CHECK(empty->path.empty());
}

TEST_CASE("planning service: vehicle is the heading family's default; turning and vehicle follow the navmesh") {
  using namespace pathlab::plan;
  CHECK(smoothers_for(PlannerFamily::heading).front().id == SmootherId::vehicle);
  CHECK(find_smoother("turning", PlannerFamily::navmesh) != nullptr);
  CHECK(find_smoother("vehicle", PlannerFamily::navmesh) != nullptr);
  CHECK(find_smoother("vehicle", PlannerFamily::grid) != nullptr);
  const Grid g = test::parking_lot(1002);
  PlanService service;
  for (const char* smoother : {"turning", "vehicle"}) {
    PlanRequest req;
    req.start = Pose{Vec2(4.0, 4.0), 0.0};
    req.goal = Pose{Vec2(58.0, 45.0), kPi};
    req.settings.planner = "navmesh";
    req.settings.smoother = smoother;
    req.settings.turning_radius = kR;
    req.settings.agent_radius = kAgent;
    req.curve_step = 0.1;
    const PlanResult r = service.plan(g, req);
    INFO(smoother);
    REQUIRE(r.error.empty());
    REQUIRE(r.found);
    CHECK(r.smoother_error.empty());
    CHECK(r.headings.size() == r.points.size());
    REQUIRE(r.points.size() >= 2);
    CHECK(r.points.front() == req.start.pos);
    CHECK(glm::length(r.points.back() - req.goal.pos) < 1e-6);
    CHECK(test::heading_gap(r.headings.front(), req.start.heading) < 1e-9);
    CHECK(test::heading_gap(r.headings.back(), req.goal.heading) < 1e-9);
    for (double k : r.curvature) CHECK(std::abs(k) <= 1.0 / kR + 1e-9);  // no rotation is sampled as a curve
    int overlaps = 0;
    for (Vec2 p : r.points) overlaps += !point_clear(g, p, kAgent - 1e-9);
    CHECK(overlaps == 0);
    if (r.segments) {  // one drivable piece: the exact curve
      CHECK(r.length == doctest::Approx(r.segments->length()).epsilon(1e-12));
      SweptCheckDef check;
      check.agent_radius = kAgent;
      auto swept = check_swept_path(g, *r.segments, check);
      REQUIRE(swept.ok());
      CHECK(swept->clear);
    }
  }
}

TEST_CASE("planning service: hybrid A* results are smoothed by default and never get longer") {
  using namespace pathlab::plan;
  const Grid g = test::parking_lot(1003);
  PlanService service;
  PlanRequest req;
  req.start = Pose{Vec2(4.0, 4.0), 0.0};
  req.goal = Pose{Vec2(58.0, 45.0), kPi};
  req.settings.planner = "hybrid";
  req.settings.turning_radius = kR;
  req.settings.agent_radius = kAgent;
  req.settings.reverse = true;
  req.settings.smoother = "none";
  const PlanResult raw = service.plan(g, req);
  req.settings.smoother = smoothers_for(PlannerFamily::heading).front().name;
  const PlanResult smooth = service.plan(g, req);
  REQUIRE(raw.found);
  REQUIRE(smooth.found);
  CHECK(smooth.length <= raw.length + 1e-9);
  REQUIRE(smooth.segments.has_value());
  CHECK(smooth.segments->end().pos == req.goal.pos);
  // settings.cc: the finish and the smoother's connections are CC curves of sharpness 1 / R^2.
  req.settings.cc = true;
  const PlanResult cc = service.plan(g, req);
  REQUIRE(cc.found);
  REQUIRE(cc.segments.has_value());
  int clothoids = 0;
  for (const Segment& s : cc.segments->segments()) clothoids += s.kind == SegmentKind::clothoid;
  CHECK(clothoids >= 2);
  for (double k : cc.curvature) CHECK(std::abs(k) <= 1.0 / kR + 1e-9);
  CHECK(cc.segments->end().pos == req.goal.pos);
  req.settings.smoother = "none";
  const PlanResult cc_raw = service.plan(g, req);
  REQUIRE(cc_raw.found);
  CHECK(cc.length <= cc_raw.length + 1e-9);
}


TEST_CASE("join_rotations: a turn on the spot becomes a manoeuvre where one fits, else stays") {
  // Two straight pieces meeting at (20, 20) with a quarter-turn jump of heading in between.
  const Pose corner_in{Vec2(20, 20), 0.0}, corner_out{Vec2(20, 20), kPi / 2};
  SegmentPath a(Pose{Vec2(8, 20), 0.0}), b(corner_out);
  REQUIRE(a.append(line_from_pose(a.start(), 12.0)).ok());
  REQUIRE(b.append(line_from_pose(corner_out, 12.0)).ok());
  REQUIRE(glm::length(a.end().pos - corner_in.pos) < 1e-12);
  const Grid open = Grid::create(40, 40).value();
  auto joined = join_rotations(open, {a, b}, def_for(false));
  REQUIRE(joined.ok());
  REQUIRE(joined->size() == 1);
  const SegmentPath& p = joined->front();
  CHECK(p.start().pos == a.start().pos);
  CHECK(p.end().pos == b.end().pos);
  CHECK(p.end().heading == b.end().heading);
  for (const Segment& s : p.segments())
    if (s.kind == SegmentKind::arc) CHECK(s.radius >= kR * (1.0 - 1e-12));
  SweptCheckDef check;
  check.agent_radius = kAgent;
  auto swept = check_swept_path(open, p, check);
  REQUIRE(swept.ok());
  CHECK(swept->clear);
  // Walled in: a 1-cell-wide L-shaped slot leaves no room for any manoeuvre of radius 2.
  Grid slot = Grid::create(40, 40).value();
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 40; ++x) {
      const bool along = y == 20 && x >= 7 && x <= 20, down = x == 20 && y >= 20 && y <= 33;
      slot.set_blocked(x, y, !(along || down));
    }
  SegmentPath a2(Pose{Vec2(8.5, 20.5), 0.0}), b2(Pose{Vec2(20.5, 20.5), kPi / 2});
  REQUIRE(a2.append(line_from_pose(a2.start(), 12.0)).ok());
  REQUIRE(b2.append(line_from_pose(b2.start(), 12.0)).ok());
  PoseSmoothDef tight = def_for(false);
  tight.agent_radius = 0.4;
  auto kept = join_rotations(slot, {a2, b2}, tight);
  REQUIRE(kept.ok());
  CHECK(kept->size() == 2);
  // Pieces that do not meet are an error naming the piece.
  auto apart = join_rotations(open, {a, SegmentPath(Pose{Vec2(30, 30), 0.0})}, def_for(false));
  REQUIRE_FALSE(apart.ok());
  CHECK(apart.error().message.find("piece 1") != std::string::npos);
}

TEST_CASE("pose smoother: with the map's clearance field the result is the same, byte for byte") {
  for (int kind = 0; kind < 3; ++kind) {
    Grid g = Grid::create(96, 96).value();
    if (kind == 0) generate_random(g, 0.08, 77);
    else if (kind == 1) generate_rooms(g, 16, 4, 78);
    else generate_maze(g, 6, 79);
    const ClearanceField field(g);
    HybridAStarOptions o = default_hybrid_astar_options();
    o.turning_radius = kR;
    o.agent_radius = 0.3;
    o.max_expansions = 30000;
    auto planner = HybridAStar::create(g, o);
    REQUIRE(planner);
    std::mt19937 rng(90u + static_cast<uint32_t>(kind));
    std::uniform_real_distribution<double> u(2.0, 94.0), ang(-kPi, kPi);
    int smoothed = 0;
    for (int q = 0; q < 12 && smoothed < 4; ++q) {
      const Pose a{Vec2(u(rng), u(rng)), ang(rng)}, b{Vec2(u(rng), u(rng)), ang(rng)};
      if (!point_clear(g, a.pos, 1.0) || !point_clear(g, b.pos, 1.0)) continue;
      auto found = planner->plan(a, b);
      if (!found || !found->found) continue;
      PoseSmoothDef d = default_pose_smooth_def();
      d.turning_radius = kR;
      d.agent_radius = 0.3;
      d.allow_reverse = q % 2 == 1;
      const auto plain = smooth_pose_path(g, found->path, d);
      const auto fast = smooth_pose_path(g, found->path, d, field);
      REQUIRE(plain);
      REQUIRE(fast);
      CHECK(fast->shortcuts == plain->shortcuts);
      CHECK(fast->rounds == plain->rounds);
      const auto ps = plain->path.segments(), fs = fast->path.segments();
      REQUIRE(ps.size() == fs.size());
      for (size_t k = 0; k < ps.size(); ++k) {
        CHECK(fs[k].kind == ps[k].kind);
        CHECK(fs[k].length == ps[k].length);
        CHECK(fs[k].start.x == ps[k].start.x);
        CHECK(fs[k].start.y == ps[k].start.y);
        CHECK(fs[k].sweep == ps[k].sweep);
      }
      smoothed += plain->shortcuts > 0;
    }
    CHECK(smoothed >= 2);
  }
}

TEST_CASE("planning service: a plan with the per-map caches warm equals one with them cold") {
  Grid g = Grid::create(128, 128).value();
  generate_rooms(g, 16, 4, 5);
  plan::PlanRequest req;
  req.start = Pose{Vec2(10.5, 10.5), 0.0};
  req.goal = Pose{Vec2(100.5, 90.5), kPi / 2};
  req.settings.planner = "hybrid";
  req.settings.turning_radius = 2.0;
  req.settings.agent_radius = 0.3;
  plan::PlanService warm;
  (void)warm.plan(g, req);  // builds the planner's tables and the clearance field
  const plan::PlanResult second = warm.plan(g, req);
  plan::PlanService cold;
  const plan::PlanResult first = cold.plan(g, req);
  REQUIRE(first.found);
  REQUIRE(second.found);
  REQUIRE(first.points.size() == second.points.size());
  for (size_t i = 0; i < first.points.size(); ++i) {
    CHECK(first.points[i].x == second.points[i].x);
    CHECK(first.points[i].y == second.points[i].y);
  }
  CHECK(first.length == second.length);
}

TEST_CASE("pose smoother: a stretch that already is a shortest Dubins curve is not probed") {
  // Hybrid A* ends its path with one (its analytic expansion): a shortcut between two of its
  // poses cannot be cheaper, so the first round tries none of them.
  Grid g = Grid::create(64, 64).value();
  const Pose a{Vec2(8.0, 10.0), 0.3}, b{Vec2(50.0, 40.0), 2.5};
  auto curve = dubins_path(a, b, kR);
  REQUIRE(curve);
  REQUIRE(curve->length() > 40.0);
  auto r = smooth_pose_path(g, *curve, def_for(false));
  REQUIRE(r);
  CHECK(r->shortcuts == 0);
  CHECK(r->tries == 0);
  CHECK(r->path.length() == curve->length());
  // A wobble before it is still smoothed away, into a legal path.
  SegmentPath wobbly(Pose{Vec2(8.0, 10.0), 0.0});
  Pose at = wobbly.start();
  for (int k = 0; k < 4; ++k) {
    const Segment arc = arc_from_pose(at, 6.0, k % 2 == 0 ? 1 : -1, 6.0 * 0.3);
    REQUIRE(wobbly.append(arc).ok());
    at = segment_end(arc);
  }
  auto tail = dubins_path(at, b, kR);
  REQUIRE(tail);
  REQUIRE(wobbly.append(*tail).ok());
  auto w = smooth_pose_path(g, wobbly, def_for(false));
  REQUIRE(w);
  CHECK(w->shortcuts >= 1);
  CHECK(w->path.length() < wobbly.length());
  check_drivable(g, wobbly, w->path);
}
