// The vehicle smoother (pose_smoother.hpp): greedy farthest-first shortcuts of a pose sequence
// with Dubins and Reeds-Shepp connections, repeated until a round changes nothing. The
// shortcut stage of Dolgov, Thrun, Montemerlo and Diebel, "Path Planning for Autonomous
// Vehicles in Unknown Semi-structured Environments" (IJRR 2010).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "pathlab/cc_curves.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/directional_astar.hpp"
#include "pathlab/dubins.hpp"
#include "pathlab/pose_smoother.hpp"
#include "pathlab/reeds_shepp.hpp"
#include "pathlab/swept_check.hpp"
#include "heading/pose_smoother_internal.hpp"
#include "heading/pose_table.hpp"

namespace pathlab {
namespace detail {

double segments_cost(std::span<const Segment> segs, int prev_gear, int next_gear, const PoseSmoothDef& d) {
  double cost = 0.0;
  int gear = prev_gear;
  for (const Segment& s : segs) {
    if (s.length <= 0.0) continue;
    const int g = gear_of(s.gear);
    if (gear != 0 && g != gear) cost += d.gear_change_penalty;
    gear = g;
    cost += s.length * (g < 0 ? d.reverse_penalty : 1.0);
  }
  if (next_gear != 0 && gear != 0 && gear != next_gear) cost += d.gear_change_penalty;
  return cost;
}

/// Lengths of the gear runs of `segs`, in order.
static std::vector<double> gear_runs(std::span<const Segment> segs, std::vector<int>& gears) {
  std::vector<double> runs;
  gears.clear();
  for (const Segment& s : segs) {
    if (s.length <= 0.0) continue;
    const int g = gear_of(s.gear);
    if (gears.empty() || gears.back() != g) {
      gears.push_back(g);
      runs.push_back(0.0);
    }
    runs.back() += s.length;
  }
  return runs;
}

/// gear_runs_ok() with nb.prev_run given by `prev_run()`, asked only when the answer depends on
/// it. The runs are summed as gear_runs() sums them, and the neighbours' runs added in the same
/// order (the first run + prev_run, then the last run + next_run), so every comparison sees the
/// same number; no vectors. A first run that reaches the minimum without prev_run reaches it
/// with it (prev_run() is a length, >= 0, and rounded sums of non-negative terms never
/// decrease), so prev_run is not needed then.
template <class PrevRun>
bool gear_runs_ok_with(std::span<const Segment> segs, const Neighbours& nb, const PoseSmoothDef& d,
                       PrevRun&& prev_run) {
  const double min = d.min_gear_length - kPoseSmoothEps;
  int first_gear = 0, gear = 0;
  size_t done = 0;  // runs complete before the current one
  double run = 0.0;
  const auto run_ok = [&](bool last) {  // the current run, complete
    double r = run;
    const bool joins_prev = done == 0 && nb.prev_gear != 0 && gear == nb.prev_gear;
    const bool joins_next = last && nb.next_gear != 0 && gear == nb.next_gear;
    if (joins_prev && !((joins_next ? r + nb.next_run : r) >= min)) r += prev_run();
    if (joins_next) r += nb.next_run;
    return r >= min;
  };
  for (const Segment& s : segs) {
    if (s.length <= 0.0) continue;
    const int g = gear_of(s.gear);
    if (gear == 0) {
      first_gear = gear = g;
    } else if (g != gear) {
      if (!run_ok(false)) return false;
      ++done;
      gear = g;
      run = 0.0;
    }
    run += s.length;
  }
  if (gear == 0) return true;  // no runs
  if (nb.prev_gear != 0 && first_gear != nb.prev_gear && prev_run() < min) return false;
  if (nb.next_gear != 0 && gear != nb.next_gear && nb.next_run < min) return false;
  return run_ok(true);
}

/// True when the connection leaves no gear segment shorter than min_gear_length: each of its
/// runs counts together with the neighbour run it continues, and a neighbour run it cuts off
/// with a cusp must itself be long enough.
bool gear_runs_ok(std::span<const Segment> segs, const Neighbours& nb, const PoseSmoothDef& d) {
  return gear_runs_ok_with(segs, nb, d, [&] { return nb.prev_run; });
}

/// Length of the last gear run of `path`. [Units: cells]
double trailing_run(const SegmentPath& path) {
  const auto segs = path.segments();
  double run = 0.0;
  for (size_t k = segs.size(); k-- > 0;) {
    if (segs[k].gear != segs.back().gear) break;
    run += segs[k].length;
  }
  return run;
}

double leading_run(const SegmentPath& path) {
  const auto segs = path.segments();
  double run = 0.0;
  for (const Segment& seg : segs) {
    if (seg.gear != segs.front().gear) break;
    run += seg.length;
  }
  return run;
}

int last_gear(const SegmentPath& p) { return p.empty() ? 0 : gear_of(p.segments().back().gear); }
int first_gear(const SegmentPath& p) { return p.empty() ? 0 : gear_of(p.segments().front().gear); }

/// The CC connections: the shortest CC-Reeds-Shepp curve (with reverse) and the CC-Dubins
/// curve, shortest first, those no longer than max_length.
static std::vector<SegmentPath> cc_connections(const Pose& a, const Pose& b, double max_length, const PoseSmoothDef& d) {
  std::vector<SegmentPath> out;
  for (const bool reverse : {true, false}) {
    if (reverse && !d.allow_reverse) continue;
    auto c = reverse ? cc_reeds_shepp(a, b, d.turning_radius, d.cc_sharpness)
                     : cc_dubins(a, b, d.turning_radius, d.cc_sharpness);
    if (c && c->length <= max_length + kPoseSmoothEps) out.push_back(std::move(c->path));
  }
  // The CC-Reeds-Shepp curve is never longer than the CC-Dubins one (it may drive forward).
  if (out.size() == 2 && out[1].length() < out[0].length()) std::swap(out[0], out[1]);
  return out;
}

std::vector<SegmentPath> connections(const Pose& a, const Pose& b, double max_length, const PoseSmoothDef& d) {
  if (d.cc_sharpness > 0.0) return cc_connections(a, b, max_length, d);
  std::vector<SegmentPath> out;
  if (d.allow_reverse) {
    auto rs = reeds_shepp_shortest(a, b, d.turning_radius);
    if (rs && rs->length <= max_length + kPoseSmoothEps)
      if (auto p = reeds_shepp_to_path(a, b, d.turning_radius, *rs)) out.push_back(std::move(*p));
  }
  auto all = dubins_all(a, b, d.turning_radius);
  if (!all) return out;
  std::array<DubinsSolution, 6> words = *all;
  // Stable: equal lengths keep their order on every standard library (std::sort's order of
  // equal elements is the library's own).
  std::stable_sort(words.begin(), words.end(), [](const auto& x, const auto& y) { return x.length < y.length; });
  for (const DubinsSolution& w : words) {
    if (!(w.length <= max_length + kPoseSmoothEps)) break;
    if (auto p = dubins_to_path(a, b, d.turning_radius, w)) out.push_back(std::move(*p));
  }
  return out;
}

Status flush_run(const SegmentPath& path, PendingRun& run, SegmentPath& out) {
  const size_t count = std::exchange(run.count, 0);
  return out.append_run(path, run.first, count);
}

Status gather_whole(const SegmentPath& path, size_t k, PendingRun& run, SegmentPath& out) {
  if (run.count > 0 && run.first + run.count == k) {
    ++run.count;
    return ok_status();
  }
  if (Status s = flush_run(path, run, out); !s) return s;
  run = PendingRun{k, 1};
  return ok_status();
}

Status append_cut(const SegmentPath& path, double a, double b, SegmentPath& out, std::span<const double> ends,
                  PendingRun* run) {
  const auto segs = path.segments();
  size_t k = 0;
  double offset = 0.0;
  if (ends.size() == segs.size() && !ends.empty()) {
    // Start at the first segment that ends at or past a, and `offset` takes the very value the
    // plain walk would have summed. A segment ending before a, or starting at or past b, gives
    // hi - lo <= 0 below and is skipped by that walk: leaving them out keeps every segment it
    // uses. (A 1-cell margin each side also walked the segments around the stretch, in the
    // later rounds, whose paths are cut at every pose, several a call.)
    k = static_cast<size_t>(std::lower_bound(ends.begin(), ends.end(), a) - ends.begin());
    offset = k > 0 ? ends[k - 1] : 0.0;
  }
  for (; k < segs.size(); ++k) {
    const Segment& seg = segs[k];
    if (!ends.empty() && offset >= b) break;  // this and every later segment start at or past b
    const double lo = std::max(a, offset), hi = std::min(b, offset + seg.length);
    offset += seg.length;
    if (hi - lo <= 1e-12) continue;
    // A whole segment (later rounds copy the kept stretches pose interval by pose interval, and
    // each interval is one segment of the last round's path) is copied as it is: rebuilding it
    // from its start state cost two sines and cosines and moved it by rounding.
    if (lo == offset - seg.length && hi == offset) {
      if (run == nullptr) {
        if (Status s = out.append(seg); !s) return s;
      } else if (Status s = gather_whole(path, k, *run, out); !s) {
        return s;
      }
      continue;
    }
    if (run != nullptr)
      if (Status s = flush_run(path, *run, out); !s) return s;
    const PathState st = segment_state(seg, lo - (offset - seg.length));
    const Pose from{st.pos, st.heading};
    const int steer = seg.kind == SegmentKind::line ? 0 : (st.curvature > 0.0 ? 1 : -1);
    Segment piece;
    if (seg.kind == SegmentKind::clothoid) piece = make_clothoid(from, st.curvature, seg.sharpness, hi - lo, seg.gear);
    else if (steer == 0) piece = line_from_pose(from, hi - lo, seg.gear);
    else piece = arc_from_pose(from, seg.radius, steer, hi - lo, seg.gear);
    if (Status s = out.append(piece); !s) return s;
  }
  return ok_status();
}

}  // namespace detail

namespace {

using namespace detail;

/// pose_smooth_tries_for(): tries per expansion of the search, and the fewest tries. On
/// bench_vehicle_replan's short Hybrid A* searches (40-500 expansions) an expansion with its
/// share of the goal distance costs 2.8-3.5 us and a try 0.7-0.9 us; the search's fixed cost
/// (its 2D goal distance and the goal's pocket check, 0.3-0.4 ms on 256 x 256 maps) pays for
/// about 400 tries. So 4 tries an expansion, at least 400 (thirteenth round), let the smoother
/// cost about as much as the search: wide-rooms q4 (204 expansions, 807 of its 816 tries)
/// came out at 0.80-1.11 of its search over 10 runs. 0.8 of that budget, 3.2 tries an
/// expansion and at least 320, holds the smoother to about 0.8 of a short search's time by its
/// count alone (README, seventeenth round). It stops 2 of the bench's 78 plans sooner:
/// wide-rooms q4 after 652 tries (it keeps its 2.11 steering changes per 100 cells from 632
/// tries on; 3 an expansion, 612, doubled them) and random10 q4 after 1,612 (turning ratio
/// 1.083 -> 1.086). Past about 1,000 expansions an expansion costs only 0.6-1.8 us, so there
/// the count is no bound (the goal distance's work is not counted); none of the bench's long
/// searches has a smoother that comes near it.
/// Integer arithmetic (16 / 5), so every machine gives the same budget.
constexpr int64_t kTriesPerFiveExpansions = 16;
constexpr int64_t kMinTries = 320;
/// Farthest pose a shortcut from pose i may reach: i + kWindow (200 cells at the default step),
/// so a round costs at most kWindow tries per pose however long the path is.
constexpr size_t kWindow = 400;
/// Up to this many poses on (8 cells at the default step) every pose is a shortcut target.
constexpr size_t kDenseReach = 16;
/// The same in the rounds after the first (4 cells at the default step). Those rounds probe
/// only near the last round's changes; on bench_vehicle_replan's maps 80% of all tries went to
/// the dense targets, though 64% of the shortcuts later rounds accepted reach farther. 8
/// instead of 16 there took 34% of the tries off with the smoothness figures of the bench's
/// "all" rows unchanged (README, tenth round).
constexpr size_t kDenseReachLater = 8;
/// Outward probes past the dense reach stop after this many fail in a row.
constexpr int kMissesAfterClear = 8;

Status check_def(const PoseSmoothDef& d) {
  const auto bad = [](const char* what, const char* limit) {
    return fail(StatusCode::invalid_argument, std::string("pose smoother: ") + what + " must be " + limit);
  };
  if (!(d.turning_radius > 0.0 && d.turning_radius <= kMaxTurningRadius)) return bad("turning_radius", "in (0, 1000]");
  if (Status s = check_agent_radius(d.agent_radius); !s) return s;
  if (!(d.reverse_penalty >= 1.0 && std::isfinite(d.reverse_penalty))) return bad("reverse_penalty", ">= 1 and finite");
  if (!(d.gear_change_penalty >= 0.0 && std::isfinite(d.gear_change_penalty)))
    return bad("gear_change_penalty", ">= 0 and finite");
  if (!(d.min_gear_length >= 0.0 && std::isfinite(d.min_gear_length))) return bad("min_gear_length", ">= 0 and finite");
  if (!(d.pose_step >= 0.05 && std::isfinite(d.pose_step))) return bad("pose_step", ">= 0.05 and finite");
  if (d.max_rounds < 1 || d.max_rounds > 100) return bad("max_rounds", "in [1, 100]");
  if (!(d.max_sagitta > 0.0 && std::isfinite(d.max_sagitta))) return bad("max_sagitta", "> 0 and finite");
  if (!(d.min_round_gain >= 0.0 && std::isfinite(d.min_round_gain))) return bad("min_round_gain", ">= 0 and finite");
  if (d.max_tries < 0) return bad("max_tries", ">= 0");
  if (d.cc_sharpness != 0.0)
    if (Status s = check_cc_sharpness(d.turning_radius, d.cc_sharpness); !s)
      return fail(StatusCode::invalid_argument, "pose smoother: cc_" + s.error().message);  // "cc_sharpness ..."
  return ok_status();
}

/// A stretch [from, to] of a path (distances along it) that the last round replaced with a
/// connection. [Units: cells]
struct Change {
  double from = 0.0, to = 0.0;
  /// The connection is a shortest forward path between its ends (the shortest Dubins word, with
  /// forward Dubins connections only): then no shortcut between two of its poses can be cheaper.
  bool shortest = false;
};
using Changes = std::vector<Change>;

struct Round {
  SegmentPath path;
  std::vector<Leg> legs;  // the same path cut where shortcuts begin and end (only with relax)
  int shortcuts = 0;
  int relaxed = 0;
  Changes changed;  // the connections this round made, as stretches of `path`
};

/// How far before either end of a changed stretch a later round still probes from. [Units: cells]
/// A round after the first re-probes only the poses that the last round's connections can have
/// made a difference to: those up to this far before where a new connection starts (a shortcut
/// from there may now reach over the junction) and before where it ends (into the stretch after
/// it). Inside a connection, away from its end, a shortcut to another pose of it gains nothing
/// (a piece of a shortest Dubins curve is a shortest one, Dubins 1957), and on the rest of the
/// path the poses ahead are what the last round already probed without finding a shortcut (only
/// their spacing along it has shifted). Later rounds make a handful of shortcuts over paths of
/// hundreds of cells (a maze: 1-6 per round over 500 cells), all of them at such junctions on
/// the generated maps of bench_vehicle_replan: with 8 cells, every plan but one (0.001 cells
/// shorter) came out the same as with every pose probed, at about half the smoother's time
/// (4 cells changed many plans and made them longer).
constexpr double kChangeReach = 8.0;

/// True when pose distance `s` lies up to kChangeReach before either end of a changed stretch;
/// always true in the first round (`changed` null). `from`: index of the first change that can
/// still matter (changes are in order and apart; advanced as `s` grows).
bool near_change(const Changes* changed, double s, size_t& from) {
  if (changed == nullptr) return true;
  while (from < changed->size() && (*changed)[from].to < s) ++from;
  if (from >= changed->size()) return false;
  const Change& c = (*changed)[from];
  return (c.from - kChangeReach <= s && s <= c.from) || c.to - kChangeReach <= s;
}

/// Tolerance of "a pose lies on a connection" (distances along the path). [Units: cells]
constexpr double kOnConnection = 1e-9;

/// Where the shortest connection that pose distance `s` lies on ends (change `from`, as found by
/// near_change()); -infinity when there is none. A shortcut from `s` to a pose up to there
/// would replace a piece of a shortest forward path, itself a shortest one between its ends
/// (were a shorter one there, splicing it in would shorten the whole: Bellman's principle
/// applied to Dubins' theorem, "On Curves of Minimal Length with a Constraint on Average
/// Curvature", 1957), so none is cheaper. These were a quarter of the tries in later rounds on
/// bench_vehicle_replan's maps, none of them accepted.
double shortest_connection_end(const Changes* changed, double s, size_t from) {
  const double none = -std::numeric_limits<double>::infinity();
  if (changed == nullptr || from >= changed->size()) return none;
  const Change& c = (*changed)[from];
  return c.shortest && c.from - kOnConnection <= s && s <= c.to + kOnConnection ? c.to + kOnConnection : none;
}

/// Where the shortcuts worth trying from pose distance `s` begin (as shortest_connection_end()):
/// from a pose on the stretch kept before a changed one, only past where the change starts.
/// The last round probed from every pose of that kept stretch (it made no shortcut from any of
/// them) towards the rest of it, which has not changed since (its poses only moved along it by
/// under a pose step); what is new is the connection after it. These repeated tries were most
/// of a later round's on bench_vehicle_replan's maps.
double no_gain_end(const Changes* changed, double s, size_t from) {
  if (changed != nullptr && from < changed->size() && s < (*changed)[from].from - kOnConnection)
    return (*changed)[from].from + kOnConnection;
  return shortest_connection_end(changed, s, from);
}

/// A window of the input path that is a shortest forward path (tolerance of the comparison with
/// the shortest Dubins word's length). [Units: cells]
constexpr double kShortestWindowSlack = 1e-10;

/// The stretches of the smoother's input that are already shortest forward paths between their
/// ends: up to three consecutive forward segments (a Dubins word has three parts), lines or arcs
/// no tighter than the turning radius, as long as the shortest Dubins word between their ends.
/// Hybrid A* ends its path with such a word (its analytic expansion), often most of the path
/// when the search is short; a connection between two poses of one of them gains nothing (a
/// piece of a shortest path is a shortest one: Dubins 1957, as shortest_connection_end()), yet
/// the first round probed from each of their poses towards the others. In order, both ends
/// increasing (a window inside the one before is left out); empty unless forward Dubins
/// connections only (is_shortest_forward()).
Changes shortest_stretches(const SegmentPath& path, const PoseSmoothDef& d) {
  Changes out;
  if (d.allow_reverse || d.cc_sharpness != 0.0) return out;
  const auto segs = path.segments();
  const auto usable = [&](const Segment& s) {
    return s.gear == Gear::forward && s.length > 0.0 &&
           (s.kind == SegmentKind::line || (s.kind == SegmentKind::arc && s.radius >= d.turning_radius * (1.0 - 1e-12)));
  };
  double from = 0.0;
  for (size_t k = 0; k < segs.size(); from += segs[k].length, ++k) {
    size_t reach = 0;  // segments k .. k + reach - 1 are usable
    while (reach < 3 && k + reach < segs.size() && usable(segs[k + reach])) ++reach;
    // The longest window first; the shorter ones from k lie inside it.
    for (size_t m = reach; m >= 1; --m) {
      double span = 0.0;
      for (size_t q = 0; q < m; ++q) span += segs[k + q].length;
      if (span <= d.pose_step || (!out.empty() && from + span <= out.back().to)) break;  // no try inside it, or known
      const auto shortest = dubins_length(segment_start(segs[k]), segment_end(segs[k + m - 1]), d.turning_radius);
      if (shortest && std::abs(*shortest - span) <= kShortestWindowSlack) {
        out.push_back(Change{from, from + span, true});
        break;
      }
    }
  }
  return out;
}

/// shortest_connection_end() for the first round: the end of the farthest-reaching window of
/// `windows` (shortest_stretches()) that pose distance `s` lies on; `from`: index advanced as
/// `s` grows.
double window_end(const Changes& windows, double s, size_t& from) {
  while (from + 1 < windows.size() && windows[from + 1].from - kOnConnection <= s) ++from;
  if (from >= windows.size()) return -std::numeric_limits<double>::infinity();
  return shortest_connection_end(&windows, s, from);
}

/// Appends a stretch of the input to the legs, joining it to a preceding stretch.
Status add_cut_leg(const SegmentPath& path, double a, double b, std::vector<Leg>& legs, const Pose& at,
                   std::span<const double> ends) {
  if (legs.empty() || legs.back().shortcut) legs.push_back(Leg{SegmentPath(at), false});
  return append_cut(path, a, b, legs.back().piece, ends);
}

/// Where each segment of `path` ends, summed in order exactly as append_cut() sums them. [Units: cells]
void segment_ends(const SegmentPath& path, std::vector<double>& ends) {
  ends.clear();
  double offset = 0.0;
  for (const Segment& seg : path.segments()) ends.push_back(offset += seg.length);
}

/// The legs end to end, from `start`.
Result<SegmentPath> join_legs(const Pose& start, const std::vector<Leg>& legs) {
  SegmentPath out(start);
  for (const Leg& leg : legs)
    if (Status s = out.append(leg.piece); !s) return s.error();
  return out;
}

/// What a connection from pose i to pose j must beat: the stretch it replaces and its neighbours.
struct Stretch {
  double length = 0.0;  // of the stretch [cells]
  double cost = 0.0;    // of the stretch, gear changes at its ends included [cells]
  Neighbours nb;        // nb.prev_run: see runs_ok()
  const SegmentPath* done = nullptr;  // the path so far, ending at pose i

  /// gear_runs_ok() with nb.prev_run = trailing_run(*done). That walks the whole path so far (in
  /// one gear), so it is summed only when the answer depends on it (a connection shorter than
  /// min_gear_length continuing the run before it, or a cusp at its start), not for every
  /// candidate that passes the cost test: summed for each it was 1.4% of the smoother's
  /// instructions on bench_vehicle_replan's wide-rooms q4.
  bool runs_ok(std::span<const Segment> segs, const PoseSmoothDef& d) const {
    return gear_runs_ok_with(segs, nb, d, [&] { return done != nullptr ? trailing_run(*done) : nb.prev_run; });
  }
};

Stretch stretch_between(const PoseTable& t, size_t i, size_t j, const SegmentPath& done, const PoseSmoothDef& d) {
  Stretch st;
  const int prev_gear = last_gear(done);
  st.length = t.s[j] - t.s[i];
  st.done = &done;
  st.nb = Neighbours{prev_gear, 0.0, t.gear[j], t.run_ahead[j]};
  st.cost = t.cost[j] - t.cost[i];
  if (prev_gear != 0 && prev_gear != t.gear[i]) st.cost += d.gear_change_penalty;
  if (st.nb.next_gear != 0 && j >= 1 && t.gear[j - 1] != st.nb.next_gear) st.cost += d.gear_change_penalty;
  return st;
}

/// What is known of a candidate's clearance before acceptable() looks at it.
enum class Known {
  nothing,    ///< connection_clear(): points every 0.5 cells (a cheap rejection), then the swept disc
  unblocked,  ///< trace_word() walked it against the field and found no point blocked: the swept
              ///< disc alone (the points rejected about 1% of these on bench_vehicle_replan's
              ///< maps, for 8% of the smoother's time on rooms q4; README, eleventh round)
  clear,      ///< trace_word() showed it clear: no check
};

/// True when the candidate `c` is cheaper, keeps the gear runs and is clear.
bool acceptable(const Walls& walls, const SegmentPath& c, const Stretch& st, const PoseSmoothDef& d, Known known) {
  if (segments_cost(c.segments(), st.nb.prev_gear, st.nb.next_gear, d) >= st.cost - kPoseSmoothEps) return false;
  if (!st.runs_ok(c.segments(), d)) return false;
  if (known == Known::clear) return true;
  return known == Known::unblocked ? swept_clear(walls, c, d) : connection_clear(walls, c, d);
}

/// The first candidate that is cheaper, keeps the gear runs and is clear, else empty.
std::optional<SegmentPath> first_clear(const Walls& walls, std::vector<SegmentPath> candidates, const Stretch& st,
                                       const PoseSmoothDef& d) {
  for (SegmentPath& c : candidates)
    if (acceptable(walls, c, st, d, Known::nothing)) return std::move(c);
  return std::nullopt;
}

/// Sorts the words by length, equal lengths in their order (insertion sort, stable: the words
/// left out by dubins_all_within() go last without reordering the others, which is what
/// std::sort did for six words with libstdc++, so the smoother's choices stay the same).
void sort_by_length(std::array<DubinsSolution, 6>& words) {
  for (size_t i = 1; i < words.size(); ++i)
    for (size_t k = i; k > 0 && words[k].length < words[k - 1].length; --k) std::swap(words[k], words[k - 1]);
}

/// Forward Dubins connections (the default): the words are ranked by length, and a word's cost
/// is its length plus the gear changes to reversing neighbours, so the cost test runs before a
/// word is turned into segments and stops at the first word too dear (every later one is too).
std::optional<SegmentPath> dubins_shortcut(const Walls& walls, const Pose& a, const Pose& b, const Stretch& st,
                                           const PoseSmoothDef& d) {
  const double ends = d.gear_change_penalty * ((st.nb.prev_gear < 0) + (st.nb.next_gear < 0));
  const double dearest = st.cost - kPoseSmoothEps + 1e-10;  // (the 1e-10: see below)
  // No word is shorter than the straight line (1e-11 covers rounding, about 1e-13 here): where
  // that is already too dear, as between two poses of a stretch that is one straight line, stop
  // before solving for the six words.
  if (glm::length(b.pos - a.pos) + ends - 1e-11 >= dearest) return std::nullopt;
  ++walls.tries;  // the tries that cost something: solving, tracing and checking words
  // Only the words the loop below can reach are solved: a longer one would break it.
  auto all = dubins_all_within(a, walls.heading_dir(a), b, d.turning_radius,
                               std::min(st.length + kPoseSmoothEps, dearest - ends));
  if (!all) return std::nullopt;
  std::array<DubinsSolution, 6>& words = *all;  // (sorted in place: a copy of six words a try)
  sort_by_length(words);
  // Exact ties are left to segments_cost() of the built path; the 1e-10 covers the rounding
  // between a word's length and that cost (a few ulps). It was 1e-7, which let through the
  // words that only rebuild a stretch that already is one Dubins curve (its cost up to rounding):
  // most words the later rounds try, each built and then turned away, most of the smoother's time.
  for (const DubinsSolution& w : words) {
    if (!(w.length <= st.length + kPoseSmoothEps) || w.length + ends >= dearest) break;
    // Most words the smoother tries run through a wall, and in the open most are clear:
    // tracing the word against the clearance field settles both before the word is built.
    const WordTrace trace = trace_word(walls, a, w, d.turning_radius, d.agent_radius, d.max_sagitta);
    if (trace == WordTrace::blocked) continue;
    auto p = dubins_to_path(a, b, d.turning_radius, w);
    // (Without a field trace_word() walks nothing: unknown says nothing then.)
    const Known known = trace == WordTrace::clear ? Known::clear : walls.field ? Known::unblocked : Known::nothing;
    if (p && acceptable(walls, *p, st, d, known)) return std::move(*p);
  }
  return std::nullopt;
}

/// The connection from pose i to pose j when one is clear, cheaper and no longer, else empty.
/// `done`: the path so far, ending at pose i.
std::optional<SegmentPath> try_shortcut(const Walls& walls, const PoseTable& t, size_t i, size_t j,
                                        const SegmentPath& done, const PoseSmoothDef& d) {
  const Stretch st = stretch_between(t, i, j, done, d);
  if (!d.allow_reverse && d.cc_sharpness == 0.0) return dubins_shortcut(walls, t.pose(i), t.pose(j), st, d);
  ++walls.tries;
  return first_clear(walls, connections(t.pose(i), t.pose(j), st.length, d), st, d);
}

/// The poses a shortcut from pose i tries to reach, nearest first: every pose up to
/// i + dense_reach, then spaced by a factor of about 1.25 out to i + kWindow (about 30 in all
/// instead of kWindow). Written into `out` (kept by the round: a new vector per pose was a
/// tenth of the smoother's allocations).
void probe_targets(size_t i, size_t last, size_t dense_reach, std::vector<size_t>& out) {
  out.clear();
  const size_t far = std::min(last, i + kWindow);
  for (size_t step = 2; i + step <= far;) {
    out.push_back(i + step);
    step = step < dense_reach ? step + 1 : step + std::max<size_t>(1, step / 4);
  }
  if (far > i + 1 && (out.empty() || out.back() != far)) out.push_back(far);
}

/// The farthest pose a connection from pose i reaches, and the connection; reached = i + 1 and
/// no connection when none is clear. The farthest probe is tried first; then the probes up to
/// kDenseReach on, farthest first down to the first clear one (the same answer as trying them
/// nearest first); then probes go outwards and stop kMissesAfterClear probes past
/// the farthest clear one beyond the dense reach (in a maze the walls end every long
/// connection; in the open they keep reaching), then bisection pushes the farthest clear probe
/// towards the next one out. Reachability is not monotone, so this finds a pose near, not
/// always at, the farthest one; the next round picks up much of what it misses.
/// `no_gain_to`: targets up to this distance along the path cannot give a cheaper connection
/// (shortest_connection_end()) and count as failed tries without being tried.
/// `probes`: the round's buffer for probe_targets().
/// `later`: a round after the first. Its probes are near the last round's changes, which are
/// local (the first round made the long connections), so the farthest pose is not tried first
/// (with the shorter dense reach, leaving it out took another 16% of the tries off, the "all"
/// rows unchanged; the outward probes still reach it while they keep finding clear ones), and
/// the dense reach is kDenseReachLater.
std::pair<size_t, std::optional<SegmentPath>> farthest_shortcut(const Walls& walls, const PoseTable& t, size_t i,
                                                                 const SegmentPath& done, const PoseSmoothDef& d,
                                                                 double no_gain_to, bool later,
                                                                 std::vector<size_t>& probes) {
  const size_t dense_reach = later ? kDenseReachLater : kDenseReach;
  probe_targets(i, t.size() - 1, dense_reach, probes);
  if (probes.empty()) return {i + 1, std::nullopt};
  const auto attempt = [&](size_t j) -> std::optional<SegmentPath> {
    if (t.s[j] <= no_gain_to || walls.spent()) return std::nullopt;
    return try_shortcut(walls, t, i, j, done, d);
  };
  // The farthest pose first: in the open (and near the goal) it is often reached at once.
  if (!later)
    if (auto whole = attempt(probes.back())) return {probes.back(), std::move(whole)};
  size_t lo = i + 1, hi = 0;  // farthest clear probe; nearest failed probe beyond it (0: none)
  std::optional<SegmentPath> link;
  int misses = 0;
  // The probes up to kDenseReach on are all tried, whatever they find (misses stop the probes
  // only past there). What they leave, the farthest clear one, the nearest failed one beyond it
  // and the misses since, does not depend on the order they are tried in (a try's answer
  // depends on its poses and the path so far alone), so they are tried farthest first and stop
  // at the first clear one: the same connection, without the tries of the nearer ones.
  size_t forced = 0;
  while (forced < probes.size() && probes[forced] <= i + kDenseReach && (later || probes[forced] != probes.back()))
    ++forced;
  for (size_t k = forced; k-- > 0;) {
    if (t.s[probes[k]] <= no_gain_to) {  // this one and every nearer one fail untried
      hi = probes.front();
      misses += static_cast<int>(k) + 1;
      break;
    }
    if (auto c = attempt(probes[k])) {
      lo = probes[k];
      link = std::move(c);
      break;
    }
    hi = probes[k];
    ++misses;
  }
  for (size_t k = forced; k < probes.size(); ++k) {
    const size_t j = probes[k];
    if (j == probes.back() && !later) {  // tried above: failed
      if (link && hi == 0) hi = j;
      break;
    }
    // (Misses count past kDenseReach in every round: counted past kDenseReachLater, later
    // rounds gave up too soon, and Directional A*'s median turning ratio went 1.02 -> 1.05.)
    if (j > i + kDenseReach && misses >= kMissesAfterClear) break;
    if (auto c = attempt(j)) {
      lo = j;
      hi = 0;
      link = std::move(c);
      misses = 0;
    } else {
      if (hi == 0) hi = j;
      ++misses;
    }
  }
  if (!link) return {i + 1, std::nullopt};
  while (hi > lo + 1) {
    const size_t mid = lo + (hi - lo) / 2;
    if (auto farther = attempt(mid)) {
      lo = mid;
      link = std::move(farther);
    } else {
      hi = mid;
    }
  }
  return {lo, std::move(link)};
}

/// True when the stretch from pose i to pose i + 1 is one whole segment of t.path, which
/// append_cut() would copy as it is: both poses are its ends, with the very distances
/// append_cut() compares (the table sums the segments' lengths as segment_ends() does), and it
/// is longer than append_cut()'s 1e-12 by far. In the rounds after the first, which cut every
/// kept stretch at each pose, most poses pass by so (they are probed only near the last
/// round's changes): append_cut()'s search of the segment ends for each was 6% of the smoother
/// on bench_vehicle_replan's wide-rooms q4.
bool whole_segment(const PoseTable& t, size_t i) {
  if (t.along[i + 1] >= 0.0) return false;
  const uint32_t q = t.seg[i + 1];
  const bool starts = i == 0 ? q == 0 : t.along[i] < 0.0 && t.seg[i] + 1 == q;
  if (!starts) return false;
  const double len = t.path->segments()[q].length;
  return len > 1e-9 && t.s[i + 1] - len == t.s[i];
}

/// True when `link` is a shortest forward path between its ends: forward Dubins connections
/// only (with reversing or CC curves the cost is not the length, or the curve not the shortest),
/// and its length that of the shortest Dubins word (to rounding).
bool is_shortest_forward(const SegmentPath& link, const PoseSmoothDef& d) {
  if (d.allow_reverse || d.cc_sharpness != 0.0) return false;
  const auto shortest = dubins_length(link.start(), link.end(), d.turning_radius);
  return shortest && std::abs(*shortest - link.length()) <= 1e-9;
}

/// Poses and segments a round keeps the storage of for the next (per thread): 65,536 poses are
/// 32,768 cells at the default pose step, far beyond bench_vehicle_replan's longest paths (about
/// 1,500 poses); a longer path's storage (up to about 90 MB at 1e6 poses) is given back.
constexpr size_t kKeptPoses = size_t{1} << 16;

/// Gives back the round's per-thread storage when it grew past kKeptPoses.
struct Release {
  PoseTable& table;
  std::vector<double>& ends;
  ~Release() {
    if (table.s.capacity() > kKeptPoses) table = PoseTable{};
    if (ends.capacity() > kKeptPoses) std::vector<double>().swap(ends);
  }
};

/// One round of shortcuts over `path`; `last`: the stretches the round before changed, null in
/// the first round (every pose is probed, towards the poses past the shortest stretch of
/// `path` it lies on: shortest_stretches()).
Result<Round> shortcut_round(const Walls& walls, const SegmentPath& path, const PoseSmoothDef& d, const Changes* last) {
  // One table per thread, its storage reused from round to round and call to call (a round is
  // never nested in another on one thread), unless a path that long is rare (Release).
  thread_local PoseTable table;
  thread_local std::vector<double> ends;  // (kept like the table)
  const Release release{table, ends};
  if (Status s = fill_pose_table(path, d, table); !s) return s.error();
  const PoseTable& t = table;
  Round r{SegmentPath(path.start()), {}, 0, 0, {}};
  segment_ends(path, ends);
  const size_t n = t.size();
  const Changes windows = last == nullptr ? shortest_stretches(path, d) : Changes{};
  size_t i = 0, change = 0, window = 0;
  thread_local std::vector<size_t> probes;
  r.path.reserve(path.segments().size());
  // The whole segments of `path` the round keeps, appended together (not with the relaxation,
  // which reads the path as it grows).
  PendingRun run;
  PendingRun* const gather = d.relax ? nullptr : &run;
  while (i + 1 < n) {
    const auto no_gain_to = [&] { return last ? no_gain_end(last, t.s[i], change) : window_end(windows, t.s[i], window); };
    const bool probe = near_change(last, t.s[i], change) && !walls.spent();
    if (probe)  // the tries read the path so far
      if (Status s = flush_run(path, run, r.path); !s) return s.error();
    auto [reached, link] = probe ? farthest_shortcut(walls, t, i, r.path, d, no_gain_to(), last != nullptr, probes)
                                 : std::pair<size_t, std::optional<SegmentPath>>{i + 1, std::nullopt};
    if (link) {
      ++r.shortcuts;
      const double from = r.path.length();
      const bool shortest = is_shortest_forward(*link, d);
      if (Status s = r.path.append(*link); !s) return s.error();
      r.changed.push_back(Change{from, r.path.length(), shortest});
      // The legs are for the relaxation alone: without it they were a second copy of the path.
      if (d.relax) r.legs.push_back(Leg{std::move(*link), true});
    } else if (gather != nullptr && whole_segment(t, i)) {  // what append_cut() would do, found for less
      if (Status s = gather_whole(path, t.seg[i + 1], run, r.path); !s) return s.error();
    } else {
      const Pose at = r.path.end();
      if (Status s = append_cut(path, t.s[i], t.s[i + 1], r.path, ends, gather); !s) return s.error();
      if (d.relax)
        if (Status s = add_cut_leg(path, t.s[i], t.s[i + 1], r.legs, at, ends); !s) return s.error();
    }
    i = reached;
  }
  if (Status s = flush_run(path, run, r.path); !s) return s.error();
  if (d.relax && r.shortcuts > 0) {
    r.relaxed = relax_junctions(*walls.grid, r.legs, d);
    if (r.relaxed > 0) {
      auto joined = join_legs(path.start(), r.legs);
      if (!joined) return joined.error();
      r.path = std::move(*joined);
    }
  }
  if (Status s = r.path.snap_end(path.end(), 1e-6); !s) return s.error();
  return r;
}

/// What a round left: its path and what it did.
struct RoundRecord {
  SegmentPath path;
  int shortcuts = 0;
  int relaxed = 0;
};

/// Keeps the rounds up to the first one whose whole path the referee (check_swept_path())
/// refuses. Each link passed the referee alone, but a round also cuts the kept stretches at new
/// poses and may move junctions, which moves the referee's chords: a path grazing a wall by less
/// than a sagitta can then fail it (a pillar field at agent radius 0: an arc 0.00095 cells from
/// a corner, chords grown by 1e-3). The last round's path is checked first, and the rounds in
/// order only when it fails: the result of checking each round as it ends, for one check
/// instead of one per round (the check of a whole path costs as much as probing a few poses).
void keep_refereed_rounds(const Walls& walls, const PoseSmoothDef& def, std::vector<RoundRecord>& rounds,
                          PoseSmoothResult& out) {
  if (rounds.empty()) return;
  size_t counted = rounds.size();
  if (!connection_clear(walls, rounds.back().path, def)) {
    counted = 0;
    while (counted + 1 < rounds.size() && connection_clear(walls, rounds[counted].path, def)) ++counted;
    out.refused_rounds = 1;
    out.rounds = static_cast<int>(counted) + 1;  // the refused round ran; later ones are dropped
  }
  for (size_t k = 0; k < counted; ++k) {
    out.shortcuts += rounds[k].shortcuts;
    out.relaxed += rounds[k].relaxed;
  }
  if (counted > 0) out.path = std::move(rounds[counted - 1].path);
}

/// smooth_pose_path() against `walls`.
Result<PoseSmoothResult> smooth_with(const Walls& walls, const SegmentPath& path, const PoseSmoothDef& def) {
  if (Status s = check_def(def); !s) return s.error();
  PoseSmoothResult out;
  out.path = path;
  Changes changed;
  std::vector<RoundRecord> done;  // the rounds that changed the path, in order
  done.reserve(static_cast<size_t>(def.max_rounds));  // `current` points into it
  const SegmentPath* current = &out.path;
  for (int round = 0; round < def.max_rounds && !path.empty(); ++round) {
    // The relaxation moves junctions outside the recorded stretches: then every pose is probed.
    auto r = shortcut_round(walls, *current, def, round == 0 || def.relax ? nullptr : &changed);
    if (!r) return r.error();
    ++out.rounds;
    if (r->shortcuts == 0) break;
    const double before = pose_path_cost(*current, def);
    done.push_back(RoundRecord{std::move(r->path), r->shortcuts, r->relaxed});
    current = &done.back().path;
    changed = std::move(r->changed);
    if (walls.spent()) break;  // the tries ran out in this round
    if (before - pose_path_cost(*current, def) < def.min_round_gain) break;
  }
  out.tries = walls.tries;
  out.budget_spent = walls.spent();
  keep_refereed_rounds(walls, def, done, out);
  std::vector<int> gears;
  const std::vector<double> runs = gear_runs(out.path.segments(), gears);
  out.gear_changes = runs.empty() ? 0 : static_cast<int>(runs.size()) - 1;
  for (size_t k = 0; runs.size() > 1 && k < runs.size(); ++k) out.short_gear_runs += runs[k] < def.min_gear_length - kPoseSmoothEps;
  out.cost = pose_path_cost(out.path, def);
  return out;
}

}  // namespace

double pose_path_cost(const SegmentPath& path, const PoseSmoothDef& def) {
  return segments_cost(path.segments(), 0, 0, def);
}

Result<PoseSmoothResult> smooth_pose_path(const Grid& grid, const SegmentPath& path, const PoseSmoothDef& def) {
  return smooth_with(Walls{&grid, nullptr, def.max_tries}, path, def);
}

Result<PoseSmoothResult> smooth_pose_path(const Grid& grid, const SegmentPath& path, const PoseSmoothDef& def,
                                          const ClearanceField& field) {
  return smooth_with(Walls{&grid, field.fits(grid) ? &field : nullptr, def.max_tries}, path, def);
}

int64_t pose_smooth_tries_for(int64_t expanded) {
  return std::max<int64_t>(kMinTries, expanded * kTriesPerFiveExpansions / 5);
}

}  // namespace pathlab
