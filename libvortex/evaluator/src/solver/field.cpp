#include "vortex/field.hpp"

#include <algorithm>
#include <cstddef>

namespace vortex {

StageTimes& StageTimes::operator+=(const StageTimes& o) {
  total += o.total;
  tree += o.tree;
  multipole += o.multipole;
  lists += o.lists;
  near += o.near;
  far += o.far;
  far_plan += o.far_plan;
  m2l += o.m2l;
  l2l += o.l2l;
  l2p += o.l2p;
  m2p += o.m2p;
  transfer += o.transfer;
  setup += o.setup;
  return *this;
}

void VelocityField::resize(std::size_t n, bool gradient) {
  // Storage of the right size is kept and zeroed by all threads: a solver that reuses its fields
  // every step then neither allocates nor zeroes hundreds of megabytes on one thread.
  for (auto& c : u) c.resize(n);
  for (auto& c : du) c.resize(gradient ? n : 0);
  has_gradient = gradient;
  const int components = gradient ? 12 : 3;
  const std::ptrdiff_t blocks = 64;
#pragma omp parallel for collapse(2) schedule(static)
  for (int c = 0; c < components; ++c) {
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
      std::vector<double>& v = c < 3 ? u[c] : du[c - 3];
      const std::size_t lo = n * b / blocks, hi = n * (b + 1) / blocks;
      std::fill(v.begin() + lo, v.begin() + hi, 0.0);
    }
  }
}

std::array<double, 3> VelocityField::vorticity(std::size_t i) const {
  // omega = (du_z/dy - du_y/dz, du_x/dz - du_z/dx, du_y/dx - du_x/dy)
  return {du[7][i] - du[5][i], du[2][i] - du[6][i], du[3][i] - du[1][i]};
}

}  // namespace vortex
