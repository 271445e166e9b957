// The flow field overlay: the ramp is a texture of one texel per cell, stretched over the map
// in one blit (65,536 cells of a 256 x 256 map would be as many quads); the arrows follow each
// sampled cell's way downhill (FlowField::next_cell: the field's own eight directions, the steps
// the distances were computed along).

#include "canvas/flow_field_draw.hpp"

#include <algorithm>
#include <cmath>
#include <array>

#include "pathlab/crowd_flow_field.hpp"

namespace pathlab::sandbox {
namespace {

/// The ramp from the goal (t = 0) to the farthest reachable cell (t = 1): yellow, orange-red,
/// purple; translucent so the map shows through. ABGR8888 bytes in memory order R, G, B, A.
Uint32 ramp(double t) {
  struct Stop {
    double r, g, b;
  };
  static constexpr Stop kStops[] = {{255, 235, 80}, {235, 95, 55}, {95, 40, 150}};
  t = std::clamp(t, 0.0, 1.0) * 2.0;
  const size_t i = std::min<size_t>(1, static_cast<size_t>(t));
  const double f = t - static_cast<double>(i);
  auto mix = [&](double a, double b) { return static_cast<Uint32>(std::lround(a + (b - a) * f)); };
  const Uint32 r = mix(kStops[i].r, kStops[i + 1].r), g = mix(kStops[i].g, kStops[i + 1].g),
               b = mix(kStops[i].b, kStops[i + 1].b);
  constexpr Uint32 kAlpha = 125;
  return r | (g << 8) | (b << 16) | (kAlpha << 24);
}

constexpr double kSqrt2 = 1.4142135623730951;

}  // namespace

FlowFieldOverlay::~FlowFieldOverlay() {
  if (texture_) SDL_DestroyTexture(texture_);
}

int FlowFieldOverlay::arrow_stride(float scale, float ui_scale) {
  return std::max(1, static_cast<int>(std::ceil(28.0f * ui_scale / std::max(scale, 1e-3f))));
}

void FlowFieldOverlay::update(const Crowd& crowd, int unit, SDL_Renderer* renderer) {
  const Cell goal = cell_of(crowd.agent_def(unit).goal);
  const double radius = flow_field_class_radius(crowd.agent_def(unit).unit.radius);
  const std::vector<float>& costs = crowd.grid().costs();
  const int64_t version = goal_flow_field_version(crowd);  // the crowd's own field rebuilt or repaired
  const bool same = goal == goal_ && radius == radius_ && version == version_ && costs == costs_ && texture_renderer_ == renderer;
  if (same && (field_ || !error_.empty())) return;
  goal_ = goal;
  radius_ = radius;
  version_ = version;
  costs_ = costs;
  ++builds_;
  auto f = goal_flow_field(crowd, unit);
  field_.reset();
  error_.clear();
  if (!f) {
    error_ = f.error().message;
  } else {
    field_ = std::move(*f);
  }
  make_texture(renderer);
}

void FlowFieldOverlay::make_texture(SDL_Renderer* renderer) {
  if (texture_) SDL_DestroyTexture(texture_);
  texture_ = nullptr;
  texture_renderer_ = renderer;
  if (!field_ || field_->width() <= 0 || field_->height() <= 0) return;
  const FlowField& f = *field_;
  double far = 0.0;
  for (int y = 0; y < f.height(); ++y)
    for (int x = 0; x < f.width(); ++x)
      if (f.reachable(Cell{x, y})) far = std::max(far, f.distance(Cell{x, y}));
  std::vector<Uint32> px(static_cast<size_t>(f.width()) * static_cast<size_t>(f.height()), 0u);
  for (int y = 0; y < f.height(); ++y)
    for (int x = 0; x < f.width(); ++x)
      if (f.reachable(Cell{x, y}))
        px[static_cast<size_t>(y) * static_cast<size_t>(f.width()) + static_cast<size_t>(x)] =
            ramp(far > 0.0 ? f.distance(Cell{x, y}) / far : 0.0);
  texture_ = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STATIC, f.width(), f.height());
  if (!texture_) return;
  SDL_UpdateTexture(texture_, nullptr, px.data(), f.width() * 4);
  SDL_SetTextureBlendMode(texture_, SDL_BLENDMODE_BLEND);
  SDL_SetTextureScaleMode(texture_, SDL_ScaleModeNearest);  // cells stay cells when zoomed in
}

void FlowFieldOverlay::draw_arrows(SdlBatch& b, const ImDrawList* dl, const std::function<ImVec2(Vec2)>& to_screen,
                                   float scale, float ui_scale) const {
  const FlowField& f = *field_;
  const int k = arrow_stride(scale, ui_scale);
  // Only the cells on the canvas: the map's screen rectangle gives the cells the clip rect shows.
  const ImVec2 o = to_screen(Vec2(0.0, 0.0)), lo = dl->GetClipRectMin(), hi = dl->GetClipRectMax();
  const int x0 = std::max(0, static_cast<int>(std::floor((lo.x - o.x) / scale))),
            y0 = std::max(0, static_cast<int>(std::floor((lo.y - o.y) / scale)));
  const int x1 = std::min(f.width() - 1, static_cast<int>(std::ceil((hi.x - o.x) / scale))),
            y1 = std::min(f.height() - 1, static_cast<int>(std::ceil((hi.y - o.y) / scale)));
  const float len = 0.38f * static_cast<float>(k) * scale;  // leaves a gap between neighbours
  const float head = std::max(3.0f * ui_scale, len * 0.35f);
  const ImU32 col = IM_COL32(20, 20, 30, 255);
  for (int y = y0 - y0 % k + k / 2; y <= y1; y += k)
    for (int x = x0 - x0 % k + k / 2; x <= x1; x += k) {
      const Cell c{x, y}, n = f.next_cell(c);
      if (!f.reachable(c)) continue;
      if (n == c) {  // a goal cell: a small ring instead of an arrow
        const ImVec2 p = to_screen(Vec2(x + 0.5, y + 0.5));
        b.disc(p, std::max(2.0f, head * 0.6f), IM_COL32(255, 255, 255, 255), col);
        continue;
      }
      const double dx = n.x - c.x, dy = n.y - c.y, d = (dx != 0.0 && dy != 0.0) ? kSqrt2 : 1.0;
      const ImVec2 p = to_screen(Vec2(x + 0.5, y + 0.5));
      const float ux = static_cast<float>(dx / d), uy = static_cast<float>(dy / d);
      const ImVec2 tail(p.x - ux * len, p.y - uy * len), tip(p.x + ux * len, p.y + uy * len);
      const int w = std::clamp(static_cast<int>(std::lround(ui_scale)), 1, 3);
      b.thick_polyline(std::array<ImVec2, 2>{tail, tip}.data(), 2, col, w);
      const ImVec2 left(tip.x - (ux + uy) * head * 0.7f, tip.y - (uy - ux) * head * 0.7f);
      const ImVec2 right(tip.x - (ux - uy) * head * 0.7f, tip.y - (uy + ux) * head * 0.7f);
      b.thick_polyline(std::array<ImVec2, 3>{left, tip, right}.data(), 3, col, w);
    }
}

void FlowFieldOverlay::draw(const Crowd& crowd, int unit, ImDrawList* dl, SdlLayer& layer,
                            const std::function<ImVec2(Vec2)>& to_screen, float scale, float ui_scale) {
  if (unit < 0 || unit >= crowd.agent_count()) return;
  update(crowd, unit, layer.renderer());
  if (!field_ || !texture_) return;
  SdlBatch& b = layer.begin(dl);
  const ImVec2 a = to_screen(Vec2(0.0, 0.0)), z = to_screen(Vec2(field_->width(), field_->height()));
  b.image(texture_, SDL_FRect{a.x, a.y, z.x - a.x, z.y - a.y});
  draw_arrows(b, dl, to_screen, scale, ui_scale);
}

}  // namespace pathlab::sandbox
