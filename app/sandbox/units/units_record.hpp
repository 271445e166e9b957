#pragma once
// Recording the sandbox's units headless (issue 25): `pathlab SCENE --record-until T
// --save-repro OUT` steps the units as the Step button does (UnitSwarm::step) and writes the
// repro file `pathlab-cli record --scene SCENE --until T --out OUT` writes, byte for byte when
// the sandbox and the CLI simulate the same (tests/test_sandbox_repro.cpp proves they do).

#include <cstdint>

#include "pathlab/io/repro_file.hpp"
#include "pathlab/io/scene_file.hpp"
#include "units/units.hpp"

namespace pathlab::sandbox {

/// Steps `swarm` `steps` times on `scene` (no edits) and returns the repro of the run: `scene`
/// as it was before the first step, the crowd's dt, a state hash after every step and per unit
/// every simulated second (plan::state_hash, as plan::Recording records them).
io::Repro record_units(UnitSwarm& swarm, const io::Scene& scene, int64_t steps);

}  // namespace pathlab::sandbox
