// Particle strength exchange: a Gaussian blob of vorticity on a lattice spreads with its second
// moment growing by 2 nu t per dimension; total vorticity is conserved to rounding; the exchange
// rates sum to zero; the kernel's moments on a lattice; bad options are refused.

#include <gtest/gtest.h>

#include "support/blob_spread.hpp"
#include "support/message_of.hpp"
#include "support/reference.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "vortex/diagnostics.hpp"
#include "vortex/pse.hpp"
#include "vortex/pse_weights.hpp"

namespace vortex {
namespace {

// A lattice cube [-n h, n h]^3 carrying a Gaussian blob along z, omega = exp(-|x|^2 / (2 s^2)).
ParticleSet lattice_blob(double h, int n, double s) {
  ParticleSet p;
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k) {
        const double x = i * h, y = j * h, z = k * h, r2 = x * x + y * y + z * z;
        p.push_back(x, y, z, 0.1 * std::exp(-r2 / (2 * s * s)) * h * h * h, 0,
                    std::exp(-r2 / (2 * s * s)) * h * h * h, h);
      }
  return p;
}

PseOptions lattice_options(double h) {
  PseOptions o;
  o.epsilon = h;
  o.volume = h * h * h;
  o.cutoff = 5;
  return o;
}

TEST(Pse, GaussianBlobSpreadsAtTwoNuTAndConservesVorticity) {
  const double h = 1, nu = 1, dt = 0.125;
  ParticleSet p = lattice_blob(h, 10, 1.5);
  const auto m2_start = z_vorticity_second_moments(p);
  const Diagnostics d0 = compute_diagnostics(p);
  const int steps = 8;
  for (int s = 0; s < steps; ++s) EXPECT_EQ(pse_diffuse(p, nu, dt, lattice_options(h)), 1);
  // Measured: within 1e-4; the lattice is wide enough that the blob does not reach its edge.
  testing::expect_moments_grew_by(p, m2_start, 2 * nu * dt * steps);
  const Diagnostics d = compute_diagnostics(p);
  EXPECT_NEAR(d.total_vorticity[2] / d0.total_vorticity[2], 1.0, 1e-13);
  EXPECT_NEAR(d.total_vorticity[0] / d0.total_vorticity[0], 1.0, 1e-13);
  // The peak decays (PSE's O(eps^2) error is large for a blob this narrow; the moments are exact).
  EXPECT_LT(p.gz[p.size() / 2], 0.6);
}

TEST(Pse, ExchangeRatesSumToZero) {
  ParticleSet p = lattice_blob(0.5, 5, 1.0);
  for (std::size_t i = 0; i < p.size(); ++i) p.x[i] += 0.05 * std::sin(7.0 * i);  // irregular
  const PseWeights w = pse_weights(p, lattice_options(0.5));
  std::vector<double> gx, gy, gz;
  pse_rates(p, w, 0.3, gx, gy, gz);
  double sum = 0, scale = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    sum += gz[i];
    scale += std::abs(gz[i]);
  }
  EXPECT_GT(scale, 0);
  EXPECT_LT(std::abs(sum), 1e-14 * scale);
}

TEST(Pse, KernelSecondMomentIsTwoOnALattice) {
  // sum_q V eps^-5 eta (x_q - x_p)_a^2 = 2 / eps^2 for the kernel's normalization; the default
  // cutoff of 6 eps misses 2e-6 of it.
  ParticleSet p = lattice_blob(1, 7, 1.0);
  PseOptions o = lattice_options(1);
  o.cutoff = PseOptions{}.cutoff;
  const PseWeights w = pse_weights(p, o);
  const std::size_t center = p.size() / 2;
  double m2 = 0;
  for (std::size_t k = w.neighbors.offsets[center]; k < w.neighbors.offsets[center + 1]; ++k) {
    const double dx = p.x[w.neighbors.indices[k]] - p.x[center];
    m2 += w.weights[k] * dx * dx;
  }
  EXPECT_NEAR(m2, 2.0, 2e-5);
}

TEST(Pse, SubStepsKeepLargeStepsStableAndOptionsAreChecked) {
  ParticleSet p = lattice_blob(1, 6, 1.0);
  PseOptions o = lattice_options(1);
  EXPECT_EQ(pse_diffuse(p, 1, 1.0, o), 5);  // nu dt / eps^2 = 1 in steps of at most 0.2
  for (double g : p.gz) EXPECT_TRUE(std::isfinite(g));
  PseOptions bad = o;
  bad.epsilon = 0;
  EXPECT_THROW(pse_diffuse(p, 1, 0.1, bad), std::invalid_argument);
  bad = o;
  bad.volume = -1;
  EXPECT_THROW(pse_diffuse(p, 1, 0.1, bad), std::invalid_argument);
  // Values at any scale as they are, not six decimals (-0.000000).
  bad = o;
  bad.epsilon = -1e-12;
  EXPECT_EQ(testing::message_of<std::invalid_argument>([&] { pse_diffuse(p, 1, 0.1, bad); }),
            "PSE: epsilon must be positive, got -1e-12");
  EXPECT_THROW(pse_diffuse(p, -1, 0.1, o), std::invalid_argument);
}

TEST(Pse, StepsNeedingMoreSubStepsThanAnIntHoldsAreRefused) {
  ParticleSet p = lattice_blob(1, 2, 1.0);
  const ParticleSet before = p;
  PseOptions o = lattice_options(1);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(pse_diffuse(p, inf, 0.1, o), std::invalid_argument);
  EXPECT_THROW(pse_diffuse(p, 1, inf, o), std::invalid_argument);
  // nu dt / (max_substep eps^2) = 5e11 sub-steps.
  o.epsilon = 1e-6;
  EXPECT_THROW(pse_diffuse(p, 1, 0.1, o), std::invalid_argument);
  EXPECT_EQ(p.gz, before.gz);
}

}  // namespace
}  // namespace vortex
