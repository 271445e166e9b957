#include "pathlab/spline_smoother.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pathlab/arc_length.hpp"
#include "pathlab/catmull_rom.hpp"
#include "pathlab/collision.hpp"
#include "pathlab/det_math.hpp"

namespace pathlab {
namespace {

/// Tangent scales tried in turn at a point next to an offending span; the last is straight.
constexpr double kScaleLevels[] = {1.0, 0.5, 0.25, 0.0};
constexpr int kStraightLevel = 3;
/// Span check results.
constexpr uint8_t kSpanShapeBad = 1;
constexpr uint8_t kSpanBlocked = 2;

std::string point_text(Vec2 p) { return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")"; }

/// True when the segment runs along its chord without leaving it: both tangents point along
/// the chord (or vanish) and are short enough (<= 3 chords, Fritsch-Carlson) that the cubic
/// does not overshoot its ends. Such a span is exactly as clear as the chord.
bool runs_along_chord(const HermiteSegment& s) {
  const Vec2 d = s.end - s.start;
  const double ld = glm::length(d);
  for (const Vec2 m : {s.start_tangent, s.end_tangent}) {
    const double lm = glm::length(m);
    if (lm == 0.0) continue;
    if (!(ld > 0.0)) return false;
    if (std::abs(cross(m, d)) > 1e-12 * lm * ld || glm::dot(m, d) < 0.0 || lm > 3.0 * ld) return false;
  }
  return true;
}

/// Signed angle from a to b, radians in [-pi, pi].
double angle_between(Vec2 a, Vec2 b) { return dmath::atan2(cross(a, b), glm::dot(a, b)); }

/// Samples per span for the shape check: enough to see a hook (which turns through 90 degrees
/// or more over several samples) or a cusp (180 degrees between two samples); the curvature
/// peak is then refined between samples. The check runs on every span, so it is kept cheap.
constexpr int kShapeSamples = 32;

/// A span's derivatives in the power basis: P'(t) = c1 + 2 c2 t + 3 c3 t^2, P''(t) = 2 c2 + 6 c3 t.
struct SpanDerivatives {
  Vec2 c1, c2, c3;
  explicit SpanDerivatives(const HermiteSegment& s) {
    const Vec2 d = s.end - s.start;
    c1 = s.start_tangent;
    c2 = 3.0 * d - 2.0 * s.start_tangent - s.end_tangent;
    c3 = -2.0 * d + s.start_tangent + s.end_tangent;
  }
  Vec2 first(double t) const { return c1 + t * (2.0 * c2 + 3.0 * t * c3); }
  Vec2 second(double t) const { return 2.0 * c2 + 6.0 * t * c3; }
  /// |curvature| at t, 0 where the span does not move.
  double curvature(double t) const {
    const Vec2 v = first(t);
    const double sp = glm::length(v);
    return sp > 0.0 ? std::abs(cross(v, second(t))) / (sp * sp * sp) : 0.0;
  }
};

}  // namespace

SplineShape spline_span_shape(const HermiteSegment& s) {
  SplineShape sh;
  const Vec2 d = s.end - s.start;
  const double ld = glm::length(d);
  if (!(ld > 0.0)) return sh;
  const SpanDerivatives der(s);
  // Directions are compared, not speeds: a zero tangent at an end (a declared corner) or
  // rounding-sized speeds have no direction and are skipped.
  const double tiny = 1e-12 * ld;
  Vec2 first(0.0), prev(0.0);
  double best_t = -1.0, best_k = -1.0;
  for (int j = 0; j <= kShapeSamples; ++j) {
    const double t = static_cast<double>(j) / kShapeSamples;
    const Vec2 v = der.first(t);
    const double sp = glm::length(v);
    if (!(sp > tiny)) continue;
    if (glm::length(first) == 0.0) {
      first = v;
    } else {
      const double a = std::abs(angle_between(prev, v));
      sh.turning += a;
      sh.max_step_turn = std::max(sh.max_step_turn, a);
    }
    prev = v;
    const double k = std::abs(cross(v, der.second(t))) / (sp * sp * sp);
    if (k > best_k) best_k = k, best_t = t;
  }
  if (glm::length(first) > 0.0) {
    sh.extra_turning = std::max(0.0, sh.turning - std::abs(angle_between(first, d)) - std::abs(angle_between(d, prev)));
  }
  // The peak lies within a sample step of the best sample; golden-section search there
  // (curvature of a cubic is unimodal that close to its peak). 24 steps narrow the window
  // to 1e-5 of a sample step.
  if (best_t >= 0.0) {
    double lo = std::max(0.0, best_t - 1.0 / kShapeSamples), hi = std::min(1.0, best_t + 1.0 / kShapeSamples);
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double ka = der.curvature(a), kb = der.curvature(b);
    for (int it = 0; it < 24; ++it) {
      if (ka > kb) {
        hi = b, b = a, kb = ka;
        a = hi - g * (hi - lo), ka = der.curvature(a);
      } else {
        lo = a, a = b, ka = kb;
        b = lo + g * (hi - lo), kb = der.curvature(b);
      }
    }
    sh.max_curvature = std::max({best_k, ka, kb});
  }
  return sh;
}

namespace {

class Smoother {
 public:
  Smoother(const Grid& grid, const SplineSmoothDef& def) : grid_(grid), def_(def) {}

  /// Number of chords a curved span is cut into so that it stays within max_deviation of
  /// them: |curve - chord| <= h^2/8 * max|P''| per component, and P'' is linear in t.
  /// `deviation` receives the bound actually reached (larger than max_deviation only when the
  /// piece count hit kMaxSubdivisions, on a span far longer than any grid path has).
  int proof_pieces(const HermiteSegment& s, double& deviation) const {
    const Vec2 a = s.second_derivative_at(0.0), b = s.second_derivative_at(1.0);
    const double bx = std::max(std::abs(a.x), std::abs(b.x));
    const double by = std::max(std::abs(a.y), std::abs(b.y));
    const double m = std::sqrt(bx * bx + by * by);
    const double k = std::clamp(std::ceil(std::sqrt(m / (8.0 * def_.max_deviation))), 1.0,
                                static_cast<double>(kMaxSubdivisions));
    deviation = std::max(def_.max_deviation, m / (8.0 * k * k));
    return static_cast<int>(k);
  }

  /// Proves the continuous span clear for the agent (see the header).
  bool span_clear(const HermiteSegment& s) const {
    const double r = def_.agent_radius;
    if (runs_along_chord(s)) {
      return s.start == s.end ? point_clear(grid_, s.start, r) : segment_clear(grid_, s.start, s.end, r);
    }
    double deviation = 0.0;
    const int k = proof_pieces(s, deviation);
    // Every curve point is within `deviation` of a chord point, so chords clear at
    // r + deviation prove the curve clear at r; twice it leaves margin for rounding.
    const double rr = r + 2.0 * deviation;
    Vec2 prev = s.start;
    for (int j = 1; j <= k; ++j) {
      const Vec2 q = j == k ? s.end : s.point_at(static_cast<double>(j) / k);
      if (!segment_clear(grid_, prev, q, rr)) return false;
      prev = q;
    }
    return true;
  }

  /// Appends curve points after parameter ua up to ub (included), splitting (at a joint first,
  /// else in the middle) wherever the straight chord between outputs would touch a wall.
  void emit(const HermiteCurve& c, double ua, Vec2 pa, double ub, Vec2 pb, int depth, std::vector<Vec2>& out,
            int& extra) const {
    if (depth <= 0 || segment_clear(grid_, pa, pb, def_.agent_radius)) {
      out.push_back(pb);
      return;
    }
    double um = std::floor(ua) + 1.0;
    if (!(um < ub)) um = 0.5 * (ua + ub);
    const Vec2 pm = c.point_at(um);
    ++extra;
    emit(c, ua, pa, um, pm, depth - 1, out, extra);
    emit(c, um, pm, ub, pb, depth - 1, out, extra);
  }

 private:
  const Grid& grid_;
  const SplineSmoothDef& def_;
};

Status check_def(const SplineSmoothDef& def) {
  if (auto ok = check_agent_radius(def.agent_radius); !ok) return ok;
  if (def.sampling.per_segment < 1 || def.sampling.per_segment > kMaxSubdivisions) {
    return fail(StatusCode::invalid_argument, "sampling.per_segment (subdivisions) must be in [1, " +
                                                  std::to_string(kMaxSubdivisions) + "]");
  }
  if (!(def.sampling.per_cell >= 0.0 && def.sampling.per_cell <= 1000.0)) {
    return fail(StatusCode::invalid_argument, "sampling.per_cell must be in [0, 1000] points per cell");
  }
  if (!(def.insert_min_chord == 0.0 || (def.insert_min_chord >= 1.0 && std::isfinite(def.insert_min_chord)))) {
    return fail(StatusCode::invalid_argument, "insert_min_chord must be 0 (off) or a finite length >= 1");
  }
  if (!(def.max_deviation >= 1e-6 && def.max_deviation <= 0.1)) {
    return fail(StatusCode::invalid_argument, "max_deviation must be in [1e-6, 0.1] cells");
  }
  return ok_status();
}

/// The method's tangents at each control point: out of it (start of span k) and into it
/// (end of span k - 1). Non-uniform Catmull-Rom gives different lengths on the two sides.
void base_tangents(SplineMethod method, const std::vector<Vec2>& cp, std::vector<Vec2>& m_out, std::vector<Vec2>& m_in) {
  const HermiteCurve c = spline_curve(method, cp).value();  // cp is checked by the caller
  m_out.assign(cp.size(), Vec2(0.0));
  m_in.assign(cp.size(), Vec2(0.0));
  if (cp.size() < 2) return;
  for (size_t k = 0; k + 1 < cp.size(); ++k) {
    m_out[k] = c.segments[k].start_tangent;
    m_in[k + 1] = c.segments[k].end_tangent;
  }
}

/// Reshaping tangents (see the header): along the bisector of the unit directions of the two
/// chords at each point, as long as the chord on each side, so no span's tangent outgrows its
/// own chord. A point where the path doubles back exactly gets zero (a corner); the ends
/// follow their only chord, like the doubled ends of Catmull-Rom.
void safe_tangents(const std::vector<Vec2>& cp, std::vector<Vec2>& s_out, std::vector<Vec2>& s_in) {
  const size_t n = cp.size();
  s_out.assign(n, Vec2(0.0));
  s_in.assign(n, Vec2(0.0));
  for (size_t k = 0; k < n; ++k) {
    const Vec2 a = k > 0 ? cp[k] - cp[k - 1] : Vec2(0.0);
    const Vec2 b = k + 1 < n ? cp[k + 1] - cp[k] : Vec2(0.0);
    const double la = glm::length(a), lb = glm::length(b);
    Vec2 dir = (la > 0.0 ? a / la : Vec2(0.0)) + (lb > 0.0 ? b / lb : Vec2(0.0));
    const double ld = glm::length(dir);
    dir = ld > 1e-9 ? dir / ld : Vec2(0.0);
    s_in[k] = dir * la;
    s_out[k] = dir * lb;
  }
}

}  // namespace

Result<SplineMethod> parse_spline_method(const std::string& name) {
  if (name == "catmull-rom") return SplineMethod::catmull_rom;
  if (name == "centripetal") return SplineMethod::centripetal;
  if (name == "chordal") return SplineMethod::chordal;
  if (name == "hermite") return SplineMethod::hermite;
  return fail(StatusCode::invalid_argument, "unknown spline method '" + name + "' (catmull-rom, centripetal, chordal, hermite)");
}

const char* to_string(SplineMethod method) noexcept {
  switch (method) {
    case SplineMethod::catmull_rom: return "catmull-rom";
    case SplineMethod::centripetal: return "centripetal";
    case SplineMethod::chordal: return "chordal";
    case SplineMethod::hermite: return "hermite";
  }
  return "?";
}

const char* to_string(SplineRepairKind kind) noexcept {
  switch (kind) {
    case SplineRepairKind::inserted_points: return "inserted_points";
    case SplineRepairKind::reshaped: return "reshaped";
    case SplineRepairKind::tightened: return "tightened";
    case SplineRepairKind::straightened: return "straightened";
  }
  return "?";
}

Result<HermiteCurve> spline_curve(SplineMethod method, std::span<const Vec2> points) {
  switch (method) {
    case SplineMethod::catmull_rom: return catmull_rom_curve(points, catmull_rom_def(CatmullRomKind::uniform));
    case SplineMethod::centripetal: return catmull_rom_curve(points, catmull_rom_def(CatmullRomKind::centripetal));
    case SplineMethod::chordal: return catmull_rom_curve(points, catmull_rom_def(CatmullRomKind::chordal));
    case SplineMethod::hermite: return hermite_chain(points);
  }
  return fail(StatusCode::invalid_argument, "method: unknown spline method");
}

namespace {

Status check_waypoints(std::span<const Vec2> waypoints) {
  if (waypoints.empty()) return fail(StatusCode::invalid_argument, "waypoints: the path is empty");
  for (size_t i = 0; i < waypoints.size(); ++i) {
    if (!is_finite(waypoints[i]) || std::abs(waypoints[i].x) > 1e15 || std::abs(waypoints[i].y) > 1e15) {
      return fail(StatusCode::invalid_argument, "waypoints[" + std::to_string(i) + "] is not a finite point");
    }
  }
  return ok_status();
}

/// Control points: the waypoints without consecutive repeats; orig[k] is the input index of
/// the waypoint that starts control span k, so repairs can be reported per input span.
struct ControlPoints {
  std::vector<Vec2> cp;
  std::vector<int> orig;
};

/// Drops consecutive repeats. Of a run of repeats the last one counts: the input span that
/// moves starts there.
ControlPoints control_points_of(std::span<const Vec2> waypoints, int& duplicates_removed) {
  ControlPoints c;
  for (size_t i = 0; i < waypoints.size(); ++i) {
    if (!c.cp.empty() && glm::length(waypoints[i] - c.cp.back()) <= 1e-12) {
      ++duplicates_removed;
      c.orig.back() = static_cast<int>(i);
      continue;
    }
    c.cp.push_back(waypoints[i]);
    c.orig.push_back(static_cast<int>(i));
  }
  return c;
}

/// The result for a path that does not move: one point, if it is clear.
Result<SplineSmoothResult> single_point(const Grid& grid, Vec2 p, double r, SplineSmoothResult& res) {
  if (!point_clear(grid, p, r)) {
    return fail(StatusCode::blocked, "waypoints[0] " + point_text(p) + " is not clear for agent radius " +
                                         std::to_string(r));
  }
  res.points = {p};
  res.control_points = {p};
  res.curve.segments.push_back(HermiteSegment{p, p, Vec2(0.0), Vec2(0.0)});
  return std::move(res);
}

/// The input polyline must be clear: it is what every repair falls back on.
Status check_fallback_clear(const Grid& grid, const ControlPoints& c, double r) {
  const int bad = first_blocked_segment(grid, c.cp, r);
  if (bad < 0) return ok_status();
  const auto b = static_cast<size_t>(bad);
  return fail(StatusCode::blocked, "waypoints: the segment from waypoints[" + std::to_string(c.orig[b]) + "] " +
                                       point_text(c.cp[b]) + " to " + point_text(c.cp[b + 1]) +
                                       " is not clear for agent radius " + std::to_string(r) +
                                       "; the smoother needs a clear path to fall back on");
}

/// The control points and the tangent chosen at each while the repairs run: the method's
/// own or the reshaping ones (`safe`), scaled by kScaleLevels[level].
class SplineRepairer {
 public:
  SplineRepairer(const Grid& grid, const SplineSmoothDef& def, ControlPoints control, size_t n_waypoints)
      : def_(def), sm_(grid, def), c_(std::move(control)),
        inserted_in_(n_waypoints > 0 ? n_waypoints - 1 : 0, 0) {
    reset_tangents();
  }

  const std::vector<Vec2>& cp() const { return c_.cp; }

  HermiteSegment segment(size_t k) const {
    const Vec2 a = safe_[k] ? s_out_[k] : m_out_[k], b = safe_[k + 1] ? s_in_[k + 1] : m_in_[k + 1];
    return HermiteSegment{c_.cp[k], c_.cp[k + 1], a * kScaleLevels[level_[k]], b * kScaleLevels[level_[k + 1]]};
  }

  /// Runs repair 1 (inserted points), then reshaping and repairs 2 and 3 (see the header).
  void repair(SplineSmoothResult& res) {
    bool any_bad = check_all();
    if (any_bad && def_.insert_min_chord > 0.0 && insert_points(res)) {
      reset_tangents();
      any_bad = check_all();
    }
    if (reshape_and_tighten(any_bad)) std::fill(level_.begin(), level_.end(), kStraightLevel);
  }

  /// Replaces the curve and the samples by the control polyline, every span straightened.
  void fall_back_to_chords(SplineSmoothResult& res) {
    std::fill(level_.begin(), level_.end(), kStraightLevel);
    res.curve.segments.clear();
    for (size_t k = 0; k + 1 < c_.cp.size(); ++k) res.curve.segments.push_back(segment(k));
    res.points = c_.cp;
    res.length = polyline_length(c_.cp);
  }

  void report(SplineSmoothResult& res) const;

 private:
  /// The method's and the reshaping tangents for the current control points, unscaled.
  void reset_tangents() {
    level_.assign(c_.cp.size(), 0);
    safe_.assign(c_.cp.size(), 0);
    base_tangents(def_.method, c_.cp, m_out_, m_in_);
    safe_tangents(c_.cp, s_out_, s_in_);
  }

  uint8_t check(size_t k) const;
  bool check_all();
  bool insert_points(SplineSmoothResult& res);
  bool reshape_and_tighten(bool any_bad);

  const SplineSmoothDef& def_;
  const Smoother sm_;
  ControlPoints c_;
  std::vector<int> inserted_in_;  // control points inserted per input span
  std::vector<Vec2> m_out_, m_in_, s_out_, s_in_;
  std::vector<int> level_;
  std::vector<uint8_t> safe_;  // 1: the point uses the reshaping tangents
  std::vector<uint8_t> bad_;   // per span: 0, kSpanShapeBad or kSpanBlocked
};

/// What is wrong with span k: kSpanShapeBad (clear, but it hooks, loops or spikes) or kSpanBlocked.
uint8_t SplineRepairer::check(size_t k) const {
  const HermiteSegment seg = segment(k);
  if (!sm_.span_clear(seg)) return kSpanBlocked;
  if (runs_along_chord(seg)) return 0;  // straight and monotone: nothing to turn or spike
  const SplineShape sh = spline_span_shape(seg);
  if (sh.max_step_turn > kSplineMaxStepTurn || sh.extra_turning > kSplineMaxExtraTurn) return kSpanShapeBad;
  // A zero end tangent is a declared corner: the curvature just beside it is unbounded
  // (like y = x^1.5) but the curve turns very little there, so only turning is checked.
  if (seg.start_tangent == Vec2(0.0) || seg.end_tangent == Vec2(0.0)) return 0;
  const std::vector<Vec2>& cp = c_.cp;
  double c_min = glm::length(cp[k + 1] - cp[k]);
  if (k > 0) c_min = std::min(c_min, glm::length(cp[k] - cp[k - 1]));
  if (k + 2 < cp.size()) c_min = std::min(c_min, glm::length(cp[k + 2] - cp[k + 1]));
  return sh.max_curvature * c_min > kSplineCurvatureBound ? kSpanShapeBad : 0;
}

bool SplineRepairer::check_all() {
  bad_.assign(c_.cp.size() - 1, 0);
  bool any = false;
  for (size_t k = 0; k + 1 < c_.cp.size(); ++k) {
    bad_[k] = check(k);
    any = any || bad_[k];
  }
  return any;
}

/// Repair 1: control points on long blocked chords, near both ends, so that the bend happens
/// within a cell of the corner instead of across the whole chord. The new points lie on the
/// input's chord, so the fallback chords stay clear. Returns whether any point was inserted.
bool SplineRepairer::insert_points(SplineSmoothResult& res) {
  const std::vector<Vec2>& cp = c_.cp;
  ControlPoints next;
  bool changed = false;
  for (size_t k = 0; k + 1 < cp.size(); ++k) {
    next.cp.push_back(cp[k]);
    next.orig.push_back(c_.orig[k]);
    const Vec2 d = cp[k + 1] - cp[k];
    const double len = glm::length(d);
    // Only for collisions: a hook is a tangent problem, which reshaping solves in place.
    if (bad_[k] != kSpanBlocked || len < def_.insert_min_chord) continue;
    const double e = std::min(1.0, len / 3.0);
    next.cp.push_back(cp[k] + d * (e / len));
    next.cp.push_back(cp[k + 1] - d * (e / len));
    next.orig.push_back(c_.orig[k]);
    next.orig.push_back(c_.orig[k]);
    inserted_in_[static_cast<size_t>(c_.orig[k])] += 2;
    res.points_inserted += 2;
    changed = true;
  }
  if (!changed) return false;
  next.cp.push_back(cp.back());
  next.orig.push_back(c_.orig.back());
  c_ = std::move(next);
  return true;
}

/// Reshaping and repairs 2 and 3: a span that is clear but badly shaped first gets the
/// reshaping tangents at its ends; otherwise (blocked, or already reshaped) the tangents at
/// both ends are shortened one level per round. Only the spans those points shape are
/// rechecked. Every round changes a point for good, and a span with both ends at the last
/// level is its clear input chord (straight, so well shaped), so this ends. Returns whether a
/// bad span is left (only if a chord checked clear before now fails: see the safety net).
bool SplineRepairer::reshape_and_tighten(bool any_bad) {
  while (any_bad) {
    std::vector<size_t> raised;
    std::vector<uint8_t> raised_now(c_.cp.size(), 0);  // a point shared by two bad spans moves one step
    for (size_t k = 0; k < bad_.size(); ++k) {
      if (!bad_[k]) continue;
      const bool reshape = bad_[k] == kSpanShapeBad && !(safe_[k] && safe_[k + 1]);
      for (size_t p : {k, k + 1}) {
        if (raised_now[p]) continue;
        if (reshape) {
          if (safe_[p]) continue;
          safe_[p] = 1;
        } else if (level_[p] < kStraightLevel) {
          ++level_[p];
        } else {
          continue;
        }
        raised_now[p] = 1;
        raised.push_back(p);
      }
    }
    if (raised.empty()) break;
    std::fill(bad_.begin(), bad_.end(), uint8_t{0});
    any_bad = false;
    for (size_t p : raised) {
      for (size_t k : {p - 1, p}) {
        if (k >= bad_.size() || bad_[k]) continue;  // p - 1 wraps for p == 0
        bad_[k] = check(k);
        any_bad = any_bad || bad_[k];
      }
    }
  }
  return any_bad;
}

/// Report per input span: its strongest repair.
void SplineRepairer::report(SplineSmoothResult& res) const {
  const std::vector<Vec2>& cp = c_.cp;
  std::vector<SplineRepair> per(inserted_in_.size());
  std::vector<uint8_t> touched(per.size(), 0), reshaped(per.size(), 0);
  // Reshaped only where the tangents really changed (collinear evenly spaced points keep theirs).
  auto differs = [](Vec2 a, Vec2 b) { return glm::length(a - b) > 1e-12 * (1.0 + glm::length(b)); };
  for (size_t k = 0; k + 1 < cp.size(); ++k) {
    const size_t o = static_cast<size_t>(c_.orig[k]);
    if (o >= per.size()) continue;
    SplineRepair& rep = per[o];
    rep.span = static_cast<int>(o);
    const double s = std::min(kScaleLevels[level_[k]], kScaleLevels[level_[k + 1]]);
    rep.tangent_scale = touched[o] ? std::min(rep.tangent_scale, s) : s;
    touched[o] = 1;
    if ((safe_[k] && differs(s_out_[k], m_out_[k])) || (safe_[k + 1] && differs(s_in_[k + 1], m_in_[k + 1]))) reshaped[o] = 1;
    if (level_[k] == kStraightLevel && level_[k + 1] == kStraightLevel) rep.kind = SplineRepairKind::straightened;
  }
  for (size_t o = 0; o < per.size(); ++o) {
    if (!touched[o]) continue;
    SplineRepair rep = per[o];
    rep.points_inserted = inserted_in_[o];
    if (rep.kind == SplineRepairKind::straightened) {
      res.repairs.push_back(rep);
    } else if (rep.tangent_scale < 1.0) {
      rep.kind = SplineRepairKind::tightened;
      res.repairs.push_back(rep);
    } else if (reshaped[o]) {
      rep.kind = SplineRepairKind::reshaped;
      res.repairs.push_back(rep);
    } else if (rep.points_inserted > 0) {
      rep.kind = SplineRepairKind::inserted_points;
      res.repairs.push_back(rep);
    }
  }
}

/// Depth of the chord splitting in Smoother::emit.
constexpr int kEmitDepth = 24;

/// Samples every 1/per_cell cells of arc length (see SplineSampling).
Status sample_per_cell(const Smoother& sm, double per_cell, SplineSmoothResult& res) {
  const HermiteCurve& curve = res.curve;
  auto table = ArcLengthTable::build(curve);
  if (!table) return table.error();
  const double spacing = 1.0 / per_cell;
  if (!(table->length() / spacing + 2.0 <= static_cast<double>(kMaxSplineSamples))) {
    return fail(StatusCode::too_large, "sampling.per_cell: a curve of length " + std::to_string(table->length()) +
                                           " would need too many points");
  }
  res.length = table->length();
  std::vector<double> params{0.0};
  for (long long i = 1;; ++i) {
    const double s = static_cast<double>(i) * spacing;
    if (s >= res.length - 1e-9 * spacing) break;
    params.push_back(table->parameter_at(s));
  }
  params.push_back(curve.parameter_end());
  res.points.push_back(curve.segments.front().start);
  for (size_t i = 1; i < params.size(); ++i) {
    const Vec2 pb = i + 1 == params.size() ? curve.segments.back().end : curve.point_at(params[i]);
    sm.emit(curve, params[i - 1], res.points.back(), params[i], pb, kEmitDepth, res.points, res.extra_samples);
  }
  return ok_status();
}

/// Samples n equal parameter steps per span (see SplineSampling).
Status sample_per_segment(const Smoother& sm, int n, SplineSmoothResult& res) {
  const HermiteCurve& curve = res.curve;
  const long long count = static_cast<long long>(curve.segments.size()) * n + 1;
  if (count > kMaxSplineSamples) {
    return fail(StatusCode::too_large, "sampling.per_segment: " + std::to_string(count) + " points exceed the limit");
  }
  res.points.reserve(static_cast<size_t>(count));
  res.points.push_back(curve.segments.front().start);
  for (size_t k = 0; k < curve.segments.size(); ++k) {
    for (int j = 1; j <= n; ++j) {
      const double ua = static_cast<double>(k) + static_cast<double>(j - 1) / n;
      const double ub = j == n ? static_cast<double>(k + 1) : static_cast<double>(k) + static_cast<double>(j) / n;
      const Vec2 pb = j == n ? curve.segments[k].end : curve.segments[k].point_at(static_cast<double>(j) / n);
      sm.emit(curve, ua, res.points.back(), ub, pb, kEmitDepth, res.points, res.extra_samples);
    }
  }
  res.length = curve.length();
  return ok_status();
}

/// Sampling, with every output chord checked: chords of a clear curve can still clip a
/// corner the curve goes around.
Status sample_curve(const Smoother& sm, const SplineSampling& sampling, SplineSmoothResult& res) {
  if (sampling.per_cell > 0.0) return sample_per_cell(sm, sampling.per_cell, res);
  return sample_per_segment(sm, sampling.per_segment, res);
}

}  // namespace

Result<SplineSmoothResult> smooth_path(const Grid& grid, std::span<const Vec2> waypoints, const SplineSmoothDef& def) {
  if (auto st = check_def(def); !st) return st.error();
  if (auto st = check_waypoints(waypoints); !st) return st.error();
  SplineSmoothResult res;
  ControlPoints control = control_points_of(waypoints, res.duplicates_removed);
  if (control.cp.size() == 1) return single_point(grid, control.cp[0], def.agent_radius, res);
  if (auto st = check_fallback_clear(grid, control, def.agent_radius); !st) return st.error();

  // The steps, as named above: shape and repair the curve, sample it, check the samples,
  // report the repairs per input span.
  SplineRepairer rep(grid, def, std::move(control), waypoints.size());
  rep.repair(res);
  res.curve.segments.reserve(rep.cp().size() - 1);
  for (size_t k = 0; k + 1 < rep.cp().size(); ++k) res.curve.segments.push_back(rep.segment(k));
  const Smoother sm(grid, def);
  if (auto st = sample_curve(sm, def.sampling, res); !st) return st.error();
  // Safety net, never expected to fire: if anything above let a wall through, the input's
  // own polyline (checked clear at the top) is returned, every span reported straightened.
  if (first_blocked_segment(grid, res.points, def.agent_radius) >= 0) rep.fall_back_to_chords(res);
  res.control_points = rep.cp();
  rep.report(res);
  return res;
}

}  // namespace pathlab
