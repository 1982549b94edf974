#pragma once
// The diffusion check of vortex-ring (--blob): an isolated Gaussian blob of vorticity, no
// advection, diffused by VRM or PSE. Its second moment per dimension must grow by 2 nu t and its
// total vorticity must not change.

#include <cstddef>
#include <string>

#include "ring_settings.hpp"

namespace vortex::ring_app {

struct BlobSettings {
  std::string diffusion = "vrm";
  double spacing = 1;  // lattice spacing h
  double width = 2;    // blob standard deviation, in units of h
  double nu = 1;
  double dt = 0;  // 0: h^2 = 8 nu dt (the spacing rule of Stock & Gharakhani 2008)
  int steps = 40;
  double remove_threshold = 1e-6;
  std::string folder;
  bool plot = true;
};

struct BlobResult {
  int steps = 0;
  std::size_t n_final = 0;
  double moment_rel_err = 0;       // largest |growth / (2 nu t) - 1| over dimensions and steps
  double vorticity_rel_drift = 0;  // largest relative change of sum Gamma
  double impulse_rel_drift = 0;  // largest change of the linear impulse, relative to sum |Gamma| h
  double seconds = 0;
};

BlobResult run_blob(const BlobSettings& s);

// The --blob mode of vortex-ring: runs the check with the settings' values, prints its result
// and writes the JSON summary when asked for. Returns the exit status.
int blob_main(const Settings& s);

}  // namespace vortex::ring_app
