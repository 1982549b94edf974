#pragma once
// The CPU inner loop: the pair kernel summed over a contiguous range of sources, vectorized across
// sources. Used by the direct sum and by the near field of the treecode.

#include <cstddef>

#include "vortex/biot_savart.hpp"

namespace vortex::detail {

// Source arrays in structure-of-arrays form, with 1/sigma precomputed.
struct SourceArrays {
  const double *x, *y, *z, *gx, *gy, *gz, *inv_sigma;
};

// Adds the contributions of sources [begin, end) at target (tx, ty, tz) to acc (no 1/(4 pi)).
template <Core C>
inline void sum_range_velocity(const SourceArrays& s, std::size_t begin, std::size_t end, double tx,
                               double ty, double tz, VelocityAccumulator<double>& acc) {
  double u0 = 0, u1 = 0, u2 = 0;
#pragma omp simd reduction(+ : u0, u1, u2)
  for (std::size_t j = begin; j < end; ++j) {
    VelocityAccumulator<double> a;
    add_pair_velocity<C>(tx - s.x[j], ty - s.y[j], tz - s.z[j], s.gx[j], s.gy[j], s.gz[j],
                         s.inv_sigma[j], a);
    u0 += a.u[0];
    u1 += a.u[1];
    u2 += a.u[2];
  }
  acc.u[0] += u0;
  acc.u[1] += u1;
  acc.u[2] += u2;
}

template <Core C>
inline void sum_range_velocity_gradient(const SourceArrays& s, std::size_t begin, std::size_t end,
                                        double tx, double ty, double tz,
                                        VelocityGradientAccumulator<double>& acc) {
  double u0 = 0, u1 = 0, u2 = 0;
  double d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0, d8 = 0;
#pragma omp simd reduction(+ : u0, u1, u2, d0, d1, d2, d3, d4, d5, d6, d7, d8)
  for (std::size_t j = begin; j < end; ++j) {
    VelocityGradientAccumulator<double> a;
    add_pair_velocity_gradient<C>(tx - s.x[j], ty - s.y[j], tz - s.z[j], s.gx[j], s.gy[j], s.gz[j],
                                  s.inv_sigma[j], a);
    u0 += a.u[0];
    u1 += a.u[1];
    u2 += a.u[2];
    d0 += a.du[0];
    d1 += a.du[1];
    d2 += a.du[2];
    d3 += a.du[3];
    d4 += a.du[4];
    d5 += a.du[5];
    d6 += a.du[6];
    d7 += a.du[7];
    d8 += a.du[8];
  }
  acc.u[0] += u0;
  acc.u[1] += u1;
  acc.u[2] += u2;
  const double d[9] = {d0, d1, d2, d3, d4, d5, d6, d7, d8};
  for (int k = 0; k < 9; ++k) acc.du[k] += d[k];
}

}  // namespace vortex::detail
