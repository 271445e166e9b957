// What a viewer draws of a recorded run, per step, quantised and delta-encoded
// (recording_trail.hpp).

#include "pathlab/plan/recording_trail.hpp"

#include <algorithm>
#include <cmath>

namespace pathlab::plan {
namespace {

constexpr uint8_t kDelta = 0, kFull = 1;

void put_varint(std::vector<uint8_t>& b, uint64_t v) {
  while (v >= 0x80) {
    b.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  b.push_back(static_cast<uint8_t>(v));
}

uint64_t get_varint(const uint8_t*& p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t c = *p++;
    v |= static_cast<uint64_t>(c & 0x7f) << shift;
    if (!(c & 0x80)) return v;
  }
}

void put_signed(std::vector<uint8_t>& b, int64_t v) {  // zig-zag: small magnitudes, few bytes
  put_varint(b, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
}

int64_t get_signed(const uint8_t*& p) {
  const uint64_t u = get_varint(p);
  return static_cast<int64_t>(u >> 1) ^ -static_cast<int64_t>(u & 1);
}

/// Rounds half away from zero with one truncating conversion (no library call: this runs for
/// every unit of every recorded step). |v| stays far below 2^62 for any map pathlab loads.
int64_t round_fast(double v) { return static_cast<int64_t>(v + (v >= 0.0 ? 0.5 : -0.5)); }

int32_t quantise_pos(double v) { return static_cast<int32_t>(round_fast(v * (1.0 / Trail::kPosQuantum))); }

/// The heading as a 16-bit fraction of a turn (wraps: -pi and pi are one value).
uint16_t quantise_heading(double h) {
  return static_cast<uint16_t>(static_cast<uint64_t>(round_fast(h * (1.0 / Trail::kHeadingQuantum))) & 0xffffu);
}

double heading_of(uint16_t h) { return static_cast<double>(static_cast<int16_t>(h)) * Trail::kHeadingQuantum; }

uint8_t unit_flags(const CrowdAgentState& s) {
  return static_cast<uint8_t>((s.arrived ? 1 : 0) | (s.stuck ? 2 : 0) | (s.waiting ? 4 : 0) | (s.yielding ? 8 : 0));
}

uint8_t truck_flags(const MovingObstacleState& s) {
  return static_cast<uint8_t>((s.waiting ? 1 : 0) | (s.backing ? 2 : 0) | (s.finished ? 4 : 0));
}

}  // namespace

void Trail::quantise(const Crowd& crowd, Quantised& q) const {
  q.units.resize(static_cast<size_t>(crowd.agent_count()));
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const CrowdAgentState& s = crowd.state(i);
    q.units[static_cast<size_t>(i)] =
        Q{quantise_pos(s.pose.pos.x), quantise_pos(s.pose.pos.y), quantise_heading(s.pose.heading), unit_flags(s)};
  }
  q.trucks.resize(static_cast<size_t>(crowd.moving_obstacle_count()));
  for (int k = 0; k < crowd.moving_obstacle_count(); ++k) {
    const MovingObstacleState& s = crowd.moving_obstacle(k);
    q.trucks[static_cast<size_t>(k)] =
        Q{quantise_pos(s.pose.pos.x), quantise_pos(s.pose.pos.y), quantise_heading(s.pose.heading), truck_flags(s)};
  }
  q.doors.resize(static_cast<size_t>(crowd.door_count()));
  for (int d = 0; d < crowd.door_count(); ++d) q.doors[static_cast<size_t>(d)] = static_cast<uint8_t>(crowd.door_state(d));
}

Trail::Looks Trail::looks_of(const Crowd& crowd, const std::vector<std::string>& presets) {
  Looks l;
  l.from = size();
  for (int i = 0; i < crowd.agent_count(); ++i) {
    const std::string& name = static_cast<size_t>(i) < presets.size() ? presets[static_cast<size_t>(i)] : std::string();
    auto it = std::find(preset_names_.begin(), preset_names_.end(), name);
    if (it == preset_names_.end()) it = preset_names_.insert(preset_names_.end(), name);
    l.preset.push_back(static_cast<int>(it - preset_names_.begin()));
    l.radius.push_back(crowd.agent_def(i).unit.radius);
  }
  return l;
}

void Trail::record(const Crowd& crowd, const std::vector<std::string>& presets, bool units_may_differ) {
  Quantised& q = next_;
  quantise(crowd, q);
  if (looks_.empty() || units_may_differ || q.units.size() != looks_.back().preset.size()) {
    Looks l = looks_of(crowd, presets);
    if (looks_.empty() || l.preset != looks_.back().preset || l.radius != looks_.back().radius)
      looks_.push_back(std::move(l));
  }
  const bool same_shape = !offsets_.empty() && q.units.size() == last_.units.size() &&
                          q.trucks.size() == last_.trucks.size() && q.doors.size() == last_.doors.size();
  const bool full = !same_shape || static_cast<int64_t>(offsets_.size()) % kFullEvery == 0;
  if (full) {
    if (!blocks_.empty()) blocks_.back().bytes.shrink_to_fit();  // closed: no spare capacity kept
    blocks_.push_back(Block{size(), {}});
  }
  offsets_.push_back(static_cast<uint32_t>(blocks_.back().bytes.size()));
  if (full) write_full(q);
  else write_delta(q);
  std::swap(last_, next_);
}

void Trail::write_full(const Quantised& q) {
  std::vector<uint8_t>& out = blocks_.back().bytes;
  out.push_back(kFull);
  put_varint(out, q.units.size());
  put_varint(out, q.trucks.size());
  put_varint(out, q.doors.size());
  for (const auto* list : {&q.units, &q.trucks})
    for (const Q& v : *list) {
      put_signed(out, v.x);
      put_signed(out, v.y);
      put_varint(out, v.h);
      out.push_back(v.flags);
    }
  out.insert(out.end(), q.doors.begin(), q.doors.end());
}

void Trail::write_delta(const Quantised& q) {
  std::vector<uint8_t>& out = blocks_.back().bytes;
  out.push_back(kDelta);
  for (int list = 0; list < 2; ++list) {
    const std::vector<Q>& now = list == 0 ? q.units : q.trucks;
    const std::vector<Q>& was = list == 0 ? last_.units : last_.trucks;
    scratch_.clear();
    for (size_t i = 0; i < now.size(); ++i)
      if (!(now[i] == was[i])) scratch_.push_back(static_cast<uint32_t>(i));
    put_varint(out, scratch_.size());
    uint32_t prev = 0;
    for (uint32_t i : scratch_) {
      // The gap from the last changed one, and whether the heading and the flags changed (most
      // steps of a moving unit change its position only).
      const bool turned = now[i].h != was[i].h, flagged = now[i].flags != was[i].flags;
      put_varint(out, (static_cast<uint64_t>(i - prev) << 2) | (turned ? 2u : 0u) | (flagged ? 1u : 0u));
      prev = i;
      put_signed(out, static_cast<int64_t>(now[i].x) - was[i].x);
      put_signed(out, static_cast<int64_t>(now[i].y) - was[i].y);
      if (turned) put_signed(out, static_cast<int16_t>(static_cast<uint16_t>(now[i].h - was[i].h)));  // wraps round
      if (flagged) out.push_back(now[i].flags);
    }
  }
  scratch_.clear();
  for (size_t d = 0; d < q.doors.size(); ++d)
    if (q.doors[d] != last_.doors[d]) scratch_.push_back(static_cast<uint32_t>(d));
  put_varint(out, scratch_.size());
  for (uint32_t d : scratch_) {
    put_varint(out, d);
    out.push_back(q.doors[d]);
  }
}

void Trail::decode(int64_t step, Quantised& q) const {
  const Block& b = block_of(step);
  const int64_t full = b.first;
  const uint8_t* p = b.bytes.data() + offsets_[static_cast<size_t>(full)] + 1;
  q.units.resize(static_cast<size_t>(get_varint(p)));
  q.trucks.resize(static_cast<size_t>(get_varint(p)));
  q.doors.resize(static_cast<size_t>(get_varint(p)));
  for (auto* list : {&q.units, &q.trucks})
    for (Q& v : *list) {
      v.x = static_cast<int32_t>(get_signed(p));
      v.y = static_cast<int32_t>(get_signed(p));
      v.h = static_cast<uint16_t>(get_varint(p));
      v.flags = *p++;
    }
  std::copy(p, p + q.doors.size(), q.doors.begin());
  for (int64_t s = full + 1; s <= step; ++s) {
    p = b.bytes.data() + offsets_[static_cast<size_t>(s)] + 1;
    for (auto* list : {&q.units, &q.trucks}) {
      const uint64_t n = get_varint(p);
      size_t i = 0;
      for (uint64_t k = 0; k < n; ++k) {
        const uint64_t head = get_varint(p);
        i += static_cast<size_t>(head >> 2);
        Q& v = (*list)[i];
        v.x = static_cast<int32_t>(v.x + get_signed(p));
        v.y = static_cast<int32_t>(v.y + get_signed(p));
        if (head & 2) v.h = static_cast<uint16_t>(v.h + static_cast<uint16_t>(get_signed(p)));
        if (head & 1) v.flags = *p++;
      }
    }
    const uint64_t doors = get_varint(p);
    for (uint64_t k = 0; k < doors; ++k) {
      const size_t d = static_cast<size_t>(get_varint(p));
      q.doors[d] = *p++;
    }
  }
}

const Trail::Block& Trail::block_of(int64_t step) const {
  return *std::prev(std::upper_bound(blocks_.begin(), blocks_.end(), step,
                                     [](int64_t s, const Block& b) { return s < b.first; }));
}

TrailFrame Trail::frame(int64_t step) const {
  Quantised q;
  decode(step, q);
  const Looks& l = *std::prev(std::upper_bound(looks_.begin(), looks_.end(), step,
                                               [](int64_t s, const Looks& x) { return s < x.from; }));
  TrailFrame f;
  f.step = step;
  f.units.reserve(q.units.size());
  for (size_t i = 0; i < q.units.size(); ++i) {
    const Q& v = q.units[i];
    TrailUnit u;
    u.pos = Vec2(v.x * kPosQuantum, v.y * kPosQuantum);
    u.heading = heading_of(v.h);
    u.arrived = (v.flags & 1) != 0, u.stuck = (v.flags & 2) != 0;
    u.waiting = (v.flags & 4) != 0, u.yielding = (v.flags & 8) != 0;
    u.radius = i < l.radius.size() ? l.radius[i] : 0.0;
    u.preset = i < l.preset.size() ? l.preset[i] : 0;
    f.units.push_back(u);
  }
  for (const Q& v : q.trucks)
    f.trucks.push_back(TrailTruck{Pose{Vec2(v.x * kPosQuantum, v.y * kPosQuantum), heading_of(v.h)},
                                  (v.flags & 1) != 0, (v.flags & 2) != 0, (v.flags & 4) != 0});
  for (uint8_t d : q.doors) f.doors.push_back(static_cast<DoorState>(d));
  return f;
}

void Trail::truncate(int64_t step) {
  if (step + 1 >= size()) return;
  // Step + 1's record ends step's block unless it starts a block of its own (then dropped whole).
  const bool next_in_block = block_of(step + 1).first <= step;
  std::erase_if(blocks_, [&](const Block& b) { return b.first > step; });
  if (next_in_block) blocks_.back().bytes.resize(offsets_[static_cast<size_t>(step + 1)]);
  offsets_.resize(static_cast<size_t>(step + 1));
  std::erase_if(looks_, [&](const Looks& l) { return l.from > step; });
  decode(step, last_);  // the next delta is against the step kept last
}

size_t Trail::bytes() const noexcept {
  size_t b = offsets_.capacity() * sizeof(uint32_t) + blocks_.capacity() * sizeof(Block);
  for (const Block& k : blocks_) b += k.bytes.capacity();
  for (const Looks& l : looks_) b += sizeof(Looks) + l.preset.capacity() * sizeof(int) + l.radius.capacity() * sizeof(double);
  return b + (last_.units.capacity() + last_.trucks.capacity()) * sizeof(Q) + last_.doors.capacity();
}

}  // namespace pathlab::plan
