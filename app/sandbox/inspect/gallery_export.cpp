// The Inspect strip's Gallery and Export tabs: the preset scenes and the views each opens
// with, and what leaves the sandbox (path files, the scene and its link on the clipboard, the
// pathlab-cli command that reproduces what is shown). Apart from inspector.cpp, which was over
// twice the size of its neighbours, because none of this reads the search or its replay.

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "inspect/inspector.hpp"
#include "inspect/ui_widgets.hpp"
#include "sandbox.hpp"

namespace pathlab::sandbox {
namespace {

/// One "em" of the UI scale: 1 at the 14 px font of 100% (as in inspector.cpp).
float em() { return ImGui::GetFontSize() / 14.0f; }

/// `text` with its first `from` replaced by `to` (unchanged when there is none).
std::string replace_word(std::string text, const std::string& from, const std::string& to) {
  if (const size_t at = text.find(from); at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace

void Inspector::tab_gallery(Sandbox& sb) {
  if (!gallery_scanned_) {
    gallery_ = scan_gallery(assets_dir() + "/scenes");
    gallery_scanned_ = true;
  }
  if (ImGui::Button("Rescan")) gallery_ = scan_gallery(assets_dir() + "/scenes");
  help_marker("Preset scenes from assets/scenes, grouped by what they teach. One click opens a scene; the note on the "
              "right says what to look at. The \"issues\" category reproduces bug reports.");
  // The list and the note side by side, each scrolling on its own; a title wider than the
  // list wraps onto more lines instead of being cut.
  const float list_w = ImGui::GetContentRegionAvail().x * 0.45f;
  ImGui::BeginChild("##gallery_list", ImVec2(list_w, 0), true, ImGuiWindowFlags_NoSavedSettings);
  std::string category;
  const GalleryEntry* hovered = nullptr;
  for (size_t i = 0; i < gallery_.size(); ++i) {
    const GalleryEntry& e = gallery_[i];
    if (e.category != category) {
      category = e.category;
      ImGui::TextDisabled("%s", category.c_str());
    }
    ImGui::PushID(static_cast<int>(i));
    const float wrap = ImGui::GetContentRegionAvail().x;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const ImVec2 size = ImGui::CalcTextSize(e.title.c_str(), nullptr, false, wrap);
    if (ImGui::Selectable("##preset", sb.document().source() == e.path, 0, ImVec2(0, size.y))) sb.request_preset(e);
    if (ImGui::IsItemHovered()) hovered = &e;
    remember(("gallery:" + std::filesystem::path(e.path).stem().string()).c_str());
    ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, ImGui::GetColorU32(ImGuiCol_Text),
                                        e.title.c_str(), nullptr, wrap);
    ImGui::PopID();
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##gallery_note", ImVec2(0, 0), false, ImGuiWindowFlags_NoSavedSettings);
  // The note of the hovered preset, else of the open one.
  const GalleryEntry* shown = hovered;
  if (!shown)
    for (const GalleryEntry& e : gallery_)
      if (sb.document().source() == e.path) shown = &e;
  if (shown) {
    text_wrapped_f("%s", shown->title.c_str());
    ImGui::Separator();
    text_wrapped_f("%s", shown->teaches.empty() ? "(no note)" : shown->teaches.c_str());
  } else {
    text_wrapped_f("Hover a preset to read what it teaches.");
  }
  ImGui::EndChild();
}

bool Inspector::open_preset(Sandbox& sb, const GalleryEntry& e) {
  if (!sb.open(e.path)) return false;
  show_views(sb, e.views);
  return true;
}

void Inspector::show_views(Sandbox& sb, const std::vector<std::string>& views) {
  // A preset opens with the views that show its lesson; everything else goes back to defaults
  // so the previous preset's overlays (and compare rows) do not clutter this one.
  ov_ = Overlays{};
  compare_visible_ = false;
  compare_vehicle_rules_ = false;
  const std::vector<CompareRun> defaults = compare_rows_from_registry();
  if (compare_.size() != defaults.size()) compare_ = defaults;
  for (size_t i = 0; i < compare_.size(); ++i) compare_[i].enabled = defaults[i].enabled;
  for (const std::string& v : views) apply_preset_view(v);
  // The scene's own planner is what its note talks about: Compare always has its row (the
  // arena's legend once had no JPS row for a JPS lesson).
  if (compare_visible_) apply_preset_view("compare:" + sb.scene().settings.planner);
  internals_plans_ = -1;
  compare_plans_ = -1;  // refresh() re-runs compare for the new scene when it is shown
}

std::vector<std::string> Inspector::current_views() const {
  std::vector<std::string> out;
  const Overlays d;
  const std::pair<bool Overlays::*, const char*> names[] = {
      {&Overlays::navmesh, "navmesh"}, {&Overlays::corridor, "corridor"},   {&Overlays::portals, "portals"},
      {&Overlays::funnel, "funnel"},   {&Overlays::spline, "spline"},       {&Overlays::tangents, "tangents"},
      {&Overlays::circles, "circles"}, {&Overlays::dubins, "dubins"},       {&Overlays::reeds_shepp, "reeds_shepp"},
      {&Overlays::curvature_ramp, "curvature_ramp"}, {&Overlays::lookahead, "lookahead"}};
  for (const auto& [flag, name] : names)
    if (ov_.*flag && !(d.*flag)) out.push_back(name);
  if (compare_visible_) {
    out.push_back("compare");
    for (const CompareRun& r : compare_)
      if (r.enabled) out.push_back("compare:" + r.planner);
  }
  if (compare_vehicle_rules_) out.push_back("vehicle_rules");
  return out;
}

bool Inspector::apply_preset_view(const std::string& v) {
  if (v == "navmesh") ov_.navmesh = true;
  else if (v == "corridor") ov_.corridor = true;
  else if (v == "portals") ov_.portals = true;
  else if (v == "funnel") ov_.funnel = true;
  else if (v == "spline") ov_.spline = true;
  else if (v == "tangents") ov_.tangents = true;
  else if (v == "circles") ov_.circles = true;
  else if (v == "dubins") ov_.dubins = true;
  else if (v == "reeds_shepp") ov_.reeds_shepp = true;
  else if (v == "curvature_ramp") ov_.curvature_ramp = true;
  else if (v == "lookahead") ov_.lookahead = true;
  else if (v == "compare") compare_visible_ = true;
  else if (v == "vehicle_rules") compare_vehicle_rules_ = true;
  else if (v == "tab:replay") requested_tab_ = Tab::replay;
  else if (v == "tab:overlays") requested_tab_ = Tab::overlays;
  else if (v == "tab:plots") requested_tab_ = Tab::plots;
  else if (v == "tab:compare") requested_tab_ = Tab::compare;
  else if (v.rfind("compare:", 0) == 0) {
    // "compare:<planner>": that planner's row is ticked, and Compare shown.
    for (CompareRun& r : compare_)
      if (r.planner == v.substr(8)) {
        r.enabled = true;
        compare_visible_ = true;
        return true;
      }
    return false;
  } else {
    return false;
  }
  return true;
}

ExportedPath Inspector::exported_path(const Sandbox& sb) const {
  ExportedPath e;
  const PlanView& p = sb.plan();
  e.scene = sb.scene().name;
  e.planner = sb.scene().settings.planner;
  e.smoother = sb.scene().settings.smoother;
  if (p.result.found) {
    e.points = p.result.points;
    e.curvature = p.result.curvature;
    e.length = p.result.length;
  }
  return e;
}

void Inspector::tab_export(Sandbox& sb) {
  static char dir_buf[512];
  if (dir_buf[0] == '\0' || export_dir_ != dir_buf) std::snprintf(dir_buf, sizeof dir_buf, "%s", export_dir_.c_str());
  ImGui::SetNextItemWidth(std::min(420 * em(), ImGui::GetContentRegionAvail().x * 0.6f));
  if (ImGui::InputText(fit_label("folder").c_str(), dir_buf, sizeof dir_buf)) export_dir_ = dir_buf;
  ImGui::SetNextItemWidth(std::min(200 * em(), ImGui::GetContentRegionAvail().x * 0.5f));
  ImGui::InputText(fit_label("file name", help_marker_width()).c_str(), export_stem_, sizeof export_stem_);
  help_marker("Written as <folder>/<file name>.csv or .json. CSV columns: index, x, y, s (distance along the path), "
              "heading_deg, curvature. Numbers keep 17 digits so they read back exactly.");
  const ExportedPath e = exported_path(sb);
  auto write = [&](const std::string& ext, const std::string& text) {
    const std::string path = (std::filesystem::path(export_dir_) / (std::string(export_stem_) + ext)).string();
    auto st = io::write_file_atomic(path, text);
    message_ = st ? "wrote " + path : st.error().message;
    if (!st) return;
    last_export_ = path;
    sb.wrote_user_file(path);
  };
  ImGui::BeginDisabled(e.points.empty());
  if (ImGui::Button("Save path CSV")) write(".csv", path_to_csv(e));
  remember("export_csv");
  same_line_if_fits(button_width("Save path JSON"));
  if (ImGui::Button("Save path JSON")) write(".json", path_to_json(e));
  remember("export_json");
  same_line_if_fits(button_width("Copy path CSV"));
  if (ImGui::Button("Copy path CSV")) {
    message_ = sb.share_text("path CSV", path_to_csv(e));
    if (message_.empty()) message_ = "path CSV copied to the clipboard";
  }
  remember("copy_path");
  ImGui::EndDisabled();
  same_line_if_fits(button_width("Copy scene to clipboard") + help_marker_width());
  if (ImGui::Button("Copy scene to clipboard")) {
    message_ = sb.share_text("scene JSON", io::scene_to_json(sb.scene()));
    if (message_.empty())
      message_ = "scene JSON copied: paste it into a file or a bug report; \"pathlab-cli plan\" and the sandbox read it";
  }
  remember("copy_scene");
  help_marker("The whole scene (map, start, goal, settings) as scene JSON, to paste into a bug report.");
  same_line_if_fits(button_width("Copy link") + help_marker_width());
  if (ImGui::Button("Copy link")) {
    const std::string link = sb.scene_link_url();
    message_ = sb.share_text("link", link);
    if (message_.empty()) message_ = "link copied (" + std::to_string(link.size()) + " characters): it holds the whole scene";
  }
  remember("copy_link");
  help_marker("The scene (map, start, goal, settings, units) compressed into a link: index.html#scene=... "
              "The browser version opens it, and so do \"pathlab --link LINK\" and \"pathlab-cli link --open LINK "
              "--out FILE\". A teacher shares a scene, a designer a bug, with nothing to attach.");
  cli_command_row(sb);
  if (e.points.empty()) ImGui::TextDisabled("No path to export.");
  else text_wrapped_f("%zu points, length %.3f cells", e.points.size(), e.length);
  if (!message_.empty()) text_wrapped_f("%s", message_.c_str());
}

CliCommand Inspector::cli_command(Sandbox& sb) {
  const SceneDocument& doc = sb.document();
  // The document's own scene file, or the bundled scene it is (read, never written).
  const bool has_file = doc.origin() == Origin::scene || doc.origin() == Origin::bundled;
  const std::string file = doc.origin() == Origin::scene ? doc.save_path() : has_file ? doc.source() : "";
  const std::string tmp = std::filesystem::temp_directory_path().string();
  // In the web page the sandbox's files are in the page's memory, out of the user's reach: the
  // command names a copy of the scene handed to the browser as a download, by its file name.
  const bool download = sb.files_go_through_handoff();
  CliCommand out;
  if (cli_units_) {
    io::Scene scene = sb.scene();
    scene.units = sb.units().spawn_list();  // what Save would write
    scene.sim_speed = sb.units().speed();
    // Paused: the screen holds the units at that time, so the command stops there too; playing:
    // the whole run.
    const double shown = sb.units().playing() ? 0.0 : sb.units().time();
    out = crowd_cli_command(scene, file, has_file && !sb.unsaved() && !download, tmp, cli_written_, shown);
    // The file keeps them, as Save does; the command line refuses such a scene, naming the unit.
    if (const size_t held = sb.units().unplaced().size(); held > 0 && !out.command.empty())
      out.note += "; " + std::to_string(held) + " unit(s) not placed: pathlab-cli crowd refuses the scene until "
                  "they are placed (Reset) or deleted";
  } else {
    out = plan_cli_command(sb.scene(), sb.plan_scene().grid, download ? "" : file, tmp, cli_written_);
  }
  if (!out.written.empty()) cli_written_ = out.written;  // used again while its bytes still fit
  if (download && !out.command.empty() && !out.written.empty()) {
    const std::string name = std::filesystem::path(out.written).filename().string();
    out.command = replace_word(out.command, shell_word(out.written), shell_word(name));
    out.note = "the scene it reads was handed to the browser as a download, " + name +
               ": run the command in the folder it went to";
    sb.wrote_user_file(out.written);
  }
  return out;
}

void Inspector::cli_command_row(Sandbox& sb) {
  if (!sb.scene().units.empty() || !sb.units().spawn_list().empty()) {
    ImGui::RadioButton("plan", &cli_units_int_, 0);
    same_line_if_fits(check_width("units' run"));
    ImGui::RadioButton("units' run", &cli_units_int_, 1);
    same_line_if_fits(button_width("Copy CLI command") + help_marker_width());
  } else {
    cli_units_int_ = 0;
  }
  cli_units_ = cli_units_int_ == 1;
  if (ImGui::Button("Copy CLI command")) {
    cli_ = cli_command(sb);
    const std::string shared = cli_.command.empty() ? "" : sb.share_text("CLI command", cli_.command);
    message_ = cli_.command.empty() ? "no CLI command: " + cli_.note
                                    : (shared.empty() ? "CLI command copied" : shared) + ": " + cli_.note;
    // The worker plans with a time limit, the CLI without: a plan it stopped is not reproduced.
    if (!cli_units_ && sb.plan().result.budget_stop != BudgetStop::none)
      message_ += "; the search shown stopped at the sandbox's time budget, the CLI runs it to the end";
  }
  remember("copy_cli");
  help_marker("The pathlab-cli command that reproduces what is shown, bit for bit: the plan (pathlab-cli plan --scene "
              "FILE, with an option for every unsaved edit of the poses and settings) or the units' run "
              "(pathlab-cli crowd --scene FILE). A map edited and not saved is written to a new file in the "
              "temporary folder first, never over a file of yours. The command shows below to read and select.");
  if (!cli_.command.empty()) {
    // Read-only text, so it can be selected and copied again by hand.
    std::vector<char> buf(cli_.command.begin(), cli_.command.end());
    buf.push_back('\0');
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##cli_command", buf.data(), buf.size(), ImGuiInputTextFlags_ReadOnly);
    remember("cli_command");
  }
}

}  // namespace pathlab::sandbox
