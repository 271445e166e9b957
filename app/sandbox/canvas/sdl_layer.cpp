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

/// Axis-aligned quads with a colour each, drawn in one SDL_RenderGeometry call.
struct TriangleList {
  std::vector<SDL_Vertex> vertices;
  std::vector<int> indices;
  bool blend = false;  ///< some colour is translucent

  /// A square `side` pixels wide from (x, y); `textured`: the whole texture over it.
  void quad(float x, float y, float side, ImU32 col, bool textured) {
    if ((col & IM_COL32_A_MASK) == 0) return;
    const Rgba k = rgba(col);
    const SDL_Color c{k.r, k.g, k.b, k.a};
    blend = blend || k.a != 255 || textured;
    const int first = static_cast<int>(vertices.size());
    const float u1 = textured ? 1.0f : 0.0f;
    vertices.push_back(SDL_Vertex{SDL_FPoint{x, y}, c, SDL_FPoint{0.0f, 0.0f}});
    vertices.push_back(SDL_Vertex{SDL_FPoint{x + side, y}, c, SDL_FPoint{u1, 0.0f}});
    vertices.push_back(SDL_Vertex{SDL_FPoint{x + side, y + side}, c, SDL_FPoint{u1, u1}});
    vertices.push_back(SDL_Vertex{SDL_FPoint{x, y + side}, c, SDL_FPoint{0.0f, u1}});
    for (int i : {0, 1, 2, 0, 2, 3}) indices.push_back(first + i);
  }
  void draw(SDL_Renderer* renderer, SDL_Texture* texture) const {
    if (indices.empty()) return;
    // Untextured triangles blend with the renderer's draw blend mode (textured ones with the
    // texture's: blended, set when the sprite was made).
    SDL_SetRenderDrawBlendMode(renderer, blend ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE);
    SDL_RenderGeometry(renderer, texture, vertices.data(), static_cast<int>(vertices.size()), indices.data(),
                       static_cast<int>(indices.size()));
  }
};

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

void SdlBatch::dot(ImVec2 c, float side, ImU32 col) {
  if ((col & IM_COL32_A_MASK) != 0) dots_.push_back(Dot{c, std::max(1.0f, side), col});
}

void SdlBatch::draw(SDL_Renderer* renderer, const SDL_Rect& clip) const {
  SDL_RenderSetClipRect(renderer, &clip);
  for (const Image& im : images_) SDL_RenderCopyF(renderer, im.texture, nullptr, &im.dst);
  for (const Run& run : runs_) {
    set_colour(renderer, run.col);
    SDL_RenderDrawLinesF(renderer, pts_.data() + run.first, run.count);
  }
  draw_discs(renderer);
  draw_dots(renderer);
  SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE);
}

void SdlBatch::draw_discs(SDL_Renderer* renderer) const {
  if (discs_.empty()) return;
  // Integer corners, as the blits of one sprite each had: the same pixels.
  std::map<int, std::pair<TriangleList, TriangleList>> by_radius;  // fills, outlines
  for (const Disc& d : discs_) {
    const int radius = std::clamp(static_cast<int>(std::lround(d.r)), 1, kMaxSpriteRadius);
    const float x = static_cast<float>(std::lround(d.c.x) - radius), y = static_cast<float>(std::lround(d.c.y) - radius);
    const float side = static_cast<float>(2 * radius + 1);
    auto& [fills, rings] = by_radius[radius];
    fills.quad(x, y, side, d.fill, true);
    rings.quad(x, y, side, d.outline, true);
  }
  for (const auto& [radius, lists] : by_radius) {
    lists.first.draw(renderer, sprite(renderer, radius, false));
    lists.second.draw(renderer, sprite(renderer, radius, true));
  }
}

void SdlBatch::draw_dots(SDL_Renderer* renderer) const {
  if (dots_.empty()) return;
  TriangleList list;
  for (const Dot& d : dots_) {
    const float side = std::round(d.side);
    list.quad(std::round(d.c.x - side / 2), std::round(d.c.y - side / 2), side, d.col, false);
  }
  list.draw(renderer, nullptr);
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
