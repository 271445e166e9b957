// Repro files in the sandbox (issue 25): "Save repro" writes the units' recorded run with the
// moment shown as its moment of interest; opening a repro restores its scene, replays its
// inputs and shows that moment on the timeline. The scene opens untitled: a Save never writes
// a scene over the repro file.

#include <cstdio>
#include <filesystem>

#include "pathlab/io/repro_file.hpp"
#include "sandbox.hpp"

namespace fs = std::filesystem;

namespace pathlab::sandbox {
namespace {

/// "12.35": a moment for people (std::to_string's six decimals are noise).
std::string seconds(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", t);
  return buf;
}

}  // namespace

bool is_repro_name(const std::string& path) {
  const std::string tail = ".repro.json";
  return path.size() > tail.size() && path.compare(path.size() - tail.size(), tail.size(), tail) == 0;
}

std::string Sandbox::save_repro() {
  const plan::Recording* rec = units_->recording();
  if (!rec) {
    set_status("no recorded run to save (the units record from Reset)", true);
    return "";
  }
  // Next to where Save would write the scene; a new name each time (an earlier repro is kept,
  // and a user's file is never written over: save_repro refuses one that is not a repro).
  std::string stem = doc_.suggested_save_path(work_dir_);
  if (fs::path(stem).extension() == ".json") stem.resize(stem.size() - 5);
  std::string path;
  for (int n = 1; n < 1000 && path.empty(); ++n) {
    const std::string p = stem + (n == 1 ? "" : "-" + std::to_string(n)) + ".repro.json";
    std::error_code ec;
    if (!fs::exists(p, ec) && !ec) path = p;
  }
  if (path.empty()) {
    set_status("no free repro name next to " + stem, true);
    return "";
  }
  if (const Status s = io::save_repro(rec->repro(rec->step_index()), path); !s) {
    set_status(s.error().message, true);
    return "";
  }
  set_status("saved " + path + " (moment t = " + seconds(rec->time()) + " s)", false);
  wrote_user_file(path);
  return path;
}

bool Sandbox::open_repro(const std::string& path) {
  auto r = io::load_repro(path);
  if (!r) {
    set_status(r.error().message, true);  // the scene stays as it was
    return false;
  }
  set_scene(r->scene);
  open_document("", true);  // untitled: saving the scene never touches the repro
  if (const std::string e = units_->replay(*r); !e.empty()) {
    set_status(path + ": " + e, true);
    return false;
  }
  set_status("opened " + path + " at t = " + seconds(units_->time()) + " s", false);
  remember_recent(path);
  return true;
}

}  // namespace pathlab::sandbox
