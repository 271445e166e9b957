// Scene links in the sandbox (issue 29, "A link is a scene"): `pathlab --link TEXT` and the web
// build's page address open what a link holds through Sandbox::open_link; Export's "Copy link"
// copies scene_link_url() (share_text: the page's box and clipboard, SDL's on the desktop). A scene from a link opens untitled and is never written by itself:
// Save asks for a file name (SceneDocument::from_link).

#include <imgui.h>

#include "pathlab/io/scene_link.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

std::string check_planner(const std::string& name) {
  return plan::find_planner(name) ? "" : "unknown planner '" + name + "'";
}

}  // namespace

Status Sandbox::open_link(std::string_view url_or_fragment) {
  auto link = io::decode_link(url_or_fragment);
  if (!link) {
    set_status(link.error().message, true);
    return link.error();
  }
  // The web page opens every link put into its address: one must not replace unsaved edits
  // (show_lesson_step would refuse a lesson anyway). Said before anything changes.
  if (doc_.dirty()) {
    set_status("link: this scene has unsaved edits: save or undo them, then open the link", true);
    return fail(StatusCode::invalid_argument, status_);
  }
  if (link->kind == io::LinkKind::scene) {
    auto scene = io::read_link_scene(*link, plan::scene_read_options());
    if (!scene) {
      set_status(scene.error().message, true);  // the scene shown stays as it was
      return scene.error();
    }
    const std::string name = scene->name;
    set_scene(std::move(*scene));
    doc_.reset_from_link(std::string(url_or_fragment));
    check_restore();
    set_status_after_load("opened a link" + (name.empty() ? std::string() : ": " + name) +
                          " (not saved: Save asks for a file name)");
    return ok_status();
  }
  io::LessonReadOptions options;
  options.check_planner = check_planner;
  auto lesson = io::read_link_lesson(*link, options);
  if (!lesson) {
    set_status(lesson.error().message, true);
    return lesson.error();
  }
  lesson_ = LessonShow{std::move(*lesson), "", -1};
  set_presenting(true);
  if (!show_lesson_step(link->step - 1)) return fail(StatusCode::io_error, "link: " + status_);
  return ok_status();
}

std::string Sandbox::share_text(const std::string& what, const std::string& text) const {
  if (text_sharer_) return text_sharer_(what, text);
  ImGui::SetClipboardText(text.c_str());  // the SDL backend's clipboard (tests capture ImGui's)
  return "";
}

std::string Sandbox::scene_link_url() const {
  io::Scene scene = scene_;
  scene.units = units_->spawn_list();  // what Save would write
  scene.sim_speed = units_->speed();
  return io::link_url(link_base_, io::scene_link(scene));
}

}  // namespace pathlab::sandbox
