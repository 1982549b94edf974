#include "vortex/pse.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "solver/text_excerpt.hpp"
#include "vortex/pse_weights.hpp"

namespace vortex {

void validate(const PseOptions& o) {
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw std::invalid_argument("PSE: epsilon must be positive, got " +
                                detail::number_text(o.epsilon));
  if (!(o.volume > 0) || !std::isfinite(o.volume))
    throw std::invalid_argument("PSE: volume must be positive, got " +
                                detail::number_text(o.volume));
  if (!(o.cutoff > 0)) throw std::invalid_argument("PSE: cutoff must be positive");
  if (!(o.max_substep > 0) || o.max_substep > 0.5)
    throw std::invalid_argument("PSE: max_substep must be in (0, 0.5]");
}

namespace {

// The weights of the first n particles of p, among all of p (the copies of a part beyond n are
// neighbours only).
PseWeights first_weights(const ParticleSet& p, std::size_t n, const PseOptions& o) {
  validate(o);
  PseWeights w;
  if (n == 0) return w;
  const NeighborSearch search(p);
  PointsView queries(p);
  queries.n = n;
  w.neighbors = search.all_within(queries, o.cutoff * o.epsilon);
  w.weights.assign(w.neighbors.indices.size(), 0.0);
  const double eps2 = o.epsilon * o.epsilon;
  const double scale = 2.0 * std::pow(2.0 * M_PI, -1.5) * o.volume / (eps2 * eps2 * o.epsilon);
#pragma omp parallel for schedule(static) if (n > 2000)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
    for (std::size_t k = w.neighbors.offsets[i]; k < w.neighbors.offsets[i + 1]; ++k) {
      const int j = w.neighbors.indices[k];
      if (j == i) continue;  // weight 0: the self term cancels
      const double dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j], dz = p.z[i] - p.z[j];
      w.weights[k] = scale * std::exp(-0.5 * (dx * dx + dy * dy + dz * dz) / eps2);
    }
  }
  return w;
}

// The rates of the first n particles of p, from their weights (first_weights).
void first_rates(const ParticleSet& p, const PseWeights& w, double nu, std::size_t n,
                 std::vector<double>& dgx, std::vector<double>& dgy, std::vector<double>& dgz) {
  dgx.assign(n, 0.0);
  dgy.assign(n, 0.0);
  dgz.assign(n, 0.0);
  if (n == 0) return;
  if (w.neighbors.size() != n) throw std::invalid_argument("pse_rates: weights of another set");
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
    double sx = 0, sy = 0, sz = 0;
    for (std::size_t k = w.neighbors.offsets[i]; k < w.neighbors.offsets[i + 1]; ++k) {
      const int j = w.neighbors.indices[k];
      const double c = w.weights[k];
      sx += c * (p.gx[j] - p.gx[i]);
      sy += c * (p.gy[j] - p.gy[i]);
      sz += c * (p.gz[j] - p.gz[i]);
    }
    dgx[i] = nu * sx;
    dgy[i] = nu * sy;
    dgz[i] = nu * sz;
  }
}

}  // namespace

PseWeights pse_weights(const ParticleSet& p, const PseOptions& o) {
  return first_weights(p, p.size(), o);
}

void pse_rates(const ParticleSet& p, const PseWeights& w, double nu, std::vector<double>& dgx,
               std::vector<double>& dgy, std::vector<double>& dgz) {
  first_rates(p, w, nu, p.size(), dgx, dgy, dgz);
}

int pse_substeps(double nu, double dt, const PseOptions& o) {
  validate(o);
  if (!(nu >= 0) || !(dt >= 0) || !std::isfinite(nu) || !std::isfinite(dt))
    throw std::invalid_argument("pse_diffuse: nu and dt must be finite and >= 0");
  if (nu == 0 || dt == 0) return 0;
  // Checked as a double: a count beyond int (or an infinite one) has no int value to convert to.
  const double needed = std::ceil(nu * dt / (o.max_substep * o.epsilon * o.epsilon));
  if (!(needed <= std::numeric_limits<int>::max()))
    throw std::invalid_argument("pse_diffuse: nu dt / (max_substep eps^2) asks for " +
                                std::to_string(needed) + " sub-steps, more than " +
                                std::to_string(std::numeric_limits<int>::max()));
  return std::max(1, static_cast<int>(needed));
}

int pse_diffuse(ParticleSet& p, double nu, double dt, const PseOptions& o) {
  pse_substeps(nu, dt, o);  // checks the arguments
  if (p.size() == 0) return 0;
  return detail::pse_diffuse_part(p, p.size(), nu, dt, o, [](ParticleSet&) {});
}

int detail::pse_diffuse_part(ParticleSet& p, std::size_t own, double nu, double dt,
                             const PseOptions& o,
                             const std::function<void(ParticleSet&)>& refresh) {
  const int substeps = pse_substeps(nu, dt, o);
  if (substeps == 0) return 0;
  const PseWeights w = first_weights(p, own, o);
  const double h = dt / substeps;
  const std::size_t n = own;
  std::vector<double> k1x, k1y, k1z, k2x, k2y, k2z;
  ParticleSet stage = p;
  for (int s = 0; s < substeps; ++s) {
    first_rates(p, w, nu, n, k1x, k1y, k1z);
    for (std::size_t i = 0; i < n; ++i) {
      stage.gx[i] = p.gx[i] + h * k1x[i];
      stage.gy[i] = p.gy[i] + h * k1y[i];
      stage.gz[i] = p.gz[i] + h * k1z[i];
    }
    refresh(stage);
    first_rates(stage, w, nu, n, k2x, k2y, k2z);
    for (std::size_t i = 0; i < n; ++i) {
      p.gx[i] += 0.5 * h * (k1x[i] + k2x[i]);
      p.gy[i] += 0.5 * h * (k1y[i] + k2y[i]);
      p.gz[i] += 0.5 * h * (k1z[i] + k2z[i]);
    }
    if (s + 1 < substeps) refresh(p);
  }
  return substeps;
}

}  // namespace vortex
