#pragma once
// The flow field overlay (issue 27): the distance field of the selected group's goal as a
// colour ramp over the map (yellow near the goal, purple far, nothing where the goal cannot be
// reached) and arrows down the field at a stride readable at any zoom. The core computes the
// field (goal_flow_field, crowd_flow_field.hpp: the crowd's own field, with the other groups'
// routes made dearer, as its units read it); this only draws it, and keeps it between frames
// while the goal cell, the radius class, the crowd's grid and its fields stay the same.

#include <SDL.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "canvas/sdl_layer.hpp"
#include "pathlab/crowd.hpp"
#include "pathlab/flow_field.hpp"

namespace pathlab::sandbox {

class FlowFieldOverlay {
 public:
  FlowFieldOverlay() = default;
  ~FlowFieldOverlay();
  FlowFieldOverlay(const FlowFieldOverlay&) = delete;
  FlowFieldOverlay& operator=(const FlowFieldOverlay&) = delete;

  /// Draws the field unit `unit` follows with its group (its goal cell, its radius class) on
  /// `crowd`'s grid, under what is drawn after it. `scale`: pixels per cell; `ui_scale`: 1 at
  /// 100% (the arrows' stride and size grow with it). Nothing when the field cannot be built
  /// (error() says why).
  void draw(const Crowd& crowd, int unit, ImDrawList* dl, SdlLayer& layer, const std::function<ImVec2(Vec2)>& to_screen,
            float scale, float ui_scale);

  /// The field drawn last, if any.
  const FlowField* field() const { return field_ ? &*field_ : nullptr; }
  /// Why the last draw showed nothing ("" when it showed the field).
  const std::string& error() const { return error_; }
  /// Fields built so far (a field kept between frames is not built again).
  int builds() const { return builds_; }
  /// Cells between two arrows at `scale` pixels per cell: about 28 pixels (times the UI scale)
  /// apart. [Units: cells] [Limit: >= 1]
  static int arrow_stride(float scale, float ui_scale);

 private:
  /// Builds the field (and its texture) unless the one kept is for the same question.
  void update(const Crowd& crowd, int unit, SDL_Renderer* renderer);
  void make_texture(SDL_Renderer* renderer);
  void draw_arrows(SdlBatch& b, const ImDrawList* dl, const std::function<ImVec2(Vec2)>& to_screen, float scale,
                   float ui_scale) const;

  std::optional<FlowField> field_;
  Cell goal_{-1, -1};
  double radius_ = -1.0;
  int64_t version_ = -1;  ///< goal_flow_field_version() when the field was taken
  std::vector<float> costs_;  ///< the crowd's grid costs the field was built on
  std::string error_;
  int builds_ = 0;
  SDL_Texture* texture_ = nullptr;  ///< one texel per cell: the ramp
  SDL_Renderer* texture_renderer_ = nullptr;
};

}  // namespace pathlab::sandbox
