#pragma once
// The far field's paths and the cost model that chooses between them (vortex/math/
// local_choice.hpp): what the Solver's options and statistics name.

namespace vortex {

// How the far field is evaluated. M2P: every far source node at every target of a leaf. Local:
// every source node that the local expansions' acceptance allows is translated into a target
// node's local expansion (M2L), shifted down (L2L) and evaluated at the targets (L2P); the rest by
// M2P. Auto: per target node, the cheaper of the two by the cost model of the backend (the CPU's
// fitted on an AVX-512 Xeon, the GPU's on an H200; the same choice in every run).
enum class FarField { Auto, M2P, Local };

// Seconds of one far-field operation at the orders used: the cost model of FarField::Auto (fixed,
// fitted to timings: far/far_field_costs.cpp). Only the ratios matter to the choice.
struct FarFieldCosts {
  double m2l = 0;         // one source node into one local expansion
  double l2l = 0;         // one local expansion shifted to a child
  double l2p_target = 0;  // a local expansion at one target
  double m2p_target = 0;  // one source node at one target
};

}  // namespace vortex
