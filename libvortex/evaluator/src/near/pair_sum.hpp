#pragma once
// The CPU inner loop: the pair kernel summed over a contiguous range of sources, vectorized across
// sources. Used by the direct sum and by the near field of the treecode, in double or in float
// (float: twice the SIMD lanes; each range's sum is returned in float and added in double by the
// caller, so long lists lose no digits).

#include <cstddef>
#include <vector>

#include "backend/packing.hpp"
#include "vortex/math/pair_kernel.hpp"

namespace vortex::detail {

// Source arrays in structure-of-arrays form, read as PairSource (strength / sigma^3, 1/sigma^2),
// with each position's point_key.
template <class T>
struct SourceArrays {
  const T *x, *y, *z, *gx, *gy, *gz, *inv_sigma2, *key;
};

// Packed sources as structure-of-arrays columns in T, kept by the CPU backend between calls.
template <class T>
class SourceColumns {
 public:
  void resize(std::size_t n) {
    for (auto& c : columns_) c.resize(n);
  }
  // The `store` of pack_sources (backend/packing.hpp).
  void store(std::ptrdiff_t i, const PackedSource& p) {
    const double v[8] = {p.x, p.y, p.z, p.gx, p.gy, p.gz, p.inv_sigma2, p.key};
    for (int k = 0; k < 8; ++k) columns_[k][i] = static_cast<T>(v[k]);
  }
  SourceArrays<T> arrays() const {
    return {columns_[0].data(), columns_[1].data(), columns_[2].data(), columns_[3].data(),
            columns_[4].data(), columns_[5].data(), columns_[6].data(), columns_[7].data()};
  }

 private:
  std::vector<T> columns_[8];
};

// Adds the contributions of sources [begin, end) at target (tx, ty, tz) to acc (no 1/(4 pi)). A
// source at a zero offset adds nothing here (DropAtZero, math/pair_kernel.hpp); the pairs that
// rounding made coincident are added by add_rounding_coincidences.
// The arrays are taken by value: read through a reference, their pointers are reloaded after the
// accumulator's zeroing (a memset in float), which may write anywhere, and the loop stays scalar.
template <Core C, class T>
inline void sum_range_velocity(const SourceArrays<T> s, std::size_t begin, std::size_t end, T tx,
                               T ty, T tz, VelocityAccumulator<double>& acc) {
  T u0 = 0, u1 = 0, u2 = 0;
#pragma omp simd reduction(+ : u0, u1, u2)
  for (std::size_t j = begin; j < end; ++j) {
    VelocityAccumulator<T> a;
    add_pair_velocity<C>(tx - s.x[j], ty - s.y[j], tz - s.z[j], s.gx[j], s.gy[j], s.gz[j],
                         s.inv_sigma2[j], DropAtZero{}, a);
    u0 += a.u[0];
    u1 += a.u[1];
    u2 += a.u[2];
  }
  acc.u[0] += u0;
  acc.u[1] += u1;
  acc.u[2] += u2;
}

template <Core C, class T>
inline void sum_range_velocity_gradient(const SourceArrays<T> s, std::size_t begin, std::size_t end,
                                        T tx, T ty, T tz,
                                        VelocityGradientAccumulator<double>& acc) {
  T u0 = 0, u1 = 0, u2 = 0;
  T d0 = 0, d1 = 0, d2 = 0, d3 = 0, d4 = 0, d5 = 0, d6 = 0, d7 = 0, d8 = 0;
  T w0 = 0, w1 = 0, w2 = 0;
#pragma omp simd reduction(+ : u0, u1, u2, d0, d1, d2, d3, d4, d5, d6, d7, d8, w0, w1, w2)
  for (std::size_t j = begin; j < end; ++j) {
    VelocityGradientAccumulator<T> a;
    add_pair_velocity_gradient<C>(tx - s.x[j], ty - s.y[j], tz - s.z[j], s.gx[j], s.gy[j], s.gz[j],
                                  s.inv_sigma2[j], DropAtZero{}, a);
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
    w0 += a.f_gamma[0];
    w1 += a.f_gamma[1];
    w2 += a.f_gamma[2];
  }
  acc.u[0] += u0;
  acc.u[1] += u1;
  acc.u[2] += u2;
  T d[9] = {d0, d1, d2, d3, d4, d5, d6, d7, d8};
  const T w[3] = {w0, w1, w2};
  add_cross_matrix(w, d);
  for (int k = 0; k < 9; ++k) acc.du[k] += d[k];
}

}  // namespace vortex::detail
