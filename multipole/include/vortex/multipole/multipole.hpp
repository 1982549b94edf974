#pragma once
// The multipole half of the device-shared kernel layer: real solid harmonics, ladder relations,
// P2M / M2M / M2V, and M2P evaluation of velocity and velocity gradient (one target, or many
// targets in SIMD lanes on the CPU); local expansions on the CPU (M2L, L2L, L2P).

#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/gradient_expansion.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/l2p.hpp"
#include "vortex/multipole/ladder.hpp"
#include "vortex/multipole/local_error.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/m2l_rotation.hpp"
#include "vortex/multipole/m2p.hpp"
#include "vortex/multipole/m2p_batch.hpp"
#include "vortex/multipole/solid_harmonics.hpp"
