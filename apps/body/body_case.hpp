#pragma once
// What a vortex-body run and its benchmarks set up first: the checked body surface, its scales
// (D, nu, h) and the identity of the case that its checkpoints carry; and the state a run
// advances, with the checkpoints it is saved to and read back from.

#include <string>

#include "body_settings.hpp"
#include "vortex/bodies/body_flow.hpp"
#include "vortex/bodies/checkpoint.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex::body_app {

struct BodyCase {
  bodies::Surface surface;
  double diameter = 0;  // D, the reference diameter
  double nu = 0;        // the viscosity of --re
  double h = 0;         // the particle spacing
  // The body, its mesh and every setting that changes the physics (the solvers' accuracy and
  // backends may change on restart).
  bodies::CheckpointIdentity identity;
};

// The checked body (make_body_surface) and its scales.
BodyCase make_case(const Settings& s);
// The line that names the case: the body, its panels, D, Re, nu, h, dt and the particles' backend.
void print_header(const Settings& s, const BodyCase& c, Backend backend);

// The state of a run: its step and time, the particles and the impulse (now and at t = 0+).
struct RunState {
  long step = 0;
  double time = 0;
  ParticleSet particles;
  bodies::Vec3 impulse, impulse_t0;
};

// The checkpoint of --restart, refused unless it belongs to this case.
bodies::BodyCheckpoint read_restart(const Settings& s, const BodyCase& c);
// A checkpoint's state, its sheet taken as solved.
RunState checkpoint_state(const bodies::BodyCheckpoint& ck, bodies::BodyFlow& flow);
// The checkpoint file of a step in the output folder.
std::string checkpoint_path(const Settings& s, long step);
// Writes the checkpoint of step r.step and returns its path.
std::string save_checkpoint(const Settings& s, const BodyCase& c, bodies::BodyFlow& flow,
                            const RunState& r);

}  // namespace vortex::body_app
