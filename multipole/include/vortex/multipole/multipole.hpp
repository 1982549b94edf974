#pragma once
// The multipole module: real solid harmonics, ladder relations, P2M / M2M / M2V, M2P evaluation of
// velocity and velocity gradient (one target, or many targets in SIMD lanes on the CPU), and local
// expansions (M2L / L2P).

#include "vortex/multipole/batch.hpp"
#include "vortex/multipole/evaluation.hpp"
#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/ladder.hpp"
#include "vortex/multipole/local.hpp"
#include "vortex/multipole/solid_harmonics.hpp"
