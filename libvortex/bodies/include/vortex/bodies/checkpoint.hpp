#pragma once
// Checkpoints of a run with a body: the particles, the sheet, the step, the time and the impulse
// history that the forces need, in one binary file written atomically. The near-field blocks and
// the preconditioner are rebuilt from the mesh on restart; the sheet warm-starts the next solve,
// so a restarted run repeats the original to rounding.

#include <array>
#include <string>
#include <vector>

#include "vortex/particles.hpp"

namespace vortex::bodies {

struct BodyCheckpoint {
  long step = 0;
  double time = 0;
  std::size_t panels = 0;  // must match the surface on restart
  ParticleSet particles;
  std::vector<double> gamma;           // 2 per panel
  std::array<double, 3> impulse{};     // at `time`
  std::array<double, 3> impulse_t0{};  // at t = 0+
};

void write_checkpoint(const std::string& path, const BodyCheckpoint& c);
// Throws vortex::FileError naming the file and what is wrong.
BodyCheckpoint read_checkpoint(const std::string& path);

}  // namespace vortex::bodies
