// Drawing the units: discs with a heading line, routes and look-ahead points (SDL batches).

#include "units_draw.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace pathlab::sandbox {

void draw_units(const UnitSwarm& units, SdlBatch& batch, const std::function<ImVec2(Vec2)>& to_screen, float scale,
                bool paths, bool lookahead) {
  const Simulation& sim = units.simulation();
  static const ImU32 colours[] = {IM_COL32(40, 120, 230, 255), IM_COL32(230, 140, 20, 255), IM_COL32(90, 110, 60, 255),
                                  IM_COL32(130, 80, 40, 255)};
  auto colour_of = [&](const std::string& preset) {
    const auto& names = unit_preset_names();
    const auto it = std::find(names.begin(), names.end(), preset);
    return colours[it == names.end() ? 0 : static_cast<size_t>(it - names.begin()) % 4];
  };
  if (paths) {
    std::vector<ImVec2> pts;
    for (int i = 0; i < units.count(); ++i) {
      const auto samples = sim.path(i).samples();
      pts.clear();
      // Every few samples is enough for a thin guide line, and keeps 50 routes cheap to draw.
      const size_t stride = std::max<size_t>(1, samples.size() / 200);
      for (size_t k = 0; k < samples.size(); k += stride) pts.push_back(to_screen(samples[k].pos));
      if (!samples.empty()) pts.push_back(to_screen(samples.back().pos));
      const ImU32 c = (colour_of(units.preset_of(i)) & 0x00FFFFFFu) | 0x70000000u;
      batch.polyline(pts.data(), static_cast<int>(pts.size()), c);
    }
  }
  for (int i = 0; i < units.count(); ++i) {
    const UnitState& st = sim.state(i);
    const float r = std::max(3.0f, static_cast<float>(sim.unit_def(i).radius) * scale);
    const ImVec2 c = to_screen(st.pose.pos);
    batch.disc(c, r, colour_of(units.preset_of(i)),
               st.blocked ? IM_COL32(255, 0, 0, 255) : IM_COL32(255, 255, 255, 230));
    const Vec2 nose = st.pose.pos + Vec2(std::cos(st.pose.heading), std::sin(st.pose.heading)) *
                                        (static_cast<double>(r) * 1.6 / static_cast<double>(scale));
    const ImVec2 tip = to_screen(nose);
    batch.thick_polyline(std::array<ImVec2, 2>{c, tip}.data(), 2, IM_COL32(255, 255, 255, 255), 2);
    if (lookahead && !st.arrived) {
      // The follower's own look-ahead point, not a reconstruction: it is where the unit steers.
      const ImVec2 la = to_screen(st.lookahead);
      batch.line(c, la, IM_COL32(255, 140, 0, 200));
      batch.disc(la, 2.0f, IM_COL32(255, 140, 0, 255), IM_COL32(120, 60, 0, 255));
    }
  }
}

}  // namespace pathlab::sandbox
