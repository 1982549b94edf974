#pragma once
// The CPU inner loop: the pair kernel summed over a contiguous range of sources, vectorized across
// sources. Used by the direct sum and by the near field of the treecode, in double or in float
// (float: twice the SIMD lanes; each range's sum is returned in float and added in double by the
// caller, so long lists lose no digits).

#include <cstddef>
#include <vector>

#include "vortex/biot_savart.hpp"
#include "vortex/particles.hpp"

namespace vortex::detail {

// Source arrays in structure-of-arrays form, with 1/sigma precomputed.
template <class T>
struct SourceArrays {
  const T *x, *y, *z, *gx, *gy, *gz, *inv_sigma;
};

// Owns the arrays of a SourceArrays<T> made from a particle set: positions relative to `origin`
// (in float, a point near the cloud's center keeps the separations accurate), strengths, 1/sigma.
template <class T>
class SourceStorage {
 public:
  explicit SourceStorage(const ParticleSet& s, const double origin[3] = nullptr) {
    const std::size_t n = s.size();
    const std::vector<double>* in[6] = {&s.x, &s.y, &s.z, &s.gx, &s.gy, &s.gz};
    for (int k = 0; k < 6; ++k) {
      const double shift = k < 3 && origin ? origin[k] : 0.0;
      columns_[k].resize(n);
      for (std::size_t j = 0; j < n; ++j) columns_[k][j] = static_cast<T>((*in[k])[j] - shift);
    }
    columns_[6].resize(n);
    for (std::size_t j = 0; j < n; ++j) columns_[6][j] = static_cast<T>(1.0 / s.sigma[j]);
  }
  SourceArrays<T> arrays() const {
    return {columns_[0].data(), columns_[1].data(), columns_[2].data(), columns_[3].data(),
            columns_[4].data(), columns_[5].data(), columns_[6].data()};
  }

 private:
  std::vector<T> columns_[7];
};

// Adds the contributions of sources [begin, end) at target (tx, ty, tz) to acc (no 1/(4 pi)).
template <Core C, class T>
inline void sum_range_velocity(const SourceArrays<T>& s, std::size_t begin, std::size_t end, T tx,
                               T ty, T tz, VelocityAccumulator<double>& acc) {
  T u0 = 0, u1 = 0, u2 = 0;
#pragma omp simd reduction(+ : u0, u1, u2)
  for (std::size_t j = begin; j < end; ++j) {
    VelocityAccumulator<T> a;
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

template <Core C, class T>
inline void sum_range_velocity_gradient(const SourceArrays<T>& s, std::size_t begin,
                                        std::size_t end, T tx, T ty, T tz,
                                        VelocityGradientAccumulator<double>& acc) {
  T u0 = 0, u1 = 0, u2 = 0;
  T d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0, d8 = 0;
#pragma omp simd reduction(+ : u0, u1, u2, d0, d1, d2, d3, d4, d5, d6, d7, d8)
  for (std::size_t j = begin; j < end; ++j) {
    VelocityGradientAccumulator<T> a;
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
  const T d[9] = {d0, d1, d2, d3, d4, d5, d6, d7, d8};
  for (int k = 0; k < 9; ++k) acc.du[k] += d[k];
}

}  // namespace vortex::detail
