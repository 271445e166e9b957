#include "canvas/sdl_layer.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace pathlab::sandbox {
namespace {

constexpr int kMaxSpriteRadius = 48;  // bigger discs are drawn at this size (units are rarely that big)

struct Rgba {
  Uint8 r, g, b, a;
};
Rgba rgba(ImU32 c) {
  return {static_cast<Uint8>(c >> IM_COL32_R_SHIFT), static_cast<Uint8>(c >> IM_COL32_G_SHIFT),
          static_cast<Uint8>(c >> IM_COL32_B_SHIFT), static_cast<Uint8>(c >> IM_COL32_A_SHIFT)};
}

void set_colour(SDL_Renderer* r, ImU32 c) {
  const Rgba k = rgba(c);
  SDL_SetRenderDrawColor(r, k.r, k.g, k.b, k.a);
  SDL_SetRenderDrawBlendMode(r, k.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
}

// One white sprite per radius: the inside of a disc (ring == false) or its 1-pixel edge. White,
// so colour and alpha modulation paint it any colour in one blit.
SDL_Texture* make_sprite(SDL_Renderer* renderer, int radius, bool ring) {
  const int size = 2 * radius + 1;
  std::vector<Uint32> px(static_cast<size_t>(size * size), 0u);
  const float r = static_cast<float>(radius) + 0.5f;
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x) {
      const float d = std::hypot(static_cast<float>(x - radius), static_cast<float>(y - radius));
      const bool inside = d <= r;
      const bool edge = inside && d > r - 1.25f;
      if (ring ? edge : inside && !edge) px[static_cast<size_t>(y * size + x)] = 0xFFFFFFFFu;
    }
  SDL_Texture* t = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STATIC, size, size);
  if (!t) return nullptr;
  SDL_UpdateTexture(t, nullptr, px.data(), size * 4);
  SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
  return t;
}

// Sprites by radius, per renderer (one renderer per process in practice; tests make several).
struct Sprites {
  std::map<int, SDL_Texture*> disc, ring;
};
std::map<SDL_Renderer*, Sprites>& sprite_cache() {
  static std::map<SDL_Renderer*, Sprites> cache;
  return cache;
}

SDL_Texture* sprite(SDL_Renderer* renderer, int radius, bool ring) {
  auto& m = ring ? sprite_cache()[renderer].ring : sprite_cache()[renderer].disc;
  SDL_Texture*& t = m[radius];
  if (!t) t = make_sprite(renderer, radius, ring);
  return t;
}

}  // namespace

void SdlBatch::polyline(const ImVec2* pts, int n, ImU32 col, bool closed) {
  if (n < 2 || (col & IM_COL32_A_MASK) == 0) return;
  const int first = static_cast<int>(pts_.size());
  for (int i = 0; i < n; ++i) pts_.push_back(SDL_FPoint{pts[i].x, pts[i].y});
  if (closed) pts_.push_back(SDL_FPoint{pts[0].x, pts[0].y});
  runs_.push_back(Run{col, first, static_cast<int>(pts_.size()) - first});
}

void SdlBatch::line(ImVec2 a, ImVec2 b, ImU32 col) {
  const ImVec2 p[2] = {a, b};
  polyline(p, 2, col);
}

void SdlBatch::thick_polyline(const ImVec2* pts, int n, ImU32 col, int width) {
  // Offsets of a width x width square of pixels around the line: a square pen, which for 2-4
  // pixels looks the same as a round one and keeps every pass a plain 1-pixel line. Opaque
  // colours only look right (translucent passes would overlap), so callers pass alpha 255.
  width = std::clamp(width, 1, 4);
  const float lo = -0.5f * static_cast<float>(width - 1);
  std::vector<ImVec2> shifted(static_cast<size_t>(n));
  for (int dy = 0; dy < width; ++dy)
    for (int dx = 0; dx < width; ++dx) {
      for (int i = 0; i < n; ++i)
        shifted[static_cast<size_t>(i)] = ImVec2(pts[i].x + lo + static_cast<float>(dx), pts[i].y + lo + static_cast<float>(dy));
      polyline(shifted.data(), n, col);
    }
}

void SdlBatch::disc(ImVec2 c, float r, ImU32 fill, ImU32 outline) { discs_.push_back(Disc{c, r, fill, outline}); }

void SdlBatch::draw(SDL_Renderer* renderer, const SDL_Rect& clip) const {
  SDL_RenderSetClipRect(renderer, &clip);
  for (const Run& run : runs_) {
    set_colour(renderer, run.col);
    SDL_RenderDrawLinesF(renderer, pts_.data() + run.first, run.count);
  }
  for (const Disc& d : discs_) {
    const int radius = std::clamp(static_cast<int>(std::lround(d.r)), 1, kMaxSpriteRadius);
    const SDL_Rect dst{static_cast<int>(std::lround(d.c.x)) - radius, static_cast<int>(std::lround(d.c.y)) - radius,
                       2 * radius + 1, 2 * radius + 1};
    for (const auto& [ring, col] : {std::pair{false, d.fill}, std::pair{true, d.outline}}) {
      SDL_Texture* t = sprite(renderer, radius, ring);
      if (!t || (col & IM_COL32_A_MASK) == 0) continue;
      const Rgba k = rgba(col);
      SDL_SetTextureColorMod(t, k.r, k.g, k.b);
      SDL_SetTextureAlphaMod(t, k.a);
      SDL_RenderCopy(renderer, t, nullptr, &dst);
    }
  }
  SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE);
}

SdlLayer::~SdlLayer() {
  // The sprites belong to the renderer; drop them while it still exists (the Host destroys the
  // sandbox, and with it this layer, before the renderer).
  auto it = sprite_cache().find(renderer_);
  if (it == sprite_cache().end()) return;
  for (auto* m : {&it->second.disc, &it->second.ring})
    for (auto& [r, t] : *m)
      if (t) SDL_DestroyTexture(t);
  sprite_cache().erase(it);
}

SdlBatch& SdlLayer::begin(ImDrawList* dl) {
  batches_.push_back(Entry{this, SdlBatch{}});
  dl->AddCallback(&SdlLayer::callback, &batches_.back());
  return batches_.back().batch;
}

void SdlLayer::callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* e = static_cast<const Entry*>(cmd->UserCallbackData);
  if (e->batch.empty()) return;
  const ImVec4 c = cmd->ClipRect;
  const SDL_Rect clip{static_cast<int>(c.x), static_cast<int>(c.y), static_cast<int>(c.z - c.x), static_cast<int>(c.w - c.y)};
  e->batch.draw(e->owner->renderer_, clip);
}

}  // namespace pathlab::sandbox
