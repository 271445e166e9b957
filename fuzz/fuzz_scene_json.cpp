// libFuzzer target: scene files (app/io/scene_file.cpp), read as the CLI and the sandbox read
// them (pathlab/plan/scene.hpp: with the registry's names check): nlohmann's parser behind the
// depth and number-range guard, then the scene schema. "map.file" would read arbitrary paths
// from the disk, so inputs naming a file are skipped (the reference is tested by test_scene_file).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "pathlab/io/scene_file.hpp"
#include "pathlab/plan/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find("file") != std::string::npos) return -1;  // -1: do not add to the corpus
  auto scene = pathlab::plan::parse_scene(text, "fuzz.json", "/nonexistent-dir");
  if (scene) {
    // What we write, we read back.
    auto back = pathlab::plan::parse_scene(pathlab::io::scene_to_json(*scene), "again.json", "/nonexistent-dir");
    FUZZ_CHECK(back.ok());
    FUZZ_CHECK(back->grid.width() == scene->grid.width() && back->grid.height() == scene->grid.height());
  } else {
    pathlab::fuzz::check_message(scene.error().message, "fuzz.json");
  }
  return 0;
}
