// The "Edit" section: the canvas tools, the brush, undo/redo, clearing and generating maps,
// and fitting the view.

#include <algorithm>
#include <cmath>

#include "pathlab/map_generators.hpp"
#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

class EditPanel final : public Panel {
 public:
  void draw(Sandbox& sb) override {
    if (!collapsing_header("Edit", ImGuiTreeNodeFlags_DefaultOpen)) return;
    tools(sb);
    // Rows of buttons wrap in a narrow panel (a large UI scale) instead of running off its edge.
    if (ImGui::Button("Undo")) sb.undo();
    sb.remember_widget("undo");
    same_line_if_fits(button_width("Redo"));
    if (ImGui::Button("Redo")) sb.redo();
    sb.remember_widget("redo");
    same_line_if_fits(button_width("Clear"));
    if (ImGui::Button("Clear")) fill_from(sb, nullptr);
    same_line_if_fits(button_width("Fit view"));
    if (ImGui::Button("Fit view")) sb.fit_view();
    sb.remember_widget("fit");
    help_marker("Undo covers every edit: cells, start and goal, settings and spawned units (Ctrl+Z, Ctrl+Y). "
                "Fit view (F) shows the whole map; it re-fits when the window is resized unless you zoomed.");
    generators(sb);
    view(sb);
  }

 private:
  void tools(Sandbox& sb) {
    int t = static_cast<int>(sb.tool());
    const struct {
      const char* label;
      Tool tool;
      bool same_line;
    } kTools[] = {{"wall", Tool::paint, false}, {"erase", Tool::erase, true}, {"terrain", Tool::terrain, true},
                  {"rect", Tool::rect, true},   {"start", Tool::start, false}, {"goal", Tool::goal, true}};
    for (const auto& k : kTools) {
      if (k.same_line) same_line_if_fits(check_width(k.label));
      ImGui::RadioButton(k.label, &t, static_cast<int>(k.tool));
      sb.remember_widget(k.label);
    }
    help_marker("start/goal: press to place, drag to set the heading. The markers can always be dragged; "
                "drag an arrow's tip to turn it.");
    sb.set_tool(static_cast<Tool>(t));
    int brush = sb.brush();
    ImGui::SliderInt(fit_label("brush", help_marker_width()).c_str(), &brush, 1, 16);
    sb.set_brush(std::clamp(brush, 1, 16));
    help_marker("Brush radius in cells for wall, erase and terrain.");
    float cost = sb.terrain_cost();
    ImGui::SliderFloat(fit_label("terrain cost", help_marker_width()).c_str(), &cost, 1.1f, 20.0f, "%.1fx", ImGuiSliderFlags_Logarithmic);
    sb.remember_widget("terrain cost");
    help_marker("What one cell of terrain costs to cross, as a multiple of open floor (3: the swamp of the scene "
                "files). Darker green is dearer. JPS ignores terrain costs.");
    sb.set_terrain_cost(std::clamp(cost, 1.1f, 20.0f));
  }

  void generators(Sandbox& sb) {
    ImGui::Combo(fit_label("generator", help_marker_width()).c_str(), &kind_, "random\0maze\0rooms\0");
    ImGui::SliderFloat(fit_label("density", help_marker_width()).c_str(), &density_, 0.0f, 0.6f);
    help_marker("random: share of blocked cells. maze: corridor width = 1 + density*10. rooms: room size = 4 + density*40.");
    ImGui::InputInt(fit_label("seed", help_marker_width()).c_str(), &seed_);
    if (!ImGui::Button("Generate")) return;
    Grid g = sb.scene().grid;
    const uint32_t seed = static_cast<uint32_t>(seed_);
    if (kind_ == 0) generate_random(g, density_, seed);
    else if (kind_ == 1) generate_maze(g, 1 + static_cast<int>(density_ * 10), seed);
    else generate_rooms(g, 4 + static_cast<int>(density_ * 40), 2, seed);
    fill_from(sb, &g);
  }

  void view(Sandbox& sb) {
    int pct = static_cast<int>(std::lround(sb.ui_scale() * 100.0f));
    // Applied when let go: the font is rebuilt once, not at every step of the drag.
    ImGui::SliderInt(fit_label("UI scale", help_marker_width()).c_str(), &pct, 100, 250, "%d%%");
    sb.remember_widget("ui_scale");
    if (ImGui::IsItemDeactivatedAfterEdit() || (ImGui::IsItemEdited() && !ImGui::IsItemActive()))
      sb.set_ui_scale(static_cast<float>(pct / 25 * 25) / 100.0f);
    help_marker("Size of text and controls for projectors and high-DPI screens (100-250%, remembered). "
                "Ctrl+click to type a value.");
  }

  /// Every cell from `src` (or free when null), as one undoable edit.
  static void fill_from(Sandbox& sb, const Grid* src) {
    EditHistory& h = sb.history();
    Grid& grid = sb.scene().grid;
    h.begin();
    for (int y = 0; y < grid.height(); ++y)
      for (int x = 0; x < grid.width(); ++x) h.set_cell(grid, x, y, src ? src->cost(x, y) : 1.0f);
    if (h.commit()) sb.map_changed();
  }

  int kind_ = 0;
  float density_ = 0.25f;
  int seed_ = 1;
};

}  // namespace

std::unique_ptr<Panel> make_edit_panel() { return std::make_unique<EditPanel>(); }

}  // namespace pathlab::sandbox
