#pragma once
// Canvas primitives drawn by SDL itself instead of as ImGui triangles. Under SDL's software
// renderer a 1-pixel line is a run of pixel writes, while the same line from ImGui is two or
// more arbitrary triangles rasterised one by one; with 50 unit routes, thousands of search
// ticks or a whole navmesh on screen that difference was most of the frame (measured with
// --bench-frames: see the README).
//
// Discs and dots are drawn as SDL_RenderGeometry triangle lists (SDL 2.0.18 and later): one
// call for the fills and one for the outlines of every disc sprite size, one for all the dots,
// however many units there are (5,000 units were 10,000 texture blits one call each).
//
// A batch is filled while the frame is built and queued into an ImGui draw list as a callback,
// so it is drawn at that place in the list: what ImGui drew before is under it, what comes
// after is over it. Batches live until the next frame starts (ImGui renders after frame()).

#include <SDL.h>

#include <deque>
#include <vector>

#include <imgui.h>

namespace pathlab::sandbox {

class SdlBatch {
 public:
  /// A 1-pixel polyline in one colour (alpha blended when below 255).
  void polyline(const ImVec2* pts, int n, ImU32 col, bool closed = false);
  void line(ImVec2 a, ImVec2 b, ImU32 col);
  /// A polyline `width` pixels wide (1..4): the 1-pixel line drawn at neighbouring offsets.
  void thick_polyline(const ImVec2* pts, int n, ImU32 col, int width);
  /// A filled disc of radius r with a 1-pixel outline (an axis-aligned sprite blit). Discs are
  /// drawn by size, the fills of one size then their outlines: an outline may lie over the
  /// fill of an overlapping disc of the same size drawn earlier.
  void disc(ImVec2 c, float r, ImU32 fill, ImU32 outline);
  /// A filled axis-aligned square `side` pixels wide centred on `c` (a unit drawn as a dot when
  /// zoomed out), drawn after the discs. [Units: pixels] [Limit: side >= 1]
  void dot(ImVec2 c, float side, ImU32 col);
  /// `texture` stretched over `dst` (screen pixels), drawn first, under the batch's lines. The
  /// texture must live until the frame is drawn.
  void image(SDL_Texture* texture, SDL_FRect dst) { images_.push_back(Image{texture, dst}); }
  bool empty() const { return runs_.empty() && discs_.empty() && dots_.empty() && images_.empty(); }

  /// Draws everything, clipped to `clip` (screen pixels).
  void draw(SDL_Renderer* renderer, const SDL_Rect& clip) const;

 private:
  struct Run {
    ImU32 col;
    int first, count;  // points [first, first + count) of pts_, drawn connected
  };
  struct Disc {
    ImVec2 c;
    float r;
    ImU32 fill, outline;
  };
  struct Dot {
    ImVec2 c;
    float side;
    ImU32 col;
  };
  /// The discs as two triangle lists per sprite radius (fills, then outlines).
  void draw_discs(SDL_Renderer* renderer) const;
  void draw_dots(SDL_Renderer* renderer) const;

  std::vector<SDL_FPoint> pts_;
  std::vector<Run> runs_;
  std::vector<Disc> discs_;
  std::vector<Dot> dots_;
  struct Image {
    SDL_Texture* texture;
    SDL_FRect dst;
  };
  std::vector<Image> images_;
};

/// The frame's batches.
class SdlLayer {
 public:
  explicit SdlLayer(SDL_Renderer* renderer) : renderer_(renderer) {}
  ~SdlLayer();
  SdlLayer(const SdlLayer&) = delete;
  SdlLayer& operator=(const SdlLayer&) = delete;

  /// Drops last frame's batches. Call before building the frame.
  void new_frame() { batches_.clear(); }
  /// A new batch, drawn where `dl` is now (with its current clip rect).
  SdlBatch& begin(ImDrawList* dl);
  /// The renderer the batches draw with (for textures a batch shows).
  SDL_Renderer* renderer() const { return renderer_; }

 private:
  static void callback(const ImDrawList* list, const ImDrawCmd* cmd);

  SDL_Renderer* renderer_;  // the disc sprites it made for this renderer are freed with the layer
  struct Entry {
    SdlLayer* owner;
    SdlBatch batch;
  };
  std::deque<Entry> batches_;  // a deque: callbacks hold pointers into it
};

}  // namespace pathlab::sandbox
