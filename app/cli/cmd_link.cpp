// pathlab-cli link: a scene or a lesson step as a link (issue 29, "A link is a scene"), and a
// link back to a file. The codec is io's (pathlab/io/scene_link.hpp); this verb reads and
// writes files around it, and never writes over a file that exists.

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>

#include "commands.hpp"
#include "pathlab/io/lesson_file.hpp"
#include "pathlab/io/scene_link.hpp"
#include "pathlab/plan/registry.hpp"
#include "pathlab/plan/scene.hpp"

namespace pathlab::cli {
namespace {

constexpr const char* kLinkUsage =
    "usage: pathlab-cli link --scene FILE [--base URL]\n"
    "       pathlab-cli link --lesson FILE.lesson.json --step N [--base URL]\n"
    "       pathlab-cli link --open LINK --out FILE\n"
    "Prints the link that carries a scene (its map written in), or step N (from 1) of a lesson whose\n"
    "steps are gallery presets: URL#scene=... or URL#lesson=...&step=N, URL by default index.html\n"
    "(the browser version's page). --open reads a link (the whole URL or its fragment; '-' reads it\n"
    "from stdin) and writes the scene, or the lesson, it holds to FILE, which must not exist yet.\n"
    "See README.md, section Scene links.\n";

std::string check_planner(const std::string& name) {
  return plan::find_planner(name) ? "" : "unknown planner '" + name + "'";
}

/// Writes `text` to `path`, which must not exist: written to a temporary file next to it, then
/// hard-linked into place, which fails instead of replacing a file that appeared meanwhile.
void write_new_file(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(path, ec))) throw UsageError("--out: " + path + " exists; a link never writes over a file");
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      throw UsageError("--out: cannot write " + path);
    }
  }
  const int linked = ::link(tmp.c_str(), path.c_str());
  fs::remove(tmp, ec);
  if (linked != 0) throw UsageError("--out: " + path + " could not be created (it exists, or the folder is not writable)");
}

std::string read_link_text(const std::string& arg) {
  if (arg != "-") return arg;
  std::string text;
  char buf[65536];
  while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
    text.append(buf, static_cast<size_t>(std::cin.gcount()));
    if (text.size() > io::kMaxLinkChars) throw UsageError("--open -: more than " + std::to_string(io::kMaxLinkChars) + " bytes on stdin");
  }
  return text;
}

int open_link(const std::string& text, const std::string& out) {
  auto link = io::decode_link(text);
  if (!link) throw UsageError(link.error().message);
  if (link->kind == io::LinkKind::scene) {
    if (io::is_lesson_name(out)) throw UsageError("--out: the link holds a scene; name a .json file, not a .lesson.json");
    auto scene = io::read_link_scene(*link, plan::scene_read_options());
    if (!scene) throw UsageError(scene.error().message);
    write_new_file(out, io::scene_to_json(*scene));
    std::printf("wrote %s: scene '%s', map %dx%d\n", out.c_str(), scene->name.c_str(), scene->grid.width(), scene->grid.height());
    return 0;
  }
  if (!io::is_lesson_name(out)) throw UsageError("--out: the link holds a lesson; name a .lesson.json file");
  io::LessonReadOptions options;
  options.check_planner = check_planner;
  auto lesson = io::read_link_lesson(*link, options);
  if (!lesson) throw UsageError(lesson.error().message);
  write_new_file(out, io::lesson_to_json(*lesson));
  std::printf("wrote %s: lesson '%s', %zu steps (the link shows step %d)\n", out.c_str(), lesson->title.c_str(),
              lesson->steps.size(), link->step);
  return 0;
}

}  // namespace

int run_link(int argc, char** argv) {
  for (int k = 2; k < argc; ++k) {
    if (std::string(argv[k]) == "--help" || std::string(argv[k]) == "-h") {
      std::fputs(kLinkUsage, stdout);
      return 0;
    }
  }
  Args args(argc, argv, 2, {});
  const auto scene_path = args.str("scene");
  const auto lesson_path = args.str("lesson");
  const auto open = args.str("open");
  const auto step = args.integer("step");
  const auto base = args.str("base");
  const auto out = args.str("out");
  args.reject_unknown();
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  if (static_cast<int>(scene_path.has_value()) + static_cast<int>(lesson_path.has_value()) + static_cast<int>(open.has_value()) != 1)
    throw UsageError("give one of --scene FILE, --lesson FILE --step N, --open LINK --out FILE (try --help)");
  if (open) {
    if (!out) throw UsageError("--open needs --out FILE (a new file for what the link holds)");
    if (step || base) throw UsageError("--open takes --out only (the link has its own step)");
    return open_link(read_link_text(*open), *out);
  }
  if (out) throw UsageError("--out belongs to --open");
  const std::string url = base.value_or("index.html");
  if (scene_path) {
    if (step) throw UsageError("--step belongs to --lesson");
    auto scene = plan::load_scene(*scene_path);
    if (!scene) throw UsageError(scene.error().message);
    std::printf("%s\n", io::link_url(url, io::scene_link(*scene)).c_str());
    return 0;
  }
  if (!step) throw UsageError("--lesson needs --step N (the step the link shows, from 1)");
  io::LessonReadOptions options;
  options.check_planner = check_planner;
  auto lesson = io::load_lesson(*lesson_path, options);
  if (!lesson) throw UsageError(lesson.error().message);
  if (*step < 1 || *step > static_cast<long long>(lesson->steps.size()))
    throw UsageError("--step " + std::to_string(*step) + ": " + *lesson_path + " has steps 1 to " +
                     std::to_string(lesson->steps.size()));
  auto link = io::lesson_link(*lesson, static_cast<int>(*step));
  if (!link) throw UsageError(*lesson_path + ": " + link.error().message);
  std::printf("%s\n", io::link_url(url, *link).c_str());
  return 0;
}

}  // namespace pathlab::cli
