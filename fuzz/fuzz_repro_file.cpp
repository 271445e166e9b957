// libFuzzer target: repro files (app/io/repro_file.cpp, issue 25), read as `pathlab-cli replay`
// reads them (the scene with the registry's names check), written back, and re-simulated a few
// steps with their inputs (plan::Recording): a hostile input (cells, door indices, unit ids)
// must give a clear error or a run, never a crash. Inputs naming a map file are skipped (the
// reader would open arbitrary paths); big scenes are read but not simulated (time, not safety).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "pathlab/io/repro_file.hpp"
#include "pathlab/plan/recording.hpp"
#include "pathlab/plan/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (text.find("file") != std::string::npos) return -1;  // -1: do not add to the corpus
  auto repro = pathlab::io::parse_repro(text, "fuzz.json", "/nonexistent-dir", pathlab::plan::scene_read_options());
  if (!repro) {
    pathlab::fuzz::check_message(repro.error().message, "fuzz.json");
    return 0;
  }
  // What we write, we read back, to the same bytes.
  const std::string written = pathlab::io::repro_to_json(*repro);
  auto back = pathlab::io::parse_repro(written, "again.json", "/nonexistent-dir", pathlab::plan::scene_read_options());
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(pathlab::io::repro_to_json(*back) == written);
  if (repro->scene.grid.cell_count() > 64 * 64 || repro->scene.units.size() > 32) return 0;
  auto rec = pathlab::plan::Recording::replay(*repro, 8);
  if (!rec) return 0;  // a scene the crowd refuses (its own message, tested elsewhere)
  const int64_t steps = repro->until_step < 24 ? repro->until_step : 24;
  while (rec->step_index() < steps) rec->step();
  FUZZ_CHECK(rec->seek(steps / 2).ok());
  return 0;
}
