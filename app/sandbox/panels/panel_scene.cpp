// The "Scene" section: open or import a file, save, save as (through the file dialog, or a
// typed path), recent files. Save always goes to the scene's own file (or a new scene name for
// an import or a preset); the file field is only read by its own two buttons, so a name typed
// there can never redirect Ctrl+S.

#include <cstdio>
#include <filesystem>

#include "sandbox.hpp"
#include "inspect/ui_widgets.hpp"

namespace pathlab::sandbox {
namespace {

const char* origin_text(Origin o) {
  switch (o) {
    case Origin::import: return "imported map (never written; Save makes a new scene)";
    case Origin::bundled: return "bundled preset (never written; Save makes a copy)";
    case Origin::untitled: return "not saved yet";
    case Origin::scene: break;
  }
  return "scene file";
}

class ScenePanel final : public Panel {
 public:
  void draw(Sandbox& sb) override {
    if (!collapsing_header("Scene", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const SceneDocument& doc = sb.document();
    draw_dialog_buttons(sb);
    ImGui::InputText(fit_label("file", help_marker_width()).c_str(), buf_, sizeof buf_);
    sb.remember_widget("file");
    help_marker("Or type a path: a scene (.json) to open, or a Moving AI .map / PNG map to import. \"Save to "
                "path\" writes the scene to this name (a .json). Imports and bundled presets are never written.");
    if (ImGui::Button("Open path")) sb.request_open(buf_);
    sb.remember_widget("open");
    same_line_if_fits(button_width("Save to path"));
    if (ImGui::Button("Save to path")) sb.save(buf_);
    sb.remember_widget("save_as");
    const auto& recent = sb.recent_files();
    if (!recent.empty() && ImGui::BeginCombo(fit_label("recent", help_marker_width()).c_str(), "open a recent file")) {
      for (const std::string& r : recent) {
        if (ImGui::Selectable(r.c_str())) {
          std::snprintf(buf_, sizeof buf_, "%s", r.c_str());
          sb.request_open(r);
          break;
        }
      }
      ImGui::EndCombo();
    }
    const io::Scene& s = sb.scene();
    text_wrapped_f("%s%s  %dx%d", sb.unsaved() ? "* " : "", s.name.empty() ? "(unnamed)" : s.name.c_str(),
                       s.grid.width(), s.grid.height());  // preset names are long
    const std::string target = doc.save_path().empty() ? doc.suggested_save_path("") : doc.save_path();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped_f("%s", origin_text(doc.origin()));
    ImGui::PopStyleColor();
    text_wrapped_f("Save (Ctrl+S) writes %s", std::filesystem::path(target).filename().string().c_str());
    // The field follows the document when it changes (open, save), never the other way round.
    if (doc.source() != seen_source_) {
      seen_source_ = doc.source();
      std::snprintf(buf_, sizeof buf_, "%s", target.c_str());
    }
  }

 private:
  // The file dialog's buttons (file_dialog.hpp) and Save; Ctrl+O, Ctrl+S and Ctrl+Shift+S do the same.
  static void draw_dialog_buttons(Sandbox& sb) {
    if (ImGui::Button("Open...")) sb.show_file_dialog(BrowseMode::open);
    sb.remember_widget("open_dialog");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open a scene (Ctrl+O)");
    same_line_if_fits(button_width("Import..."));
    if (ImGui::Button("Import...")) sb.show_file_dialog(BrowseMode::import);
    sb.remember_widget("import_dialog");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Import a Moving AI .map or a PNG map (never written)");
    same_line_if_fits(button_width("Save"));
    if (ImGui::Button("Save")) sb.save();
    sb.remember_widget("save");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Save the scene to its own file (Ctrl+S)");
    same_line_if_fits(button_width("Save As..."));
    if (ImGui::Button("Save As...")) sb.show_file_dialog(BrowseMode::save_as);
    sb.remember_widget("save_as_dialog");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Save the scene under a new name (Ctrl+Shift+S)");
  }

  char buf_[512] = "scene.json";
  std::string seen_source_ = "\x01";  // never a path: the first frame fills the field
};

}  // namespace

std::unique_ptr<Panel> make_scene_panel() { return std::make_unique<ScenePanel>(); }

}  // namespace pathlab::sandbox
