#pragma once
// The particle strength exchange's weights and rates (vortex/pse.hpp): the neighbours of every
// particle with their exchange weights, and dGamma/dt from them.

#include <vector>

#include "vortex/neighbor_search.hpp"
#include "vortex/particles.hpp"
#include "vortex/pse.hpp"

namespace vortex {

// The exchange weights V eps^-5 eta(|x_p - x_q| / eps) of every particle's neighbours (the
// particle itself excluded), so that dGamma_p/dt = nu sum_q w_pq (Gamma_q - Gamma_p).
struct PseWeights {
  NeighborLists neighbors;
  std::vector<double> weights;  // aligned with neighbors.indices
};
PseWeights pse_weights(const ParticleSet& particles, const PseOptions& options);

// dGamma/dt of every particle (resized to particles.size()).
void pse_rates(const ParticleSet& particles, const PseWeights& weights, double nu,
               std::vector<double>& dgx, std::vector<double>& dgy, std::vector<double>& dgz);

}  // namespace vortex
